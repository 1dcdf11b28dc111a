#![no_main]
//! Any bytes, imported as PGN.

use chrono::DateTime;
use libfuzzer_sys::fuzz_target;
use pawnpost::core::game::{PlayerId, Players};
use pawnpost::core::pgn;

fuzz_target!(|data: &[u8]| {
    let players = Players {
        white: PlayerId(1),
        black: PlayerId(2),
    };
    let _ = pgn::import(&String::from_utf8_lossy(data), players, DateTime::UNIX_EPOCH);
});
