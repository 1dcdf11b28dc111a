//! Helpers for tests that run the real `pawnpost` binary.

#![allow(dead_code)]

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use tempfile::TempDir;

/// The simulated instant every scripted run starts at.
pub const START: &str = "2026-01-01T12:00:00Z";

/// A database file in a fresh directory, and a way to run scripts on it.
pub struct Console {
    dir: TempDir,
    runs: Cell<u32>,
}

impl Console {
    pub fn new() -> Console {
        Console {
            dir: tempfile::tempdir().expect("temp dir"),
            runs: Cell::new(0),
        }
    }

    pub fn db(&self) -> PathBuf {
        self.dir.path().join("pawnpost.db")
    }

    /// Writes `script` (indentation trimmed) to a new file and returns its path.
    pub fn script(&self, script: &str) -> PathBuf {
        let n = self.runs.get() + 1;
        self.runs.set(n);
        let path = self.dir.path().join(format!("script-{n}.txt"));
        let text: Vec<&str> = script.lines().map(str::trim).collect();
        std::fs::write(&path, text.join("\n") + "\n").expect("write script");
        path
    }

    /// Runs `script` with `--json` and returns every reply.
    pub fn run(&self, script: &str) -> Vec<Value> {
        let path = self.script(script);
        let output = self.run_file(&path);
        assert!(
            output.status.success(),
            "pawnpost failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        parse_lines(&output.stdout)
    }

    /// Runs a script file with `--json` and returns the raw output.
    pub fn run_file(&self, path: &Path) -> Output {
        self.command()
            .args(["console", "--json", "--now", START, "--script"])
            .arg(path)
            .output()
            .expect("run pawnpost")
    }

    /// `pawnpost pgn <id>` on this database.
    pub fn pgn(&self, game: i64) -> String {
        let output = self
            .command()
            .args(["pgn", &game.to_string()])
            .output()
            .expect("run pawnpost");
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8(output.stdout).expect("utf-8")
    }

    /// The binary with this database and no configuration from the environment.
    pub fn command(&self) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_pawnpost"));
        command
            .current_dir(self.dir.path())
            .env("PAWNPOST_DATABASE_PATH", self.db())
            .env_remove("DISCORD_TOKEN")
            .env_remove("PAWNPOST_DISCORD_TOKEN");
        command
    }
}

pub fn parse_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// Every event of `kind` in the replies, in order.
pub fn events_of(replies: &[Value], kind: &str) -> Vec<Value> {
    replies
        .iter()
        .flat_map(|reply| reply["events"].as_array().cloned().unwrap_or_default())
        .filter(|event| event["type"] == kind)
        .collect()
}

/// The (result, reason) of the last game_over event.
pub fn game_over(replies: &[Value]) -> Option<(String, String)> {
    events_of(replies, "game_over").last().map(|event| {
        (
            event["result"].as_str().unwrap_or_default().to_owned(),
            event["reason"].as_str().unwrap_or_default().to_owned(),
        )
    })
}

/// Replies addressed to `user`.
pub fn replies_to<'a>(replies: &'a [Value], user: &str) -> Vec<&'a Value> {
    replies.iter().filter(|reply| reply["to"] == user).collect()
}
