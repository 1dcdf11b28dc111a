//! Heavy pictures (a whole game's GIF) are drawn off the act path: on
//! tokio's blocking threads, a few at a time for the whole process, and
//! each player may have one in flight and a few per hour. Whoever asks
//! (a spectator too) can then never tie up the bot's threads or memory.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, Utc};
use tokio::sync::Semaphore;

use crate::core::game::PlayerId;

/// The window the hourly limit counts in.
const WINDOW_MINUTES: i64 = 60;
/// Past this many players remembered, those with nothing in the window are forgotten.
const PRUNE_AT: usize = 10_000;

/// Bounds on heavy renders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderLimits {
    /// Renders one player may start per hour; 0 lifts the limit.
    pub per_player_per_hour: u32,
    /// Renders running at once in this process (at least one).
    pub concurrent: usize,
}

impl Default for RenderLimits {
    fn default() -> RenderLimits {
        RenderLimits {
            per_player_per_hour: 10,
            concurrent: 2,
        }
    }
}

/// Why a render was not started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Refusal {
    /// The player's previous render is still being drawn.
    Busy,
    /// The player has had their renders for this hour; the next may start
    /// in this many minutes (at least one).
    Later { minutes: i64 },
}

/// Who is drawing what, and the process-wide slots.
pub(super) struct RenderGate {
    limits: RenderLimits,
    slots: Arc<Semaphore>,
    players: Arc<Mutex<HashMap<PlayerId, Recent>>>,
}

/// One player's renders: whether one is running, and when the last ones began.
#[derive(Default)]
struct Recent {
    in_flight: bool,
    started: VecDeque<DateTime<Utc>>,
}

/// A player's admitted render; dropping it lets them ask again.
pub(super) struct Admission {
    player: PlayerId,
    players: Arc<Mutex<HashMap<PlayerId, Recent>>>,
    slots: Arc<Semaphore>,
}

impl Drop for Admission {
    fn drop(&mut self) {
        let mut players = self.players.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(recent) = players.get_mut(&self.player) {
            recent.in_flight = false;
        }
    }
}

impl RenderGate {
    pub(super) fn new(limits: RenderLimits) -> RenderGate {
        RenderGate {
            limits,
            slots: Arc::new(Semaphore::new(limits.concurrent.max(1))),
            players: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// Admits one render by `player` at `now`, or says why not.
    pub(super) fn admit(&self, player: PlayerId, now: DateTime<Utc>) -> Result<Admission, Refusal> {
        let window = Duration::minutes(WINDOW_MINUTES);
        let mut players = self.players.lock().unwrap_or_else(|e| e.into_inner());
        if players.len() >= PRUNE_AT {
            players
                .retain(|_, r| r.in_flight || r.started.back().is_some_and(|t| now - *t < window));
        }
        let recent = players.entry(player).or_default();
        if recent.in_flight {
            return Err(Refusal::Busy);
        }
        while recent.started.front().is_some_and(|t| now - *t >= window) {
            recent.started.pop_front();
        }
        let limit = self.limits.per_player_per_hour as usize;
        if limit > 0 && recent.started.len() >= limit {
            let oldest = recent.started.front().copied().unwrap_or(now);
            let wait = oldest + window - now;
            // Whole minutes, rounded up, so "in 1 minute" is never too early.
            let minutes = (wait.num_seconds() + 59) / 60;
            return Err(Refusal::Later {
                minutes: minutes.max(1),
            });
        }
        recent.in_flight = true;
        recent.started.push_back(now);
        Ok(Admission {
            player,
            players: Arc::clone(&self.players),
            slots: Arc::clone(&self.slots),
        })
    }
}

impl Admission {
    /// Runs `work` on a blocking thread once a process-wide slot is free.
    /// `None` if the work panicked or the runtime is shutting down.
    pub(super) async fn run<T, F>(self, work: F) -> Option<T>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let _slot = self.slots.acquire().await.ok()?;
        let result = tokio::task::spawn_blocking(work).await;
        match result {
            Ok(value) => Some(value),
            Err(error) => {
                tracing::error!(%error, "a render failed");
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn at(minutes: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 6, 1, 9, 0, 0).unwrap() + Duration::minutes(minutes)
    }

    const ALICE: PlayerId = PlayerId(1);
    const BOB: PlayerId = PlayerId(2);

    #[test]
    fn one_render_per_player_at_a_time() {
        let gate = RenderGate::new(RenderLimits::default());
        let first = gate.admit(ALICE, at(0)).expect("admitted");
        assert_eq!(gate.admit(ALICE, at(0)).err(), Some(Refusal::Busy));
        assert!(
            gate.admit(BOB, at(0)).is_ok(),
            "another player is not held up"
        );
        drop(first);
        assert!(
            gate.admit(ALICE, at(1)).is_ok(),
            "done: alice may ask again"
        );
    }

    #[test]
    fn each_player_has_a_few_renders_per_hour() {
        let gate = RenderGate::new(RenderLimits {
            per_player_per_hour: 3,
            concurrent: 1,
        });
        // (minute, admitted, or the minutes to wait)
        let cases: &[(i64, Result<(), i64>)] = &[
            (0, Ok(())),
            (10, Ok(())),
            (20, Ok(())),
            (21, Err(39)),
            (59, Err(1)),
            (60, Ok(())),
            (61, Err(9)),
            (70, Ok(())),
        ];
        for &(minute, expected) in cases {
            let got = gate
                .admit(ALICE, at(minute))
                .map(drop)
                .map_err(|refusal| match refusal {
                    Refusal::Later { minutes } => minutes,
                    Refusal::Busy => -1,
                });
            assert_eq!(got, expected, "minute {minute}");
        }
        let unlimited = RenderGate::new(RenderLimits {
            per_player_per_hour: 0,
            concurrent: 1,
        });
        assert!((0..100).all(|_| unlimited.admit(ALICE, at(0)).map(drop).is_ok()));
    }

    #[tokio::test]
    async fn renders_run_on_blocking_threads_and_free_the_player() {
        let gate = RenderGate::new(RenderLimits::default());
        let admission = gate.admit(ALICE, at(0)).expect("admitted");
        let value = admission.run(|| 6 * 7).await;
        assert_eq!(value, Some(42));
        assert!(
            gate.admit(ALICE, at(1)).is_ok(),
            "the admission ended with the run"
        );
    }
}
