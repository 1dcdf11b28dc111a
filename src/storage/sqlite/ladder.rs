//! The SQL of the challenge ladder (migration 0007): the ladder rows a
//! commit writes for [`super::SqliteStore`] (its reads are shared, in
//! `storage::queries::ladder`).

use chrono::{DateTime, Utc};
use rusqlite::{Transaction, params};

use super::to_text;
use crate::storage::{Commit, Committed, LadderWrite, Result, StorageError};

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
