//! The limit on engines running at once across processes (issue 42): two
//! services on one database, as two processes would be, with
//! `max_engines = 1`. While one reviews, the other's review is refused with
//! a message; once it is done the slot is free; a slot whose holder
//! crashed comes back when its lease runs out. On SQLite (one file) and on
//! PostgreSQL (one schema; needs `PAWNPOST_TEST_POSTGRES`, skipped without).

#[path = "common/fake_engine.rs"]
mod fake_engine;
#[path = "common/requests.rs"]
mod requests;

use std::path::Path;
use std::time::Duration;

use chrono::{DateTime, TimeZone, Utc};
use fake_engine::{HONEST, HUNG_QUEEN, engine_pid, fake_engine};
use pawnpost::core::platform::Platform;
use pawnpost::service::{ReviewSettings, Service, ServiceConfig};
use pawnpost::storage::Store;
use pawnpost::storage::postgres::scratch::{ScratchSchema, test_url};
use pawnpost::storage::sqlite::SqliteStore;
use requests::{request, text};

const BUSY: &str = "The engine is busy with another review";
const REVIEWED: &str = "Engine review of game";

fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap()
}

/// A service on `store` whose engine (in `dir`) takes a while over each position.
fn service(store: Store, dir: &Path) -> Service {
    let slow = format!("sleep 0.2; {HONEST}");
    let config = ServiceConfig {
        reviews: ReviewSettings {
            engine: Some(fake_engine(dir, &slow)),
            nodes: 1000,
            max_engines: 1,
            deadline: Duration::from_secs(20),
            ..ReviewSettings::default()
        },
        ..ServiceConfig::default()
    };
    Service::new(store, config)
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

async fn play_hung_queen(service: &Service) {
    for (user, words) in HUNG_QUEEN {
        say(service, user, words, start()).await;
    }
}

/// The test itself, on two stores over one database.
async fn one_engine_across_two_services(first: Store, second: Store) {
    let (dir_a, dir_b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = std::sync::Arc::new(service(first, dir_a.path()));
    let b = service(second, dir_b.path());
    play_hung_queen(&a).await;
    let reviewing = tokio::spawn({
        let a = std::sync::Arc::clone(&a);
        async move { say(&a, "alice", "/review game:1", start()).await }
    });
    // A's engine starts once A holds the slot.
    while engine_pid(dir_a.path()).is_none() {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let refused = say(&b, "bob", "/review game:1", start()).await;
    assert!(refused.contains(BUSY), "{refused}");
    assert!(engine_pid(dir_b.path()).is_none(), "B started no engine");
    let reviewed = reviewing.await.expect("A's review");
    assert!(reviewed.contains(REVIEWED), "{reviewed}");
    // A gave the slot back: B's review of another game runs.
    play_hung_queen(&b).await;
    let later = say(&b, "bob", "/review game:2", start()).await;
    assert!(later.contains(REVIEWED), "{later}");
    // A process that crashed holding the slot: free when its lease runs out.
    play_hung_queen(&a).await;
    let crashed_until = start() + chrono::Duration::minutes(10);
    let leased = b
        .store()
        .lease_engine_slot(1, "crashed", start(), crashed_until);
    assert_eq!(leased.await.expect("lease"), Some(0));
    let held = say(&b, "bob", "/review game:3", start()).await;
    assert!(held.contains(BUSY), "{held}");
    let after = crashed_until + chrono::Duration::seconds(1);
    let freed = say(&b, "bob", "/review game:3", after).await;
    assert!(freed.contains(REVIEWED), "{freed}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_engine_at_a_time_across_two_services_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("shared.db");
    let first = Store::from(SqliteStore::open(&path).expect("open"));
    let second = Store::from(SqliteStore::open(&path).expect("open"));
    one_engine_across_two_services(first, second).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_engine_at_a_time_across_two_services_on_postgres() {
    let Some(url) = test_url() else {
        return;
    };
    let schema = ScratchSchema::create(&url, "engine_slots")
        .await
        .expect("schema");
    let first = Store::from(schema.store(4).await.expect("store"));
    let second = Store::from(schema.store(4).await.expect("store"));
    one_engine_across_two_services(first, second).await;
}
