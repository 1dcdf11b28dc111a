//! Live pages across processes on one PostgreSQL database: `pawnpost web`
//! (a real process of its own) serves a game's page while this process
//! plays the moves; each move must reach the page's live stream within 2 s,
//! and the game's end too.
//!
//! Needs `PAWNPOST_TEST_POSTGRES`; skipped (with a note) without it.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use chrono::Utc;
use pawnpost::core::platform::Platform;
use pawnpost::service::{BoardImages, Input, Moderation, Request, Service, ServiceConfig, User};
use pawnpost::storage::postgres::scratch::{ScratchSchema, test_url};

/// The scratch schema as a URL the binary takes (`search_path` in `options`).
fn schema_url(base: &str, schema: &ScratchSchema) -> String {
    let join = if base.contains('?') { '&' } else { '?' };
    format!("{base}{join}options=-c%20search_path%3D{}", schema.name())
}

fn act(user: &str, text: &str) -> Request {
    Request {
        platform: Platform::Console,
        server: "club".into(),
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

/// `pawnpost web` on the database, killed when dropped.
struct WebProcess {
    child: Child,
    address: String,
}

impl WebProcess {
    fn start(database: &str) -> WebProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pawnpost"))
            .args(["web", "--listen", "127.0.0.1:0"])
            .env("PAWNPOST_DATABASE_URL", database)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("pawnpost web starts");
        let stdout = child.stdout.take().expect("stdout");
        let line = BufReader::new(stdout)
            .lines()
            .next()
            .expect("a line")
            .expect("readable");
        let address = line
            .rsplit("http://")
            .next()
            .expect("an address")
            .trim()
            .to_owned();
        WebProcess { child, address }
    }
}

impl Drop for WebProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_committed_here_reaches_the_pages_of_another_process() {
    // test_url() prints the note when the variable is unset.
    let Some(url) = test_url() else { return };
    let schema = ScratchSchema::create(&url, "web").await.expect("schema");
    let store = pawnpost::storage::Store::from(schema.store(2).await.expect("open"));
    let service = Service::new(store, ServiceConfig::default());
    for (user, text) in [
        ("alice", "/challenge @bob color:white"),
        ("bob", "/accept"),
        ("alice", "/move e4"),
    ] {
        let replies = service.handle(act(user, text), Utc::now()).await;
        assert!(replies.iter().all(|r| !r.ephemeral), "{text}: {replies:?}");
    }
    let token = service.game_token(1).await.expect("read").expect("a game");
    let web = WebProcess::start(&schema_url(&url, &schema));
    let client = reqwest::Client::new();
    let page = client
        .get(format!("http://{}/g/{token}", web.address))
        .send()
        .await
        .expect("GET the page");
    assert_eq!(page.status(), 200);
    let html = page.text().await.expect("the page");
    assert!(html.contains("data-sq=\"e4\" data-piece=\"wP\""), "{html}");

    let version = service
        .game_page(1, pawnpost::core::notation::Lang::En, Utc::now())
        .await
        .expect("read")
        .expect("game")
        .version;
    let events = client
        .get(format!(
            "http://{}/g/{token}/events?v={version}",
            web.address
        ))
        .send()
        .await
        .expect("the live stream");
    assert_eq!(events.status(), 200);
    let mut stream = events;
    let mut seen = String::new();
    for (user, text, expect) in [
        ("bob", "/move e5", "\"san\":\"e5\""),
        ("alice", "/move Nf3", "\"san\":\"Nf3\""),
        ("bob", "/resign", "\"over\":true"),
    ] {
        // Let the other process's watcher settle before the act.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let played = Instant::now();
        let replies = service.handle(act(user, text), Utc::now()).await;
        assert!(replies.iter().all(|r| !r.ephemeral), "{text}: {replies:?}");
        let reached = tokio::time::timeout(Duration::from_secs(2), async {
            while !seen.contains(expect) {
                let chunk = stream.chunk().await.expect("bytes").expect("open");
                seen.push_str(&String::from_utf8_lossy(&chunk));
            }
        })
        .await;
        assert!(
            reached.is_ok(),
            "{text} did not reach the page in 2 s: {seen}"
        );
        eprintln!(
            "{text}: on the other process's page after {:?}",
            played.elapsed()
        );
        seen.clear();
    }
}
