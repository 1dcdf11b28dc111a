//! Stalemate traps: squares a king can never step onto without leaving the
//! other side with no legal move.
//!
//! When one side (the "boxed" side) has nothing but its king and pawns that
//! never move, the other king's approach can take away its last moves:
//! stepping next to the boxed king, or taking the pawn that shielded one of
//! its flight squares. If every such step, from every place the pieces
//! might stand, leaves the boxed side without a move and not in check, the
//! step ends the game in stalemate and no mate ever follows it. The reach is
//! then computed again with the king barred from those squares
//! ([`Reach::barring_kings`]), which keeps structures closed that the first
//! reach saw opening (a king taking the pawn that locks a chain).
//!
//! Which squares? The test of a square needs the narrowed reach (in the
//! open reach, the king taking a locking pawn frees everything), so the
//! squares are found from above: bar every square the king might step onto,
//! compute the reach, keep only the squares whose test passes with it, and
//! repeat until every barred square passes with the reach it produced.
//!
//! Why that is sound: take any series of moves and its first step onto a
//! barred square. Before it, no barred square was entered, so every piece
//! stood where the narrowed reach allows; the test of that square holds for
//! every such placement, so the step stalemates and the game ends there. A
//! series without such a step stays inside the narrowed reach throughout.

use shakmaty::{Bitboard, Board, ByColor, Castles, Color, Role, Square, attacks};

use super::reach::{Reach, last_rank, pawn_attacks, pawn_push};

/// Rounds of testing the barred squares before giving up: each round that
/// does not settle drops at least one square.
const ROUNDS: usize = 16;

/// The reach with every king barred from its stalemate-trap squares, or
/// `None` when no square is a trap.
pub fn narrowed(reach: &Reach, castles: &Castles) -> Option<Reach> {
    let board = reach.board();
    let mut barred = ByColor::new_with(|mover: Color| {
        // Castling also moves a rook, which could give check.
        if castles.has_color(mover) || !may_be_boxed(board, !mover) {
            Bitboard::EMPTY
        } else {
            reach.king_region(mover)
        }
    });
    for _ in 0..ROUNDS {
        if barred.iter().all(|b| b.is_empty()) {
            return None;
        }
        let narrow = Reach::barring_kings(board, barred);
        let kept = ByColor::new_with(|mover| trap_squares(&narrow, mover, *barred.get(mover)));
        if kept == barred {
            return Some(narrow);
        }
        barred = kept;
    }
    None
}

/// Whether `boxed` has only its king and pawns, each pawn blocked now: the
/// side a king's step might stalemate.
fn may_be_boxed(board: &Board, boxed: Color) -> bool {
    let pieces = board.by_color(boxed);
    let pawns = pieces & board.pawns();
    let pushes = Bitboard(pawn_push(boxed, pawns.0));
    board.king_of(boxed).is_some()
        && (pieces & !board.pawns() & !board.kings()).is_empty()
        && pushes.is_subset(board.occupied())
}

/// The squares of `candidates` that `mover`'s king can never step onto (by
/// a move or a capture) without stalemating the other side, for every
/// placement of the pieces `reach` allows.
pub fn trap_squares(reach: &Reach, mover: Color, candidates: Bitboard) -> Bitboard {
    let board = reach.board();
    let boxed = !mover;
    if board.king_of(mover).is_none() || !may_be_boxed(board, boxed) {
        return Bitboard::EMPTY;
    }
    let boxed_pawns = board.by_piece(Role::Pawn.of(boxed));
    // The boxed side's pawns never move, so at the step each stands where
    // it is now, or was taken.
    if boxed_pawns
        .into_iter()
        .any(|p| reach.of_piece(p) != Bitboard::from_square(p))
    {
        return Bitboard::EMPTY;
    }
    let trap = Trap::new(reach, mover);
    // No pawn capture: no other piece of the mover ever stands where a
    // boxed pawn attacks.
    if Bitboard(pawn_attacks(boxed, boxed_pawns.0)).intersects(trap.others_reach) {
        return Bitboard::EMPTY;
    }
    candidates
        .into_iter()
        .filter(|&s| trap.stalemates(s))
        .collect()
}

/// What every stalemate check for one mover shares.
struct Trap<'a> {
    reach: &'a Reach,
    mover: Color,
    /// Pieces that never move and are never taken (before the step), but
    /// the mover's king, which makes the step.
    fixed: Bitboard,
    /// Squares the mover's pieces other than the king attack for good.
    covered: Bitboard,
    /// Where the mover's pieces other than the king might stand.
    others_reach: Bitboard,
    /// Whether the mover might ever have a piece moving along diagonals,
    /// and along ranks and files (promotions included).
    diagonal_sliders: bool,
    straight_sliders: bool,
}

impl<'a> Trap<'a> {
    fn new(reach: &'a Reach, mover: Color) -> Trap<'a> {
        let board = reach.board();
        let others = board.by_color(mover) & !board.kings();
        let others_reach = others
            .into_iter()
            .fold(Bitboard::EMPTY, |acc, p| acc | reach.of_piece(p));
        let last_rank = Bitboard(last_rank(mover));
        let promotes = (others & board.pawns())
            .into_iter()
            .any(|p| reach.of_piece(p).intersects(last_rank));
        let has = |role: Role| (others & board.by_role(role)).any();
        Trap {
            reach,
            mover,
            fixed: reach.fixed() & !board.by_piece(Role::King.of(mover)),
            covered: reach.attacked_for_good_without_king(mover),
            others_reach,
            diagonal_sliders: promotes || has(Role::Bishop) || has(Role::Queen),
            straight_sliders: promotes || has(Role::Rook) || has(Role::Queen),
        }
    }

    /// Whether the mover's king stepping onto `s` always stalemates.
    fn stalemates(&self, s: Square) -> bool {
        let board = self.reach.board();
        let boxed = !self.mover;
        let here = Bitboard::from_square(s);
        let pawns = board.by_piece(Role::Pawn.of(boxed)) & !here;
        // Every push is blocked by a piece that is still there (or by the
        // king itself).
        let pushes = Bitboard(pawn_push(boxed, pawns.0));
        if !pushes.is_subset(self.fixed | here) {
            return false;
        }
        let shelters = self.fixed & board.by_color(boxed) & !here;
        let covered = self.covered | attacks::king_attacks(s);
        let from_squares = attacks::king_attacks(s) & self.reach.king_region(self.mover);
        (self.reach.king_region(boxed) & !attacks::king_attacks(s) & !here)
            .into_iter()
            .all(|k| {
                let flights = attacks::king_attacks(k) & !shelters & !covered;
                flights.is_empty() && !self.may_discover_check(k, s, from_squares)
            })
    }

    /// Whether the king leaving one of `from_squares` for `s` might open a
    /// line from one of the mover's sliders onto the boxed king on `k`.
    fn may_discover_check(&self, k: Square, s: Square, from_squares: Bitboard) -> bool {
        // The stepping king blocks its own new square.
        let blockers = self.fixed | Bitboard::from_square(s);
        from_squares.into_iter().any(|f| {
            let line = attacks::ray(k, f);
            if line.is_empty() {
                return false;
            }
            let diagonal = k.file().distance(f.file()) == k.rank().distance(f.rank());
            let slider = if diagonal {
                self.diagonal_sliders
            } else {
                self.straight_sliders
            };
            slider && !attacks::between(k, f).intersects(blockers)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::core::test_positions::{position, squares};
    use shakmaty::Position;

    #[test]
    fn trap_square_table() {
        // (FEN, mover, squares its king can never step onto without stalemate)
        let cases = [
            // Black's king taking g2, or stepping to h2 or g5, leaves
            // White's king on h4 (or h3) and its locked pawns without a move.
            (
                "8/2b5/1b5p/b4p1P/5p1K/5Pp1/6P1/5kb1 b - - 0 1",
                Color::Black,
                Some(&["g2", "h2", "g5"][..]),
            ),
            // White's king next to a6 while Black's shuttles a5-a6.
            (
                "8/1p2B1B1/1PpB1B2/k1P5/p1P5/P7/5K2/8 w - - 0 1",
                Color::White,
                Some(&["a7", "b7"][..]),
            ),
            // Black's king stepping next to White's boxed one never stalemates
            // for good: it also leaves the squares its own attacks covered.
            ("8/8/8/8/8/6k1/7p/7K b - - 0 1", Color::Black, None),
            // Black has a knight: it always has a move, no trap at all.
            ("8/8/8/8/8/5k2/8/n4K2 w - - 0 1", Color::White, None),
        ];
        for (fen, mover, expected) in cases {
            let pos = position(fen);
            let reach = Reach::of(pos.board());
            let traps = narrowed(&reach, pos.castles()).map_or(Bitboard::EMPTY, |narrow| {
                trap_squares(&narrow, mover, Bitboard::FULL)
            });
            match expected {
                Some(names) => assert!(squares(names).is_subset(traps), "{fen}: {traps:?}"),
                None => assert!(traps.is_empty(), "{fen}: {traps:?}"),
            }
        }
    }
}
