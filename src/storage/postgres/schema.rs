//! PostgreSQL's own numbered migrations, applied in order, one transaction
//! each, under an advisory lock so that processes starting together cannot
//! apply a step twice.

use tokio_postgres::Client;

use super::backend;
use crate::storage::migrations::{Backend, Migration, for_backend, known_version};
use crate::storage::{Result, StorageError};

/// The schema's steps for PostgreSQL, in order: version N is element N − 1.
pub fn migrations() -> &'static [Migration] {
    for_backend(Backend::Postgres)
}

/// First key of the advisory lock the migrations take ("pawn" in ASCII);
/// the second is the schema's name hashed, so schemas migrate independently.
const LOCK_CLASS: i32 = 0x7061_776e;

/// The table that records applied versions, created under the lock.
const VERSIONS_TABLE: &str = "
    CREATE TABLE IF NOT EXISTS schema_migrations (
        version    integer     PRIMARY KEY,
        name       text        NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
    );
    COMMENT ON TABLE schema_migrations IS 'Migrations applied to this schema';
    COMMENT ON COLUMN schema_migrations.version IS 'The migration''s number';
    COMMENT ON COLUMN schema_migrations.name IS 'Its file name without .sql';
    COMMENT ON COLUMN schema_migrations.applied_at IS 'When it was applied'";

/// Applies every migration the schema lacks; refuses a schema that is newer than this binary.
pub async fn migrate(client: &mut Client) -> Result<usize> {
    for (index, (name, sql)) in migrations().iter().enumerate() {
        apply(client, index + 1, name, sql).await?;
    }
    known_version(version(client).await?, Backend::Postgres)
}

/// The highest migration applied (0 for an empty schema).
pub async fn version(client: &Client) -> Result<usize> {
    let exists: bool = client
        .query_one("SELECT to_regclass('schema_migrations') IS NOT NULL", &[])
        .await
        .map_err(backend)?
        .get(0);
    if !exists {
        return Ok(0);
    }
    let version: i32 = client
        .query_one(
            "SELECT coalesce(max(version), 0) FROM schema_migrations",
            &[],
        )
        .await
        .map_err(backend)?
        .get(0);
    Ok(usize::try_from(version).unwrap_or(0))
}

/// Applies migration `version` unless it is there; the check happens under
/// the lock, inside the transaction that applies it.
async fn apply(client: &mut Client, version: usize, name: &str, sql: &str) -> Result<()> {
    let failed = |e: tokio_postgres::Error| StorageError::Migration {
        version,
        message: format!("{name}: {}", backend(e)),
    };
    let tx = client.transaction().await.map_err(failed)?;
    tx.execute(
        "SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))",
        &[&LOCK_CLASS],
    )
    .await
    .map_err(failed)?;
    tx.batch_execute(VERSIONS_TABLE).await.map_err(failed)?;
    let number = i32::try_from(version).map_err(|_| StorageError::Migration {
        version,
        message: "too many migrations".to_owned(),
    })?;
    let applied: bool = tx
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version >= $1)",
            &[&number],
        )
        .await
        .map_err(failed)?
        .get(0);
    if applied {
        return Ok(());
    }
    tx.batch_execute(sql).await.map_err(failed)?;
    tx.execute(
        "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
        &[&number, &name],
    )
    .await
    .map_err(failed)?;
    tx.commit().await.map_err(failed)
}
