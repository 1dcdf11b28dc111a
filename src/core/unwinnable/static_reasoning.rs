//! Proofs without search: from where pieces could ever stand ([`Reach`]),
//! show that no mate by the intended winner can ever happen.
//!
//! A mate needs a checking piece of the winner attacking a square the
//! loser's king can reach. Sliders and knights attacking a square reach it
//! in the over-approximation (the king's square is clearable), pawns attack
//! it from a square they reach. So:
//!
//! 1. no winner's piece can attack the loser king's region → unwinnable;
//! 2. only bishops of one square colour can → every flight square of the
//!    other colour next to the king must hold a loser's piece (or be covered
//!    by the winner's king, at most one of them), and the diagonal the bishop
//!    does not check along must be covered too. When no square of the region
//!    admits enough blockers, the position is unwinnable.

use shakmaty::{Bitboard, Chess, Color, Position, Role, Square, attacks};

use super::reach::Reach;

/// Whether the static reasoning proves `winner` can never mate in `pos`.
pub fn proves_unwinnable(pos: &Chess, winner: Color) -> bool {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        // Mate by the winner already happened, or the game is over.
        return !(pos.is_check() && pos.turn() != winner);
    }
    // The reach ignores the en passant right of this very move.
    if moves.iter().any(|m| m.is_en_passant()) {
        return false;
    }
    let reach = Reach::of(pos.board());
    no_mating_square(&reach, winner)
}

fn no_mating_square(reach: &Reach, winner: Color) -> bool {
    let board = reach.board();
    let loser = !winner;
    let region = reach.king_region(loser);
    let winner_king = board.by_piece(Role::King.of(winner));
    let visitors = reach.visitors(region, winner, true) & !winner_king;
    if visitors.is_empty() {
        return true;
    }
    if !(visitors & !board.bishops()).is_empty() {
        return false;
    }
    let colour = if visitors.is_subset(Bitboard::DARK_SQUARES) {
        Bitboard::DARK_SQUARES
    } else if visitors.is_subset(Bitboard::LIGHT_SQUARES) {
        Bitboard::LIGHT_SQUARES
    } else {
        return false;
    };
    let king_reach = winner_king
        .first()
        .map_or(Bitboard::EMPTY, |k| reach.of_piece(k));
    let loser_pieces = board.by_color(loser) & !board.kings();
    (region & colour)
        .into_iter()
        .all(|s| !mate_possible_on(reach, s, region, colour, visitors, king_reach, loser_pieces))
}

/// Whether a bishop mate of the loser's king on `s` passes the counting test.
fn mate_possible_on(
    reach: &Reach,
    s: Square,
    region: Bitboard,
    colour: Bitboard,
    bishops: Bitboard,
    king_reach: Bitboard,
    loser_pieces: Bitboard,
) -> bool {
    let checkers: Bitboard = bishops
        .into_iter()
        .filter(|&b| reach.of_piece(b).contains(s))
        .collect();
    if checkers.is_empty() {
        return false;
    }
    let neighbours = attacks::king_attacks(s) & region;
    let escapes = neighbours & !colour;
    // The winner's king covers a flight square only from two squares away.
    let ring = attacks::king_attacks(s)
        .into_iter()
        .fold(Bitboard::EMPTY, |acc, n| acc | attacks::king_attacks(n))
        & !attacks::king_attacks(s)
        & !Bitboard::from_square(s);
    let king_helps = usize::from(king_reach.intersects(ring));

    let blockers_of = |squares: Bitboard| -> Bitboard {
        loser_pieces
            .into_iter()
            .filter(|&p| reach.of_piece(p).intersects(squares))
            .collect()
    };
    let unblockable = escapes
        .into_iter()
        .filter(|&e| blockers_of(Bitboard::from_square(e)).is_empty())
        .count();
    if unblockable > king_helps {
        return false;
    }
    let escape_blockers = blockers_of(escapes).count();
    if escapes.count() > escape_blockers + king_helps {
        return false;
    }
    if checkers.count() >= 2 || bishops.count() >= 2 {
        return true;
    }
    // One bishop: it covers the diagonal it checks along; the other one's
    // squares next to the king need blockers (or the king, up to three).
    let diagonals = attacks::bishop_attacks(s, Bitboard::EMPTY);
    let same_colour = neighbours & colour;
    let mut cheapest = usize::MAX;
    for n in same_colour {
        let line = attacks::ray(s, n) & diagonals;
        let other = (same_colour & !line).count();
        cheapest = cheapest.min(other);
    }
    if cheapest == usize::MAX {
        cheapest = 0;
    }
    let all_blockers = blockers_of(neighbours).count();
    escapes.count() + cheapest <= all_blockers + 3 * king_helps
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn position(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("valid FEN");
        fen.into_position(CastlingMode::Standard)
            .expect("legal position")
    }

    #[test]
    fn static_table() {
        // (FEN, white proved unwinnable, black proved unwinnable)
        let cases = [
            // A locked chain, one bishop each behind it.
            (
                "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1",
                true,
                true,
            ),
            // Open board: a lone king proves nothing for white.
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false, true),
            // Rook behind its own king: the reach lets it pass the king, so
            // only the search can tell (neither side can mate).
            ("2k5/6p1/6P1/6PK/6P1/6PR/7P/8 b - - 0 1", false, false),
        ];
        for (fen, white, black) in cases {
            let pos = position(fen);
            assert_eq!(proves_unwinnable(&pos, Color::White), white, "{fen} white");
            assert_eq!(proves_unwinnable(&pos, Color::Black), black, "{fen} black");
        }
    }
}
