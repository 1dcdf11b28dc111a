//! The most players each tournament system takes (`[tournaments]`, issue
//! 42): a `max` above it, a join past it and a start with more players
//! (the limit lowered after they joined) are refused in the asker's
//! language, naming the system and the limit, and change nothing.

#[path = "common/due.rs"]
mod due;

use chrono::{DateTime, Duration, TimeZone, Utc};
use pawnpost::competition::tournament::Limits;
use pawnpost::core::platform::Platform;
use pawnpost::service::{
    BoardImages, Input, Moderation, Reply, Request, Service, ServiceConfig, User,
};
use pawnpost::storage::sqlite::SqliteStore;

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 6, 1, 9, 0, 0).unwrap()
}

async fn act(service: &Service, user: &str, text: &str, at: DateTime<Utc>) -> Vec<Reply> {
    let act = Request {
        platform: Platform::Console,
        server: "club".into(),
        channel: "main".into(),
        user: User {
            id: user.into(),
            name: user.into(),
            locale: None,
            moderation: Moderation::None,
        },
        key: None,
        input: Input::Text(text.into()),
        board_images: BoardImages::Omitted,
    };
    service.handle(act, at).await
}

/// A service on the database at `path` taking at most `round_robin`
/// players in a round robin and `swiss` in a Swiss.
fn service(path: &std::path::Path, round_robin: u32, swiss: u32) -> Service {
    let config = ServiceConfig {
        tournament_limits: Limits {
            round_robin,
            swiss,
            ..Limits::default()
        },
        ..ServiceConfig::default()
    };
    Service::new(SqliteStore::open(path).expect("SQLite"), config)
}

/// The single ephemeral answer to `user`, if that is what came back.
fn refusal<'a>(replies: &'a [Reply], user: &str) -> Option<&'a str> {
    match replies {
        [reply] if reply.ephemeral && reply.to.as_deref() == Some(user) => Some(&reply.text),
        _ => None,
    }
}

/// Plays `rows` (who, what, refused with this text, or answered in public)
/// on `service`.
async fn play(service: &Service, rows: &[(&str, &str, Option<&str>)]) {
    for &(user, text, refused) in rows {
        let replies = act(service, user, text, t0()).await;
        match refused {
            Some(expected) => assert_eq!(refusal(&replies, user), Some(expected), "{text}"),
            None => assert!(
                refusal(&replies, user).is_none(),
                "{user}: {text}: {replies:?}"
            ),
        }
    }
}

#[tokio::test]
async fn joins_past_a_system_s_limit_are_refused_in_each_language() {
    let dir = tempfile::tempdir().expect("temp dir");
    let service = service(&dir.path().join("club.db"), 4, 3);
    act(&service, "claire", "/settings language fr", t0()).await;
    let rows: &[(&str, &str, Option<&str>)] = &[
        (
            "alice",
            "/tournament create round_robin max:5",
            Some("A round robin tournament takes at most 4 players here, not 5."),
        ),
        (
            "claire",
            "/tournament create swiss max:9",
            Some("Ce système (système suisse) accepte au plus 3 joueurs ici, pas 9."),
        ),
        ("alice", "/tournament create round_robin", None),
        ("alice", "/tournament join", None),
        ("bob", "/tournament join", None),
        ("carol", "/tournament join", None),
        ("dave", "/tournament join", None),
        (
            "erin",
            "/tournament join",
            Some("Tournament #1 is full: a round robin tournament takes at most 4 players here."),
        ),
        (
            "claire",
            "/tournament join",
            Some(
                "Le tournoi #1 est complet : ce système (toutes rondes) \
                 accepte au plus 4 joueurs ici.",
            ),
        ),
        // A place freed is a place again.
        ("dave", "/tournament leave", None),
        ("erin", "/tournament join", None),
        // A Swiss has its own limit.
        ("alice", "/tournament create swiss", None),
        ("alice", "/tournament join #2", None),
        ("bob", "/tournament join #2", None),
        ("carol", "/tournament join #2", None),
        (
            "dave",
            "/tournament join #2",
            Some("Tournament #2 is full: a Swiss tournament takes at most 3 players here."),
        ),
    ];
    play(&service, rows).await;
}

#[tokio::test]
async fn a_start_with_more_players_than_the_limit_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("club.db");
    let before = service(&path, 5, 2_000);
    let mut rows: Vec<(&str, &str, Option<&str>)> =
        vec![("alice", "/tournament create round_robin", None)];
    for player in ["alice", "bob", "carol", "dave", "erin"] {
        rows.push((player, "/tournament join", None));
    }
    play(&before, &rows).await;
    // The operator lowers the limit to 4 and restarts.
    let after = service(&path, 4, 2_000);
    let rows: &[(&str, &str, Option<&str>)] = &[(
        "alice",
        "/tournament start",
        Some(
            "Tournament #1 cannot start with 5 players: a round robin \
                 tournament takes at most 4 here.",
        ),
    )];
    play(&after, rows).await;
    act(&after, "alice", "/settings language fr", t0()).await;
    let rows: &[(&str, &str, Option<&str>)] = &[
        (
            "alice",
            "/tournament start",
            Some(
                "Le tournoi #1 ne peut pas commencer avec 5 joueurs : ce système \
                 (toutes rondes) en accepte au plus 4 ici.",
            ),
        ),
        // Nothing changed: one leaves, and the four start.
        ("erin", "/tournament leave", None),
        ("alice", "/tournament start", None),
    ];
    play(&after, rows).await;
}

#[tokio::test]
async fn a_scheduled_start_past_the_limit_is_cancelled_with_the_reason() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("club.db");
    let before = service(&path, 32, 4);
    let mut rows: Vec<(&str, &str, Option<&str>)> =
        vec![("alice", "/tournament create swiss entry:1", None)];
    for player in ["alice", "bob", "carol", "dave"] {
        rows.push((player, "/tournament join", None));
    }
    play(&before, &rows).await;
    let after = service(&path, 32, 3);
    let notices = due::due_notices(&after, t0() + Duration::days(2)).await;
    let texts: Vec<&str> = notices.iter().map(|r| r.text.as_str()).collect();
    assert!(
        texts.iter().any(|t| t.contains(
            "Tournament #1 cannot start with 4 players: a Swiss tournament takes at most 3 here."
        )),
        "{texts:#?}"
    );
    let replies = act(&after, "bob", "/tournament join", t0() + Duration::days(2)).await;
    assert!(refusal(&replies, "bob").is_some(), "{replies:?}");
}
