//! Where each piece could ever stand: a "semi-static" over-approximation in
//! the spirit of CHA's boolean system (Ambrona, FUN 2022).
//!
//! Every piece on the board gets the set of squares it might reach by any
//! series of legal moves, computed as the least fixpoint of rules that are
//! each a necessary condition of a real move:
//!
//! - a piece steps onto a square only if no piece of its own colour is stuck
//!   there for good ("clear" squares), sliders one square at a time;
//! - a king never steps onto a square attacked by an enemy piece that can
//!   never leave and never be taken (pawns, knights, kings, adjacent sliders);
//! - a pawn pushes onto a square that both colours can clear, captures only
//!   onto a square some enemy non-king piece can reach, and may go anywhere
//!   once it reaches its last rank (promotion);
//! - two pawns facing each other on one file, neither able to leave it nor
//!   to be captured, never pass each other;
//! - a king never steps onto a square it is barred from (see
//!   [`Reach::barring_kings`]).
//!
//! The result is sound in its negative statements: a square missing from a
//! piece's set is truly out of reach. It is never complete, nor does it need
//! to be.

use shakmaty::{Bitboard, Board, ByColor, Color, Role, Square, attacks};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const FILE_AB: u64 = FILE_A | (FILE_A << 1);
const FILE_GH: u64 = FILE_H | (FILE_H >> 1);
const RANK_1: u64 = 0xff;
const RANK_8: u64 = 0xff << 56;

fn diagonal_step(b: u64) -> u64 {
    let east = b & !FILE_H;
    let west = b & !FILE_A;
    (east << 9) | (east >> 7) | (west << 7) | (west >> 9)
}

fn orthogonal_step(b: u64) -> u64 {
    ((b & !FILE_H) << 1) | ((b & !FILE_A) >> 1) | (b << 8) | (b >> 8)
}

fn king_step(b: u64) -> u64 {
    diagonal_step(b) | orthogonal_step(b)
}

fn knight_step(b: u64) -> u64 {
    let e1 = b & !FILE_H;
    let w1 = b & !FILE_A;
    let e2 = b & !FILE_GH;
    let w2 = b & !FILE_AB;
    (e1 << 17)
        | (w1 << 15)
        | (e2 << 10)
        | (w2 << 6)
        | (e1 >> 15)
        | (w1 >> 17)
        | (e2 >> 6)
        | (w2 >> 10)
}

/// The squares pawns of `color` standing on `b` push onto.
pub(super) fn pawn_push(color: Color, b: u64) -> u64 {
    match color {
        Color::White => b << 8,
        Color::Black => b >> 8,
    }
}

/// The squares pawns of `color` standing on `b` attack.
pub fn pawn_attacks(color: Color, b: u64) -> u64 {
    let east = b & !FILE_H;
    let west = b & !FILE_A;
    match color {
        Color::White => (east << 9) | (west << 7),
        Color::Black => (east >> 7) | (west >> 9),
    }
}

/// The rank where pawns of `color` promote.
pub(super) fn last_rank(color: Color) -> u64 {
    match color {
        Color::White => RANK_8,
        Color::Black => RANK_1,
    }
}

/// The squares reachable from `start` by repeated `step`s onto `allowed`.
fn flood(start: u64, allowed: u64, step: fn(u64) -> u64) -> u64 {
    let mut reach = start;
    loop {
        let next = reach | (step(reach) & allowed);
        if next == reach {
            return reach;
        }
        reach = next;
    }
}

/// The saturated reachability of every piece of a position.
pub struct Reach {
    board: Board,
    /// Indexed by the square a piece stands on now: where it might go.
    reach: [u64; 64],
    /// Squares with no piece of that colour, or whose piece might leave or
    /// be captured.
    clear: ByColor<u64>,
    /// Squares some non-king piece of that colour might reach.
    reached: ByColor<u64>,
    /// Squares on which a piece of that colour might capture.
    captures: ByColor<u64>,
    /// Squares the king of that colour is taken never to step onto.
    king_barred: ByColor<u64>,
}

impl Reach {
    /// Saturates the rules for the pieces of `board`.
    pub fn of(board: &Board) -> Reach {
        Reach::barring_kings(board, ByColor::new_with(|_| Bitboard::EMPTY))
    }

    /// Like [`Reach::of`], with each king never stepping onto its `barred`
    /// squares. Sound for every series of moves in which no king steps onto
    /// a square it is barred from: the caller proves that such a step ends
    /// the game (see [`super::stalemate_traps`]).
    pub fn barring_kings(board: &Board, barred: ByColor<Bitboard>) -> Reach {
        let mut reach = [0u64; 64];
        for sq in board.occupied() {
            reach[sq.to_usize()] = 1 << sq.to_usize();
        }
        let mut this = Reach {
            board: board.clone(),
            reach,
            clear: ByColor {
                white: !board.white().0,
                black: !board.black().0,
            },
            reached: ByColor { white: 0, black: 0 },
            captures: ByColor { white: 0, black: 0 },
            king_barred: barred.map(|b| b.0),
        };
        while this.round() {}
        this
    }

    /// One pass over every piece; whether anything grew.
    fn round(&mut self) -> bool {
        self.update_summaries();
        let mut changed = false;
        for sq in self.board.occupied() {
            let Some(piece) = self.board.piece_at(sq) else {
                continue;
            };
            let before = self.reach[sq.to_usize()];
            let after = self.expand(sq, piece.color, piece.role, before);
            if after != before {
                self.reach[sq.to_usize()] = after;
                changed = true;
            }
        }
        changed
    }

    fn update_summaries(&mut self) {
        let mut reached = ByColor { white: 0, black: 0 };
        let mut captures = ByColor { white: 0, black: 0 };
        let mut by_anyone = ByColor { white: 0, black: 0 };
        for sq in self.board.occupied() {
            let Some(piece) = self.board.piece_at(sq) else {
                continue;
            };
            let r = self.reach[sq.to_usize()];
            *by_anyone.get_mut(piece.color) |= r;
            match piece.role {
                Role::King => *captures.get_mut(piece.color) |= r,
                Role::Pawn => {
                    *reached.get_mut(piece.color) |= r;
                    let targets = pawn_attacks(piece.color, r) & *self.reached.get(!piece.color);
                    *captures.get_mut(piece.color) |= if r & last_rank(piece.color) != 0 {
                        !0
                    } else {
                        targets
                    };
                }
                _ => {
                    *reached.get_mut(piece.color) |= r;
                    *captures.get_mut(piece.color) |= r;
                }
            }
        }
        for sq in self.board.occupied() {
            let Some(piece) = self.board.piece_at(sq) else {
                continue;
            };
            let bit = 1u64 << sq.to_usize();
            let moves = self.reach[sq.to_usize()] != bit;
            let taken = by_anyone.get(!piece.color) & bit != 0;
            if moves || taken {
                *self.clear.get_mut(piece.color) |= bit;
            }
        }
        self.reached = reached;
        self.captures = captures;
    }

    fn expand(&self, from: Square, color: Color, role: Role, reach: u64) -> u64 {
        let clear = *self.clear.get(color);
        match role {
            Role::Knight => flood(reach, clear, knight_step),
            Role::Bishop => flood(reach, clear, diagonal_step),
            Role::Rook => flood(reach, clear, orthogonal_step),
            Role::Queen => flood(reach, clear, king_step),
            Role::King => {
                let barred = self.king_barred.get(color);
                let attacked = self.fixed_attacks(!color, self.board.by_color(!color).0);
                flood(reach, clear & !attacked & !barred, king_step)
            }
            Role::Pawn => self.expand_pawn(from, color, reach),
        }
    }

    fn expand_pawn(&self, from: Square, color: Color, reach: u64) -> u64 {
        if reach & last_rank(color) != 0 {
            // Promoted: a queen or knight can stand anywhere.
            return !0;
        }
        let both_clear = self.clear.white & self.clear.black;
        let mut pushes = pawn_push(color, reach) & both_clear;
        let enemy_pawns = self.board.by_piece(Role::Pawn.of(!color)).0;
        let mut facing = pushes & enemy_pawns & Bitboard::from_file(from.file()).0;
        while facing != 0 {
            let target = facing.trailing_zeros();
            facing &= facing - 1;
            if self.confronted(from, color, Square::new(target)) {
                pushes &= !(1u64 << target);
            }
        }
        let captures =
            pawn_attacks(color, reach) & *self.clear.get(color) & *self.reached.get(!color);
        reach | pushes | captures
    }

    /// Whether the pawn on `from` can never pass the enemy pawn now on
    /// `enemy`: both stay on their file and the enemy pawn is never taken.
    fn confronted(&self, from: Square, color: Color, enemy: Square) -> bool {
        let file = Bitboard::from_file(from.file()).0;
        let ours = self.reach[from.to_usize()];
        let theirs = self.reach[enemy.to_usize()];
        ours & !file == 0 && theirs & !file == 0 && theirs & self.captures.get(color) == 0
    }

    /// Squares attacked for good by `color`: by pieces that can never leave
    /// their square nor be captured, through no square that could be blocked.
    fn fixed_attacks(&self, color: Color, pieces: u64) -> u64 {
        let mut fixed = pieces & !self.clear.get(color);
        let mut attacked = 0;
        while fixed != 0 {
            let sq = Square::new(fixed.trailing_zeros());
            fixed &= fixed - 1;
            let bit = 1u64 << sq.to_usize();
            attacked |= match self.board.role_at(sq) {
                Some(Role::Pawn) => pawn_attacks(color, bit),
                Some(Role::Knight) => attacks::knight_attacks(sq).0,
                Some(Role::King | Role::Queen) => king_step(bit),
                Some(Role::Bishop) => diagonal_step(bit),
                Some(Role::Rook) => orthogonal_step(bit),
                None => 0,
            };
        }
        attacked
    }

    /// Squares attacked for good by the pieces of `color` other than its
    /// king (see [`Reach::fixed`]).
    pub fn attacked_for_good_without_king(&self, color: Color) -> Bitboard {
        let pieces = self.board.by_color(color) & !self.board.kings();
        Bitboard(self.fixed_attacks(color, pieces.0))
    }

    /// Where the piece now on `sq` might ever stand (empty if no piece).
    pub fn of_piece(&self, sq: Square) -> Bitboard {
        Bitboard(self.reach[sq.to_usize()])
    }

    /// Where the king of `color` might ever stand.
    pub fn king_region(&self, color: Color) -> Bitboard {
        self.board
            .king_of(color)
            .map_or(Bitboard::EMPTY, |king| self.of_piece(king))
    }

    /// The pieces of `color` (their squares now) that might reach a square
    /// of `region`; with `pawn_attacks`, also pawns that might attack one.
    pub fn visitors(&self, region: Bitboard, color: Color, pawn_attacks_count: bool) -> Bitboard {
        let mut visitors = Bitboard::EMPTY;
        for sq in self.board.by_color(color) {
            let r = self.reach[sq.to_usize()];
            let attacking_pawn = pawn_attacks_count
                && self.board.role_at(sq) == Some(Role::Pawn)
                && pawn_attacks(color, r) & region.0 != 0;
            if r & region.0 != 0 || attacking_pawn {
                visitors.add(sq);
            }
        }
        visitors
    }

    /// The pieces that stand where they are for good: they never move and
    /// are never captured, so they block every line through their square.
    pub fn fixed(&self) -> Bitboard {
        let white = self.board.white().0 & !self.clear.white;
        let black = self.board.black().0 & !self.clear.black;
        Bitboard(white | black)
    }

    /// The board the reach was computed for.
    pub fn board(&self) -> &Board {
        &self.board
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::test_positions::squares;
    use shakmaty::fen::Fen;

    fn board(fen: &str) -> Board {
        let fen: Fen = fen.parse().expect("valid FEN");
        fen.as_setup().board.clone()
    }

    #[test]
    fn a_free_knight_goes_everywhere() {
        let reach = Reach::of(&board("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1"));
        assert_eq!(reach.of_piece(Square::B1), Bitboard::FULL);
    }

    #[test]
    fn bishops_keep_their_colour() {
        let reach = Reach::of(&board("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"));
        assert_eq!(reach.of_piece(Square::C1), Bitboard::DARK_SQUARES);
    }

    #[test]
    fn a_locked_chain_confines_both_kings() {
        // The pawns on b4/b5, d4/d5, f4/f5, h4/h5 face each other for good.
        let reach = Reach::of(&board("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1"));
        let white_king = reach.king_region(Color::White);
        let black_king = reach.king_region(Color::Black);
        assert!(!white_king.intersects(Bitboard::from_rank(shakmaty::Rank::Sixth)));
        assert!(!black_king.intersects(Bitboard::from_rank(shakmaty::Rank::Third)));
        assert_eq!(reach.of_piece(Square::B4), squares(&["b4"]));
        // The kings can never stand next to the enemy chain's attacks.
        assert!(!white_king.contains(Square::A4) || !white_king.contains(Square::C5));
    }

    #[test]
    fn a_pawn_with_a_free_file_promotes() {
        let reach = Reach::of(&board("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"));
        assert_eq!(reach.of_piece(Square::A2), Bitboard::FULL);
    }
}
