//! Team matches: their rows, sign-ups and games, and what a commit writes
//! to them (issue 25).

use super::commit::{changed_one, insert_game};
use super::rows;
use crate::core::game::PlayerId;
use crate::core::names::Named;
use crate::storage::sql::{Conn, Row, params};
use crate::storage::{
    Committed, MatchChange, MatchEntrant, MatchGameRow, MatchRow, MatchSide, MatchState, MatchTeam,
    NewGame, NewGamePlace, NewMatch, Result,
};
use chrono::{DateTime, Utc};

const MATCH_COLUMNS: &str = "m.id, m.home_server_id, m.home_channel_id, hc.platform_id,
    m.home_team_id, ht.name, m.away_server_id, m.away_channel_id, ac.platform_id,
    m.away_team_id, awt.name, m.boards, m.time_control, m.state, m.created_by, m.created_at,
    m.version";

const MATCH_TABLES: &str = "team_matches m
    JOIN channels hc ON hc.id = m.home_channel_id
    JOIN teams ht ON ht.id = m.home_team_id
    LEFT JOIN channels ac ON ac.id = m.away_channel_id
    JOIN teams awt ON awt.id = m.away_team_id";

/// The games of matches the away side plays from channel `?1`: a filter
/// on `g`, shared by the queries that find a player's games in a channel.
pub const AWAY_GAMES_IN_CHANNEL: &str = "(g.id IN (
    SELECT mg.game_id FROM match_games mg JOIN team_matches m ON m.id = mg.match_id
    WHERE m.away_channel_id = ?1)
    OR g.id IN (SELECT gp.game_id FROM game_places gp WHERE gp.channel_id = ?1))";

fn match_row(row: &Row) -> Result<MatchRow> {
    let channel = |id: usize| -> Result<Option<(i64, String)>> {
        Ok(match row.opt_int(id)? {
            Some(channel) => Some((channel, row.string(id + 1)?)),
            None => None,
        })
    };
    Ok(MatchRow {
        id: row.int(0)?,
        home: MatchTeam {
            server_id: row.int(1)?,
            channel: channel(2)?,
            team_id: row.int(4)?,
            team_name: row.string(5)?,
        },
        away: MatchTeam {
            server_id: row.int(6)?,
            channel: channel(7)?,
            team_id: row.int(9)?,
            team_name: row.string(10)?,
        },
        boards: row.count(11)?,
        time_control: row.string(12)?,
        state: row.parsed(13, "match state", MatchState::from_name)?,
        created_by: PlayerId(row.int(14)?),
        created_at: row.time(15)?,
        version: row.int(16)?,
    })
}

/// Match `id`.
pub async fn team_match(c: &impl Conn, id: i64) -> Result<Option<MatchRow>> {
    let sql = format!("SELECT {MATCH_COLUMNS} FROM {MATCH_TABLES} WHERE m.id = ?1");
    c.query_opt_map(&sql, &params![id], match_row).await
}

/// The latest match of a server, home or away.
pub async fn latest_match(c: &impl Conn, server_id: i64) -> Result<Option<MatchRow>> {
    let sql = format!(
        "SELECT {MATCH_COLUMNS} FROM {MATCH_TABLES}
         WHERE m.id = (SELECT max(id) FROM team_matches
                       WHERE home_server_id = ?1 OR away_server_id = ?1)"
    );
    c.query_opt_map(&sql, &params![server_id], match_row).await
}

/// The match game `game_id` belongs to, if any.
pub async fn match_of_game(c: &impl Conn, game_id: i64) -> Result<Option<MatchRow>> {
    let sql = format!(
        "SELECT {MATCH_COLUMNS} FROM {MATCH_TABLES}
         JOIN match_games mg ON mg.match_id = m.id WHERE mg.game_id = ?1"
    );
    c.query_opt_map(&sql, &params![game_id], match_row).await
}

/// The matches not over that `player` signed up for with team `team_id`
/// (and did not withdraw from), oldest first.
pub async fn matches_joined(
    c: &impl Conn,
    team_id: i64,
    player: PlayerId,
) -> Result<Vec<MatchRow>> {
    let sql = format!(
        "SELECT {MATCH_COLUMNS} FROM {MATCH_TABLES}
         JOIN match_players mp ON mp.match_id = m.id AND mp.player_id = ?2
                              AND mp.withdrawn_at IS NULL
         WHERE m.state <> 'over'
           AND ((mp.side = 'home' AND m.home_team_id = ?1)
             OR (mp.side = 'away' AND m.away_team_id = ?1))
         ORDER BY m.id"
    );
    c.query_map(&sql, &params![team_id, player], match_row)
        .await
}

/// The members signed up for a match, in their order of sign-up.
pub async fn entrants(c: &impl Conn, match_id: i64) -> Result<Vec<MatchEntrant>> {
    c.query_map(
        "SELECT mp.player_id, p.display_name, p.platform_id, mp.side, mp.seq, mp.withdrawn_at
         FROM match_players mp JOIN players p ON p.id = mp.player_id
         WHERE mp.match_id = ?1 ORDER BY mp.seq",
        &params![match_id],
        |row| {
            Ok(MatchEntrant {
                player: PlayerId(row.int(0)?),
                name: row.string(1)?,
                platform_id: row.string(2)?,
                side: row.parsed(3, "match side", MatchSide::from_name)?,
                seq: row.int(4)?,
                withdrawn_at: row.opt_time(5)?,
            })
        },
    )
    .await
}

/// A match's games by board, each board's games in the order created.
pub async fn games(c: &impl Conn, match_id: i64) -> Result<Vec<MatchGameRow>> {
    c.query_map(
        "SELECT mg.game_id, mg.board, g.white_id, g.black_id, g.status, g.result, g.reason,
                g.ended_at
         FROM match_games mg JOIN games g ON g.id = mg.game_id
         WHERE mg.match_id = ?1 ORDER BY mg.board, mg.game_id",
        &params![match_id],
        |row| {
            Ok(MatchGameRow {
                game_id: row.int(0)?,
                board: row.count(1)?,
                white: PlayerId(row.int(2)?),
                black: PlayerId(row.int(3)?),
                state: rows::game_state(row, 4)?,
            })
        },
    )
    .await
}

/// A match change; a created match's id and a start's games go into `committed`.
pub async fn write_change(
    c: &impl Conn,
    change: &MatchChange,
    now: DateTime<Utc>,
    committed: &mut Committed,
) -> Result<()> {
    match change {
        MatchChange::Create(new) => committed.match_id = Some(insert_match(c, new).await?),
        MatchChange::Accept {
            id,
            expected_version,
            away_channel_id,
        } => {
            let changed = c
                .execute(
                    "UPDATE team_matches SET away_channel_id = ?3, state = 'signup',
                         version = version + 1
                     WHERE id = ?1 AND version = ?2 AND state = 'proposed'",
                    &params![*id, *expected_version, *away_channel_id],
                )
                .await?;
            changed_one(changed)?;
        }
        MatchChange::Join {
            id,
            player,
            side,
            at,
        } => sign_up(c, *id, *player, *side, *at).await?,
        MatchChange::Withdraw { id, player, at } => {
            // Before the start, as a sign-up does (a later withdrawal
            // ends games, which move the version on).
            c.execute(
                "UPDATE team_matches SET version = version + 1
                 WHERE id = ?1 AND state IN ('proposed', 'signup')",
                &params![*id],
            )
            .await?;
            let changed = c
                .execute(
                    "UPDATE match_players SET withdrawn_at = ?3
                     WHERE match_id = ?1 AND player_id = ?2 AND withdrawn_at IS NULL",
                    &params![*id, *player, *at],
                )
                .await?;
            changed_one(changed)?;
        }
        MatchChange::Start {
            id,
            expected_version,
            games,
            places,
            at,
        } => {
            let started = (*id, *expected_version, *at);
            start_match(c, started, games, places, now, committed).await?;
        }
        MatchChange::GameEnded {
            id,
            expected_version,
            over_at,
        } => {
            let changed = c
                .execute(
                    "UPDATE team_matches SET version = version + 1,
                         state = CASE WHEN ?4 THEN 'over' ELSE state END, ended_at = ?3
                     WHERE id = ?1 AND version = ?2 AND state = 'running'",
                    &params![*id, *expected_version, *over_at, over_at.is_some()],
                )
                .await?;
            changed_one(changed)?;
        }
    }
    Ok(())
}

/// Creates a proposed match; returns its id.
async fn insert_match(c: &impl Conn, new: &NewMatch) -> Result<i64> {
    c.query_one(
        "INSERT INTO team_matches (home_server_id, home_channel_id, home_team_id,
             away_server_id, away_team_id, boards, time_control, state, created_by,
             created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'proposed', ?8, ?9) RETURNING id",
        &params![
            new.home_server_id,
            new.home_channel_id,
            new.home_team_id,
            new.away_server_id,
            new.away_team_id,
            i64::from(new.boards),
            new.time_control.as_str(),
            new.created_by,
            new.at
        ],
    )
    .await?
    .int(0)
}

/// Signs `player` up for match `id` on `side`.
async fn sign_up(
    c: &impl Conn,
    id: i64,
    player: PlayerId,
    side: MatchSide,
    at: DateTime<Utc>,
) -> Result<()> {
    // Only while sign-up is open; the version moves on, so a start
    // that read the sign-ups before this one is refused and looks again.
    open_sign_up(c, id).await?;
    // Numbered after the sign-ups so far: a return counts as new.
    let changed = c
        .execute(
            "INSERT INTO match_players (match_id, player_id, side, joined_at, seq)
             VALUES (?1, ?2, ?3, ?4,
                     (SELECT coalesce(max(seq), 0) + 1 FROM match_players
                      WHERE match_id = ?1))
             ON CONFLICT (match_id, player_id) DO UPDATE
                 SET withdrawn_at = NULL, joined_at = excluded.joined_at,
                     seq = excluded.seq, side = excluded.side
                 WHERE match_players.withdrawn_at IS NOT NULL",
            &params![id, player, side.as_str(), at],
        )
        .await?;
    changed_one(changed)
}

/// Starts match `id` (read at `expected_version`) `at` an instant, with
/// its `games` by board and their away players' `places`; their ids go
/// into `committed`.
async fn start_match(
    c: &impl Conn,
    (id, expected_version, at): (i64, i64, DateTime<Utc>),
    games: &[(u32, NewGame)],
    places: &[Option<NewGamePlace>],
    now: DateTime<Utc>,
    committed: &mut Committed,
) -> Result<()> {
    let changed = c
        .execute(
            "UPDATE team_matches SET state = 'running', started_at = ?3,
                 version = version + 1
             WHERE id = ?1 AND version = ?2 AND state = 'signup'",
            &params![id, expected_version, at],
        )
        .await?;
    changed_one(changed)?;
    for (index, (board, game)) in games.iter().enumerate() {
        let game_id = insert_game(c, game, now).await?;
        c.execute(
            "INSERT INTO match_games (game_id, match_id, board) VALUES (?1, ?2, ?3)",
            &params![game_id, id, i64::from(*board)],
        )
        .await?;
        if let Some(Some(place)) = places.get(index) {
            super::clubs::insert_place(c, game_id, place).await?;
        }
        committed.match_games.push(game_id);
    }
    Ok(())
}

/// Moves an open match's version on; `Conflict` once sign-up is closed.
async fn open_sign_up(c: &impl Conn, id: i64) -> Result<()> {
    let changed = c
        .execute(
            "UPDATE team_matches SET version = version + 1
             WHERE id = ?1 AND state IN ('proposed', 'signup')",
            &params![id],
        )
        .await?;
    changed_one(changed)
}
