//! What the scheduler reads and claims: games whose wake-up (a reminder or
//! a flag) has come, running clocks after an outage, the heartbeat, and
//! leaves (running, due to end, counted per year).
//!
//! Only the claim differs per backend: SQLite reads and leases the due
//! games inside its write transaction, which no other writer can enter
//! ([`claim_due_games_in_write`]); PostgreSQL lets concurrent schedulers
//! skip each other's rows in one statement ([`claim_due_games_skip_locked`]).

use chrono::{DateTime, TimeZone, Utc};

use super::rows::{self, LEAVE_COLUMNS};
use crate::core::game::PlayerId;
use crate::storage::sql::{Conn, Row, params};
use crate::storage::{DueGame, LeaveRow, Result, StorageError};

/// Running games whose wake-up has come at `?1`, earliest first, at most `?2`.
const DUE: &str = "SELECT id, version FROM games
                   WHERE wake_at IS NOT NULL AND wake_at <= ?1
                   ORDER BY wake_at, id LIMIT ?2";

/// A row of `id, version` as the scheduler's handle on a game.
fn due_game(row: &Row) -> Result<DueGame> {
    Ok(DueGame {
        id: row.int(0)?,
        version: row.int(1)?,
    })
}

/// A row count as a bound `LIMIT`.
fn limit(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The end of a claim, rounded up to the stored millisecond: a lease never
/// ends earlier than asked.
fn lease_end(until: DateTime<Utc>) -> DateTime<Utc> {
    crate::core::clock::round_up_to_millis(until)
}

pub async fn next_wake_up(c: &impl Conn) -> Result<Option<DateTime<Utc>>> {
    c.query_one(
        "SELECT min(wake_at) FROM games WHERE wake_at IS NOT NULL",
        &[],
    )
    .await?
    .opt_time(0)
}

pub async fn rearm_wake_up(
    c: &impl Conn,
    id: i64,
    version: i64,
    at: Option<DateTime<Utc>>,
) -> Result<()> {
    c.execute(
        "UPDATE games SET wake_at = ?3 WHERE id = ?1 AND version = ?2 AND status = 'ongoing'",
        &params![id, version, at],
    )
    .await?;
    Ok(())
}

pub async fn due_games(c: &impl Conn, now: DateTime<Utc>, max: usize) -> Result<Vec<DueGame>> {
    c.query_map(DUE, &params![now, limit(max)], due_game).await
}

/// SQLite's claim; run in a write transaction, so no other claimer or save
/// comes between reading the due games and leasing them.
pub async fn claim_due_games_in_write(
    c: &impl Conn,
    now: DateTime<Utc>,
    lease_until: DateTime<Utc>,
    max: usize,
) -> Result<Vec<DueGame>> {
    let due = due_games(c, now, max).await?;
    if !due.is_empty() {
        c.execute(
            "UPDATE games SET wake_at = ?3 WHERE id IN (
                 SELECT id FROM games
                 WHERE wake_at IS NOT NULL AND wake_at <= ?1
                 ORDER BY wake_at, id LIMIT ?2
             )",
            &params![now, limit(max), lease_end(lease_until)],
        )
        .await?;
    }
    Ok(due)
}

/// PostgreSQL's claim, one statement: schedulers claiming at the same
/// moment take different games (`SKIP LOCKED`) instead of queueing behind
/// each other's row locks.
pub async fn claim_due_games_skip_locked(
    c: &impl Conn,
    now: DateTime<Utc>,
    lease_until: DateTime<Utc>,
    max: usize,
) -> Result<Vec<DueGame>> {
    c.query_map(
        "WITH due AS (
             SELECT id, wake_at FROM games
             WHERE wake_at IS NOT NULL AND wake_at <= ?1
             ORDER BY wake_at, id LIMIT ?2
             FOR UPDATE SKIP LOCKED
         ), claimed AS (
             UPDATE games g SET wake_at = ?3 FROM due WHERE g.id = due.id
             RETURNING g.id, g.version, due.wake_at AS was
         )
         SELECT id, version FROM claimed ORDER BY was, id",
        &params![now, limit(max), lease_end(lease_until)],
        due_game,
    )
    .await
}

pub async fn clocked_games(c: &impl Conn, after_id: i64, max: usize) -> Result<Vec<DueGame>> {
    c.query_map(
        "SELECT id, version FROM games
         WHERE id > ?1 AND status = 'ongoing' AND deadline IS NOT NULL
         ORDER BY id LIMIT ?2",
        &params![after_id, limit(max)],
        due_game,
    )
    .await
}

pub async fn last_heartbeat(c: &impl Conn) -> Result<Option<DateTime<Utc>>> {
    c.query_opt_map("SELECT at FROM heartbeat WHERE id = 1", &[], |row| {
        row.time(0)
    })
    .await
}

pub async fn beat(c: &impl Conn, now: DateTime<Utc>) -> Result<()> {
    c.execute(
        "INSERT INTO heartbeat (id, at) VALUES (1, ?1)
         ON CONFLICT (id) DO UPDATE SET at = excluded.at",
        &params![now],
    )
    .await
    .map(|_| ())
}

pub async fn running_leave(
    c: &impl Conn,
    player: PlayerId,
    server_id: i64,
) -> Result<Option<LeaveRow>> {
    let sql = format!(
        "SELECT {LEAVE_COLUMNS} FROM leaves
         WHERE player_id = ?1 AND server_id = ?2 AND ended_at IS NULL"
    );
    c.query_opt_map(&sql, &params![player, server_id], rows::leave)
        .await
}

pub async fn running_leaves(
    c: &impl Conn,
    server_id: i64,
    players: [PlayerId; 2],
) -> Result<Vec<LeaveRow>> {
    let sql = format!(
        "SELECT {LEAVE_COLUMNS} FROM leaves
         WHERE server_id = ?1 AND player_id IN (?2, ?3) AND ended_at IS NULL"
    );
    c.query_map(
        &sql,
        &params![server_id, players[0], players[1]],
        rows::leave,
    )
    .await
}

/// The first instant of `year` and of the next (UTC).
fn year_bounds(year: i32) -> Result<(DateTime<Utc>, DateTime<Utc>)> {
    let start = |year: i32| Utc.with_ymd_and_hms(year, 1, 1, 0, 0, 0).single();
    year.checked_add(1)
        .and_then(|next| Some((start(year)?, start(next)?)))
        .ok_or_else(|| StorageError::Backend(format!("year {year} out of range")))
}

/// Days counted by `player`'s leaves on a server that started in `year`.
pub async fn leave_days_in_year(
    c: &impl Conn,
    player: PlayerId,
    server_id: i64,
    year: i32,
) -> Result<u32> {
    let (from, to) = year_bounds(year)?;
    c.query_one(
        "SELECT CAST(coalesce(sum(days), 0) AS BIGINT) FROM leaves
         WHERE player_id = ?1 AND server_id = ?2 AND starts_at >= ?3 AND starts_at < ?4",
        &params![player, server_id, from, to],
    )
    .await?
    .count(0)
}

pub async fn due_leave_ends(
    c: &impl Conn,
    now: DateTime<Utc>,
    max: usize,
) -> Result<Vec<LeaveRow>> {
    let sql = format!(
        "SELECT {LEAVE_COLUMNS} FROM leaves
         WHERE ended_at IS NULL AND ends_at <= ?1 ORDER BY ends_at, id LIMIT ?2"
    );
    c.query_map(&sql, &params![now, limit(max)], rows::leave)
        .await
}

pub async fn next_leave_end(c: &impl Conn) -> Result<Option<DateTime<Utc>>> {
    c.query_one(
        "SELECT min(ends_at) FROM leaves WHERE ended_at IS NULL",
        &[],
    )
    .await?
    .opt_time(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lease_never_ends_before_its_instant() {
        let at = Utc.with_ymd_and_hms(2026, 2, 1, 8, 0, 0).unwrap();
        assert_eq!(lease_end(at), at);
        let within = at + chrono::Duration::microseconds(1_500);
        assert_eq!(lease_end(within), at + chrono::Duration::milliseconds(2));
    }

    #[test]
    fn a_year_is_bound_by_its_first_instants() {
        let start = |year| Utc.with_ymd_and_hms(year, 1, 1, 0, 0, 0).unwrap();
        assert_eq!(year_bounds(2027).unwrap(), (start(2027), start(2028)));
        for year in [i32::MAX, i32::MIN] {
            assert!(matches!(year_bounds(year), Err(StorageError::Backend(_))));
        }
    }
}
