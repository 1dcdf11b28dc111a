//! The scheduler at scale: 1,000,000 running games with deadlines in a real
//! SQLite file. Prints the time to re-arm at start-up (open the file, find the
//! next deadline), the peak resident memory, and the time to adjudicate
//! 10,000 deadlines that fall at the same instant.
//!
//! `cargo bench --bench scheduler_scale [-- GAMES DUE]` (default 1,000,000 and 10,000).
//! Targets (issue 5): re-arm ≤ 3 s, RSS ≤ 300 MB, 10,000 adjudications ≤ 10 s.
//!
//! The games are written straight into the schema in one transaction (the
//! service would need a million durable commits just to set the scene).

use std::time::Instant;

use chrono::{DateTime, Duration, SecondsFormat, TimeZone, Utc};
use pawnpost::core::clock::{Clock, TimeControl};
use pawnpost::service::{Service, ServiceConfig};
use pawnpost::storage::sqlite::SqliteStore;
use rusqlite::{Connection, params};
use shakmaty::Color;

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let games = args.first().copied().unwrap_or(1_000_000);
    let due = args.get(1).copied().unwrap_or(10_000).min(games);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("scale.db");
    let start = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    let instant = start + Duration::days(2);

    drop(SqliteStore::open(&path).expect("create schema"));
    let filled = Instant::now();
    fill(&path, games, due, start, instant);
    println!(
        "{games} running games written in {:.1} s",
        filled.elapsed().as_secs_f64()
    );

    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let rearm = Instant::now();
        let service = Service::new(
            SqliteStore::open(&path).expect("open"),
            ServiceConfig::default(),
        );
        let next = service.next_wake_up().await.expect("next deadline");
        let rearm = rearm.elapsed();
        println!(
            "re-arm at start-up: {:.1} ms (next deadline {})  target ≤ 3 s",
            rearm.as_secs_f64() * 1000.0,
            next.map(|d| d.to_rfc3339()).unwrap_or_default()
        );
        let adjudicated = Instant::now();
        // One notice per game ended.
        let ended = service.run_due(instant).await;
        let took = adjudicated.elapsed();
        println!(
            "{} games ended at one instant in {:.2} s ({:.0} per second)  target: 10,000 ≤ 10 s",
            ended,
            took.as_secs_f64(),
            ended as f64 / took.as_secs_f64()
        );
        assert_eq!(ended, due, "every due game ended once");
    });
    println!("peak RSS: {} MB  target ≤ 300 MB", peak_rss_kib() / 1024);
}

fn text(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Players, one channel, and `games` games of two moves each; `due` of them
/// have their flag fall at `instant`, the rest over the following month.
fn fill(
    path: &std::path::Path,
    games: usize,
    due: usize,
    start: DateTime<Utc>,
    instant: DateTime<Utc>,
) {
    let mut conn = Connection::open(path).expect("open");
    conn.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF;")
        .expect("pragmas");
    let tx = conn.transaction().expect("transaction");
    let created = text(start);
    tx.execute(
        "INSERT INTO servers (platform, platform_id, created_at) VALUES ('console', 'scale', ?1)",
        params![created],
    )
    .expect("server");
    tx.execute(
        "INSERT INTO channels (server_id, platform_id) VALUES (1, 'main')",
        [],
    )
    .expect("channel");
    let players = 2000;
    {
        let mut player = tx
            .prepare("INSERT INTO players (platform, platform_id, display_name, created_at) VALUES ('console', ?1, ?1, ?2)")
            .expect("players");
        for n in 0..players {
            player
                .execute(params![format!("p{n}"), created])
                .expect("player");
        }
        let mut game = tx
            .prepare(
                "INSERT INTO games (server_id, channel_id, white_id, black_id, time_control, rated,
                                    draw_agreement_allowed, draw_min_moves, turn, plies, created_at,
                                    clock, deadline, wake_at)
                 VALUES (1, 1, ?1, ?2, '1d', 1, 1, 1, 'white', 2, ?3, ?4, ?5, ?5)",
            )
            .expect("games");
        let mut moves = tx
            .prepare(
                "INSERT INTO moves (game_id, ply, uci, san, played_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .expect("moves");
        for n in 0..games {
            // White to move after 1.e4 e5; its one day runs from the last move.
            let last_move = if n < due {
                instant - Duration::days(1)
            } else {
                instant - Duration::hours(23) + Duration::seconds((n % (30 * 86_400)) as i64)
            };
            let mut clock = Clock::start(
                TimeControl::PerMove {
                    per_move: Duration::days(1),
                },
                Color::White,
                start,
            );
            clock.on_move(start + Duration::minutes(1));
            clock.on_move(last_move);
            let deadline = clock.deadline().expect("running clock");
            let white = (n % players) as i64 + 1;
            let black = ((n + 1) % players) as i64 + 1;
            game.execute(params![
                white,
                black,
                created,
                serde_json::to_string(&clock).expect("clock"),
                text(deadline)
            ])
            .expect("game");
            let id = tx.last_insert_rowid();
            if n < due {
                moves
                    .execute(params![id, 1, "e2e4", "e4", created])
                    .expect("move");
                moves
                    .execute(params![id, 2, "e7e5", "e5", text(last_move)])
                    .expect("move");
            }
        }
    }
    tx.commit().expect("commit");
}

/// The process's peak resident set (VmHWM), in KiB.
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}
