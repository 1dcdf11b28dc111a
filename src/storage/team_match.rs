//! The stored shape of team matches: rows read back, and the changes a
//! [`Commit`](super::Commit) carries (the SQL is in `queries::matches`).

use chrono::{DateTime, Utc};

use super::{NewGame, Status};
use crate::core::game::PlayerId;
pub use crate::core::team::MatchSide;

/// Where a team match stands.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, strum::IntoStaticStr, strum::EnumString, strum::VariantArray,
)]
#[strum(serialize_all = "lowercase")]
pub enum MatchState {
    /// Proposed by the home team; the away team has not accepted yet.
    Proposed,
    /// Accepted: members sign up until it starts.
    SignUp,
    /// Its games were created.
    Running,
    /// Its last game ended.
    Over,
}

/// One side of a match as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchTeam {
    pub server_id: i64,
    /// The side's channel (store id and platform id); the away side has
    /// none until it accepts.
    pub channel: Option<(i64, String)>,
    pub team_id: i64,
    pub team_name: String,
}

/// A team match as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRow {
    pub id: i64,
    pub home: MatchTeam,
    pub away: MatchTeam,
    pub boards: u32,
    pub time_control: String,
    pub state: MatchState,
    pub created_by: PlayerId,
    pub created_at: DateTime<Utc>,
    pub version: i64,
}

impl MatchRow {
    pub fn side(&self, side: MatchSide) -> &MatchTeam {
        match side {
            MatchSide::Home => &self.home,
            MatchSide::Away => &self.away,
        }
    }

    /// The side whose server is `server_id` (the home side when both are).
    pub fn side_on(&self, server_id: i64) -> Option<MatchSide> {
        if self.home.server_id == server_id {
            Some(MatchSide::Home)
        } else if self.away.server_id == server_id {
            Some(MatchSide::Away)
        } else {
            None
        }
    }
}

/// A member signed up for a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchEntrant {
    pub player: PlayerId,
    pub name: String,
    pub platform_id: String,
    pub side: MatchSide,
    /// Their order of sign-up.
    pub seq: i64,
    pub withdrawn_at: Option<DateTime<Utc>>,
}

/// A game of a match, with how it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchGameRow {
    pub game_id: i64,
    pub board: u32,
    pub white: PlayerId,
    pub black: PlayerId,
    pub state: Status,
}

/// A new match, proposed by the home team.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMatch {
    pub home_server_id: i64,
    pub home_channel_id: i64,
    pub home_team_id: i64,
    pub away_server_id: i64,
    pub away_team_id: i64,
    pub boards: u32,
    pub time_control: String,
    pub created_by: PlayerId,
    pub at: DateTime<Utc>,
}

/// What a commit does to a match. Changes naming `expected_version` are
/// refused with `Conflict` when the match moved on since it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchChange {
    /// Its id goes into `Committed::match_id`.
    Create(NewMatch),
    /// The away side accepts in its channel.
    Accept {
        id: i64,
        expected_version: i64,
        away_channel_id: i64,
    },
    /// A member signs up (again, after a withdrawal); `Conflict` if signed up.
    Join {
        id: i64,
        player: PlayerId,
        side: MatchSide,
        at: DateTime<Utc>,
    },
    /// A member withdraws.
    Withdraw {
        id: i64,
        player: PlayerId,
        at: DateTime<Utc>,
    },
    /// The games are created, in order; their ids go into
    /// `Committed::match_games`.
    Start {
        id: i64,
        expected_version: i64,
        games: Vec<(u32, NewGame)>,
        /// Where each game's away player plays it from, in the games'
        /// order, when the sides are on two platforms (a club's match);
        /// empty otherwise.
        places: Vec<Option<super::NewGamePlace>>,
        at: DateTime<Utc>,
    },
    /// One of its games ended: the version moves on (so two ends never
    /// both miss the other), and the match is over at `over_at`.
    GameEnded {
        id: i64,
        expected_version: i64,
        over_at: Option<DateTime<Utc>>,
    },
}
