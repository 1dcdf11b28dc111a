//! A player's notation through the real binary: `/settings notation`
//! (French `/reglages notation`) reads their letters one way, an answer to
//! a question settles its letter (and the bot says so), `auto` forgets it,
//! and the moves the bot suggests are never texts it would ask about.

mod common;

use common::{Console, events_of};
use serde_json::Value;

/// White: king e1, rook a1; black: king e8, rook a8. `R` is the rook in
/// English, the king in French, and both can often reach the same square.
const KINGS_AND_ROOKS: &str = "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1";

fn text_to(replies: &[Value], user: &str) -> String {
    replies
        .iter()
        .filter(|r| r["to"] == user)
        .filter_map(|r| r["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

fn moves(replies: &[Value]) -> Vec<String> {
    events_of(replies, "move_played")
        .iter()
        .map(|e| e["uci"].as_str().unwrap_or_default().to_owned())
        .collect()
}

fn asked(replies: &[Value]) -> bool {
    replies.iter().any(|r| r["choices"].is_array())
}

#[test]
fn an_answer_settles_a_letter_and_a_notation_settles_them_all() {
    let console = Console::new();
    let start = console.run(&format!(
        "alice: /settings language en
         bob: /settings language fr
         alice: /challenge @bob color:white fen:\"{KINGS_AND_ROOKS}\"
         bob: /accept
         alice: /move Rd1"
    ));
    assert!(asked(&start), "{start:?}");
    assert!(moves(&start).is_empty());
    let question = text_to(&start, "alice");
    assert!(
        question.contains("/settings notation english, french or german"),
        "{question}"
    );

    // Choosing the rook settles `R` as the rook for alice, and she is told.
    let chosen = console.run("alice: /move a1d1 game:1");
    assert_eq!(moves(&chosen), ["a1d1"]);
    let told = text_to(&chosen, "alice");
    assert!(
        told.contains("from now on “R” is the rook for you"),
        "{told}"
    );

    // bob says he writes French: his `R` is the king, never asked about.
    let french = console.run(
        "bob: /reglages notation francaise
         bob: /coup Rf7",
    );
    assert!(
        text_to(&french, "bob").contains("notation française"),
        "{french:?}"
    );
    assert!(!asked(&french), "{french:?}");
    assert_eq!(moves(&french), ["e8f7"]);

    // alice's `R` is the rook now: Rd2 plays, though her king reaches d2 too.
    let rook = console.run("alice: /move Rd2");
    assert!(!asked(&rook), "{rook:?}");
    assert_eq!(moves(&rook), ["d1d2"]);

    // `auto` forgets what her answers settled: both readings ask again.
    let auto = console.run(
        "bob: /coup Tb8
         alice: /settings notation auto
         alice: /move Re2",
    );
    assert_eq!(moves(&auto), ["a8b8"]);
    assert!(
        text_to(&auto, "alice").contains("read in every notation again"),
        "{auto:?}"
    );
    assert!(asked(&auto), "{auto:?}");
}

#[test]
fn suggested_moves_are_never_asked_about() {
    let console = Console::new();
    let hinted = console.run(&format!(
        "alice: /challenge @bob color:white fen:\"{KINGS_AND_ROOKS}\"
         bob: /accept
         alice: /move Rb2"
    ));
    // The rook's moves, `Rd1` written `Rad1`: the king reaches d1 too.
    let hint = text_to(&hinted, "alice");
    assert!(hint.contains("Legal moves of that piece:"), "{hint}");
    assert!(hint.contains("Rad1"), "{hint}");
    assert!(!hint.contains(" Rd1"), "{hint}");
    let typed_back = console.run("alice: /move Rad1");
    assert_eq!(moves(&typed_back), ["a1d1"], "{typed_back:?}");

    // Once she said she writes English, `Rd1` has one reading for her.
    let console = Console::new();
    let set = console.run(&format!(
        "alice: /settings notation english
         alice: /challenge @bob color:white fen:\"{KINGS_AND_ROOKS}\"
         bob: /accept
         alice: /move Rb2"
    ));
    let hint = text_to(&set, "alice");
    assert!(hint.contains("Rd1"), "{hint}");
    assert!(!hint.contains("Rad1"), "{hint}");
}
