//! Pictures: pure CPU work, no I/O.
//!
//! - [`board`]: a position as an indexed image (squares, cburnett pieces,
//!   last move, check, coordinates, a caption with names and clocks), in one
//!   of four [`Theme`]s; [`board_png`] encodes it.
//! - [`game_gif`]: a whole game, one frame per ply, sampled and size-bounded
//!   by [`GifLimits`] for long games.
//! - [`chart`]: rating history and results as PNG charts.
//! - [`text`]: a text diagram for the console.
//! - [`table`] and [`rating_chart`]: the standings table and a player's
//!   rating history as PNGs (plotters, through [`bitmap`]).
//! - [`eval_chart`]: a reviewed game's evaluation graph (White's win chance
//!   after each ply, the judged moves marked) as a PNG, the same way.
//!
//! Piece sprites are rasterized from the SVGs in `assets/` once per theme
//! and square size and kept, so a board is copied rows plus one fast PNG
//! encode (about a millisecond at 480 px).

pub mod bitmap;
pub mod board;
pub mod chart;
pub mod encode;
pub mod eval_chart;
mod font;
mod last_move;
mod palette;
pub mod rating_chart;
mod sprites;
pub mod table;
pub mod text;
pub mod theme;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Position, Square};

pub use board::{BoardOptions, Canvas, Caption, PlayerLine, Scene};
pub use eval_chart::{EvalChartLabels, EvalMark, eval_chart_png};
pub use last_move::last_move_squares;
pub use theme::Theme;

/// The smallest board drawn, in pixels.
pub const MIN_SIZE: u32 = 240;
/// The largest board drawn, in pixels.
pub const MAX_SIZE: u32 = 1024;

/// Why a picture could not be made.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RenderError {
    #[error("a board is {MIN_SIZE} to {MAX_SIZE} pixels wide, not {0}")]
    Size(u32),
    #[error("not a FEN: {0}")]
    Fen(String),
    #[error("not a move in UCI: {0}")]
    Uci(String),
    #[error("{0} cannot be the move that led to this position")]
    LastMove(String),
    #[error("encoding: {0}")]
    Encode(String),
    #[error("drawing: {0}")]
    Draw(String),
    #[error("the picture would be larger than {limit} bytes")]
    TooLarge { limit: usize },
    #[error("a frame shows a position past the game's end")]
    Frames,
}

/// The squares of a UCI move, for the highlight (`e1h1` castling shows the rook's square).
pub fn move_squares(uci: &str) -> Result<(Square, Square), RenderError> {
    match uci.parse::<UciMove>() {
        Ok(UciMove::Normal { from, to, .. }) => Ok((from, to)),
        Ok(UciMove::Put { to, .. }) => Ok((to, to)),
        _ => Err(RenderError::Uci(uci.chars().take(16).collect())),
    }
}

/// The square of the side to move's king if it is in check.
pub fn check_square(position: &Chess) -> Option<Square> {
    if position.is_check() {
        position.board().king_of(position.turn())
    } else {
        None
    }
}

/// A board PNG of `fen`, highlighting `last_move` (UCI) and a king in check.
/// A last move that cannot have led to `fen` is refused
/// ([`last_move_squares`] says what is checked).
pub fn board_png(
    fen: &str,
    last_move: Option<&str>,
    options: &BoardOptions,
) -> Result<Vec<u8>, RenderError> {
    let fen: Fen = fen
        .trim()
        .parse()
        .map_err(|e| RenderError::Fen(format!("{e}")))?;
    // An illegal position still has a board to draw; only the check is unknown.
    let check = fen
        .clone()
        .into_position::<Chess>(CastlingMode::Chess960)
        .ok()
        .and_then(|position| check_square(&position));
    let setup = fen.into_setup();
    let last_move = last_move
        .map(|uci| last_move_squares(&setup.board, setup.turn, uci))
        .transpose()?;
    let scene = Scene {
        board: &setup.board,
        last_move,
        check,
    };
    encode::png(&board::draw(&scene, options)?)
}

/// Bounds on a game's GIF, so that the longest game costs about what a
/// short one does (docs/playing.md, "Board images").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GifLimits {
    /// The most frames drawn. A game with more positions shows positions
    /// sampled evenly, the first and the last always among them.
    pub max_frames: usize,
    /// The largest file in bytes. A GIF that would be larger is drawn again
    /// with half the frames, down to the first and last positions.
    pub max_bytes: usize,
}

impl GifLimits {
    /// `/gif`'s bounds: 120 frames (the position every ply for games of up
    /// to 119 plies) and 4 MB, well under Discord's and Matrix's default
    /// upload limits.
    pub const DEFAULT: GifLimits = GifLimits {
        max_frames: 120,
        max_bytes: 4_000_000,
    };
}

impl Default for GifLimits {
    fn default() -> GifLimits {
        GifLimits::DEFAULT
    }
}

/// A game's animated GIF and what it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameGif {
    pub bytes: Vec<u8>,
    /// Frames in the file.
    pub frames: usize,
    /// Positions in the game (plies + 1); more than `frames` when sampled.
    pub positions: usize,
}

/// An animated GIF of a game from `start` through `moves`: a frame per
/// position (sampled evenly within `limits`), each with the move that led
/// to it highlighted, the final position held longer.
pub fn game_gif(
    start: &Chess,
    moves: &[shakmaty::Move],
    options: &BoardOptions,
    limits: GifLimits,
) -> Result<GameGif, RenderError> {
    // A caption that changed every ply would make every frame full height.
    let mut options = options.clone();
    if let Some(caption) = &mut options.caption {
        caption.turn = None;
    }
    let positions = moves.len() + 1;
    let mut max_frames = limits.max_frames.max(2);
    loop {
        let shown = sample_positions(positions, max_frames);
        match draw_gif(start, moves, &shown, &options, limits.max_bytes) {
            Ok(bytes) => {
                return Ok(GameGif {
                    bytes,
                    frames: shown.len(),
                    positions,
                });
            }
            Err(RenderError::TooLarge { .. }) if shown.len() > 2 => {
                max_frames = shown.len() / 2;
            }
            Err(error) => return Err(error),
        }
    }
}

/// Which of `positions` positions (0 = the start) a GIF of at most
/// `max_frames` frames shows: all of them when they fit, else evenly spaced
/// ones, always the first and the last.
pub fn sample_positions(positions: usize, max_frames: usize) -> Vec<usize> {
    let frames = positions.min(max_frames.max(2));
    if frames <= 1 {
        return (0..positions).collect();
    }
    let (last, steps) = (positions - 1, frames - 1);
    // Rounded to the nearest position; steps are at least one apart since
    // `last >= steps`, so no position comes twice.
    (0..frames)
        .map(|i| (i * last + steps / 2) / steps)
        .collect()
}

/// Draws the positions `shown` (increasing indices into the game) into a GIF
/// of at most `max_bytes`, one frame at a time.
fn draw_gif(
    start: &Chess,
    moves: &[shakmaty::Move],
    shown: &[usize],
    options: &BoardOptions,
    max_bytes: usize,
) -> Result<Vec<u8>, RenderError> {
    const PLY_DELAY: u16 = 80;
    const FINAL_DELAY: u16 = 400;
    let mut writer = encode::GifWriter::new(max_bytes);
    // The result, if the caption has one, only on the last frame.
    let mut before_end = options.clone();
    if let Some(caption) = &mut before_end.caption {
        caption.white = caption.white.without_result();
        caption.black = caption.black.without_result();
    }
    let mut position = start.clone();
    let mut played = 0;
    for (frame, &index) in shown.iter().enumerate() {
        let mut last_move = None;
        // The move that led to the frame, numbered ("12. Nf3", "12... Nc6"),
        // in the strip of the side that played it.
        let mut written = None;
        while played < index {
            let m = moves.get(played).ok_or(RenderError::Frames)?;
            // The game's own form: a Chess960 castling highlights king and rook.
            let uci = m.to_uci(position.castles().mode()).to_string();
            let mover = position.turn();
            let number = position.fullmoves().get();
            let san = shakmaty::san::SanPlus::from_move(position.clone(), *m);
            position = position
                .play(*m)
                .map_err(|_| RenderError::Uci(uci.clone()))?;
            last_move = move_squares(&uci).ok();
            let dots = mover.fold_wb(".", "...");
            written = Some((mover, format!("{number}{dots} {san}")));
            played += 1;
        }
        let scene = Scene {
            board: position.board(),
            last_move,
            check: check_square(&position),
        };
        let (delay, drawn) = if frame + 1 == shown.len() {
            (FINAL_DELAY, options)
        } else {
            (PLY_DELAY, &before_end)
        };
        let mut drawn = drawn.clone();
        if let (Some(caption), Some((mover, text))) = (&mut drawn.caption, &written) {
            let line = match mover {
                Color::White => &mut caption.white,
                Color::Black => &mut caption.black,
            };
            *line = line.clone().with_clock(text);
        }
        writer.push(board::draw(&scene, &drawn)?, delay)?;
    }
    writer.finish()
}

/// `white` or `black` as a colour (anything else: White).
pub fn color_from_name(name: &str) -> Color {
    if name.eq_ignore_ascii_case("black") {
        Color::Black
    } else {
        Color::White
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    /// Plays `plies` moves, always the first legal one that does not end the game.
    fn some_game(plies: usize) -> Vec<shakmaty::Move> {
        let mut position = Chess::default();
        let mut moves = Vec::new();
        for i in 0..plies {
            let legal = position.legal_moves();
            let Some(m) = (0..legal.len())
                .map(|k| legal[(k + i * 7) % legal.len()])
                .find(|m| !position.clone().play(*m).unwrap().is_game_over())
            else {
                break;
            };
            position = position.play(m).unwrap();
            moves.push(m);
        }
        moves
    }

    fn gif_options() -> BoardOptions {
        BoardOptions {
            size: 360,
            caption: Some(Caption {
                white: PlayerLine::new("alice"),
                black: PlayerLine::new("bob"),
                turn: Some(Color::White),
            }),
            ..BoardOptions::default()
        }
    }

    /// Each frame's delay, read back from the file.
    fn delays(gif: &[u8]) -> Vec<u16> {
        let mut decoder = gif::DecodeOptions::new();
        decoder.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = decoder.read_info(std::io::Cursor::new(gif)).unwrap();
        let mut delays = Vec::new();
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            delays.push(frame.delay);
        }
        delays
    }

    #[test]
    fn an_80_ply_game_gif_at_360_px_stays_under_a_megabyte() {
        let moves = some_game(80);
        assert_eq!(moves.len(), 80);
        let gif = game_gif(
            &Chess::default(),
            &moves,
            &gif_options(),
            GifLimits::DEFAULT,
        )
        .unwrap();
        assert!(gif.bytes.len() < 1_000_000, "{} bytes", gif.bytes.len());
        assert_eq!((gif.frames, gif.positions), (81, 81));
        let delays = delays(&gif.bytes);
        assert_eq!(delays.len(), 81, "the start and one frame per ply");
        assert!(delays[80] > delays[79], "the final position is held longer");
    }

    #[test]
    fn positions_are_sampled_evenly_keeping_the_first_and_last() {
        // (positions, max frames, positions shown)
        let cases: &[(usize, usize, &[usize])] = &[
            (1, 120, &[0]),
            (2, 120, &[0, 1]),
            (5, 5, &[0, 1, 2, 3, 4]),
            (6, 5, &[0, 1, 3, 4, 5]),
            (11, 3, &[0, 5, 10]),
            (2001, 2, &[0, 2000]),
            (2001, 0, &[0, 2000]),
            (2001, 5, &[0, 500, 1000, 1500, 2000]),
            (10, 4, &[0, 3, 6, 9]),
        ];
        for &(positions, max, shown) in cases {
            assert_eq!(
                sample_positions(positions, max),
                shown,
                "{positions} positions, {max} frames"
            );
        }
        for positions in 1..400 {
            for max in [2, 3, 7, 120] {
                let shown = sample_positions(positions, max);
                assert_eq!(shown.len(), positions.min(max));
                assert_eq!(shown.first(), Some(&0));
                assert_eq!(shown.last(), Some(&(positions - 1)));
                assert!(shown.windows(2).all(|w| w[0] < w[1]), "{shown:?}");
            }
        }
    }

    /// The composited frames of a GIF, as RGBA pictures.
    fn decoded_frames(gif: &[u8]) -> Vec<image::RgbaImage> {
        use image::AnimationDecoder;
        let decoder = image::codecs::gif::GifDecoder::new(std::io::Cursor::new(gif)).unwrap();
        decoder
            .into_frames()
            .map(|frame| frame.unwrap().into_buffer())
            .collect()
    }

    fn same_picture(canvas: &Canvas, frame: &image::RgbaImage) -> bool {
        (0..canvas.height).all(|y| {
            (0..canvas.width).all(|x| {
                let [r, g, b, _] = frame.get_pixel(x as u32, y as u32).0;
                canvas.rgb_at(x, y) == [r, g, b]
            })
        })
    }

    #[test]
    fn a_long_game_shows_its_first_and_last_positions_within_the_frame_cap() {
        let moves = some_game(301);
        let limits = GifLimits {
            max_frames: 7,
            ..GifLimits::DEFAULT
        };
        let mut options = gif_options();
        options.size = MIN_SIZE;
        let gif = game_gif(&Chess::default(), &moves, &options, limits).unwrap();
        assert_eq!((gif.frames, gif.positions), (7, moves.len() + 1));
        let frames = decoded_frames(&gif.bytes);
        assert_eq!(frames.len(), 7);

        if let Some(caption) = &mut options.caption {
            caption.turn = None;
        }
        let start = Chess::default();
        let first = Scene {
            board: start.board(),
            last_move: None,
            check: None,
        };
        assert!(same_picture(
            &board::draw(&first, &options).unwrap(),
            &frames[0]
        ));
        let mut before = start.clone();
        for m in &moves[..moves.len() - 1] {
            before = before.play(*m).unwrap();
        }
        let final_move = moves[moves.len() - 1];
        let end = before.clone().play(final_move).unwrap();
        let uci = final_move.to_uci(CastlingMode::Standard).to_string();
        // The last frame writes the move that led to it in its mover's strip.
        let dots = before.turn().fold_wb(".", "...");
        let san = shakmaty::san::SanPlus::from_move(before.clone(), final_move);
        let written = format!("{}{dots} {san}", before.fullmoves());
        if let Some(caption) = &mut options.caption {
            let line = before
                .turn()
                .fold_wb(&mut caption.white, &mut caption.black);
            *line = line.clone().with_clock(&written);
        }
        let last = Scene {
            board: end.board(),
            last_move: move_squares(&uci).ok(),
            check: check_square(&end),
        };
        assert!(same_picture(
            &board::draw(&last, &options).unwrap(),
            &frames[6]
        ));
    }

    #[test]
    fn a_gif_over_the_byte_cap_is_drawn_with_fewer_frames_or_refused() {
        let moves = some_game(200);
        let roomy = game_gif(
            &Chess::default(),
            &moves,
            &gif_options(),
            GifLimits::DEFAULT,
        )
        .unwrap();
        let max_bytes = roomy.bytes.len() / 3;
        let limits = GifLimits {
            max_frames: 120,
            max_bytes,
        };
        let tight = game_gif(&Chess::default(), &moves, &gif_options(), limits).unwrap();
        assert!(
            tight.bytes.len() <= max_bytes,
            "{} bytes",
            tight.bytes.len()
        );
        assert!(tight.frames < roomy.frames && tight.frames >= 2);
        assert_eq!(delays(&tight.bytes).len(), tight.frames);

        let tiny = GifLimits {
            max_frames: 120,
            max_bytes: 1_000,
        };
        assert_eq!(
            game_gif(&Chess::default(), &moves, &gif_options(), tiny),
            Err(RenderError::TooLarge { limit: 1_000 })
        );
    }

    #[test]
    fn move_squares_read_uci() {
        let e2: Square = "e2".parse().unwrap();
        let e4: Square = "e4".parse().unwrap();
        assert_eq!(move_squares("e2e4"), Ok((e2, e4)));
        assert!(move_squares("zz").is_err());
    }
}
