//! What the stores keep of each server's challenge ladder: its ranking with
//! every player's last activity, and the ladder challenges with the game
//! each became and how it counted. The rules live in
//! [`crate::competition::ladder`]; these are only rows.

use chrono::{DateTime, Utc};

use crate::core::game::PlayerId;

/// One place on a ladder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderEntry {
    pub player: PlayerId,
    pub name: String,
    /// When the player joined or last finished a ladder game.
    pub active_at: DateTime<Utc>,
    /// The person the account is (its linked accounts' first).
    pub person: PlayerId,
}

/// A server's ladder, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderRow {
    pub server_id: i64,
    /// Bumped by every change; 0 before the first player joins.
    pub version: i64,
    pub entries: Vec<LadderEntry>,
}

/// A server's whole new ranking, best first, with each player's last
/// activity; refused with `Conflict` unless the ladder is still at
/// `expected_version`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderWrite {
    pub server_id: i64,
    pub expected_version: i64,
    pub entries: Vec<(PlayerId, DateTime<Utc>)>,
}

/// Where a ladder challenge stands; the last six are settled.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, strum::IntoStaticStr, strum::EnumString, strum::VariantArray,
)]
#[strum(serialize_all = "snake_case")]
pub enum LadderMatchStatus {
    /// The challenge waits for the defender.
    Pending,
    /// The game runs.
    Playing,
    ChallengerWon,
    DefenderWon,
    Drawn,
    /// Not accepted in time, or declined: the challenger won by forfeit.
    Forfeited,
    /// The challenger cancelled the challenge.
    Withdrawn,
    /// The game was aborted: nothing counts.
    Aborted,
}

impl LadderMatchStatus {
    /// Whether the challenge is still under way (waiting or being played).
    pub fn is_unsettled(self) -> bool {
        matches!(
            self,
            LadderMatchStatus::Pending | LadderMatchStatus::Playing
        )
    }
}

/// A ladder challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderMatchRow {
    pub id: i64,
    /// The ladder's server: a club's founding server for a club's ladder.
    pub server_id: i64,
    /// The ordinary challenge it made.
    pub challenge_id: i64,
    /// The server the challenge was made on (its news goes there, on that
    /// server's platform, which may not be the ladder's).
    pub challenge_server: i64,
    /// The platform id of the challenge's channel (where its news goes).
    pub channel: String,
    /// The game, once accepted.
    pub game_id: Option<i64>,
    pub challenger: PlayerId,
    pub defender: PlayerId,
    pub status: LadderMatchStatus,
    /// The defender forfeits unless they accept before this.
    pub accept_by: DateTime<Utc>,
}

/// A ladder challenge to record with the commit's new challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewLadderMatch {
    pub server_id: i64,
    pub challenger: PlayerId,
    pub defender: PlayerId,
    pub accept_by: DateTime<Utc>,
}

/// A ladder challenge moving on; refused with `Conflict` unless it is
/// still `from`. With `link_new_game`, it records the commit's new game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LadderMatchUpdate {
    pub id: i64,
    pub from: LadderMatchStatus,
    pub to: LadderMatchStatus,
    pub link_new_game: bool,
}

impl LadderMatchUpdate {
    /// The game to record on the ladder challenge: the commit's new game
    /// when `link_new_game` (which must then exist), else none.
    pub fn game_to_link(&self, committed: &super::Committed) -> super::Result<Option<i64>> {
        if !self.link_new_game {
            return Ok(None);
        }
        committed
            .game_id
            .map(Some)
            .ok_or_else(|| super::StorageError::Backend("no new game to link".into()))
    }
}

/// A ladder player whose last activity is old enough to look at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdleRung {
    pub server_id: i64,
    pub player: PlayerId,
    pub active_at: DateTime<Utc>,
}
