//! The signal that wakes the process's schedulers: one per platform when
//! `pawnpost serve` runs Discord and Matrix together, each delivering its
//! own platform's outbox, so each must look again when an act moved a
//! deadline or queued a notice for it.

use tokio::sync::Notify;
use tokio::sync::futures::Notified;

#[derive(Debug, Default)]
pub struct SchedulerWake {
    notify: Notify,
}

impl SchedulerWake {
    /// Wakes every scheduler waiting now, and the next to wait (one that
    /// was between two looks).
    pub fn wake(&self) {
        self.notify.notify_waiters();
        self.notify.notify_one();
    }

    /// Completes at the next [`SchedulerWake::wake`] (or at once if one
    /// came while nobody waited).
    pub fn notified(&self) -> Notified<'_> {
        self.notify.notified()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::time::Duration;

    /// Two schedulers waiting on one signal both wake.
    #[tokio::test]
    async fn every_waiting_scheduler_wakes() {
        let wake = Arc::new(SchedulerWake::default());
        let waiter = |wake: Arc<SchedulerWake>| {
            tokio::spawn(async move {
                tokio::time::timeout(Duration::from_secs(5), wake.notified())
                    .await
                    .is_ok()
            })
        };
        let (a, b) = (waiter(Arc::clone(&wake)), waiter(Arc::clone(&wake)));
        tokio::time::sleep(Duration::from_millis(50)).await;
        wake.wake();
        assert!(a.await.unwrap() && b.await.unwrap());
        // A wake while nobody waits is kept for the next look.
        wake.wake();
        let next = tokio::time::timeout(Duration::from_secs(1), wake.notified());
        assert!(next.await.is_ok());
    }
}
