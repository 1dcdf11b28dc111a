//! The letters pieces are written with: per language when reading, per
//! style when writing.

use shakmaty::Role;

use super::{Lang, Style};

/// The piece an upper-case letter names in `lang`.
pub(super) fn role_letter(upper: char, lang: Lang) -> Option<Role> {
    use Role::*;
    let role = match (lang, upper) {
        (Lang::En, 'K') | (Lang::Fr, 'R') | (Lang::De, 'K') => King,
        (Lang::En, 'Q') | (Lang::Fr, 'D') | (Lang::De, 'D') => Queen,
        (Lang::En, 'R') | (Lang::Fr, 'T') | (Lang::De, 'T') => Rook,
        (Lang::En, 'B') | (Lang::Fr, 'F') | (Lang::De, 'L') => Bishop,
        (Lang::En, 'N') | (Lang::Fr, 'C') | (Lang::De, 'S') => Knight,
        (Lang::En, 'P') | (Lang::Fr, 'P') | (Lang::De, 'B') => Pawn,
        _ => return None,
    };
    Some(role)
}

/// The piece a figurine shows; both colours are read, since people paste
/// whatever their site printed.
pub(super) fn figurine(c: char) -> Option<Role> {
    let role = match c {
        '♔' | '♚' => Role::King,
        '♕' | '♛' => Role::Queen,
        '♖' | '♜' => Role::Rook,
        '♗' | '♝' => Role::Bishop,
        '♘' | '♞' => Role::Knight,
        '♙' | '♟' => Role::Pawn,
        _ => return None,
    };
    Some(role)
}

/// Whether `c` is a file letter in lower case (`a` to `h`).
pub(super) fn is_file_letter(c: char) -> bool {
    c.is_ascii_lowercase() && c <= 'h'
}

/// The letter `role` is written with in `style`. Figurines are the white
/// ones for both sides: they name the kind of piece, not its colour.
pub(super) fn symbol(role: Role, style: Style) -> char {
    use Role::*;
    match (style, role) {
        (_, Pawn) => 'P',
        (Style::English, r) => r.upper_char(),
        (Style::French, King) => 'R',
        (Style::French, Queen) => 'D',
        (Style::French, Rook) => 'T',
        (Style::French, Bishop) => 'F',
        (Style::French, Knight) => 'C',
        (Style::Figurine, King) => '♔',
        (Style::Figurine, Queen) => '♕',
        (Style::Figurine, Rook) => '♖',
        (Style::Figurine, Bishop) => '♗',
        (Style::Figurine, Knight) => '♘',
    }
}
