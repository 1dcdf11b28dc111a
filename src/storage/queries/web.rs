//! What the web pages need that no other part reads: a game's link token
//! (made once, then kept), the game a token names, and the versions of
//! the games someone is watching (one statement per tick of the watcher,
//! however many watch).

use super::super::sql::{Conn, Value, params};
use super::super::{Result, StorageError};

/// A new page token: 128 bits from the operating system's CSPRNG, as 32
/// lowercase hex digits (so it never needs escaping in a URL or a page).
pub fn fresh_token() -> Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)
        .map_err(|e| StorageError::Backend(format!("no random bytes for a page token: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether `text` has the shape of a token ([`fresh_token`]): checked
/// before any lookup, so a malformed link costs no query.
pub fn is_token(text: &str) -> bool {
    text.len() == 32 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Game `game_id`'s token: `fresh` if the game had none yet (it is kept),
/// else the one it has; `None` when there is no such game.
pub async fn game_token(c: &impl Conn, game_id: i64, fresh: &str) -> Result<Option<String>> {
    let exists = c
        .query_opt("SELECT 1 FROM games WHERE id = ?1", &params![game_id])
        .await?
        .is_some();
    if !exists {
        return Ok(None);
    }
    c.execute(
        "INSERT INTO game_links (game_id, token) VALUES (?1, ?2) ON CONFLICT (game_id) DO NOTHING",
        &params![game_id, fresh],
    )
    .await?;
    c.query_opt_map(
        "SELECT token FROM game_links WHERE game_id = ?1",
        &params![game_id],
        |row| row.string(0),
    )
    .await
}

/// The game whose token is `token`, if any.
pub async fn game_by_token(c: &impl Conn, token: &str) -> Result<Option<i64>> {
    c.query_opt_map(
        "SELECT game_id FROM game_links WHERE token = ?1",
        &params![token],
        |row| row.int(0),
    )
    .await
}

/// The game's token, if it has one already (a page links the games it lists
/// only when they have one: a page never makes a link).
pub async fn token_of(c: &impl Conn, game_id: i64) -> Result<Option<String>> {
    c.query_opt_map(
        "SELECT token FROM game_links WHERE game_id = ?1",
        &params![game_id],
        |row| row.string(0),
    )
    .await
}

/// The most games whose versions one statement reads.
pub const VERSIONS_AT_ONCE: usize = 500;

/// The stored version of each of `ids` (at most [`VERSIONS_AT_ONCE`]; the
/// rest are not read), for the games that exist.
pub async fn game_versions(c: &impl Conn, ids: &[i64]) -> Result<Vec<(i64, i64)>> {
    let ids = &ids[..ids.len().min(VERSIONS_AT_ONCE)];
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let marks: Vec<String> = (1..=ids.len()).map(|i| format!("?{i}")).collect();
    let sql = format!(
        "SELECT id, version FROM games WHERE id IN ({})",
        marks.join(", ")
    );
    let values: Vec<Value> = ids.iter().map(|id| Value::from(*id)).collect();
    c.query_map(&sql, &values, |row| Ok((row.int(0)?, row.int(1)?)))
        .await
}

/// `player`'s games on a server, at most `limit` after skipping `skip`:
/// those going on first, then the finished ones, the last ended first.
pub async fn player_games(
    c: &impl Conn,
    server_id: i64,
    player: crate::core::game::PlayerId,
    limit: u32,
    skip: u32,
) -> Result<Vec<crate::storage::GameSummary>> {
    let sql = format!(
        "SELECT {}
         FROM games g JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id
         WHERE g.server_id = ?1 AND (g.white_id = ?2 OR g.black_id = ?2)
         ORDER BY CASE WHEN g.status = 'ongoing' THEN 0 ELSE 1 END, g.ended_at DESC, g.id DESC
         LIMIT ?3 OFFSET ?4",
        super::rows::SUMMARY_COLUMNS
    );
    c.query_map(
        &sql,
        &params![server_id, player, limit, skip],
        super::rows::summary,
    )
    .await
}
