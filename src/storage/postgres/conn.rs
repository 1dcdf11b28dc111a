//! Shared statements on a PostgreSQL connection or transaction: `?N`
//! parameters rewritten to `$N`, values converted to the column types the
//! server expects (`timestamptz`, `boolean`, `jsonb`…) and back.

use std::borrow::Cow;
use std::error::Error;

use bytes::BytesMut;
use deadpool_postgres::GenericClient;
use tokio_postgres::types::{FromSql, IsNull, ToSql, Type, to_sql_checked};

use super::backend;
use crate::storage::Result;
use crate::storage::sql::{Conn, Row, Value};

/// A pooled client or a transaction on one, running shared SQL.
pub struct PgConn<'a, C: GenericClient>(pub &'a C);

/// The statement with SQLite's `?N` parameters as PostgreSQL's `$N`
/// (outside quoted text, where a `?` is only a character).
pub fn dollar_parameters(sql: &str) -> Cow<'_, str> {
    if !sql.contains('?') {
        return Cow::Borrowed(sql);
    }
    let mut out = String::with_capacity(sql.len());
    let mut quoted = false;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => quoted = !quoted,
            '?' if !quoted && chars.peek().is_some_and(char::is_ascii_digit) => {
                out.push('$');
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    Cow::Owned(out)
}

type BoxError = Box<dyn Error + Sync + Send>;

impl ToSql for Value {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> std::result::Result<IsNull, BoxError> {
        match (self, ty) {
            (Value::Null, _) => Ok(IsNull::Yes),
            (Value::Int(v), &Type::INT4) => i32::try_from(*v)?.to_sql(ty, out),
            (Value::Int(v), &Type::INT2) => i16::try_from(*v)?.to_sql(ty, out),
            (Value::Int(v), &Type::BOOL) => (*v != 0).to_sql(ty, out),
            (Value::Int(v), &Type::FLOAT8) => (*v as f64).to_sql(ty, out),
            (Value::Int(v), _) => v.to_sql(ty, out),
            (Value::Real(v), &Type::FLOAT4) => (*v as f32).to_sql(ty, out),
            (Value::Real(v), _) => v.to_sql(ty, out),
            (Value::Bool(v), &Type::INT8) => i64::from(*v).to_sql(ty, out),
            (Value::Bool(v), &Type::INT4) => i32::from(*v).to_sql(ty, out),
            (Value::Bool(v), _) => v.to_sql(ty, out),
            (Value::Text(v), &Type::JSON | &Type::JSONB) => {
                serde_json::from_str::<serde_json::Value>(v)?.to_sql(ty, out)
            }
            // An instant as SQLite's text, in the copy from SQLite.
            (Value::Text(v), &Type::TIMESTAMPTZ) => chrono::DateTime::parse_from_rfc3339(v)?
                .with_timezone(&chrono::Utc)
                .to_sql(ty, out),
            (Value::Text(v), _) => v.as_str().to_sql(ty, out),
            (Value::Time(v), &Type::TEXT | &Type::VARCHAR) => {
                crate::storage::sql::time_text(*v).to_sql(ty, out)
            }
            (Value::Time(v), _) => v.to_sql(ty, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

impl<'a> FromSql<'a> for Value {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> std::result::Result<Value, BoxError> {
        Ok(match *ty {
            Type::INT8 => Value::Int(i64::from_sql(ty, raw)?),
            Type::INT4 => Value::Int(i64::from(i32::from_sql(ty, raw)?)),
            Type::INT2 => Value::Int(i64::from(i16::from_sql(ty, raw)?)),
            Type::FLOAT8 => Value::Real(f64::from_sql(ty, raw)?),
            Type::FLOAT4 => Value::Real(f64::from(f32::from_sql(ty, raw)?)),
            Type::BOOL => Value::Bool(bool::from_sql(ty, raw)?),
            Type::TIMESTAMPTZ => Value::Time(chrono::DateTime::from_sql(ty, raw)?),
            Type::JSON | Type::JSONB => {
                Value::Text(serde_json::Value::from_sql(ty, raw)?.to_string())
            }
            _ => Value::Text(String::from_sql(ty, raw)?),
        })
    }

    fn from_sql_null(_: &Type) -> std::result::Result<Value, BoxError> {
        Ok(Value::Null)
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

fn bound(params: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    params.iter().map(|p| p as &(dyn ToSql + Sync)).collect()
}

fn row(row: &tokio_postgres::Row) -> Result<Row> {
    (0..row.len())
        .map(|index| {
            row.try_get::<_, Value>(index)
                .map_err(|e| crate::storage::StorageError::Corrupt(format!("column {index}: {e}")))
        })
        .collect::<Result<Vec<_>>>()
        .map(Row)
}

impl<C: GenericClient> Conn for PgConn<'_, C> {
    async fn query(&self, sql: &str, params: &[Value]) -> Result<Vec<Row>> {
        let statement = self
            .0
            .prepare_cached(&dollar_parameters(sql))
            .await
            .map_err(backend)?;
        let rows = self
            .0
            .query(&statement, &bound(params))
            .await
            .map_err(backend)?;
        rows.iter().map(row).collect()
    }

    async fn execute(&self, sql: &str, params: &[Value]) -> Result<u64> {
        let statement = self
            .0
            .prepare_cached(&dollar_parameters(sql))
            .await
            .map_err(backend)?;
        self.0
            .execute(&statement, &bound(params))
            .await
            .map_err(backend)
    }

    fn numbers_in_commit_order(&self) -> bool {
        // Identity values are taken before their transactions commit.
        false
    }
}

#[cfg(test)]
mod tests {
    use super::dollar_parameters;

    #[test]
    fn parameters_are_rewritten_outside_quotes_only() {
        for (sqlite, postgres) in [
            ("SELECT 1", "SELECT 1"),
            ("WHERE a = ?1 AND b = ?12", "WHERE a = $1 AND b = $12"),
            ("WHERE a = '?1' AND b = ?2", "WHERE a = '?1' AND b = $2"),
            (
                "WHERE a = 'it''s ?' AND b = ?3",
                "WHERE a = 'it''s ?' AND b = $3",
            ),
        ] {
            assert_eq!(dollar_parameters(sqlite), postgres);
        }
    }
}
