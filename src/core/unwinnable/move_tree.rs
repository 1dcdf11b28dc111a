//! The positions a search met, each kept as its parent and the move from
//! it: a few bytes per position, and any line read back from the root.

use shakmaty::Move;

/// Index 0 is the starting position.
pub(super) struct MoveTree(Vec<(u32, Option<Move>)>);

impl MoveTree {
    /// A tree holding only the starting position.
    pub(super) fn new() -> MoveTree {
        MoveTree(vec![(0, None)])
    }

    /// Records the position reached by `m` from the one at `parent`; its index.
    pub(super) fn add(&mut self, parent: u32, m: Move) -> u32 {
        self.0.push((parent, Some(m)));
        (self.0.len() - 1) as u32
    }

    /// How many positions are recorded.
    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    /// The moves from the starting position to the one at `index`.
    pub(super) fn line_to(&self, mut index: u32) -> Vec<Move> {
        let mut line = Vec::new();
        while let (parent, Some(m)) = self.0[index as usize] {
            line.push(m);
            index = parent;
        }
        line.reverse();
        line
    }
}
