//! The PostgreSQL store's tournament rows (migration 0004): the writes a
//! commit carries (its reads are shared, in `storage::queries::tournaments`).

use chrono::{DateTime, Utc};
use deadpool_postgres::Transaction;

use super::{backend, stored, write};
use crate::storage::{Committed, PairingScore, Result, StorageError, TournamentChange};

/// A `u32` as PostgreSQL's `integer`.
fn int(value: u32) -> Result<i32> {
    i32::try_from(value).map_err(|_| StorageError::Backend(format!("{value} is out of range")))
}

/// Applies the commit's tournament changes, in order, inside its transaction.
pub async fn write_changes(
    tx: &Transaction<'_>,
    changes: &[TournamentChange],
    now: DateTime<Utc>,
    committed: &mut Committed,
) -> Result<()> {
    for change in changes {
        write_change(tx, change, now, committed).await?;
    }
    Ok(())
}

async fn execute(
    tx: &Transaction<'_>,
    sql: &str,
    params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
) -> Result<u64> {
    let statement = tx.prepare_cached(sql).await.map_err(backend)?;
    tx.execute(&statement, params).await.map_err(backend)
}

async fn write_change(
    tx: &Transaction<'_>,
    change: &TournamentChange,
    now: DateTime<Utc>,
    committed: &mut Committed,
) -> Result<()> {
    match change {
        TournamentChange::Create(new) => {
            let statement = tx
                .prepare_cached(
                    "INSERT INTO tournaments (server_id, channel_id, name, system, time_control,
                         rated, rounds, bye_half_points, max_players, entry_closes_at, state,
                         round, created_by, created_at, version)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'entry', 0, $11, $12, 0)
                     RETURNING id",
                )
                .await
                .map_err(backend)?;
            let rounds = new.rounds.map(int).transpose()?;
            let max = new.max_players.map(int).transpose()?;
            let row = tx
                .query_one(
                    &statement,
                    &[
                        &new.server_id,
                        &new.channel_id,
                        &new.name,
                        &new.system.as_str(),
                        &new.time_control,
                        &new.rated,
                        &rounds,
                        &int(new.bye_half_points)?,
                        &max,
                        &new.entry_closes_at.map(stored),
                        &new.created_by.0,
                        &now,
                    ],
                )
                .await
                .map_err(backend)?;
            committed.tournament_id = Some(row.get(0));
        }
        TournamentChange::Advance {
            id,
            expected_version,
            state,
            round,
        } => {
            let changed = execute(
                tx,
                "UPDATE tournaments SET state = $1, round = $2, version = version + 1
                 WHERE id = $3 AND version = $4",
                &[&state.as_str(), &int(*round)?, id, expected_version],
            )
            .await?;
            if changed == 0 {
                return Err(StorageError::Conflict);
            }
        }
        TournamentChange::Join {
            tournament_id,
            player,
            at,
        } => {
            let changed = execute(
                tx,
                "INSERT INTO tournament_entrants (tournament_id, player_id, joined_at)
                 VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                &[tournament_id, &player.0, &stored(*at)],
            )
            .await?;
            if changed == 0 {
                return Err(StorageError::Conflict);
            }
        }
        TournamentChange::Leave {
            tournament_id,
            player,
        } => {
            execute(
                tx,
                "DELETE FROM tournament_entrants WHERE tournament_id = $1 AND player_id = $2",
                &[tournament_id, &player.0],
            )
            .await?;
        }
        TournamentChange::Seed {
            tournament_id,
            player,
            seed,
        } => {
            execute(
                tx,
                "UPDATE tournament_entrants SET seed = $1 WHERE tournament_id = $2 AND player_id = $3",
                &[&int(*seed)?, tournament_id, &player.0],
            )
            .await?;
        }
        TournamentChange::Withdraw {
            tournament_id,
            player,
            at,
        } => {
            execute(
                tx,
                "UPDATE tournament_entrants SET withdrawn_at = $1
                 WHERE tournament_id = $2 AND player_id = $3",
                &[&stored(*at), tournament_id, &player.0],
            )
            .await?;
        }
        TournamentChange::Pair(new) => {
            let game_id = match &new.game {
                Some(game) => {
                    let id = write::insert_game(tx, game, now).await?;
                    committed.tournament_games.push(id);
                    Some(id)
                }
                None => None,
            };
            execute(
                tx,
                "INSERT INTO tournament_games
                     (tournament_id, round, board, white_id, black_id, game_id, score)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                &[
                    &new.tournament_id,
                    &int(new.round)?,
                    &int(new.board)?,
                    &new.white.0,
                    &new.black.map(|p| p.0),
                    &game_id,
                    &new.score.map(PairingScore::as_str),
                ],
            )
            .await?;
        }
        TournamentChange::Score { pairing_id, score } => {
            execute(
                tx,
                "UPDATE tournament_games SET score = $1 WHERE id = $2",
                &[&score.as_str(), pairing_id],
            )
            .await?;
        }
    }
    Ok(())
}
