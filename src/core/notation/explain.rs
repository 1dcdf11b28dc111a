//! Why no legal move matches what a player wrote, and which moves to
//! suggest instead.
//!
//! The reasons are worked out pseudo-legally from the board and shakmaty's
//! attack tables; the legal moves themselves always come from shakmaty.

use shakmaty::{
    Bitboard, CastlingSide, Chess, Color, EnPassantMode, File, Move, MoveList, Piece, Position,
    Rank, Role, Square, attacks,
};

use super::read::{Spec, Target};
use super::{IllegalReason, MoveInputError};

/// Why no legal move fits `spec`, with the legal moves of the piece meant.
pub(super) fn explain(pos: &Chess, spec: &Spec, legal: &MoveList) -> MoveInputError {
    match spec {
        Spec::Castle(side) => refuse_castling(pos, *side, legal),
        Spec::Piece(target) => refuse_piece_move(pos, target, legal),
    }
}

fn illegal(reason: IllegalReason, hints: Vec<Move>) -> MoveInputError {
    MoveInputError::Illegal { reason, hints }
}

fn refuse_castling(pos: &Chess, side: CastlingSide, legal: &MoveList) -> MoveInputError {
    let reason = if pos.castles().has(pos.turn(), side) {
        IllegalReason::CastlingNotNow
    } else {
        IllegalReason::CastlingRightsLost
    };
    illegal(reason, moves_from(legal, pos.our(Role::King)))
}

/// The legal moves starting on one of `origins`.
fn moves_from(legal: &MoveList, origins: Bitboard) -> Vec<Move> {
    legal
        .iter()
        .copied()
        .filter(|m| m.from().is_some_and(|from| origins.contains(from)))
        .collect()
}

fn refuse_piece_move(pos: &Chess, target: &Target, legal: &MoveList) -> MoveInputError {
    let kind = pieces_of_kind(pos, target);
    let origins = kind & origin_mask(target);
    if origins.is_empty() {
        // `Nhf3` when the knight stands on g1: suggest the ones that can go there.
        let hints = moves_from(legal, kind)
            .into_iter()
            .filter(|m| target.lands_on(*m))
            .collect();
        return illegal(IllegalReason::NoSuchPiece, hints);
    }
    let fitting: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| target.fits_squares(*m))
        .collect();
    if !fitting.is_empty() {
        // Only the promotion is wrong: the moves that fit show the choices.
        return illegal(IllegalReason::BadPromotion, fitting);
    }
    if let Some(side) = castling_meant(pos, origins, target.to) {
        return refuse_castling(pos, side, legal);
    }
    let (reason, meant) = why_unreachable(pos, origins, target.to);
    let meant = meant.unwrap_or_else(|| piece_meant_anyway(pos, target, origins));
    illegal(reason, moves_from(legal, meant))
}

/// The pieces to suggest moves for when none of those the text may be
/// about could get to its square even on an empty board. A named piece
/// (`Nf4`) or file (`exd3`): all of them. A bare pawn square (`e5`): only
/// the pawn on that file that would walk there, if any; other pawns were not
/// meant.
fn piece_meant_anyway(pos: &Chess, target: &Target, origins: Bitboard) -> Bitboard {
    let is_pawn_move = target.role.is_none_or(|role| role == Role::Pawn);
    if !is_pawn_move || target.from_file.is_some() {
        return origins;
    }
    let to = target.to;
    let behind = origins & Bitboard::from_file(to.file()) & !Bitboard::from_square(to);
    // The nearest pawn behind the target square, seen from the side to move.
    let nearest = if pos.turn() == Color::White {
        behind
            .into_iter()
            .filter(|sq| sq.rank() < to.rank())
            .max_by_key(|sq| sq.rank())
    } else {
        behind
            .into_iter()
            .filter(|sq| sq.rank() > to.rank())
            .min_by_key(|sq| sq.rank())
    };
    nearest.map_or(Bitboard::EMPTY, Bitboard::from_square)
}

/// Our pieces the text could be about, before its origin square is looked at.
fn pieces_of_kind(pos: &Chess, target: &Target) -> Bitboard {
    match target.role {
        Some(role) => pos.our(role),
        None if target.has_full_origin() => pos.us(),
        None => pos.our(Role::Pawn),
    }
}

/// The squares the text's disambiguation (file, rank or both) allows.
fn origin_mask(target: &Target) -> Bitboard {
    let mut mask = Bitboard::FULL;
    if let Some(file) = target.from_file {
        mask &= Bitboard::from_file(file);
    }
    if let Some(rank) = target.from_rank {
        mask &= Bitboard::from_rank(rank);
    }
    mask
}

/// Whether a king move written from the king's home square to a castling
/// square (`Kg1`, `e1g1`, `e1h1`, `Kc1`) meant castling: then the answer is
/// about castling, not about a king that cannot jump two squares.
fn castling_meant(pos: &Chess, origins: Bitboard, to: Square) -> Option<CastlingSide> {
    let us = pos.turn();
    let king = pos.board().king_of(us)?;
    let home = Square::from_coords(File::E, us.backrank());
    if !origins.contains(king) || king != home || to.rank() != home.rank() {
        return None;
    }
    match to.file() {
        File::G | File::H => Some(CastlingSide::KingSide),
        File::A | File::C => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// Why none of the pieces on `origins` can legally go to `to`, with the
/// pieces that got furthest (`None` when none could get there even on an
/// empty board).
fn why_unreachable(
    pos: &Chess,
    origins: Bitboard,
    to: Square,
) -> (IllegalReason, Option<Bitboard>) {
    let board = pos.board();
    // Pawns capture what stands there, or en passant behind a double step.
    let en_passant = pos
        .ep_square(EnPassantMode::PseudoLegal)
        .map_or(Bitboard::EMPTY, Bitboard::from_square);
    let capturable = pos.them() | en_passant;
    let reaching = |occupied: Bitboard, capturable: Bitboard| -> Option<Bitboard> {
        let found: Bitboard = origins
            .into_iter()
            .filter(|from| {
                board
                    .piece_at(*from)
                    .is_some_and(|piece| reach(piece, *from, to, occupied, capturable))
            })
            .collect();
        (!found.is_empty()).then_some(found)
    };
    if pos.us().contains(to) {
        // Only a piece that could get there at all is stopped by its own
        // piece; `e8=Q` by a pawn on e2 simply cannot reach e8.
        return match reaching(Bitboard::EMPTY, capturable | Bitboard::from_square(to)) {
            Some(meant) => (IllegalReason::OwnPieceOnTarget, Some(meant)),
            None => (IllegalReason::CannotReach, None),
        };
    }
    if let Some(meant) = reaching(board.occupied(), capturable) {
        // Pseudo-legal yet not legal: the own king would stand in check.
        (IllegalReason::KingInCheck, Some(meant))
    } else if let Some(meant) = reaching(Bitboard::EMPTY, capturable) {
        (IllegalReason::PathBlocked, Some(meant))
    } else {
        (IllegalReason::CannotReach, None)
    }
}

/// Whether `piece` on `from` could go to `to` with `occupied` in the way,
/// pseudo-legally (checks on the own king are not considered). Pawn
/// captures need something on `capturable` whatever the occupancy: a pawn
/// capture is never "blocked", it has nothing to take.
fn reach(piece: Piece, from: Square, to: Square, occupied: Bitboard, capturable: Bitboard) -> bool {
    if piece.role != Role::Pawn {
        return attacks::attacks(from, piece, occupied).contains(to);
    }
    if attacks::pawn_attacks(piece.color, from).contains(to) {
        return capturable.contains(to);
    }
    pawn_push_reaches(piece.color, from, to, occupied)
}

fn pawn_push_reaches(color: Color, from: Square, to: Square, occupied: Bitboard) -> bool {
    let step = if color == Color::White { 8 } else { -8 };
    let Some(one) = from.offset(step) else {
        return false;
    };
    if one == to {
        return !occupied.contains(to);
    }
    // The double step only from the pawn's own second rank.
    let second = if color == Color::White {
        Rank::Second
    } else {
        Rank::Seventh
    };
    from.rank() == second
        && one.offset(step) == Some(to)
        && !occupied.contains(one)
        && !occupied.contains(to)
}
