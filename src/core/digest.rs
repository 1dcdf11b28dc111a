//! When a player's daily digest is due: at a local time of day in their
//! time zone, daylight-saving changes included (the IANA database, through
//! chrono-tz). Pure: the instant to count from is a parameter.
//!
//! A local time that a spring change skips (02:30 on the night clocks go
//! from 02:00 to 03:00) is read with the offset before the change (03:30),
//! so the digest still comes that day; a local time an autumn change repeats is
//! its first occurrence, so it comes once.

use chrono::{DateTime, Days, LocalResult, NaiveDate, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;

/// Minutes in a day: a digest's time is `0..MINUTES_PER_DAY`.
pub const MINUTES_PER_DAY: u32 = 24 * 60;
/// The longest time zone name read (the IANA names are at most 32 characters).
pub const MAX_ZONE_NAME: usize = 64;

/// The IANA time zone named `name` (`Europe/Paris`, any case), if any.
pub fn zone(name: &str) -> Option<Tz> {
    if name.chars().count() > MAX_ZONE_NAME {
        return None;
    }
    name.parse::<Tz>().ok().or_else(|| {
        chrono_tz::TZ_VARIANTS
            .iter()
            .copied()
            .find(|zone| zone.name().eq_ignore_ascii_case(name))
    })
}

/// The first instant strictly after `after` whose local time in `zone` is
/// `minute` minutes after midnight (see the module's note on DST).
pub fn next_at(after: DateTime<Utc>, zone: Tz, minute: u32) -> DateTime<Utc> {
    let minute = minute % MINUTES_PER_DAY;
    let today = after.with_timezone(&zone).date_naive();
    // Yesterday's time may still lie ahead in UTC terms only across odd
    // zones' changes; three days always hold the next one.
    (0..4u64)
        .filter_map(|n| today.pred_opt()?.checked_add_days(Days::new(n)))
        .map(|day| at_local(day, zone, minute))
        .find(|at| *at > after)
        .unwrap_or(after + chrono::Duration::days(1))
}

/// The instant of `minute` on local day `day` in `zone`.
fn at_local(day: NaiveDate, zone: Tz, minute: u32) -> DateTime<Utc> {
    let time = NaiveTime::from_num_seconds_from_midnight_opt(minute * 60, 0).unwrap_or_default();
    let wall = day.and_time(time);
    match zone.from_local_datetime(&wall) {
        LocalResult::Single(at) => at.with_timezone(&Utc),
        LocalResult::Ambiguous(first, _) => first.with_timezone(&Utc),
        // In a gap: the wall time read with the offset before the change
        // (02:30 becomes 03:30 when the clocks skip an hour).
        LocalResult::None => {
            let before = zone.offset_from_utc_datetime(&(wall - chrono::Duration::days(1)));
            let offset = chrono::Offset::fix(&before);
            let instant = wall - offset;
            Utc.from_utc_datetime(&instant)
        }
    }
}

/// The local calendar day of `at` in `zone`.
pub fn local_day(at: DateTime<Utc>, zone: Tz) -> NaiveDate {
    at.with_timezone(&zone).date_naive()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text)
            .unwrap()
            .with_timezone(&Utc)
    }

    /// (after, zone, local time, the next digest in UTC).
    #[test]
    fn the_next_digest_is_at_the_local_time_across_dst() {
        let table = [
            // Paris in winter is UTC+1, in summer UTC+2.
            (
                "2026-01-10T06:00:00Z",
                "Europe/Paris",
                "08:30",
                "2026-01-10T07:30:00Z",
            ),
            (
                "2026-01-10T07:30:00Z",
                "Europe/Paris",
                "08:30",
                "2026-01-11T07:30:00Z",
            ),
            // The spring change (29 March 2026, 02:00 → 03:00).
            (
                "2026-03-28T07:30:00Z",
                "Europe/Paris",
                "08:30",
                "2026-03-29T06:30:00Z",
            ),
            // 02:30 does not exist that night: read as 03:30 (summer time).
            (
                "2026-03-28T12:00:00Z",
                "Europe/Paris",
                "02:30",
                "2026-03-29T01:30:00Z",
            ),
            // The autumn change (25 October 2026, 03:00 → 02:00): 02:30 twice, the first.
            (
                "2026-10-24T12:00:00Z",
                "Europe/Paris",
                "02:30",
                "2026-10-25T00:30:00Z",
            ),
            (
                "2026-10-25T00:30:00Z",
                "Europe/Paris",
                "02:30",
                "2026-10-26T01:30:00Z",
            ),
            // New York: the spring change on 8 March 2026.
            (
                "2026-03-07T14:00:00Z",
                "America/New_York",
                "09:00",
                "2026-03-08T13:00:00Z",
            ),
            // East of UTC, the local day is already the next one.
            (
                "2026-06-30T20:00:00Z",
                "Pacific/Auckland",
                "07:00",
                "2026-07-01T19:00:00Z",
            ),
            (
                "2026-06-30T20:00:00Z",
                "UTC",
                "00:00",
                "2026-07-01T00:00:00Z",
            ),
        ];
        for (after, name, local, expected) in table {
            let zone = zone(name).unwrap();
            let (h, m) = local.split_once(':').unwrap();
            let minute = h.parse::<u32>().unwrap() * 60 + m.parse::<u32>().unwrap();
            assert_eq!(
                next_at(utc(after), zone, minute),
                utc(expected),
                "{after} {name} {local}"
            );
        }
    }

    #[test]
    fn one_digest_a_local_day_for_a_year() {
        let zone = zone("Europe/Paris").unwrap();
        let mut at = utc("2026-01-01T00:00:00Z");
        let mut days = Vec::new();
        for _ in 0..365 {
            at = next_at(at, zone, 8 * 60);
            days.push(local_day(at, zone));
            assert_eq!(at.with_timezone(&zone).format("%H:%M").to_string(), "08:00");
        }
        let distinct: std::collections::BTreeSet<_> = days.iter().collect();
        assert_eq!(distinct.len(), 365);
    }

    #[test]
    fn zones_are_read_by_their_iana_names_only() {
        assert_eq!(zone("Europe/Paris"), Some(chrono_tz::Europe::Paris));
        assert_eq!(zone("europe/paris"), Some(chrono_tz::Europe::Paris));
        for bad in ["", "Mars/Olympus", "Europe/Paris\u{202e}", &"x".repeat(200)] {
            assert_eq!(zone(bad), None, "{bad:?}");
        }
    }
}
