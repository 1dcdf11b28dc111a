//! Shared statements on a SQLite connection: values bound and read as
//! [`Value`]s, statements prepared once and kept in the connection's cache.

use rusqlite::Connection;
use rusqlite::types::{ToSqlOutput, ValueRef};

use crate::storage::Result;
use crate::storage::sql::{Conn, Row, Value, time_text};

/// A connection (inside one of the store's transactions) running shared SQL.
pub struct SqliteConn<'a>(pub &'a Connection);

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Value::Int(v) => ToSqlOutput::Borrowed(ValueRef::Integer(*v)),
            Value::Real(v) => ToSqlOutput::Borrowed(ValueRef::Real(*v)),
            Value::Text(v) => ToSqlOutput::Borrowed(ValueRef::Text(v.as_bytes())),
            Value::Bool(v) => ToSqlOutput::Borrowed(ValueRef::Integer(i64::from(*v))),
            Value::Time(v) => ToSqlOutput::Owned(rusqlite::types::Value::Text(time_text(*v))),
        })
    }
}

fn value(column: ValueRef<'_>) -> Value {
    match column {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(v) => Value::Int(v),
        ValueRef::Real(v) => Value::Real(v),
        ValueRef::Text(v) | ValueRef::Blob(v) => {
            Value::Text(String::from_utf8_lossy(v).into_owned())
        }
    }
}

impl SqliteConn<'_> {
    fn rows(&self, sql: &str, params: &[Value]) -> Result<Vec<Row>> {
        let mut statement = self.0.prepare_cached(sql)?;
        let width = statement.column_count();
        let mut rows = statement.query(rusqlite::params_from_iter(params))?;
        let mut found = Vec::new();
        while let Some(row) = rows.next()? {
            let mut values = Vec::with_capacity(width);
            for index in 0..width {
                values.push(value(row.get_ref(index)?));
            }
            found.push(Row(values));
        }
        Ok(found)
    }
}

impl Conn for SqliteConn<'_> {
    async fn query(&self, sql: &str, params: &[Value]) -> Result<Vec<Row>> {
        self.rows(sql, params)
    }

    async fn execute(&self, sql: &str, params: &[Value]) -> Result<u64> {
        let changed = self
            .0
            .prepare_cached(sql)?
            .execute(rusqlite::params_from_iter(params))?;
        Ok(changed as u64)
    }

    fn numbers_in_commit_order(&self) -> bool {
        true
    }
}
