//! Delivering the outbox: the notices an act committed for people other
//! than its author (see `storage::queries::outbox`), handed to the
//! platform's [`Notifier`] after the commit, each act's in order.
//!
//! A worker claims a few acts at a time for a while (a lease), so workers
//! in other processes skip them and a worker that dies gives them back.
//! The claimed acts' notices go to the platform together, which may group
//! those for one place and serve places side by side
//! ([`Notifier::send_all`]); then each act is settled: delivered or refused
//! notices are done, and a passing failure stops that act's notices until
//! a later try (when the platform said, or backing off), so they stay in
//! order. Notices for a server the bot was removed from wait, untried,
//! until it is back (the claim passes them over).

use std::collections::HashMap;

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
            sent += self.deliver_acts(notifier, claimed, now, images).await;
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

    /// Sends the claimed acts' remaining notices together (the platform
    /// groups those for one place and serves places side by side), then
    /// records how far each act got.
    async fn deliver_acts<N: Notifier>(
        &self,
        notifier: &N,
        claimed: Vec<QueuedNotices>,
        now: DateTime<Utc>,
        images: BoardImages,
    ) -> usize {
        let mut acts = Vec::with_capacity(claimed.len());
        let mut gone = HashMap::new();
        for queued in claimed {
            let mut act = self.pending(queued, images, notifier.platform()).await;
            self.readdress(notifier.platform(), &mut act, &mut gone)
                .await;
            acts.push(act);
        }
        let notices: Vec<(Reply, NoticeId<'_>)> = acts
            .iter()
            .flat_map(|act| {
                act.notices.iter().map(|(item, reply)| {
                    let id = NoticeId {
                        act_key: &act.queued.act_key,
                        item: *item,
                        first_part: act.first_part(*item),
                    };
                    (reply.clone(), id)
                })
            })
            .collect();
        let mut outcomes = notifier.send_all(notices).await.into_iter();
        let mut sent = 0;
        for act in &acts {
            let mut outcome: Vec<Sent> = outcomes.by_ref().take(act.notices.len()).collect();
            outcome.resize(act.notices.len(), Sent::Retry("not sent".to_owned()));
            sent += self.settle_act(act, outcome, now).await;
        }
        sent
    }

    /// An act's notices still to go, with their numbers in its answer
    /// (private answers skipped: only an interaction could show them; and
    /// those for another platform, which that platform's worker sends).
    async fn pending(
        &self,
        queued: QueuedNotices,
        images: BoardImages,
        platform: Platform,
    ) -> PendingAct {
        let mut unreadable = None;
        let mut replies: Vec<Reply> = match serde_json::from_str(&queued.answer) {
            Ok(replies) => replies,
            Err(error) => {
                // Not something a retry mends: said once, counted, and settled.
                tracing::error!(act = queued.act_key, %error, "an outbox answer does not read");
                unreadable = Some(format!("the stored answer does not read: {error}"));
                Vec::new()
            }
        };
        // Images are not stored with an answer: drawn again for delivery.
        self.draw_boards(&mut replies, images);
        self.attach_reviews(&mut replies).await;
        let notices = replies
            .into_iter()
            .enumerate()
            .skip(queued.next_item as usize)
            .filter(|(_, reply)| !reply.ephemeral && reply.is_for(platform))
            .map(|(n, reply)| (n as u32, reply))
            .collect();
        PendingAct {
            queued,
            notices,
            unreadable,
        }
    }

    /// Records what became of one act's notices: delivered and refused ones
    /// are done, in order, up to the first that must be tried again.
    async fn settle_act(&self, act: &PendingAct, outcome: Vec<Sent>, now: DateTime<Utc>) -> usize {
        let queued = &act.queued;
        let mut progress = NoticeProgress {
            next_item: queued.next_item,
            attempts: queued.attempts,
            failures: queued.failures,
            last_error: None,
            due_at: None,
        };
        if let Some(error) = &act.unreadable {
            progress.failures += 1;
            progress.last_error = Some(error.clone());
        }
        let mut sent = 0;
        for ((item, _), outcome) in act.notices.iter().zip(outcome) {
            let wait = match outcome {
                Sent::Delivered => {
                    sent += 1;
                    None
                }
                Sent::Refused(reason) => {
                    // The adapter said why when the platform refused: counted
                    // here for `/status`, not said twice.
                    tracing::debug!(act = queued.act_key, %reason, "a notice was refused");
                    progress.failures += 1;
                    progress.last_error = Some(reason);
                    None
                }
                Sent::Retry(reason) => Some((reason, retry_wait(progress.attempts + 1))),
                Sent::RetryIn(reason, after) => {
                    let after = Duration::from_std(after).unwrap_or(MAX_WAIT);
                    Some((reason, after.clamp(Duration::seconds(1), MAX_WAIT)))
                }
            };
            if let Some((reason, wait)) = wait {
                if progress.attempts + 1 >= MAX_ATTEMPTS {
                    tracing::warn!(act = queued.act_key, %reason, "a notice is given up");
                    progress.failures += 1;
                    progress.last_error = Some(reason);
                } else {
                    progress.attempts += 1;
                    progress.last_error = Some(reason);
                    progress.due_at = Some(now + wait);
                    break;
                }
            }
            progress.next_item = item + 1;
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

impl Service {
    /// A notice for a game whose channel was deleted goes to both of the
    /// game's players directly (a channel notice is for both to read).
    async fn readdress(
        &self,
        platform: Platform,
        act: &mut PendingAct,
        gone: &mut HashMap<String, bool>,
    ) {
        let mut readdressed = Vec::with_capacity(act.notices.len());
        for (item, reply) in std::mem::take(&mut act.notices) {
            let game = reply
                .board
                .as_ref()
                .map(|board| board.game)
                .or_else(|| reply.events.first().map(|event| event.game));
            let is_gone = match gone.get(&reply.channel) {
                Some(known) => *known,
                None => {
                    let known = self.store.channel_gone(platform, &reply.channel).await;
                    let known = known.unwrap_or(false);
                    gone.insert(reply.channel.clone(), known);
                    known
                }
            };
            let record = match game.filter(|_| is_gone && !reply.direct) {
                Some(game) => self.store.game(game).await.ok().flatten(),
                None => None,
            };
            let Some(record) = record else {
                readdressed.push((item, reply));
                continue;
            };
            let players = [&record.white_player, &record.black_player];
            for player in players
                .into_iter()
                .filter(|p| !super::texts::is_stand_in(&p.platform_id))
            {
                let mut direct = reply.clone();
                direct.direct = true;
                direct.to = Some(player.platform_id.clone());
                readdressed.push((item, direct));
            }
        }
        act.notices = readdressed;
    }
}

/// One claimed act: its notices still to go (with their numbers).
struct PendingAct {
    queued: QueuedNotices,
    notices: Vec<(u32, Reply)>,
    unreadable: Option<String>,
}

impl PendingAct {
    /// Where the notice `item` resumes: after the parts recorded as sent,
    /// for the notice the act stopped at, when it still goes to one place
    /// (a notice readdressed to both players starts over for each).
    fn first_part(&self, item: u32) -> u32 {
        let copies = self.notices.iter().filter(|(n, _)| *n == item).count();
        if item == self.queued.next_item && copies == 1 {
            self.queued.next_part
        } else {
            0
        }
    }
}

/// The outbox entry of an act the scheduler does on its own in the
/// community `server_id`: every item of its answer is a notice for
/// `platform`'s worker.
pub(super) fn notices_on(platform: Platform, server_id: i64) -> Option<Outgoing> {
    Some(Outgoing::due_now(platform, Some(server_id)))
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
