//! Results charts as PNG bytes (the rating chart is in `rating_chart`), drawn with plotters' bitmap backend and the embedded
//! font (registered once; no system font is read).

use plotters::prelude::*;

use super::RenderError;
use super::bitmap::{FONT as FAMILY, draw_error as chart_error, encode_png, register_font};

/// One bar of a results chart: a player's wins, draws and losses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultsBar {
    pub label: String,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
}

/// A stacked bar chart of wins (green), draws (grey) and losses (red) per player.
pub fn results_png(
    title: &str,
    bars: &[ResultsBar],
    (width, height): (u32, u32),
) -> Result<Vec<u8>, RenderError> {
    register_font();
    let mut buffer = vec![0u8; width as usize * height as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut buffer, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(chart_error)?;
        let most = bars
            .iter()
            .map(|b| b.won + b.drawn + b.lost)
            .max()
            .unwrap_or(1)
            .max(1);
        let title: String = title.chars().take(60).collect();
        let labels: Vec<String> = bars
            .iter()
            .map(|b| b.label.chars().take(16).collect())
            .collect();
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FAMILY, 20))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(35)
            .build_cartesian_2d(0..bars.len().max(1), 0..most)
            .map_err(chart_error)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(bars.len().max(1))
            .x_label_formatter(&|i| labels.get(*i).cloned().unwrap_or_default())
            .label_style((FAMILY, 12))
            .draw()
            .map_err(chart_error)?;
        let parts = [
            (RGBColor(0x2e, 0x9e, 0x4f), 0),
            (RGBColor(0x9a, 0x9a, 0x9a), 1),
            (RGBColor(0xd0, 0x4a, 0x3e), 2),
        ];
        for (color, part) in parts {
            chart
                .draw_series(bars.iter().enumerate().map(|(i, bar)| {
                    let counts = [bar.won, bar.drawn, bar.lost];
                    let below: u32 = counts[..part].iter().sum();
                    Rectangle::new([(i, below), (i + 1, below + counts[part])], color.filled())
                }))
                .map_err(chart_error)?;
        }
        root.present().map_err(chart_error)?;
    }
    encode_png(&buffer, width, height)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(png: &[u8]) -> (u32, u32, Vec<u8>) {
        let mut reader = png::Decoder::new(std::io::Cursor::new(png))
            .read_info()
            .unwrap();
        let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buffer).unwrap();
        (info.width, info.height, buffer)
    }

    #[test]
    fn results_decode_with_their_bars() {
        let bars = vec![
            ResultsBar {
                label: "alice".into(),
                won: 5,
                drawn: 2,
                lost: 1,
            },
            ResultsBar {
                label: "bob".into(),
                won: 1,
                drawn: 2,
                lost: 5,
            },
        ];
        let png = results_png("Results", &bars, (400, 300)).unwrap();
        let (w, h, pixels) = decode(&png);
        assert_eq!((w, h), (400, 300));
        let green = pixels
            .chunks(3)
            .filter(|p| p == &[0x2e, 0x9e, 0x4f])
            .count();
        let red = pixels
            .chunks(3)
            .filter(|p| p == &[0xd0, 0x4a, 0x3e])
            .count();
        assert!(green > 500 && red > 500, "{green} {red}");
        assert!(results_png("", &[], (300, 200)).is_ok());
    }
}
