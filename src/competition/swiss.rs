//! Swiss pairing (after FIDE C.04 principles, simplified): players sorted
//! by score then seed; each, from the top, meets the nearest eligible
//! player of its score group's other half, else the next groups down;
//! never twice the same opponent (C.04.1.b), at most one bye each
//! (C.04.1.d, given to the lowest-ranked player who has none), and never
//! a colour difference beyond two or the same colour three times running
//! (C.04.1.f/g). A depth-first search backtracks when a choice leaves the
//! rest unpairable.

/// A colour in a player's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    White,
    Black,
}

/// What the pairing needs to know about a player; `index` names them in the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub index: usize,
    /// Points times two.
    pub half_points: u32,
    /// Colours of the games played, in round order (byes and forfeits left out).
    pub colours: Vec<Colour>,
    pub opponents: Vec<usize>,
    pub had_bye: bool,
}

impl Entrant {
    fn balance(&self) -> i32 {
        self.colours
            .iter()
            .map(|c| if *c == Colour::White { 1 } else { -1 })
            .sum()
    }

    /// The colour this player must not get (C.04.1.f/g), if any.
    fn forbidden(&self) -> Option<Colour> {
        let last_two = self.colours.len() >= 2
            && self.colours[self.colours.len() - 1] == self.colours[self.colours.len() - 2];
        match self.balance() {
            b if b >= 1 && (b >= 2 || last_two && self.colours.last() == Some(&Colour::White)) => {
                Some(Colour::White)
            }
            b if b <= -1
                && (b <= -2 || last_two && self.colours.last() == Some(&Colour::Black)) =>
            {
                Some(Colour::Black)
            }
            _ if last_two => self.colours.last().copied(),
            _ => None,
        }
    }

    /// The colour this player would like, and how much (3 absolute .. 0 none).
    fn preference(&self) -> (Option<Colour>, u8) {
        if let Some(forbidden) = self.forbidden() {
            return (Some(other(forbidden)), 3);
        }
        match (self.balance(), self.colours.last()) {
            (b, _) if b > 0 => (Some(Colour::Black), 2),
            (b, _) if b < 0 => (Some(Colour::White), 2),
            (_, Some(last)) => (Some(other(*last)), 1),
            _ => (None, 0),
        }
    }
}

fn other(colour: Colour) -> Colour {
    match colour {
        Colour::White => Colour::Black,
        Colour::Black => Colour::White,
    }
}

/// A round's pairings: `(white, black)`, `black == None` for the bye.
pub type Pairs = Vec<(usize, Option<usize>)>;

/// The next round: `(white, black)` by entrant index, `black == None` for
/// the bye. `entrants` must be in ranking order (score, then seed).
/// `None` when no pairing keeps every rule.
pub fn pair_round(entrants: &[Entrant]) -> Option<Pairs> {
    let mut order: Vec<usize> = (0..entrants.len()).collect();
    // Stable: equal scores keep the caller's seeding order.
    order.sort_by_key(|&i| std::cmp::Reverse(entrants[i].half_points));
    let ranked: Vec<&Entrant> = order.iter().map(|&i| &entrants[i]).collect();
    if ranked.len() % 2 == 1 {
        for bye in (0..ranked.len()).rev().filter(|&i| !ranked[i].had_bye) {
            let rest: Vec<&Entrant> = ranked
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != bye)
                .map(|(_, e)| *e)
                .collect();
            if let Some(mut pairs) = pair_all(&rest).map(alternate_first_round(entrants)) {
                pairs.push((ranked[bye].index, None));
                return Some(pairs);
            }
        }
        return None;
    }
    pair_all(&ranked).map(alternate_first_round(entrants))
}

/// In the first round nobody has a preference: the top board's higher
/// seed has White and the boards below alternate (C.04.3 A.6 d).
fn alternate_first_round(entrants: &[Entrant]) -> impl Fn(Pairs) -> Pairs + '_ {
    move |pairs| {
        if entrants.iter().any(|e| !e.colours.is_empty()) {
            return pairs;
        }
        pairs
            .into_iter()
            .enumerate()
            .map(|(board, (w, b))| match b {
                Some(b) if board % 2 == 1 => (b, Some(w)),
                _ => (w, b),
            })
            .collect()
    }
}

fn pair_all(ranked: &[&Entrant]) -> Option<Vec<(usize, Option<usize>)>> {
    let mut used = vec![false; ranked.len()];
    let mut pairs = Vec::with_capacity(ranked.len() / 2);
    let mut budget = 200_000u32;
    search(ranked, &mut used, &mut pairs, &mut budget).then_some(pairs)
}

fn search(
    ranked: &[&Entrant],
    used: &mut [bool],
    pairs: &mut Vec<(usize, Option<usize>)>,
    budget: &mut u32,
) -> bool {
    let Some(top) = used.iter().position(|u| !u) else {
        return true;
    };
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    used[top] = true;
    let me = ranked[top];
    for candidate in candidates(ranked, used, top) {
        let them = ranked[candidate];
        if me.opponents.contains(&them.index) {
            continue;
        }
        let Some((white, black)) = colours(me, them) else {
            continue;
        };
        used[candidate] = true;
        pairs.push((white, Some(black)));
        if search(ranked, used, pairs, budget) {
            return true;
        }
        pairs.pop();
        used[candidate] = false;
    }
    used[top] = false;
    false
}

/// Free opponents for `top`, best first: its own score group's other half
/// (the player half a group below it), then the nearest scores.
fn candidates(ranked: &[&Entrant], used: &[bool], top: usize) -> Vec<usize> {
    let score = ranked[top].half_points;
    let group: Vec<usize> = (0..ranked.len())
        .filter(|&i| !used[i] && ranked[i].half_points == score)
        .collect();
    let ideal = group.len().div_ceil(2);
    let mut free: Vec<usize> = (0..ranked.len()).filter(|&i| !used[i]).collect();
    free.sort_by_key(|&i| {
        let gap = score.abs_diff(ranked[i].half_points);
        let position = group.iter().position(|&g| g == i).unwrap_or(usize::MAX);
        (gap, position.abs_diff(ideal.saturating_sub(1)), i)
    });
    free
}

/// Colours for a pair (the first is the higher ranked), or `None` if both
/// must have the same one. The stronger preference wins; on equal
/// strength the latest round where their colours differed decides, else
/// the higher-ranked player's preference (C.04.3 A.6 order, simplified).
fn colours(high: &Entrant, low: &Entrant) -> Option<(usize, usize)> {
    let (hp, hs) = high.preference();
    let (lp, ls) = low.preference();
    if hs == 3 && ls == 3 && hp == lp {
        return None;
    }
    let high_white = match (hp, lp) {
        (Some(h), Some(l)) if h != l => h == Colour::White,
        (Some(h), None) => h == Colour::White,
        (None, Some(l)) => l == Colour::Black,
        (None, None) => true,
        (Some(h), Some(_)) => {
            if hs != ls {
                (hs > ls) == (h == Colour::White)
            } else {
                let differing = high
                    .colours
                    .iter()
                    .rev()
                    .zip(low.colours.iter().rev())
                    .find(|(a, b)| a != b);
                match differing {
                    Some((high_last, _)) => *high_last == Colour::Black,
                    None => h == Colour::White,
                }
            }
        }
    };
    Some(if high_white {
        (high.index, low.index)
    } else {
        (low.index, high.index)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift64*), so the simulation is seeded.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
    }

    fn simulate(players: usize, rounds: usize, seed: u64) {
        let mut rng = Rng(seed);
        // Kept by index; each round is paired from a copy in ranking order.
        let mut entrants: Vec<Entrant> = (0..players)
            .map(|index| Entrant {
                index,
                half_points: 0,
                colours: Vec::new(),
                opponents: Vec::new(),
                had_bye: false,
            })
            .collect();
        let mut byes = vec![0; players];
        for round in 0..rounds {
            let mut ranking = entrants.clone();
            ranking.sort_by_key(|e| (std::cmp::Reverse(e.half_points), e.index));
            let pairs = pair_round(&ranking)
                .unwrap_or_else(|| panic!("seed {seed}: round {} unpairable", round + 1));
            let mut seated = vec![false; players];
            for (white, black) in pairs {
                assert!(!seated[white]);
                seated[white] = true;
                let Some(black) = black else {
                    byes[white] += 1;
                    entrants[white].had_bye = true;
                    entrants[white].half_points += 2;
                    continue;
                };
                assert!(!seated[black]);
                seated[black] = true;
                assert!(
                    !entrants[white].opponents.contains(&black),
                    "seed {seed}: {white} and {black} meet again"
                );
                let white_half = (rng.next() % 3) as u32; // 0, 1 or 2
                entrants[white].half_points += white_half;
                entrants[black].half_points += 2 - white_half;
                entrants[white].opponents.push(black);
                entrants[black].opponents.push(white);
                entrants[white].colours.push(Colour::White);
                entrants[black].colours.push(Colour::Black);
            }
            assert!(
                seated.iter().all(|s| *s),
                "everyone is paired or has the bye"
            );
            for e in &entrants {
                assert!(
                    !e.colours.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
                    "seed {seed}: player {} has {:?}",
                    e.index,
                    e.colours
                );
                assert!(e.balance().abs() <= 2);
            }
        }
        assert!(byes.iter().all(|&b| b <= 1), "seed {seed}: byes {byes:?}");
    }

    #[test]
    fn eleven_players_five_rounds_keep_every_rule() {
        for seed in 1..=200 {
            simulate(11, 5, seed);
        }
    }

    #[test]
    fn other_sizes_keep_every_rule_too() {
        for (players, rounds, seed) in [(8, 5, 7), (9, 4, 3), (16, 7, 11), (5, 4, 2), (12, 6, 99)] {
            simulate(players, rounds, seed);
        }
    }

    #[test]
    fn the_first_round_pairs_top_half_against_bottom_half() {
        let entrants: Vec<Entrant> = (0..4)
            .map(|index| Entrant {
                index,
                half_points: 0,
                colours: Vec::new(),
                opponents: Vec::new(),
                had_bye: false,
            })
            .collect();
        let pairs = pair_round(&entrants).expect("pairs");
        assert_eq!(pairs, vec![(0, Some(2)), (3, Some(1))]);
    }
}
