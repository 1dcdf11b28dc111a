//! A table (standings, crosstables) as a PNG picture.

use plotters::prelude::*;

use super::bitmap::{self, FONT, RenderError, draw_error};

const ROW_HEIGHT: u32 = 28;
const PADDING: u32 = 12;
const CHAR_WIDTH: u32 = 10;
/// Rows drawn at most; a longer table ends with a row saying how many more
/// there are (the text reply has them all).
pub const MAX_ROWS: usize = 60;

/// `header` and `rows` (cells as text) drawn as a table.
pub fn table_png(header: &[String], rows: &[Vec<String>]) -> Result<Vec<u8>, RenderError> {
    bitmap::register_font();
    let shown;
    let rows = if rows.len() > MAX_ROWS {
        // Never cut silently: the last row counts the rest.
        let mut kept = rows[..MAX_ROWS - 1].to_vec();
        kept.push(vec![format!("… +{}", rows.len() - (MAX_ROWS - 1))]);
        shown = kept;
        &shown[..]
    } else {
        rows
    };
    let columns = header.len();
    // Each column as wide as its longest cell (in characters, bounded).
    let widths: Vec<u32> = (0..columns)
        .map(|c| {
            let longest = std::iter::once(&header[c])
                .chain(rows.iter().filter_map(|r| r.get(c)))
                .map(|cell| cell.chars().count().min(24))
                .max()
                .unwrap_or(1);
            longest as u32 * CHAR_WIDTH + 2 * PADDING
        })
        .collect();
    let width = widths.iter().sum::<u32>().max(120);
    let height = (rows.len() as u32 + 1) * ROW_HEIGHT + PADDING;
    let mut rgb = vec![255u8; (width * height * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        let header_style = (FONT, 17).into_font().color(&BLACK);
        let cell_style = (FONT, 16).into_font().color(&BLACK);
        for (index, row) in std::iter::once(header)
            .chain(rows.iter().map(Vec::as_slice))
            .enumerate()
        {
            let top = index as u32 * ROW_HEIGHT;
            let fill = match index {
                0 => RGBColor(210, 222, 238),
                i if i % 2 == 0 => RGBColor(242, 242, 242),
                _ => WHITE,
            };
            root.draw(&Rectangle::new(
                [(0, top as i32), (width as i32, (top + ROW_HEIGHT) as i32)],
                fill.filled(),
            ))
            .map_err(draw_error)?;
            let mut left = 0;
            for (column, cell) in row.iter().enumerate().take(columns) {
                let text: String = cell.chars().take(24).collect();
                let style = if index == 0 {
                    &header_style
                } else {
                    &cell_style
                };
                root.draw(&Text::new(
                    text,
                    ((left + PADDING) as i32, (top + 6) as i32),
                    style.clone(),
                ))
                .map_err(draw_error)?;
                left += widths[column];
            }
        }
        root.present().map_err(draw_error)?;
    }
    bitmap::encode_png(&rgb, width, height)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_is_a_png_of_its_size() {
        let header = ["#", "player", "pts"].map(str::to_owned).to_vec();
        let rows = vec![
            vec!["1".to_owned(), "alice".to_owned(), "2½".to_owned()],
            vec!["2".to_owned(), "bob".to_owned(), "½".to_owned()],
        ];
        let png = table_png(&header, &rows).expect("png");
        let (width, height) = bitmap::decode_png(&png);
        assert_eq!(height, 3 * ROW_HEIGHT + PADDING);
        assert!(width >= 120);
    }

    #[test]
    fn a_long_table_ends_with_how_many_rows_are_left_out() {
        let header = ["#", "player"].map(str::to_owned).to_vec();
        let rows: Vec<Vec<String>> = (1..=100)
            .map(|n| vec![n.to_string(), format!("player {n}")])
            .collect();
        let png = table_png(&header, &rows).expect("png");
        let (_, height) = bitmap::decode_png(&png);
        // 59 players, then "… +41", under the header.
        assert_eq!(height, (MAX_ROWS as u32 + 1) * ROW_HEIGHT + PADDING);
    }
}
