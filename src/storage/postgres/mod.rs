//! The PostgreSQL backend, for several bot processes sharing one database:
//! the connection pool, the transactions the shared statements
//! (`storage::queries`) run in, the migrations' lock and how driver errors
//! read.
//!
//! tokio-postgres with a deadpool pool; every call borrows a connection.
//! What several processes share is made safe by the database itself: a
//! game's version is checked in the `UPDATE` that saves it, an act's key is
//! a primary key, and the scheduler claims due games with
//! `FOR UPDATE SKIP LOCKED`.

pub(super) mod conn;
mod import;
pub mod schema;
pub mod scratch;

pub use import::Import;

use std::str::FromStr;

use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod};
use tokio_postgres::NoTls;

use super::DriverError;
use super::{Result, StorageError};

/// Connections per process unless the URL's caller asks otherwise.
pub const DEFAULT_POOL_SIZE: usize = 16;

/// A PostgreSQL database (one schema of it: the URL's `search_path`).
#[derive(Clone)]
pub struct PgStore {
    pool: Pool,
}

/// A driver error as a storage error of its kind, the error kept as its source.
pub(crate) fn backend(error: tokio_postgres::Error) -> StorageError {
    let kind = match error.code() {
        Some(code) => kind_of_sqlstate(code.code()),
        // No answer from the server: the connection failed or was lost.
        None if error.is_closed() || io_failure(&error) => StorageError::Unavailable,
        None => StorageError::Driver,
    };
    kind(Box::new(error))
}

/// A failure to get a pooled connection, by its cause.
fn pool_error(error: deadpool_postgres::PoolError) -> StorageError {
    use deadpool_postgres::{PoolError, TimeoutType};
    match error {
        PoolError::Backend(error) => backend(error),
        // Every connection stayed in use longer than the pool waits.
        PoolError::Timeout(TimeoutType::Wait) => StorageError::Busy(Box::new(error)),
        PoolError::Timeout(_) | PoolError::Closed => StorageError::Unavailable(Box::new(error)),
        other => StorageError::Driver(Box::new(other)),
    }
}

/// Whether an I/O error (a refused or broken connection) lies behind `error`.
fn io_failure(error: &tokio_postgres::Error) -> bool {
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        if cause.is::<std::io::Error>() {
            return true;
        }
        source = cause.source();
    }
    false
}

/// Which [`StorageError`] a server's SQLSTATE is. Serialization failures
/// and deadlocks are [`StorageError::Conflict`]: the act is tried again.
fn kind_of_sqlstate(code: &str) -> fn(DriverError) -> StorageError {
    match code {
        "40001" | "40P01" => |_| StorageError::Conflict,
        "53100" => StorageError::DiskFull,
        "25006" => StorageError::ReadOnly,
        "55P03" => StorageError::Busy,
        "XX001" | "XX002" => StorageError::Damaged,
        // admin_shutdown, crash_shutdown, cannot_connect_now, and every
        // connection_exception.
        "57P01" | "57P02" | "57P03" => StorageError::Unavailable,
        _ if code.starts_with("08") => StorageError::Unavailable,
        _ => StorageError::Driver,
    }
}

impl PgStore {
    /// Connects to `url` (`postgres://user@host:port/db`), brings the
    /// schema up to date and keeps a pool of `pool_size` connections.
    pub async fn connect(url: &str, pool_size: usize) -> Result<PgStore> {
        let config = tokio_postgres::Config::from_str(url)
            .map_err(|e| StorageError::Backend(format!("database URL: {e}")))?;
        PgStore::open(config, pool_size).await
    }

    /// [`PgStore::connect`] with a parsed configuration (tests set the
    /// `search_path` here to give each test its own schema).
    pub async fn open(config: tokio_postgres::Config, pool_size: usize) -> Result<PgStore> {
        let (mut client, connection) = config.connect(NoTls).await.map_err(backend)?;
        let driver = tokio::spawn(connection);
        let migrated = schema::migrate(&mut client).await;
        drop(client);
        // The connection task ends once its client is gone.
        let _ = driver.await;
        migrated?;
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(pool_size.max(1))
            .build()
            .map_err(|e| StorageError::Backend(format!("connection pool: {e}")))?;
        Ok(PgStore { pool })
    }

    /// The schema version recorded in the database.
    pub async fn schema_version(&self) -> Result<usize> {
        let client = self.client().await?;
        schema::version(&client).await
    }

    pub(super) async fn client(&self) -> Result<Object> {
        self.pool.get().await.map_err(pool_error)
    }

    /// Runs one statement of a test's own (catalogue reads, damage).
    #[cfg(test)]
    async fn query(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Vec<tokio_postgres::Row>> {
        let client = self.client().await?;
        client.query(sql, params).await.map_err(backend)
    }
}

/// Commits `tx` when its writes succeeded, else rolls it back (a refused
/// act leaves nothing written) and returns their refusal.
pub(super) async fn settle<T>(
    tx: deadpool_postgres::Transaction<'_>,
    written: Result<T>,
) -> Result<T> {
    match written {
        Ok(done) => {
            tx.commit().await.map_err(backend)?;
            Ok(done)
        }
        Err(refusal) => {
            tx.rollback().await.map_err(backend)?;
            Err(refusal)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::scratch::{ScratchSchema, test_url};
    use super::*;
    use crate::storage::suite::store_suite;
    use crate::storage::{transfer, *};
    use chrono::Utc;

    async fn fresh() -> Option<(ScratchSchema, PgStore)> {
        let url = test_url()?;
        let schema = ScratchSchema::create(&url, "suite").await.expect("schema");
        let store = schema.store(4).await.expect("open");
        Some((schema, store))
    }

    store_suite!(optional async fresh);

    #[tokio::test]
    async fn every_table_and_column_is_commented() {
        let Some((schema, store)) = fresh().await else {
            return;
        };
        assert_eq!(
            store.schema_version().await.expect("version"),
            schema::migrations().len()
        );
        let client = store.client().await.expect("client");
        let tables: Vec<String> = client
            .query(
                "SELECT table_name::text FROM information_schema.tables
                 WHERE table_schema = current_schema() ORDER BY 1",
                &[],
            )
            .await
            .expect("tables")
            .iter()
            .map(|r| r.get(0))
            .collect();
        let mut expected: Vec<_> = transfer::TABLES.iter().map(|t| t.name).collect();
        expected.push("schema_migrations");
        expected.sort_unstable();
        assert_eq!(tables, expected, "the tables `pawnpost migrate` copies");
        let uncommented: Vec<String> = client
            .query(
                "SELECT c.relname || coalesce('.' || a.attname, '')
                 FROM pg_class c
                 JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
                 LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
                                          AND NOT a.attisdropped
                 WHERE c.relkind = 'r'
                   AND col_description(c.oid, coalesce(a.attnum, 0)) IS NULL
                   AND (a.attnum IS NOT NULL OR obj_description(c.oid, 'pg_class') IS NULL)
                 ORDER BY 1",
                &[],
            )
            .await
            .expect("comments")
            .iter()
            .map(|r| r.get(0))
            .collect();
        assert!(uncommented.is_empty(), "no comment: {uncommented:?}");
        drop(schema);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn processes_starting_together_migrate_once() {
        let Some(url) = test_url() else { return };
        let schema = ScratchSchema::create(&url, "race").await.expect("schema");
        let config = schema.config().expect("config");
        let opens = (0..4).map(|_| PgStore::open(config.clone(), 1));
        let stores = futures_join_all(opens).await;
        for store in &stores {
            let store = store.as_ref().expect("open");
            assert_eq!(
                store.schema_version().await.expect("version"),
                schema::migrations().len()
            );
        }
        let applied = stores[0]
            .as_ref()
            .expect("open")
            .query("SELECT count(*) FROM schema_migrations", &[])
            .await
            .expect("count");
        assert_eq!(
            applied[0].get::<_, i64>(0),
            schema::migrations().len() as i64
        );
        // Opening again applies nothing (0001 has plain CREATE TABLEs).
        schema.store(1).await.expect("reopen");
    }

    #[tokio::test]
    async fn a_newer_database_is_refused() {
        let Some(url) = test_url() else { return };
        let schema = ScratchSchema::create(&url, "newer").await.expect("schema");
        let store = schema.store(1).await.expect("open");
        store
            .query(
                "INSERT INTO schema_migrations (version, name) VALUES (99, '0099_future')",
                &[],
            )
            .await
            .expect("from the future");
        let opened = schema.store(1).await;
        assert!(
            matches!(opened, Err(StorageError::Migration { version: 99, .. })),
            "{:?}",
            opened.err().map(|e| e.to_string())
        );
    }

    /// Runs the futures together, as processes starting at once would.
    async fn futures_join_all<F: std::future::Future + Send + 'static>(
        futures: impl Iterator<Item = F>,
    ) -> Vec<F::Output>
    where
        F::Output: Send + 'static,
    {
        let tasks: Vec<_> = futures.map(tokio::spawn).collect();
        let mut outputs = Vec::new();
        for task in tasks {
            outputs.push(task.await.expect("task"));
        }
        outputs
    }

    #[tokio::test]
    async fn a_read_only_server_refuses_writes_as_read_only() {
        let Some((schema, _migrated)) = fresh().await else {
            return;
        };
        // Every transaction of these connections is read-only, as on a standby.
        let mut config = schema.config().expect("config");
        config.options(format!(
            "-c search_path={} -c default_transaction_read_only=on",
            schema.name()
        ));
        let manager = Manager::from_config(config, NoTls, ManagerConfig::default());
        let store = Store::from(PgStore {
            pool: Pool::builder(manager).max_size(1).build().expect("pool"),
        });
        let written = store
            .ensure_player(Platform::Console, "carol", "Carol", Utc::now())
            .await;
        let Err(StorageError::ReadOnly(source)) = written else {
            panic!("{written:?}");
        };
        let driver = source
            .downcast_ref::<tokio_postgres::Error>()
            .expect("the driver's error");
        assert_eq!(
            driver.code(),
            Some(&tokio_postgres::error::SqlState::READ_ONLY_SQL_TRANSACTION)
        );
    }

    /// Each SQLSTATE the store tells apart, and the failure it becomes.
    #[test]
    fn sqlstates_map_to_their_kind() {
        let table = [
            ("53100", "disk-full"),
            ("25006", "read-only"),
            ("55P03", "busy"),
            ("40001", "conflict"),
            ("40P01", "conflict"),
            ("XX001", "damaged"),
            ("XX002", "damaged"),
            ("57P01", "unavailable"),
            ("57P02", "unavailable"),
            ("57P03", "unavailable"),
            ("08000", "unavailable"),
            ("08006", "unavailable"),
            ("23503", "driver"),
            ("23505", "driver"),
            ("42P01", "driver"),
        ];
        for (code, kind) in table {
            let error = kind_of_sqlstate(code)(Box::new(std::io::Error::other(code)));
            assert_eq!(error.kind(), kind, "{code}");
            if kind != "conflict" {
                let source = std::error::Error::source(&error).expect("a source");
                assert_eq!(source.to_string(), code);
            }
        }
    }
}
