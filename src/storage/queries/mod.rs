//! Every statement of the store, written once for SQLite and PostgreSQL,
//! with the code that maps its rows (see [`super::sql`]). Each function
//! takes a [`Conn`](super::sql::Conn): the backend decides only how the
//! connection and its transaction are had.

pub mod clubs;
pub mod commit;
pub mod commit_competition;
pub mod digests;
pub mod engine_slots;
pub mod games;
pub mod identity;
pub mod ladder;
pub mod links;
pub mod matches;
pub mod outbox;
pub mod presence;
pub mod ratings;
pub mod reviews;
pub mod rows;
pub mod schedule;
pub mod teams;
pub mod tournaments;
pub mod web;
