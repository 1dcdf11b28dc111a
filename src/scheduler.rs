//! The deadline scheduler: one task that sleeps until the earliest flag
//! falls, or until an act moves a deadline, then asks the service to end
//! what is due and hands the notices to a [`Notifier`].
//!
//! Deadlines live in the store, so a restart simply re-arms from it. Time
//! comes from a [`TimeSource`], so tests run it on tokio's paused clock.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration as StdDuration;

use chrono::{DateTime, Utc};

use crate::service::{Reply, Service};
use crate::storage::Store;

/// The longest the scheduler sleeps without looking at the store again.
const MAX_SLEEP: StdDuration = StdDuration::from_secs(3600);
/// How long to wait before trying again after the store failed.
const RETRY: StdDuration = StdDuration::from_secs(5);
/// The least sleep when a deadline is already past after a run (a game the
/// clock could not end must not make the loop spin).
const MIN_SLEEP: StdDuration = StdDuration::from_millis(100);

/// Where replies go: the same interface the chat adapters implement.
pub trait Notifier: Send + Sync + 'static {
    fn deliver(&self, replies: Vec<Reply>) -> impl Future<Output = ()> + Send;
}

/// What time it is.
pub trait TimeSource: Send + Sync + 'static {
    fn now(&self) -> DateTime<Utc>;
}

/// The system clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemTime;

impl TimeSource for SystemTime {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// Wall-clock time driven by tokio's clock, which tests can pause and advance.
#[derive(Clone, Copy, Debug)]
pub struct TokioTime {
    origin: tokio::time::Instant,
    at_origin: DateTime<Utc>,
}

impl TokioTime {
    /// A clock that reads `at` now and runs with tokio's time from here.
    pub fn starting_at(at: DateTime<Utc>) -> TokioTime {
        TokioTime {
            origin: tokio::time::Instant::now(),
            at_origin: at,
        }
    }
}

impl TimeSource for TokioTime {
    fn now(&self) -> DateTime<Utc> {
        let elapsed = tokio::time::Instant::now() - self.origin;
        self.at_origin + chrono::Duration::from_std(elapsed).unwrap_or(chrono::Duration::MAX)
    }
}

/// Runs until `shutdown` completes.
pub async fn run<S, N, T>(
    service: Arc<Service<S>>,
    notifier: N,
    time: T,
    shutdown: impl Future<Output = ()>,
) where
    S: Store,
    N: Notifier,
    T: TimeSource,
{
    let changed = service.deadline_signal();
    tokio::pin!(shutdown);
    loop {
        let replies = service.run_due(time.now()).await;
        if !replies.is_empty() {
            notifier.deliver(replies).await;
        }
        let pause = match service.next_deadline().await {
            Ok(Some(deadline)) => (deadline - time.now()).to_std().unwrap_or(MIN_SLEEP),
            Ok(None) => MAX_SLEEP,
            Err(error) => {
                tracing::error!(%error, "cannot read the next deadline");
                RETRY
            }
        };
        tokio::select! {
            _ = tokio::time::sleep(pause.min(MAX_SLEEP)) => {}
            _ = changed.notified() => {}
            _ = &mut shutdown => return,
        }
    }
}
