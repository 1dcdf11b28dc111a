//! The store the service runs on: one type whatever the database.
//!
//! Each method runs statements written once in [`super::queries`] on the
//! configured backend: in a read transaction ([`reading!`]) or a write
//! transaction ([`writing!`]); a method that only passes its arguments on
//! to one query function is one line of [`delegate!`]. Only what truly
//! differs between SQLite and PostgreSQL is written per backend, in
//! [`super::sqlite`] and [`super::postgres`]: opening, transactions,
//! claiming due games, and where an act's hold waits.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::postgres::{self, PgStore, conn::PgConn};
use super::queries::{
    clubs, commit, digests, engine_slots, games, identity, ladder, links, matches, outbox,
    presence, ratings, reviews, schedule, teams, tournaments, web,
};
use super::sql::ready;
use super::sqlite::{SqliteStore, conn::SqliteConn};
use super::{
    ActRequest, ChallengeRow, ChannelRow, ClubServer, Commit, Committed, DueDigest, DueGame,
    DueTournament, EntrantRow, GamePlace, GameRecord, GameSummary, IdleRung, LadderMatchRow,
    LadderRow, LeaveRow, LinkCodeRow, MatchEntrant, MatchGameRow, MatchRow, NoticeProgress,
    NoticeTrouble, OpenedAct, PagedGame, PairingRow, PendingChallenge, PlacedGame, Platform,
    PlayerRow, PrivateNote, Puzzle, PuzzleSolver, QueuedNotices, RatingPoint, RatingRow, Result,
    ServerDefaults, ServerRow, StandingRow, StoredReview, TeamRow, TournamentRow, VoteRow,
};
use crate::competition::standings::Finished;
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

/// Store methods that each run one query function of [`super::queries`] in
/// a read (`read`) or write (`write`) transaction, their arguments passed on.
macro_rules! delegate {
    ($(
        $(#[$doc:meta])*
        $kind:ident fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $out:ty
            = $module:ident::$query:ident;
    )*) => {
        impl Store {
            $(
                $(#[$doc])*
                pub async fn $name(&self, $($arg: $ty),*) -> Result<$out> {
                    delegate!(@$kind self, $module::$query($($arg),*))
                }
            )*
        }
    };
    (@read $store:ident, $module:ident::$query:ident($($arg:ident),*)) => {
        reading!($store, |c| $module::$query(c, $($arg),*))
    };
    (@write $store:ident, $module:ident::$query:ident($($arg:ident),*)) => {
        writing!($store, |c| $module::$query(c, $($arg),*))
    };
}

delegate! {
    /// The server row for a platform's community, created with `defaults` when new.
    write fn ensure_server(
        platform: Platform,
        platform_id: &str,
        defaults: &ServerDefaults,
        now: DateTime<Utc>,
    ) -> ServerRow = identity::ensure_server;
    /// The channel row, created when new.
    write fn ensure_channel(
        server_id: i64,
        platform_id: &str,
    ) -> ChannelRow = identity::ensure_channel;
    /// The player row, created when new; the display name is kept current.
    write fn ensure_player(
        platform: Platform,
        platform_id: &str,
        display_name: &str,
        now: DateTime<Utc>,
    ) -> PlayerRow = identity::ensure_player;
    read fn find_player(
        platform: Platform,
        platform_id: &str,
    ) -> Option<PlayerRow> = identity::find_player;
    read fn player(id: PlayerId) -> Option<PlayerRow> = identity::player;
    /// The link code kept under `hash` (see [`links::link_code`]).
    read fn link_code(hash: &str) -> Option<LinkCodeRow> = links::link_code;
    /// Wrong link codes typed since `since`: by `player`, and by everyone.
    read fn wrong_link_codes(
        player: PlayerId,
        since: DateTime<Utc>,
    ) -> (u32, u32) = links::wrong_link_codes;
    /// Every account of the person `person`, first account first.
    read fn accounts_of(person: PlayerId) -> Vec<PlayerRow> = links::accounts_of;
    /// A person's running or finished games on every server (see [`links::games_of_person`]).
    read fn games_of_person(
        person: PlayerId,
        finished: bool,
        limit: usize,
    ) -> Vec<PlacedGame> = links::games_of_person;
    /// Where the other player of a game between a club's servers plays it from.
    read fn place_of_game(game_id: i64) -> Option<GamePlace> = clubs::place_of_game;
    /// Channel `id`'s platform id.
    read fn channel_platform_id(id: i64) -> Option<String> = clubs::channel_platform_id;
    /// Challenge `id`, if it is open at `now`.
    read fn open_challenge(id: i64, now: DateTime<Utc>) -> Option<ChallengeRow> = games::open_challenge;
    /// The server that founded club `club` (its ratings are kept there).
    read fn club_founder(club: i64) -> Option<i64> = clubs::club_founder;
    /// The rating of the person whose account `account` is, kept under
    /// `server_id` (a club's scope, see `Service::rating_scope`).
    read fn rating_of_account(
        server_id: i64,
        account: PlayerId,
        pool: Variant,
    ) -> Option<f64> = ratings::rating_of_account;
    /// The club server `server_id` is a member of, if any.
    read fn club_of_server(server_id: i64) -> Option<i64> = clubs::club_of_server;
    /// A club's servers, members first.
    read fn club_servers(club_id: i64) -> Vec<ClubServer> = clubs::club_servers;
    /// Digests due at `now`, earliest first, at most `limit`.
    read fn due_digests(now: DateTime<Utc>, limit: usize) -> Vec<DueDigest> = digests::due_digests;
    /// When the next digest is due, if any is asked for.
    read fn next_digest() -> Option<DateTime<Utc>> = digests::next_digest;
    /// Whether any account of `person` is on leave at `now`.
    read fn person_on_leave(person: PlayerId, now: DateTime<Utc>) -> bool = digests::person_on_leave;
    /// Open challenges to any account of `person`, oldest first.
    read fn challenges_to_person(
        person: PlayerId,
        now: DateTime<Utc>,
        limit: usize,
    ) -> Vec<PendingChallenge> = digests::challenges_to_person;
    /// The server numbered `id`, if there is one.
    read fn server(id: i64) -> Option<ServerRow> = identity::server;
    /// The stored answer of an act already processed.
    read fn answer_of(act_key: &str) -> Option<String> = identity::answer_of;
    /// `player`'s private notes on game `game_id`, in the order written.
    read fn private_notes(
        game_id: i64,
        player: PlayerId,
    ) -> Vec<PrivateNote> = games::private_notes;
    /// The kept engine review of game `game_id`.
    read fn review(game_id: i64) -> Option<StoredReview> = reviews::review;
    /// Finished games ended since `since` with no review, oldest first.
    read fn games_awaiting_review(
        since: DateTime<Utc>,
        limit: usize,
    ) -> Vec<i64> = reviews::games_awaiting_review;
    /// Whether game `id`'s tournament keeps it from review until its round,
    /// still running, is over.
    read fn review_waits_for_round(id: i64) -> bool = reviews::review_waits_for_round;
    /// The puzzle `player` was given on `server_id` and has not answered.
    read fn open_puzzle(server_id: i64, player: PlayerId) -> Option<Puzzle> = reviews::open_puzzle;
    /// The server's oldest puzzle `player` has not tried, not from their games.
    read fn next_puzzle(server_id: i64, player: PlayerId) -> Option<Puzzle> = reviews::next_puzzle;
    /// Leases the first free of engine slots `0..slots` to `holder` until
    /// `until`; `None` when every one is held (see [`engine_slots`]).
    write fn lease_engine_slot(
        slots: u32,
        holder: &str,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
    ) -> Option<u32> = engine_slots::lease_engine_slot;
    /// Gives engine slot `slot` back, if `holder` still holds it.
    write fn release_engine_slot(slot: u32, holder: &str) -> () = engine_slots::release_engine_slot;
    /// The server's puzzle solvers, most solved first.
    read fn puzzle_solvers(
        server_id: i64,
        limit: usize,
    ) -> Vec<PuzzleSolver> = reviews::puzzle_solvers;
    /// The server `platform_id` of `platform`, if the bot has seen it.
    read fn find_server(
        platform: Platform,
        platform_id: &str,
    ) -> Option<ServerRow> = identity::find_server;
    /// Team match `id`.
    read fn team_match(id: i64) -> Option<MatchRow> = matches::team_match;
    /// The latest team match of a server, home or away.
    read fn latest_match(server_id: i64) -> Option<MatchRow> = matches::latest_match;
    /// The team match a game belongs to, if any.
    read fn match_of_game(game_id: i64) -> Option<MatchRow> = matches::match_of_game;
    /// The matches not over `player` signed up for with a team.
    read fn matches_joined(
        team_id: i64,
        player: PlayerId,
    ) -> Vec<MatchRow> = matches::matches_joined;
    /// The members signed up for a match, in their order of sign-up.
    read fn match_entrants(match_id: i64) -> Vec<MatchEntrant> = matches::entrants;
    /// A match's games, by board.
    read fn match_games(match_id: i64) -> Vec<MatchGameRow> = matches::games;
    /// The team of server `server_id` whose name in lower case is `key`.
    read fn team_by_name(server_id: i64, key: &str) -> Option<TeamRow> = teams::team_by_name;
    /// A server's teams by name (at most `limit`) with their members'
    /// names, and how many it has in all.
    read fn teams(
        server_id: i64,
        limit: usize,
    ) -> (Vec<(TeamRow, Vec<String>)>, u32) = teams::teams;
    /// How many teams a server has.
    read fn team_count(server_id: i64) -> u32 = teams::team_count;
    /// The teams of a server `player` belongs to.
    read fn teams_of(server_id: i64, player: PlayerId) -> Vec<TeamRow> = teams::teams_of;
    /// A team's members, in the order they joined.
    read fn team_members(team_id: i64) -> Vec<PlayerId> = teams::members;
    /// The teams playing game `game_id`, with their colours.
    read fn game_teams(game_id: i64) -> Vec<(shakmaty::Color, TeamRow)> = teams::game_teams;
    /// Whether a team plays a running game.
    read fn team_plays(team_id: i64) -> bool = teams::team_plays;
    /// The running games in a channel that a team of `player`'s plays.
    read fn vote_games_in_channel(
        channel_id: i64,
        player: PlayerId,
    ) -> Vec<i64> = teams::vote_games_in_channel;
    /// The votes on move `ply` of a game by the current members of a team.
    read fn votes(game_id: i64, ply: u32, team_id: i64) -> Vec<VoteRow> = teams::votes;
    /// Whether a vote game's members may change their votes.
    read fn votes_changeable(game_id: i64) -> bool = teams::votes_changeable;
    read fn game(id: i64) -> Option<GameRecord> = games::game;
    /// Every game, oldest first, or those `player_name` played, or those of
    /// tournament `tournament`.
    read fn listed_games(
        player_name: Option<&str>,
        tournament: Option<i64>,
    ) -> Vec<GameSummary> = games::listed_games;
    /// `player`'s games in `channel_id` (the ongoing ones only, if asked), newest first.
    read fn games_in_channel(
        channel_id: i64,
        player: PlayerId,
        ongoing_only: bool,
    ) -> Vec<GameSummary> = games::games_in_channel;
    /// `player`'s ongoing games on a server, newest first.
    read fn ongoing_games_on_server(
        server_id: i64,
        player: PlayerId,
    ) -> Vec<GameSummary> = games::ongoing_games_on_server;
    /// The games in `channel_id` that a team of `player`'s plays (vote
    /// games), newest first.
    read fn team_games_in_channel(
        channel_id: i64,
        player: PlayerId,
    ) -> Vec<GameSummary> = games::team_games_in_channel;
    /// The ongoing games on a server that a team of `player`'s plays, newest first.
    read fn team_games_on_server(
        server_id: i64,
        player: PlayerId,
    ) -> Vec<GameSummary> = games::team_games_on_server;
    /// How many challenges `challenger` has open (not expired at `now`),
    /// in every channel and server.
    read fn open_challenge_count(
        challenger: PlayerId,
        now: DateTime<Utc>,
    ) -> u32 = games::open_challenge_count;
    /// Open challenges in a channel that have not expired at `now`, oldest first.
    read fn open_challenges(
        channel_id: i64,
        now: DateTime<Utc>,
    ) -> Vec<ChallengeRow> = games::open_challenges;
    /// The earliest instant the scheduler must look at a running game: a
    /// reminder or a flag, whichever comes first.
    read fn next_wake_up() -> Option<DateTime<Utc>> = schedule::next_wake_up;
    /// Running games whose wake-up (a reminder or a flag) has come at `now`,
    /// earliest first, at most `limit`.
    /// Sets game `id`'s wake-up to `at` if its version is still `version`:
    /// the scheduler woke for it early (see [`super::WakeUp`]).
    write fn rearm_wake_up(
        id: i64,
        version: i64,
        at: Option<DateTime<Utc>>,
    ) -> () = schedule::rearm_wake_up;
    read fn due_games(now: DateTime<Utc>, limit: usize) -> Vec<DueGame> = schedule::due_games;
    /// Claims acts whose notices are due on `platform` until `lease_until`
    /// (see [`outbox::claim`]), oldest first.
    write fn claim_notices(
        platform: Platform,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: usize,
    ) -> Vec<QueuedNotices> = outbox::claim;
    /// Records how far the delivery of act `act_key`'s notices came.
    write fn settle_notices(act_key: &str, progress: &NoticeProgress) -> () = outbox::settle;
    /// Records the parts of a notice that went out (see [`outbox::part_sent`]).
    write fn notice_part_sent(act_key: &str, item: u32, next_part: u32) -> () = outbox::part_sent;
    /// Marks acts as answered by their own process (see [`outbox::settle_answered`]).
    write fn settle_answered(act_keys: &[String]) -> () = outbox::settle_answered;
    /// What the notices for `server_id` met since `since` (see [`outbox::trouble`]).
    read fn notice_trouble(server_id: i64, since: DateTime<Utc>) -> NoticeTrouble = outbox::trouble;
    /// When the next notice on `platform` is due, if any is waiting.
    read fn next_notice_due(platform: Platform) -> Option<DateTime<Utc>> = outbox::next_due;
    /// `player`'s running leave on a server, if any.
    read fn running_leave(
        player: PlayerId,
        server_id: i64,
    ) -> Option<LeaveRow> = schedule::running_leave;
    /// The running leaves of two players on a server (a game's two sides), in one call.
    read fn running_leaves(
        server_id: i64,
        players: [PlayerId; 2],
    ) -> Vec<LeaveRow> = schedule::running_leaves;
    /// Days of leave `player` has counted on a server for leaves starting in `year`.
    read fn leave_days_in_year(
        player: PlayerId,
        server_id: i64,
        year: i32,
    ) -> u32 = schedule::leave_days_in_year;
    /// Running leaves whose end has come at `now`, earliest first.
    read fn due_leave_ends(
        now: DateTime<Utc>,
        limit: usize,
    ) -> Vec<LeaveRow> = schedule::due_leave_ends;
    /// The earliest end of a running leave.
    read fn next_leave_end() -> Option<DateTime<Utc>> = schedule::next_leave_end;
    /// Running games with a clock, by id after `after_id`, at most `limit`
    /// (for crediting every clock after an outage, a page at a time).
    read fn clocked_games(after_id: i64, limit: usize) -> Vec<DueGame> = schedule::clocked_games;
    /// The last instant the bot was known to be running.
    read fn last_heartbeat() -> Option<DateTime<Utc>> = schedule::last_heartbeat;
    /// Records that the bot is running at `now`.
    write fn beat(now: DateTime<Utc>) -> () = schedule::beat;
    /// The server's finished games with a result (1-0, 0-1, ½-½), oldest first.
    /// The results and first `plies` moves of the latest `max` finished
    /// games of a server from the standard start.
    read fn openings_played(
        server_id: i64,
        max: usize,
        plies: u32,
    ) -> Vec<(crate::core::event::GameResult, Vec<String>)> = games::openings_played;
    read fn finished_games(server_id: i64) -> Vec<Finished> = games::finished_games;
    /// `player`'s rating in `pool` on a server, if they have played a rated
    /// game of that variant there.
    read fn rating(
        server_id: i64,
        player: PlayerId,
        pool: Variant,
    ) -> Option<RatingRow> = ratings::rating;
    /// `player`'s ratings in `pool` after each rated game on a server, oldest first.
    read fn rating_history(
        server_id: i64,
        player: PlayerId,
        pool: Variant,
    ) -> Vec<RatingPoint> = ratings::rating_history;
    /// The server's 1/½/0 table over finished, scored games, best first.
    read fn standings(server_id: i64) -> Vec<StandingRow> = ratings::standings;
    /// The server's ladder, best first (empty, version 0, before anyone joins).
    read fn ladder(server_id: i64) -> LadderRow = ladder::ladder;
    /// The server's ladder challenges still pending or being played.
    read fn unsettled_ladder_matches(
        server_id: i64,
    ) -> Vec<LadderMatchRow> = ladder::unsettled_ladder_matches;
    /// The ladder challenge that made challenge `challenge_id`, if any.
    read fn ladder_match_of_challenge(
        challenge_id: i64,
    ) -> Option<LadderMatchRow> = ladder::ladder_match_of_challenge;
    /// The ladder challenge that game `game_id` settles, if any.
    read fn ladder_match_of_game(
        game_id: i64,
    ) -> Option<LadderMatchRow> = ladder::ladder_match_of_game;
    /// Pending ladder challenges whose time to accept has run out at `now`,
    /// earliest first, at most `limit`.
    read fn due_ladder_forfeits(
        now: DateTime<Utc>,
        limit: usize,
    ) -> Vec<LadderMatchRow> = ladder::due_ladder_forfeits;
    /// Ladder players last active at or before `active_before`, longest idle
    /// first, at most `limit`.
    read fn idle_ladder_rungs(
        active_before: DateTime<Utc>,
        limit: usize,
    ) -> Vec<IdleRung> = ladder::idle_ladder_rungs;
    /// The earliest ladder deadline: a pending challenge's `accept_by`, or a
    /// player's last activity plus `inactive_after` (when inactivity counts).
    read fn next_ladder_deadline(
        inactive_after: Option<chrono::Duration>,
    ) -> Option<DateTime<Utc>> = ladder::next_ladder_deadline;
    /// A tournament by id.
    read fn tournament(id: i64) -> Option<TournamentRow> = tournaments::tournament;
    /// The tournaments created in a channel, newest first.
    read fn tournaments_in_channel(
        channel_id: i64,
    ) -> Vec<TournamentRow> = tournaments::tournaments_in_channel;
    /// A tournament's entrants, in join order.
    read fn tournament_entrants(
        tournament_id: i64,
    ) -> Vec<EntrantRow> = tournaments::tournament_entrants;
    /// A tournament's pairings with their games' states, by round, board and creation.
    read fn tournament_pairings(
        tournament_id: i64,
    ) -> Vec<PairingRow> = tournaments::tournament_pairings;
    /// The tournament a game was played in, if any.
    read fn tournament_of_game(game_id: i64) -> Option<i64> = tournaments::tournament_of_game;
    /// Tournaments still open for entry whose window closed at `now`, earliest first.
    read fn due_tournaments(
        now: DateTime<Utc>,
        limit: usize,
    ) -> Vec<DueTournament> = tournaments::due_tournaments;
    /// The games after id `after`, at most `limit`, in order of id, each
    /// read whole or with why it cannot be (`pawnpost check`).
    read fn game_page(after: i64, limit: usize) -> Vec<PagedGame> = games::game_page;
    /// The earliest close of an entry window still open.
    read fn next_tournament_start() -> Option<DateTime<Utc>> = tournaments::next_tournament_start;
    /// Marks a server the bot was removed from (see [`presence::set_absent`]).
    write fn set_server_absent(
        platform: Platform,
        platform_id: &str,
        at: DateTime<Utc>,
    ) -> Option<i64> = presence::set_absent;
    /// Marks a server the bot is back in (see [`presence::set_present`]).
    write fn set_server_present(
        platform: Platform,
        platform_id: &str,
    ) -> Option<(i64, DateTime<Utc>)> = presence::set_present;
    /// The servers of `platform` the bot was removed from.
    read fn absent_servers(platform: Platform) -> Vec<String> = presence::absent_servers;
    /// When the bot left server `id`, if it is absent.
    read fn server_absent_since(id: i64) -> Option<DateTime<Utc>> = presence::absent_since;
    /// Marks a channel deleted (see [`presence::set_gone`]).
    write fn set_channel_gone(
        server_id: i64,
        platform_id: &str,
        at: DateTime<Utc>,
    ) -> Option<i64> = presence::set_gone;
    /// A server's running games, by id after `after`.
    read fn running_games_on_server(
        server_id: i64,
        after: i64,
        limit: usize,
    ) -> Vec<i64> = presence::running_on_server;
    /// Whether a channel was deleted.
    read fn channel_gone(platform: Platform, platform_id: &str) -> bool = presence::channel_gone;
    /// A channel's running games.
    read fn running_games_in_channel(channel_id: i64, limit: usize) -> Vec<i64> = presence::running_in_channel;
    /// Game `game_id`'s web link token: `fresh` if it had none (then kept);
    /// `None` when there is no such game.
    write fn game_token(game_id: i64, fresh: &str) -> Option<String> = web::game_token;
    /// The game whose web link token is `token`.
    read fn game_by_token(token: &str) -> Option<i64> = web::game_by_token;
    /// Game `game_id`'s web link token if it has one (never made here).
    read fn token_of(game_id: i64) -> Option<String> = web::token_of;
    /// The stored versions of games `ids` (see [`web::game_versions`]).
    read fn game_versions(ids: &[i64]) -> Vec<(i64, i64)> = web::game_versions;
    /// `player`'s games on a server for their page (see [`web::player_games`]).
    read fn player_games(
        server_id: i64,
        player: PlayerId,
        limit: u32,
        skip: u32,
    ) -> Vec<GameSummary> = web::player_games;
    /// A server's tournaments, newest first, at most `limit`.
    read fn tournaments_on_server(
        server_id: i64,
        limit: u32,
    ) -> Vec<TournamentRow> = tournaments::tournaments_on_server;
    /// The open and running tournaments of a server and its club's, newest first.
    read fn club_tournaments(
        server_id: i64,
        limit: u32,
    ) -> Vec<TournamentRow> = tournaments::club_tournaments;
    /// Records how far an act's own process delivered its answer (see [`presence::delivering`]).
    write fn delivering(act_key: &str, next_item: u32, next_part: u32, until: DateTime<Utc>) -> () = presence::delivering;
}

#[cfg(test)]
impl Store {
    /// Runs one statement of a test's own (damage, say) in a write transaction.
    pub(crate) async fn execute(&self, sql: &str, params: &[super::sql::Value]) -> Result<u64> {
        use super::sql::Conn;
        writing!(self, |c| c.execute(sql, params))
    }
}

impl Store {
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
                    through,
                    step.through,
                    now
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
}
