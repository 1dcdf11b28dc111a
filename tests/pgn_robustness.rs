//! `pgn::import` reads untrusted text: whatever arrives, it answers with a
//! game or an error and never panics.

use chrono::{DateTime, TimeZone, Utc};
use pawnpost::core::game::{PlayerId, Players};
use pawnpost::core::pgn::{self, MAX_PGN_BYTES, PgnError};
use proptest::prelude::*;

fn players() -> Players {
    Players {
        white: PlayerId(1),
        black: PlayerId(2),
    }
}

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2024, 3, 5, 12, 0, 0)
        .single()
        .expect("a valid instant")
}

/// Pieces of PGN that, shuffled, reach deeper than random characters do.
const TOKENS: &[&str] = &[
    "[Event \"x\"]\n",
    "[Result \"1-0\"]\n",
    "[Result \"1/2-1/2\"]\n",
    "[SetUp \"1\"]\n",
    "[FEN \"8/8/4k3/8/8/3K4/8/R7 b - - 100 120\"]\n",
    "[FEN \"k7/8/1K6/8/8/8/8/7R w - - 149 150\"]\n",
    "[Termination \"time forfeit\"]\n",
    "[UTCDate \"2024.02.30\"]\n",
    "[UTCTime \"25:61:00\"]\n",
    "\n",
    "1.",
    "2...",
    "e4",
    "e5",
    "Nf3",
    "Nc6",
    "Rh8#",
    "Ra2",
    "Qxf7#",
    "O-O",
    "0-0-0",
    "e8=Q",
    "{ (=) }",
    "{ Black resigns. }",
    "{ Draw by agreement. }",
    "{ Game aborted. }",
    "{",
    "}",
    "(",
    ")",
    "$1",
    "!?",
    ";",
    "%",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
];

fn import_does_not_panic(text: &str) {
    let _ = pgn::import(text, players(), now());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        import_does_not_panic(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn pgn_alphabet(text in r#"[\[\]"0-9\-./ a-hKQRBNxO=+#{}();*\n]{0,200}"#) {
        import_does_not_panic(&text);
    }

    #[test]
    fn pgn_tokens(tokens in proptest::collection::vec(proptest::sample::select(TOKENS), 0..40)) {
        import_does_not_panic(&tokens.join(" "));
    }
}

#[test]
fn one_byte_over_the_limit_is_refused_unread() {
    let text = "1".repeat(MAX_PGN_BYTES + 1);
    let refused = pgn::import(&text, players(), now()).map(|_| ());
    assert_eq!(refused, Err(PgnError::TooLong));
    assert_eq!(PgnError::TooLong.kind(), "too_long");
}
