//! Linked accounts: the one-time codes that link them, the wrong codes
//! typed, a person's accounts, and a person's games on every server.
//!
//! A person is their first account's row; the others name it in
//! `players.person_id` (see `migrations/shared/0029_linked_accounts.sql`).

use chrono::{DateTime, Utc};

use super::commit::changed_one;
use super::rows::{self, PLAYER_COLUMNS};
use crate::core::game::PlayerId;
use crate::core::names::Named;
use crate::storage::sql::{Conn, params};
use crate::storage::{LinkChange, LinkCodeRow, PlacedGame, Platform, PlayerRow, Result};

/// The code kept under `hash`, if any (used or not, expired or not).
pub async fn link_code(c: &impl Conn, hash: &str) -> Result<Option<LinkCodeRow>> {
    c.query_opt_map(
        "SELECT player_id, expires_at, used_at FROM link_codes WHERE code_hash = ?1",
        &params![hash],
        |row| {
            Ok(LinkCodeRow {
                player: PlayerId(row.int(0)?),
                expires_at: row.time(1)?,
                used: !row.is_null(2)?,
            })
        },
    )
    .await
}

/// Wrong codes typed since `since`: by `player`, and by everyone.
pub async fn wrong_link_codes(
    c: &impl Conn,
    player: PlayerId,
    since: DateTime<Utc>,
) -> Result<(u32, u32)> {
    let row = c
        .query_one(
            "SELECT (SELECT COUNT(*) FROM link_attempts WHERE player_id = ?1 AND at > ?2),
                    (SELECT COUNT(*) FROM link_attempts WHERE at > ?2)",
            &params![player, since],
        )
        .await?;
    Ok((row.count(0)?, row.count(1)?))
}

/// Every account of the person `person` (their first account's id),
/// first account first.
pub async fn accounts_of(c: &impl Conn, person: PlayerId) -> Result<Vec<PlayerRow>> {
    let sql = format!(
        "SELECT {PLAYER_COLUMNS} FROM players p WHERE COALESCE(p.person_id, p.id) = ?1 ORDER BY p.id"
    );
    c.query_map(&sql, &params![person], |row| rows::player(row, 0))
        .await
}

/// Games of any account of `person`, with where each lives: the running
/// ones (newest first) or the finished ones (latest ended first), at most
/// `limit`.
pub async fn games_of_person(
    c: &impl Conn,
    person: PlayerId,
    finished: bool,
    limit: usize,
) -> Result<Vec<PlacedGame>> {
    let (status, order) = if finished {
        ("over", "g.ended_at DESC, g.id DESC")
    } else {
        ("ongoing", "g.id DESC")
    };
    let sql = format!(
        "SELECT g.id, s.platform, s.platform_id, ch.platform_id
         FROM games g
         JOIN servers s ON s.id = g.server_id
         JOIN channels ch ON ch.id = g.channel_id
         WHERE g.status = ?2
           AND (g.white_id IN (SELECT id FROM players WHERE COALESCE(person_id, id) = ?1)
                OR g.black_id IN (SELECT id FROM players WHERE COALESCE(person_id, id) = ?1))
         ORDER BY {order} LIMIT ?3"
    );
    c.query_map(&sql, &params![person, status, limit as i64], |row| {
        Ok(PlacedGame {
            id: row.int(0)?,
            platform: row.parsed(1, "platform", Platform::from_name)?,
            server: row.string(2)?,
            channel: row.string(3)?,
        })
    })
    .await
}

/// Writes what an act did to links (in the act's commit).
pub async fn write_change(c: &impl Conn, change: &LinkChange, now: DateTime<Utc>) -> Result<()> {
    match change {
        LinkChange::NewCode {
            hash,
            player,
            expires_at,
        } => {
            c.execute(
                "INSERT INTO link_codes (code_hash, player_id, created_at, expires_at)
                 VALUES (?1, ?2, ?3, ?4)",
                &params![hash.as_str(), *player, now, *expires_at],
            )
            .await?;
        }
        LinkChange::WrongCode { player } => {
            c.execute(
                "INSERT INTO link_attempts (player_id, at) VALUES (?1, ?2)",
                &params![*player, now],
            )
            .await?;
        }
        LinkChange::Redeem {
            hash,
            account,
            person,
        } => redeem(c, hash, *account, *person, now).await?,
        LinkChange::Unlink { account } => unlink(c, *account).await?,
    }
    Ok(())
}

/// Uses the code (refused with `Conflict` if it was used or expired since
/// the act read it) and links `account` to `person`, taking the person's
/// settings (refused with `Conflict` if `account` was linked meanwhile).
async fn redeem(
    c: &impl Conn,
    hash: &str,
    account: PlayerId,
    person: PlayerId,
    now: DateTime<Utc>,
) -> Result<()> {
    changed_one(
        c.execute(
            "UPDATE link_codes SET used_at = ?2, used_by = ?3
             WHERE code_hash = ?1 AND used_at IS NULL AND expires_at > ?2",
            &params![hash, now, account],
        )
        .await?,
    )?;
    changed_one(
        c.execute(
            "UPDATE players SET person_id = ?2,
                 language = (SELECT language FROM players WHERE id = ?2),
                 notify = (SELECT notify FROM players WHERE id = ?2),
                 notation = (SELECT notation FROM players WHERE id = ?2),
                 notation_letters = (SELECT notation_letters FROM players WHERE id = ?2),
                 time_zone = (SELECT time_zone FROM players WHERE id = ?2),
                 digest_minute = (SELECT digest_minute FROM players WHERE id = ?2),
                 digest_next = NULL
             WHERE id = ?1 AND person_id IS NULL
               AND NOT EXISTS (SELECT 1 FROM players o WHERE o.person_id = ?1)",
            &params![account, person],
        )
        .await?,
    )
}

/// Takes `account` out of its person. When it was the person's first
/// account, the next one becomes the first of those that stay.
async fn unlink(c: &impl Conn, account: PlayerId) -> Result<()> {
    c.execute(
        "UPDATE players SET person_id = NULL WHERE id = ?1",
        &params![account],
    )
    .await?;
    c.execute(
        "UPDATE players SET person_id = (SELECT MIN(o.id) FROM players o WHERE o.person_id = ?1)
         WHERE person_id = ?1",
        &params![account],
    )
    .await?;
    c.execute(
        "UPDATE players SET person_id = NULL WHERE person_id = id",
        &params![],
    )
    .await?;
    Ok(())
}
