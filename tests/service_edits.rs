//! An edited message (Matrix's `m.replace`) is carried out only if the
//! message it edits changed nothing: a refused or looking command may be
//! corrected, a played move may not be taken back.

#[path = "common/requests.rs"]
mod requests;

use chrono::{TimeZone, Utc};
use pawnpost::core::platform::Platform;
use pawnpost::service::{Input, Reply, Service, ServiceConfig};
use pawnpost::storage::sqlite::SqliteStore;
use requests::{RequestExt, request, text};

fn act(user: &str, key: &str, input: Input) -> pawnpost::service::Request {
    request(Platform::Matrix, "club", "!room:localhost", user, input).keyed(key)
}

fn edit(original: &str, text: &str) -> Input {
    Input::Edit {
        original: original.into(),
        text: text.into(),
    }
}

fn said(replies: &[Reply]) -> String {
    replies
        .iter()
        .map(|r| r.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn only_an_edit_of_a_message_that_changed_nothing_is_carried_out() {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(dir.path().join("bot.db")).unwrap();
    let service = Service::new(store, ServiceConfig::default());
    let now = Utc.with_ymd_and_hms(2026, 5, 1, 12, 0, 0).unwrap();
    let handle = |user: &str, key: &str, input: Input| service.handle(act(user, key, input), now);
    handle("alice", "k1", text("/challenge @bob color:white")).await;
    handle("bob", "k2", text("/accept")).await;

    // A played move is not taken back by editing it.
    let e4 = handle("alice", "k3", text("/move e4")).await;
    assert!(!e4[0].ephemeral, "{e4:?}");
    let edited = handle("alice", "k4", edit("k3", "/move d4")).await;
    assert!(edited[0].ephemeral, "{edited:?}");
    assert!(
        said(&edited).contains("already carried out"),
        "{}",
        said(&edited)
    );

    // A refused move may be corrected by editing it.
    let typo = handle("bob", "k5", text("/move e9")).await;
    assert!(typo[0].ephemeral, "{typo:?}");
    let fixed = handle("bob", "k6", edit("k5", "/move e5")).await;
    assert!(!fixed[0].ephemeral, "{fixed:?}");
    assert!(said(&fixed).contains("bob played e5"), "{}", said(&fixed));

    // So may a message that was no act at all, or only looked.
    let looked = handle("alice", "k7", text("/board")).await;
    assert!(
        looked[0].ephemeral || looked[0].board.is_some(),
        "{looked:?}"
    );
    let moved = handle("alice", "k8", edit("k7", "/move Nf3")).await;
    assert!(
        said(&moved).contains("alice played Nf3"),
        "{}",
        said(&moved)
    );
    let from_chat = handle("bob", "k9", edit("never-an-act", "/move Nc6")).await;
    assert!(
        said(&from_chat).contains("bob played Nc6"),
        "{}",
        said(&from_chat)
    );

    // The edit itself is an act: delivered twice, it is answered the same.
    let again = handle("alice", "k4", edit("k3", "/move d4")).await;
    assert_eq!(said(&again), said(&edited));
}
