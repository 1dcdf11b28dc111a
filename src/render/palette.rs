//! The fixed palette of a theme: every colour a board image can contain,
//! so a render writes palette indices and never quantizes.
//!
//! It holds the six square backgrounds, the ramps an anti-aliased piece edge
//! can produce over each of them (towards black, towards white, and black to
//! white), the ramps of coordinate and caption text, and the caption colours.

use super::theme::{Rgb, Theme};

/// Levels of an anti-aliasing ramp, both ends included.
pub(crate) const RAMP: usize = 10;

/// Caption strip colours (the same in every theme).
const CAPTION_IDLE: Rgb = [0x2b, 0x2a, 0x28];
/// The side to move: lichess's green for a running clock, never mistaken for the idle grey.
const CAPTION_ACTIVE: Rgb = [0x62, 0x99, 0x24];
const CAPTION_TEXT: Rgb = [0xf2, 0xf2, 0xf2];
/// The heart of the glow around a king in check (as lichess draws it).
const CHECK_GLOW: Rgb = [0xff, 0x00, 0x00];

/// A square's background.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ground {
    Light = 0,
    Dark = 1,
    LastLight = 2,
    LastDark = 3,
    CheckLight = 4,
    CheckDark = 5,
}

impl Ground {
    pub const ALL: [Ground; 6] = [
        Ground::Light,
        Ground::Dark,
        Ground::LastLight,
        Ground::LastDark,
        Ground::CheckLight,
        Ground::CheckDark,
    ];

    pub fn of(light: bool, last_move: bool, check: bool) -> Ground {
        match (light, last_move, check) {
            (true, _, true) => Ground::CheckLight,
            (false, _, true) => Ground::CheckDark,
            (true, true, _) => Ground::LastLight,
            (false, true, _) => Ground::LastDark,
            (true, false, _) => Ground::Light,
            (false, false, _) => Ground::Dark,
        }
    }

    pub fn is_light(self) -> bool {
        matches!(self, Ground::Light | Ground::LastLight | Ground::CheckLight)
    }
}

/// A caption strip's background: the side to move has the lighter one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Strip {
    Idle = 0,
    Active = 1,
}

/// Palette indices from a background colour (level 0) to a text colour.
pub(crate) type Ramp = [u8; RAMP];

#[derive(Debug)]
pub(crate) struct Palette {
    colors: Vec<Rgb>,
    grounds: [u8; 6],
    /// For each ground, the colours a piece pixel over it may take.
    piece_colors: [Vec<u8>; 6],
    /// For each ground, its coordinate text ramp (the opposite square colour).
    coordinates: [Ramp; 6],
    strips: [u8; 2],
    captions: [Ramp; 2],
    /// From the check glow's red heart (level 0) out to the plain light
    /// and dark square.
    glows: [Ramp; 2],
}

fn mix(from: Rgb, to: Rgb, level: usize, levels: usize) -> Rgb {
    let t = level as f32 / (levels - 1) as f32;
    std::array::from_fn(|i| (from[i] as f32 + (to[i] as f32 - from[i] as f32) * t).round() as u8)
}

impl Palette {
    pub fn new(theme: Theme) -> Palette {
        let c = theme.colors();
        let ground_rgb = [
            c.light,
            c.dark,
            c.last_light,
            c.last_dark,
            c.check_light,
            c.check_dark,
        ];
        let mut palette = Palette {
            colors: Vec::with_capacity(256),
            grounds: [0; 6],
            piece_colors: Default::default(),
            coordinates: [[0; RAMP]; 6],
            strips: [0; 2],
            captions: [[0; RAMP]; 2],
            glows: [[0; RAMP]; 2],
        };
        for ground in Ground::ALL {
            palette.grounds[ground as usize] = palette.add(ground_rgb[ground as usize]);
        }
        let greys = palette.ramp([0; 3], [255; 3]);
        for ground in Ground::ALL {
            let bg = ground_rgb[ground as usize];
            let mut colors = vec![palette.grounds[ground as usize]];
            colors.extend(palette.ramp(bg, [0; 3]));
            colors.extend(palette.ramp(bg, [255; 3]));
            colors.extend(greys);
            colors.sort_unstable();
            colors.dedup();
            palette.piece_colors[ground as usize] = colors;
            let text = if ground.is_light() { c.dark } else { c.light };
            palette.coordinates[ground as usize] = palette.ramp(bg, text);
        }
        palette.glows = [
            palette.ramp(CHECK_GLOW, c.light),
            palette.ramp(CHECK_GLOW, c.dark),
        ];
        palette.strips = [palette.add(CAPTION_IDLE), palette.add(CAPTION_ACTIVE)];
        palette.captions = [
            palette.ramp(CAPTION_IDLE, CAPTION_TEXT),
            palette.ramp(CAPTION_ACTIVE, CAPTION_TEXT),
        ];
        assert!(palette.colors.len() <= 256, "palette of {theme} overflows");
        palette
    }

    fn add(&mut self, rgb: Rgb) -> u8 {
        if let Some(index) = self.colors.iter().position(|c| *c == rgb) {
            return index as u8;
        }
        self.colors.push(rgb);
        (self.colors.len() - 1) as u8
    }

    fn ramp(&mut self, from: Rgb, to: Rgb) -> Ramp {
        std::array::from_fn(|level| self.add(mix(from, to, level, RAMP)))
    }

    pub fn colors(&self) -> &[Rgb] {
        &self.colors
    }

    pub fn ground(&self, ground: Ground) -> u8 {
        self.grounds[ground as usize]
    }

    pub fn coordinates(&self, ground: Ground) -> &Ramp {
        &self.coordinates[ground as usize]
    }

    /// The check glow's ramp over a light or a dark square.
    pub fn glow(&self, light: bool) -> &Ramp {
        &self.glows[usize::from(!light)]
    }

    pub fn strip(&self, strip: Strip) -> u8 {
        self.strips[strip as usize]
    }

    pub fn caption(&self, strip: Strip) -> &Ramp {
        &self.captions[strip as usize]
    }

    /// The palette colour nearest to `rgb` among those a piece over `ground` uses.
    pub fn nearest_piece_color(&self, ground: Ground, rgb: Rgb) -> u8 {
        let distance = |index: &u8| {
            let c = self.colors[*index as usize];
            (0..3)
                .map(|i| (c[i] as i32 - rgb[i] as i32).pow(2))
                .sum::<i32>()
        };
        *self.piece_colors[ground as usize]
            .iter()
            .min_by_key(|index| distance(index))
            .expect("every ground has colours")
    }
}

/// The ramp level for a coverage of 0..=255.
pub(crate) fn level(coverage: u8) -> usize {
    (coverage as usize * (RAMP - 1) + 127) / 255
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_theme_fits_in_256_colours_and_keeps_its_squares_exact() {
        for theme in Theme::ALL {
            let palette = Palette::new(theme);
            assert!(palette.colors().len() <= 256);
            let c = theme.colors();
            assert_eq!(
                palette.colors()[palette.ground(Ground::Light) as usize],
                c.light
            );
            assert_eq!(
                palette.colors()[palette.ground(Ground::CheckDark) as usize],
                c.check_dark
            );
            assert_eq!(
                palette.nearest_piece_color(Ground::Dark, c.dark),
                palette.ground(Ground::Dark)
            );
        }
    }
}
