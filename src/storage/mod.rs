//! Persistence: one [`Store`] type, whichever the database: [`sqlite`] (a
//! file, or `:memory:` through the same [`sqlite::SqliteStore::open`]) or
//! [`postgres`] (one database shared by several processes). Every statement
//! is written once, in `queries`, over the values and rows of [`sql`];
//! the backends only open connections and run transactions. One suite
//! (`suite.rs`) runs on both.
//!
//! Every write an act makes goes through one call, [`Store::commit`], which
//! the implementation performs as one transaction: it checks the act's
//! idempotency key, applies the [`Commit`] (refusing with
//! [`StorageError::Conflict`] when a game or challenge changed since it was
//! read), stores the act's answer and commits. Reads happen before, outside
//! the transaction; optimistic versions make that safe with several
//! processes.
//!
//! A refused act is committed too, as a [`Commit`] with only its key: its
//! answer is stored and nothing else changes, so a replay is refused alike
//! even if the game has moved on since.
//!
//! A game is loaded only if its moves add up ([`check_moves`]): a damaged
//! file or a bad restore is [`StorageError::Corrupt`], never a shorter game
//! that takes new moves.
//!
//! A driver's failure keeps its kind and its cause: [`StorageError::Busy`],
//! [`DiskFull`](StorageError::DiskFull), [`ReadOnly`](StorageError::ReadOnly),
//! [`Unavailable`](StorageError::Unavailable) and
//! [`Damaged`](StorageError::Damaged) carry the rusqlite / tokio-postgres
//! error as their source, so the service can tell the user what happened.
//!
//! The store's futures are `Send`, so the service can run on a
//! multi-threaded runtime. SQLite's work is done in place (handing the
//! worker's other tasks over on a multi-threaded runtime); PostgreSQL's
//! driver is async.

mod ladder;
pub mod migrations;
pub mod postgres;
mod queries;
pub mod sql;
pub mod sqlite;
mod store;
mod team_match;
mod tournament;
pub mod transfer;

pub use queries::teams::STAND_IN_PREFIX;
pub use queries::web::{VERSIONS_AT_ONCE, fresh_token, is_token};
pub use store::Store;

#[cfg(test)]
pub mod suite;

pub(crate) use crate::core::platform::Platform;

use chrono::{DateTime, SubsecRound, Utc};
use serde::{Deserialize, Serialize};
use shakmaty::Color;

use crate::core::clock::Clock;
use crate::core::conditional::Conditionals;
use crate::core::event::{GameResult, Reason};
use crate::core::game::{DrawRules, Note, PlayerId};
use crate::core::notation::{Lang, Letters};
use crate::core::variant::Variant;

/// What players choose, stored by name (defined with the commands that carry them).
pub use crate::core::choices::{ColorChoice, Notify};
/// Whether a game goes on, and how it ended: the core's, stored as it is.
pub use crate::core::game::Status;
pub use ladder::{
    IdleRung, LadderEntry, LadderMatchRow, LadderMatchStatus, LadderMatchUpdate, LadderRow,
    LadderWrite, NewLadderMatch,
};
pub use team_match::{
    MatchChange, MatchEntrant, MatchGameRow, MatchRow, MatchSide, MatchState, MatchTeam, NewMatch,
};
pub use tournament::{
    DueTournament, EntrantPlace, EntrantRow, NewPairing, NewTournament, PairingRow, PairingScore,
    TieBreak, TournamentChange, TournamentRow, TournamentState, TournamentSystem,
};

pub type Result<T, E = StorageError> = std::result::Result<T, E>;

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// A game or challenge changed since it was read: reload and try again.
    #[error("the data changed meanwhile")]
    Conflict,
    /// The act's idempotency key was committed by someone else meanwhile.
    #[error("act {0} was already processed")]
    DuplicateAct(String),
    #[error("not found: {0}")]
    NotFound(&'static str),
    /// Another connection held the database's lock longer than we wait
    /// (SQLite "database is locked/busy", PostgreSQL `lock_not_available`).
    #[error("the database is busy: {0}")]
    Busy(#[source] DriverError),
    /// The database's disk is full: nothing can be written until space is freed.
    #[error("the database's disk is full: {0}")]
    DiskFull(#[source] DriverError),
    /// The database refuses writes (a read-only file, a standby server).
    #[error("the database is read-only: {0}")]
    ReadOnly(#[source] DriverError),
    /// The database cannot be reached (connection lost, server shutting down).
    #[error("the database cannot be reached: {0}")]
    Unavailable(#[source] DriverError),
    /// The database itself reports damaged pages or indexes.
    #[error("the database reports damage: {0}")]
    Damaged(#[source] DriverError),
    /// Any other driver error, kept whole.
    #[error("database: {0}")]
    Driver(#[source] DriverError),
    /// A failure of our own around the database (a poisoned lock, a value
    /// that cannot be encoded), with no driver error behind it.
    #[error("database: {0}")]
    Backend(String),
    #[error("migration {version}: {message}")]
    Migration { version: usize, message: String },
    /// Stored data that does not add up by our own checks (moves missing,
    /// a value that does not read back), or a damaged SQLite file at open.
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
}

/// A database driver's error (rusqlite, tokio-postgres, deadpool), kept as
/// the source of a [`StorageError`] so logs show the whole chain.
pub type DriverError = Box<dyn std::error::Error + Send + Sync + 'static>;

impl StorageError {
    /// A short, stable name of the failure's kind, for the operator's logs.
    pub fn kind(&self) -> &'static str {
        match self {
            StorageError::Conflict => "conflict",
            StorageError::DuplicateAct(_) => "duplicate-act",
            StorageError::NotFound(_) => "not-found",
            StorageError::Busy(_) => "busy",
            StorageError::DiskFull(_) => "disk-full",
            StorageError::ReadOnly(_) => "read-only",
            StorageError::Unavailable(_) => "unavailable",
            StorageError::Damaged(_) => "damaged",
            StorageError::Driver(_) => "driver",
            StorageError::Backend(_) => "backend",
            StorageError::Migration { .. } => "migration",
            StorageError::Corrupt(_) => "corrupt",
        }
    }
}

/// An instant as every store keeps it: to the millisecond, as the RFC 3339
/// text SQLite stores has it. Instants read back from a store are the ones
/// written, truncated so (except inside a [`Note`], which is kept whole).
pub fn to_stored_precision(at: DateTime<Utc>) -> DateTime<Utc> {
    at.trunc_subsecs(3)
}

/// Refuses a game whose moves do not add up: the row counts `plies`, and
/// its move rows must be exactly plies 1, 2, 3… up to that count. A lost
/// row (a damaged page) would otherwise rebuild an earlier position that
/// then takes new moves.
pub fn check_moves(game: i64, plies: u32, moves: &[MoveRow]) -> Result<()> {
    if moves.len() != plies as usize {
        return Err(StorageError::Corrupt(format!(
            "game {game} moves: {plies} counted, {} stored",
            moves.len()
        )));
    }
    match moves.iter().zip(1..).find(|(m, n)| m.ply != *n) {
        Some((m, n)) => Err(StorageError::Corrupt(format!(
            "game {game} moves: move {n} stored as ply {}",
            m.ply
        ))),
        None => Ok(()),
    }
}

/// A game read by [`Store::game_page`]: its record, or why it cannot be
/// read (as loading it for an act would refuse it).
#[derive(Debug)]
pub struct PagedGame {
    pub id: i64,
    pub record: Result<GameRecord>,
}

/// Defaults a server row gets when it is first seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerDefaults {
    pub time_control: String,
}

/// A community: a Discord guild, a Matrix space or homeserver, a console "server".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerRow {
    pub id: i64,
    pub platform: Platform,
    pub platform_id: String,
    /// The language a moderator chose for its public messages; `None`:
    /// the configured default, whatever it is when a message is written.
    pub chosen_language: Option<Lang>,
    pub time_control: String,
    pub draw_rules: DrawRules,
    pub moderator_role: Option<String>,
    /// Whether its moderators opened its server-wide pages to the web
    /// (`/settings web on`).
    pub web_pages: bool,
}

/// A place where games are played: a channel, thread or room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChannelRow {
    pub id: i64,
    pub server_id: i64,
    pub platform_id: String,
}

/// A person, per platform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    pub id: PlayerId,
    pub platform: Platform,
    pub platform_id: String,
    pub display_name: String,
    /// The player's own language; `None` follows the server's.
    pub language: Option<Lang>,
    pub notify: Notify,
    /// Their chat client's language at their latest act, if it is one of ours.
    pub client_language: Option<Lang>,
    /// How they read moves and settle letters (`/settings notation`, answers).
    pub notation: PlayerNotation,
    /// The person this account is: their first account's id (this one's
    /// own id unless it was linked to another with `/link`).
    pub person: PlayerId,
    /// Their IANA time zone (`/settings timezone`); `None`: UTC.
    pub time_zone: Option<String>,
    /// Their daily digest's local time, minutes after midnight; `None`: none.
    pub digest_minute: Option<u32>,
}

impl PlayerRow {
    /// The language to write to this player in: their own choice, else
    /// their chat client's, else `server`'s.
    pub fn reading_language(&self, server: Lang) -> Lang {
        self.language.or(self.client_language).unwrap_or(server)
    }
}

/// How a player's move texts are read: the notation they said they write,
/// and the letters they settled by answering which reading they meant.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerNotation {
    /// English, French or German; `None`: auto, every reading.
    pub notation: Option<Lang>,
    /// Letters settled by their answers.
    pub letters: Letters,
    /// The question about a letter's reading asked last, until answered
    /// (the service's JSON; the store keeps it as it is).
    pub question: Option<String>,
}

impl PlayerNotation {
    /// Every letter settled for this player: their notation's, and their
    /// answers' where it has none.
    pub fn settled(&self) -> Letters {
        self.notation
            .map(Letters::of_notation)
            .unwrap_or_default()
            .or(self.letters)
    }
}

/// Where a challenge stands.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum ChallengeStatus {
    Open,
    Accepted,
    Declined,
    Cancelled,
    Expired,
}

/// A proposed game, open to anyone in the channel or to one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRow {
    pub id: i64,
    pub server_id: i64,
    pub channel_id: i64,
    pub challenger: PlayerId,
    /// `None` for an open challenge.
    pub challenged: Option<PlayerId>,
    pub color: ColorChoice,
    pub time_control: String,
    pub rated: bool,
    pub variant: Variant,
    pub start_fen: Option<String>,
    pub status: ChallengeStatus,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    /// A game begun elsewhere: its moves so far (UCI, space-separated).
    pub start_moves: Option<String>,
}

/// A move as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    /// 1 for the game's first move.
    pub ply: u32,
    pub uci: String,
    /// English SAN with suffix.
    pub san: String,
    pub played_at: DateTime<Utc>,
    pub draw_offer: bool,
}

/// Everything stored about one game: enough to rebuild its [`Game`].
///
/// [`Game`]: crate::core::game::Game
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub id: i64,
    pub server_id: i64,
    pub channel_id: i64,
    pub white: PlayerId,
    pub black: PlayerId,
    /// Both players as they are now (names for messages, ids for mentions).
    pub white_player: PlayerRow,
    pub black_player: PlayerRow,
    /// The platform id of the channel the game lives in.
    pub channel: String,
    /// The game's clock; `None` for no clock.
    pub clock: Option<Clock>,
    /// The next reminder for the player to move, if any.
    pub remind_at: Option<DateTime<Utc>>,
    /// Each player's conditional moves, seen only by their writer.
    pub conditionals: Conditionals,
    pub variant: Variant,
    /// Whether it is a board of a team match (never changes once created).
    pub team_match: bool,
    /// Whether it is a ladder challenge's game (linked in the commit that
    /// creates it, and never unlinked).
    pub ladder_match: bool,
    /// Whether a tournament paired it (likewise).
    pub tournament_game: bool,
    pub start_fen: Option<String>,
    pub time_control: String,
    pub rated: bool,
    pub draw_rules: DrawRules,
    pub created_at: DateTime<Utc>,
    pub state: Status,
    pub pending_offer: Option<Color>,
    /// Bumped by every saved change; a save names the version it read.
    pub version: i64,
    pub moves: Vec<MoveRow>,
    pub notes: Vec<Note>,
}

impl GameRecord {
    /// Whether it belongs to a tournament, a ladder challenge or a team match.
    pub fn is_in_competition(&self) -> bool {
        self.team_match || self.ladder_match || self.tournament_game
    }

    /// The player who has `side`.
    pub fn player(&self, side: Color) -> &PlayerRow {
        match side {
            Color::White => &self.white_player,
            Color::Black => &self.black_player,
        }
    }
}

/// A line of a player's game list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    pub id: i64,
    pub channel_id: i64,
    pub white: PlayerId,
    pub black: PlayerId,
    pub white_name: String,
    pub black_name: String,
    /// The side to move (meaningful while the game goes on).
    pub turn: Color,
    pub plies: u32,
    pub state: Status,
}

/// A challenge to create.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewChallenge {
    pub server_id: i64,
    pub channel_id: i64,
    pub challenger: PlayerId,
    pub challenged: Option<PlayerId>,
    pub color: ColorChoice,
    pub time_control: String,
    pub rated: bool,
    pub variant: Variant,
    pub start_fen: Option<String>,
    pub expires_at: DateTime<Utc>,
    /// A game begun elsewhere: its moves so far (UCI, space-separated).
    pub start_moves: Option<String>,
    /// A vote game (a team plays a side): whether members may change their
    /// vote before the move is played. `None` between two players.
    pub votes_changeable: Option<bool>,
}

/// A challenge leaving the open state; refused with `Conflict` unless it is still open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChallengeClosing {
    pub id: i64,
    pub to: ChallengeStatus,
}

/// A game to create (from an accepted challenge).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    pub server_id: i64,
    pub channel_id: i64,
    pub white: PlayerId,
    pub black: PlayerId,
    pub variant: Variant,
    pub start_fen: Option<String>,
    pub time_control: String,
    pub rated: bool,
    pub draw_rules: DrawRules,
    /// The side to move at the start.
    pub turn: Color,
    pub challenge_id: Option<i64>,
    /// The game's clock; `None` for no clock.
    pub clock: Option<Clock>,
    /// When the player to move is first reminded.
    pub remind_at: Option<DateTime<Utc>>,
    /// A game begun elsewhere (continued, or imported whole); `None` for a
    /// game that starts now.
    pub history: Option<Box<GameHistory>>,
}

/// What a game brought from elsewhere already holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameHistory {
    pub started_at: DateTime<Utc>,
    pub moves: Vec<MoveRow>,
    pub notes: Vec<Note>,
    /// How it ended, for an imported finished game.
    pub ending: Option<(GameResult, Reason, DateTime<Utc>)>,
}

/// What an act changed in a game: rows to append and the new state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameUpdate {
    pub id: i64,
    /// The version the act read; the save is refused if it moved on.
    pub expected_version: i64,
    pub new_moves: Vec<MoveRow>,
    pub new_notes: Vec<Note>,
    pub state: Status,
    pub pending_offer: Option<Color>,
    pub turn: Color,
    /// The clock after the act (its deadline is indexed for the scheduler).
    pub clock: Option<Clock>,
    /// The next reminder for the player to move, if any.
    pub remind_at: Option<DateTime<Utc>>,
    /// How the save moves the game's indexed wake-up.
    pub wake_up: WakeUp,
    /// Both players' conditional moves after the act (none once it ends).
    pub conditionals: Conditionals,
    /// A takeback: the moves and notes the store keeps before appending
    /// `new_moves` and `new_notes` (the rest are removed). `None`: keep all.
    pub truncate_to: Option<(u32, u32)>,
}

/// How a save of a running game moves its wake-up (the sooner of its flag
/// and its reminder), which the scheduler finds through an index.
///
/// A player's move nearly always puts the next alarm later (a new day per
/// move, say); rewriting the index entry for that would cost every move a
/// page or two more to write and sync. So a player's act only ever brings
/// the stored wake-up forward: it stays at or before the true alarm, the
/// scheduler may wake early, and then sets it exactly
/// ([`crate::storage::Store::rearm_wake_up`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WakeUp {
    /// Brought forward if the new alarm is sooner than the stored wake-up,
    /// otherwise left as it is.
    #[default]
    NoLater,
    /// Set to the new alarm: for the scheduler, which holds a claim on the
    /// game and knows it is attending to it now.
    Exact,
}

/// A note a player keeps on one of their games, seen only by them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrivateNote {
    pub game_id: i64,
    pub player: PlayerId,
    /// Moves played when it was written: it follows that move.
    pub ply: u32,
    pub written_at: DateTime<Utc>,
    pub text: String,
}

/// A game whose flag has fallen, as the scheduler finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DueGame {
    pub id: i64,
    pub version: i64,
}

/// A player's leave on one server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaveRow {
    pub id: i64,
    pub player: PlayerId,
    pub server_id: i64,
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    /// `None` while the leave runs.
    pub ended_at: Option<DateTime<Utc>>,
    /// Whole days counted against the allowance.
    pub days: u32,
}

/// A leave to record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewLeave {
    pub player: PlayerId,
    pub server_id: i64,
    pub starts_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    pub days: u32,
}

/// A running leave coming to an end; refused with `Conflict` if it already ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeaveEnding {
    pub id: i64,
    pub ended_at: DateTime<Utc>,
    /// The whole days it counted in the end.
    pub days: u32,
}

/// One line of a server's standings: whose it is, and their score.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingRow {
    pub name: String,
    /// Whether it is a team's (its stand-in player's, in vote games).
    pub team: bool,
    pub line: crate::competition::standings::Line,
}

/// A player's Glicko-2 rating on a server.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub server_id: i64,
    pub player: PlayerId,
    /// The variant rated: each has its own rating.
    pub pool: Variant,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games counted so far.
    pub games: u32,
    /// When the last rated game ended.
    pub rated_at: DateTime<Utc>,
}

/// One point of a player's rating history.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingPoint {
    pub game_id: i64,
    pub rating: f64,
    pub deviation: f64,
    pub at: DateTime<Utc>,
}

/// A player's new rating after a rated game; refused with `Conflict`
/// unless the stored count of rated games is still `expected_games`
/// (0: no row yet).
#[derive(Clone, Debug, PartialEq)]
pub struct RatingUpdate {
    pub server_id: i64,
    pub player: PlayerId,
    /// The variant rated (the game's).
    pub pool: Variant,
    pub expected_games: u32,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub game_id: i64,
    pub at: DateTime<Utc>,
}

/// Every write of one act, committed together or not at all.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Commit {
    /// The act's idempotency key; `None` for acts that are safe to repeat.
    pub act_key: Option<String>,
    pub new_challenge: Option<NewChallenge>,
    pub closing_challenge: Option<ChallengeClosing>,
    pub new_game: Option<NewGame>,
    /// Games the act changed (most acts change one; a leave pauses several).
    pub game_updates: Vec<GameUpdate>,
    pub player_language: Option<(PlayerId, Option<Lang>)>,
    /// A server's chosen language (its id); `None` returns it to the default.
    pub server_language: Option<(i64, Option<Lang>)>,
    /// Whether a server's pages are on the web (its id, on or off).
    pub server_web_pages: Option<(i64, bool)>,
    /// How a player wants turn notices and reminders.
    pub player_notify: Option<(PlayerId, Notify)>,
    /// How a player's moves are read, written whole.
    pub player_notation: Option<(PlayerId, PlayerNotation)>,
    pub new_leave: Option<NewLeave>,
    pub ending_leave: Option<LeaveEnding>,
    /// New ratings after a rated game ended (in the same commit as its end).
    pub rating_updates: Vec<RatingUpdate>,
    /// A server's new ladder ranking.
    pub ladder: Option<LadderWrite>,
    /// A ladder challenge made with `new_challenge`.
    pub new_ladder_match: Option<NewLadderMatch>,
    /// A ladder challenge accepted (with `new_game`), settled or withdrawn.
    pub ladder_match_update: Option<LadderMatchUpdate>,
    /// Tournament writes, in order (a game's end may pair the next round).
    pub tournament_changes: Vec<TournamentChange>,
    /// A player's private note on a game.
    pub private_note: Option<PrivateNote>,
    /// An engine review of a finished game, with its puzzles.
    pub review: Option<NewReview>,
    /// A puzzle given to a player, or their answer.
    pub puzzle_attempt: Option<PuzzleAttempt>,
    /// A team created, joined, left or deleted.
    pub team_change: Option<TeamChange>,
    /// A team member's vote (cast, or changed when allowed).
    pub vote: Option<NewVote>,
    /// Team match writes, in order.
    pub match_changes: Vec<MatchChange>,
    /// A link code made or used, a wrong code counted, or an account unlinked.
    pub link: Option<LinkChange>,
    /// A player's digest settings, or a digest made.
    pub digest: Option<DigestWrite>,
    /// A server invited to a club, joining it or leaving it.
    pub club: Option<ClubChange>,
    /// Where the challenged player of `new_game` plays it from, when that
    /// is another server of the club (see `queries::clubs`).
    pub game_place: Option<NewGamePlace>,
    /// The act's notices for another platform: its answer is kept a second
    /// time, under `<key>>platform`, for that platform's worker (each
    /// worker sends only the replies for its platform; needs an `act_key`).
    pub relay: Option<Outgoing>,
    /// The act's answer holds notices to deliver after the commit (see
    /// [`Outgoing`]); needs an `act_key`.
    pub outgoing: Option<Outgoing>,
}

/// What an act does to linked accounts (see `queries::links`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkChange {
    /// A new one-time code for `player`, kept as its SHA-256.
    NewCode {
        hash: String,
        player: PlayerId,
        expires_at: DateTime<Utc>,
    },
    /// The code `hash` links `account` to the person `person`; refused with
    /// `Conflict` if the code was used or expired, or `account` was linked,
    /// since the act read them.
    Redeem {
        hash: String,
        account: PlayerId,
        person: PlayerId,
    },
    /// A wrong code typed by `player`, counted against the hourly bound.
    WrongCode { player: PlayerId },
    /// `account` leaves its person.
    Unlink { account: PlayerId },
}

/// What an act does to a club of servers (see `queries::clubs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClubChange {
    /// Server `home` (a member, or the founder of a new club when `club` is
    /// `None`) invites server `guest`.
    Invite {
        club: Option<i64>,
        home: i64,
        guest: i64,
    },
    /// An invited server accepts; refused with `Conflict` unless invited.
    Join { club: i64, server: i64 },
    /// A server leaves the club (or its invitation is withdrawn).
    Quit { club: i64, server: i64 },
}

/// Where a player plays a game of another server of their club from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewGamePlace {
    pub player: PlayerId,
    pub server_id: i64,
    pub channel_id: i64,
}

/// A game's other place, as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamePlace {
    pub player: PlayerId,
    pub server_id: i64,
    pub platform: Platform,
    /// The channel's platform id.
    pub channel: String,
}

/// A server of a club.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClubServer {
    pub server: ServerRow,
    /// A member; else invited only.
    pub member: bool,
}

/// What an act writes about a person's daily digest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DigestWrite {
    /// The person's time zone and digest time (every account of theirs),
    /// and when the next digest is due: it goes to `player`'s platform
    /// (the person's other accounts get none).
    Setting {
        player: PlayerId,
        time_zone: Option<String>,
        minute: Option<u32>,
        next: Option<DateTime<Utc>>,
    },
    /// The digest due at `was` was made (or passed over) at `at`; the next
    /// is due at `next`. Refused with `Conflict` if another process made it.
    Made {
        player: PlayerId,
        was: DateTime<Utc>,
        next: DateTime<Utc>,
        at: DateTime<Utc>,
    },
}

/// A digest due, with its account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DueDigest {
    pub player: PlayerRow,
    /// When it was due (as stored).
    pub due: DateTime<Utc>,
    /// When the last one was made; `None`: never.
    pub last: Option<DateTime<Utc>>,
}

/// A challenge to one of a person's accounts, still open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingChallenge {
    pub id: i64,
    pub challenger: String,
    pub expires_at: DateTime<Utc>,
}

/// A link code as kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkCodeRow {
    /// The account that asked for it.
    pub player: PlayerId,
    pub expires_at: DateTime<Utc>,
    pub used: bool,
}

/// A game with the place it lives in, on whichever platform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacedGame {
    pub id: i64,
    pub platform: Platform,
    /// The server's and channel's platform ids.
    pub server: String,
    pub channel: String,
}

/// A server's team, with the stand-in player that plays its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamRow {
    pub id: i64,
    pub server_id: i64,
    pub name: String,
    /// The stand-in player: white or black in the team's games.
    pub player: PlayerId,
    pub created_by: PlayerId,
    pub created_at: DateTime<Utc>,
}

/// What a commit does to a team.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TeamChange {
    /// A new team with its stand-in player, its creator its first member;
    /// refused with `Conflict` if the server has a team of that name.
    Create {
        server_id: i64,
        platform: Platform,
        name: String,
        /// The name in lower case, unique on the server.
        name_key: String,
        created_by: PlayerId,
        at: DateTime<Utc>,
    },
    /// Refused with `Conflict` if already a member.
    Join {
        team: i64,
        player: PlayerId,
        at: DateTime<Utc>,
    },
    /// Refused with `Conflict` if not a member.
    Leave { team: i64, player: PlayerId },
    /// The team and its members go; its stand-in player stays with the
    /// games it played. Refused with `Conflict` if it plays a running game.
    Delete { team: i64 },
}

/// A vote on a team's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewVote {
    pub game_id: i64,
    /// The move voted on: 1 for the game's first.
    pub ply: u32,
    pub player: PlayerId,
    /// A UCI move, `resign` or `accept` (see `core::vote::Choice`).
    pub choice: String,
    pub offers_draw: bool,
    pub at: DateTime<Utc>,
    /// Replace the voter's earlier vote on this move; without it, a vote
    /// already cast is a `Conflict`.
    pub replaces: bool,
}

/// A vote as kept, for the tally.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VoteRow {
    pub player: PlayerId,
    pub choice: String,
    pub offers_draw: bool,
    pub seq: i64,
}

/// An engine review to keep (see `core::review`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewReview {
    pub game_id: i64,
    pub engine: String,
    pub nodes: u64,
    /// `core::review::PositionEval`s as text, start first.
    pub evals: String,
    pub reviewed_at: DateTime<Utc>,
    /// Positions of the game that become the server's puzzles.
    pub puzzles: Vec<NewPuzzle>,
}

impl NewReview {
    /// The review as it reads once kept.
    pub fn kept(&self) -> StoredReview {
        StoredReview {
            game_id: self.game_id,
            engine: self.engine.clone(),
            nodes: self.nodes,
            evals: self.evals.clone(),
            reviewed_at: self.reviewed_at,
        }
    }
}

/// A puzzle drawn from a reviewed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPuzzle {
    /// Moves played before its position.
    pub ply: u32,
    pub fen: String,
    /// The winning move in UCI.
    pub solution: String,
}

/// A kept review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredReview {
    pub game_id: i64,
    pub engine: String,
    pub nodes: u64,
    pub evals: String,
    pub reviewed_at: DateTime<Utc>,
}

/// A server's puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub id: i64,
    pub game_id: i64,
    pub ply: u32,
    pub fen: String,
    pub solution: String,
}

/// A puzzle shown to a player, or their answer to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleAttempt {
    Given {
        puzzle: i64,
        player: PlayerId,
        at: DateTime<Utc>,
    },
    Answered {
        puzzle: i64,
        player: PlayerId,
        solved: bool,
        at: DateTime<Utc>,
    },
}

/// A line of a server's puzzle solvers' table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleSolver {
    pub name: String,
    pub solved: u32,
    pub tried: u32,
}

/// Notices an act's answer holds, for its platform's worker to deliver once
/// the act is committed (a transactional outbox): the answer's items from
/// `first` on (the ones before are the act's own reply, answered directly).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outgoing {
    pub platform: Platform,
    pub first: u32,
    /// Left to the act's own process until then (it answers a user's act
    /// itself, and settles the row once the platform took the answer); the
    /// worker delivers only what is still unsettled after. `None`: due at once.
    pub held_until: Option<DateTime<Utc>>,
    /// The community the notices are for (its moderators see failures).
    pub server_id: Option<i64>,
}

impl Outgoing {
    /// Notices for `platform`'s worker, due at once (nothing held for the
    /// act's own process), for community `server_id` if there is one.
    pub fn due_now(platform: Platform, server_id: Option<i64>) -> Outgoing {
        Outgoing {
            platform,
            first: 0,
            held_until: None,
            server_id,
        }
    }
}

/// What a community's notices met lately (`/chess status`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NoticeTrouble {
    /// Notices the platform refused for good (or that were given up).
    pub refused: u32,
    /// Why the latest of them failed.
    pub last_error: Option<String>,
    /// Acts whose notices wait for another try after a passing failure.
    pub waiting: u32,
}

/// An act's notices a worker has claimed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedNotices {
    pub act_key: String,
    /// The act's stored answer: a JSON array whose items from `next_item`
    /// on are still to be delivered.
    pub answer: String,
    pub next_item: u32,
    /// Parts of notice `next_item` already sent (its text, then files).
    pub next_part: u32,
    /// Failed tries of `next_item` so far.
    pub attempts: u32,
    /// Items given up so far.
    pub failures: u32,
    pub created_at: DateTime<Utc>,
}

/// How far a worker got with an act's notices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoticeProgress {
    pub next_item: u32,
    pub attempts: u32,
    pub failures: u32,
    pub last_error: Option<String>,
    /// The next try; `None` once every item is settled.
    pub due_at: Option<DateTime<Utc>>,
}

/// Everything an act needs to know before it is carried out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActRequest {
    pub act_key: Option<String>,
    pub platform: Platform,
    /// The community's platform id.
    pub server: String,
    /// The channel's platform id.
    pub channel: String,
    pub user_id: String,
    pub user_name: String,
    /// The language of the user's chat client, if it is one of ours.
    pub client_language: Option<Lang>,
    pub defaults: ServerDefaults,
}

/// What [`Store::open_act`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)] // one per act, moved once: boxing would buy nothing
pub enum OpenedAct {
    /// The act was carried out before; this is its stored answer.
    Answered(String),
    /// A new act, and where it happens (rows created when new), with the
    /// player's ongoing games there (read now: most acts are moves in them).
    New {
        server: ServerRow,
        channel: ChannelRow,
        player: PlayerRow,
        games_here: ChannelGames,
    },
}

/// The games a player has running in a channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChannelGames {
    None,
    /// Exactly one: its id and current version (enough to use a cached copy),
    /// and whether either of its players is on leave.
    One {
        id: i64,
        version: i64,
        on_leave: bool,
    },
    Several(Vec<GameSummary>),
}

/// Ids the commit assigned.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Committed {
    pub challenge_id: Option<i64>,
    pub game_id: Option<i64>,
    /// The new game's page token (see `game_links`).
    pub game_token: Option<String>,
    /// The tournament a `TournamentChange::Create` made.
    pub tournament_id: Option<i64>,
    /// The games created for `TournamentChange::Pair`s, in their order
    /// (pairings without a game are skipped).
    pub tournament_games: Vec<i64>,
    /// Their page tokens, in the same order.
    pub tournament_game_tokens: Vec<String>,
    /// The team a `TeamChange::Create` made.
    pub team_id: Option<i64>,
    /// The match a `MatchChange::Create` made.
    pub match_id: Option<i64>,
    /// The games a `MatchChange::Start` created, in its order.
    pub match_games: Vec<i64>,
    /// The club a `ClubChange::Invite` invited to (made if new).
    pub club_id: Option<i64>,
}
