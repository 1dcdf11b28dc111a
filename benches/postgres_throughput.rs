//! Moves per second and flag adjudications per second on PostgreSQL, with
//! one process and with two (two stores, two pools, two services on one
//! database), beside SQLite through the same service on the same workload.
//!
//! `PAWNPOST_TEST_POSTGRES=postgres://... cargo bench --bench postgres_throughput [-- GAMES PLIES]`
//! (default 400 × 40). The workload is the service benchmark's: random legal
//! games, each in its own channel between its own two players, moves in
//! rounds (every game's first move, then every game's second...). Every
//! process plays its games from `WORKERS` tasks at once, as a bot serves
//! several channels at once; SQLite is measured sequentially, as in
//! `service_throughput` (it serialises its writes anyway). Then every
//! game's flag falls at one instant and the schedulers' work is timed.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, TimeZone, Utc};
use pawnpost::core::platform::Platform;
use pawnpost::service::{BoardImages, Input, Moderation, Request, Service, ServiceConfig, User};
use pawnpost::storage::Store;
use pawnpost::storage::postgres::scratch::{ScratchSchema, test_url};
use pawnpost::storage::sqlite::SqliteStore;
use shakmaty::{CastlingMode, Chess, Position};

/// Acts in flight per process.
const WORKERS: usize = 8;

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let games = args.first().copied().unwrap_or(400);
    let plies = args.get(1).copied().unwrap_or(40);
    let scripts: Arc<Vec<Vec<String>>> = Arc::new(
        (0..games)
            .map(|g| random_game(g as u64 + 1, plies))
            .collect(),
    );
    let total: usize = scripts.iter().map(Vec::len).sum();
    println!("{games} games, {total} moves; flags: {games} at one instant");
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let sqlite = SqliteStore::open(dir.path().join("bench.db")).expect("open");
        let (moves, flags) = measure(vec![sqlite.into()], &scripts, 1).await;
        report("SQLite, 1 process (sequential)", total, moves, games, flags);

        let Some(url) = test_url() else {
            println!("PAWNPOST_TEST_POSTGRES is not set: no PostgreSQL figures");
            return;
        };
        for processes in [1, 2] {
            let schema = ScratchSchema::create(&url, "bench").await.expect("schema");
            let mut stores = Vec::new();
            for _ in 0..processes {
                stores.push(schema.store(WORKERS).await.expect("open").into());
            }
            let (moves, flags) = measure(stores, &scripts, WORKERS).await;
            let label = format!("PostgreSQL, {processes} process(es) × {WORKERS} tasks");
            report(&label, total, moves, games, flags);
        }
    });
}

fn report(label: &str, moves: usize, moving: Duration, flags: usize, flagging: Duration) {
    println!(
        "{label:<40} {:>8.0} moves/s {:>8.0} flags/s",
        moves as f64 / moving.as_secs_f64(),
        flags as f64 / flagging.as_secs_f64()
    );
}

fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap()
}

fn act(user: String, game: usize, text: String, key: String) -> Request {
    Request {
        platform: Platform::Console,
        server: "bench".to_owned(),
        channel: format!("c{game}"),
        user: User {
            id: user.clone(),
            name: user,
            locale: None,
            moderation: Moderation::None,
        },
        key: Some(key),
        input: Input::Text(text),
        board_images: BoardImages::Omitted,
    }
}

/// Plays every script through the stores' services (process `p` takes the
/// games `g` with `g % processes == p`), then lets every flag fall. Returns
/// the time the moves took and the time the flags took.
async fn measure(
    stores: Vec<Store>,
    scripts: &Arc<Vec<Vec<String>>>,
    workers: usize,
) -> (Duration, Duration) {
    let processes = stores.len();
    let services: Vec<Arc<Service>> = stores
        .into_iter()
        .map(|store| Arc::new(Service::new(store, ServiceConfig::default())))
        .collect();
    // Every game started (3 days a move), untimed.
    for game in 0..scripts.len() {
        let service = &services[game % processes];
        let (white, black) = (format!("w{game}"), format!("b{game}"));
        let challenge = format!("/challenge @{black} color:white time:3d");
        service
            .handle(act(white, game, challenge, format!("c{game}")), start())
            .await;
        service
            .handle(
                act(black, game, "/accept".into(), format!("a{game}")),
                start(),
            )
            .await;
    }
    // The moves: each process's games split among its workers.
    let started = Instant::now();
    let mut tasks = Vec::new();
    for (index, service) in services.iter().enumerate() {
        for worker in 0..workers {
            let (service, scripts) = (Arc::clone(service), Arc::clone(scripts));
            let mine: Vec<usize> = (0..scripts.len())
                .filter(|g| g % processes == index && (g / processes) % workers == worker)
                .collect();
            tasks.push(tokio::spawn(async move {
                let longest = scripts.iter().map(Vec::len).max().unwrap_or(0);
                for ply in 0..longest {
                    for &game in &mine {
                        let Some(uci) = scripts[game].get(ply) else {
                            continue;
                        };
                        let player = if ply % 2 == 0 { "w" } else { "b" };
                        let key = format!("act:{:012}", ply * scripts.len() + game);
                        let user = format!("{player}{game}");
                        let replies = service
                            .handle(act(user, game, format!("/move {uci}"), key), start())
                            .await;
                        assert!(replies.iter().all(|r| !r.ephemeral), "{replies:?}");
                    }
                }
            }));
        }
    }
    for task in tasks {
        task.await.expect("worker");
    }
    let moving = started.elapsed();
    // Every flag at once: each process's scheduler pass, all processes together.
    let flag = start() + chrono::Duration::days(4);
    let started = Instant::now();
    let passes: Vec<_> = services
        .iter()
        .map(|service| {
            let service = Arc::clone(service);
            tokio::spawn(async move { service.run_due(flag).await })
        })
        .collect();
    let mut notices = 0;
    for pass in passes {
        notices += pass.await.expect("scheduler");
    }
    let flagging = started.elapsed();
    assert!(notices >= scripts.len(), "every game ended: {notices}");
    (moving, flagging)
}

/// A legal game of up to `plies` moves that does not end, in UCI (the
/// service benchmark's generator).
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
