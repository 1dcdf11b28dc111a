//! A bot against the fake Discord, shared by the Discord tests: a clock
//! the test moves, a bot started on a database and stopped, a scheduler,
//! users, and a game opened through slash commands and buttons.

#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::Duration as StdDuration;

use chrono::{DateTime, Duration, TimeZone, Utc};
use pawnpost::adapters::discord::shards::ShardPlan;
use pawnpost::adapters::discord::{Bot, DiscordOptions};
use pawnpost::config::Secret;
use pawnpost::core::notation::Lang;
use pawnpost::scheduler::{self, SchedulerSettings};
use pawnpost::service::{Service, ServiceConfig, TimeSource};
use pawnpost::storage::sqlite::SqliteStore;
use serde_json::{Value, json};
use tokio::sync::oneshot;

use crate::fake_discord::{FakeDiscord, FakeUser, Recorded};

pub const GUILD: u64 = 700_000_000_000_000_001;
pub const CHANNEL: u64 = 710_000_000_000_000_001;

/// A clock the test moves by hand.
#[derive(Clone)]
pub struct ManualTime(pub Arc<Mutex<DateTime<Utc>>>);

impl ManualTime {
    pub fn new() -> ManualTime {
        ManualTime(Arc::new(Mutex::new(
            Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap(),
        )))
    }

    pub fn advance(&self, by: Duration) {
        *self.0.lock().unwrap() += by;
    }
}

impl TimeSource for ManualTime {
    fn now(&self) -> DateTime<Utc> {
        *self.0.lock().unwrap()
    }
}

/// A bot running against the fake, and how to stop it.
pub struct Running {
    pub service: Arc<Service>,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
    pub notifier: pawnpost::adapters::discord::DiscordNotifier,
}

impl Running {
    pub async fn stop(mut self, fake: &FakeDiscord) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = tokio::time::timeout(StdDuration::from_secs(10), self.task).await;
        fake.forget_shards();
    }
}

pub async fn start_bot(fake: &FakeDiscord, db: &std::path::Path, time: &ManualTime) -> Running {
    start_bot_with(fake, db, time, |_| {}).await
}

pub async fn start_bot_with(
    fake: &FakeDiscord,
    db: &std::path::Path,
    time: &ManualTime,
    adjust: impl FnOnce(&mut DiscordOptions),
) -> Running {
    start_bot_configured(fake, db, time, ServiceConfig::default(), adjust).await
}

pub async fn start_bot_configured(
    fake: &FakeDiscord,
    db: &std::path::Path,
    time: &ManualTime,
    config: ServiceConfig,
    adjust: impl FnOnce(&mut DiscordOptions),
) -> Running {
    let store = SqliteStore::open(db).expect("database");
    let service = Arc::new(Service::new(store, config));
    let options = DiscordOptions {
        token: Secret::new("fake-token"),
        api_base: Some(fake.api_base()),
        shards: ShardPlan::Auto,
        guilds: Vec::new(),
        rate_limit_per_minute: 0,
        moderator_roles: Vec::new(),
        threads: false,
        default_language: Lang::En,
    };
    let mut options = options;
    adjust(&mut options);
    let bot = Bot::connect(Arc::clone(&service), options, Arc::new(time.clone()))
        .await
        .expect("bot");
    let notifier = bot.notifier();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(bot.run(async move {
        let _ = stopped.await;
    }));
    fake.wait_for_shards(1).await;
    Running {
        service,
        stop: Some(stop),
        task,
        notifier,
    }
}

/// Sends an interaction and returns the bot's answer to it (after a
/// click's UPDATE_MESSAGE, its first followup).
pub async fn send(fake: &FakeDiscord, interaction: (u64, Value)) -> Recorded {
    fake.answer_message(interaction).await
}

pub fn alice() -> FakeUser {
    FakeUser::new(510_000_000_000_000_001, "alice")
}

pub fn bob() -> FakeUser {
    FakeUser::new(520_000_000_000_000_002, "bob")
}

pub fn carol() -> FakeUser {
    FakeUser::new(530_000_000_000_000_003, "carol")
}

pub fn move_options(text: &str, extra: Value) -> Value {
    let mut options = vec![json!({ "name": "move", "type": 3, "value": text })];
    if let Value::Array(more) = extra {
        options.extend(more);
    }
    Value::Array(options)
}

/// The reply carries a board PNG.
pub fn assert_board_attached(recorded: &Recorded) {
    assert!(
        recorded.files.iter().any(|f| f.filename == "board.png"),
        "no board.png attached"
    );
    assert_pngs_decode(recorded);
}

/// Every attached PNG decodes.
pub fn assert_pngs_decode(recorded: &Recorded) {
    for file in &recorded.files {
        if file.content_type == "image/png" || file.filename.ends_with(".png") {
            let decoder = png::Decoder::new(std::io::Cursor::new(file.bytes.clone()));
            let mut reader = decoder.read_info().expect("a PNG header");
            let mut pixels = vec![0; reader.output_buffer_size().expect("size")];
            reader.next_frame(&mut pixels).expect("a PNG frame");
        }
    }
}

/// The game id in a game message's embed title (`#3 · alice – bob`).
pub fn game_in_title(message: &Recorded) -> i64 {
    let embed = &message.message()["embeds"][0];
    let title = embed["title"].as_str().expect("a game embed");
    assert!(title.contains("alice") && title.contains("bob"), "{title}");
    title
        .trim_start_matches('#')
        .split(' ')
        .next()
        .and_then(|id| id.parse().ok())
        .expect("the game id in the title")
}

/// Challenge, accept by button, and e4: the game id.
pub async fn open_game(fake: &FakeDiscord, alice: &FakeUser, bob: &FakeUser, time: &str) -> i64 {
    open_game_in(fake, GUILD, CHANNEL, alice, bob, time).await
}

/// Challenge, accept by button, and e4 in `channel` of `guild`: the game id.
pub async fn open_game_in(
    fake: &FakeDiscord,
    guild: u64,
    channel: u64,
    alice: &FakeUser,
    bob: &FakeUser,
    time: &str,
) -> i64 {
    fake.know(bob);
    let challenge = send(
        fake,
        fake.command(
            guild,
            channel,
            alice,
            "play challenge",
            json!([
                { "name": "user", "type": 6, "value": bob.id.to_string() },
                { "name": "color", "type": 3, "value": "white" },
                { "name": "time", "type": 3, "value": time }
            ]),
        ),
    )
    .await;
    assert!(!challenge.is_ephemeral(), "{challenge:?}");
    assert!(
        challenge.content().contains(&bob.mention()),
        "{}",
        challenge.content()
    );
    let accept = challenge
        .buttons()
        .into_iter()
        .find(|b| b.starts_with("challenge-accept:"))
        .expect("an Accept button");
    assert!(
        challenge
            .buttons()
            .iter()
            .any(|b| b.starts_with("challenge-decline:"))
    );

    let click = fake.click(guild, channel, bob, &accept);
    let started = send(fake, click).await;
    assert!(!started.is_ephemeral(), "{started:?}");
    assert!(
        started.content().contains(&alice.mention()),
        "white is to move"
    );
    let game = game_in_title(&started);
    assert!(started.buttons().contains(&format!("resign:{game}")));
    assert_board_attached(&started);

    let e4 = send(
        fake,
        fake.command(guild, channel, alice, "move", move_options("e4", json!([]))),
    )
    .await;
    assert!(!e4.is_ephemeral(), "{e4:?}");
    assert!(e4.all_text().contains("e4"));
    assert!(e4.content().contains(&bob.mention()), "bob is to move");
    game
}

pub fn dave() -> FakeUser {
    FakeUser::new(550_000_000_000_000_005, "dave")
}

/// A scheduler running on a bot's service, and how to stop it.
pub struct Scheduler {
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl Scheduler {
    pub fn start(bot: &Running, time: &ManualTime) -> Scheduler {
        let (stop, stopped) = oneshot::channel::<()>();
        let settings = SchedulerSettings {
            heartbeat_every: StdDuration::from_millis(50),
            ..SchedulerSettings::default()
        };
        let task = tokio::spawn(scheduler::run(
            Arc::clone(&bot.service),
            bot.notifier.clone(),
            time.clone(),
            settings,
            async move {
                let _ = stopped.await;
            },
        ));
        Scheduler {
            stop: Some(stop),
            task,
        }
    }

    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = tokio::time::timeout(StdDuration::from_secs(20), self.task).await;
    }
}
