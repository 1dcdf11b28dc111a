//! The deadline scheduler: one task that sleeps until the earliest flag
//! falls, or until an act moves a deadline, then asks the service to end
//! what is due and hands the notices, boards drawn, to a [`Notifier`] (the
//! service's interface that the chat adapters implement).
//!
//! Deadlines live in the store, so a restart simply re-arms from it. Time
//! comes from a [`TimeSource`], so tests run it on tokio's paused clock.

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
pub struct Settings {
    /// A gap since the last heartbeat longer than this is an outage, and
    /// running clocks get it back.
    pub outage_threshold: chrono::Duration,
    /// How often the heartbeat is written.
    pub heartbeat_every: StdDuration,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            outage_threshold: chrono::Duration::minutes(10),
            heartbeat_every: StdDuration::from_secs(60),
        }
    }
}

/// Credits any outage, then runs until `shutdown` completes.
pub async fn run<N, T>(
    service: Arc<Service>,
    notifier: N,
    time: T,
    settings: Settings,
    shutdown: impl Future<Output = ()>,
) where
    N: Notifier,
    T: TimeSource,
{
    let changed = service.deadline_signal();
    tokio::pin!(shutdown);
    // Before any flag is looked at: time the bot could not count is given back.
    match service
        .recover_downtime(time.now(), settings.outage_threshold)
        .await
    {
        Ok(replies) if !replies.is_empty() => notifier.deliver(replies).await,
        Ok(_) => {}
        Err(error) => tracing::error!(%error, "cannot check for an outage"),
    }
    let mut last_beat = time.now();
    loop {
        let replies = service.run_due(time.now(), BoardImages::Drawn).await;
        if !replies.is_empty() {
            notifier.deliver(replies).await;
        }
        let now = time.now();
        if (now - last_beat).to_std().unwrap_or_default() >= settings.heartbeat_every {
            if let Err(error) = service.beat(now).await {
                tracing::error!(%error, "cannot write the heartbeat");
            }
            last_beat = now;
        }
        let pause = match service.next_wake_up().await {
            Ok(Some(deadline)) => (deadline - time.now()).to_std().unwrap_or(MIN_SLEEP),
            Ok(None) => MAX_SLEEP,
            Err(error) => {
                tracing::error!(%error, "cannot read the next wake-up");
                RETRY
            }
        };
        let pause = pause.min(MAX_SLEEP).min(settings.heartbeat_every);
        tokio::select! {
            _ = tokio::time::sleep(pause) => {}
            _ = changed.notified() => {}
            _ = &mut shutdown => return,
        }
    }
}
