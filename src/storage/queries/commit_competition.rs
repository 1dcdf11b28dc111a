//! The competition rows of a commit (see [`super::commit`]): ratings with
//! their history, the ladder's ranking and challenges, and tournament
//! changes. Each versioned write that finds its row moved on is
//! [`StorageError::Conflict`].

use crate::core::names::Named;
use crate::core::tournament::tie_breaks_text;
use chrono::{DateTime, Utc};

use super::commit::{changed_one, insert_game_with_token};
use crate::storage::sql::{Conn, params, value_rows};
use crate::storage::{
    Commit, Committed, LadderWrite, NewPairing, NewTournament, PairingScore, RatingUpdate, Result,
    StorageError, TournamentChange,
};

/// A new rating. The update names the count of rated games it read (0: no
/// row yet); a row that moved on since, or appeared meanwhile, is a conflict.
pub(super) async fn write_rating(c: &impl Conn, update: &RatingUpdate) -> Result<()> {
    let changed = if update.expected_games == 0 {
        c.execute(
            "INSERT INTO ratings
                 (server_id, player_id, rating, deviation, volatility, games, rated_at, pool)
             VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, ?7)
             ON CONFLICT (server_id, player_id, pool) DO NOTHING",
            &params![
                update.server_id,
                update.player,
                update.rating,
                update.deviation,
                update.volatility,
                update.at,
                update.pool.as_str()
            ],
        )
        .await?
    } else {
        c.execute(
            "UPDATE ratings SET rating = ?3, deviation = ?4, volatility = ?5,
                                games = games + 1, rated_at = ?6
             WHERE server_id = ?1 AND player_id = ?2 AND games = ?7 AND pool = ?8",
            &params![
                update.server_id,
                update.player,
                update.rating,
                update.deviation,
                update.volatility,
                update.at,
                update.expected_games,
                update.pool.as_str()
            ],
        )
        .await?
    };
    changed_one(changed)
}

/// The history rows of a game's new ratings (both players'), in one statement.
pub(super) async fn write_rating_history(c: &impl Conn, updates: &[RatingUpdate]) -> Result<()> {
    if updates.is_empty() {
        return Ok(());
    }
    let mut values = Vec::with_capacity(updates.len() * 7);
    for update in updates {
        values.extend(params![
            update.server_id,
            update.player,
            update.game_id,
            update.rating,
            update.deviation,
            update.at,
            update.pool.as_str()
        ]);
    }
    let sql = format!(
        "INSERT INTO rating_history (server_id, player_id, game_id, rating, deviation, at, pool)
         VALUES {}",
        value_rows(updates.len(), 7)
    );
    c.execute(&sql, &values).await?;
    Ok(())
}

/// The commit's ladder rows; its new challenge and game are already written.
pub(super) async fn write_ladder(
    c: &impl Conn,
    commit: &Commit,
    committed: &Committed,
    now: DateTime<Utc>,
) -> Result<()> {
    if let Some(write) = &commit.ladder {
        write_ranking(c, write).await?;
    }
    if let Some(new) = &commit.new_ladder_match {
        let challenge_id = committed
            .challenge_id
            .ok_or_else(|| StorageError::Backend("a ladder match needs a new challenge".into()))?;
        c.execute(
            "INSERT INTO ladder_matches (server_id, challenge_id, challenger_id, defender_id,
                                         status, accept_by, created_at)
             VALUES (?1, ?2, ?3, ?4, 'pending', ?5, ?6)",
            &params![
                new.server_id,
                challenge_id,
                new.challenger,
                new.defender,
                new.accept_by,
                now
            ],
        )
        .await?;
    }
    if let Some(update) = &commit.ladder_match_update {
        let game_id = update.game_to_link(committed)?;
        let changed = c
            .execute(
                "UPDATE ladder_matches SET status = ?1, game_id = coalesce(?2, game_id)
                 WHERE id = ?3 AND status = ?4",
                &params![update.to.as_str(), game_id, update.id, update.from.as_str()],
            )
            .await?;
        changed_one(changed)?;
    }
    Ok(())
}

/// Replaces a server's ranking if its version is still the one read.
async fn write_ranking(c: &impl Conn, write: &LadderWrite) -> Result<()> {
    let changed = if write.expected_version == 0 {
        c.execute(
            "INSERT INTO ladders (server_id, version) VALUES (?1, 1)
             ON CONFLICT (server_id) DO NOTHING",
            &params![write.server_id],
        )
        .await?
    } else {
        c.execute(
            "UPDATE ladders SET version = version + 1 WHERE server_id = ?1 AND version = ?2",
            &params![write.server_id, write.expected_version],
        )
        .await?
    };
    changed_one(changed)?;
    c.execute(
        "DELETE FROM ladder_rungs WHERE server_id = ?1",
        &params![write.server_id],
    )
    .await?;
    for (place, (player, active_at)) in (1_i64..).zip(&write.entries) {
        c.execute(
            "INSERT INTO ladder_rungs (server_id, player_id, place, active_at)
             VALUES (?1, ?2, ?3, ?4)",
            &params![write.server_id, *player, place, *active_at],
        )
        .await?;
    }
    Ok(())
}

/// Applies one tournament change; a created tournament's id and a pairing's
/// new game go into `committed`.
pub(super) async fn write_tournament_change(
    c: &impl Conn,
    change: &TournamentChange,
    now: DateTime<Utc>,
    committed: &mut Committed,
) -> Result<()> {
    match change {
        TournamentChange::Create(new) => {
            committed.tournament_id = Some(insert_tournament(c, new, now).await?);
        }
        TournamentChange::Advance {
            id,
            expected_version,
            state,
            round,
        } => {
            let changed = c
                .execute(
                    "UPDATE tournaments SET state = ?1, round = ?2, version = version + 1
                     WHERE id = ?3 AND version = ?4",
                    &params![state.as_str(), *round, *id, *expected_version],
                )
                .await?;
            changed_one(changed)?;
        }
        TournamentChange::Join {
            tournament_id,
            player,
            at,
            channel_id,
        } => {
            let changed = c
                .execute(
                    "INSERT INTO tournament_entrants (tournament_id, player_id, joined_at, channel_id)
                     VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
                    &params![*tournament_id, *player, *at, *channel_id],
                )
                .await?;
            changed_one(changed)?;
        }
        TournamentChange::Leave {
            tournament_id,
            player,
        } => {
            c.execute(
                "DELETE FROM tournament_entrants WHERE tournament_id = ?1 AND player_id = ?2",
                &params![*tournament_id, *player],
            )
            .await?;
        }
        TournamentChange::Seed {
            tournament_id,
            player,
            seed,
        } => {
            c.execute(
                "UPDATE tournament_entrants SET seed = ?1 WHERE tournament_id = ?2 AND player_id = ?3",
                &params![*seed, *tournament_id, *player],
            )
            .await?;
        }
        TournamentChange::Withdraw {
            tournament_id,
            player,
            at,
        } => {
            c.execute(
                "UPDATE tournament_entrants SET withdrawn_at = ?1
                 WHERE tournament_id = ?2 AND player_id = ?3",
                &params![*at, *tournament_id, *player],
            )
            .await?;
        }
        TournamentChange::Pair(new) => insert_pairing(c, new, now, committed).await?,
        TournamentChange::Score { pairing_id, score } => {
            c.execute(
                "UPDATE tournament_games SET score = ?1 WHERE id = ?2",
                &params![score.as_str(), *pairing_id],
            )
            .await?;
        }
    }
    Ok(())
}

/// Creates a tournament, taking entrants; returns its id.
async fn insert_tournament(c: &impl Conn, new: &NewTournament, now: DateTime<Utc>) -> Result<i64> {
    c.query_one(
        "INSERT INTO tournaments (server_id, channel_id, name, system, time_control,
             rated, rounds, bye_half_points, max_players, entry_closes_at, state,
             round, created_by, created_at, version, tiebreaks, reviews_after_round)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'entry', 0, ?11, ?12, 0,
             ?13, ?14)
         RETURNING id",
        &params![
            new.server_id,
            new.channel_id,
            &new.name,
            new.system.as_str(),
            &new.time_control,
            new.rated,
            new.rounds,
            new.bye_half_points,
            new.max_players,
            new.entry_closes_at,
            new.created_by,
            now,
            &tie_breaks_text(&new.tie_breaks),
            new.reviews_after_round
        ],
    )
    .await?
    .int(0)
}

/// Writes a pairing, and creates its game (whose id goes into `committed`)
/// unless it is a bye.
async fn insert_pairing(
    c: &impl Conn,
    new: &NewPairing,
    now: DateTime<Utc>,
    committed: &mut Committed,
) -> Result<()> {
    let game_id = match &new.game {
        Some(game) => {
            let (id, token) = insert_game_with_token(c, game, now).await?;
            committed.tournament_games.push(id);
            committed.tournament_game_tokens.push(token);
            if let Some(place) = &new.place {
                super::clubs::insert_place(c, id, place).await?;
            }
            Some(id)
        }
        None => None,
    };
    c.execute(
        "INSERT INTO tournament_games
             (tournament_id, round, board, white_id, black_id, game_id, score)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        &params![
            new.tournament_id,
            new.round,
            new.board,
            new.white,
            new.black,
            game_id,
            new.score.map(PairingScore::as_str)
        ],
    )
    .await?;
    Ok(())
}
