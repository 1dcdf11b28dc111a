//! What the two backends share: values, rows and one way to run a statement.
//!
//! Every statement is written once, in the SQL both SQLite (≥ 3.35) and
//! PostgreSQL accept, with numbered parameters `?1`, `?2`… (SQLite's own
//! form; the PostgreSQL connection rewrites them to `$1`, `$2`…). Values go
//! in as [`Value`]s and rows come back as [`Row`]s of values, so row mapping
//! is written once too: a getter such as [`Row::time`] reads an instant
//! whether the backend kept it as RFC 3339 text (SQLite) or `timestamptz`.
//!
//! The queries themselves are `async fn`s over a [`Conn`]. PostgreSQL's
//! futures wait on the network; SQLite's are ready at once (the work is
//! done when polled), and [`ready`] runs them where the connection is.

use std::future::Future;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Result, StorageError};

/// A value bound to a parameter or read from a column.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Bool(bool),
    Time(DateTime<Utc>),
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}

impl From<u32> for Value {
    fn from(v: u32) -> Value {
        Value::Int(i64::from(v))
    }
}

impl From<i32> for Value {
    fn from(v: i32) -> Value {
        Value::Int(i64::from(v))
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Real(v)
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Bool(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_owned())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}

impl From<&String> for Value {
    fn from(v: &String) -> Value {
        Value::Text(v.clone())
    }
}

impl From<DateTime<Utc>> for Value {
    fn from(v: DateTime<Utc>) -> Value {
        Value::Time(super::to_stored_precision(v))
    }
}

impl From<crate::core::game::PlayerId> for Value {
    fn from(v: crate::core::game::PlayerId) -> Value {
        Value::Int(v.0)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

/// Parameters of a statement, in order: `params![a, b]` is `[Value; 2]`.
macro_rules! params {
    ($($value:expr),* $(,)?) => {
        [$($crate::storage::sql::Value::from($value)),*]
    };
}
pub(crate) use params;

/// The `VALUES` list of a multi-row insert: `rows` tuples of `width`
/// numbered parameters, `(?1, ?2), (?3, ?4)` for two rows of two.
pub fn value_rows(rows: usize, width: usize) -> String {
    (0..rows)
        .map(|row| {
            let columns: Vec<String> = (1..=width)
                .map(|n| format!("?{}", row * width + n))
                .collect();
            format!("({})", columns.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A core value (a clock, a note) as the JSON text a column keeps.
pub fn json<T: Serialize>(value: &T) -> Result<Value> {
    serde_json::to_string(value)
        .map(Value::Text)
        .map_err(|e| StorageError::Backend(format!("to JSON: {e}")))
}

/// An instant as SQLite keeps it: RFC 3339 to the millisecond, which sorts
/// as text in time order.
pub fn time_text(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn corrupt(what: &str, value: &dyn std::fmt::Debug) -> StorageError {
    StorageError::Corrupt(format!("{what} {value:?}"))
}

/// One row of a result, its columns in the statement's order.
#[derive(Clone, Debug, PartialEq)]
pub struct Row(pub Vec<Value>);

impl Row {
    fn at(&self, index: usize) -> Result<&Value> {
        self.0
            .get(index)
            .ok_or_else(|| StorageError::Corrupt(format!("column {index} missing")))
    }

    pub fn is_null(&self, index: usize) -> Result<bool> {
        Ok(matches!(self.at(index)?, Value::Null))
    }

    pub fn int(&self, index: usize) -> Result<i64> {
        match self.at(index)? {
            Value::Int(v) => Ok(*v),
            other => Err(corrupt(&format!("column {index}: integer"), other)),
        }
    }

    pub fn opt_int(&self, index: usize) -> Result<Option<i64>> {
        match self.at(index)? {
            Value::Null => Ok(None),
            _ => self.int(index).map(Some),
        }
    }

    /// A non-negative integer that fits a `u32` (a count, a ply, a round).
    pub fn count(&self, index: usize) -> Result<u32> {
        let value = self.int(index)?;
        u32::try_from(value).map_err(|_| corrupt(&format!("column {index}: count"), &value))
    }

    pub fn real(&self, index: usize) -> Result<f64> {
        match self.at(index)? {
            Value::Real(v) => Ok(*v),
            // SQLite keeps a REAL that is whole as an integer.
            Value::Int(v) => Ok(*v as f64),
            other => Err(corrupt(&format!("column {index}: number"), other)),
        }
    }

    pub fn bool(&self, index: usize) -> Result<bool> {
        match self.at(index)? {
            Value::Bool(v) => Ok(*v),
            Value::Int(v) => Ok(*v != 0),
            other => Err(corrupt(&format!("column {index}: boolean"), other)),
        }
    }

    pub fn text(&self, index: usize) -> Result<&str> {
        match self.at(index)? {
            Value::Text(v) => Ok(v),
            other => Err(corrupt(&format!("column {index}: text"), other)),
        }
    }

    pub fn opt_text(&self, index: usize) -> Result<Option<&str>> {
        match self.at(index)? {
            Value::Null => Ok(None),
            _ => self.text(index).map(Some),
        }
    }

    pub fn string(&self, index: usize) -> Result<String> {
        self.text(index).map(str::to_owned)
    }

    pub fn opt_string(&self, index: usize) -> Result<Option<String>> {
        Ok(self.opt_text(index)?.map(str::to_owned))
    }

    pub fn time(&self, index: usize) -> Result<DateTime<Utc>> {
        match self.at(index)? {
            Value::Time(v) => Ok(*v),
            Value::Text(text) => DateTime::parse_from_rfc3339(text)
                .map(|t| t.with_timezone(&Utc))
                .map_err(|e| StorageError::Corrupt(format!("instant {text:?}: {e}"))),
            other => Err(corrupt(&format!("column {index}: instant"), other)),
        }
    }

    pub fn opt_time(&self, index: usize) -> Result<Option<DateTime<Utc>>> {
        match self.at(index)? {
            Value::Null => Ok(None),
            _ => self.time(index).map(Some),
        }
    }

    /// A text column read as one of our names (a platform, a colour…).
    pub fn parsed<T>(
        &self,
        index: usize,
        what: &str,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Result<T> {
        let text = self.text(index)?;
        parse(text).ok_or_else(|| corrupt(what, &text))
    }

    pub fn opt_parsed<T>(
        &self,
        index: usize,
        what: &str,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Result<Option<T>> {
        match self.at(index)? {
            Value::Null => Ok(None),
            _ => self.parsed(index, what, parse).map(Some),
        }
    }

    /// A JSON column (a clock, a note) as a core value.
    pub fn json<T: DeserializeOwned>(&self, index: usize, what: &str) -> Result<T> {
        let text = self.text(index)?;
        serde_json::from_str(text).map_err(|e| corrupt(&format!("{what} ({e})"), &text))
    }

    pub fn opt_json<T: DeserializeOwned>(&self, index: usize, what: &str) -> Result<Option<T>> {
        match self.at(index)? {
            Value::Null => Ok(None),
            _ => self.json(index, what).map(Some),
        }
    }
}

/// A connection (or a transaction on one) that runs shared statements.
///
/// The futures are not required to be `Send`: SQLite's are polled where
/// they are made, and PostgreSQL's are `Send` by their concrete type.
pub trait Conn {
    /// Runs a statement and returns its rows.
    fn query(&self, sql: &str, params: &[Value]) -> impl Future<Output = Result<Vec<Row>>>;

    /// Runs a statement and returns how many rows it changed.
    fn execute(&self, sql: &str, params: &[Value]) -> impl Future<Output = Result<u64>>;

    /// Whether new rows are numbered in the order they commit (SQLite lets
    /// one writer in at a time), so that reading on from a number misses no
    /// later commit: an act's hold can then wait in its row (see `outbox`).
    fn numbers_in_commit_order(&self) -> bool;

    /// The first row, if any.
    fn query_opt(&self, sql: &str, params: &[Value]) -> impl Future<Output = Result<Option<Row>>> {
        async move { Ok(self.query(sql, params).await?.into_iter().next()) }
    }

    /// Every row, each read by `read`.
    fn query_map<T>(
        &self,
        sql: &str,
        params: &[Value],
        read: impl Fn(&Row) -> Result<T>,
    ) -> impl Future<Output = Result<Vec<T>>> {
        async move { self.query(sql, params).await?.iter().map(read).collect() }
    }

    /// The first row, if any, read by `read`.
    fn query_opt_map<T>(
        &self,
        sql: &str,
        params: &[Value],
        read: impl Fn(&Row) -> Result<T>,
    ) -> impl Future<Output = Result<Option<T>>> {
        async move {
            self.query_opt(sql, params)
                .await?
                .as_ref()
                .map(read)
                .transpose()
        }
    }

    /// Exactly one row (an aggregate, a `RETURNING`).
    fn query_one(&self, sql: &str, params: &[Value]) -> impl Future<Output = Result<Row>> {
        async move {
            self.query_opt(sql, params)
                .await?
                .ok_or_else(|| StorageError::Backend(format!("no row from {sql}")))
        }
    }
}

/// The value of a future that is ready when first polled: a query on
/// SQLite, whose work is done in place. A future that would wait is a
/// mistake of ours, reported as an error rather than a hang.
pub fn ready<T>(future: impl Future<Output = Result<T>>) -> Result<T> {
    let mut future = std::pin::pin!(future);
    let mut context = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut context) {
        std::task::Poll::Ready(value) => value,
        std::task::Poll::Pending => Err(StorageError::Backend(
            "a SQLite query waited: only PostgreSQL's may".to_owned(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn value_rows_number_every_parameter_once() {
        assert_eq!(value_rows(1, 3), "(?1, ?2, ?3)");
        assert_eq!(value_rows(2, 2), "(?1, ?2), (?3, ?4)");
    }

    #[test]
    fn rows_read_every_backend_form_alike() {
        let at = Utc.with_ymd_and_hms(2026, 1, 31, 12, 0, 0).unwrap();
        let row = Row(vec![
            Value::Int(1),
            Value::Bool(true),
            Value::Text(time_text(at)),
            Value::Time(at),
            Value::Null,
            Value::Int(3),
        ]);
        assert!(row.bool(0).unwrap());
        assert!(row.bool(1).unwrap());
        assert_eq!(row.time(2).unwrap(), at);
        assert_eq!(row.time(3).unwrap(), at);
        assert_eq!(row.opt_time(4).unwrap(), None);
        assert_eq!(row.real(5).unwrap(), 3.0);
        assert!(matches!(row.text(0), Err(StorageError::Corrupt(_))));
        assert!(matches!(row.int(9), Err(StorageError::Corrupt(_))));
    }

    #[test]
    fn a_future_that_waits_is_an_error_not_a_hang() {
        let pending = std::future::pending::<Result<()>>();
        assert!(matches!(ready(pending), Err(StorageError::Backend(_))));
        assert_eq!(ready(async { Ok(5) }).unwrap(), 5);
    }
}
