//! Bad input changes nothing; a killed process loses and repeats nothing.

mod common;

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use common::{Console, events_of, parse_lines};
use pawnpost::adapters::console::MAX_LINE_BYTES;
use rusqlite::Connection;
use shakmaty::{CastlingMode, Chess, Position};

/// Every row of every table, as text, for before/after comparisons.
/// The kept answers of acts (`acts`) are left out: a refusal
/// keeps its answer there, and changes nothing else.
fn dump(db: &std::path::Path) -> Vec<String> {
    let conn = Connection::open(db).expect("open db");
    let tables: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_master
             WHERE type = 'table' AND name <> 'acts' ORDER BY name",
        )
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .expect("tables");
    let mut rows = Vec::new();
    for table in tables {
        let mut statement = conn
            .prepare(&format!("SELECT * FROM {table}"))
            .expect("select");
        let columns = statement.column_count();
        let mut query = statement.query([]).expect("query");
        while let Some(row) = query.next().expect("row") {
            let values: Vec<String> = (0..columns)
                .map(|i| format!("{:?}", row.get_ref(i).expect("value")))
                .collect();
            rows.push(format!("{table}: {}", values.join(", ")));
        }
    }
    rows.sort();
    rows
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let console = Console::new();
    console.run(
        "alice: /challenge @bob color:white
         bob: /accept
         alice: /move e4 offer_draw
         carol: /help",
    );
    let before = dump(&console.db());
    let long_move = "N".repeat(40);
    let long_line = format!("alice: /challenge fen:\"{}\"", "8/".repeat(300));
    let out = console.run(&format!(
        "alice: /fly
         alice: /move
         alice: /claim fifty game:abc
         alice: /move {long_move}
         {long_line}
         carol: /move e5
         carol: /resign
         carol: /draw accept
         carol: /move e5 game:1
         bob: /move Ke2e4
         bob: /move e9
         alice: /move d4
         bob: /accept
         alice: /challenge @alice
         alice: /challenge fen:\"not a fen\"
         alice: /board 999
         no colon here
         :teleport"
    ));
    let refusals: Vec<_> = out.iter().filter(|r| r["ephemeral"] == true).collect();
    assert_eq!(refusals.len(), 16, "{out:#?}");
    for reply in &refusals {
        assert!(reply["events"].as_array().unwrap().is_empty());
        assert!(!reply["text"].as_str().unwrap().is_empty());
    }
    let texts: Vec<&str> = refusals
        .iter()
        .map(|r| r["text"].as_str().unwrap())
        .collect();
    for (index, expected) in [
        (0, "Unknown command"),
        (1, "which move?"),
        (5, "no game"),
        (6, "no game"),
        (7, "no game"),
        (8, "not playing in this game"),
        (11, "not your turn"),
    ] {
        assert!(
            texts[index]
                .to_lowercase()
                .contains(&expected.to_lowercase()),
            "refusal {index}: {:?} should mention {expected:?}",
            texts[index]
        );
    }
    assert_eq!(
        dump(&console.db()),
        before,
        "a refusal changed the database"
    );
}

/// Starts nobody can play from are refused at the challenge, each with
/// its reason, in English and French: a dead position (5.2.2: it would be
/// drawn before its first move) and move counters beyond 32 bits (which
/// would be read as another number than the one written).
#[test]
fn start_positions_that_cannot_be_played_are_refused() {
    let cases = [
        (
            "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
            "dead position",
            "position morte",
        ),
        (
            "8/8/4k3/8/8/3K4/3B4/8 w - - 0 1",
            "dead position",
            "position morte",
        ),
        (
            "4k3/8/8/8/8/8/4P3/4K3 w - - 4294967296 1",
            "at most 4294967295",
            "au plus 4294967295",
        ),
        (
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 18446744073709551616",
            "at most 4294967295",
            "au plus 4294967295",
        ),
    ];
    for (fen, english, french) in cases {
        let console = Console::new();
        let out = console.run(&format!(
            "alice: /challenge @bob fen:\"{fen}\"
             :lang alice fr
             alice: /challenge @bob fen:\"{fen}\""
        ));
        assert_eq!(out.len(), 2, "{fen}: {out:#?}");
        for (reply, expected) in out.iter().zip([english, french]) {
            assert_eq!(reply["ephemeral"], true, "{fen}");
            let text = reply["text"].as_str().unwrap();
            assert!(text.contains(expected), "{fen}: {text}");
        }
        assert_eq!(count(&console.db(), "SELECT count(*) FROM challenges"), 0);
    }
    // The largest counters are taken as written.
    let console = Console::new();
    console.run("alice: /challenge @bob fen:\"4k3/8/8/8/8/8/4P3/4K3 w - - 4294967295 1\"");
    assert_eq!(count(&console.db(), "SELECT count(*) FROM challenges"), 1);
}

/// A long random game that does not end, as UCI moves.
fn long_game(plies: usize) -> Vec<String> {
    let mut pos = Chess::default();
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut moves = Vec::new();
    while moves.len() < plies {
        let legal = pos.legal_moves();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let start = seed as usize % legal.len();
        // Take the first move from a random start that keeps the game going.
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

#[test]
fn a_killed_process_loses_and_repeats_no_acknowledged_move() {
    let console = Console::new();
    let moves = long_game(160);
    assert!(moves.len() >= 120);
    let mut script = String::from("alice: /challenge @bob color:white\nbob: /accept\n");
    for (ply, uci) in moves.iter().enumerate() {
        let player = if ply % 2 == 0 { "alice" } else { "bob" };
        script.push_str(&format!("{player}: /move {uci}\n"));
    }
    let path = console.script(&script);

    // First run: read acknowledged moves, then SIGKILL mid-way.
    let mut child = console
        .command()
        .args(["console", "--json", "--now", common::START, "--script"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let stdout = child.stdout.take().expect("stdout");
    let mut acknowledged = Vec::new();
    for line in BufReader::new(stdout).lines().take(40) {
        let line = line.expect("line");
        acknowledged.extend(parse_lines(line.as_bytes()));
    }
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    let first: Vec<String> = events_of(&acknowledged, "move_played")
        .iter()
        .map(|e| e["uci"].as_str().unwrap().to_owned())
        .collect();
    assert!(!first.is_empty());
    assert_eq!(
        first[..],
        moves[..first.len()],
        "acknowledged moves in order"
    );
    let conn = Connection::open(console.db()).expect("db");
    let stored_after_kill: usize = conn
        .query_row("SELECT count(*) FROM moves", [], |r| r.get::<_, i64>(0))
        .expect("count") as usize;
    assert!(
        stored_after_kill >= first.len(),
        "an acknowledged move was lost"
    );
    assert!(
        stored_after_kill < moves.len(),
        "the kill came after the end: test nothing"
    );
    drop(conn);

    // Second run of the same script: done acts answer as before, the rest are played.
    let output = console.run_file(&path);
    assert!(output.status.success());
    let conn = Connection::open(console.db()).expect("db");
    let stored: Vec<String> = conn
        .prepare("SELECT uci FROM moves WHERE game_id = 1 ORDER BY ply")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .expect("moves");
    assert_eq!(stored, moves, "every move stored exactly once, in order");
    let games: i64 = conn
        .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
        .expect("count");
    assert_eq!(games, 1, "the challenge was not accepted twice");
}

/// Runs a script file that must succeed and returns its replies.
fn run_ok(console: &Console, path: &std::path::Path) -> Vec<serde_json::Value> {
    let output = console.run_file(path);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    parse_lines(&output.stdout)
}

fn count(db: &std::path::Path, sql: &str) -> i64 {
    let conn = Connection::open(db).expect("db");
    conn.query_row(sql, [], |r| r.get(0)).expect("count")
}

/// The UCI moves stored for game 1, in order.
fn stored_moves(db: &std::path::Path) -> Vec<String> {
    let conn = Connection::open(db).expect("db");
    conn.prepare("SELECT uci FROM moves WHERE game_id = 1 ORDER BY ply")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .expect("moves")
}

#[test]
fn a_refused_act_stays_refused_when_its_script_runs_again() {
    let console = Console::new();
    let path = console.script(
        "alice: /challenge @bob color:white
         bob: /accept
         bob: /move e5
         alice: /move e4
         bob: /move d5
         alice: /move Nf3
         bob: /fly",
    );
    let first = run_ok(&console, &path);
    assert_eq!(first[2]["ephemeral"], true);
    assert!(
        first[2]["text"].as_str().unwrap().contains("not your turn"),
        "{:#?}",
        first[2]
    );
    // Every act's answer is kept under its key, the refusals' too.
    assert_eq!(count(&console.db(), "SELECT count(*) FROM acts"), 7);

    // Run again: by now it is Black's move, and e5 would be legal as ply 4.
    let second = run_ok(&console, &path);
    assert_eq!(second, first, "the same answers, refusals included");
    assert_eq!(stored_moves(&console.db()), ["e2e4", "d7d5", "g1f3"]);
}

#[test]
fn an_edited_script_acts_where_its_lines_now_run() {
    let console = Console::new();
    let acts = "alice: /challenge @bob color:white\nbob: /accept\n";
    let path = console.script(&format!(":channel north\n{acts}"));
    let first = run_ok(&console, &path);
    assert!(first.iter().all(|r| r["channel"] == "north"), "{first:#?}");

    // The same lines, moved to another channel by an edit: new acts, not
    // the old answers.
    std::fs::write(&path, format!(":channel south\n{acts}")).expect("edit the script");
    let second = run_ok(&console, &path);
    assert!(
        second.iter().all(|r| r["channel"] == "south"),
        "{second:#?}"
    );
    assert!(
        second[1]["text"].as_str().unwrap().contains("Game #2"),
        "{second:#?}"
    );
    let conn = Connection::open(console.db()).expect("db");
    let channels: Vec<String> = conn
        .prepare("SELECT c.platform_id FROM games g JOIN channels c ON c.id = g.channel_id ORDER BY g.id")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .expect("games");
    assert_eq!(channels, ["north", "south"]);
    drop(conn);

    // The edited script run again repeats nothing; a comment line added
    // above changes no key.
    std::fs::write(&path, format!("# moved\n:channel south\n{acts}")).expect("edit");
    assert_eq!(run_ok(&console, &path), second);
    assert_eq!(count(&console.db(), "SELECT count(*) FROM games"), 2);
}

/// "Restore from a backup": what a refusal of damage must tell.
const RESTORE: &str = "restore it from a backup";

#[test]
fn a_game_with_a_lost_move_is_refused_and_reported() {
    let console = Console::new();
    console.run(
        "alice: /challenge @bob color:white
         bob: /accept
         alice: /move e4
         bob: /move e5
         alice: /move Nf3
         bob: /move Nc6",
    );
    // A row lost in the middle, as a damaged page of the moves table gives.
    let conn = Connection::open(console.db()).expect("db");
    conn.execute("DELETE FROM moves WHERE game_id = 1 AND ply = 4", [])
        .expect("lose a move");
    drop(conn);
    let before = dump(&console.db());

    let out = console.run(
        "alice: /move Bb5
         bob: /board",
    );
    assert_eq!(out.len(), 2, "{out:#?}");
    for reply in &out {
        assert_eq!(reply["ephemeral"], true);
        let text = reply["text"].as_str().unwrap();
        assert!(
            text.contains("damaged") && text.contains("pawnpost check"),
            "{text}"
        );
        assert!(reply["events"].as_array().unwrap().is_empty());
    }
    assert_eq!(dump(&console.db()), before, "nothing was applied");
    assert_eq!(stored_moves(&console.db()), ["e2e4", "e7e5", "g1f3"]);

    let check = console.command().arg("check").output().expect("check");
    assert!(!check.status.success());
    let stdout = String::from_utf8_lossy(&check.stdout);
    assert_eq!(stdout.trim(), "game 1 moves: 4 counted, 3 stored");
    assert!(String::from_utf8_lossy(&check.stderr).contains(RESTORE));
}

#[test]
fn a_damaged_file_is_refused_before_any_act() {
    let console = Console::new();
    let moves = long_game(120);
    let mut script = String::from("alice: /challenge @bob color:white\nbob: /accept\n");
    for (ply, uci) in moves.iter().enumerate() {
        let player = if ply % 2 == 0 { "alice" } else { "bob" };
        script.push_str(&format!("{player}: /move {uci}\n"));
    }
    console.run(&script);
    let check = console.command().arg("check").output().expect("check");
    assert!(check.status.success(), "{check:?}");

    // Flip the header of the moves table's root page.
    let db = console.db();
    let conn = Connection::open(&db).expect("db");
    let root: u64 = conn
        .query_row(
            "SELECT rootpage FROM sqlite_master WHERE name = 'moves'",
            [],
            |r| r.get(0),
        )
        .expect("root page");
    let size: u64 = conn
        .pragma_query_value(None, "page_size", |r| r.get(0))
        .expect("page size");
    drop(conn);
    assert!(
        !db.with_extension("db-wal").exists(),
        "every page is in the file"
    );
    let mut bytes = std::fs::read(&db).expect("read");
    let offset = ((root - 1) * size) as usize;
    bytes[offset..offset + 5].fill(0xff);
    std::fs::write(&db, &bytes).expect("damage");

    let path = console.script("alice: /move e4\nalice: /games");
    let output = console.run_file(&path);
    assert!(!output.status.success());
    assert!(output.stdout.is_empty(), "no act was answered");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&db.display().to_string()), "{stderr}");
    assert!(
        stderr.contains("quick_check") && stderr.contains(RESTORE),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(&db).expect("read"),
        bytes,
        "nothing was written"
    );

    let check = console.command().arg("check").output().expect("check");
    assert!(!check.status.success());
    assert!(!check.stdout.is_empty(), "the problems are listed");
    assert!(String::from_utf8_lossy(&check.stderr).contains(RESTORE));
}

/// Writes `bytes` as a script beside the database and runs it with `--json`.
fn run_bytes(console: &Console, name: &str, bytes: &[u8]) -> Vec<serde_json::Value> {
    let path = console.db().with_file_name(name);
    std::fs::write(&path, bytes).expect("write script");
    let output = console.run_file(&path);
    assert!(
        output.status.success(),
        "pawnpost failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    parse_lines(&output.stdout)
}

/// The console's own complaints, as (line, message).
fn console_errors(out: &[serde_json::Value]) -> Vec<(u64, String)> {
    out.iter()
        .filter_map(|r| Some((r["line"].as_u64()?, r["console_error"].as_str()?.to_owned())))
        .collect()
}

#[test]
fn a_line_that_is_not_utf8_is_answered_and_the_next_lines_run() {
    let console = Console::new();
    let mut script = b"alice: /challenge @bob color:white\n".to_vec();
    // Latin-1 `é` in an act, then a Latin-1 comment (skipped like any comment).
    script.extend_from_slice(b"alice: /move caf\xe9\n");
    script.extend_from_slice(b"# caf\xe9 au lait\n");
    script.extend_from_slice(b"bob: /accept\r\n\xff\xfe\xfd\nalice: /move e4\n");
    let out = run_bytes(&console, "latin1.txt", &script);
    assert_eq!(
        console_errors(&out),
        [
            (2, "not valid UTF-8, ignored".to_owned()),
            (5, "not valid UTF-8, ignored".to_owned())
        ],
        "{out:#?}"
    );
    let moves = events_of(&out, "move_played");
    assert_eq!(
        moves.len(),
        1,
        "the acts around the bad lines ran: {out:#?}"
    );
    assert_eq!(moves[0]["uci"], "e2e4");
}

#[test]
fn a_huge_line_is_refused_and_the_next_lines_run() {
    let console = Console::new();
    let mut script = b"alice: /challenge @bob color:white\nbob: /accept\n".to_vec();
    // 64 MB in one line: refused after its first kilobytes, skipped without being stored.
    script.extend_from_slice(b"alice: /move ");
    script.resize(script.len() + (64 << 20), b'N');
    script.extend_from_slice(b"\nalice: /move e4\n# the end\nbob: /move e5");
    let out = run_bytes(&console, "huge.txt", &script);
    assert_eq!(
        console_errors(&out),
        [(3, format!("longer than {MAX_LINE_BYTES} bytes, ignored"))],
        "{out:#?}"
    );
    let moves: Vec<_> = events_of(&out, "move_played")
        .iter()
        .map(|m| m["uci"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(moves, ["e2e4", "e7e5"], "{out:#?}");
}
