//! Results that follow from the position and its history, and draw claims.
//!
//! After every move [`automatic_end`] decides, in the precedence of
//! RULES.md "Results": checkmate, stalemate, dead position, fivefold
//! repetition, then the 75-move rule. Claims (9.2, 9.3) are checked by
//! [`upheld_claim`] against the position as it is, or as it would be after
//! the claimant's written move.
//!
//! "Same position" is FIDE's: same side to move, same pieces, same castling
//! rights and the same *legal* en passant captures. A [`PositionKey`] hashes
//! exactly that (`EnPassantMode::Legal`), so a FEN en passant square with no
//! legal capture does not make two positions differ.

use shakmaty::zobrist::Zobrist128;
use shakmaty::{Chess, EnPassantMode, Position};

use super::event::{ClaimKind, GameResult, Reason};
use super::unwinnable;

/// Identifies a position for repetition. 128 bits make an accidental
/// collision in any real game practically impossible.
pub type PositionKey = Zobrist128;

/// Plies without a pawn move or capture for a fifty-move claim (9.3).
pub const FIFTY_MOVE_PLIES: u32 = 100;
/// Plies without a pawn move or capture that end the game by themselves (9.6.2).
pub const SEVENTY_FIVE_MOVE_PLIES: u32 = 150;
/// Occurrences of one position for a threefold claim (9.2).
pub const THREEFOLD: usize = 3;
/// Occurrences of one position that end the game by themselves (9.6.1).
pub const FIVEFOLD: usize = 5;

/// The repetition key of `pos`.
pub fn position_key(pos: &Chess) -> PositionKey {
    pos.zobrist_hash(EnPassantMode::Legal)
}

/// How often the last position of `history` occurred in it (at least 1).
pub fn occurrences_of_last(history: &[PositionKey]) -> usize {
    match history.last() {
        Some(last) => history.iter().filter(|key| *key == last).count(),
        None => 0,
    }
}

/// The result the position itself imposes, if any, in order of precedence.
///
/// `history` holds the keys of every position of the game so far, the
/// current one last.
pub fn automatic_end(pos: &Chess, history: &[PositionKey]) -> Option<(GameResult, Reason)> {
    if pos.is_checkmate() {
        // Checkmate beats everything below, even when the mating move was the 150th ply.
        return Some((GameResult::win_for(!pos.turn()), Reason::Checkmate));
    }
    if pos.is_stalemate() {
        return Some((GameResult::Draw, Reason::Stalemate));
    }
    if unwinnable::is_dead_position(pos) {
        return Some((GameResult::Draw, Reason::DeadPosition));
    }
    if occurrences_of_last(history) >= FIVEFOLD {
        return Some((GameResult::Draw, Reason::Fivefold));
    }
    if pos.halfmoves() >= SEVENTY_FIVE_MOVE_PLIES {
        return Some((GameResult::Draw, Reason::SeventyFiveMoves));
    }
    None
}

/// Whether a claim of `kind` (any kind when `None`) holds for the position
/// `pos`, the last of `history`. Returns the kind that holds, threefold first.
pub fn upheld_claim(
    pos: &Chess,
    history: &[PositionKey],
    kind: Option<ClaimKind>,
) -> Option<ClaimKind> {
    let threefold = || occurrences_of_last(history) >= THREEFOLD;
    let fifty = || pos.halfmoves() >= FIFTY_MOVE_PLIES;
    match kind {
        Some(ClaimKind::Threefold) => threefold().then_some(ClaimKind::Threefold),
        Some(ClaimKind::Fifty) => fifty().then_some(ClaimKind::Fifty),
        None if threefold() => Some(ClaimKind::Threefold),
        None if fifty() => Some(ClaimKind::Fifty),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::core::test_positions::position;

    #[test]
    fn precedence_of_automatic_ends() {
        // (FEN, expected end)
        let cases = [
            (
                "k7/7R/1K6/8/8/8/8/8 b - - 150 150",
                Some(Reason::SeventyFiveMoves),
            ),
            (
                "R1k5/8/2K5/8/8/8/8/8 b - - 149 150",
                Some(Reason::Checkmate),
            ),
            ("k7/8/1Q6/8/8/8/8/7K b - - 0 1", Some(Reason::Stalemate)),
            ("8/8/4k3/8/8/3K4/8/8 b - - 0 1", Some(Reason::DeadPosition)),
            (
                "8/8/4k3/8/8/3K4/R7/8 b - - 150 150",
                Some(Reason::SeventyFiveMoves),
            ),
            ("8/8/4k3/8/8/3K4/R7/8 b - - 149 150", None),
        ];
        for (fen, expected) in cases {
            let pos = position(fen);
            let history = [position_key(&pos)];
            let end = automatic_end(&pos, &history).map(|(_, reason)| reason);
            assert_eq!(end, expected, "{fen}");
        }
    }

    #[test]
    fn legal_en_passant_decides_sameness() {
        // e3 is not capturable: same as the position without the square.
        let with_square = position("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1");
        let without = position("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
        assert_eq!(position_key(&with_square), position_key(&without));
        // d6 is capturable by the e5 pawn: a different position.
        let capturable = position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        let not_capturable = position("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2");
        assert_ne!(position_key(&capturable), position_key(&not_capturable));
    }

    #[test]
    fn claims_need_three_occurrences_or_hundred_plies() {
        let pos = position("8/8/4k3/8/8/3K4/8/R7 b - - 100 120");
        let key = position_key(&pos);
        assert_eq!(upheld_claim(&pos, &[key], None), Some(ClaimKind::Fifty));
        assert_eq!(upheld_claim(&pos, &[key], Some(ClaimKind::Threefold)), None);
        assert_eq!(
            upheld_claim(
                &pos,
                &[key, Zobrist128(7), key, key],
                Some(ClaimKind::Threefold)
            ),
            Some(ClaimKind::Threefold)
        );
        let early = position("8/8/4k3/8/8/3K4/8/R7 b - - 99 120");
        assert_eq!(upheld_claim(&early, &[key], None), None);
    }
}
