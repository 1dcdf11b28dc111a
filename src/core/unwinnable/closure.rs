//! Exhaustive exploration of every position reachable from a position, a
//! proof by enumeration when that set is small.
//!
//! Locked structures keep the game inside a finite, often small, set of
//! positions: pawns that cannot move, pieces boxed in by their own pawns,
//! kings that walk but can never cross a chain. A breadth-first walk over
//! real legal moves, remembering every position met, either finds a mate
//! by the winner (the shortest helpmate, as a line), or runs out of new
//! positions without one: no series of legal moves leads to that mate.
//!
//! The walk stops early where a proof is already at hand: material that can
//! never mate, and, after a move that changes the structure (a capture, a
//! pawn move), the static reasoning. Positions are told apart by a 128-bit
//! Zobrist key (placement, side to move, castling rights, en passant), so a
//! collision, which would wrongly skip a position, is out of reach in
//! practice.

use std::collections::{HashSet, VecDeque};

use shakmaty::{Chess, Color, Move, Position};

use super::keys::{ByKey, position_key};
use super::move_tree::MoveTree;
use super::{material, static_reasoning};

/// What the walk found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Closure {
    /// A mate by the winner: the moves from the starting position.
    Mate(Vec<Move>),
    /// Every reachable position was met and none is a mate by the winner.
    NoMate,
    /// More than the limit of positions: nothing proved.
    TooLarge,
}

type Seen = HashSet<u128, ByKey>;

/// Walks every position reachable from `pos`, up to `limit` positions.
pub fn explore(pos: &Chess, winner: Color, limit: usize) -> Closure {
    if pos.is_checkmate() {
        return if pos.turn() != winner {
            Closure::Mate(Vec::new())
        } else {
            Closure::NoMate
        };
    }
    let mut seen = Seen::default();
    seen.insert(position_key(pos));
    // How each position met was reached: its parent's index and the move.
    let mut tree = MoveTree::new();
    let mut queue = VecDeque::from([(pos.clone(), 0u32)]);
    while let Some((parent, index)) = queue.pop_front() {
        for m in parent.legal_moves() {
            let mut child = parent.clone();
            child.play_unchecked(m);
            if !seen.insert(position_key(&child)) {
                continue;
            }
            if seen.len() > limit {
                return Closure::TooLarge;
            }
            let child_index = tree.add(index, m);
            if child.legal_moves().is_empty() {
                if child.is_check() && child.turn() != winner {
                    return Closure::Mate(tree.line_to(child_index));
                }
                continue;
            }
            if material::cannot_mate(&child, winner) {
                continue;
            }
            let structure_changed = m.is_capture() || m.role() == shakmaty::Role::Pawn;
            if structure_changed && static_reasoning::proves_unwinnable(&child, winner) {
                continue;
            }
            queue.push_back((child, child_index));
        }
    }
    Closure::NoMate
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::core::test_positions::position;

    #[test]
    fn closed_sets() {
        // (FEN, winner, mate expected: Some(true), proof: Some(false), too large: None)
        let cases = [
            // Rook behind its own king and pawns: boxed in for good.
            (
                "2k5/6p1/6P1/6PK/6P1/6PR/7P/8 b - - 0 1",
                Color::White,
                Some(false),
            ),
            // A rook on an open board: a mate exists, found as a line.
            ("k7/8/1K6/8/8/8/8/7R w - - 0 1", Color::White, Some(true)),
            // A queen on an open board: far too many positions.
            ("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", Color::White, None),
        ];
        for (fen, winner, expected) in cases {
            let pos = position(fen);
            match (explore(&pos, winner, 20_000), expected) {
                (Closure::Mate(line), Some(true)) => {
                    let mut after = pos.clone();
                    for m in line {
                        after.play_unchecked(m);
                    }
                    assert!(after.is_checkmate() && after.turn() != winner, "{fen}");
                }
                (Closure::NoMate, Some(false)) | (Closure::TooLarge, None) => {}
                (other, _) => panic!("{fen}: {other:?}"),
            }
        }
    }
}
