//! A game's evaluation graph as a PNG, as lichess's engine review shows it:
//! White's win chance after each ply on a grey ground, filled in white from
//! the 50% line up to the curve where White is ahead and in black down to
//! it where Black is, the judged moves marked on the curve (a shape and a
//! colour for each judgement) and a legend beside the title.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::bitmap::{self, FONT, RenderError, draw_error};

const WIDTH: u32 = 480;
const HEIGHT: u32 = 260;
/// The row of the title and the legend, above the graph.
const HEADER: u32 = 30;
/// The margin left and right of the title and legend.
const SIDE: i32 = 10;
const GROUND: RGBColor = RGBColor(150, 150, 150);
const GRID: RGBColor = RGBColor(168, 168, 168);
const MIDDLE: RGBColor = RGBColor(120, 120, 120);
const WHITE_AREA: RGBColor = RGBColor(248, 248, 248);
const BLACK_AREA: RGBColor = RGBColor(34, 34, 34);
const CURVE: RGBColor = RGBColor(70, 70, 70);
const INK: RGBColor = RGBColor(30, 30, 30);
/// Around each mark, so that a yellow one shows on the white area too.
const OUTLINE: RGBColor = RGBColor(20, 20, 20);
/// The most move numbers written under the graph.
const MAX_TICKS: u64 = 8;

/// A judged move to mark on the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalMark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl EvalMark {
    const ALL: [EvalMark; 3] = [EvalMark::Inaccuracy, EvalMark::Mistake, EvalMark::Blunder];

    /// Yellow, orange and red, as lichess marks them.
    fn color(self) -> RGBColor {
        match self {
            EvalMark::Inaccuracy => RGBColor(240, 200, 40),
            EvalMark::Mistake => RGBColor(240, 130, 20),
            EvalMark::Blunder => RGBColor(215, 40, 40),
        }
    }

    /// Draws the mark centred on `(x, y)` (pixels of `area`): a small
    /// circle, a middling square, a large diamond, so that the shape and the
    /// size tell them apart without the colour. Each has a dark rim.
    fn draw(self, area: &Area<'_>, (x, y): (i32, i32)) -> Result<(), RenderError> {
        let color = self.color();
        match self {
            EvalMark::Inaccuracy => {
                area.draw(&Circle::new((x, y), 6, OUTLINE.filled()))
                    .map_err(draw_error)?;
                area.draw(&Circle::new((x, y), 4, color.filled()))
                    .map_err(draw_error)?;
            }
            EvalMark::Mistake => {
                for (half, fill) in [(7, OUTLINE), (5, color)] {
                    let corners = [(x - half, y - half), (x + half, y + half)];
                    area.draw(&Rectangle::new(corners, fill.filled()))
                        .map_err(draw_error)?;
                }
            }
            EvalMark::Blunder => {
                for (half, fill) in [(10, OUTLINE), (7, color)] {
                    let diamond = vec![(x, y - half), (x + half, y), (x, y + half), (x - half, y)];
                    area.draw(&Polygon::new(diamond, fill.filled()))
                        .map_err(draw_error)?;
                }
            }
        }
        Ok(())
    }
}

/// The graph's words, in the reader's language.
#[derive(Clone, Copy, Debug)]
pub struct EvalChartLabels<'a> {
    pub title: &'a str,
    /// The horizontal axis (move numbers).
    pub x: &'a str,
    /// The vertical axis (White's win chance, 0 to 100).
    pub y: &'a str,
    /// The legend's entries.
    pub inaccuracy: &'a str,
    pub mistake: &'a str,
    pub blunder: &'a str,
}

type Area<'a> = DrawingArea<BitMapBackend<'a>, Shift>;

/// The evaluation graph of a game, 480 × 260 pixels.
///
/// `wins[i]` is White's win chance in percent (0 to 100) after `i` plies,
/// `wins[0]` the start; a value outside 0..=100 is taken as the nearer end,
/// and NaN as 50. `marks` are (ply index of the move, 0-based: the move that
/// led from `wins[ply]` to `wins[ply + 1]`; its judgement), drawn on the
/// curve at `wins[ply + 1]`; a mark past the curve's end is left out.
/// `first_move_number` is the full-move number of the first move (1 from
/// the standard start): the horizontal axis is written in moves, each number
/// at the position after the move's first ply (White's move when White
/// starts). Fewer than two values draw the empty axes.
pub fn eval_chart_png(
    labels: &EvalChartLabels<'_>,
    wins: &[f64],
    marks: &[(usize, EvalMark)],
    first_move_number: u32,
) -> Result<Vec<u8>, RenderError> {
    bitmap::register_font();
    let mut rgb = vec![255u8; (WIDTH * HEIGHT * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        draw_header(&root, labels)?;
        let (_, below) = root.split_vertically(HEADER);

        let curve: Vec<(f64, f64)> = wins
            .iter()
            .enumerate()
            .map(|(ply, &win)| (ply as f64, clamp_win(win)))
            .collect();
        // At least one move's width, so that a short game has an x axis.
        let span = curve.len().saturating_sub(1).max(2);
        let ticks = move_ticks(span, first_move_number);
        let first = u64::from(first_move_number);
        let move_at = |ply: &f64| {
            let ply = ply.round().max(0.0) as u64;
            format!("{}", first + ply.saturating_sub(1) / 2)
        };
        let mut chart = ChartBuilder::on(&below)
            .margin_top(4)
            .margin_bottom(6)
            .margin_left(8)
            .margin_right(16)
            .x_label_area_size(40)
            .y_label_area_size(48)
            .build_cartesian_2d(
                Ticked {
                    range: 0.0..span as f64,
                    ticks,
                },
                Ticked {
                    range: 0.0..100.0,
                    ticks: vec![0.0, 25.0, 50.0, 75.0, 100.0],
                },
            )
            .map_err(draw_error)?;
        chart.plotting_area().fill(&GROUND).map_err(draw_error)?;
        chart
            .configure_mesh()
            .label_style((FONT, 13).into_font().color(&INK))
            .axis_desc_style((FONT, 14).into_font().color(&INK))
            .x_desc(labels.x)
            .y_desc(labels.y)
            .x_label_formatter(&move_at)
            .y_label_formatter(&|y| format!("{y:.0}"))
            .bold_line_style(GRID.stroke_width(1))
            .light_line_style(TRANSPARENT)
            .axis_style(INK.stroke_width(1))
            .draw()
            .map_err(draw_error)?;

        if curve.len() >= 2 {
            for (edge, color) in advantage_areas(&curve) {
                chart
                    .draw_series(std::iter::once(Polygon::new(edge, color.filled())))
                    .map_err(draw_error)?;
            }
        }
        let even = [(0.0, 50.0), (span as f64, 50.0)];
        chart
            .draw_series(LineSeries::new(even, MIDDLE.stroke_width(2)))
            .map_err(draw_error)?;
        if curve.len() >= 2 {
            chart
                .draw_series(LineSeries::new(
                    curve.iter().copied(),
                    CURVE.stroke_width(2),
                ))
                .map_err(draw_error)?;
        }

        for (after, mark) in shown_marks(marks, curve.len()) {
            mark.draw(&root, chart.backend_coord(&curve[after]))?;
        }
        root.present().map_err(draw_error)?;
    }
    bitmap::encode_png(&rgb, WIDTH, HEIGHT)
}

/// The title on the left of the top row and the legend on its right; a
/// title too long for the room left is cut short with an ellipsis.
fn draw_header(root: &Area<'_>, labels: &EvalChartLabels<'_>) -> Result<(), RenderError> {
    let middle = (HEADER / 2) as i32;
    let words = (FONT, 13)
        .into_font()
        .color(&INK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    // Each entry: its mark's room, a gap, its word; entries a gap apart.
    const MARK_ROOM: i32 = 26;
    const GAP: i32 = 14;
    let entries: Vec<(EvalMark, String)> = EvalMark::ALL
        .iter()
        .zip([labels.inaccuracy, labels.mistake, labels.blunder])
        .map(|(&mark, word)| (mark, word.chars().take(24).collect()))
        .collect();
    let mut widths = Vec::new();
    for (_, word) in &entries {
        let (width, _) = root.estimate_text_size(word, &words).map_err(draw_error)?;
        widths.push(width as i32);
    }
    let legend: i32 = widths.iter().map(|w| MARK_ROOM + w).sum::<i32>() + GAP * 2;
    let mut x = WIDTH as i32 - SIDE - legend;
    for ((mark, word), width) in entries.iter().zip(&widths) {
        mark.draw(root, (x + MARK_ROOM / 2 - 2, middle))?;
        root.draw_text(word, &words, (x + MARK_ROOM, middle))
            .map_err(draw_error)?;
        x += MARK_ROOM + width + GAP;
    }

    let title_style = (FONT, 16, FontStyle::Bold)
        .into_font()
        .color(&INK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let room = WIDTH as i32 - SIDE - legend - GAP - SIDE;
    let mut title: String = labels.title.chars().take(80).collect();
    let fits = |text: &str| -> Result<bool, RenderError> {
        let (width, _) = root
            .estimate_text_size(text, &title_style)
            .map_err(draw_error)?;
        Ok(width as i32 <= room)
    };
    if !fits(&title)? {
        while title.pop().is_some() && !fits(&format!("{title}…"))? {}
        title = format!("{}…", title.trim_end());
    }
    if room > 0 {
        root.draw_text(&title, &title_style, (SIDE, middle))
            .map_err(draw_error)?;
    }
    Ok(())
}

/// A linear axis with its ticks given: plotters' own f64 axes choose
/// theirs, and its wrapper that takes them cannot write f64 values.
struct Ticked {
    range: Range<f64>,
    ticks: Vec<f64>,
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, (from, to): (i32, i32)) -> i32 {
        let share = (value - self.range.start) / (self.range.end - self.range.start);
        // A NaN share (an empty range) casts to 0: no panic.
        from + (f64::from(to - from) * share).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        // The ticks are the grid; no finer lines.
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.range.clone()
    }
}

/// A win chance as drawn: NaN as 50, anything else within 0..=100.
fn clamp_win(win: f64) -> f64 {
    if win.is_nan() {
        50.0
    } else {
        win.clamp(0.0, 100.0)
    }
}

/// The areas between a curve of at least two points and the even line,
/// as polygons with their colour: White's advantage above it, Black's
/// below.
fn advantage_areas(curve: &[(f64, f64)]) -> [(Vec<(f64, f64)>, RGBColor); 2] {
    let split = split_at_even(curve);
    let (start, end) = (split[0].0, split[split.len() - 1].0);
    let area = |keep: fn(f64, f64) -> f64| -> Vec<(f64, f64)> {
        std::iter::once((start, 50.0))
            .chain(split.iter().map(|&(x, y)| (x, keep(y, 50.0))))
            .chain(std::iter::once((end, 50.0)))
            .collect()
    };
    [(area(f64::max), WHITE_AREA), (area(f64::min), BLACK_AREA)]
}

/// The marks drawn on a curve of `points` values, each at the point after
/// its move, the worst last (on top where marks meet); none on a curve of
/// fewer than two points, nor past its end.
fn shown_marks(marks: &[(usize, EvalMark)], points: usize) -> Vec<(usize, EvalMark)> {
    let mut shown: Vec<(usize, EvalMark)> = marks
        .iter()
        .filter_map(|&(ply, mark)| {
            let after = ply.checked_add(1)?;
            (after < points && points >= 2).then_some((after, mark))
        })
        .collect();
    shown.sort_by_key(|&(_, mark)| mark as u8);
    shown
}

/// The curve with a point added where each segment crosses 50%, so that
/// the parts above and below can be filled apart.
fn split_at_even(curve: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut split = Vec::with_capacity(curve.len() * 2);
    split.extend(curve.first().copied());
    for pair in curve.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        if (y0 - 50.0) * (y1 - 50.0) < 0.0 {
            let t = (50.0 - y0) / (y1 - y0);
            split.push((x0 + t * (x1 - x0), 50.0));
        }
        split.push((x1, y1));
    }
    split
}

/// The plies (0 to `span`) at which move numbers are written: every
/// `step`th move from `first_move_number` on, `step` the smallest of 1, 2,
/// 5, 10, 20, 50… that writes at most [`MAX_TICKS`] numbers. Move `n` is
/// written at the position after its first ply.
fn move_ticks(span: usize, first_move_number: u32) -> Vec<f64> {
    let first = u64::from(first_move_number);
    // The moves whose first ply is within the graph.
    let Some(moves) = (span as u64).checked_sub(1).map(|plies| plies / 2 + 1) else {
        return Vec::new();
    };
    let last = first + moves - 1;
    let lowest = |step: u64| first.div_ceil(step) * step;
    let count = |step: u64| match lowest(step) {
        low if low > last => 0,
        low => (last - low) / step + 1,
    };
    let step = (0..19)
        .flat_map(|power| [1, 2, 5].map(|m| m * 10u64.pow(power)))
        .find(|&step| count(step) <= MAX_TICKS)
        .unwrap_or(u64::MAX);
    (lowest(step)..=last)
        .step_by(step as usize)
        .map(|number| (2 * (number - first) + 1) as f64)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels() -> EvalChartLabels<'static> {
        EvalChartLabels {
            title: "Evaluation",
            x: "Move",
            y: "White's win %",
            inaccuracy: "Inaccuracy",
            mistake: "Mistake",
            blunder: "Blunder",
        }
    }

    fn size(wins: &[f64], marks: &[(usize, EvalMark)], first: u32) -> (u32, u32) {
        let png = eval_chart_png(&labels(), wins, marks, first).expect("png");
        bitmap::decode_png(&png)
    }

    #[test]
    fn short_and_odd_series_draw_at_the_stated_size() {
        let all = [
            (0, EvalMark::Inaccuracy),
            (1, EvalMark::Mistake),
            (usize::MAX, EvalMark::Blunder),
        ];
        assert_eq!(size(&[], &[], 1), (WIDTH, HEIGHT));
        assert_eq!(size(&[], &all, 1), (WIDTH, HEIGHT));
        assert_eq!(size(&[61.0], &all, 1), (WIDTH, HEIGHT));
        assert_eq!(size(&[50.0, 80.0], &all, 0), (WIDTH, HEIGHT));
        let odd = [
            f64::NAN,
            f64::INFINITY,
            -1e300,
            1e300,
            f64::NEG_INFINITY,
            -0.0,
            100.0,
            0.0,
        ];
        assert_eq!(size(&odd, &all, u32::MAX), (WIDTH, HEIGHT));
        assert_eq!(size(&[f64::NAN; 3], &all, 1), (WIDTH, HEIGHT));
    }

    #[test]
    fn a_2000_ply_game_with_a_mark_on_every_move_draws() {
        let wins: Vec<f64> = (0..=2000)
            .map(|ply| 50.0 + 60.0 * (ply as f64 / 7.0).sin())
            .collect();
        let marks: Vec<(usize, EvalMark)> =
            (0..2100).map(|ply| (ply, EvalMark::ALL[ply % 3])).collect();
        assert_eq!(size(&wins, &marks, 1), (WIDTH, HEIGHT));
        assert_eq!(size(&wins, &marks, u32::MAX - 3), (WIDTH, HEIGHT));
    }

    #[test]
    fn a_title_too_long_is_cut_and_still_draws() {
        let long = "Évaluation très longue ".repeat(20);
        let labels = EvalChartLabels {
            title: &long,
            ..labels()
        };
        let png = eval_chart_png(&labels, &[50.0, 40.0, 70.0], &[], 1).unwrap();
        assert_eq!(bitmap::decode_png(&png), (WIDTH, HEIGHT));
    }

    #[test]
    fn win_chances_are_clamped() {
        assert_eq!(clamp_win(f64::NAN), 50.0);
        assert_eq!(clamp_win(-3.0), 0.0);
        assert_eq!(clamp_win(f64::INFINITY), 100.0);
        assert_eq!(clamp_win(64.5), 64.5);
    }

    #[test]
    fn the_curve_is_split_where_it_crosses_the_middle() {
        let curve = [
            (0.0, 40.0),
            (1.0, 60.0),
            (2.0, 50.0),
            (3.0, 70.0),
            (4.0, 20.0),
        ];
        assert_eq!(
            split_at_even(&curve),
            vec![
                (0.0, 40.0),
                (0.5, 50.0),
                (1.0, 60.0),
                (2.0, 50.0),
                (3.0, 70.0),
                (3.4, 50.0),
                (4.0, 20.0)
            ]
        );
        assert!(split_at_even(&[]).is_empty());
    }

    #[test]
    fn move_numbers_are_spaced_to_at_most_eight() {
        // (plies shown, first move number, plies written at)
        let cases: &[(usize, u32, &[f64])] = &[
            (2, 1, &[1.0]),
            (4, 1, &[1.0, 3.0]),
            (6, 7, &[1.0, 3.0, 5.0]),
            (16, 1, &[1.0, 3.0, 5.0, 7.0, 9.0, 11.0, 13.0, 15.0]),
            // 9 moves: every second one, from move 2.
            (18, 1, &[3.0, 7.0, 11.0, 15.0]),
            // 40 moves: every fifth.
            (80, 1, &[9.0, 19.0, 29.0, 39.0, 49.0, 59.0, 69.0, 79.0]),
            // 41 moves from move 10: every tenth.
            (81, 10, &[1.0, 21.0, 41.0, 61.0, 81.0]),
        ];
        for &(span, first, plies) in cases {
            assert_eq!(
                move_ticks(span, first),
                plies,
                "{span} plies from move {first}"
            );
        }
        for span in [1, 2, 3, 10, 99, 2000, 100_000] {
            for first in [0, 1, 37, u32::MAX] {
                let ticks = move_ticks(span, first);
                assert!(!ticks.is_empty() && ticks.len() <= MAX_TICKS as usize);
                assert!(ticks.iter().all(|&ply| ply <= span as f64), "{ticks:?}");
            }
        }
    }
}
