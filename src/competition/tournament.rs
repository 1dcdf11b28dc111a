//! A tournament's course, as pure code: the first pairings, what comes
//! after each result (the next Swiss round, the next game of a knockout
//! match, the end), the withdrawal rule, and the crosstable.
//!
//! Players are seed indices `0..n` (0 the top seed). The service maps them
//! to stored players and pairings.
//!
//! # Withdrawal
//!
//! After the FIDE Tournament Rules (Handbook C.06, chapter V, articles 4
//! and 5). In round robins and Scheveningen, a player who withdraws having
//! completed fewer than half of their games has all their results annulled:
//! struck from everyone's score and tie-breaks (rated games stay rated).
//! Otherwise their results stand and each game not yet decided is scored
//! as a forfeit win for the opponent (`+/-`, not rated). In Swiss and
//! knockout events the results so far stand, games not yet decided are
//! forfeited, and the player is not paired again (a knockout opponent goes
//! through).

use super::dutch::{self, Colour, Float};
use super::knockout::{self, MatchState};
use super::round_robin;
use super::tiebreak::{self, Line, TieBreak, Unplayed};
use crate::core::names::Named;

/// The pairing systems: part of the command language, so defined in the core.
pub use crate::core::tournament::{MAX_PLAYERS, System};

/// How one pairing stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Its game goes on.
    Pending,
    /// Decided over the board: White's points times two.
    Played { white_half: u32 },
    /// The player sits out (worth the bye value).
    Bye,
    /// Decided without play: White's points times two (0 or 2).
    Forfeit { white_half: u32 },
    /// Neither player scores (`-/-`), e.g. a game aborted before both moved.
    DoubleForfeit,
    /// Struck out: counts for nobody.
    Annulled,
}

impl Outcome {
    pub fn is_decided(self) -> bool {
        !matches!(self, Outcome::Pending)
    }
}

/// A pairing of the tournament so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub round: u32,
    pub board: u32,
    pub white: usize,
    pub black: Option<usize>,
    pub outcome: Outcome,
}

/// A pairing to create: a game, or a bye when `black` is `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Planned {
    pub round: u32,
    pub board: u32,
    pub white: usize,
    pub black: Option<usize>,
}

/// Why a tournament cannot start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    #[error("too few players")]
    TooFewPlayers,
    #[error("more than the {max} players the system takes")]
    TooManyPlayers { max: usize },
    #[error("Scheveningen needs an even number of players")]
    OddTeams,
}

/// The most players each system takes, as the operator set them
/// (`[tournaments]`); each at most [`MAX_PLAYERS`] (the command's bound).
///
/// A round robin and a Scheveningen start every game at once, as
/// correspondence sections do, so their players play all their games
/// side by side: the defaults keep them at a section's size (ICCF's have
/// 7 to 17 players). A Swiss or a knockout plays a round at a time, each
/// player one game (a match) at a time, and takes thousands: a Swiss round
/// of 2,000 is paired in about half a second (`cargo bench --bench
/// swiss_pairing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// 32: 496 games, 31 at once for each player.
    pub round_robin: u32,
    /// 16: 240 games, 30 at once for each player.
    pub double_round_robin: u32,
    /// 40: two teams of 20, 400 games, 20 at once for each player.
    pub scheveningen: u32,
    /// 2,000: 1,000 games a round.
    pub swiss: u32,
    /// 1,024: 512 matches in the first round.
    pub knockout: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            round_robin: 32,
            double_round_robin: 16,
            scheveningen: 40,
            swiss: 2_000,
            knockout: 1_024,
        }
    }
}

impl Limits {
    /// The most players a `system` tournament takes.
    pub fn max_players(&self, system: System) -> usize {
        let max = match system {
            System::RoundRobin => self.round_robin,
            System::DoubleRoundRobin => self.double_round_robin,
            System::Scheveningen => self.scheveningen,
            System::Swiss => self.swiss,
            System::Knockout => self.knockout,
        };
        max as usize
    }

    /// Whether `n` players are few and many enough to start a `system`
    /// tournament (Scheveningen's even count is [`start`]'s).
    pub fn admit(&self, system: System, n: usize) -> Result<(), StartError> {
        if n < min_players(system) {
            return Err(StartError::TooFewPlayers);
        }
        let max = self.max_players(system);
        if n > max {
            return Err(StartError::TooManyPlayers { max });
        }
        Ok(())
    }

    /// Why these limits cannot be used, if they cannot: each system's
    /// between its least number of players and [`MAX_PLAYERS`].
    pub fn check(&self) -> Result<(), String> {
        for system in System::ALL {
            let max = self.max_players(system);
            let least = min_players(system).max(2);
            if !(least..=MAX_PLAYERS as usize).contains(&max) {
                return Err(format!(
                    "{}: {max} is not between {least} and {MAX_PLAYERS} players",
                    system.as_str()
                ));
            }
        }
        Ok(())
    }
}

/// What comes next after a change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// Games are still going on.
    Wait,
    /// New pairings in `round` (the same round for a knockout match's next game).
    Pair {
        round: u32,
        pairings: Vec<Planned>,
    },
    Finished,
}

/// The players a system needs at least.
pub fn min_players(system: System) -> usize {
    match system {
        System::RoundRobin | System::DoubleRoundRobin => 3,
        _ => 2,
    }
}

/// Swiss rounds when none were asked: enough to find a winner (⌈log2 n⌉), at least one.
pub fn default_rounds(n: usize) -> u32 {
    n.next_power_of_two().trailing_zeros().max(1)
}

/// Scheveningen teams by seed, in a snake so both are equally strong:
/// seeds 1, 4, 5, 8... form team A and seeds 2, 3, 6, 7... team B.
pub fn scheveningen_teams(n: usize) -> (Vec<usize>, Vec<usize>) {
    (0..n).partition(|seed| matches!(seed % 4, 0 | 3))
}

/// Every pairing made when the tournament starts (round robins and
/// Scheveningen: all of them, as correspondence events start every game at once).
pub fn start(system: System, n: usize) -> Result<Vec<Planned>, StartError> {
    if n < min_players(system) {
        return Err(StartError::TooFewPlayers);
    }
    let rounds = match system {
        System::RoundRobin => round_robin::berger(n, 1),
        System::DoubleRoundRobin => round_robin::berger(n, 2),
        System::Scheveningen => {
            if n % 2 == 1 {
                return Err(StartError::OddTeams);
            }
            let (a, b) = scheveningen_teams(n);
            let team = |i: usize| if i < a.len() { a[i] } else { b[i - a.len()] };
            round_robin::scheveningen(n / 2)
                .into_iter()
                .map(|round| {
                    round
                        .into_iter()
                        .map(|(w, b)| (team(w), b.map(team)))
                        .collect()
                })
                .collect()
        }
        System::Swiss => {
            let fresh: Vec<dutch::Player> = (0..n).map(|index| entrant(index, &[], 0)).collect();
            // Round 1 of a Swiss of any length (it is never the last that matters).
            vec![dutch::pair(&fresh, swiss_round(0, u32::MAX)).ok_or(StartError::TooFewPlayers)?]
        }
        System::Knockout => vec![knockout::first_round(n)],
    };
    Ok(rounds
        .into_iter()
        .enumerate()
        .flat_map(|(r, seats)| {
            seats
                .into_iter()
                .enumerate()
                .map(move |(b, (white, black))| Planned {
                    round: r as u32 + 1,
                    board: b as u32 + 1,
                    white,
                    black,
                })
        })
        .collect())
}

/// What follows the pairings as they stand, in `round`, with `rounds`
/// Swiss rounds to play; `withdrawn[i]` for players who withdrew.
pub fn next(
    system: System,
    withdrawn: &[bool],
    round: u32,
    rounds: u32,
    pairings: &[Pairing],
    bye_half: u32,
) -> Next {
    let all_decided = |r: Option<u32>| {
        pairings
            .iter()
            .filter(|p| r.is_none_or(|r| p.round == r))
            .all(|p| p.outcome.is_decided())
    };
    match system {
        System::RoundRobin | System::DoubleRoundRobin | System::Scheveningen => {
            if all_decided(None) {
                Next::Finished
            } else {
                Next::Wait
            }
        }
        System::Swiss => {
            if !all_decided(Some(round)) {
                return Next::Wait;
            }
            if round >= rounds {
                return Next::Finished;
            }
            let active: Vec<dutch::Player> = (0..withdrawn.len())
                .filter(|&i| !withdrawn[i])
                .map(|i| entrant(i, pairings, bye_half))
                .collect();
            if active.len() < 2 {
                return Next::Finished;
            }
            match dutch::pair(&active, swiss_round(round, rounds)) {
                Some(seats) => Next::Pair {
                    round: round + 1,
                    pairings: seats
                        .into_iter()
                        .enumerate()
                        .map(|(b, (white, black))| Planned {
                            round: round + 1,
                            board: b as u32 + 1,
                            white,
                            black,
                        })
                        .collect(),
                },
                // Nobody can meet anybody new: the event ends early.
                None => Next::Finished,
            }
        }
        System::Knockout => knockout_next(withdrawn, round, pairings),
    }
}

/// A knockout round: the next game of each undecided match, or the next
/// round once every match has a winner.
fn knockout_next(withdrawn: &[bool], round: u32, pairings: &[Pairing]) -> Next {
    let current: Vec<&Pairing> = pairings.iter().filter(|p| p.round == round).collect();
    let mut boards: Vec<u32> = current.iter().map(|p| p.board).collect();
    boards.dedup();
    let mut winners = Vec::new();
    let mut games = Vec::new();
    let mut waiting = false;
    for board in boards {
        let games_of_match: Vec<&&Pairing> = current.iter().filter(|p| p.board == board).collect();
        let first = games_of_match[0];
        let Some(other) = first.black else {
            winners.push(first.white);
            continue;
        };
        let (high, low) = (first.white.min(other), first.white.max(other));
        match (withdrawn[high], withdrawn[low]) {
            (false, true) | (true, true) => {
                winners.push(high);
                continue;
            }
            (true, false) => {
                winners.push(low);
                continue;
            }
            (false, false) => {}
        }
        if games_of_match.iter().any(|p| !p.outcome.is_decided()) {
            waiting = true;
            continue;
        }
        let halves: Vec<u32> = games_of_match
            .iter()
            .filter_map(|p| {
                let white_half = match p.outcome {
                    Outcome::Played { white_half } | Outcome::Forfeit { white_half } => white_half,
                    // Counted as a draw: the next game decides.
                    Outcome::DoubleForfeit => 1,
                    _ => return None,
                };
                Some(if p.white == high {
                    white_half
                } else {
                    2 - white_half
                })
            })
            .collect();
        match knockout::match_state(high, low, &halves) {
            MatchState::Won(winner) => winners.push(winner),
            MatchState::NextGame(white, black) => games.push(Planned {
                round,
                board,
                white,
                black: Some(black),
            }),
        }
    }
    if waiting || !games.is_empty() {
        return match games.is_empty() {
            true => Next::Wait,
            false => Next::Pair {
                round,
                pairings: games,
            },
        };
    }
    if winners.len() <= 1 {
        return Next::Finished;
    }
    Next::Pair {
        round: round + 1,
        pairings: knockout::next_round(&winners)
            .into_iter()
            .enumerate()
            .map(|(b, (white, black))| Planned {
                round: round + 1,
                board: b as u32 + 1,
                white,
                black,
            })
            .collect(),
    }
}

/// The round after `played` rounds of `rounds`: pairing number 1 has
/// White in round 1 (E.5), and topscorers are looked for in the last.
fn swiss_round(played: u32, rounds: u32) -> dutch::Round {
    dutch::Round {
        initial_colour: Colour::White,
        played,
        last: played.saturating_add(1) >= rounds,
    }
}

/// A player as the Swiss pairing sees them after `pairings` (seed order
/// is the pairing number order).
fn entrant(index: usize, pairings: &[Pairing], bye_half: u32) -> dutch::Player {
    let decided: Vec<&Pairing> = pairings.iter().filter(|p| p.outcome.is_decided()).collect();
    let last_round = decided.iter().map(|p| p.round).max().unwrap_or(0);
    let mut e = dutch::Player {
        id: index,
        rank: index,
        half_points: half_points_before(index, &decided, u32::MAX, bye_half),
        colours: Vec::new(),
        opponents: Vec::new(),
        bye_eligible: true,
        floats: [Float::None; 2],
    };
    for p in &decided {
        let Some(side) = side_of(index, p) else {
            continue;
        };
        let mine = |white_half: u32| match side {
            Colour::White => white_half,
            Colour::Black => 2 - white_half,
        };
        match p.outcome {
            Outcome::Bye => e.bye_eligible = false,
            Outcome::Played { .. } => {
                e.colours.push(side);
                e.opponents.extend(if side == Colour::White {
                    p.black
                } else {
                    Some(p.white)
                });
            }
            // A win without play rules out a bye later (C.2); a forfeit
            // does not count as a meeting (C.1: the game was not played).
            Outcome::Forfeit { white_half } if mine(white_half) == 2 => e.bye_eligible = false,
            _ => {}
        }
    }
    // The floats of the round just played and of the one before it.
    for back in 0..2 {
        if let Some(round) = last_round.checked_sub(back as u32).filter(|&r| r >= 1) {
            e.floats[back] = float_in(index, &decided, round, bye_half);
        }
    }
    e
}

/// Which colour `index` had in a pairing, if it is theirs.
fn side_of(index: usize, p: &Pairing) -> Option<Colour> {
    match (p.white == index, p.black == Some(index)) {
        (true, _) => Some(Colour::White),
        (_, true) => Some(Colour::Black),
        _ => None,
    }
}

/// `index`'s points times two from the rounds before `round`.
fn half_points_before(index: usize, decided: &[&Pairing], round: u32, bye_half: u32) -> u32 {
    decided
        .iter()
        .filter(|p| p.round < round)
        .filter_map(|p| {
            let side = side_of(index, p)?;
            let mine = |white_half: u32| match side {
                Colour::White => white_half,
                Colour::Black => 2 - white_half,
            };
            match p.outcome {
                Outcome::Bye => Some(bye_half),
                Outcome::Played { white_half } | Outcome::Forfeit { white_half } => {
                    Some(mine(white_half))
                }
                Outcome::Pending | Outcome::DoubleForfeit | Outcome::Annulled => None,
            }
        })
        .sum()
}

/// The float `index` received in `round` (A.4): a round scored without
/// play is a downfloat; a game against a different score floats both.
fn float_in(index: usize, decided: &[&Pairing], round: u32, bye_half: u32) -> Float {
    let Some(p) = decided
        .iter()
        .find(|p| p.round == round && side_of(index, p).is_some())
    else {
        return Float::None;
    };
    let opponent = if p.white == index {
        p.black
    } else {
        Some(p.white)
    };
    match (p.outcome, opponent) {
        (Outcome::Played { .. }, Some(opponent)) => {
            let mine = half_points_before(index, decided, round, bye_half);
            let theirs = half_points_before(opponent, decided, round, bye_half);
            match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => Float::Down,
                std::cmp::Ordering::Less => Float::Up,
                std::cmp::Ordering::Equal => Float::None,
            }
        }
        _ if half_points_before(index, decided, round + 1, bye_half)
            > half_points_before(index, decided, round, bye_half) =>
        {
            Float::Down
        }
        _ => Float::None,
    }
}

/// The outcomes a withdrawal changes: `(index in pairings, new outcome)`.
pub fn withdraw(system: System, player: usize, pairings: &[Pairing]) -> Vec<(usize, Outcome)> {
    let theirs: Vec<(usize, &Pairing)> = pairings
        .iter()
        .enumerate()
        .filter(|(_, p)| p.black.is_some() && (p.white == player || p.black == Some(player)))
        .filter(|(_, p)| p.outcome != Outcome::Annulled)
        .collect();
    let decided = theirs
        .iter()
        .filter(|(_, p)| p.outcome.is_decided())
        .count();
    let annul = matches!(
        system,
        System::RoundRobin | System::DoubleRoundRobin | System::Scheveningen
    ) && decided * 2 < theirs.len();
    theirs
        .into_iter()
        .filter(|(_, p)| annul || !p.outcome.is_decided())
        .map(|(i, p)| {
            let outcome = if annul {
                Outcome::Annulled
            } else {
                Outcome::Forfeit {
                    white_half: if p.white == player { 0 } else { 2 },
                }
            };
            (i, outcome)
        })
        .collect()
}

/// The tie-breaks a tournament ranks by when its creator chose none:
/// Buchholz cut-1, Buchholz, Sonneborn-Berger and wins in a Swiss
/// tournament; direct encounter, Sonneborn-Berger and wins otherwise.
/// (Migration 0015 gave these to the tournaments created before the choice.)
pub fn default_tie_breaks(system: System) -> &'static [TieBreak] {
    match system {
        System::Swiss => &[
            TieBreak::BuchholzCut1,
            TieBreak::Buchholz,
            TieBreak::SonnebornBerger,
            TieBreak::Wins,
        ],
        _ => &[
            TieBreak::DirectEncounter,
            TieBreak::SonnebornBerger,
            TieBreak::Wins,
        ],
    }
}

/// How a system's rounds without a game over the board count: Swiss
/// tournaments by C.07 Article 16; pairings made in advance (round robins,
/// Scheveningen) and knockout brackets as games (Article 15.2).
pub fn unplayed_rule(system: System) -> Unplayed {
    match system {
        System::Swiss => Unplayed::Swiss,
        _ => Unplayed::AsGames,
    }
}

/// The crosstable of `n` players, best first by points and then by
/// `order`. Annulled results count for nobody; a bye is worth `bye_half`.
pub fn crosstable(
    system: System,
    n: usize,
    pairings: &[Pairing],
    bye_half: u32,
    order: &[TieBreak],
) -> Vec<Line> {
    // Ranked by finished games only: a bye counts once its round is over.
    let open: Vec<u32> = pairings
        .iter()
        .filter(|p| p.outcome == Outcome::Pending)
        .map(|p| p.round)
        .collect();
    let results: Vec<tiebreak::Result> = pairings
        .iter()
        .filter_map(|p| {
            let outcome = match p.outcome {
                Outcome::Bye if open.contains(&p.round) => tiebreak::Outcome::Pending,
                Outcome::Played { white_half } => tiebreak::Outcome::Played { white_half },
                Outcome::Forfeit { white_half } => tiebreak::Outcome::Forfeit {
                    white_half,
                    black_half: 2 - white_half.min(2),
                },
                Outcome::DoubleForfeit => tiebreak::Outcome::Forfeit {
                    white_half: 0,
                    black_half: 0,
                },
                Outcome::Bye => tiebreak::Outcome::Bye {
                    half: bye_half,
                    requested: false,
                },
                Outcome::Pending => tiebreak::Outcome::Pending,
                Outcome::Annulled => return None,
            };
            Some(tiebreak::Result {
                round: p.round,
                white: p.white,
                black: p.black,
                outcome,
            })
        })
        .collect();
    tiebreak::crosstable(n, &results, order, unplayed_rule(system))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(p: Planned, white_half: u32) -> Pairing {
        Pairing {
            round: p.round,
            board: p.board,
            white: p.white,
            black: p.black,
            outcome: match p.black {
                None => Outcome::Bye,
                Some(_) => Outcome::Played { white_half },
            },
        }
    }

    #[test]
    fn each_system_takes_players_up_to_its_limit() {
        let limits = Limits::default();
        assert_eq!(limits.admit(System::RoundRobin, 32), Ok(()));
        assert_eq!(
            limits.admit(System::RoundRobin, 33),
            Err(StartError::TooManyPlayers { max: 32 })
        );
        assert_eq!(
            limits.admit(System::DoubleRoundRobin, 2),
            Err(StartError::TooFewPlayers)
        );
        assert_eq!(limits.admit(System::Swiss, 2_000), Ok(()));
        assert_eq!(limits.check(), Ok(()));
        // Each limit lies between the system's least and the command's bound.
        let too_many = Limits {
            swiss: MAX_PLAYERS + 1,
            ..limits
        };
        assert!(too_many.check().is_err_and(|e| e.contains("swiss")));
        let too_few = Limits {
            round_robin: 2,
            ..limits
        };
        assert!(too_few.check().is_err());
    }

    #[test]
    fn a_round_robin_starts_every_game_and_ends_when_all_are_decided() {
        let plan = start(System::RoundRobin, 4).expect("start");
        assert_eq!(plan.len(), 6);
        let mut pairings: Vec<Pairing> = plan.iter().map(|p| played(*p, 1)).collect();
        pairings[0].outcome = Outcome::Pending;
        let none = [false; 4];
        assert_eq!(
            next(System::RoundRobin, &none, 1, 3, &pairings, 0),
            Next::Wait
        );
        pairings[0].outcome = Outcome::Played { white_half: 2 };
        assert_eq!(
            next(System::RoundRobin, &none, 1, 3, &pairings, 0),
            Next::Finished
        );
        assert_eq!(start(System::RoundRobin, 2), Err(StartError::TooFewPlayers));
        assert_eq!(
            start(System::DoubleRoundRobin, 3).expect("start").len(),
            12,
            "with byes"
        );
    }

    #[test]
    fn scheveningen_teams_snake_and_meet_across() {
        assert_eq!(scheveningen_teams(8), (vec![0, 3, 4, 7], vec![1, 2, 5, 6]));
        let plan = start(System::Scheveningen, 4).expect("start");
        let (a, _) = scheveningen_teams(4);
        assert_eq!(plan.len(), 4);
        for p in plan {
            let black = p.black.expect("no byes");
            assert_ne!(a.contains(&p.white), a.contains(&black));
        }
        assert_eq!(start(System::Scheveningen, 5), Err(StartError::OddTeams));
    }

    #[test]
    fn swiss_rounds_follow_each_other_with_one_bye_each() {
        let none = [false; 5];
        let mut pairings: Vec<Pairing> = start(System::Swiss, 5)
            .expect("start")
            .into_iter()
            .map(|p| played(p, 2))
            .collect();
        for round in 1..3 {
            match next(System::Swiss, &none, round, 3, &pairings, 2) {
                Next::Pair {
                    round: r,
                    pairings: new,
                } => {
                    assert_eq!(r, round + 1);
                    pairings.extend(new.into_iter().map(|p| played(p, 0)));
                }
                other => panic!("round {round}: {other:?}"),
            }
        }
        assert_eq!(
            next(System::Swiss, &none, 3, 3, &pairings, 2),
            Next::Finished
        );
        let mut byes = [0; 5];
        for p in pairings.iter().filter(|p| p.black.is_none()) {
            byes[p.white] += 1;
        }
        assert!(byes.iter().all(|&b| b <= 1), "{byes:?}");
        // The bye is worth its configured value.
        let lines = crosstable(
            System::Swiss,
            5,
            &pairings,
            1,
            default_tie_breaks(System::Swiss),
        );
        let total: u32 = lines.iter().map(|l| l.half_points).sum();
        assert_eq!(total, 6 * 2 + 3, "6 games and three half-point byes");
    }

    #[test]
    fn knockout_matches_take_a_tie_break_and_byes_go_through() {
        let none = [false; 3];
        // Three players: seed 0 has a bye, 1 meets 2.
        let plan = start(System::Knockout, 3).expect("start");
        assert_eq!(plan.len(), 2);
        let mut pairings: Vec<Pairing> = plan.iter().map(|p| played(*p, 1)).collect();
        // 1-2: a draw; the second game with colours reversed.
        let Next::Pair {
            round: 1,
            pairings: second,
        } = next(System::Knockout, &none, 1, 0, &pairings, 0)
        else {
            panic!("a second game");
        };
        assert_eq!((second[0].white, second[0].black), (2, Some(1)));
        pairings.push(played(second[0], 1));
        // 1-1: the tie-break game, the higher seed White.
        let Next::Pair {
            pairings: third, ..
        } = next(System::Knockout, &none, 1, 0, &pairings, 0)
        else {
            panic!("a tie-break game");
        };
        assert_eq!((third[0].white, third[0].black), (1, Some(2)));
        // A draw sends Black (seed 2) through, to meet seed 0 in the final.
        pairings.push(played(third[0], 1));
        let Next::Pair {
            round: 2,
            pairings: final_round,
        } = next(System::Knockout, &none, 1, 0, &pairings, 0)
        else {
            panic!("the final");
        };
        assert_eq!((final_round[0].white, final_round[0].black), (0, Some(2)));
        pairings.extend(final_round.iter().map(|p| played(*p, 2)));
        let Next::Pair {
            pairings: game_two, ..
        } = next(System::Knockout, &none, 2, 0, &pairings, 0)
        else {
            panic!("game two of the final");
        };
        pairings.push(played(game_two[0], 1));
        assert_eq!(
            next(System::Knockout, &none, 2, 0, &pairings, 0),
            Next::Finished
        );
        // A withdrawn finalist loses the match at once.
        let mut gone = pairings[..4].to_vec();
        gone.push(Pairing {
            outcome: Outcome::Pending,
            ..played(final_round[0], 0)
        });
        assert_eq!(
            next(System::Knockout, &[false, false, true], 2, 0, &gone, 0),
            Next::Finished
        );
    }

    /// The tie-breaks see forfeits as games in a round robin (C.07 Article
    /// 15.2): after Dov's withdrawal, Ana's forfeit win over him counts in
    /// her Sonneborn-Berger and puts her above Bea (the table of
    /// tests/fixtures/tiebreaks/round_robin_withdrawal.txt, through the
    /// stored outcomes). Annulled results count for nobody.
    #[test]
    fn a_round_robin_crosstable_counts_forfeits_as_games() {
        let plan = start(System::RoundRobin, 4).expect("start");
        // Berger for four: 1-4 2-3 / 4-3 1-2 / 2-4 3-1 (Ana 0 … Dov 3).
        let outcomes = [
            Outcome::Forfeit { white_half: 2 },
            Outcome::Played { white_half: 2 },
            Outcome::Played { white_half: 2 },
            Outcome::Played { white_half: 1 },
            Outcome::Played { white_half: 1 },
            Outcome::Played { white_half: 1 },
        ];
        let pairings: Vec<Pairing> = plan
            .iter()
            .zip(outcomes)
            .map(|(p, outcome)| Pairing {
                outcome,
                ..played(*p, 0)
            })
            .collect();
        let order = default_tie_breaks(System::RoundRobin);
        let lines = crosstable(System::RoundRobin, 4, &pairings, 0, order);
        let ranked: Vec<(usize, u32, Vec<Option<u32>>)> = lines
            .iter()
            .map(|l| (l.player, l.half_points, l.tie_breaks.clone()))
            .collect();
        // DE ½ each for Ana and Bea; SB in quarters: 2¾, 2¼, 1½, 1.
        assert_eq!(
            ranked,
            [
                (0, 4, vec![Some(1), Some(11), Some(1)]),
                (1, 4, vec![Some(1), Some(9), Some(1)]),
                (3, 3, vec![None, Some(6), Some(1)]),
                (2, 1, vec![None, Some(4), Some(0)]),
            ]
        );
        // Struck out, Dov's games count for nobody.
        let annulled: Vec<Pairing> = pairings
            .iter()
            .map(|p| match p.white == 3 || p.black == Some(3) {
                true => Pairing {
                    outcome: Outcome::Annulled,
                    ..*p
                },
                false => *p,
            })
            .collect();
        let lines = crosstable(System::RoundRobin, 4, &annulled, 0, order);
        let points: Vec<(usize, u32)> = lines.iter().map(|l| (l.player, l.half_points)).collect();
        assert_eq!(points, [(1, 3), (0, 2), (2, 1), (3, 0)]);
    }

    /// A Swiss round just paired: its bye counts only once its games are
    /// decided, so a player who lost round 1 is not ranked first on it.
    #[test]
    fn a_bye_counts_once_its_round_is_over() {
        let pairing = |round, white, black, outcome| Pairing {
            round,
            board: 1,
            white,
            black,
            outcome,
        };
        let mut pairings = vec![
            pairing(1, 0, Some(1), Outcome::Played { white_half: 2 }),
            pairing(1, 2, None, Outcome::Bye),
            pairing(2, 2, Some(0), Outcome::Pending),
            pairing(2, 1, None, Outcome::Bye),
        ];
        let points = |pairings: &[Pairing]| -> Vec<(usize, u32)> {
            let order = default_tie_breaks(System::Swiss);
            let lines = crosstable(System::Swiss, 3, pairings, 2, order);
            lines.iter().map(|l| (l.player, l.half_points)).collect()
        };
        // Player 1 lost round 1; his round-2 bye waits for the round.
        assert_eq!(points(&pairings)[2], (1, 0));
        pairings[2].outcome = Outcome::Played { white_half: 1 };
        let over = points(&pairings);
        assert!(over.contains(&(1, 2)) && over.contains(&(2, 3)), "{over:?}");
    }

    #[test]
    fn withdrawal_annuls_before_half_and_forfeits_after() {
        let plan = start(System::RoundRobin, 4).expect("start");
        let pending: Vec<Pairing> = plan
            .iter()
            .map(|p| Pairing {
                outcome: Outcome::Pending,
                ..played(*p, 0)
            })
            .collect();
        // Player 3 has one of three games decided: everything is annulled.
        let mut early = pending.clone();
        let first = early
            .iter()
            .position(|p| p.white == 3 || p.black == Some(3))
            .expect("a game");
        early[first].outcome = Outcome::Played { white_half: 2 };
        let changes = withdraw(System::RoundRobin, 3, &early);
        assert_eq!(changes.len(), 3);
        assert!(changes.iter().all(|(_, o)| *o == Outcome::Annulled));
        // With two of three decided, the last one is a forfeit for the opponent.
        let second = early
            .iter()
            .enumerate()
            .position(|(i, p)| i != first && (p.white == 3 || p.black == Some(3)))
            .expect("another game");
        early[second].outcome = Outcome::Played { white_half: 1 };
        let changes = withdraw(System::RoundRobin, 3, &early);
        assert_eq!(changes.len(), 1);
        let (i, outcome) = changes[0];
        let expected = if early[i].white == 3 { 0 } else { 2 };
        assert_eq!(
            outcome,
            Outcome::Forfeit {
                white_half: expected
            }
        );
        // Swiss: results stand whatever the count.
        let changes = withdraw(System::Swiss, 3, &pending);
        assert!(
            changes
                .iter()
                .all(|(_, o)| matches!(o, Outcome::Forfeit { .. }))
        );
    }
}
