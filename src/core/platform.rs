//! The chat platforms pawnpost speaks on: an id every layer shares, so
//! adapters, the service and storage name a platform without depending on
//! one another.

use serde::{Deserialize, Serialize};

/// Which chat an act, a player or a community belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Platform {
    Console,
    Discord,
    Matrix,
}

impl Platform {
    pub fn as_str(self) -> &'static str {
        match self {
            Platform::Console => "console",
            Platform::Discord => "discord",
            Platform::Matrix => "matrix",
        }
    }

    pub fn from_name(name: &str) -> Option<Platform> {
        match name {
            "console" => Some(Platform::Console),
            "discord" => Some(Platform::Discord),
            "matrix" => Some(Platform::Matrix),
            _ => None,
        }
    }
}
