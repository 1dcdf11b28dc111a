//! What the material alone says: a side that can never mate whatever the
//! placement of the pieces, and a side whose material is plentiful enough to
//! presume a mate without searching.
//!
//! [`cannot_mate`] must be sound: it answers `true` only when no legal
//! continuation lets `side` mate. [`needs_loser_promotion`] may be wrong in
//! the other direction (it guides the search), except when the loser has no
//! pawns left, where [`cannot_mate`] relies on it.

use shakmaty::{Bitboard, Board, Chess, Color, Position, Role};

/// Whether `side` can never mate, from the material on the board alone.
pub fn cannot_mate(pos: &Chess, side: Color) -> bool {
    let board = pos.board();
    if board.by_color(side) == board.by_piece(Role::King.of(side)) {
        return true;
    }
    // shakmaty's test is sound: it only fails when no placement of this
    // material lets `side` mate (K+B vs K, K+N vs K, same-coloured bishops).
    if pos.has_insufficient_material(side) {
        return true;
    }
    let loser_pawns = board.by_piece(Role::Pawn.of(!side));
    loser_pawns.is_empty() && needs_loser_promotion(board, side)
}

/// Whether `side`'s material could mate only with a blocker the loser does
/// not have yet, so the loser would have to promote a pawn into one.
///
/// - A lone knight mates only in a corner or on an edge, with the loser's own
///   pieces taking the king's flight squares. Every such blocker next to the
///   king attacks the checking knight when it is a queen (or can interpose
///   nowhere, a knight's check cannot be blocked), so queens and pawns that
///   stay pawns never help; a rook, bishop or knight can.
/// - Bishops of one square colour: the check comes along a diagonal, and of
///   the two flight squares of the other colour next to both the king and
///   the checking line, the winner's king covers at most one. The other one
///   holds a loser's piece standing on the bishops' "wrong" colour: a rook or
///   queen there captures the checking bishop or interposes, so only a knight,
///   a bishop of the other colour, or a pawn can be the blocker. Without
///   pawns the winner cannot give a double check with same-coloured bishops.
pub fn needs_loser_promotion(board: &Board, side: Color) -> bool {
    let ours = board.by_color(side);
    let theirs = board.by_color(!side);
    let minors_and_rooks = board.knights() | board.bishops() | board.rooks();
    let lone_knight = ours.count() == 2 && (ours & board.knights()).count() == 1;
    if lone_knight && (theirs & minors_and_rooks).is_empty() {
        return true;
    }
    let our_bishops = ours & board.bishops();
    if our_bishops.is_empty() || ours.count() != our_bishops.count() + 1 {
        return false;
    }
    let colour = if our_bishops.intersects(Bitboard::DARK_SQUARES) {
        Bitboard::DARK_SQUARES
    } else {
        Bitboard::LIGHT_SQUARES
    };
    let other_colour_bishops = board.bishops() & !colour;
    other_colour_bishops.is_empty() && (theirs & board.knights()).is_empty()
}

/// Whether `side` has plenty of mobile force, so that a helpmate is presumed
/// without searching: no pawn of either side stands blocked by an enemy pawn
/// (the usual sign of a locked structure), and `side` keeps mating material
/// (a queen, rook or pawn, or two minor pieces, or one minor piece with the
/// loser having pieces that can block).
///
/// A presumption, not a proof: the rules treat it as "winnable", the safe
/// side, and the full analysis never uses it.
pub fn presumed_mate(board: &Board, side: Color) -> bool {
    if blocked_pawns(board) > 0 {
        return false;
    }
    let ours = board.by_color(side);
    let theirs = board.by_color(!side);
    let heavy = ours & (board.queens() | board.rooks() | board.pawns());
    if heavy.any() {
        return true;
    }
    let minors = ours & (board.knights() | board.bishops());
    let their_blockers = theirs & !board.kings() & !board.queens();
    minors.count() >= 2
        && ((ours & board.knights()).any() || bishops_of_both_colours(ours & board.bishops()))
        || minors.count() == 1 && their_blockers.count() >= 2
}

fn bishops_of_both_colours(bishops: Bitboard) -> bool {
    bishops.intersects(Bitboard::DARK_SQUARES) && bishops.intersects(Bitboard::LIGHT_SQUARES)
}

/// How many white pawns stand directly below a black pawn.
pub fn blocked_pawns(board: &Board) -> usize {
    let white = board.by_piece(Role::Pawn.of(Color::White));
    let black = board.by_piece(Role::Pawn.of(Color::Black));
    (white.shift(8) & black).count()
}

/// Whether some pawn has no enemy pawn on its file (CHA's "lonely" pawns):
/// such a pawn may run through, so the structure is not locked.
pub fn has_lonely_pawns(board: &Board) -> bool {
    let files = |pawns: Bitboard| -> u8 {
        pawns
            .into_iter()
            .fold(0u8, |acc, sq| acc | (1 << sq.file().to_u32()))
    };
    let white =
        board.by_piece(Role::Pawn.of(Color::White)) & !Bitboard::from_rank(shakmaty::Rank::Seventh);
    let black =
        board.by_piece(Role::Pawn.of(Color::Black)) & !Bitboard::from_rank(shakmaty::Rank::Second);
    files(white) != files(black)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::core::test_positions::position;

    #[test]
    fn material_that_can_never_mate() {
        // (FEN, white cannot mate, black cannot mate)
        let cases = [
            ("8/8/4k3/8/8/3K4/3Q4/8 w - - 0 1", false, true),
            ("8/8/8/8/8/K7/8/k1r1N3 b - - 0 1", false, false),
            ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", true, true),
            ("5bk1/8/8/8/8/8/1B6/4K3 b - - 0 1", true, true),
            ("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false, false),
            // K+N against K+Q: the queen would capture the knight.
            ("8/8/4k3/8/8/3K4/3N4/7q w - - 0 1", true, false),
            // K+N against K+Q+P: the pawn may promote to a blocker.
            ("8/p7/4k3/8/8/3K4/3N4/7q w - - 0 1", false, false),
            // K+N against K+R: the rook can block.
            ("8/8/4k3/8/8/3K4/3N4/7r w - - 0 1", false, false),
            // Dark bishops against K+R+Q: every blocker of the light squares
            // would take the bishop or interpose; bishops of both colours mate.
            ("8/8/4k3/8/3r4/3K4/3B4/4B2q w - - 0 1", true, false),
            ("8/8/4k3/8/3r4/3K4/3B4/5B1q w - - 0 1", false, false),
        ];
        for (fen, white, black) in cases {
            let pos = position(fen);
            assert_eq!(cannot_mate(&pos, Color::White), white, "{fen} white");
            assert_eq!(cannot_mate(&pos, Color::Black), black, "{fen} black");
        }
    }
}
