//! `pawnpost check` replays every stored game: a move edited into one the
//! rules refuse is reported with its game and ply (exit status 1) on SQLite
//! and PostgreSQL alike, as the bot refuses to load that game; a clean
//! database passes. The PostgreSQL half needs `PAWNPOST_TEST_POSTGRES`.

mod common;

use std::process::{Command, Output};

use common::{Console, START};
use pawnpost::service::check::check_games;
use pawnpost::storage::Store;
use pawnpost::storage::postgres::scratch::{ScratchSchema, test_url};
use pawnpost::storage::sqlite::SqliteStore;
use tokio_postgres::NoTls;

/// Two games in two channels: game 1 (e4 e5 Nf3 Nc6) and game 2 (d4).
const GAMES: &str = "alice: /challenge @bob color:white
                     bob: /accept
                     alice: /move e4
                     bob: /move e5
                     alice: /move Nf3
                     bob: /move Nc6
                     :channel side
                     carol: /challenge @dave color:white
                     dave: /accept
                     carol: /move d4";

/// Damage to the moves table, and the line `pawnpost check` must print
/// for it.
const DAMAGE: &[(&str, &str)] = &[
    (
        // A king's move across the board, as in the report.
        "UPDATE moves SET uci = 'e1e8' WHERE game_id = 1 AND ply = 3",
        "game 1 ply 3: the stored move e1e8 is not a legal move there",
    ),
    (
        "UPDATE moves SET uci = 'zzzz' WHERE game_id = 2 AND ply = 1",
        "game 2 ply 1: the stored move zzzz is not a legal move there",
    ),
];

/// `pawnpost check` on the database `database` names, and its stdout.
fn check(console: &Console, database: Option<&str>) -> (Output, String) {
    let mut command: Command = console.command();
    if let Some(url) = database {
        command.env("PAWNPOST_DATABASE_URL", url);
    }
    let output = command.arg("check").output().expect("run pawnpost check");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    (output, stdout)
}

/// Plays [`GAMES`] on the database, checks it clean, then spoils one move
/// after another with `spoil` and checks the report grows by its line.
/// `database` (a URL) replaces the console's SQLite file when given.
fn a_spoiled_move_is_reported(
    console: &Console,
    database: Option<&str>,
    spoil: &mut dyn FnMut(&str),
) {
    let path = console.script(GAMES);
    let mut play = console.command();
    if let Some(url) = database {
        play.env("PAWNPOST_DATABASE_URL", url);
    }
    let played = play
        .args(["console", "--json", "--now", START, "--script"])
        .arg(&path)
        .output()
        .expect("play");
    assert!(played.status.success(), "{played:?}");

    let (output, stdout) = check(console, database);
    assert!(output.status.success(), "{output:?}");
    assert!(stdout.trim().ends_with("no problem found"), "{stdout}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("2 game(s) replayed"), "{stderr}");

    let mut expected = Vec::new();
    for (sql, line) in DAMAGE {
        spoil(sql);
        expected.push(*line);
        let (output, stdout) = check(console, database);
        assert_eq!(output.status.code(), Some(1), "{sql}: {output:?}");
        assert_eq!(stdout.lines().collect::<Vec<_>>(), expected, "{sql}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("restore it from a backup"), "{stderr}");
    }
}

#[test]
fn check_reports_an_illegal_stored_move_on_sqlite() {
    let console = Console::new();
    let db = console.db();
    let mut spoil = |sql: &str| {
        let conn = rusqlite::Connection::open(&db).expect("db");
        assert_eq!(conn.execute(sql, []).expect("spoil"), 1, "{sql}");
    };
    a_spoiled_move_is_reported(&console, None, &mut spoil);
}

#[test]
fn check_reports_an_illegal_stored_move_on_postgres() {
    let Some(base) = test_url() else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let schema = runtime
        .block_on(ScratchSchema::create(&base, "check_replay"))
        .expect("schema");
    let config = schema.config().expect("config");
    let mut spoil = |sql: &str| {
        runtime.block_on(async {
            let (client, connection) = config.connect(NoTls).await.expect("connect");
            let driver = tokio::spawn(connection);
            assert_eq!(client.execute(sql, &[]).await.expect("spoil"), 1, "{sql}");
            drop(client);
            let _ = driver.await;
        })
    };
    let join = if base.contains('?') { '&' } else { '?' };
    let url = format!("{base}{join}options=-c%20search_path%3D{}", schema.name());
    a_spoiled_move_is_reported(&Console::new(), Some(&url), &mut spoil);
}

/// The library function the binary calls reads the games a page at a time:
/// pages of one, two or many games find the same damaged games.
#[tokio::test]
async fn every_page_size_finds_the_same_games() {
    let console = Console::new();
    console.run(GAMES);
    let conn = rusqlite::Connection::open(console.db()).expect("db");
    conn.execute(DAMAGE[0].0, []).expect("spoil");
    drop(conn);
    let store = Store::from(SqliteStore::open_to_check(&console.db()).expect("open"));
    for page in [1, 2, 200] {
        let found = check_games(&store, page).await.expect("check");
        assert_eq!(found.games, 2, "page of {page}");
        assert_eq!(found.problems, [DAMAGE[0].1], "page of {page}");
        assert_eq!(found.unlisted, 0);
    }
}
