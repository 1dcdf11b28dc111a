//! The engine behind reviews, bounded every way (issues 24 and 42): a
//! queue in front of it, so that no number of `/review`s piles up work; a
//! slot leased in the database before the engine starts, so that all the
//! processes sharing it run at most `max_engines` engines; a deadline on
//! the whole review, past which the engine is killed; and every answer
//! checked against its position before it is kept.
//!
//! A process runs one engine at a time, started for each review and
//! stopped after it: an idle engine would hold its memory and no slot.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use chrono::{DateTime, Utc};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use tokio::sync::{Mutex, Semaphore};

use crate::core::analysis::{self, AnswerError};
use crate::core::review::{Eval, PositionEval};
use crate::engine::{Engine, EngineError};
use crate::storage::{StorageError, Store};

/// How long a slot's lease outlives the review's deadline: time enough to
/// kill the engine and give the slot back, after which it is free anyway.
const LEASE_GRACE: Duration = Duration::from_secs(60);
/// The longest the engine may stay silent, within the review's deadline.
const SILENCE: Duration = Duration::from_secs(60);

/// How reviews are made (`[analysis]` in the configuration).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewSettings {
    /// The UCI engine; `None`: no reviews (the commands say so).
    pub engine: Option<std::path::PathBuf>,
    /// Nodes searched per position: fixed, so a review is reproducible.
    pub nodes: u64,
    pub threads: u32,
    pub hash_mb: u32,
    /// Reviews waiting or running at once in this process; more are
    /// refused until one ends.
    pub max_queue: usize,
    /// Engines running at once across every process sharing the database.
    pub max_engines: u32,
    /// Review every game that ends, and post the review in its channel.
    pub automatic: bool,
    /// How long the engine may stay silent before it is given up.
    pub timeout: Duration,
    /// The longest a whole review may take, the engine's start included.
    pub deadline: Duration,
}

impl Default for ReviewSettings {
    fn default() -> ReviewSettings {
        ReviewSettings {
            engine: None,
            nodes: 100_000,
            threads: 1,
            hash_mb: 64,
            max_queue: 8,
            max_engines: 1,
            automatic: false,
            timeout: SILENCE,
            deadline: Duration::from_secs(300),
        }
    }
}

/// Why a game's positions were not evaluated.
#[derive(Debug, thiserror::Error)]
pub(super) enum ReviewerError {
    #[error("no engine is configured")]
    NoEngine,
    #[error("{0} reviews are queued already")]
    Busy(usize),
    #[error("all {0} engines are running")]
    EnginesBusy(u32),
    #[error("the review took longer than {0:?}")]
    TimedOut(Duration),
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error("the engine's answer for ply {ply} is wrong: {error}")]
    WrongAnswer { ply: usize, error: AnswerError },
    #[error(transparent)]
    Storage(#[from] StorageError),
}

pub(super) struct Reviewer {
    settings: ReviewSettings,
    /// One permit per review waiting or running.
    queue: Arc<Semaphore>,
    /// Held while this process's engine runs: one at a time.
    running: Mutex<()>,
    /// This process's name on the engine slots it leases.
    holder: String,
}

impl Reviewer {
    pub(super) fn new(settings: ReviewSettings) -> Reviewer {
        Reviewer {
            queue: Arc::new(Semaphore::new(settings.max_queue.max(1))),
            running: Mutex::new(()),
            holder: holder_name(),
            settings,
        }
    }

    pub(super) fn settings(&self) -> &ReviewSettings {
        &self.settings
    }

    pub(super) fn available(&self) -> bool {
        self.settings.engine.is_some()
    }

    /// Evaluates every position, in order (waiting behind this process's
    /// earlier reviews, refused if every engine slot is held), and names
    /// the engine. Over positions are judged without it: a mate is won by
    /// the side that gave it, any other end is level.
    pub(super) async fn evaluate(
        &self,
        store: &Store,
        positions: &[Chess],
        mode: CastlingMode,
        now: DateTime<Utc>,
    ) -> Result<(String, Vec<PositionEval>), ReviewerError> {
        let Some(path) = &self.settings.engine else {
            return Err(ReviewerError::NoEngine);
        };
        let _place = Arc::clone(&self.queue).try_acquire_owned().map_err(|_| {
            ReviewerError::Busy(self.settings.max_queue - self.queue.available_permits())
        })?;
        let _turn = self.running.lock().await;
        let slots = self.settings.max_engines;
        let until = now + (self.settings.deadline + LEASE_GRACE);
        let Some(slot) = store
            .lease_engine_slot(slots, &self.holder, now, until)
            .await?
        else {
            return Err(ReviewerError::EnginesBusy(slots));
        };
        let done = self.evaluate_in_time(path, positions, mode).await;
        if let Err(error) = store.release_engine_slot(slot, &self.holder).await {
            // The lease runs out by itself.
            tracing::warn!(kind = error.kind(), %error, slot, "engine slot not given back");
        }
        done
    }

    /// Runs an engine of its own over `positions` within the deadline; the
    /// engine is stopped after, or killed (and reaped) if anything failed.
    async fn evaluate_in_time(
        &self,
        path: &Path,
        positions: &[Chess],
        mode: CastlingMode,
    ) -> Result<(String, Vec<PositionEval>), ReviewerError> {
        let settings = &self.settings;
        let deadline = settings.deadline;
        let mut engine = Engine::spawn(path, settings.timeout.min(deadline))?;
        let run = async {
            engine.handshake(settings.threads, settings.hash_mb).await?;
            evaluate_all(&mut engine, positions, mode, settings.nodes).await
        };
        let done = match tokio::time::timeout(deadline, run).await {
            Ok(done) => done,
            Err(_) => Err(ReviewerError::TimedOut(deadline)),
        };
        let name = engine.name().to_owned();
        let ended = match done {
            Ok(_) => engine.stop().await,
            Err(_) => engine.kill().await,
        };
        if let Err(error) = ended {
            tracing::warn!(%error, "the engine did not end cleanly");
        }
        done.map(|evals| (name, evals))
    }
}

/// A name no other process's reviewer has: the process, the instant and a
/// count within the process.
fn holder_name() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("{}-{nanos}-{n}", std::process::id())
}

/// Every position's evaluation, each answer checked against its position.
async fn evaluate_all(
    engine: &mut Engine,
    positions: &[Chess],
    mode: CastlingMode,
    nodes: u64,
) -> Result<Vec<PositionEval>, ReviewerError> {
    engine.set_chess960(mode == CastlingMode::Chess960).await?;
    let mut evals = Vec::with_capacity(positions.len());
    for position in positions {
        if let Some(eval) = over_eval(position) {
            evals.push(PositionEval {
                eval,
                line: Vec::new(),
            });
            continue;
        }
        let fen = Fen::from_position(position, EnPassantMode::Legal).to_string();
        let analysis = engine.analyse(&fen, nodes).await?;
        analysis::check_answer(position, analysis.eval, &analysis.line).map_err(|error| {
            ReviewerError::WrongAnswer {
                ply: evals.len(),
                error,
            }
        })?;
        evals.push(PositionEval {
            eval: analysis.eval,
            line: analysis.line,
        });
    }
    Ok(evals)
}

/// The evaluation of a position the rules have ended, if they have.
fn over_eval(position: &Chess) -> Option<Eval> {
    if position.is_checkmate() {
        // The side to move is mated.
        return Some(Eval::Mate(if position.turn().is_white() { -1 } else { 1 }));
    }
    (position.is_stalemate() || position.is_insufficient_material()).then_some(Eval::Centipawns(0))
}
