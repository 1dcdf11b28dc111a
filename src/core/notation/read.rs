//! From typed text to a [`Spec`]: what the text says about a move, before
//! looking at the position.
//!
//! Everything here works on `char`s or on ASCII suffixes, so no input can
//! make it slice a string inside a multi-byte character.

use shakmaty::{CastlingSide, File, Move, Rank, Role, Square};

use super::Lang;
use super::letters::{figurine, is_file_letter, role_letter, russian_letter, russian_piece};

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
    /// king-to-target (`e1g1`, `Kg1`) or king-takes-rook (`e1h1`; in
    /// Chess960 the only UCI form engines use).
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

/// The square the king lands on when `m` castles, if it travels two
/// squares or more to get there.
///
/// In Chess960 the king may castle by one step (`f1g1`) or none at all (a
/// king on g1 castles short to g1): written that way, castling would read
/// the same as a plain king move, so only the two-square form is a way to
/// write castling (standard chess's, never ambiguous with a king move, which
/// goes one square). Castling is still `O-O` or king-takes-rook (`f1h1`).
fn castling_king_target(m: Move) -> Option<Square> {
    match m {
        Move::Castle { king, .. } => {
            let side = m.castling_side()?;
            let target = Square::from_coords(side.king_to_file(), king.rank());
            (king.distance(target) >= 2).then_some(target)
        }
        _ => None,
    }
}

/// One way of reading a text: the move it describes, and how it took its
/// leading Latin letter, to be checked against a player's settled letters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Reading {
    pub(super) spec: Spec,
    /// The leading Latin letter in upper case, and the piece it was read
    /// as (`None`: a capitalised file, `Exd5`). `None` when the text starts
    /// with no Latin letter, or with a file in lower case.
    pub(super) lead: Option<(char, Option<Role>)>,
}

impl Reading {
    fn plain(spec: Spec) -> Reading {
        Reading { spec, lead: None }
    }
}

/// Every way the cleaned text may describe a move for a reader of `langs`,
/// each once: in each language (the speaker's first) with its piece letter,
/// and as squares alone (pawn moves, long algebraic, UCI); last, a leading
/// capital read as a file (`Exd5`), a phone's habit rather than anyone's
/// notation, so that a refusal explains a letter's piece before it. No
/// language at all reads nothing.
pub(super) fn read_specs(text: &str, langs: &[Lang]) -> Vec<Reading> {
    if langs.is_empty() {
        return Vec::new();
    }
    if let Some(side) = read_castling(text) {
        return vec![Reading::plain(Spec::Castle(side))];
    }
    let chars: Vec<char> = text.chars().collect();
    let capital = chars.first().copied().filter(char::is_ascii_uppercase);
    let mut readings = Vec::new();
    let mut capital_files = Vec::new();
    for lang in langs.iter().copied() {
        if let Some(reading) = read_with_piece(&chars, lang) {
            push_new(&mut readings, reading);
        }
        if let Some(spec) = read_squares_only(&chars, lang) {
            match capital {
                Some(letter) => push_new(
                    &mut capital_files,
                    Reading {
                        spec,
                        lead: Some((letter, None)),
                    },
                ),
                None => push_new(&mut readings, Reading::plain(spec)),
            }
        }
    }
    for reading in capital_files {
        push_new(&mut readings, reading);
    }
    readings
}

fn push_new(readings: &mut Vec<Reading>, reading: Reading) {
    if !readings.contains(&reading) {
        readings.push(reading);
    }
}

/// The text read as a piece letter of `lang` (or a figurine) and squares.
fn read_with_piece(chars: &[char], lang: Lang) -> Option<Reading> {
    let (role, len) = piece_lead(chars, lang)?;
    let target = read_target(chars.get(len..)?, Some(role), lang)?;
    // German SAN writes pawn moves without a letter: `B` (Bauer) before a
    // bare square is the English bishop or the b-file, and names a pawn
    // only with its origin (`Be2-e4`). Otherwise every English `Bc4` would
    // also be a pawn move to c4.
    let is_file = chars
        .first()
        .is_some_and(|c| is_file_letter(c.to_ascii_lowercase()));
    if role == Role::Pawn && is_file && !target.has_full_origin() {
        return None;
    }
    let lead = chars
        .first()
        .filter(|c| c.is_ascii_alphabetic())
        .map(|c| (c.to_ascii_uppercase(), Some(role)));
    Some(Reading {
        spec: Spec::Piece(target),
        lead,
    })
}

/// The piece the text starts with in `lang`, and how many characters name it.
fn piece_lead(chars: &[char], lang: Lang) -> Option<(Role, usize)> {
    let first = *chars.first()?;
    if let Some(role) = figurine(first) {
        return Some((role, 1));
    }
    if lang == Lang::Ru {
        return russian_piece(chars);
    }
    // Lower case: a file (`bc3` is a pawn), a piece only where it cannot be one (`nf3`).
    if is_file_letter(first) {
        return None;
    }
    role_letter(first.to_ascii_uppercase(), lang).map(|role| (role, 1))
}

/// The text read as squares alone: a pawn move (`e4`, `exd5`, and `Exd5` as
/// phones capitalise it), or a move given by its origin square (`e2-e4`,
/// `g1f3`).
fn read_squares_only(chars: &[char], lang: Lang) -> Option<Spec> {
    let target = read_target(chars, None, lang)?;
    // A capital followed by a square on its own file (`Cc6`, `Dd5`, `Bb4`)
    // is never a pawn push: no notation writes one, so the capital is a
    // piece letter, not a capitalised file.
    let capital = chars.first().is_some_and(char::is_ascii_uppercase);
    if capital && !target.has_full_origin() && target.from_file == Some(target.to.file()) {
        return None;
    }
    Some(Spec::Piece(target))
}

/// Reads the squares and promotion that follow the piece letter (if any);
/// `None` if they do not describe a move in `lang`.
fn read_target(chars: &[char], role: Option<Role>, lang: Lang) -> Option<Target> {
    let mut chars = chars.to_vec();
    if lang == Lang::Ru {
        strip_russian_mate(&mut chars);
    }
    let promotion = take_promotion(&mut chars, lang)?;
    // Capture signs and dashes say nothing a legal move does not: a
    // spurious or missing `x` is fine. Russian writes `:` (or a Cyrillic `х`).
    let squares: Vec<char> = chars
        .into_iter()
        .filter(|c| !matches!(c, 'x' | 'X' | ':' | '-' | 'х'))
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
    Some(Target {
        role,
        from_file,
        from_rank,
        to,
        promotion,
    })
}

/// Russian notation marks mate with an `x` after the move (`Фd1:d7x`),
/// where a capture is `:`. Only a trailing `x` after a square or a
/// promotion is a mate sign; other languages never write one there.
fn strip_russian_mate(chars: &mut Vec<char>) {
    if let [.., before, 'x' | 'X' | 'х'] = chars.as_slice()
        && (before.is_ascii_digit() || *before == ')' || russian_letter(*before).is_some())
    {
        chars.pop();
    }
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
    let letter = |c: char| match lang {
        Lang::Ru => figurine(c).or_else(|| russian_letter(c)),
        _ => figurine(c).or_else(|| role_letter(c.to_ascii_uppercase(), lang)),
    };
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
