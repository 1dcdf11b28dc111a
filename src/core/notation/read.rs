//! From typed text to a [`Spec`]: what the text says about a move, before
//! looking at the position.
//!
//! Everything here works on `char`s or on ASCII suffixes, so no input can
//! make it slice a string inside a multi-byte character.

use shakmaty::{CastlingSide, File, Move, Rank, Role, Square};

use super::Lang;
use super::letters::{figurine, is_file_letter, role_letter};

/// Check and mate signs and annotation glyphs: they never change the move.
const SUFFIX_SIGNS: [char; 8] = ['+', '#', '!', '?', '‼', '⁇', '⁈', '⁉'];

/// En passant markers, compared in lower case, longest first.
const EN_PASSANT_MARKERS: [&str; 3] = ["e.p.", "e.p", "ep"];

/// Strips what never changes the move: whitespace, check and mate signs,
/// annotation glyphs, en passant markers; unifies look-alike characters.
pub(super) fn clean(text: &str) -> String {
    let mut out: String = text.trim().chars().map(unify).collect();
    loop {
        let before = out.len();
        let kept = out
            .trim_end_matches(|c: char| c.is_whitespace() || SUFFIX_SIGNS.contains(&c))
            .len();
        out.truncate(kept);
        strip_en_passant(&mut out);
        // `exd6 e.p.+` and `exd6+ e.p.` both need more than one pass.
        if out.len() == before {
            break;
        }
    }
    out.retain(|c| !c.is_whitespace());
    out
}

/// Dashes and multiplication signs that word processors and phones type.
fn unify(c: char) -> char {
    match c {
        '–' | '—' | '‑' | '−' => '-',
        '×' => 'x',
        other => other,
    }
}

/// Removes a trailing en passant marker, but only right after a square
/// (`exd6ep`, `exd6 e.p.`): `ep` inside a move is never a marker.
fn strip_en_passant(out: &mut String) {
    // ASCII lower-casing keeps every byte where it was, so a length measured
    // on `lower` is a length in `out` too.
    let lower = out.to_ascii_lowercase();
    for marker in EN_PASSANT_MARKERS {
        if let Some(rest) = lower.strip_suffix(marker) {
            let rest = rest.trim_end();
            let square_end = rest.trim_end_matches(SUFFIX_SIGNS);
            if square_end.ends_with(|c: char| c.is_ascii_digit()) {
                // The signs before the marker (`exd6+ e.p.`) go in the next pass.
                out.truncate(rest.len());
                return;
            }
        }
    }
}

/// What a text says about a move, before looking at the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Spec {
    Castle(CastlingSide),
    Piece(Target),
}

/// A move written with squares: SAN, long algebraic or UCI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Target {
    /// `None`: a pawn in SAN, or any piece when the full origin square is given.
    pub(super) role: Option<Role>,
    pub(super) from_file: Option<File>,
    pub(super) from_rank: Option<Rank>,
    pub(super) to: Square,
    /// As written; may name a piece no pawn can become (`e8=K`), which then
    /// matches no legal move and is explained as a bad promotion.
    pub(super) promotion: Option<Role>,
}

impl Spec {
    /// Whether legal move `m` is the move described.
    pub(super) fn fits(&self, m: Move) -> bool {
        match self {
            Spec::Castle(side) => m.castling_side() == Some(*side),
            Spec::Piece(target) => target.fits_squares(m) && m.promotion() == target.promotion,
        }
    }
}

impl Target {
    /// `g1f3`, `Ng1f3`: the origin square alone says which piece.
    pub(super) fn has_full_origin(&self) -> bool {
        self.from_file.is_some() && self.from_rank.is_some()
    }

    /// Whether `m` ends where the text says. Castling may be written
    /// king-to-target (`e1g1`, `Kg1`) or king-takes-rook (`e1h1`).
    pub(super) fn lands_on(&self, m: Move) -> bool {
        m.to() == self.to || castling_king_target(m) == Some(self.to)
    }

    /// Whether `m` is the move described, ignoring the promotion.
    pub(super) fn fits_squares(&self, m: Move) -> bool {
        let Some(from) = m.from() else { return false };
        let role_fits = match self.role {
            Some(role) => m.role() == role,
            None => self.has_full_origin() || m.role() == Role::Pawn,
        };
        role_fits
            && self.lands_on(m)
            && self.from_file.is_none_or(|f| from.file() == f)
            && self.from_rank.is_none_or(|r| from.rank() == r)
    }
}

/// The square the king lands on when `m` castles.
fn castling_king_target(m: Move) -> Option<Square> {
    match m {
        Move::Castle { king, .. } => {
            let side = m.castling_side()?;
            Some(Square::from_coords(side.king_to_file(), king.rank()))
        }
        _ => None,
    }
}

/// How the first letter of a move reads in one language.
enum Lead {
    Piece(Role),
    /// Not a piece: part of the squares (a file, or a capture sign).
    Square,
    /// A piece letter of another allowed language, which this one would
    /// otherwise take for an upper-case file: this language cannot read it.
    Foreign,
}

/// Reads the first character in `lang`. `langs` are all the languages the
/// reader may use: French `Bxc3` is not the b-pawn when English `B` (bishop)
/// is also allowed, or every French speaker's English SAN would move pawns.
fn lead(c: char, lang: Lang, langs: &[Lang]) -> Lead {
    if let Some(role) = figurine(c) {
        return Lead::Piece(role);
    }
    // Lower case: a file first (`bc3` is a pawn), a piece only where it cannot be one (`nf3`).
    if is_file_letter(c) {
        return Lead::Square;
    }
    let upper = c.to_ascii_uppercase();
    if let Some(role) = role_letter(upper, lang) {
        return Lead::Piece(role);
    }
    // Phones capitalise the first letter: `Exd5` is still the e-pawn, unless
    // another allowed language calls that letter a piece.
    let is_upper_file = c.is_ascii_uppercase() && is_file_letter(c.to_ascii_lowercase());
    if is_upper_file && langs.iter().any(|l| role_letter(upper, *l).is_some()) {
        return Lead::Foreign;
    }
    Lead::Square
}

/// Reads the cleaned text as a move description in `lang`; `None` if it is
/// not a move in that language.
pub(super) fn read_spec(text: &str, lang: Lang, langs: &[Lang]) -> Option<Spec> {
    if let Some(side) = read_castling(text) {
        return Some(Spec::Castle(side));
    }
    let mut chars: Vec<char> = text.chars().collect();
    let role = match lead(*chars.first()?, lang, langs) {
        Lead::Piece(role) => {
            chars.remove(0);
            Some(role)
        }
        Lead::Square => None,
        Lead::Foreign => return None,
    };
    let promotion = take_promotion(&mut chars, lang)?;
    // Capture signs and dashes say nothing a legal move does not: a
    // spurious or missing `x` is fine.
    let squares: Vec<char> = chars
        .into_iter()
        .filter(|c| !matches!(c, 'x' | 'X' | ':' | '-'))
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let (from_file, from_rank, to) = match squares.as_slice() {
        [f, r] => (None, None, square(*f, *r)?),
        [d, f, r] => {
            let to = square(*f, *r)?;
            match (file(*d), rank(*d)) {
                (Some(file), _) => (Some(file), None, to),
                (None, Some(rank)) => (None, Some(rank), to),
                _ => return None,
            }
        }
        [ff, fr, f, r] => (Some(file(*ff)?), Some(rank(*fr)?), square(*f, *r)?),
        _ => return None,
    };
    Some(Spec::Piece(Target {
        role,
        from_file,
        from_rank,
        to,
        promotion,
    }))
}

/// `O-O`, `0-0`, `o-o` and the same with three.
fn read_castling(text: &str) -> Option<CastlingSide> {
    let letters = text.replace('0', "O").to_ascii_uppercase();
    match letters.as_str() {
        "O-O" | "OO" => Some(CastlingSide::KingSide),
        "O-O-O" | "OOO" => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// Removes a promotion suffix (`=Q`, `(Q)`, `/Q`, or a letter right after
/// the last rank digit, in either case) and returns its role; `None` when
/// the suffix is not a piece letter of `lang`.
fn take_promotion(chars: &mut Vec<char>, lang: Lang) -> Option<Option<Role>> {
    let letter = |c: char| figurine(c).or_else(|| role_letter(c.to_ascii_uppercase(), lang));
    let n = chars.len();
    let (role, keep) = match chars.as_slice() {
        [.., '(', c, ')'] => (letter(*c)?, n - 3),
        [.., '=' | '/', c] => (letter(*c)?, n - 2),
        // `e8Q`, `e7e8q`: after a rank digit no letter can be a file.
        [.., d, c] if d.is_ascii_digit() && !c.is_ascii_digit() => (letter(*c)?, n - 1),
        _ => return Some(None),
    };
    chars.truncate(keep);
    // `e8=(Q)`
    if matches!(chars.last(), Some('=' | '/')) {
        chars.pop();
    }
    Some(Some(role))
}

fn file(c: char) -> Option<File> {
    is_file_letter(c).then(|| File::new(u32::from(c) - u32::from('a')))
}

fn rank(c: char) -> Option<Rank> {
    ('1'..='8')
        .contains(&c)
        .then(|| Rank::new(u32::from(c) - u32::from('1')))
}

fn square(f: char, r: char) -> Option<Square> {
    Some(Square::from_coords(file(f)?, rank(r)?))
}
