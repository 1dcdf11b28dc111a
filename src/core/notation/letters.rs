//! The letters pieces are written with: per language when reading, per
//! style when writing.

use shakmaty::Role;

use super::{Lang, Style};

/// The piece a Latin upper-case letter names in `lang` (none in Russian,
/// whose letters are Cyrillic: see [`russian_piece`]).
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

/// The piece a Russian text starts with, and how many characters name it:
/// `Кр` the king, `К` the knight, `Ф` `Л` `С` queen, rook, bishop, in either
/// case. Russian writes pawns without a letter.
pub(super) fn russian_piece(chars: &[char]) -> Option<(Role, usize)> {
    match chars {
        ['К' | 'к', 'р' | 'Р', ..] => Some((Role::King, 2)),
        [c, ..] => russian_letter(*c).map(|role| (role, 1)),
        [] => None,
    }
}

/// The piece one Cyrillic letter names (a promotion, or a piece but the king).
pub(super) fn russian_letter(c: char) -> Option<Role> {
    match c {
        'Ф' | 'ф' => Some(Role::Queen),
        'Л' | 'л' => Some(Role::Rook),
        'С' | 'с' => Some(Role::Bishop),
        'К' | 'к' => Some(Role::Knight),
        _ => None,
    }
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

/// The letters `role` is written with in `style`. Figurines are the white
/// ones for both sides: they name the kind of piece, not its colour.
pub(super) fn symbol(role: Role, style: Style) -> &'static str {
    use Role::*;
    match (style, role) {
        (_, Pawn) => "P",
        (Style::English, King) => "K",
        (Style::English, Queen) => "Q",
        (Style::English, Rook) => "R",
        (Style::English, Bishop) => "B",
        (Style::English, Knight) => "N",
        (Style::French, King) => "R",
        (Style::French, Queen) => "D",
        (Style::French, Rook) => "T",
        (Style::French, Bishop) => "F",
        (Style::French, Knight) => "C",
        (Style::German, King) => "K",
        (Style::German, Queen) => "D",
        (Style::German, Rook) => "T",
        (Style::German, Bishop) => "L",
        (Style::German, Knight) => "S",
        (Style::Figurine, King) => "♔",
        (Style::Figurine, Queen) => "♕",
        (Style::Figurine, Rook) => "♖",
        (Style::Figurine, Bishop) => "♗",
        (Style::Figurine, Knight) => "♘",
        (Style::Russian, King) => "Кр",
        (Style::Russian, Queen) => "Ф",
        (Style::Russian, Rook) => "Л",
        (Style::Russian, Bishop) => "С",
        (Style::Russian, Knight) => "К",
    }
}

/// The sign written between the squares of a capture.
pub(super) fn capture_sign(style: Style) -> char {
    match style {
        Style::Russian => ':',
        Style::English | Style::French | Style::German | Style::Figurine => 'x',
    }
}
