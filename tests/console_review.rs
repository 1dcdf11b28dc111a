//! `/review` and `/puzzle` through the real binary with the real Stockfish
//! (Debian's `stockfish` package; `.ci/run` installs it): a hung queen is a
//! blunder, the same game gets the same numbers, running games are refused
//! (and a tournament's games until their round is over, if its organiser
//! chose so), automatic reviews are posted through the outbox, the blunder
//! becomes a puzzle for the server's other members, and without an engine
//! the bot says so and does everything else as before.

mod common;

use std::path::Path;

use common::{Console, START, events_of, parse_lines};
use serde_json::Value;

const STOCKFISH: &str = "/usr/games/stockfish";

/// Whether the engine is here; says so where `cargo test` shows it if not.
fn engine_installed() -> bool {
    let here = Path::new(STOCKFISH).is_file();
    if !here {
        println!("note: {STOCKFISH} is not installed: the review test is skipped");
    }
    here
}

/// Black hangs the queen on g5 to the knight, and resigns after Nxg5.
const HUNG_QUEEN: &str = "alice: /challenge @bob color:white
    bob: /accept
    alice: /move e4
    bob: /move e5
    alice: /move Nf3
    bob: /move Qg5
    alice: /move Nxg5
    bob: /resign";

/// Runs `script` on `console` with the environment `env` added.
fn run_with(console: &Console, script: &str, env: &[(&str, &str)]) -> Vec<Value> {
    let path = console.script(script);
    let output = console
        .command()
        .envs(env.iter().copied())
        .args(["console", "--json", "--now", START, "--script"])
        .arg(path)
        .output()
        .expect("run pawnpost");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    parse_lines(&output.stdout)
}

fn text(reply: &Value) -> &str {
    reply["text"].as_str().unwrap_or_default()
}

fn reviews(replies: &[Value]) -> Vec<Value> {
    events_of(replies, "review")
}

#[test]
fn a_hung_queen_is_a_blunder_and_the_same_game_gets_the_same_review() {
    if !engine_installed() {
        return;
    }
    let console = Console::new();
    let replies = console.run(&format!(
        "{HUNG_QUEEN}\nalice: /review\nbob: /review game:1"
    ));
    let found = reviews(&replies);
    assert_eq!(found.len(), 2, "{replies:#?}");
    let review = &found[0];
    assert_eq!(review["game"], 1);
    let (white, black) = (&review["white"], &review["black"]);
    assert_eq!(black["blunders"], 1, "{review}");
    assert_eq!(white["blunders"], 0, "{review}");
    let accuracy = |side: &Value| side["accuracy"].as_f64().expect("accuracy");
    assert!(
        accuracy(black) < accuracy(white) - 40.0,
        "Black's accuracy far below White's: {review}"
    );
    assert!(black["acpl"].as_u64().expect("acpl") > 200, "{review}");
    for key in ["accuracy", "acpl", "inaccuracies", "mistakes", "blunders"] {
        assert!(white.get(key).is_some(), "{key} in {review}");
    }
    let said = text(
        replies
            .iter()
            .rev()
            .find(|r| r["events"][0]["type"] == "review")
            .unwrap(),
    );
    assert!(said.contains("Blunder: 2... Qg5"), "{said}");
    // Asked again: the kept review, the same numbers.
    assert_eq!(found[0], found[1]);
    // Made afresh from another database: the same numbers (fixed nodes).
    let again = Console::new();
    let fresh = reviews(&again.run(&format!("{HUNG_QUEEN}\nalice: /review")));
    assert_eq!(fresh, found[..1], "the same review twice");
}

#[test]
fn a_running_game_is_never_reviewed() {
    if !engine_installed() {
        return;
    }
    let console = Console::new();
    let replies = console.run(
        "alice: /challenge @bob color:white
        bob: /accept
        alice: /move e4
        bob: /move e5
        alice: /review
        bob: /review game:1
        carol: /review game:1
        carol: /puzzle
        carol: /review game:99",
    );
    assert!(reviews(&replies).is_empty(), "{replies:#?}");
    let refusals: Vec<&str> = replies.iter().skip(4).map(text).collect();
    for refusal in &refusals[..3] {
        assert_eq!(
            *refusal, "Game #1 is still being played: it can be reviewed once it is over.",
            "{refusals:?}"
        );
    }
    assert!(
        refusals[3].starts_with("No puzzle is waiting"),
        "{refusals:?}"
    );
    assert_eq!(refusals[4], "There is no game #99 on this server.");
    assert!(replies.iter().skip(4).all(|r| r["ephemeral"] == true));
}

/// A game over before any move (aborted, or a no-show's forfeit) has
/// nothing to review: no "accuracy 0.0 %", no empty graph.
#[test]
fn a_game_without_moves_is_never_reviewed() {
    if !engine_installed() {
        return;
    }
    let console = Console::new();
    let replies = console.run(
        "alice: /challenge @bob color:white
        bob: /accept
        alice: /abort
        alice: /review game:1",
    );
    assert!(reviews(&replies).is_empty(), "{replies:#?}");
    let last = replies.last().expect("an answer");
    assert_eq!(
        text(last),
        "Game #1 ended before any move was played: there is nothing to review."
    );
    assert_eq!(last["ephemeral"], true);
}

#[test]
fn without_an_engine_the_bot_says_so_and_nothing_else_changes() {
    let script = format!("{HUNG_QUEEN}\nalice: /review\nbob: /analyse\ncarol: /puzzle");
    let without = run_with(
        &Console::new(),
        &script,
        &[("PAWNPOST_ANALYSIS_ENGINE", "/nowhere/stockfish")],
    );
    assert!(reviews(&without).is_empty());
    let told: Vec<&str> = without.iter().rev().take(3).map(text).collect();
    assert!(
        told[2].starts_with("This bot has no chess engine"),
        "{told:?}"
    );
    assert!(
        told[1].starts_with("This bot has no chess engine"),
        "{told:?}"
    );
    assert!(told[0].starts_with("No puzzle is waiting"), "{told:?}");
    // Everything before the reviews is answered the same with an engine.
    if engine_installed() {
        let with = console_replies_before_review(&script);
        let plain: Vec<&Value> = without.iter().take(with.len()).collect();
        assert_eq!(with.iter().collect::<Vec<_>>(), plain);
    }
}

fn console_replies_before_review(script: &str) -> Vec<Value> {
    let replies = Console::new().run(script);
    let first_review = replies
        .iter()
        .position(|r| r["events"][0]["type"] == "review")
        .expect("a review");
    replies[..first_review].to_vec()
}

#[test]
fn a_blunder_becomes_a_puzzle_for_the_other_members() {
    if !engine_installed() {
        return;
    }
    let console = Console::new();
    assert_eq!(
        reviews(&console.run(&format!("{HUNG_QUEEN}\nalice: /review"))).len(),
        1
    );
    // Each act, and how its one answer begins.
    let table = [
        // The players of the game are not given its puzzle.
        ("alice: /puzzle", "No puzzle is waiting for you here."),
        ("carol: /puzzle Nxg5", "You have no puzzle to answer"),
        (
            "carol: /puzzle",
            "Puzzle #1, from game #1: White to play and win.",
        ),
        // Asked again before answering: the same puzzle.
        (
            "carol: /puzzle",
            "Puzzle #1, from game #1: White to play and win.",
        ),
        // Illegal or unreadable: refused, not counted.
        (
            "carol: /puzzle Qxg5",
            "“Qxg5”: no piece of yours can move there.",
        ),
        ("carol: /puzzle Nxg5", "Solved! Nxg5 wins (puzzle #1)."),
        ("carol: /puzzle", "No puzzle is waiting for you here."),
        ("dave: /puzzle", "Puzzle #1"),
        (
            "dave: /puzzle Nh4",
            "Not Nh4: Nxg5 was the winning move (puzzle #1).",
        ),
        ("dave: /puzzle Nxg5", "You have no puzzle to answer"),
        (
            "carol: /puzzle solvers",
            "Puzzle solvers here (solved of tried):\n1. carol: 1 of 1\n2. dave: 0 of 1",
        ),
        (
            "erin: /probleme",
            "Problème n° 1, tiré de la partie n° 1 : les Blancs jouent et gagnent.",
        ),
        (
            "erin: /probleme Cxg5",
            "Résolu ! Cxg5 gagne (problème n° 1).",
        ),
    ];
    let script: Vec<&str> = std::iter::once(":lang erin fr")
        .chain(table.iter().map(|(act, _)| *act))
        .collect();
    let replies = console.run(&script.join("\n"));
    assert_eq!(replies.len(), table.len(), "{replies:#?}");
    for ((act, start), reply) in table.iter().zip(&replies) {
        assert!(
            text(reply).starts_with(start),
            "{act}: {:?} should start with {start:?}",
            text(reply)
        );
        assert_eq!(reply["ephemeral"], !act.contains("solvers"), "{act}");
    }
    assert_eq!(
        replies[2]["board"]["fen"],
        "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    );
    // The board shows the blunder that made the puzzle: the queen's move.
    assert_eq!(replies[2]["board"]["last_move"], "d8g5");
}

#[test]
fn a_tournament_may_keep_its_games_from_review_until_the_round_is_over() {
    if !engine_installed() {
        return;
    }
    let console = Console::new();
    let replies = console.run(
        "alice: /tournament create round_robin name:\"Club\" unrated reviews:after_round
        alice: /tournament join
        bob: /tournament join
        carol: /tournament join
        dave: /tournament join
        alice: /tournament start
        alice: /move e4 game:1
        dave: /resign game:1
        alice: /review game:1
        bob: /move e4 game:2
        carol: /resign game:2
        alice: /review game:1",
    );
    let answers: Vec<&str> = replies
        .iter()
        .filter(|r| {
            text(r).contains("organiser keeps reviews") || r["events"][0]["type"] == "review"
        })
        .map(text)
        .collect();
    assert_eq!(answers.len(), 2, "{replies:#?}");
    assert!(
        answers[0].starts_with("Game #1 is in a tournament"),
        "{answers:?}"
    );
    assert!(
        answers[1].starts_with("Engine review of game #1"),
        "{answers:?}"
    );
}

#[test]
fn an_automatic_review_is_posted_in_the_game_s_channel_when_it_ends() {
    if !engine_installed() {
        return;
    }
    let console = Console::new();
    let replies = run_with(
        &console,
        &format!("{HUNG_QUEEN}\n:advance 1m\n:advance 1m"),
        &[("PAWNPOST_ANALYSIS_AUTO_REVIEW", "true")],
    );
    let posted = reviews(&replies);
    assert_eq!(posted.len(), 1, "posted once: {replies:#?}");
    let post = replies
        .iter()
        .find(|r| r["events"][0]["type"] == "review")
        .expect("the post");
    assert_eq!(post["ephemeral"], false);
    assert!(text(post).starts_with("Engine review of game #1"), "{post}");
    // A restart finds the review kept and posts nothing more.
    let again = run_with(
        &console,
        ":advance 1m",
        &[("PAWNPOST_ANALYSIS_AUTO_REVIEW", "true")],
    );
    assert!(reviews(&again).is_empty(), "{again:#?}");
}
