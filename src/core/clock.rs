//! Correspondence clocks: time controls counted in days, pure and testable.
//!
//! A [`TimeControl`] says how much time each side gets; a [`Clock`] keeps
//! each side's bank and when the side to move started thinking. Every
//! question takes `now`: [`Clock::remaining`] and [`Clock::deadline`] (the
//! instant the flag falls) never read a clock themselves.
//!
//! Forms (RULES.md "Time"): `3d` (per move, refilled after each move),
//! `30d+1d` and `30d+1d max 45d` (increment, optionally capped), `10/50d`
//! (moves in a period, repeating, unused time carried over), `5d delay 1d`
//! (FIDE's delay: each move first spends the grace), `none` (no clock).

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::event::{color_str, parse_color};

/// The longest time control text accepted.
pub const MAX_TIME_CONTROL: usize = 32;

/// How much thinking time each side gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A fixed time for every move, refilled after each move.
    PerMove { per_move: Duration },
    /// A bank plus a bonus after each move, optionally capped.
    Increment {
        base: Duration,
        increment: Duration,
        cap: Option<Duration>,
    },
    /// `moves` moves in every `period`; unused time carries over.
    Period { moves: u32, period: Duration },
    /// A bank that starts running only after a grace on each move.
    Delay { base: Duration, delay: Duration },
    /// No clock.
    Unlimited,
}

/// Why a time control text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a time control; use 3d, 30d+1d, 30d+1d max 45d, 10/50d, 5d delay 1d or none")]
pub struct TimeControlError;

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        if text.len() > MAX_TIME_CONTROL {
            return Err(TimeControlError);
        }
        let text = text.trim().to_ascii_lowercase();
        let words: Vec<&str> = text.split_whitespace().collect();
        let control = match words.as_slice() {
            ["none"] | ["unlimited"] => TimeControl::Unlimited,
            [one] if one.contains('/') => {
                let (moves, period) = one.split_once('/').ok_or(TimeControlError)?;
                let moves: u32 = moves.parse().map_err(|_| TimeControlError)?;
                if !(1..=100).contains(&moves) {
                    return Err(TimeControlError);
                }
                TimeControl::Period {
                    moves,
                    period: span(period)?,
                }
            }
            [one] if one.contains('+') => increment(one, None)?,
            [one, "max", cap] if one.contains('+') => increment(one, Some(span(cap)?))?,
            [one] => TimeControl::PerMove {
                per_move: span(one)?,
            },
            [base, "delay", delay] => TimeControl::Delay {
                base: span(base)?,
                delay: span(delay)?,
            },
            _ => return Err(TimeControlError),
        };
        Ok(control)
    }
}

fn increment(text: &str, cap: Option<Duration>) -> Result<TimeControl, TimeControlError> {
    let (base, increment) = text.split_once('+').ok_or(TimeControlError)?;
    let (base, increment) = (span(base)?, span(increment)?);
    if cap.is_some_and(|cap| cap < base) {
        return Err(TimeControlError);
    }
    Ok(TimeControl::Increment {
        base,
        increment,
        cap,
    })
}

/// `3d`, `12h`: whole days or hours, from one hour to a year.
fn span(text: &str) -> Result<Duration, TimeControlError> {
    // The unit is the last *character*: a byte count would cut `3é` inside `é`.
    let mut chars = text.chars();
    let unit = chars.next_back().ok_or(TimeControlError)?;
    let n: i64 = chars.as_str().parse().map_err(|_| TimeControlError)?;
    let duration = match unit {
        'd' if (1..=365).contains(&n) => Duration::days(n),
        'h' if (1..=365 * 24).contains(&n) => Duration::hours(n),
        _ => return Err(TimeControlError),
    };
    Ok(duration)
}

fn write_span(f: &mut fmt::Formatter<'_>, d: Duration) -> fmt::Result {
    if d.num_hours() % 24 == 0 {
        write!(f, "{}d", d.num_days())
    } else {
        write!(f, "{}h", d.num_hours())
    }
}

impl fmt::Display for TimeControl {
    /// The canonical text form, which [`FromStr`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::PerMove { per_move } => write_span(f, per_move),
            TimeControl::Increment {
                base,
                increment,
                cap,
            } => {
                write_span(f, base)?;
                f.write_str("+")?;
                write_span(f, increment)?;
                if let Some(cap) = cap {
                    f.write_str(" max ")?;
                    write_span(f, cap)?;
                }
                Ok(())
            }
            TimeControl::Period { moves, period } => {
                write!(f, "{moves}/")?;
                write_span(f, period)
            }
            TimeControl::Delay { base, delay } => {
                write_span(f, base)?;
                f.write_str(" delay ")?;
                write_span(f, delay)
            }
            TimeControl::Unlimited => f.write_str("none"),
        }
    }
}

/// Both sides' time in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "StoredClock", try_from = "StoredClock")]
pub struct Clock {
    control: TimeControl,
    /// Main time left at the start of each side's current or next turn: [white, black].
    bank: [Duration; 2],
    /// Moves each side has completed.
    moves: [u32; 2],
    to_move: Color,
    /// When the side to move started thinking (shifted forward by pauses).
    turn_started: DateTime<Utc>,
    /// Set while the side to move's clock is stopped (leave).
    paused_since: Option<DateTime<Utc>>,
}

fn index(side: Color) -> usize {
    match side {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Clock {
    /// A clock whose first turn (for `first`) starts at `now`.
    pub fn start(control: TimeControl, first: Color, now: DateTime<Utc>) -> Clock {
        let initial = match control {
            TimeControl::PerMove { per_move } => per_move,
            TimeControl::Increment { base, .. } | TimeControl::Delay { base, .. } => base,
            TimeControl::Period { period, .. } => period,
            TimeControl::Unlimited => Duration::zero(),
        };
        Clock {
            control,
            bank: [initial, initial],
            moves: [0, 0],
            to_move: first,
            turn_started: now,
            paused_since: None,
        }
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }

    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Thinking time the side to move has used in this turn at `now`.
    fn used(&self, now: DateTime<Utc>) -> Duration {
        let until = self.paused_since.unwrap_or(now).min(now);
        (until - self.turn_started).max(Duration::zero())
    }

    /// Of `used`, what the main time is charged (the delay is free).
    fn charged(&self, used: Duration) -> Duration {
        match self.control {
            TimeControl::Delay { delay, .. } => (used - delay).max(Duration::zero()),
            _ => used,
        }
    }

    /// `side`'s time left at `now`; `None` without a clock.
    pub fn remaining(&self, side: Color, now: DateTime<Utc>) -> Option<Duration> {
        if self.control == TimeControl::Unlimited {
            return None;
        }
        let bank = self.bank[index(side)];
        if side != self.to_move {
            return Some(bank);
        }
        Some((bank - self.charged(self.used(now))).max(Duration::zero()))
    }

    /// The instant the side to move's flag falls; `None` without a clock or while paused.
    pub fn deadline(&self) -> Option<DateTime<Utc>> {
        if self.control == TimeControl::Unlimited || self.paused_since.is_some() {
            return None;
        }
        let grace = match self.control {
            TimeControl::Delay { delay, .. } => delay,
            _ => Duration::zero(),
        };
        Some(self.turn_started + grace + self.bank[index(self.to_move)])
    }

    /// The first reminder instant after `after` in the current turn: when
    /// `used` (a fraction, 0.8 for 80%) of the time this turn had is gone, and
    /// `before` the flag. `None` when no reminder is left (or no clock).
    pub fn next_reminder(
        &self,
        after: DateTime<Utc>,
        used: Option<f64>,
        before: Option<Duration>,
    ) -> Option<DateTime<Utc>> {
        let deadline = self.deadline()?;
        let span = deadline - self.turn_started;
        let by_fraction = used.filter(|f| (0.0..1.0).contains(f)).map(|fraction| {
            let millis = (span.num_milliseconds() as f64 * fraction) as i64;
            self.turn_started + Duration::milliseconds(millis)
        });
        let by_margin = before.map(|margin| deadline - margin);
        [by_fraction, by_margin]
            .into_iter()
            .flatten()
            .filter(|at| *at > after && *at > self.turn_started && *at < deadline)
            .min()
    }

    /// Whether the side to move's time is out at `now`.
    pub fn is_flagged(&self, now: DateTime<Utc>) -> bool {
        self.deadline().is_some_and(|deadline| now >= deadline)
    }

    /// The side to move completed a move at `now`: charge it, apply the
    /// control's bonus, and start the opponent's turn.
    pub fn on_move(&mut self, now: DateTime<Utc>) {
        let side = index(self.to_move);
        let used = self.charged(self.used(now));
        self.moves[side] += 1;
        let bank = &mut self.bank[side];
        match self.control {
            TimeControl::PerMove { per_move } => *bank = per_move,
            TimeControl::Increment { increment, cap, .. } => {
                *bank = (*bank - used).max(Duration::zero()) + increment;
                if let Some(cap) = cap {
                    *bank = (*bank).min(cap);
                }
            }
            TimeControl::Period { moves, period } => {
                *bank = (*bank - used).max(Duration::zero());
                if self.moves[side].is_multiple_of(moves) {
                    // A new period begins; what was left carries over.
                    *bank += period;
                }
            }
            TimeControl::Delay { .. } => *bank = (*bank - used).max(Duration::zero()),
            TimeControl::Unlimited => {}
        }
        self.to_move = !self.to_move;
        self.turn_started = now;
        self.paused_since = None;
    }

    /// Stops the side to move's clock (leave).
    pub fn pause(&mut self, now: DateTime<Utc>) {
        if self.paused_since.is_none() {
            self.paused_since = Some(now);
        }
    }

    /// Restarts a paused clock; the pause is not charged.
    pub fn resume(&mut self, now: DateTime<Utc>) {
        if let Some(since) = self.paused_since.take() {
            self.turn_started += (now - since).max(Duration::zero());
        }
    }

    /// Gives the side to move back `span` of its current turn (time the bot
    /// could not count, such as an outage).
    pub fn credit_turn(&mut self, span: Duration) {
        self.turn_started += span.max(Duration::zero());
    }

    /// Adds time to `side`'s bank ("more time", or credit for downtime).
    pub fn add_time(&mut self, side: Color, extra: Duration) {
        if self.control != TimeControl::Unlimited {
            self.bank[index(side)] += extra.max(Duration::zero());
        }
    }
}

/// An instant rounded up to the millisecond, the precision every store
/// keeps instants to: a deadline kept so is never reached early.
pub fn round_up_to_millis(at: DateTime<Utc>) -> DateTime<Utc> {
    let below_millis = at.timestamp_subsec_nanos() % 1_000_000;
    if below_millis == 0 {
        at
    } else {
        at + Duration::nanoseconds(i64::from(1_000_000 - below_millis))
    }
}

/// When the scheduler must next look at a running game: its flag (the
/// clock's deadline), its next reminder, and the earlier of the two, the
/// instant it wakes up for. Each rounded up to the millisecond
/// ([`round_up_to_millis`]), so neither is looked at early.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Alarms {
    pub deadline: Option<DateTime<Utc>>,
    pub remind_at: Option<DateTime<Utc>>,
    pub wake_at: Option<DateTime<Utc>>,
}

impl Alarms {
    /// The alarms of a running game with this clock and next reminder
    /// (an ended game has none: [`Alarms::default`]).
    pub fn of(clock: Option<&Clock>, remind_at: Option<DateTime<Utc>>) -> Alarms {
        let deadline = clock.and_then(Clock::deadline).map(round_up_to_millis);
        let remind_at = remind_at.map(round_up_to_millis);
        Alarms {
            deadline,
            remind_at,
            wake_at: deadline.into_iter().chain(remind_at).min(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn day(n: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap() + Duration::days(n)
    }

    fn hours(n: i64) -> Duration {
        Duration::hours(n)
    }

    #[test]
    fn alarms_wake_at_the_earlier_of_flag_and_reminder_never_early() {
        let control: TimeControl = "3d".parse().unwrap();
        let started = day(0) + Duration::nanoseconds(1_500_001);
        let clock = Clock::start(control, Color::White, started);
        let flag = day(3) + Duration::milliseconds(2);
        assert_eq!(round_up_to_millis(started + Duration::days(3)), flag);
        assert_eq!(round_up_to_millis(flag), flag);

        let soon = Alarms::of(Some(&clock), Some(day(1)));
        assert_eq!(soon.deadline, Some(flag));
        assert_eq!(soon.remind_at, Some(day(1)));
        assert_eq!(soon.wake_at, Some(day(1)));

        let late = Alarms::of(Some(&clock), Some(day(4)));
        assert_eq!(late.wake_at, Some(flag));

        let unclocked: TimeControl = "none".parse().unwrap();
        let none = Clock::start(unclocked, Color::White, started);
        assert_eq!(Alarms::of(Some(&none), None), Alarms::default());
        let reminder_only = Alarms::of(None, Some(day(2) + Duration::microseconds(1)));
        assert_eq!(
            reminder_only.wake_at,
            Some(day(2) + Duration::milliseconds(1))
        );
    }

    #[test]
    fn time_controls_parse_and_print() {
        let cases = [
            ("3d", "3d"),
            ("12h", "12h"),
            ("30d+1d", "30d+1d"),
            ("30d+1d max 45d", "30d+1d max 45d"),
            ("10/50d", "10/50d"),
            ("5d delay 1d", "5d delay 1d"),
            ("none", "none"),
            (" 7D ", "7d"),
        ];
        for (text, canonical) in cases {
            let control: TimeControl = text.parse().expect(text);
            assert_eq!(control.to_string(), canonical);
        }
        for bad in [
            "",
            "3",
            "3w",
            "0d",
            "400d",
            "30d+",
            "10/",
            "0/50d",
            "30d+1d max 10d",
            "3d 4d",
            "fast",
            // Multi-byte characters where the unit or a number belongs.
            "3é",
            "é",
            "3dé",
            "3é+1d",
            "30d+1é",
            "30d+1d max 4é",
            "10/5é",
            "5d delay 1é",
            "é/50d",
            "３d",
            "3ｄ",
            "30d+1d max 45d 🙂",
        ] {
            assert_eq!(bad.parse::<TimeControl>(), Err(TimeControlError), "{bad:?}");
        }
    }

    #[test]
    fn per_move_refills_after_each_move() {
        let mut clock = Clock::start("3d".parse().unwrap(), Color::White, day(0));
        assert_eq!(clock.deadline(), Some(day(3)));
        clock.on_move(day(2));
        assert_eq!(
            clock.remaining(Color::White, day(2)),
            Some(Duration::days(3))
        );
        assert_eq!(clock.deadline(), Some(day(5)));
        assert!(!clock.is_flagged(day(5) - Duration::seconds(1)));
        assert!(clock.is_flagged(day(5)));
    }

    #[test]
    fn increment_with_a_cap() {
        let control = "10d+1d max 11d".parse().unwrap();
        let mut clock = Clock::start(control, Color::White, day(0));
        clock.on_move(day(0) + hours(12)); // White: 10d - 12h + 1d = 10d12h
        assert_eq!(
            clock.remaining(Color::White, day(1)),
            Some(Duration::days(10) + hours(12))
        );
        clock.on_move(day(1)); // Black: 10d - 12h + 1d
        clock.on_move(day(1)); // White: 10d12h + 1d capped at 11d
        assert_eq!(
            clock.remaining(Color::White, day(1)),
            Some(Duration::days(11))
        );
        assert_eq!(
            clock.deadline(),
            Some(day(1) + Duration::days(10) + hours(12))
        );
    }

    #[test]
    fn periods_roll_over_and_carry_time() {
        let mut clock = Clock::start("2/10d".parse().unwrap(), Color::White, day(0));
        // White uses 3 days, then 1 day: two moves, a new period adds 10 days to the 6 left.
        clock.on_move(day(3));
        clock.on_move(day(3));
        clock.on_move(day(4));
        assert_eq!(
            clock.remaining(Color::White, day(4)),
            Some(Duration::days(16))
        );
        // Black has used nothing of its first period.
        assert_eq!(
            clock.remaining(Color::Black, day(4)),
            Some(Duration::days(10))
        );
    }

    #[test]
    fn delay_is_spent_before_the_bank() {
        let mut clock = Clock::start("5d delay 1d".parse().unwrap(), Color::White, day(0));
        assert_eq!(
            clock.remaining(Color::White, day(0) + hours(20)),
            Some(Duration::days(5))
        );
        assert_eq!(clock.deadline(), Some(day(6)));
        clock.on_move(day(2)); // one day charged
        assert_eq!(
            clock.remaining(Color::White, day(2)),
            Some(Duration::days(4))
        );
    }

    #[test]
    fn a_pause_inside_a_period_is_not_charged() {
        let mut clock = Clock::start("10/50d".parse().unwrap(), Color::Black, day(0));
        clock.pause(day(5));
        assert_eq!(clock.deadline(), None);
        assert_eq!(
            clock.remaining(Color::Black, day(20)),
            Some(Duration::days(45))
        );
        clock.resume(day(20));
        assert_eq!(clock.deadline(), Some(day(65)));
        clock.on_move(day(21));
        assert_eq!(
            clock.remaining(Color::Black, day(21)),
            Some(Duration::days(44))
        );
    }

    #[test]
    fn reminders_come_at_eighty_percent_and_a_day_before_the_flag() {
        let clock = Clock::start("5d".parse().unwrap(), Color::White, day(0));
        let next = |after| clock.next_reminder(after, Some(0.8), Some(Duration::days(1)));
        assert_eq!(next(day(0)), Some(day(4)), "both points are day 4");
        let clock = Clock::start("10d".parse().unwrap(), Color::White, day(0));
        let next = |after| clock.next_reminder(after, Some(0.8), Some(Duration::days(1)));
        assert_eq!(next(day(0)), Some(day(8)));
        assert_eq!(next(day(8)), Some(day(9)));
        assert_eq!(next(day(9)), None);
        // A one-day control: 80% (19h12m) comes before "24 hours before" (the start).
        let clock = Clock::start("1d".parse().unwrap(), Color::White, day(0));
        let at = clock.next_reminder(day(0), Some(0.8), Some(Duration::days(1)));
        assert_eq!(at, Some(day(0) + Duration::minutes(1152)));
        assert_eq!(clock.next_reminder(day(0), None, None), None);
    }

    #[test]
    fn clocks_round_trip_through_json() {
        let mut clock = Clock::start("30d+1d max 45d".parse().unwrap(), Color::White, day(0));
        clock.on_move(day(2));
        clock.pause(day(3));
        let json = serde_json::to_string(&clock).expect("serializes");
        let back: Clock = serde_json::from_str(&json).expect("reads back");
        assert_eq!(back, clock);
        assert!(serde_json::from_str::<Clock>(&json.replace("30d+1d", "fast")).is_err());
    }

    #[test]
    fn unlimited_has_no_deadline_and_more_time_adds_up() {
        let clock = Clock::start(TimeControl::Unlimited, Color::White, day(0));
        assert_eq!(clock.deadline(), None);
        assert_eq!(clock.remaining(Color::White, day(100)), None);
        let mut clock = Clock::start("3d".parse().unwrap(), Color::White, day(0));
        clock.add_time(Color::White, Duration::days(2));
        assert_eq!(clock.deadline(), Some(day(5)));
    }
}

/// A clock as stored: the control as text, times in whole seconds.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct StoredClock {
    control: String,
    bank_seconds: [i64; 2],
    moves: [u32; 2],
    to_move: String,
    turn_started: DateTime<Utc>,
    paused_since: Option<DateTime<Utc>>,
}

impl From<Clock> for StoredClock {
    fn from(clock: Clock) -> StoredClock {
        StoredClock {
            control: clock.control.to_string(),
            bank_seconds: clock.bank.map(|d| d.num_seconds()),
            moves: clock.moves,
            to_move: color_str(clock.to_move).to_owned(),
            turn_started: clock.turn_started,
            paused_since: clock.paused_since,
        }
    }
}

impl TryFrom<StoredClock> for Clock {
    type Error = String;

    fn try_from(stored: StoredClock) -> Result<Clock, String> {
        let control = stored
            .control
            .parse()
            .map_err(|_| format!("time control {:?}", stored.control))?;
        let to_move = parse_color(&stored.to_move).ok_or("side to move")?;
        Ok(Clock {
            control,
            bank: stored.bank_seconds.map(Duration::seconds),
            moves: stored.moves,
            to_move,
            turn_started: stored.turn_started,
            paused_since: stored.paused_since,
        })
    }
}
