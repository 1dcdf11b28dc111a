//! A user's act is answered by the process that received it: the adapter
//! sends the answer (Discord's interaction response, Matrix's room
//! messages) and then tells the service it went out ([`Service::answered`]).
//! The act's commit also queued its answer in the outbox, held for that
//! process for [`ServiceConfig::notice_handoff`](super::ServiceConfig): if the
//! process dies before it answers, the outbox worker (of any process, after
//! a restart) delivers what others had to receive once the hold is over.
//!
//! Answered acts are settled in batches, one write per [`SETTLE_EVERY`]
//! rather than one per act, so the handoff costs no extra disk flush per
//! act; a crash within that moment may make a notice come twice, never
//! not at all.
//!
//! Where a hold waits in the act's row (SQLite), the worker looks for holds
//! that ran out at every round, except while it knows the first hold still
//! running: then it waits for that one to end, or one this process committed
//! since ([`HoldWatch`]). A look reads only the acts committed since the
//! last, so one at every round of an idle worker costs next to nothing, and
//! holds left by a process that died, or committed by another process since
//! the last look, are found at the next round.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};

use super::Service;
use crate::core::platform::Platform;
use crate::storage::{Outgoing, Store};

/// How long answered acts are gathered before they are settled in one write.
const SETTLE_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

/// Acts answered by their own process, not yet settled in the outbox.
#[derive(Default)]
pub(super) struct Answered {
    pending: Arc<Mutex<Pending>>,
    /// Held for a whole settling write: whoever settles next (the worker
    /// before it reads the outbox) waits for a write already on its way,
    /// instead of finding no keys and sending those acts again.
    writing: Arc<tokio::sync::Mutex<()>>,
}

#[derive(Default)]
struct Pending {
    keys: Vec<String>,
    /// A settling write is already on its way.
    scheduled: bool,
}

impl Answered {
    fn push(&self, store: &Store, key: &str) {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        pending.keys.push(key.to_owned());
        if pending.scheduled {
            return;
        }
        pending.scheduled = true;
        let (store, pending) = (store.clone(), Arc::clone(&self.pending));
        let writing = Arc::clone(&self.writing);
        tokio::spawn(async move {
            tokio::time::sleep(SETTLE_EVERY).await;
            settle(&store, &pending, &writing).await;
        });
    }
}

/// When the worker must look for held acts whose hold ran out next: the end
/// of the first hold its last look saw running, or of a hold this process
/// committed since, whichever comes first (`None`: none known, so at every
/// round).
#[derive(Default)]
pub(super) struct HoldWatch {
    next_look: Mutex<Option<DateTime<Utc>>>,
}

impl HoldWatch {
    fn next_look(&self) -> std::sync::MutexGuard<'_, Option<DateTime<Utc>>> {
        self.next_look.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Brings the next look forward to `at` if that is sooner.
    fn look_by(&self, at: DateTime<Utc>) {
        let mut next = self.next_look();
        *next = Some(next.map_or(at, |known| known.min(at)));
    }
}

/// The wait after a look that failed.
fn look_again() -> chrono::Duration {
    chrono::Duration::seconds(5)
}

/// Settles every act gathered so far in one write.
async fn settle(store: &Store, pending: &Mutex<Pending>, writing: &tokio::sync::Mutex<()>) {
    let _one_at_a_time = writing.lock().await;
    let keys = {
        let mut pending = pending.lock().unwrap_or_else(|e| e.into_inner());
        pending.scheduled = false;
        std::mem::take(&mut pending.keys)
    };
    if keys.is_empty() {
        return;
    }
    if let Err(error) = store.settle_answered(&keys).await {
        // The worker delivers them once their hold is over: a notice may
        // come twice, none is lost.
        tracing::warn!(kind = error.kind(), %error, acts = keys.len(), "cannot settle answered acts");
    }
}

impl Service {
    /// Tells the service that the answer of the act `key` reached its
    /// platform (every reply other people had to receive went out), so the
    /// outbox worker will not send it again. Call it after a successful
    /// delivery only: an act never declared answered is delivered by the
    /// worker once its hold is over.
    pub fn answered(&self, key: &str) {
        self.answered.push(&self.store, key);
    }

    /// Settles the answered acts gathered so far at once (before stopping,
    /// and before the worker looks at the outbox).
    pub async fn settle_answered(&self) {
        settle(&self.store, &self.answered.pending, &self.answered.writing).await;
    }

    /// Makes due the acts whose hold ran out unanswered at `now`, when one
    /// may have (see [`HoldWatch`]).
    pub(super) async fn release_ended_holds(&self, now: DateTime<Utc>) {
        {
            let mut next = self.holds.next_look();
            if next.is_some_and(|at| now < at) {
                return;
            }
            // Forgotten for this look, which sees every hold committed
            // before it; one committed meanwhile brings it forward again.
            *next = None;
        }
        match self.store.release_ended_holds(now).await {
            Ok(Some(end)) => self.holds.look_by(end),
            Ok(None) => {}
            Err(error) => {
                tracing::warn!(kind = error.kind(), %error, "cannot look for held acts");
                self.holds.look_by(now + look_again());
            }
        }
    }

    /// Notes that this process committed an act held until `until`.
    pub(super) fn held_until(&self, until: DateTime<Utc>) {
        self.holds.look_by(until);
    }

    /// When the worker must look for held acts next, if it knows.
    pub(super) fn next_hold_look(&self) -> Option<DateTime<Utc>> {
        *self.holds.next_look()
    }

    /// The outbox entry of a user's act: its whole answer, held for the
    /// process that answers it directly.
    pub(super) fn held_for_answer(
        &self,
        platform: Platform,
        server_id: i64,
        now: DateTime<Utc>,
    ) -> Outgoing {
        Outgoing {
            platform,
            first: 0,
            held_until: Some(now + self.config.notice_handoff),
            server_id: Some(server_id),
        }
    }
}
