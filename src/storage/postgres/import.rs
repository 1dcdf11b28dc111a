//! The PostgreSQL side of the copy from SQLite: rows inserted as they come
//! (see [`transfer`]), in one transaction with foreign keys checked at its end.
//!
//! [`transfer`]: crate::storage::transfer

use deadpool_postgres::Object;

use super::conn::PgConn;
use super::{PgStore, backend};
use crate::storage::sql::Row;
use crate::storage::transfer::{self, TABLES, Table};
use crate::storage::{Result, StorageError};

/// An open copy; dropped without [`Import::finish`], nothing is kept.
pub struct Import {
    client: Option<Object>,
}

impl PgStore {
    /// Starts a copy into this database, which must hold no rows.
    pub async fn begin_import(&self) -> Result<Import> {
        for table in TABLES {
            if self.count_rows(table).await? > 0 {
                return Err(StorageError::Backend(format!(
                    "the PostgreSQL database already has {}: copy into an empty one",
                    table.name
                )));
            }
        }
        let client = self.client().await?;
        client
            .batch_execute("BEGIN; SET CONSTRAINTS ALL DEFERRED")
            .await
            .map_err(backend)?;
        Ok(Import {
            client: Some(client),
        })
    }

    /// How many rows `table` holds.
    pub async fn count_rows(&self, table: &Table) -> Result<u64> {
        let client = self.client().await?;
        transfer::count_rows(&PgConn(&client), table).await
    }
}

impl Import {
    fn client(&self) -> Result<&Object> {
        self.client
            .as_ref()
            .ok_or_else(|| StorageError::Backend("the copy already ended".to_owned()))
    }

    /// Inserts `rows` (in `table`'s column order) in one statement.
    pub async fn insert(&mut self, table: &Table, rows: &[Row]) -> Result<()> {
        transfer::insert_rows(&PgConn(self.client()?), table, rows).await
    }

    /// Moves the id sequences past the copied ids and commits.
    pub async fn finish(mut self) -> Result<()> {
        let client = self.client()?;
        for table in TABLES.iter().filter(|t| t.identity) {
            let sql = format!(
                "SELECT setval(pg_get_serial_sequence('{0}', 'id'), coalesce(max(id), 0) + 1, false)
                 FROM {0}",
                table.name
            );
            client.execute(sql.as_str(), &[]).await.map_err(backend)?;
        }
        // PostgreSQL reads no hold from a row (see migration 0022): a
        // copied act still held waits in the due index instead.
        client
            .execute(
                "UPDATE acts SET due_at = coalesce(due_at, held_until), held_until = NULL
                 WHERE held_until IS NOT NULL",
                &[],
            )
            .await
            .map_err(backend)?;
        // Deferred foreign keys are checked here.
        client.batch_execute("COMMIT").await.map_err(backend)?;
        self.client = None;
        Ok(())
    }
}

impl Drop for Import {
    fn drop(&mut self) {
        // An unfinished copy: close the connection (which rolls back)
        // rather than hand a half-open transaction back to the pool.
        if let Some(client) = self.client.take() {
            drop(Object::take(client));
        }
    }
}
