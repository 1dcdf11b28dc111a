//! The PGN importer never panics, and refuses oversized input.

use chrono::{TimeZone, Utc};
use pawnpost::core::game::{PlayerId, Players};
use pawnpost::core::pgn::{self, MAX_PGN_BYTES, PgnError};
use proptest::prelude::*;

const PLAYERS: Players = Players {
    white: PlayerId(1),
    black: PlayerId(2),
};

fn import(text: &str) {
    let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    let _ = pgn::import(text, PLAYERS, now);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        import(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn pgn_like_text_never_panics(text in "[\\[\\]\" 1234567890./abcdefghKQRBNxO=+#{}();*\n-]{0,200}") {
        import(&text);
    }

    #[test]
    fn tag_sections_never_panic(
        name in "[A-Za-z]{1,10}",
        value in "[ -~]{0,60}",
        moves in "[1-9. a-hKQRBNx1-8=+#O-]{0,100}",
    ) {
        import(&format!("[{name} \"{value}\"]\n[FEN \"{value}\"]\n\n{moves}"));
    }
}

#[test]
fn oversized_input_is_refused_before_parsing() {
    let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    let text = "[Event \"x\"]\n".repeat(MAX_PGN_BYTES / 10);
    assert!(text.len() > MAX_PGN_BYTES);
    assert_eq!(
        pgn::import(&text, PLAYERS, now).err(),
        Some(PgnError::TooLong)
    );
    let just_fits = " ".repeat(MAX_PGN_BYTES);
    assert_ne!(
        pgn::import(&just_fits, PLAYERS, now).err(),
        Some(PgnError::TooLong)
    );
}
