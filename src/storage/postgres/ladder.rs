//! The challenge ladder on PostgreSQL (migration 0003): reads for
//! [`super::PgStore`].

use chrono::{DateTime, Utc};
use tokio_postgres::Row;

use super::{PgStore, rows, stored};
use crate::core::game::PlayerId;
use crate::storage::{IdleRung, LadderEntry, LadderMatchRow, LadderMatchStatus, LadderRow, Result};

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
