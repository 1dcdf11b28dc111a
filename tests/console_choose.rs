//! Ambiguous moves through the real binary: nothing is played, the player
//! is offered a line per reading, typing one plays it, and every reply names
//! the move in its reader's notation (French letters for a French reader,
//! English for an English one), never the text that was typed.

mod common;

use common::{Console, events_of};
use serde_json::Value;

/// One ambiguous move, and what each reader must read once it is chosen.
struct Case {
    /// The start position (white, alice, to move).
    fen: &'static str,
    /// alice's and bob's languages (`/settings language`).
    alice: &'static str,
    bob: &'static str,
    typed: &'static str,
    /// The readings as alice reads them, in UCI order.
    labels: &'static [&'static str],
    /// The reading alice picks, in UCI.
    pick: &'static str,
    /// The move as alice reads it in her reply, and as bob reads it.
    alice_reads: &'static str,
    bob_reads: &'static str,
}

const CASES: &[Case] = &[
    // French R is the king, English R the rook: both readings are legal.
    Case {
        fen: "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
        alice: "fr",
        bob: "en",
        typed: "Rd1",
        labels: &["Ta1-d1", "Re1-d1"],
        pick: "a1d1",
        alice_reads: "alice a joué Td1",
        bob_reads: "alice played Rd1",
    },
    Case {
        fen: "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
        alice: "en",
        bob: "fr",
        typed: "Rd1",
        labels: &["Ra1-d1", "Ke1-d1"],
        pick: "e1d1",
        alice_reads: "alice played Kd1",
        bob_reads: "alice a joué Rd1",
    },
    // Plain SAN ambiguity: two rooks reach d1 (and the king cannot).
    Case {
        fen: "4k3/8/8/8/8/4K3/8/R6R w - - 0 1",
        alice: "fr",
        bob: "en",
        typed: "Td1",
        labels: &["Ta1-d1", "Th1-d1"],
        pick: "h1d1",
        alice_reads: "alice a joué Thd1",
        bob_reads: "alice played Rhd1",
    },
    Case {
        fen: "4k3/8/8/8/8/4K3/8/R6R w - - 0 1",
        alice: "en",
        bob: "en",
        typed: "Rd1",
        labels: &["Ra1-d1", "Rh1-d1"],
        pick: "a1d1",
        alice_reads: "alice played Rad1",
        bob_reads: "alice played Rad1",
    },
];

fn to_user<'a>(replies: &'a [Value], user: &str) -> Vec<&'a Value> {
    replies.iter().filter(|r| r["to"] == user).collect()
}

#[test]
fn an_ambiguous_move_plays_nothing_until_the_player_chooses() {
    for case in CASES {
        let console = Console::new();
        let asked = console.run(&format!(
            "alice: /settings language {alice}
             bob: /settings language {bob}
             alice: /challenge @bob color:white fen:\"{fen}\"
             bob: /accept
             alice: /move {typed}",
            alice = case.alice,
            bob = case.bob,
            fen = case.fen,
            typed = case.typed,
        ));
        let what = format!("{} typed by a {} reader", case.typed, case.alice);
        let question = asked.last().expect("an answer");
        assert_eq!(question["to"], "alice", "{what}: {question}");
        assert_eq!(question["ephemeral"], true, "{what}: asked privately");
        assert!(events_of(&asked, "move_played").is_empty(), "{what}");
        let choices = question["choices"].as_array().expect("choices");
        let mut offered: Vec<(String, String)> = choices
            .iter()
            .map(|c| {
                (
                    c["uci"].as_str().unwrap().to_owned(),
                    c["label"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        offered.sort();
        let labels: Vec<&str> = offered.iter().map(|(_, label)| label.as_str()).collect();
        assert_eq!(labels, case.labels, "{what}: {question}");
        let text = question["text"].as_str().unwrap();
        for label in case.labels {
            assert!(text.contains(label), "{what}: {text}");
        }
        let command = choices
            .iter()
            .find(|c| c["uci"] == case.pick)
            .and_then(|c| c["command"].as_str())
            .expect("the picked reading");
        assert_eq!(command, format!("/move {} game:1", case.pick));

        let played = console.run(&format!("alice: {command}"));
        let moves = events_of(&played, "move_played");
        assert_eq!(moves.len(), 1, "{what}: {played:?}");
        assert_eq!(moves[0]["uci"], case.pick, "{what}");
        // bob, to move, is addressed in the channel; alice reads her own line.
        let public: Vec<&Value> = played.iter().filter(|r| r["ephemeral"] == false).collect();
        assert_eq!(public.len(), 1, "{what}: {played:?}");
        assert_eq!(public[0]["to"], "bob");
        let bob_text = public[0]["text"].as_str().unwrap();
        assert!(bob_text.contains(case.bob_reads), "{what}: {bob_text}");
        let alice_text = match to_user(&played, "alice").first() {
            Some(own) => own["text"].as_str().unwrap(),
            // Same language: the channel's message is alice's too.
            None => bob_text,
        };
        assert!(
            alice_text.contains(case.alice_reads),
            "{what}: {alice_text}"
        );
        if case.alice == case.bob {
            assert!(to_user(&played, "alice").is_empty(), "{what}: one message");
        }
    }
}

#[test]
fn the_choice_keeps_the_draw_offer_and_is_checked_again() {
    let console = Console::new();
    let asked = console.run(
        "alice: /challenge @bob color:white fen:\"4k3/8/8/8/8/4K3/8/R6R w - - 0 1\"
         bob: /accept
         alice: /move Rd1 offer_draw",
    );
    let question = asked.last().unwrap();
    let command = question["choices"][0]["command"].as_str().unwrap();
    assert!(command.ends_with(" offer_draw game:1"), "{command}");
    // bob cannot answer alice's question for her.
    let bob_tries = console.run(&format!("bob: {command}"));
    assert!(events_of(&bob_tries, "move_played").is_empty());
    assert_eq!(bob_tries[0]["ephemeral"], true);
    let played = console.run(&format!("alice: {command}"));
    let moves = events_of(&played, "move_played");
    assert_eq!(moves.len(), 1, "{played:?}");
    assert_eq!(moves[0]["draw_offered"], true);
    // Played once: choosing again is refused (not alice's turn).
    let again = console.run(&format!("alice: {command}"));
    assert!(events_of(&again, "move_played").is_empty());
}

#[test]
fn human_output_prints_a_line_to_type_per_reading() {
    let console = Console::new();
    let script = console.script(
        "alice: /challenge @bob color:white fen:\"4k3/8/8/8/8/4K3/8/R6R w - - 0 1\"
         bob: /accept
         alice: /move Rd1",
    );
    let output = console
        .command()
        .args(["console", "--now", common::START, "--script"])
        .arg(&script)
        .output()
        .expect("run pawnpost");
    let text = String::from_utf8_lossy(&output.stdout);
    for line in [
        "  alice: /move a1d1 game:1   # Ra1-d1",
        "  alice: /move h1d1 game:1   # Rh1-d1",
    ] {
        assert!(text.contains(line), "{line:?} in:\n{text}");
    }
}

#[test]
fn a_claim_with_an_ambiguous_move_is_made_with_the_chosen_one() {
    let console = Console::new();
    // Halfmove clock 99: any rook move makes fifty moves without a capture or pawn move.
    let asked = console.run(
        "alice: /settings language fr
         alice: /challenge @bob color:white fen:\"4k3/8/8/8/8/4K3/8/R6R w - - 99 60\"
         bob: /accept
         alice: /claim fifty Td1",
    );
    let question = asked.last().unwrap();
    assert!(events_of(&asked, "game_over").is_empty(), "{question}");
    let command = question["choices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["uci"] == "h1d1")
        .and_then(|c| c["command"].as_str())
        .expect("the h1 rook's reading");
    assert_eq!(command, "/claim fifty h1d1 game:1");
    let claimed = console.run(&format!("alice: {command}"));
    let over = events_of(&claimed, "game_over");
    assert_eq!(over.len(), 1, "{claimed:?}");
    assert_eq!(over[0]["reason"], "fifty_moves");
    // The written move is named in each reader's notation, though not
    // played: the public message in the server's language (bob chose
    // none), alice's own lines in French.
    let public = claimed[0]["text"].as_str().unwrap();
    assert!(public.contains("with the move Rhd1"), "{public}");
    let own = claimed
        .iter()
        .find(|r| r["to"] == "alice" && r["ephemeral"] == true)
        .expect("alice's lines");
    let text = own["text"].as_str().unwrap();
    assert!(text.contains("avec le coup Thd1"), "{text}");
    assert!(events_of(&claimed, "move_played").is_empty());
}
