//! Private notes (`/note`, `/notes`) through the real binary: kept with the
//! game, read only by their writer, and written as comments only in the
//! PGN their writer receives.

mod common;

use common::Console;
use serde_json::Value;

fn texts(replies: &[Value]) -> Vec<(String, bool, String)> {
    replies
        .iter()
        .map(|r| {
            (
                r["to"].as_str().unwrap_or_default().to_owned(),
                r["ephemeral"] == true,
                r["text"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_note_is_seen_only_by_its_writer_and_in_their_pgn() {
    let console = Console::new();
    let replies = console.run(
        "alice: /challenge @bob color:white
        bob: /accept
        alice: /note Try the Ruy Lopez
        alice: /move e4
        bob: /move e5
        alice: /note {Nf3} next, then Bb5
        alice: /notes
        bob: /notes
        bob: /pgn
        alice: /pgn
        carol: /note hello game:1",
    );
    let said = texts(&replies);
    // Every reply naming a note is for alice alone. A `}` would end a PGN
    // comment early: it is written `)`.
    for (to, ephemeral, text) in &said {
        if text.contains("Ruy Lopez") || text.contains("then Bb5") {
            assert!(to == "alice" && *ephemeral, "{to}: {text}");
        }
    }
    let listed = &said[6].2;
    assert!(
        listed.contains("before the first move: Try the Ruy Lopez"),
        "{listed}"
    );
    assert!(
        listed.contains("after 1... e5: {Nf3} next, then Bb5"),
        "{listed}"
    );
    assert!(
        said[7].2.starts_with("You have no notes on game #1"),
        "{}",
        said[7].2
    );
    let bob_pgn = &said[8].2;
    assert!(
        !bob_pgn.contains("Ruy") && bob_pgn.contains("1. e4 e5"),
        "{bob_pgn}"
    );
    let alice_pgn = &said[9].2;
    assert!(
        alice_pgn.contains("{ Try the Ruy Lopez } 1. e4 e5 { {Nf3) next, then Bb5 }"),
        "{alice_pgn}"
    );
    assert!(
        said[10].2.contains("not playing in this game"),
        "{}",
        said[10].2
    );
    // The operator's export has no one's private notes.
    let exported = console.pgn(1);
    assert!(!exported.contains("Ruy"), "{exported}");
    // Kept with the game: a later run lists them.
    let again = console.run("alice: /notes game:1");
    assert!(texts(&again)[0].2.contains("Try the Ruy Lopez"));
}

#[test]
fn a_note_on_a_taken_back_move_never_moves_to_its_replacement() {
    let console = Console::new();
    let replies = console.run(
        "alice: /challenge @bob color:white rated:no
        bob: /accept
        alice: /move e4
        bob: /move e5
        alice: /move Qh5
        alice: /note Qh5 hits f7
        alice: /takeback request
        bob: /takeback accept
        alice: /move Nf3
        alice: /notes",
    );
    let listed = &texts(&replies).last().expect("the list").2.clone();
    assert!(listed.contains("after 1... e5: Qh5 hits f7"), "{listed}");
    assert!(!listed.contains("Nf3: Qh5"), "{listed}");
}
