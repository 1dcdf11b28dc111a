//! Golden tests of board images and the evaluation graph: decode the PNG
//! and look at its pixels.
//!
//! Square colours, highlights and orientation are checked at every size of
//! a table against colours written here by hand; the pieces are compared
//! with reference images in `tests/fixtures/render/` (a small tolerance),
//! and so is the evaluation graph, in English and French.
//! `PAWNPOST_BLESS=1 cargo test --test render_golden` rewrites the references
//! after a deliberate change of the artwork; look at them before committing.

use std::path::PathBuf;

use image::{RgbImage, RgbaImage};
use pawnpost::render::{
    BoardOptions, Caption, EvalChartLabels, EvalMark, PlayerLine, Theme, board::strip_height,
    board_png, eval_chart_png,
};
use shakmaty::{Color, Square};

const TEST_FEN: &str = "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4";
const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Sizes checked: the ends, non-multiples of 8, and the usual ones.
const SIZES: [u32; 14] = [
    240, 241, 250, 300, 333, 360, 399, 480, 512, 600, 720, 857, 999, 1024,
];

// The brown theme, written out independently of the code.
const LIGHT: [u8; 3] = [0xf0, 0xd9, 0xb5];
const DARK: [u8; 3] = [0xb5, 0x88, 0x63];
const LAST_LIGHT: [u8; 3] = [0xcd, 0xd2, 0x6a];
const LAST_DARK: [u8; 3] = [0xaa, 0xa2, 0x3a];

fn decode(png: &[u8]) -> RgbImage {
    image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .expect("a valid PNG")
        .to_rgb8()
}

fn options(size: u32, orientation: Color) -> BoardOptions {
    BoardOptions {
        size,
        orientation,
        ..BoardOptions::default()
    }
}

/// The pixel box (x0, y0, x1, y1) of `square` on a board of `size` seen by `orientation`.
fn square_box(size: u32, orientation: Color, square: Square, top: u32) -> (u32, u32, u32, u32) {
    let (file, rank) = (u32::from(square.file()), u32::from(square.rank()));
    let (col, row) = match orientation {
        Color::White => (file, 7 - rank),
        Color::Black => (7 - file, rank),
    };
    let edge = |i: u32| i * size / 8;
    (
        edge(col),
        top + edge(row),
        edge(col + 1),
        top + edge(row + 1),
    )
}

fn square(name: &str) -> Square {
    name.parse().expect("a square")
}

/// The expected background of the test position's squares (h5f7 played,
/// Black in check: e8's glow has faded to the plain square at the corners).
fn expected_ground(sq: Square) -> [u8; 3] {
    let light = (u32::from(sq.file()) + u32::from(sq.rank())) % 2 == 1;
    match (sq, light) {
        (s, true) if s == square("h5") || s == square("f7") => LAST_LIGHT,
        (s, false) if s == square("h5") || s == square("f7") => LAST_DARK,
        (_, true) => LIGHT,
        (_, false) => DARK,
    }
}

fn close(a: [u8; 3], b: [u8; 3], tolerance: u8) -> bool {
    (0..3).all(|i| a[i].abs_diff(b[i]) <= tolerance)
}

#[test]
fn squares_highlights_pieces_and_orientation_at_every_size() {
    let position: shakmaty::Chess = TEST_FEN
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    let board = shakmaty::Position::board(&position).clone();
    for size in SIZES {
        for orientation in [Color::White, Color::Black] {
            let png = board_png(TEST_FEN, Some("h5f7"), &options(size, orientation)).unwrap();
            let image = decode(&png);
            assert_eq!(image.dimensions(), (size, size), "{size}");
            for sq in Square::ALL {
                let (x0, y0, x1, y1) = square_box(size, orientation, sq, 0);
                // The top-right corner is clear of pieces and coordinates.
                let corner = image.get_pixel(x1 - 2, y0 + 1).0;
                assert_eq!(corner, expected_ground(sq), "{size} {orientation:?} {sq}");
                if sq == square("e8") {
                    // The king in check glows red around it, clear of the piece.
                    let inside = image.get_pixel(x0 + (x1 - x0) / 5, y0 + (y1 - y0) / 5).0;
                    assert!(
                        inside[0] > 200 && inside[1] < 150,
                        "{size} {orientation:?}: {inside:?}"
                    );
                    continue;
                }
                let ground = expected_ground(sq);
                let (mut white, mut black, mut inked) = (0, 0, 0);
                // The middle of the square, away from the coordinates.
                let m = (x1 - x0) / 5;
                for y in y0 + m..y1 - m {
                    for x in x0 + m..x1 - m {
                        let p = image.get_pixel(x, y).0;
                        if !close(p, ground, 12) {
                            inked += 1;
                        }
                        white += usize::from(close(p, [255; 3], 20));
                        black += usize::from(close(p, [0; 3], 20));
                    }
                }
                let area = ((x1 - x0 - 2 * m) * (y1 - y0 - 2 * m)) as usize;
                match board.piece_at(sq) {
                    // Squares of the left column and bottom row carry a coordinate.
                    None if x0 == 0 || y1 == size => assert!(inked * 10 < area),
                    None => assert_eq!(inked, 0, "{size} {orientation:?} {sq} should be empty"),
                    Some(piece) => {
                        assert!(
                            inked * 5 > area,
                            "{size} {orientation:?} {sq}: {inked}/{area}"
                        );
                        // White pieces are filled with white, black ones with black.
                        let filled = match piece.color {
                            Color::White => white * 8 > area && white > black / 2,
                            Color::Black => black * 4 > area && black > white,
                        };
                        assert!(
                            filled,
                            "{size} {orientation:?} {sq}: {piece:?} {white} {black}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn coordinates_sit_on_the_edge_squares_only() {
    let size = 480;
    let png = board_png(START_FEN, None, &options(size, Color::White)).unwrap();
    let image = decode(&png);
    let inked = |sq: &str, ground: [u8; 3]| {
        let (x0, y0, x1, y1) = square_box(size, Color::White, square(sq), 0);
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|(x, y)| !close(image.get_pixel(*x, *y).0, ground, 4))
            .count()
    };
    // a3 is dark and shows "3"; b3 is light and shows nothing; d1 shows "d".
    assert!(inked("a3", DARK) > 20);
    assert_eq!(inked("b3", LIGHT), 0);
    assert_eq!(inked("e4", LIGHT), 0);
    let without = board_png(
        START_FEN,
        None,
        &BoardOptions {
            coordinates: false,
            ..options(size, Color::White)
        },
    )
    .unwrap();
    let plain = decode(&without);
    let (x0, y0, x1, y1) = square_box(size, Color::White, square("a3"), 0);
    for y in y0..y1 {
        for x in x0..x1 {
            assert_eq!(plain.get_pixel(x, y).0, DARK);
        }
    }
}

#[test]
fn a_caption_adds_a_strip_above_and_below() {
    let size = 360;
    let caption = Caption {
        white: PlayerLine::new("alice")
            .with_rating(1850)
            .with_clock("2d 4h"),
        black: PlayerLine::new(&"b".repeat(500)),
        turn: Some(Color::Black),
    };
    let png = board_png(
        TEST_FEN,
        Some("h5f7"),
        &BoardOptions {
            caption: Some(caption),
            ..options(size, Color::White)
        },
    )
    .unwrap();
    let image = decode(&png);
    let strip = strip_height(size as usize) as u32;
    assert_eq!(image.dimensions(), (size, size + 2 * strip));
    // The board is shifted down by one strip.
    let (x0, y0, x1, _) = square_box(size, Color::White, square("h5"), strip);
    assert_eq!(image.get_pixel(x1 - 2, y0 + 1).0, LAST_LIGHT);
    assert_eq!(image.get_pixel(x0, y0).0, LAST_LIGHT);
    // Black to move: the top strip (Black's) is the lighter one.
    let top = image.get_pixel(size - 1, 0).0;
    let bottom = image.get_pixel(size - 1, size + 2 * strip - 1).0;
    assert!(top[0] > bottom[0], "{top:?} {bottom:?}");
}

#[test]
fn sizes_outside_the_range_and_bad_input_are_refused() {
    for size in [0, 239, 1025, 5000] {
        assert!(board_png(START_FEN, None, &options(size, Color::White)).is_err());
    }
    assert!(board_png("not a fen", None, &options(480, Color::White)).is_err());
    assert!(board_png(START_FEN, Some("e2e9"), &options(480, Color::White)).is_err());
    // A move that cannot have led to the position (its table: src/render/last_move.rs).
    assert!(board_png(START_FEN, Some("e2e5"), &options(480, Color::White)).is_err());
    assert!(board_png(START_FEN, Some("e2e4"), &options(480, Color::White)).is_err());
    // An illegal position is still drawn (no check is shown).
    assert!(
        board_png(
            "8/8/8/8/8/8/8/8 w - - 0 1",
            None,
            &options(480, Color::White)
        )
        .is_ok()
    );
}

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/render")
        .join(name)
}

/// Reference images: every theme and both orientations, pieces included.
#[test]
fn boards_match_the_reference_images() {
    let cases = [
        ("test-480-brown-white.png", 480, Color::White, Theme::Brown),
        (
            "test-241-colorblind-black.png",
            241,
            Color::Black,
            Theme::Colorblind,
        ),
        ("test-360-blue-black.png", 360, Color::Black, Theme::Blue),
        ("test-300-green-white.png", 300, Color::White, Theme::Green),
    ];
    let bless = std::env::var_os("PAWNPOST_BLESS").is_some();
    for (name, size, orientation, theme) in cases {
        let options = BoardOptions {
            theme,
            ..options(size, orientation)
        };
        let png = board_png(TEST_FEN, Some("h5f7"), &options).unwrap();
        if bless {
            std::fs::write(fixture(name), &png).unwrap();
            continue;
        }
        let reference: RgbaImage = image::open(fixture(name)).expect(name).to_rgba8();
        let actual = image::load_from_memory(&png).unwrap().to_rgba8();
        assert_eq!(reference.dimensions(), actual.dimensions(), "{name}");
        // Rasterizer updates may move edge pixels a little: allow 0.5% of
        // pixels to differ by more than a small amount.
        let differing = reference
            .pixels()
            .zip(actual.pixels())
            .filter(|(a, b)| (0..3).any(|i| a.0[i].abs_diff(b.0[i]) > 24))
            .count();
        let total = (size * size) as usize;
        assert!(
            differing * 200 <= total,
            "{name}: {differing} of {total} pixels differ"
        );
    }
}

/// A 40-move game's White win chances after each ply (81 positions): level
/// at first, Black pressing from move 7, Black's blunder at ply 23 (12...),
/// White's mistake at ply 40 (21.), White winning slowly after.
const EVAL_WINS: [f64; 81] = [
    50.0, 54.0, 52.0, 55.0, 53.0, 54.0, 51.0, 52.0, 49.0, 47.0, // plies 0-9
    58.0, 53.0, 50.0, 48.0, 45.0, 44.0, 41.0, 42.0, 39.0, 40.0, // 10-19
    38.0, 41.0, 37.0, 38.0, 82.0, 80.0, 83.0, 81.0, 84.0, 85.0, // 20-29
    86.0, 84.0, 85.0, 86.0, 87.0, 86.0, 88.0, 87.0, 88.0, 89.0, // 30-39
    88.0, 60.0, 62.0, 61.0, 63.0, 62.0, 64.0, 63.0, 66.0, 65.0, // 40-49
    67.0, 66.0, 68.0, 57.0, 63.0, 64.0, 66.0, 65.0, 68.0, 70.0, // 50-59
    72.0, 71.0, 74.0, 76.0, 75.0, 78.0, 80.0, 79.0, 82.0, 84.0, // 60-69
    83.0, 86.0, 88.0, 87.0, 90.0, 92.0, 91.0, 94.0, 96.0, 97.0, // 70-79
    98.0,
];

/// (ply index of the move, its judgement): 5...?! (ply 9), 12...?? (ply 23),
/// 21.? (ply 40), 27.?! (ply 52).
const EVAL_MARKS: [(usize, EvalMark); 4] = [
    (9, EvalMark::Inaccuracy),
    (23, EvalMark::Blunder),
    (40, EvalMark::Mistake),
    (52, EvalMark::Inaccuracy),
];

// The marks' colours, written out independently of the code.
const BLUNDER_RED: [u8; 3] = [215, 40, 40];
const MISTAKE_ORANGE: [u8; 3] = [240, 130, 20];
const INACCURACY_YELLOW: [u8; 3] = [240, 200, 40];

fn eval_labels(french: bool) -> EvalChartLabels<'static> {
    if french {
        EvalChartLabels {
            title: "Évaluation",
            x: "Coup",
            y: "Chances des Blancs (%)",
            inaccuracy: "Imprécision",
            mistake: "Erreur",
            blunder: "Gaffe",
        }
    } else {
        EvalChartLabels {
            title: "Evaluation",
            x: "Move",
            y: "White's win %",
            inaccuracy: "Inaccuracy",
            mistake: "Mistake",
            blunder: "Blunder",
        }
    }
}

/// The pixels of exactly `color`, as (x, y).
fn pixels_of(image: &RgbImage, color: [u8; 3]) -> Vec<(u32, u32)> {
    image
        .enumerate_pixels()
        .filter(|(_, _, p)| p.0 == color)
        .map(|(x, y, _)| (x, y))
        .collect()
}

/// The evaluation graph in English and French against its reference
/// images, and a few of its pixels checked by hand.
#[test]
fn eval_charts_match_the_reference_images() {
    let bless = std::env::var_os("PAWNPOST_BLESS").is_some();
    for (name, french) in [("eval-480-en.png", false), ("eval-480-fr.png", true)] {
        let png = eval_chart_png(&eval_labels(french), &EVAL_WINS, &EVAL_MARKS, 1).unwrap();
        let image = decode(&png);
        assert_eq!(image.dimensions(), (480, 260), "{name}");

        // The header row (the top 30 pixels) holds the legend, one mark of
        // each kind; the graph below holds the marks of the game.
        let (width, height) = image.dimensions();
        for color in [BLUNDER_RED, MISTAKE_ORANGE, INACCURACY_YELLOW] {
            let all = pixels_of(&image, color);
            assert!(
                all.iter().any(|&(x, y)| y < 30 && x > width / 3),
                "{name}: {color:?} in the legend"
            );
        }
        // The graph spans about x = 60..460 for plies 0..80: the blunder is
        // drawn after ply 24 (about x = 180), high up (White's 82%); the
        // mistake after ply 41 (about x = 265), lower (60%).
        let in_graph = |color| -> Vec<(u32, u32)> {
            pixels_of(&image, color)
                .into_iter()
                .filter(|&(_, y)| y >= 30)
                .collect()
        };
        let centre = |points: &[(u32, u32)]| {
            let n = points.len().max(1) as u32;
            let (sx, sy) = points
                .iter()
                .fold((0, 0), |(sx, sy), &(x, y)| (sx + x, sy + y));
            (sx / n, sy / n)
        };
        let blunder = in_graph(BLUNDER_RED);
        assert!(blunder.len() >= 40, "{name}: {} red pixels", blunder.len());
        let (bx, by) = centre(&blunder);
        assert!((160..=200).contains(&bx), "{name}: blunder at x {bx}");
        assert!((40..=110).contains(&by), "{name}: blunder at y {by}");
        let mistake = in_graph(MISTAKE_ORANGE);
        assert!(
            mistake.len() >= 40,
            "{name}: {} orange pixels",
            mistake.len()
        );
        let (mx, my) = centre(&mistake);
        assert!((245..=285).contains(&mx), "{name}: mistake at x {mx}");
        assert!(
            my > by + 30,
            "{name}: the mistake at {my} is lower than the blunder at {by}"
        );
        // Two inaccuracies (plus the legend's).
        assert!(in_graph(INACCURACY_YELLOW).len() >= 2 * 20, "{name}");

        // White's advantage is filled white above the curve's start line and
        // Black's in black: late in the game (White winning) a column holds
        // much white and no black; around ply 20 (Black better), black.
        let column = |x: u32, color: [u8; 3]| {
            // The plot's rows, clear of the axis below.
            (35..205)
                .filter(|&y| close(image.get_pixel(x, y).0, color, 12))
                .count()
        };
        assert!(column(420, [248; 3]) > 40, "{name}");
        assert_eq!(column(420, [34; 3]), 0, "{name}");
        assert!(column(160, [34; 3]) > 8, "{name}");

        if bless {
            std::fs::write(fixture(name), &png).unwrap();
            continue;
        }
        let reference = decode(&std::fs::read(fixture(name)).expect(name));
        assert_eq!(reference.dimensions(), image.dimensions(), "{name}");
        // As for the boards: 0.5% of pixels may differ by more than a little.
        let differing = reference
            .pixels()
            .zip(image.pixels())
            .filter(|(a, b)| (0..3).any(|i| a.0[i].abs_diff(b.0[i]) > 24))
            .count();
        let total = (width * height) as usize;
        assert!(
            differing * 200 <= total,
            "{name}: {differing} of {total} pixels differ"
        );
    }
}
