//! Rows as PostgreSQL returns them, checked into the store's types.
//!
//! Columns come in the order of the `*_COLUMNS` lists; a value the types
//! cannot hold (an unknown platform, a clock that does not parse) is
//! [`StorageError::Corrupt`].

use chrono::{DateTime, Utc};
use serde::de::DeserializeOwned;
use shakmaty::Color;
use tokio_postgres::Row;
use tokio_postgres::types::FromSql;

use crate::core::event::{GameResult, Reason, parse_color};
use crate::core::game::{DrawRules, PlayerId};
use crate::core::names::Named;
use crate::core::notation::Lang;
use crate::storage::{
    ChallengeRow, ChallengeStatus, ColorChoice, GameState, GameSummary, LeaveRow, Notify, Platform,
    PlayerRow, Result, ServerRow, StorageError,
};

pub const SERVER_COLUMNS: &str = "s.id, s.platform, s.platform_id, s.language, s.time_control, \
     s.draw_agreement_allowed, s.draw_min_moves, s.moderator_role";

pub const PLAYER_COLUMNS: &str = "id, platform, platform_id, display_name, language, notify";

pub const CHALLENGE_COLUMNS: &str = "id, server_id, channel_id, challenger_id, challenged_id, \
     color, time_control, rated, start_fen, status, created_at, expires_at";

pub const LEAVE_COLUMNS: &str = "id, player_id, server_id, starts_at, ends_at, ended_at, days";

/// The summary columns over `g` (games), `w` and `b` (its players).
pub const SUMMARY_COLUMNS: &str = "g.id, g.channel_id, g.white_id, g.black_id, w.display_name, \
     b.display_name, g.turn, g.plies, g.status, g.result, g.reason, g.ended_at";

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

/// A JSON column (clock, note) as the core's type.
pub fn from_json<T: DeserializeOwned>(what: &str, value: serde_json::Value) -> Result<T> {
    serde_json::from_value::<T>(value.clone())
        .map_err(|e| corrupt(&format!("{what} ({e})"), &value.to_string()))
}

pub fn lang(text: &str) -> Result<Lang> {
    Lang::from_locale(text).ok_or_else(|| corrupt("language", text))
}

pub fn color(text: &str) -> Result<Color> {
    parse_color(text).ok_or_else(|| corrupt("colour", text))
}

pub fn platform(text: &str) -> Result<Platform> {
    Platform::from_name(text).ok_or_else(|| corrupt("platform", text))
}

/// A server row from `SERVER_COLUMNS` starting at column `at`.
pub fn server(row: &Row, at: usize) -> Result<ServerRow> {
    Ok(ServerRow {
        id: get(row, at)?,
        platform: platform(get(row, at + 1)?)?,
        platform_id: get(row, at + 2)?,
        language: lang(get(row, at + 3)?)?,
        time_control: get(row, at + 4)?,
        draw_rules: DrawRules {
            agreement_allowed: get(row, at + 5)?,
            min_moves_each: count(row, at + 6)?,
        },
        moderator_role: get(row, at + 7)?,
    })
}

/// A player row from `PLAYER_COLUMNS` starting at column `at`.
pub fn player(row: &Row, at: usize) -> Result<PlayerRow> {
    let notify: &str = get(row, at + 5)?;
    Ok(PlayerRow {
        id: PlayerId(get(row, at)?),
        platform: platform(get(row, at + 1)?)?,
        platform_id: get(row, at + 2)?,
        display_name: get(row, at + 3)?,
        language: get::<Option<&str>>(row, at + 4)?.map(lang).transpose()?,
        notify: Notify::from_name(notify).ok_or_else(|| corrupt("notify", notify))?,
    })
}

pub fn challenge(row: &Row) -> Result<ChallengeRow> {
    let color: &str = get(row, 5)?;
    let status: &str = get(row, 9)?;
    Ok(ChallengeRow {
        id: get(row, 0)?,
        server_id: get(row, 1)?,
        channel_id: get(row, 2)?,
        challenger: PlayerId(get(row, 3)?),
        challenged: get::<Option<i64>>(row, 4)?.map(PlayerId),
        color: ColorChoice::from_name(color).ok_or_else(|| corrupt("colour", color))?,
        time_control: get(row, 6)?,
        rated: get(row, 7)?,
        start_fen: get(row, 8)?,
        status: ChallengeStatus::from_name(status).ok_or_else(|| corrupt("status", status))?,
        created_at: get(row, 10)?,
        expires_at: get(row, 11)?,
    })
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

/// A summary from `SUMMARY_COLUMNS`.
pub fn summary(row: &Row) -> Result<GameSummary> {
    Ok(GameSummary {
        id: get(row, 0)?,
        channel_id: get(row, 1)?,
        white: PlayerId(get(row, 2)?),
        black: PlayerId(get(row, 3)?),
        white_name: get(row, 4)?,
        black_name: get(row, 5)?,
        turn: color(get(row, 6)?)?,
        plies: count(row, 7)?,
        state: game_state(get(row, 8)?, get(row, 9)?, get(row, 10)?, get(row, 11)?)?,
    })
}
