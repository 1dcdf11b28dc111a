//! Delivering the outbox: the notices an act committed for people other
//! than its author (see `storage::queries::outbox`), handed to the
//! platform's [`Notifier`] one at a time, in order, after the commit.
//!
//! A worker claims a few acts at a time for a while (a lease), so workers
//! in other processes skip them and a worker that dies gives them back.
//! Each notice is settled as soon as the platform answers: delivered or
//! refused for good, the next one follows; a passing failure stops that
//! act's notices until a later try (backing off), so they stay in order.

use chrono::{DateTime, Duration, Utc};

use super::notifier::{NoticeId, Notifier, Sent};
use super::{BoardImages, Reply, Service};
use crate::core::platform::Platform;
use crate::storage::{NoticeProgress, Outgoing, QueuedNotices, StorageError};

/// Acts claimed per round.
const CLAIM: usize = 50;
/// How long a claim keeps other workers away: ample for a round of sends.
const LEASE: Duration = Duration::minutes(2);
/// The first wait after a passing failure; it doubles up to [`MAX_WAIT`].
const FIRST_WAIT: Duration = Duration::seconds(5);
const MAX_WAIT: Duration = Duration::hours(1);
/// Tries of one notice before it is given up (about a day and a half).
const MAX_ATTEMPTS: u32 = 40;

impl Service {
    /// Delivers every notice due on `notifier`'s platform at `now`, boards
    /// drawn if `images` asks; returns how many were sent.
    pub async fn deliver_notices<N: Notifier>(
        &self,
        notifier: &N,
        now: DateTime<Utc>,
        images: BoardImages,
    ) -> usize {
        // Acts answered directly are not sent again; those whose hold ran
        // out unanswered are due.
        self.settle_answered().await;
        self.release_ended_holds(now).await;
        let mut sent = 0;
        loop {
            let claimed = match self
                .store
                .claim_notices(notifier.platform(), now, now + LEASE, CLAIM)
                .await
            {
                Ok(claimed) => claimed,
                Err(error) => {
                    tracing::error!(kind = error.kind(), %error, "cannot read the outbox");
                    return sent;
                }
            };
            let full = claimed.len() == CLAIM;
            for queued in claimed {
                sent += self.deliver_act(notifier, queued, now, images).await;
            }
            if !full {
                return sent;
            }
        }
    }

    /// When the next notice on `notifier`'s platform is due, if any.
    pub async fn next_notice_due<N: Notifier>(
        &self,
        notifier: &N,
    ) -> Result<Option<DateTime<Utc>>, StorageError> {
        let due = self.store.next_notice_due(notifier.platform()).await?;
        Ok(match (due, self.next_hold_look()) {
            (Some(due), Some(look)) => Some(due.min(look)),
            (due, look) => due.or(look),
        })
    }

    /// Sends one act's remaining notices, in order, and records how far it got.
    async fn deliver_act<N: Notifier>(
        &self,
        notifier: &N,
        queued: QueuedNotices,
        now: DateTime<Utc>,
        images: BoardImages,
    ) -> usize {
        let mut progress = NoticeProgress {
            next_item: queued.next_item,
            attempts: queued.attempts,
            failures: queued.failures,
            last_error: None,
            due_at: None,
        };
        let mut replies: Vec<Reply> = match serde_json::from_str(&queued.answer) {
            Ok(replies) => replies,
            Err(error) => {
                // Not something a retry mends: said once, counted, and settled.
                tracing::error!(act = queued.act_key, %error, "an outbox answer does not read");
                progress.failures += 1;
                progress.last_error = Some(format!("the stored answer does not read: {error}"));
                Vec::new()
            }
        };
        // Images are not stored with an answer: drawn again for delivery.
        self.draw_boards(&mut replies, images);
        self.attach_reviews(&mut replies).await;
        let mut sent = 0;
        let pending = replies.into_iter().skip(queued.next_item as usize);
        for reply in pending {
            if reply.ephemeral {
                // Only an interaction's answer can be private: its author
                // saw it there, or saw the act fail and will ask again.
                progress.next_item += 1;
                continue;
            }
            let id = NoticeId {
                act_key: &queued.act_key,
                item: progress.next_item,
            };
            match notifier.send(reply, id).await {
                Sent::Delivered => sent += 1,
                Sent::Refused(reason) => {
                    // The adapter said why when the platform refused: counted
                    // here for `/status`, not said twice.
                    tracing::debug!(act = queued.act_key, %reason, "a notice was refused");
                    progress.failures += 1;
                    progress.last_error = Some(reason);
                }
                Sent::Retry(reason) if progress.attempts + 1 >= MAX_ATTEMPTS => {
                    tracing::warn!(act = queued.act_key, %reason, "a notice is given up");
                    progress.failures += 1;
                    progress.last_error = Some(reason);
                }
                Sent::Retry(reason) => {
                    progress.attempts += 1;
                    progress.last_error = Some(reason);
                    progress.due_at = Some(now + retry_wait(progress.attempts));
                    break;
                }
            }
            progress.next_item += 1;
            progress.attempts = 0;
        }
        if let Err(error) = self.store.settle_notices(&queued.act_key, &progress).await {
            // The claim lapses and the unsettled notices go again: a notice
            // may then come twice, never not at all.
            tracing::error!(act = queued.act_key, %error, "cannot record a delivery");
        }
        sent
    }
}

/// The outbox entry of an act the scheduler does on its own in the
/// community `server_id`: every item of its answer is a notice for
/// `platform`'s worker.
pub(super) fn notices_on(platform: Platform, server_id: i64) -> Option<Outgoing> {
    Some(Outgoing {
        platform,
        first: 0,
        held_until: None,
        server_id: Some(server_id),
    })
}

/// How far back `/chess status` looks.
const STATUS_DAYS: i64 = 7;

impl Service {
    /// For moderators: the notices of the act's server the platform refused
    /// or that wait for another try, over the last week.
    pub(super) async fn status(&self, ctx: &super::Context, now: DateTime<Utc>) -> super::Attempt {
        if ctx.moderation == super::Moderation::None {
            let text = self.text(ctx, "refused-not_a_moderator", &[]);
            return Ok(vec![self.private(ctx, text)]);
        }
        let since = now - Duration::days(STATUS_DAYS);
        let trouble = self.store.notice_trouble(ctx.server.id, since).await?;
        let mut text = self.text(
            ctx,
            "status-notices",
            &[
                ("days", STATUS_DAYS.into()),
                ("refused", i64::from(trouble.refused).into()),
                ("waiting", i64::from(trouble.waiting).into()),
            ],
        );
        if let Some(error) = &trouble.last_error {
            text.push('\n');
            text.push_str(&self.text(
                ctx,
                "status-last-refusal",
                &[("error", error.as_str().into())],
            ));
        }
        Ok(vec![self.private(ctx, text)])
    }

    /// The platform of a community, whose worker delivers its notices.
    pub(super) async fn platform_of(&self, server_id: i64) -> Result<Platform, StorageError> {
        match self.store.server(server_id).await? {
            Some(server) => Ok(server.platform),
            None => Err(StorageError::NotFound("server")),
        }
    }
}

/// How long to wait before try number `attempts + 1`.
fn retry_wait(attempts: u32) -> Duration {
    let doublings = attempts.saturating_sub(1).min(16);
    (FIRST_WAIT * 2_i32.pow(doublings)).min(MAX_WAIT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_up_to_an_hour() {
        let waits: Vec<i64> = [1, 2, 3, 10, 40]
            .into_iter()
            .map(|n| retry_wait(n).num_seconds())
            .collect();
        assert_eq!(waits, vec![5, 10, 20, 2560, 3600]);
    }
}
