//! The PostgreSQL side of the copy from SQLite: rows inserted as they come,
//! in one transaction with foreign keys checked at its end.

use chrono::{DateTime, Utc};
use deadpool_postgres::Object;
use tokio_postgres::types::ToSql;

use super::{PgStore, backend};
use crate::storage::transfer::{Kind, TABLES, Table, Value};
use crate::storage::{Result, StorageError};

/// An open copy; dropped without [`Import::finish`], nothing is kept.
pub struct Import {
    client: Option<Object>,
}

type Param = Box<dyn ToSql + Sync + Send>;

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
        let rows = self
            .query(&format!("SELECT count(*) FROM {}", table.name), &[])
            .await?;
        let count: i64 = rows.first().map(|r| r.get(0)).unwrap_or_default();
        Ok(count as u64)
    }
}

impl Import {
    fn client(&self) -> Result<&Object> {
        self.client
            .as_ref()
            .ok_or_else(|| StorageError::Backend("the copy already ended".to_owned()))
    }

    /// Inserts `rows` (in `table`'s column order) in one statement.
    pub async fn insert(&mut self, table: &Table, rows: &[Vec<Value>]) -> Result<()> {
        if rows.is_empty() {
            return Ok(());
        }
        let width = table.columns.len();
        let mut params: Vec<Param> = Vec::with_capacity(rows.len() * width);
        let mut tuples = Vec::with_capacity(rows.len());
        for row in rows {
            if row.len() != width {
                return Err(StorageError::Corrupt(format!("a row of {}", table.name)));
            }
            let marks: Vec<String> = (0..width)
                .map(|i| format!("${}", params.len() + i + 1))
                .collect();
            tuples.push(format!("({})", marks.join(", ")));
            for (value, (column, kind)) in row.iter().zip(table.columns) {
                params.push(param(table, column, *kind, value)?);
            }
        }
        let sql = format!(
            "INSERT INTO {} ({}) VALUES {}",
            table.name,
            table.column_list(),
            tuples.join(", ")
        );
        let refs: Vec<&(dyn ToSql + Sync)> = params
            .iter()
            .map(|p| p.as_ref() as &(dyn ToSql + Sync))
            .collect();
        self.client()?
            .execute(sql.as_str(), &refs)
            .await
            .map_err(backend)?;
        Ok(())
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

/// One SQLite value as the PostgreSQL type of its column.
fn param(table: &Table, column: &str, kind: Kind, value: &Value) -> Result<Param> {
    let bad = || {
        StorageError::Corrupt(format!(
            "{}.{column}: {value:?} is not {kind:?}",
            table.name
        ))
    };
    Ok(match (kind, value) {
        (Kind::BigInt, Value::Null) => Box::new(None::<i64>),
        (Kind::Int, Value::Null) => Box::new(None::<i32>),
        (Kind::Bool, Value::Null) => Box::new(None::<bool>),
        (Kind::Text, Value::Null) => Box::new(None::<String>),
        (Kind::Instant, Value::Null) => Box::new(None::<DateTime<Utc>>),
        (Kind::Json, Value::Null) => Box::new(None::<serde_json::Value>),
        (Kind::Float, Value::Null) => Box::new(None::<f64>),
        (Kind::Float, Value::Real(r)) => Box::new(*r),
        // SQLite stores a REAL that is a whole number as REAL, but be lenient.
        (Kind::Float, Value::Int(i)) => Box::new(*i as f64),
        (Kind::BigInt, Value::Int(i)) => Box::new(*i),
        (Kind::Int, Value::Int(i)) => Box::new(i32::try_from(*i).map_err(|_| bad())?),
        (Kind::Bool, Value::Int(i)) => Box::new(*i != 0),
        (Kind::Text, Value::Text(t)) => Box::new(t.clone()),
        (Kind::Instant, Value::Text(t)) => Box::new(
            DateTime::parse_from_rfc3339(t)
                .map_err(|_| bad())?
                .with_timezone(&Utc),
        ),
        (Kind::Json, Value::Text(t)) => {
            Box::new(serde_json::from_str::<serde_json::Value>(t).map_err(|_| bad())?)
        }
        _ => return Err(bad()),
    })
}
