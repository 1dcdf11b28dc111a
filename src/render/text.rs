//! A board as a text diagram, for the console.

use shakmaty::{Chess, Color, File, Position, Rank, Square};

/// The diagram of the position `fen` from White's side, or Black's when
/// `black_below`; `None` if `fen` is not a standard position.
pub fn diagram_of_fen(fen: &str, black_below: bool) -> Option<String> {
    let fen: shakmaty::fen::Fen = fen.parse().ok()?;
    let pos: Chess = fen.into_position(shakmaty::CastlingMode::Standard).ok()?;
    let orientation = if black_below {
        Color::Black
    } else {
        Color::White
    };
    Some(diagram(&pos, orientation))
}

/// Eight lines of eight squares plus file letters, seen from `orientation`'s side.
/// White pieces are upper case, Black lower case, empty squares `.`.
pub fn diagram(pos: &Chess, orientation: Color) -> String {
    let mut ranks: Vec<Rank> = Rank::ALL.into_iter().rev().collect();
    let mut files: Vec<File> = File::ALL.to_vec();
    if orientation == Color::Black {
        ranks.reverse();
        files.reverse();
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_from_both_sides() {
        let white = diagram(&Chess::default(), Color::White);
        assert!(white.starts_with("8 r n b q k b n r\n"));
        assert!(white.ends_with("  a b c d e f g h"));
        let black = diagram(&Chess::default(), Color::Black);
        assert!(black.starts_with("1 R N B K Q B N R\n"));
        assert!(black.ends_with("  h g f e d c b a"));
    }
}
