//! The SQLite backend: opening and checking the file, its migrations, and
//! the transactions the shared statements (`storage::queries`) run in.
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
//! check`). Migrations ([`super::migrations`]) are applied in order in one
//! transaction each, with the schema version kept in `PRAGMA user_version`.
//! On a multi-threaded runtime every call hands the worker's other tasks
//! over before it blocks on the disk (`block_in_place`).

use std::path::Path;
use std::sync::{Arc, Mutex};

use rusqlite::{Connection, OpenFlags, TransactionBehavior};

pub(super) mod conn;

use super::sql::ready;
use conn::SqliteConn;

use super::DriverError;
use super::migrations::{Backend, Migration, for_backend, known_version};
use super::sql::{Row as SqlRow, Value as SqlValue};
use super::transfer::{self, Table};
use super::{Result, StorageError};

/// The schema's steps for SQLite, in order: version N is element N − 1.
fn migrations() -> &'static [Migration] {
    for_backend(Backend::Sqlite)
}

/// How long a statement waits for another process's write lock.
const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// Prepared statements kept per connection (rusqlite's default is 16).
const STATEMENT_CACHE: usize = 64;

/// A SQLite database file.
#[derive(Clone)]
pub struct SqliteStore {
    conn: Arc<Mutex<Connection>>,
    /// How far this process has read the acts held in their rows (see
    /// `queries::outbox`); one look at a time.
    pub(super) holds: Arc<tokio::sync::Mutex<HoldCursor>>,
}

/// Where the next look at held acts starts, and what the file records.
#[derive(Default)]
pub(super) struct HoldCursor {
    /// Every act up to this one is done with (`None`: not read from the file yet).
    pub through: Option<i64>,
    /// What `held_acts_done` records (written now and then, not per look).
    pub saved: i64,
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
        // loss, and a lost act would be replayed as new). The WAL is copied
        // back into the file every 10,000 pages (40 MB) rather than SQLite's
        // 1,000: a game's row and the outbox's last pages, written by every
        // act, are then copied once per checkpoint instead of ten times
        // (service_throughput: 3,108 → 3,302 moves/s).
        conn.execute_batch(
            "PRAGMA journal_mode = WAL;
             PRAGMA synchronous = FULL;
             PRAGMA foreign_keys = ON;
             PRAGMA cache_size = -16384;
             PRAGMA wal_autocheckpoint = 10000;",
        )?;
        // Before anything is written: a damaged file must not serve an act.
        quick_check(&conn)?;
        // Room for every statement of this file, so the hot ones are never evicted.
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        migrate(&mut conn)?;
        Ok(SqliteStore {
            conn: Arc::new(Mutex::new(conn)),
            holds: Arc::default(),
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
    /// thread switches per call; on a single-threaded runtime it runs in place.
    async fn with<T, F>(&self, work: F) -> Result<T>
    where
        T: Send,
        F: FnOnce(&mut Connection) -> Result<T> + Send,
    {
        let run = move || work(&mut *self.lock()?);
        let multi_thread = tokio::runtime::Handle::try_current()
            .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
        if multi_thread {
            tokio::task::block_in_place(run)
        } else {
            // A single-threaded runtime (tests, tools) has no other worker
            // to hand its tasks to: the work runs here.
            run()
        }
    }

    /// Runs reads in one read transaction: one lock for all of them, and
    /// one consistent snapshot.
    pub(super) async fn read<T, F>(&self, work: F) -> Result<T>
    where
        T: Send,
        F: FnOnce(&Connection) -> Result<T> + Send,
    {
        self.with(move |conn| in_transaction(conn, "BEGIN", work))
            .await
    }

    /// Runs `work` in one `IMMEDIATE` transaction: it holds the write lock
    /// from its first read, so it queues behind another process's write
    /// (up to the busy timeout) instead of failing half-way.
    pub(super) async fn write<T, F>(&self, work: F) -> Result<T>
    where
        T: Send,
        F: FnOnce(&Connection) -> Result<T> + Send,
    {
        self.with(move |conn| in_transaction(conn, "BEGIN IMMEDIATE", work))
            .await
    }
}

/// Runs `work` between `begin` and `COMMIT`, rolled back if either fails.
/// Unlike rusqlite's `Transaction`, the three statements are prepared once
/// and kept, not parsed again for every act.
fn in_transaction<T>(
    conn: &Connection,
    begin: &str,
    work: impl FnOnce(&Connection) -> Result<T>,
) -> Result<T> {
    conn.prepare_cached(begin)?.execute([])?;
    let done = work(conn).and_then(|value| {
        conn.prepare_cached("COMMIT")?.execute([])?;
        Ok(value)
    });
    if done.is_err() && !conn.is_autocommit() {
        // The first error is the one to report.
        let _ = conn
            .prepare_cached("ROLLBACK")
            .and_then(|mut rollback| rollback.execute([]));
    }
    done
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

/// Copies the SQLite file at `source` into `target` with SQLite's online
/// backup, while other processes go on writing: the copy is the database
/// as it was when the backup began (one read transaction: WAL lets writers
/// continue meanwhile), checked with `integrity_check`. It is written as
/// `target` + `.partial-<pid>` and renamed only when complete, so a failed or
/// interrupted backup never leaves a half file under the name asked for.
pub fn backup_file(source: &Path, target: &Path) -> Result<()> {
    let source = Connection::open_with_flags(source, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    source.busy_timeout(BUSY_TIMEOUT)?;
    backup_into(&source, target)
}

fn backup_into(source: &Connection, target: &Path) -> Result<()> {
    let mut partial = target.as_os_str().to_owned();
    // Per process: two processes upgrading one file at once must not
    // write into each other's copy.
    partial.push(format!(".partial-{}", std::process::id()));
    let partial = std::path::PathBuf::from(partial);
    let _ = std::fs::remove_file(&partial);
    let mut copy = Connection::open(&partial)?;
    {
        use rusqlite::backup::{Backup, StepResult};
        let backup = Backup::new(source, &mut copy)?;
        let started = std::time::Instant::now();
        // Every page in one step (-1), so in one read transaction: a snapshot.
        loop {
            match backup.step(-1)? {
                StepResult::Done => break,
                StepResult::More => {}
                _ if started.elapsed() > BUSY_TIMEOUT => {
                    return Err(StorageError::Backend(
                        "the database stayed locked for the whole busy timeout".to_owned(),
                    ));
                }
                _ => std::thread::sleep(std::time::Duration::from_millis(20)),
            }
        }
    }
    let problems = pragma_lines(&copy, "PRAGMA integrity_check(10)")?;
    if problems != ["ok"] {
        return Err(StorageError::Corrupt(format!(
            "the backup does not pass integrity_check: {}",
            problems.join("; ")
        )));
    }
    drop(copy);
    std::fs::rename(&partial, target)
        .map_err(|e| StorageError::Backend(format!("renaming the finished backup: {e}")))
}

/// Every problem found in the SQLite file at `path`, for `pawnpost check`:
/// SQLite's full `integrity_check` (which also compares every index with
/// its table), then, if the file is sound, rows naming missing rows. Empty
/// when all is well. The file is neither created, migrated nor changed.
/// The games themselves are replayed next, through
/// [`SqliteStore::open_to_check`].
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
    Ok(problems)
}

impl SqliteStore {
    /// The file at `path` as a store to read for `pawnpost check`: neither
    /// created, checked, migrated nor written. Refused unless its schema is
    /// this binary's, since the statements are written for that one.
    pub fn open_to_check(path: &Path) -> Result<SqliteStore> {
        let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let version = schema_version(&conn)?;
        if version != migrations().len() {
            return Err(StorageError::Backend(format!(
                "the file's schema is version {version}, this pawnpost's is {}",
                migrations().len()
            )));
        }
        Ok(SqliteStore {
            conn: Arc::new(Mutex::new(conn)),
            holds: Arc::default(),
        })
    }
}

impl SqliteStore {
    /// A page of `table`'s rows for the copy to PostgreSQL (see [`transfer`]).
    ///
    /// [`transfer`]: super::transfer
    pub async fn export_page(
        &self,
        table: &Table,
        after: Option<&[SqlValue]>,
        limit: usize,
    ) -> Result<Vec<SqlRow>> {
        self.read(|conn| {
            ready(transfer::export_page(
                &SqliteConn(conn),
                table,
                after,
                limit,
            ))
        })
        .await
    }

    /// How many rows `table` holds.
    pub async fn count_rows(&self, table: &Table) -> Result<u64> {
        self.read(|conn| ready(transfer::count_rows(&SqliteConn(conn), table)))
            .await
    }
}

fn schema_version(conn: &Connection) -> Result<usize> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    usize::try_from(version).map_err(|_| StorageError::Corrupt(format!("user_version {version}")))
}

/// Applies every migration the file does not have yet, one transaction
/// each; a file that holds a schema already is backed up first (see
/// [`backup_before_upgrade`]).
fn migrate(conn: &mut Connection) -> Result<()> {
    let current = check_not_newer(conn)?;
    if current > 0 && current < migrations().len() {
        backup_before_upgrade(conn, current)?;
    }
    for (index, (name, sql)) in migrations().iter().enumerate().skip(current) {
        apply_migration(conn, index + 1, name, sql)?;
    }
    // A newer binary may have migrated the file while we waited for the lock.
    check_not_newer(conn).map(|_| ())
}

/// Copies the file to `<file>.v<version>.bak` before a newer binary changes
/// its schema: an older binary refuses the upgraded file, so this copy is
/// the way back. An existing copy is kept (the first one is the one from
/// before any upgrade). Databases in memory have nothing to keep.
fn backup_before_upgrade(conn: &Connection, version: usize) -> Result<()> {
    let Some(path) = conn.path().filter(|p| !p.is_empty()) else {
        return Ok(());
    };
    let target = std::path::PathBuf::from(format!("{path}.v{version}.bak"));
    if target.exists() {
        return Ok(());
    }
    backup_into(conn, &target)?;
    tracing::info!(
        backup = %target.display(),
        from = version,
        to = migrations().len(),
        "database backed up before its schema is upgraded"
    );
    Ok(())
}

/// The file's version, refused if this binary does not know it.
fn check_not_newer(conn: &Connection) -> Result<usize> {
    known_version(schema_version(conn)?, Backend::Sqlite)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::{Note, NoteKind};
    use crate::storage::suite::{
        a_move, accepting, create_game, new_challenge, new_game, put, saving, store_suite, t,
        update, world,
    };
    use crate::storage::{transfer, *};
    use rusqlite::params;
    use shakmaty::Color;
    use tempfile::TempDir;

    fn fresh() -> (TempDir, Store) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::from(SqliteStore::open(dir.path().join("suite.db")).expect("open"));
        (dir, store)
    }

    store_suite!(fresh);

    /// The schema's tables, sorted: those `pawnpost migrate` copies.
    fn copied_tables() -> Vec<&'static str> {
        let mut names: Vec<_> = transfer::TABLES.iter().map(|t| t.name).collect();
        names.sort_unstable();
        names
    }

    /// The first column of every row `sql` reads.
    fn column<T: rusqlite::types::FromSql>(conn: &Connection, sql: &str) -> Vec<T> {
        conn.prepare(sql)
            .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
            .expect(sql)
    }

    fn tables(conn: &Connection) -> Vec<String> {
        column(
            conn,
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
        )
    }

    fn int_pragma(conn: &Connection, name: &str) -> i64 {
        conn.pragma_query_value(None, name, |r| r.get(0))
            .expect(name)
    }

    fn at(seconds: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + seconds, 0).expect("instant")
    }

    /// Every table of a fresh file is copied by `pawnpost migrate`, each
    /// with all its columns.
    #[test]
    fn a_fresh_file_gets_every_migration_and_every_table() {
        let (_dir, store) = fresh();
        assert_eq!(
            store.sqlite().schema_version().expect("version"),
            migrations().len()
        );
        let conn = store.sqlite().lock().expect("lock");
        assert_eq!(int_pragma(&conn, "user_version"), migrations().len() as i64);
        assert_eq!(tables(&conn), copied_tables());
        for table in transfer::TABLES {
            let mut copied: Vec<&str> = table.columns.split(", ").collect();
            let sql = format!("SELECT name FROM pragma_table_info('{}')", table.name);
            let mut columns: Vec<String> = column(&conn, &sql);
            copied.sort_unstable();
            columns.sort_unstable();
            assert_eq!(columns, copied, "{}", table.name);
        }
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
        drop(Store::from(SqliteStore::open(&path).expect("open")));
        // 0001 has plain CREATE TABLEs: running it again would fail.
        let store = Store::from(SqliteStore::open(&path).expect("reopen"));
        assert_eq!(
            store.sqlite().schema_version().expect("version"),
            migrations().len()
        );
        assert_eq!(
            tables(&store.sqlite().lock().expect("lock")),
            copied_tables()
        );
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

    /// A new file at `path` with the first `version` migrations, as an
    /// older binary left it.
    fn a_file_at_version(path: &Path, version: usize) -> Connection {
        let mut conn = Connection::open(path).expect("open");
        for (index, (name, sql)) in migrations().iter().enumerate().take(version) {
            apply_migration(&mut conn, index + 1, name, sql).expect("older step");
        }
        conn
    }

    /// 0013 folds each kept answer and its outbox row into one `acts` row:
    /// a replay still finds its answer, and undelivered notices stay due.
    #[tokio::test]
    async fn kept_answers_and_their_outbox_rows_become_acts() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("v12.db");
        let conn = a_file_at_version(&path, 12);
        conn.execute_batch(
            "INSERT INTO processed_acts VALUES
                 ('b', '2026-01-01T00:00:02Z', '[\"b\"]'),
                 ('a', '2026-01-01T00:00:01Z', '[\"a\", \"notice\"]');
             INSERT INTO outbox (act_key, platform, next_item, attempts, due_at, created_at)
                 VALUES ('a', 'discord', 1, 2, '2026-01-01T00:01:00Z', '2026-01-01T00:00:01Z');",
        )
        .expect("rows of version 12");
        drop(conn);

        let store = Store::from(SqliteStore::open(&path).expect("migrate"));
        let answer = store.answer_of("b").await.expect("read");
        assert_eq!(answer.as_deref(), Some(r#"["b"]"#));
        let due = store
            .claim_notices(Platform::Discord, at(120), at(240), 10)
            .await
            .expect("claim");
        assert_eq!(
            due.iter()
                .map(|n| (n.act_key.as_str(), n.next_item, n.attempts))
                .collect::<Vec<_>>(),
            [("a", 1, 2)],
            "only the act with notices left, where its delivery stood"
        );
        let conn = store.sqlite().lock().expect("lock");
        let order: Vec<String> = column(&conn, "SELECT act_key FROM acts ORDER BY id");
        assert_eq!(order, ["a", "b"], "in the order they were committed");
        // 0022: acts from before it were never held in their rows.
        let done: i64 = conn
            .query_row("SELECT through FROM held_acts_done", [], |r| r.get(0))
            .expect("held acts done");
        assert_eq!(done, 2, "looks start after the acts already there");
        let kept = Connection::open(dir.path().join("v12.db.v12.bak")).expect("the backup");
        assert_eq!(
            int_pragma(&kept, "user_version"),
            12,
            "the file before the upgrade"
        );
        assert_eq!(
            kept.query_row("SELECT count(*) FROM processed_acts", [], |r| r
                .get::<_, i64>(0))
                .expect("its rows"),
            2
        );
    }

    /// 0015 gives the tournaments made before tie-breaks could be chosen
    /// the ranking they had: their system's default.
    #[tokio::test]
    async fn older_tournaments_keep_their_systems_tie_breaks() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("v14.db");
        let conn = a_file_at_version(&path, 14);
        // With foreign keys off, no server, channel or player rows are needed.
        conn.execute_batch(
            "PRAGMA foreign_keys = OFF;
             INSERT INTO tournaments (id, server_id, channel_id, name, system, time_control,
                 rated, rounds, bye_half_points, max_players, entry_closes_at, state, round,
                 created_by, created_at, version)
             VALUES (1, 1, 1, '', 'swiss', '3d', 1, 5, 2, NULL, NULL, 'running', 2, 1,
                     '2026-01-01T00:00:00Z', 3),
                    (2, 1, 1, '', 'double_round_robin', '3d', 1, NULL, 2, NULL, NULL,
                     'finished', 6, 1, '2026-01-01T00:00:00Z', 9);",
        )
        .expect("tournaments of version 14");
        drop(conn);

        let store = Store::from(SqliteStore::open(&path).expect("migrate"));
        let conn = store.sqlite().lock().expect("lock");
        let kept: Vec<(String, String)> = conn
            .prepare("SELECT system, tiebreaks FROM tournaments ORDER BY id")
            .and_then(|mut s| s.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect())
            .expect("tournaments");
        assert_eq!(
            kept,
            [
                ("swiss".to_owned(), "BH-C1,BH,SB,WIN".to_owned()),
                ("double_round_robin".to_owned(), "DE,SB,WIN".to_owned()),
            ]
        );
        for (system, text) in &kept {
            let system: TournamentSystem =
                crate::core::names::Named::from_name(system).expect("a system");
            assert_eq!(
                crate::core::tournament::tie_breaks_from_text(text).as_deref(),
                Some(crate::competition::tournament::default_tie_breaks(system)),
                "the code's default is the migration's"
            );
        }
    }

    /// A hold waits in its act's row: a look releases the acts whose hold
    /// ran out unanswered, and a process started after a crash looks on from
    /// where the file says and finds what the dead one held.
    #[tokio::test]
    async fn held_acts_are_found_again_after_a_crash() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("held.db");
        let held = |key: &str, until: i64| Commit {
            act_key: Some(key.into()),
            outgoing: Some(Outgoing {
                platform: Platform::Discord,
                first: 0,
                held_until: Some(at(until)),
                server_id: None,
            }),
            ..Commit::default()
        };
        let claimed = async |store: &Store, now: i64| -> Vec<String> {
            let claimed = store.claim_notices(Platform::Discord, at(now), at(now + 5), 10);
            let claimed = claimed.await.expect("claim");
            claimed.into_iter().map(|q| q.act_key).collect()
        };
        let first = Store::from(SqliteStore::open(&path).expect("open"));
        for (key, until) in [("h-1", 30), ("h-2", 30), ("h-3", 60)] {
            first
                .commit(held(key, until), at(0), |_| ["notice"])
                .await
                .expect("commit");
        }
        first
            .settle_answered(&["h-1".to_owned()])
            .await
            .expect("settle");
        assert_eq!(
            first.release_ended_holds(at(29)).await.expect("look"),
            Some(at(30))
        );
        assert!(claimed(&first, 29).await.is_empty(), "still held");
        assert_eq!(
            first.release_ended_holds(at(31)).await.expect("look"),
            Some(at(60))
        );
        assert_eq!(claimed(&first, 31).await, ["h-2"], "h-1 was answered");
        drop(first);

        let second = Store::from(SqliteStore::open(&path).expect("reopen"));
        let done = second.sqlite().lock().expect("lock").query_row(
            "SELECT through FROM held_acts_done",
            [],
            |r| r.get::<_, i64>(0),
        );
        assert_eq!(done.expect("recorded"), 2, "h-1 and h-2 are done with");
        assert_eq!(
            second.release_ended_holds(at(59)).await.expect("look"),
            Some(at(60))
        );
        assert_eq!(
            second.release_ended_holds(at(60)).await.expect("look"),
            None
        );
        assert_eq!(
            claimed(&second, 60).await,
            ["h-2", "h-3"],
            "in commit order"
        );
    }

    #[tokio::test]
    async fn data_survives_closing_and_reopening() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("keep.db");
        let store = Store::from(SqliteStore::open(&path).expect("open"));
        let (game, player) = a_game_with_a_move(&store).await;
        drop(store);

        let store = Store::from(SqliteStore::open(&path).expect("reopen"));
        assert_eq!(store.player(player.id).await.expect("read"), Some(player));
        assert_eq!(store.game(game.id).await.expect("read"), Some(game));
        let answer = store.answer_of("move-1").await.expect("read");
        assert_eq!(answer.as_deref(), Some(r#""played""#));
    }

    /// A game with one move and one note, saved under act key `move-1`.
    async fn a_game_with_a_move(store: &Store) -> (GameRecord, PlayerRow) {
        let w = world(store).await.expect("world");
        let game = new_game(&w, w.alice.id, w.bob.id);
        let id = create_game(store, game).await.expect("game");
        let first = GameUpdate {
            new_moves: vec![MoveRow {
                draw_offer: true,
                ..a_move(1, "e2e4", "e4", t(2))
            }],
            new_notes: vec![Note {
                ply: 1,
                by: Some(Color::White),
                at: t(2),
                kind: NoteKind::DrawOffered,
            }],
            pending_offer: Some(Color::White),
            turn: Color::Black,
            ..update(id)
        };
        let commit = Commit {
            act_key: Some("move-1".to_owned()),
            ..saving(vec![first])
        };
        store
            .commit(commit, t(2), |_| "played")
            .await
            .expect("move");
        let game = store.game(id).await.expect("read").expect("game");
        assert_eq!(game.moves.len(), 1);
        (game, w.alice)
    }

    #[tokio::test]
    async fn an_accepted_challenge_names_its_game() {
        let (_dir, store) = fresh();
        let w = world(&store).await.expect("world");
        let mut challenge_ids = Vec::new();
        for _ in 0..2 {
            let commit = Commit {
                new_challenge: Some(new_challenge(&w, w.channel.id, t(60))),
                ..Commit::default()
            };
            let made = put(&store, t(3), commit).await.expect("challenge");
            challenge_ids.push(made.challenge_id.expect("id"));
        }
        let game = new_game(&w, w.alice.id, w.bob.id);
        let accept = accepting(challenge_ids[0], game.clone());
        let accepted = put(&store, t(4), accept).await.expect("accept");
        // A game naming a challenge that stays open does not claim it.
        let unclosed = Commit {
            new_game: Some(NewGame {
                challenge_id: Some(challenge_ids[1]),
                ..game
            }),
            ..Commit::default()
        };

        put(&store, t(5), unclosed).await.expect("game");

        let conn = store.sqlite().lock().expect("lock");
        let linked: Vec<Option<i64>> = column(&conn, "SELECT game_id FROM challenges ORDER BY id");
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
                let conn = store.sqlite().lock().expect("lock");
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
            let conn = store.sqlite().lock().expect("lock");
            conn.execute(&sql, params![original, game.id])
                .expect("mend");
        }
        assert_eq!(store.game(game.id).await.expect("read"), Some(game));
    }

    /// A file with a game of `plies` moves, closed (its WAL folded in).
    async fn a_closed_file_with_moves(path: &Path, plies: u32) {
        let store = Store::from(SqliteStore::open(path).expect("open"));
        let (game, _) = a_game_with_a_move(&store).await;
        let new_moves = (2..=plies).map(|ply| a_move(ply, "g1f3", "Nf3", t(3)));
        let more = GameUpdate {
            expected_version: game.version,
            new_moves: new_moves.collect(),
            ..update(game.id)
        };
        put(&store, t(3), saving(vec![more])).await.expect("moves");
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
        let conn = Arc::clone(&store.sqlite().conn);
        let panicked = std::thread::spawn(move || {
            let _guard = conn.lock();
            panic!("poison the connection lock");
        })
        .join();
        assert!(panicked.is_err());
        let read = store.player(PlayerId(1)).await;
        assert!(matches!(read, Err(StorageError::Backend(_))), "{read:?}");
        assert!(matches!(
            store.sqlite().schema_version(),
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
        let (game, _) =
            a_game_with_a_move(&Store::from(SqliteStore::open(&path).expect("open"))).await;
        let uri = format!("file:{}?mode=ro", path.display());
        let store = Store::from(SqliteStore::open(&uri).expect("open read-only"));
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
            .sqlite()
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
