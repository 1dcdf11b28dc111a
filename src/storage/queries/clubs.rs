//! Clubs of servers of either platform: who is invited, who is a member,
//! and the servers whose games one standings table counts.
//!
//! A club is formed by consent: a moderator of a member server invites
//! another server (`state = 'invited'`); only that server's own moderator
//! makes it a member. A server is a member of one club at most (a unique
//! index).

use chrono::{DateTime, Utc};

use super::commit::changed_one;
use super::rows::{self, SERVER_COLUMNS};
use crate::core::game::PlayerId;
use crate::core::names::Named;
use crate::storage::sql::{Conn, params};
use crate::storage::{
    ClubChange, ClubServer, Committed, GamePlace, NewGamePlace, Platform, Result, StorageError,
};

/// Whether the server column `column` is server `?N` or a server of its
/// club: the servers whose games count with `?N`'s.
pub fn in_same_club(column: &str, n: u8) -> String {
    format!(
        "({column} = ?{n} OR {column} IN (SELECT o.server_id FROM club_servers m
             JOIN club_servers o ON o.club_id = m.club_id AND o.state = 'member'
             WHERE m.server_id = ?{n} AND m.state = 'member'))"
    )
}

/// The club server `server_id` is a member of, if any.
pub async fn club_of_server(c: &impl Conn, server_id: i64) -> Result<Option<i64>> {
    c.query_opt_map(
        "SELECT club_id FROM club_servers WHERE server_id = ?1 AND state = 'member'",
        &params![server_id],
        |row| row.int(0),
    )
    .await
}

/// A club's servers, members first, each with whether it is a member.
pub async fn club_servers(c: &impl Conn, club_id: i64) -> Result<Vec<ClubServer>> {
    let sql = format!(
        "SELECT cs.state = 'member', {SERVER_COLUMNS} FROM club_servers cs
         JOIN servers s ON s.id = cs.server_id
         WHERE cs.club_id = ?1 ORDER BY cs.state DESC, cs.invited_at, s.id"
    );
    c.query_map(&sql, &params![club_id], |row| {
        Ok(ClubServer {
            member: row.bool(0)?,
            server: rows::server(row, 1)?,
        })
    })
    .await
}

/// Writes what an act did to a club (in its commit).
pub async fn write_change(
    c: &impl Conn,
    change: &ClubChange,
    now: DateTime<Utc>,
    committed: &mut Committed,
) -> Result<()> {
    match *change {
        ClubChange::Invite { club, home, guest } => {
            let club = match club {
                Some(club) => club,
                None => found(c, home, now).await?,
            };
            committed.club_id = Some(club);
            c.execute(
                "INSERT INTO club_servers (club_id, server_id, state, invited_at)
                 VALUES (?1, ?2, 'invited', ?3) ON CONFLICT DO NOTHING",
                &params![club, guest, now],
            )
            .await?;
        }
        ClubChange::Join { club, server } => changed_one(
            c.execute(
                "UPDATE club_servers SET state = 'member', joined_at = ?3
                 WHERE club_id = ?1 AND server_id = ?2 AND state = 'invited'",
                &params![club, server, now],
            )
            .await?,
        )?,
        ClubChange::Quit { club, server } => changed_one(
            c.execute(
                "DELETE FROM club_servers WHERE club_id = ?1 AND server_id = ?2",
                &params![club, server],
            )
            .await?,
        )?,
    }
    Ok(())
}

/// A new club with `home` its first member.
async fn found(c: &impl Conn, home: i64, now: DateTime<Utc>) -> Result<i64> {
    let club = c
        .query_one(
            "INSERT INTO clubs (founded_by, created_at) VALUES (?1, ?2) RETURNING id",
            &params![home, now],
        )
        .await?
        .int(0)?;
    c.execute(
        "INSERT INTO club_servers (club_id, server_id, state, invited_at, joined_at)
         VALUES (?1, ?2, 'member', ?3, ?3)",
        &params![club, home, now],
    )
    .await?;
    Ok(club)
}

/// Where the other player of game `game_id` plays it from, if it is a game
/// between two servers of a club.
pub async fn place_of_game(c: &impl Conn, game_id: i64) -> Result<Option<GamePlace>> {
    c.query_opt_map(
        "SELECT gp.player_id, gp.server_id, s.platform, ch.platform_id FROM game_places gp
         JOIN servers s ON s.id = gp.server_id JOIN channels ch ON ch.id = gp.channel_id
         WHERE gp.game_id = ?1",
        &params![game_id],
        |row| {
            Ok(GamePlace {
                player: PlayerId(row.int(0)?),
                server_id: row.int(1)?,
                platform: row.parsed(2, "platform", Platform::from_name)?,
                channel: row.string(3)?,
            })
        },
    )
    .await
}

/// Writes a new game's other place (in the commit that creates the game).
pub async fn write_place(c: &impl Conn, place: &NewGamePlace, committed: &Committed) -> Result<()> {
    let game = committed.game_id.ok_or(StorageError::NotFound("game"))?;
    insert_place(c, game, place).await
}

/// Writes where game `game`'s other player plays it from.
pub async fn insert_place(c: &impl Conn, game: i64, place: &NewGamePlace) -> Result<()> {
    c.execute(
        "INSERT INTO game_places (game_id, player_id, server_id, channel_id) VALUES (?1, ?2, ?3, ?4)",
        &params![game, place.player, place.server_id, place.channel_id],
    )
    .await?;
    Ok(())
}

/// Channel `id`'s platform id.
pub async fn channel_platform_id(c: &impl Conn, id: i64) -> Result<Option<String>> {
    c.query_opt_map(
        "SELECT platform_id FROM channels WHERE id = ?1",
        &params![id],
        |row| row.string(0),
    )
    .await
}

/// The server that founded club `club`: where the club's ratings are kept.
pub async fn club_founder(c: &impl Conn, club: i64) -> Result<Option<i64>> {
    c.query_opt_map(
        "SELECT founded_by FROM clubs WHERE id = ?1",
        &params![club],
        |row| row.int(0),
    )
    .await
}
