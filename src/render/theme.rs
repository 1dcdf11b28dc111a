//! Board colour themes.

/// An sRGB colour.
pub type Rgb = [u8; 3];

/// A colour theme for the squares and their highlights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Theme {
    /// lichess's brown board.
    #[default]
    Brown,
    /// Grey-blue squares.
    Blue,
    /// Green and cream squares.
    Green,
    /// Neutral greys with sky-blue move and orange check highlights
    /// (Okabe–Ito colours, told apart with any common colour-vision deficiency).
    Colorblind,
}

/// The six square backgrounds a theme defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ThemeColors {
    pub light: Rgb,
    pub dark: Rgb,
    pub last_light: Rgb,
    pub last_dark: Rgb,
    pub check_light: Rgb,
    pub check_dark: Rgb,
}

impl Theme {
    pub const ALL: [Theme; 4] = [Theme::Brown, Theme::Blue, Theme::Green, Theme::Colorblind];

    pub fn name(self) -> &'static str {
        match self {
            Theme::Brown => "brown",
            Theme::Blue => "blue",
            Theme::Green => "green",
            Theme::Colorblind => "colorblind",
        }
    }

    pub fn from_name(name: &str) -> Option<Theme> {
        Theme::ALL
            .into_iter()
            .find(|theme| theme.name().eq_ignore_ascii_case(name.trim()))
    }

    pub(crate) fn colors(self) -> ThemeColors {
        match self {
            Theme::Brown => ThemeColors {
                light: [0xf0, 0xd9, 0xb5],
                dark: [0xb5, 0x88, 0x63],
                last_light: [0xcd, 0xd2, 0x6a],
                last_dark: [0xaa, 0xa2, 0x3a],
                check_light: [0xf0, 0x8a, 0x6e],
                check_dark: [0xd0, 0x5a, 0x3e],
            },
            Theme::Blue => ThemeColors {
                light: [0xde, 0xe3, 0xe6],
                dark: [0x8c, 0xa2, 0xad],
                last_light: [0xc3, 0xd8, 0x87],
                last_dark: [0x92, 0xb1, 0x66],
                check_light: [0xf0, 0x90, 0x80],
                check_dark: [0xcc, 0x5f, 0x55],
            },
            Theme::Green => ThemeColors {
                light: [0xff, 0xff, 0xdd],
                dark: [0x86, 0xa6, 0x66],
                last_light: [0xf6, 0xf0, 0x7c],
                last_dark: [0xc8, 0xc6, 0x3e],
                check_light: [0xf3, 0x8f, 0x7b],
                check_dark: [0xd2, 0x5c, 0x47],
            },
            Theme::Colorblind => ThemeColors {
                light: [0xe8, 0xe8, 0xe8],
                dark: [0x9a, 0x9a, 0x9a],
                last_light: [0xa8, 0xd8, 0xf5],
                last_dark: [0x56, 0xb4, 0xe9],
                check_light: [0xf2, 0xb8, 0x4b],
                check_dark: [0xe6, 0x9f, 0x00],
            },
        }
    }
}

impl std::fmt::Display for Theme {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for theme in Theme::ALL {
            assert_eq!(Theme::from_name(theme.name()), Some(theme));
        }
        assert_eq!(Theme::from_name("Brown "), Some(Theme::Brown));
        assert_eq!(Theme::from_name("purple"), None);
    }

    #[test]
    fn highlights_differ_from_plain_squares() {
        for theme in Theme::ALL {
            let c = theme.colors();
            let all = [
                c.light,
                c.dark,
                c.last_light,
                c.last_dark,
                c.check_light,
                c.check_dark,
            ];
            for (i, a) in all.iter().enumerate() {
                for b in &all[i + 1..] {
                    assert_ne!(a, b, "{theme}");
                }
            }
        }
    }
}
