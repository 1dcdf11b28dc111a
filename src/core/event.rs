//! Neutral, platform-free events: what happened in a game.
//!
//! The core emits these; i18n and the adapters turn them into console lines,
//! Discord embeds or Matrix notices. No user-facing text lives here. The
//! serde form (`{"type": "move_played", ...}`) is what the console's `--json`
//! prints and what tests assert on.

use serde::{Deserialize, Serialize};
use shakmaty::Color;

/// How a game ended, in PGN's result vocabulary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    #[serde(rename = "1-0")]
    WhiteWins,
    #[serde(rename = "0-1")]
    BlackWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// Aborted: no result, not scored.
    #[serde(rename = "*")]
    NoResult,
}

impl GameResult {
    /// The side that won, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw | GameResult::NoResult => None,
        }
    }

    /// The result in which `side` wins.
    pub fn win_for(side: Color) -> GameResult {
        match side {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// PGN's spelling: `1-0`, `0-1`, `1/2-1/2`, `*`.
    pub fn as_pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::NoResult => "*",
        }
    }

    pub fn from_pgn(text: &str) -> Option<GameResult> {
        match text {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            "*" => Some(GameResult::NoResult),
            _ => None,
        }
    }

    /// Points for `side` on the 1/½/0 scale, in half points (2, 1, 0); `None` when unscored.
    pub fn half_points_for(self, side: Color) -> Option<u32> {
        match self {
            GameResult::NoResult => None,
            GameResult::Draw => Some(1),
            _ if self.winner() == Some(side) => Some(2),
            _ => Some(0),
        }
    }
}

/// Why a game ended. The names are the vocabulary every adapter and test uses.
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
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Reason {
    Checkmate,
    Stalemate,
    DeadPosition,
    Fivefold,
    SeventyFiveMoves,
    Threefold,
    FiftyMoves,
    Agreement,
    Resignation,
    Timeout,
    Abort,
    Adjudication,
    /// A player's first move never came before their deadline, in a game of
    /// a competition: they lose by forfeit (`+/-`, not rated).
    NoShow,
    /// Ended elsewhere, with a result its record gives but not how it came
    /// about (an imported game: a lichess "Normal" draw may be an agreement
    /// or a claim).
    Recorded,
}

impl Reason {
    pub const ALL: [Reason; 14] = [
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::DeadPosition,
        Reason::Fivefold,
        Reason::SeventyFiveMoves,
        Reason::Threefold,
        Reason::FiftyMoves,
        Reason::Agreement,
        Reason::Resignation,
        Reason::Timeout,
        Reason::Abort,
        Reason::Adjudication,
        Reason::NoShow,
        Reason::Recorded,
    ];
}

/// What a draw claim (9.2, 9.3) invokes.
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
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ClaimKind {
    Threefold,
    Fifty,
}

impl ClaimKind {
    /// The reason a correct claim of this kind ends the game with.
    pub fn reason(self) -> Reason {
        match self {
            ClaimKind::Threefold => Reason::Threefold,
            ClaimKind::Fifty => Reason::FiftyMoves,
        }
    }
}

/// One side's figures in an engine review, as shown (see `core::review`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewSide {
    /// 0–100, to a tenth.
    pub accuracy: f64,
    /// Average centipawn loss, whole.
    pub acpl: u32,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

impl From<super::review::SideFigures> for ReviewSide {
    fn from(figures: super::review::SideFigures) -> ReviewSide {
        ReviewSide {
            accuracy: (figures.accuracy * 10.0).round() / 10.0,
            acpl: figures.acpl.round().max(0.0) as u32,
            inaccuracies: figures.inaccuracies,
            mistakes: figures.mistakes,
            blunders: figures.blunders,
        }
    }
}

/// Something that happened in a game, in the order it happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A move was played; `san` is English SAN with its suffix, `ply` counts from 1.
    MovePlayed {
        ply: u32,
        san: String,
        uci: String,
        #[serde(with = "color_name")]
        by: Color,
        check: bool,
        draw_offered: bool,
        /// Played from the mover's conditional moves, the moment the
        /// opponent's move matched one of their lines.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        conditional: bool,
    },
    /// A draw offer now stands (made alone, with a move, or by a refused claim).
    DrawOffered {
        #[serde(with = "color_name")]
        by: Color,
    },
    /// The offer was declined by its receiver.
    DrawDeclined {
        #[serde(with = "color_name")]
        by: Color,
    },
    /// The receiver moved instead of answering, so the offer no longer stands.
    DrawOfferLapsed {
        #[serde(with = "color_name")]
        offered_by: Color,
    },
    /// A draw claim was found incorrect; play goes on.
    ClaimRefused {
        #[serde(with = "color_name")]
        by: Color,
        kind: Option<ClaimKind>,
    },
    /// A player gave the opponent more time.
    MoreTimeGiven {
        #[serde(with = "color_name")]
        by: Color,
        days: u32,
    },
    /// A player asked to take back their last move.
    TakebackRequested {
        #[serde(with = "color_name")]
        by: Color,
    },
    /// The opponent declined it.
    TakebackDeclined {
        #[serde(with = "color_name")]
        by: Color,
    },
    /// The opponent agreed: `plies` moves were taken back, `by`'s last among them.
    TakenBack {
        #[serde(with = "color_name")]
        by: Color,
        plies: u32,
    },
    /// The game is over.
    GameOver { result: GameResult, reason: Reason },
    /// A team's votes on its move, counted when the move they decided was
    /// played (or the team resigned or accepted a draw): secret until then.
    VoteTally {
        #[serde(with = "color_name")]
        by: Color,
        #[serde(flatten)]
        tally: super::vote::Tally,
    },
    /// A finished game's engine review (not a change to the game).
    Review {
        white: ReviewSide,
        black: ReviewSide,
    },
}

// Figures are finite numbers rounded to a tenth: equality is total.
impl Eq for Event {}

/// `"white"` or `"black"`.
pub fn color_str(color: Color) -> &'static str {
    color.fold_wb("white", "black")
}

/// The inverse of [`color_str`].
pub fn parse_color(name: &str) -> Option<Color> {
    match name {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// Colours as `"white"` / `"black"` in serialized events.
pub mod color_name {
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Color;

    pub fn serialize<S: Serializer>(color: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(super::color_str(*color))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        let name = String::deserialize(d)?;
        super::parse_color(&name).ok_or_else(|| serde::de::Error::custom("expected white or black"))
    }

    /// The same for an optional colour (`null` when absent).
    pub mod option {
        use serde::{Deserialize, Deserializer, Serializer};
        use shakmaty::Color;

        pub fn serialize<S: Serializer>(color: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
            match color {
                Some(color) => s.serialize_some(super::super::color_str(*color)),
                None => s.serialize_none(),
            }
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Color>, D::Error> {
            match Option::<String>::deserialize(d)? {
                None => Ok(None),
                Some(name) => super::super::parse_color(&name)
                    .map(Some)
                    .ok_or_else(|| serde::de::Error::custom("expected white or black")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::names::Named;

    #[test]
    fn reason_names_round_trip() {
        for reason in Reason::ALL {
            assert_eq!(Reason::from_name(reason.as_str()), Some(reason));
            // The serde name and `as_str` must never drift apart.
            let json = serde_json::to_string(&reason).expect("serializes");
            assert_eq!(json, format!("\"{}\"", reason.as_str()));
        }
    }

    #[test]
    fn events_serialize_with_a_type_tag() {
        let event = Event::GameOver {
            result: GameResult::Draw,
            reason: Reason::DeadPosition,
        };
        let json = serde_json::to_string(&event).expect("serializes");
        assert_eq!(
            json,
            r#"{"type":"game_over","result":"1/2-1/2","reason":"dead_position"}"#
        );
        let offer = serde_json::to_string(&Event::DrawOffered { by: Color::Black }).expect("ok");
        assert_eq!(offer, r#"{"type":"draw_offered","by":"black"}"#);
    }

    #[test]
    fn results_score_one_half_zero() {
        use Color::*;
        assert_eq!(GameResult::WhiteWins.half_points_for(White), Some(2));
        assert_eq!(GameResult::WhiteWins.half_points_for(Black), Some(0));
        assert_eq!(GameResult::Draw.half_points_for(Black), Some(1));
        assert_eq!(GameResult::NoResult.half_points_for(White), None);
        for text in ["1-0", "0-1", "1/2-1/2", "*"] {
            assert_eq!(
                GameResult::from_pgn(text).map(GameResult::as_pgn),
                Some(text)
            );
        }
    }
}
