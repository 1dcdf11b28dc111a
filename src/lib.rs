//! pawnpost: a self-hosted chat bot for correspondence chess.
//!
//! # Layout
//!
//! - [`core`]: the pure rules core. Move input and output in several notations
//!   and languages, the command language (one table, [`core::command`],
//!   that the text parser, Discord's registration, `/help` and the docs'
//!   reference all read), the game state machine, results and their
//!   precedence, the "can this side still mate?" seam, PGN, and the
//!   vocabulary every layer shares: [`core::platform::Platform`], what
//!   players choose ([`core::choices`]), the pairing systems
//!   ([`core::tournament`]), and stored names ([`core::names::Named`],
//!   derived); vote chess's count ([`core::vote`]), team names and the
//!   sides of a team match ([`core::team`]). No I/O, no clock reads: time
//!   is always a parameter.
//! - [`storage`]: the one [`storage::Store`]: every statement written once
//!   and run on SQLite (a file) or PostgreSQL (several processes), both
//!   passing one shared suite.
//! - [`competition`]: ratings, standings, the ladder, tournament
//!   pairings and team matches' boards and score, as pure code; it uses
//!   the core, the core never uses it.
//! - [`service`]: the one place that joins store, core and messages: a
//!   [`service::Request`] in, replies out with their board images drawn,
//!   one transaction per act. It defines what its callers implement:
//!   [`service::Notifier`] and [`service::TimeSource`]. What others must
//!   receive is queued in the outbox in the act's own commit; the adapter
//!   that answered says so ([`service::Service::answered`]), else a worker
//!   delivers it after a hold, under ids the platforms deduplicate.
//! - [`i18n`]: every message a user reads, in English and French.
//! - [`scheduler`]: sleeps until the next stored deadline, then has the
//!   service end what is due; the notices that causes wait in the outbox
//!   (written in the same commits) until the service hands them to a
//!   notifier. Apart from it, when asked to, it has games reviewed as
//!   they end.
//! - [`engine`]: a UCI engine (Stockfish) as a subprocess, for the reviews
//!   of finished games: fixed nodes per position, bounded answers; the
//!   service queues work for it.
//! - [`render`]: pictures of games (board PNGs, game GIFs, charts, text
//!   diagrams); pure CPU, sprites prepared once per size.
//! - [`adapters`]: the console, Discord and Matrix; they only
//!   translate between a platform and the service, reading commands from
//!   the core's table (they name none themselves).
//! - [`config`]: defaults, file, environment; secrets never logged.

// matrix-sdk's deeply nested futures and event types need a deeper limit.
#![recursion_limit = "256"]

pub mod adapters;
pub mod competition;
pub mod config;
pub mod core;
pub mod engine;
pub mod i18n;
pub mod render;
pub mod scheduler;
pub mod service;
pub mod storage;
