//! Load on the Discord adapter: 100 concurrent games on a fake Discord,
//! 200 interactions per second for 30 seconds (each a move by the player
//! to move), and the handling time of each: from the gateway event leaving
//! the fake to the bot's answer (with any board PNG) arriving at it.
//!
//! `cargo bench --bench discord_load` (`DISCORD_LOAD_SECONDS` and
//! `DISCORD_LOAD_GAMES` change the run).

#[path = "../tests/common/fake_discord.rs"]
mod fake_discord;

use std::sync::Arc;
use std::time::{Duration, Instant};

use fake_discord::{FakeDiscord, FakeUser};
use pawnpost::adapters::discord::shards::ShardPlan;
use pawnpost::adapters::discord::{Bot, DiscordOptions};
use pawnpost::config::Secret;
use pawnpost::core::notation::Lang;
use pawnpost::service::{Service, ServiceConfig, SystemTime};
use pawnpost::storage::sqlite::SqliteStore;
use serde_json::json;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};

const GUILD: u64 = 700_000_000_000_000_001;
const RATE_PER_SECOND: u64 = 200;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A small deterministic generator, so every run plays the same games.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// One game of the load: its channel, players and position.
struct Table {
    channel: u64,
    players: [FakeUser; 2],
    position: Chess,
    rng: XorShift,
}

impl Table {
    /// A random legal move that does not end the game, in SAN.
    fn next_move(&mut self) -> Option<String> {
        let moves = self.position.legal_moves();
        for _ in 0..moves.len() {
            let m = moves[(self.rng.next() % moves.len() as u64) as usize];
            let after = self.position.clone().play(m).ok()?;
            if !after.is_game_over() && !after.is_insufficient_material() {
                let san = SanPlus::from_move(self.position.clone(), m).to_string();
                self.position = after;
                return Some(san);
            }
        }
        None
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index]
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(run());
}

async fn run() {
    let seconds = env_number("DISCORD_LOAD_SECONDS", 30);
    let games = env_number("DISCORD_LOAD_GAMES", 100) as usize;
    let fake = Arc::new(FakeDiscord::start(1).await);
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("load.db")).expect("database");
    let service = Arc::new(Service::new(store, ServiceConfig::default()));
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
    let bot = Bot::connect(service, options, Arc::new(SystemTime))
        .await
        .expect("bot");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let bot_task = tokio::spawn(bot.run(async move {
        let _ = stopped.await;
    }));
    fake.wait_for_shards(1).await;

    // Open the games: a challenge and its Accept button each.
    let mut tables = Vec::with_capacity(games);
    for g in 0..games as u64 {
        let white = FakeUser::new(500_000_000_000_000_000 + 2 * g, &format!("white{g}"));
        let black = FakeUser::new(500_000_000_000_000_001 + 2 * g, &format!("black{g}"));
        let channel = 710_000_000_000_000_000 + g;
        let challenge = fake
            .answer(fake.command(
                GUILD,
                channel,
                &white,
                "play challenge",
                json!([
                    { "name": "user", "type": 6, "value": black.id.to_string() },
                    { "name": "color", "type": 3, "value": "white" }
                ]),
            ))
            .await;
        let accept = challenge
            .buttons()
            .into_iter()
            .find(|b| b.starts_with("challenge-accept:"))
            .expect("an Accept button");
        fake.answer(fake.click(GUILD, channel, &black, &accept))
            .await;
        tables.push(Table {
            channel,
            players: [white, black],
            position: Chess::default(),
            rng: XorShift(0x9e37_79b9_7f4a_7c15 ^ (g + 1)),
        });
    }

    // Each game moves every `games / rate` seconds, the games staggered so
    // that together they send `rate` interactions per second.
    let period = Duration::from_secs_f64(games as f64 / RATE_PER_SECOND as f64);
    let start = Instant::now() + Duration::from_millis(100);
    let end = start + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for (index, mut table) in tables.into_iter().enumerate() {
        let fake = Arc::clone(&fake);
        let offset = period.mul_f64(index as f64 / games as f64);
        tasks.push(tokio::spawn(async move {
            let mut timings = Vec::new();
            let mut refusals = 0u32;
            let mut next = start + offset;
            let mut ply = 0usize;
            while next < end {
                tokio::time::sleep_until(next.into()).await;
                next += period;
                let Some(san) = table.next_move() else { break };
                let player = &table.players[ply % 2];
                ply += 1;
                let interaction = fake.command(
                    GUILD,
                    table.channel,
                    player,
                    "move",
                    json!([{ "name": "move", "type": 3, "value": san }]),
                );
                let sent = Instant::now();
                let answer = fake.answer(interaction).await;
                timings.push(answer.at.saturating_duration_since(sent));
                if answer.is_ephemeral() {
                    refusals += 1;
                }
            }
            (timings, refusals)
        }));
    }
    let mut timings = Vec::new();
    let mut refusals = 0;
    for task in tasks {
        let (mut t, r) = task.await.expect("a game task");
        timings.append(&mut t);
        refusals += r;
    }
    let elapsed = start.elapsed();
    timings.sort();
    let with_png = fake
        .requests()
        .iter()
        .filter(|r| r.files.iter().any(|f| f.content_type == "image/png"))
        .count();
    println!(
        "discord_load: {} interactions in {:.1} s ({:.0}/s) over {games} games; \
         p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; {refusals} refused; {with_png} answers with a PNG",
        timings.len(),
        elapsed.as_secs_f64(),
        timings.len() as f64 / elapsed.as_secs_f64(),
        percentile(&timings, 0.50).as_secs_f64() * 1e3,
        percentile(&timings, 0.99).as_secs_f64() * 1e3,
        timings.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
    );
    let _ = stop.send(());
    let _ = tokio::time::timeout(Duration::from_secs(10), bot_task).await;
}
