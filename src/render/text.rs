//! A board as a text diagram, for the console.

use shakmaty::{Chess, Color, File, Position, Rank, Role, Square};

/// The diagram of the position `fen` from White's side, or Black's when
/// `black_below`; `None` if `fen` is not a position. Castling rights are read
/// as Chess960's, which also reads every standard FEN.
pub fn diagram_of_fen(fen: &str, black_below: bool) -> Option<String> {
    let (pos, orientation) = position_of(fen, black_below)?;
    Some(diagram(&pos, orientation))
}

/// The position of `fen`, and the side seen at the bottom.
fn position_of(fen: &str, black_below: bool) -> Option<(Chess, Color)> {
    let fen: shakmaty::fen::Fen = fen.parse().ok()?;
    let pos: Chess = fen.into_position(shakmaty::CastlingMode::Chess960).ok()?;
    Some((
        pos,
        if black_below {
            Color::Black
        } else {
            Color::White
        },
    ))
}

/// The ranks top to bottom and the files left to right, seen from `orientation`'s side.
fn lines_seen_by(orientation: Color) -> (Vec<Rank>, Vec<File>) {
    let mut ranks: Vec<Rank> = Rank::ALL.into_iter().rev().collect();
    let mut files: Vec<File> = File::ALL.to_vec();
    if orientation == Color::Black {
        ranks.reverse();
        files.reverse();
    }
    (ranks, files)
}

/// Eight lines of eight squares plus file letters, seen from `orientation`'s side.
/// White pieces are upper case, Black lower case, empty squares `.`.
pub fn diagram(pos: &Chess, orientation: Color) -> String {
    let (ranks, files) = lines_seen_by(orientation);
    let mut out = String::with_capacity(200);
    for rank in &ranks {
        out.push(rank.char());
        out.push(' ');
        for file in &files {
            let square = Square::from_coords(*file, *rank);
            let symbol = pos.board().piece_at(square).map_or('.', |p| p.char());
            out.push(symbol);
            out.push(' ');
        }
        out.pop();
        out.push('\n');
    }
    out.push_str("  ");
    let letters: Vec<String> = files.iter().map(|f| f.char().to_string()).collect();
    out.push_str(&letters.join(" "));
    out
}

/// The squares' colours in a terminal, as 24-bit ANSI backgrounds, and the
/// pieces' colours as foregrounds. A terminal cannot outline a glyph, so
/// the browns are darker than lichess's: both inks keep a contrast of at
/// least 3:1 (WCAG's for graphics) on both squares, where white on
/// lichess's light square had 1.4:1.
#[cfg(test)]
const LIGHT_RGB: [u8; 3] = [181, 136, 99];
#[cfg(test)]
const DARK_RGB: [u8; 3] = [130, 94, 64];
const LIGHT: &str = "\x1b[48;2;181;136;99m";
const DARK: &str = "\x1b[48;2;130;94;64m";
const WHITE_PIECE: &str = "\x1b[1;38;2;255;255;255m";
const BLACK_PIECE: &str = "\x1b[1;38;2;0;0;0m";
const RESET: &str = "\x1b[0m";

/// The board for a terminal that shows colours: solid Unicode pieces,
/// white or black, on light and dark squares, seen from `orientation`'s
/// side, with rank digits and file letters.
pub fn coloured_diagram(pos: &Chess, orientation: Color) -> String {
    let (ranks, files) = lines_seen_by(orientation);
    let mut out = String::with_capacity(2000);
    for rank in &ranks {
        out.push(rank.char());
        out.push(' ');
        for file in &files {
            let square = Square::from_coords(*file, *rank);
            out.push_str(if square.is_light() { LIGHT } else { DARK });
            match pos.board().piece_at(square) {
                Some(piece) => {
                    let ink = piece.color.fold_wb(WHITE_PIECE, BLACK_PIECE);
                    // The solid glyphs for both sides: the ink tells them apart.
                    let glyph = match piece.role {
                        Role::King => '♚',
                        Role::Queen => '♛',
                        Role::Rook => '♜',
                        Role::Bishop => '♝',
                        Role::Knight => '♞',
                        Role::Pawn => '♟',
                    };
                    out.push_str(&format!("{ink} {glyph} "));
                }
                None => out.push_str("   "),
            }
        }
        out.push_str(RESET);
        out.push('\n');
    }
    out.push_str("  ");
    for file in &files {
        out.push(' ');
        out.push(file.char());
        out.push(' ');
    }
    out
}

/// `fen` as [`coloured_diagram`] draws it; `None` if it is not a position.
pub fn coloured_diagram_of_fen(fen: &str, black_below: bool) -> Option<String> {
    let fen: shakmaty::fen::Fen = fen.parse().ok()?;
    let pos: Chess = fen.into_position(shakmaty::CastlingMode::Chess960).ok()?;
    let orientation = if black_below {
        Color::Black
    } else {
        Color::White
    };
    Some(coloured_diagram(&pos, orientation))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG 2's relative luminance of an sRGB colour.
    fn luminance([r, g, b]: [u8; 3]) -> f64 {
        let linear = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    }

    fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
        let (la, lb) = (luminance(a), luminance(b));
        (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
    }

    #[test]
    fn both_inks_stand_out_on_both_squares() {
        for (square, escape) in [(LIGHT_RGB, LIGHT), (DARK_RGB, DARK)] {
            let [r, g, b] = square;
            assert_eq!(escape, format!("\x1b[48;2;{r};{g};{b}m"));
            for ink in [[255, 255, 255], [0, 0, 0]] {
                let ratio = contrast(ink, square);
                assert!(ratio >= 3.0, "{ink:?} on {square:?}: {ratio:.2}");
            }
        }
    }

    #[test]
    fn a_coloured_board_has_unicode_pieces_on_ansi_squares() {
        let board = coloured_diagram(&Chess::default(), Color::White);
        let lines: Vec<&str> = board.lines().collect();
        assert_eq!(lines.len(), 9);
        assert!(lines[0].starts_with("8 "));
        assert_eq!(lines[0].matches('♜').count(), 2);
        assert_eq!(lines[7].matches('♚').count(), 1);
        assert!(lines[3].contains(LIGHT) && lines[3].contains(DARK));
        assert!(lines[0].ends_with(RESET));
        assert_eq!(lines[8], "   a  b  c  d  e  f  g  h ");
    }

    #[test]
    fn start_position_from_both_sides() {
        let white = diagram(&Chess::default(), Color::White);
        assert!(white.starts_with("8 r n b q k b n r\n"));
        assert!(white.ends_with("  a b c d e f g h"));
        let black = diagram(&Chess::default(), Color::Black);
        assert!(black.starts_with("1 R N B K Q B N R\n"));
        assert!(black.ends_with("  h g f e d c b a"));
    }

    #[test]
    fn chess960_positions_are_drawn_whatever_their_castling_rights_say() {
        // Start 959 after White castled long (king-takes-rook b1a1), Black
        // keeping both rights, written as Shredder-FEN and as X-FEN.
        for fen in [
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/2KRNQBB b ac - 1 1",
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/2KRNQBB b kq - 1 1",
        ] {
            let diagram = diagram_of_fen(fen, false).expect(fen);
            assert!(
                diagram.ends_with("1 . . K R N Q B B\n  a b c d e f g h"),
                "{diagram}"
            );
        }
    }
}
