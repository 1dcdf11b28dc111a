//! Text to move, and move to text.
//!
//! Players type moves in many forms (RULES.md, "How players may write a
//! move"): SAN with suffixes, FIDE's own forms, long algebraic, UCI, and piece
//! letters in English, French, German or Russian. [`parse_move`] normalises
//! all of them onto shakmaty's legal moves; it never guesses between two
//! readings. [`write_san`] and friends write a move back in the reader's
//! notation.
//!
//! # Every reading, never a guess
//!
//! Players of every locale type English SAN, and phones capitalise the first
//! letter, so a text is read in every way it may have been meant: in each
//! allowed language (every language, for a player whose language is known;
//! the speaker's own is only tried first), with a leading capital read as a
//! file (`Exd5`, `Bxc3` by the b-pawn), and as UCI. When two readings give two
//! different legal moves, nothing is played: [`MoveInputError::Ambiguous`]
//! lists them, the speaker's readings first, and the player chooses.
//!
//! A player who said their notation, or answered which reading of a letter
//! they meant, has those letters settled ([`Letters`], in the [`Reader`]):
//! a settled letter is read as its piece only (French `R` the king, never
//! the rook nor a capitalised file), so only the letters they never settled
//! can still ask. [`write_unmistakable`] writes the moves offered to a
//! player (hints, suggestions) as texts they read one way only.
//!
//! Two rules keep this from asking about moves nobody writes:
//! - a capital letter followed by a square on its own file (`Cc6`, `Dd5`,
//!   `Bb4`) is never a pawn push: no notation writes one, so `Cc6` is only
//!   the French knight, `Bb4` only the English bishop;
//! - German `B` (Bauer) names a pawn only with its origin square (`Be2-e4`):
//!   German SAN writes pawn moves without a letter, and `Bc4` is the English
//!   bishop (or the b-pawn taking on c4).
//!
//! ```
//! use pawnpost::core::notation::{Lang, MoveInputError, Reader, parse_move};
//! use shakmaty::{CastlingMode, Chess, fen::Fen};
//!
//! let fen: Fen = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1".parse().unwrap();
//! let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
//! // French `R` is the king (roi), English `R` the rook: both are legal, so
//! // nothing is played, whoever types it. The speaker's reading comes first.
//! for (lang, first) in [(Lang::Fr, "e1"), (Lang::En, "a1")] {
//!     let Err(MoveInputError::Ambiguous { candidates }) =
//!         parse_move(&pos, "Rd1", &Reader::speaking(lang))
//!     else {
//!         panic!("Rd1 must be ambiguous");
//!     };
//!     assert_eq!(candidates.len(), 2);
//!     assert_eq!(candidates[0].from().unwrap().to_string(), first);
//! }
//! // Letters that mean one legal move in every language are played.
//! let rook = parse_move(&pos, "Td1", &Reader::speaking(Lang::En)).unwrap();
//! let king = parse_move(&pos, "Кр e1-d1", &Reader::speaking(Lang::Fr)).unwrap();
//! assert_ne!(rook, king);
//! ```
//!
//! # Layout
//!
//! - `read`: cleans the text and lists its readings as descriptions of a
//!   move (castling, or squares with an optional piece and promotion).
//! - `letters`: the piece letters of each language and style.
//! - `settled`: the letters a player has settled, read one way only.
//! - `explain`: why no legal move matches a description, and which moves to
//!   suggest instead.
//! - `write`: moves back to text.
//! - `tests`: unit tables; the RULES.md cases are in
//!   `tests/fixtures/parser_cases.txt`, and `tests/opening_replay.rs` replays
//!   every named opening typed by players of each language.

mod explain;
mod letters;
mod read;
mod settled;
mod write;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Move, Position};

pub use settled::{Letters, role_name};
pub use write::{restyle_san, write_long, write_san, write_unmistakable};

/// The longest move text accepted; anything longer is refused before parsing.
pub const MAX_MOVE_INPUT: usize = 32;

/// A language whose piece letters a player may use.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Lang {
    /// K Q R B N (P).
    En,
    /// R D T F C (P): roi, dame, tour, fou, cavalier, pion.
    Fr,
    /// K D T L S (B): König, Dame, Turm, Läufer, Springer, Bauer.
    De,
    /// Кр Ф Л С К: король, ферзь, ладья, слон, конь (pawns have no letter).
    /// Read and written only; the bot answers Russian speakers in English.
    Ru,
}

impl Lang {
    pub const ALL: [Lang; 4] = [Lang::En, Lang::Fr, Lang::De, Lang::Ru];

    /// Parses a locale tag such as `fr`, `fr-FR` or `de_CH`.
    pub fn from_locale(tag: &str) -> Option<Lang> {
        let primary = tag.split(['-', '_']).next()?.to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "fr" => Some(Lang::Fr),
            "de" => Some(Lang::De),
            "ru" => Some(Lang::Ru),
            _ => None,
        }
    }
}

/// Who reads a move: the speaker's language when known, the languages
/// whose letters are accepted, and the letters the player has settled.
///
/// Every allowed language is tried (the speaker's too), and two different
/// legal moves make the input ambiguous; the speaker's language only comes
/// first, in the candidates and in the reason given for a refusal. A
/// settled letter is read only as its piece: a player who said they write
/// French has their `R` read as the king alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reader {
    pub lang: Option<Lang>,
    pub allowed: Vec<Lang>,
    pub letters: Letters,
}

impl Reader {
    /// A speaker of `lang`, who may use the letters of every language:
    /// players of every locale type English SAN, and some their own letters
    /// whatever their locale says.
    pub fn speaking(lang: Lang) -> Reader {
        Reader {
            lang: Some(lang),
            allowed: Lang::ALL.to_vec(),
            letters: Letters::default(),
        }
    }

    /// A speaker whose language is unknown, allowed these languages.
    pub fn unknown(allowed: &[Lang]) -> Reader {
        Reader {
            lang: None,
            allowed: allowed.to_vec(),
            letters: Letters::default(),
        }
    }

    /// This reader, with `letters` settled (see [`Letters`]).
    pub fn settled(self, letters: Letters) -> Reader {
        Reader { letters, ..self }
    }
}

impl Default for Reader {
    fn default() -> Reader {
        Reader::speaking(Lang::En)
    }
}

/// How to write a move for a reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// `Nf3`, `Qxa3`, `e8=Q`.
    English,
    /// `Cf3`, `Dxa3`, `e8=D`.
    French,
    /// `Sf3`, `Dxa3`, `e8=D`: König, Dame, Turm, Läufer, Springer.
    German,
    /// `♘f3`, `♕xa3`, `e8=♕`.
    Figurine,
    /// `Кf3`, `Ф:a3`, `e8=Ф`: Russian letters, `:` for a capture. Mate stays
    /// `#` (Russian books once wrote `x`, which everyone else reads as a capture).
    Russian,
}

impl Style {
    /// The notation a reader of `lang` expects (German and Russian readers
    /// get English SAN until the bot speaks their language).
    pub fn for_lang(lang: Lang) -> Style {
        match lang {
            Lang::Fr => Style::French,
            Lang::En | Lang::De | Lang::Ru => Style::English,
        }
    }

    /// The letters of `lang`'s own notation, for a player who writes in
    /// it: what they would type back.
    pub fn of_notation(lang: Lang) -> Style {
        match lang {
            Lang::En => Style::English,
            Lang::Fr => Style::French,
            Lang::De => Style::German,
            Lang::Ru => Style::Russian,
        }
    }
}

/// Why no legal move matches an input that looked like a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IllegalReason {
    /// The side to move has no piece of that kind (or none on the named square).
    NoSuchPiece,
    /// A piece of that kind exists, but none moves that way.
    CannotReach,
    /// A line piece would reach the square on an empty board, but something is in the way.
    PathBlocked,
    /// The move exists but would leave (or put) the mover's king in check.
    KingInCheck,
    /// Castling on that side is no longer allowed (king or rook has moved).
    CastlingRightsLost,
    /// Castling is allowed in principle but not now (check, attacked or occupied squares).
    CastlingNotNow,
    /// The target square holds one of the mover's own pieces.
    OwnPieceOnTarget,
    /// A pawn reaching the last rank must name its promotion piece (or a
    /// promotion was named for a move that does not promote).
    BadPromotion,
}

/// Why a text was not played as a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveInputError {
    #[error("move text longer than {max} bytes")]
    TooLong { max: usize },
    #[error("not a move")]
    Syntax,
    #[error("no legal move matches ({reason:?})")]
    Illegal {
        reason: IllegalReason,
        /// The legal moves of the piece the player most likely meant (may be empty).
        hints: Vec<Move>,
    },
    #[error("ambiguous: {} legal moves match", candidates.len())]
    Ambiguous {
        /// Every legal move the text could mean, the speaker's readings
        /// first; write them with [`write_long`], which no reader mistakes.
        candidates: Vec<Move>,
    },
}

/// Reads `text` as one legal move in `pos` for `reader`.
///
/// Every reading is tried (see the module doc); distinct legal moves from
/// different readings make the input ambiguous: nothing is guessed. When no
/// reading finds a legal move, the first reading that understood the text
/// (the speaker's language comes first) says why.
pub fn parse_move(pos: &Chess, text: &str, reader: &Reader) -> Result<Move, MoveInputError> {
    let readings = readings(text, reader)?;
    let Some(first) = readings.first() else {
        return Err(MoveInputError::Syntax);
    };
    let legal = pos.legal_moves();
    let mut found: Vec<Move> = Vec::new();
    for reading in &readings {
        for m in legal.iter().copied().filter(|m| reading.spec.fits(*m)) {
            // Letters shared by every language (pawns, castling, UCI) give
            // the same move: not an ambiguity.
            if !found.contains(&m) {
                found.push(m);
            }
        }
    }
    match found.len() {
        0 => Err(explain::explain(pos, &first.spec, &legal)),
        1 => Ok(found[0]),
        _ => Err(MoveInputError::Ambiguous { candidates: found }),
    }
}

/// The letter whose readings made `text` ambiguous, and the piece it
/// names in the reading that gave `chosen`: what a player settles by
/// choosing `chosen` when asked. `None` when the choice settles no letter:
/// the candidates came from one reading (two rooks reach d1), or `chosen`
/// came from a capital read as a file (a phone's habit, not a notation), or
/// from several readings of the letter.
pub fn settling_letter(
    pos: &Chess,
    text: &str,
    reader: &Reader,
    chosen: Move,
) -> Option<(char, shakmaty::Role)> {
    let readings = readings(text, reader).ok()?;
    let legal = pos.legal_moves();
    let gives = |reading: &read::Reading, m: Move| legal.contains(&m) && reading.spec.fits(m);
    let mut chosen_as = None;
    let mut others_read_otherwise = false;
    for reading in &readings {
        let Some((letter, role)) = reading.lead else {
            continue;
        };
        if gives(reading, chosen) {
            match (chosen_as, role) {
                (None, Some(role)) => chosen_as = Some((letter, role)),
                (Some(seen), Some(role)) if seen == (letter, role) => {}
                _ => return None,
            }
        } else if legal.iter().any(|m| gives(reading, *m)) {
            others_read_otherwise = true;
        }
    }
    chosen_as.filter(|_| others_read_otherwise)
}

/// The readings of `text` that `reader` admits, its settled letters read
/// one way only.
fn readings(text: &str, reader: &Reader) -> Result<Vec<read::Reading>, MoveInputError> {
    // Bound the work before looking at the text at all. Bytes, not chars:
    // the longest Russian move (`Кр e1:e2+`) is far below it all the same.
    if text.len() > MAX_MOVE_INPUT {
        return Err(MoveInputError::TooLong {
            max: MAX_MOVE_INPUT,
        });
    }
    let cleaned = read::clean(text);
    let mut readings = read::read_specs(&cleaned, &languages(reader));
    readings.retain(|reading| {
        reading
            .lead
            .is_none_or(|(letter, role)| reader.letters.admits(letter, role))
    });
    Ok(readings)
}

/// Every language the reader's letters may be in, the speaker's first, once each.
fn languages(reader: &Reader) -> Vec<Lang> {
    let mut langs: Vec<Lang> = reader.lang.into_iter().collect();
    for lang in reader.allowed.iter().copied() {
        if !langs.contains(&lang) {
            langs.push(lang);
        }
    }
    langs
}
