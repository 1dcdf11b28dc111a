//! The unwinnability analyzer on a realistic flag-fall workload: the 30,000
//! final positions of lichess games lost on time
//! (`benches/data/lichess-30k-timeouts.txt`). The side to move flagged, so
//! each position asks whether the *other* side can still mate, in the mode
//! the game uses on a flag fall ([`Mode::Quick`]).
//!
//! `cargo bench --bench unwinnable [-- full]` (`full` also times the full
//! analysis). Targets (issue 8): average ≤ 5 µs, max ≤ 50 ms, 0 undecided for
//! lack of budget.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use pawnpost::core::unwinnable::{Mode, Verdict, Why, analyze, class};
use shakmaty::{Chess, Position};

fn main() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/data/lichess-30k-timeouts.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let positions: Vec<Chess> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| class::parse_position(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    run(&positions, Mode::Quick);
    if std::env::args().any(|a| a == "full") {
        run(&positions, Mode::Full);
    }
}

fn run(positions: &[Chess], mode: Mode) {
    let (mut total, mut max) = (Duration::ZERO, Duration::ZERO);
    let (mut unwinnable, mut presumed, mut spent, mut proved) = (0, 0, 0, 0);
    for pos in positions {
        let winner = !pos.turn();
        let started = Instant::now();
        let verdict = analyze(pos, winner, mode);
        let took = started.elapsed();
        total += took;
        max = max.max(took);
        match verdict {
            Verdict::Unwinnable => unwinnable += 1,
            Verdict::Winnable(_) => proved += 1,
            Verdict::Undecided(Why::Presumed) => presumed += 1,
            Verdict::Undecided(Why::BudgetSpent) => spent += 1,
        }
    }
    let average = total / positions.len() as u32;
    println!(
        "{mode:?}: {} positions, average {average:?}, max {max:?}; unwinnable {unwinnable}, \
         winnable with a line {proved}, presumed winnable {presumed}, undecided (budget spent) {spent}",
        positions.len()
    );
}
