//! `pawnpost games` lists the stored games and `pawnpost export` writes them
//! as one PGN file that the project's own PGN importer reads back to the
//! same games: every move, the result and how the game ended.

use std::path::Path;
use std::process::Command;

use chrono::Utc;
use pawnpost::core::game::{PlayerId, Players, Status};
use pawnpost::core::pgn;
use shakmaty::CastlingMode;
use shakmaty::uci::UciMove;

/// A mate, a resignation, an agreed draw, and a game still going on.
const SCRIPT: &str = "\
alice: /challenge @bob color:white
bob: /accept
alice: /move e4
bob: /move e5
alice: /move Qh5
bob: /move Nc6
alice: /move Bc4
bob: /move Nf6
alice: /move Qxf7
carol: /challenge @dave color:black
dave: /accept
dave: /move d4
carol: /resign
erin: /challenge @frank color:white
frank: /accept
erin: /move Nf3
frank: /move Nf6
erin: /draw
frank: /draw
alice: /challenge @carol color:white
carol: /accept
alice: /move c4
";

fn pawnpost(dir: &Path, args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_pawnpost"))
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .output()
        .expect("run pawnpost");
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8")
}

/// A stored game as the database has it: its moves in UCI, and its result
/// and reason as stored (NULL while it goes on).
fn stored(db: &Path, game: i64) -> (Vec<String>, Option<String>, Option<String>) {
    let conn = rusqlite::Connection::open(db).expect("open");
    let mut moves = conn
        .prepare("SELECT uci FROM moves WHERE game_id = ?1 ORDER BY ply")
        .expect("moves");
    let moves = moves
        .query_map([game], |r| r.get(0))
        .expect("rows")
        .collect::<Result<Vec<String>, _>>()
        .expect("uci");
    let (result, reason) = conn
        .query_row(
            "SELECT result, reason FROM games WHERE id = ?1",
            [game],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("game");
    (moves, result, reason)
}

/// The name a result or reason is stored under ("1-0", "checkmate").
fn word(value: &impl serde::Serialize) -> Option<String> {
    serde_json::to_value(value)
        .ok()?
        .as_str()
        .map(str::to_owned)
}

#[test]
fn exported_games_read_back_as_the_same_games() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("script.txt"), SCRIPT).expect("script");
    pawnpost(
        dir.path(),
        &["console", "--db", "club.db", "--script", "script.txt"],
    );
    let db = dir.path().join("club.db");

    let listed = pawnpost(dir.path(), &["games", "--db", "club.db"]);
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), 4, "{listed}");
    assert!(
        lines[0].starts_with("1\talice - bob\t7 plies\t1-0 (checkmate)"),
        "{listed}"
    );
    assert!(lines[2].ends_with("1/2-1/2 (agreement)"), "{listed}");
    assert!(lines[3].ends_with("ongoing"), "{listed}");
    let carol = pawnpost(
        dir.path(),
        &["games", "--db", "club.db", "--player", "carol"],
    );
    let ids: Vec<&str> = carol.lines().filter_map(|l| l.split('\t').next()).collect();
    assert_eq!(ids, ["2", "4"]);

    pawnpost(dir.path(), &["export", "--db", "club.db", "-o", "all.pgn"]);
    let file = std::fs::read_to_string(dir.path().join("all.pgn")).expect("the PGN file");
    let games: Vec<String> = file
        .split("\n\n[Event ")
        .enumerate()
        .map(|(i, part)| {
            if i == 0 {
                part.to_owned()
            } else {
                format!("[Event {part}")
            }
        })
        .collect();
    assert_eq!(games.len(), 4, "{file}");
    let players = Players {
        white: PlayerId(1),
        black: PlayerId(2),
    };
    for (index, text) in games.iter().enumerate() {
        let id = index as i64 + 1;
        assert!(
            text.starts_with(&format!("[Event \"pawnpost game {id}\"]")),
            "{text}"
        );
        let (game, _tags) = pgn::import(text, players, Utc::now())
            .unwrap_or_else(|e| panic!("game {id} does not read back: {e:?}\n{text}"));
        let (moves, result, reason) = stored(&db, id);
        let read: Vec<String> = game
            .moves()
            .iter()
            .map(|played| UciMove::from_move(played.m, CastlingMode::Standard).to_string())
            .collect();
        assert_eq!(read, moves, "game {id}'s moves");
        match game.status() {
            Status::Ongoing => assert_eq!((result, reason), (None, None), "game {id}"),
            Status::Over {
                result: r,
                reason: why,
                ..
            } => {
                assert_eq!((word(&r), word(&why)), (result, reason), "game {id}'s end");
            }
        }
    }
}

/// `pawnpost import` stores another database's export: every finished game
/// with its moves and ending, the unfinished one left to be continued in
/// chat; importing the same file again adds nothing.
#[test]
fn an_export_imports_into_another_database_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("script.txt"), SCRIPT).expect("script");
    pawnpost(
        dir.path(),
        &["console", "--db", "club.db", "--script", "script.txt"],
    );
    pawnpost(dir.path(), &["export", "--db", "club.db", "-o", "all.pgn"]);

    let report = pawnpost(dir.path(), &["import", "all.pgn", "--db", "new.db"]);
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(
        lines,
        [
            "1\talice - bob\timported as game 1",
            "2\tdave - carol\timported as game 2",
            "3\terin - frank\timported as game 3",
            "4\talice - carol\tunfinished: continue it in chat with /challenge @opponent pgn:\"…\"",
        ],
        "{report}"
    );
    for id in 1..=3 {
        assert_eq!(
            stored(&dir.path().join("new.db"), id),
            stored(&dir.path().join("club.db"), id),
            "game {id}"
        );
    }
    let again = pawnpost(dir.path(), &["import", "all.pgn", "--db", "new.db"]);
    assert_eq!(again.matches("imported before").count(), 3, "{again}");
    let listed = pawnpost(dir.path(), &["games", "--db", "new.db"]);
    assert_eq!(listed.lines().count(), 3, "{listed}");
}

/// A file as lichess writes it (byte order mark, CRLF, clock comments,
/// NAGs, a variation) and a record with an illegal move: the good games are
/// stored with their endings as recorded, the bad one is reported, and the
/// command fails so that a script notices.
#[test]
fn a_lichess_file_imports_with_its_endings_as_recorded() {
    let file = "\u{feff}[Event \"Rated correspondence game\"]\r\n[Site \"https://lichess.org/abcd1234\"]\r\n\
        [White \"alice\"]\r\n[Black \"bob\"]\r\n[Result \"1/2-1/2\"]\r\n[UTCDate \"2024.01.02\"]\r\n\
        [UTCTime \"10:00:00\"]\r\n[Termination \"Normal\"]\r\n\r\n1. e4 { [%clk 72:00:00] } 1... e5 $2 \
        { [%clk 71:59:12] } 2. Nf3 (2. Bc4 Nf6) 2... Nc6 $10 1/2-1/2\r\n\r\n\
        [Event \"Casual\"]\r\n[White \"carol\"]\r\n[Black \"dave\"]\r\n[Result \"0-1\"]\r\n\
        [Termination \"Time forfeit\"]\r\n\r\n1. d4 d5 0-1\r\n\r\n\
        [Event \"Bad\"]\r\n[White \"x\"]\r\n[Black \"y\"]\r\n[Result \"1-0\"]\r\n\r\n1. e4 e5 2. Ke3 1-0\r\n";
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("lichess.pgn"), file).expect("file");
    let output = Command::new(env!("CARGO_BIN_EXE_pawnpost"))
        .args(["import", "lichess.pgn", "--db", "games.db"])
        .current_dir(dir.path())
        .env_clear()
        .output()
        .expect("run pawnpost");
    assert!(!output.status.success(), "a refused game fails the command");
    let report = String::from_utf8(output.stdout).expect("utf-8");
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(
        lines,
        [
            "1\talice - bob\timported as game 1 (1 variation(s) left out)",
            "2\tcarol - dave\timported as game 2",
            "3\tx - y\tnot imported: move 3 (Ke3) is not legal",
        ],
        "{report}"
    );
    let db = dir.path().join("games.db");
    let uci = |moves: &[&str]| moves.iter().map(|m| m.to_string()).collect::<Vec<_>>();
    assert_eq!(
        stored(&db, 1),
        (
            uci(&["e2e4", "e7e5", "g1f3", "b8c6"]),
            Some("1/2-1/2".into()),
            Some("recorded".into())
        )
    );
    assert_eq!(
        stored(&db, 2),
        (
            uci(&["d2d4", "d7d5"]),
            Some("0-1".into()),
            Some("timeout".into())
        )
    );
    let conn = rusqlite::Connection::open(&db).expect("open");
    let (created, rated): (String, bool) = conn
        .query_row(
            "SELECT created_at, rated FROM games WHERE id = 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("game 1");
    assert!(created.starts_with("2024-01-02"), "{created}");
    assert!(!rated);
}

/// The opening is named by position in every exported PGN and on `/board`:
/// the Ruy Lopez by its usual order and by a transposed one.
#[test]
fn exported_games_name_their_opening_by_position() {
    let script = "\
alice: /challenge @bob color:white
bob: /accept
alice: /move e4
bob: /move e5
alice: /move Nf3
bob: /move Nc6
alice: /move Bb5
carol: /challenge @dave color:white
dave: /accept
carol: /move Nf3
dave: /move Nc6
carol: /move e4
dave: /move e5
carol: /move Bb5
dave: /board
";
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("script.txt"), script).expect("script");
    let console = pawnpost(
        dir.path(),
        &["console", "--db", "club.db", "--script", "script.txt"],
    );
    // Each Bb5 announces it in its reply, and `/board` names it too.
    assert_eq!(
        console.matches("Opening: C60 Ruy Lopez\n").count(),
        3,
        "{console}"
    );
    for game in ["1", "2"] {
        let pgn = pawnpost(dir.path(), &["pgn", game, "--db", "club.db"]);
        assert!(
            pgn.contains("[ECO \"C60\"]\n[Opening \"Ruy Lopez\"]\n"),
            "{pgn}"
        );
    }
}

/// A tournament's games are published under the tournament's name and
/// their round, as clubs publish them; other games keep their own Event.
#[test]
fn tournament_games_carry_their_event_and_round() {
    let dir = tempfile::tempdir().expect("temp dir");
    let script = dir.path().join("script.txt");
    let lines = "\
alice: /tournament create round_robin name:\"Club d'hiver\"
alice: /tournament join
bob: /tournament join
erin: /tournament join
alice: /tournament start
carol: /challenge @dave
dave: /accept
";
    std::fs::write(&script, lines).expect("script");
    pawnpost(
        dir.path(),
        &["console", "--db", "db.sqlite", "--script", "script.txt"],
    );
    let exported = pawnpost(dir.path(), &["export", "--db", "db.sqlite"]);
    let games: Vec<&str> = exported.split("[Event ").skip(1).collect();
    assert_eq!(
        games.len(),
        4,
        "three tournament games, one casual: {exported}"
    );
    for (game, round) in games.iter().zip(["1", "2", "3"]) {
        assert!(game.starts_with("\"Club d'hiver\"]"), "{game}");
        assert!(game.contains(&format!("[Round \"{round}\"]")), "{game}");
    }
    assert!(games[3].starts_with("\"pawnpost game 4\"]"), "{exported}");
    assert!(games[3].contains("[Round \"-\"]"), "{exported}");
}
