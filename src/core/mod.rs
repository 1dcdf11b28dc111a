//! The pure rules core: everything about what a player may do in a game and
//! how the game ends.
//!
//! Nothing here performs I/O or reads the clock; the current instant is
//! always passed in. Move generation comes from shakmaty: this module only
//! normalises what people type around it and applies FIDE's Laws on top.

pub mod adjudicate;
pub mod clock;
pub mod command;
pub mod event;
pub mod game;
pub mod notation;
pub mod pgn;
pub mod unwinnable;
