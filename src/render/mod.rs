//! Pictures of games: pure CPU work, no I/O.
//!
//! For now a text diagram for the console; board PNGs come with the image
//! renderer.

pub mod text;
