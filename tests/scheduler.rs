//! The deadline scheduler on tokio's paused clock: flags fall exactly at
//! their deadline, moves in time keep them up, and a restart re-arms from
//! the store.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Duration, TimeZone, Utc};
use pawnpost::core::event::{Event, GameResult, Reason};
use pawnpost::core::platform::Platform;
use pawnpost::scheduler::{self, SchedulerSettings};
use pawnpost::service::{
    BoardImages, Input, Moderation, Notifier, Reply, Request, Service, ServiceConfig, TimeSource,
    TokioTime, User,
};
use pawnpost::storage::sqlite::SqliteStore;
use tokio::sync::oneshot;

/// A delivered reply and the instant it was delivered.
type Delivery = (DateTime<Utc>, Reply);

/// Keeps what the scheduler delivers.
#[derive(Clone, Default)]
struct Collected(Arc<Mutex<Vec<Delivery>>>);

struct Collector {
    seen: Collected,
    time: TokioTime,
}

impl Notifier for Collector {
    fn platform(&self) -> Platform {
        Platform::Console
    }

    async fn deliver(&self, replies: Vec<Reply>) {
        let now = self.time.now();
        let mut seen = self.seen.0.lock().unwrap();
        seen.extend(replies.into_iter().map(|r| (now, r)));
    }
}

impl Collected {
    /// (instant, game, result, reason) of every game-over notice so far.
    fn endings(&self) -> Vec<(DateTime<Utc>, i64, GameResult, Reason)> {
        let seen = self.0.lock().unwrap();
        seen.iter()
            .flat_map(|(at, reply)| {
                reply.events.iter().filter_map(move |e| match e.event {
                    Event::GameOver { result, reason } => Some((*at, e.game, result, reason)),
                    _ => None,
                })
            })
            .collect()
    }
}

fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 6, 1, 9, 0, 0).unwrap()
}

async fn act(service: &Service, now: DateTime<Utc>, user: &str, text: &str) {
    let act = Request {
        platform: Platform::Console,
        server: "club".into(),
        channel: format!("room-{user}"),
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
    let replies = service.handle(act, now).await;
    assert!(replies.iter().all(|r| !r.ephemeral), "{text}: {replies:?}");
}

/// A game between `white` and `black` in `white`'s room where both have moved once.
async fn started_game(
    service: &Service,
    now: DateTime<Utc>,
    white: &str,
    black: &str,
    control: &str,
) {
    let room = |user: &str| format!("room-{user}");
    let act_in = |user: &str, text: String| Request {
        platform: Platform::Console,
        server: "club".into(),
        channel: room(white),
        user: User {
            id: user.into(),
            name: user.into(),
            locale: None,
            moderation: Moderation::None,
        },
        key: None,
        input: Input::Text(text),
        board_images: BoardImages::Omitted,
    };
    for (user, text) in [
        (
            white,
            format!("/challenge @{black} color:white time:{control}"),
        ),
        (black, "/accept".to_owned()),
        (white, "/move e4".to_owned()),
        (black, "/move e5".to_owned()),
    ] {
        let replies = service.handle(act_in(user, text.clone()), now).await;
        assert!(replies.iter().all(|r| !r.ephemeral), "{text}: {replies:?}");
    }
}

/// Lets the scheduler run until it sleeps again. The SQLite store's work
/// runs on real threads: give them real time, without letting tokio's
/// paused clock move.
async fn settle() {
    for _ in 0..100 {
        std::thread::sleep(std::time::Duration::from_millis(2));
        tokio::task::yield_now().await;
    }
}

#[tokio::test(start_paused = true)]
async fn a_flag_falls_exactly_at_its_deadline() {
    let time = TokioTime::starting_at(start());
    let service = Arc::new(Service::new(
        SqliteStore::open_in_memory().unwrap(),
        ServiceConfig::default(),
    ));
    started_game(&service, time.now(), "alice", "bob", "1d").await;
    let deadline = time.now() + Duration::days(1);

    let seen = Collected::default();
    let notifier = Collector {
        seen: seen.clone(),
        time,
    };
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(scheduler::run(
        Arc::clone(&service),
        notifier,
        time,
        SchedulerSettings::default(),
        async {
            let _ = stopped.await;
        },
    ));
    settle().await;
    tokio::time::advance(std::time::Duration::from_secs(86_400 - 1)).await;
    settle().await;
    assert!(seen.endings().is_empty(), "not a second early");
    tokio::time::advance(std::time::Duration::from_secs(1)).await;
    settle().await;
    let endings = seen.endings();
    assert_eq!(endings.len(), 1, "{endings:?}");
    let (at, _, result, reason) = endings[0];
    assert_eq!((result, reason), (GameResult::BlackWins, Reason::Timeout));
    assert!(
        at >= deadline && at - deadline <= Duration::seconds(1),
        "fell at {at}"
    );
    stop.send(()).unwrap();
    task.await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_move_in_time_moves_the_deadline() {
    let time = TokioTime::starting_at(start());
    let service = Arc::new(Service::new(
        SqliteStore::open_in_memory().unwrap(),
        ServiceConfig::default(),
    ));
    started_game(&service, time.now(), "alice", "bob", "1d").await;
    let seen = Collected::default();
    let notifier = Collector {
        seen: seen.clone(),
        time,
    };
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(scheduler::run(
        Arc::clone(&service),
        notifier,
        time,
        SchedulerSettings::default(),
        async {
            let _ = stopped.await;
        },
    ));
    settle().await;
    tokio::time::advance(std::time::Duration::from_secs(20 * 3600)).await;
    settle().await;
    // Alice moves with four hours left: the scheduler is told and re-arms.
    let moved_at = time.now();
    act(&service, moved_at, "alice", "/move Nf3").await;
    settle().await;
    // The old deadline passes: the scheduler wakes for it (the move left the
    // stored wake-up where it was), finds nothing due and says nothing.
    tokio::time::advance(std::time::Duration::from_secs(5 * 3600)).await;
    settle().await;
    assert!(seen.endings().is_empty(), "alice moved in time");
    let since_move = |at: &DateTime<Utc>| *at > moved_at + Duration::minutes(1);
    assert!(
        !seen.0.lock().unwrap().iter().any(|(at, _)| since_move(at)),
        "an early wake-up says nothing"
    );
    // Re-armed for the new turn: its reminder, then its flag.
    let next = service.next_wake_up().await.unwrap().expect("a wake-up");
    assert!(
        next > time.now() && next <= moved_at + Duration::days(1),
        "{next}"
    );
    tokio::time::advance(std::time::Duration::from_secs(19 * 3600)).await;
    settle().await;
    let endings = seen.endings();
    assert_eq!(endings.len(), 1);
    assert_eq!(
        (endings[0].2, endings[0].3),
        (GameResult::WhiteWins, Reason::Timeout)
    );
    stop.send(()).unwrap();
    task.await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_restart_between_two_deadlines_fires_both() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("restart.db");
    let time = TokioTime::starting_at(start());
    let seen = Collected::default();
    {
        let service = Arc::new(Service::new(
            SqliteStore::open(&path).unwrap(),
            ServiceConfig::default(),
        ));
        started_game(&service, time.now(), "alice", "bob", "1d").await;
        started_game(&service, time.now(), "carol", "dave", "3d").await;
        let notifier = Collector {
            seen: seen.clone(),
            time,
        };
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(scheduler::run(
            Arc::clone(&service),
            notifier,
            time,
            SchedulerSettings::default(),
            async {
                let _ = stopped.await;
            },
        ));
        settle().await;
        tokio::time::advance(std::time::Duration::from_secs(2 * 86_400)).await;
        settle().await;
        assert_eq!(seen.endings().len(), 1, "the first deadline fell");
        stop.send(()).unwrap();
        task.await.unwrap();
    }
    // A new process on the same file: nothing in memory, deadlines from the store.
    let service = Arc::new(Service::new(
        SqliteStore::open(&path).unwrap(),
        ServiceConfig::default(),
    ));
    let notifier = Collector {
        seen: seen.clone(),
        time,
    };
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(scheduler::run(
        Arc::clone(&service),
        notifier,
        time,
        SchedulerSettings::default(),
        async {
            let _ = stopped.await;
        },
    ));
    settle().await;
    tokio::time::advance(std::time::Duration::from_secs(2 * 86_400)).await;
    settle().await;
    let endings = seen.endings();
    assert_eq!(endings.len(), 2, "{endings:?}");
    assert_ne!(endings[0].1, endings[1].1, "two different games, each once");
    stop.send(()).unwrap();
    task.await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn an_outage_is_credited_and_announced_before_any_flag_falls() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("outage.db");
    let time = TokioTime::starting_at(start());
    let seen = Collected::default();
    let deadline = start() + Duration::days(1);
    {
        let service = Arc::new(Service::new(
            SqliteStore::open(&path).unwrap(),
            ServiceConfig::default(),
        ));
        started_game(&service, time.now(), "alice", "bob", "1d").await;
        let notifier = Collector {
            seen: seen.clone(),
            time,
        };
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(scheduler::run(
            Arc::clone(&service),
            notifier,
            time,
            SchedulerSettings::default(),
            async {
                let _ = stopped.await;
            },
        ));
        settle().await;
        tokio::time::advance(std::time::Duration::from_secs(20 * 3600)).await;
        settle().await;
        stop.send(()).unwrap();
        task.await.unwrap();
    }
    // Down for three hours, across alice's deadline.
    tokio::time::advance(std::time::Duration::from_secs(3 * 3600)).await;
    let service = Arc::new(Service::new(
        SqliteStore::open(&path).unwrap(),
        ServiceConfig::default(),
    ));
    let notifier = Collector {
        seen: seen.clone(),
        time,
    };
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(scheduler::run(
        Arc::clone(&service),
        notifier,
        time,
        SchedulerSettings::default(),
        async {
            let _ = stopped.await;
        },
    ));
    settle().await;
    {
        let delivered = seen.0.lock().unwrap();
        let outages: Vec<&Reply> = delivered
            .iter()
            .map(|(_, r)| r)
            .filter(|r| r.text.contains("was down for"))
            .collect();
        assert_eq!(outages.len(), 1, "one notice: {delivered:?}");
        assert!(
            outages[0].text.contains("was down for 3h 0m"),
            "{}",
            outages[0].text
        );
    }
    assert!(
        seen.endings().is_empty(),
        "no flag fell for time the bot was down"
    );
    // The last heartbeat was at hour 20 and the bot came back at hour 23:
    // alice's flag, due at hour 24, now falls at hour 27.
    tokio::time::advance(std::time::Duration::from_secs(3 * 3600 + 59 * 60)).await;
    settle().await;
    assert!(seen.endings().is_empty(), "not before hour 27");
    tokio::time::advance(std::time::Duration::from_secs(60)).await;
    settle().await;
    let endings = seen.endings();
    assert_eq!(endings.len(), 1, "{endings:?}");
    let credited = deadline + Duration::hours(3);
    assert!(endings[0].0 >= credited && endings[0].0 - credited <= Duration::seconds(1));
    stop.send(()).unwrap();
    task.await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn a_reminder_is_sent_once_even_when_the_scheduler_restarts() {
    let time = TokioTime::starting_at(start());
    let service = Arc::new(Service::new(
        SqliteStore::open_in_memory().unwrap(),
        ServiceConfig::default(),
    ));
    started_game(&service, time.now(), "alice", "bob", "10d").await;
    let seen = Collected::default();
    let reminders = |seen: &Collected| {
        let delivered = seen.0.lock().unwrap();
        delivered
            .iter()
            .filter(|(_, r)| r.text.contains("it is your move"))
            .count()
    };
    for round in 0..2 {
        let notifier = Collector {
            seen: seen.clone(),
            time,
        };
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(scheduler::run(
            Arc::clone(&service),
            notifier,
            time,
            SchedulerSettings::default(),
            async {
                let _ = stopped.await;
            },
        ));
        settle().await;
        if round == 0 {
            tokio::time::advance(std::time::Duration::from_secs(8 * 86_400)).await;
            settle().await;
        }
        assert_eq!(reminders(&seen), 1, "round {round}");
        stop.send(()).unwrap();
        task.await.unwrap();
    }
}

/// Flags that fall together are ended in one batch, yet as if one after
/// another: bob's second game is rated from his rating after his first.
#[tokio::test]
async fn flags_falling_together_end_every_game_once_in_order() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("batch.db")).unwrap();
    let service = Service::new(store, ServiceConfig::default());
    for (white, black) in [("alice", "bob"), ("bob", "carol"), ("dave", "erin")] {
        started_game(&service, start(), white, black, "1d").await;
    }
    let flags = start() + Duration::days(2);
    service.run_due(flags).await;
    // What they tell waits in the outbox, in the order the games ended.
    let seen = Collected::default();
    let notifier = Collector {
        seen: seen.clone(),
        time: TokioTime::starting_at(flags),
    };
    service
        .deliver_notices(&notifier, flags, BoardImages::Omitted)
        .await;
    let replies: Vec<Reply> = seen.0.lock().unwrap().drain(..).map(|(_, r)| r).collect();
    let endings: Vec<_> = replies
        .iter()
        .flat_map(|r| &r.events)
        .filter(|e| matches!(e.event, Event::GameOver { .. }))
        .map(|e| e.game)
        .collect();
    assert_eq!(endings.len(), 3, "{replies:?}");
    assert!(endings.windows(2).all(|w| w[0] < w[1]), "{endings:?}");
    // bob won the first game as black and lost the second as white: his
    // second change starts where his first one ended.
    assert!(replies[0].text.contains("bob 1500 → 1741"), "{replies:?}");
    assert!(replies[1].text.contains("bob 1741 → 1494"), "{replies:?}");
    assert!(!replies.iter().any(|r| r.ephemeral), "{replies:?}");
}

/// A conditional line stored right after a move keeps the reminder that
/// move set: the game kept between acts must not hand back an older one.
#[tokio::test]
async fn a_line_stored_after_a_move_keeps_the_moves_reminder() {
    let service = Service::new(
        SqliteStore::open_in_memory().unwrap(),
        ServiceConfig::default(),
    );
    started_game(&service, start(), "alice", "bob", "1d").await;
    let moved = start() + Duration::hours(1);
    act(&service, moved, "alice", "/move Nf3").await;
    let after_move = stored_reminder(&service).await;
    assert!(after_move.is_some());
    let line = Request {
        platform: Platform::Console,
        server: "club".into(),
        channel: "room-alice".into(),
        user: User {
            id: "alice".into(),
            name: "alice".into(),
            locale: None,
            moderation: Moderation::None,
        },
        key: None,
        input: Input::Text("/if Nc6 Bb5".into()),
        board_images: BoardImages::Omitted,
    };
    let replies = service.handle(line, moved).await;
    assert!(replies[0].text.contains("Bb5"), "{replies:?}");
    assert_eq!(stored_reminder(&service).await, after_move);
}

/// The next reminder the store holds for game 1.
async fn stored_reminder(service: &Service) -> Option<DateTime<Utc>> {
    let record = service.store().game(1).await.unwrap().expect("game 1");
    record.remind_at
}
