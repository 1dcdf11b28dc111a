//! Competitions, as pure code: Glicko-2 ratings, standings, the challenge
//! ladder, tournament pairings (round robin, Swiss, knockout, Scheveningen),
//! team matches
//! and tie-breaks. No I/O, no clock reads: instants are parameters. The
//! service joins this with the store. It uses the core's vocabulary
//! (results, player ids, the pairing [`System`](tournament::System)); the
//! core never uses it.

pub mod dutch;
pub mod glicko2;
pub mod knockout;
pub mod ladder;
pub mod matching;
pub mod round_robin;
pub mod standings;
pub mod team_match;
pub mod tiebreak;
pub mod tournament;
