//! The challenge ladder read: a server's ranking, its ladder challenges
//! (by server, challenge or game, or overdue) and the players idle too long.
//! Its writes are part of a commit.

use crate::core::names::Named;
use chrono::{DateTime, Duration, Utc};

use crate::core::game::PlayerId;
use crate::storage::sql::{Conn, Row, Value, params};
use crate::storage::{IdleRung, LadderEntry, LadderMatchRow, LadderMatchStatus, LadderRow, Result};

/// Ladder challenge columns over `m`, with the channel and server of its
/// challenge (`ch`, `c`), read by [`ladder_match`].
const MATCH_COLUMNS: &str = "m.id, m.server_id, m.challenge_id, m.game_id, m.challenger_id, \
     m.defender_id, m.status, m.accept_by, ch.platform_id, c.server_id";

/// The ladder challenges with their challenge's channel.
const MATCH_TABLES: &str = "ladder_matches m JOIN challenges c ON c.id = m.challenge_id \
     JOIN channels ch ON ch.id = c.channel_id";

/// A ladder challenge from [`MATCH_COLUMNS`].
fn ladder_match(row: &Row) -> Result<LadderMatchRow> {
    Ok(LadderMatchRow {
        id: row.int(0)?,
        server_id: row.int(1)?,
        challenge_id: row.int(2)?,
        game_id: row.opt_int(3)?,
        challenger: PlayerId(row.int(4)?),
        defender: PlayerId(row.int(5)?),
        status: row.parsed(6, "ladder status", LadderMatchStatus::from_name)?,
        accept_by: row.time(7)?,
        channel: row.string(8)?,
        challenge_server: row.int(9)?,
    })
}

/// The ladder challenges that pass `filter` (which may order and limit).
async fn matches(c: &impl Conn, filter: &str, params: &[Value]) -> Result<Vec<LadderMatchRow>> {
    let sql = format!("SELECT {MATCH_COLUMNS} FROM {MATCH_TABLES} WHERE {filter}");
    c.query_map(&sql, params, ladder_match).await
}

/// A server's ranking, best first; version 0 and no rungs before its first.
pub async fn ladder(c: &impl Conn, server_id: i64) -> Result<LadderRow> {
    let version = c
        .query_opt_map(
            "SELECT version FROM ladders WHERE server_id = ?1",
            &params![server_id],
            |row| row.int(0),
        )
        .await?;
    let entries = c
        .query(
            "SELECT r.player_id, p.display_name, r.active_at,
                    CASE WHEN p.person_id IS NULL THEN p.id ELSE p.person_id END
             FROM ladder_rungs r JOIN players p ON p.id = r.player_id
             WHERE r.server_id = ?1 ORDER BY r.place",
            &params![server_id],
        )
        .await?
        .iter()
        .map(|row| {
            Ok(LadderEntry {
                player: PlayerId(row.int(0)?),
                name: row.string(1)?,
                active_at: row.time(2)?,
                person: PlayerId(row.int(3)?),
            })
        })
        .collect::<Result<_>>()?;
    Ok(LadderRow {
        server_id,
        version: version.unwrap_or(0),
        entries,
    })
}

/// A server's ladder challenges still pending or being played, oldest first.
pub async fn unsettled_ladder_matches(
    c: &impl Conn,
    server_id: i64,
) -> Result<Vec<LadderMatchRow>> {
    matches(
        c,
        "m.server_id = ?1 AND m.status IN ('pending', 'playing') ORDER BY m.id",
        &params![server_id],
    )
    .await
}

pub async fn ladder_match_of_challenge(
    c: &impl Conn,
    challenge_id: i64,
) -> Result<Option<LadderMatchRow>> {
    Ok(matches(c, "m.challenge_id = ?1", &params![challenge_id])
        .await?
        .into_iter()
        .next())
}

pub async fn ladder_match_of_game(c: &impl Conn, game_id: i64) -> Result<Option<LadderMatchRow>> {
    Ok(matches(c, "m.game_id = ?1", &params![game_id])
        .await?
        .into_iter()
        .next())
}

/// Pending ladder challenges whose time to accept is over at `now`,
/// the most overdue first.
pub async fn due_ladder_forfeits(
    c: &impl Conn,
    now: DateTime<Utc>,
    limit: usize,
) -> Result<Vec<LadderMatchRow>> {
    matches(
        c,
        "m.status = 'pending' AND m.accept_by <= ?1 ORDER BY m.accept_by, m.id LIMIT ?2",
        &params![now, i64::try_from(limit).unwrap_or(i64::MAX)],
    )
    .await
}

/// Rungs last active at or before `active_before`, the longest idle first.
pub async fn idle_ladder_rungs(
    c: &impl Conn,
    active_before: DateTime<Utc>,
    limit: usize,
) -> Result<Vec<IdleRung>> {
    c.query_map(
        "SELECT server_id, player_id, active_at FROM ladder_rungs
         WHERE active_at <= ?1 ORDER BY active_at, server_id, place LIMIT ?2",
        &params![active_before, i64::try_from(limit).unwrap_or(i64::MAX)],
        |row| {
            Ok(IdleRung {
                server_id: row.int(0)?,
                player: PlayerId(row.int(1)?),
                active_at: row.time(2)?,
            })
        },
    )
    .await
}

/// The next instant the ladder has work: the earliest time to accept of a
/// pending challenge, or (when idle players drop) the instant the longest
/// idle rung has been idle `inactive_after`. Both read in one statement;
/// the sum is Rust's.
pub async fn next_ladder_deadline(
    c: &impl Conn,
    inactive_after: Option<Duration>,
) -> Result<Option<DateTime<Utc>>> {
    let row = c
        .query_one(
            "SELECT (SELECT min(accept_by) FROM ladder_matches WHERE status = 'pending'),
                    (SELECT min(active_at) FROM ladder_rungs)",
            &[],
        )
        .await?;
    let accept_by = row.opt_time(0)?;
    let idle = match inactive_after {
        Some(after) => row.opt_time(1)?.map(|oldest| oldest + after),
        None => None,
    };
    Ok([accept_by, idle].into_iter().flatten().min())
}
