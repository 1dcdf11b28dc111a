//! Best-first helpmate search: for long mates the depth-first search cannot
//! reach, such as a king walking the length of the board while the winner's
//! pieces step out of its way.
//!
//! Positions wait in a queue ordered by how far the loser's king still is
//! from its mating corner ([`Corner`]), then by the winner's pieces standing
//! in that corner or guarding it, and, once the king is there, by its free
//! flight squares; ties go first-in first-out, so each plateau (the winner
//! clearing a square, the loser bringing a blocker) is searched
//! breadth-first and every step closer is followed at once. Only a mate it
//! finds is used: proofs by exhaustion are the closure walk's job
//! ([`super::closure`]), whose breadth-first order is cheaper.
//!
//! Memory is a few dozen bytes per position met: a node (parent, move), a
//! queue entry and a 128-bit key; positions are rebuilt from the root when
//! taken from the queue.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Square, attacks};

use super::heuristics::{Corner, loser_king_target};
use super::keys::{ByKey, position_key};
use super::material;
use super::move_tree::MoveTree;

/// The most positions one search keeps (about 50 bytes each).
const MAX_POSITIONS: u64 = 2_000_000;

/// A mating line for `winner` from `pos` found within `budget` positions,
/// driving the loser's king to `corner`.
pub fn find_mate(pos: &Chess, winner: Color, corner: Corner, budget: u64) -> Option<Vec<Move>> {
    let budget = budget.min(MAX_POSITIONS);
    let target = loser_king_target(pos.board(), winner, corner);
    let mut tree = MoveTree::new();
    let mut seen: HashSet<u128, ByKey> = HashSet::default();
    seen.insert(position_key(pos));
    let mut queue = BinaryHeap::from([Reverse((0u32, 0u32))]);
    while let Some(Reverse((_, index))) = queue.pop() {
        let line = tree.line_to(index);
        let mut parent = pos.clone();
        for &m in &line {
            parent.play_unchecked(m);
        }
        for m in parent.legal_moves() {
            if tree.len() as u64 >= budget {
                return None;
            }
            let mut child = parent.clone();
            child.play_unchecked(m);
            if !seen.insert(position_key(&child)) || material::cannot_mate(&child, winner) {
                continue;
            }
            let child_index = tree.add(index, m);
            if child.is_check() && child.legal_moves().is_empty() {
                if child.turn() != winner {
                    return Some(tree.line_to(child_index));
                }
                continue;
            }
            if let Some(distance) = distance_to_mate(&child, winner, target) {
                queue.push(Reverse((distance, child_index)));
            }
        }
    }
    None
}

/// How far `pos` looks from a mate on `target`: the loser king's distance
/// to it, then its free flight squares there.
fn distance_to_mate(pos: &Chess, winner: Color, target: Square) -> Option<u32> {
    let board = pos.board();
    let king = board.king_of(!winner)?;
    let distance = king.distance(target);
    // The winner's pieces in the corner stand in the king's way.
    let corner = attacks::king_attacks(target) | Bitboard::from_square(target);
    let in_the_way = (board.by_color(winner) & !board.kings() & corner).count() as u32
        + guards(board, winner, target);
    if distance > 0 {
        return Some(16 * distance + 4 * in_the_way);
    }
    let occupied = board.occupied() ^ Bitboard::from_square(king);
    let free = (attacks::king_attacks(king) & !board.by_color(!winner))
        .into_iter()
        .filter(|&s| board.attacks_to(s, winner, occupied).is_empty())
        .count() as u32;
    Some(free + 4 * in_the_way)
}

/// The winner's pieces attacking `target` through each other (a battery
/// counts every piece of it): each must step aside before the king can
/// enter.
fn guards(board: &Board, winner: Color, target: Square) -> u32 {
    let theirs = board.by_color(winner);
    let see_through = board.occupied() & !(theirs & !board.pawns() & !board.kings());
    board.attacks_to(target, winner, see_through).count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::core::test_positions::position;

    #[test]
    fn a_long_walk_into_the_corner() {
        // White's bishops all on one colour: Black's king walks from a8 to
        // h8 and its own bishops wall it in (a helpmate of about two dozen plies).
        let fen = "k6B/1b4B1/2b2B2/4B3/3B4/1pB1B3/pP1B4/K7 w - - 0 1";
        let pos = position(fen);
        let line = find_mate(&pos, Color::White, Corner::Far, 2_000_000).expect("a mate");
        let mut after = pos.clone();
        for m in &line {
            assert!(after.is_legal(*m), "{fen}: {line:?}");
            after.play_unchecked(*m);
        }
        assert!(after.is_checkmate() && after.turn() == Color::Black);
    }
}
