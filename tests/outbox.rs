//! The outbox on a real SQLite file: a flag fall's notice is committed with
//! the flag fall and delivered afterwards, exactly once, even by a service
//! that starts after the one that committed it stopped; a passing failure
//! is tried again later, in order; a refusal is given up and counted; a
//! user's act held for its own process reaches the worker only if its
//! answer never went out.

#[path = "common/requests.rs"]
mod requests;

use std::collections::VecDeque;
use std::sync::Mutex;

use chrono::{DateTime, Duration, TimeZone, Utc};
use pawnpost::core::event::{Event, Reason};
use pawnpost::core::platform::Platform;
use pawnpost::service::{
    BoardImages, Moderation, NoticeId, Notifier, Reply, Sent, Service, ServiceConfig,
};
use pawnpost::storage::sqlite::SqliteStore;
use requests::{RequestExt, request, text};

fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 6, 1, 9, 0, 0).unwrap()
}

/// A console notifier that answers each send with the next scripted
/// outcome (then `Delivered`), and keeps what it delivered.
#[derive(Default)]
struct Scripted {
    outcomes: Mutex<VecDeque<Sent>>,
    delivered: Mutex<Vec<Reply>>,
}

impl Scripted {
    fn answering(outcomes: impl IntoIterator<Item = Sent>) -> Scripted {
        Scripted {
            outcomes: Mutex::new(outcomes.into_iter().collect()),
            ..Scripted::default()
        }
    }

    /// The games whose loss on time reached a reader.
    fn timeouts(&self) -> Vec<i64> {
        let delivered = self.delivered.lock().unwrap();
        delivered
            .iter()
            .flat_map(|reply| &reply.events)
            .filter(|e| {
                matches!(
                    e.event,
                    Event::GameOver {
                        reason: Reason::Timeout,
                        ..
                    }
                )
            })
            .map(|e| e.game)
            .collect()
    }
}

impl Notifier for Scripted {
    fn platform(&self) -> Platform {
        Platform::Console
    }

    async fn deliver(&self, replies: Vec<Reply>) {
        self.delivered.lock().unwrap().extend(replies);
    }

    async fn send(&self, reply: Reply, _id: NoticeId<'_>) -> Sent {
        let outcome = self.outcomes.lock().unwrap().pop_front();
        match outcome {
            None | Some(Sent::Delivered) => {
                self.delivered.lock().unwrap().push(reply);
                Sent::Delivered
            }
            Some(failure) => failure,
        }
    }
}

/// alice (White) and bob start a one-day game and each move once.
async fn a_game(service: &Service, now: DateTime<Utc>) {
    for (user, said) in [
        ("alice", "/challenge @bob color:white time:1d"),
        ("bob", "/accept"),
        ("alice", "/move e4"),
        ("bob", "/move e5"),
    ] {
        let act = request(Platform::Console, "club", "room", user, text(said));
        let replies = service.handle(act, now).await;
        assert!(replies.iter().all(|r| !r.ephemeral), "{said}: {replies:?}");
    }
}

fn service_on(path: &std::path::Path) -> Service {
    Service::new(SqliteStore::open(path).unwrap(), ServiceConfig::default())
}

#[tokio::test]
async fn a_notice_committed_before_a_crash_is_delivered_once_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bot.db");
    let flag = start() + Duration::days(1) + Duration::seconds(1);
    {
        let before = service_on(&path);
        a_game(&before, start()).await;
        // The flag falls and is committed; the process dies before any delivery.
        let queued = before.run_due(flag).await;
        assert_eq!(queued, 1);
    }
    let after = service_on(&path);
    let notifier = Scripted::default();
    assert_eq!(
        after
            .deliver_notices(&notifier, flag, BoardImages::Omitted)
            .await,
        1
    );
    assert_eq!(notifier.timeouts(), vec![1]);
    assert_eq!(after.next_notice_due(&notifier).await.unwrap(), None);
    // Delivered means settled: nothing goes twice, now or after a restart.
    assert_eq!(
        after
            .deliver_notices(&notifier, flag, BoardImages::Omitted)
            .await,
        0
    );
    let later = service_on(&path);
    let again = flag + Duration::hours(1);
    assert_eq!(
        later
            .deliver_notices(&notifier, again, BoardImages::Omitted)
            .await,
        0
    );
    assert_eq!(notifier.timeouts(), vec![1]);
}

#[tokio::test]
async fn a_passing_failure_is_tried_again_later_and_a_refusal_is_given_up() {
    let dir = tempfile::tempdir().unwrap();
    let service = service_on(&dir.path().join("bot.db"));
    a_game(&service, start()).await;
    let flag = start() + Duration::days(1) + Duration::seconds(1);
    service.run_due(flag).await;

    let notifier = Scripted::answering([Sent::Retry("429 rate limited".into())]);
    assert_eq!(
        service
            .deliver_notices(&notifier, flag, BoardImages::Omitted)
            .await,
        0
    );
    let retry_at = flag + Duration::seconds(5);
    assert_eq!(
        service.next_notice_due(&notifier).await.unwrap(),
        Some(retry_at)
    );
    let early = retry_at - Duration::seconds(1);
    assert_eq!(
        service
            .deliver_notices(&notifier, early, BoardImages::Omitted)
            .await,
        0
    );
    assert_eq!(
        service
            .deliver_notices(&notifier, retry_at, BoardImages::Omitted)
            .await,
        1
    );
    assert_eq!(notifier.timeouts(), vec![1]);

    // A second game whose notice the platform refuses for good.
    let second_start = flag + Duration::minutes(1);
    a_game(&service, second_start).await;
    let second_flag = second_start + Duration::days(1) + Duration::seconds(1);
    service.run_due(second_flag).await;
    let refusing = Scripted::answering([Sent::Refused("50013 missing permissions".into())]);
    assert_eq!(
        service
            .deliver_notices(&refusing, second_flag, BoardImages::Omitted)
            .await,
        0
    );
    assert_eq!(
        service.next_notice_due(&refusing).await.unwrap(),
        None,
        "given up, not retried"
    );
    assert!(refusing.timeouts().is_empty());
}

/// What `who` (moderating as `moderation`) reads from `/status` at `now`.
async fn status(
    service: &Service,
    who: &str,
    moderation: Moderation,
    now: DateTime<Utc>,
) -> String {
    let act =
        request(Platform::Console, "club", "room", who, text("/status")).moderating(moderation);
    let replies = service.handle(act, now).await;
    assert!(replies.iter().all(|r| r.ephemeral), "{replies:?}");
    replies.iter().map(|r| r.text.as_str()).collect()
}

/// A moderator sees how many notices the platform refused lately, and why;
/// nobody else does.
#[tokio::test]
async fn moderators_see_the_notices_that_could_not_be_delivered() {
    let dir = tempfile::tempdir().unwrap();
    let service = service_on(&dir.path().join("bot.db"));
    a_game(&service, start()).await;
    let flag = start() + Duration::days(1) + Duration::seconds(1);
    service.run_due(flag).await;
    let before = status(&service, "carol", Moderation::Server, flag).await;
    assert!(
        before.contains(": 0 could not be delivered, 0 wait"),
        "{before}"
    );

    let refusing = Scripted::answering([Sent::Refused("Missing Access (50001)".into())]);
    service
        .deliver_notices(&refusing, flag, BoardImages::Omitted)
        .await;
    let after = status(&service, "carol", Moderation::Server, flag).await;
    assert!(after.contains(": 1 could not be delivered"), "{after}");
    assert!(
        after.contains("Last refusal: Missing Access (50001)"),
        "{after}"
    );
    let player = status(&service, "alice", Moderation::None, flag).await;
    assert_eq!(player, "Only a moderator can do that.");
    // A week on, the refusal is old news.
    let week = flag + Duration::days(8);
    let later = status(&service, "carol", Moderation::Server, week).await;
    assert!(later.contains(": 0 could not be delivered"), "{later}");
}

/// A user's act is held for the process that answers it: the worker leaves
/// it alone until the hold ends, then delivers what others had to receive
/// only if the answer never went out; one declared answered never comes.
#[tokio::test]
async fn a_held_act_goes_to_the_worker_only_if_its_answer_never_went_out() {
    let dir = tempfile::tempdir().unwrap();
    let service = service_on(&dir.path().join("bot.db"));
    let notifier = Scripted::default();
    let act = |user: &str, said: &str, key: &str| {
        request(Platform::Console, "club", "room", user, text(said)).keyed(key)
    };
    for (user, said, key) in [
        ("alice", "/challenge @bob color:white", "k1"),
        ("bob", "/accept", "k2"),
        ("alice", "/move e4", "k3"),
    ] {
        service.handle(act(user, said, key), start()).await;
        service.answered(key);
    }
    let hold = ServiceConfig::default().notice_handoff;
    let deliver = |at| service.deliver_notices(&notifier, at, BoardImages::Omitted);
    assert_eq!(
        service.next_notice_due(&notifier).await.unwrap(),
        Some(start() + hold),
        "the worker looks when the holds end"
    );
    assert_eq!(deliver(start() + hold).await, 0, "every answer went out");
    assert_eq!(service.next_notice_due(&notifier).await.unwrap(), None);
    // bob's move is committed, but its answer never reaches the platform:
    // the worker is to wake when its hold ends.
    let moved = start() + hold;
    service.handle(act("bob", "/move e5", "k4"), moved).await;
    let hold_end = moved + hold;
    assert_eq!(
        service.next_notice_due(&notifier).await.unwrap(),
        Some(hold_end)
    );
    let early = hold_end - Duration::seconds(1);
    assert_eq!(deliver(early).await, 0, "held for its own process");
    assert_eq!(
        deliver(hold_end).await,
        1,
        "alice hears of e5 from the worker"
    );
    let told = notifier.delivered.lock().unwrap().clone();
    assert!(told[0].text.contains("bob played e5"), "{told:?}");
    assert_eq!(deliver(hold_end + Duration::hours(1)).await, 0, "once");
    assert_eq!(service.next_notice_due(&notifier).await.unwrap(), None);
}

/// Two processes on one file: the act one of them held and never answered
/// (it died) reaches the other's worker when the hold ends, once.
#[tokio::test]
async fn a_hold_left_by_another_process_is_delivered_by_this_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bot.db");
    let survivor = service_on(&path);
    let notifier = Scripted::default();
    let deliver = |at| survivor.deliver_notices(&notifier, at, BoardImages::Omitted);
    assert_eq!(deliver(start()).await, 0, "nothing yet");
    {
        let dying = service_on(&path);
        let act = |user: &str, said: &str, key: &str| {
            request(Platform::Console, "club", "room", user, text(said)).keyed(key)
        };
        for (user, said, key) in [
            ("alice", "/challenge @bob color:white", "k1"),
            ("bob", "/accept", "k2"),
            ("alice", "/move e4", "k3"),
            ("bob", "/move e5", "k4"),
        ] {
            dying.handle(act(user, said, key), start()).await;
            if key != "k4" {
                dying.answered(key);
            }
        }
        dying.settle_answered().await;
    }
    let hold_end = start() + ServiceConfig::default().notice_handoff;
    let early = hold_end - Duration::seconds(1);
    assert_eq!(deliver(early).await, 0, "still held");
    assert_eq!(
        survivor.next_notice_due(&notifier).await.unwrap(),
        Some(hold_end),
        "the look saw the other process's hold"
    );
    assert_eq!(deliver(hold_end).await, 1, "alice hears of e5");
    assert_eq!(deliver(hold_end + Duration::hours(1)).await, 0, "once");
    let told = notifier.delivered.lock().unwrap().clone();
    assert!(told[0].text.contains("bob played e5"), "{told:?}");
}
