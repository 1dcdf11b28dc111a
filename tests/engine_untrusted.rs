//! The engine as untrusted input (issue 42): fake engines (`sh` scripts,
//! see `common/fake_engine.rs`) that print without a newline, print `info`
//! forever, name illegal best moves, give absurd scores or crash. Each
//! review ends within the deadline and in bounded memory, refused, with
//! nothing stored (no review, no puzzle), the engine killed and reaped and
//! its slot free again; an honest fake's review is kept, so the refusals
//! are the engine's doing.

mod common;
#[path = "common/fake_engine.rs"]
mod fake_engine;
#[path = "common/requests.rs"]
mod requests;

use std::path::Path;
use std::time::{Duration, Instant};

use chrono::{DateTime, TimeZone, Utc};
use fake_engine::{HONEST, HUNG_QUEEN, engine_pid, fake_engine, is_gone};
use pawnpost::core::platform::Platform;
use pawnpost::service::{ReviewSettings, Service, ServiceConfig};
use pawnpost::storage::sqlite::SqliteStore;
use requests::{request, text};

/// The review's deadline in these tests (`[analysis] timeout_seconds`).
const DEADLINE: Duration = Duration::from_secs(2);
/// What a refused review may take beyond the deadline (killing, reaping).
const SLACK: Duration = Duration::from_secs(3);
const FAILED: &str = "The engine failed while reviewing game #1";
const TIMED_OUT: &str = "took longer than 2 seconds over game #1";

fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap()
}

/// What one review by a fake engine left behind.
struct Outcome {
    answer: String,
    took: Duration,
    reviews: i64,
    puzzles: i64,
    engine_gone: bool,
    slot_free: bool,
}

/// Plays [`HUNG_QUEEN`] on a fresh database and asks for its review from
/// an engine answering `go` with `on_go`.
async fn review_by(on_go: &str) -> Outcome {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("pawnpost.db");
    let config = ServiceConfig {
        reviews: ReviewSettings {
            engine: Some(fake_engine(dir.path(), on_go)),
            nodes: 1000,
            deadline: DEADLINE,
            ..ReviewSettings::default()
        },
        ..ServiceConfig::default()
    };
    let service = Service::new(SqliteStore::open(&db).expect("open"), config);
    let act =
        |user: &str, words: &str| request(Platform::Console, "club", "main", user, text(words));
    for (user, words) in HUNG_QUEEN {
        service.handle(act(user, words), start()).await;
    }
    let asked = Instant::now();
    let replies = service.handle(act("alice", "/review"), start()).await;
    let took = asked.elapsed();
    let answer: Vec<&str> = replies.iter().map(|r| r.text.as_str()).collect();
    let engine_gone = engine_pid(dir.path()).is_some_and(is_gone);
    let store = service.store();
    let slot = store
        .lease_engine_slot(1, "probe", start(), start() + chrono::Duration::minutes(1))
        .await
        .expect("lease");
    Outcome {
        answer: answer.join("\n"),
        took,
        reviews: count(&db, "reviews"),
        puzzles: count(&db, "puzzles"),
        engine_gone,
        slot_free: slot == Some(0),
    }
}

fn count(db: &Path, table: &str) -> i64 {
    let conn = rusqlite::Connection::open(db).expect("open");
    conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |row| {
        row.get(0)
    })
    .expect("count")
}

/// The most memory this test process has held, in kB (Linux's VmHWM).
fn peak_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// A `go` answered with `info` and `bestmove` naming `best`, at `score`.
fn answer(score: &str, best: &str) -> String {
    format!(r#"echo "info depth 1 score {score} pv {best}"; echo "bestmove {best}""#)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_engine_is_refused_in_bounded_time_and_memory_with_nothing_kept() {
    let endless_bytes = "while :; do printf 'info xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'; done";
    let long_line = r#"printf 'info string %0100000d\n' 0; echo "bestmove e2e4""#;
    let endless_info = r#"while :; do echo "info depth 1 score cp 10 pv e2e4"; sleep 0.05; done"#;
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "no newline (endless bytes)",
            endless_bytes.to_owned(),
            FAILED,
        ),
        ("a line of 100 kB", long_line.to_owned(), FAILED),
        (
            "endless info, no bestmove",
            endless_info.to_owned(),
            TIMED_OUT,
        ),
        ("best move a1a1", answer("cp 10", "a1a1"), FAILED),
        ("best move zzzz", answer("cp 10", "zzzz"), FAILED),
        ("best move e7e8k", answer("cp 10", "e7e8k"), FAILED),
        (
            "mate 0 with moves to play",
            answer("mate 0", "e2e4"),
            FAILED,
        ),
        ("cp 2147483647", answer("cp 2147483647", "e2e4"), FAILED),
        ("cp -2147483648", answer("cp -2147483648", "e2e4"), FAILED),
        ("mate 1000000", answer("mate 1000000", "e2e4"), FAILED),
        (
            "mate in 1 that is no mate",
            answer("mate 1", "e2e4"),
            FAILED,
        ),
        (
            "bestmove (none) with moves to play",
            r#"echo "info depth 1 score cp 0"; echo "bestmove (none)""#.to_owned(),
            FAILED,
        ),
        (
            "exits mid-search",
            r#"echo "info depth 1 score cp 10 pv e2e4"; exit 3"#.to_owned(),
            FAILED,
        ),
        ("killed mid-search", "kill -9 $$".to_owned(), FAILED),
    ];
    for (name, on_go, refusal) in &cases {
        let outcome = review_by(on_go).await;
        println!(
            "{name}: refused in {:.2} s, peak memory of the test so far {} MB",
            outcome.took.as_secs_f64(),
            peak_kb() / 1024
        );
        assert!(
            outcome.answer.contains(refusal),
            "{name}: {}",
            outcome.answer
        );
        assert!(
            outcome.took < DEADLINE + SLACK,
            "{name}: {:?}",
            outcome.took
        );
        assert_eq!(
            (outcome.reviews, outcome.puzzles),
            (0, 0),
            "{name}: nothing kept"
        );
        assert!(
            outcome.engine_gone,
            "{name}: the engine is killed and reaped"
        );
        assert!(outcome.slot_free, "{name}: the engine slot is free again");
    }
    // The 4.7 GB of issue 42: reading is capped, whatever the engine prints.
    assert!(peak_kb() < 300 * 1024, "peak {} kB", peak_kb());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_honest_fake_engine_s_review_is_kept() {
    let outcome = review_by(HONEST).await;
    assert!(
        outcome.answer.contains("Engine review of game #1"),
        "{}",
        outcome.answer
    );
    assert_eq!(outcome.reviews, 1);
    assert!(outcome.engine_gone, "the engine quits after its review");
    assert!(outcome.slot_free, "and gives its slot back");
}

/// The deadline is `[analysis] timeout_seconds`, set here through its
/// variable, in the real binary.
#[test]
fn the_console_s_deadline_comes_from_its_variable() {
    let console = common::Console::new();
    let dir = tempfile::tempdir().expect("temp dir");
    let endless_info = r#"while :; do echo "info depth 1 score cp 10 pv e2e4"; sleep 0.05; done"#;
    let engine = fake_engine(dir.path(), endless_info);
    let moves: Vec<String> = HUNG_QUEEN
        .iter()
        .map(|(u, w)| format!("{u}: {w}"))
        .collect();
    let script = console.script(&format!("{}\nalice: /review", moves.join("\n")));
    let asked = Instant::now();
    let output = console
        .command()
        .env("PAWNPOST_ANALYSIS_ENGINE", &engine)
        .env("PAWNPOST_ANALYSIS_TIMEOUT_SECONDS", "1")
        .args(["console", "--json", "--now", common::START, "--script"])
        .arg(script)
        .output()
        .expect("run pawnpost");
    let took = asked.elapsed();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let replies = common::parse_lines(&output.stdout);
    let said = replies.iter().filter_map(|r| r["text"].as_str());
    assert!(
        said.clone()
            .any(|t| t.contains("took longer than 1 second over game #1")),
        "{replies:#?}"
    );
    assert!(took < Duration::from_secs(1) + SLACK + SLACK, "{took:?}");
    assert_eq!(
        (
            count(&console.db(), "reviews"),
            count(&console.db(), "puzzles")
        ),
        (0, 0)
    );
    let pid = engine_pid(dir.path()).expect("the engine ran");
    assert!(is_gone(pid), "the engine is killed and reaped");
}
