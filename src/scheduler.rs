//! The deadline scheduler: one task that sleeps until the earliest flag
//! falls, or until an act moves a deadline, then asks the service to end
//! what is due. What that tells people waits in the outbox, written in the
//! same commits; the scheduler then has the service deliver it through a
//! [`Notifier`] (the interface the chat adapters implement), and wakes again
//! when a notice that failed is due to be tried again.
//!
//! Deadlines and notices live in the store, so a restart simply re-arms from
//! it (and delivers what a crash left unsent). Time comes from a
//! [`TimeSource`], so tests run it on tokio's paused clock.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration as StdDuration;

use crate::service::{BoardImages, Notifier, Service, TimeSource};

/// The longest the scheduler sleeps without looking at the store again.
const MAX_SLEEP: StdDuration = StdDuration::from_secs(3600);
/// How long to wait before trying again after the store failed.
const RETRY: StdDuration = StdDuration::from_secs(5);
/// The least sleep when a deadline is already past after a run (a game the
/// clock could not end must not make the loop spin).
const MIN_SLEEP: StdDuration = StdDuration::from_millis(100);

/// How the scheduler keeps time across restarts.
#[derive(Clone, Copy, Debug)]
pub struct SchedulerSettings {
    /// A gap since the last heartbeat longer than this is an outage, and
    /// running clocks get it back.
    pub outage_threshold: chrono::Duration,
    /// How often the heartbeat is written.
    pub heartbeat_every: StdDuration,
    /// The longest sleep: how soon notices other processes queued for this
    /// platform (a game between two platforms) are looked for.
    pub poll_every: StdDuration,
}

impl Default for SchedulerSettings {
    fn default() -> SchedulerSettings {
        SchedulerSettings {
            outage_threshold: chrono::Duration::minutes(10),
            heartbeat_every: StdDuration::from_secs(60),
            poll_every: StdDuration::from_secs(60),
        }
    }
}

/// Credits any outage, then runs until `shutdown` completes.
pub async fn run<N, T>(
    service: Arc<Service>,
    notifier: N,
    time: T,
    settings: SchedulerSettings,
    shutdown: impl Future<Output = ()>,
) where
    N: Notifier,
    T: TimeSource,
{
    let changed = service.deadline_signal();
    tokio::pin!(shutdown);
    // Before any flag is looked at: time the bot could not count is given
    // back (its notices, like every scheduler notice, wait in the outbox).
    if let Err(error) = service
        .recover_downtime(time.now(), settings.outage_threshold)
        .await
    {
        tracing::error!(%error, "cannot check for an outage");
    }
    let mut last_beat = time.now();
    loop {
        // What it tells waits in the outbox, delivered (boards drawn) below.
        service.run_due(time.now()).await;
        service
            .deliver_notices(&notifier, time.now(), BoardImages::Drawn)
            .await;
        let now = time.now();
        if (now - last_beat).to_std().unwrap_or_default() >= settings.heartbeat_every {
            if let Err(error) = service.beat(now).await {
                tracing::error!(%error, "cannot write the heartbeat");
            }
            last_beat = now;
        }
        let until = |next: Option<chrono::DateTime<chrono::Utc>>| match next {
            Some(at) => (at - time.now()).to_std().unwrap_or(MIN_SLEEP),
            None => MAX_SLEEP,
        };
        let pause = match (
            service.next_wake_up().await,
            service.next_notice_due(&notifier).await,
        ) {
            (Ok(deadline), Ok(notice)) => until(deadline).min(until(notice)),
            (Err(error), _) | (_, Err(error)) => {
                tracing::error!(%error, "cannot read the next wake-up");
                RETRY
            }
        };
        let pause = pause
            .min(MAX_SLEEP)
            .min(settings.heartbeat_every)
            .min(settings.poll_every);
        tokio::select! {
            _ = tokio::time::sleep(pause) => {}
            _ = changed.notified() => {}
            _ = &mut shutdown => break,
        }
    }
    // Acts answered just before the stop: not for the outbox to send again;
    // then what is due goes out, for a little while (the rest waits in the
    // outbox for the next start).
    service.settle_answered().await;
    let flush = service.deliver_notices(&notifier, time.now(), BoardImages::Drawn);
    if tokio::time::timeout(FLUSH, flush).await.is_err() {
        tracing::warn!("stopping with notices still to send: they go at the next start");
    }
}

/// How long a stopping scheduler delivers the notices due.
const FLUSH: StdDuration = StdDuration::from_secs(10);

/// How often finished games are looked for to review by themselves.
const REVIEW_EVERY: StdDuration = StdDuration::from_secs(30);

/// Reviews finished games as they end, when the operator turned automatic
/// reviews on, until `shutdown` completes. Apart from the deadline loop: a
/// review takes seconds of engine time, and no flag may wait for it. Each
/// review's post waits in the outbox, which the deadline loop delivers.
pub async fn run_reviews<T: TimeSource>(
    service: Arc<Service>,
    time: T,
    shutdown: impl Future<Output = ()>,
) {
    if !service.reviews_automatic() {
        return;
    }
    tokio::pin!(shutdown);
    loop {
        service.review_finished_games(time.now()).await;
        tokio::select! {
            _ = tokio::time::sleep(REVIEW_EVERY) => {}
            _ = &mut shutdown => break,
        }
    }
}
