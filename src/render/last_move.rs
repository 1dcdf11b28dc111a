//! Whether a last move given to highlight could have led to the board drawn.
//!
//! A board is drawn from a FEN alone, so the move cannot be replayed; what
//! the position after it must still show is checked instead: the origin is
//! empty now, the piece on the destination belongs to the side that just
//! moved (the side *not* to move), and that piece (a pawn, if the move
//! promoted it) goes from the origin to the destination by its own movement,
//! the squares between still empty. Castling is the king's move in standard
//! chess, written king-to-target (`e1g1`) or king-to-rook (`e1h1`), with the
//! rook now beside the king. Every move a game can have played passes; a
//! move no game could have played (`e2e5` from the start, a knight that
//! "moved" like a bishop) is refused. Whether the position before was legal
//! is not asked. The movement itself is shakmaty's attack tables.

use shakmaty::uci::UciMove;
use shakmaty::{Board, CastlingSide, Color, File, Rank, Role, Square, attacks};

use super::RenderError;

/// The squares to highlight for `uci`, played by the side not to move in
/// `board`, or why it cannot be the move that led to `board`.
pub fn last_move_squares(
    board: &Board,
    turn: Color,
    uci: &str,
) -> Result<(Square, Square), RenderError> {
    let shown = || uci.chars().take(16).collect::<String>();
    let Ok(UciMove::Normal {
        from,
        to,
        promotion,
    }) = uci.parse::<UciMove>()
    else {
        return Err(RenderError::Uci(shown()));
    };
    if could_lead_here(board, !turn, from, to, promotion) {
        Ok((from, to))
    } else {
        Err(RenderError::LastMove(shown()))
    }
}

fn could_lead_here(
    board: &Board,
    mover: Color,
    from: Square,
    to: Square,
    promotion: Option<Role>,
) -> bool {
    // Castling first: in Chess960 its start squares may be occupied again.
    if promotion.is_none() && is_castling(board, mover, from, to) {
        return true;
    }
    if board.piece_at(from).is_some() {
        return false;
    }
    let Some(piece) = board.piece_at(to).filter(|piece| piece.color == mover) else {
        return false;
    };
    let last_rank = mover.relative_rank(Rank::Eighth);
    let role = match promotion {
        Some(Role::Pawn | Role::King) => return false,
        Some(promoted) if piece.role != promoted || to.rank() != last_rank => return false,
        Some(_) => Role::Pawn,
        None if piece.role == Role::Pawn && to.rank() == last_rank => return false,
        None => piece.role,
    };
    match role {
        Role::Pawn => pawn_could_move(board, mover, from, to),
        _ => attacks::attacks(from, role.of(mover), board.occupied()).contains(to),
    }
}

/// A push (one step, or two from the starting rank over an empty square) or
/// a capture (en passant included: the captured pawn is gone either way).
fn pawn_could_move(board: &Board, mover: Color, from: Square, to: Square) -> bool {
    if from.rank() == mover.relative_rank(Rank::First) {
        return false;
    }
    if attacks::pawn_attacks(mover, from).contains(to) {
        return true;
    }
    let forward = mover.fold_wb(8, -8);
    let Some(one) = from.offset(forward) else {
        return false;
    };
    one == to
        || (from.rank() == mover.relative_rank(Rank::Second)
            && board.piece_at(one).is_none()
            && one.offset(forward) == Some(to))
}

/// Castling written `e1g1`/`e1c1` (standard chess's king-two-squares) or
/// king-takes-rook (`e1h1`, and every Chess960 castling: `b1a1`, `f1g1`,
/// `g1h1` for a king that stayed where it was).
fn is_castling(board: &Board, mover: Color, from: Square, to: Square) -> bool {
    let back = mover.backrank();
    if from.rank() != back || to.rank() != back || from == to {
        return false;
    }
    if from.file() == File::E {
        let corner = match to.file() {
            File::G => Some(File::H),
            File::C => Some(File::A),
            _ => None,
        };
        if let Some(corner) = corner
            && castled(board, mover, from, Square::from_coords(corner, back))
        {
            return true;
        }
    }
    castled(board, mover, from, to)
}

/// Whether `board` is what castling with the king from `king` and the rook
/// from `rook` leaves: each on its castled square (as in standard chess,
/// whatever the start), and every other square either crossed empty. The
/// start squares may hold the other piece, as in Chess960 they can.
fn castled(board: &Board, mover: Color, king: Square, rook: Square) -> bool {
    let back = mover.backrank();
    let side = CastlingSide::from_king_side(king < rook);
    let king_to = Square::from_coords(side.king_to_file(), back);
    let rook_to = Square::from_coords(side.rook_to_file(), back);
    let crossed = (attacks::between(king, king_to).with(king).with(king_to))
        | (attacks::between(rook, rook_to).with(rook).with(rook_to));
    let rest = crossed.without(king_to).without(rook_to);
    board.piece_at(king_to) == Some(mover.king())
        && board.piece_at(rook_to) == Some(mover.rook())
        && board.occupied().is_disjoint(rest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    /// `FEN | last move | whether it could have led to the FEN`.
    const CASES: &str = "
        # From the start position: the destination holds nothing.
        rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | e2e5 | no
        rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | e2e4 | no
        rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | e2e4 | yes
        rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | e3e4 | yes
        rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | d3e4 | yes
        rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | e1e4 | no
        rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | f2e4 | no
        # Wrong side: White is to move, so Black moved last.
        rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 | e2e4 | no
        rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 | e7e5 | yes
        # A double step over a piece.
        rnbqkbnr/pppp1ppp/4n3/4p3/4P3/8/PPPP1PPP/RNBQKB1R w KQkq - 0 2 | e7e5 | no
        # The README's example: the queen took on f7.
        r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4 | h5f7 | yes
        r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4 | h4f7 | no
        r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4 | f3f7 | no
        r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4 | f7f7 | no
        # Knights jump; bishops do not.
        rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1 | g1f3 | yes
        rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1 | h1f3 | no
        # Castling, both forms; a king that went two squares without its rook.
        4k3/8/8/8/8/8/8/R4RK1 b - - 1 1 | e1g1 | yes
        4k3/8/8/8/8/8/8/R4RK1 b - - 1 1 | e1h1 | yes
        4k3/8/8/8/8/8/8/2KR3R b - - 1 1 | e1c1 | yes
        4k3/8/8/8/8/8/8/1NKR3R b - - 1 1 | e1a1 | no
        2kr4/8/8/8/8/8/8/4K3 w - - 1 2 | e8c8 | yes
        4k3/8/8/8/8/8/8/R5K1 b - - 1 1 | e1g1 | no
        4k3/8/8/8/8/8/8/4K3 b - - 1 1 | e1e2 | no
        4k3/8/8/8/8/8/4K3/8 b - - 1 1 | e1e2 | yes
        # Chess960 castling, king-takes-rook: the king one step (f1g1, the
        # rook now on the king's start), not at all (g1h1), or long from b1.
        4k3/8/8/8/8/8/8/5RK1 b - - 1 1 | f1g1 | yes
        4k3/8/8/8/8/8/8/5RK1 b - - 1 1 | g1h1 | yes
        4k3/8/8/8/8/8/8/5RK1 b - - 1 1 | b1h1 | yes
        4k3/8/8/8/8/8/8/2KR4 b - - 1 1 | b1a1 | yes
        4k3/8/8/8/8/8/8/2KR4 b - - 1 1 | d1c1 | yes
        4k3/8/8/8/8/8/8/1NKR4 b - - 1 1 | d1a1 | no
        4k3/8/8/8/8/8/8/5RK1 b - - 1 1 | f1h1 | yes
        4k3/8/8/8/8/8/8/5RK1 b - - 1 1 | g1f1 | no
        2kr4/8/8/8/8/8/8/4K3 w - - 1 2 | b8a8 | yes
        # Promotions: the promoted piece stands on the last rank.
        1Q2k3/8/8/8/8/8/8/4K3 b - - 0 1 | a7b8q | yes
        1Q2k3/8/8/8/8/8/8/4K3 b - - 0 1 | b7b8q | yes
        1Q2k3/8/8/8/8/8/8/4K3 b - - 0 1 | b7b8n | no
        1Q2k3/8/8/8/8/8/8/4K3 b - - 0 1 | b6b8q | no
        1Q2k3/8/8/8/8/8/8/4K3 b - - 0 1 | b7b8k | no
        1Q2k3/8/8/8/8/8/8/4K3 b - - 0 1 | a8b8 | yes
        4k3/8/8/8/8/8/8/1q2K3 w - - 0 2 | c2b1q | yes
        # En passant: the pawn lands behind the one it took.
        4k3/8/3P4/8/8/8/8/4K3 b - - 0 1 | e5d6 | yes
        # Not UCI at all, or a drop, or a null move.
        4k3/8/8/8/8/8/8/4K3 w - - 0 1 | e9e8 | no
        4k3/8/8/8/8/8/8/4K3 w - - 0 1 | Q@e4 | no
        4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 0000 | no
        4k3/8/8/8/8/8/8/4K3 w - - 0 1 | e2é4 | no
    ";

    #[test]
    fn only_moves_that_could_have_led_here_are_highlighted() {
        let rows = CASES
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'));
        for row in rows {
            let [fen, uci, possible] = row.split(" | ").collect::<Vec<_>>()[..] else {
                panic!("bad row {row:?}");
            };
            let setup = fen.parse::<Fen>().expect(fen).into_setup();
            let got = last_move_squares(&setup.board, setup.turn, uci);
            assert_eq!(got.is_ok(), possible == "yes", "{row}: {got:?}");
        }
    }
}
