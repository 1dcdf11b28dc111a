//! The stored shape of tournaments: rows read back, and the changes a
//! [`Commit`](super::Commit) carries. No SQL here (that is in `sqlite.rs`).

use chrono::{DateTime, Utc};

use super::{NewGame, Status};
use crate::core::game::PlayerId;
use crate::core::notation::Lang;

/// How a tournament pairs its players (the pure code's enum, stored by name).
pub use crate::competition::tournament::System as TournamentSystem;
/// What ranks a tournament's tied players, stored by FIDE's acronyms.
pub use crate::core::tournament::TieBreak;

/// Where a tournament stands.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[strum(serialize_all = "lowercase")]
pub enum TournamentState {
    /// Players may join and leave.
    Entry,
    Running,
    Finished,
    /// Entry closed with too few players.
    Cancelled,
}

/// A tournament as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    pub id: i64,
    pub server_id: i64,
    /// Its server's platform.
    pub platform: crate::core::platform::Platform,
    pub channel_id: i64,
    /// The platform id of its channel.
    pub channel: String,
    pub name: String,
    pub system: TournamentSystem,
    pub time_control: String,
    pub rated: bool,
    /// Swiss: rounds to play; `None` lets the system decide.
    pub rounds: Option<u32>,
    /// What a bye is worth, in half points.
    pub bye_half_points: u32,
    /// What ranks players on equal points, in order.
    pub tie_breaks: Vec<TieBreak>,
    pub max_players: Option<u32>,
    /// It starts by itself then.
    pub entry_closes_at: Option<DateTime<Utc>>,
    pub state: TournamentState,
    /// The round being played (0 before the start).
    pub round: u32,
    pub created_by: PlayerId,
    pub created_at: DateTime<Utc>,
    pub version: i64,
}

/// A tournament to create (in the entry state, round 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewTournament {
    pub server_id: i64,
    pub channel_id: i64,
    pub name: String,
    pub system: TournamentSystem,
    pub time_control: String,
    pub rated: bool,
    pub rounds: Option<u32>,
    pub bye_half_points: u32,
    pub tie_breaks: Vec<TieBreak>,
    pub max_players: Option<u32>,
    pub entry_closes_at: Option<DateTime<Utc>>,
    pub created_by: PlayerId,
    /// Its games are reviewed only once their round is over.
    pub reviews_after_round: bool,
}

/// A player in a tournament, with their current names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrantRow {
    pub player: PlayerId,
    pub name: String,
    pub platform_id: String,
    /// The language they read: their own, else their chat client's
    /// (`None`: the server's).
    pub language: Option<Lang>,
    pub joined_at: DateTime<Utc>,
    /// 1 for the top seed; set at the start.
    pub seed: Option<u32>,
    pub withdrawn_at: Option<DateTime<Utc>>,
    /// Where they play from, when they joined from another server of the
    /// tournament's club (`None`: the tournament's channel).
    pub place: Option<EntrantPlace>,
}

/// The channel an entrant of another server of the club plays from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrantPlace {
    pub channel_id: i64,
    pub server_id: i64,
    pub platform: crate::core::platform::Platform,
    /// The channel's platform id.
    pub channel: String,
}

/// How a pairing was scored when its game does not decide it.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[strum(serialize_all = "snake_case")]
pub enum PairingScore {
    /// No opponent: the player gets the tournament's bye value.
    Bye,
    /// White wins by forfeit (`+/-`).
    #[strum(serialize = "+-")]
    WhiteForfeitWin,
    /// Black wins by forfeit (`-/+`).
    #[strum(serialize = "-+")]
    BlackForfeitWin,
    /// Neither scores (`-/-`).
    #[strum(serialize = "--")]
    DoubleForfeit,
    /// Struck from the tournament: counts for nobody.
    Annulled,
}

/// One pairing as stored, with its game's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairingRow {
    pub id: i64,
    pub round: u32,
    pub board: u32,
    pub white: PlayerId,
    /// `None`: a bye.
    pub black: Option<PlayerId>,
    pub game_id: Option<i64>,
    /// The game's state (`None` without a game).
    pub game_state: Option<Status>,
    pub score: Option<PairingScore>,
}

/// A pairing to create; `game` (when given) is created and linked to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPairing {
    pub tournament_id: i64,
    pub round: u32,
    pub board: u32,
    pub white: PlayerId,
    pub black: Option<PlayerId>,
    pub game: Option<NewGame>,
    /// Where one of its players plays its game from, when that is not the
    /// game's channel (a player of another server of the club).
    pub place: Option<super::NewGamePlace>,
    pub score: Option<PairingScore>,
}

/// One write to tournament rows, in a [`Commit`](super::Commit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentChange {
    Create(NewTournament),
    /// Moves a tournament on; refused with `Conflict` unless its version is
    /// still `expected_version`. Every other change to an existing
    /// tournament comes with one, so concurrent acts cannot interleave.
    Advance {
        id: i64,
        expected_version: i64,
        state: TournamentState,
        round: u32,
    },
    /// Refused with `Conflict` if the player is already in.
    Join {
        tournament_id: i64,
        player: PlayerId,
        at: DateTime<Utc>,
        /// The channel they play from, when it is on another server of the
        /// club than the tournament's.
        channel_id: Option<i64>,
    },
    Leave {
        tournament_id: i64,
        player: PlayerId,
    },
    Seed {
        tournament_id: i64,
        player: PlayerId,
        seed: u32,
    },
    Withdraw {
        tournament_id: i64,
        player: PlayerId,
        at: DateTime<Utc>,
    },
    Pair(NewPairing),
    Score {
        pairing_id: i64,
        score: PairingScore,
    },
}

/// A tournament whose entry window has closed, as the scheduler finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DueTournament {
    pub id: i64,
    pub version: i64,
}
