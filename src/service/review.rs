//! `/review`: an engine review of a finished game (issue 24) — each side's
//! accuracy, average centipawn loss, inaccuracies, mistakes and blunders
//! with the better move, an evaluation graph and the annotated PGN — and
//! the same review posted by itself when a game ends, if the operator
//! turned that on.
//!
//! Fair play: a running game is never reviewed, and a tournament's organiser
//! may keep its games from review until their round is over. A review is
//! kept once made; the figures are worked out again from its evaluations.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use shakmaty::{Chess, Color, Position};

use super::games::restore;
use super::outbox::notices_on;
use super::reviewer::ReviewerError;
use super::texts::Names;
use super::{Attachment, Attempt, Context, GameEvent, Reply, ReviewView, Service};
use crate::core::event::{Event, ReviewSide};
use crate::core::game::Game;
use crate::core::notation::{Lang, Style, write_san};
use crate::core::pgn;
use crate::core::review::{self, Judgement, PositionEval};
use crate::i18n::Arg;
use crate::render::{EvalChartLabels, EvalMark};
use crate::storage::{
    Commit, GameRecord, NewPuzzle, NewReview, Status, StorageError, StoredReview,
};

/// The longest game reviewed, in plies: a bound on the engine time one
/// request can ask for (about a minute at the default nodes).
pub(super) const MAX_REVIEW_PLIES: usize = 400;
/// Mistakes and blunders named in the text; the PGN has them all.
const LISTED_MOVES: usize = 8;
/// Games ended this long ago at most are reviewed by themselves.
const AUTOMATIC_WINDOW: Duration = Duration::days(2);
/// Games looked at per round of automatic reviews.
const AUTOMATIC_BATCH: usize = 20;

/// Why a game gets no review (now).
enum Refusal {
    Running,
    /// Over before a move was made (aborted, a no-show): nothing to review.
    NoMoves,
    WaitsForRound,
    TooLong(usize),
    NoEngine,
    Busy(usize),
    /// Every engine slot of the database is held (by this or other processes).
    EnginesBusy(u32),
    /// The engine ran past the review's deadline, in seconds, and was killed.
    TimedOut(u64),
    /// The engine crashed, or said what cannot be believed: nothing is kept.
    EngineFailed,
    /// The store failed: not the review's refusal, the act's error.
    Storage(StorageError),
}

impl Service {
    pub(super) async fn review(
        &self,
        ctx: &Context,
        game_id: Option<i64>,
        now: DateTime<Utc>,
    ) -> Attempt {
        let Some(record) = self.finished_game_to_review(ctx, game_id).await? else {
            let text = match game_id {
                Some(id) => self.text(ctx, "game-not-found", &[("game", Arg::from(id))]),
                None => self.text(ctx, "review-no-finished-game", &[]),
            };
            return Ok(vec![self.private(ctx, text)]);
        };
        let game = restore(&record)?;
        let kept = match self.review_of(&record, &game, now).await? {
            Ok(kept) => kept,
            Err(refusal) => return Ok(vec![self.review_refusal(ctx, &record, refusal)]),
        };
        let mut reply = self.review_reply(ctx.lang, &record, &game, &kept)?;
        reply.to = Some(ctx.player.platform_id.clone());
        Ok(vec![reply])
    }

    /// The game named (on this server), or the caller's latest finished
    /// game in this channel (or the one running, which is refused).
    async fn finished_game_to_review(
        &self,
        ctx: &Context,
        game_id: Option<i64>,
    ) -> Result<Option<GameRecord>, StorageError> {
        if let Some(id) = game_id {
            return Ok(self
                .store
                .game(id)
                .await?
                .filter(|record| record.server_id == ctx.server.id));
        }
        let games = self
            .store
            .games_in_channel(ctx.channel.id, ctx.player.id, false)
            .await?;
        // The latest finished game; else a running one, to be told it runs.
        let finished = games
            .iter()
            .find(|g| matches!(g.state, Status::Over { .. }));
        match finished.or(games.first()) {
            Some(summary) => Ok(self.store.game(summary.id).await?),
            None => Ok(None),
        }
    }

    /// The kept review of a game, made now if there is none and the game
    /// may be reviewed.
    async fn review_of(
        &self,
        record: &GameRecord,
        game: &Game,
        now: DateTime<Utc>,
    ) -> Result<Result<StoredReview, Refusal>, StorageError> {
        if !game.is_over() {
            return Ok(Err(Refusal::Running));
        }
        if game.moves().is_empty() {
            return Ok(Err(Refusal::NoMoves));
        }
        if self.store.review_waits_for_round(record.id).await? {
            return Ok(Err(Refusal::WaitsForRound));
        }
        if let Some(kept) = self.store.review(record.id).await? {
            return Ok(Ok(kept));
        }
        let new = match self.make_review(record, game, now).await {
            Ok(new) => new,
            Err(Refusal::Storage(error)) => return Err(error),
            Err(refusal) => return Ok(Err(refusal)),
        };
        let kept = new.kept();
        let commit = Commit {
            review: Some(new),
            ..Commit::default()
        };
        self.store.commit(commit, now, |_| ()).await?;
        // Another process may have kept its own first: show the kept one.
        Ok(Ok(self.store.review(record.id).await?.unwrap_or(kept)))
    }

    /// Evaluates every position of `game` with the engine, and picks its puzzles.
    async fn make_review(
        &self,
        record: &GameRecord,
        game: &Game,
        now: DateTime<Utc>,
    ) -> Result<NewReview, Refusal> {
        if game.moves().len() > MAX_REVIEW_PLIES {
            return Err(Refusal::TooLong(MAX_REVIEW_PLIES));
        }
        if !self.reviewer.available() {
            return Err(Refusal::NoEngine);
        }
        let positions = positions_of(game);
        let mode = game.variant().castling_mode();
        let evaluated = self
            .reviewer
            .evaluate(&self.store, &positions, mode, now)
            .await;
        let (engine, evals) = match evaluated {
            Ok(done) => done,
            Err(error) => return Err(refusal_for(error, record.id)),
        };
        let first = game.start_position().turn();
        let puzzles = review::puzzle_plies(&evals, first)
            .into_iter()
            .filter_map(|ply| {
                Some(NewPuzzle {
                    ply: ply as u32,
                    fen: shakmaty::fen::Fen::from_position(
                        &positions[ply],
                        shakmaty::EnPassantMode::Legal,
                    )
                    .to_string(),
                    solution: evals[ply].line.first()?.clone(),
                })
            })
            .collect();
        Ok(NewReview {
            game_id: record.id,
            engine,
            nodes: self.reviewer.settings().nodes,
            evals: review::evals_to_text(&evals),
            reviewed_at: now,
            puzzles,
        })
    }

    fn review_refusal(&self, ctx: &Context, record: &GameRecord, refusal: Refusal) -> Reply {
        let game = ("game", Arg::from(record.id));
        let text = match refusal {
            Refusal::Running => self.text(ctx, "review-running", &[game]),
            Refusal::NoMoves => self.text(ctx, "review-no-moves", &[game]),
            Refusal::WaitsForRound => self.text(ctx, "review-after-round", &[game]),
            Refusal::TooLong(max) => self.text(
                ctx,
                "review-too-long",
                &[game, ("max", Arg::from(max as i64 / 2))],
            ),
            Refusal::NoEngine => self.text(ctx, "review-no-engine", &[]),
            Refusal::Busy(waiting) => self.text(
                ctx,
                "review-busy",
                &[("waiting", Arg::from(waiting as i64))],
            ),
            Refusal::EnginesBusy(max) => self.text(
                ctx,
                "review-engines-busy",
                &[("max", Arg::from(i64::from(max)))],
            ),
            Refusal::TimedOut(seconds) => self.text(
                ctx,
                "review-timed-out",
                &[game, ("seconds", Arg::from(seconds as i64))],
            ),
            Refusal::EngineFailed => self.text(ctx, "review-failed", &[game]),
            // Not met: `review_of` returns it as the act's error.
            Refusal::Storage(_) => self.text(ctx, "review-failed", &[game]),
        };
        self.private(ctx, text)
    }

    /// The review told in `lang`: both sides' figures and the worst moves,
    /// with the graph and the annotated PGN attached when sent.
    fn review_reply(
        &self,
        lang: Lang,
        record: &GameRecord,
        game: &Game,
        kept: &StoredReview,
    ) -> Result<Reply, StorageError> {
        let evals = read_evals(kept)?;
        let first = game.start_position().turn();
        let plain = review::evals_only(&evals);
        let (white, black) = review::figures(&plain, first).unwrap_or_default();
        let names = Names::new(&record.white_player, &record.black_player);
        let text = |id: &str, args: &[(&str, Arg)]| self.i18n.text(lang, id, args);
        let mut lines = vec![text(
            "review-header",
            &[
                ("game", Arg::from(record.id)),
                ("white", Arg::from(names.display(Color::White))),
                ("black", Arg::from(names.display(Color::Black))),
                ("engine", Arg::from(kept.engine.as_str())),
                ("nodes", Arg::from(kept.nodes as i64)),
            ],
        )];
        for (side, figures) in [(Color::White, white), (Color::Black, black)] {
            let shown = ReviewSide::from(figures);
            lines.push(text(
                "review-side",
                &[
                    ("side", Arg::from(text(&format!("review-side-{side}"), &[]))),
                    ("player", Arg::from(names.display(side))),
                    ("accuracy", Arg::from(format!("{:.1}", shown.accuracy))),
                    ("acpl", Arg::from(i64::from(shown.acpl))),
                    ("inaccuracies", Arg::from(i64::from(shown.inaccuracies))),
                    ("mistakes", Arg::from(i64::from(shown.mistakes))),
                    ("blunders", Arg::from(i64::from(shown.blunders))),
                ],
            ));
        }
        lines.extend(self.worst_moves(lang, game, &evals));
        let event = Event::Review {
            white: white.into(),
            black: black.into(),
        };
        Ok(Reply {
            channel: record.channel.clone(),
            text: lines.join("\n"),
            events: vec![GameEvent {
                game: record.id,
                event,
            }],
            review: Some(ReviewView {
                game: record.id,
                lang,
            }),
            ..Reply::default()
        })
    }

    /// `12... Qxd4?? (Nf6 was best)` for each mistake and blunder, worst
    /// kinds of move first within the game's order, at most [`LISTED_MOVES`].
    fn worst_moves(&self, lang: Lang, game: &Game, evals: &[PositionEval]) -> Vec<String> {
        let style = Style::for_lang(lang);
        let plain = review::evals_only(evals);
        let judgements = review::move_judgements(&plain, game.start_position().turn());
        let mut position = game.start_position().clone();
        let mut lines = Vec::new();
        for ((index, played), judgement) in game.moves().iter().enumerate().zip(judgements) {
            let before = position.clone();
            position.play_unchecked(played.m);
            let Some(judgement @ (Judgement::Mistake | Judgement::Blunder)) = judgement else {
                continue;
            };
            if lines.len() == LISTED_MOVES {
                break;
            }
            let number = before.fullmoves().get();
            let dots = if before.turn().is_white() { "." } else { "..." };
            let san = write_san(&before, played.m, style);
            let best = evals
                .get(index)
                .and_then(|e| e.line.first())
                .and_then(|uci| uci.parse::<shakmaty::uci::UciMove>().ok())
                .and_then(|uci| uci.to_move(&before).ok())
                .filter(|best| *best != played.m)
                .map(|best| write_san(&before, best, style));
            let kind = match judgement {
                Judgement::Blunder => "review-blunder",
                _ => "review-mistake",
            };
            let args = [
                ("move", Arg::from(format!("{number}{dots} {san}"))),
                ("best", Arg::from(best.unwrap_or_else(|| "none".to_owned()))),
            ];
            lines.push(self.i18n.text(lang, kind, &args));
        }
        lines
    }

    /// Attaches the graph and the annotated PGN of every reply that carries
    /// a review (they are not stored with an answer: made again to send).
    pub(super) async fn attach_reviews(&self, replies: &mut [Reply]) {
        for reply in replies.iter_mut() {
            let Some(view) = reply.review else { continue };
            if !reply.attachments.is_empty() {
                continue;
            }
            match self.review_files(view).await {
                Ok(files) => reply.attachments.extend(files),
                // The text has the figures: sent without the files.
                Err(error) => tracing::warn!(?error, game = view.game, "review files failed"),
            }
        }
    }

    async fn review_files(&self, view: ReviewView) -> Result<Vec<Attachment>, StorageError> {
        let record = self
            .store
            .game(view.game)
            .await?
            .ok_or(StorageError::NotFound("game"))?;
        let kept = self
            .store
            .review(view.game)
            .await?
            .ok_or(StorageError::NotFound("review"))?;
        let game = restore(&record)?;
        let evals = read_evals(&kept)?;
        let mut files = Vec::new();
        if let Some(png) = self.review_chart(view.lang, &game, &evals) {
            files.push(Attachment {
                filename: format!("review-{}.png", record.id),
                content_type: "image/png".to_owned(),
                bytes: png.into(),
            });
        }
        let server = self.store.server(record.server_id).await?;
        let names = Names::new(&record.white_player, &record.black_player);
        let mut tags = super::info::tags_for(&record, &names, server.as_ref());
        self.tournament_tags(&record, &mut tags).await?;
        let text = pgn::export_reviewed(&game, &tags, &evals, &[]);
        files.push(Attachment {
            filename: format!("game-{}-review.pgn", record.id),
            content_type: "application/x-chess-pgn".to_owned(),
            bytes: Arc::from(text.as_bytes()),
        });
        Ok(files)
    }

    fn review_chart(&self, lang: Lang, game: &Game, evals: &[PositionEval]) -> Option<Vec<u8>> {
        let plain = review::evals_only(evals);
        let wins: Vec<f64> = plain.iter().map(|e| e.win_percent()).collect();
        let marks: Vec<(usize, EvalMark)> =
            review::move_judgements(&plain, game.start_position().turn())
                .into_iter()
                .enumerate()
                .filter_map(|(ply, judgement)| {
                    Some((
                        ply,
                        match judgement? {
                            Judgement::Inaccuracy => EvalMark::Inaccuracy,
                            Judgement::Mistake => EvalMark::Mistake,
                            Judgement::Blunder => EvalMark::Blunder,
                        },
                    ))
                })
                .collect();
        let words: Vec<String> = ["title", "x", "y", "inaccuracy", "mistake", "blunder"]
            .iter()
            .map(|word| self.i18n.text(lang, &format!("review-chart-{word}"), &[]))
            .collect();
        let labels = EvalChartLabels {
            title: &words[0],
            x: &words[1],
            y: &words[2],
            inaccuracy: &words[3],
            mistake: &words[4],
            blunder: &words[5],
        };
        let first_move = game.start_position().fullmoves().get();
        match crate::render::eval_chart_png(&labels, &wins, &marks, first_move) {
            Ok(png) => Some(png),
            Err(error) => {
                tracing::warn!(%error, "review graph failed");
                None
            }
        }
    }

    /// Whether games are reviewed by themselves when they end (with an engine).
    pub fn reviews_automatic(&self) -> bool {
        self.reviewer.settings().automatic && self.reviewer.available()
    }

    /// Reviews games that ended lately and have none, when the operator
    /// asked for it, posting each review in its game's channel (in the
    /// server's language: it addresses both players) through the outbox,
    /// in the same commit as the review. Returns how many were made.
    pub async fn review_finished_games(&self, now: DateTime<Utc>) -> usize {
        if !self.reviews_automatic() {
            return 0;
        }
        let due = match self
            .store
            .games_awaiting_review(now - AUTOMATIC_WINDOW, AUTOMATIC_BATCH)
            .await
        {
            Ok(due) => due,
            Err(error) => {
                tracing::error!(kind = error.kind(), %error, "cannot find games to review");
                return 0;
            }
        };
        let mut made = 0;
        for id in due {
            match self.review_and_post(id, now).await {
                Ok(true) => made += 1,
                Ok(false) => {}
                Err(error) => {
                    tracing::error!(kind = error.kind(), %error, game = id, "automatic review");
                }
            }
        }
        if made > 0 {
            // The outbox worker sleeps with the scheduler: the posts are due now.
            self.deadline_changed.wake();
        }
        made
    }

    /// One automatic review; `false` when the game is not to be reviewed now.
    async fn review_and_post(&self, id: i64, now: DateTime<Utc>) -> Result<bool, StorageError> {
        let Some(record) = self.store.game(id).await? else {
            return Ok(false);
        };
        let game = restore(&record)?;
        if self
            .failed_reviews
            .lock()
            .is_ok_and(|failed| failed.contains(&id))
            || self.store.review_waits_for_round(id).await?
        {
            return Ok(false);
        }
        let new = match self.make_review(&record, &game, now).await {
            Ok(new) => new,
            Err(Refusal::Storage(error)) => return Err(error),
            // Tried again at the next round.
            Err(Refusal::Busy(_) | Refusal::EnginesBusy(_)) => return Ok(false),
            Err(_) => {
                // Not tried again by this process (a restart tries once more).
                if let Ok(mut failed) = self.failed_reviews.lock() {
                    failed.insert(id);
                }
                return Ok(false);
            }
        };
        let server = self.store.server(record.server_id).await?;
        let lang = self.language_of(server.as_ref());
        let kept = new.kept();
        let reply = self.review_reply(lang, &record, &game, &kept)?;
        let commit = Commit {
            act_key: Some(format!("review:{id}")),
            review: Some(new),
            outgoing: notices_on(record.white_player.platform, record.server_id),
            ..Commit::default()
        };
        match self.store.commit(commit, now, move |_| vec![reply]).await {
            Ok(_) => Ok(true),
            // Reviewed and posted already (another process, or a replay).
            Err(StorageError::DuplicateAct(_)) => Ok(false),
            Err(error) => Err(error),
        }
    }
}

/// The refusal a failed evaluation of game `game` gets; the engine's
/// failures are logged for the operator (the player is told it failed).
fn refusal_for(error: ReviewerError, game: i64) -> Refusal {
    match error {
        ReviewerError::NoEngine => Refusal::NoEngine,
        ReviewerError::Busy(waiting) => Refusal::Busy(waiting),
        ReviewerError::EnginesBusy(max) => Refusal::EnginesBusy(max),
        ReviewerError::Storage(error) => Refusal::Storage(error),
        ReviewerError::TimedOut(deadline) => {
            tracing::error!(
                ?deadline,
                game,
                "the engine ran past the review's deadline: killed"
            );
            Refusal::TimedOut(deadline.as_secs().max(1))
        }
        error @ (ReviewerError::Engine(_) | ReviewerError::WrongAnswer { .. }) => {
            tracing::error!(%error, game, "the engine failed during a review: nothing kept");
            Refusal::EngineFailed
        }
    }
}

/// Every position of the game, the start first.
fn positions_of(game: &Game) -> Vec<Chess> {
    let mut position = game.start_position().clone();
    let mut positions = vec![position.clone()];
    for played in game.moves() {
        position.play_unchecked(played.m);
        positions.push(position.clone());
    }
    positions
}

fn read_evals(kept: &StoredReview) -> Result<Vec<PositionEval>, StorageError> {
    review::evals_from_text(&kept.evals)
        .ok_or_else(|| StorageError::Corrupt(format!("review of game {}", kept.game_id)))
}
