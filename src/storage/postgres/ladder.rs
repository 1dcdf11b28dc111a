//! The challenge ladder on PostgreSQL (migration 0003): reads for
//! [`super::PgStore`] and the ladder rows of a commit.

use chrono::{DateTime, Utc};
use deadpool_postgres::Transaction;
use tokio_postgres::Row;

use super::{PgStore, backend, rows, stored};
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

fn to_match(row: &Row) -> Result<LadderMatchRow> {
    let status: String = rows::get(row, 6)?;
    Ok(LadderMatchRow {
        id: rows::get(row, 0)?,
        server_id: rows::get(row, 1)?,
        challenge_id: rows::get(row, 2)?,
        channel: rows::get(row, 8)?,
        game_id: rows::get(row, 3)?,
        challenger: PlayerId(rows::get(row, 4)?),
        defender: PlayerId(rows::get(row, 5)?),
        status: LadderMatchStatus::from_name(&status)
            .ok_or_else(|| rows::corrupt("ladder status", &status))?,
        accept_by: rows::get(row, 7)?,
    })
}

impl PgStore {
    async fn ladder_matches(
        &self,
        filter: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Vec<LadderMatchRow>> {
        let sql = format!("SELECT {MATCH_COLUMNS} FROM {MATCH_TABLES} WHERE {filter}");
        self.query(&sql, params)
            .await?
            .iter()
            .map(to_match)
            .collect()
    }

    pub(super) async fn read_ladder(&self, server_id: i64) -> Result<LadderRow> {
        let version = self
            .query_opt(
                "SELECT version FROM ladders WHERE server_id = $1",
                &[&server_id],
            )
            .await?
            .map(|row| rows::get::<i64>(&row, 0))
            .transpose()?;
        let entries = self
            .query(
                "SELECT r.player_id, p.display_name, r.active_at
                 FROM ladder_rungs r JOIN players p ON p.id = r.player_id
                 WHERE r.server_id = $1 ORDER BY r.place",
                &[&server_id],
            )
            .await?
            .iter()
            .map(|row| {
                Ok(LadderEntry {
                    player: PlayerId(rows::get(row, 0)?),
                    name: rows::get(row, 1)?,
                    active_at: rows::get(row, 2)?,
                })
            })
            .collect::<Result<_>>()?;
        Ok(LadderRow {
            server_id,
            version: version.unwrap_or(0),
            entries,
        })
    }

    pub(super) async fn read_unsettled_ladder_matches(
        &self,
        server_id: i64,
    ) -> Result<Vec<LadderMatchRow>> {
        self.ladder_matches(
            "m.server_id = $1 AND m.status IN ('pending', 'playing') ORDER BY m.id",
            &[&server_id],
        )
        .await
    }

    pub(super) async fn read_ladder_match(
        &self,
        column: LadderMatchKey,
        id: i64,
    ) -> Result<Option<LadderMatchRow>> {
        let filter = match column {
            LadderMatchKey::Challenge => "m.challenge_id = $1",
            LadderMatchKey::Game => "m.game_id = $1",
        };
        Ok(self
            .ladder_matches(filter, &[&id])
            .await?
            .into_iter()
            .next())
    }

    pub(super) async fn read_due_ladder_forfeits(
        &self,
        now: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<LadderMatchRow>> {
        self.ladder_matches(
            "m.status = 'pending' AND m.accept_by <= $1 ORDER BY m.accept_by, m.id LIMIT $2",
            &[&stored(now), &(limit as i64)],
        )
        .await
    }

    pub(super) async fn read_idle_ladder_rungs(
        &self,
        active_before: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<IdleRung>> {
        self.query(
            "SELECT server_id, player_id, active_at FROM ladder_rungs
             WHERE active_at <= $1 ORDER BY active_at, server_id, place LIMIT $2",
            &[&stored(active_before), &(limit as i64)],
        )
        .await?
        .iter()
        .map(|row| {
            Ok(IdleRung {
                server_id: rows::get(row, 0)?,
                player: PlayerId(rows::get(row, 1)?),
                active_at: rows::get(row, 2)?,
            })
        })
        .collect()
    }

    pub(super) async fn read_next_ladder_deadline(
        &self,
        inactive_after: Option<chrono::Duration>,
    ) -> Result<Option<DateTime<Utc>>> {
        let row = self
            .query_opt(
                "SELECT (SELECT min(accept_by) FROM ladder_matches WHERE status = 'pending'),
                        (SELECT min(active_at) FROM ladder_rungs)",
                &[],
            )
            .await?;
        let Some(row) = row else { return Ok(None) };
        let accept_by: Option<DateTime<Utc>> = rows::get(&row, 0)?;
        let oldest: Option<DateTime<Utc>> = rows::get(&row, 1)?;
        let idle = inactive_after.and_then(|after| oldest.map(|at| at + after));
        Ok([accept_by, idle].into_iter().flatten().min())
    }
}

/// Which id a ladder challenge is looked up by.
#[derive(Clone, Copy, Debug)]
pub(super) enum LadderMatchKey {
    Challenge,
    Game,
}

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
