//! The web pages under load, the site in a process of its own (this
//! binary again, started with `WEB_BENCH_SERVE=<database>`) over a SQLite
//! file holding a 40-move game:
//!
//! 1. the game's page at 500 requests/s for 10 s, open loop (each request
//!    on a new connection, sent on schedule whether or not the others
//!    are answered): p50, p99 and the slowest; goal p99 ≤ 10 ms;
//! 2. 1,000 live viewers of the game (server-sent events): the site
//!    process's memory (RSS) before and with them; goal ≤ 150 MB;
//! 3. a move played by this process (another process on the same file):
//!    how long until each of the 1,000 viewers has it; goal ≤ 2 s;
//! 4. the page's p50/p99 again at 500 requests/s while the 1,000 watch.
//!
//! `cargo bench --bench web`

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{Duration as Span, Utc};
use pawnpost::adapters::web::{self, WebOptions};
use pawnpost::core::platform::Platform;
use pawnpost::service::{BoardImages, Input, Moderation, Request, Service, ServiceConfig, User};
use pawnpost::storage::sqlite::SqliteStore;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const RATE: u64 = 500;
const SECONDS: u64 = 10;
const VIEWERS: usize = 1000;
/// A 40-move game (Kasparov–Topalov, Wijk aan Zee 1999, to 40...c3).
const MOVES: &str = "e4 d6 d4 Nf6 Nc3 g6 Be3 Bg7 Qd2 c6 f3 b5 Nge2 Nbd7 Bh6 Bxh6 Qxh6 Bb7 a3 e5 \
    O-O-O Qe7 Kb1 a6 Nc1 O-O-O Nb3 exd4 Rxd4 c5 Rd1 Nb6 g3 Kb8 Na5 Ba8 Bh3 d5 Qf4+ Ka7 \
    Rhe1 d4 Nd5 Nbxd5 exd5 Qd6 Rxd4 cxd4 Re7+ Kb6 Qxd4+ Kxa5 b4+ Ka4 Qc3 Qxd5 Ra7 Bb7 \
    Rxb7 Qc4 Qxf6 Kxa3 Qxa6+ Kxb4 c3+ Kxc3 Qa1+ Kd2 Qb2+ Kd1 Bf1 Rd2 Rd7 Rxd7 Bxc4 bxc4 Qxh8 Rd3 Qa8 c3";

fn act(user: &str, text: &str) -> Request {
    Request {
        platform: Platform::Console,
        server: "bench".into(),
        channel: "main".into(),
        user: User {
            id: user.into(),
            name: user.into(),
            locale: None,
            moderation: Moderation::None,
        },
        key: None,
        input: Input::Text(text.into()),
        board_images: BoardImages::Omitted,
    }
}

/// The site's process: serves `database` until its stdin closes.
async fn serve(database: &str) {
    let store = SqliteStore::open(std::path::Path::new(database)).expect("open");
    let service = Arc::new(Service::new(store, ServiceConfig::default()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    println!("{}", listener.local_addr().expect("address"));
    let options = WebOptions {
        max_viewers: 10_000,
        max_viewers_per_address: 10_000,
        ..WebOptions::default()
    };
    let stop = async {
        let mut rest = Vec::new();
        let _ = tokio::io::stdin().read_to_end(&mut rest).await;
    };
    web::serve(service, listener, options, stop)
        .await
        .expect("serve");
}

/// A game of 40 moves a side, going on (so that its page is live).
async fn game(service: &Service) -> (String, i64) {
    let mut now = Utc::now() - Span::hours(2);
    let mut tick = || {
        now += Span::seconds(1);
        now
    };
    service
        .handle(
            act("white", "/challenge @black color:white time:30d"),
            tick(),
        )
        .await;
    service.handle(act("black", "/accept"), tick()).await;
    for (ply, san) in MOVES.split_whitespace().take(80).enumerate() {
        let who = if ply % 2 == 0 { "white" } else { "black" };
        let replies = service
            .handle(act(who, &format!("/move {san}")), tick())
            .await;
        assert!(replies.iter().all(|r| !r.ephemeral), "{san}: {replies:?}");
    }
    let token = service.game_token(1).await.expect("read").expect("game");
    let page = service
        .game_page(1, pawnpost::core::notation::Lang::En, Utc::now())
        .await
        .expect("read")
        .expect("game");
    (token, page.version)
}

/// One page read on a new connection: how long it took, from `due`.
async fn fetch(address: &str, path: &str, due: Instant) -> Option<Duration> {
    let mut stream = TcpStream::connect(address).await.ok()?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut body = Vec::new();
    stream.read_to_end(&mut body).await.ok()?;
    body.starts_with(b"HTTP/1.1 200").then(|| due.elapsed())
}

/// The page at [`RATE`] requests/s for [`SECONDS`]: (p50, p99, max, failures).
async fn load(address: &str, path: &str) -> (Duration, Duration, Duration, usize) {
    let start = Instant::now();
    let total = RATE * SECONDS;
    let mut tasks = Vec::with_capacity(total as usize);
    for i in 0..total {
        let due = start + Duration::from_micros(i * 1_000_000 / RATE);
        tokio::time::sleep_until(due.into()).await;
        let (address, path) = (address.to_owned(), path.to_owned());
        tasks.push(tokio::spawn(
            async move { fetch(&address, &path, due).await },
        ));
    }
    let mut times = Vec::with_capacity(tasks.len());
    let mut failures = 0;
    for task in tasks {
        match task.await.ok().flatten() {
            Some(time) => times.push(time),
            None => failures += 1,
        }
    }
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    (at(0.5), at(0.99), times[times.len() - 1], failures)
}

/// The resident memory of process `pid`, in MB.
fn rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    kb / 1024.0
}

/// A live viewer: its stream, opened and answered.
async fn viewer(address: &str, path: &str) -> TcpStream {
    let mut stream = TcpStream::connect(address).await.expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut head = [0u8; 512];
    let n = stream.read(&mut head).await.expect("answer");
    assert!(head[..n].starts_with(b"HTTP/1.1 200"), "a viewer refused");
    stream
}

/// Reads `stream` until an update arrives: when, after `since`.
async fn update_after(mut stream: TcpStream, since: Instant) -> Option<Duration> {
    let mut buffer = vec![0u8; 64 * 1024];
    let mut seen = Vec::new();
    loop {
        let n = stream.read(&mut buffer).await.ok()?;
        if n == 0 {
            return None;
        }
        seen.extend_from_slice(&buffer[..n]);
        if seen.windows(13).any(|w| w == b"event: update") {
            return Some(since.elapsed());
        }
    }
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

fn start_site(database: &std::path::Path) -> (Child, String) {
    let mut child = Command::new(std::env::current_exe().expect("this binary"))
        .env("WEB_BENCH_SERVE", database)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the site's process");
    let mut line = String::new();
    let stdout = child.stdout.take().expect("stdout");
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line).expect("address");
    (child, line.trim().to_owned())
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if let Ok(database) = std::env::var("WEB_BENCH_SERVE") {
        return serve(&database).await;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let database = dir.path().join("bench.db");
    let service = Service::new(
        SqliteStore::open(&database).expect("open"),
        ServiceConfig::default(),
    );
    let (token, version) = game(&service).await;
    let (mut site, address) = start_site(&database);
    let pid = site.id();
    let page = format!("/g/{token}");
    // Warm up: the first reads open the database and fill the caches.
    for _ in 0..50 {
        fetch(&address, &page, Instant::now()).await;
    }
    println!("web pages: a 40-move game's page, the site in its own process (pid {pid})");
    println!("| measure | value | goal |");
    println!("|---|---|---|");
    let (p50, p99, max, failed) = load(&address, &page).await;
    println!("| page p50 at {RATE}/s | {} | |", ms(p50));
    println!("| page p99 at {RATE}/s | {} | ≤ 10 ms |", ms(p99));
    println!("| page slowest / failed | {} / {failed} | |", ms(max));
    println!("| RSS, no viewer | {:.1} MB | |", rss_mb(pid));
    let events = format!("/g/{token}/events?v={version}");
    let mut viewers = Vec::with_capacity(VIEWERS);
    for _ in 0..VIEWERS {
        viewers.push(viewer(&address, &events).await);
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    println!(
        "| RSS, {VIEWERS} live viewers | {:.1} MB | ≤ 150 MB |",
        rss_mb(pid)
    );
    // A move played by this process: every viewer of the other must get it.
    let played = Instant::now();
    let waits: Vec<_> = viewers
        .into_iter()
        .map(|stream| tokio::spawn(update_after(stream, played)))
        .collect();
    let replies = service.handle(act("white", "/move Qa4+"), Utc::now()).await;
    assert!(replies.iter().all(|r| !r.ephemeral), "{replies:?}");
    let mut reached = Vec::new();
    for wait in waits {
        if let Ok(Some(time)) = wait.await {
            reached.push(time);
        }
    }
    reached.sort();
    if let (Some(first), Some(last)) = (reached.first(), reached.last()) {
        println!(
            "| move to viewers: first / median / last ({} of {VIEWERS}) | {} / {} / {} | ≤ 2 s |",
            reached.len(),
            ms(*first),
            ms(reached[reached.len() / 2]),
            ms(*last)
        );
    }
    let mut watching = Vec::with_capacity(VIEWERS);
    for _ in 0..VIEWERS {
        watching.push(viewer(&address, &events).await);
    }
    let (p50, p99, max, failed) = load(&address, &page).await;
    println!(
        "| page p50 at {RATE}/s, {VIEWERS} watching | {} | |",
        ms(p50)
    );
    println!(
        "| page p99 at {RATE}/s, {VIEWERS} watching | {} | ≤ 10 ms |",
        ms(p99)
    );
    println!(
        "| slowest / failed, {VIEWERS} watching | {} / {failed} | |",
        ms(max)
    );
    println!("| RSS at the end | {:.1} MB | ≤ 150 MB |", rss_mb(pid));
    drop(watching);
    drop(site.stdin.take());
    let _ = site.wait();
}
