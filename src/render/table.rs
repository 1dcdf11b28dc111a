//! A table (standings, crosstables, the ladder) as a PNG picture: a bold
//! title and a line saying where and when above it, a bold header row,
//! then the rows in the regular weight.

use plotters::prelude::*;
use plotters::style::FontStyle;

use super::bitmap::{self, FONT, RenderError, draw_error};

const ROW_HEIGHT: u32 = 28;
const PADDING: u32 = 12;
const CHAR_WIDTH: u32 = 10;
/// The title's height: a bold line and a smaller one under it.
const CAPTION_HEIGHT: u32 = 58;
/// Cells longer than this many characters end with an ellipsis.
const MAX_CELL_CHARS: usize = 24;
/// Rows drawn at most; a longer table ends with a row saying how many more
/// there are (the text reply has them all).
pub const MAX_ROWS: usize = 60;

/// What a table is: its title, and a line under it (where, when).
#[derive(Clone, Copy, Debug)]
pub struct Caption<'a> {
    pub title: &'a str,
    pub detail: &'a str,
}

/// A cell as drawn: at most [`MAX_CELL_CHARS`] characters, the last an
/// ellipsis when it was cut.
fn fitted(cell: &str, max: usize) -> String {
    if cell.chars().count() <= max {
        return cell.to_owned();
    }
    let mut kept: String = cell.chars().take(max - 1).collect();
    kept.push('…');
    kept
}

/// `header` and `rows` (cells as text) drawn as a table under `caption`.
pub fn table_png(
    caption: &Caption<'_>,
    header: &[String],
    rows: &[Vec<String>],
) -> Result<Vec<u8>, RenderError> {
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
                .map(|cell| cell.chars().count().min(MAX_CELL_CHARS))
                .max()
                .unwrap_or(1);
            longest as u32 * CHAR_WIDTH + 2 * PADDING
        })
        .collect();
    // A tournament's name (60 characters) and its heading in any language.
    let title = fitted(caption.title, 120);
    let detail = fitted(caption.detail, 80);
    let caption_width =
        (title.chars().count() as u32 * 12).max(detail.chars().count() as u32 * 9) + 2 * PADDING;
    let width = widths.iter().sum::<u32>().max(caption_width).max(240);
    let height = CAPTION_HEIGHT + (rows.len() as u32 + 1) * ROW_HEIGHT + PADDING;
    let mut rgb = vec![255u8; (width * height * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        let bold = |size: f64| (FONT, size, FontStyle::Bold).into_font().color(&BLACK);
        let regular = |size: f64| (FONT, size).into_font().color(&BLACK);
        let grey = (FONT, 15.0).into_font().color(&RGBColor(90, 90, 90));
        root.draw(&Text::new(title, (PADDING as i32, 8), bold(20.0)))
            .map_err(draw_error)?;
        root.draw(&Text::new(detail, (PADDING as i32, 34), grey))
            .map_err(draw_error)?;
        for (index, row) in std::iter::once(header)
            .chain(rows.iter().map(Vec::as_slice))
            .enumerate()
        {
            let top = CAPTION_HEIGHT + index as u32 * ROW_HEIGHT;
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
            let style = if index == 0 {
                bold(16.0)
            } else {
                regular(16.0)
            };
            let mut left = 0;
            for (column, cell) in row.iter().enumerate().take(columns) {
                root.draw(&Text::new(
                    fitted(cell, MAX_CELL_CHARS),
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

    const CAPTION: Caption<'static> = Caption {
        title: "Standings",
        detail: "console · 2026-11-26",
    };

    #[test]
    fn a_table_is_a_png_of_its_size() {
        let header = ["#", "player", "pts"].map(str::to_owned).to_vec();
        let rows = vec![
            vec!["1".to_owned(), "alice".to_owned(), "2½".to_owned()],
            vec!["2".to_owned(), "bob".to_owned(), "½".to_owned()],
        ];
        let png = table_png(&CAPTION, &header, &rows).expect("png");
        let (width, height) = bitmap::decode_png(&png);
        assert_eq!(height, CAPTION_HEIGHT + 3 * ROW_HEIGHT + PADDING);
        assert!(width >= 240);
    }

    /// A French crosstable's heading with a long tournament name is drawn
    /// whole: the picture is as wide as the heading needs.
    #[test]
    fn a_long_title_is_drawn_whole() {
        let name = "n".repeat(60);
        let title = format!("Tournoi #12 « {name} » : grille américaine après la ronde 10");
        let caption = Caption {
            title: &title,
            detail: "console",
        };
        let header = ["#"].map(str::to_owned).to_vec();
        let png = table_png(&caption, &header, &[]).expect("png");
        let (width, _) = bitmap::decode_png(&png);
        assert!(width >= title.chars().count() as u32 * 12, "{width}");
    }

    #[test]
    fn a_long_table_ends_with_how_many_rows_are_left_out() {
        let header = ["#", "player"].map(str::to_owned).to_vec();
        let rows: Vec<Vec<String>> = (1..=100)
            .map(|n| vec![n.to_string(), format!("player {n}")])
            .collect();
        let png = table_png(&CAPTION, &header, &rows).expect("png");
        let (_, height) = bitmap::decode_png(&png);
        // 59 players, then "… +41", under the header.
        assert_eq!(
            height,
            CAPTION_HEIGHT + (MAX_ROWS as u32 + 1) * ROW_HEIGHT + PADDING
        );
    }

    #[test]
    fn long_cells_end_with_an_ellipsis() {
        assert_eq!(fitted("alice", 24), "alice");
        let long = "Maximilian Alexander von Hohenberg";
        let cut = fitted(long, 24);
        assert_eq!(cut.chars().count(), 24);
        assert!(cut.ends_with('…') && cut.starts_with("Maximilian Alexander"));
        assert_eq!(fitted(&"é".repeat(30), 24).chars().count(), 24);
    }
}
