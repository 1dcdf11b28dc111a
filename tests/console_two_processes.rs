//! Two `pawnpost console` processes on one SQLite file at once, each
//! creating new players and games: they queue for the file's write lock
//! instead of failing ("database is locked"), and every act is applied.

mod common;

use std::process::{Output, Stdio};

use common::{Console, START, parse_lines};
use rusqlite::Connection;

/// New players (a challenger and the one challenged) and games per process.
const PAIRS: usize = 100;

/// `PAIRS` challenges, each accepted at once, between players new to the file.
fn script(prefix: &str) -> String {
    (0..PAIRS)
        .map(|i| {
            format!("{prefix}{i}w: /challenge @{prefix}{i}b color:white\n{prefix}{i}b: /accept\n")
        })
        .collect()
}

fn count(conn: &Connection, sql: &str) -> usize {
    conn.query_row(sql, [], |r| r.get::<_, i64>(0))
        .expect("count") as usize
}

#[test]
fn two_processes_on_one_file_queue_and_apply_every_act() {
    let console = Console::new();
    let scripts = [console.script(&script("p")), console.script(&script("q"))];
    // Both start before either ends: the file is new, so they even race
    // to create it.
    let children: Vec<_> = scripts
        .iter()
        .map(|path| {
            console
                .command()
                .args(["console", "--json", "--now", START, "--script"])
                .arg(path)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn")
        })
        .collect();
    let outputs: Vec<Output> = children
        .into_iter()
        .map(|child| child.wait_with_output().expect("wait"))
        .collect();

    // What a failed act answers: the internal error, or the database's own
    // kinds (busy, disk full, read-only, unreachable, damaged).
    const FAILURES: [&str; 6] = [
        "Something went wrong",
        "database is busy",
        "disk is full",
        "read-only",
        "cannot reach my database",
        "damaged",
    ];
    let mut failed = 0;
    for output in &outputs {
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stderr}");
        let replies = parse_lines(&output.stdout);
        let went_wrong: Vec<_> = replies
            .iter()
            .filter(|r| {
                r["text"]
                    .as_str()
                    .is_some_and(|t| FAILURES.iter().any(|failure| t.contains(failure)))
            })
            .collect();
        failed += went_wrong.len();
        assert!(went_wrong.is_empty(), "{went_wrong:#?}\n{stderr}");
        assert!(!stderr.contains("database is locked"), "{stderr}");
        // One answer per act, none of them a refusal.
        assert_eq!(replies.len(), 2 * PAIRS);
        assert!(replies.iter().all(|r| r["ephemeral"] == false));
    }

    let conn = Connection::open(console.db()).expect("db");
    let games = count(&conn, "SELECT count(*) FROM games WHERE status = 'ongoing'");
    let accepted = count(
        &conn,
        "SELECT count(*) FROM challenges WHERE status = 'accepted' AND game_id IS NOT NULL",
    );
    let players = count(&conn, "SELECT count(*) FROM players");
    let answered = count(&conn, "SELECT count(*) FROM acts");
    // Shown with --nocapture: the numbers of the "Done when".
    println!(
        "two processes, {} acts: {answered} applied, {failed} failed; {games} games, {players} players",
        4 * PAIRS
    );
    assert_eq!(games, 2 * PAIRS);
    assert_eq!(accepted, 2 * PAIRS);
    assert_eq!(players, 4 * PAIRS);
    assert_eq!(
        answered,
        4 * PAIRS,
        "every act answered once, under its key"
    );
}
