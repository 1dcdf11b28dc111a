//! What `pawnpost serve` says at start, as a service manager records it:
//! a "ready" line at INFO naming the database and its schema version, no
//! terminal colours when stderr is not a terminal, and one JSON object a
//! line with `--log-format json`; and Discord out of reach at start is
//! tried again, not the end of the process.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The schema version a new database gets (one per migration), as the
/// library itself reports it for a new file.
fn schema() -> u64 {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = pawnpost::storage::sqlite::SqliteStore::open(dir.path().join("new.db"))
        .expect("a new database");
    store.schema_version().expect("its version") as u64
}

/// Starts `pawnpost serve` (Discord at a loopback port nothing listens on)
/// and returns its stderr lines up to and including the first that holds
/// `marker` (within 30 s), and whether the process was still running then.
fn lines_until(dir: &std::path::Path, args: &[&str], marker: &str) -> (Vec<String>, bool) {
    // A port that was free a moment ago: the connection is refused.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_pawnpost"))
        .args(args)
        .arg("serve")
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("PAWNPOST_DATABASE_PATH", dir.join("club.db"))
        .env("PAWNPOST_DISCORD_TOKEN", "not-a-token")
        .env(
            "PAWNPOST_DISCORD_API_BASE",
            format!("http://127.0.0.1:{port}"),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pawnpost serve");
    let stderr = child.stderr.take().expect("stderr");
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    while let Ok(line) = receive.recv_timeout(Duration::from_secs(30)) {
        let found = line.contains(marker);
        seen.push(line);
        if found {
            break;
        }
    }
    let running = child.try_wait().expect("status").is_none();
    let _ = child.kill();
    let _ = child.wait();
    (seen, running)
}

#[test]
fn serve_says_it_is_ready_with_its_database_and_schema_version_without_colours() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (lines, running) = lines_until(dir.path(), &[], "trying again");
    let ready = lines
        .iter()
        .find(|line| line.contains("database ready"))
        .unwrap_or_else(|| panic!("no ready line in {lines:#?}"));
    for expected in [
        " INFO ".to_owned(),
        format!("schema={}", schema()),
        "version=".to_owned(),
        dir.path().join("club.db").display().to_string(),
    ] {
        assert!(ready.contains(&expected), "{expected} in {ready}");
    }
    assert!(
        lines.iter().all(|line| !line.contains('\u{1b}')),
        "no terminal escapes in a pipe: {lines:#?}"
    );
    let retry = lines.last().expect("lines");
    assert!(
        retry.contains(" WARN ") && retry.contains("out of reach"),
        "{lines:#?}"
    );
    assert!(running, "still running after Discord could not be reached");
}

#[test]
fn json_logs_are_one_object_a_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (lines, _) = lines_until(dir.path(), &["--log-format", "json"], "database ready");
    let objects: Vec<serde_json::Value> = lines
        .iter()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    let ready = objects.last().expect("something logged");
    assert_eq!(ready["level"], "INFO");
    assert_eq!(ready["fields"]["message"], "database ready; connecting");
    assert_eq!(ready["fields"]["schema"], schema());
    assert_eq!(ready["fields"]["platform"], "discord");
    let version = ready["fields"]["version"].as_str().expect("version");
    assert!(version.starts_with(env!("CARGO_PKG_VERSION")), "{version}");
}

#[test]
fn the_version_names_the_commit_built() {
    let output = Command::new(env!("CARGO_BIN_EXE_pawnpost"))
        .arg("--version")
        .output()
        .expect("pawnpost --version");
    let text = String::from_utf8_lossy(&output.stdout);
    let commit = text
        .trim()
        .strip_prefix(concat!("pawnpost ", env!("CARGO_PKG_VERSION"), " ("))
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        commit == "unknown"
            || (commit.len() == 12 && commit.chars().all(|c| c.is_ascii_hexdigit())),
        "{text}"
    );
}
