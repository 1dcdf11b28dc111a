//! The embedded font (DejaVu Sans Bold, a subset; see `assets/fonts`) and
//! text rasterized into coverage masks. No system font is ever read.

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};

pub(crate) static FONT_BYTES: &[u8] =
    include_bytes!("../../assets/fonts/DejaVuSans-Bold-subset.ttf");

pub(crate) fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| FontRef::try_from_slice(FONT_BYTES).expect("the embedded font parses"))
}

/// One line of text as coverage (0..=255), `height` rows from the ascent
/// line down to the descent line.
#[derive(Clone, Debug, Default)]
pub(crate) struct Mask {
    pub width: usize,
    pub height: usize,
    pub coverage: Vec<u8>,
}

impl Mask {
    pub fn at(&self, x: usize, y: usize) -> u8 {
        self.coverage[y * self.width + x]
    }
}

/// The advance width of `text` at `px` pixels.
pub(crate) fn text_width(text: &str, px: f32) -> f32 {
    let font = font().as_scaled(PxScale::from(px));
    let mut width = 0.0;
    let mut previous = None;
    for c in text.chars() {
        let id = font.glyph_id(c);
        if let Some(prev) = previous {
            width += font.kern(prev, id);
        }
        width += font.h_advance(id);
        previous = Some(id);
    }
    width
}

/// Rasterizes `text` at `px` pixels.
pub(crate) fn text_mask(text: &str, px: f32) -> Mask {
    let scaled = font().as_scaled(PxScale::from(px));
    let ascent = scaled.ascent();
    let width = text_width(text, px).ceil() as usize + 2;
    let height = (ascent - scaled.descent()).ceil() as usize + 1;
    let mut mask = Mask {
        width,
        height,
        coverage: vec![0; width * height],
    };
    let mut x = 0.0;
    let mut previous = None;
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(prev) = previous {
            x += scaled.kern(prev, id);
        }
        let glyph = id.with_scale_and_position(px, point(x, ascent));
        x += scaled.h_advance(id);
        previous = Some(id);
        let Some(outline) = font().outline_glyph(glyph) else {
            continue;
        };
        let bounds = outline.px_bounds();
        outline.draw(|gx, gy, c| {
            let px = bounds.min.x as i64 + gx as i64;
            let py = bounds.min.y as i64 + gy as i64;
            if px >= 0 && py >= 0 && (px as usize) < width && (py as usize) < height {
                let cell = &mut mask.coverage[py as usize * width + px as usize];
                *cell = (*cell).max((c.clamp(0.0, 1.0) * 255.0).round() as u8);
            }
        });
    }
    mask
}

/// `text` cut to fit `max_width` pixels at `px`, with an ellipsis when cut.
pub(crate) fn fit(text: &str, px: f32, max_width: f32) -> String {
    if text_width(text, px) <= max_width {
        return text.to_owned();
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let candidate: String = chars.iter().chain(['…'].iter()).collect();
        if text_width(&candidate, px) <= max_width {
            return candidate;
        }
    }
    String::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_has_ink_and_fits() {
        let mask = text_mask("Ng1-f3 ♔", 20.0);
        assert!(mask.coverage.iter().any(|c| *c > 200));
        assert!(fit("a very long player name indeed", 12.0, 60.0).ends_with('…'));
        assert_eq!(fit("bob", 12.0, 60.0), "bob");
    }
}
