//! Crosstables and tie-breaks, after FIDE's tie-break regulations
//! (Handbook C.07, the edition of 2023 and that of 1 August 2024; article
//! numbers are the 2024 edition's).
//!
//! Participants are ranked by points, then by the tournament's ordered
//! list of tie-breaks, each one applied only among those still tied on
//! everything before it (Article 4.2); a tie that outlives the list is
//! left in seed order. Values are exact: points and Buchholz in halves,
//! Sonneborn-Berger in quarters (a half point times a half point).
//!
//! - **Direct encounter** (Article 6): among the tied, the points each
//!   scored against the others, averaged over the games of a pair that met
//!   more than once. When some of them have not met, one is ranked first
//!   only if the missing games cannot catch them up, then the next in the
//!   same way. Every group still tied is then ranked again by its own
//!   games, and so on until nothing changes.
//! - **Number of wins**, `WIN` (Article 7.1): rounds scored as a win, with
//!   or without playing (forfeit wins, and a bye worth a full point).
//!   **Games won**, `WON` (Article 7.2): wins over the board (with
//!   pairings made in advance a forfeit win is a game, see below).
//! - **Buchholz** (Article 8.1), **Sonneborn-Berger** (Article 9.1), and
//!   their cuts (Article 14: `-C1` cuts the least significant value, `-C2`
//!   two, `-M1` the least and the most significant). The least significant
//!   value is the one of the opponent with the lowest score, and for
//!   Sonneborn-Berger the lowest product among such opponents (14.1).
//!
//! # Rounds without a game over the board
//!
//! [`Unplayed`] says which rule a tournament follows.
//!
//! With pairings made in advance (round robins, Scheveningen), a forfeit
//! counts as a game against the scheduled opponent in every tie-break
//! here (Article 15.2), and a rest in a round robin of an odd number is no
//! round at all. Knockout brackets follow the same rule: nobody is absent
//! from a bracket, and Article 16 is written for Swiss tournaments.
//!
//! In a Swiss tournament (Article 16):
//!
//! - a *requested bye* is a half-point or zero-point bye, and every round
//!   after a withdrawal (the player is not paired any more) is a
//!   zero-point bye (16.1.1); a *voluntary unplayed round* (VUR) is a
//!   requested bye or a forfeit loss (16.1.2). A pairing-allocated bye and
//!   a forfeit win are not VURs.
//! - As someone's opponent, a participant counts with an *adjusted* score:
//!   requested byes followed only by VURs (or in the last round) count as
//!   draws, every other round as awarded (16.2, 16.3). So a player who
//!   withdraws counts a draw for each round after leaving.
//! - For their own Buchholz and Sonneborn-Berger, each unplayed round
//!   (pairing-allocated bye, forfeit win or loss, requested bye) is a game
//!   against a dummy whose score is the participant's own final score,
//!   with the points actually awarded (16.4).
//! - A cut takes a VUR's contribution before the least significant value,
//!   unless that contribution is the smaller of the two (16.5): for
//!   Buchholz the lowest VUR contribution is always cut first, but a
//!   pairing-allocated bye or a forfeit win is cut only when it is the
//!   least significant value, as any game.
//!
//! Direct encounter only counts games played over the board in a Swiss
//! tournament; forfeits are not encounters there.

use std::cmp::Reverse;

/// The tie-breaks, by FIDE's acronyms: part of the command language, so
/// named in the core.
pub use crate::core::tournament::TieBreak;

/// How a pairing ended, as the tie-breaks read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Played over the board: White's points times two; Black gets the rest of 2.
    Played { white_half: u32 },
    /// Decided without play between two paired players (`+/-`, `-/+`,
    /// `-/-`): each side's points times two.
    Forfeit { white_half: u32, black_half: u32 },
    /// No opponent (`black` is `None`), worth `half` half points: a
    /// pairing-allocated bye, or a bye the player asked for (`requested`).
    Bye { half: u32, requested: bool },
    /// Not decided yet: it counts for nothing, but its players were there
    /// to play that round.
    Pending,
}

/// One pairing between participants numbered `0..n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Result {
    pub round: u32,
    pub white: usize,
    /// `None`: a bye for `white`.
    pub black: Option<usize>,
    pub outcome: Outcome,
}

/// Which rule rounds without a game over the board follow (see the module
/// documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unplayed {
    /// Pairings made in advance, and knockout brackets: forfeits are games
    /// against the scheduled opponent (C.07 Article 15.2); a rest counts
    /// for nothing.
    AsGames,
    /// Swiss tournaments: dummies, adjusted scores and the VUR cut (C.07
    /// Article 16); a round a player was not paired in is a zero-point bye.
    Swiss,
}

/// A participant's line in the crosstable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub player: usize,
    /// Points times two.
    pub half_points: u32,
    /// One value per tie-break of the order asked for, in its unit (see
    /// [`value_text`]); `None` where it does not apply (direct encounter for
    /// a participant tied with nobody when it was applied).
    pub tie_breaks: Vec<Option<u32>>,
}

/// The crosstable of `n` participants, best first: by points, then by the
/// tie-breaks of `order`, each applied among those still tied (C.07
/// Article 4.2), then by seed (participant number).
pub fn crosstable(n: usize, results: &[Result], order: &[TieBreak], rule: Unplayed) -> Vec<Line> {
    let table = Table::new(n, results, rule);
    let mut lines: Vec<Line> = (0..n)
        .map(|player| Line {
            player,
            half_points: table.score[player],
            tie_breaks: order.iter().map(|t| table.value(player, *t)).collect(),
        })
        .collect();
    let mut everyone: Vec<usize> = (0..n).collect();
    everyone.sort_by_key(|&p| Reverse(table.score[p]));
    let mut groups = split_equal(everyone, |p| table.score[p]);
    for (column, tie_break) in order.iter().enumerate() {
        let mut shown = vec![None; n];
        groups = groups
            .into_iter()
            .flat_map(|group| match (group.len(), tie_break) {
                (0 | 1, _) => vec![group],
                (_, TieBreak::DirectEncounter) => table.direct_encounter(group, &mut shown),
                _ => {
                    let value = |p: usize| lines[p].tie_breaks[column].unwrap_or(0);
                    let mut group = group;
                    group.sort_by_key(|&p| Reverse(value(p)));
                    split_equal(group, value)
                }
            })
            .collect();
        if *tie_break == TieBreak::DirectEncounter {
            for (line, value) in lines.iter_mut().zip(shown) {
                line.tie_breaks[column] = value;
            }
        }
    }
    let mut ranked = Vec::with_capacity(n);
    for mut group in groups {
        group.sort_unstable();
        ranked.extend(group);
    }
    let mut by_player: Vec<Option<Line>> = lines.into_iter().map(Some).collect();
    ranked
        .into_iter()
        .filter_map(|p| by_player[p].take())
        .collect()
}

/// `sorted` (by `key`, best first) cut into runs of equal `key`.
fn split_equal(sorted: Vec<usize>, key: impl Fn(usize) -> u32) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for p in sorted {
        match groups.last_mut() {
            Some(group) if key(group[0]) == key(p) => group.push(p),
            _ => groups.push(vec![p]),
        }
    }
    groups
}

/// A tie-break value as written in a crosstable: halves for points-based
/// values (`2½`), quarters for Sonneborn-Berger (`4¼`), a count for wins,
/// nothing where it does not apply.
pub fn value_text(tie_break: TieBreak, value: Option<u32>) -> String {
    let Some(value) = value else {
        return String::new();
    };
    match tie_break {
        TieBreak::DirectEncounter
        | TieBreak::Buchholz
        | TieBreak::BuchholzCut1
        | TieBreak::BuchholzCut2
        | TieBreak::BuchholzMedian1 => halves(value),
        TieBreak::SonnebornBerger | TieBreak::SonnebornBergerCut1 => quarters(value),
        TieBreak::Wins | TieBreak::GamesWon => value.to_string(),
    }
}

/// One round of one participant, as the tie-breaks sort it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Round {
    /// A game against `opponent`: over the board, or (with
    /// [`Unplayed::AsGames`]) a forfeit counted as a game.
    Game { opponent: usize, mine: u32 },
    /// No game over the board (Article 16): a pairing-allocated bye, a
    /// forfeit win or loss, a requested bye (or an absence).
    Unplayed {
        mine: u32,
        /// A voluntary unplayed round: a requested bye or a forfeit loss (16.1.2).
        vur: bool,
        /// A requested bye (16.1.1), which may count as a draw for the opponents (16.3.2).
        requested: bool,
    },
    /// Its game is not decided: the player was there, nothing counts yet.
    Pending,
}

impl Round {
    fn is_vur(self) -> bool {
        matches!(self, Round::Unplayed { vur: true, .. })
    }

    fn mine(self) -> u32 {
        match self {
            Round::Game { mine, .. } | Round::Unplayed { mine, .. } => mine,
            Round::Pending => 0,
        }
    }
}

/// A contribution to Buchholz or Sonneborn-Berger: the (possibly dummy)
/// opponent's score in halves, the value in its unit, and whether it comes
/// from a voluntary unplayed round.
#[derive(Clone, Copy, Debug)]
struct Contribution {
    opponent_score: u32,
    value: u32,
    vur: bool,
}

/// Everything the tie-breaks read, computed once.
struct Table {
    rule: Unplayed,
    /// Each participant's rounds, in round order.
    rounds: Vec<Vec<(u32, Round)>>,
    /// Points times two.
    score: Vec<u32>,
    /// Points times two as opponents see them (Article 16.3; the score
    /// itself with pairings made in advance).
    adjusted: Vec<u32>,
}

impl Table {
    fn new(n: usize, results: &[Result], rule: Unplayed) -> Table {
        let mut rounds: Vec<Vec<(u32, Round)>> = vec![Vec::new(); n];
        for r in results {
            let (white_half, black_half) = match r.outcome {
                Outcome::Played { white_half } => (white_half, 2 - white_half.min(2)),
                Outcome::Forfeit {
                    white_half,
                    black_half,
                } => (white_half, black_half),
                Outcome::Bye { half, .. } => (half, 0),
                Outcome::Pending => (0, 0),
            };
            let side = |opponent: Option<usize>, mine: u32| match (r.outcome, opponent) {
                (Outcome::Pending, _) => Round::Pending,
                (Outcome::Played { .. }, Some(opponent)) => Round::Game { opponent, mine },
                (Outcome::Forfeit { .. }, Some(opponent)) if rule == Unplayed::AsGames => {
                    Round::Game { opponent, mine }
                }
                (Outcome::Bye { requested, .. }, _) => Round::Unplayed {
                    mine,
                    vur: requested,
                    requested,
                },
                // A forfeit in a Swiss tournament: a win is no VUR, a loss
                // (or both sides losing, -/-) is (16.1.2).
                _ => Round::Unplayed {
                    mine,
                    vur: mine < 2,
                    requested: false,
                },
            };
            rounds[r.white].push((r.round, side(r.black, white_half)));
            if let Some(black) = r.black {
                rounds[black].push((r.round, side(Some(r.white), black_half)));
            }
        }
        if rule == Unplayed::Swiss {
            // A round a player was not paired in (after a withdrawal) is a
            // zero-point bye, so a requested bye (16.1.1).
            let last = results.iter().map(|r| r.round).max().unwrap_or(0);
            for own in &mut rounds {
                for round in 1..=last {
                    if !own.iter().any(|(r, _)| *r == round) {
                        own.push((
                            round,
                            Round::Unplayed {
                                mine: 0,
                                vur: true,
                                requested: true,
                            },
                        ));
                    }
                }
            }
        }
        for own in &mut rounds {
            own.sort_by_key(|(round, _)| *round);
        }
        let score: Vec<u32> = rounds
            .iter()
            .map(|own| own.iter().map(|(_, r)| r.mine()).sum())
            .collect();
        let adjusted = match rule {
            Unplayed::AsGames => score.clone(),
            Unplayed::Swiss => rounds.iter().map(|own| adjusted_score(own)).collect(),
        };
        Table {
            rule,
            rounds,
            score,
            adjusted,
        }
    }

    /// A non-DE tie-break's value for `player` (direct encounter depends on
    /// the group, so it starts as `None`).
    fn value(&self, player: usize, tie_break: TieBreak) -> Option<u32> {
        let buchholz = |low, high| cut_sum(self.contributions(player, false), low, high);
        let sonneborn = |low| cut_sum(self.contributions(player, true), low, 0);
        Some(match tie_break {
            TieBreak::DirectEncounter => return None,
            TieBreak::Wins => self.count(player, |r| r.mine() == 2),
            TieBreak::GamesWon => self.count(player, |r| matches!(r, Round::Game { mine: 2, .. })),
            TieBreak::Buchholz => buchholz(0, 0),
            TieBreak::BuchholzCut1 => buchholz(1, 0),
            TieBreak::BuchholzCut2 => buchholz(2, 0),
            TieBreak::BuchholzMedian1 => buchholz(1, 1),
            TieBreak::SonnebornBerger => sonneborn(0),
            TieBreak::SonnebornBergerCut1 => sonneborn(1),
        })
    }

    fn count(&self, player: usize, counts: impl Fn(Round) -> bool) -> u32 {
        self.rounds[player]
            .iter()
            .filter(|(_, r)| counts(*r))
            .count() as u32
    }

    /// What each round adds to Buchholz (the opponent's score) or, with
    /// `products`, to Sonneborn-Berger (that score times the points scored).
    fn contributions(&self, player: usize, products: bool) -> Vec<Contribution> {
        let own = self.score[player];
        self.rounds[player]
            .iter()
            .filter_map(|&(_, round)| {
                let (opponent_score, vur) = match round {
                    Round::Game { opponent, .. } => (self.adjusted[opponent], false),
                    // Article 16.4: a dummy with the participant's own score.
                    Round::Unplayed { vur, .. } if self.rule == Unplayed::Swiss => (own, vur),
                    // A rest, with pairings made in advance: no round at all.
                    Round::Unplayed { .. } | Round::Pending => return None,
                };
                let value = match products {
                    true => opponent_score * round.mine(),
                    false => opponent_score,
                };
                Some(Contribution {
                    opponent_score,
                    value,
                    vur,
                })
            })
            .collect()
    }

    /// The games direct encounter counts between `p` and `q`: their
    /// number, and `p`'s points in them times two. In a Swiss tournament
    /// only games over the board; with pairings made in advance forfeits
    /// too (Article 15.2).
    fn encounters(&self, p: usize, q: usize) -> (u32, u32) {
        self.rounds[p]
            .iter()
            .filter_map(|(_, round)| match *round {
                Round::Game { opponent, mine, .. } if opponent == q => Some(mine),
                _ => None,
            })
            .fold((0, 0), |(games, points), mine| (games + 1, points + mine))
    }

    /// Direct encounter (Article 6) within `group`, tied on everything
    /// before it: the group cut into smaller tied groups, best first,
    /// applied again to each until nothing changes. `shown` gets each
    /// member's points against the others of the last group it was ranked in.
    fn direct_encounter(&self, group: Vec<usize>, shown: &mut [Option<u32>]) -> Vec<Vec<usize>> {
        if group.len() < 2 {
            return vec![group];
        }
        let pairs: Vec<Vec<(u32, u32)>> = group
            .iter()
            .map(|&p| group.iter().map(|&q| self.encounters(p, q)).collect())
            .collect();
        // Pairs that met more than once count the average of their games:
        // every pair's points are scaled to a common number of games.
        let common = pairs
            .iter()
            .flatten()
            .map(|&(games, _)| games)
            .filter(|&games| games > 0)
            .fold(1, lcm);
        let mut key = vec![0u32; group.len()];
        let mut missing = vec![0u32; group.len()];
        for (i, row) in pairs.iter().enumerate() {
            let mut points = 0;
            for (j, &(games, mine)) in row.iter().enumerate() {
                if i == j {
                    continue;
                }
                match games {
                    0 => missing[i] += 1,
                    _ => key[i] += mine * (common / games),
                }
                points += mine;
            }
            shown[group[i]] = Some(points);
        }
        let mut order: Vec<usize> = (0..group.len()).collect();
        order.sort_by_key(|&i| Reverse(key[i]));
        let parts: Vec<Vec<usize>> = if missing.iter().all(|&m| m == 0) {
            split_equal(order, |i| key[i])
        } else {
            // Not all have met: one is ranked first only if they stay alone
            // at the top whatever the missing games give the others (each
            // a win), then the next in the same way; the rest stay tied.
            let best = |i: usize| key[i] + missing[i] * 2 * common;
            let mut parts = Vec::new();
            let mut rest = order;
            while rest.len() > 1 && rest[1..].iter().all(|&o| key[rest[0]] > best(o)) {
                parts.push(vec![rest.remove(0)]);
            }
            parts.push(rest);
            parts
        };
        let parts: Vec<Vec<usize>> = parts
            .into_iter()
            .map(|part| part.into_iter().map(|i| group[i]).collect())
            .collect();
        if parts.len() == 1 {
            return parts;
        }
        // Each group still tied is ranked again by the games among its own
        // members.
        parts
            .into_iter()
            .flat_map(|part| self.direct_encounter(part, shown))
            .collect()
    }
}

/// A Swiss participant's score as their opponents count it (Article
/// 16.3): requested byes followed only by voluntary unplayed rounds, or in
/// the last round, count as draws (16.2.5, 16.3.2); every other round as
/// awarded (16.3.1).
fn adjusted_score(rounds: &[(u32, Round)]) -> u32 {
    let last_available = rounds
        .iter()
        .filter(|(_, r)| !r.is_vur())
        .map(|(round, _)| *round)
        .max()
        .unwrap_or(0);
    rounds
        .iter()
        .map(|&(round, r)| match r {
            Round::Unplayed {
                requested: true, ..
            } if round > last_available => 1,
            other => other.mine(),
        })
        .sum()
}

/// The sum of `contributions` once `low` least significant values and
/// `high` most significant ones are cut (Article 14). The least
/// significant value is the contribution of the opponent with the lowest
/// score, the lowest one if several (14.1); a low cut takes the lowest
/// contribution of a voluntary unplayed round instead, as long as it is not
/// smaller than that least significant value (Article 16.5), and each
/// further cut applies the same rule to what is left.
///
/// Only VURs (requested byes, absences, forfeit losses) go first: a
/// pairing-allocated bye or a forfeit win is not one (16.1.2), so its
/// dummy is cut only when it is the least significant value, as a game
/// would be. A high cut knows no such exception.
fn cut_sum(mut contributions: Vec<Contribution>, low: usize, high: usize) -> u32 {
    let significance = |c: &Contribution| (c.opponent_score, c.value);
    for _ in 0..low {
        let Some(least) = (0..contributions.len()).min_by_key(|&i| significance(&contributions[i]))
        else {
            break;
        };
        let vur = (0..contributions.len())
            .filter(|&i| contributions[i].vur)
            .min_by_key(|&i| significance(&contributions[i]));
        let cut = match vur {
            Some(v) if contributions[v].value >= contributions[least].value => v,
            _ => least,
        };
        contributions.remove(cut);
    }
    for _ in 0..high {
        let Some(most) = (0..contributions.len()).max_by_key(|&i| significance(&contributions[i]))
        else {
            break;
        };
        contributions.remove(most);
    }
    contributions.iter().map(|c| c.value).sum()
}

fn lcm(a: u32, b: u32) -> u32 {
    let gcd = |mut a: u32, mut b: u32| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    a / gcd(a, b) * b
}

/// A value kept in halves as text, as chess writes it: 5 → "2½", 1 → "½".
pub fn halves(value: u32) -> String {
    fraction(value / 2, ["", "½"][(value % 2) as usize])
}

/// A value kept in quarters as text: 17 → "4¼", 14 → "3½", 3 → "¾".
pub fn quarters(value: u32) -> String {
    fraction(value / 4, ["", "¼", "½", "¾"][(value % 4) as usize])
}

/// A whole number and a vulgar fraction: no "0" before a fraction alone.
fn fraction(whole: u32, part: &str) -> String {
    match (whole, part) {
        (0, "") => "0".to_owned(),
        (0, part) => part.to_owned(),
        (whole, part) => format!("{whole}{part}"),
    }
}

#[cfg(test)]
mod tests;
