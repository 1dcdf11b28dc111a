//! "Can this side still checkmate by any series of legal moves?"
//!
//! Three rules depend on the answer: a dead position is a draw at once
//! (5.2.2), a flag falls to a draw when the opponent cannot mate (6.9), and
//! so does a resignation (5.1.2). Every rule asks through this one seam.
//!
//! For now the answer comes from material alone (shakmaty's per-side
//! insufficient-material test, which is sound: it never calls a winnable
//! side unwinnable). A full analyzer with helpmate search and static
//! reasoning about locked pawns replaces it later behind the same functions.

use shakmaty::{Chess, Color, Position};

/// Whether `side` could still deliver checkmate with the opponent's help.
///
/// Errs towards `true`: when in doubt the side keeps its winning chances.
pub fn can_still_mate(pos: &Chess, side: Color) -> bool {
    !pos.has_insufficient_material(side)
}

/// A dead position (5.2.2): neither side can mate by any series of legal moves.
pub fn is_dead_position(pos: &Chess) -> bool {
    !can_still_mate(pos, Color::White) && !can_still_mate(pos, Color::Black)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn position(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("valid FEN");
        fen.into_position(CastlingMode::Standard)
            .expect("legal position")
    }

    #[test]
    fn material_table() {
        // (FEN, white can mate, black can mate)
        let cases = [
            ("8/8/4k3/8/8/3K4/3Q4/8 w - - 0 1", true, false),
            ("8/8/8/8/8/K7/8/k1r1N3 b - - 0 1", true, true),
            ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", false, false),
            ("5bk1/8/8/8/8/8/1B6/4K3 b - - 0 1", false, false),
            ("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true, true),
            ("8/8/4k3/8/8/3K4/3N4/7q w - - 0 1", false, true),
        ];
        for (fen, white, black) in cases {
            let pos = position(fen);
            assert_eq!(can_still_mate(&pos, Color::White), white, "{fen} white");
            assert_eq!(can_still_mate(&pos, Color::Black), black, "{fen} black");
        }
    }
}
