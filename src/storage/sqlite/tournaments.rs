//! The SQLite store's tournament rows (migration 0008): the writes a
//! commit carries (its reads are shared, in `storage::queries::tournaments`).

use chrono::{DateTime, Utc};
use rusqlite::{Transaction, params};

use super::{insert_game, to_text};
use crate::storage::{Committed, PairingScore, Result, StorageError, TournamentChange};

/// Applies one tournament change inside the commit's transaction.
pub(super) fn write_change(
    tx: &Transaction<'_>,
    change: &TournamentChange,
    now: DateTime<Utc>,
    committed: &mut Committed,
) -> Result<()> {
    match change {
        TournamentChange::Create(new) => {
            tx.prepare_cached(
                "INSERT INTO tournaments (server_id, channel_id, name, system, time_control,
                     rated, rounds, bye_half_points, max_players, entry_closes_at, state,
                     round, created_by, created_at, version)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'entry', 0, ?11, ?12, 0)",
            )?
            .execute(params![
                new.server_id,
                new.channel_id,
                new.name,
                new.system.as_str(),
                new.time_control,
                new.rated,
                new.rounds,
                new.bye_half_points,
                new.max_players,
                new.entry_closes_at.map(to_text),
                new.created_by.0,
                to_text(now),
            ])?;
            committed.tournament_id = Some(tx.last_insert_rowid());
        }
        TournamentChange::Advance {
            id,
            expected_version,
            state,
            round,
        } => {
            let changed = tx
                .prepare_cached(
                    "UPDATE tournaments SET state = ?1, round = ?2, version = version + 1
                     WHERE id = ?3 AND version = ?4",
                )?
                .execute(params![state.as_str(), round, id, expected_version])?;
            if changed == 0 {
                return Err(StorageError::Conflict);
            }
        }
        TournamentChange::Join {
            tournament_id,
            player,
            at,
        } => {
            let changed = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO tournament_entrants (tournament_id, player_id, joined_at)
                     VALUES (?1, ?2, ?3)",
                )?
                .execute(params![tournament_id, player.0, to_text(*at)])?;
            if changed == 0 {
                return Err(StorageError::Conflict);
            }
        }
        TournamentChange::Leave {
            tournament_id,
            player,
        } => {
            tx.prepare_cached(
                "DELETE FROM tournament_entrants WHERE tournament_id = ?1 AND player_id = ?2",
            )?
            .execute(params![tournament_id, player.0])?;
        }
        TournamentChange::Seed {
            tournament_id,
            player,
            seed,
        } => {
            tx.prepare_cached(
                "UPDATE tournament_entrants SET seed = ?1 WHERE tournament_id = ?2 AND player_id = ?3",
            )?
            .execute(params![seed, tournament_id, player.0])?;
        }
        TournamentChange::Withdraw {
            tournament_id,
            player,
            at,
        } => {
            tx.prepare_cached(
                "UPDATE tournament_entrants SET withdrawn_at = ?1
                 WHERE tournament_id = ?2 AND player_id = ?3",
            )?
            .execute(params![to_text(*at), tournament_id, player.0])?;
        }
        TournamentChange::Pair(new) => {
            let game_id = match &new.game {
                Some(game) => {
                    let id = insert_game(tx, game, now)?;
                    committed.tournament_games.push(id);
                    Some(id)
                }
                None => None,
            };
            tx.prepare_cached(
                "INSERT INTO tournament_games
                     (tournament_id, round, board, white_id, black_id, game_id, score)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                new.tournament_id,
                new.round,
                new.board,
                new.white.0,
                new.black.map(|p| p.0),
                game_id,
                new.score.map(PairingScore::as_str),
            ])?;
        }
        TournamentChange::Score { pairing_id, score } => {
            tx.prepare_cached("UPDATE tournament_games SET score = ?1 WHERE id = ?2")?
                .execute(params![score.as_str(), pairing_id])?;
        }
    }
    Ok(())
}
