//! The outbox: which acts' notices are still to be delivered, and how far
//! their delivery has come. The notices are the act's stored answer; both
//! are one `acts` row, written in the act's own commit (`commit.rs`).

use std::sync::LazyLock;

use chrono::{DateTime, Utc};

use crate::core::names::Named;
use crate::storage::sql::{Conn, Value, params};
use crate::storage::{NoticeProgress, NoticeTrouble, Platform, QueuedNotices, Result};

/// Claims up to `limit` acts whose notices are due on `platform`, in the
/// order they committed, until `lease_until`: another worker (in this process or another)
/// skips them meanwhile, and a worker that dies gives them back then. The
/// claim re-checks each row's due instant, so on PostgreSQL a row another
/// worker claimed first is passed over, not claimed twice.
pub async fn claim(
    c: &impl Conn,
    platform: Platform,
    now: DateTime<Utc>,
    lease_until: DateTime<Utc>,
    limit: usize,
) -> Result<Vec<QueuedNotices>> {
    let claimed = c
        .query(
            "UPDATE acts SET due_at = ?3
             WHERE due_at <= ?2 AND id IN (
                 SELECT id FROM acts WHERE platform = ?1 AND due_at <= ?2
                 ORDER BY id LIMIT ?4)
             RETURNING id, act_key, answer, next_item, attempts, failures, processed_at",
            &params![platform.as_str(), now, lease_until, limit as i64],
        )
        .await?;
    let mut queued = claimed
        .iter()
        .map(|row| {
            let notices = QueuedNotices {
                act_key: row.string(1)?,
                answer: row.string(2)?,
                next_item: row.count(3)?,
                attempts: row.count(4)?,
                failures: row.count(5)?,
                created_at: row.time(6)?,
            };
            Ok((row.int(0)?, notices))
        })
        .collect::<Result<Vec<_>>>()?;
    // In the order the acts committed (RETURNING promises no order).
    queued.sort_by_key(|(id, _)| *id);
    Ok(queued.into_iter().map(|(_, notices)| notices).collect())
}

/// Records how far a worker got with the act `key`'s notices.
pub async fn settle(c: &impl Conn, key: &str, progress: &NoticeProgress) -> Result<()> {
    c.execute(
        "UPDATE acts SET next_item = ?2, attempts = ?3, failures = ?4, last_error = ?5,
                           due_at = ?6
         WHERE act_key = ?1",
        &params![
            key,
            progress.next_item,
            progress.attempts,
            progress.failures,
            progress.last_error.as_deref(),
            progress.due_at
        ],
    )
    .await?;
    Ok(())
}

/// Marks the acts `keys` as answered by their own process: nothing of theirs
/// is left for a worker. (Even a row a worker took up once the hold was
/// over: the answer is out, so whatever the worker records is moot.)
pub async fn settle_answered(c: &impl Conn, keys: &[String]) -> Result<()> {
    // In batches of one size, a short one filled up by repeating its keys:
    // one statement for every batch, prepared once, where a list of each
    // length would be a statement of its own pushing the acts' statements
    // out of the connection's cache.
    for batch in keys.chunks(SETTLE_BATCH) {
        let values: Vec<Value> = (0..SETTLE_BATCH)
            .map(|n| Value::Text(batch[n % batch.len()].clone()))
            .collect();
        c.execute(&SETTLE, &values).await?;
    }
    Ok(())
}

/// How many acts one statement settles.
const SETTLE_BATCH: usize = 32;

static SETTLE: LazyLock<String> = LazyLock::new(|| {
    let marks: Vec<String> = (1..=SETTLE_BATCH).map(|n| format!("?{n}")).collect();
    format!(
        "UPDATE acts SET due_at = NULL WHERE due_at IS NOT NULL AND act_key IN ({})",
        marks.join(", ")
    )
});

/// What the notices for `server_id` committed since `since` met: refusals
/// (with the latest reason) and acts waiting for another try.
pub async fn trouble(c: &impl Conn, server_id: i64, since: DateTime<Utc>) -> Result<NoticeTrouble> {
    let counts = c
        .query_one(
            // PostgreSQL sums bigints as numeric: cast back.
            "SELECT CAST(coalesce(sum(failures), 0) AS bigint),
                    CAST(count(*) FILTER (WHERE attempts > 0 AND due_at IS NOT NULL) AS bigint)
             FROM acts WHERE server_id = ?1 AND processed_at >= ?2",
            &params![server_id, since],
        )
        .await?;
    let latest = c
        .query(
            "SELECT last_error FROM acts
             WHERE server_id = ?1 AND processed_at >= ?2 AND failures > 0 AND last_error IS NOT NULL
             ORDER BY processed_at DESC LIMIT 1",
            &params![server_id, since],
        )
        .await?;
    Ok(NoticeTrouble {
        refused: counts.count(0)?,
        waiting: counts.count(1)?,
        last_error: latest.first().map(|row| row.string(0)).transpose()?,
    })
}

/// The earliest instant a notice on `platform` is due (a claim's end included).
pub async fn next_due(c: &impl Conn, platform: Platform) -> Result<Option<DateTime<Utc>>> {
    c.query_one(
        "SELECT min(due_at) FROM acts WHERE platform = ?1 AND due_at IS NOT NULL",
        &params![platform.as_str()],
    )
    .await?
    .opt_time(0)
}
