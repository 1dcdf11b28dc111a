//! A player's rating history as a PNG chart: the rating after each rated
//! game against the date, inside a band one rating deviation wide, with
//! labelled axes (as lichess's rating history shows it).

use chrono::{DateTime, Duration, Utc};
use plotters::prelude::*;

use super::bitmap::{self, FONT, RenderError, draw_error};

const WIDTH: u32 = 640;
const HEIGHT: u32 = 360;
const LINE: RGBColor = RGBColor(40, 90, 170);
const BAND: RGBColor = RGBColor(200, 215, 238);
/// The fewest days the date axis spans.
const MIN_DAYS: f64 = 7.0;

/// A rating at an instant, with its deviation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingSample {
    pub at: DateTime<Utc>,
    pub rating: f64,
    pub deviation: f64,
}

/// The chart's words, in the reader's language.
#[derive(Clone, Copy, Debug)]
pub struct ChartLabels<'a> {
    pub title: &'a str,
    /// The horizontal axis (dates).
    pub x: &'a str,
    /// The vertical axis (ratings).
    pub y: &'a str,
}

/// `samples` (oldest first) as a chart; none draws empty axes.
pub fn rating_chart_png(
    labels: &ChartLabels<'_>,
    samples: &[RatingSample],
) -> Result<Vec<u8>, RenderError> {
    bitmap::register_font();
    let mut rgb = vec![255u8; (WIDTH * HEIGHT * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        let low = samples
            .iter()
            .map(|s| s.rating - s.deviation)
            .fold(f64::INFINITY, f64::min);
        let high = samples
            .iter()
            .map(|s| s.rating + s.deviation)
            .fold(f64::NEG_INFINITY, f64::max);
        let (low, high) = match samples.is_empty() {
            true => (1400.0, 1600.0),
            false => ((low - 25.0).floor(), (high + 25.0).ceil()),
        };
        // Days since the first sample, with a margin on both sides so
        // that the first and last points (or a lone one) stand clear.
        let start = samples.first().map_or(DateTime::UNIX_EPOCH, |s| s.at);
        let day = |at: DateTime<Utc>| (at - start).num_seconds() as f64 / 86_400.0;
        let span = samples.last().map_or(0.0, |s| day(s.at));
        // At least a week across, so a lone game (or a few on one day)
        // stands on a calendar axis, not on hours.
        let margin = (span * 0.05).max((MIN_DAYS - span) / 2.0);
        let title: String = labels.title.chars().take(60).collect();
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, 20, FontStyle::Bold))
            .margin(12)
            .margin_right(40)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(-margin..span + margin, low..high)
            .map_err(draw_error)?;
        let date = |x: &f64| {
            let at = start + Duration::seconds((x * 86_400.0) as i64);
            at.format("%Y-%m-%d").to_string()
        };
        chart
            .configure_mesh()
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 15))
            .x_desc(labels.x)
            .y_desc(labels.y)
            .x_labels(4)
            .x_label_formatter(&date)
            .y_label_formatter(&|y| format!("{y:.0}"))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .map_err(draw_error)?;
        if !samples.is_empty() {
            // The band: along the top edge, then back along the bottom.
            let edge: Vec<(f64, f64)> = samples
                .iter()
                .map(|s| (day(s.at), s.rating + s.deviation))
                .chain(
                    samples
                        .iter()
                        .rev()
                        .map(|s| (day(s.at), s.rating - s.deviation)),
                )
                .collect();
            chart
                .draw_series(std::iter::once(Polygon::new(edge, BAND.filled())))
                .map_err(draw_error)?;
            // Each game's deviation as a bar too: a lone game has no band.
            let bars = samples.iter().map(|s| {
                let x = day(s.at);
                PathElement::new(
                    vec![(x, s.rating - s.deviation), (x, s.rating + s.deviation)],
                    BAND.mix(1.0).stroke_width(3),
                )
            });
            chart.draw_series(bars).map_err(draw_error)?;
            let line = samples.iter().map(|s| (day(s.at), s.rating));
            chart
                .draw_series(LineSeries::new(line, LINE.stroke_width(2)))
                .map_err(draw_error)?;
            let dots = samples
                .iter()
                .map(|s| Circle::new((day(s.at), s.rating), 3, LINE.filled()));
            chart.draw_series(dots).map_err(draw_error)?;
        }
        root.present().map_err(draw_error)?;
    }
    bitmap::encode_png(&rgb, WIDTH, HEIGHT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn a_history_is_a_png() {
        let at = |day| Utc.with_ymd_and_hms(2026, 3, day, 12, 0, 0).unwrap();
        let labels = ChartLabels {
            title: "alice",
            x: "Date",
            y: "Rating",
        };
        let samples = [
            RatingSample {
                at: at(1),
                rating: 1500.0,
                deviation: 350.0,
            },
            RatingSample {
                at: at(4),
                rating: 1662.3,
                deviation: 290.0,
            },
            RatingSample {
                at: at(9),
                rating: 1590.1,
                deviation: 250.0,
            },
        ];
        let png = rating_chart_png(&labels, &samples).expect("png");
        assert_eq!(bitmap::decode_png(&png), (WIDTH, HEIGHT));
        let empty = rating_chart_png(&labels, &[]).expect("png");
        assert_eq!(bitmap::decode_png(&empty), (WIDTH, HEIGHT));
        let one = rating_chart_png(&labels, &samples[..1]).expect("png");
        assert_eq!(bitmap::decode_png(&one), (WIDTH, HEIGHT));
    }
}
