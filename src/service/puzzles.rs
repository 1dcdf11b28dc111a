//! `/puzzle`: the server's own puzzles, drawn by reviews from its finished
//! games (a blunder that handed the opponent a clear win; see
//! `core::review::puzzle_plies`). A player gets one at a time, answers it
//! once with a move in any notation the move reader accepts, and the
//! server keeps a table of its solvers. Never from a running game: only
//! finished games are reviewed.

use chrono::{DateTime, Utc};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

use super::notation::Typing;
use super::texts;
use super::{Attempt, BoardView, Context, Service};
use crate::core::command::PuzzleAction;
use crate::core::game::GameError;
use crate::core::notation::{self, Style, write_san};
use crate::i18n::Arg;
use crate::storage::{Commit, Puzzle, PuzzleAttempt, StorageError};

/// Solvers listed in the text; the picture shows twice as many.
const SOLVERS_SHOWN: usize = 10;

impl Service {
    pub(super) async fn puzzle(
        &self,
        ctx: &Context,
        action: &PuzzleAction,
        now: DateTime<Utc>,
    ) -> Attempt {
        match action {
            PuzzleAction::Next => self.next_puzzle(ctx, now).await,
            PuzzleAction::Answer(text) => self.answer_puzzle(ctx, text, now).await,
            PuzzleAction::Solvers => self.puzzle_solvers(ctx).await,
        }
    }

    async fn next_puzzle(&self, ctx: &Context, now: DateTime<Utc>) -> Attempt {
        // One at a time: the one given and not answered comes back.
        if let Some(open) = self.store.open_puzzle(ctx.server.id, ctx.player.id).await? {
            return Ok(vec![self.puzzle_reply(ctx, &open).await?]);
        }
        let Some(puzzle) = self.store.next_puzzle(ctx.server.id, ctx.player.id).await? else {
            return Ok(vec![self.private(ctx, self.text(ctx, "puzzle-none", &[]))]);
        };
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            puzzle_attempt: Some(PuzzleAttempt::Given {
                puzzle: puzzle.id,
                player: ctx.player.id,
                at: now,
            }),
            ..Commit::default()
        };
        let replies = vec![self.puzzle_reply(ctx, &puzzle).await?];
        let (_, replies) = self.commit_act(ctx, commit, now, move |_| replies).await?;
        Ok(replies)
    }

    /// The puzzle's position, the solver's side below, the mistake that
    /// made it highlighted, and how to answer.
    async fn puzzle_reply(
        &self,
        ctx: &Context,
        puzzle: &Puzzle,
    ) -> Result<super::Reply, StorageError> {
        // The move that led here: the game's ply before the puzzle's.
        let record = self.store.game(puzzle.game_id).await?;
        let mistake = record.and_then(|r| {
            let ply = puzzle.ply.checked_sub(1)? as usize;
            r.moves.get(ply).map(|m| m.uci.clone())
        });
        let position = puzzle_position(puzzle)?;
        let solver = position.turn();
        let side = self.text(ctx, &format!("review-side-{solver}"), &[]);
        let text = self.text(
            ctx,
            "puzzle-shown",
            &[
                ("puzzle", Arg::from(puzzle.id)),
                ("game", Arg::from(puzzle.game_id)),
                ("side", Arg::from(side)),
            ],
        );
        let mut reply = self.private(ctx, text);
        reply.board = Some(BoardView {
            game: puzzle.game_id,
            fen: puzzle.fen.clone(),
            last_move: mistake,
            orientation: solver.to_string(),
            white: self.text(ctx, "review-side-white", &[]),
            black: self.text(ctx, "review-side-black", &[]),
            flag_at: None,
            result: None,
            white_clock: None,
            black_clock: None,
        });
        Ok(reply)
    }

    async fn answer_puzzle(&self, ctx: &Context, typed: &str, now: DateTime<Utc>) -> Attempt {
        let Some(puzzle) = self.store.open_puzzle(ctx.server.id, ctx.player.id).await? else {
            return Ok(vec![
                self.private(ctx, self.text(ctx, "puzzle-none-open", &[])),
            ]);
        };
        let position = puzzle_position(&puzzle)?;
        let typing = Typing::of(ctx);
        let answer = match notation::parse_move(&position, typed, &typing.reader) {
            Ok(answer) => answer,
            // An unreadable, illegal or ambiguous answer is not counted.
            Err(error) => {
                let error = GameError::Move(error);
                let lang = ctx.lang;
                let refusal =
                    texts::game_refusal(&self.i18n, lang, &typing, &error, &position, typed);
                return Ok(vec![self.private(ctx, refusal)]);
            }
        };
        let solution = puzzle
            .solution
            .parse::<UciMove>()
            .ok()
            .and_then(|uci| uci.to_move(&position).ok())
            .ok_or_else(|| StorageError::Corrupt(format!("puzzle {}'s solution", puzzle.id)))?;
        let solved = answer == solution;
        let style = Style::for_lang(ctx.lang);
        let args = [
            ("puzzle", Arg::from(puzzle.id)),
            ("answer", Arg::from(write_san(&position, answer, style))),
            ("solution", Arg::from(write_san(&position, solution, style))),
        ];
        let id = if solved {
            "puzzle-solved"
        } else {
            "puzzle-missed"
        };
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            puzzle_attempt: Some(PuzzleAttempt::Answered {
                puzzle: puzzle.id,
                player: ctx.player.id,
                solved,
                at: now,
            }),
            ..Commit::default()
        };
        let replies = vec![self.private(ctx, self.text(ctx, id, &args))];
        let (_, replies) = self.commit_act(ctx, commit, now, move |_| replies).await?;
        Ok(replies)
    }

    async fn puzzle_solvers(&self, ctx: &Context) -> Attempt {
        let solvers = self
            .store
            .puzzle_solvers(ctx.server.id, 2 * SOLVERS_SHOWN)
            .await?;
        if solvers.is_empty() {
            return Ok(vec![self.public(
                ctx,
                None,
                self.text(ctx, "puzzle-solvers-none", &[]),
            )]);
        }
        let mut lines = vec![self.text(ctx, "puzzle-solvers-header", &[])];
        for (rank, solver) in solvers.iter().take(SOLVERS_SHOWN).enumerate() {
            lines.push(self.text(
                ctx,
                "puzzle-solvers-line",
                &[
                    ("rank", Arg::from(rank as i64 + 1)),
                    ("player", Arg::from(solver.name.as_str())),
                    ("solved", Arg::from(i64::from(solver.solved))),
                    ("tried", Arg::from(i64::from(solver.tried))),
                ],
            ));
        }
        let mut reply = self.public(ctx, None, lines.join("\n"));
        let header: Vec<String> = ["rank", "player", "solved", "tried"]
            .iter()
            .map(|column| self.text(ctx, &format!("puzzle-solvers-png-{column}"), &[]))
            .collect();
        let cells: Vec<Vec<String>> = solvers
            .iter()
            .enumerate()
            .map(|(rank, s)| {
                vec![
                    (rank + 1).to_string(),
                    s.name.clone(),
                    s.solved.to_string(),
                    s.tried.to_string(),
                ]
            })
            .collect();
        reply
            .attachments
            .extend(self.table_picture(ctx, "puzzle-solvers", &header, &cells));
        Ok(vec![reply])
    }
}

/// A kept puzzle's position (a Chess960 game's in its own castling).
fn puzzle_position(puzzle: &Puzzle) -> Result<Chess, StorageError> {
    let fen: Fen = puzzle
        .fen
        .parse()
        .map_err(|_| StorageError::Corrupt(format!("puzzle {}'s position", puzzle.id)))?;
    [CastlingMode::Standard, CastlingMode::Chess960]
        .into_iter()
        .find_map(|mode| fen.clone().into_position(mode).ok())
        .ok_or_else(|| StorageError::Corrupt(format!("puzzle {}'s position", puzzle.id)))
}
