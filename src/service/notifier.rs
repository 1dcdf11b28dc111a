//! Where replies go when no user asked: the interface every chat adapter
//! implements, so the scheduler can hand it the notices of flag falls,
//! reminders and tournament rounds.

use std::future::Future;

use super::Reply;

/// Where replies go: the same interface the chat adapters implement.
pub trait Notifier: Send + Sync + 'static {
    fn deliver(&self, replies: Vec<Reply>) -> impl Future<Output = ()> + Send;
}
