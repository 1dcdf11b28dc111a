//! A UCI chess engine (Stockfish) as a subprocess, for reviews of finished
//! games (issue 24): one process kept and reused, a fixed number of nodes
//! per position so the same review gives the same numbers, nothing linked.
//!
//! Every answer is read with bounds: a line longer than [`MAX_LINE`] (found
//! while it is read, see [`line`]) or an engine silent past the timeout is
//! an error, so a broken engine cannot hold a review forever nor fill the
//! memory. What the engine says is read, not believed: the caller checks
//! its moves and scores against the position (`core::analysis`), and
//! bounds the whole review in time (`service::reviewer`).

mod line;

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use crate::core::review::{Eval, MAX_LINE_PLIES};
use line::LineError;

/// The longest line read from the engine.
pub const MAX_LINE: usize = 64 * 1024;
/// How long an engine asked to quit may take before it is killed.
const QUIT_WAIT: Duration = Duration::from_secs(5);

/// What went wrong with the engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("cannot run the engine: {0}")]
    Io(#[from] std::io::Error),
    #[error("the engine said nothing for {0:?}")]
    Timeout(Duration),
    #[error("the engine stopped")]
    Stopped,
    #[error("the engine wrote a line longer than {0} bytes")]
    LineTooLong(usize),
    #[error("the engine's answer cannot be read: {0}")]
    Garbled(String),
}

/// The engine's judgement of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// From White's point of view.
    pub eval: Eval,
    /// The best move in UCI, if the position has one.
    pub best: Option<String>,
    /// The engine's principal variation, best move first (at most
    /// [`MAX_LINE_PLIES`]).
    pub line: Vec<String>,
}

/// A running engine.
pub struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    timeout: Duration,
    /// What the engine calls itself (`id name`), for the review's record.
    name: String,
    /// Whether `UCI_Chess960` is on.
    chess960: bool,
}

impl Engine {
    /// Starts the engine at `path` with `threads` and `hash_mb`, and waits
    /// until it is ready. One thread keeps fixed-node searches reproducible.
    pub async fn start(
        path: &Path,
        threads: u32,
        hash_mb: u32,
        timeout: Duration,
    ) -> Result<Engine, EngineError> {
        let mut engine = Engine::spawn(path, timeout)?;
        engine.handshake(threads, hash_mb).await?;
        Ok(engine)
    }

    /// Starts the engine's process, not yet spoken to: a caller that bounds
    /// the handshake in time keeps the process, to kill it if it hangs.
    pub fn spawn(path: &Path, timeout: Duration) -> Result<Engine, EngineError> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()?;
        let input = child.stdin.take().ok_or(EngineError::Stopped)?;
        let output = BufReader::new(child.stdout.take().ok_or(EngineError::Stopped)?);
        Ok(Engine {
            child,
            input,
            output,
            timeout,
            name: String::new(),
            chess960: false,
        })
    }

    /// Says `uci`, reads the engine's name, sets `threads` and `hash_mb`,
    /// and waits until it is ready.
    pub async fn handshake(&mut self, threads: u32, hash_mb: u32) -> Result<(), EngineError> {
        self.send("uci").await?;
        loop {
            let line = self.line().await?;
            let line = line.trim();
            if let Some(name) = line.strip_prefix("id name ") {
                self.name = name.chars().take(64).collect();
            }
            if line == "uciok" {
                break;
            }
        }
        self.send(&format!("setoption name Threads value {threads}"))
            .await?;
        self.send(&format!("setoption name Hash value {hash_mb}"))
            .await?;
        self.ready().await
    }

    /// Evaluates the position `fen` with `nodes` nodes, from a cleared
    /// hash, so the same position always gets the same answer.
    pub async fn analyse(&mut self, fen: &str, nodes: u64) -> Result<Analysis, EngineError> {
        if fen.contains(['\n', '\r']) {
            return Err(EngineError::Garbled("a FEN on several lines".to_owned()));
        }
        self.send("ucinewgame").await?;
        self.ready().await?;
        self.send(&format!("position fen {fen}")).await?;
        self.send(&format!("go nodes {nodes}")).await?;
        let white_to_move = fen.split_whitespace().nth(1) != Some("b");
        let mut score = None;
        let mut line_found = Vec::new();
        loop {
            let line = self.line().await?;
            if let Some(found) = score_in(&line) {
                score = Some(found);
                line_found = pv_in(&line);
            }
            if let Some(rest) = line.strip_prefix("bestmove") {
                let best = rest
                    .split_whitespace()
                    .next()
                    .filter(|m| *m != "(none)")
                    .map(str::to_owned);
                // Scores are the side to move's; reviews keep White's.
                let score = score.ok_or_else(|| EngineError::Garbled(line.clone()))?;
                let eval = if white_to_move {
                    Some(score)
                } else {
                    // `cp -2147483648` has no opposite in an i32.
                    match score {
                        Eval::Centipawns(cp) => cp.checked_neg().map(Eval::Centipawns),
                        Eval::Mate(n) => n.checked_neg().map(Eval::Mate),
                    }
                };
                let eval = eval.ok_or_else(|| EngineError::Garbled(line.clone()))?;
                // The line must begin with the move the engine chose.
                if line_found.first() != best.as_ref() {
                    line_found = best.iter().cloned().collect();
                }
                return Ok(Analysis {
                    eval,
                    best,
                    line: line_found,
                });
            }
        }
    }

    /// Reads and writes castling as Chess960 does (king takes rook) or not.
    pub async fn set_chess960(&mut self, on: bool) -> Result<(), EngineError> {
        if self.chess960 != on {
            self.send(&format!("setoption name UCI_Chess960 value {on}"))
                .await?;
            self.chess960 = on;
        }
        Ok(())
    }

    /// What the engine calls itself (`Stockfish 15.1`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Asks the engine to quit and waits for it; one that does not quit
    /// within [`QUIT_WAIT`] (or cannot be told to) is killed.
    pub async fn stop(mut self) -> Result<(), EngineError> {
        let asked = self.send("quit").await;
        let wait = QUIT_WAIT.min(self.timeout);
        match tokio::time::timeout(wait, self.child.wait()).await {
            Ok(exited) if asked.is_ok() => {
                exited?;
                Ok(())
            }
            Ok(_) => asked,
            Err(_) => {
                self.kill().await?;
                Err(EngineError::Timeout(wait))
            }
        }
    }

    /// Kills the engine's process and reaps it, so that no zombie and no
    /// busy process stays behind a review given up.
    pub async fn kill(mut self) -> Result<(), EngineError> {
        self.child.kill().await?;
        Ok(())
    }

    async fn ready(&mut self) -> Result<(), EngineError> {
        self.send("isready").await?;
        self.until(|line| line == "readyok").await
    }

    async fn send(&mut self, command: &str) -> Result<(), EngineError> {
        self.input.write_all(command.as_bytes()).await?;
        self.input.write_all(b"\n").await?;
        self.input.flush().await?;
        Ok(())
    }

    async fn until(&mut self, done: impl Fn(&str) -> bool) -> Result<(), EngineError> {
        loop {
            if done(self.line().await?.trim()) {
                return Ok(());
            }
        }
    }

    async fn line(&mut self) -> Result<String, EngineError> {
        let read = tokio::time::timeout(self.timeout, line::read_line(&mut self.output, MAX_LINE))
            .await
            .map_err(|_| EngineError::Timeout(self.timeout))?;
        match read {
            Ok(Some(line)) => Ok(line),
            Ok(None) => Err(EngineError::Stopped),
            Err(LineError::TooLong(max)) => Err(EngineError::LineTooLong(max)),
            Err(LineError::Io(error)) => Err(error.into()),
        }
    }
}

/// The score of an `info` line, from the side to move's point of view
/// (`score cp 34`, `score mate -3`; bounds such as `lowerbound` ignored).
fn score_in(line: &str) -> Option<Eval> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let mut words = words.skip_while(|w| *w != "score").skip(1);
    let kind = words.next()?;
    let value: i32 = words.next()?.parse().ok()?;
    if matches!(words.next(), Some("lowerbound" | "upperbound")) {
        return None;
    }
    match kind {
        "cp" => Some(Eval::Centipawns(value)),
        "mate" => Some(Eval::Mate(value)),
        _ => None,
    }
}

/// The principal variation of an `info` line (`pv e2e4 e7e5 …`), its
/// first [`MAX_LINE_PLIES`] moves; anything not shaped like UCI ends it.
fn pv_in(line: &str) -> Vec<String> {
    line.split_whitespace()
        .skip_while(|w| *w != "pv")
        .skip(1)
        .take_while(|w| (4..=5).contains(&w.len()) && w.is_ascii())
        .take(MAX_LINE_PLIES)
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_their_score() {
        let cases = [
            (
                "info depth 12 seldepth 15 score cp 34 nodes 2000 pv e2e4",
                Some(Eval::Centipawns(34)),
            ),
            ("info depth 5 score mate -3 pv h7h8", Some(Eval::Mate(-3))),
            ("info depth 9 score cp 50 lowerbound nodes 10", None),
            ("info string NNUE evaluation enabled", None),
            ("bestmove e2e4", None),
            ("info score cp x", None),
        ];
        for (line, expected) in cases {
            assert_eq!(score_in(line), expected, "{line}");
        }
    }

    #[test]
    fn info_lines_give_their_line_bounded() {
        let long = format!(
            "info depth 20 score cp 1 pv {}",
            ["e2e4 e7e5"; 10].join(" ")
        );
        let cases: [(&str, usize); 4] = [
            ("info depth 3 score cp 5 pv e2e4 e7e5 g1f3", 3),
            ("info depth 3 score cp 5 pv e7e8q", 1),
            ("info depth 3 score cp 5 nodes 10", 0),
            (&long, MAX_LINE_PLIES),
        ];
        for (line, expected) in cases {
            assert_eq!(pv_in(line).len(), expected, "{line}");
        }
    }
}
