//! Daily digests: which are due, what a person is waiting for (their
//! open challenges, their leave), and the writes that set and advance them.
//!
//! A digest due is one account's `players.digest_next`; the scheduler
//! advances it in the commit that queues the digest, conditioned on the
//! value it read, and under a key made of the account and that instant, so
//! two processes (or a restart) never make one twice.

use chrono::{DateTime, Utc};

use super::commit::changed_one;
use super::rows::{self, PLAYER_COLUMNS, PLAYER_WIDTH};
use crate::core::game::PlayerId;
use crate::storage::sql::{Conn, params};
use crate::storage::{DigestWrite, DueDigest, PendingChallenge, Result};

/// The accounts of the person `?N` (a person's first account's id).
fn accounts(n: u8) -> String {
    format!("SELECT id FROM players WHERE COALESCE(person_id, id) = ?{n}")
}

/// Digests due at `now`, earliest first, at most `limit`.
pub async fn due_digests(
    c: &impl Conn,
    now: DateTime<Utc>,
    limit: usize,
) -> Result<Vec<DueDigest>> {
    let sql = format!(
        "SELECT {PLAYER_COLUMNS}, p.digest_next, p.digest_last FROM players p
         WHERE p.digest_next <= ?1 ORDER BY p.digest_next, p.id LIMIT ?2"
    );
    c.query_map(&sql, &params![now, limit as i64], |row| {
        Ok(DueDigest {
            player: rows::player(row, 0)?,
            due: row.time(PLAYER_WIDTH)?,
            last: row.opt_time(PLAYER_WIDTH + 1)?,
        })
    })
    .await
}

/// When the next digest is due, if any is asked for.
pub async fn next_digest(c: &impl Conn) -> Result<Option<DateTime<Utc>>> {
    let row = c
        .query_one("SELECT MIN(digest_next) FROM players", &params![])
        .await?;
    row.opt_time(0)
}

/// Whether any account of `person` is on leave at `now` (on any server).
pub async fn person_on_leave(c: &impl Conn, person: PlayerId, now: DateTime<Utc>) -> Result<bool> {
    let sql = format!(
        "SELECT COUNT(*) FROM leaves
         WHERE player_id IN ({}) AND ended_at IS NULL AND starts_at <= ?2 AND ends_at > ?2",
        accounts(1)
    );
    let row = c.query_one(&sql, &params![person, now]).await?;
    Ok(row.count(0)? > 0)
}

/// Open challenges to any account of `person` not expired at `now`,
/// oldest first, at most `limit`.
pub async fn challenges_to_person(
    c: &impl Conn,
    person: PlayerId,
    now: DateTime<Utc>,
    limit: usize,
) -> Result<Vec<PendingChallenge>> {
    let sql = format!(
        "SELECT ch.id, p.display_name, ch.expires_at FROM challenges ch
         JOIN players p ON p.id = ch.challenger_id
         WHERE ch.status = 'open' AND ch.expires_at > ?2 AND ch.challenged_id IN ({})
         ORDER BY ch.id LIMIT ?3",
        accounts(1)
    );
    c.query_map(&sql, &params![person, now, limit as i64], |row| {
        Ok(PendingChallenge {
            id: row.int(0)?,
            challenger: row.string(1)?,
            expires_at: row.time(2)?,
        })
    })
    .await
}

/// Writes a digest setting or a digest made (in the act's commit).
pub async fn write(c: &impl Conn, write: &DigestWrite) -> Result<()> {
    match write {
        DigestWrite::Setting {
            player,
            time_zone,
            minute,
            next,
        } => {
            c.execute(
                "UPDATE players SET time_zone = ?1, digest_minute = ?2, digest_next = NULL
                 WHERE COALESCE(person_id, id) =
                       (SELECT COALESCE(person_id, id) FROM players WHERE id = ?3)",
                &params![time_zone.as_deref(), minute.map(i64::from), *player],
            )
            .await?;
            c.execute(
                "UPDATE players SET digest_next = ?2 WHERE id = ?1",
                &params![*player, *next],
            )
            .await?;
            Ok(())
        }
        DigestWrite::Made {
            player,
            was,
            next,
            at,
        } => changed_one(
            c.execute(
                "UPDATE players SET digest_next = ?3, digest_last = ?4
                 WHERE id = ?1 AND digest_next = ?2",
                &params![*player, *was, *next, *at],
            )
            .await?,
        ),
    }
}
