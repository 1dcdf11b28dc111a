//! The SQLite store's tournament rows (migration 0008): the writes a
//! commit carries and the reads the service makes.

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, Row, Transaction, params};

use super::{corrupt, from_text, game_state, insert_game, to_text};
use crate::core::game::PlayerId;
use crate::core::names::Named;
use crate::storage::{
    Committed, DueTournament, EntrantRow, PairingRow, PairingScore, Result, StorageError,
    TournamentChange, TournamentRow, TournamentState, TournamentSystem,
};

const TOURNAMENT_COLUMNS: &str = "t.id, t.server_id, t.channel_id, c.platform_id, t.name, t.system,
     t.time_control, t.rated, t.rounds, t.bye_half_points, t.max_players, t.entry_closes_at,
     t.state, t.round, t.created_by, t.created_at, t.version";

/// A tournament row's columns, before parsing.
type RawTournament = (
    (i64, i64, i64, String, String, String),
    (String, bool, Option<u32>, u32, Option<u32>, Option<String>),
    (String, u32, i64, String, i64),
);

fn tournament_row(r: &Row<'_>) -> rusqlite::Result<RawTournament> {
    Ok((
        (
            r.get(0)?,
            r.get(1)?,
            r.get(2)?,
            r.get(3)?,
            r.get(4)?,
            r.get(5)?,
        ),
        (
            r.get(6)?,
            r.get(7)?,
            r.get(8)?,
            r.get(9)?,
            r.get(10)?,
            r.get(11)?,
        ),
        (r.get(12)?, r.get(13)?, r.get(14)?, r.get(15)?, r.get(16)?),
    ))
}

fn to_tournament(raw: RawTournament) -> Result<TournamentRow> {
    let ((id, server_id, channel_id, channel, name, system), a, b) = raw;
    let (time_control, rated, rounds, bye_half_points, max_players, closes) = a;
    let (state, round, created_by, created_at, version) = b;
    Ok(TournamentRow {
        id,
        server_id,
        channel_id,
        channel,
        name,
        system: TournamentSystem::from_name(&system).ok_or_else(|| corrupt("system", &system))?,
        time_control,
        rated,
        rounds,
        bye_half_points,
        max_players,
        entry_closes_at: closes.as_deref().map(from_text).transpose()?,
        state: TournamentState::from_name(&state)
            .ok_or_else(|| corrupt("tournament state", &state))?,
        round,
        created_by: PlayerId(created_by),
        created_at: from_text(&created_at)?,
        version,
    })
}

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

pub(super) fn tournament(conn: &Connection, id: i64) -> Result<Option<TournamentRow>> {
    let sql = format!(
        "SELECT {TOURNAMENT_COLUMNS} FROM tournaments t JOIN channels c ON c.id = t.channel_id
         WHERE t.id = ?1"
    );
    conn.prepare_cached(&sql)?
        .query_row(params![id], tournament_row)
        .optional()?
        .map(to_tournament)
        .transpose()
}

pub(super) fn tournaments_in_channel(
    conn: &Connection,
    channel_id: i64,
) -> Result<Vec<TournamentRow>> {
    let sql = format!(
        "SELECT {TOURNAMENT_COLUMNS} FROM tournaments t JOIN channels c ON c.id = t.channel_id
         WHERE t.channel_id = ?1 ORDER BY t.id DESC"
    );
    let raw = conn
        .prepare_cached(&sql)?
        .query_map(params![channel_id], tournament_row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    raw.into_iter().map(to_tournament).collect()
}

pub(super) fn entrants(conn: &Connection, tournament_id: i64) -> Result<Vec<EntrantRow>> {
    let raw = conn
        .prepare_cached(
            "SELECT e.player_id, p.display_name, p.platform_id, e.joined_at, e.seed, e.withdrawn_at
             FROM tournament_entrants e JOIN players p ON p.id = e.player_id
             WHERE e.tournament_id = ?1 ORDER BY e.joined_at, e.player_id",
        )?
        .query_map(params![tournament_id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, Option<u32>>(4)?,
                r.get::<_, Option<String>>(5)?,
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    raw.into_iter()
        .map(|(player, name, platform_id, joined, seed, withdrawn)| {
            Ok(EntrantRow {
                player: PlayerId(player),
                name,
                platform_id,
                joined_at: from_text(&joined)?,
                seed,
                withdrawn_at: withdrawn.as_deref().map(from_text).transpose()?,
            })
        })
        .collect()
}

pub(super) fn pairings(conn: &Connection, tournament_id: i64) -> Result<Vec<PairingRow>> {
    type Raw = (
        (i64, u32, u32, i64, Option<i64>, Option<i64>, Option<String>),
        (
            Option<String>,
            Option<String>,
            Option<String>,
            Option<String>,
        ),
    );
    let raw: Vec<Raw> = conn
        .prepare_cached(
            "SELECT t.id, t.round, t.board, t.white_id, t.black_id, t.game_id, t.score,
                    g.status, g.result, g.reason, g.ended_at
             FROM tournament_games t LEFT JOIN games g ON g.id = t.game_id
             WHERE t.tournament_id = ?1 ORDER BY t.round, t.board, t.id",
        )?
        .query_map(params![tournament_id], |r| {
            Ok((
                (
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                ),
                (r.get(7)?, r.get(8)?, r.get(9)?, r.get(10)?),
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    raw.into_iter()
        .map(
            |(
                (id, round, board, white, black, game_id, score),
                (status, result, reason, ended),
            )| {
                Ok(PairingRow {
                    id,
                    round,
                    board,
                    white: PlayerId(white),
                    black: black.map(PlayerId),
                    game_id,
                    game_state: status
                        .map(|status| game_state(&status, result, reason, ended))
                        .transpose()?,
                    score: score
                        .map(|s| PairingScore::from_name(&s).ok_or_else(|| corrupt("score", &s)))
                        .transpose()?,
                })
            },
        )
        .collect()
}

pub(super) fn tournament_of_game(conn: &Connection, game_id: i64) -> Result<Option<i64>> {
    Ok(conn
        .prepare_cached("SELECT tournament_id FROM tournament_games WHERE game_id = ?1")?
        .query_row(params![game_id], |r| r.get(0))
        .optional()?)
}

pub(super) fn due(
    conn: &Connection,
    now: DateTime<Utc>,
    limit: usize,
) -> Result<Vec<DueTournament>> {
    Ok(conn
        .prepare_cached(
            "SELECT id, version FROM tournaments
             WHERE state = 'entry' AND entry_closes_at IS NOT NULL AND entry_closes_at <= ?1
             ORDER BY entry_closes_at LIMIT ?2",
        )?
        .query_map(params![to_text(now), limit as i64], |r| {
            Ok(DueTournament {
                id: r.get(0)?,
                version: r.get(1)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?)
}

pub(super) fn next_start(conn: &Connection) -> Result<Option<DateTime<Utc>>> {
    let next: Option<String> = conn
        .prepare_cached(
            "SELECT min(entry_closes_at) FROM tournaments
             WHERE state = 'entry' AND entry_closes_at IS NOT NULL",
        )?
        .query_row([], |r| r.get(0))?;
    next.as_deref().map(from_text).transpose()
}
