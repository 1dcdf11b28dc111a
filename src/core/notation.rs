//! Text to move, and move to text.
//!
//! Players type moves in many forms (RULES.md, "How players may write a
//! move"): SAN with suffixes, FIDE's own forms, long algebraic, UCI, and piece
//! letters in English, French or German. [`parse_move`] normalises all of
//! them onto shakmaty's legal moves; it never guesses between two readings.
//! [`write_san`] and friends write a move back in the reader's notation.

use serde::{Deserialize, Serialize};
use shakmaty::san::SanPlus;
use shakmaty::{
    Bitboard, CastlingSide, Chess, Color, File, Move, MoveList, Piece, Position, Rank, Role,
    Square, attacks,
};

/// The longest move text accepted; anything longer is refused before parsing.
pub const MAX_MOVE_INPUT: usize = 32;

/// A language whose piece letters a player may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// K Q R B N (P).
    En,
    /// R D T F C (P): roi, dame, tour, fou, cavalier, pion.
    Fr,
    /// K D T L S (B): König, Dame, Turm, Läufer, Springer, Bauer.
    De,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Fr, Lang::De];

    /// Parses a locale tag such as `fr`, `fr-FR` or `de_CH`.
    pub fn from_locale(tag: &str) -> Option<Lang> {
        let primary = tag.split(['-', '_']).next()?.to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "fr" => Some(Lang::Fr),
            "de" => Some(Lang::De),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
            Lang::De => "de",
        }
    }
}

/// Who reads a move: the speaker's language when known, and the languages
/// whose letters are also accepted.
///
/// The speaker's language is tried first; the others are tried only when it
/// gives no legal move. With no known language every allowed language is
/// tried, and two different legal moves make the input ambiguous.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reader {
    pub lang: Option<Lang>,
    pub allowed: Vec<Lang>,
}

impl Reader {
    /// A speaker of `lang` who may also use English letters.
    pub fn speaking(lang: Lang) -> Reader {
        let mut allowed = vec![lang];
        if lang != Lang::En {
            allowed.push(Lang::En);
        }
        Reader {
            lang: Some(lang),
            allowed,
        }
    }

    /// A speaker whose language is unknown, allowed these languages.
    pub fn unknown(allowed: &[Lang]) -> Reader {
        Reader {
            lang: None,
            allowed: allowed.to_vec(),
        }
    }
}

impl Default for Reader {
    fn default() -> Reader {
        Reader::speaking(Lang::En)
    }
}

/// How to write a move for a reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// `Nf3`, `Qxa3`, `e8=Q`.
    English,
    /// `Cf3`, `Dxa3`, `e8=D`.
    French,
    /// `♘f3`, `♕xa3`, `e8=♕`.
    Figurine,
}

impl Style {
    /// The notation a reader of `lang` expects (German readers get English
    /// SAN until the bot speaks German).
    pub fn for_lang(lang: Lang) -> Style {
        match lang {
            Lang::Fr => Style::French,
            Lang::En | Lang::De => Style::English,
        }
    }
}

/// Why no legal move matches an input that looked like a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IllegalReason {
    /// The side to move has no piece of that kind (or none on the named square).
    NoSuchPiece,
    /// A piece of that kind exists, but none moves that way.
    CannotReach,
    /// A line piece would reach the square on an empty board, but something is in the way.
    PathBlocked,
    /// The move exists but would leave (or put) the mover's king in check.
    KingInCheck,
    /// Castling on that side is no longer allowed (king or rook has moved).
    CastlingRightsLost,
    /// Castling is allowed in principle but not now (check, attacked or occupied squares).
    CastlingNotNow,
    /// The target square holds one of the mover's own pieces.
    OwnPieceOnTarget,
    /// A pawn reaching the last rank must name its promotion piece (or a
    /// promotion was named for a move that does not promote).
    BadPromotion,
}

/// Why a text was not played as a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveInputError {
    #[error("move text longer than {max} bytes")]
    TooLong { max: usize },
    #[error("not a move")]
    Syntax,
    #[error("no legal move matches ({reason:?})")]
    Illegal {
        reason: IllegalReason,
        /// The legal moves of the piece the player most likely meant (may be empty).
        hints: Vec<Move>,
    },
    #[error("ambiguous: {} legal moves match", candidates.len())]
    Ambiguous {
        /// Every legal move the text could mean; write them with [`write_long`].
        candidates: Vec<Move>,
    },
}

/// Reads `text` as one legal move in `pos` for `reader`.
///
/// The speaker's language is tried first; the other allowed languages only
/// when it finds no legal move. Distinct legal moves from different
/// readings make the input ambiguous: nothing is guessed.
pub fn parse_move(pos: &Chess, text: &str, reader: &Reader) -> Result<Move, MoveInputError> {
    if text.len() > MAX_MOVE_INPUT {
        return Err(MoveInputError::TooLong {
            max: MAX_MOVE_INPUT,
        });
    }
    let cleaned = clean(text);
    if cleaned.is_empty() {
        return Err(MoveInputError::Syntax);
    }
    let mut first_error: Option<MoveInputError> = None;
    let mut keep_error = |error: MoveInputError| {
        // An error from a reading that understood the text beats "not a move".
        let better = matches!(first_error, None | Some(MoveInputError::Syntax))
            && error != MoveInputError::Syntax;
        if first_error.is_none() || better {
            first_error = Some(error);
        }
    };

    if let Some(lang) = reader.lang {
        match read_in(pos, &cleaned, lang) {
            Ok(moves) => return one_of(moves),
            Err(error) => keep_error(error),
        }
    }
    let mut found: Vec<Move> = Vec::new();
    for lang in reader.allowed.iter().copied() {
        if Some(lang) == reader.lang {
            continue;
        }
        match read_in(pos, &cleaned, lang) {
            Ok(moves) => {
                for m in moves {
                    if !found.contains(&m) {
                        found.push(m);
                    }
                }
            }
            Err(error) => keep_error(error),
        }
    }
    if found.is_empty() {
        Err(first_error.unwrap_or(MoveInputError::Syntax))
    } else {
        one_of(found)
    }
}

fn one_of(mut moves: Vec<Move>) -> Result<Move, MoveInputError> {
    match moves.len() {
        1 => Ok(moves.remove(0)),
        _ => Err(MoveInputError::Ambiguous { candidates: moves }),
    }
}

/// Strips what never changes the move: whitespace, check and mate signs,
/// annotation glyphs, en passant markers; unifies look-alike characters.
fn clean(text: &str) -> String {
    let mut out: String = text
        .trim()
        .chars()
        .map(|c| match c {
            '–' | '—' | '‑' | '−' => '-',
            '×' => 'x',
            other => other,
        })
        .collect();
    loop {
        let before = out.len();
        out = out
            .trim_end_matches(['+', '#', '!', '?', ' ', '‼', '⁇', '⁈', '⁉'])
            .to_owned();
        for marker in ["e.p.", "e.p", "ep"] {
            // Only after a square (`exd6ep`, `exd6 e.p.`): never inside a move.
            if let Some(rest) = out.strip_suffix(marker) {
                let rest = rest.trim_end();
                if rest.ends_with(|c: char| c.is_ascii_digit()) {
                    out = rest.to_owned();
                }
            }
        }
        if out.len() == before {
            break;
        }
    }
    out.retain(|c| !c.is_whitespace());
    out
}

/// What a text says about a move, before looking at the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spec {
    Castle(CastlingSide),
    Piece {
        /// `None`: a pawn in SAN, or any piece when `from` names a square.
        role: Option<Role>,
        from_file: Option<File>,
        from_rank: Option<Rank>,
        to: Square,
        promotion: Option<Role>,
    },
}

/// The piece a letter names in `lang`, with its case rules: upper case
/// always, lower case only when the letter cannot be a file.
fn piece_letter(c: char, lang: Lang) -> Option<Role> {
    if let Some(role) = figurine(c) {
        return Some(role);
    }
    if c.is_ascii_lowercase() && ('a'..='h').contains(&c) {
        return None;
    }
    role_letter(c.to_ascii_uppercase(), lang)
}

fn role_letter(upper: char, lang: Lang) -> Option<Role> {
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

fn figurine(c: char) -> Option<Role> {
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

/// Reads the cleaned text as a move description in `lang`.
fn read_spec(text: &str, lang: Lang) -> Option<Spec> {
    let castle = text.replace('0', "O").to_ascii_uppercase();
    match castle.as_str() {
        "O-O" | "OO" => return Some(Spec::Castle(CastlingSide::KingSide)),
        "O-O-O" | "OOO" => return Some(Spec::Castle(CastlingSide::QueenSide)),
        _ => {}
    }
    let mut chars: Vec<char> = text.chars().collect();
    let role = match chars.first() {
        Some(&c) => piece_letter(c, lang),
        None => None,
    };
    if role.is_some() {
        chars.remove(0);
    }
    let promotion = take_promotion(&mut chars, lang)?;
    // Capture signs and dashes say nothing a legal move does not: drop them.
    let squares: Vec<char> = chars
        .into_iter()
        .filter(|c| !matches!(c, 'x' | ':' | '-'))
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
    Some(Spec::Piece {
        role,
        from_file,
        from_rank,
        to,
        promotion,
    })
}

/// Removes a promotion suffix (`=Q`, `(Q)`, `/Q`, or a letter right after
/// the last rank digit) and returns its role; `None` on a malformed suffix.
fn take_promotion(chars: &mut Vec<char>, lang: Lang) -> Option<Option<Role>> {
    let promo_role = |c: char| {
        figurine(c)
            .or_else(|| role_letter(c.to_ascii_uppercase(), lang))
            .filter(|role| !matches!(role, Role::Pawn | Role::King))
    };
    let n = chars.len();
    if n >= 3 && chars[n - 3] == '(' && chars[n - 1] == ')' {
        let role = promo_role(chars[n - 2])?;
        chars.truncate(n - 3);
        return Some(Some(role));
    }
    if n >= 2 && matches!(chars[n - 2], '=' | '/') {
        let role = promo_role(chars[n - 1])?;
        chars.truncate(n - 2);
        return Some(Some(role));
    }
    if n >= 2 && chars[n - 2].is_ascii_digit() && !chars[n - 1].is_ascii_digit() {
        let role = promo_role(chars[n - 1])?;
        chars.truncate(n - 1);
        return Some(Some(role));
    }
    Some(None)
}

fn file(c: char) -> Option<File> {
    ('a'..='h')
        .contains(&c)
        .then(|| File::new(c as u32 - 'a' as u32))
}

fn rank(c: char) -> Option<Rank> {
    ('1'..='8')
        .contains(&c)
        .then(|| Rank::new(c as u32 - '1' as u32))
}

fn square(f: char, r: char) -> Option<Square> {
    Some(Square::from_coords(file(f)?, rank(r)?))
}

/// The square the king lands on when castling.
fn castle_target(m: Move) -> Option<Square> {
    match m {
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(rook.file() > king.file());
            Some(Square::from_coords(side.king_to_file(), king.rank()))
        }
        _ => None,
    }
}

/// Whether legal move `m` is what `spec` describes, ignoring promotion.
fn matches_square_part(m: Move, spec: &Spec) -> bool {
    let Spec::Piece {
        role,
        from_file,
        from_rank,
        to,
        ..
    } = *spec
    else {
        return false;
    };
    let Some(from) = m.from() else { return false };
    let full_origin = from_file.is_some() && from_rank.is_some();
    let role_ok = match role {
        Some(role) => m.role() == role,
        // `e2e4`, `g1f3`: the origin square says which piece.
        None if full_origin => true,
        None => m.role() == Role::Pawn,
    };
    // Castling may be written king-to-target (`e1g1`) or king-takes-rook (`e1h1`).
    let to_ok = m.to() == to || castle_target(m) == Some(to);
    role_ok
        && to_ok
        && from_file.is_none_or(|f| from.file() == f)
        && from_rank.is_none_or(|r| from.rank() == r)
}

fn matches(m: Move, spec: &Spec) -> bool {
    match *spec {
        Spec::Castle(side) => m.castling_side() == Some(side),
        Spec::Piece { promotion, .. } => matches_square_part(m, spec) && m.promotion() == promotion,
    }
}

/// All legal moves `text` means in `lang`, or why there are none.
fn read_in(pos: &Chess, text: &str, lang: Lang) -> Result<Vec<Move>, MoveInputError> {
    let spec = read_spec(text, lang).ok_or(MoveInputError::Syntax)?;
    let legal = pos.legal_moves();
    let found: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| matches(*m, &spec))
        .collect();
    if found.is_empty() {
        Err(explain(pos, &spec, &legal))
    } else {
        Ok(found)
    }
}

/// Why no legal move fits `spec`, with the legal moves of the piece meant.
fn explain(pos: &Chess, spec: &Spec, legal: &MoveList) -> MoveInputError {
    let us = pos.turn();
    let Spec::Piece {
        role,
        from_file,
        from_rank,
        to,
        ..
    } = *spec
    else {
        let Spec::Castle(side) = *spec else {
            return MoveInputError::Syntax;
        };
        let reason = if pos.castles().has(us, side) {
            IllegalReason::CastlingNotNow
        } else {
            IllegalReason::CastlingRightsLost
        };
        let hints = legal
            .iter()
            .copied()
            .filter(|m| m.role() == Role::King)
            .collect();
        return MoveInputError::Illegal { reason, hints };
    };

    // The squares of the pieces the text could mean.
    let board = pos.board();
    let ours = board.by_color(us);
    let mut origins = match role {
        Some(role) => ours & board.by_role(role),
        None if from_file.is_some() && from_rank.is_some() => ours,
        None => ours & board.pawns(),
    };
    if let Some(f) = from_file {
        origins &= Bitboard::from_file(f);
    }
    if let Some(r) = from_rank {
        origins &= Bitboard::from_rank(r);
    }
    let hints: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| m.from().is_some_and(|from| origins.contains(from)))
        .collect();
    let illegal = |reason| MoveInputError::Illegal {
        reason,
        hints: hints.clone(),
    };

    if origins.is_empty() {
        return illegal(IllegalReason::NoSuchPiece);
    }
    if legal.iter().any(|m| matches_square_part(*m, spec)) {
        return illegal(IllegalReason::BadPromotion);
    }
    if ours.contains(to) && !origins.into_iter().any(|sq| is_castling_rook(pos, sq, to)) {
        return illegal(IllegalReason::OwnPieceOnTarget);
    }
    let occupied = board.occupied();
    let reaches = |occupancy: Bitboard| {
        origins.into_iter().any(|from| {
            board
                .piece_at(from)
                .is_some_and(|piece| reach(piece, from, to, occupancy, board.by_color(!us)))
        })
    };
    if reaches(occupied) {
        illegal(IllegalReason::KingInCheck)
    } else if reaches(Bitboard::EMPTY) {
        illegal(IllegalReason::PathBlocked)
    } else {
        illegal(IllegalReason::CannotReach)
    }
}

/// `sq` holds our king and `to` one of our rooks: a castling written as king-takes-rook.
fn is_castling_rook(pos: &Chess, sq: Square, to: Square) -> bool {
    pos.board().king_of(pos.turn()) == Some(sq) && pos.board().rooks().contains(to)
}

/// Whether `piece` on `from` could go to `to` with `occupied` in the way
/// (pseudo-legally: checks on the own king are not considered).
fn reach(piece: Piece, from: Square, to: Square, occupied: Bitboard, theirs: Bitboard) -> bool {
    if piece.role != Role::Pawn {
        return attacks::attacks(from, piece, occupied).contains(to);
    }
    let forward = if piece.color == Color::White { 1 } else { -1 };
    let captures = attacks::pawn_attacks(piece.color, from);
    if captures.contains(to) {
        // On an empty board a capture has nothing to take: only count it with pieces about.
        return occupied.is_empty() || theirs.contains(to);
    }
    let step = |n: i32| from.offset(forward * 8 * n);
    let start_rank = if piece.color == Color::White {
        Rank::Second
    } else {
        Rank::Seventh
    };
    if step(1) == Some(to) {
        return !occupied.contains(to);
    }
    if from.rank() == start_rank && step(2) == Some(to) {
        return step(1).is_some_and(|mid| !occupied.contains(mid)) && !occupied.contains(to);
    }
    false
}

/// The letter `role` is written with in `style`.
fn piece_symbol(role: Role, style: Style) -> char {
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

/// Writes `m` (legal in `pos`) in SAN with its check or mate suffix.
pub fn write_san(pos: &Chess, m: Move, style: Style) -> String {
    let san = SanPlus::from_move(pos.clone(), m).to_string();
    restyle_san(&san, style)
}

/// Rewrites English SAN (as stored in a game) in another style, letter by letter.
///
/// Only the leading piece letter and the promotion letter change: files
/// (`b`), castling (`O-O`) and suffixes stay as they are.
pub fn restyle_san(english_san: &str, style: Style) -> String {
    if style == Style::English {
        return english_san.to_owned();
    }
    let mut out = String::with_capacity(english_san.len() + 2);
    let mut after_equals = false;
    for (index, c) in english_san.chars().enumerate() {
        let piece = (index == 0 || after_equals)
            .then(|| role_letter(c, Lang::En))
            .flatten()
            .filter(|role| *role != Role::Pawn);
        match piece {
            Some(role) => out.push(piece_symbol(role, style)),
            None => out.push(c),
        }
        after_equals = c == '=';
    }
    out
}

/// Writes `m` unambiguously with its origin square, such as `Ke1-d1`,
/// `Ra1xd1`, `e7-e8=Q` or `O-O`: the form used to list ambiguous candidates.
pub fn write_long(pos: &Chess, m: Move, style: Style) -> String {
    let mut out = String::with_capacity(10);
    match m {
        Move::Castle { .. } => {
            out.push_str(if m.castling_side() == Some(CastlingSide::KingSide) {
                "O-O"
            } else {
                "O-O-O"
            });
        }
        _ => {
            if m.role() != Role::Pawn {
                out.push(piece_symbol(m.role(), style));
            }
            if let Some(from) = m.from() {
                out.push_str(&from.to_string());
            }
            out.push(if m.is_capture() { 'x' } else { '-' });
            out.push_str(&m.to().to_string());
            if let Some(promotion) = m.promotion() {
                out.push('=');
                out.push(piece_symbol(promotion, style));
            }
        }
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    if after.is_checkmate() {
        out.push('#');
    } else if after.is_check() {
        out.push('+');
    }
    out
}
