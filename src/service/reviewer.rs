//! The engine behind reviews: one process, started when first needed and
//! reused, with a bounded queue in front of it so that no number of
//! `/review`s can pile up unbounded work.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use tokio::sync::{Mutex, Semaphore};

use crate::core::review::{Eval, PositionEval};
use crate::engine::{Engine, EngineError};

/// How reviews are made (`[analysis]` in the configuration).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewSettings {
    /// The UCI engine; `None`: no reviews (the commands say so).
    pub engine: Option<PathBuf>,
    /// Nodes searched per position: fixed, so a review is reproducible.
    pub nodes: u64,
    pub threads: u32,
    pub hash_mb: u32,
    /// Reviews waiting or running at once; more are refused until one ends.
    pub max_queue: usize,
    /// Review every game that ends, and post the review in its channel.
    pub automatic: bool,
    /// How long the engine may stay silent before it is given up.
    pub timeout: Duration,
}

impl Default for ReviewSettings {
    fn default() -> ReviewSettings {
        ReviewSettings {
            engine: None,
            nodes: 100_000,
            threads: 1,
            hash_mb: 64,
            max_queue: 8,
            automatic: false,
            timeout: Duration::from_secs(60),
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
    #[error(transparent)]
    Engine(#[from] EngineError),
}

pub(super) struct Reviewer {
    settings: ReviewSettings,
    /// One permit per review waiting or running.
    queue: Arc<Semaphore>,
    /// The running engine; `None` until the first review, or after it failed.
    engine: Mutex<Option<Engine>>,
}

impl Reviewer {
    pub(super) fn new(settings: ReviewSettings) -> Reviewer {
        Reviewer {
            queue: Arc::new(Semaphore::new(settings.max_queue.max(1))),
            engine: Mutex::new(None),
            settings,
        }
    }

    pub(super) fn settings(&self) -> &ReviewSettings {
        &self.settings
    }

    pub(super) fn available(&self) -> bool {
        self.settings.engine.is_some()
    }

    /// Evaluates every position, in order (waiting behind earlier reviews),
    /// and names the engine. Over positions are judged without it: a mate
    /// is won by the side that gave it, any other end is level.
    pub(super) async fn evaluate(
        &self,
        positions: &[Chess],
        mode: CastlingMode,
    ) -> Result<(String, Vec<PositionEval>), ReviewerError> {
        let Some(path) = &self.settings.engine else {
            return Err(ReviewerError::NoEngine);
        };
        let _place = Arc::clone(&self.queue).try_acquire_owned().map_err(|_| {
            ReviewerError::Busy(self.settings.max_queue - self.queue.available_permits())
        })?;
        let mut slot = self.engine.lock().await;
        if slot.is_none() {
            let started = Engine::start(
                path,
                self.settings.threads,
                self.settings.hash_mb,
                self.settings.timeout,
            )
            .await?;
            *slot = Some(started);
        }
        let engine = slot.as_mut().ok_or(EngineError::Stopped)?;
        match evaluate_all(engine, positions, mode, self.settings.nodes).await {
            Ok(evals) => Ok((engine.name().to_owned(), evals)),
            Err(error) => {
                // A broken engine is started afresh for the next review.
                *slot = None;
                Err(error.into())
            }
        }
    }
}

async fn evaluate_all(
    engine: &mut Engine,
    positions: &[Chess],
    mode: CastlingMode,
    nodes: u64,
) -> Result<Vec<PositionEval>, EngineError> {
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
