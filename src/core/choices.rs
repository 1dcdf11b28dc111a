//! What players choose and the game remembers: the colour a challenger asks
//! for, and where a player wants to hear that it is their move. Commands
//! carry them; the store keeps them by name.

use serde::{Deserialize, Serialize};

/// The colour a challenger asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    White,
    Black,
    Random,
}

impl ColorChoice {
    pub fn as_str(self) -> &'static str {
        match self {
            ColorChoice::White => "white",
            ColorChoice::Black => "black",
            ColorChoice::Random => "random",
        }
    }

    pub fn from_name(name: &str) -> Option<ColorChoice> {
        match name {
            "white" => Some(ColorChoice::White),
            "black" => Some(ColorChoice::Black),
            "random" => Some(ColorChoice::Random),
            _ => None,
        }
    }
}

/// Where a player wants turn notices and reminders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Notify {
    /// A mention in the game's channel.
    Channel,
    /// A direct message.
    Direct,
    /// No reminders (moves are still announced in the channel).
    Off,
}

impl Notify {
    pub fn as_str(self) -> &'static str {
        match self {
            Notify::Channel => "channel",
            Notify::Direct => "direct",
            Notify::Off => "off",
        }
    }

    pub fn from_name(name: &str) -> Option<Notify> {
        match name {
            "channel" => Some(Notify::Channel),
            "direct" => Some(Notify::Direct),
            "off" => Some(Notify::Off),
            _ => None,
        }
    }
}
