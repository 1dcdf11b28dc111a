//! CHA's test vectors (`tests/data/cha/test-vector.txt`): every
//! position's class (`WB`, `W-`, `-B`, `--`) must come out of the full
//! analysis, and every mating line it gives must replay to a mate.

use std::path::PathBuf;

use pawnpost::core::unwinnable::{Mode, Verdict, analyze_with_budget, class};
use shakmaty::{Chess, Color, Move, Position};

fn vectors() -> Vec<(String, String)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/cha/test-vector.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let (class, fen) = line.split_once(' ').expect("class then FEN");
            (class.to_owned(), fen.trim().to_owned())
        })
        .collect()
}

fn position(fen: &str) -> Chess {
    // Some vectors hold more than the starting material (composed problems).
    class::parse_position(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Whether `line` is legal from `pos` and ends with `winner` mating.
fn replays_to_mate(pos: &Chess, winner: Color, line: &[Move]) -> bool {
    let mut pos = pos.clone();
    for &m in line {
        if !pos.is_legal(m) {
            return false;
        }
        pos.play_unchecked(m);
    }
    pos.is_checkmate() && pos.turn() != winner
}

/// Runs every vector, both sides, with `budget` nodes each. Panics on any
/// answer against the class (a mate for an unwinnable side, "unwinnable"
/// for a winnable one) and on any line that does not replay to a mate.
/// Returns the undecided sides, each marked with its true class.
fn check_vectors(budget: u64) -> Vec<String> {
    let vectors = vectors();
    assert_eq!(vectors.len(), 1803);
    let mut wrong = Vec::new();
    let mut undecided = Vec::new();
    for (class, fen) in &vectors {
        let pos = position(fen);
        for (winner, expected_winnable) in [
            (Color::White, class.starts_with('W')),
            (Color::Black, class.ends_with('B')),
        ] {
            match analyze_with_budget(&pos, winner, Mode::Full, budget) {
                Verdict::Winnable(line) => {
                    assert!(
                        replays_to_mate(&pos, winner, &line),
                        "{fen} {winner:?}: bad line {line:?}"
                    );
                    if !expected_winnable {
                        wrong.push(format!("{class} {fen} {winner:?}: mate found"));
                    }
                }
                Verdict::Unwinnable if expected_winnable => {
                    wrong.push(format!("{class} {fen} {winner:?}: called unwinnable"));
                }
                Verdict::Unwinnable => {}
                Verdict::Undecided(_) => {
                    let truth = if expected_winnable {
                        "winnable"
                    } else {
                        "unwinnable"
                    };
                    undecided.push(format!("{class} {fen} {winner:?} ({truth})"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    undecided
}

fn unproved(undecided: &[String]) -> usize {
    undecided
        .iter()
        .filter(|u| u.ends_with("(unwinnable)"))
        .count()
}

/// Quick enough for every `cargo test` (about 90 s in debug): a budget of
/// 10,000 nodes, so some sides stay undecided (which the rules read as
/// winnable), but never a wrong answer.
#[test]
fn no_vector_gets_a_wrong_answer() {
    let undecided = check_vectors(10_000);
    eprintln!(
        "{} undecided sides, {} of them unwinnable",
        undecided.len(),
        unproved(&undecided)
    );
}

/// The full budget, where every side must come out as its class says:
/// `cargo test --release --test unwinnable_vectors -- --ignored` (about a
/// minute and a half; `.ci/run` runs it).
#[test]
#[ignore = "minutes: run in release"]
fn vectors_with_the_full_budget() {
    let undecided = check_vectors(Mode::Full.budget());
    assert!(
        undecided.is_empty(),
        "{} sides undecided:\n{}",
        undecided.len(),
        undecided.join("\n")
    );
}
