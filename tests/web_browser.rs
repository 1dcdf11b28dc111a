//! The web pages in a real browser: Debian's chromium driven by Playwright
//! for Python (`tests/web/browser.py`). A game's page is stepped through
//! with the keyboard and its board checked against each position; a move
//! played through the service shows on the open page within 2 s; the
//! tournament page's crosstable is the service's; a reviewed game's page
//! shows its evaluation graph; no page holds a private
//! note, a conditional line or a pending vote; and a screenshot of each
//! kind of page is kept in `target/web-screenshots/`.
//!
//! Says "note: ... skipped" (and passes) when python3, Playwright or
//! chromium is missing; `.ci/run` installs them so CI runs it.

#![allow(dead_code)]

#[path = "common/fake_engine.rs"]
mod fake_engine;
#[path = "common/web_site.rs"]
mod web_site;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{Chess, EnPassantMode, Position};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use web_site::{Site, user};

const CHROMIUM: &str = "/usr/bin/chromium";
const NOTE: &str = "SECRET-NOTE-7f3a";
/// The fake engine's answer to `go`: a rook's pawn (legal all along the
/// reviewed game), White's positions better than Black's.
const SWINGING: &str = r#"if [ "$side" = w ]; then m=a2a3; s=60; else m=a7a6; s=-180; fi
        echo "info depth 1 score cp $s pv $m"; echo "bestmove $m""#;

fn skipped(why: &str) {
    let _ = writeln!(
        std::io::stderr(),
        "note: {why}: the browser test of the web pages is skipped"
    );
}

/// The FEN after each of `moves` (the start first).
fn positions(moves: &[&str]) -> Vec<String> {
    let mut position = Chess::default();
    let mut fens = vec![Fen::from_position(&position, EnPassantMode::Legal).to_string()];
    for san in moves {
        let m = san
            .parse::<San>()
            .expect("SAN")
            .to_move(&position)
            .expect("legal");
        position.play_unchecked(m);
        fens.push(Fen::from_position(&position, EnPassantMode::Legal).to_string());
    }
    fens
}

/// The games, the tournament and the secrets the pages must keep.
async fn club(site: &Site) -> serde_json::Value {
    site.script(
        "alice: /challenge @bob color:white
         bob: /accept
         alice: /move e4
         bob: /move e5
         alice: /move Nf3
         bob: /move Nc6",
    )
    .await;
    let note = site.script(&format!("bob: /note {NOTE}")).await;
    assert!(
        note.iter().all(|r| r.ephemeral || r.to.is_some()),
        "{note:?}"
    );
    site.script("bob: /if add Bc4 Qh4").await;
    // A vote game whose team has a vote pending.
    site.script(
        "erin: /team create Rooks
         frank: /team join Rooks
         erin: /challenge team:Rooks @gina color:white time:3d
         gina: /accept
         erin: /vote Na3",
    )
    .await;
    site.script("alice!: /settings web on").await;
    site.script(
        "carol: /tournament create round_robin name:\"Spring Club\" unrated
         carol: /tournament join
         dave: /tournament join
         hank: /tournament join
         ivy: /tournament join
         carol: /tournament start",
    )
    .await;
    // Round one: each game's White plays e4, then one of its players resigns.
    for game in [3, 4] {
        for who in ["carol", "dave", "hank", "ivy"] {
            site.act(&user(who, false), &format!("/move e4 game:{game}"))
                .await;
        }
        for who in ["carol", "dave", "hank", "ivy"] {
            site.act(&user(who, false), &format!("/resign game:{game}"))
                .await;
        }
    }
    // A team match of two boards between the club and another server.
    let started = site
        .script(
            "oscar: /team create Bishops
         olga: /team join Bishops
         :server rival
         :channel knights-hall
         pia: /team create Knights
         paul: /team join Knights
         :server club
         :channel main
         oscar: /match create team:Bishops vs:Knights server:rival boards:2 time:3d
         oscar: /match join 1
         olga: /match join 1
         :server rival
         :channel knights-hall
         pia: /match accept 1
         pia: /match join 1
         paul: /match join 1
         :server club
         :channel main
         oscar: /match start 1",
        )
        .await;
    assert!(
        started
            .iter()
            .any(|r| r.text.contains("Team match #1 starts")),
        "{started:?}"
    );
    let crosstable = site
        .act(&user("carol", false), "/tournament crosstable")
        .await;
    let text = &crosstable.first().expect("a crosstable").text;
    let table: Vec<Vec<String>> = text
        .lines()
        .skip(1)
        .map(|line| line.split(" | ").map(|c| c.trim().to_owned()).collect())
        .collect();
    // A finished game, reviewed (a fake engine: White a little better
    // after each of its moves, Black worse after each of Black's).
    site.script(
        ":channel review-room
         rita: /challenge @sam color:white
         sam: /accept
         rita: /move e4
         sam: /move e5
         rita: /move Nf3
         sam: /move Qg5
         rita: /move Nxg5
         sam: /resign",
    )
    .await;
    let review = site.script("rita: /review").await;
    assert!(
        review
            .iter()
            .any(|r| r.text.contains("Engine review of game")),
        "{review:?}"
    );
    site.script(":channel main").await;
    let reviewed = site
        .service
        .listed_games(Some("rita"), None)
        .await
        .expect("read")
        .first()
        .expect("rita's game")
        .id;
    let reviewed = site.link_of(&user("rita", false), reviewed).await;
    let game = site.link_of(&user("alice", false), 1).await;
    let vote_game = site.link_of(&user("erin", false), 2).await;
    let finished = site.link_of(&user("carol", false), 3).await;
    serde_json::json!({
        "game": game,
        "fens": positions(&["e4", "e5", "Nf3", "Nc6"]),
        "tournament": site.url("/t/1"),
        "server": site.url("/s/1"),
        "player": site.url("/s/1/p/1"),
        "finished_game": finished,
        "team_match": site.url("/m/1"),
        "reviewed_game": reviewed,
        "french_game": format!("{vote_game}?lang=fr"),
        "more_pages": {
            "vote game": vote_game,
            "pgn": format!("{game}/pgn"),
            "vote pgn": format!("{vote_game}/pgn"),
            "player 2": site.url("/s/1/p/2"),
        },
        "crosstable": table,
        "secrets": [NOTE, "Na3", "Qh4"],
    })
}

fn screenshots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/web-screenshots")
}

/// Whether Playwright for Python can be imported.
fn has_playwright() -> bool {
    std::process::Command::new("python3")
        .args(["-c", "import playwright.sync_api"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The scenario runs as a task on workers with room to spare: the club's
/// setup polls many acts' futures, nested, on one stack, which a debug
/// build's frames overflowed at the default 2 MiB.
#[test]
fn a_game_page_steps_goes_live_and_keeps_secrets_in_a_real_browser() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_stack_size(16 << 20)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime
        .block_on(async { tokio::spawn(browser_scenario()).await })
        .expect("the scenario ends without a panic");
}

async fn browser_scenario() {
    if !Path::new(CHROMIUM).exists() {
        return skipped("chromium is not installed (Debian package chromium)");
    }
    if !has_playwright() {
        return skipped("Playwright for Python is not installed");
    }
    let engines = tempfile::tempdir().expect("temp dir");
    let engine = fake_engine::fake_engine(engines.path(), SWINGING);
    let site = Site::start_reviewing(Default::default(), Some(engine)).await;
    let mut setup = club(&site).await;
    setup["screenshots"] = serde_json::json!(screenshots());
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("setup.json");
    std::fs::write(&file, setup.to_string()).expect("write the setup");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/web/browser.py");
    let mut child = tokio::process::Command::new("python3")
        .arg(&script)
        .arg(&file)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("python3 runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut said = Vec::new();
    let talk = async {
        while let Some(line) = lines.next_line().await.expect("read") {
            eprintln!("browser: {line}");
            if line == "PLAY" {
                let replies = site.act(&user("alice", false), "/move Bb5").await;
                assert!(replies.iter().any(|r| !r.ephemeral), "{replies:?}");
                let after = positions(&["e4", "e5", "Nf3", "Nc6", "Bb5"]);
                let reply = format!("PLAYED {}\n", after.last().expect("a position"));
                stdin.write_all(reply.as_bytes()).await.expect("tell");
                stdin.flush().await.expect("flush");
            }
            said.push(line);
        }
    };
    tokio::time::timeout(Duration::from_secs(120), talk)
        .await
        .expect("the browser test ends within two minutes");
    let output = child.wait_with_output().await.expect("python3 ends");
    let errors = String::from_utf8_lossy(&output.stderr);
    if output.status.code() == Some(3) {
        return skipped("Playwright for Python is not installed");
    }
    assert!(
        output.status.success(),
        "the browser test failed:\n{errors}\n{said:?}"
    );
    for step in ["STEPPED", "LIVE", "CROSSTABLE", "SECRETS", "DONE"] {
        assert!(
            said.iter().any(|l| l.starts_with(step)),
            "no {step}: {said:?}"
        );
    }
    for shot in [
        "game",
        "tournament",
        "server",
        "player",
        "team_match",
        "reviewed_game",
        "finished_game",
        "french_game",
    ] {
        let png = screenshots().join(format!("{shot}.png"));
        assert!(png.exists(), "no screenshot {}", png.display());
    }
}
