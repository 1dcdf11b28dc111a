//! A notice is written in its reader's language: their own setting, else
//! the language their chat client last said it speaks, else the server's.

#[path = "common/requests.rs"]
mod requests;

use chrono::{TimeZone, Utc};
use pawnpost::core::platform::Platform;
use pawnpost::service::{Reply, Request, Service, ServiceConfig};
use pawnpost::storage::sqlite::SqliteStore;
use requests::{RequestExt, request, text};

fn act(user: &str, locale: &str, said: &str) -> Request {
    request(Platform::Discord, "guild", "42", user, text(said)).locale(locale)
}

fn to<'a>(replies: &'a [Reply], user: &str) -> &'a str {
    replies
        .iter()
        .find(|r| r.to.as_deref() == Some(user))
        .map_or("", |r| r.text.as_str())
}

#[tokio::test]
async fn each_player_is_told_in_their_client_s_language() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(dir.path().join("bot.db")).unwrap();
    let service = Service::new(store, ServiceConfig::default());
    let now = Utc.with_ymd_and_hms(2026, 5, 1, 12, 0, 0).unwrap();
    // Neither chose a language: marie's client is French, bob's English.
    let challenge = service
        .handle(act("marie", "fr", "/challenge @bob color:white"), now)
        .await;
    assert!(
        to(&challenge, "bob").contains("marie challenges bob"),
        "{challenge:?}"
    );
    assert!(
        to(&challenge, "marie").contains("marie défie bob"),
        "{challenge:?}"
    );
    let started = service.handle(act("bob", "en-US", "/accept"), now).await;
    assert!(
        to(&started, "marie").contains("La partie n° 1 commence"),
        "{started:?}"
    );
    assert!(
        to(&started, "bob").contains("Game #1 begins"),
        "{started:?}"
    );
    let e4 = service.handle(act("marie", "fr", "/move e4"), now).await;
    assert!(to(&e4, "bob").contains("marie played e4"), "{e4:?}");
    let e5 = service.handle(act("bob", "en-GB", "/move e5"), now).await;
    assert!(to(&e5, "marie").contains("bob a joué e5"), "{e5:?}");
}
