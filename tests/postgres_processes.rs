//! Several bot processes on one PostgreSQL database: each [`Process`] has
//! its own store (its own connection pool), service and scheduler, and
//! serves half of the servers, as a process holding half of the Discord
//! shards would. 1,000 games whose flags fall at the same instant must each
//! end exactly once, and the moves played through either process persist.
//!
//! Needs `PAWNPOST_TEST_POSTGRES`; skipped (with a note) without it. The
//! same with real `pawnpost serve` processes and a fake Discord gateway is
//! `tests/postgres_bot_processes.rs`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration as StdDuration;

use chrono::{DateTime, Duration, TimeZone, Utc};
use pawnpost::core::event::{Event, Reason};
use pawnpost::core::platform::Platform;
use pawnpost::scheduler::{self, SchedulerSettings};
use pawnpost::service::{
    BoardImages, Input, Moderation, Notifier, Reply, Request, Service, ServiceConfig, TimeSource,
    User,
};
use pawnpost::storage::Status;
use pawnpost::storage::postgres::scratch::{ScratchSchema, test_url};

const GAMES: usize = 1000;
/// Servers the games are spread over; process `p` serves those with `server % 2 == p`.
const SERVERS: usize = 16;

fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 6, 1, 9, 0, 0).unwrap()
}

/// A clock stopped at one instant: both schedulers look at the same moment.
#[derive(Clone, Copy)]
struct StoppedClock(DateTime<Utc>);

impl TimeSource for StoppedClock {
    fn now(&self) -> DateTime<Utc> {
        self.0
    }
}

/// Replies a scheduler delivered, as a chat adapter would send them.
#[derive(Clone, Default)]
struct Delivered {
    replies: Arc<Mutex<Vec<Reply>>>,
    arrived: Arc<tokio::sync::Notify>,
}

impl Notifier for Delivered {
    fn platform(&self) -> Platform {
        Platform::Discord
    }

    async fn deliver(&self, replies: Vec<Reply>) {
        self.replies.lock().unwrap().extend(replies);
        self.arrived.notify_waiters();
    }
}

impl Delivered {
    /// The games ended on time in what was delivered, with how often each was announced.
    fn timeouts(&self) -> HashMap<i64, usize> {
        let mut seen = HashMap::new();
        for reply in self.replies.lock().unwrap().iter() {
            for event in &reply.events {
                if let Event::GameOver {
                    reason: Reason::Timeout,
                    ..
                } = event.event
                {
                    *seen.entry(event.game).or_default() += 1;
                }
            }
        }
        seen
    }
}

/// Game 0's first move again, under its first key.
async fn replay(process: &Process) -> Vec<Reply> {
    let act = Request {
        platform: Platform::Discord,
        server: "guild0".into(),
        channel: "channel0".into(),
        user: User {
            id: "w0".into(),
            name: "w0".into(),
            locale: None,
            moderation: Moderation::None,
        },
        key: Some("0:/move e4".into()),
        input: Input::Text("/move e4".into()),
        board_images: BoardImages::Omitted,
    };
    process.service.handle(act, start()).await
}

/// One bot process: its own pool, service and delivered replies.
struct Process {
    service: Arc<Service>,
    delivered: Delivered,
}

impl Process {
    async fn start(schema: &ScratchSchema) -> Process {
        let store = schema.store(4).await.expect("open");
        let config = ServiceConfig {
            remind_when_used: None,
            remind_before_flag: None,
            ..ServiceConfig::default()
        };
        Process {
            service: Arc::new(Service::new(store, config)),
            delivered: Delivered::default(),
        }
    }

    /// Plays one user's act in game `game`'s channel.
    async fn act(&self, game: usize, user: &str, text: &str, at: DateTime<Utc>) {
        let act = Request {
            platform: Platform::Discord,
            server: format!("guild{}", game % SERVERS),
            channel: format!("channel{game}"),
            user: User {
                id: format!("{user}{game}"),
                name: format!("{user}{game}"),
                locale: None,
                moderation: Moderation::None,
            },
            key: Some(format!("{game}:{text}")),
            input: Input::Text(text.to_owned()),
            board_images: BoardImages::Omitted,
        };
        let replies = self.service.handle(act, at).await;
        assert!(replies.iter().all(|r| !r.ephemeral), "{text}: {replies:?}");
    }

    /// Opens, accepts and starts (1. e4 e5) every game of this process's servers.
    async fn play_openings(&self, index: usize) {
        for game in (0..GAMES).filter(|g| (g % SERVERS) % 2 == index) {
            self.act(
                game,
                "w",
                &format!("/challenge @b{game} color:white time:1d"),
                start(),
            )
            .await;
            self.act(game, "b", "/accept", start()).await;
            self.act(game, "w", "/move e4", start()).await;
            self.act(game, "b", "/move e5", start()).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_end_each_game_exactly_once() {
    let Some(url) = test_url() else { return };
    let schema = ScratchSchema::create(&url, "processes")
        .await
        .expect("schema");
    let processes = [Process::start(&schema).await, Process::start(&schema).await];

    // Both processes take acts at once, each for its own servers.
    tokio::join!(processes[0].play_openings(0), processes[1].play_openings(1));

    // An act replayed through the other process (a gateway resending it)
    // gets the first answer and changes nothing.
    let (here, there) = tokio::join!(replay(&processes[0]), replay(&processes[1]));
    assert_eq!(here, there);
    assert!(here.iter().any(|r| r.text.contains("e4")), "{here:?}");

    // White's flag falls at the same instant in every game; both schedulers run.
    let flag = start() + Duration::days(1);
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let schedulers: Vec<_> = processes
        .iter()
        .map(|process| {
            let mut stopped = stopped.clone();
            tokio::spawn(scheduler::run(
                Arc::clone(&process.service),
                process.delivered.clone(),
                StoppedClock(flag),
                SchedulerSettings::default(),
                async move {
                    let _ = stopped.wait_for(|stop| *stop).await;
                },
            ))
        })
        .collect();
    let all_ended = async {
        loop {
            let ended: usize = processes.iter().map(|p| p.delivered.timeouts().len()).sum();
            if ended >= GAMES {
                break;
            }
            tokio::time::sleep(StdDuration::from_millis(50)).await;
        }
    };
    tokio::time::timeout(StdDuration::from_secs(120), all_ended)
        .await
        .expect("every flag fell within two minutes");
    // A moment more, so that a second announcement would show.
    tokio::time::sleep(StdDuration::from_millis(300)).await;
    stop.send(true).expect("stop");
    for scheduler in schedulers {
        scheduler.await.expect("scheduler");
    }

    // Each game announced once, by one process or the other.
    let [first, second] = [
        processes[0].delivered.timeouts(),
        processes[1].delivered.timeouts(),
    ];
    println!(
        "flags handled: {} by the first process, {} by the second",
        first.len(),
        second.len()
    );
    let mut announced: HashMap<i64, usize> = first.clone();
    for (game, times) in &second {
        *announced.entry(*game).or_default() += times;
    }
    assert_eq!(announced.len(), GAMES);
    assert!(announced.values().all(|&times| times == 1), "{announced:?}");

    // And in the database: every game over on time, with its move, once.
    let store = &processes[0].service.store();
    for id in 1..=GAMES as i64 {
        let game = store.game(id).await.expect("read").expect("game");
        assert!(
            matches!(
                game.state,
                Status::Over {
                    reason: Reason::Timeout,
                    ..
                }
            ),
            "game {id}: {:?}",
            game.state
        );
        let sans: Vec<&str> = game.moves.iter().map(|m| m.san.as_str()).collect();
        assert_eq!(sans, ["e4", "e5"], "game {id}");
        assert_eq!(game.version, 3, "two moves and one flag: game {id}");
        let key = format!("deadline:{id}:2");
        assert!(store.answer_of(&key).await.expect("read").is_some());
    }
    assert_eq!(store.next_wake_up().await.expect("read"), None);
}
