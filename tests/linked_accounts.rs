//! Linked accounts (issue 44), through the service on SQLite: `/link` on
//! one platform answers a code only its owner sees; `/link CODE` on the
//! other joins the accounts into one player, with one language and one
//! list of games (`/games everywhere`); a code links once, expires after
//! ten minutes, and wrong codes are bounded per hour, so guessing fails.

#[path = "common/requests.rs"]
mod requests;

use chrono::{DateTime, Duration, TimeZone, Utc};
use pawnpost::core::link::{WRONG_PER_HOUR, code_space};
use pawnpost::core::platform::Platform;
use pawnpost::service::{Reply, Request, Service, ServiceConfig};
use pawnpost::storage::sqlite::SqliteStore;
use requests::{RequestExt, request, text};

fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 5, 1, 12, 0, 0).unwrap()
}

fn service() -> (Service, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(dir.path().join("bot.db")).unwrap();
    (Service::new(store, ServiceConfig::default()), dir)
}

/// Ann's Discord account, in guild `g`.
fn discord(user: &str, said: &str) -> Request {
    request(Platform::Discord, "1001", "2002", user, text(said))
}

/// Ann's Matrix account, in space `!space`.
fn matrix(user: &str, said: &str) -> Request {
    request(Platform::Matrix, "!space:hs", "!room:hs", user, text(said))
}

fn console(user: &str, said: &str) -> Request {
    request(Platform::Console, "club", "main", user, text(said))
}

fn all_text(replies: &[Reply]) -> String {
    replies
        .iter()
        .map(|r| r.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Asks for a code on `act`'s account and reads it from the private answer.
async fn code_for(service: &Service, act: Request, now: DateTime<Utc>) -> String {
    let replies = service.handle(act, now).await;
    assert_eq!(replies.len(), 1, "{replies:?}");
    let reply = &replies[0];
    assert!(
        reply.ephemeral && reply.secret,
        "the code is private: {reply:?}"
    );
    let code = reply
        .text
        .split_whitespace()
        .find(|word| word.chars().count() == 9 && word.chars().nth(4) == Some('-'))
        .expect("a code in the answer");
    code.to_owned()
}

#[tokio::test]
async fn a_code_links_two_platforms_once() {
    let (service, _dir) = service();
    let now = start();
    let code = code_for(&service, discord("ann#1", "/link").keyed("d1"), now).await;
    let linked = service
        .handle(
            matrix("ann:hs", &format!("/link {code}")),
            now + Duration::minutes(3),
        )
        .await;
    assert!(
        all_text(&linked).contains("are now one player"),
        "{linked:?}"
    );
    assert!(linked.iter().all(|r| r.ephemeral), "{linked:?}");
    // Used: neither another account nor the same one links with it again.
    for act in [
        console("eve", &format!("/link {code}")),
        matrix("ann:hs", &format!("/link {code}")),
    ] {
        let again = service.handle(act, now + Duration::minutes(4)).await;
        assert!(
            all_text(&again).contains("unknown, used or expired"),
            "{again:?}"
        );
    }
    // One language: set on Matrix, Discord answers in it.
    service
        .handle(matrix("ann:hs", "/settings language fr"), now)
        .await;
    let games = service
        .handle(discord("ann#1", "/games everywhere"), now)
        .await;
    assert!(
        all_text(&games).contains("Vous n’avez aucune partie"),
        "{games:?}"
    );
}

#[tokio::test]
async fn a_code_expires_after_ten_minutes() {
    let (service, _dir) = service();
    let now = start();
    let code = code_for(&service, discord("ann#1", "/link"), now).await;
    let late = service
        .handle(
            matrix("ann:hs", &format!("/link {code}")),
            now + Duration::minutes(10),
        )
        .await;
    assert!(
        all_text(&late).contains("unknown, used or expired"),
        "{late:?}"
    );
    // A fresh code still works.
    let fresh = code_for(
        &service,
        discord("ann#1", "/link"),
        now + Duration::minutes(11),
    )
    .await;
    let linked = service
        .handle(
            matrix("ann:hs", &format!("/link {fresh}")),
            now + Duration::minutes(12),
        )
        .await;
    assert!(
        all_text(&linked).contains("are now one player"),
        "{linked:?}"
    );
}

/// After the bound of wrong codes, even the right one is refused for the
/// hour: a guesser gets at most that many tries per account and hour.
#[tokio::test]
async fn wrong_codes_are_bounded_per_hour() {
    let (service, _dir) = service();
    let now = start();
    let code = code_for(&service, discord("ann#1", "/link"), now).await;
    let wrong = if code.starts_with('Z') {
        "0000-0000"
    } else {
        "ZZZZ-ZZZZ"
    };
    for n in 0..WRONG_PER_HOUR {
        let at = now + Duration::seconds(i64::from(n));
        let refused = service
            .handle(matrix("mallory:hs", &format!("/link {wrong}")), at)
            .await;
        assert!(
            all_text(&refused).contains("unknown, used or expired"),
            "{refused:?}"
        );
    }
    let bounded = service
        .handle(
            matrix("mallory:hs", &format!("/link {code}")),
            now + Duration::minutes(1),
        )
        .await;
    assert!(
        all_text(&bounded).contains("too many wrong link codes"),
        "{bounded:?}"
    );
    // Ann's own try is not bounded by mallory's, and links.
    let linked = service
        .handle(
            matrix("ann:hs", &format!("/link {code}")),
            now + Duration::minutes(2),
        )
        .await;
    assert!(
        all_text(&linked).contains("are now one player"),
        "{linked:?}"
    );
    // The odds of a guess within the bound, for the record.
    assert!(f64::from(WRONG_PER_HOUR) / code_space() as f64 <= 1e-11);
}

/// A replayed `/link` (same key) answers the same code, and makes no second.
#[tokio::test]
async fn refusals_change_nothing_and_explain() {
    let (service, _dir) = service();
    let now = start();
    let table = [
        ("/link not-a-code", "unknown, used or expired"),
        ("/unlink", "not linked to any other"),
    ];
    for (said, expected) in table {
        let replies = service.handle(discord("ann#1", said), now).await;
        assert!(all_text(&replies).contains(expected), "{said}: {replies:?}");
        assert!(replies.iter().all(|r| r.ephemeral), "{said}: {replies:?}");
    }
    // Same platform, same account.
    let code = code_for(&service, discord("ann#1", "/link"), now).await;
    let same = service
        .handle(discord("ann#1", &format!("/link {code}")), now)
        .await;
    assert!(all_text(&same).contains("made by this account"), "{same:?}");
    let other = service
        .handle(discord("bob#2", &format!("/link {code}")), now)
        .await;
    assert!(all_text(&other).contains("same platform"), "{other:?}");
}

#[tokio::test]
async fn games_everywhere_lists_both_accounts_games_and_unlink_splits_them() {
    let (service, _dir) = service();
    let now = start();
    // A game on Discord and one on Matrix.
    service
        .handle(discord("ann#1", "/challenge @bob#2 color:white"), now)
        .await;
    service.handle(discord("bob#2", "/accept"), now).await;
    service
        .handle(matrix("ann:hs", "/challenge @carl:hs color:black"), now)
        .await;
    service.handle(matrix("carl:hs", "/accept"), now).await;
    let code = code_for(&service, discord("ann#1", "/link"), now).await;
    service
        .handle(matrix("ann:hs", &format!("/link {code}")), now)
        .await;
    let everywhere = all_text(
        &service
            .handle(discord("ann#1", "/games everywhere"), now)
            .await,
    );
    assert!(
        everywhere.contains("#1 ann#1 – bob#2: your move"),
        "{everywhere}"
    );
    assert!(
        everywhere.contains("https://discord.com/channels/1001/2002"),
        "{everywhere}"
    );
    assert!(everywhere.contains("#2"), "{everywhere}");
    assert!(
        everywhere.contains("https://matrix.to/#/!room:hs"),
        "{everywhere}"
    );
    // Finished: none yet; then bob resigns.
    service.handle(discord("bob#2", "/resign"), now).await;
    let finished = all_text(
        &service
            .handle(matrix("ann:hs", "/games finished"), now)
            .await,
    );
    assert!(finished.contains("#1 ann#1 – bob#2: 1-0"), "{finished}");
    // Unlinked, each account sees its own games only.
    service.handle(matrix("ann:hs", "/unlink"), now).await;
    let alone = all_text(
        &service
            .handle(discord("ann#1", "/games everywhere"), now)
            .await,
    );
    assert!(!alone.contains("#2"), "{alone}");
}

/// The code is shown once, to its owner: a replay of the same act (same
/// key) answers without it, and no file of the database holds it.
#[tokio::test]
async fn the_code_is_kept_nowhere_but_on_its_owners_screen() {
    let (service, dir) = service();
    let now = start();
    let code = code_for(&service, discord("ann#1", "/link").keyed("k1"), now).await;
    let replay = service
        .handle(discord("ann#1", "/link").keyed("k1"), now)
        .await;
    let replayed = all_text(&replay);
    assert!(replayed.contains("was shown to you"), "{replayed}");
    assert!(!replayed.contains(&code), "{replayed}");
    let plain = code.replace('-', "");
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            !text.contains(&code) && !text.contains(&plain),
            "the code is stored"
        );
    }
    // It still links.
    let linked = service
        .handle(matrix("ann:hs", &format!("/link {code}")), now)
        .await;
    assert!(
        all_text(&linked).contains("are now one player"),
        "{linked:?}"
    );
}
