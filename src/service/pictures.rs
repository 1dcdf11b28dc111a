//! Board images and game GIFs attached to replies.

use std::sync::Arc;

use shakmaty::Color;

use super::games::Pick;
use super::renders::Refusal;
use super::texts::Names;
use super::{Attachment, Attempt, BoardImages, BoardView, Context, Reply, Service};
use crate::core::event::{Event, GameResult};
use crate::core::game::Status;
use crate::i18n::Arg;
use crate::render::{self, BoardOptions, Caption, GifLimits, PlayerLine};

/// GIFs are drawn smaller than boards: one frame per ply adds up.
const GIF_SIZE: u32 = 360;

impl Service {
    /// Gives every reply that shows a position its board PNG (`board.png`),
    /// when the readers see images and the operator has not turned them
    /// off. The entry points that answer call it last: drawing is the
    /// costliest part of an answer (2–3 ms at 480–720 px), so it stays out
    /// of the act and its commit.
    pub(super) fn draw_boards(&self, replies: &mut [Reply], wanted: BoardImages) {
        if !self.config.board_images || wanted == BoardImages::Omitted {
            return;
        }
        for reply in replies {
            let Some(view) = &reply.board else { continue };
            if reply.attachments.iter().any(|a| a.filename == "board.png") {
                continue;
            }
            // A finished game has no side to move (an aborted one has no result).
            let over = view.result.is_some()
                || reply
                    .events
                    .iter()
                    .any(|e| matches!(e.event, Event::GameOver { .. }));
            match self.board_png(view, over) {
                Ok(png) => reply.attachments.push(Attachment {
                    filename: "board.png".to_owned(),
                    content_type: "image/png".to_owned(),
                    bytes: png.into(),
                }),
                // The text already shows the position: send it without the picture.
                Err(error) => tracing::warn!(%error, game = view.game, "board image failed"),
            }
        }
    }

    fn board_options(&self, orientation: Color, caption: Caption) -> BoardOptions {
        BoardOptions {
            size: self.config.board_size,
            orientation,
            coordinates: true,
            theme: self.config.board_theme,
            caption: Some(caption),
        }
    }

    fn board_png(&self, view: &BoardView, over: bool) -> Result<Vec<u8>, render::RenderError> {
        let turn = match view.fen.split_whitespace().nth(1) {
            Some("b") => Color::Black,
            _ => Color::White,
        };
        let result = view.result.as_deref().and_then(GameResult::from_pgn);
        let caption = with_result(
            Caption {
                white: with_clock(PlayerLine::new(&view.white), view.white_clock.as_deref()),
                black: with_clock(PlayerLine::new(&view.black), view.black_clock.as_deref()),
                turn: (!over).then_some(turn),
            },
            result,
        );
        let options = self.board_options(render::color_from_name(&view.orientation), caption);
        render::board_png(&view.fen, view.last_move.as_deref(), &options)
    }

    /// A game's GIF options for its web page: from White's side, the names
    /// and the result in the caption.
    pub(super) fn page_gif_options(
        &self,
        names: &Names,
        result: Option<GameResult>,
    ) -> BoardOptions {
        let caption = with_result(
            Caption {
                white: PlayerLine::new(names.display(Color::White)),
                black: PlayerLine::new(names.display(Color::Black)),
                turn: None,
            },
            result,
        );
        let mut options = self.board_options(Color::White, caption);
        options.size = GIF_SIZE;
        options
    }

    /// `/gif`: the game so far as an animated GIF, seen from the asker's side.
    ///
    /// Bounded three ways: the GIF itself ([`GifLimits::DEFAULT`]: a long
    /// game is sampled), where it is drawn (a blocking thread, a few at a
    /// time, never inside a store transaction), and how often one player
    /// may ask (one at a time, a few per hour).
    pub(super) async fn gif(&self, ctx: &Context, id: Option<i64>) -> Attempt {
        let loaded = match self.pick_game(ctx, id, false).await? {
            Pick::Game(loaded, _) => loaded,
            Pick::Answer(replies) => return Ok(replies),
        };
        let admission = match self.renders.admit(ctx.player.id, ctx.now) {
            Ok(admission) => admission,
            Err(refusal) => return Ok(vec![self.private(ctx, self.render_refusal(ctx, refusal))]),
        };
        let (record, game) = (&loaded.record, &loaded.game);
        let names = Names::new(&record.white_player, &record.black_player);
        let viewer = game
            .players()
            .side_of(ctx.player.id)
            .unwrap_or(Color::White);
        let result = match game.status() {
            Status::Over { result, .. } => Some(result),
            Status::Ongoing => None,
        };
        let caption = with_result(
            Caption {
                white: PlayerLine::new(names.display(Color::White)),
                black: PlayerLine::new(names.display(Color::Black)),
                turn: None,
            },
            result,
        );
        let mut options = self.board_options(viewer, caption);
        options.size = GIF_SIZE;
        let moves: Vec<shakmaty::Move> = game.moves().iter().map(|p| p.m).collect();
        let start = game.start_position().clone();
        let game_arg = ("game", Arg::from(record.id));
        let drawn = admission
            .run(move || render::game_gif(&start, &moves, &options, GifLimits::DEFAULT))
            .await;
        match drawn {
            Some(Ok(gif)) => {
                let mut text = self.text(
                    ctx,
                    "gif",
                    &[
                        game_arg.clone(),
                        ("white", Arg::from(names.display(Color::White))),
                        ("black", Arg::from(names.display(Color::Black))),
                        ("plies", Arg::from(gif.positions as i64 - 1)),
                    ],
                );
                if gif.frames < gif.positions {
                    let args = [
                        ("frames", Arg::from(gif.frames as i64)),
                        ("positions", Arg::from(gif.positions as i64)),
                    ];
                    text.push('\n');
                    text.push_str(&self.text(ctx, "gif-sampled", &args));
                }
                let mut reply = self.private(ctx, text);
                reply.attachments.push(Attachment {
                    filename: format!("game-{}.gif", record.id),
                    content_type: "image/gif".to_owned(),
                    bytes: Arc::from(gif.bytes),
                });
                Ok(vec![reply])
            }
            Some(Err(error)) => {
                tracing::warn!(%error, game = record.id, "game GIF failed");
                Ok(vec![
                    self.private(ctx, self.text(ctx, "gif-failed", &[game_arg])),
                ])
            }
            None => Ok(vec![
                self.private(ctx, self.text(ctx, "gif-failed", &[game_arg])),
            ]),
        }
    }

    /// Why a heavy picture is not drawn now, in the asker's language.
    fn render_refusal(&self, ctx: &Context, refusal: Refusal) -> String {
        match refusal {
            Refusal::Busy => self.text(ctx, "gif-busy", &[]),
            Refusal::Later { minutes } => self.text(
                ctx,
                "gif-later",
                &[
                    (
                        "limit",
                        Arg::from(i64::from(self.config.renders.per_player_per_hour)),
                    ),
                    ("minutes", Arg::from(minutes)),
                ],
            ),
        }
    }
}

/// Each side's score of a finished game in its strip (`1`, `½`, `0`).
fn with_result(mut caption: Caption, result: Option<GameResult>) -> Caption {
    let score = |side| match result.and_then(|r| r.half_points_for(side)) {
        Some(2) => Some("1"),
        Some(1) => Some("½"),
        Some(_) => Some("0"),
        None => None,
    };
    if let Some(score) = score(Color::White) {
        caption.white = caption.white.with_result(score);
    }
    if let Some(score) = score(Color::Black) {
        caption.black = caption.black.with_result(score);
    }
    caption
}

fn with_clock(line: PlayerLine, clock: Option<&str>) -> PlayerLine {
    match clock {
        Some(clock) => line.with_clock(clock),
        None => line,
    }
}
