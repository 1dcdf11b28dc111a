//! Chess960 start positions by their Scharnagl number.
//!
//! Reinhard Scharnagl numbered the 960 start positions of Fischer's random
//! chess 0 to 959; the number is what players and servers quote (lichess
//! shows it, `start:518` is the standard position). From a number the back
//! rank follows in four steps, each taking a digit of a mixed-radix number:
//! the light-squared bishop (4 places), the dark-squared one (4), the queen
//! on one of the 6 squares left (6), the two knights on 2 of the 5 left (10
//! ways), and rook, king, rook on the last three, in that order.
//!
//! ```
//! use pawnpost::core::chess960;
//!
//! assert_eq!(chess960::back_rank_letters(518).as_deref(), Some("RNBQKBNR"));
//! assert_eq!(chess960::back_rank_letters(960), None);
//! let fen = chess960::fen(0).unwrap();
//! assert_eq!(fen, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
//! assert_eq!(chess960::number_of_fen(&fen), Some(0));
//! ```

use shakmaty::Role;

/// How many start positions there are.
pub const COUNT: u16 = 960;
/// The standard start position's number.
pub const STANDARD: u16 = 518;

/// The two squares of the knights among the five left free, for each of
/// the ten values of their digit (Scharnagl's table).
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// White's back rank, a-file first, of start position `number`; `None`
/// past 959.
pub fn back_rank(number: u16) -> Option<[Role; 8]> {
    if number >= COUNT {
        return None;
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let mut n = usize::from(number);
    // b1, d1, f1, h1 are the light squares of the first rank.
    rank[2 * (n % 4) + 1] = Some(Role::Bishop);
    n /= 4;
    rank[2 * (n % 4)] = Some(Role::Bishop);
    n /= 4;
    place_in_free(&mut rank, n % 6, Role::Queen);
    n /= 6;
    // `n` is now below 10: 960 = 4 × 4 × 6 × 10.
    let (first, second) = KNIGHTS[n];
    // The second knight's index counts the squares free before the first
    // was placed, so it is placed first.
    place_in_free(&mut rank, second, Role::Knight);
    place_in_free(&mut rank, first, Role::Knight);
    for role in [Role::Rook, Role::King, Role::Rook] {
        place_in_free(&mut rank, 0, role);
    }
    let mut out = [Role::Pawn; 8];
    for (slot, role) in out.iter_mut().zip(rank) {
        *slot = role?;
    }
    Some(out)
}

/// Puts `role` on the `index`-th free square (from the a-file).
fn place_in_free(rank: &mut [Option<Role>; 8], index: usize, role: Role) {
    if let Some(slot) = rank.iter_mut().filter(|slot| slot.is_none()).nth(index) {
        *slot = Some(role);
    }
}

/// White's back rank in English letters (`RNBQKBNR` for 518).
pub fn back_rank_letters(number: u16) -> Option<String> {
    let rank = back_rank(number)?;
    Some(rank.iter().map(|role| role.upper_char()).collect())
}

/// The start position's FEN, castling rights in X-FEN (`KQkq`: in every
/// start position the rooks are the outermost pieces of their rank).
pub fn fen(number: u16) -> Option<String> {
    let white = back_rank_letters(number)?;
    let black = white.to_ascii_lowercase();
    Some(format!(
        "{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1"
    ))
}

/// The number of the start position a FEN shows, if it shows one: the
/// placement, side to move and castling rights of a start position, any
/// spelling of the rights (`KQkq`, Shredder's `HAha`) and any move counters.
pub fn number_of_fen(fen: &str) -> Option<u16> {
    let mut fields = fen.split_whitespace();
    let placement = fields.next()?;
    let turn = fields.next()?;
    let rights = fields.next()?;
    let white = placement.rsplit('/').next()?;
    let number = (0..COUNT).find(|&n| back_rank_letters(n).as_deref() == Some(white))?;
    let expected = self::fen(number)?;
    let expected_placement = expected.split(' ').next()?;
    let all_rights =
        rights.len() == 4 && rights.chars().filter(char::is_ascii_uppercase).count() == 2;
    (placement == expected_placement && turn == "w" && all_rights).then_some(number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    #[test]
    fn scharnagl_numbers_give_the_published_back_ranks() {
        // Scharnagl's own examples and the table's ends.
        let cases = [
            (0, "BBQNNRKR"),
            (1, "BQNBNRKR"),
            (2, "BQNNRBKR"),
            (518, "RNBQKBNR"),
            (534, "RNBKQBNR"),
            (959, "RKRNNQBB"),
        ];
        for (number, letters) in cases {
            assert_eq!(
                back_rank_letters(number).as_deref(),
                Some(letters),
                "{number}"
            );
        }
        assert_eq!(back_rank(COUNT), None);
        assert_eq!(back_rank(u16::MAX), None);
    }

    #[test]
    fn every_number_is_a_distinct_legal_start_that_reads_back() {
        let mut seen = std::collections::HashSet::new();
        for number in 0..COUNT {
            let letters = back_rank_letters(number).expect("in range");
            assert!(seen.insert(letters.clone()), "{number} repeats {letters}");
            let bishops: Vec<usize> = letters.match_indices('B').map(|(i, _)| i).collect();
            assert_eq!(bishops.len(), 2, "{letters}");
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{letters}: same colour");
            let (r1, k, r2) = (
                letters.find('R').unwrap(),
                letters.find('K').unwrap(),
                letters.rfind('R').unwrap(),
            );
            assert!(r1 < k && k < r2, "{letters}: king between the rooks");
            let text = fen(number).unwrap();
            let parsed: Fen = text.parse().expect("a FEN");
            let pos: Chess = parsed.into_position(CastlingMode::Chess960).expect("legal");
            assert_eq!(pos.castles().castling_rights().count(), 4, "{text}");
            assert_eq!(number_of_fen(&text), Some(number));
        }
    }

    #[test]
    fn only_start_positions_have_a_number() {
        let cases = [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
                Some(518),
            ),
            (
                "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 3 9",
                Some(0),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                None,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
                None,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1",
                None,
            ),
            (
                "bnbqkrnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                None,
            ),
            ("", None),
            ("é/é/é", None),
        ];
        for (text, number) in cases {
            assert_eq!(number_of_fen(text), number, "{text}");
        }
    }
}
