//! pawnpost: a self-hosted chat bot for correspondence chess.
//!
//! # Layout
//!
//! - [`core`]: the pure rules core. Move input and output in several notations
//!   and languages, the game state machine, results and their precedence,
//!   the "can this side still mate?" seam and PGN. No I/O, no clock reads:
//!   time is always a parameter.
//!
//! Later parts (storage, the service that joins store and core, the
//! scheduler, the renderer and the chat adapters) build on [`core`] and never
//! re-implement a rule.

pub mod core;
