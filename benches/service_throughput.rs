//! Moves per second through the whole service into a real SQLite file with
//! durable commits (each move's answer queued in the outbox in its commit,
//! then settled as answered, as an adapter does), against a baseline that
//! only validates each move with shakmaty and inserts one row per commit.
//!
//! `cargo bench --bench service_throughput [-- GAMES PLIES]` (default 1000 × 80).
//! The target (issue 4): the service reaches at least half the baseline's rate.

use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use pawnpost::core::platform::Platform;
use pawnpost::service::{BoardImages, Input, Moderation, Request, Service, ServiceConfig, User};
use pawnpost::storage::sqlite::SqliteStore;
use rusqlite::Connection;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let games = args.first().copied().unwrap_or(1000);
    let plies = args.get(1).copied().unwrap_or(80);
    let scripts: Vec<Vec<String>> = (0..games)
        .map(|g| random_game(g as u64 + 1, plies))
        .collect();
    let total: usize = scripts.iter().map(Vec::len).sum();
    println!("{games} games, {total} moves, SQLite WAL with synchronous=FULL");

    let dir = tempfile::tempdir().expect("temp dir");
    let baseline = baseline(&dir.path().join("baseline.db"), &scripts);
    let service = through_service(&dir.path().join("service.db"), &scripts);

    let rate = |d: Duration| total as f64 / d.as_secs_f64();
    println!(
        "baseline (validate + insert per commit): {:>9.0} moves/s",
        rate(baseline)
    );
    println!(
        "service  (parse, rules, store, replies):  {:>9.0} moves/s",
        rate(service)
    );
    println!(
        "service / baseline: {:.2} (target ≥ 0.50)",
        rate(service) / rate(baseline)
    );
}

/// A legal game of up to `plies` moves that does not end, in UCI.
fn random_game(seed: u64, plies: usize) -> Vec<String> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut pos = Chess::default();
    let mut moves = Vec::with_capacity(plies);
    while moves.len() < plies {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let legal = pos.legal_moves();
        let start = state as usize % legal.len();
        let next = (0..legal.len())
            .map(|i| legal[(start + i) % legal.len()])
            .find(|m| {
                let mut after = pos.clone();
                after.play_unchecked(*m);
                !after.is_game_over() && after.halfmoves() < 90
            });
        let Some(m) = next else { break };
        moves.push(m.to_uci(CastlingMode::Standard).to_string());
        pos.play_unchecked(m);
    }
    moves
}

fn baseline(path: &std::path::Path, scripts: &[Vec<String>]) -> Duration {
    let conn = Connection::open(path).expect("open");
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;
         CREATE TABLE moves (game INTEGER, ply INTEGER, uci TEXT, PRIMARY KEY (game, ply));",
    )
    .expect("schema");
    let mut positions: Vec<Chess> = vec![Chess::default(); scripts.len()];
    let longest = scripts.iter().map(Vec::len).max().unwrap_or(0);
    let started = Instant::now();
    for ply in 0..longest {
        for (game, script) in scripts.iter().enumerate() {
            let Some(text) = script.get(ply) else {
                continue;
            };
            let uci = UciMove::from_ascii(text.as_bytes()).expect("uci");
            let m = uci.to_move(&positions[game]).expect("legal");
            positions[game].play_unchecked(m);
            conn.execute(
                "INSERT INTO moves (game, ply, uci) VALUES (?1, ?2, ?3)",
                (game as i64, ply as i64, text),
            )
            .expect("insert");
        }
    }
    started.elapsed()
}

fn through_service(path: &std::path::Path, scripts: &[Vec<String>]) -> Duration {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let store = SqliteStore::open(path).expect("open");
        // The act alone by default; PAWNPOST_BENCH_IMAGES=1 also draws each
        // reply's board PNG, as for a chat adapter's readers.
        let board_images = if std::env::var("PAWNPOST_BENCH_IMAGES").is_ok_and(|v| v == "1") {
            BoardImages::Drawn
        } else {
            BoardImages::Omitted
        };
        let service = Service::new(store, ServiceConfig::default());
        let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
        let act = |user: String, channel: usize, text: String, key: String| Request {
            platform: Platform::Console,
            server: "bench".to_owned(),
            channel: format!("c{channel}"),
            user: User {
                id: user.clone(),
                name: user,
                locale: None,
                moderation: Moderation::None,
            },
            key: Some(key),
            input: Input::Text(text),
            board_images,
        };
        // Every game in its own channel, between its own two players.
        for game in 0..scripts.len() {
            let (white, black) = (format!("w{game}"), format!("b{game}"));
            let challenge = format!("/challenge @{black} color:white");
            service
                .handle(act(white, game, challenge, format!("c{game}")), now)
                .await;
            service
                .handle(act(black, game, "/accept".into(), format!("a{game}")), now)
                .await;
        }
        let longest = scripts.iter().map(Vec::len).max().unwrap_or(0);
        let started = Instant::now();
        for ply in 0..longest {
            for (game, script) in scripts.iter().enumerate() {
                let Some(uci) = script.get(ply) else { continue };
                let player = if ply % 2 == 0 { "w" } else { "b" };
                let text = format!("/move {uci}");
                // Interaction ids (Discord snowflakes, Matrix event order) grow with time.
                let key = format!("act:{:012}", ply * scripts.len() + game);
                let replies = service
                    .handle(act(format!("{player}{game}"), game, text, key.clone()), now)
                    .await;
                assert!(
                    replies.iter().all(|r| !r.ephemeral),
                    "move refused: {replies:?}"
                );
                // As an adapter does once the answer is out: the outbox
                // then has nothing to send again (settled in batches).
                service.answered(&key);
            }
        }
        service.settle_answered().await;
        started.elapsed()
    })
}
