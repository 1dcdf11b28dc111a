//! pawnpost: a self-hosted chat bot for correspondence chess.
//!
//! # Layout
//!
//! - [`core`]: the pure rules core. Move input and output in several notations
//!   and languages, commands, the game state machine, results and their
//!   precedence, the "can this side still mate?" seam and PGN. No I/O, no
//!   clock reads: time is always a parameter.
//! - [`storage`]: the [`storage::Store`] trait, with SQLite (all the SQL
//!   lives there) and in-memory implementations that pass one shared suite.
//! - [`service`]: the one place that joins store, core and messages: an act
//!   in, replies out, one transaction per act.
//! - [`i18n`]: every message a user reads, in English and French.
//! - [`render`]: pictures of games (board PNGs, game GIFs, charts, text
//!   diagrams); pure CPU, sprites prepared once per size.
//! - [`adapters`]: the console, Discord and Matrix; they only
//!   translate between a platform and the service.
//! - [`config`]: defaults, file, environment; secrets never logged.

// matrix-sdk's deeply nested futures and event types need a deeper limit.
#![recursion_limit = "256"]

pub mod adapters;
pub mod competition;
pub mod config;
pub mod core;
pub mod i18n;
pub mod render;
pub mod scheduler;
pub mod service;
pub mod storage;
