//! Where replies go when no user asked: the interface every chat adapter
//! implements, so the service can deliver the notices waiting in the outbox
//! (flag falls, reminders, leave, ladder and tournament notices).

use std::future::Future;

use super::Reply;
use crate::core::platform::Platform;

/// What became of one notice handed to a [`Notifier`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sent {
    /// The platform took it.
    Delivered,
    /// A passing failure (a rate limit, a server error, no connection):
    /// try again later.
    Retry(String),
    /// The platform refused it for good (no permission, closed DMs, an
    /// unknown channel): trying again would change nothing.
    Refused(String),
}

/// Where replies go: the same interface the chat adapters implement.
pub trait Notifier: Send + Sync + 'static {
    /// The platform whose notices this notifier delivers.
    fn platform(&self) -> Platform;

    /// Delivers replies as well as it can, saying nothing of the outcome.
    fn deliver(&self, replies: Vec<Reply>) -> impl Future<Output = ()> + Send;

    /// Delivers one notice and says what became of it. Adapters that can
    /// tell a passing failure from a refusal say so; the default counts
    /// every notice as delivered once [`Notifier::deliver`] returns.
    fn send(&self, reply: Reply) -> impl Future<Output = Sent> + Send {
        async move {
            self.deliver(vec![reply]).await;
            Sent::Delivered
        }
    }
}
