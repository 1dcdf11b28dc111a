//! The SQLite store: all of pawnpost's SQL lives in this file.
//!
//! One file in WAL mode with durable commits (`synchronous = FULL`),
//! foreign keys on and a busy timeout. Every transaction that may write
//! begins `IMMEDIATE`, taking the write lock (or queueing for it, up to the
//! busy timeout) before it reads: a deferred one that reads first cannot
//! wait when it then needs the lock (SQLite answers "database is locked" at
//! once), so two processes on one file would fail instead of queueing.
//!
//! Opening a file runs `PRAGMA quick_check` and refuses a damaged one;
//! [`check_file`] runs the full `integrity_check` on request (`pawnpost
//! check`). Migrations are the numbered files in
//! `migrations/`, compiled in, applied in order in one transaction each,
//! with the schema version kept in `PRAGMA user_version`. Every call runs its
//! blocking SQLite work on tokio's blocking pool, so the runtime never waits
//! on the disk.

mod ladder;

use std::path::Path;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, SecondsFormat, Utc};
use rusqlite::{
    Connection, OpenFlags, OptionalExtension, Row, Transaction, TransactionBehavior, params,
};
use serde::Serialize;
use shakmaty::Color;

mod tournaments;

use super::DriverError;
use super::transfer::{Table, Value};
use super::{
    ActRequest, ChallengeClosing, ChallengeRow, ChallengeStatus, ChannelGames, ChannelRow,
    ColorChoice, Commit, Committed, DueGame, FinishedGame, GameRecord, GameState, GameSummary,
    GameUpdate, IdleRung, LadderMatchRow, LadderRow, LeaveRow, MoveRow, NewChallenge, NewGame,
    Notify, OpenedAct, Platform, PlayerRow, RatingPoint, RatingRow, RatingUpdate, Result,
    ServerDefaults, ServerRow, StandingRow, StorageError, Store,
};
use crate::core::clock::Clock;
use crate::core::event::{GameResult, Reason, color_str, parse_color};
use crate::core::game::{DrawRules, Note, PlayerId};
use crate::core::names::Named;
use crate::core::notation::Lang;

/// The migrations, in order: version N is `MIGRATIONS[N - 1]`.
pub const MIGRATIONS: &[(&str, &str)] = &[
    ("0001_init", include_str!("../../migrations/0001_init.sql")),
    (
        "0002_clocks",
        include_str!("../../migrations/0002_clocks.sql"),
    ),
    (
        "0003_heartbeat",
        include_str!("../../migrations/0003_heartbeat.sql"),
    ),
    (
        "0004_reminders",
        include_str!("../../migrations/0004_reminders.sql"),
    ),
    (
        "0005_leave",
        include_str!("../../migrations/0005_leave.sql"),
    ),
    (
        "0006_competition",
        include_str!("../../migrations/0006_competition.sql"),
    ),
    (
        "0007_ladder",
        include_str!("../../migrations/0007_ladder.sql"),
    ),
    (
        "0008_tournaments",
        include_str!("../../migrations/0008_tournaments.sql"),
    ),
    (
        "0009_challenges_by_challenger",
        include_str!("../../migrations/0009_challenges_by_challenger.sql"),
    ),
];

/// How long a statement waits for another process's write lock.
const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// Prepared statements kept per connection (rusqlite's default is 16).
const STATEMENT_CACHE: usize = 64;

/// A SQLite database file.
#[derive(Clone)]
pub struct SqliteStore {
    conn: Arc<Mutex<Connection>>,
}

impl From<rusqlite::Error> for StorageError {
    fn from(error: rusqlite::Error) -> StorageError {
        use rusqlite::ErrorCode;
        // A page SQLite finds damaged while serving is damage, not a
        // passing failure: the act is refused as such and never retried.
        let kind: fn(DriverError) -> StorageError = match error.sqlite_error_code() {
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StorageError::Busy,
            Some(ErrorCode::DiskFull) => StorageError::DiskFull,
            Some(ErrorCode::ReadOnly) => StorageError::ReadOnly,
            Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => StorageError::Damaged,
            _ => StorageError::Driver,
        };
        kind(Box::new(error))
    }
}

impl SqliteStore {
    /// Opens (or creates) the file, checks it with `PRAGMA quick_check` and
    /// brings its schema up to date. A damaged file is refused with
    /// [`StorageError::Corrupt`], naming the file and what to do.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore> {
        let path = path.as_ref();
        SqliteStore::open_waiting(path).map_err(|error| match error {
            StorageError::Corrupt(problem) => damaged_at_open(path, &problem),
            // Not a database at all, or damage SQLite meets before the check.
            StorageError::Damaged(source) => damaged_at_open(path, &source),
            other => other,
        })
    }

    /// A fresh database that lives in memory, for tests and tools. The
    /// store keeps one connection, so every call sees the same database
    /// (each `:memory:` connection would have its own).
    pub fn open_in_memory() -> Result<SqliteStore> {
        SqliteStore::open(":memory:")
    }

    /// Opens the file, waiting while another process holds it. Two processes
    /// opening a new file at once can get SQLITE_BUSY without SQLite's busy
    /// handler being asked (switching to WAL, or reading while the other
    /// one sets WAL up), so the whole opening is tried again until the busy
    /// timeout has passed.
    fn open_waiting(path: &Path) -> Result<SqliteStore> {
        let started = std::time::Instant::now();
        loop {
            match SqliteStore::open_checked(path) {
                Err(StorageError::Busy(_)) if started.elapsed() < BUSY_TIMEOUT => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                other => return other,
            }
        }
    }

    fn open_checked(path: &Path) -> Result<SqliteStore> {
        let mut conn = Connection::open(path)?;
        // First, so that switching to WAL waits for another process's lock
        // instead of failing at once.
        conn.busy_timeout(BUSY_TIMEOUT)?;
        // WAL lets readers go on while an act commits; FULL makes a commit
        // durable (WAL's default, NORMAL, may lose the last commits on power
        // loss, and a lost act would be replayed as new).
        conn.execute_batch(
            "PRAGMA journal_mode = WAL;
             PRAGMA synchronous = FULL;
             PRAGMA foreign_keys = ON;
             PRAGMA cache_size = -16384;",
        )?;
        // Before anything is written: a damaged file must not serve an act.
        quick_check(&conn)?;
        // Room for every statement of this file, so the hot ones are never evicted.
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        migrate(&mut conn)?;
        Ok(SqliteStore {
            conn: Arc::new(Mutex::new(conn)),
        })
    }

    /// The schema version recorded in the file.
    pub fn schema_version(&self) -> Result<usize> {
        let conn = self.lock()?;
        schema_version(&conn)
    }

    fn lock(&self) -> Result<std::sync::MutexGuard<'_, Connection>> {
        self.conn
            .lock()
            .map_err(|_| StorageError::Backend("connection lock poisoned".to_owned()))
    }

    /// Runs blocking `work` on the connection without stalling the runtime.
    ///
    /// On a multi-threaded runtime the current worker hands its other tasks
    /// over and runs the work itself (`block_in_place`), which saves two
    /// thread switches per call; elsewhere the work goes to the blocking pool.
    async fn with<T, F>(&self, work: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T> + Send + 'static,
    {
        let conn = Arc::clone(&self.conn);
        let run = move || {
            let mut conn = conn
                .lock()
                .map_err(|_| StorageError::Backend("connection lock poisoned".to_owned()))?;
            work(&mut conn)
        };
        let multi_thread = tokio::runtime::Handle::try_current()
            .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
        if multi_thread {
            tokio::task::block_in_place(run)
        } else {
            tokio::task::spawn_blocking(run)
                .await
                .map_err(|e| StorageError::Backend(format!("blocking task: {e}")))?
        }
    }

    /// Runs reads in one read transaction: one lock for all of them, and
    /// one consistent snapshot.
    async fn read<T, F>(&self, work: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T> + Send + 'static,
    {
        self.with(move |conn| {
            let tx = conn.transaction()?;
            let value = work(&tx)?;
            tx.commit()?;
            Ok(value)
        })
        .await
    }

    /// Runs `work` in one `IMMEDIATE` transaction: it holds the write lock
    /// from its first read, so it queues behind another process's write
    /// (up to the busy timeout) instead of failing half-way.
    async fn write<T, F>(&self, work: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T> + Send + 'static,
    {
        self.with(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let value = work(&tx)?;
            tx.commit()?;
            Ok(value)
        })
        .await
    }
}

/// A damaged file refused at open, naming the file and what to do.
fn damaged_at_open(path: &Path, problem: &dyn std::fmt::Display) -> StorageError {
    StorageError::Corrupt(format!(
        "{}: {problem}. Nothing was changed. Stop every pawnpost using this file and \
         restore it from a backup; `pawnpost check --db {}` lists every problem",
        path.display(),
        path.display()
    ))
}

/// SQLite's quick check of the file (its pages, b-trees and records, in one
/// read of the whole file, but not whether indexes match their tables).
fn quick_check(conn: &Connection) -> Result<()> {
    let found = match pragma_lines(conn, "PRAGMA quick_check(10)") {
        Ok(found) if found == ["ok"] => return Ok(()),
        Ok(found) => found.join("; "),
        // Damage bad enough to stop the check itself.
        Err(StorageError::Damaged(source)) => source.to_string(),
        Err(other) => return Err(other),
    };
    Err(StorageError::Corrupt(format!(
        "SQLite's quick_check finds the file damaged ({found})"
    )))
}

/// The text lines a check pragma answers.
fn pragma_lines(conn: &Connection, pragma: &str) -> Result<Vec<String>> {
    Ok(conn
        .prepare(pragma)?
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<Vec<_>>>()?)
}

/// Every problem found in the SQLite file at `path`, for `pawnpost check`:
/// SQLite's full `integrity_check` (which also compares every index with
/// its table), then, if the file is sound, rows naming missing rows and
/// games whose moves do not add up. Empty when all is well. The file is
/// neither created, migrated nor changed.
pub fn check_file(path: &Path) -> Result<Vec<String>> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    let mut problems = match pragma_lines(&conn, "PRAGMA integrity_check(100)") {
        Ok(lines) => lines,
        // Too damaged to check at all ("file is not a database").
        Err(error) => vec![error.to_string()],
    };
    problems.retain(|line| line != "ok");
    // Reading rows of a damaged file may give anything: stop here.
    if !problems.is_empty() || schema_version(&conn)? == 0 {
        return Ok(problems);
    }
    let mut orphans = conn.prepare("PRAGMA foreign_key_check")?;
    let orphans = orphans.query_map([], |r| {
        Ok(format!(
            "{} row {} names a missing {} row",
            r.get::<_, String>(0)?,
            r.get::<_, Option<i64>>(1)?.unwrap_or_default(),
            r.get::<_, String>(2)?
        ))
    })?;
    for orphan in orphans {
        problems.push(orphan?);
    }
    let mut games = conn.prepare(
        "SELECT g.id, g.plies, count(m.ply) FROM games g LEFT JOIN moves m ON m.game_id = g.id
         GROUP BY g.id
         HAVING count(m.ply) <> g.plies
             OR (count(m.ply) > 0 AND (min(m.ply) <> 1 OR max(m.ply) <> g.plies))
         ORDER BY g.id",
    )?;
    let games = games.query_map([], |r| {
        let (id, plies, stored) = (
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, i64>(2)?,
        );
        Ok(if stored == plies {
            format!("game {id} moves: {plies} stored, not numbered 1 to {plies}")
        } else {
            format!("game {id} moves: {plies} counted, {stored} stored")
        })
    })?;
    for game in games {
        problems.push(game?);
    }
    Ok(problems)
}

impl SqliteStore {
    /// Up to `limit` rows of `table` after the key `after`, in key order:
    /// one page of the copy to PostgreSQL.
    pub async fn export_page(
        &self,
        table: &'static Table,
        after: Option<Vec<Value>>,
        limit: usize,
    ) -> Result<Vec<Vec<Value>>> {
        self.read(move |conn| {
            let keys = table.key_list();
            let filter = match &after {
                Some(_) => {
                    let marks: Vec<String> = (1..=table.key).map(|i| format!("?{i}")).collect();
                    format!("WHERE ({keys}) > ({})", marks.join(", "))
                }
                None => String::new(),
            };
            let sql = format!(
                "SELECT {} FROM {} {filter} ORDER BY {keys} LIMIT {limit}",
                table.column_list(),
                table.name
            );
            let params: Vec<rusqlite::types::Value> = after
                .unwrap_or_default()
                .into_iter()
                .map(|value| match value {
                    Value::Null => rusqlite::types::Value::Null,
                    Value::Int(i) => rusqlite::types::Value::Integer(i),
                    Value::Real(r) => rusqlite::types::Value::Real(r),
                    Value::Text(t) => rusqlite::types::Value::Text(t),
                })
                .collect();
            let width = table.columns.len();
            let mut statement = conn.prepare(&sql)?;
            let rows = statement
                .query_map(rusqlite::params_from_iter(params), |r| {
                    (0..width)
                        .map(|i| r.get::<_, rusqlite::types::Value>(i))
                        .collect::<rusqlite::Result<Vec<_>>>()
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            rows.into_iter()
                .map(|row| {
                    row.into_iter()
                        .map(|value| match value {
                            rusqlite::types::Value::Null => Ok(Value::Null),
                            rusqlite::types::Value::Integer(i) => Ok(Value::Int(i)),
                            rusqlite::types::Value::Real(r) => Ok(Value::Real(r)),
                            rusqlite::types::Value::Text(t) => Ok(Value::Text(t)),
                            other => Err(corrupt(table.name, &format!("{other:?}"))),
                        })
                        .collect()
                })
                .collect()
        })
        .await
    }

    /// How many rows `table` holds.
    pub async fn count_rows(&self, table: &'static Table) -> Result<u64> {
        self.read(move |conn| {
            let sql = format!("SELECT count(*) FROM {}", table.name);
            let count: i64 = conn.query_row(&sql, [], |r| r.get(0))?;
            Ok(count as u64)
        })
        .await
    }
}

fn schema_version(conn: &Connection) -> Result<usize> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    usize::try_from(version).map_err(|_| corrupt("user_version", &version.to_string()))
}

/// Applies every migration the file does not have yet, one transaction each.
fn migrate(conn: &mut Connection) -> Result<()> {
    let current = check_not_newer(conn)?;
    for (index, (name, sql)) in MIGRATIONS.iter().enumerate().skip(current) {
        apply_migration(conn, index + 1, name, sql)?;
    }
    // A newer binary may have migrated the file while we waited for the lock.
    check_not_newer(conn).map(|_| ())
}

/// The file's version, refused if this binary does not know it.
fn check_not_newer(conn: &Connection) -> Result<usize> {
    let current = schema_version(conn)?;
    if current > MIGRATIONS.len() {
        return Err(StorageError::Migration {
            version: current,
            message: format!(
                "the database is newer than this binary (which knows {} migrations)",
                MIGRATIONS.len()
            ),
        });
    }
    Ok(current)
}

/// Applies migration `version` unless the file already has it.
///
/// The version is read inside the write transaction, so two processes
/// opening a new file at once cannot both apply the same step.
fn apply_migration(conn: &mut Connection, version: usize, name: &str, sql: &str) -> Result<()> {
    let failed = |e: rusqlite::Error| StorageError::Migration {
        version,
        message: format!("{name}: {e}"),
    };
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(failed)?;
    if schema_version(&tx)? >= version {
        return Ok(());
    }
    tx.execute_batch(sql).map_err(failed)?;
    // Inside the transaction: the step and its number commit together.
    tx.pragma_update(None, "user_version", version as i64)
        .map_err(failed)?;
    tx.commit().map_err(failed)
}

fn to_text(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn from_text(text: &str) -> Result<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| StorageError::Corrupt(format!("instant {text:?}: {e}")))
}

fn corrupt(what: &str, value: &str) -> StorageError {
    StorageError::Corrupt(format!("{what} {value:?}"))
}

fn lang(text: &str) -> Result<Lang> {
    Lang::from_locale(text).ok_or_else(|| corrupt("language", text))
}

fn color(text: &str) -> Result<Color> {
    parse_color(text).ok_or_else(|| corrupt("colour", text))
}

fn platform(text: &str) -> Result<Platform> {
    Platform::from_name(text).ok_or_else(|| corrupt("platform", text))
}

const SERVER_COLUMNS: &str = "id, platform, platform_id, language, time_control, \
     draw_agreement_allowed, draw_min_moves, moderator_role";

/// A server row as SQLite returns it, before its text columns are checked.
type ServerTuple = (
    i64,
    String,
    String,
    String,
    String,
    bool,
    u32,
    Option<String>,
);

fn server_row(row: &Row<'_>) -> rusqlite::Result<ServerTuple> {
    row.try_into()
}

fn to_server(t: ServerTuple) -> Result<ServerRow> {
    Ok(ServerRow {
        id: t.0,
        platform: platform(&t.1)?,
        platform_id: t.2,
        language: lang(&t.3)?,
        time_control: t.4,
        draw_rules: DrawRules {
            agreement_allowed: t.5,
            min_moves_each: t.6,
        },
        moderator_role: t.7,
    })
}

const PLAYER_COLUMNS: &str = "id, platform, platform_id, display_name, language, notify";

type PlayerTuple = (i64, String, String, String, Option<String>, String);

fn player_row(row: &Row<'_>) -> rusqlite::Result<PlayerTuple> {
    row.try_into()
}

fn to_player(t: PlayerTuple) -> Result<PlayerRow> {
    Ok(PlayerRow {
        id: PlayerId(t.0),
        platform: platform(&t.1)?,
        platform_id: t.2,
        display_name: t.3,
        language: t.4.as_deref().map(lang).transpose()?,
        notify: Notify::from_name(&t.5).ok_or_else(|| corrupt("notify", &t.5))?,
    })
}

fn find_player(
    conn: &Connection,
    platform: Platform,
    platform_id: &str,
) -> Result<Option<PlayerRow>> {
    let sql =
        format!("SELECT {PLAYER_COLUMNS} FROM players WHERE platform = ?1 AND platform_id = ?2");
    let found = conn
        .prepare_cached(&sql)?
        .query_row(params![platform.as_str(), platform_id], player_row)
        .optional()?;
    found.map(to_player).transpose()
}

fn player_by_id(conn: &Connection, id: PlayerId) -> Result<Option<PlayerRow>> {
    let sql = format!("SELECT {PLAYER_COLUMNS} FROM players WHERE id = ?1");
    let found = conn
        .prepare_cached(&sql)?
        .query_row(params![id.0], player_row)
        .optional()?;
    found.map(to_player).transpose()
}

fn game_state(
    status: &str,
    result: Option<String>,
    reason: Option<String>,
    ended: Option<String>,
) -> Result<GameState> {
    match status {
        "ongoing" => Ok(GameState::Ongoing),
        "over" => {
            let result = result.unwrap_or_default();
            let reason = reason.unwrap_or_default();
            Ok(GameState::Over {
                result: GameResult::from_pgn(&result).ok_or_else(|| corrupt("result", &result))?,
                reason: Reason::from_name(&reason).ok_or_else(|| corrupt("reason", &reason))?,
                ended_at: from_text(&ended.unwrap_or_default())?,
            })
        }
        other => Err(corrupt("game status", other)),
    }
}

fn load_game(conn: &Connection, id: i64) -> Result<Option<GameRecord>> {
    let head = conn
        .prepare_cached(
            "SELECT g.server_id, g.channel_id, g.white_id, g.black_id, g.start_fen, g.time_control,
                    g.rated, g.draw_agreement_allowed, g.draw_min_moves, g.status, g.result,
                    g.reason, g.pending_offer, g.version, g.created_at, g.ended_at,
                    c.platform_id, g.clock, g.remind_at, g.plies
             FROM games g JOIN channels c ON c.id = g.channel_id WHERE g.id = ?1",
        )?
        .query_row(params![id], |r| {
            Ok((
                (
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, i64>(3)?,
                ),
                (
                    r.get::<_, Option<String>>(4)?,
                    r.get::<_, String>(5)?,
                    r.get::<_, bool>(6)?,
                ),
                (r.get::<_, bool>(7)?, r.get::<_, u32>(8)?),
                (
                    r.get::<_, String>(9)?,
                    r.get::<_, Option<String>>(10)?,
                    r.get::<_, Option<String>>(11)?,
                    r.get::<_, Option<String>>(12)?,
                ),
                (
                    r.get::<_, i64>(13)?,
                    r.get::<_, String>(14)?,
                    r.get::<_, Option<String>>(15)?,
                ),
                (
                    r.get::<_, String>(16)?,
                    r.get::<_, Option<String>>(17)?,
                    r.get::<_, Option<String>>(18)?,
                ),
                r.get::<_, u32>(19)?,
            ))
        })
        .optional()?;
    let Some((ids, setup, rules, status, meta, place, plies)) = head else {
        return Ok(None);
    };
    let clock = match place.1 {
        None => None,
        Some(json) => Some(
            serde_json::from_str::<Clock>(&json)
                .map_err(|e| corrupt(&format!("clock ({e})"), &json))?,
        ),
    };
    let moves = conn
        .prepare_cached(
            "SELECT ply, uci, san, played_at, draw_offer FROM moves WHERE game_id = ?1 ORDER BY ply",
        )?
        .query_map(params![id], |r| {
            Ok((
                r.get::<_, u32>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, bool>(4)?,
            ))
        })?
        .map(|row| {
            let (ply, uci, san, played_at, draw_offer) = row?;
            Ok(MoveRow {
                ply,
                uci,
                san,
                played_at: from_text(&played_at)?,
                draw_offer,
            })
        })
        .collect::<Result<Vec<MoveRow>>>()?;
    super::check_moves(id, plies, &moves)?;
    let notes = conn
        .prepare_cached("SELECT note FROM game_notes WHERE game_id = ?1 ORDER BY seq")?
        .query_map(params![id], |r| r.get::<_, String>(0))?
        .map(|json| {
            let json = json?;
            serde_json::from_str::<Note>(&json).map_err(|e| corrupt(&format!("note ({e})"), &json))
        })
        .collect::<Result<Vec<Note>>>()?;
    let player = |id: i64| -> Result<PlayerRow> {
        player_by_id(conn, PlayerId(id))?.ok_or(StorageError::NotFound("player"))
    };
    Ok(Some(GameRecord {
        id,
        server_id: ids.0,
        channel_id: ids.1,
        white: PlayerId(ids.2),
        black: PlayerId(ids.3),
        white_player: player(ids.2)?,
        black_player: player(ids.3)?,
        channel: place.0,
        clock,
        remind_at: place.2.as_deref().map(from_text).transpose()?,
        start_fen: setup.0,
        time_control: setup.1,
        rated: setup.2,
        draw_rules: DrawRules {
            agreement_allowed: rules.0,
            min_moves_each: rules.1,
        },
        created_at: from_text(&meta.1)?,
        state: game_state(&status.0, status.1, status.2, meta.2)?,
        pending_offer: status.3.as_deref().map(color).transpose()?,
        version: meta.0,
        moves,
        notes,
    }))
}

/// Game lists: `filter` is the WHERE clause over `g`, with parameters ?1 and ?2.
fn summaries(conn: &Connection, filter: &str, a: i64, b: i64) -> Result<Vec<GameSummary>> {
    let sql = format!(
        "SELECT g.id, g.channel_id, g.white_id, g.black_id, w.display_name, b.display_name,
                g.turn, g.plies, g.status, g.result, g.reason, g.ended_at
         FROM games g JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id
         WHERE {filter} ORDER BY g.id DESC"
    );
    conn.prepare_cached(&sql)?
        .query_map(params![a, b], |r| {
            Ok((
                (
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, i64>(3)?,
                ),
                (
                    r.get::<_, String>(4)?,
                    r.get::<_, String>(5)?,
                    r.get::<_, String>(6)?,
                    r.get::<_, u32>(7)?,
                ),
                (
                    r.get::<_, String>(8)?,
                    r.get::<_, Option<String>>(9)?,
                    r.get::<_, Option<String>>(10)?,
                    r.get::<_, Option<String>>(11)?,
                ),
            ))
        })?
        .map(|row| {
            let (ids, names, status) = row?;
            Ok(GameSummary {
                id: ids.0,
                channel_id: ids.1,
                white: PlayerId(ids.2),
                black: PlayerId(ids.3),
                white_name: names.0,
                black_name: names.1,
                turn: color(&names.2)?,
                plies: names.3,
                state: game_state(&status.0, status.1, status.2, status.3)?,
            })
        })
        .collect()
}

fn insert_challenge(tx: &Transaction<'_>, new: &NewChallenge, now: DateTime<Utc>) -> Result<i64> {
    tx.prepare_cached(
        "INSERT INTO challenges (server_id, channel_id, challenger_id, challenged_id, color,
                                 time_control, rated, start_fen, created_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute(params![
        new.server_id,
        new.channel_id,
        new.challenger.0,
        new.challenged.map(|p| p.0),
        new.color.as_str(),
        new.time_control,
        new.rated,
        new.start_fen,
        to_text(now),
        to_text(new.expires_at),
    ])?;
    Ok(tx.last_insert_rowid())
}

fn insert_game(tx: &Transaction<'_>, new: &NewGame, now: DateTime<Utc>) -> Result<i64> {
    tx.prepare_cached(
        "INSERT INTO games (server_id, channel_id, white_id, black_id, start_fen, time_control,
                            rated, draw_agreement_allowed, draw_min_moves, turn, challenge_id,
                            created_at, clock, deadline, remind_at, wake_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
    )?
    .execute(params![
        new.server_id,
        new.channel_id,
        new.white.0,
        new.black.0,
        new.start_fen,
        new.time_control,
        new.rated,
        new.draw_rules.agreement_allowed,
        new.draw_rules.min_moves_each,
        color_str(new.turn),
        new.challenge_id,
        to_text(now),
        clock_json(new.clock.as_ref())?,
        new.clock.and_then(|c| c.deadline()).map(deadline_text),
        new.remind_at.map(deadline_text),
        wake_at(new.clock.and_then(|c| c.deadline()), new.remind_at),
    ])?;
    Ok(tx.last_insert_rowid())
}

/// Records which game a challenge became.
fn link_challenge(tx: &Transaction<'_>, challenge_id: i64, game_id: i64) -> Result<()> {
    tx.prepare_cached("UPDATE challenges SET game_id = ?1 WHERE id = ?2")?
        .execute(params![game_id, challenge_id])?;
    Ok(())
}

fn clock_json(clock: Option<&Clock>) -> Result<Option<String>> {
    clock
        .map(serde_json::to_string)
        .transpose()
        .map_err(|e| StorageError::Backend(format!("clock to JSON: {e}")))
}

/// The instant the scheduler must look at the game again, if any: rounded
/// up to the stored millisecond, so a flag is never looked at early.
fn deadline_of(update: &GameUpdate) -> Option<String> {
    match update.state {
        GameState::Ongoing => update.clock.and_then(|c| c.deadline()).map(deadline_text),
        GameState::Over { .. } => None,
    }
}

/// The scheduler's next look at a game: the earlier of its reminder and its flag.
fn wake_at(deadline: Option<DateTime<Utc>>, remind_at: Option<DateTime<Utc>>) -> Option<String> {
    [deadline, remind_at]
        .into_iter()
        .flatten()
        .min()
        .map(deadline_text)
}

fn deadline_text(at: DateTime<Utc>) -> String {
    let below_millis = at.timestamp_subsec_nanos() % 1_000_000;
    if below_millis == 0 {
        to_text(at)
    } else {
        let up = chrono::Duration::nanoseconds(i64::from(1_000_000 - below_millis));
        to_text(at + up)
    }
}

fn update_game(tx: &Transaction<'_>, update: &GameUpdate) -> Result<()> {
    let (status, result, reason, ended) = match update.state {
        GameState::Ongoing => ("ongoing", None, None, None),
        GameState::Over {
            result,
            reason,
            ended_at,
        } => (
            "over",
            Some(result.as_pgn()),
            Some(reason.as_str()),
            Some(to_text(ended_at)),
        ),
    };
    let changed = tx
        .prepare_cached(
            "UPDATE games SET status = ?1, result = ?2, reason = ?3, ended_at = ?4,
                    pending_offer = ?5, turn = ?6, plies = plies + ?7, version = version + 1,
                    clock = ?10, deadline = ?11, remind_at = ?12, wake_at = ?13
             WHERE id = ?8 AND version = ?9",
        )?
        .execute(params![
            status,
            result,
            reason,
            ended,
            update.pending_offer.map(color_str),
            color_str(update.turn),
            update.new_moves.len() as i64,
            update.id,
            update.expected_version,
            clock_json(update.clock.as_ref())?,
            deadline_of(update),
            match update.state {
                GameState::Ongoing => update.remind_at.map(deadline_text),
                GameState::Over { .. } => None,
            },
            match update.state {
                GameState::Ongoing =>
                    wake_at(update.clock.and_then(|c| c.deadline()), update.remind_at),
                GameState::Over { .. } => None,
            },
        ])?;
    if changed == 0 {
        return Err(StorageError::Conflict);
    }
    let mut insert_move = tx.prepare_cached(
        "INSERT INTO moves (game_id, ply, uci, san, played_at, draw_offer)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for m in &update.new_moves {
        insert_move.execute(params![
            update.id,
            m.ply,
            m.uci,
            m.san,
            to_text(m.played_at),
            m.draw_offer
        ])?;
    }
    if !update.new_notes.is_empty() {
        let first: i64 = tx
            .prepare_cached("SELECT count(*) FROM game_notes WHERE game_id = ?1")?
            .query_row(params![update.id], |r| r.get(0))?;
        let mut insert_note =
            tx.prepare_cached("INSERT INTO game_notes (game_id, seq, note) VALUES (?1, ?2, ?3)")?;
        for (offset, note) in update.new_notes.iter().enumerate() {
            let json = serde_json::to_string(note)
                .map_err(|e| StorageError::Backend(format!("note to JSON: {e}")))?;
            insert_note.execute(params![update.id, first + offset as i64, json])?;
        }
    }
    Ok(())
}

/// Every write of one act, in one transaction; see [`Store::commit`].
///
/// Any early return drops `tx`, which rolls everything back.
fn commit_in<R, F>(
    conn: &mut Connection,
    commit: Commit,
    now: DateTime<Utc>,
    answer: F,
) -> Result<(Committed, R)>
where
    R: Serialize,
    F: FnOnce(&Committed) -> R,
{
    // IMMEDIATE takes the write lock now: the duplicate check below and the
    // insert of the key at the end cannot interleave with another process.
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let done = write_act(&tx, &commit, now, answer)?;
    tx.commit()?;
    Ok(done)
}

/// Every commit of `batch` in one transaction (see [`Store::commit_all`]).
fn commit_all_in<R, F>(
    conn: &mut Connection,
    batch: Vec<(Commit, F)>,
    now: DateTime<Utc>,
) -> Result<Vec<(Committed, R)>>
where
    R: Serialize,
    F: FnOnce(&Committed) -> R,
{
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let done = batch
        .into_iter()
        .map(|(commit, answer)| write_act(&tx, &commit, now, answer))
        .collect::<Result<Vec<_>>>()?;
    tx.commit()?;
    Ok(done)
}

/// One act's rows and its answer under its key, in `tx`; the caller commits.
fn write_act<R, F>(
    tx: &Transaction<'_>,
    commit: &Commit,
    now: DateTime<Utc>,
    answer: F,
) -> Result<(Committed, R)>
where
    R: Serialize,
    F: FnOnce(&Committed) -> R,
{
    if let Some(key) = &commit.act_key {
        refuse_processed(tx, key)?;
    }
    let committed = write_commit(tx, commit, now)?;
    let value = answer(&committed);
    if let Some(key) = &commit.act_key {
        record_answer(tx, key, &value, now)?;
    }
    Ok((committed, value))
}

fn refuse_processed(tx: &Transaction<'_>, key: &str) -> Result<()> {
    let seen = tx
        .prepare_cached("SELECT 1 FROM processed_acts WHERE act_key = ?1")?
        .exists(params![key])?;
    if seen {
        return Err(StorageError::DuplicateAct(key.to_owned()));
    }
    Ok(())
}

/// The rows of a commit, in the order of [`Commit`]'s fields.
fn write_commit(tx: &Transaction<'_>, commit: &Commit, now: DateTime<Utc>) -> Result<Committed> {
    let mut committed = Committed::default();
    if let Some(new) = &commit.new_challenge {
        committed.challenge_id = Some(insert_challenge(tx, new, now)?);
    }
    if let Some(closing) = &commit.closing_challenge {
        close_challenge(tx, closing)?;
    }
    if let Some(new) = &commit.new_game {
        let game_id = insert_game(tx, new, now)?;
        committed.game_id = Some(game_id);
        // Only a challenge this act closes becomes the game: an open one
        // keeps no game, whatever the caller names.
        let closed = commit.closing_challenge.map(|c| c.id);
        if let Some(challenge_id) = new.challenge_id.filter(|&id| closed == Some(id)) {
            link_challenge(tx, challenge_id, game_id)?;
        }
    }
    for update in &commit.game_updates {
        update_game(tx, update)?;
    }
    if let Some((player, language)) = commit.player_language {
        tx.prepare_cached("UPDATE players SET language = ?1 WHERE id = ?2")?
            .execute(params![language.map(Lang::as_str), player.0])?;
    }
    if let Some((player, notify)) = commit.player_notify {
        tx.prepare_cached("UPDATE players SET notify = ?1 WHERE id = ?2")?
            .execute(params![notify.as_str(), player.0])?;
    }
    if let Some(leave) = &commit.new_leave {
        tx.prepare_cached(
            "INSERT INTO leaves (player_id, server_id, starts_at, ends_at, days)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(params![
            leave.player.0,
            leave.server_id,
            to_text(leave.starts_at),
            to_text(leave.ends_at),
            leave.days
        ])?;
    }
    for update in &commit.rating_updates {
        write_rating(tx, update)?;
    }
    for change in &commit.tournament_changes {
        tournaments::write_change(tx, change, now, &mut committed)?;
    }
    if let Some(ending) = &commit.ending_leave {
        let changed = tx
            .prepare_cached(
                "UPDATE leaves SET ended_at = ?1, days = ?2 WHERE id = ?3 AND ended_at IS NULL",
            )?
            .execute(params![to_text(ending.ended_at), ending.days, ending.id])?;
        if changed == 0 {
            return Err(StorageError::Conflict);
        }
    }
    ladder::write(tx, commit, &committed, now)?;
    Ok(committed)
}

/// A new rating and its history row; a stale count of games is a conflict.
fn write_rating(tx: &Transaction<'_>, update: &RatingUpdate) -> Result<()> {
    let changed = if update.expected_games == 0 {
        tx.prepare_cached(
            "INSERT OR IGNORE INTO ratings
                 (server_id, player_id, rating, deviation, volatility, games, rated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6)",
        )?
        .execute(params![
            update.server_id,
            update.player.0,
            update.rating,
            update.deviation,
            update.volatility,
            to_text(update.at)
        ])?
    } else {
        tx.prepare_cached(
            "UPDATE ratings SET rating = ?3, deviation = ?4, volatility = ?5,
                                games = games + 1, rated_at = ?6
             WHERE server_id = ?1 AND player_id = ?2 AND games = ?7",
        )?
        .execute(params![
            update.server_id,
            update.player.0,
            update.rating,
            update.deviation,
            update.volatility,
            to_text(update.at),
            update.expected_games
        ])?
    };
    if changed == 0 {
        return Err(StorageError::Conflict);
    }
    tx.prepare_cached(
        "INSERT INTO rating_history (server_id, player_id, game_id, rating, deviation, at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![
        update.server_id,
        update.player.0,
        update.game_id,
        update.rating,
        update.deviation,
        to_text(update.at)
    ])?;
    Ok(())
}

const LEAVE_COLUMNS: &str = "id, player_id, server_id, starts_at, ends_at, ended_at, days";

/// A leave row as SQLite returns it, before its instants are checked.
type LeaveTuple = (i64, i64, i64, String, String, Option<String>, u32);

fn leave_row(r: &Row<'_>) -> rusqlite::Result<LeaveTuple> {
    r.try_into()
}

fn to_leave(t: LeaveTuple) -> Result<LeaveRow> {
    Ok(LeaveRow {
        id: t.0,
        player: PlayerId(t.1),
        server_id: t.2,
        starts_at: from_text(&t.3)?,
        ends_at: from_text(&t.4)?,
        ended_at: t.5.as_deref().map(from_text).transpose()?,
        days: t.6,
    })
}

/// Moves a challenge out of `open`; someone else closing it first is a conflict.
fn close_challenge(tx: &Transaction<'_>, closing: &ChallengeClosing) -> Result<()> {
    let changed = tx
        .prepare_cached("UPDATE challenges SET status = ?1 WHERE id = ?2 AND status = 'open'")?
        .execute(params![closing.to.as_str(), closing.id])?;
    if changed == 0 {
        return Err(StorageError::Conflict);
    }
    Ok(())
}

fn record_answer<R: Serialize>(
    tx: &Transaction<'_>,
    key: &str,
    value: &R,
    now: DateTime<Utc>,
) -> Result<()> {
    let json = serde_json::to_string(value)
        .map_err(|e| StorageError::Backend(format!("answer to JSON: {e}")))?;
    tx.prepare_cached(
        "INSERT INTO processed_acts (act_key, processed_at, answer) VALUES (?1, ?2, ?3)",
    )?
    .execute(params![key, to_text(now), json])?;
    Ok(())
}

fn challenge_row(r: &Row<'_>) -> rusqlite::Result<ChallengeTuple> {
    Ok((
        (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?),
        (r.get(5)?, r.get(6)?, r.get(7)?, r.get(8)?),
        (r.get(9)?, r.get(10)?, r.get(11)?),
    ))
}

type ChallengeTuple = (
    (i64, i64, i64, i64, Option<i64>),
    (String, String, bool, Option<String>),
    (String, String, String),
);

fn to_challenge(t: ChallengeTuple) -> Result<ChallengeRow> {
    let (ids, terms, meta) = t;
    Ok(ChallengeRow {
        id: ids.0,
        server_id: ids.1,
        channel_id: ids.2,
        challenger: PlayerId(ids.3),
        challenged: ids.4.map(PlayerId),
        color: ColorChoice::from_name(&terms.0).ok_or_else(|| corrupt("colour", &terms.0))?,
        time_control: terms.1,
        rated: terms.2,
        start_fen: terms.3,
        status: ChallengeStatus::from_name(&meta.0).ok_or_else(|| corrupt("status", &meta.0))?,
        created_at: from_text(&meta.1)?,
        expires_at: from_text(&meta.2)?,
    })
}

fn find_server(
    conn: &Connection,
    platform: Platform,
    platform_id: &str,
) -> Result<Option<ServerRow>> {
    let select =
        format!("SELECT {SERVER_COLUMNS} FROM servers WHERE platform = ?1 AND platform_id = ?2");
    conn.prepare_cached(&select)?
        .query_row(params![platform.as_str(), platform_id], server_row)
        .optional()?
        .map(to_server)
        .transpose()
}

/// Run in a write transaction (see [`SqliteStore::write`]).
fn ensure_server(
    conn: &Connection,
    platform: Platform,
    platform_id: &str,
    defaults: &ServerDefaults,
    now: DateTime<Utc>,
) -> Result<ServerRow> {
    if let Some(server) = find_server(conn, platform, platform_id)? {
        return Ok(server);
    }
    conn.prepare_cached(
        "INSERT INTO servers (platform, platform_id, language, time_control, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING",
    )?
    .execute(params![
        platform.as_str(),
        platform_id,
        defaults.language.as_str(),
        defaults.time_control,
        to_text(now)
    ])?;
    find_server(conn, platform, platform_id)?.ok_or(StorageError::NotFound("server"))
}

fn find_channel(conn: &Connection, server_id: i64, platform_id: &str) -> Result<Option<i64>> {
    Ok(conn
        .prepare_cached("SELECT id FROM channels WHERE server_id = ?1 AND platform_id = ?2")?
        .query_row(params![server_id, platform_id], |r| r.get(0))
        .optional()?)
}

/// Run in a write transaction (see [`SqliteStore::write`]).
fn ensure_channel(conn: &Connection, server_id: i64, platform_id: &str) -> Result<ChannelRow> {
    let id = match find_channel(conn, server_id, platform_id)? {
        Some(id) => id,
        None => {
            conn.prepare_cached(
                "INSERT INTO channels (server_id, platform_id) VALUES (?1, ?2)
                 ON CONFLICT DO NOTHING",
            )?
            .execute(params![server_id, platform_id])?;
            find_channel(conn, server_id, platform_id)?.ok_or(StorageError::NotFound("channel"))?
        }
    };
    Ok(ChannelRow {
        id,
        server_id,
        platform_id: platform_id.to_owned(),
    })
}

/// Run in a write transaction (see [`SqliteStore::write`]).
fn ensure_player(
    conn: &Connection,
    platform: Platform,
    platform_id: &str,
    display_name: &str,
    now: DateTime<Utc>,
) -> Result<PlayerRow> {
    if let Some(mut player) = find_player(conn, platform, platform_id)? {
        if player.display_name != display_name {
            conn.prepare_cached("UPDATE players SET display_name = ?1 WHERE id = ?2")?
                .execute(params![display_name, player.id.0])?;
            player.display_name = display_name.to_owned();
        }
        return Ok(player);
    }
    // Someone may have added the player since the read: then the name we
    // saw is the newer one.
    conn.prepare_cached(
        "INSERT INTO players (platform, platform_id, display_name, created_at)
         VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (platform, platform_id) DO UPDATE SET display_name = excluded.display_name",
    )?
    .execute(params![
        platform.as_str(),
        platform_id,
        display_name,
        to_text(now)
    ])?;
    find_player(conn, platform, platform_id)?.ok_or(StorageError::NotFound("player"))
}

fn answer_of(conn: &Connection, key: &str) -> Result<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT answer FROM processed_acts WHERE act_key = ?1")?
        .query_row(params![key], |r| r.get(0))
        .optional()?)
}

/// [`Store::open_act`] on `conn`. Without `may_write`, only reads, and
/// gives `None` when a row must be created or renamed first.
fn open_act_on(
    conn: &Connection,
    request: &ActRequest,
    now: DateTime<Utc>,
    may_write: bool,
) -> Result<Option<OpenedAct>> {
    if let Some(key) = &request.act_key
        && let Some(answer) = answer_of(conn, key)?
    {
        return Ok(Some(OpenedAct::Answered(answer)));
    }
    let opened = |server: ServerRow, channel_id: i64, player: PlayerRow| OpenedAct::New {
        channel: ChannelRow {
            id: channel_id,
            server_id: server.id,
            platform_id: request.channel.clone(),
        },
        server,
        player,
    };
    if !may_write {
        let Some(server) = find_server(conn, request.platform, &request.server)? else {
            return Ok(None);
        };
        let Some(channel_id) = find_channel(conn, server.id, &request.channel)? else {
            return Ok(None);
        };
        let player = find_player(conn, request.platform, &request.user_id)?
            .filter(|p| p.display_name == request.user_name);
        return Ok(player.map(|player| opened(server, channel_id, player)));
    }
    let server = ensure_server(
        conn,
        request.platform,
        &request.server,
        &request.defaults,
        now,
    )?;
    let channel = ensure_channel(conn, server.id, &request.channel)?;
    let player = ensure_player(
        conn,
        request.platform,
        &request.user_id,
        &request.user_name,
        now,
    )?;
    Ok(Some(opened(server, channel.id, player)))
}

impl Store for SqliteStore {
    async fn open_act(&self, request: ActRequest, now: DateTime<Utc>) -> Result<OpenedAct> {
        // The common case (a known place and player) only reads and takes no
        // write lock; new servers, channels and players are written together
        // in one write transaction, which looks for the key again first.
        let request = Arc::new(request);
        let known = Arc::clone(&request);
        if let Some(opened) = self
            .read(move |conn| open_act_on(conn, &known, now, false))
            .await?
        {
            return Ok(opened);
        }
        self.write(move |conn| open_act_on(conn, &request, now, true))
            .await?
            .ok_or(StorageError::NotFound("act's place"))
    }

    async fn ongoing_in_channel(&self, channel_id: i64, player: PlayerId) -> Result<ChannelGames> {
        self.read(move |conn| {
            // Ids only first: the common case (one game) needs nothing more.
            let found: Vec<(i64, i64, bool)> = conn
                .prepare_cached(
                    "SELECT g.id, g.version, EXISTS (
                         SELECT 1 FROM leaves l
                         WHERE l.server_id = g.server_id AND l.ended_at IS NULL
                           AND l.player_id IN (g.white_id, g.black_id))
                     FROM games g
                     WHERE g.channel_id = ?1 AND g.status = 'ongoing'
                       AND (g.white_id = ?2 OR g.black_id = ?2)
                     LIMIT 2",
                )?
                .query_map(params![channel_id, player.0], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })?
                .collect::<rusqlite::Result<_>>()?;
            Ok(match found.as_slice() {
                [] => ChannelGames::None,
                [(id, version, on_leave)] => ChannelGames::One {
                    id: *id,
                    version: *version,
                    on_leave: *on_leave,
                },
                _ => {
                    let filter = "g.channel_id = ?1 AND (g.white_id = ?2 OR g.black_id = ?2) \
                                  AND g.status = 'ongoing'";
                    ChannelGames::Several(summaries(conn, filter, channel_id, player.0)?)
                }
            })
        })
        .await
    }

    async fn ensure_server(
        &self,
        platform: Platform,
        platform_id: &str,
        defaults: &ServerDefaults,
        now: DateTime<Utc>,
    ) -> Result<ServerRow> {
        let platform_id = platform_id.to_owned();
        let defaults = defaults.clone();
        self.write(move |conn| ensure_server(conn, platform, &platform_id, &defaults, now))
            .await
    }

    async fn ensure_channel(&self, server_id: i64, platform_id: &str) -> Result<ChannelRow> {
        let platform_id = platform_id.to_owned();
        self.write(move |conn| ensure_channel(conn, server_id, &platform_id))
            .await
    }

    async fn ensure_player(
        &self,
        platform: Platform,
        platform_id: &str,
        display_name: &str,
        now: DateTime<Utc>,
    ) -> Result<PlayerRow> {
        let (platform_id, display_name) = (platform_id.to_owned(), display_name.to_owned());
        self.write(move |conn| ensure_player(conn, platform, &platform_id, &display_name, now))
            .await
    }

    async fn find_player(
        &self,
        platform: Platform,
        platform_id: &str,
    ) -> Result<Option<PlayerRow>> {
        let platform_id = platform_id.to_owned();
        self.read(move |conn| find_player(conn, platform, &platform_id))
            .await
    }

    async fn player(&self, id: PlayerId) -> Result<Option<PlayerRow>> {
        self.read(move |conn| player_by_id(conn, id)).await
    }

    async fn server(&self, id: i64) -> Result<Option<ServerRow>> {
        self.read(move |conn| {
            conn.prepare_cached(&format!(
                "SELECT {SERVER_COLUMNS} FROM servers WHERE id = ?1"
            ))?
            .query_row(params![id], server_row)
            .optional()?
            .map(to_server)
            .transpose()
        })
        .await
    }

    async fn answer_of(&self, act_key: &str) -> Result<Option<String>> {
        let key = act_key.to_owned();
        self.read(move |conn| answer_of(conn, &key)).await
    }

    async fn game(&self, id: i64) -> Result<Option<GameRecord>> {
        self.read(move |conn| load_game(conn, id)).await
    }

    async fn games_in_channel(
        &self,
        channel_id: i64,
        player: PlayerId,
        ongoing_only: bool,
    ) -> Result<Vec<GameSummary>> {
        self.read(move |conn| {
            let filter = if ongoing_only {
                "g.channel_id = ?1 AND (g.white_id = ?2 OR g.black_id = ?2) AND g.status = 'ongoing'"
            } else {
                "g.channel_id = ?1 AND (g.white_id = ?2 OR g.black_id = ?2)"
            };
            summaries(conn, filter, channel_id, player.0)
        })
        .await
    }

    async fn ongoing_games_on_server(
        &self,
        server_id: i64,
        player: PlayerId,
    ) -> Result<Vec<GameSummary>> {
        self.read(move |conn| {
            let filter =
                "g.server_id = ?1 AND (g.white_id = ?2 OR g.black_id = ?2) AND g.status = 'ongoing'";
            summaries(conn, filter, server_id, player.0)
        })
        .await
    }

    async fn open_challenge_count(&self, challenger: PlayerId, now: DateTime<Utc>) -> Result<u32> {
        self.read(move |conn| {
            let count: i64 = conn
                .prepare_cached(
                    "SELECT count(*) FROM challenges
                     WHERE challenger_id = ?1 AND status = 'open' AND expires_at > ?2",
                )?
                .query_row(params![challenger.0, to_text(now)], |row| row.get(0))?;
            Ok(u32::try_from(count).unwrap_or(u32::MAX))
        })
        .await
    }

    async fn open_challenges(
        &self,
        channel_id: i64,
        now: DateTime<Utc>,
    ) -> Result<Vec<ChallengeRow>> {
        self.read(move |conn| {
            conn.prepare_cached(
                "SELECT id, server_id, channel_id, challenger_id, challenged_id, color,
                        time_control, rated, start_fen, status, created_at, expires_at
                 FROM challenges
                 WHERE channel_id = ?1 AND status = 'open' AND expires_at > ?2
                 ORDER BY id",
            )?
            .query_map(params![channel_id, to_text(now)], challenge_row)?
            .map(|row| to_challenge(row?))
            .collect()
        })
        .await
    }

    async fn commit<R, F>(
        &self,
        commit: Commit,
        now: DateTime<Utc>,
        answer: F,
    ) -> Result<(Committed, R)>
    where
        R: Serialize + Send + 'static,
        F: FnOnce(&Committed) -> R + Send + 'static,
    {
        self.with(move |conn| commit_in(conn, commit, now, answer))
            .await
    }

    async fn commit_all<R, F>(
        &self,
        batch: Vec<(Commit, F)>,
        now: DateTime<Utc>,
    ) -> Result<Vec<(Committed, R)>>
    where
        R: Serialize + Send + 'static,
        F: FnOnce(&Committed) -> R + Send + 'static,
    {
        self.with(move |conn| commit_all_in(conn, batch, now)).await
    }

    async fn next_wake_up(&self) -> Result<Option<DateTime<Utc>>> {
        self.read(move |conn| {
            let next: Option<String> = conn
                .prepare_cached("SELECT min(wake_at) FROM games WHERE wake_at IS NOT NULL")?
                .query_row([], |r| r.get(0))?;
            next.as_deref().map(from_text).transpose()
        })
        .await
    }

    async fn due_games(&self, now: DateTime<Utc>, limit: usize) -> Result<Vec<DueGame>> {
        self.read(move |conn| {
            conn.prepare_cached(
                "SELECT id, version FROM games
                 WHERE wake_at IS NOT NULL AND wake_at <= ?1
                 ORDER BY wake_at LIMIT ?2",
            )?
            .query_map(params![to_text(now), limit as i64], |r| {
                Ok(DueGame {
                    id: r.get(0)?,
                    version: r.get(1)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(StorageError::from)
        })
        .await
    }

    async fn claim_due_games(
        &self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<DueGame>> {
        self.with(move |conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let due = tx
                .prepare_cached(
                    "SELECT id, version FROM games
                     WHERE wake_at IS NOT NULL AND wake_at <= ?1
                     ORDER BY wake_at, id LIMIT ?2",
                )?
                .query_map(params![to_text(now), limit as i64], |r| {
                    Ok(DueGame {
                        id: r.get(0)?,
                        version: r.get(1)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let mut claim = tx.prepare_cached("UPDATE games SET wake_at = ?1 WHERE id = ?2")?;
            for game in &due {
                claim.execute(params![deadline_text(lease_until), game.id])?;
            }
            drop(claim);
            tx.commit()?;
            Ok(due)
        })
        .await
    }

    async fn running_leave(&self, player: PlayerId, server_id: i64) -> Result<Option<LeaveRow>> {
        self.read(move |conn| {
            let sql = format!(
                "SELECT {LEAVE_COLUMNS} FROM leaves
                 WHERE player_id = ?1 AND server_id = ?2 AND ended_at IS NULL"
            );
            conn.prepare_cached(&sql)?
                .query_row(params![player.0, server_id], leave_row)
                .optional()?
                .map(to_leave)
                .transpose()
        })
        .await
    }

    async fn running_leaves(
        &self,
        server_id: i64,
        players: [PlayerId; 2],
    ) -> Result<Vec<LeaveRow>> {
        self.read(move |conn| {
            let sql = format!(
                "SELECT {LEAVE_COLUMNS} FROM leaves
                 WHERE server_id = ?1 AND player_id IN (?2, ?3) AND ended_at IS NULL"
            );
            conn.prepare_cached(&sql)?
                .query_map(params![server_id, players[0].0, players[1].0], leave_row)?
                .map(|row| to_leave(row?))
                .collect()
        })
        .await
    }

    async fn leave_days_in_year(&self, player: PlayerId, server_id: i64, year: i32) -> Result<u32> {
        self.read(move |conn| {
            let (from, to) = (format!("{year:04}-"), format!("{:04}-", year + 1));
            let days: i64 = conn
                .prepare_cached(
                    "SELECT coalesce(sum(days), 0) FROM leaves
                     WHERE player_id = ?1 AND server_id = ?2 AND starts_at >= ?3 AND starts_at < ?4",
                )?
                .query_row(params![player.0, server_id, from, to], |r| r.get(0))?;
            Ok(days as u32)
        })
        .await
    }

    async fn due_leave_ends(&self, now: DateTime<Utc>, limit: usize) -> Result<Vec<LeaveRow>> {
        self.read(move |conn| {
            let sql = format!(
                "SELECT {LEAVE_COLUMNS} FROM leaves
                 WHERE ended_at IS NULL AND ends_at <= ?1 ORDER BY ends_at LIMIT ?2"
            );
            conn.prepare_cached(&sql)?
                .query_map(params![to_text(now), limit as i64], leave_row)?
                .map(|row| to_leave(row?))
                .collect()
        })
        .await
    }

    async fn next_leave_end(&self) -> Result<Option<DateTime<Utc>>> {
        self.read(move |conn| {
            let next: Option<String> = conn
                .prepare_cached("SELECT min(ends_at) FROM leaves WHERE ended_at IS NULL")?
                .query_row([], |r| r.get(0))?;
            next.as_deref().map(from_text).transpose()
        })
        .await
    }

    async fn clocked_games(&self, after_id: i64, limit: usize) -> Result<Vec<DueGame>> {
        self.read(move |conn| {
            conn.prepare_cached(
                "SELECT id, version FROM games
                 WHERE id > ?1 AND status = 'ongoing' AND deadline IS NOT NULL
                 ORDER BY id LIMIT ?2",
            )?
            .query_map(params![after_id, limit as i64], |r| {
                Ok(DueGame {
                    id: r.get(0)?,
                    version: r.get(1)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(StorageError::from)
        })
        .await
    }

    async fn last_heartbeat(&self) -> Result<Option<DateTime<Utc>>> {
        self.read(move |conn| {
            let at: Option<String> = conn
                .prepare_cached("SELECT at FROM heartbeat WHERE id = 1")?
                .query_row([], |r| r.get(0))
                .optional()?;
            at.as_deref().map(from_text).transpose()
        })
        .await
    }

    async fn beat(&self, now: DateTime<Utc>) -> Result<()> {
        self.write(move |conn| {
            conn.prepare_cached(
                "INSERT INTO heartbeat (id, at) VALUES (1, ?1)
                 ON CONFLICT (id) DO UPDATE SET at = excluded.at",
            )?
            .execute(params![to_text(now)])?;
            Ok(())
        })
        .await
    }

    async fn finished_games(&self, server_id: i64) -> Result<Vec<FinishedGame>> {
        self.read(move |conn| {
            let rows = conn
                .prepare_cached(
                    "SELECT id, white_id, black_id, result, ended_at FROM games
                     WHERE server_id = ?1 AND status = 'over'
                       AND result IN ('1-0', '0-1', '1/2-1/2')
                     ORDER BY ended_at, id",
                )?
                .query_map(params![server_id], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, i64>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, String>(4)?,
                    ))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            rows.into_iter()
                .map(|(id, white, black, result, ended)| {
                    Ok(FinishedGame {
                        id,
                        white: PlayerId(white),
                        black: PlayerId(black),
                        result: GameResult::from_pgn(&result)
                            .ok_or_else(|| corrupt("result", &result))?,
                        ended_at: from_text(&ended)?,
                    })
                })
                .collect()
        })
        .await
    }

    async fn rating(&self, server_id: i64, player: PlayerId) -> Result<Option<RatingRow>> {
        self.read(move |conn| {
            let row = conn
                .prepare_cached(
                    "SELECT rating, deviation, volatility, games, rated_at FROM ratings
                     WHERE server_id = ?1 AND player_id = ?2",
                )?
                .query_row(params![server_id, player.0], |r| {
                    Ok((
                        r.get::<_, f64>(0)?,
                        r.get::<_, f64>(1)?,
                        r.get::<_, f64>(2)?,
                        r.get::<_, u32>(3)?,
                        r.get::<_, String>(4)?,
                    ))
                })
                .optional()?;
            row.map(|(rating, deviation, volatility, games, at)| {
                Ok(RatingRow {
                    server_id,
                    player,
                    rating,
                    deviation,
                    volatility,
                    games,
                    rated_at: from_text(&at)?,
                })
            })
            .transpose()
        })
        .await
    }

    async fn rating_history(&self, server_id: i64, player: PlayerId) -> Result<Vec<RatingPoint>> {
        self.read(move |conn| {
            let rows = conn
                .prepare_cached(
                    "SELECT game_id, rating, deviation, at FROM rating_history
                     WHERE server_id = ?1 AND player_id = ?2 ORDER BY id",
                )?
                .query_map(params![server_id, player.0], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, f64>(1)?,
                        r.get::<_, f64>(2)?,
                        r.get::<_, String>(3)?,
                    ))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            rows.into_iter()
                .map(|(game_id, rating, deviation, at)| {
                    Ok(RatingPoint {
                        game_id,
                        rating,
                        deviation,
                        at: from_text(&at)?,
                    })
                })
                .collect()
        })
        .await
    }

    async fn standings(&self, server_id: i64) -> Result<Vec<StandingRow>> {
        self.read(move |conn| {
            conn.prepare_cached(
                "WITH sides AS (
                     SELECT white_id AS player,
                            CASE result WHEN '1-0' THEN 2 WHEN '1/2-1/2' THEN 1 ELSE 0 END AS half
                     FROM games
                     WHERE server_id = ?1 AND status = 'over' AND result IN ('1-0', '0-1', '1/2-1/2')
                     UNION ALL
                     SELECT black_id,
                            CASE result WHEN '0-1' THEN 2 WHEN '1/2-1/2' THEN 1 ELSE 0 END
                     FROM games
                     WHERE server_id = ?1 AND status = 'over' AND result IN ('1-0', '0-1', '1/2-1/2')
                 )
                 SELECT s.player, p.display_name, count(*),
                        sum(s.half = 2), sum(s.half = 1), sum(s.half = 0), sum(s.half)
                 FROM sides s JOIN players p ON p.id = s.player
                 GROUP BY s.player
                 ORDER BY sum(s.half) DESC, sum(s.half = 2) DESC, p.display_name ASC",
            )?
            .query_map(params![server_id], |r| {
                Ok(StandingRow {
                    player: PlayerId(r.get(0)?),
                    name: r.get(1)?,
                    played: r.get(2)?,
                    won: r.get(3)?,
                    drawn: r.get(4)?,
                    lost: r.get(5)?,
                    half_points: r.get(6)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()
            .map_err(StorageError::from)
        })
        .await
    }

    async fn ladder(&self, server_id: i64) -> Result<LadderRow> {
        self.read(move |conn| ladder::ladder(conn, server_id)).await
    }

    async fn unsettled_ladder_matches(&self, server_id: i64) -> Result<Vec<LadderMatchRow>> {
        self.read(move |conn| ladder::unsettled(conn, server_id))
            .await
    }

    async fn ladder_match_of_challenge(&self, challenge_id: i64) -> Result<Option<LadderMatchRow>> {
        self.read(move |conn| ladder::of_challenge(conn, challenge_id))
            .await
    }

    async fn ladder_match_of_game(&self, game_id: i64) -> Result<Option<LadderMatchRow>> {
        self.read(move |conn| ladder::of_game(conn, game_id)).await
    }

    async fn due_ladder_forfeits(
        &self,
        now: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<LadderMatchRow>> {
        self.read(move |conn| ladder::due_forfeits(conn, now, limit))
            .await
    }

    async fn idle_ladder_rungs(
        &self,
        active_before: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<IdleRung>> {
        self.read(move |conn| ladder::idle_rungs(conn, active_before, limit))
            .await
    }

    async fn next_ladder_deadline(
        &self,
        inactive_after: Option<chrono::Duration>,
    ) -> Result<Option<DateTime<Utc>>> {
        self.read(move |conn| ladder::next_deadline(conn, inactive_after))
            .await
    }

    async fn tournament(&self, id: i64) -> Result<Option<super::TournamentRow>> {
        self.read(move |conn| tournaments::tournament(conn, id))
            .await
    }

    async fn tournaments_in_channel(&self, channel_id: i64) -> Result<Vec<super::TournamentRow>> {
        self.read(move |conn| tournaments::tournaments_in_channel(conn, channel_id))
            .await
    }

    async fn tournament_entrants(&self, tournament_id: i64) -> Result<Vec<super::EntrantRow>> {
        self.read(move |conn| tournaments::entrants(conn, tournament_id))
            .await
    }

    async fn tournament_pairings(&self, tournament_id: i64) -> Result<Vec<super::PairingRow>> {
        self.read(move |conn| tournaments::pairings(conn, tournament_id))
            .await
    }

    async fn tournament_of_game(&self, game_id: i64) -> Result<Option<i64>> {
        self.read(move |conn| tournaments::tournament_of_game(conn, game_id))
            .await
    }

    async fn due_tournaments(
        &self,
        now: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<super::DueTournament>> {
        self.read(move |conn| tournaments::due(conn, now, limit))
            .await
    }

    async fn next_tournament_start(&self) -> Result<Option<DateTime<Utc>>> {
        self.read(tournaments::next_start).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::NoteKind;
    use crate::storage::suite::store_suite;
    use tempfile::TempDir;

    fn fresh() -> (TempDir, SqliteStore) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = SqliteStore::open(dir.path().join("suite.db")).expect("open");
        (dir, store)
    }

    store_suite!(fresh);

    #[tokio::test]
    async fn batches_are_committed_whole() {
        let (_dir, store) = fresh();
        crate::storage::suite::batches_are_committed_whole(&store).await;
    }

    const TABLES: [&str; 18] = [
        "challenges",
        "channels",
        "game_notes",
        "games",
        "heartbeat",
        "ladder_matches",
        "ladder_rungs",
        "ladders",
        "leaves",
        "moves",
        "players",
        "processed_acts",
        "rating_history",
        "ratings",
        "servers",
        "tournament_entrants",
        "tournament_games",
        "tournaments",
    ];

    fn tables(conn: &Connection) -> Vec<String> {
        conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
            .expect("tables")
    }

    fn int_pragma(conn: &Connection, name: &str) -> i64 {
        conn.pragma_query_value(None, name, |r| r.get(0))
            .expect(name)
    }

    fn at(seconds: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + seconds, 0).expect("instant")
    }

    #[test]
    fn migrations_are_numbered_in_order() {
        for (index, (name, sql)) in MIGRATIONS.iter().enumerate() {
            assert!(
                name.starts_with(&format!("{:04}_", index + 1)),
                "{name} is not migration {}",
                index + 1
            );
            assert!(!sql.trim().is_empty(), "{name} is empty");
        }
    }

    #[test]
    fn a_fresh_file_gets_every_migration_and_every_table() {
        let (_dir, store) = fresh();
        assert_eq!(store.schema_version().expect("version"), MIGRATIONS.len());
        let conn = store.lock().expect("lock");
        assert_eq!(int_pragma(&conn, "user_version"), MIGRATIONS.len() as i64);
        assert_eq!(tables(&conn), TABLES);
        let mode: String = conn
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .expect("journal_mode");
        assert_eq!(mode, "wal");
        assert_eq!(int_pragma(&conn, "synchronous"), 2, "FULL");
        assert_eq!(int_pragma(&conn, "foreign_keys"), 1);
        assert_eq!(int_pragma(&conn, "busy_timeout"), 5000);
    }

    #[test]
    fn reopening_applies_no_migration_twice() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("twice.db");
        drop(SqliteStore::open(&path).expect("open"));
        // 0001 has plain CREATE TABLEs: running it again would fail.
        let store = SqliteStore::open(&path).expect("reopen");
        assert_eq!(store.schema_version().expect("version"), MIGRATIONS.len());
        assert_eq!(tables(&store.lock().expect("lock")), TABLES);
    }

    #[test]
    fn a_newer_database_is_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("future.db");
        let conn = Connection::open(&path).expect("open");
        conn.pragma_update(None, "user_version", 99).expect("set");
        drop(conn);
        let opened = SqliteStore::open(&path);
        assert!(
            matches!(opened, Err(StorageError::Migration { version: 99, .. })),
            "{:?}",
            opened.err()
        );
    }

    #[test]
    fn a_failed_migration_leaves_the_file_as_it_was() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("clash.db");
        let conn = Connection::open(&path).expect("open");
        // A table in the way: 0001 fails after creating the ones before it.
        conn.execute_batch("CREATE TABLE games (x)").expect("clash");
        drop(conn);
        let opened = SqliteStore::open(&path);
        assert!(
            matches!(opened, Err(StorageError::Migration { version: 1, .. })),
            "{:?}",
            opened.err()
        );
        let conn = Connection::open(&path).expect("open");
        assert_eq!(int_pragma(&conn, "user_version"), 0);
        assert_eq!(tables(&conn), ["games"]);
    }

    #[tokio::test]
    async fn data_survives_closing_and_reopening() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("keep.db");
        let store = SqliteStore::open(&path).expect("open");
        let (game, player) = a_game_with_a_move(&store).await;
        drop(store);

        let store = SqliteStore::open(&path).expect("reopen");
        assert_eq!(store.player(player.id).await.expect("read"), Some(player));
        assert_eq!(store.game(game.id).await.expect("read"), Some(game));
        let answer = store.answer_of("move-1").await.expect("read");
        assert_eq!(answer.as_deref(), Some(r#""played""#));
    }

    /// A game with one move and one note, saved under act key `move-1`.
    async fn a_game_with_a_move(store: &SqliteStore) -> (GameRecord, PlayerRow) {
        let defaults = ServerDefaults {
            language: Lang::En,
            time_control: "3d".to_owned(),
        };
        let server = store
            .ensure_server(Platform::Console, "club", &defaults, at(0))
            .await
            .expect("server");
        let channel = store
            .ensure_channel(server.id, "main")
            .await
            .expect("channel");
        let alice = store
            .ensure_player(Platform::Console, "alice", "Alice", at(0))
            .await
            .expect("player");
        let bob = store
            .ensure_player(Platform::Console, "bob", "Bob", at(0))
            .await
            .expect("player");
        let new_game = NewGame {
            server_id: server.id,
            channel_id: channel.id,
            white: alice.id,
            black: bob.id,
            start_fen: None,
            time_control: "3d".to_owned(),
            rated: true,
            draw_rules: DrawRules::default(),
            turn: Color::White,
            challenge_id: None,
            clock: None,
            remind_at: None,
        };
        let commit = Commit {
            new_game: Some(new_game),
            ..Commit::default()
        };
        let (committed, ()) = store.commit(commit, at(1), |_| ()).await.expect("game");
        let id = committed.game_id.expect("id");
        let update = GameUpdate {
            id,
            expected_version: 0,
            new_moves: vec![MoveRow {
                ply: 1,
                uci: "e2e4".to_owned(),
                san: "e4".to_owned(),
                played_at: at(2),
                draw_offer: true,
            }],
            new_notes: vec![Note {
                ply: 1,
                by: Some(Color::White),
                at: at(2),
                kind: NoteKind::DrawOffered,
            }],
            state: GameState::Ongoing,
            pending_offer: Some(Color::White),
            turn: Color::Black,
            clock: None,
            remind_at: None,
        };
        let commit = Commit {
            act_key: Some("move-1".to_owned()),
            game_updates: vec![update],
            ..Commit::default()
        };
        store
            .commit(commit, at(2), |_| "played")
            .await
            .expect("move");
        let game = store.game(id).await.expect("read").expect("game");
        assert_eq!(game.moves.len(), 1);
        (game, alice)
    }

    #[tokio::test]
    async fn an_accepted_challenge_names_its_game() {
        let (_dir, store) = fresh();
        let (game, alice) = a_game_with_a_move(&store).await;
        let challenge = NewChallenge {
            server_id: game.server_id,
            channel_id: game.channel_id,
            challenger: alice.id,
            challenged: None,
            color: ColorChoice::Random,
            time_control: "3d".to_owned(),
            rated: true,
            start_fen: None,
            expires_at: at(1000),
        };
        let mut challenge_ids = Vec::new();
        for _ in 0..2 {
            let commit = Commit {
                new_challenge: Some(challenge.clone()),
                ..Commit::default()
            };
            let (committed, ()) = store
                .commit(commit, at(3), |_| ())
                .await
                .expect("challenge");
            challenge_ids.push(committed.challenge_id.expect("id"));
        }
        let game_from = |challenge_id| NewGame {
            server_id: game.server_id,
            channel_id: game.channel_id,
            white: game.white,
            black: game.black,
            start_fen: None,
            time_control: "3d".to_owned(),
            rated: true,
            draw_rules: DrawRules::default(),
            turn: Color::White,
            challenge_id: Some(challenge_id),
            clock: None,
            remind_at: None,
        };
        let accept = Commit {
            closing_challenge: Some(ChallengeClosing {
                id: challenge_ids[0],
                to: ChallengeStatus::Accepted,
            }),
            new_game: Some(game_from(challenge_ids[0])),
            ..Commit::default()
        };
        let (accepted, ()) = store.commit(accept, at(4), |_| ()).await.expect("accept");
        // A game naming a challenge that stays open does not claim it.
        let unclosed = Commit {
            new_game: Some(game_from(challenge_ids[1])),
            ..Commit::default()
        };
        store.commit(unclosed, at(5), |_| ()).await.expect("game");

        let conn = store.lock().expect("lock");
        let linked: Vec<Option<i64>> = conn
            .prepare("SELECT game_id FROM challenges ORDER BY id")
            .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
            .expect("links");
        assert_eq!(linked, vec![accepted.game_id, None]);
    }

    #[tokio::test]
    async fn corrupt_rows_are_reported_as_corrupt() {
        let (_dir, store) = fresh();
        let (game, _) = a_game_with_a_move(&store).await;
        for (column, value) in [
            ("created_at", "yesterday"),
            ("status", "paused"),
            ("turn", "green"),
        ] {
            let sql = format!("UPDATE games SET {column} = ?1 WHERE id = ?2");
            let original: String = {
                let conn = store.lock().expect("lock");
                let read = format!("SELECT {column} FROM games WHERE id = ?1");
                let original = conn
                    .query_row(&read, params![game.id], |r| r.get(0))
                    .expect("read");
                conn.execute(&sql, params![value, game.id]).expect("spoil");
                original
            };
            let loaded = match column {
                "turn" => store
                    .games_in_channel(game.channel_id, game.white, false)
                    .await
                    .map(|_| ()),
                _ => store.game(game.id).await.map(|_| ()),
            };
            assert!(
                matches!(loaded, Err(StorageError::Corrupt(_))),
                "{column}: {loaded:?}"
            );
            let conn = store.lock().expect("lock");
            conn.execute(&sql, params![original, game.id])
                .expect("mend");
        }
        assert_eq!(store.game(game.id).await.expect("read"), Some(game));
    }

    #[tokio::test]
    async fn a_game_whose_moves_do_not_add_up_is_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("lost.db");
        let store = SqliteStore::open(&path).expect("open");
        let (game, _) = a_game_with_a_move(&store).await;
        assert!(check_file(&path).expect("check").is_empty());
        let cases = [
            // A lost row, as a damaged page gives.
            "DELETE FROM moves WHERE game_id = ?1",
            // A row numbered out of place.
            "UPDATE moves SET ply = 2 WHERE game_id = ?1",
        ];
        for (sql, expected) in cases.into_iter().zip([
            "game 1 moves: 1 counted, 0 stored",
            "game 1 moves: 1 stored, not numbered 1 to 1",
        ]) {
            store
                .with(|conn| conn.execute(sql, params![1]).map_err(StorageError::from))
                .await
                .expect("spoil");
            let loaded = store.game(game.id).await;
            assert!(
                matches!(&loaded, Err(StorageError::Corrupt(m)) if m.starts_with("game 1 moves")),
                "{sql}: {loaded:?}"
            );
            assert_eq!(check_file(&path).expect("check"), [expected], "{sql}");
            store
                .with(|conn| {
                    conn.execute("DELETE FROM moves", [])?;
                    conn.execute(
                        "INSERT INTO moves (game_id, ply, uci, san, played_at)
                         VALUES (1, 1, 'e2e4', 'e4', '2027-01-15T08:00:02.000Z')",
                        [],
                    )?;
                    Ok(())
                })
                .await
                .expect("mend");
            assert!(store.game(game.id).await.is_ok());
        }
    }

    /// A file with a game of `plies` moves, closed (its WAL folded in).
    async fn a_closed_file_with_moves(path: &Path, plies: u32) {
        let store = SqliteStore::open(path).expect("open");
        let (game, _) = a_game_with_a_move(&store).await;
        let new_moves = (2..=plies)
            .map(|ply| MoveRow {
                ply,
                uci: "g1f3".to_owned(),
                san: "Nf3".to_owned(),
                played_at: at(3),
                draw_offer: false,
            })
            .collect();
        let update = GameUpdate {
            id: game.id,
            expected_version: game.version,
            new_moves,
            new_notes: Vec::new(),
            state: GameState::Ongoing,
            pending_offer: None,
            turn: Color::White,
            clock: None,
            remind_at: None,
        };
        let commit = Commit {
            game_updates: vec![update],
            ..Commit::default()
        };
        store.commit(commit, at(3), |_| ()).await.expect("moves");
        let loaded = store.game(game.id).await.expect("read").expect("game");
        assert_eq!(loaded.moves.len(), plies as usize);
    }

    /// The byte offset of the moves table's root page, and the page size.
    fn moves_root_page(path: &Path) -> (u64, u64) {
        let conn = Connection::open(path).expect("open");
        let root: u64 = conn
            .query_row(
                "SELECT rootpage FROM sqlite_master WHERE name = 'moves'",
                [],
                |r| r.get(0),
            )
            .expect("root page");
        let size: u64 = conn
            .pragma_query_value(None, "page_size", |r| r.get(0))
            .expect("page size");
        ((root - 1) * size, size)
    }

    #[tokio::test]
    async fn a_damaged_file_is_refused_at_open() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("damaged.db");
        a_closed_file_with_moves(&path, 300).await;
        let (offset, _) = moves_root_page(&path);
        assert!(!dir.path().join("damaged.db-wal").exists(), "WAL folded in");
        let mut bytes = std::fs::read(&path).expect("read");
        // The page header: its type and cell count become nonsense.
        bytes[offset as usize..offset as usize + 5].fill(0xff);
        std::fs::write(&path, &bytes).expect("write");

        let opened = SqliteStore::open(&path);
        let Err(StorageError::Corrupt(message)) = opened else {
            panic!("opened a damaged file: {:?}", opened.err());
        };
        assert!(message.contains(&path.display().to_string()), "{message}");
        assert!(message.contains("restore it from a backup"), "{message}");
        assert!(message.contains("quick_check"), "{message}");
        assert_eq!(
            std::fs::read(&path).expect("read"),
            bytes,
            "nothing written"
        );
        let problems = check_file(&path).expect("check");
        assert!(!problems.is_empty());
    }

    #[tokio::test]
    async fn a_sound_file_passes_every_check() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("sound.db");
        a_closed_file_with_moves(&path, 80).await;
        assert_eq!(check_file(&path).expect("check"), Vec::<String>::new());
        SqliteStore::open(&path).expect("reopen");
        let missing = check_file(&dir.path().join("missing.db"));
        assert!(missing.is_err(), "a missing file is not created");
        assert!(!dir.path().join("missing.db").exists());
    }

    #[tokio::test]
    async fn a_poisoned_lock_is_an_error_not_a_panic() {
        let (_dir, store) = fresh();
        let conn = Arc::clone(&store.conn);
        let panicked = std::thread::spawn(move || {
            let _guard = conn.lock();
            panic!("poison the connection lock");
        })
        .join();
        assert!(panicked.is_err());
        let read = store.player(PlayerId(1)).await;
        assert!(matches!(read, Err(StorageError::Backend(_))), "{read:?}");
        assert!(matches!(
            store.schema_version(),
            Err(StorageError::Backend(_))
        ));
    }

    /// Each SQLite result code the store meets, and the failure it becomes.
    #[test]
    fn driver_errors_keep_their_kind_and_cause() {
        use rusqlite::ffi;
        let table: &[(std::ffi::c_int, &str)] = &[
            (ffi::SQLITE_BUSY, "busy"),
            (ffi::SQLITE_LOCKED, "busy"),
            (ffi::SQLITE_FULL, "disk-full"),
            (ffi::SQLITE_READONLY, "read-only"),
            (ffi::SQLITE_CORRUPT, "damaged"),
            (ffi::SQLITE_NOTADB, "damaged"),
            (ffi::SQLITE_CONSTRAINT_FOREIGNKEY, "driver"),
            (ffi::SQLITE_IOERR, "driver"),
        ];
        for &(code, kind) in table {
            let driver = rusqlite::Error::SqliteFailure(ffi::Error::new(code), None);
            let error = StorageError::from(driver);
            assert_eq!(error.kind(), kind, "code {code}");
            let source = std::error::Error::source(&error).expect("a source");
            assert!(
                matches!(
                    source.downcast_ref::<rusqlite::Error>(),
                    Some(rusqlite::Error::SqliteFailure(e, None)) if e.extended_code == code
                ),
                "code {code}: {source:?}"
            );
        }
        let other = StorageError::from(rusqlite::Error::QueryReturnedNoRows);
        assert_eq!(other.kind(), "driver");
    }

    #[tokio::test]
    async fn a_read_only_file_refuses_writes_as_read_only() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("ro.db");
        let (game, _) = a_game_with_a_move(&SqliteStore::open(&path).expect("open")).await;
        let uri = format!("file:{}?mode=ro", path.display());
        let store = SqliteStore::open(&uri).expect("open read-only");
        assert_eq!(
            store.game(game.id).await.expect("read").map(|g| g.id),
            Some(game.id)
        );
        let written = store
            .ensure_player(Platform::Console, "carol", "Carol", at(2))
            .await;
        assert!(
            matches!(written, Err(StorageError::ReadOnly(_))),
            "{:?}",
            written.err()
        );
    }

    #[tokio::test]
    async fn a_lock_held_past_the_busy_timeout_is_busy() {
        let (dir, store) = fresh();
        store
            .with(|conn| {
                conn.busy_timeout(std::time::Duration::from_millis(20))
                    .map_err(StorageError::from)
            })
            .await
            .expect("timeout");
        let other = Connection::open(dir.path().join("suite.db")).expect("second connection");
        other.execute_batch("BEGIN EXCLUSIVE").expect("lock");
        let written = store
            .ensure_player(Platform::Console, "carol", "Carol", at(2))
            .await;
        assert!(
            matches!(written, Err(StorageError::Busy(_))),
            "{:?}",
            written.err()
        );
        other.execute_batch("COMMIT").expect("unlock");
        store
            .ensure_player(Platform::Console, "carol", "Carol", at(2))
            .await
            .expect("written once the lock is gone");
    }
}
