//! Helpmate search: both sides cooperate so that the intended winner mates.
//!
//! A depth-first search over shakmaty's legal moves with CHA's depth
//! bookkeeping: progress moves ([`Variation::Reward`]) cost no depth and are
//! tried first, moves away from the mate cost three plies. When a search at
//! some depth limit ends without ever hitting the limit, every line was
//! followed to its end (mate by the loser, stalemate, material that cannot
//! mate, or a transposition already searched at least as deep): no helpmate
//! exists at all, a proof of unwinnability.
//!
//! Work is counted in nodes (positions visited), never in time.

use std::collections::HashMap;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

use super::heuristics::{Context, Corner, Variation};
use super::keys::ByKey;
use super::material;

/// The longest line searched; deeper lines count as cut short. Keeps the
/// recursion far from the stack's end.
const MAX_LINE: usize = 600;

/// The legal moves of `pos` in search order, and whether the structure is
/// (or was, higher up) semi-blocked. Kept out of the recursive frame: the
/// move list is large.
fn ordered_moves(
    pos: &Chess,
    moves: Vec<Move>,
    winner: Color,
    corner: Corner,
    was_semi_blocked: bool,
) -> (Vec<(Variation, Move)>, bool) {
    let context = Context::new(pos, winner, corner);
    let semi_blocked = context.semi_blocked() || was_semi_blocked;
    let mut ordered: Vec<(Variation, Move)> = moves
        .into_iter()
        .map(|m| (context.classify(pos, &m, was_semi_blocked), m))
        .collect();
    ordered.sort_by_key(|(variation, _)| *variation);
    (ordered, semi_blocked)
}

/// The legal moves on the heap, so the recursive frame stays small.
#[inline(never)]
fn legal_moves(pos: &Chess) -> Vec<Move> {
    pos.legal_moves().to_vec()
}

/// What one search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// A helpmate: the moves from the searched position.
    Mate(Vec<Move>),
    /// Every line ended before the depth limit without a mate.
    NoMate,
    /// The depth limit or the node budget cut some line short.
    Unknown,
}

type Table = HashMap<u64, i32, ByKey>;

/// A helpmate search towards mate by `winner`, spending at most a budget of
/// nodes over all its calls.
pub struct Search {
    winner: Color,
    corner: Corner,
    max_depth: i32,
    /// Nodes of the current iteration, and the cap on them.
    iteration_nodes: u64,
    iteration_limit: u64,
    /// Nodes of every call so far, and the cap on them.
    nodes: u64,
    budget: u64,
    interrupted: bool,
    /// Position key → plies left when it was searched without a mate.
    table: Option<Table>,
    line: Vec<Move>,
}

/// Past this many plies, progress no longer earns extra depth (CHA's guard
/// against endless rewarded lines).
const REWARD_HORIZON: usize = 400;

impl Search {
    pub fn new(winner: Color, budget: u64) -> Search {
        Search {
            winner,
            corner: Corner::Far,
            max_depth: 0,
            iteration_nodes: 0,
            iteration_limit: 0,
            nodes: 0,
            budget,
            interrupted: false,
            table: None,
            line: Vec::new(),
        }
    }

    /// Drives the loser's king to `corner` from now on.
    pub fn set_corner(&mut self, corner: Corner) {
        self.corner = corner;
    }

    /// Nodes spent so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the whole budget is spent.
    pub fn exhausted(&self) -> bool {
        self.nodes >= self.budget
    }

    /// A short search without transposition table, depth `max_depth`
    /// stretched by progress, at most `node_limit` nodes.
    pub fn shallow(&mut self, pos: &Chess, max_depth: i32, node_limit: u64) -> Found {
        self.table = None;
        self.run(pos, max_depth, node_limit)
    }

    /// Iterative deepening with a transposition table until a mate, a proof
    /// that none exists, or the budget is spent.
    pub fn deepening(&mut self, pos: &Chess) -> Found {
        self.table = Some(Table::default());
        for max_depth in 2..=1000 {
            let found = self.run(pos, max_depth, 10_000);
            if found != Found::Unknown || self.exhausted() {
                return found;
            }
        }
        Found::Unknown
    }

    fn run(&mut self, pos: &Chess, max_depth: i32, per_depth: u64) -> Found {
        self.max_depth = max_depth;
        self.iteration_nodes = 0;
        self.iteration_limit = per_depth.saturating_mul(max_depth as u64);
        self.interrupted = false;
        self.line.clear();
        if self.find_mate(pos, 0, false, false) {
            Found::Mate(std::mem::take(&mut self.line))
        } else if self.interrupted {
            Found::Unknown
        } else {
            Found::NoMate
        }
    }

    fn find_mate(
        &mut self,
        pos: &Chess,
        depth: i32,
        past_progress: bool,
        was_semi_blocked: bool,
    ) -> bool {
        let moves_left = self.max_depth - depth;
        let key = self
            .table
            .as_ref()
            .map(|_| pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0);
        if let (Some(table), Some(key)) = (&self.table, key)
            && table.get(&key).is_some_and(|&seen| seen >= moves_left)
        {
            return false;
        }
        if material::cannot_mate(pos, self.winner) {
            return false;
        }
        let moves = legal_moves(pos);
        if moves.is_empty() {
            return pos.is_check() && pos.turn() != self.winner;
        }
        if depth >= self.max_depth
            || self.iteration_nodes > self.iteration_limit
            || self.line.len() >= MAX_LINE
            || self.exhausted()
        {
            self.interrupted = true;
            return false;
        }
        if let (Some(table), Some(key)) = (&mut self.table, key) {
            table.insert(key, moves_left);
        }
        let (ordered, semi_blocked) =
            ordered_moves(pos, moves, self.winner, self.corner, was_semi_blocked);

        for (mut variation, m) in ordered {
            if self.line.len() > REWARD_HORIZON && variation == Variation::Reward {
                variation = Variation::Normal;
            }
            let next_depth = match variation {
                Variation::Reward => depth,
                Variation::Punish => self.max_depth.min(depth + 3),
                Variation::Normal if past_progress => depth,
                Variation::Normal => depth + 1,
            };
            let mut child = pos.clone();
            child.play_unchecked(m);
            self.line.push(m);
            self.nodes += 1;
            self.iteration_nodes += 1;
            if self.find_mate(
                &child,
                next_depth,
                variation == Variation::Reward,
                semi_blocked,
            ) {
                return true;
            }
            self.line.pop();
        }
        false
    }
}

/// Whether every line of `depth` plies from `pos` ends in a position where
/// `winner` cannot mate (CHA's "dynamically unwinnable"). Fails fast: the
/// first line that survives to the horizon settles it.
pub fn all_lines_fail(
    pos: &Chess,
    winner: Color,
    depth: u32,
    nodes: &mut u64,
    node_limit: u64,
) -> bool {
    if material::cannot_mate(pos, winner) {
        return true;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return !(pos.is_check() && pos.turn() != winner);
    }
    if depth == 0 || *nodes >= node_limit {
        return false;
    }
    moves.into_iter().all(|m| {
        *nodes += 1;
        let mut child = pos.clone();
        child.play_unchecked(m);
        all_lines_fail(&child, winner, depth - 1, nodes, node_limit)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::core::test_positions::position;

    fn mates(pos: &Chess, winner: Color, line: &[Move]) -> bool {
        let mut pos = pos.clone();
        for m in line {
            if !pos.is_legal(*m) {
                return false;
            }
            pos.play_unchecked(*m);
        }
        pos.is_checkmate() && pos.turn() != winner
    }

    #[test]
    fn finds_short_helpmates() {
        let cases = [
            ("k7/8/1K6/8/8/8/8/7R w - - 0 1", Color::White),
            ("8/8/4k3/8/8/3K4/3R4/8 b - - 0 1", Color::White),
            ("8/8/8/8/8/K7/8/k1r1N3 b - - 0 1", Color::White),
            ("8/8/8/8/8/K7/8/k1r1N3 b - - 0 1", Color::Black),
        ];
        for (fen, winner) in cases {
            let pos = position(fen);
            let mut search = Search::new(winner, 1_000_000);
            match search.deepening(&pos) {
                Found::Mate(line) => assert!(mates(&pos, winner, &line), "{fen}"),
                other => panic!("{fen}: {other:?}"),
            }
        }
    }

    #[test]
    fn proves_no_helpmate_when_material_goes() {
        // K+N against K+Q: the queen takes any mating knight.
        let pos = position("k7/8/8/8/8/8/8/KN5q w - - 0 1");
        let mut nodes = 0;
        assert!(all_lines_fail(&pos, Color::White, 7, &mut nodes, 10_000));
        let mut search = Search::new(Color::White, 100_000);
        assert_eq!(search.deepening(&pos), Found::NoMate);
    }
}
