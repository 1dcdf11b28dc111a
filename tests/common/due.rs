//! The scheduler's notices as a test reads them: `run_due` queues them in
//! the outbox, and a console notifier collects what the outbox delivers.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};
use pawnpost::core::platform::Platform;
use pawnpost::service::{BoardImages, Notifier, Reply, Service};

/// Keeps every reply it is given.
#[derive(Clone, Default)]
pub struct Collected(Arc<Mutex<Vec<Reply>>>);

impl Notifier for Collected {
    fn platform(&self) -> Platform {
        Platform::Console
    }

    async fn deliver(&self, replies: Vec<Reply>) {
        self.0.lock().expect("collector").extend(replies);
    }
}

/// Runs what is due at `now` and returns the notices it delivered.
pub async fn due_notices(service: &Service, now: DateTime<Utc>) -> Vec<Reply> {
    service.run_due(now).await;
    let collected = Collected::default();
    service
        .deliver_notices(&collected, now, BoardImages::Omitted)
        .await;
    collected.0.lock().expect("collector").clone()
}
