//! What players choose and the game remembers: the colour a challenger asks
//! for, and where a player wants to hear that it is their move. Commands
//! carry them; the store keeps them by name ([`Named`](super::names::Named)).

use serde::{Deserialize, Serialize};

/// The colour a challenger asks for.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum ColorChoice {
    White,
    Black,
    Random,
}

/// Where a player wants turn notices and reminders.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Notify {
    /// A mention in the game's channel.
    Channel,
    /// A direct message.
    Direct,
    /// No reminders (moves are still announced in the channel).
    Off,
}
