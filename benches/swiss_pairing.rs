//! Swiss pairing at scale: simulated events of 64 to 2,000 players (results
//! from the rating gap, a few forfeits; `tests/common/swiss_events.rs`),
//! every round paired by the Dutch system and checked. Each event runs in
//! a child process of its own, stopped after two minutes or 2 GB of heap,
//! so an event that does not finish is reported rather than waited for.
//!
//! Printed per event: the slowest round and the mean, the highest heap any
//! round reached, against the bound of issue 42 (a round of 1,000 players
//! within 2 s and 200 MB on a shared 2-core machine).
//!
//! `cargo bench --bench swiss_pairing [-- SIZE...]`

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

#[path = "../tests/common/swiss_events.rs"]
mod swiss_events;

/// Counts live heap bytes and remembers the highest count since the last
/// reset; gives up the process past [`HEAP_CEILING`].
struct PeakAlloc;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// A child whose heap grows past this stops (the event "ran out of memory").
const HEAP_CEILING: usize = 2 << 30;

unsafe impl GlobalAlloc for PeakAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded to the system allocator with the caller's layout.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
            if live > HEAP_CEILING {
                std::process::exit(3);
            }
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc;

/// Players, rounds (⌈log2 n⌉ + 1, as long as large opens run).
const EVENTS: [(usize, u32); 8] = [
    (64, 7),
    (128, 8),
    (129, 9),
    (200, 9),
    (500, 10),
    (1000, 11),
    (1001, 11),
    (2000, 12),
];

/// How long one event may take before it is stopped.
const EVENT_LIMIT: Duration = Duration::from_secs(120);

/// The bound of issue 42 for one round.
const ROUND_BOUND: Duration = Duration::from_secs(2);
const HEAP_BOUND: usize = 200 << 20;

const SEED: u64 = 42;

fn main() {
    if let Ok(spec) = std::env::var("SWISS_BENCH_EVENT") {
        child(&spec);
        return;
    }
    let asked: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    println!(
        "{:>7} {:>6} {:>12} {:>12} {:>10}  bound (2 s, 200 MB)",
        "players", "rounds", "slowest", "mean", "peak heap"
    );
    for (players, rounds) in EVENTS {
        if !asked.is_empty() && !asked.contains(&players) {
            continue;
        }
        let line = match parent(players, rounds) {
            Ok(Event {
                slowest,
                mean,
                peak,
            }) => {
                let within = slowest <= ROUND_BOUND && peak <= HEAP_BOUND;
                format!(
                    "{players:>7} {rounds:>6} {:>12} {:>12} {:>7} MB  {}",
                    format!("{slowest:.1?}"),
                    format!("{mean:.1?}"),
                    peak >> 20,
                    if within { "within" } else { "OVER" }
                )
            }
            Err(why) => format!("{players:>7} {rounds:>6}  {why}"),
        };
        println!("{line}");
    }
}

/// What one event measured.
struct Event {
    slowest: Duration,
    mean: Duration,
    peak: usize,
}

/// Runs one event in a child process and reads its rounds.
fn parent(players: usize, rounds: u32) -> Result<Event, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut child = Command::new(exe)
        .env("SWISS_BENCH_EVENT", format!("{players},{rounds},{SEED}"))
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let reader = std::thread::spawn(move || {
        BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .collect::<Vec<String>>()
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break Some(status);
        }
        if started.elapsed() > EVENT_LIMIT {
            // Ours: started above.
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let lines = reader.join().unwrap_or_default();
    let mut times = Vec::new();
    let mut peak = 0;
    let mut failure = None;
    for line in &lines {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.as_slice() {
            ["round", _, nanos, bytes] => {
                times.push(Duration::from_nanos(nanos.parse().unwrap_or(0)));
                peak = peak.max(bytes.parse().unwrap_or(0));
            }
            ["failed", ..] => failure = Some(line.clone()),
            _ => {}
        }
    }
    let done = format!("{} of {rounds} rounds paired", times.len());
    match status {
        None => return Err(format!("stopped after {EVENT_LIMIT:?}: {done}")),
        Some(status) if status.code() == Some(3) => {
            return Err(format!(
                "stopped past {} GB of heap: {done}",
                HEAP_CEILING >> 30
            ));
        }
        Some(status) if !status.success() => return Err(format!("{status}: {done}")),
        Some(_) => {}
    }
    if let Some(failure) = failure {
        return Err(failure);
    }
    let slowest = times.iter().max().copied().unwrap_or_default();
    let mean = times.iter().sum::<Duration>() / times.len().max(1) as u32;
    Ok(Event {
        slowest,
        mean,
        peak,
    })
}

/// The child: one event, a line per round (`round N nanos peak-bytes`).
fn child(spec: &str) {
    let numbers: Vec<u64> = spec.split(',').filter_map(|n| n.parse().ok()).collect();
    let [players, rounds, seed] = numbers[..] else {
        panic!("SWISS_BENCH_EVENT: players,rounds,seed");
    };
    // The heap before a round (the event's own records) is not the pairing's.
    let mut base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let outcome = swiss_events::play(players as usize, rounds as u32, seed, |report| {
        let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
        println!("round {} {} {peak}", report.round, report.took.as_nanos());
        base = LIVE.load(Ordering::Relaxed);
        PEAK.store(base, Ordering::Relaxed);
    });
    if let Err(why) = outcome {
        println!("failed: {why}");
    }
}
