//! Canvases to files: indexed PNG and animated GIF.

use super::RenderError;
use super::board::Canvas;

/// An 8-bit indexed PNG: one byte a pixel and long runs of one square's colour.
pub fn png(canvas: &Canvas) -> Result<Vec<u8>, RenderError> {
    let mut out = Vec::with_capacity(canvas.width * canvas.height / 16);
    let mut encoder = png::Encoder::new(&mut out, canvas.width as u32, canvas.height as u32);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(canvas.palette().as_flattened().to_vec());
    // Measured on the benchmark position: zlib level 2 with the "up" filter
    // (a repeated row becomes zeros) is 23 KB in 1.9 ms at 720 px; the
    // fdeflate "fast" mode is 10× quicker but 38 KB, level 6 is 21 KB in 12 ms.
    encoder.set_deflate_compression(png::DeflateCompression::Level(2));
    encoder.set_filter(png::Filter::Up);
    let mut writer = encoder.write_header().map_err(encode_error)?;
    writer
        .write_image_data(&canvas.pixels)
        .map_err(encode_error)?;
    writer.finish().map_err(encode_error)?;
    Ok(out)
}

fn encode_error(error: png::EncodingError) -> RenderError {
    RenderError::Encode(error.to_string())
}

/// An animated GIF of `frames` (all the same size and palette), each shown
/// for its delay in hundredths of a second; only the part of a frame that
/// changed is stored.
pub fn gif(frames: &[(Canvas, u16)]) -> Result<Vec<u8>, RenderError> {
    let mut writer = GifWriter::new(usize::MAX);
    let mut previous: Option<&Canvas> = None;
    for (canvas, delay) in frames {
        writer.write(previous, canvas, *delay)?;
        previous = Some(canvas);
    }
    writer.finish()
}

/// An animated GIF written a frame at a time. Only the frame before is
/// kept (to find what changed), so memory does not grow with the number of
/// frames, and the file is bounded: a frame that takes it past `max_bytes`
/// is refused with [`RenderError::TooLarge`].
pub struct GifWriter {
    encoder: Option<gif::Encoder<Vec<u8>>>,
    previous: Option<Canvas>,
    max_bytes: usize,
}

impl GifWriter {
    pub fn new(max_bytes: usize) -> GifWriter {
        GifWriter {
            encoder: None,
            previous: None,
            max_bytes,
        }
    }

    /// Adds `canvas`, shown for `delay` hundredths of a second.
    pub fn push(&mut self, canvas: Canvas, delay: u16) -> Result<(), RenderError> {
        let previous = self.previous.take();
        self.write(previous.as_ref(), &canvas, delay)?;
        self.previous = Some(canvas);
        Ok(())
    }

    /// The finished file.
    pub fn finish(self) -> Result<Vec<u8>, RenderError> {
        let Some(encoder) = self.encoder else {
            return Err(RenderError::Encode("a GIF needs a frame".to_owned()));
        };
        encoder.into_inner().map_err(encode_gif_error)
    }

    /// Writes `canvas` as the part that differs from `previous`.
    fn write(
        &mut self,
        previous: Option<&Canvas>,
        canvas: &Canvas,
        delay: u16,
    ) -> Result<(), RenderError> {
        let (width, height) = (canvas.width, canvas.height);
        if previous.is_some_and(|p| (p.width, p.height) != (width, height)) {
            return Err(RenderError::Encode("frames differ in size".to_owned()));
        }
        let too_big = |side: usize| u16::try_from(side).is_err();
        if too_big(width) || too_big(height) || canvas.pixels.len() != width * height {
            return Err(RenderError::Encode("not a GIF frame".to_owned()));
        }
        let encoder = match self.encoder.take() {
            Some(encoder) => encoder,
            None => {
                let palette = canvas.palette().as_flattened();
                let mut encoder =
                    gif::Encoder::new(Vec::new(), width as u16, height as u16, palette)
                        .map_err(encode_gif_error)?;
                encoder
                    .set_repeat(gif::Repeat::Infinite)
                    .map_err(encode_gif_error)?;
                encoder
            }
        };
        let encoder = self.encoder.insert(encoder);
        let (left, top, right, bottom) = match previous {
            None => (0, 0, width, height),
            Some(before) => changed_box(before, canvas).unwrap_or((0, 0, 1, 1)),
        };
        let mut buffer = Vec::with_capacity((right - left) * (bottom - top));
        for y in top..bottom {
            buffer.extend_from_slice(&canvas.pixels[y * width + left..y * width + right]);
        }
        let frame = gif::Frame {
            left: left as u16,
            top: top as u16,
            width: (right - left) as u16,
            height: (bottom - top) as u16,
            delay,
            buffer: buffer.into(),
            ..gif::Frame::default()
        };
        encoder.write_frame(&frame).map_err(encode_gif_error)?;
        // One byte more closes the file.
        let written = encoder.get_ref().len() + 1;
        if written > self.max_bytes {
            return Err(RenderError::TooLarge {
                limit: self.max_bytes,
            });
        }
        Ok(())
    }
}

fn encode_gif_error(error: gif::EncodingError) -> RenderError {
    RenderError::Encode(error.to_string())
}

/// The smallest box (left, top, right, bottom) holding every changed pixel.
fn changed_box(before: &Canvas, after: &Canvas) -> Option<(usize, usize, usize, usize)> {
    let width = after.width;
    let rows: Vec<usize> = (0..after.height)
        .filter(|y| {
            before.pixels[y * width..(y + 1) * width] != after.pixels[y * width..(y + 1) * width]
        })
        .collect();
    let (top, bottom) = (*rows.first()?, *rows.last()? + 1);
    let mut left = width;
    let mut right = 0;
    for y in top..bottom {
        let row = y * width;
        for x in 0..width {
            if before.pixels[row + x] != after.pixels[row + x] {
                left = left.min(x);
                right = right.max(x + 1);
            }
        }
    }
    Some((left, top, right, bottom))
}
