//! Swiss pairing by the FIDE Dutch system (C.04.3), bracket by bracket.
//!
//! Players are ranked by score, then pairing number (A.2). Brackets are
//! paired from the top scoregroup down; a bracket holds the players of one
//! scoregroup (residents) and those moved down from the bracket above
//! (MDPs). In each bracket the candidates are generated in the order the
//! rules give (D.1 transpositions of S2, D.2 exchanges between S1 and S2,
//! D.3 other sets of MDPs) and the first candidate that best meets the
//! quality criteria, in their order, is kept:
//!
//! - absolute (C.1–C.4): no second game between two players, no second
//!   pairing-allocated bye (nor a bye after a win without play), no two
//!   non-topscorers with the same absolute colour preference, and the
//!   players left below must still be pairable (completion);
//! - quality, in order: most pairs (C.5), smallest score differences (C.6),
//!   topscorers' colour limits (C.8, C.9), colour preferences (C.10) and
//!   strong ones (C.11), repeated floats one and two rounds back (C.12–C.15)
//!   and their score differences (C.16–C.19).
//!
//! Colours follow E.1–E.5. What is left out is named in docs/competition.md.
//!
//! # Any number of players
//!
//! Completion (C.4) and a bracket's most pairs are matching questions: a
//! maximum matching of the players' graph ([`super::matching`], Edmonds'
//! blossom algorithm) answers them in polynomial time for any number of
//! players, grown from the matching of the players below a bracket, which
//! is made once per round. The searches that follow the rules' order are
//! bounded: per bracket as before, and a round as a whole ([`ROUND_WORK`]),
//! past which a bracket is paired from its completion matching. A round of
//! 1,000 players takes well under a second (`cargo bench --bench
//! swiss_pairing`).

use std::cell::{Cell, RefCell};
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use super::matching::Matching;

/// A colour in a player's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    White,
    Black,
}

/// A float a player received in an earlier round (A.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Float {
    Down,
    Up,
    #[default]
    None,
}

/// What the pairing needs to know about a player; `id` names them in the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub id: usize,
    /// Place in the initial ranking list (0 for pairing number 1).
    pub rank: usize,
    /// Points times two.
    pub half_points: u32,
    /// Colours of the games played over the board, oldest first.
    pub colours: Vec<Colour>,
    /// Ids of the players met over the board.
    pub opponents: Vec<usize>,
    /// False once the player had a pairing-allocated bye or scored a win
    /// without playing (C.2).
    pub bye_eligible: bool,
    /// The floats of the last round and of the round before it.
    pub floats: [Float; 2],
}

/// The round to pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Round {
    /// The colour pairing number 1 had in round 1 (E.5).
    pub initial_colour: Colour,
    /// Rounds already played.
    pub played: u32,
    /// This is the tournament's last round: topscorers may meet despite
    /// absolute colour preferences (A.7, C.3).
    pub last: bool,
}

/// Two seats paired, the higher-ranked first.
type SeatPair = (usize, usize);

/// A round's pairings: `(white, black)` by id, `black == None` for the bye.
pub type Pairs = Vec<(usize, Option<usize>)>;

/// The pairing of the next round, boards in order (higher score first),
/// the bye last; `None` when no pairing keeps the absolute criteria.
pub fn pair(players: &[Player], round: Round) -> Option<Pairs> {
    pair_within(players, round, ROUND_WORK)
}

/// [`pair`] with `work` allowed ([`ROUND_WORK`]).
fn pair_within(players: &[Player], round: Round, work: u64) -> Option<Pairs> {
    let mut ranked: Vec<Seat> = players.iter().map(Seat::new).collect();
    ranked.sort_by_key(|s| (std::cmp::Reverse(s.half_points), s.rank));
    let pairing = Pairing::new(ranked, round, work);
    let (pairs, bye) = pairing.run()?;
    let mut boards: Vec<(usize, usize)> = pairs
        .into_iter()
        .map(|(a, b)| pairing.colours(a.min(b), a.max(b)))
        .collect();
    // Boards: the higher pair first (A.2 of its higher player), as arbiters list them.
    boards.sort_by_key(|&(w, b)| {
        let (x, y) = (&pairing.seats[w], &pairing.seats[b]);
        let (hi, lo) = if pairing.above(w, b) { (x, y) } else { (y, x) };
        (
            std::cmp::Reverse(hi.half_points.max(lo.half_points)),
            std::cmp::Reverse(hi.half_points + lo.half_points),
            hi.rank.min(lo.rank),
        )
    });
    let mut out: Pairs = boards
        .into_iter()
        .map(|(w, b)| (pairing.seats[w].id, Some(pairing.seats[b].id)))
        .collect();
    out.extend(bye.map(|b| (pairing.seats[b].id, None)));
    Some(out)
}

/// How strongly a player wants a colour (A.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    None,
    Mild,
    Strong,
    Absolute,
}

/// A player as one round's pairing sees them.
struct Seat {
    id: usize,
    rank: usize,
    half_points: u32,
    colours: Vec<Colour>,
    opponents: Vec<usize>,
    bye_eligible: bool,
    floats: [Float; 2],
    preference: Option<Colour>,
    strength: Strength,
    /// White games minus Black games.
    difference: i32,
    /// The colour of the last two games when they were the same.
    repeated: Option<Colour>,
}

impl Seat {
    fn new(p: &Player) -> Seat {
        let difference: i32 = p
            .colours
            .iter()
            .map(|c| if *c == Colour::White { 1 } else { -1 })
            .sum();
        let repeated = match p.colours.as_slice() {
            [.., a, b] if a == b => Some(*b),
            _ => None,
        };
        let (preference, strength) = if difference > 1 || repeated == Some(Colour::White) {
            (Some(Colour::Black), Strength::Absolute)
        } else if difference < -1 || repeated == Some(Colour::Black) {
            (Some(Colour::White), Strength::Absolute)
        } else if difference == 1 {
            (Some(Colour::Black), Strength::Strong)
        } else if difference == -1 {
            (Some(Colour::White), Strength::Strong)
        } else {
            match p.colours.last() {
                Some(last) => (Some(other(*last)), Strength::Mild),
                None => (None, Strength::None),
            }
        };
        Seat {
            id: p.id,
            rank: p.rank,
            half_points: p.half_points,
            colours: p.colours.clone(),
            opponents: p.opponents.clone(),
            bye_eligible: p.bye_eligible,
            floats: p.floats,
            preference,
            strength,
            difference,
            repeated,
        }
    }
}

fn other(colour: Colour) -> Colour {
    match colour {
        Colour::White => Colour::Black,
        Colour::Black => Colour::White,
    }
}

/// Work allowed per bracket before the best candidate found so far is kept.
const BRACKET_BUDGET: u32 = 400_000;

/// Sets of MDPs tried in one bracket (D.3 order): the first ones only.
const MDP_SETS: usize = 5_000;

/// Work allowed to one remainder (one MDP-pairing) of a bracket.
const REMAINDER_BUDGET: u32 = 60_000;

/// Work one round's pairing may do, counted in search steps (a candidate
/// step, a C.7 step) and in seats looked at (a completion question, a
/// bracket's most pairs): about a second on a slow machine. Once it is
/// spent, each bracket left takes the best candidate found so far, or the
/// pairing its completion matching gives ([`Pairing::fallback`]), and C.7
/// is only estimated. No event in tests/fixtures/dutch comes near it.
const ROUND_WORK: u64 = 8_000_000;

/// C.7 looks at every way the floaters can be paired in the next bracket
/// when it has at most this many residents...
const NEXT_EXACT_RESIDENTS: usize = 24;

/// ... and at most this many ways to give each floater a resident.
const NEXT_EXACT_WAYS: usize = 5_000;

/// One round's pairing: the seats in A.2 order, indexed by position.
struct Pairing {
    seats: Vec<Seat>,
    round: Round,
    /// Which seats may be paired (C.1, C.3).
    meets: Meets,
    /// C.4's matchings and answers.
    completion: RefCell<Completion>,
    /// The bye goes to a player scoring at most this: the lowest score
    /// that still lets everyone else be paired.
    bye_limit: u32,
    /// Each seat's place among this round's players by pairing number (E.5).
    number_order: Vec<usize>,
    /// C.7 answers by the set of floaters.
    next_brackets: RefCell<HashMap<Vec<usize>, Rc<Next>>>,
    /// D.2's exchanges by the sizes of S1 and S2.
    exchanges: RefCell<HashMap<(usize, usize), Rc<Exchanges>>>,
    /// Work the round may still do ([`ROUND_WORK`]).
    work: Cell<u64>,
}

/// Exchanges between S1 and S2 in D.2 order: `(positions leaving S1,
/// positions in S2 entering S1)`.
type Exchanges = Vec<(Vec<usize>, Vec<usize>)>;

/// Which seats may be paired (C.1, C.3): one bit per pair of seats, so
/// that a few thousand players fit in a few megabytes.
struct Meets {
    /// 64-bit words per seat.
    row: usize,
    bits: Vec<u64>,
}

impl Meets {
    /// Nobody may meet anybody yet.
    fn new(n: usize) -> Meets {
        let row = n.div_ceil(64);
        Meets {
            row,
            bits: vec![0; row * n],
        }
    }

    fn get(&self, a: usize, b: usize) -> bool {
        self.bits[a * self.row + b / 64] >> (b % 64) & 1 == 1
    }

    fn set(&mut self, a: usize, b: usize, may: bool) {
        let word = &mut self.bits[a * self.row + b / 64];
        if may {
            *word |= 1 << (b % 64);
        } else {
            *word &= !(1 << (b % 64));
        }
    }
}

/// C.4 answered with maximum matchings ([`Matching`]): the seats from a
/// bracket boundary down are matched once, and each question (can these
/// floaters and everyone below still be paired?) only adds its floaters
/// to a copy, with the bye as one more vertex when the count is odd.
#[derive(Default)]
struct Completion {
    /// A maximum matching of the seats `below..n`, by `below`.
    below: BTreeMap<usize, Matching>,
    /// Answers by the seats asked about (sorted) and `below`.
    answers: HashMap<(Vec<usize>, usize), bool>,
}

/// The state of a search through the next bracket's pairings (C.7).
struct NextSearch<'a> {
    mdps: &'a [usize],
    residents: &'a [usize],
    score: u32,
    /// Where the bracket after the next one starts.
    end: usize,
    used: &'a mut Vec<bool>,
    paired: &'a mut Vec<bool>,
    /// Every resident is tried for each floater, and every way checked
    /// for completion; else (a large bracket) the first resident it may
    /// meet, and the residents left are taken to pair among themselves.
    exhaustive: bool,
    unpaired: Vec<usize>,
    sds: Vec<u32>,
    best: &'a mut Option<(usize, Vec<u32>)>,
}

/// What every candidate of one remainder shares.
struct Stage<'a> {
    psd: Rc<Vec<u32>>,
    /// The MDP pairs fixed before S1's (the first of every candidate's pairs).
    fixed: usize,
    /// The best C.7 value any of its candidates could reach.
    best_next: Rc<Next>,
    limbo: &'a [usize],
    below: usize,
    /// The bracket's lowest score: a floater's score difference is taken
    /// from one point below it (A.8).
    lowest: u32,
}

/// A bracket's candidate judged by the quality criteria: score differences
/// first, then the counts in order; smaller is better. The lists are
/// shared with the stage and the C.7 answers they come from, so a
/// candidate is judged without copying them.
#[derive(Clone, Debug)]
struct Quality {
    differences: Rc<Vec<u32>>,
    next: Rc<Next>,
    /// In the last bracket, the rounds the bye's receiver has not played:
    /// the bye goes to who has missed fewest.
    bye_unplayed: u32,
    counts: Counts,
}

impl Ord for Quality {
    fn cmp(&self, other: &Quality) -> Ordering {
        shared_cmp(&self.differences, &other.differences)
            .then_with(|| shared_cmp(&self.next, &other.next))
            .then(self.bye_unplayed.cmp(&other.bye_unplayed))
            .then(self.counts.cmp(&other.counts))
    }
}

impl PartialOrd for Quality {
    fn partial_cmp(&self, other: &Quality) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Quality {
    fn eq(&self, other: &Quality) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Quality {}

/// Two shared values compared, at once when they are the same one.
fn shared_cmp<T: Ord>(a: &Rc<T>, b: &Rc<T>) -> Ordering {
    if Rc::ptr_eq(a, b) {
        Ordering::Equal
    } else {
        a.cmp(b)
    }
}

/// C.7: how well the next bracket can be paired with a candidate's
/// floaters: pairs it cannot make, then its score differences.
type Next = (u32, Vec<u32>);

/// C.8–C.19 as sums (counts, or score differences for C.16–C.19), in the
/// order they are weighed.
type Counts = [u32; 12];

struct Best {
    quality: Option<Quality>,
    pairs: Vec<(usize, usize)>,
    floaters: Vec<usize>,
}

impl Pairing {
    fn new(seats: Vec<Seat>, round: Round, work: u64) -> Pairing {
        let n = seats.len();
        let mut by_number: Vec<usize> = (0..n).collect();
        by_number.sort_by_key(|&s| seats[s].rank);
        let mut number_order = vec![0; n];
        for (place, &s) in by_number.iter().enumerate() {
            number_order[s] = place;
        }
        let mut pairing = Pairing {
            seats,
            round,
            meets: Meets::new(n),
            completion: Default::default(),
            bye_limit: u32::MAX,
            number_order,
            next_brackets: Default::default(),
            exchanges: Default::default(),
            work: Cell::new(work),
        };
        pairing.meets = pairing.who_meets();
        pairing.bye_limit = pairing.lowest_bye_score();
        pairing
    }

    /// C.1 and C.3 for every two seats: everyone may meet everyone but
    /// themselves, their past opponents and, outside the topscorers, the
    /// players with the same absolute colour preference.
    fn who_meets(&self) -> Meets {
        let n = self.seats.len();
        let mut meets = Meets::new(n);
        let seat_of: HashMap<usize, usize> = (0..n).map(|s| (self.seats[s].id, s)).collect();
        for a in 0..n {
            for b in 0..n {
                meets.set(a, b, a != b);
            }
            for id in &self.seats[a].opponents {
                if let Some(&b) = seat_of.get(id) {
                    meets.set(a, b, false);
                    meets.set(b, a, false);
                }
            }
        }
        for colour in [Colour::White, Colour::Black] {
            let absolute: Vec<usize> = (0..n)
                .filter(|&s| {
                    let seat = &self.seats[s];
                    seat.strength == Strength::Absolute && seat.preference == Some(colour)
                })
                .collect();
            for &a in &absolute {
                for &b in &absolute {
                    if !self.topscorer(a) && !self.topscorer(b) {
                        meets.set(a, b, false);
                    }
                }
            }
        }
        meets
    }

    /// The lowest score a bye-eligible player may have so that all the
    /// others can be paired; the bye must go no higher.
    fn lowest_bye_score(&mut self) -> u32 {
        let n = self.seats.len();
        if n.is_multiple_of(2) {
            return u32::MAX;
        }
        let mut scores: Vec<u32> = self
            .seats
            .iter()
            .filter(|s| s.bye_eligible)
            .map(|s| s.half_points)
            .collect();
        scores.sort_unstable();
        scores.dedup();
        // The matchings do not depend on the bye; the answers do.
        for score in scores {
            self.bye_limit = score;
            self.completion.get_mut().answers.clear();
            if self.completes(&[], 0) {
                self.completion.get_mut().answers.clear();
                return score;
            }
        }
        self.completion.get_mut().answers.clear();
        u32::MAX
    }

    /// A above B in A.2 order.
    fn above(&self, a: usize, b: usize) -> bool {
        a < b
    }

    fn topscorer(&self, s: usize) -> bool {
        self.round.last && self.seats[s].half_points > self.round.played
    }

    /// Whether seats `a` and `b` may be paired (C.1, C.3).
    fn meets(&self, a: usize, b: usize) -> bool {
        self.meets.get(a, b)
    }

    /// The graph C.4 asks about: the seats, and the bye as vertex `n`,
    /// joined to whoever may have it.
    fn joined(&self, a: usize, b: usize) -> bool {
        let bye = self.seats.len();
        if a == bye {
            self.may_have_bye(b)
        } else if b == bye {
            self.may_have_bye(a)
        } else {
            self.meets(a, b)
        }
    }

    /// The whole round: brackets from the top, then the bye.
    fn run(&self) -> Option<(Vec<SeatPair>, Option<usize>)> {
        let n = self.seats.len();
        let mut pairs = Vec::new();
        let mut moved: Vec<usize> = Vec::new();
        let mut start = 0;
        while start < n {
            let score = self.seats[start].half_points;
            let end = (start..n)
                .find(|&i| self.seats[i].half_points != score)
                .unwrap_or(n);
            let mut bracket = moved.clone();
            bracket.extend(start..end);
            let (found, floaters) = self.pair_bracket(&bracket, moved.len(), end)?;
            tracing::trace!(
                bracket = ?bracket.iter().map(|&s| self.seats[s].id).collect::<Vec<_>>(),
                moved = moved.len(),
                pairs = ?found.iter().map(|&(a, b)| (self.seats[a].id, self.seats[b].id)).collect::<Vec<_>>(),
                floaters = ?floaters.iter().map(|&s| self.seats[s].id).collect::<Vec<_>>(),
                "bracket paired"
            );
            pairs.extend(found);
            moved = floaters;
            start = end;
        }
        match moved.as_slice() {
            [] => Some((pairs, None)),
            [bye] if self.may_have_bye(*bye) => Some((pairs, Some(*bye))),
            _ => None,
        }
    }

    /// Pairs one bracket (`mdps` moved-down players first, then residents);
    /// `below` is where the players still to be paired after it start.
    fn pair_bracket(
        &self,
        bracket: &[usize],
        mdps: usize,
        below: usize,
    ) -> Option<(Vec<SeatPair>, Vec<usize>)> {
        if self.exhausted() {
            return self.fallback(bracket, below);
        }
        let most = self.max_pairs(bracket);
        for pairs in (0..=most).rev() {
            let top = mdps.min(pairs);
            for paired_mdps in (0..=top).rev() {
                let mut best = Best {
                    quality: None,
                    pairs: Vec::new(),
                    floaters: Vec::new(),
                };
                let mut budget = BRACKET_BUDGET;
                self.heterogeneous(
                    bracket,
                    mdps,
                    pairs,
                    paired_mdps,
                    below,
                    &mut best,
                    &mut budget,
                );
                if best.quality.is_some() {
                    return Some((best.pairs, best.floaters));
                }
                if self.exhausted() {
                    return self.fallback(bracket, below);
                }
            }
        }
        None
    }

    /// Tries every set of `paired` MDPs (D.3 order), each with every
    /// MDP-pairing (D.1 on S2) and every pairing of its remainder.
    #[allow(clippy::too_many_arguments)]
    fn heterogeneous(
        &self,
        bracket: &[usize],
        mdps: usize,
        pairs: usize,
        paired: usize,
        below: usize,
        best: &mut Best,
        budget: &mut u32,
    ) {
        let (moved, residents) = bracket.split_at(mdps);
        for chosen in combinations(moved.len(), paired, MDP_SETS) {
            let s1: Vec<usize> = chosen.iter().map(|&i| moved[i]).collect();
            let limbo: Vec<usize> = (0..moved.len())
                .filter(|i| !chosen.contains(i))
                .map(|i| moved[i])
                .collect();
            let mut used = vec![false; residents.len()];
            let mut partial = Vec::new();
            self.mdp_pairing(
                &s1,
                residents,
                &mut used,
                &mut partial,
                pairs - paired,
                &limbo,
                bracket,
                below,
                best,
                budget,
            );
            if *budget == 0 || self.exhausted() {
                return;
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn mdp_pairing(
        &self,
        s1: &[usize],
        residents: &[usize],
        used: &mut Vec<bool>,
        partial: &mut Vec<(usize, usize)>,
        remainder_pairs: usize,
        limbo: &[usize],
        bracket: &[usize],
        below: usize,
        best: &mut Best,
        budget: &mut u32,
    ) {
        if *budget == 0 || !self.spend(1) {
            return;
        }
        *budget -= 1;
        let Some(&mdp) = s1.get(partial.len()) else {
            let remainder: Vec<usize> = (0..residents.len())
                .filter(|&i| !used[i])
                .map(|i| residents[i])
                .collect();
            self.homogeneous(
                &remainder,
                remainder_pairs,
                partial,
                limbo,
                bracket,
                below,
                best,
                budget,
            );
            return;
        };
        for i in 0..residents.len() {
            if used[i] || !self.meets(mdp, residents[i]) {
                continue;
            }
            used[i] = true;
            partial.push((mdp, residents[i]));
            self.mdp_pairing(
                s1,
                residents,
                used,
                partial,
                remainder_pairs,
                limbo,
                bracket,
                below,
                best,
                budget,
            );
            partial.pop();
            used[i] = false;
            if *budget == 0 {
                return;
            }
        }
    }

    /// The remainder (or a homogeneous bracket): S1 its top `pairs`
    /// players, S2 the rest; exchanges in D.2 order, each with every
    /// transposition of S2 (D.1).
    #[allow(clippy::too_many_arguments)]
    fn homogeneous(
        &self,
        players: &[usize],
        pairs: usize,
        fixed: &[(usize, usize)],
        limbo: &[usize],
        bracket: &[usize],
        below: usize,
        best: &mut Best,
        budget: &mut u32,
    ) {
        if pairs * 2 > players.len() {
            return;
        }
        // The score differences are the same for every candidate here: the
        // fixed MDP pairs, the limbo, and floaters all of the residents' score.
        let mut floating = limbo.to_vec();
        floating.extend(&players[pairs * 2..]);
        let lowest = bracket
            .iter()
            .map(|&b| self.seats[b].half_points)
            .min()
            .unwrap_or(0);
        let psd = self.differences(fixed, &floating, lowest);
        // Shared with the best so far when equal, so each step compares pointers.
        let psd = match &best.quality {
            Some(q) if *q.differences < psd => return,
            Some(q) if *q.differences == psd => Rc::clone(&q.differences),
            _ => Rc::new(psd),
        };
        let stage = Stage {
            psd,
            fixed: fixed.len(),
            best_next: self.best_next(players, players.len() - 2 * pairs, limbo, below),
            limbo,
            below,
            lowest,
        };
        let fixed_counts = fixed
            .iter()
            .fold([0; 12], |acc, &(a, b)| add(acc, self.pair_counts(a, b)));
        // No candidate can do better than this: once one reaches it, the
        // rest of this remainder need not be tried.
        let mut floor = fixed_counts;
        floor[2] += self.fewest_colour_clashes(players, players.len() - 2 * pairs);
        // Each remainder gets its share of the work, so that a hard one
        // does not leave the bracket's other MDP-pairings untried.
        let mut share = (*budget).min(REMAINDER_BUDGET);
        let before = share;
        let n1 = pairs;
        let exchanges = self.exchanges_of(n1, players.len() - n1);
        for (out_of_s1, into_s1) in exchanges.iter() {
            let mut s1: Vec<usize> = (0..n1).filter(|i| !out_of_s1.contains(i)).collect();
            s1.extend(into_s1.iter().map(|&j| n1 + j));
            s1.sort_unstable();
            let mut s2: Vec<usize> = (n1..players.len())
                .filter(|i| !into_s1.contains(&(i - n1)))
                .collect();
            s2.extend(out_of_s1.iter().copied());
            s2.sort_unstable();
            let s1: Vec<usize> = s1.into_iter().map(|i| players[i]).collect();
            let s2: Vec<usize> = s2.into_iter().map(|i| players[i]).collect();
            let mut used = vec![false; s2.len()];
            let mut chosen = fixed.to_vec();
            self.transpose(
                &s1,
                &s2,
                &mut used,
                &mut chosen,
                fixed_counts,
                &stage,
                best,
                &mut share,
            );
            let perfect = best.quality.as_ref().is_some_and(|q| {
                shared_cmp(&q.differences, &stage.psd).is_eq()
                    && shared_cmp(&q.next, &stage.best_next).is_eq()
                    && q.bye_unplayed == 0
                    && q.counts == floor
            });
            if share == 0 || perfect || self.exhausted() {
                break;
            }
        }
        *budget -= before - share;
    }

    /// D.2's exchanges for an S1 of `n1` and an S2 of `n2` players, made once.
    fn exchanges_of(&self, n1: usize, n2: usize) -> Rc<Exchanges> {
        let mut known = self.exchanges.borrow_mut();
        Rc::clone(
            known
                .entry((n1, n2))
                .or_insert_with(|| Rc::new(exchanges(n1, n2))),
        )
    }

    /// The most pairs `players` can make among themselves while those left
    /// over, with `floating`, still let everyone from `end` on be paired;
    /// `None` if no way does. Large groups are only bounded (C.1–C.3).
    fn pairs_completing(&self, players: &[usize], floating: &[usize], end: usize) -> Option<usize> {
        if players.len() > 12 {
            let mut rest = floating.to_vec();
            rest.extend(players);
            return self.completes(&rest, end).then(|| self.max_pairs(players));
        }
        fn go(
            p: &Pairing,
            players: &[usize],
            taken: &mut Vec<bool>,
            left: &mut Vec<usize>,
            pairs: usize,
            end: usize,
            best: &mut Option<usize>,
        ) {
            if !p.spend(1) {
                return;
            }
            let Some(first) = (0..players.len()).find(|&i| !taken[i]) else {
                if best.is_none_or(|b| pairs > b) && p.completes(left, end) {
                    *best = Some(pairs);
                }
                return;
            };
            let open = taken.iter().filter(|t| !**t).count();
            if best.is_some_and(|b| pairs + open / 2 <= b) {
                return;
            }
            taken[first] = true;
            for other in first + 1..players.len() {
                if !taken[other] && p.meets(players[first], players[other]) {
                    taken[other] = true;
                    go(p, players, taken, left, pairs + 1, end, best);
                    taken[other] = false;
                }
            }
            left.push(players[first]);
            go(p, players, taken, left, pairs, end, best);
            left.pop();
            taken[first] = false;
        }
        let mut best = None;
        let mut left = floating.to_vec();
        go(
            self,
            players,
            &mut vec![false; players.len()],
            &mut left,
            0,
            end,
            &mut best,
        );
        best
    }

    /// Rounds the bye's receiver missed, when this bracket gives the bye.
    fn bye_unplayed(&self, floaters: &[usize], below: usize) -> u32 {
        match floaters {
            [bye] if below >= self.seats.len() => {
                (self.round.played as usize).saturating_sub(self.seats[*bye].colours.len()) as u32
            }
            _ => 0,
        }
    }

    /// The fewest pairs of `players` (`floating` of them left out) whose
    /// two players want the same colour: those wanting the more asked-for
    /// colour beyond the others, the players without a preference and the
    /// floaters, must meet each other.
    fn fewest_colour_clashes(&self, players: &[usize], floating: usize) -> u32 {
        let wanting = |c: Colour| {
            players
                .iter()
                .filter(|&&p| self.seats[p].preference == Some(c))
                .count()
        };
        let indifferent = players
            .iter()
            .filter(|&&p| self.seats[p].preference.is_none())
            .count();
        let excess = wanting(Colour::White).abs_diff(wanting(Colour::Black));
        (excess.saturating_sub(indifferent + floating) / 2) as u32
    }

    /// The best C.7 value of any `floating` players of `players` (with the limbo).
    fn best_next(
        &self,
        players: &[usize],
        floating: usize,
        limbo: &[usize],
        below: usize,
    ) -> Rc<Next> {
        if choose(players.len(), floating) > 2_000 || self.exhausted() {
            return Rc::new((0, Vec::new()));
        }
        let sets = combinations(players.len(), floating, 2_000);
        sets.into_iter()
            .map(|set| {
                let mut floaters = limbo.to_vec();
                floaters.extend(set.iter().map(|&i| players[i]));
                self.next_bracket(&floaters, below)
            })
            .min()
            .unwrap_or_else(|| Rc::new((0, Vec::new())))
    }

    /// C.7: the most pairs the next bracket can make with these floaters,
    /// and with as many its smallest score differences.
    fn next_bracket(&self, floaters: &[usize], below: usize) -> Rc<Next> {
        let n = self.seats.len();
        if below >= n || floaters.len() > 4 {
            return Rc::new((0, Vec::new()));
        }
        let mut key = floaters.to_vec();
        key.sort_unstable();
        if let Some(known) = self.next_brackets.borrow().get(&key) {
            return Rc::clone(known);
        }
        let score = self.seats[below].half_points;
        let end = (below..n)
            .find(|&i| self.seats[i].half_points != score)
            .unwrap_or(n);
        let residents: Vec<usize> = (below..end).collect();
        let mut best: Option<(usize, Vec<u32>)> = None;
        let mut used = vec![false; residents.len()];
        let mut paired = vec![false; key.len()];
        let mut search = NextSearch {
            mdps: &key,
            residents: &residents,
            score,
            end,
            used: &mut used,
            paired: &mut paired,
            exhaustive: !self.exhausted()
                && residents.len() <= NEXT_EXACT_RESIDENTS
                && residents.len().saturating_pow(key.len() as u32) <= NEXT_EXACT_WAYS,
            unpaired: Vec::new(),
            sds: Vec::new(),
            best: &mut best,
        };
        self.next_search(&mut search, 0, 0);
        let (pairs, psd) = best.unwrap_or((0, Vec::new()));
        let most = (key.len() + residents.len()) / 2;
        let value = Rc::new(((most - pairs.min(most)) as u32, psd));
        self.next_brackets
            .borrow_mut()
            .insert(key, Rc::clone(&value));
        value
    }

    /// Tries each way the floaters can be paired in the next bracket
    /// (with a resident, with each other, or not), keeping the most pairs
    /// and then the smallest differences among those that leave everyone
    /// after them pairable.
    fn next_search(&self, s: &mut NextSearch, i: usize, pairs: usize) {
        if s.exhaustive && !self.spend(1) {
            return;
        }
        if i == s.mdps.len() {
            let left: Vec<usize> = (0..s.residents.len())
                .filter(|&j| !s.used[j])
                .map(|j| s.residents[j])
                .collect();
            let inside = match s.exhaustive {
                true => self.pairs_completing(&left, &s.unpaired, s.end),
                false => Some(left.len() / 2),
            };
            let Some(inside) = inside else {
                return;
            };
            let mut all = s.sds.clone();
            all.extend(std::iter::repeat_n(0, inside));
            all.extend(std::iter::repeat_n(2, left.len() - 2 * inside));
            all.sort_unstable_by(|a, b| b.cmp(a));
            let candidate = (pairs + inside, all);
            let better = match &*s.best {
                None => true,
                Some((p, d)) => candidate.0 > *p || (candidate.0 == *p && candidate.1 < *d),
            };
            if better {
                *s.best = Some(candidate);
            }
            return;
        }
        if s.paired[i] {
            return self.next_search(s, i + 1, pairs);
        }
        let mdp = s.mdps[i];
        let f = self.seats[mdp].half_points;
        for j in 0..s.residents.len() {
            if !s.used[j] && self.meets(mdp, s.residents[j]) {
                s.used[j] = true;
                s.sds.push(f - s.score);
                self.next_search(s, i + 1, pairs + 1);
                s.sds.pop();
                s.used[j] = false;
                if !s.exhaustive {
                    break;
                }
            }
        }
        for k in i + 1..s.mdps.len() {
            if !s.paired[k] && self.meets(mdp, s.mdps[k]) {
                s.paired[k] = true;
                s.sds.push(f.abs_diff(self.seats[s.mdps[k]].half_points));
                self.next_search(s, i + 1, pairs + 1);
                s.sds.pop();
                s.paired[k] = false;
            }
        }
        s.sds.push(f + 2 - s.score);
        s.unpaired.push(mdp);
        self.next_search(s, i + 1, pairs);
        s.unpaired.pop();
        s.sds.pop();
    }

    #[allow(clippy::too_many_arguments)]
    fn transpose(
        &self,
        s1: &[usize],
        s2: &[usize],
        used: &mut Vec<bool>,
        chosen: &mut Vec<(usize, usize)>,
        counts: Counts,
        stage: &Stage,
        best: &mut Best,
        budget: &mut u32,
    ) {
        if *budget == 0 || !self.spend(1) {
            return;
        }
        *budget -= 1;
        // The counts' partial sums only grow: a candidate that cannot beat
        // the best on C.7 and the bye and is no better on the counts is dropped.
        if let Some(q) = &best.quality {
            let differences = shared_cmp(&q.differences, &stage.psd);
            let settled = || {
                differences.is_eq()
                    && shared_cmp(&q.next, &stage.best_next).is_le()
                    && q.bye_unplayed == 0
            };
            if differences.is_lt() || (q.counts <= counts && settled()) {
                return;
            }
        }
        let done = chosen.len() - stage.fixed;
        let Some(&high) = s1.get(done) else {
            let mut floaters: Vec<usize> = stage.limbo.to_vec();
            floaters.extend((0..s2.len()).filter(|&j| !used[j]).map(|j| s2[j]));
            let counts = add(counts, self.floater_counts(&floaters, stage.lowest));
            let quality = Quality {
                differences: Rc::clone(&stage.psd),
                next: self.next_bracket(&floaters, stage.below),
                bye_unplayed: self.bye_unplayed(&floaters, stage.below),
                counts,
            };
            if best.quality.as_ref().is_none_or(|q| quality < *q)
                && self.completes(&floaters, stage.below)
            {
                best.quality = Some(quality);
                best.pairs = chosen.clone();
                best.floaters = floaters;
            }
            return;
        };
        for j in 0..s2.len() {
            if used[j] || !self.meets(high, s2[j]) {
                continue;
            }
            used[j] = true;
            chosen.push((high, s2[j]));
            let counts = add(counts, self.pair_counts(high, s2[j]));
            self.transpose(s1, s2, used, chosen, counts, stage, best, budget);
            chosen.pop();
            used[j] = false;
            if *budget == 0 {
                return;
            }
        }
    }

    /// The pairing score differences (A.8), highest first: each pair's
    /// score difference, and each floater's score less one point below the
    /// bracket's lowest score.
    fn differences(&self, pairs: &[(usize, usize)], floaters: &[usize], lowest: u32) -> Vec<u32> {
        let mut d: Vec<u32> = pairs
            .iter()
            .map(|&(a, b)| {
                self.seats[a]
                    .half_points
                    .abs_diff(self.seats[b].half_points)
            })
            .chain(
                floaters
                    .iter()
                    .map(|&f| self.seats[f].half_points + 2 - lowest),
            )
            .collect();
        d.sort_unstable_by(|a, b| b.cmp(a));
        d
    }

    /// C.8–C.19 for one pair.
    fn pair_counts(&self, a: usize, b: usize) -> Counts {
        let (x, y) = (&self.seats[a], &self.seats[b]);
        let mut c = [0u32; 12];
        let same = x.preference.is_some() && x.preference == y.preference;
        // C.8: topscorers (only they may meet so) pushed beyond a difference of 2.
        c[0] = u32::from(same && x.difference.abs() > 1 && y.difference.abs() > 1);
        // C.9: a third colour in a row for one of them.
        c[1] = u32::from(
            same && x.strength == Strength::Absolute
                && y.strength == Strength::Absolute
                && self.third_in_a_row(x, y),
        );
        // C.10: one of them does not get the colour they prefer.
        c[2] = u32::from(same);
        // C.11: ... and it was a strong preference (both absolute: C.8/C.9).
        c[3] = u32::from(
            same && x.strength >= Strength::Strong
                && y.strength >= Strength::Strong
                && !(x.strength == Strength::Absolute && y.strength == Strength::Absolute),
        );
        let (high, low) = if self.above(a, b) { (x, y) } else { (y, x) };
        let floats = high.half_points > low.half_points;
        for back in 0..2 {
            // C.12/C.14: a downfloat again (the higher of two scores).
            if floats && high.floats[back] == Float::Down {
                c[4 + 2 * back] += 1;
                c[8 + 2 * back] += high.half_points - low.half_points;
            }
            // C.13/C.15: an upfloat again.
            if floats && low.floats[back] == Float::Up {
                c[5 + 2 * back] += 1;
                c[9 + 2 * back] += high.half_points - low.half_points;
            }
        }
        c
    }

    /// C.12–C.19 for the players who float down out of the bracket.
    fn floater_counts(&self, floaters: &[usize], lowest: u32) -> Counts {
        let mut c = [0u32; 12];
        for &f in floaters {
            let s = &self.seats[f];
            for back in 0..2 {
                if s.floats[back] == Float::Down {
                    c[4 + 2 * back] += 1;
                    c[8 + 2 * back] += s.half_points + 2 - lowest;
                }
            }
        }
        c
    }

    /// Whether the player whose preference loses (E.2) gets a colour a third time.
    fn third_in_a_row(&self, x: &Seat, y: &Seat) -> bool {
        match x.difference.abs().cmp(&y.difference.abs()) {
            Ordering::Equal => x.repeated.is_some() && x.repeated == y.repeated,
            Ordering::Greater => y.repeated == x.preference.map(other),
            Ordering::Less => x.repeated == x.preference.map(other),
        }
    }

    /// C.4: the floaters and everyone below can still all be paired (one
    /// bye-eligible player left over at most): the graph of the floaters,
    /// the seats from `below` and, with an odd count, the bye has a
    /// perfect matching.
    fn completes(&self, floaters: &[usize], below: usize) -> bool {
        let n = self.seats.len();
        debug_assert!(floaters.iter().all(|&f| f < below));
        let mut key = floaters.to_vec();
        key.sort_unstable();
        let key = (key, below);
        if let Some(&known) = self.completion.borrow().answers.get(&key) {
            return known;
        }
        let mut matching = self.matching_below(below);
        let mut vertices: Vec<usize> = (below..n).chain(key.0.iter().copied()).collect();
        if vertices.len() % 2 == 1 {
            vertices.push(n);
        }
        self.spend(vertices.len());
        // A vertex left free by a failed search stays free (see `Matching::augment`).
        let free: Vec<usize> = vertices
            .iter()
            .copied()
            .filter(|&v| !matching.is_matched(v))
            .collect();
        let ok = free.into_iter().all(|v| {
            matching.is_matched(v) || matching.augment(v, &vertices, |a, b| self.joined(a, b))
        });
        self.completion.borrow_mut().answers.insert(key, ok);
        ok
    }

    /// A maximum matching of the seats from `below` down, grown from the
    /// nearest one already made below it a scoregroup at a time (each
    /// boundary passed is kept).
    fn matching_below(&self, below: usize) -> Matching {
        let n = self.seats.len();
        let mut completion = self.completion.borrow_mut();
        if let Some(known) = completion.below.get(&below) {
            return known.clone();
        }
        let (mut start, mut matching) = match completion.below.range(below + 1..).next() {
            Some((&start, known)) => (start, known.clone()),
            None => (n, Matching::new(n + 1)),
        };
        while start > below {
            let score = self.seats[start - 1].half_points;
            let from = (below..start)
                .rev()
                .find(|&s| self.seats[s].half_points != score)
                .map_or(below, |s| s + 1);
            let vertices: Vec<usize> = (from..n).collect();
            self.maximize(&mut matching, &vertices);
            start = from;
            completion.below.insert(start, matching.clone());
        }
        matching
    }

    /// Makes `matching` maximum over `vertices` (C.1–C.3): one search
    /// from each free vertex, which a failed search leaves free for good.
    fn maximize(&self, matching: &mut Matching, vertices: &[usize]) {
        for &v in vertices {
            if !matching.is_matched(v) {
                matching.augment(v, vertices, |a, b| self.meets(a, b));
            }
        }
    }

    /// Charges `units` of work to the round; false once it is all spent.
    fn spend(&self, units: usize) -> bool {
        let left = self.work.get();
        self.work.set(left.saturating_sub(units as u64));
        left > 0
    }

    fn exhausted(&self) -> bool {
        self.work.get() == 0
    }

    /// A bracket's pairing once the round's work is spent: a maximum
    /// matching of the bracket and everyone below it, the bracket's own
    /// players first paired among themselves (each of the top half with
    /// the first of the bottom half it may meet, then the rest in order).
    /// Those pairs that stay inside the bracket are its pairs, the others
    /// float; C.1–C.4 hold by construction. `None` when nobody can.
    fn fallback(&self, bracket: &[usize], below: usize) -> Option<(Vec<SeatPair>, Vec<usize>)> {
        let n = self.seats.len();
        let mut matching = self.matching_below(below);
        // 1 for the top half, 2 for the bottom half, 0 outside the bracket.
        let mut half = vec![0u8; n];
        for (place, &s) in bracket.iter().enumerate() {
            half[s] = if place < bracket.len() / 2 { 1 } else { 2 };
        }
        for &a in bracket {
            let partner = bracket.iter().copied().find(|&b| {
                b != a
                    && (half[a] == 2 || half[b] == 2)
                    && !matching.is_matched(b)
                    && self.meets(a, b)
            });
            if let (false, Some(b)) = (matching.is_matched(a), partner) {
                matching.join(a, b);
            }
        }
        let mut vertices: Vec<usize> = bracket.iter().copied().chain(below..n).collect();
        if vertices.len() % 2 == 1 {
            vertices.push(n);
        }
        for &v in &vertices {
            let joined = |a: usize, b: usize| self.joined(a, b);
            if !matching.is_matched(v) && !matching.augment(v, &vertices, joined) {
                return None;
            }
        }
        let inside = |s: usize| s < n && half[s] != 0;
        let pairs = bracket
            .iter()
            .filter_map(|&a| {
                matching
                    .mate(a)
                    .filter(|&b| a < b && inside(b))
                    .map(|b| (a, b))
            })
            .collect();
        let floaters = bracket
            .iter()
            .copied()
            .filter(|&a| !matching.mate(a).is_some_and(inside))
            .collect();
        tracing::debug!(
            bracket = bracket.len(),
            "a bracket paired by its completion matching"
        );
        Some((pairs, floaters))
    }

    fn may_have_bye(&self, s: usize) -> bool {
        self.seats[s].bye_eligible && self.seats[s].half_points <= self.bye_limit
    }

    /// The most pairs the bracket can hold (C.1–C.3 only): a bound to start from.
    fn max_pairs(&self, bracket: &[usize]) -> usize {
        self.spend(bracket.len());
        let mut matching = Matching::new(self.seats.len());
        self.maximize(&mut matching, bracket);
        matching.size()
    }

    /// Colours of a pair (E.1–E.5), `a` above `b`: `(white, black)`.
    fn colours(&self, a: usize, b: usize) -> (usize, usize) {
        let (high, low) = (&self.seats[a], &self.seats[b]);
        let high_gets = match (high.preference, low.preference) {
            // E.1: both preferences granted.
            (Some(h), Some(l)) if h != l => h,
            (Some(h), None) => h,
            (None, Some(l)) => other(l),
            (None, None) => self.by_pairing_number(a),
            (Some(h), Some(_)) => {
                // E.2: the stronger preference; between two absolute ones,
                // the wider colour difference.
                let strength = |s: &Seat| (s.strength, s.strength == Strength::Absolute);
                let wider = high.difference.abs().cmp(&low.difference.abs());
                match strength(high).cmp(&strength(low)) {
                    Ordering::Greater => h,
                    Ordering::Less => other(h),
                    Ordering::Equal if high.strength == Strength::Absolute && wider.is_ne() => {
                        if wider.is_gt() {
                            h
                        } else {
                            other(h)
                        }
                    }
                    // E.3: alternate from the last round their colours differed.
                    Ordering::Equal => match last_difference(high, low) {
                        Some(high_had) => other(high_had),
                        // E.4: the higher-ranked player's preference.
                        None => h,
                    },
                }
            }
        };
        if high_gets == Colour::White {
            (a, b)
        } else {
            (b, a)
        }
    }

    /// E.5: the higher-ranked player gets the initial colour with an odd
    /// pairing number, the other colour with an even one.
    fn by_pairing_number(&self, high: usize) -> Colour {
        if self.number_order[high].is_multiple_of(2) {
            self.round.initial_colour
        } else {
            other(self.round.initial_colour)
        }
    }
}

/// The colour `high` had the last time the two had different colours,
/// their played games aligned from the latest (C.04.2 D.5).
fn last_difference(high: &Seat, low: &Seat) -> Option<Colour> {
    high.colours
        .iter()
        .rev()
        .zip(low.colours.iter().rev())
        .find(|(a, b)| a != b)
        .map(|(a, _)| *a)
}

fn add(a: Counts, b: Counts) -> Counts {
    std::array::from_fn(|i| a[i] + b[i])
}

/// The first `limit` `k`-subsets of `0..n` in lexicographic order: never
/// more, however many there are (C(40, 20) would not fit in memory).
fn combinations(n: usize, k: usize, limit: usize) -> Vec<Vec<usize>> {
    fn go(
        start: usize,
        n: usize,
        k: usize,
        limit: usize,
        current: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if current.len() == k {
            out.push(current.clone());
            return;
        }
        for i in start..n {
            if n - i < k - current.len() || out.len() >= limit {
                break;
            }
            current.push(i);
            go(i + 1, n, k, limit, current, out);
            current.pop();
        }
    }
    let mut out = Vec::new();
    go(0, n, k, limit, &mut Vec::with_capacity(k), &mut out);
    out
}

/// How many `k`-subsets `0..n` has, saturating.
fn choose(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1usize, |c, i| c.saturating_mul(n - i) / (i + 1))
}

/// Exchanges between S1 (`n1` players) and S2 (`n2`) in D.2 order, the
/// empty one first: `(positions leaving S1, positions in S2 entering S1)`.
/// Fewest players first; then the smallest difference between the sums of
/// the bracket numbers moved; then the highest different number leaving S1;
/// then the lowest different number entering it.
fn exchanges(n1: usize, n2: usize) -> Exchanges {
    let mut out = vec![(Vec::new(), Vec::new())];
    for k in 1..=n1.min(n2) {
        if choose(n1, k).saturating_mul(choose(n2, k)) > 50_000 {
            break;
        }
        let outs = combinations(n1, k, usize::MAX);
        let ins = combinations(n2, k, usize::MAX);
        let mut level: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
        for o in &outs {
            for i in &ins {
                level.push((o.clone(), i.clone()));
            }
        }
        level.sort_by(|(o1, i1), (o2, i2)| {
            let diff = |o: &[usize], i: &[usize]| {
                i.iter().map(|&j| n1 + j).sum::<usize>() - o.iter().sum::<usize>()
            };
            diff(o1, i1)
                .cmp(&diff(o2, i2))
                .then_with(|| {
                    // The highest different leaving number: higher first.
                    let (a, b): (Vec<_>, Vec<_>) =
                        (o1.iter().rev().collect(), o2.iter().rev().collect());
                    b.cmp(&a)
                })
                .then_with(|| i1.cmp(i2))
        });
        out.extend(level);
    }
    out
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

    fn fresh(players: usize) -> Vec<Player> {
        (0..players)
            .map(|id| Player {
                id,
                rank: id,
                half_points: 0,
                colours: Vec::new(),
                opponents: Vec::new(),
                bye_eligible: true,
                floats: [Float::None; 2],
            })
            .collect()
    }

    /// Random results over `rounds` rounds: the absolute criteria hold in
    /// every round (no rematch, one bye at most, and outside the last
    /// round no colour difference beyond two nor a colour three times running).
    fn simulate(players: usize, rounds: u32, seed: u64) {
        simulate_within(players, rounds, seed, ROUND_WORK);
    }

    fn simulate_within(players: usize, rounds: u32, seed: u64, work: u64) {
        let mut rng = Rng(seed);
        let mut entrants = fresh(players);
        for round in 0..rounds {
            let last = round + 1 == rounds;
            let before: Vec<u32> = entrants.iter().map(|e| e.half_points).collect();
            let pairs = pair_within(
                &entrants,
                Round {
                    initial_colour: Colour::White,
                    played: round,
                    last,
                },
                work,
            )
            .unwrap_or_else(|| panic!("seed {seed}: round {} unpairable", round + 1));
            let mut seated = vec![false; players];
            for e in &mut entrants {
                e.floats = [Float::None, e.floats[0]];
            }
            for (white, black) in pairs {
                assert!(!seated[white]);
                seated[white] = true;
                let Some(black) = black else {
                    assert!(entrants[white].bye_eligible, "seed {seed}: a second bye");
                    entrants[white].bye_eligible = false;
                    entrants[white].half_points += 2;
                    entrants[white].floats[0] = Float::Down;
                    continue;
                };
                assert!(!seated[black]);
                seated[black] = true;
                assert!(
                    !entrants[white].opponents.contains(&black),
                    "seed {seed}: {white} and {black} meet again"
                );
                let white_half = (rng.next() % 3) as u32;
                let (w, b) = (before[white], before[black]);
                let float = |mine: u32, theirs: u32| match mine.cmp(&theirs) {
                    Ordering::Greater => Float::Down,
                    Ordering::Less => Float::Up,
                    Ordering::Equal => Float::None,
                };
                entrants[white].floats[0] = float(w, b);
                entrants[black].floats[0] = float(b, w);
                entrants[white].half_points += white_half;
                entrants[black].half_points += 2 - white_half;
                entrants[white].opponents.push(black);
                entrants[black].opponents.push(white);
                entrants[white].colours.push(Colour::White);
                entrants[black].colours.push(Colour::Black);
            }
            assert!(
                seated.iter().all(|s| *s),
                "everyone paired or given the bye"
            );
            if last {
                continue;
            }
            for e in &entrants {
                let difference: i32 = e
                    .colours
                    .iter()
                    .map(|c| if *c == Colour::White { 1 } else { -1 })
                    .sum();
                assert!(
                    !e.colours.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
                    "seed {seed}: player {} has {:?}",
                    e.id,
                    e.colours
                );
                assert!(difference.abs() <= 2, "seed {seed}: {:?}", e.colours);
            }
        }
    }

    #[test]
    fn random_events_keep_the_absolute_criteria() {
        for seed in 1..=60 {
            simulate(11, 5, seed);
        }
        for (players, rounds, seed) in [
            (8, 5, 7),
            (9, 4, 3),
            (16, 7, 11),
            (5, 4, 2),
            (12, 6, 99),
            (21, 9, 5),
            (64, 7, 3),
        ] {
            simulate(players, rounds, seed);
        }
    }

    #[test]
    fn a_round_whose_work_runs_out_still_keeps_the_absolute_criteria() {
        // No work at all: every bracket is paired by its completion matching.
        for seed in 1..=20 {
            simulate_within(11, 5, seed, 0);
        }
        for (players, rounds, seed) in [(16, 7, 11), (21, 9, 5), (40, 8, 3), (131, 9, 8)] {
            simulate_within(players, rounds, seed, 0);
            simulate_within(players, rounds, seed, 2_000);
        }
    }

    #[test]
    fn subsets_are_counted_and_listed_within_their_limit() {
        assert_eq!(choose(5, 2), 10);
        assert_eq!(choose(40, 20), 137_846_528_820);
        assert_eq!(choose(3, 4), 0);
        assert_eq!(
            combinations(4, 2, usize::MAX),
            [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
        );
        // C(40, 20) subsets are never built: only the first ones asked for.
        assert_eq!(combinations(40, 20, 3).len(), 3);
    }

    #[test]
    fn round_one_pairs_the_top_half_against_the_bottom_half() {
        // E.5: pairing number 1 has the initial colour, the boards alternate.
        let round = Round {
            initial_colour: Colour::White,
            played: 0,
            last: false,
        };
        assert_eq!(
            pair(&fresh(5), round),
            Some(vec![(0, Some(2)), (3, Some(1)), (4, None)])
        );
        let black_first = Round {
            initial_colour: Colour::Black,
            ..round
        };
        assert_eq!(
            pair(&fresh(4), black_first),
            Some(vec![(2, Some(0)), (1, Some(3))])
        );
    }

    #[test]
    fn the_bye_goes_to_the_lowest_score_that_leaves_a_pairing() {
        // 0 and 1 drew, 2 won against 3: 3 (no points) gets the bye.
        let mut players = fresh(5);
        let games = [(0, 1, 1, 1), (2, 3, 2, 0)];
        for (w, b, wp, bp) in games {
            players[w].half_points = wp;
            players[b].half_points = bp;
            players[w].colours.push(Colour::White);
            players[b].colours.push(Colour::Black);
            players[w].opponents.push(b);
            players[b].opponents.push(w);
        }
        players[4].half_points = 2;
        players[4].bye_eligible = false;
        let pairs = pair(
            &players,
            Round {
                initial_colour: Colour::White,
                played: 1,
                last: false,
            },
        )
        .expect("pairs");
        assert_eq!(pairs.last(), Some(&(3, None)), "{pairs:?}");
    }
}
