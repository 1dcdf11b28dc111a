//! Piece sprites, prepared once per (theme, square size) and cached: each
//! piece already drawn over each square background, as palette indices, so
//! drawing a board only copies rows.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use resvg::{tiny_skia, usvg};
use shakmaty::{Color, Piece, Role};

use super::font::{Mask, text_mask};
use super::palette::{Ground, Palette};
use super::theme::Theme;

/// Sprite sets kept; past this the cache starts again (a bot uses one or two sizes).
const CACHED_SETS: usize = 24;

fn piece_svg(piece: Piece) -> &'static str {
    use Color::*;
    use Role::*;
    match (piece.color, piece.role) {
        (White, King) => include_str!("../../assets/pieces/cburnett/wK.svg"),
        (White, Queen) => include_str!("../../assets/pieces/cburnett/wQ.svg"),
        (White, Rook) => include_str!("../../assets/pieces/cburnett/wR.svg"),
        (White, Bishop) => include_str!("../../assets/pieces/cburnett/wB.svg"),
        (White, Knight) => include_str!("../../assets/pieces/cburnett/wN.svg"),
        (White, Pawn) => include_str!("../../assets/pieces/cburnett/wP.svg"),
        (Black, King) => include_str!("../../assets/pieces/cburnett/bK.svg"),
        (Black, Queen) => include_str!("../../assets/pieces/cburnett/bQ.svg"),
        (Black, Rook) => include_str!("../../assets/pieces/cburnett/bR.svg"),
        (Black, Bishop) => include_str!("../../assets/pieces/cburnett/bB.svg"),
        (Black, Knight) => include_str!("../../assets/pieces/cburnett/bN.svg"),
        (Black, Pawn) => include_str!("../../assets/pieces/cburnett/bP.svg"),
    }
}

/// The index of a piece among the twelve.
pub(crate) fn piece_index(piece: Piece) -> usize {
    piece.color as usize * 6 + (piece.role as usize - 1)
}

fn all_pieces() -> impl Iterator<Item = Piece> {
    [Color::Black, Color::White]
        .into_iter()
        .flat_map(|color| Role::ALL.into_iter().map(move |role| Piece { color, role }))
}

/// Prepared sets by theme and square size.
type Cache = Mutex<HashMap<(Theme, usize), Arc<Sprites>>>;

/// Everything a board of one theme and square size draws with.
pub(crate) struct Sprites {
    pub square: usize,
    pub palette: Arc<Palette>,
    /// `tiles[ground][piece]`: `square * square` palette indices.
    tiles: [Vec<Vec<u8>>; 6],
    /// File letters a..h and rank digits 1..8.
    pub files: [Mask; 8],
    pub ranks: [Mask; 8],
}

impl Sprites {
    pub fn tile(&self, ground: Ground, piece: Piece) -> &[u8] {
        &self.tiles[ground as usize][piece_index(piece)]
    }

    /// The cached set for `theme` at `square` pixels, made on first use.
    pub fn get(theme: Theme, square: usize) -> Arc<Sprites> {
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let cache = CACHE.get_or_init(Default::default);
        if let Some(sprites) = cache.lock().expect("sprite cache").get(&(theme, square)) {
            return Arc::clone(sprites);
        }
        // Built outside the lock; two threads may both build it once.
        let sprites = Arc::new(Sprites::new(theme, square));
        let mut map = cache.lock().expect("sprite cache");
        if map.len() >= CACHED_SETS {
            map.clear();
        }
        Arc::clone(map.entry((theme, square)).or_insert(sprites))
    }

    fn new(theme: Theme, square: usize) -> Sprites {
        let palette = Arc::new(palette_of(theme));
        let colors = palette.colors();
        let mut tiles: [Vec<Vec<u8>>; 6] = Default::default();
        let mut rasters: Vec<(Piece, tiny_skia::Pixmap)> = all_pieces()
            .map(|piece| (piece, rasterize(piece, square)))
            .collect();
        rasters.sort_by_key(|(piece, _)| piece_index(*piece));
        for ground in Ground::ALL {
            let bg = colors[palette.ground(ground) as usize];
            let mut memo: HashMap<[u8; 4], u8> = HashMap::new();
            tiles[ground as usize] = rasters
                .iter()
                .map(|(_, pixmap)| {
                    pixmap
                        .data()
                        .chunks_exact(4)
                        .map(|p| {
                            if p[3] == 0 {
                                return palette.ground(ground);
                            }
                            let key = [p[0], p[1], p[2], p[3]];
                            *memo.entry(key).or_insert_with(|| {
                                // Premultiplied source over the opaque background.
                                let rgb = std::array::from_fn(|i| {
                                    let under = bg[i] as u32 * (255 - p[3] as u32) / 255;
                                    (p[i] as u32 + under).min(255) as u8
                                });
                                palette.nearest_piece_color(ground, rgb)
                            })
                        })
                        .collect()
                })
                .collect();
        }
        let px = coordinate_px(square);
        Sprites {
            square,
            palette,
            tiles,
            files: std::array::from_fn(|i| text_mask(&((b'a' + i as u8) as char).to_string(), px)),
            ranks: std::array::from_fn(|i| text_mask(&(i + 1).to_string(), px)),
        }
    }
}

/// One palette per theme, shared by every size.
fn palette_of(theme: Theme) -> Palette {
    Palette::new(theme)
}

/// Coordinates take about a fifth of a square.
pub(crate) fn coordinate_px(square: usize) -> f32 {
    (square as f32 * 0.21).max(8.0)
}

fn rasterize(piece: Piece, square: usize) -> tiny_skia::Pixmap {
    let tree = usvg::Tree::from_str(piece_svg(piece), &usvg::Options::default())
        .expect("the embedded piece SVGs parse");
    let size = square as u32;
    let mut pixmap = tiny_skia::Pixmap::new(size, size).expect("a square is at least 1 px");
    let scale = square as f32 / tree.size().width();
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_has_ink_and_the_cache_shares_sets() {
        let sprites = Sprites::get(Theme::Brown, 40);
        let empty = sprites.palette.ground(Ground::Light);
        for piece in all_pieces() {
            let tile = sprites.tile(Ground::Light, piece);
            assert_eq!(tile.len(), 40 * 40);
            let inked = tile.iter().filter(|i| **i != empty).count();
            assert!(inked > 200, "{piece:?}: {inked}");
        }
        assert!(Arc::ptr_eq(&sprites, &Sprites::get(Theme::Brown, 40)));
    }
}
