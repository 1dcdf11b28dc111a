//! The pure rules core: everything about what a player may do in a game and
//! how the game ends.
//!
//! Nothing here performs I/O or reads the clock; the current instant is
//! always passed in. Move generation comes from shakmaty: this module only
//! normalises what people type around it and applies FIDE's Laws on top.
//!
//! It also names what every layer shares (platforms, players' choices,
//! pairing systems) with their stored names ([`names::Named`]), and uses
//! no other module of the crate: storage, competition and the service
//! depend on it, never the reverse.

pub mod adjudicate;
pub mod analysis;
pub mod chess960;
pub mod choices;
pub mod clock;
pub mod command;
pub mod conditional;
pub mod digest;
pub mod event;
pub mod game;
pub mod hidden;
pub mod link;
pub mod names;
pub mod notation;
pub mod opening;
pub mod pgn;
pub mod platform;
pub mod review;
pub mod team;
pub mod tournament;
pub mod unwinnable;
pub mod variant;
pub mod vote;

#[cfg(test)]
pub(crate) mod test_positions {
    use shakmaty::fen::Fen;
    use shakmaty::{Bitboard, CastlingMode, Chess, Square};

    /// The position of a FEN the test knows to be legal.
    pub(crate) fn position(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("valid FEN");
        fen.into_position(CastlingMode::Standard)
            .expect("legal position")
    }

    /// The squares named (`["a1", "h8"]`).
    pub(crate) fn squares(names: &[&str]) -> Bitboard {
        names
            .iter()
            .map(|n| n.parse::<Square>().expect("square"))
            .collect()
    }
}
