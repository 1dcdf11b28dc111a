//! The daily digest (issue 44) on a simulated clock: exactly one a day per
//! player, at their local hour across the spring daylight-saving change,
//! none during leave, none when there is nothing to say; on SQLite, and on
//! PostgreSQL with two services (as two bot processes) waking for it
//! together (needs `PAWNPOST_TEST_POSTGRES`; skipped with a note without).

#[path = "common/requests.rs"]
mod requests;

use std::sync::Mutex;

use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use pawnpost::core::platform::Platform;
use pawnpost::service::{BoardImages, Notifier, Reply, Service, ServiceConfig};
use pawnpost::storage::Store;
use pawnpost::storage::postgres::scratch::{ScratchSchema, test_url};
use pawnpost::storage::sqlite::SqliteStore;
use requests::{request, text};

const DIGEST: &str = "Your daily digest";

/// The console's direct messages, with the simulated instant each came.
#[derive(Default)]
struct Inbox {
    now: Mutex<DateTime<Utc>>,
    got: Mutex<Vec<(DateTime<Utc>, Reply)>>,
}

impl Notifier for Inbox {
    fn platform(&self) -> Platform {
        Platform::Console
    }

    async fn deliver(&self, replies: Vec<Reply>) {
        let now = *self.now.lock().unwrap();
        self.got
            .lock()
            .unwrap()
            .extend(replies.into_iter().map(|r| (now, r)));
    }
}

impl Inbox {
    /// The digests `user` received: when, and their text.
    fn digests(&self, user: &str) -> Vec<(DateTime<Utc>, String)> {
        self.got
            .lock()
            .unwrap()
            .iter()
            .filter(|(_, r)| {
                r.direct && r.to.as_deref() == Some(user) && r.text.starts_with(DIGEST)
            })
            .map(|(at, r)| (*at, r.text.clone()))
            .collect()
    }
}

async fn say(service: &Service, user: &str, words: &str, now: DateTime<Utc>) -> String {
    let act = request(Platform::Console, "club", "main", user, text(words));
    let replies = service.handle(act, now).await;
    replies
        .iter()
        .map(|r| r.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Thursday 26 March 2026, 00:00 UTC: Paris changes to summer time on
/// Sunday the 29th at 02:00 (UTC+1 to UTC+2).
fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 26, 0, 0, 0).unwrap()
}

/// Ann (Paris, digest at 08:00) has a game where it is her move, and a
/// challenge waiting; Dan (UTC, digest at 09:00) has nothing to be told.
async fn set_up(service: &Service) {
    let now = start();
    let said = say(service, "ann", "/settings timezone Europe/Paris", now).await;
    assert!(said.contains("Europe/Paris"), "{said}");
    let said = say(service, "ann", "/settings digest 08:00", now).await;
    assert!(said.contains("08:00"), "{said}");
    say(service, "dan", "/settings digest 09:00", now).await;
    say(service, "bob", "/challenge @ann color:white time:30d", now).await;
    say(service, "ann", "/accept", now).await;
    say(service, "bob", "/move e4", now).await;
    say(service, "carl", "/challenge @ann time:30d", now).await;
}

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 3, d).unwrap()
}

/// The instants 08:00 Paris on each day from the 26th to the 31st, but
/// those in `leave` (a day's digest is not sent during leave).
fn expected(skip: &[u32]) -> Vec<DateTime<Utc>> {
    (26..=31)
        .filter(|d| !skip.contains(d))
        .map(|d| {
            // Winter (UTC+1) until the 29th, summer (UTC+2) from it.
            let hour = if d < 29 { 7 } else { 6 };
            day(d).and_hms_opt(hour, 0, 0).unwrap().and_utc()
        })
        .collect()
}

async fn one_a_day(services: &[&Service], inboxes: &[&Inbox]) {
    set_up(services[0]).await;
    // Ann takes two days of leave on the 30th at 12:00 UTC, through to
    // the 1st at 12:00 (after 08:00 on the 31st; before it on the 1st).
    let leave_at = day(30).and_hms_opt(12, 0, 0).unwrap().and_utc();
    run_until(services, inboxes, start(), leave_at).await;
    let said = say(services[1], "ann", "/leave start 2", leave_at).await;
    assert!(said.contains("on leave"), "{said}");
    let end = Utc.with_ymd_and_hms(2026, 4, 1, 10, 0, 0).unwrap();
    run_until(services, inboxes, leave_at, end).await;
    let mut got: Vec<(DateTime<Utc>, String)> =
        inboxes.iter().flat_map(|i| i.digests("ann")).collect();
    got.sort();
    let when: Vec<DateTime<Utc>> = got.iter().map(|(at, _)| *at).collect();
    // 26th to 30th at 08:00 Paris, none on the 31st (leave), and on the
    // 1st (leave over at 12:00 UTC, after the hour) none either.
    assert_eq!(when, expected(&[31]), "{got:#?}");
    let first = &got[0].1;
    assert!(first.contains("1 game where it is your move"), "{first}");
    assert!(first.contains("#1 bob – ann"), "{first}");
    assert!(first.contains("1 challenge waiting"), "{first}");
    assert!(first.contains("carl challenges you"), "{first}");
    // Dan had nothing to be told: no digest at all.
    assert!(inboxes.iter().all(|i| i.digests("dan").is_empty()));
}

/// Runs the services' deadlines and outboxes every 15 minutes from `from` to `end`.
async fn run_until(
    services: &[&Service],
    inboxes: &[&Inbox],
    from: DateTime<Utc>,
    end: DateTime<Utc>,
) {
    let mut now = from;
    while now < end {
        now += Duration::minutes(15);
        let due = services.iter().map(|service| service.run_due(now));
        futures_util::future::join_all(due).await;
        for (service, inbox) in services.iter().zip(inboxes) {
            *inbox.now.lock().unwrap() = now;
            service
                .deliver_notices(*inbox, now, BoardImages::Omitted)
                .await;
        }
    }
}

#[tokio::test]
async fn one_digest_a_day_at_the_local_hour_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bot.db");
    let first = Service::new(SqliteStore::open(&path).unwrap(), ServiceConfig::default());
    let second = Service::new(SqliteStore::open(&path).unwrap(), ServiceConfig::default());
    let (a, b) = (Inbox::default(), Inbox::default());
    one_a_day(&[&first, &second], &[&a, &b]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_digest_a_day_across_two_processes_on_postgres() {
    let Some(url) = test_url() else { return };
    let schema = ScratchSchema::create(&url, "digest").await.expect("schema");
    let first = Service::new(
        Store::from(schema.store(4).await.expect("store")),
        ServiceConfig::default(),
    );
    let second = Service::new(
        Store::from(schema.store(4).await.expect("store")),
        ServiceConfig::default(),
    );
    let (a, b) = (Inbox::default(), Inbox::default());
    one_a_day(&[&first, &second], &[&a, &b]).await;
}
