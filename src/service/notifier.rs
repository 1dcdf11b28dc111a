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
    /// A passing failure whose platform said when to try again (a rate
    /// limit's `retry_after`).
    RetryIn(String, std::time::Duration),
    /// The platform refused it for good (no permission, closed DMs, an
    /// unknown channel): trying again would change nothing.
    Refused(String),
}

/// Which notice this is: the `item`th reply of the act `act_key`'s answer.
/// Every try of one notice carries the same id, so a platform that
/// deduplicates sends (Discord's message nonce, Matrix's transaction id)
/// shows it once however often a crash makes it go again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoticeId<'a> {
    pub act_key: &'a str,
    pub item: u32,
    /// The first part still to send, for a platform that sends a notice as
    /// several messages (Matrix: its text is part 0, then each file): the
    /// parts before it went out on an earlier try, as recorded by
    /// [`super::Service::notice_part_sent`] or [`super::Service::delivering`].
    pub first_part: u32,
}

impl NoticeId<'_> {
    /// A short token naming this notice's `part` (its text, then each
    /// file), the same in every process and version: 16 hex digits of the
    /// act's key (64-bit FNV-1a), then the item and the part. At most 25
    /// characters, Discord's longest nonce.
    pub fn token(&self, part: u32) -> String {
        let hash = self
            .act_key
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
                (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
            });
        let token = format!("{hash:016x}{:x}.{part:x}", self.item);
        token.chars().take(25).collect()
    }
}

/// Where replies go: the same interface the chat adapters implement.
pub trait Notifier: Send + Sync + 'static {
    /// The platform whose notices this notifier delivers.
    fn platform(&self) -> Platform;

    /// Delivers replies as well as it can, saying nothing of the outcome.
    fn deliver(&self, replies: Vec<Reply>) -> impl Future<Output = ()> + Send;

    /// Delivers one notice and says what became of it. Adapters that can
    /// tell a passing failure from a refusal say so, and send `id` along
    /// where their platform deduplicates; the default counts every notice
    /// as delivered once [`Notifier::deliver`] returns.
    fn send(&self, reply: Reply, id: NoticeId<'_>) -> impl Future<Output = Sent> + Send {
        let _ = id;
        async move {
            self.deliver(vec![reply]).await;
            Sent::Delivered
        }
    }

    /// Delivers the notices that fell due together (each act's in order)
    /// and says what became of each, in order. Adapters that can group
    /// notices for one place, or serve places side by side, do so here; the
    /// default sends them one by one, and after a passing failure sends no
    /// more of that act (they are tried again with it).
    fn send_all<'a>(
        &'a self,
        notices: Vec<(Reply, NoticeId<'a>)>,
    ) -> impl Future<Output = Vec<Sent>> + Send + 'a {
        async move {
            let mut sent: Vec<Sent> = Vec::with_capacity(notices.len());
            let mut stalled: Vec<&str> = Vec::new();
            for (reply, id) in notices {
                if stalled.contains(&id.act_key) {
                    sent.push(Sent::Retry("an earlier notice of its act waits".to_owned()));
                    continue;
                }
                let outcome = self.send(reply, id).await;
                if matches!(outcome, Sent::Retry(_) | Sent::RetryIn(..)) {
                    stalled.push(id.act_key);
                }
                sent.push(outcome);
            }
            sent
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_token_is_stable_and_short() {
        let id = |act_key, item| NoticeId {
            act_key,
            item,
            first_part: 0,
        };
        // Fixed forever: tokens sent before an upgrade must match after it.
        assert_eq!(id("discord:1", 0).token(0), "b5c58874bdbcf85a0.0");
        assert_ne!(id("discord:1", 1).token(0), id("discord:1", 0).token(0));
        assert_ne!(id("discord:2", 0).token(0), id("discord:1", 0).token(0));
        assert_ne!(id("discord:1", 0).token(1), id("discord:1", 0).token(0));
        assert!(id("k", u32::MAX).token(u32::MAX).len() <= 25);
    }
}
