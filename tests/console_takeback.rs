//! Takebacks through the real binary: casual games only, asked by one
//! player and granted or declined by the other, the score shortened in the
//! store as in the game.

mod common;

use common::{Console, events_of};
use serde_json::Value;

const CASUAL: &str = "alice: /challenge @bob color:white rated:no
    bob: /accept
    alice: /move e4
    bob: /move e5
    alice: /move Nf3";

fn last_text(replies: &[Value]) -> String {
    replies.last().unwrap()["text"].as_str().unwrap().to_owned()
}

#[test]
fn a_takeback_granted_removes_the_asker_s_last_move() {
    let cases = [
        // Alice asks on Bob's turn: her Nf3 goes, and she is to move again.
        (
            "alice",
            "bob",
            "1. e4 e5 { White took back a move",
            1,
            "alice",
        ),
        // Bob asks on his own turn: his e5 and Alice's reply go.
        (
            "bob",
            "alice",
            "1. e4 { Black took back two moves",
            2,
            "bob",
        ),
    ];
    for (asker, answerer, score, plies, to_move) in cases {
        let console = Console::new();
        let replies = console.run(&format!(
            "{CASUAL}
            {asker}: /takeback
            {answerer}: /takeback accept
            {to_move}: /board"
        ));
        let taken = events_of(&replies, "taken_back");
        assert_eq!(taken.len(), 1, "{asker}");
        assert_eq!(taken[0]["plies"], plies);
        let board = last_text(&replies);
        assert!(board.contains(&format!("{to_move} to move")), "{board}");
        let pgn = console.pgn(1);
        assert!(pgn.contains(score), "{pgn}");
        assert!(
            pgn.trim_end()
                .ends_with("with the opponent's agreement. } *"),
            "{pgn}"
        );
        // Stored as played: a later run goes on from there.
        let next = if to_move == "bob" {
            "bob: /move c5"
        } else {
            "alice: /move d4"
        };
        let after = console.run(next);
        assert_eq!(events_of(&after, "move_played").len(), 1, "{after:?}");
    }
}

#[test]
fn a_takeback_is_declined_lapses_with_a_move_and_is_refused_in_rated_games() {
    let console = Console::new();
    let replies = console.run(&format!(
        "{CASUAL}
        alice: /takeback
        alice: /takeback
        bob: /takeback decline
        alice: /takeback
        bob: /move Nc6
        bob: /takeback accept"
    ));
    let texts: Vec<&str> = replies.iter().filter_map(|r| r["text"].as_str()).collect();
    let n = texts.len();
    // The request is addressed to the one who answers it.
    assert_eq!(replies[n - 6]["to"], "bob", "{}", replies[n - 6]);
    assert!(
        texts[n - 6].contains("asks to take back"),
        "{}",
        texts[n - 6]
    );
    assert!(texts[n - 5].contains("already asked"), "{}", texts[n - 5]);
    assert!(
        texts[n - 4].contains("declines the takeback"),
        "{}",
        texts[n - 4]
    );
    assert!(
        texts[n - 1].contains("no takeback to answer"),
        "{}",
        texts[n - 1]
    );
    assert!(events_of(&replies, "taken_back").is_empty());

    let rated = Console::new();
    let replies = rated.run(
        "alice: /challenge @bob color:white rated:yes
        bob: /accept
        alice: /move e4
        alice: /takeback",
    );
    assert!(last_text(&replies).contains("casual games only"));
}
