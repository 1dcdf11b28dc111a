//! A large Swiss round is paired off the act path (issue 42): while the
//! result that ends round 1 of a 1,000-player Swiss has round 2 paired,
//! moves in another game are answered and a due flag falls, each within a
//! short time, on a single-threaded runtime (where any pairing work done
//! in place would hold everything else).

#[path = "common/due.rs"]
mod due;

use std::sync::Arc;
use std::time::{Duration as Elapsed, Instant};

use chrono::{DateTime, Duration, TimeZone, Utc};
use pawnpost::core::event::{Event, Reason};
use pawnpost::core::platform::Platform;
use pawnpost::service::{
    BoardImages, Input, Moderation, Reply, Request, Service, ServiceConfig, User,
};
use pawnpost::storage::sqlite::SqliteStore;

const PLAYERS: usize = 1_000;
/// The most a concurrent act may wait (a debug build on a shared 2-core
/// machine; a release build answers in milliseconds).
const PROMPT: Elapsed = Elapsed::from_millis(1_500);
/// Moves played in the side game while the round is paired, at most.
const MOVES: &[&str] = &[
    "Nf3", "Nf6", "g3", "g6", "Bg2", "Bg7", "O-O", "O-O", "d3", "d6", "c3", "c6", "Nbd2", "Nbd7",
    "e4", "e5", "Re1", "Re8", "a4", "a5",
];

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 6, 1, 9, 0, 0).unwrap()
}

async fn act(
    service: &Service,
    user: &str,
    channel: &str,
    text: &str,
    at: DateTime<Utc>,
) -> Vec<Reply> {
    let act = Request {
        platform: Platform::Console,
        server: "club".into(),
        channel: channel.into(),
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
    let replies = service.handle(act, at).await;
    assert!(
        replies.iter().all(|r| !r.ephemeral),
        "{user}: {text}: {replies:?}"
    );
    replies
}

/// (game, white, black) of every "game #N, white (White) – black (Black)" line.
fn games(replies: &[Reply]) -> Vec<(i64, String, String)> {
    let mut found = Vec::new();
    for line in replies.iter().flat_map(|r| r.text.lines()) {
        let Some((_, rest)) = line.split_once("game #") else {
            continue;
        };
        let Some((id, rest)) = rest.split_once(", ") else {
            continue;
        };
        let Some((white, rest)) = rest.split_once(" (White) – ") else {
            continue;
        };
        let Some((black, _)) = rest.split_once(" (Black)") else {
            continue;
        };
        found.push((
            id.parse().expect("game id"),
            white.to_owned(),
            black.to_owned(),
        ));
    }
    found.sort();
    found.dedup();
    found
}

/// A 1,000-player Swiss with round 1 played but for its last game, and
/// two other games: `side` (where x and y play on) and `flagged` (whose
/// clock runs out after a day). Returns the last game's (id, loser).
async fn set_up(service: &Service) -> (i64, String) {
    let swiss = "/tournament create swiss rounds:5 time:30d unrated";
    act(service, "p0000", "main", swiss, t0()).await;
    for n in 0..PLAYERS {
        act(
            service,
            &format!("p{n:04}"),
            "main",
            "/tournament join",
            t0(),
        )
        .await;
    }
    let started = act(service, "p0000", "main", "/tournament start", t0()).await;
    let round = games(&started);
    assert_eq!(round.len(), PLAYERS / 2, "{:?}", &started[..1]);
    // White wins two games in three: round 2 has score groups to pair.
    let (last, rest) = round.split_last().expect("games");
    for (game, white, black) in rest {
        let loser = if game % 3 == 0 { white } else { black };
        act(
            service,
            loser,
            "main",
            &format!("/resign game:{game}"),
            t0(),
        )
        .await;
    }
    for (white, black, channel, control) in [("x", "y", "side", "30d"), ("f", "g", "flagged", "1d")]
    {
        let challenge = format!("/challenge @{black} color:white time:{control}");
        act(service, white, channel, &challenge, t0()).await;
        act(service, black, channel, "/accept", t0()).await;
    }
    act(service, "f", "flagged", "/move e4", t0()).await;
    act(service, "g", "flagged", "/move e5", t0()).await;
    (last.0, last.2.clone())
}

#[tokio::test]
async fn other_acts_and_flags_go_on_while_a_large_round_is_paired() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("club.db")).expect("SQLite");
    let service = Arc::new(Service::new(store, ServiceConfig::default()));
    let (last, loser) = set_up(&service).await;
    let at = t0() + Duration::hours(1);
    // The round's last result: round 2 is paired in this act.
    let ending = {
        let service = Arc::clone(&service);
        tokio::spawn(async move {
            let started = Instant::now();
            let replies = act(
                &service,
                &loser,
                "main",
                &format!("/resign game:{last}"),
                at,
            )
            .await;
            (replies, started.elapsed())
        })
    };
    let mut waits = Vec::new();
    let mut overlapped = 0;
    let mut flag = None;
    for (ply, san) in MOVES.iter().enumerate() {
        tokio::time::sleep(Elapsed::from_millis(10)).await;
        if ending.is_finished() {
            break;
        }
        let player = if ply % 2 == 0 { "x" } else { "y" };
        let asked = Instant::now();
        act(&service, player, "side", &format!("/move {san}"), at).await;
        waits.push(asked.elapsed());
        if flag.is_none() {
            let asked = Instant::now();
            let due = due::due_notices(&service, t0() + Duration::days(2)).await;
            flag = Some((due, asked.elapsed()));
        }
        overlapped += usize::from(!ending.is_finished());
    }
    let (replies, took) = ending.await.expect("the ending act");
    assert!(
        overlapped >= 1,
        "the ending act ({took:?}) held every other act until it ended"
    );
    let (due, flag_wait) = flag.expect("the scheduler ran");
    eprintln!(
        "the ending act took {took:?}; {} moves answered meanwhile ({overlapped} \
         before it ended), the slowest in {:?}; the flag in {flag_wait:?}",
        waits.len(),
        waits.iter().max()
    );
    assert!(
        replies.iter().any(|r| r.text.contains("round 2 is paired")),
        "{:?}",
        replies.iter().map(|r| &r.text).take(3).collect::<Vec<_>>()
    );
    assert_eq!(games(&replies).len(), PLAYERS / 2);
    assert!(waits.iter().all(|&w| w < PROMPT), "{waits:?}");
    assert!(flag_wait < PROMPT, "{flag_wait:?}");
    let timed_out = due.iter().flat_map(|r| &r.events).any(|e| {
        matches!(
            e.event,
            Event::GameOver {
                reason: Reason::Timeout,
                ..
            }
        )
    });
    assert!(timed_out, "{due:?}");
}
