//! One act's writes in one PostgreSQL transaction (see [`Store::commit`]).
//!
//! Rows whose ids the answer needs (a new challenge, a new game) are
//! written first; the rest (game updates with their moves and notes, player
//! settings, leave, and the act's key with its answer) are sent together,
//! pipelined on the connection, so a move costs one round trip between
//! `BEGIN` and `COMMIT`. The act's key is a primary key: of two processes
//! committing the same act, the second waits for the first and then finds
//! the key taken, and rolls back.
//!
//! [`Store::commit`]: crate::storage::Store::commit

use chrono::{DateTime, Utc};
use deadpool_postgres::Transaction;
use serde::Serialize;

use super::{backend, json, round_up, stored};
use crate::core::event::color_str;
use crate::core::names::Named;
use crate::core::notation::Lang;
use crate::storage::{
    Commit, Committed, GameState, GameUpdate, NewChallenge, NewGame, RatingUpdate, Result,
    StorageError,
};

/// Applies `commit` in `tx` and records the act's answer; the caller commits.
pub async fn write<R, F>(
    tx: &Transaction<'_>,
    commit: &Commit,
    now: DateTime<Utc>,
    answer: F,
) -> Result<(Committed, R)>
where
    R: Serialize,
    F: FnOnce(&Committed) -> R,
{
    let now = stored(now);
    let mut committed = write_new_rows(tx, commit, now).await?;
    // Tournament rows come next: their new games' ids go into the answer.
    super::tournaments::write_changes(tx, &commit.tournament_changes, now, &mut committed).await?;
    super::ladder::write(tx, commit, &committed, now).await?;
    let value = answer(&committed);
    let answer_json = match &commit.act_key {
        Some(_) => Some(
            serde_json::to_string(&value)
                .map_err(|e| StorageError::Backend(format!("answer to JSON: {e}")))?,
        ),
        None => None,
    };
    // Sent together; PostgreSQL runs them in order and the first failure
    // aborts the rest, so the first error is the one to report.
    let (updates, settings, ratings, key) = tokio::join!(
        update_games(tx, &commit.game_updates),
        write_settings(tx, commit),
        write_ratings(tx, &commit.rating_updates),
        record_act(tx, commit.act_key.as_deref(), answer_json.as_deref(), now),
    );
    updates?;
    settings?;
    ratings?;
    key?;
    Ok((committed, value))
}

/// The new challenge and game, and what links them: their ids go into the answer.
async fn write_new_rows(
    tx: &Transaction<'_>,
    commit: &Commit,
    now: DateTime<Utc>,
) -> Result<Committed> {
    let mut committed = Committed::default();
    if let Some(new) = &commit.new_challenge {
        committed.challenge_id = Some(insert_challenge(tx, new, now).await?);
    }
    if let Some(closing) = &commit.closing_challenge {
        let changed = tx
            .execute(
                &tx.prepare_cached(
                    "UPDATE challenges SET status = $1 WHERE id = $2 AND status = 'open'",
                )
                .await
                .map_err(backend)?,
                &[&closing.to.as_str(), &closing.id],
            )
            .await
            .map_err(backend)?;
        if changed == 0 {
            return Err(StorageError::Conflict);
        }
    }
    if let Some(new) = &commit.new_game {
        let game_id = insert_game(tx, new, now).await?;
        committed.game_id = Some(game_id);
        // Only a challenge this act closes becomes the game.
        let closed = commit.closing_challenge.map(|c| c.id);
        if let Some(challenge_id) = new.challenge_id.filter(|&id| closed == Some(id)) {
            tx.execute(
                &tx.prepare_cached("UPDATE challenges SET game_id = $1 WHERE id = $2")
                    .await
                    .map_err(backend)?,
                &[&game_id, &challenge_id],
            )
            .await
            .map_err(backend)?;
        }
    }
    Ok(committed)
}

async fn insert_challenge(
    tx: &Transaction<'_>,
    new: &NewChallenge,
    now: DateTime<Utc>,
) -> Result<i64> {
    let statement = tx
        .prepare_cached(
            "INSERT INTO challenges (server_id, channel_id, challenger_id, challenged_id, color,
                                     time_control, rated, start_fen, created_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
        )
        .await
        .map_err(backend)?;
    let row = tx
        .query_one(
            &statement,
            &[
                &new.server_id,
                &new.channel_id,
                &new.challenger.0,
                &new.challenged.map(|p| p.0),
                &new.color.as_str(),
                &new.time_control,
                &new.rated,
                &new.start_fen,
                &now,
                &stored(new.expires_at),
            ],
        )
        .await
        .map_err(backend)?;
    Ok(row.get(0))
}

pub(super) async fn insert_game(
    tx: &Transaction<'_>,
    new: &NewGame,
    now: DateTime<Utc>,
) -> Result<i64> {
    let statement = tx
        .prepare_cached(
            "INSERT INTO games (server_id, channel_id, white_id, black_id, start_fen, time_control,
                                rated, draw_agreement_allowed, draw_min_moves, turn, challenge_id,
                                created_at, clock, deadline, remind_at, wake_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
             RETURNING id",
        )
        .await
        .map_err(backend)?;
    let deadline = new.clock.and_then(|c| c.deadline());
    let min_moves = i32::try_from(new.draw_rules.min_moves_each)
        .map_err(|_| StorageError::Backend("draw_min_moves out of range".to_owned()))?;
    let row = tx
        .query_one(
            &statement,
            &[
                &new.server_id,
                &new.channel_id,
                &new.white.0,
                &new.black.0,
                &new.start_fen,
                &new.time_control,
                &new.rated,
                &new.draw_rules.agreement_allowed,
                &min_moves,
                &color_str(new.turn),
                &new.challenge_id,
                &now,
                &new.clock.as_ref().map(json).transpose()?,
                &deadline.map(round_up),
                &new.remind_at.map(round_up),
                &wake_at(deadline, new.remind_at),
            ],
        )
        .await
        .map_err(backend)?;
    Ok(row.get(0))
}

/// The scheduler's next look at a game: the earlier of its reminder and its flag.
pub fn wake_at(
    deadline: Option<DateTime<Utc>>,
    remind_at: Option<DateTime<Utc>>,
) -> Option<DateTime<Utc>> {
    [deadline, remind_at]
        .into_iter()
        .flatten()
        .min()
        .map(round_up)
}

/// Each update in one statement: the versioned row update, and its moves and
/// notes appended only if that update matched.
async fn update_games(tx: &Transaction<'_>, updates: &[GameUpdate]) -> Result<()> {
    if updates.is_empty() {
        return Ok(());
    }
    let statement = tx
        .prepare_cached(
            "WITH updated AS (
                 UPDATE games SET status = $1, result = $2, reason = $3, ended_at = $4,
                        pending_offer = $5, turn = $6, plies = plies + $7, version = version + 1,
                        clock = $10, deadline = $11, remind_at = $12, wake_at = $13
                 WHERE id = $8 AND version = $9
                 RETURNING id
             ), new_moves AS (
                 INSERT INTO moves (game_id, ply, uci, san, played_at, draw_offer)
                 SELECT updated.id, m.ply, m.uci, m.san, m.played_at, m.draw_offer
                 FROM updated,
                      unnest($14::integer[], $15::text[], $16::text[], $17::timestamptz[],
                             $18::boolean[]) AS m (ply, uci, san, played_at, draw_offer)
             ), new_notes AS (
                 INSERT INTO game_notes (game_id, seq, note)
                 SELECT updated.id,
                        (SELECT count(*) FROM game_notes WHERE game_id = updated.id)::integer
                            + n.ord::integer - 1,
                        n.note
                 FROM updated, unnest($19::jsonb[]) WITH ORDINALITY AS n (note, ord)
             )
             SELECT count(*) FROM updated",
        )
        .await
        .map_err(backend)?;
    for update in updates {
        let (status, result, reason, ended_at) = match update.state {
            GameState::Ongoing => ("ongoing", None, None, None),
            GameState::Over {
                result,
                reason,
                ended_at,
            } => (
                "over",
                Some(result.as_pgn()),
                Some(reason.as_str()),
                Some(stored(ended_at)),
            ),
        };
        let ongoing = matches!(update.state, GameState::Ongoing);
        let deadline = update.clock.and_then(|c| c.deadline()).filter(|_| ongoing);
        let remind_at = update.remind_at.filter(|_| ongoing);
        let plies: Vec<i32> = update
            .new_moves
            .iter()
            .map(|m| i32::try_from(m.ply).unwrap_or(i32::MAX))
            .collect();
        let ucis: Vec<&str> = update.new_moves.iter().map(|m| m.uci.as_str()).collect();
        let sans: Vec<&str> = update.new_moves.iter().map(|m| m.san.as_str()).collect();
        let times: Vec<DateTime<Utc>> = update
            .new_moves
            .iter()
            .map(|m| stored(m.played_at))
            .collect();
        let offers: Vec<bool> = update.new_moves.iter().map(|m| m.draw_offer).collect();
        let notes = update
            .new_notes
            .iter()
            .map(json)
            .collect::<Result<Vec<_>>>()?;
        let matched: i64 = tx
            .query_one(
                &statement,
                &[
                    &status,
                    &result,
                    &reason,
                    &ended_at,
                    &update.pending_offer.map(color_str),
                    &color_str(update.turn),
                    &(plies.len() as i32),
                    &update.id,
                    &update.expected_version,
                    &update.clock.as_ref().map(json).transpose()?,
                    &deadline.map(round_up),
                    &remind_at.map(round_up),
                    &wake_at(deadline, remind_at),
                    &plies,
                    &ucis,
                    &sans,
                    &times,
                    &offers,
                    &notes,
                ],
            )
            .await
            .map_err(backend)?
            .get(0);
        if matched == 0 {
            return Err(StorageError::Conflict);
        }
    }
    Ok(())
}

/// Player settings and leave.
async fn write_settings(tx: &Transaction<'_>, commit: &Commit) -> Result<()> {
    if let Some((player, language)) = commit.player_language {
        tx.execute(
            &tx.prepare_cached("UPDATE players SET language = $1 WHERE id = $2")
                .await
                .map_err(backend)?,
            &[&language.map(Lang::as_str), &player.0],
        )
        .await
        .map_err(backend)?;
    }
    if let Some((player, notify)) = commit.player_notify {
        tx.execute(
            &tx.prepare_cached("UPDATE players SET notify = $1 WHERE id = $2")
                .await
                .map_err(backend)?,
            &[&notify.as_str(), &player.0],
        )
        .await
        .map_err(backend)?;
    }
    if let Some(leave) = &commit.new_leave {
        tx.execute(
            &tx.prepare_cached(
                "INSERT INTO leaves (player_id, server_id, starts_at, ends_at, days)
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .await
            .map_err(backend)?,
            &[
                &leave.player.0,
                &leave.server_id,
                &stored(leave.starts_at),
                &stored(leave.ends_at),
                &(leave.days as i32),
            ],
        )
        .await
        .map_err(backend)?;
    }
    if let Some(ending) = &commit.ending_leave {
        let changed = tx
            .execute(
                &tx.prepare_cached(
                    "UPDATE leaves SET ended_at = $1, days = $2 WHERE id = $3 AND ended_at IS NULL",
                )
                .await
                .map_err(backend)?,
                &[&stored(ending.ended_at), &(ending.days as i32), &ending.id],
            )
            .await
            .map_err(backend)?;
        if changed == 0 {
            return Err(StorageError::Conflict);
        }
    }
    Ok(())
}

/// New ratings and their history rows. Each update names the count of rated
/// games it read (0: no row yet); a row that moved on since (or appeared, by
/// another process's insert) is a conflict, as on SQLite.
async fn write_ratings(tx: &Transaction<'_>, updates: &[RatingUpdate]) -> Result<()> {
    for update in updates {
        let at = stored(update.at);
        let changed = if update.expected_games == 0 {
            tx.execute(
                &tx.prepare_cached(
                    "INSERT INTO ratings
                         (server_id, player_id, rating, deviation, volatility, games, rated_at)
                     VALUES ($1, $2, $3, $4, $5, 1, $6)
                     ON CONFLICT (server_id, player_id) DO NOTHING",
                )
                .await
                .map_err(backend)?,
                &[
                    &update.server_id,
                    &update.player.0,
                    &update.rating,
                    &update.deviation,
                    &update.volatility,
                    &at,
                ],
            )
            .await
            .map_err(backend)?
        } else {
            let expected = i32::try_from(update.expected_games).map_err(|_| {
                StorageError::Backend(format!("{} rated games", update.expected_games))
            })?;
            tx.execute(
                &tx.prepare_cached(
                    "UPDATE ratings SET rating = $3, deviation = $4, volatility = $5,
                                        games = games + 1, rated_at = $6
                     WHERE server_id = $1 AND player_id = $2 AND games = $7",
                )
                .await
                .map_err(backend)?,
                &[
                    &update.server_id,
                    &update.player.0,
                    &update.rating,
                    &update.deviation,
                    &update.volatility,
                    &at,
                    &expected,
                ],
            )
            .await
            .map_err(backend)?
        };
        if changed == 0 {
            return Err(StorageError::Conflict);
        }
        tx.execute(
            &tx.prepare_cached(
                "INSERT INTO rating_history (server_id, player_id, game_id, rating, deviation, at)
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .await
            .map_err(backend)?,
            &[
                &update.server_id,
                &update.player.0,
                &update.game_id,
                &update.rating,
                &update.deviation,
                &at,
            ],
        )
        .await
        .map_err(backend)?;
    }
    Ok(())
}

/// Stores the act's answer under its key; a key already taken (by this or
/// another process) refuses the whole commit.
async fn record_act(
    tx: &Transaction<'_>,
    key: Option<&str>,
    answer: Option<&str>,
    now: DateTime<Utc>,
) -> Result<()> {
    let (Some(key), Some(answer)) = (key, answer) else {
        return Ok(());
    };
    let inserted = tx
        .execute(
            &tx.prepare_cached(
                "INSERT INTO processed_acts (act_key, processed_at, answer) VALUES ($1, $2, $3)
                 ON CONFLICT (act_key) DO NOTHING",
            )
            .await
            .map_err(backend)?,
            &[&key, &now, &answer],
        )
        .await
        .map_err(backend)?;
    if inserted == 0 {
        return Err(StorageError::DuplicateAct(key.to_owned()));
    }
    Ok(())
}
