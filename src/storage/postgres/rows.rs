//! Rows as PostgreSQL returns them, checked into the store's types.
//!
//! Columns come in the order of the `*_COLUMNS` lists; a value the types
//! cannot hold (an unknown result, a negative count) is
//! [`StorageError::Corrupt`].

use chrono::{DateTime, Utc};
use tokio_postgres::Row;
use tokio_postgres::types::FromSql;

use crate::core::event::{GameResult, Reason};
use crate::core::game::PlayerId;
use crate::storage::{GameState, LeaveRow, Result, StorageError};

pub const LEAVE_COLUMNS: &str = "id, player_id, server_id, starts_at, ends_at, ended_at, days";

pub fn corrupt(what: &str, value: &str) -> StorageError {
    StorageError::Corrupt(format!("{what} {value:?}"))
}

/// Column `index` of `row`, its SQL type checked against `T`.
pub fn get<'a, T: FromSql<'a>>(row: &'a Row, index: usize) -> Result<T> {
    row.try_get(index)
        .map_err(|e| StorageError::Corrupt(format!("column {index}: {e}")))
}

/// A non-negative integer column as a count.
pub fn count(row: &Row, index: usize) -> Result<u32> {
    let value: i64 = match row.columns()[index].type_() {
        &tokio_postgres::types::Type::INT4 => i64::from(get::<i32>(row, index)?),
        _ => get::<i64>(row, index)?,
    };
    u32::try_from(value).map_err(|_| corrupt("count", &value.to_string()))
}

pub fn leave(row: &Row) -> Result<LeaveRow> {
    Ok(LeaveRow {
        id: get(row, 0)?,
        player: PlayerId(get(row, 1)?),
        server_id: get(row, 2)?,
        starts_at: get(row, 3)?,
        ends_at: get(row, 4)?,
        ended_at: get(row, 5)?,
        days: count(row, 6)?,
    })
}

/// A game's state from its status, result, reason and end columns.
pub fn game_state(
    status: &str,
    result: Option<&str>,
    reason: Option<&str>,
    ended_at: Option<DateTime<Utc>>,
) -> Result<GameState> {
    match status {
        "ongoing" => Ok(GameState::Ongoing),
        "over" => {
            let (result, reason) = (result.unwrap_or_default(), reason.unwrap_or_default());
            Ok(GameState::Over {
                result: GameResult::from_pgn(result).ok_or_else(|| corrupt("result", result))?,
                reason: Reason::from_name(reason).ok_or_else(|| corrupt("reason", reason))?,
                ended_at: ended_at.ok_or_else(|| corrupt("ended_at", "NULL"))?,
            })
        }
        other => Err(corrupt("game status", other)),
    }
}
