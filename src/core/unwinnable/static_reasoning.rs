//! Proofs without search: from where pieces could ever stand ([`Reach`]),
//! show that no mate by the intended winner can ever happen.
//!
//! A mate needs a checking piece of the winner attacking a square the
//! loser's king can reach. Sliders and knights attacking a square reach it
//! in the over-approximation (the king's square is clearable), pawns attack
//! it from a square they reach. So:
//!
//! 1. no winner's piece can attack the loser king's region → unwinnable;
//! 2. only pawns that never promote can check on a square → a pawn checks
//!    from next to the king, so some other piece of the winner must be able
//!    to protect it there;
//! 3. only bishops of one square colour can → every flight square of the
//!    other colour next to the king must hold a loser's piece or be covered
//!    by the winner's king (from one of the places it might stand), and the
//!    diagonal the bishop does not check along must be covered too.
//!
//! When no square of the region passes, the position is unwinnable. Lines
//! are drawn through the pieces that stand for good ([`Reach::fixed`]).

use shakmaty::{Bitboard, Chess, Color, Position, Role, Square, attacks};

use super::reach::{Reach, pawn_attacks};
use super::stalemate_traps;

/// Whether the static reasoning proves `winner` can never mate in `pos`.
pub fn proves_unwinnable(pos: &Chess, winner: Color) -> bool {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        // Mate by the winner already happened, or the game is over.
        return !(pos.is_check() && pos.turn() != winner);
    }
    // The reach ignores the en passant right of this very move.
    if moves.iter().any(|m| m.is_en_passant()) {
        return false;
    }
    let reach = Reach::of(pos.board());
    if no_mating_square(&reach, winner) {
        return true;
    }
    stalemate_traps::narrowed(&reach, pos.castles())
        .is_some_and(|narrow| no_mating_square(&narrow, winner))
}

fn no_mating_square(reach: &Reach, winner: Color) -> bool {
    let board = reach.board();
    let loser = !winner;
    let region = reach.king_region(loser);
    let winner_king = board.by_piece(Role::King.of(winner));
    let visitors = reach.visitors(region, winner, true) & !winner_king;
    if visitors.is_empty() {
        return true;
    }
    let mating = Mating {
        reach,
        winner,
        region,
        visitors,
        king_reach: winner_king
            .first()
            .map_or(Bitboard::EMPTY, |k| reach.of_piece(k)),
        loser_pieces: board.by_color(loser) & !board.kings(),
        fixed: reach.fixed(),
    };
    region.into_iter().all(|s| !mating.possible_on(s))
}

/// What the reach says about a mate of the loser's king.
struct Mating<'a> {
    reach: &'a Reach,
    winner: Color,
    /// Where the loser's king might stand.
    region: Bitboard,
    /// The winner's pieces (not the king) that might attack that region.
    visitors: Bitboard,
    /// Where the winner's king might stand.
    king_reach: Bitboard,
    /// The loser's pieces other than the king: the possible blockers.
    loser_pieces: Bitboard,
    /// Pieces that block lines for good.
    fixed: Bitboard,
}

impl Mating<'_> {
    /// Whether the piece now on `piece` might ever attack a square of
    /// `targets` (over-approximated: lines blocked only by the pieces that
    /// stand for good).
    fn might_attack(&self, piece: Square, targets: Bitboard) -> bool {
        let board = self.reach.board();
        let reach = self.reach.of_piece(piece);
        let Some(role) = board.role_at(piece) else {
            return false;
        };
        let color = board.color_at(piece).unwrap_or(self.winner);
        let promotes = role == Role::Pawn && reach.intersects(Bitboard::BACKRANKS);
        if promotes {
            return true;
        }
        let from: Bitboard = match role {
            // A pawn of `color` attacks `t` from where a pawn of the other
            // colour standing on `t` would attack.
            Role::Pawn => Bitboard(pawn_attacks(!color, targets.0)),
            _ => targets.into_iter().fold(Bitboard::EMPTY, |acc, t| {
                acc | attacks::attacks(t, role.of(color), self.fixed)
            }),
        };
        reach.intersects(from)
    }

    /// Whether the pieces on `pieces` are pawns that never promote.
    fn pawns_for_good(&self, pieces: Bitboard) -> bool {
        let board = self.reach.board();
        pieces.into_iter().all(|p| {
            board.role_at(p) == Some(Role::Pawn)
                && !self.reach.of_piece(p).intersects(Bitboard::BACKRANKS)
        })
    }

    /// Whether a mate of the loser's king on `s` passes every test.
    fn possible_on(&self, s: Square) -> bool {
        let board = self.reach.board();
        let here = Bitboard::from_square(s);
        let checkers: Bitboard = self
            .visitors
            .into_iter()
            .filter(|&v| self.might_attack(v, here))
            .collect();
        if checkers.is_empty() {
            return false;
        }
        if self.pawns_for_good(checkers) {
            // A pawn checks from next to the king, which takes it unless
            // another piece of the winner protects it.
            return checkers.into_iter().any(|pawn| {
                let from = self.reach.of_piece(pawn) & Bitboard(pawn_attacks(!self.winner, here.0));
                from.into_iter().any(|p| self.protected(p, pawn))
            });
        }
        let around = attacks::king_attacks(s) | here;
        let relevant: Bitboard = self
            .visitors
            .into_iter()
            .filter(|&v| self.might_attack(v, around))
            .collect();
        let bishops = board.bishops();
        if !relevant.is_subset(bishops) {
            return true;
        }
        let colour = if relevant.is_subset(Bitboard::DARK_SQUARES) {
            Bitboard::DARK_SQUARES
        } else if relevant.is_subset(Bitboard::LIGHT_SQUARES) {
            Bitboard::LIGHT_SQUARES
        } else {
            return true;
        };
        self.bishop_mate_possible(s, checkers, relevant, colour)
    }

    /// Whether some piece of the winner other than `pawn` might protect `p`.
    fn protected(&self, p: Square, pawn: Square) -> bool {
        let target = Bitboard::from_square(p);
        if self.king_reach.intersects(attacks::king_attacks(p)) {
            return true;
        }
        let board = self.reach.board();
        (board.by_color(self.winner) & !board.kings())
            .into_iter()
            .filter(|&q| q != pawn)
            .any(|q| self.might_attack(q, target))
    }

    /// The counting test of a mate on `s` by bishops of one square colour.
    fn bishop_mate_possible(
        &self,
        s: Square,
        checkers: Bitboard,
        bishops: Bitboard,
        colour: Bitboard,
    ) -> bool {
        let neighbours = attacks::king_attacks(s) & self.region;
        // The winner's king covers flight squares only from two squares
        // away; each place it might stand covers its own squares.
        let ring = attacks::king_attacks(s)
            .into_iter()
            .fold(Bitboard::EMPTY, |acc, n| acc | attacks::king_attacks(n))
            & !attacks::king_attacks(s)
            & !Bitboard::from_square(s);
        std::iter::once(Bitboard::EMPTY)
            .chain(
                (self.king_reach & ring)
                    .into_iter()
                    .map(|w| attacks::king_attacks(w) & neighbours),
            )
            .any(|covered| self.bishop_mate_with(s, checkers, bishops, colour, covered))
    }

    /// The counting test when the winner's king covers `covered`.
    fn bishop_mate_with(
        &self,
        s: Square,
        checkers: Bitboard,
        bishops: Bitboard,
        colour: Bitboard,
        covered: Bitboard,
    ) -> bool {
        let neighbours = attacks::king_attacks(s) & self.region;
        let escapes = neighbours & !colour;
        let blockers_of = |squares: Bitboard| -> Bitboard {
            self.loser_pieces
                .into_iter()
                .filter(|&p| self.reach.of_piece(p).intersects(squares))
                .collect()
        };
        let unblockable = (escapes & !covered)
            .into_iter()
            .any(|e| blockers_of(Bitboard::from_square(e)).is_empty());
        if unblockable {
            return false;
        }
        let open = escapes & !covered;
        if open.count() > blockers_of(open).count() {
            return false;
        }
        if checkers.count() >= 2 || bishops.count() >= 2 {
            return true;
        }
        // One bishop: it covers the diagonal it checks along; the other
        // one's squares next to the king need blockers (or the king).
        let diagonals = attacks::bishop_attacks(s, Bitboard::EMPTY);
        let same_colour = neighbours & colour;
        let mut cheapest = usize::MAX;
        for n in same_colour {
            let line = attacks::ray(s, n) & diagonals;
            let other = (same_colour & !line & !covered).count();
            cheapest = cheapest.min(other);
        }
        if cheapest == usize::MAX {
            cheapest = 0;
        }
        open.count() + cheapest <= blockers_of(neighbours & !covered).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::core::test_positions::position;

    #[test]
    fn static_table() {
        // (FEN, white proved unwinnable, black proved unwinnable)
        let cases = [
            // A locked chain, one bishop each behind it.
            (
                "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1",
                true,
                true,
            ),
            // Open board: a lone king proves nothing for white.
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false, true),
            // Black's pawns check only unprotected, next to the king that
            // takes them; the boxed bishop blocks nothing.
            (
                "1b1k4/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/3K4 w - - 0 1",
                true,
                true,
            ),
            // One dark bishop: the light flight squares outnumber Black's
            // blockers, and White's king, stuck on a1, covers none of them.
            ("k7/1b6/8/8/8/1pB5/pP6/K7 w - - 0 1", true, true),
            // Rook behind its own king: the reach lets it pass the king, so
            // only the search can tell (neither side can mate).
            ("2k5/6p1/6P1/6PK/6P1/6PR/7P/8 b - - 0 1", false, false),
            // Winnable, though a king step seems to stalemate: the stepping
            // king's attacks from the square it leaves do not last (a
            // stalemate-trap rule once counted them).
            (
                "k1bK4/1p1p4/1PpPp3/2P1Pp2/2p1pP2/2p1P3/2P5/8 w - - 0 1",
                false,
                false,
            ),
            (
                "5brk/4p1p1/3pP1P1/1B1P2p1/3p2p1/3P4/4K1P1/8 w - - 0 1",
                false,
                false,
            ),
            (
                "k1bK4/1p1p4/1P1Pp3/4Pp2/1p3P2/1p6/1P6/8 w - - 0 1",
                false,
                false,
            ),
            ("8/6p1/6Pp/7K/5k1P/8/8/8 b - - 0 1", false, false),
            ("8/8/8/8/8/6k1/7p/7K b - - 0 1", true, false),
        ];
        for (fen, white, black) in cases {
            let pos = position(fen);
            assert_eq!(proves_unwinnable(&pos, Color::White), white, "{fen} white");
            assert_eq!(proves_unwinnable(&pos, Color::Black), black, "{fen} black");
        }
    }
}
