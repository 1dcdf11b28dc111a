//! A board drawn into palette indices: squares, pieces, highlights,
//! coordinates and an optional caption strip above and below.

use std::sync::Arc;

use shakmaty::{Board, Color, File, Rank, Square};

use super::font::{Mask, fit, text_mask};
use super::palette::{Ground, Palette, Ramp, Strip, level};
use super::sprites::Sprites;
use super::theme::Theme;
use super::{MAX_SIZE, MIN_SIZE, RenderError};

/// The longest player name drawn, in characters (longer ones are cut).
pub const MAX_NAME_CHARS: usize = 40;
/// The longest clock text drawn, in characters.
pub const MAX_CLOCK_CHARS: usize = 16;

/// How to draw a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardOptions {
    /// The board's width and height in pixels, 240..=1024 (the caption adds strips).
    pub size: u32,
    /// The side at the bottom.
    pub orientation: Color,
    pub coordinates: bool,
    pub theme: Theme,
    pub caption: Option<Caption>,
}

impl Default for BoardOptions {
    fn default() -> BoardOptions {
        BoardOptions {
            size: 480,
            orientation: Color::White,
            coordinates: true,
            theme: Theme::Brown,
            caption: None,
        }
    }
}

/// Player names, ratings, clocks and whose move it is, around the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Caption {
    pub white: PlayerLine,
    pub black: PlayerLine,
    /// The side to move, shown with the lighter strip; `None` when the game is over.
    pub turn: Option<Color>,
}

/// One player's strip. Names come from chat users: bounded when made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerLine {
    name: String,
    rating: Option<u32>,
    clock: Option<String>,
    /// The player's score in a finished game (`1`, `½`, `0`), shown where
    /// the clock would be.
    result: Option<String>,
}

impl PlayerLine {
    /// A strip for `name`, cut to [`MAX_NAME_CHARS`] characters, control characters dropped.
    pub fn new(name: &str) -> PlayerLine {
        PlayerLine {
            name: bounded(name, MAX_NAME_CHARS),
            rating: None,
            clock: None,
            result: None,
        }
    }

    pub fn with_rating(mut self, rating: u32) -> PlayerLine {
        self.rating = Some(rating.min(9999));
        self
    }

    /// The clock text (`2d 4h`), cut to [`MAX_CLOCK_CHARS`] characters.
    pub fn with_clock(mut self, clock: &str) -> PlayerLine {
        self.clock = Some(bounded(clock, MAX_CLOCK_CHARS));
        self
    }

    /// The score of a finished game (`1`, `½`, `0`), drawn instead of the clock.
    pub fn with_result(mut self, score: &str) -> PlayerLine {
        self.result = Some(bounded(score, 3));
        self
    }

    /// The same strip without its result (a game's frames before the last).
    pub fn without_result(&self) -> PlayerLine {
        PlayerLine {
            result: None,
            ..self.clone()
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }
}

fn bounded(text: &str, max_chars: usize) -> String {
    text.chars()
        .filter(|c| !c.is_control())
        .take(max_chars)
        .collect()
}

/// What is on the board and what to highlight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scene<'a> {
    pub board: &'a Board,
    pub last_move: Option<(Square, Square)>,
    /// The square of a king in check.
    pub check: Option<Square>,
}

/// A drawn image: one palette index per pixel.
#[derive(Clone, Debug)]
pub struct Canvas {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<u8>,
    pub(crate) palette: Arc<Palette>,
}

impl Canvas {
    /// The colours the indices refer to.
    pub fn palette(&self) -> &[[u8; 3]] {
        self.palette.colors()
    }

    pub fn rgb_at(&self, x: usize, y: usize) -> [u8; 3] {
        self.palette.colors()[self.pixels[y * self.width + x] as usize]
    }

    fn fill(&mut self, x0: usize, y0: usize, x1: usize, y1: usize, index: u8) {
        for y in y0..y1 {
            self.pixels[y * self.width + x0..y * self.width + x1].fill(index);
        }
    }

    /// Blends a text mask in at (x, y) through `ramp`, clipped to x < `x_end`.
    fn stamp(&mut self, mask: &Mask, x: usize, y: usize, x_end: usize, ramp: &Ramp) {
        for my in 0..mask.height.min(self.height.saturating_sub(y)) {
            for mx in 0..mask.width.min(x_end.saturating_sub(x)) {
                let l = level(mask.at(mx, my));
                if l > 0 {
                    self.pixels[(y + my) * self.width + x + mx] = ramp[l];
                }
            }
        }
    }
}

/// The height of one caption strip for a board of `size` pixels.
pub fn strip_height(size: usize) -> usize {
    (size * 3 / 40).max(22)
}

/// Draws `scene` as `options` say.
pub fn draw(scene: &Scene<'_>, options: &BoardOptions) -> Result<Canvas, RenderError> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&options.size) {
        return Err(RenderError::Size(options.size));
    }
    let size = options.size as usize;
    let square = size / 8;
    let sprites = Sprites::get(options.theme, square);
    let strip = options.caption.as_ref().map_or(0, |_| strip_height(size));
    let mut canvas = Canvas {
        width: size,
        height: size + 2 * strip,
        pixels: vec![0; size * (size + 2 * strip)],
        palette: Arc::clone(&sprites.palette),
    };
    let edge = |i: usize| i * size / 8;
    for row in 0..8 {
        for col in 0..8 {
            let sq = square_at(options.orientation, row, col);
            let light = (sq.file() as usize + sq.rank() as usize) % 2 == 1;
            let last = scene
                .last_move
                .is_some_and(|(from, to)| sq == from || sq == to);
            let ground = Ground::of(light, last, scene.check == Some(sq));
            let (x0, x1) = (edge(col), edge(col + 1));
            let (y0, y1) = (strip + edge(row), strip + edge(row + 1));
            canvas.fill(x0, y0, x1, y1, sprites.palette.ground(ground));
            if let Some(piece) = scene.board.piece_at(sq) {
                let tile = sprites.tile(ground, piece);
                for ty in 0..square {
                    let at = (y0 + ty) * size + x0;
                    canvas.pixels[at..at + square]
                        .copy_from_slice(&tile[ty * square..(ty + 1) * square]);
                }
            }
            if scene.check == Some(sq) {
                glow(&mut canvas, &sprites, (x0, y0), square, light);
            }
            if options.coordinates {
                draw_coordinates(
                    &mut canvas,
                    &sprites,
                    sq,
                    ground,
                    (row, col),
                    (x0, y0, x1, y1),
                );
            }
        }
    }
    if let Some(caption) = &options.caption {
        let (top, bottom) = match options.orientation {
            Color::White => (Color::Black, Color::White),
            Color::Black => (Color::White, Color::Black),
        };
        draw_strip(&mut canvas, caption, top, 0, strip);
        draw_strip(&mut canvas, caption, bottom, strip + size, strip);
    }
    Ok(canvas)
}

/// A radial glow behind a king in check, as lichess draws it: red at the
/// heart, fading out to the plain square by the corners. Only the square's
/// background pixels change; the king stays on top.
fn glow(
    canvas: &mut Canvas,
    sprites: &Sprites,
    (x0, y0): (usize, usize),
    square: usize,
    light: bool,
) {
    let palette = Arc::clone(&sprites.palette);
    let ground = palette.ground(Ground::of(light, false, true));
    let ramp = palette.glow(light);
    let centre = square as f32 / 2.0;
    let reach = centre * std::f32::consts::SQRT_2;
    for y in 0..square {
        for x in 0..square {
            let at = (y0 + y) * canvas.width + x0 + x;
            if canvas.pixels[at] != ground {
                continue;
            }
            let distance = (x as f32 + 0.5 - centre).hypot(y as f32 + 0.5 - centre) / reach;
            // Full red to a quarter of the way out, plain square from 0.89.
            let t = ((distance - 0.25) / (0.89 - 0.25)).clamp(0.0, 1.0);
            canvas.pixels[at] = ramp[(t * (ramp.len() - 1) as f32).round() as usize];
        }
    }
}

/// The square shown at display row `row` (0 = top) and column `col` (0 = left).
pub fn square_at(orientation: Color, row: usize, col: usize) -> Square {
    let (file, rank) = match orientation {
        Color::White => (col, 7 - row),
        Color::Black => (7 - col, row),
    };
    Square::from_coords(File::new(file as u32), Rank::new(rank as u32))
}

/// Rank digits in the top-left corner of the left column, file letters in
/// the bottom-right corner of the bottom row (as on lichess).
fn draw_coordinates(
    canvas: &mut Canvas,
    sprites: &Sprites,
    sq: Square,
    ground: Ground,
    (row, col): (usize, usize),
    (x0, y0, x1, y1): (usize, usize, usize, usize),
) {
    let pad = (sprites.square / 20).max(1);
    let ramp = *sprites.palette.coordinates(ground);
    if col == 0 {
        let mask = &sprites.ranks[sq.rank() as usize];
        canvas.stamp(mask, x0 + pad, y0 + pad / 2, x1, &ramp);
    }
    if row == 7 {
        let mask = &sprites.files[sq.file() as usize];
        let x = x1.saturating_sub(mask.width + pad / 2);
        let y = y1.saturating_sub(mask.height + pad / 2);
        canvas.stamp(mask, x.max(x0), y.max(y0), x1, &ramp);
    }
}

fn draw_strip(canvas: &mut Canvas, caption: &Caption, side: Color, y0: usize, height: usize) {
    let active = caption.turn == Some(side);
    let strip = if active { Strip::Active } else { Strip::Idle };
    let palette = Arc::clone(&canvas.palette);
    let width = canvas.width;
    canvas.fill(0, y0, width, y0 + height, palette.strip(strip));
    let ramp = *palette.caption(strip);
    let px = height as f32 * 0.55;
    let pad = height / 3;
    let player = match side {
        Color::White => &caption.white,
        Color::Black => &caption.black,
    };
    // ♔ for White, ♚ for Black: the usual way to write the colours in text.
    let marker = if side == Color::White { "♔" } else { "♚" };
    let text_y = y0 + (height.saturating_sub(text_mask("Ag", px).height)) / 2;
    let mut x = pad;
    let marker_mask = text_mask(marker, px * 1.15);
    canvas.stamp(
        &marker_mask,
        x,
        y0 + (height.saturating_sub(marker_mask.height)) / 2,
        width,
        &ramp,
    );
    x += marker_mask.width + pad / 2;
    // A finished game's score, larger, where a running game's clock goes.
    let right = match &player.result {
        Some(score) => Some(text_mask(score, px * 1.3)),
        None => player.clock.as_deref().map(|clock| text_mask(clock, px)),
    };
    let clock_mask = right;
    let clock_width = clock_mask.as_ref().map_or(0, |m| m.width + pad);
    let label = match player.rating {
        Some(rating) => format!("{} ({rating})", player.name),
        None => player.name.clone(),
    };
    let room = width.saturating_sub(x + clock_width + pad) as f32;
    let label = fit(&label, px, room);
    canvas.stamp(
        &text_mask(&label, px),
        x,
        text_y,
        width - clock_width,
        &ramp,
    );
    if let Some(mask) = clock_mask {
        canvas.stamp(
            &mask,
            width.saturating_sub(mask.width + pad),
            y0 + (height.saturating_sub(mask.height)) / 2,
            width,
            &ramp,
        );
    }
}
