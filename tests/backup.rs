//! `pawnpost backup` while another process plays: the copy opens, passes
//! SQLite's integrity check, and holds every move committed before the
//! backup began.

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Forty games of sixteen moves each (knights out and back twice), one act
/// a line, each committed on its own.
fn busy_script() -> String {
    let mut script = String::new();
    for game in 0..40 {
        let (white, black) = (format!("w{game}"), format!("b{game}"));
        script += &format!("{white}: /challenge @{black} color:white\n{black}: /accept\n");
        for _twice in 0..2 {
            for (player, san) in [
                (&white, "Nf3"),
                (&black, "Nf6"),
                (&white, "Ng1"),
                (&black, "Ng8"),
                (&white, "Nc3"),
                (&black, "Nc6"),
                (&white, "Nb1"),
                (&black, "Nb8"),
            ] {
                script += &format!("{player}: /move {san}\n");
            }
        }
    }
    script
}

/// Each game's number of moves in the SQLite file at `db` (an error while
/// the file is being created).
fn plies(db: &Path) -> rusqlite::Result<HashMap<i64, i64>> {
    let conn = rusqlite::Connection::open(db)?;
    conn.busy_timeout(Duration::from_secs(5))?;
    let mut rows = conn.prepare("SELECT game_id, count(*) FROM moves GROUP BY game_id")?;
    rows.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect()
}

#[test]
fn a_backup_taken_while_moves_are_played_holds_everything_committed_before_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("club.db");
    let script = dir.path().join("script.txt");
    std::fs::write(&script, busy_script()).expect("script");
    let mut writer = Command::new(env!("CARGO_BIN_EXE_pawnpost"))
        .args(["console", "--script"])
        .arg(&script)
        .arg("--db")
        .arg(&db)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the writing console");

    // Wait for a few games to be under way, then note what is committed.
    let started = Instant::now();
    let before = loop {
        let found = plies(&db).unwrap_or_default();
        if found.values().sum::<i64>() >= 60 {
            break found;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no moves played"
        );
        std::thread::sleep(Duration::from_millis(5));
    };
    let copy = dir.path().join("copy.db");
    let backup = Command::new(env!("CARGO_BIN_EXE_pawnpost"))
        .arg("backup")
        .arg(&copy)
        .arg("--db")
        .arg(&db)
        .output()
        .expect("pawnpost backup");
    let still_writing = writer.try_wait().expect("status").is_none();
    assert!(
        backup.status.success(),
        "{}",
        String::from_utf8_lossy(&backup.stderr)
    );
    assert!(writer.wait().expect("writer").success());

    let conn = rusqlite::Connection::open(&copy).expect("the copy opens");
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("check");
    assert_eq!(check, "ok");
    let copied = plies(&copy).expect("the copy's moves");
    for (game, moves) in &before {
        assert!(
            copied.get(game).is_some_and(|c| c >= moves),
            "game {game}: {moves} moves before the backup, {:?} in it",
            copied.get(game)
        );
    }
    assert!(
        !dir.path().read_dir().expect("dir").any(|e| e
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .contains(".partial")),
        "no partial file left"
    );
    // The point of the test: the copy was taken while the writer wrote.
    assert!(
        still_writing,
        "the script ended before the backup: make it longer"
    );
}
