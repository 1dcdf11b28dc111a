//! Moves back to text, in the reader's style.

use shakmaty::san::SanPlus;
use shakmaty::{CastlingSide, Chess, Move, Position, Role};

use super::letters::{capture_sign, role_letter, symbol};
use super::{Lang, Reader, Style, parse_move};

/// Writes `m` (legal in `pos`) in SAN with its check or mate suffix.
pub fn write_san(pos: &Chess, m: Move, style: Style) -> String {
    let san = SanPlus::from_move(pos.clone(), m).to_string();
    restyle_san(&san, style)
}

/// Rewrites English SAN (as stored in a game) in another style, letter by letter.
///
/// Only the leading piece letter and the promotion letter change (and the
/// capture sign, in Russian): files (`b`), castling (`O-O`) and suffixes
/// stay as they are.
pub fn restyle_san(english_san: &str, style: Style) -> String {
    if style == Style::English {
        return english_san.to_owned();
    }
    let mut out = String::with_capacity(english_san.len() + 4);
    let mut after_equals = false;
    for (index, c) in english_san.chars().enumerate() {
        // A lower-case `b` is a file, never a bishop; role_letter only knows upper case.
        let piece = (index == 0 || after_equals)
            .then(|| role_letter(c, Lang::En))
            .flatten()
            .filter(|role| *role != Role::Pawn);
        match piece {
            Some(role) => out.push_str(symbol(role, style)),
            // In English SAN `x` is only ever the capture sign.
            None if c == 'x' => out.push(capture_sign(style)),
            None => out.push(c),
        }
        after_equals = c == '=';
    }
    out
}

/// Writes `m` (legal in `pos`) unambiguously with its origin square, such
/// as `Ke1-d1`, `Ra1xd1`, `e7-e8=Q`, `e5xd6` (en passant) or `O-O`: the form
/// used to list ambiguous candidates. No reading of a long form with a
/// piece letter can be another legal move: the origin square names the piece.
pub fn write_long(pos: &Chess, m: Move, style: Style) -> String {
    let mut out = String::with_capacity(12);
    match m.castling_side() {
        Some(CastlingSide::KingSide) => out.push_str("O-O"),
        Some(CastlingSide::QueenSide) => out.push_str("O-O-O"),
        None => {
            if m.role() != Role::Pawn {
                out.push_str(symbol(m.role(), style));
            }
            if let Some(from) = m.from() {
                out.push_str(&from.to_string());
            }
            out.push(if m.is_capture() {
                capture_sign(style)
            } else {
                '-'
            });
            out.push_str(&m.to().to_string());
            if let Some(promotion) = m.promotion() {
                out.push('=');
                out.push_str(symbol(promotion, style));
            }
        }
    }
    out.push_str(check_suffix(pos, m));
    out
}

/// Writes `m` (legal in `pos`) in `style` as a text `reader` reads as `m`
/// and as nothing else: its SAN when that is so (`Rd8`), else the SAN with
/// the origin's file, rank or square (`Rad8`, `R8d8`, `Ra8d8`), else the
/// long form (`Ra8-d8`), else UCI (`a8d8`), which every reader reads alike.
/// For hints and suggestions: the bot never offers a text it would then
/// ask about (French `R` is the king: `Rd8` may be both for some).
pub fn write_unmistakable(pos: &Chess, m: Move, style: Style, reader: &Reader) -> String {
    let reads_as_m = |text: &str| parse_move(pos, text, reader) == Ok(m);
    let san = write_san(pos, m, style);
    if reads_as_m(&san) {
        return san;
    }
    let disambiguated = m
        .from()
        .filter(|_| m.role() != Role::Pawn && m.castling_side().is_none())
        .into_iter()
        .flat_map(|from| {
            let (file, rank) = (from.file().char(), from.rank().char());
            [file.to_string(), rank.to_string(), format!("{file}{rank}")]
        })
        .map(|origin| {
            let sign = if m.is_capture() {
                capture_sign(style).to_string()
            } else {
                String::new()
            };
            let (letter, to) = (symbol(m.role(), style), m.to());
            format!("{letter}{origin}{sign}{to}{}", check_suffix(pos, m))
        });
    let long = std::iter::once(write_long(pos, m, style));
    disambiguated
        .chain(long)
        .find(|text| reads_as_m(text))
        .unwrap_or_else(|| m.to_uci(pos.castles().mode()).to_string())
}

/// `#` if `m` mates, `+` if it checks, else nothing.
fn check_suffix(pos: &Chess, m: Move) -> &'static str {
    let mut after = pos.clone();
    after.play_unchecked(m);
    if after.is_checkmate() {
        "#"
    } else if after.is_check() {
        "+"
    } else {
        ""
    }
}
