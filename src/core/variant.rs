//! The rules a game is played by: standard chess or Chess960.
//!
//! Both are chess by the same Laws; they differ only in the start position
//! and in where castling takes the king and rook from (Chess960 castles from
//! any start, king and rook ending where they would in standard chess). A
//! Chess960 game is rated in its own pool, and shakmaty plays it with
//! [`CastlingMode::Chess960`]. The variant is stored with the game by its
//! [`Named`](super::names::Named) name.

use serde::{Deserialize, Serialize};
use shakmaty::CastlingMode;

/// The variant of a game, and so its rating pool.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
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
pub enum Variant {
    #[default]
    Standard,
    Chess960,
}

impl Variant {
    /// How shakmaty reads this variant's castling rights and moves.
    pub fn castling_mode(self) -> CastlingMode {
        match self {
            Variant::Standard => CastlingMode::Standard,
            Variant::Chess960 => CastlingMode::Chess960,
        }
    }

    /// PGN's `Variant` tag value; standard chess writes none.
    pub fn pgn_tag(self) -> Option<&'static str> {
        match self {
            Variant::Standard => None,
            Variant::Chess960 => Some("Chess960"),
        }
    }

    /// The variant a PGN `Variant` tag names, as lichess, chess.com and
    /// python-chess write it; `None` for a variant pawnpost does not play.
    pub fn from_pgn_tag(tag: &str) -> Option<Variant> {
        let name: String = tag
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        match name.as_str() {
            "" | "standard" | "chess" | "fromposition" => Some(Variant::Standard),
            "chess960" | "960" | "fischerandom" | "fischerrandom" | "fischerrandomchess" => {
                Some(Variant::Chess960)
            }
            _ => None,
        }
    }

    /// The variant a player types (`variant:chess960`, `variante:960`).
    pub fn from_word(word: &str) -> Option<Variant> {
        match word.trim().to_lowercase().as_str() {
            "standard" | "classique" | "normal" => Some(Variant::Standard),
            "chess960" | "960" | "fischerandom" | "fischer_random" | "echecs960" | "échecs960" => {
                Some(Variant::Chess960)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_tags_from_other_servers_are_read() {
        let cases = [
            ("Chess960", Some(Variant::Chess960)),
            ("chess 960", Some(Variant::Chess960)),
            ("Fischerandom", Some(Variant::Chess960)),
            ("Fischer Random", Some(Variant::Chess960)),
            ("Standard", Some(Variant::Standard)),
            ("From Position", Some(Variant::Standard)),
            ("Atomic", None),
            ("Crazyhouse", None),
        ];
        for (tag, variant) in cases {
            assert_eq!(Variant::from_pgn_tag(tag), variant, "{tag}");
        }
        for variant in [Variant::Standard, Variant::Chess960] {
            let tag = variant.pgn_tag().unwrap_or("");
            assert_eq!(Variant::from_pgn_tag(tag), Some(variant));
        }
    }

    #[test]
    fn typed_words_name_a_variant() {
        let cases = [
            ("chess960", Some(Variant::Chess960)),
            ("Chess960", Some(Variant::Chess960)),
            ("960", Some(Variant::Chess960)),
            ("échecs960", Some(Variant::Chess960)),
            ("standard", Some(Variant::Standard)),
            ("classique", Some(Variant::Standard)),
            ("horde", None),
            ("", None),
        ];
        for (word, variant) in cases {
            assert_eq!(Variant::from_word(word), variant, "{word}");
        }
    }
}
