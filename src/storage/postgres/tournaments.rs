//! The PostgreSQL store's tournament rows (migration 0004): the writes a
//! commit carries and the reads the service makes, as SQLite has them.

use chrono::{DateTime, Utc};
use deadpool_postgres::Transaction;
use tokio_postgres::Row;

use super::rows::{self, corrupt, count, get};
use super::{backend, stored, write};
use crate::core::game::PlayerId;
use crate::core::names::Named;
use crate::storage::{
    Committed, EntrantRow, PairingRow, PairingScore, Result, StorageError, TournamentChange,
    TournamentRow, TournamentState, TournamentSystem,
};

pub const TOURNAMENT_COLUMNS: &str = "t.id, t.server_id, t.channel_id, c.platform_id, t.name, \
     t.system, t.time_control, t.rated, t.rounds, t.bye_half_points, t.max_players, \
     t.entry_closes_at, t.state, t.round, t.created_by, t.created_at, t.version";

pub const ENTRANT_COLUMNS: &str =
    "e.player_id, p.display_name, p.platform_id, e.joined_at, e.seed, e.withdrawn_at";

pub const PAIRING_COLUMNS: &str = "t.id, t.round, t.board, t.white_id, t.black_id, t.game_id, \
     t.score, g.status, g.result, g.reason, g.ended_at";

/// A `u32` as PostgreSQL's `integer`.
fn int(value: u32) -> Result<i32> {
    i32::try_from(value).map_err(|_| StorageError::Backend(format!("{value} is out of range")))
}

fn optional_count(row: &Row, index: usize) -> Result<Option<u32>> {
    match get::<Option<i32>>(row, index)? {
        None => Ok(None),
        Some(n) => u32::try_from(n)
            .map(Some)
            .map_err(|_| corrupt("count", &n.to_string())),
    }
}

pub fn tournament(row: &Row) -> Result<TournamentRow> {
    let system: String = get(row, 5)?;
    let state: String = get(row, 12)?;
    Ok(TournamentRow {
        id: get(row, 0)?,
        server_id: get(row, 1)?,
        channel_id: get(row, 2)?,
        channel: get(row, 3)?,
        name: get(row, 4)?,
        system: TournamentSystem::from_name(&system).ok_or_else(|| corrupt("system", &system))?,
        time_control: get(row, 6)?,
        rated: get(row, 7)?,
        rounds: optional_count(row, 8)?,
        bye_half_points: count(row, 9)?,
        max_players: optional_count(row, 10)?,
        entry_closes_at: get(row, 11)?,
        state: TournamentState::from_name(&state)
            .ok_or_else(|| corrupt("tournament state", &state))?,
        round: count(row, 13)?,
        created_by: PlayerId(get(row, 14)?),
        created_at: get(row, 15)?,
        version: get(row, 16)?,
    })
}

pub fn entrant(row: &Row) -> Result<EntrantRow> {
    Ok(EntrantRow {
        player: PlayerId(get(row, 0)?),
        name: get(row, 1)?,
        platform_id: get(row, 2)?,
        joined_at: get(row, 3)?,
        seed: optional_count(row, 4)?,
        withdrawn_at: get(row, 5)?,
    })
}

pub fn pairing(row: &Row) -> Result<PairingRow> {
    let score: Option<String> = get(row, 6)?;
    let status: Option<String> = get(row, 7)?;
    let game_state = match status {
        None => None,
        Some(status) => Some(rows::game_state(
            &status,
            get::<Option<&str>>(row, 8)?,
            get::<Option<&str>>(row, 9)?,
            get(row, 10)?,
        )?),
    };
    Ok(PairingRow {
        id: get(row, 0)?,
        round: count(row, 1)?,
        board: count(row, 2)?,
        white: PlayerId(get(row, 3)?),
        black: get::<Option<i64>>(row, 4)?.map(PlayerId),
        game_id: get(row, 5)?,
        game_state,
        score: score
            .map(|s| PairingScore::from_name(&s).ok_or_else(|| corrupt("score", &s)))
            .transpose()?,
    })
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
