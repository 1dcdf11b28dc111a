//! Two real bot processes (`pawnpost serve`) on one PostgreSQL schema,
//! each holding one of two Discord shards of a fake Discord on 127.0.0.1,
//! each with its own scheduler. 1,000 games whose flags fall at the same
//! instant must each be announced exactly once and end once in the
//! database; moves sent as INTERACTION_CREATE to guilds on both shards
//! persist.
//!
//! Needs `PAWNPOST_TEST_POSTGRES`; skipped (with a note) without it.

#[path = "common/fake_discord.rs"]
mod fake_discord;

use std::collections::HashMap;
use std::process::{Child, Command, Stdio};
use std::time::{Duration as StdDuration, Instant};

use chrono::{Duration, Utc};
use fake_discord::{FakeDiscord, FakeUser};
use pawnpost::core::event::Reason;
use pawnpost::core::platform::Platform;
use pawnpost::service::{BoardImages, Input, Moderation, Request, Service, ServiceConfig, User};
use pawnpost::storage::Status;
use pawnpost::storage::postgres::scratch::{ScratchSchema, test_url};
use serde_json::json;

const GAMES: u64 = 1000;
/// Guilds the flag games are spread over; guild `g` lives on shard `g % 2`.
const GUILDS: u64 = 16;
/// Channel of flag game `k` (one game per channel, so notices count per game).
const CHANNEL_BASE: u64 = 610_000_000_000_000_000;
/// Channels of the games played through interactions, one per shard.
const LIVE_CHANNEL_BASE: u64 = 620_000_000_000_000_000;
/// Every bounded wait of this test gives up after this.
const FLAG_PATIENCE: StdDuration = StdDuration::from_secs(180);

/// Guild `g`'s snowflake: its shard (`(id >> 22) % 2`) is `g % 2`.
fn guild(g: u64) -> u64 {
    ((700_000_000_000_000_000u64 >> 23) * 2 + g) << 22
}

fn flag_channel(game: u64) -> u64 {
    CHANNEL_BASE + game
}

/// A `pawnpost serve` child, killed when dropped.
struct Bot {
    child: Child,
    name: String,
    log: std::path::PathBuf,
}

impl Bot {
    fn spawn(dir: &std::path::Path, name: &str, shards: &str, api: &str, db: &str) -> Bot {
        let log = dir.join(format!("{name}.log"));
        let out = std::fs::File::create(&log).expect("log file");
        let err = out.try_clone().expect("log file");
        let child = Command::new(env!("CARGO_BIN_EXE_pawnpost"))
            .arg("serve")
            .current_dir(dir)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("RUST_LOG", "warn,pawnpost::service::deadlines=info")
            .env("NO_COLOR", "1")
            .env("DISCORD_TOKEN", "fake-token")
            .env("PAWNPOST_DISCORD_API_BASE", api)
            .env("PAWNPOST_DISCORD_SHARDS", shards)
            .env("PAWNPOST_DATABASE_URL", db)
            .env("PAWNPOST_DATABASE_POOL_SIZE", "4")
            .stdin(Stdio::null())
            .stdout(Stdio::from(out))
            .stderr(Stdio::from(err))
            .spawn()
            .expect("start pawnpost serve");
        Bot {
            child,
            name: name.to_owned(),
            log,
        }
    }

    /// Fails the test with the process's log if it has exited.
    fn check_alive(&mut self) {
        if let Ok(Some(status)) = self.child.try_wait() {
            let log = std::fs::read_to_string(&self.log).unwrap_or_default();
            panic!("{} exited ({status}):\n{log}", self.name);
        }
    }
}

impl Bot {
    /// Due games this process attended, from its "due games attended" lines.
    fn attended(&self) -> usize {
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        log.lines()
            .filter(|line| line.contains("due games attended"))
            .filter_map(|line| {
                let count = line.split("handled=").nth(1)?;
                let digits: String = count.chars().take_while(char::is_ascii_digit).collect();
                digits.parse::<usize>().ok()
            })
            .sum()
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The scratch schema as a URL the binary takes (`search_path` in `options`).
fn schema_url(base: &str, schema: &ScratchSchema) -> String {
    let join = if base.contains('?') { '&' } else { '?' };
    format!("{base}{join}options=-c%20search_path%3D{}", schema.name())
}

/// One act by `user` in flag game `game`'s channel.
fn act(game: u64, user: &str, text: &str) -> Request {
    Request {
        platform: Platform::Discord,
        server: guild(game % GUILDS).to_string(),
        channel: flag_channel(game).to_string(),
        user: User {
            id: format!("{user}{game}"),
            name: format!("{user}{game}"),
            locale: None,
            moderation: Moderation::None,
        },
        key: None,
        input: Input::Text(text.to_owned()),
        board_images: BoardImages::Omitted,
    }
}

/// POSTs to a flag game's channel, counted per game.
fn notices(fake: &FakeDiscord) -> HashMap<u64, usize> {
    let mut seen = HashMap::new();
    for request in fake.requests() {
        if request.method != "POST" {
            continue;
        }
        let Some(rest) = request.path.strip_prefix("/api/v10/channels/") else {
            continue;
        };
        let Some(channel) = rest.strip_suffix("/messages") else {
            continue;
        };
        let Ok(channel) = channel.parse::<u64>() else {
            continue;
        };
        if (CHANNEL_BASE..CHANNEL_BASE + GAMES).contains(&channel) {
            *seen.entry(channel - CHANNEL_BASE).or_default() += 1;
        }
    }
    seen
}

/// Challenge, accept and e4 through the bot on `guild`'s shard; the game id.
async fn play_e4(
    fake: &FakeDiscord,
    guild: u64,
    channel: u64,
    white: &FakeUser,
    black: &FakeUser,
) -> i64 {
    fake.know(black);
    let challenge = fake
        .answer(fake.command(
            guild,
            channel,
            white,
            "play challenge",
            json!([
                { "name": "user", "type": 6, "value": black.id.to_string() },
                { "name": "color", "type": 3, "value": "white" },
                { "name": "time", "type": 3, "value": "3d" }
            ]),
        ))
        .await;
    assert!(!challenge.is_ephemeral(), "{challenge:?}");
    let accept = challenge
        .buttons()
        .into_iter()
        .find(|b| b.starts_with("challenge-accept:"))
        .expect("an Accept button");
    let started = fake
        .answer_message(fake.click(guild, channel, black, &accept))
        .await;
    assert!(!started.is_ephemeral(), "{started:?}");
    let game = started
        .buttons()
        .iter()
        .find_map(|b| b.strip_prefix("resign:").and_then(|id| id.parse().ok()))
        .expect("a resign button with the game id");
    let e4 = fake
        .answer(fake.command(
            guild,
            channel,
            white,
            "move",
            json!([{ "name": "move", "type": 3, "value": "e4" }]),
        ))
        .await;
    assert!(!e4.is_ephemeral(), "{e4:?}");
    game
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bot_processes_share_the_flags_and_the_shards() {
    // test_url() prints the note when the variable is unset.
    let Some(url) = test_url() else { return };
    let schema = ScratchSchema::create(&url, "bots").await.expect("schema");
    let store = pawnpost::storage::Store::from(schema.store(4).await.expect("open"));
    let config = ServiceConfig {
        remind_when_used: None,
        remind_before_flag: None,
        ..ServiceConfig::default()
    };
    let service = Service::new(store.clone(), config);

    // 1,000 one-day games played (1. e4 e5) "a day ago" less a few seconds:
    // every white flag falls at the same instant, around when the bots start.
    let began = Instant::now();
    let flag = Utc::now() + Duration::seconds(15);
    let accepted = flag - Duration::days(1);
    for game in 0..GAMES {
        let challenge = format!("/challenge @b{game} color:white time:1d");
        let replies = service.handle(act(game, "w", &challenge), accepted).await;
        assert!(replies.iter().all(|r| !r.ephemeral), "{replies:?}");
        // A move each, so that the flag is a loss on time, not an abort.
        for (user, text) in [("b", "/accept"), ("w", "/move e4"), ("b", "/move e5")] {
            let replies = service.handle(act(game, user, text), accepted).await;
            assert!(replies.iter().all(|r| !r.ephemeral), "{text}: {replies:?}");
        }
    }
    println!("created {GAMES} games in {:?}", began.elapsed());
    let started_version = store.game(1).await.expect("read").expect("game").version;

    let fake = FakeDiscord::start(2).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let db = schema_url(&url, &schema);
    let mut bots = [
        Bot::spawn(dir.path(), "bot-0", "0-0/2", &fake.api_base(), &db),
        Bot::spawn(dir.path(), "bot-1", "1-1/2", &fake.api_base(), &db),
    ];
    let connected = async {
        fake.wait_for_shards(2).await;
    };
    if tokio::time::timeout(StdDuration::from_secs(60), connected)
        .await
        .is_err()
    {
        for bot in &mut bots {
            bot.check_alive();
        }
        panic!("the two shards did not connect in time");
    }

    // Moves through each shard (the first two guilds sit on shards 0 and 1).
    let mut live = Vec::new();
    for shard in 0..2u64 {
        let white = FakeUser::new(510_000_000_000_000_001 + shard, "alice");
        let black = FakeUser::new(520_000_000_000_000_001 + shard, "bob");
        let channel = LIVE_CHANNEL_BASE + shard;
        live.push(play_e4(&fake, guild(shard), channel, &white, &black).await);
    }

    // Every flag announced, by one process or the other.
    let deadline = Instant::now() + FLAG_PATIENCE;
    loop {
        if notices(&fake).len() as u64 >= GAMES {
            break;
        }
        for bot in &mut bots {
            bot.check_alive();
        }
        assert!(
            Instant::now() < deadline,
            "only {} of {GAMES} flags announced in time",
            notices(&fake).len()
        );
        tokio::time::sleep(StdDuration::from_millis(200)).await;
    }
    println!(
        "{GAMES} flags announced {:?} after the flag instant",
        (Utc::now() - flag).to_std().unwrap_or_default()
    );
    // A moment more, so that a second announcement would show.
    tokio::time::sleep(StdDuration::from_secs(2)).await;
    let announced = notices(&fake);
    assert_eq!(announced.len() as u64, GAMES);
    let twice: Vec<_> = announced.iter().filter(|(_, n)| **n != 1).collect();
    assert!(twice.is_empty(), "announced more than once: {twice:?}");
    let attended = [bots[0].attended(), bots[1].attended()];
    println!(
        "flags attended: {} by bot-0, {} by bot-1",
        attended[0], attended[1]
    );
    assert_eq!(attended[0] + attended[1], GAMES as usize);
    drop(bots);

    // The database: every flag game over on time, once; the live moves kept.
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
        assert_eq!(game.version, started_version + 1, "one flag: game {id}");
    }
    for id in live {
        let game = store.game(id).await.expect("read").expect("game");
        let sans: Vec<&str> = game.moves.iter().map(|m| m.san.as_str()).collect();
        assert_eq!(sans, ["e4"], "live game {id}");
        assert!(matches!(game.state, Status::Ongoing), "{:?}", game.state);
    }
}
