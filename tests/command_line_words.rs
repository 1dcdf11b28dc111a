//! The command line's own words and files: `pawnpost games` read through a
//! pipe that closes early, its ply counts, a backup that would overwrite a
//! file or has no folder, and `--files` never replacing a saved board.

mod common;

use std::io::Read;
use std::process::{Command, Stdio};

use common::Console;

fn pawnpost(console: &Console) -> Command {
    console.command()
}

/// Many finished games, so `pawnpost games` writes more than a pipe holds.
fn many_games(console: &Console, count: usize) {
    let mut script = String::new();
    for game in 0..count {
        script += &format!(
            "w{game}: /challenge @b{game} color:white\nb{game}: /accept\nw{game}: /move e4\nb{game}: /resign\n"
        );
    }
    console.run(&script);
}

#[test]
fn games_read_through_a_pipe_that_closes_early_end_quietly() {
    let console = Console::new();
    many_games(&console, 400);
    let mut child = pawnpost(&console)
        .arg("games")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pawnpost games");
    // Read one line, then go away as `head -1` does.
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 16];
    let read = stdout.read_exact(&mut first);
    drop(stdout);
    let output = child.wait_with_output().expect("exit");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(read.is_ok(), "{read:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
}

#[test]
fn games_count_one_ply_in_the_singular() {
    let console = Console::new();
    many_games(&console, 1);
    let output = pawnpost(&console).arg("games").output().expect("games");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("\t1 ply\t"), "{text}");
}

/// Table: where a backup goes → what the refusal says.
const BACKUP_REFUSALS: &[(&str, &str)] = &[
    ("missing/copy.db", "does not exist: create it first"),
    ("existing.db", "already exists"),
];

#[test]
fn a_backup_is_refused_over_a_file_or_into_a_missing_folder() {
    let console = Console::new();
    many_games(&console, 1);
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(dir.path().join("existing.db"), b"an earlier copy").expect("write");
    for (target, refusal) in BACKUP_REFUSALS {
        let output = pawnpost(&console)
            .arg("backup")
            .arg(dir.path().join(target))
            .output()
            .expect("backup");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{target}");
        assert!(stderr.contains(refusal), "{target}: {stderr}");
    }
    let kept = std::fs::read(dir.path().join("existing.db")).expect("read");
    assert_eq!(kept, b"an earlier copy");
}

#[test]
fn saved_boards_are_never_replaced_by_a_later_session() {
    let console = Console::new();
    let files = tempfile::tempdir().expect("files dir");
    let run = |script: &str| {
        let path = console.script(script);
        let output = console
            .command()
            .args(["console", "--json", "--now", common::START, "--files"])
            .arg(files.path())
            .arg("--script")
            .arg(&path)
            .output()
            .expect("run pawnpost");
        assert!(output.status.success(), "{output:?}");
        common::parse_lines(&output.stdout)
    };
    // Two sessions whose first line both answer with a board.
    let first = run("alice: /challenge @bob color:white\nbob: /accept\nalice: /move e4");
    let second = run("bob: /board 1");
    let saved: Vec<String> = first
        .iter()
        .chain(&second)
        .flat_map(|reply| reply["attachments"].as_array().cloned().unwrap_or_default())
        .filter_map(|file| file["saved"].as_str().map(str::to_owned))
        .collect();
    assert!(saved.len() >= 2, "{saved:?}");
    let mut unique = saved.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), saved.len(), "{saved:?}");
    for path in &saved {
        assert!(std::path::Path::new(path).exists(), "{path}");
    }
}
