//! Teams, their members, the games they play and their members' votes
//! (vote chess, issue 25).

use chrono::{DateTime, Utc};
use shakmaty::Color;

use super::clubs::in_same_club;
use super::commit::changed_one;
use crate::core::game::PlayerId;
use crate::core::names::Named;
use crate::storage::sql::{Conn, Row, params};
use crate::storage::{NewVote, Result, TeamChange, TeamRow, VoteRow};

/// What a stand-in player's platform id starts with: `@@` begins no
/// platform's user id (a Matrix id has one `@`), and a mention loses its
/// leading `@`s, so no user is ever taken for a team.
pub const STAND_IN_PREFIX: &str = "@@team:";

const TEAM_COLUMNS: &str = "t.id, t.server_id, t.name, t.player_id, t.created_by, t.created_at";

fn team(row: &Row, at: usize) -> Result<TeamRow> {
    Ok(TeamRow {
        id: row.int(at)?,
        server_id: row.int(at + 1)?,
        name: row.string(at + 2)?,
        player: PlayerId(row.int(at + 3)?),
        created_by: PlayerId(row.int(at + 4)?),
        created_at: row.time(at + 5)?,
    })
}

/// The team of server `server_id` whose name in lower case is `key`.
pub async fn team_by_name(c: &impl Conn, server_id: i64, key: &str) -> Result<Option<TeamRow>> {
    let sql =
        format!("SELECT {TEAM_COLUMNS} FROM teams t WHERE t.server_id = ?1 AND t.name_key = ?2");
    c.query_opt_map(&sql, &params![server_id, key], |row| team(row, 0))
        .await
}

/// A server's teams by name, then those of the other servers of its club
/// (a club has one team list), at most `limit`, each with its members'
/// names in the order they joined, and how many teams there are in all.
pub async fn teams(
    c: &impl Conn,
    server_id: i64,
    limit: usize,
) -> Result<(Vec<(TeamRow, Vec<String>)>, u32)> {
    // This server's first, then its club's other servers' (each by name).
    let sql = format!(
        "SELECT {TEAM_COLUMNS}, count(*) OVER () FROM teams t
         WHERE {} ORDER BY t.server_id <> ?1, t.server_id, t.name_key LIMIT ?2",
        in_same_club("t.server_id", 1)
    );
    let found = c.query(&sql, &params![server_id, limit as i64]).await?;
    let total = match found.first() {
        Some(row) => row.count(6)?,
        None => return Ok((Vec::new(), 0)),
    };
    let mut teams: Vec<(TeamRow, Vec<String>)> = found
        .iter()
        .map(|row| Ok((team(row, 0)?, Vec::new())))
        .collect::<Result<_>>()?;
    let sql = format!(
        "SELECT m.team_id, p.display_name FROM team_members m
         JOIN teams t ON t.id = m.team_id
         JOIN players p ON p.id = m.player_id
         WHERE {}
         ORDER BY m.team_id, m.joined_at, p.id",
        in_same_club("t.server_id", 1)
    );
    let members = c.query(&sql, &params![server_id]).await?;
    for row in members {
        let id = row.int(0)?;
        if let Some((_, names)) = teams.iter_mut().find(|(t, _)| t.id == id) {
            names.push(row.string(1)?);
        }
    }
    Ok((teams, total))
}

/// How many teams a server has.
pub async fn team_count(c: &impl Conn, server_id: i64) -> Result<u32> {
    c.query_one(
        "SELECT count(*) FROM teams WHERE server_id = ?1",
        &params![server_id],
    )
    .await?
    .count(0)
}

/// The teams of server `server_id` that `player` belongs to, by name.
pub async fn teams_of(c: &impl Conn, server_id: i64, player: PlayerId) -> Result<Vec<TeamRow>> {
    let sql = format!(
        "SELECT {TEAM_COLUMNS} FROM teams t
         JOIN team_members m ON m.team_id = t.id AND m.player_id = ?2
         WHERE t.server_id = ?1 ORDER BY t.name_key"
    );
    c.query_map(&sql, &params![server_id, player], |row| team(row, 0))
        .await
}

/// The members of team `team_id`, in the order they joined.
pub async fn members(c: &impl Conn, team_id: i64) -> Result<Vec<PlayerId>> {
    c.query_map(
        "SELECT player_id FROM team_members WHERE team_id = ?1 ORDER BY joined_at, player_id",
        &params![team_id],
        |row| Ok(PlayerId(row.int(0)?)),
    )
    .await
}

/// The teams playing game `game_id`, with their colours.
pub async fn game_teams(c: &impl Conn, game_id: i64) -> Result<Vec<(Color, TeamRow)>> {
    let sql = format!(
        "SELECT CASE WHEN t.player_id = g.white_id THEN 'white' ELSE 'black' END, {TEAM_COLUMNS}
         FROM games g JOIN teams t ON t.player_id IN (g.white_id, g.black_id)
         WHERE g.id = ?1"
    );
    c.query(&sql, &params![game_id])
        .await?
        .iter()
        .map(|row| {
            let side = match row.text(0)? {
                "white" => Color::White,
                _ => Color::Black,
            };
            Ok((side, team(row, 1)?))
        })
        .collect()
}

/// Whether team `team_id` plays a running game, or has a team match (a
/// match's table keeps naming its teams, finished or not).
pub async fn team_plays(c: &impl Conn, team_id: i64) -> Result<bool> {
    c.query_one(
        "SELECT EXISTS (
             SELECT 1 FROM teams t JOIN games g
               ON g.status = 'ongoing' AND t.player_id IN (g.white_id, g.black_id)
             WHERE t.id = ?1)
           OR EXISTS (
             SELECT 1 FROM team_matches WHERE home_team_id = ?1 OR away_team_id = ?1)",
        &params![team_id],
    )
    .await?
    .bool(0)
}

/// The running games in channel `channel_id` a team of `player`'s plays,
/// newest first.
pub async fn vote_games_in_channel(
    c: &impl Conn,
    channel_id: i64,
    player: PlayerId,
) -> Result<Vec<i64>> {
    c.query_map(
        "SELECT DISTINCT g.id FROM games g
         JOIN teams t ON t.player_id IN (g.white_id, g.black_id)
         JOIN team_members m ON m.team_id = t.id AND m.player_id = ?2
         WHERE g.channel_id = ?1 AND g.status = 'ongoing'
         ORDER BY g.id DESC",
        &params![channel_id, player],
        |row| row.int(0),
    )
    .await
}

/// The votes on move `ply` of game `game_id` by the members team
/// `team_id` has now, in the order they were cast.
pub async fn votes(c: &impl Conn, game_id: i64, ply: u32, team_id: i64) -> Result<Vec<VoteRow>> {
    c.query_map(
        "SELECT v.player_id, v.choice, v.offers_draw, v.seq FROM votes v
         JOIN team_members m ON m.player_id = v.player_id AND m.team_id = ?3
         WHERE v.game_id = ?1 AND v.ply = ?2
         ORDER BY v.seq",
        &params![game_id, ply, team_id],
        |row| {
            Ok(VoteRow {
                player: PlayerId(row.int(0)?),
                choice: row.string(1)?,
                offers_draw: row.bool(2)?,
                seq: row.int(3)?,
            })
        },
    )
    .await
}

/// Whether the members of vote game `game_id` may change their votes (as
/// its challenge said; a game from no challenge lets them).
pub async fn votes_changeable(c: &impl Conn, game_id: i64) -> Result<bool> {
    let row = c
        .query_opt(
            "SELECT ch.votes_changeable FROM games g
             JOIN challenges ch ON ch.id = g.challenge_id
             WHERE g.id = ?1",
            &params![game_id],
        )
        .await?;
    match row {
        Some(row) if !row.is_null(0)? => row.bool(0),
        _ => Ok(true),
    }
}

/// A team created, joined, left or deleted; returns a new team's id.
pub async fn write_change(c: &impl Conn, change: &TeamChange) -> Result<Option<i64>> {
    match change {
        TeamChange::Create {
            server_id,
            platform,
            name,
            name_key,
            created_by,
            at,
        } => {
            let created = c
                .query(
                    "INSERT INTO teams (server_id, name, name_key, created_by, created_at)
                     VALUES (?1, ?2, ?3, ?4, ?5)
                     ON CONFLICT (server_id, name_key) DO NOTHING RETURNING id",
                    &params![
                        *server_id,
                        name.as_str(),
                        name_key.as_str(),
                        *created_by,
                        *at
                    ],
                )
                .await?;
            let Some(row) = created.first() else {
                return Err(crate::storage::StorageError::Conflict);
            };
            let id = row.int(0)?;
            let stand_in = c
                .query_one(
                    "INSERT INTO players (platform, platform_id, display_name, notify, created_at)
                     VALUES (?1, ?2, ?3, 'off', ?4) RETURNING id",
                    &params![
                        platform.as_str(),
                        format!("{STAND_IN_PREFIX}{id}"),
                        name.as_str(),
                        *at
                    ],
                )
                .await?
                .int(0)?;
            c.execute(
                "UPDATE teams SET player_id = ?1 WHERE id = ?2",
                &params![stand_in, id],
            )
            .await?;
            join(c, id, *created_by, *at).await?;
            Ok(Some(id))
        }
        TeamChange::Join { team, player, at } => {
            join(c, *team, *player, *at).await?;
            Ok(None)
        }
        TeamChange::Leave { team, player } => {
            let left = c
                .execute(
                    "DELETE FROM team_members WHERE team_id = ?1 AND player_id = ?2",
                    &params![*team, *player],
                )
                .await?;
            changed_one(left)?;
            Ok(None)
        }
        TeamChange::Delete { team } => {
            if team_plays(c, *team).await? {
                return Err(crate::storage::StorageError::Conflict);
            }
            // Its open challenges could only start games nobody can vote in.
            c.execute(
                "UPDATE challenges SET status = 'cancelled'
                 WHERE status = 'open' AND EXISTS (
                     SELECT 1 FROM teams t WHERE t.id = ?1
                       AND t.player_id IN (challenges.challenger_id, challenges.challenged_id))",
                &params![*team],
            )
            .await?;
            c.execute(
                "DELETE FROM team_members WHERE team_id = ?1",
                &params![*team],
            )
            .await?;
            let deleted = c
                .execute("DELETE FROM teams WHERE id = ?1", &params![*team])
                .await?;
            changed_one(deleted)?;
            Ok(None)
        }
    }
}

async fn join(c: &impl Conn, team: i64, player: PlayerId, at: DateTime<Utc>) -> Result<()> {
    let joined = c
        .execute(
            "INSERT INTO team_members (team_id, player_id, joined_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (team_id, player_id) DO NOTHING",
            &params![team, player, at],
        )
        .await?;
    changed_one(joined)
}

/// A member's vote: a first one, or a change where allowed (a second vote
/// without `replaces` is a `Conflict`). Each is numbered after the move's
/// votes so far: a changed vote counts as cast anew.
pub async fn write_vote(c: &impl Conn, vote: &NewVote) -> Result<()> {
    let on_conflict = match vote.replaces {
        true => {
            "DO UPDATE SET choice = excluded.choice, offers_draw = excluded.offers_draw,
                           voted_at = excluded.voted_at, seq = excluded.seq"
        }
        false => "DO NOTHING",
    };
    let sql = format!(
        "INSERT INTO votes (game_id, ply, player_id, choice, offers_draw, voted_at, seq)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6,
                 (SELECT coalesce(max(seq), 0) + 1 FROM votes WHERE game_id = ?1 AND ply = ?2))
         ON CONFLICT (game_id, ply, player_id) {on_conflict}"
    );
    let written = c
        .execute(
            &sql,
            &params![
                vote.game_id,
                vote.ply,
                vote.player,
                vote.choice.as_str(),
                vote.offers_draw,
                vote.at
            ],
        )
        .await?;
    changed_one(written)
}
