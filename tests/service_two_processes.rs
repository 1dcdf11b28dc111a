//! Two services on one SQLite file, as two processes would be: each keeps
//! its own cache of rebuilt games, and neither ever acts on a stale one.

use chrono::{Duration, TimeZone, Utc};
use pawnpost::core::platform::Platform;
use pawnpost::service::{
    BoardImages, Input, Moderation, Reply, Request, Service, ServiceConfig, User,
};
use pawnpost::storage::sqlite::SqliteStore;

fn act(user: &str, text: &str, key: &str) -> Request {
    Request {
        platform: Platform::Console,
        server: "club".into(),
        channel: "main".into(),
        user: User {
            id: user.into(),
            name: user.into(),
            locale: None,
            moderation: Moderation::None,
        },
        key: Some(key.into()),
        input: Input::Text(text.into()),
        board_images: BoardImages::Omitted,
    }
}

fn played(replies: &[Reply]) -> Vec<String> {
    replies
        .iter()
        .flat_map(|r| &r.events)
        .filter_map(|e| match &e.event {
            pawnpost::core::event::Event::MovePlayed { san, .. } => Some(san.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn alternating_services_see_each_others_moves() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("shared.db");
    let first = Service::new(
        SqliteStore::open(&path).expect("open"),
        ServiceConfig::default(),
    );
    let second = Service::new(
        SqliteStore::open(&path).expect("open"),
        ServiceConfig::default(),
    );
    let mut now = Utc.with_ymd_and_hms(2026, 4, 1, 0, 0, 0).unwrap();
    let mut tick = || {
        now += Duration::minutes(1);
        now
    };
    first
        .handle(act("alice", "/challenge @bob color:white", "1"), tick())
        .await;
    second.handle(act("bob", "/accept", "2"), tick()).await;
    let script = [
        ("alice", "e4"),
        ("bob", "e5"),
        ("alice", "Nf3"),
        ("bob", "Nc6"),
        ("alice", "Bb5"),
        ("bob", "a6"),
    ];
    let mut sans = Vec::new();
    for (index, (user, mv)) in script.iter().enumerate() {
        // Each service acts every other time, so each one's cached copy is stale.
        let service = if index % 3 == 0 { &first } else { &second };
        let key = format!("m{index}");
        let replies = service
            .handle(act(user, &format!("/move {mv}"), &key), tick())
            .await;
        assert!(replies.iter().all(|r| !r.ephemeral), "{replies:?}");
        sans.extend(played(&replies));
    }
    assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    let pgn = first.export_pgn(1).await.expect("read").expect("game");
    assert!(pgn.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"), "{pgn}");
}
