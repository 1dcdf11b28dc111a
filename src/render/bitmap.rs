//! What the PNG pictures share: the embedded font, registered once with
//! plotters, and the RGB buffer's PNG encoding.

use std::sync::Once;

/// The embedded DejaVu Sans subsets: the boards' bold, and the regular
/// weight for table cells and chart labels.
use super::font::FONT_BYTES as DEJAVU_SANS_BOLD;
static DEJAVU_SANS: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf");

/// The family name our charts ask plotters for.
pub const FONT: &str = "sans-serif";

pub use super::RenderError;

/// Registers the embedded fonts with plotters, once per process: the
/// regular weight as `FontStyle::Normal`, the bold as `FontStyle::Bold`.
pub fn register_font() {
    use plotters::style::{FontStyle, register_font};
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for (style, bytes) in [
            (FontStyle::Normal, DEJAVU_SANS),
            (FontStyle::Bold, DEJAVU_SANS_BOLD),
        ] {
            if register_font(FONT, style, bytes).is_err() {
                tracing::error!("an embedded font does not load");
            }
        }
    });
}

/// An RGB buffer (`width * height * 3` bytes) as a PNG file.
pub fn encode_png(rgb: &[u8], width: u32, height: u32) -> Result<Vec<u8>, RenderError> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let encode_error = |e: png::EncodingError| RenderError::Encode(e.to_string());
    let mut writer = encoder.write_header().map_err(encode_error)?;
    writer.write_image_data(rgb).map_err(encode_error)?;
    writer.finish().map_err(encode_error)?;
    Ok(out)
}

/// A drawing error as ours (plotters' errors are generic over the backend).
pub fn draw_error(error: impl std::fmt::Display) -> RenderError {
    RenderError::Draw(error.to_string())
}

#[cfg(test)]
pub(crate) fn decode_png(bytes: &[u8]) -> (u32, u32) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("PNG frame");
    (info.width, info.height)
}
