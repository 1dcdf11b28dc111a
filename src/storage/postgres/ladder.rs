//! The challenge ladder on PostgreSQL (migration 0003): the ladder rows of
//! a commit (its reads are shared, in `storage::queries::ladder`).

use chrono::{DateTime, Utc};
use deadpool_postgres::Transaction;

use super::{backend, stored};
use crate::storage::{Commit, Committed, LadderWrite, Result, StorageError};

/// The commit's ladder rows; the new challenge and game are already written.
pub(super) async fn write(
    tx: &Transaction<'_>,
    commit: &Commit,
    committed: &Committed,
    now: DateTime<Utc>,
) -> Result<()> {
    if let Some(write) = &commit.ladder {
        write_ranking(tx, write).await?;
    }
    if let Some(new) = &commit.new_ladder_match {
        let challenge_id = committed
            .challenge_id
            .ok_or_else(|| StorageError::Backend("a ladder match needs a new challenge".into()))?;
        let statement = tx
            .prepare_cached(
                "INSERT INTO ladder_matches (server_id, challenge_id, challenger_id, defender_id,
                                             status, accept_by, created_at)
                 VALUES ($1, $2, $3, $4, 'pending', $5, $6)",
            )
            .await
            .map_err(backend)?;
        tx.execute(
            &statement,
            &[
                &new.server_id,
                &challenge_id,
                &new.challenger.0,
                &new.defender.0,
                &stored(new.accept_by),
                &stored(now),
            ],
        )
        .await
        .map_err(backend)?;
    }
    if let Some(update) = &commit.ladder_match_update {
        let game_id = update.game_to_link(committed)?;
        let statement = tx
            .prepare_cached(
                "UPDATE ladder_matches SET status = $1, game_id = coalesce($2, game_id)
                 WHERE id = $3 AND status = $4",
            )
            .await
            .map_err(backend)?;
        let changed = tx
            .execute(
                &statement,
                &[
                    &update.to.as_str(),
                    &game_id,
                    &update.id,
                    &update.from.as_str(),
                ],
            )
            .await
            .map_err(backend)?;
        if changed == 0 {
            return Err(StorageError::Conflict);
        }
    }
    Ok(())
}

/// Replaces a server's ranking if its version is still the one read.
async fn write_ranking(tx: &Transaction<'_>, write: &LadderWrite) -> Result<()> {
    let sql = if write.expected_version == 0 {
        "INSERT INTO ladders (server_id, version) SELECT $1, 1 WHERE $2::bigint = 0
         ON CONFLICT (server_id) DO NOTHING"
    } else {
        "UPDATE ladders SET version = version + 1 WHERE server_id = $1 AND version = $2"
    };
    let statement = tx.prepare_cached(sql).await.map_err(backend)?;
    let changed = tx
        .execute(&statement, &[&write.server_id, &write.expected_version])
        .await
        .map_err(backend)?;
    if changed == 0 {
        return Err(StorageError::Conflict);
    }
    let delete = tx
        .prepare_cached("DELETE FROM ladder_rungs WHERE server_id = $1")
        .await
        .map_err(backend)?;
    tx.execute(&delete, &[&write.server_id])
        .await
        .map_err(backend)?;
    let insert = tx
        .prepare_cached(
            "INSERT INTO ladder_rungs (server_id, player_id, place, active_at)
             VALUES ($1, $2, $3, $4)",
        )
        .await
        .map_err(backend)?;
    for (index, (player, active_at)) in write.entries.iter().enumerate() {
        let place = index as i32 + 1;
        tx.execute(
            &insert,
            &[&write.server_id, &player.0, &place, &stored(*active_at)],
        )
        .await
        .map_err(backend)?;
    }
    Ok(())
}
