//! What time it is, as a parameter: the system clock in production, and
//! tokio's clock (which tests pause and advance) or a hand-set one in tests.

use chrono::{DateTime, Utc};

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
