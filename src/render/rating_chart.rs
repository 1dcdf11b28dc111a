//! A player's rating history as a PNG line chart.

use plotters::prelude::*;

use super::bitmap::{self, FONT, RenderError, draw_error};

const WIDTH: u32 = 640;
const HEIGHT: u32 = 360;

/// Ratings after each rated game, oldest first, as a line chart titled `title`.
pub fn rating_chart_png(title: &str, ratings: &[f64]) -> Result<Vec<u8>, RenderError> {
    bitmap::register_font();
    let mut rgb = vec![255u8; (WIDTH * HEIGHT * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        let low = ratings.iter().copied().fold(f64::INFINITY, f64::min);
        let high = ratings.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let (low, high) = if ratings.is_empty() {
            (1400.0, 1600.0)
        } else {
            ((low - 50.0).floor(), (high + 50.0).ceil())
        };
        let games = ratings.len().max(2) - 1;
        let title: String = title.chars().take(60).collect();
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, 20))
            .margin(12)
            .x_label_area_size(32)
            .y_label_area_size(56)
            .build_cartesian_2d(0..games, low..high)
            .map_err(draw_error)?;
        chart
            .configure_mesh()
            .label_style((FONT, 14))
            .x_labels(games.min(10))
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()
            .map_err(draw_error)?;
        chart
            .draw_series(LineSeries::new(
                ratings.iter().copied().enumerate(),
                RGBColor(40, 90, 170).stroke_width(2),
            ))
            .map_err(draw_error)?;
        root.present().map_err(draw_error)?;
    }
    bitmap::encode_png(&rgb, WIDTH, HEIGHT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_history_is_a_png() {
        let png = rating_chart_png("alice", &[1500.0, 1662.3, 1590.1]).expect("png");
        assert_eq!(bitmap::decode_png(&png), (WIDTH, HEIGHT));
        let empty = rating_chart_png("bob", &[]).expect("png");
        assert_eq!(bitmap::decode_png(&empty), (WIDTH, HEIGHT));
    }
}
