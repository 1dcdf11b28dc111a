//! Text to move, and move to text.
//!
//! Players type moves in many forms (RULES.md, "How players may write a
//! move"): SAN with suffixes, FIDE's own forms, long algebraic, UCI, and piece
//! letters in English, French or German. [`parse_move`] normalises all of
//! them onto shakmaty's legal moves; it never guesses between two readings.
//! [`write_san`] and friends write a move back in the reader's notation.
//!
//! ```
//! use pawnpost::core::notation::{Lang, MoveInputError, Reader, parse_move};
//! use shakmaty::{CastlingMode, Chess, fen::Fen};
//!
//! let fen: Fen = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1".parse().unwrap();
//! let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
//! // French `R` is the king (roi), English `R` the rook.
//! let king = parse_move(&pos, "Rd1", &Reader::speaking(Lang::Fr)).unwrap();
//! let rook = parse_move(&pos, "Rd1", &Reader::speaking(Lang::En)).unwrap();
//! assert_ne!(king, rook);
//! // Without a known language, both readings are legal: nothing is played.
//! let unknown = parse_move(&pos, "Rd1", &Reader::unknown(&[Lang::En, Lang::Fr]));
//! assert!(matches!(unknown, Err(MoveInputError::Ambiguous { candidates }) if candidates.len() == 2));
//! ```
//!
//! # Layout
//!
//! - `read`: cleans the text and reads it, in one language, as a description
//!   of a move (castling, or squares with an optional piece and promotion).
//! - `letters`: the piece letters of each language and style.
//! - `explain`: why no legal move matches a description, and which moves to
//!   suggest instead.
//! - `write`: moves back to text.
//! - `tests`: unit tables; the RULES.md cases are in
//!   `tests/fixtures/parser_cases.txt`.

mod explain;
mod letters;
mod read;
mod write;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Move, MoveList, Position};

pub use write::{restyle_san, write_long, write_san};

/// The longest move text accepted; anything longer is refused before parsing.
pub const MAX_MOVE_INPUT: usize = 32;

/// A language whose piece letters a player may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// K Q R B N (P).
    En,
    /// R D T F C (P): roi, dame, tour, fou, cavalier, pion.
    Fr,
    /// K D T L S (B): König, Dame, Turm, Läufer, Springer, Bauer.
    De,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Fr, Lang::De];

    /// Parses a locale tag such as `fr`, `fr-FR` or `de_CH`.
    pub fn from_locale(tag: &str) -> Option<Lang> {
        let primary = tag.split(['-', '_']).next()?.to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "fr" => Some(Lang::Fr),
            "de" => Some(Lang::De),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
            Lang::De => "de",
        }
    }
}

/// Who reads a move: the speaker's language when known, and the languages
/// whose letters are also accepted.
///
/// The speaker's language is tried first; the others are tried only when it
/// gives no legal move. With no known language every allowed language is
/// tried, and two different legal moves make the input ambiguous.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reader {
    pub lang: Option<Lang>,
    pub allowed: Vec<Lang>,
}

impl Reader {
    /// A speaker of `lang` who may also use English letters.
    pub fn speaking(lang: Lang) -> Reader {
        let mut allowed = vec![lang];
        if lang != Lang::En {
            allowed.push(Lang::En);
        }
        Reader {
            lang: Some(lang),
            allowed,
        }
    }

    /// A speaker whose language is unknown, allowed these languages.
    pub fn unknown(allowed: &[Lang]) -> Reader {
        Reader {
            lang: None,
            allowed: allowed.to_vec(),
        }
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
    /// `♘f3`, `♕xa3`, `e8=♕`.
    Figurine,
}

impl Style {
    /// The notation a reader of `lang` expects (German readers get English
    /// SAN until the bot speaks German).
    pub fn for_lang(lang: Lang) -> Style {
        match lang {
            Lang::Fr => Style::French,
            Lang::En | Lang::De => Style::English,
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
        /// Every legal move the text could mean; write them with [`write_long`].
        candidates: Vec<Move>,
    },
}

/// Reads `text` as one legal move in `pos` for `reader`.
///
/// The speaker's language is tried first; the other allowed languages only
/// when it finds no legal move. Distinct legal moves from different
/// readings make the input ambiguous: nothing is guessed.
pub fn parse_move(pos: &Chess, text: &str, reader: &Reader) -> Result<Move, MoveInputError> {
    // Bound the work before looking at the text at all.
    if text.len() > MAX_MOVE_INPUT {
        return Err(MoveInputError::TooLong {
            max: MAX_MOVE_INPUT,
        });
    }
    let cleaned = read::clean(text);
    if cleaned.is_empty() {
        return Err(MoveInputError::Syntax);
    }
    let langs = languages(reader);
    let legal = pos.legal_moves();
    let read = |lang| read_in(pos, &legal, &cleaned, lang, &langs);

    let mut refusal = Refusal::default();
    if let Some(lang) = reader.lang {
        match read(lang) {
            // The speaker's own reading decides alone, even when it is ambiguous.
            Ok(moves) => return one_of(moves),
            Err(error) => refusal.offer(error),
        }
    }
    let mut found: Vec<Move> = Vec::new();
    for lang in langs.iter().copied().filter(|l| Some(*l) != reader.lang) {
        match read(lang) {
            Ok(moves) => {
                for m in moves {
                    // Letters shared by every language (pawns, castling, UCI)
                    // give the same move: not an ambiguity.
                    if !found.contains(&m) {
                        found.push(m);
                    }
                }
            }
            Err(error) => refusal.offer(error),
        }
    }
    if found.is_empty() {
        Err(refusal.into_error())
    } else {
        one_of(found)
    }
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

/// The error to report when no reading found a legal move: the first one
/// offered (the speaker's language comes first), except that a reading which
/// understood the text beats "not a move".
#[derive(Default)]
struct Refusal(Option<MoveInputError>);

impl Refusal {
    fn offer(&mut self, error: MoveInputError) {
        let replace = match &self.0 {
            None => true,
            Some(MoveInputError::Syntax) => error != MoveInputError::Syntax,
            Some(_) => false,
        };
        if replace {
            self.0 = Some(error);
        }
    }

    fn into_error(self) -> MoveInputError {
        self.0.unwrap_or(MoveInputError::Syntax)
    }
}

fn one_of(mut moves: Vec<Move>) -> Result<Move, MoveInputError> {
    match moves.len() {
        0 => Err(MoveInputError::Syntax),
        1 => Ok(moves.remove(0)),
        _ => Err(MoveInputError::Ambiguous { candidates: moves }),
    }
}

/// All legal moves `text` means in `lang`, or why there are none. `langs`
/// are all the languages the reader may use (see [`read::read_spec`]).
fn read_in(
    pos: &Chess,
    legal: &MoveList,
    text: &str,
    lang: Lang,
    langs: &[Lang],
) -> Result<Vec<Move>, MoveInputError> {
    let spec = read::read_spec(text, lang, langs).ok_or(MoveInputError::Syntax)?;
    let found: Vec<Move> = legal.iter().copied().filter(|m| spec.fits(*m)).collect();
    if found.is_empty() {
        Err(explain::explain(pos, &spec, legal))
    } else {
        Ok(found)
    }
}
