//! The store the service runs on: one type whatever the database.
//!
//! Each method runs statements written once in [`super::queries`] on the
//! configured backend: in a read transaction ([`reading!`]) or a write
//! transaction ([`writing!`]). Only what truly differs between SQLite and
//! PostgreSQL is written per backend, in [`super::sqlite`] and
//! [`super::postgres`]: opening, transactions, and claiming due games.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::postgres::{self, PgStore, conn::PgConn};
use super::queries::{
    commit, games, identity, ladder, matches, outbox, ratings, reviews, schedule, teams,
    tournaments,
};
use super::sql::ready;
use super::sqlite::{SqliteStore, conn::SqliteConn};
use super::{
    ActRequest, ChallengeRow, ChannelRow, Commit, Committed, DueGame, DueTournament, EntrantRow,
    FinishedGame, GameRecord, GameSummary, IdleRung, LadderMatchRow, LadderRow, LeaveRow,
    MatchEntrant, MatchGameRow, MatchRow, NoticeProgress, NoticeTrouble, OpenedAct, PairingRow,
    Platform, PlayerRow, PrivateNote, Puzzle, PuzzleSolver, QueuedNotices, RatingPoint, RatingRow,
    Result, ServerDefaults, ServerRow, StandingRow, StoredReview, TeamRow, TournamentRow, VoteRow,
};
use crate::core::game::PlayerId;
use crate::core::variant::Variant;

/// The storage a service runs on.
///
/// Reads may be served from a snapshot older than the next commit; commits
/// check versions, so a stale read ends in [`StorageError::Conflict`], never
/// in a lost or doubled move.
#[derive(Clone)]
pub struct Store {
    backend: Backend,
}

#[derive(Clone)]
enum Backend {
    Sqlite(SqliteStore),
    Postgres(PgStore),
}

impl From<SqliteStore> for Store {
    fn from(db: SqliteStore) -> Store {
        Store {
            backend: Backend::Sqlite(db),
        }
    }
}

impl From<PgStore> for Store {
    fn from(db: PgStore) -> Store {
        Store {
            backend: Backend::Postgres(db),
        }
    }
}

#[cfg(test)]
impl Store {
    /// The SQLite database underneath, for its own tests.
    pub(crate) fn sqlite(&self) -> &SqliteStore {
        match &self.backend {
            Backend::Sqlite(db) => db,
            Backend::Postgres(_) => panic!("a SQLite test got a PostgreSQL store"),
        }
    }

    /// The PostgreSQL database underneath, for its own tests.
    pub(crate) fn postgres(&self) -> &PgStore {
        match &self.backend {
            Backend::Postgres(db) => db,
            Backend::Sqlite(_) => panic!("a PostgreSQL test got a SQLite store"),
        }
    }
}

/// Runs `$body`, shared statements on `$c`, outside any write: in a read
/// transaction on SQLite (one snapshot), on one pooled connection on PostgreSQL.
macro_rules! reading {
    ($store:expr, |$c:ident| $body:expr) => {
        match &$store.backend {
            Backend::Sqlite(db) => {
                db.read(|conn| {
                    let $c = &SqliteConn(conn);
                    ready($body)
                })
                .await
            }
            Backend::Postgres(db) => {
                let client = db.client().await?;
                let $c = &PgConn(&client);
                $body.await
            }
        }
    };
}

/// Runs `$body` in one write transaction, committed if it succeeds and
/// rolled back (nothing written) if it fails: SQLite's `IMMEDIATE`
/// transaction, or a PostgreSQL transaction.
macro_rules! writing {
    ($store:expr, |$c:ident| $body:expr) => {
        match &$store.backend {
            Backend::Sqlite(db) => {
                db.write(|conn| {
                    let $c = &SqliteConn(conn);
                    ready($body)
                })
                .await
            }
            Backend::Postgres(db) => {
                let mut client = db.client().await?;
                let tx = client.transaction().await.map_err(postgres::backend)?;
                let $c = &PgConn(&tx);
                let written = $body.await;
                postgres::settle(tx, written).await
            }
        }
    };
}

impl Store {
    /// The server row for a platform's community, created with `defaults` when new.
    pub async fn ensure_server(
        &self,
        platform: Platform,
        platform_id: &str,
        defaults: &ServerDefaults,
        now: DateTime<Utc>,
    ) -> Result<ServerRow> {
        writing!(self, |c| identity::ensure_server(
            c,
            platform,
            platform_id,
            defaults,
            now
        ))
    }

    /// The channel row, created when new.
    pub async fn ensure_channel(&self, server_id: i64, platform_id: &str) -> Result<ChannelRow> {
        writing!(self, |c| identity::ensure_channel(
            c,
            server_id,
            platform_id
        ))
    }

    /// The player row, created when new; the display name is kept current.
    pub async fn ensure_player(
        &self,
        platform: Platform,
        platform_id: &str,
        display_name: &str,
        now: DateTime<Utc>,
    ) -> Result<PlayerRow> {
        writing!(self, |c| identity::ensure_player(
            c,
            platform,
            platform_id,
            display_name,
            now
        ))
    }

    pub async fn find_player(
        &self,
        platform: Platform,
        platform_id: &str,
    ) -> Result<Option<PlayerRow>> {
        reading!(self, |c| identity::find_player(c, platform, platform_id))
    }

    pub async fn player(&self, id: PlayerId) -> Result<Option<PlayerRow>> {
        reading!(self, |c| identity::player(c, id))
    }

    /// The server numbered `id`, if there is one.
    pub async fn server(&self, id: i64) -> Result<Option<ServerRow>> {
        reading!(self, |c| identity::server(c, id))
    }

    /// One read at the start of every act: the stored answer if the act was
    /// already carried out, else its server, channel and player (created
    /// when new, the display name kept current) and the player's ongoing
    /// games in the channel.
    pub async fn open_act(&self, request: ActRequest, now: DateTime<Utc>) -> Result<OpenedAct> {
        // The common case (a known place and player) only reads and takes no
        // write lock; new servers, channels and players are written together
        // in one write transaction, which looks for the key again first.
        match reading!(self, |c| identity::open_act_reading(c, &request))? {
            Some(opened) => Ok(opened),
            None => writing!(self, |c| identity::open_act_writing(c, &request, now)),
        }
    }

    /// The stored answer of an act already processed.
    pub async fn answer_of(&self, act_key: &str) -> Result<Option<String>> {
        reading!(self, |c| identity::answer_of(c, act_key))
    }

    /// `player`'s private notes on game `game_id`, in the order written.
    pub async fn private_notes(&self, game_id: i64, player: PlayerId) -> Result<Vec<PrivateNote>> {
        reading!(self, |c| games::private_notes(c, game_id, player))
    }

    /// The kept engine review of game `game_id`.
    pub async fn review(&self, game_id: i64) -> Result<Option<StoredReview>> {
        reading!(self, |c| reviews::review(c, game_id))
    }

    /// Finished games ended since `since` with no review, oldest first.
    pub async fn games_awaiting_review(
        &self,
        since: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<i64>> {
        reading!(self, |c| reviews::games_awaiting_review(c, since, limit))
    }

    /// Whether game `id`'s tournament keeps it from review until its round,
    /// still running, is over.
    pub async fn review_waits_for_round(&self, id: i64) -> Result<bool> {
        reading!(self, |c| reviews::review_waits_for_round(c, id))
    }

    /// The puzzle `player` was given on `server_id` and has not answered.
    pub async fn open_puzzle(&self, server_id: i64, player: PlayerId) -> Result<Option<Puzzle>> {
        reading!(self, |c| reviews::open_puzzle(c, server_id, player))
    }

    /// The server's oldest puzzle `player` has not tried, not from their games.
    pub async fn next_puzzle(&self, server_id: i64, player: PlayerId) -> Result<Option<Puzzle>> {
        reading!(self, |c| reviews::next_puzzle(c, server_id, player))
    }

    /// The server's puzzle solvers, most solved first.
    pub async fn puzzle_solvers(&self, server_id: i64, limit: usize) -> Result<Vec<PuzzleSolver>> {
        reading!(self, |c| reviews::puzzle_solvers(c, server_id, limit))
    }

    /// The server `platform_id` of `platform`, if the bot has seen it.
    pub async fn find_server(
        &self,
        platform: Platform,
        platform_id: &str,
    ) -> Result<Option<ServerRow>> {
        reading!(self, |c| identity::find_server(c, platform, platform_id))
    }

    /// Team match `id`.
    pub async fn team_match(&self, id: i64) -> Result<Option<MatchRow>> {
        reading!(self, |c| matches::team_match(c, id))
    }

    /// The latest team match of a server, home or away.
    pub async fn latest_match(&self, server_id: i64) -> Result<Option<MatchRow>> {
        reading!(self, |c| matches::latest_match(c, server_id))
    }

    /// The team match a game belongs to, if any.
    pub async fn match_of_game(&self, game_id: i64) -> Result<Option<MatchRow>> {
        reading!(self, |c| matches::match_of_game(c, game_id))
    }

    /// The matches not over `player` signed up for with a team.
    pub async fn matches_joined(&self, team_id: i64, player: PlayerId) -> Result<Vec<MatchRow>> {
        reading!(self, |c| matches::matches_joined(c, team_id, player))
    }

    /// The members signed up for a match, in their order of sign-up.
    pub async fn match_entrants(&self, match_id: i64) -> Result<Vec<MatchEntrant>> {
        reading!(self, |c| matches::entrants(c, match_id))
    }

    /// A match's games, by board.
    pub async fn match_games(&self, match_id: i64) -> Result<Vec<MatchGameRow>> {
        reading!(self, |c| matches::games(c, match_id))
    }

    /// The team of server `server_id` whose name in lower case is `key`.
    pub async fn team_by_name(&self, server_id: i64, key: &str) -> Result<Option<TeamRow>> {
        reading!(self, |c| teams::team_by_name(c, server_id, key))
    }

    /// A server's teams by name (at most `limit`) with their members'
    /// names, and how many it has in all.
    pub async fn teams(
        &self,
        server_id: i64,
        limit: usize,
    ) -> Result<(Vec<(TeamRow, Vec<String>)>, u32)> {
        reading!(self, |c| teams::teams(c, server_id, limit))
    }

    /// How many teams a server has.
    pub async fn team_count(&self, server_id: i64) -> Result<u32> {
        reading!(self, |c| teams::team_count(c, server_id))
    }

    /// The teams of a server `player` belongs to.
    pub async fn teams_of(&self, server_id: i64, player: PlayerId) -> Result<Vec<TeamRow>> {
        reading!(self, |c| teams::teams_of(c, server_id, player))
    }

    /// A team's members, in the order they joined.
    pub async fn team_members(&self, team_id: i64) -> Result<Vec<PlayerId>> {
        reading!(self, |c| teams::members(c, team_id))
    }

    /// The teams playing game `game_id`, with their colours.
    pub async fn game_teams(&self, game_id: i64) -> Result<Vec<(shakmaty::Color, TeamRow)>> {
        reading!(self, |c| teams::game_teams(c, game_id))
    }

    /// Whether a team plays a running game.
    pub async fn team_plays(&self, team_id: i64) -> Result<bool> {
        reading!(self, |c| teams::team_plays(c, team_id))
    }

    /// The running games in a channel that a team of `player`'s plays.
    pub async fn vote_games_in_channel(
        &self,
        channel_id: i64,
        player: PlayerId,
    ) -> Result<Vec<i64>> {
        reading!(self, |c| teams::vote_games_in_channel(
            c, channel_id, player
        ))
    }

    /// The votes on move `ply` of a game by the current members of a team.
    pub async fn votes(&self, game_id: i64, ply: u32, team_id: i64) -> Result<Vec<VoteRow>> {
        reading!(self, |c| teams::votes(c, game_id, ply, team_id))
    }

    /// Whether a vote game's members may change their votes.
    pub async fn votes_changeable(&self, game_id: i64) -> Result<bool> {
        reading!(self, |c| teams::votes_changeable(c, game_id))
    }

    /// Whether game `id` belongs to a tournament, a ladder match or a team match.
    pub async fn in_competition(&self, id: i64) -> Result<bool> {
        reading!(self, |c| games::in_competition(c, id))
    }

    pub async fn game(&self, id: i64) -> Result<Option<GameRecord>> {
        reading!(self, |c| games::game(c, id))
    }

    /// Every game, oldest first, or those `player_name` played, or those of
    /// tournament `tournament`.
    pub async fn listed_games(
        &self,
        player_name: Option<&str>,
        tournament: Option<i64>,
    ) -> Result<Vec<GameSummary>> {
        reading!(self, |c| games::listed_games(c, player_name, tournament))
    }

    /// `player`'s games in `channel_id` (the ongoing ones only, if asked), newest first.
    pub async fn games_in_channel(
        &self,
        channel_id: i64,
        player: PlayerId,
        ongoing_only: bool,
    ) -> Result<Vec<GameSummary>> {
        reading!(self, |c| games::games_in_channel(
            c,
            channel_id,
            player,
            ongoing_only
        ))
    }

    /// `player`'s ongoing games on a server, newest first.
    pub async fn ongoing_games_on_server(
        &self,
        server_id: i64,
        player: PlayerId,
    ) -> Result<Vec<GameSummary>> {
        reading!(self, |c| games::ongoing_games_on_server(
            c, server_id, player
        ))
    }

    /// How many challenges `challenger` has open (not expired at `now`),
    /// in every channel and server.
    pub async fn open_challenge_count(
        &self,
        challenger: PlayerId,
        now: DateTime<Utc>,
    ) -> Result<u32> {
        reading!(self, |c| games::open_challenge_count(c, challenger, now))
    }

    /// Open challenges in a channel that have not expired at `now`, oldest first.
    pub async fn open_challenges(
        &self,
        channel_id: i64,
        now: DateTime<Utc>,
    ) -> Result<Vec<ChallengeRow>> {
        reading!(self, |c| games::open_challenges(c, channel_id, now))
    }

    /// Applies `commit` in one transaction and stores the act's answer,
    /// which `answer` builds once the new ids are known.
    ///
    /// Fails with `DuplicateAct` when the key was committed meanwhile and with
    /// `Conflict` when a game or challenge changed since it was read; in both
    /// cases nothing was written.
    pub async fn commit<R, F>(
        &self,
        commit: Commit,
        now: DateTime<Utc>,
        answer: F,
    ) -> Result<(Committed, R)>
    where
        R: Serialize + Send + 'static,
        F: FnOnce(&Committed) -> R + Send + 'static,
    {
        writing!(self, |c| commit::write_act(c, &commit, now, answer))
    }

    /// Applies every commit of `batch` in one transaction (one write to disk
    /// for many acts), each with its own answer: all or nothing. The commits
    /// must touch different rows: their statements may interleave (see
    /// `queries::commit::write_all`). Fails like [`Store::commit`] when any
    /// one of them would, and then nothing was written, so the caller can
    /// work each act out again and commit it alone.
    pub async fn commit_all<R, F>(
        &self,
        batch: Vec<(Commit, F)>,
        now: DateTime<Utc>,
    ) -> Result<Vec<(Committed, R)>>
    where
        R: Serialize + Send + 'static,
        F: FnOnce(&Committed) -> R + Send + 'static,
    {
        // One COMMIT, so one flush of the log, for the whole batch.
        writing!(self, |c| commit::write_all(c, batch, now))
    }

    /// The earliest instant the scheduler must look at a running game: a
    /// reminder or a flag, whichever comes first.
    pub async fn next_wake_up(&self) -> Result<Option<DateTime<Utc>>> {
        reading!(self, |c| schedule::next_wake_up(c))
    }

    /// Running games whose wake-up (a reminder or a flag) has come at `now`,
    /// earliest first, at most `limit`.
    /// Sets game `id`'s wake-up to `at` if its version is still `version`:
    /// the scheduler woke for it early (see [`super::WakeUp`]).
    pub async fn rearm_wake_up(
        &self,
        id: i64,
        version: i64,
        at: Option<DateTime<Utc>>,
    ) -> Result<()> {
        writing!(self, |c| schedule::rearm_wake_up(c, id, version, at))
    }

    pub async fn due_games(&self, now: DateTime<Utc>, limit: usize) -> Result<Vec<DueGame>> {
        reading!(self, |c| schedule::due_games(c, now, limit))
    }

    /// Claims running games whose wake-up has come at `now`, earliest first,
    /// at most `limit`: a claimed game's wake-up moves to `lease_until`, so
    /// every other scheduler (in this process or another) passes it over
    /// until then, unless a save gives it a new one first. A claimer that
    /// dies leaves its games to come back at `lease_until`. Claims only
    /// spread the work: a game's version still decides who may end it.
    pub async fn claim_due_games(
        &self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<DueGame>> {
        // The claim itself is what differs: SQLite's write lock already keeps
        // other processes out; PostgreSQL skips rows another one has locked.
        match &self.backend {
            Backend::Sqlite(db) => {
                db.write(|conn| {
                    let c = &SqliteConn(conn);
                    ready(schedule::claim_due_games_in_write(
                        c,
                        now,
                        lease_until,
                        limit,
                    ))
                })
                .await
            }
            Backend::Postgres(db) => {
                let client = db.client().await?;
                let c = &PgConn(&client);
                schedule::claim_due_games_skip_locked(c, now, lease_until, limit).await
            }
        }
    }

    /// Claims acts whose notices are due on `platform` until `lease_until`
    /// (see [`outbox::claim`]), oldest first.
    pub async fn claim_notices(
        &self,
        platform: Platform,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<QueuedNotices>> {
        writing!(self, |c| outbox::claim(
            c,
            platform,
            now,
            lease_until,
            limit
        ))
    }

    /// Records how far the delivery of act `act_key`'s notices came.
    pub async fn settle_notices(&self, act_key: &str, progress: &NoticeProgress) -> Result<()> {
        writing!(self, |c| outbox::settle(c, act_key, progress))
    }

    /// Marks acts as answered by their own process (see [`outbox::settle_answered`]).
    pub async fn settle_answered(&self, act_keys: &[String]) -> Result<()> {
        writing!(self, |c| outbox::settle_answered(c, act_keys))
    }

    /// Makes due the acts whose hold ran out unanswered at `now`, and tells
    /// when the first hold still running ends (if one was seen). Only SQLite
    /// keeps holds in the acts' rows; PostgreSQL keeps them in the due
    /// index (see migration 0022), so there it has nothing to do.
    pub async fn release_ended_holds(&self, now: DateTime<Utc>) -> Result<Option<DateTime<Utc>>> {
        /// Held acts read per look.
        const BATCH: usize = 500;
        /// How far this process may have read past what the file records:
        /// after a crash, at most that many acts are read again.
        const SAVE_EVERY: i64 = 1000;
        let Backend::Sqlite(db) = &self.backend else {
            return Ok(None);
        };
        let mut cursor = db.holds.lock().await;
        let mut through = match cursor.through {
            Some(through) => through,
            None => {
                let saved = reading!(self, |c| outbox::holds_done_through(c))?;
                cursor.saved = saved;
                saved
            }
        };
        loop {
            let (held, last) = reading!(self, |c| outbox::holds_after(c, through, BATCH))?;
            let step = outbox::HoldStep::at(&held, last, BATCH, now);
            if !step.release.is_empty() || step.through >= cursor.saved + SAVE_EVERY {
                writing!(self, |c| outbox::release_holds(
                    c,
                    &step.release,
                    now,
                    step.through
                ))?;
                cursor.saved = step.through;
            }
            through = step.through.max(through);
            cursor.through = Some(through);
            if !step.more {
                return Ok(step.next_end);
            }
        }
    }

    /// What the notices for `server_id` met since `since` (see [`outbox::trouble`]).
    pub async fn notice_trouble(
        &self,
        server_id: i64,
        since: DateTime<Utc>,
    ) -> Result<NoticeTrouble> {
        reading!(self, |c| outbox::trouble(c, server_id, since))
    }

    /// When the next notice on `platform` is due, if any is waiting.
    pub async fn next_notice_due(&self, platform: Platform) -> Result<Option<DateTime<Utc>>> {
        reading!(self, |c| outbox::next_due(c, platform))
    }

    /// `player`'s running leave on a server, if any.
    pub async fn running_leave(
        &self,
        player: PlayerId,
        server_id: i64,
    ) -> Result<Option<LeaveRow>> {
        reading!(self, |c| schedule::running_leave(c, player, server_id))
    }

    /// The running leaves of two players on a server (a game's two sides), in one call.
    pub async fn running_leaves(
        &self,
        server_id: i64,
        players: [PlayerId; 2],
    ) -> Result<Vec<LeaveRow>> {
        reading!(self, |c| schedule::running_leaves(c, server_id, players))
    }

    /// Days of leave `player` has counted on a server for leaves starting in `year`.
    pub async fn leave_days_in_year(
        &self,
        player: PlayerId,
        server_id: i64,
        year: i32,
    ) -> Result<u32> {
        reading!(self, |c| schedule::leave_days_in_year(
            c, player, server_id, year
        ))
    }

    /// Running leaves whose end has come at `now`, earliest first.
    pub async fn due_leave_ends(&self, now: DateTime<Utc>, limit: usize) -> Result<Vec<LeaveRow>> {
        reading!(self, |c| schedule::due_leave_ends(c, now, limit))
    }

    /// The earliest end of a running leave.
    pub async fn next_leave_end(&self) -> Result<Option<DateTime<Utc>>> {
        reading!(self, |c| schedule::next_leave_end(c))
    }

    /// Running games with a clock, by id after `after_id`, at most `limit`
    /// (for crediting every clock after an outage, a page at a time).
    pub async fn clocked_games(&self, after_id: i64, limit: usize) -> Result<Vec<DueGame>> {
        reading!(self, |c| schedule::clocked_games(c, after_id, limit))
    }

    /// The last instant the bot was known to be running.
    pub async fn last_heartbeat(&self) -> Result<Option<DateTime<Utc>>> {
        reading!(self, |c| schedule::last_heartbeat(c))
    }

    /// Records that the bot is running at `now`.
    pub async fn beat(&self, now: DateTime<Utc>) -> Result<()> {
        writing!(self, |c| schedule::beat(c, now))
    }

    /// The server's finished games with a result (1-0, 0-1, ½-½), oldest first.
    /// The results and first `plies` moves of the latest `max` finished
    /// games of a server from the standard start.
    pub async fn openings_played(
        &self,
        server_id: i64,
        max: usize,
        plies: u32,
    ) -> Result<Vec<(crate::core::event::GameResult, Vec<String>)>> {
        reading!(self, |c| games::openings_played(c, server_id, max, plies))
    }

    pub async fn finished_games(&self, server_id: i64) -> Result<Vec<FinishedGame>> {
        reading!(self, |c| games::finished_games(c, server_id))
    }

    /// `player`'s rating in `pool` on a server, if they have played a rated
    /// game of that variant there.
    pub async fn rating(
        &self,
        server_id: i64,
        player: PlayerId,
        pool: Variant,
    ) -> Result<Option<RatingRow>> {
        reading!(self, |c| ratings::rating(c, server_id, player, pool))
    }

    /// `player`'s ratings in `pool` after each rated game on a server, oldest first.
    pub async fn rating_history(
        &self,
        server_id: i64,
        player: PlayerId,
        pool: Variant,
    ) -> Result<Vec<RatingPoint>> {
        reading!(self, |c| ratings::rating_history(
            c, server_id, player, pool
        ))
    }

    /// The server's 1/½/0 table over finished, scored games, best first.
    pub async fn standings(&self, server_id: i64) -> Result<Vec<StandingRow>> {
        reading!(self, |c| ratings::standings(c, server_id))
    }

    /// The server's ladder, best first (empty, version 0, before anyone joins).
    pub async fn ladder(&self, server_id: i64) -> Result<LadderRow> {
        reading!(self, |c| ladder::ladder(c, server_id))
    }

    /// The server's ladder challenges still pending or being played.
    pub async fn unsettled_ladder_matches(&self, server_id: i64) -> Result<Vec<LadderMatchRow>> {
        reading!(self, |c| ladder::unsettled_ladder_matches(c, server_id))
    }

    /// The ladder challenge that made challenge `challenge_id`, if any.
    pub async fn ladder_match_of_challenge(
        &self,
        challenge_id: i64,
    ) -> Result<Option<LadderMatchRow>> {
        reading!(self, |c| ladder::ladder_match_of_challenge(c, challenge_id))
    }

    /// The ladder challenge that game `game_id` settles, if any.
    pub async fn ladder_match_of_game(&self, game_id: i64) -> Result<Option<LadderMatchRow>> {
        reading!(self, |c| ladder::ladder_match_of_game(c, game_id))
    }

    /// Pending ladder challenges whose time to accept has run out at `now`,
    /// earliest first, at most `limit`.
    pub async fn due_ladder_forfeits(
        &self,
        now: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<LadderMatchRow>> {
        reading!(self, |c| ladder::due_ladder_forfeits(c, now, limit))
    }

    /// Ladder players last active at or before `active_before`, longest idle
    /// first, at most `limit`.
    pub async fn idle_ladder_rungs(
        &self,
        active_before: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<IdleRung>> {
        reading!(self, |c| ladder::idle_ladder_rungs(c, active_before, limit))
    }

    /// The earliest ladder deadline: a pending challenge's `accept_by`, or a
    /// player's last activity plus `inactive_after` (when inactivity counts).
    pub async fn next_ladder_deadline(
        &self,
        inactive_after: Option<chrono::Duration>,
    ) -> Result<Option<DateTime<Utc>>> {
        reading!(self, |c| ladder::next_ladder_deadline(c, inactive_after))
    }

    /// A tournament by id.
    pub async fn tournament(&self, id: i64) -> Result<Option<TournamentRow>> {
        reading!(self, |c| tournaments::tournament(c, id))
    }

    /// The tournaments created in a channel, newest first.
    pub async fn tournaments_in_channel(&self, channel_id: i64) -> Result<Vec<TournamentRow>> {
        reading!(self, |c| tournaments::tournaments_in_channel(c, channel_id))
    }

    /// A tournament's entrants, in join order.
    pub async fn tournament_entrants(&self, tournament_id: i64) -> Result<Vec<EntrantRow>> {
        reading!(self, |c| tournaments::tournament_entrants(c, tournament_id))
    }

    /// A tournament's pairings with their games' states, by round, board and creation.
    pub async fn tournament_pairings(&self, tournament_id: i64) -> Result<Vec<PairingRow>> {
        reading!(self, |c| tournaments::tournament_pairings(c, tournament_id))
    }

    /// The tournament a game was played in, if any.
    pub async fn tournament_of_game(&self, game_id: i64) -> Result<Option<i64>> {
        reading!(self, |c| tournaments::tournament_of_game(c, game_id))
    }

    /// Tournaments still open for entry whose window closed at `now`, earliest first.
    pub async fn due_tournaments(
        &self,
        now: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<DueTournament>> {
        reading!(self, |c| tournaments::due_tournaments(c, now, limit))
    }

    /// The earliest close of an entry window still open.
    pub async fn next_tournament_start(&self) -> Result<Option<DateTime<Utc>>> {
        reading!(self, |c| tournaments::next_tournament_start(c))
    }
}
