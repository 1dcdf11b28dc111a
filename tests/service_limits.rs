//! Bounds on the work one player can make the bot do: open challenges per
//! player, and `/gif` answers per player and hour. A refusal is an
//! ephemeral answer in the asker's language, and changes nothing.

use chrono::{DateTime, Duration, TimeZone, Utc};
use pawnpost::core::platform::Platform;
use pawnpost::service::{
    BoardImages, Input, Moderation, RenderLimits, Reply, Request, Service, ServiceConfig, User,
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

fn service(config: ServiceConfig) -> Service {
    Service::new(
        SqliteStore::open_in_memory().expect("SQLite in memory"),
        config,
    )
}

/// The single ephemeral answer to `user`, if that is what came back.
fn refusal<'a>(replies: &'a [Reply], user: &str) -> Option<&'a str> {
    match replies {
        [reply] if reply.ephemeral && reply.to.as_deref() == Some(user) => Some(&reply.text),
        _ => None,
    }
}

#[tokio::test]
async fn open_challenges_are_capped_per_player_in_their_language() {
    let service = service(ServiceConfig {
        max_open_challenges: 3,
        ..ServiceConfig::default()
    });
    act(&service, "claire", "/settings language fr", t0()).await;
    // (who, what, refused with this text)
    let rows: &[(&str, &str, Option<&str>)] = &[
        ("alice", "/challenge @bob", None),
        ("alice", "/challenge", None),
        ("alice", "/challenge @carol", None),
        (
            "alice",
            "/challenge @dave",
            Some(
                "You already have 3 open challenges, the most allowed: \
                 cancel one with /cancel or wait for an answer.",
            ),
        ),
        ("bob", "/challenge @alice", None),
        ("claire", "/challenge", None),
        ("claire", "/challenge", None),
        ("claire", "/challenge", None),
        (
            "claire",
            "/challenge @bob",
            Some(
                "Vous avez déjà 3 défis ouverts, le maximum permis : \
                 annulez-en un avec /retirer ou attendez une réponse.",
            ),
        ),
        // A cancelled challenge is no longer open: there is room again.
        ("alice", "/cancel 1", None),
        ("alice", "/challenge @dave", None),
        (
            "alice",
            "/challenge @erin",
            Some(
                "You already have 3 open challenges, the most allowed: \
                 cancel one with /cancel or wait for an answer.",
            ),
        ),
    ];
    for &(user, text, refused) in rows {
        let replies = act(&service, user, text, t0()).await;
        match refused {
            Some(expected) => assert_eq!(refusal(&replies, user), Some(expected), "{text}"),
            None => assert!(
                refusal(&replies, user).is_none_or(|t| !t.contains("open challenges")),
                "{user}: {text}: {replies:?}"
            ),
        }
    }
    // Expired challenges free their places too.
    let later = t0() + Duration::days(8);
    let replies = act(&service, "alice", "/challenge @erin", later).await;
    assert!(refusal(&replies, "alice").is_none(), "{replies:?}");
}

#[tokio::test]
async fn the_cap_can_be_lifted() {
    let service = service(ServiceConfig {
        max_open_challenges: 0,
        ..ServiceConfig::default()
    });
    for _ in 0..30 {
        let replies = act(&service, "alice", "/challenge", t0()).await;
        assert!(refusal(&replies, "alice").is_none(), "{replies:?}");
    }
}

fn gif_file(replies: &[Reply]) -> Option<&[u8]> {
    replies
        .iter()
        .flat_map(|r| &r.attachments)
        .find(|a| a.content_type == "image/gif")
        .map(|a| &a.bytes[..])
}

#[tokio::test]
async fn each_player_may_ask_for_a_few_gifs_an_hour() {
    let service = service(ServiceConfig {
        renders: RenderLimits {
            per_player_per_hour: 2,
            concurrent: 1,
        },
        ..ServiceConfig::default()
    });
    act(&service, "alice", "/challenge @bob color:white", t0()).await;
    act(&service, "bob", "/accept", t0()).await;
    act(&service, "alice", "/move e4", t0()).await;
    act(&service, "carol", "/settings language fr", t0()).await;

    let minute = |m: i64| t0() + Duration::minutes(m);
    // (who, minute, refused with this text)
    let rows: &[(&str, i64, Option<&str>)] = &[
        ("bob", 0, None),
        ("bob", 1, None),
        (
            "bob",
            2,
            Some("You may ask for 2 animations an hour: please try again in 58 minutes."),
        ),
        // A spectator has their own allowance, and hears it in French.
        ("carol", 2, None),
        ("carol", 3, None),
        (
            "carol",
            61,
            Some(
                "Vous pouvez demander 2 animations par heure : \
                 merci de réessayer dans 1 minute.",
            ),
        ),
        ("bob", 60, None),
    ];
    for &(user, at, refused) in rows {
        let replies = act(&service, user, "/gif game:1", minute(at)).await;
        match refused {
            Some(expected) => {
                assert_eq!(refusal(&replies, user), Some(expected), "{user} at {at}");
                assert!(gif_file(&replies).is_none());
            }
            None => {
                let gif =
                    gif_file(&replies).unwrap_or_else(|| panic!("{user} at {at}: {replies:?}"));
                assert!(gif.starts_with(b"GIF89a"));
            }
        }
    }
}
