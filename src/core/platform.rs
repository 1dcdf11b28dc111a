//! The chat platforms pawnpost speaks on: an id every layer shares, so
//! adapters, the service and storage name a platform without depending on
//! one another. Stored by name ([`Named`](super::names::Named)).

use serde::{Deserialize, Serialize};

/// Which chat an act, a player or a community belongs to.
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
pub enum Platform {
    Console,
    Discord,
    Matrix,
}
