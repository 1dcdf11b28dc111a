//! Servers, channels and players: found by their platform ids, created
//! when new, and an act's place opened in one round trip.

use crate::core::names::Named;
use chrono::{DateTime, Utc};

use super::games::ongoing_in_channel;
use super::rows::{self, PLAYER_COLUMNS, SERVER_COLUMNS};
use crate::core::game::PlayerId;
use crate::storage::sql::{Conn, params};
use crate::storage::{
    ActRequest, ChannelRow, OpenedAct, Platform, PlayerRow, Result, ServerDefaults, ServerRow,
    StorageError,
};

pub async fn find_server(
    c: &impl Conn,
    platform: Platform,
    platform_id: &str,
) -> Result<Option<ServerRow>> {
    let sql =
        format!("SELECT {SERVER_COLUMNS} FROM servers s WHERE platform = ?1 AND platform_id = ?2");
    c.query_opt_map(&sql, &params![platform.as_str(), platform_id], |row| {
        rows::server(row, 0)
    })
    .await
}

pub async fn server(c: &impl Conn, id: i64) -> Result<Option<ServerRow>> {
    let sql = format!("SELECT {SERVER_COLUMNS} FROM servers s WHERE s.id = ?1");
    c.query_opt_map(&sql, &params![id], |row| rows::server(row, 0))
        .await
}

/// Run in a write transaction.
pub async fn ensure_server(
    c: &impl Conn,
    platform: Platform,
    platform_id: &str,
    defaults: &ServerDefaults,
    now: DateTime<Utc>,
) -> Result<ServerRow> {
    if let Some(server) = find_server(c, platform, platform_id).await? {
        return Ok(server);
    }
    c.execute(
        "INSERT INTO servers (platform, platform_id, time_control, created_at)
         VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
        &params![platform.as_str(), platform_id, &defaults.time_control, now],
    )
    .await?;
    find_server(c, platform, platform_id)
        .await?
        .ok_or(StorageError::NotFound("server"))
}

async fn find_channel(c: &impl Conn, server_id: i64, platform_id: &str) -> Result<Option<i64>> {
    c.query_opt_map(
        "SELECT id FROM channels WHERE server_id = ?1 AND platform_id = ?2",
        &params![server_id, platform_id],
        |row| row.int(0),
    )
    .await
}

/// Run in a write transaction.
pub async fn ensure_channel(
    c: &impl Conn,
    server_id: i64,
    platform_id: &str,
) -> Result<ChannelRow> {
    let id = match find_channel(c, server_id, platform_id).await? {
        Some(id) => id,
        None => {
            c.execute(
                "INSERT INTO channels (server_id, platform_id) VALUES (?1, ?2)
                 ON CONFLICT DO NOTHING",
                &params![server_id, platform_id],
            )
            .await?;
            find_channel(c, server_id, platform_id)
                .await?
                .ok_or(StorageError::NotFound("channel"))?
        }
    };
    Ok(ChannelRow {
        id,
        server_id,
        platform_id: platform_id.to_owned(),
    })
}

pub async fn find_player(
    c: &impl Conn,
    platform: Platform,
    platform_id: &str,
) -> Result<Option<PlayerRow>> {
    let sql =
        format!("SELECT {PLAYER_COLUMNS} FROM players p WHERE platform = ?1 AND platform_id = ?2");
    c.query_opt_map(&sql, &params![platform.as_str(), platform_id], |row| {
        rows::player(row, 0)
    })
    .await
}

pub async fn player(c: &impl Conn, id: PlayerId) -> Result<Option<PlayerRow>> {
    let sql = format!("SELECT {PLAYER_COLUMNS} FROM players p WHERE p.id = ?1");
    c.query_opt_map(&sql, &params![id], |row| rows::player(row, 0))
        .await
}

/// Run in a write transaction: the player row, created when new, its
/// display name kept current.
pub async fn ensure_player(
    c: &impl Conn,
    platform: Platform,
    platform_id: &str,
    display_name: &str,
    now: DateTime<Utc>,
) -> Result<PlayerRow> {
    if let Some(mut player) = find_player(c, platform, platform_id).await? {
        if player.display_name != display_name {
            c.execute(
                "UPDATE players SET display_name = ?1 WHERE id = ?2",
                &params![display_name, player.id],
            )
            .await?;
            player.display_name = display_name.to_owned();
        }
        return Ok(player);
    }
    // Someone may have added the player since the read: then the name we
    // saw is the newer one.
    c.execute(
        "INSERT INTO players (platform, platform_id, display_name, created_at)
         VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (platform, platform_id) DO UPDATE SET display_name = excluded.display_name",
        &params![platform.as_str(), platform_id, display_name, now],
    )
    .await?;
    find_player(c, platform, platform_id)
        .await?
        .ok_or(StorageError::NotFound("player"))
}

pub async fn answer_of(c: &impl Conn, key: &str) -> Result<Option<String>> {
    c.query_opt_map(
        "SELECT answer FROM acts WHERE act_key = ?1",
        &params![key],
        |row| row.string(0),
    )
    .await
}

/// The common case of opening an act, read in one query: the stored answer
/// if the act was carried out, else its place, or `None` when a row must
/// be created or renamed first (then [`open_act_writing`] does it).
pub async fn open_act_reading(c: &impl Conn, request: &ActRequest) -> Result<Option<OpenedAct>> {
    let sql = format!(
        "SELECT (SELECT answer FROM acts WHERE act_key = ?1), {SERVER_COLUMNS}, c.id,
                {PLAYER_COLUMNS}
         FROM (SELECT 1) AS one
         LEFT JOIN servers s ON s.platform = ?2 AND s.platform_id = ?3
         LEFT JOIN channels c ON c.server_id = s.id AND c.platform_id = ?4
         LEFT JOIN players p ON p.platform = ?2 AND p.platform_id = ?5"
    );
    let row = c
        .query_one(
            &sql,
            &params![
                request.act_key.as_deref(),
                request.platform.as_str(),
                &request.server,
                &request.channel,
                &request.user_id
            ],
        )
        .await?;
    if let Some(answer) = row.opt_string(0)? {
        return Ok(Some(OpenedAct::Answered(answer)));
    }
    if row.is_null(1)? || row.is_null(10)? || row.is_null(11)? {
        return Ok(None);
    }
    let server = rows::server(&row, 1)?;
    let player = rows::player(&row, 11)?;
    let new_client_language =
        request.client_language.is_some() && request.client_language != player.client_language;
    if player.display_name != request.user_name || new_client_language {
        return Ok(None);
    }
    let channel = ChannelRow {
        id: row.int(10)?,
        server_id: server.id,
        platform_id: request.channel.clone(),
    };
    Ok(Some(OpenedAct::New {
        games_here: ongoing_in_channel(c, channel.id, player.id).await?,
        channel,
        server,
        player,
    }))
}

/// Run in a write transaction: opens an act whose place or player is new
/// or renamed, creating the rows (after looking for the key again).
pub async fn open_act_writing(
    c: &impl Conn,
    request: &ActRequest,
    now: DateTime<Utc>,
) -> Result<OpenedAct> {
    if let Some(key) = &request.act_key
        && let Some(answer) = answer_of(c, key).await?
    {
        return Ok(OpenedAct::Answered(answer));
    }
    let server =
        ensure_server(c, request.platform, &request.server, &request.defaults, now).await?;
    let channel = ensure_channel(c, server.id, &request.channel).await?;
    let mut player = ensure_player(
        c,
        request.platform,
        &request.user_id,
        &request.user_name,
        now,
    )
    .await?;
    if request.client_language.is_some() && request.client_language != player.client_language {
        c.execute(
            "UPDATE players SET client_language = ?1 WHERE id = ?2",
            &params![request.client_language.map(|l| l.as_str()), player.id],
        )
        .await?;
        player.client_language = request.client_language;
    }
    Ok(OpenedAct::New {
        games_here: ongoing_in_channel(c, channel.id, player.id).await?,
        server,
        channel,
        player,
    })
}
