//! The outbox: which acts' notices are still to be delivered, and how far
//! their delivery has come. The notices are the act's stored answer; both
//! are one `acts` row, written in the act's own commit (`commit.rs`).
//!
//! A user's act is held for the process that answers it. Where acts are
//! numbered in commit order (SQLite), the hold waits in the row
//! (`held_until`) rather than in the due index, and [`HoldStep`] reads on
//! from where every earlier hold was done with, to make due the acts whose
//! hold ran out unanswered; elsewhere the hold is the act's due instant.

use std::sync::LazyLock;

use chrono::{DateTime, Utc};

use crate::core::names::Named;
use crate::storage::sql::{Conn, Value, params};
use crate::storage::{NoticeProgress, NoticeTrouble, Platform, QueuedNotices, Result};

/// Claims up to `limit` acts whose notices are due on `platform` (for a
/// server the bot is in), in the order they committed, until
/// `lease_until`: another worker (in this process or another)
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
    let sql = format!(
        "UPDATE acts SET due_at = ?3
             WHERE due_at <= ?2 AND id IN (
                 SELECT id FROM acts WHERE platform = ?1 AND due_at <= ?2 AND {PRESENT}
                 ORDER BY id LIMIT ?4)
             RETURNING id, act_key, answer, next_item, attempts, failures, processed_at, next_part"
    );
    let claimed = c
        .query(
            &sql,
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
                next_part: row.count(7)?,
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

/// Records how far a worker got with the act `key`'s notices. The parts
/// recorded of a notice (see [`part_sent`]) count while it is still the
/// next; past it, the next notice starts from its first part.
pub async fn settle(c: &impl Conn, key: &str, progress: &NoticeProgress) -> Result<()> {
    c.execute(
        "UPDATE acts SET next_part = CASE WHEN next_item = ?2 THEN next_part ELSE 0 END,
                           next_item = ?2, attempts = ?3, failures = ?4, last_error = ?5,
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

/// Records that the parts before `next_part` of the act `key`'s notice
/// `item` went out (its text, then files), before the next one is sent: a
/// crash between them leaves the rest, and only the rest, to the next try.
/// The count only grows, and only for the notice still to be settled.
pub async fn part_sent(c: &impl Conn, key: &str, item: u32, next_part: u32) -> Result<()> {
    c.execute(
        "UPDATE acts SET next_part = ?3
         WHERE act_key = ?1 AND next_item = ?2 AND next_part < ?3",
        &params![key, item, next_part],
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
        "UPDATE acts SET due_at = NULL, held_until = NULL
         WHERE (due_at IS NOT NULL OR held_until IS NOT NULL) AND act_key IN ({})",
        marks.join(", ")
    )
});

/// How far the acts held in their rows are done with: every act numbered
/// up to it was answered, made due, or never held.
pub async fn holds_done_through(c: &impl Conn) -> Result<i64> {
    let row = c
        .query_opt("SELECT through FROM held_acts_done WHERE id = 1", &[])
        .await?;
    row.map_or(Ok(0), |row| row.int(0))
}

/// The first `limit` acts still held in their rows numbered after `through`,
/// with their holds' ends, and the number of the last act of all.
pub async fn holds_after(
    c: &impl Conn,
    through: i64,
    limit: usize,
) -> Result<(Vec<(i64, DateTime<Utc>)>, i64)> {
    let held = c
        .query(
            "SELECT id, held_until FROM acts
             WHERE id > ?1 AND held_until IS NOT NULL ORDER BY id LIMIT ?2",
            &params![through, limit as i64],
        )
        .await?
        .iter()
        .map(|row| Ok((row.int(0)?, row.time(1)?)))
        .collect::<Result<Vec<_>>>()?;
    let last = c
        .query_one("SELECT coalesce(max(id), 0) FROM acts", &[])
        .await?
        .int(0)?;
    Ok((held, last))
}

/// Makes due at `now` the acts numbered after `from` up to `through` that
/// are still held (a [`HoldStep`] found every hold among them over; one
/// answered meanwhile is left alone), and records that holds are done with
/// up to `through`.
pub async fn release_holds(
    c: &impl Conn,
    from: i64,
    through: i64,
    now: DateTime<Utc>,
) -> Result<()> {
    c.execute(
        "UPDATE acts SET due_at = ?3, held_until = NULL
         WHERE id > ?1 AND id <= ?2 AND held_until IS NOT NULL",
        &params![from, through, now],
    )
    .await?;
    c.execute(
        "INSERT INTO held_acts_done (id, through) VALUES (1, ?1)
         ON CONFLICT (id) DO UPDATE SET through = excluded.through
         WHERE held_acts_done.through < excluded.through",
        &params![through],
    )
    .await?;
    Ok(())
}

/// What one look at the held acts after a number found to do.
#[derive(Debug, PartialEq, Eq)]
pub struct HoldStep {
    /// Acts whose hold ran out: due now.
    pub release: Vec<i64>,
    /// Holds are done with up to this act once those are released.
    pub through: i64,
    /// The end of the first hold still running, if one was seen.
    pub next_end: Option<DateTime<Utc>>,
    /// The look was cut short: look again from `through` at once.
    pub more: bool,
}

impl HoldStep {
    /// Decides from what [`holds_after`] found (at most `limit` held acts
    /// in order, and the last act's number) at `now`. Holds end in about
    /// the order acts commit, so the first one still running stops the
    /// look: the acts after it wait for the next.
    pub fn at(
        held: &[(i64, DateTime<Utc>)],
        last: i64,
        limit: usize,
        now: DateTime<Utc>,
    ) -> HoldStep {
        let release: Vec<i64> = held
            .iter()
            .take_while(|&&(_, until)| until <= now)
            .map(|&(id, _)| id)
            .collect();
        if let Some(&(id, until)) = held.get(release.len()) {
            return HoldStep {
                release,
                through: id - 1,
                next_end: Some(until),
                more: false,
            };
        }
        // Every hold seen is over: done up to the last act, unless the
        // look was cut short at `limit` (then up to the last one seen).
        let more = held.len() >= limit;
        HoldStep {
            through: match release.last() {
                Some(&id) if more => id,
                _ => last,
            },
            release,
            next_end: None,
            more,
        }
    }
}

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
    let sql = format!(
        "SELECT due_at FROM acts WHERE platform = ?1 AND due_at IS NOT NULL AND {PRESENT}
         ORDER BY due_at LIMIT 1"
    );
    match c.query_opt(&sql, &params![platform.as_str()]).await? {
        Some(row) => row.opt_time(0),
        None => Ok(None),
    }
}

/// The acts whose server still has the bot: those of a server it was
/// removed from wait, untried, until it is back.
const PRESENT: &str = "(server_id IS NULL OR server_id NOT IN (SELECT id FROM servers WHERE absent_since IS NOT NULL))";

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + seconds, 0).expect("instant")
    }

    #[test]
    fn a_look_releases_ended_holds_up_to_the_first_running_one() {
        // Held acts seen as (id, hold's end) and the last act; then what is
        // decided at 10 with a limit of 3: released, through, next end, more.
        type Case = (
            &'static [(i64, i64)],
            i64,
            &'static [i64],
            i64,
            Option<i64>,
            bool,
        );
        #[rustfmt::skip]
        let cases: &[Case] = &[
            // nothing held: done up to the last act
            (&[], 7, &[], 7, None, false),
            // every hold over
            (&[(2, 5), (4, 10)], 9, &[2, 4], 9, None, false),
            // a running hold stops the look just before it
            (&[(2, 5), (4, 11), (6, 3)], 9, &[2], 3, Some(11), false),
            // the first one running: nothing released
            (&[(5, 20)], 9, &[], 4, Some(20), false),
            // cut short at the limit: on from the last one seen
            (&[(2, 5), (3, 6), (8, 9)], 12, &[2, 3, 8], 8, None, true),
        ];
        for &(held, last, release, through, next_end, more) in cases {
            let held: Vec<_> = held.iter().map(|&(id, end)| (id, at(end))).collect();
            let expected = HoldStep {
                release: release.to_vec(),
                through,
                next_end: next_end.map(at),
                more,
            };
            assert_eq!(HoldStep::at(&held, last, 3, at(10)), expected, "{held:?}");
        }
    }
}
