//! Pictures: pure CPU work, no I/O.
//!
//! - [`board`]: a position as an indexed image (squares, cburnett pieces,
//!   last move, check, coordinates, a caption with names and clocks), in one
//!   of four [`Theme`]s; [`board_png`] encodes it.
//! - [`game_gif`]: a whole game, one frame per ply.
//! - [`chart`]: rating history and results as PNG charts.
//! - [`text`]: a text diagram for the console.
//! - [`table`] and [`rating_chart`]: the standings table and a player's
//!   rating history as PNGs (plotters, through [`bitmap`]).
//!
//! Piece sprites are rasterized from the SVGs in `assets/` once per theme
//! and square size and kept, so a board is copied rows plus one fast PNG
//! encode (about a millisecond at 480 px).

pub mod bitmap;
pub mod board;
pub mod chart;
pub mod encode;
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

/// An animated GIF of a game from `start` through `moves`: one frame per
/// ply with the move highlighted, the final position held longer.
pub fn game_gif(
    start: &Chess,
    moves: &[shakmaty::Move],
    options: &BoardOptions,
) -> Result<Vec<u8>, RenderError> {
    const PLY_DELAY: u16 = 80;
    const FINAL_DELAY: u16 = 400;
    // A caption that changed every ply would make every frame full height.
    let mut options = options.clone();
    if let Some(caption) = &mut options.caption {
        caption.turn = None;
    }
    let options = &options;
    let mut position = start.clone();
    let mut frames = Vec::with_capacity(moves.len() + 1);
    let first = Scene {
        board: position.board(),
        last_move: None,
        check: check_square(&position),
    };
    frames.push((board::draw(&first, options)?, PLY_DELAY));
    for m in moves {
        let uci = m.to_uci(CastlingMode::Standard);
        position = position
            .play(*m)
            .map_err(|_| RenderError::Uci(uci.to_string()))?;
        let scene = Scene {
            board: position.board(),
            last_move: move_squares(&uci.to_string()).ok(),
            check: check_square(&position),
        };
        frames.push((board::draw(&scene, options)?, PLY_DELAY));
    }
    if let Some(last) = frames.last_mut() {
        last.1 = FINAL_DELAY;
    }
    encode::gif(&frames)
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

    #[test]
    fn an_80_ply_game_gif_at_360_px_stays_under_a_megabyte() {
        let moves = some_game(80);
        assert_eq!(moves.len(), 80);
        let options = BoardOptions {
            size: 360,
            caption: Some(Caption {
                white: PlayerLine::new("alice"),
                black: PlayerLine::new("bob"),
                turn: Some(Color::White),
            }),
            ..BoardOptions::default()
        };
        let gif = game_gif(&Chess::default(), &moves, &options).unwrap();
        assert!(gif.len() < 1_000_000, "{} bytes", gif.len());
        let mut decoder = gif::DecodeOptions::new();
        decoder.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = decoder.read_info(std::io::Cursor::new(&gif)).unwrap();
        let mut frames = 0;
        let mut last_delay = 0;
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            frames += 1;
            last_delay = frame.delay;
        }
        assert_eq!(frames, 81, "the start and one frame per ply");
        assert!(last_delay > 80, "the final position is held longer");
    }

    #[test]
    fn move_squares_read_uci() {
        let e2: Square = "e2".parse().unwrap();
        let e4: Square = "e4".parse().unwrap();
        assert_eq!(move_squares("e2e4"), Ok((e2, e4)));
        assert!(move_squares("zz").is_err());
    }
}
