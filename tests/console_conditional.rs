//! Conditional moves (`/if`) through the real binary: played the moment
//! they are matched, dropped when not, cleared by a draw offer, kept across
//! a killed process, and never shown to the opponent.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

use common::{Console, START, events_of, parse_lines};
use serde_json::Value;

/// Alice (White) has played 1. e4; it is Bob's move.
const OPENED: &str = "alice: /challenge @bob color:white
    bob: /accept
    alice: /move e4";

/// The moves played, as (by, san, conditional).
fn played(replies: &[Value]) -> Vec<(String, String, bool)> {
    events_of(replies, "move_played")
        .iter()
        .map(|e| {
            (
                e["by"].as_str().unwrap_or_default().to_owned(),
                e["san"].as_str().unwrap_or_default().to_owned(),
                e["conditional"].as_bool().unwrap_or(false),
            )
        })
        .collect()
}

fn by(side: &str, san: &str, conditional: bool) -> (String, String, bool) {
    (side.to_owned(), san.to_owned(), conditional)
}

/// Every reply someone other than `user` can see, as text and events.
fn seen_by_others<'a>(replies: &'a [Value], user: &str) -> Vec<&'a Value> {
    replies
        .iter()
        .filter(|r| !(r["ephemeral"] == true && r["to"] == user))
        .collect()
}

#[test]
fn a_matched_line_is_played_at_once_by_the_player_who_was_away() {
    let console = Console::new();
    let replies = console.run(&format!(
        "{OPENED}
        alice: /if e5 Nf3 Nc6 Bb5
        alice: /if c5 Nf3
        bob: /move e5
        bob: /move Nc6"
    ));
    assert_eq!(
        played(&replies),
        [
            by("white", "e4", false),
            by("black", "e5", false),
            by("white", "Nf3", true),
            by("black", "Nc6", false),
            by("white", "Bb5", true),
        ]
    );
    // Alice is told each time, in the channel, and the reply was instant.
    let told: Vec<&Value> = replies
        .iter()
        .filter(|r| r["to"] == "alice" && r["ephemeral"] != true)
        .collect();
    assert!(told.iter().any(|r| {
        r["text"]
            .as_str()
            .unwrap()
            .contains("your conditional move Nf3 was played")
    }));
    let pgn = console.pgn(1);
    assert!(pgn.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5"), "{pgn}");
    assert!(pgn.contains("[ECO \"C60\"]"), "{pgn}");
}

#[test]
fn the_opponent_never_sees_a_line() {
    let console = Console::new();
    let replies = console.run(&format!(
        "{OPENED}
        alice: /if e5 Nf3 Nc6 Bb5
        alice: /if list
        bob: /move e5
        bob: /board
        bob: /moves
        bob: /if list"
    ));
    for reply in seen_by_others(&replies, "alice") {
        let text = reply["text"].as_str().unwrap_or_default();
        assert!(
            !text.contains("Bb5") && !text.contains("Nc6"),
            "bob or the channel saw alice's line: {text}"
        );
    }
    // The answers about lines were for alice alone.
    let private: Vec<&Value> = replies
        .iter()
        .filter(|r| r["text"].as_str().unwrap_or_default().contains("Bb5"))
        .collect();
    assert!(!private.is_empty());
    assert!(
        private
            .iter()
            .all(|r| r["ephemeral"] == true && r["to"] == "alice")
    );
}

#[test]
fn an_unmatched_move_drops_the_lines() {
    let console = Console::new();
    let replies = console.run(&format!(
        "{OPENED}
        alice: /if e5 Nf3
        bob: /move c5
        alice: /if list"
    ));
    assert_eq!(
        played(&replies),
        [by("white", "e4", false), by("black", "c5", false)]
    );
    let last = replies.last().expect("a reply");
    assert!(
        last["text"]
            .as_str()
            .unwrap()
            .starts_with("You have no conditional moves"),
        "{last}"
    );
}

#[test]
fn a_draw_offer_clears_the_lines() {
    let console = Console::new();
    let replies = console.run(&format!(
        "{OPENED}
        alice: /if e5 Nf3
        bob: /move e5 offer_draw
        alice: /if list"
    ));
    assert_eq!(
        played(&replies),
        [by("white", "e4", false), by("black", "e5", false)],
        "no reply while a draw is offered"
    );
    assert!(
        replies.last().unwrap()["text"]
            .as_str()
            .unwrap()
            .starts_with("You have no conditional moves")
    );
}

#[test]
fn on_ones_own_turn_the_first_move_is_played_and_the_rest_kept() {
    let console = Console::new();
    let replies = console.run(
        "alice: /challenge @bob color:white
        bob: /accept
        alice: /if e4 e5 Nf3
        bob: /move e5",
    );
    assert_eq!(
        played(&replies),
        [
            by("white", "e4", false),
            by("black", "e5", false),
            by("white", "Nf3", true),
        ]
    );
}

#[test]
fn a_bad_line_is_refused_and_changes_nothing() {
    let cases = [
        ("alice: /if e5", "A line needs their move and your reply"),
        ("alice: /if e5 Nf3 Nc6", "A line ends with your reply"),
        ("alice: /if e5 Ke3", "Move 2 of the line"),
        ("alice: /if e4 e5", "Move 1 of the line"),
        // On bob's own turn: Nf3 would be played, but nothing follows it.
        ("bob: /if Nf6", "A line needs their move and your reply"),
    ];
    for (line, expected) in cases {
        let console = Console::new();
        let replies = console.run(&format!("{OPENED}\n{line}"));
        let last = replies.last().expect("a reply");
        assert_eq!(last["ephemeral"], true, "{line}");
        let text = last["text"].as_str().unwrap();
        assert!(text.contains(expected), "{line}: {text}");
        assert_eq!(played(&replies), [by("white", "e4", false)], "{line}");
        let after = console.run("alice: /if list");
        let listed = after.last().unwrap()["text"].as_str().unwrap();
        assert!(
            listed.starts_with("You have no conditional moves"),
            "{line}"
        );
    }
    let console = Console::new();
    // In French, with French piece letters.
    let replies = console.run(&format!(
        "{OPENED}
        :lang alice fr
        alice: /si e5 Cf3
        alice: /si liste"
    ));
    let listed = replies.last().unwrap()["text"].as_str().unwrap();
    assert!(listed.contains("1... e5 2. Cf3"), "{listed}");
}

/// Lines stored by a process that is then killed are played by the next.
#[test]
fn stored_lines_survive_a_killed_process() {
    let console = Console::new();
    let mut child = console
        .command()
        .args(["console", "--json", "--now", START])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let script = format!("{OPENED}\nalice: /if e5 Nf3 Nc6 Bb5\n");
    for line in script.lines() {
        writeln!(stdin, "{}", line.trim()).expect("write");
    }
    stdin.flush().expect("flush");
    // Wait for the answer that says the line is stored, then kill.
    loop {
        let line = stdout.next().expect("a reply").expect("utf-8");
        let reply = parse_lines(line.as_bytes()).remove(0);
        if reply["text"]
            .as_str()
            .unwrap_or_default()
            .starts_with("Stored")
        {
            break;
        }
    }
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");

    let replies = console.run("bob: /move e5\nbob: /move Nc6");
    assert_eq!(
        played(&replies),
        [
            by("black", "e5", false),
            by("white", "Nf3", true),
            by("black", "Nc6", false),
            by("white", "Bb5", true),
        ]
    );
}
