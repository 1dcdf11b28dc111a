//! Engine reviews (issue 24): how long a 40-move game takes to review at
//! the default nodes per position, and what the bounded queue does with 10
//! reviews asked for at once — through the whole service, with the real
//! Stockfish (`/usr/games/stockfish`, Debian's `stockfish` package).
//!
//! `cargo bench --bench review [-- NODES]` (default: the configured default).
//! The target: a 40-move game in under 20 s on a 2-core machine.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use pawnpost::core::platform::Platform;
use pawnpost::service::{
    BoardImages, Input, Moderation, Request, ReviewSettings, Service, ServiceConfig, User,
};
use pawnpost::storage::sqlite::SqliteStore;
use shakmaty::{CastlingMode, Chess, Position};

const STOCKFISH: &str = "/usr/games/stockfish";
/// Games reviewed at once after the first one alone.
const AT_ONCE: usize = 10;
/// Plies of each game: 40 moves.
const PLIES: usize = 80;

fn main() {
    if !std::path::Path::new(STOCKFISH).is_file() {
        println!("{STOCKFISH} is not installed (apt-get install stockfish): nothing measured");
        return;
    }
    let defaults = ReviewSettings::default();
    let nodes = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(defaults.nodes);
    let settings = ReviewSettings {
        engine: Some(PathBuf::from(STOCKFISH)),
        nodes,
        ..defaults
    };
    println!(
        "Stockfish at {nodes} nodes per position, {} thread, queue of {}",
        settings.threads, settings.max_queue
    );
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(run(settings));
}

async fn run(settings: ReviewSettings) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("review.db")).expect("open");
    let max_queue = settings.max_queue;
    let config = ServiceConfig {
        reviews: settings,
        ..ServiceConfig::default()
    };
    let service = Arc::new(Service::new(store, config));
    let games = 1 + AT_ONCE;
    for game in 0..games {
        play_and_resign(&service, game, &legal_game(game as u64 + 1)).await;
    }

    let started = Instant::now();
    let text = review(&service, 1).await;
    let alone = started.elapsed();
    assert!(text.starts_with("Engine review"), "{text}");
    println!(
        "one 40-move game ({} positions): {:.1} s (target < 20 s)",
        PLIES + 1,
        alone.as_secs_f64()
    );
    let started = Instant::now();
    let again = review(&service, 1).await;
    println!(
        "the same game again (kept review): {:.1} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );
    assert_eq!(again, text, "the kept review");

    println!("{AT_ONCE} reviews asked for at once:");
    let started = Instant::now();
    let asked: Vec<_> = (2..=games as i64)
        .map(|game| {
            let service = Arc::clone(&service);
            tokio::spawn(async move {
                let text = review(&service, game).await;
                (game, text, started.elapsed())
            })
        })
        .collect();
    let mut reviewed = Vec::new();
    let mut refused = Vec::new();
    for task in asked {
        let (game, text, took) = task.await.expect("task");
        if text.starts_with("Engine review") {
            reviewed.push((game, took));
        } else {
            refused.push((game, took, text));
        }
    }
    reviewed.sort_by_key(|(_, took)| *took);
    for (game, took) in &reviewed {
        println!("  game #{game}: reviewed after {:.1} s", took.as_secs_f64());
    }
    for (game, took, text) in &refused {
        println!(
            "  game #{game}: refused after {:.0} ms: {text}",
            took.as_secs_f64() * 1000.0
        );
    }
    let total = reviewed
        .iter()
        .map(|(_, t)| *t)
        .max()
        .unwrap_or(Duration::ZERO);
    println!(
        "{} reviewed one after another in {:.1} s ({:.1} s each), {} refused at once (queue of {max_queue})",
        reviewed.len(),
        total.as_secs_f64(),
        total.as_secs_f64() / reviewed.len().max(1) as f64,
        refused.len()
    );
}

fn act(user: &str, channel: usize, text: String) -> Request {
    Request {
        platform: Platform::Console,
        server: "bench".to_owned(),
        channel: format!("c{channel}"),
        user: User {
            id: user.to_owned(),
            name: user.to_owned(),
            locale: None,
            moderation: Moderation::None,
        },
        key: None,
        input: Input::Text(text),
        board_images: BoardImages::Omitted,
    }
}

/// Plays `moves` in game number `game + 1` (its own channel), then Black resigns.
async fn play_and_resign(service: &Service, game: usize, moves: &[String]) {
    let now = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    let (white, black) = (format!("w{game}"), format!("b{game}"));
    let challenge = format!("/challenge @{black} color:white");
    service.handle(act(&white, game, challenge), now).await;
    service
        .handle(act(&black, game, "/accept".into()), now)
        .await;
    for (ply, uci) in moves.iter().enumerate() {
        let player = if ply % 2 == 0 { &white } else { &black };
        let replies = service
            .handle(act(player, game, format!("/move {uci}")), now)
            .await;
        assert!(replies.iter().all(|r| !r.ephemeral), "{replies:?}");
    }
    service
        .handle(act(&black, game, "/resign".into()), now)
        .await;
}

/// The review's text for `game`, asked for by a spectator.
async fn review(service: &Service, game: i64) -> String {
    let now = Utc.with_ymd_and_hms(2026, 1, 2, 0, 0, 0).unwrap();
    let replies = service
        .handle(act("reader", 0, format!("/review game:{game}")), now)
        .await;
    replies.first().map(|r| r.text.clone()).unwrap_or_default()
}

/// A legal 40-move game that does not end, from a seed: moves chosen among
/// the legal ones, preferring captures half the time, so evaluations swing
/// as in a real game between club players.
fn legal_game(seed: u64) -> Vec<String> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut pos = Chess::default();
    let mut moves = Vec::with_capacity(PLIES);
    while moves.len() < PLIES {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let legal = pos.legal_moves();
        let captures: Vec<_> = legal.iter().filter(|m| m.is_capture()).copied().collect();
        let pool = if state.is_multiple_of(2) && !captures.is_empty() {
            captures
        } else {
            legal.to_vec()
        };
        let start = (state >> 1) as usize % pool.len();
        let next = (0..pool.len())
            .map(|i| pool[(start + i) % pool.len()])
            .find(|m| {
                let mut after = pos.clone();
                after.play_unchecked(*m);
                !after.is_game_over() && after.halfmoves() < 90
            });
        let Some(m) = next else { break };
        moves.push(m.to_uci(CastlingMode::Standard).to_string());
        pos.play_unchecked(m);
    }
    assert_eq!(moves.len(), PLIES, "seed {seed} ended early");
    moves
}
