//! The SQL of the challenge ladder (migration 0007): its ranking and its
//! challenges, read and written for [`super::SqliteStore`].

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, Row, Transaction, params};

use super::{corrupt, from_text, to_text};
use crate::core::game::PlayerId;
use crate::core::names::Named;
use crate::storage::{
    Commit, Committed, IdleRung, LadderEntry, LadderMatchRow, LadderMatchStatus, LadderRow,
    LadderWrite, Result, StorageError,
};

const MATCH_COLUMNS: &str = "m.id, m.server_id, m.challenge_id, m.game_id, m.challenger_id, \
                             m.defender_id, m.status, m.accept_by, ch.platform_id";

/// The ladder challenges with their challenge's channel.
const MATCH_TABLES: &str = "ladder_matches m JOIN challenges c ON c.id = m.challenge_id \
                            JOIN channels ch ON ch.id = c.channel_id";

type MatchTuple = (i64, i64, i64, Option<i64>, i64, i64, String, String, String);

fn match_row(r: &Row<'_>) -> rusqlite::Result<MatchTuple> {
    r.try_into()
}

fn to_match(t: MatchTuple) -> Result<LadderMatchRow> {
    let (id, server_id, challenge_id, game_id, challenger, defender, status, accept_by, channel) =
        t;
    Ok(LadderMatchRow {
        id,
        server_id,
        challenge_id,
        channel,
        game_id,
        challenger: PlayerId(challenger),
        defender: PlayerId(defender),
        status: LadderMatchStatus::from_name(&status)
            .ok_or_else(|| corrupt("ladder status", &status))?,
        accept_by: from_text(&accept_by)?,
    })
}

fn matches(
    conn: &Connection,
    filter: &str,
    args: impl rusqlite::Params,
) -> Result<Vec<LadderMatchRow>> {
    let sql = format!("SELECT {MATCH_COLUMNS} FROM {MATCH_TABLES} WHERE {filter}");
    let rows = conn
        .prepare_cached(&sql)?
        .query_map(args, match_row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    rows.into_iter().map(to_match).collect()
}

pub(super) fn ladder(conn: &Connection, server_id: i64) -> Result<LadderRow> {
    let version: Option<i64> = conn
        .prepare_cached("SELECT version FROM ladders WHERE server_id = ?1")?
        .query_row(params![server_id], |r| r.get(0))
        .optional()?;
    let rows = conn
        .prepare_cached(
            "SELECT r.player_id, p.display_name, r.active_at
             FROM ladder_rungs r JOIN players p ON p.id = r.player_id
             WHERE r.server_id = ?1 ORDER BY r.place",
        )?
        .query_map(params![server_id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let entries = rows
        .into_iter()
        .map(|(player, name, active_at)| {
            Ok(LadderEntry {
                player: PlayerId(player),
                name,
                active_at: from_text(&active_at)?,
            })
        })
        .collect::<Result<_>>()?;
    Ok(LadderRow {
        server_id,
        version: version.unwrap_or(0),
        entries,
    })
}

pub(super) fn unsettled(conn: &Connection, server_id: i64) -> Result<Vec<LadderMatchRow>> {
    matches(
        conn,
        "m.server_id = ?1 AND m.status IN ('pending', 'playing') ORDER BY m.id",
        params![server_id],
    )
}

pub(super) fn of_challenge(conn: &Connection, challenge_id: i64) -> Result<Option<LadderMatchRow>> {
    Ok(matches(conn, "m.challenge_id = ?1", params![challenge_id])?
        .into_iter()
        .next())
}

pub(super) fn of_game(conn: &Connection, game_id: i64) -> Result<Option<LadderMatchRow>> {
    Ok(matches(conn, "m.game_id = ?1", params![game_id])?
        .into_iter()
        .next())
}

pub(super) fn due_forfeits(
    conn: &Connection,
    now: DateTime<Utc>,
    limit: usize,
) -> Result<Vec<LadderMatchRow>> {
    matches(
        conn,
        "m.status = 'pending' AND m.accept_by <= ?1 ORDER BY m.accept_by, m.id LIMIT ?2",
        params![to_text(now), limit as i64],
    )
}

pub(super) fn idle_rungs(
    conn: &Connection,
    active_before: DateTime<Utc>,
    limit: usize,
) -> Result<Vec<IdleRung>> {
    let rows = conn
        .prepare_cached(
            "SELECT server_id, player_id, active_at FROM ladder_rungs
             WHERE active_at <= ?1 ORDER BY active_at, server_id, place LIMIT ?2",
        )?
        .query_map(params![to_text(active_before), limit as i64], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    rows.into_iter()
        .map(|(server_id, player, at)| {
            Ok(IdleRung {
                server_id,
                player: PlayerId(player),
                active_at: from_text(&at)?,
            })
        })
        .collect()
}

pub(super) fn next_deadline(
    conn: &Connection,
    inactive_after: Option<chrono::Duration>,
) -> Result<Option<DateTime<Utc>>> {
    let accept_by: Option<String> = conn
        .prepare_cached("SELECT min(accept_by) FROM ladder_matches WHERE status = 'pending'")?
        .query_row([], |r| r.get(0))?;
    let mut next = accept_by.as_deref().map(from_text).transpose()?;
    if let Some(after) = inactive_after {
        let oldest: Option<String> = conn
            .prepare_cached("SELECT min(active_at) FROM ladder_rungs")?
            .query_row([], |r| r.get(0))?;
        if let Some(oldest) = oldest.as_deref().map(from_text).transpose()? {
            let idle = oldest + after;
            next = Some(next.map_or(idle, |n| n.min(idle)));
        }
    }
    Ok(next)
}

/// The commit's ladder rows; the new challenge and game are already written.
pub(super) fn write(
    tx: &Transaction<'_>,
    commit: &Commit,
    committed: &Committed,
    now: DateTime<Utc>,
) -> Result<()> {
    if let Some(write) = &commit.ladder {
        write_ranking(tx, write)?;
    }
    if let Some(new) = &commit.new_ladder_match {
        let challenge_id = committed
            .challenge_id
            .ok_or_else(|| StorageError::Backend("a ladder match needs a new challenge".into()))?;
        tx.prepare_cached(
            "INSERT INTO ladder_matches (server_id, challenge_id, challenger_id, defender_id,
                                         status, accept_by, created_at)
             VALUES (?1, ?2, ?3, ?4, 'pending', ?5, ?6)",
        )?
        .execute(params![
            new.server_id,
            challenge_id,
            new.challenger.0,
            new.defender.0,
            to_text(new.accept_by),
            to_text(now)
        ])?;
    }
    if let Some(update) = &commit.ladder_match_update {
        let game_id = update.game_to_link(committed)?;
        let changed = tx
            .prepare_cached(
                "UPDATE ladder_matches SET status = ?1, game_id = coalesce(?2, game_id)
                 WHERE id = ?3 AND status = ?4",
            )?
            .execute(params![
                update.to.as_str(),
                game_id,
                update.id,
                update.from.as_str()
            ])?;
        if changed == 0 {
            return Err(StorageError::Conflict);
        }
    }
    Ok(())
}

/// Replaces a server's ranking if its version is still the one read.
fn write_ranking(tx: &Transaction<'_>, write: &LadderWrite) -> Result<()> {
    let changed = if write.expected_version == 0 {
        tx.prepare_cached("INSERT OR IGNORE INTO ladders (server_id, version) VALUES (?1, 1)")?
            .execute(params![write.server_id])?
    } else {
        tx.prepare_cached(
            "UPDATE ladders SET version = version + 1 WHERE server_id = ?1 AND version = ?2",
        )?
        .execute(params![write.server_id, write.expected_version])?
    };
    if changed == 0 {
        return Err(StorageError::Conflict);
    }
    tx.prepare_cached("DELETE FROM ladder_rungs WHERE server_id = ?1")?
        .execute(params![write.server_id])?;
    let mut insert = tx.prepare_cached(
        "INSERT INTO ladder_rungs (server_id, player_id, place, active_at)
         VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (index, (player, active_at)) in write.entries.iter().enumerate() {
        insert.execute(params![
            write.server_id,
            player.0,
            index as i64 + 1,
            to_text(*active_at)
        ])?;
    }
    Ok(())
}
