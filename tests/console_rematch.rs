//! `/rematch` (French `/revanche`) through the real binary: after a
//! finished game either player offers the same game with colours swapped
//! (same time control, start and rating), the opponent accepts as any
//! challenge, or by asking for the rematch too.

mod common;

use common::Console;
use serde_json::Value;

/// A rated 5-day game that Black wins at move 2.
const FOOLS_MATE: &str = "alice: /challenge @bob color:white time:5d
    bob: /accept
    alice: /move f3
    bob: /move e5
    alice: /move g4
    bob: /move Qh4#";

fn texts(replies: &[Value]) -> Vec<&str> {
    replies.iter().filter_map(|r| r["text"].as_str()).collect()
}

fn pgn_tag<'a>(pgn: &'a str, tag: &str) -> &'a str {
    let start = format!("[{tag} \"");
    let line = pgn
        .lines()
        .find(|l| l.starts_with(&start))
        .expect("the tag");
    line.trim_start_matches(&start).trim_end_matches("\"]")
}

#[test]
fn a_rematch_swaps_colours_and_keeps_the_time_control_and_rating() {
    let console = Console::new();
    let replies = console.run(&format!(
        "{FOOLS_MATE}
        alice: /rematch
        bob: /accept
        bob: /move e4
        alice: /resign"
    ));
    let all = texts(&replies);
    assert!(
        all.iter()
            .any(|t| t.contains("alice offers bob a rematch of game #1, colours swapped")),
        "{all:#?}"
    );
    assert!(
        all.iter()
            .any(|t| t.contains("Game #2 begins: bob (White) against alice (Black)"))
    );
    let pgn = console.pgn(2);
    assert_eq!(
        (pgn_tag(&pgn, "White"), pgn_tag(&pgn, "Black")),
        ("bob", "alice")
    );
    assert_eq!(
        pgn_tag(&pgn, "TimeControl"),
        pgn_tag(&console.pgn(1), "TimeControl")
    );
    // Rated as the first game was: the resignation moves both ratings.
    let ratings = all
        .iter()
        .filter(|t| t.contains("1741 →") || t.contains("1259 →"))
        .count();
    assert_eq!(ratings, 1, "{all:#?}");
}

#[test]
fn asking_for_a_rematch_the_opponent_offered_accepts_it() {
    let console = Console::new();
    let replies = console.run(&format!(
        "{FOOLS_MATE}
        :lang bob fr
        bob: /revanche
        alice: /rematch 1"
    ));
    let all = texts(&replies);
    // Told to alice in her language, and to bob in his.
    assert!(
        all.iter()
            .any(|t| t.contains("bob offers alice a rematch of game #1"))
    );
    assert!(
        all.iter()
            .any(|t| t.contains("bob propose à alice une revanche de la partie n° 1"))
    );
    let begins = all.iter().filter(|t| t.contains("Game #2 begins")).count();
    assert_eq!(begins, 1, "one game, not two challenges: {all:#?}");
    assert!(
        !all.iter().any(|t| t.contains("(challenge C3)")),
        "{all:#?}"
    );
    let pgn = console.pgn(2);
    assert_eq!(
        (pgn_tag(&pgn, "White"), pgn_tag(&pgn, "Black")),
        ("bob", "alice")
    );
}

#[test]
fn a_chess960_rematch_starts_from_the_same_position_unrated_stays_unrated() {
    let console = Console::new();
    let replies = console.run(
        "alice: /challenge @bob color:black variant:chess960 start:12 rated:no time:2d
        bob: /accept
        bob: /resign
        bob: /rematch
        alice: /accept
        bob: /resign",
    );
    let (first, second) = (console.pgn(1), console.pgn(2));
    assert_eq!(pgn_tag(&first, "FEN"), pgn_tag(&second, "FEN"));
    assert_eq!(
        (pgn_tag(&second, "White"), pgn_tag(&second, "Black")),
        ("alice", "bob")
    );
    let all = texts(&replies);
    assert!(
        !all.iter().any(|t| t.contains("→")),
        "unrated: no rating moves: {all:#?}"
    );
}

#[test]
fn a_rematch_needs_a_finished_game_of_ones_own() {
    let console = Console::new();
    let replies = console.run(
        "alice: /rematch
        alice: /challenge @bob
        bob: /accept
        alice: /rematch 1
        carol: /rematch 1
        alice: /rematch 9",
    );
    let private: Vec<&str> = replies
        .iter()
        .filter(|r| r["ephemeral"] == true)
        .filter_map(|r| r["text"].as_str())
        .collect();
    let expected = [
        "You have no finished game here to play again.",
        "That game is still running",
        "You are not playing in this game.",
        "There is no game #9",
    ];
    for (text, start) in private.iter().zip(expected) {
        assert!(text.contains(start), "{text:?} should say {start:?}");
    }
    assert_eq!(private.len(), expected.len(), "{private:#?}");
}
