//! Where the bot still is: servers it was removed from (their notices wait
//! and their clocks stop) and channels deleted (their notices go to the
//! players directly); and how far an act's answer came while its own
//! process is still sending it.

use chrono::{DateTime, Utc};

use crate::core::names::Named;

use crate::storage::sql::{Conn, params};
use crate::storage::{Platform, Result};

/// Marks the server `platform_id` absent since `at`; its id, if it was
/// present (a server the bot never saw, or already absent, is left alone).
pub async fn set_absent(
    c: &impl Conn,
    platform: Platform,
    platform_id: &str,
    at: DateTime<Utc>,
) -> Result<Option<i64>> {
    c.query_opt_map(
        "UPDATE servers SET absent_since = ?3
         WHERE platform = ?1 AND platform_id = ?2 AND absent_since IS NULL
         RETURNING id",
        &params![platform.as_str(), platform_id, at],
        |row| row.int(0),
    )
    .await
}

/// Marks the server `platform_id` present again; its id and since when it
/// was absent, if it was.
pub async fn set_present(
    c: &impl Conn,
    platform: Platform,
    platform_id: &str,
) -> Result<Option<(i64, DateTime<Utc>)>> {
    // The old value first: RETURNING gives the new one.
    let Some((id, since)) = c
        .query_opt_map(
            "SELECT id, absent_since FROM servers
             WHERE platform = ?1 AND platform_id = ?2 AND absent_since IS NOT NULL",
            &params![platform.as_str(), platform_id],
            |row| Ok((row.int(0)?, row.time(1)?)),
        )
        .await?
    else {
        return Ok(None);
    };
    c.execute(
        "UPDATE servers SET absent_since = NULL WHERE id = ?1",
        &params![id],
    )
    .await?;
    Ok(Some((id, since)))
}

/// The platform ids of `platform`'s servers the bot is absent from.
pub async fn absent_servers(c: &impl Conn, platform: Platform) -> Result<Vec<String>> {
    c.query_map(
        "SELECT platform_id FROM servers WHERE platform = ?1 AND absent_since IS NOT NULL
         ORDER BY id",
        &params![platform.as_str()],
        |row| row.string(0),
    )
    .await
}

/// When the bot left server `id`, if it is absent.
pub async fn absent_since(c: &impl Conn, id: i64) -> Result<Option<DateTime<Utc>>> {
    let row = c
        .query_opt(
            "SELECT absent_since FROM servers WHERE id = ?1",
            &params![id],
        )
        .await?;
    match row {
        Some(row) => row.opt_time(0),
        None => Ok(None),
    }
}

/// Marks the channel `platform_id` of server `server_id` deleted at `at`;
/// its id, if it was not already.
pub async fn set_gone(
    c: &impl Conn,
    server_id: i64,
    platform_id: &str,
    at: DateTime<Utc>,
) -> Result<Option<i64>> {
    c.query_opt_map(
        "UPDATE channels SET gone_since = ?3
         WHERE server_id = ?1 AND platform_id = ?2 AND gone_since IS NULL
         RETURNING id",
        &params![server_id, platform_id, at],
        |row| row.int(0),
    )
    .await
}

/// The running games of a server, by id after `after`, at most `limit`.
pub async fn running_on_server(
    c: &impl Conn,
    server_id: i64,
    after: i64,
    limit: usize,
) -> Result<Vec<i64>> {
    c.query_map(
        "SELECT id FROM games WHERE server_id = ?1 AND status = 'ongoing' AND id > ?2
         ORDER BY id LIMIT ?3",
        &params![server_id, after, limit as i64],
        |row| row.int(0),
    )
    .await
}

/// The running games of a channel, at most `limit`.
pub async fn running_in_channel(c: &impl Conn, channel_id: i64, limit: usize) -> Result<Vec<i64>> {
    c.query_map(
        "SELECT id FROM games WHERE channel_id = ?1 AND status = 'ongoing' ORDER BY id LIMIT ?2",
        &params![channel_id, limit as i64],
        |row| row.int(0),
    )
    .await
}

/// Records that the act `key`'s own process delivered its answer up to
/// item `next_item`, part `next_part` of it (see [`super::outbox::part_sent`]),
/// and is still sending: the outbox takes over from there only if nothing
/// more happens until `until` (the hold restarts). An act already handed to
/// the outbox keeps its due time; either way the progress only grows.
pub async fn delivering(
    c: &impl Conn,
    key: &str,
    next_item: u32,
    next_part: u32,
    until: DateTime<Utc>,
) -> Result<()> {
    let hold = if c.numbers_in_commit_order() {
        // SQLite: the hold waits in the row.
        "held_until = CASE WHEN held_until IS NULL THEN NULL ELSE ?3 END"
    } else {
        // PostgreSQL: the hold is the due time, unless a worker claimed the
        // act (its lease is later than any hold) or it is settled (NULL).
        "due_at = CASE WHEN due_at IS NOT NULL AND due_at < ?3 THEN ?3 ELSE due_at END"
    };
    let sql = format!(
        "UPDATE acts SET
             next_part = CASE WHEN next_item < ?2 THEN ?4
                              WHEN next_item = ?2 AND next_part < ?4 THEN ?4
                              ELSE next_part END,
             next_item = CASE WHEN next_item < ?2 THEN ?2 ELSE next_item END, {hold}
         WHERE act_key = ?1"
    );
    c.execute(&sql, &params![key, next_item, until, next_part])
        .await?;
    Ok(())
}

/// Whether `platform`'s channel `platform_id` was deleted.
pub async fn channel_gone(c: &impl Conn, platform: Platform, platform_id: &str) -> Result<bool> {
    let row = c
        .query_opt(
            "SELECT 1 FROM channels c JOIN servers s ON s.id = c.server_id
             WHERE s.platform = ?1 AND c.platform_id = ?2 AND c.gone_since IS NOT NULL",
            &params![platform.as_str(), platform_id],
        )
        .await?;
    Ok(row.is_some())
}
