//! A per-user limit on commands: at most `per_minute` in any minute-long
//! window that starts with a user's first command.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const WINDOW: Duration = Duration::from_secs(60);
/// Past this many users remembered, windows that ended are forgotten.
const PRUNE_AT: usize = 10_000;

/// Counts each user's commands in their current window.
#[derive(Debug)]
pub struct RateLimiter {
    per_minute: u32,
    windows: Mutex<HashMap<u64, (Instant, u32)>>,
}

impl RateLimiter {
    /// `per_minute == 0` allows everything.
    pub fn new(per_minute: u32) -> RateLimiter {
        RateLimiter {
            per_minute,
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one command by `user` at `now`; false when over the limit.
    pub fn allow(&self, user: u64, now: Instant) -> bool {
        if self.per_minute == 0 {
            return true;
        }
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        if windows.len() >= PRUNE_AT {
            windows.retain(|_, (start, _)| now.duration_since(*start) < WINDOW);
        }
        let (start, count) = windows.entry(user).or_insert((now, 0));
        if now.duration_since(*start) >= WINDOW {
            (*start, *count) = (now, 0);
        }
        *count += 1;
        *count <= self.per_minute
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_user_has_their_own_window() {
        let limiter = RateLimiter::new(3);
        let t0 = Instant::now();
        assert!((0..3).all(|_| limiter.allow(1, t0)));
        assert!(!limiter.allow(1, t0 + Duration::from_secs(59)));
        assert!(limiter.allow(2, t0), "another user is not limited");
        assert!(limiter.allow(1, t0 + WINDOW), "a new window starts");
    }

    #[test]
    fn zero_means_no_limit() {
        let limiter = RateLimiter::new(0);
        assert!((0..1000).all(|_| limiter.allow(1, Instant::now())));
    }
}
