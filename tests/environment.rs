//! Configuration from the environment, through the real binary: any key
//! as `PAWNPOST_<SECTION>_<KEY>`, and a `PAWNPOST_` name that sets nothing
//! warned about rather than silently ignored.

use std::process::{Command, Output, Stdio};

/// Plays one move in the console with `env`, writing the bot's files into
/// `dir/files`.
fn console(dir: &std::path::Path, env: &[(&str, &str)]) -> Output {
    let moves = "alice: /challenge @bob\nbob: /accept\nalice: /move e4\n";
    run_script(dir, moves, env)
}

/// Runs `lines` in the console with `env`.
fn run_script(dir: &std::path::Path, lines: &str, env: &[(&str, &str)]) -> Output {
    let script = dir.join("script.txt");
    std::fs::write(&script, lines).expect("script");
    Command::new(env!("CARGO_BIN_EXE_pawnpost"))
        .arg("console")
        .arg("--db")
        .arg(dir.join("club.db"))
        .arg("--script")
        .arg(&script)
        .arg("--files")
        .arg(dir.join("files"))
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .expect("run the console")
}

/// The width of every PNG board written, from its header.
fn board_widths(dir: &std::path::Path) -> Vec<u32> {
    let mut widths = Vec::new();
    for entry in std::fs::read_dir(dir.join("files")).expect("files") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "png") && path.to_string_lossy().contains("board")
        {
            let bytes = std::fs::read(&path).expect("png");
            widths.push(u32::from_be_bytes(bytes[16..20].try_into().expect("IHDR")));
        }
    }
    widths
}

#[test]
fn board_size_comes_from_its_variable_and_a_misspelt_one_is_warned_about() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = console(
        dir.path(),
        &[
            ("PAWNPOST_BOARD_SIZE", "240"),
            ("PAWNPOST_BORAD_THEME", "blue"),
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let widths = board_widths(dir.path());
    assert!(!widths.is_empty(), "no board written");
    assert!(widths.iter().all(|&w| w == 240), "{widths:?}");
    assert!(
        stderr.contains("WARN") && stderr.contains("PAWNPOST_BORAD_THEME"),
        "{stderr}"
    );
    assert!(!stderr.contains("PAWNPOST_BOARD_SIZE"), "{stderr}");
}

#[test]
fn a_value_the_key_cannot_take_is_refused_by_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = console(dir.path(), &[("PAWNPOST_BOARD_SIZE", "large")]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("PAWNPOST_BOARD_SIZE"), "{stderr}");
}

#[test]
fn a_tournament_limit_comes_from_its_variable_and_is_checked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let lines = "alice: /tournament create swiss\n\
                 alice: /tournament join\n\
                 bob: /tournament join\n\
                 carol: /tournament join\n";
    let output = run_script(
        dir.path(),
        lines,
        &[("PAWNPOST_TOURNAMENTS_MAX_SWISS", "2")],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("Tournament #1 is full: a Swiss tournament takes at most 2 players here."),
        "{stdout}"
    );
    // Below a system's least number of players, or above the command's bound.
    for value in ["1", "10001"] {
        let output = run_script(
            dir.path(),
            lines,
            &[("PAWNPOST_TOURNAMENTS_MAX_SWISS", value)],
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{value}");
        assert!(
            stderr.contains("[tournaments] max_swiss"),
            "{value}: {stderr}"
        );
    }
}
