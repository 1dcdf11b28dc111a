//! Simulated Swiss events for the Dutch pairing's scale tests and its
//! benchmark: players seeded by rating, results drawn from the rating gap
//! (a seeded generator, so an event is the same on every run), a few games
//! forfeited, and every round checked against the rules a pairing may never
//! break.

#![allow(dead_code)]

use std::time::{Duration, Instant};

use pawnpost::competition::dutch::{self, Colour, Float, Player, Round};

/// One paired round, as the simulation saw it.
#[derive(Clone, Debug)]
pub struct RoundReport {
    /// 1 for the first round.
    pub round: u32,
    pub players: usize,
    pub took: Duration,
    pub byes: usize,
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A Swiss of `players` over `rounds` rounds: every round is paired by
/// [`dutch::pair`], checked, and reported to `each`; results follow the
/// seeds' ratings (2400 down to 1400), about one game in 40 is forfeited.
/// `Err` names the first round that broke a rule, or could not be paired.
pub fn play(
    players: usize,
    rounds: u32,
    seed: u64,
    mut each: impl FnMut(&RoundReport),
) -> Result<(), String> {
    let mut rng = Rng(seed.max(1));
    let mut entrants: Vec<Player> = (0..players)
        .map(|id| Player {
            id,
            rank: id,
            half_points: 0,
            colours: Vec::new(),
            opponents: Vec::new(),
            bye_eligible: true,
            floats: [Float::None; 2],
        })
        .collect();
    let rating = |id: usize| 2400.0 - 1000.0 * id as f64 / players as f64;
    for played in 0..rounds {
        let round = Round {
            initial_colour: Colour::White,
            played,
            last: played + 1 == rounds,
        };
        let started = Instant::now();
        let pairs = dutch::pair(&entrants, round)
            .ok_or_else(|| format!("seed {seed}: round {} was not paired", played + 1))?;
        let took = started.elapsed();
        let byes = check(&entrants, &pairs, round)
            .map_err(|why| format!("seed {seed}, round {}: {why}", played + 1))?;
        each(&RoundReport {
            round: played + 1,
            players,
            took,
            byes,
        });
        let before: Vec<u32> = entrants.iter().map(|e| e.half_points).collect();
        for e in &mut entrants {
            e.floats = [Float::None, e.floats[0]];
        }
        for (white, black) in pairs {
            let Some(black) = black else {
                let e = &mut entrants[white];
                e.bye_eligible = false;
                e.half_points += 2;
                e.floats[0] = Float::Down;
                continue;
            };
            if rng.next().is_multiple_of(40) {
                // A forfeit: no game, no colour, no meeting (C.1); the
                // winner floated down (A.4) and may not have the bye.
                let (winner, loser) = if rng.next().is_multiple_of(2) {
                    (white, black)
                } else {
                    (black, white)
                };
                entrants[winner].half_points += 2;
                entrants[winner].bye_eligible = false;
                entrants[winner].floats[0] = Float::Down;
                entrants[loser].floats[0] = Float::None;
                continue;
            }
            let expected = 1.0 / (1.0 + 10f64.powf((rating(black) - rating(white)) / 400.0));
            let u = rng.unit();
            let white_half = if u < expected - 0.12 {
                2
            } else if u < expected + 0.12 {
                1
            } else {
                0
            };
            let float = |mine: u32, theirs: u32| match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => Float::Down,
                std::cmp::Ordering::Less => Float::Up,
                std::cmp::Ordering::Equal => Float::None,
            };
            entrants[white].floats[0] = float(before[white], before[black]);
            entrants[black].floats[0] = float(before[black], before[white]);
            entrants[white].half_points += white_half;
            entrants[black].half_points += 2 - white_half;
            entrants[white].opponents.push(black);
            entrants[black].opponents.push(white);
            entrants[white].colours.push(Colour::White);
            entrants[black].colours.push(Colour::Black);
        }
    }
    Ok(())
}

/// The rules no pairing may break: everyone paired once or given the bye,
/// one bye at most and never a second one for a player (C.2), no second
/// game between two players (C.1), and, before the last round, nobody's
/// colour difference beyond two nor a colour three times running (C.3);
/// returns the number of byes.
fn check(
    entrants: &[Player],
    pairs: &[(usize, Option<usize>)],
    round: Round,
) -> Result<usize, String> {
    let mut seated = vec![false; entrants.len()];
    let mut byes = 0;
    let mut seat = |p: usize| -> Result<(), String> {
        if std::mem::replace(&mut seated[p], true) {
            return Err(format!("player {p} paired twice"));
        }
        Ok(())
    };
    for &(white, black) in pairs {
        seat(white)?;
        let Some(black) = black else {
            byes += 1;
            if !entrants[white].bye_eligible {
                return Err(format!("player {white} has a second bye"));
            }
            continue;
        };
        seat(black)?;
        if entrants[white].opponents.contains(&black) {
            return Err(format!("{white} and {black} meet again"));
        }
        if !round.last {
            for (p, colour) in [(white, Colour::White), (black, Colour::Black)] {
                let mut colours = entrants[p].colours.clone();
                colours.push(colour);
                let difference: i32 = colours
                    .iter()
                    .map(|c| if *c == Colour::White { 1 } else { -1 })
                    .sum();
                let thrice = colours.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]);
                if difference.abs() > 2 || thrice {
                    return Err(format!("player {p} would have {colours:?}"));
                }
            }
        }
    }
    if let Some(p) = seated.iter().position(|s| !s) {
        return Err(format!("player {p} left out"));
    }
    if byes > 1 || byes != entrants.len() % 2 {
        return Err(format!("{byes} byes for {} players", entrants.len()));
    }
    Ok(byes)
}
