//! Move ordering for the helpmate search: which moves bring a mate of the
//! loser's king closer (searched first and deeper) and which lead away
//! (searched later and shallower). Pure heuristics: they change how fast a
//! mate is found, never whether the search is sound.
//!
//! The picture, after CHA: the loser's king walks to a corner on the
//! winner's side of the board, of the colour the winner's bishops need; its
//! own piece blocks the exit; the winner's king stands two squares away and
//! a winner's piece checks along the corner's lines.

use std::sync::OnceLock;

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Rank, Role, Square};

use super::material;

/// Which corner the search drives the loser's king to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corner {
    /// On the winner's relative eighth rank (CHA's choice): usually where the
    /// loser's king already is.
    Far,
    /// The same corner turned half a turn (same square colour), on the
    /// winner's own side: for kings that cannot reach the far side.
    Near,
    /// The corner nearest the loser's king, whatever its colour: for mates
    /// by a promoted piece where the king already stands.
    Home,
}

/// How a move is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Variation {
    /// Progress: searched first, one ply deeper.
    Reward,
    /// Neutral.
    Normal,
    /// Away from the mate: searched last, two plies shallower.
    Punish,
}

/// Knight-move distances between every pair of squares.
fn knight_distances() -> &'static [[u8; 64]; 64] {
    static TABLE: OnceLock<Box<[[u8; 64]; 64]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Box::new([[u8::MAX; 64]; 64]);
        for from in 0..64 {
            let row = &mut table[from];
            row[from] = 0;
            let mut frontier = vec![Square::new(from as u32)];
            let mut distance = 0u8;
            while !frontier.is_empty() {
                distance += 1;
                let mut next = Vec::new();
                for sq in frontier {
                    for to in shakmaty::attacks::knight_attacks(sq) {
                        if row[to.to_usize()] == u8::MAX {
                            row[to.to_usize()] = distance;
                            next.push(to);
                        }
                    }
                }
                frontier = next;
            }
        }
        table
    })
}

fn knight_distance(a: Square, b: Square) -> u8 {
    knight_distances()[a.to_usize()][b.to_usize()]
}

/// The square the moved piece should head for (see the module comment).
fn target(board: &Board, moved: Role, winner: Color, winners_turn: bool, corner: Corner) -> Square {
    let winner_bishops = board.by_piece(Role::Bishop.of(winner));
    let loser_bishops = board.by_piece(Role::Bishop.of(!winner));
    let dark_corner = winner_bishops.intersects(Bitboard::DARK_SQUARES)
        || (winner_bishops.is_empty() && loser_bishops.intersects(Bitboard::LIGHT_SQUARES));
    let king = moved == Role::King;
    let mut target = match (winners_turn, king) {
        (true, true) => Square::H6,
        (true, false) => Square::H8,
        (false, true) => Square::H8,
        (false, false) => Square::G8,
    };
    if corner == Corner::Home {
        let home = board.king_of(!winner).unwrap_or(Square::H8);
        if home.file() < shakmaty::File::E {
            target = target.flip_horizontal();
        }
        if home.rank() < Rank::Fifth {
            target = target.flip_vertical();
        }
        return target;
    }
    if !dark_corner {
        target = target.flip_horizontal();
    }
    if (winner == Color::Black) != (corner == Corner::Near) {
        target = target.flip_vertical().flip_horizontal();
    }
    target
}

/// The square the loser's king is driven to.
pub(super) fn loser_king_target(board: &Board, winner: Color, corner: Corner) -> Square {
    target(board, Role::King, winner, false, corner)
}

/// Whether the move brings a slow piece closer to `target`.
fn approaches(m: &Move, target: Square, role: Role, bishops_count: bool) -> bool {
    let Some(from) = m.from() else {
        return false;
    };
    let to = m.to();
    match role {
        Role::King => to.distance(target) < from.distance(target),
        Role::Bishop if bishops_count => to.distance(target) < from.distance(target),
        Role::Knight => knight_distance(to, target) < knight_distance(from, target),
        _ => false,
    }
}

fn is_advanced_pawn_push(m: &Move, turn: Color) -> bool {
    m.role() == Role::Pawn
        && m.from().is_some_and(|from| {
            let rank = from.rank().to_u32();
            let relative = if turn == Color::White { rank } else { 7 - rank };
            relative > Rank::Fifth.to_u32()
        })
}

/// Facts about a position that every move's classification uses.
pub struct Context {
    winner: Color,
    corner: Corner,
    winners_turn: bool,
    needs_loser_promotion: bool,
    /// Only pawns and bishops, at least four blocked pawns, none lonely.
    blocked_bishop_ending: bool,
    /// The square between two pawns facing each other one square apart.
    semi_blocked_target: Option<Square>,
}

impl Context {
    pub fn new(pos: &Chess, winner: Color, corner: Corner) -> Context {
        let board = pos.board();
        let only_pawns_and_bishops = (board.knights() | board.rooks() | board.queens()).is_empty();
        let blocked_bishop_ending = only_pawns_and_bishops
            && material::blocked_pawns(board) >= 4
            && !material::has_lonely_pawns(board);
        let white = board.by_piece(Role::Pawn.of(Color::White));
        let black = board.by_piece(Role::Pawn.of(Color::Black));
        let between = white.shift(8) & black.shift(-8);
        Context {
            winner,
            corner,
            winners_turn: pos.turn() == winner,
            needs_loser_promotion: material::needs_loser_promotion(board, winner),
            blocked_bishop_ending,
            semi_blocked_target: between.first(),
        }
    }

    pub fn semi_blocked(&self) -> bool {
        self.semi_blocked_target.is_some()
    }

    /// How to search `m`; `was_semi_blocked` is inherited from the parents.
    pub fn classify(&self, pos: &Chess, m: &Move, was_semi_blocked: bool) -> Variation {
        let board = pos.board();
        let moved = m.role();
        let target = target(board, moved, self.winner, self.winners_turn, self.corner);
        let mut variation = Variation::Normal;
        if self.winners_turn {
            if is_advanced_pawn_push(m, pos.turn())
                || m.is_capture()
                || approaches(m, target, moved, false)
            {
                variation = Variation::Reward;
            }
        } else {
            if self.needs_loser_promotion {
                let heavy = matches!(m.promotion(), Some(Role::Queen | Role::Rook));
                variation = if moved == Role::Pawn && !heavy {
                    Variation::Reward
                } else {
                    Variation::Punish
                };
            }
            if approaches(m, target, moved, false) {
                variation = Variation::Reward;
            } else if m.is_capture() {
                variation = Variation::Punish;
            }
        }
        if self.blocked_bishop_ending {
            if self.semi_blocked() || was_semi_blocked {
                variation = if m.is_capture() && self.winners_turn {
                    Variation::Reward
                } else if moved == Role::King {
                    match self.semi_blocked_target {
                        Some(t) if approaches(m, t, moved, false) => Variation::Reward,
                        _ => Variation::Normal,
                    }
                } else {
                    Variation::Punish
                };
            } else if approaches(m, target, moved, true)
                && board.by_piece(Role::Bishop.of(!self.winner)).count() > 1
            {
                variation = Variation::Reward;
            }
        }
        variation
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knight_distances_are_symmetric_and_small() {
        assert_eq!(knight_distance(Square::A1, Square::A1), 0);
        assert_eq!(knight_distance(Square::A1, Square::B3), 1);
        assert_eq!(knight_distance(Square::A1, Square::B2), 4);
        assert_eq!(knight_distance(Square::A1, Square::H8), 6);
        for a in Square::ALL {
            for b in Square::ALL {
                assert_eq!(knight_distance(a, b), knight_distance(b, a));
            }
        }
    }

    #[test]
    fn corners_follow_the_winner_and_the_bishops() {
        let board = Board::new();
        let king = |winner, corner| target(&board, Role::King, winner, false, corner);
        assert_eq!(king(Color::White, Corner::Far), Square::H8);
        assert_eq!(king(Color::Black, Corner::Far), Square::A1);
        assert_eq!(king(Color::White, Corner::Near), Square::A1);
        // The loser's king on e8, or on e1: the nearest corner on its side.
        assert_eq!(king(Color::White, Corner::Home), Square::H8);
        assert_eq!(king(Color::Black, Corner::Home), Square::H1);
    }
}
