//! PGN: a game's record out ([`export`]), and a game back in ([`import`]).
//!
//! PGN is a file format with English in it (tag names, `1-0`, comments), so
//! this is the one place in `core/` that writes English: the comments here
//! are part of the format, not messages to a user.
//!
//! Moves are written in English SAN (the standard's), from the moves
//! themselves; the time control in PGN's `TimeControl` form
//! ([`time_control_tag`]: `1/259200` for three days a move) and as players
//! type it in [`CORRESPONDENCE_TIME_CONTROL`] (`3d`).
//!
//! An exported game says how it ended in a final comment (`{ Black resigns. }`)
//! and in the `Termination` tag; [`import`] reads both back, so our own files
//! round-trip with their reason. Text from elsewhere imports with the best
//! reason its tags allow. Imported text is untrusted: it is bounded by
//! [`MAX_PGN_BYTES`] before parsing, and no input makes this module panic.
//!
//! A game the engine reviewed is written by [`export_reviewed`] as lichess
//! writes its analysed games: each position's evaluation in a comment
//! (`{ [%eval 0.35] }`), each inaccuracy, mistake and blunder as a numeric
//! annotation glyph (`$6`, `$2`, `$4`) followed by the engine's better line
//! as a variation. [`import`] skips the variations and reads the same game.
//!
//! ```
//! use chrono::{TimeZone, Utc};
//! use pawnpost::core::game::{PlayerId, Players};
//! use pawnpost::core::pgn;
//!
//! let players = Players { white: PlayerId(1), black: PlayerId(2) };
//! let now = Utc.with_ymd_and_hms(2024, 3, 5, 12, 0, 0).unwrap();
//! let text = "1. f3 e5 2. g4 Qh4# 0-1";
//! let (game, _tags) = pgn::import(text, players, now).expect("a legal game");
//! assert_eq!(game.moves().len(), 4);
//! assert!(pgn::export(&game, &pgn::PgnTags::default()).contains("Black wins by checkmate"));
//! ```

use std::ops::ControlFlow;

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use pgn_reader::{Outcome, RawComment, RawTag, SanPlus, Skip, Visitor};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, KnownOutcome, Move, Position};

use super::clock::TimeControl;
use super::event::{ClaimKind, GameResult, Reason};
use super::game::{DrawRules, Game, Note, NoteKind, Players, SetupError, Status};
use super::review::{Eval, Judgement, PositionEval, move_judgements};
use super::variant::Variant;
use crate::core::names::Named;

/// The longest PGN text [`import`] reads; longer text is refused unread.
pub const MAX_PGN_BYTES: usize = 1 << 20;
/// The longest tag value written or read, in characters.
pub const MAX_TAG_VALUE: usize = 200;
/// Movetext lines are wrapped to this width (PGN's export format says 80).
const LINE_WIDTH: usize = 80;
/// How a draw offer is recorded in the score (9.1.2.4).
const DRAW_OFFER_SIGN: &str = "(=)";

/// The tags of a game that the game itself does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnTags {
    pub event: String,
    pub site: String,
    /// White's display name.
    pub white: String,
    /// Black's display name.
    pub black: String,
    /// `None` is written as `-` (not part of a series).
    pub round: Option<String>,
    /// Written twice: in PGN's `TimeControl` form ([`time_control_tag`]) and
    /// as typed (`3d`) in `CorrespondenceTimeControl`. `None` (unknown) is
    /// written as `?`, without the second tag.
    pub time_control: Option<TimeControl>,
}

/// The tag that keeps a time control as players write it (`3d`,
/// `30d+1d max 45d`, `5d delay 1d`), which PGN's own form cannot always say.
pub const CORRESPONDENCE_TIME_CONTROL: &str = "CorrespondenceTimeControl";

impl Default for PgnTags {
    /// PGN's "unknown" (`?`) everywhere.
    fn default() -> PgnTags {
        PgnTags {
            event: "?".to_owned(),
            site: "?".to_owned(),
            white: "?".to_owned(),
            black: "?".to_owned(),
            round: None,
            time_control: None,
        }
    }
}

/// Why a PGN text could not be imported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    #[error("the PGN is longer than {MAX_PGN_BYTES} bytes")]
    TooLong,
    #[error("the PGN cannot be read: {0}")]
    Syntax(String),
    #[error("the text holds no game")]
    NoGame,
    #[error("only standard chess can be imported, not {0}")]
    UnsupportedVariant(String),
    #[error("the FEN cannot be used: {0}")]
    BadFen(SetupError),
    #[error("{0}")]
    Setup(SetupError),
    #[error("move {ply} ({san}) is not legal")]
    IllegalMove { ply: u32, san: String },
    #[error("move {ply} comes after the end of the game")]
    MovesAfterEnd { ply: u32 },
    #[error("the result {} does not follow from the moves", .claimed.as_pgn())]
    ResultMismatch { claimed: GameResult },
    #[error("the Result tag says {} but the movetext ends with {}", .tag.as_pgn(), .token.as_pgn())]
    ResultConflict { tag: GameResult, token: GameResult },
    #[error("the game is over ({}): there is nothing to continue", .0.as_pgn())]
    AlreadyOver(GameResult),
}

impl PgnError {
    /// A stable snake_case name for the error, like [`GameError::kind`].
    ///
    /// [`GameError::kind`]: super::game::GameError::kind
    pub fn kind(&self) -> &'static str {
        match self {
            PgnError::TooLong => "too_long",
            PgnError::Syntax(_) => "syntax",
            PgnError::NoGame => "no_game",
            PgnError::UnsupportedVariant(_) => "unsupported_variant",
            PgnError::BadFen(_) => "bad_fen",
            PgnError::Setup(_) => "setup",
            PgnError::IllegalMove { .. } => "illegal_move",
            PgnError::MovesAfterEnd { .. } => "moves_after_end",
            PgnError::ResultMismatch { .. } => "result_mismatch",
            PgnError::ResultConflict { .. } => "result_conflict",
            PgnError::AlreadyOver(_) => "already_over",
        }
    }
}

/// The game as PGN: tags, then the wrapped movetext with notes as comments.
pub fn export(game: &Game, tags: &PgnTags) -> String {
    export_with_comments(game, tags, &[])
}

/// [`export`] with `comments` added, each after the move that many plies
/// into the game (0: before the first): a player's private notes, in the
/// PGN only they receive.
pub fn export_with_comments(game: &Game, tags: &PgnTags, comments: &[(usize, String)]) -> String {
    write_game(game, tags, comments, &[])
}

/// [`export_with_comments`] of a game the engine reviewed: `evals[i]` is
/// the engine's view of the position after `i` plies (`evals[0]` the start),
/// one more than there are moves; evaluations past the last position are
/// ignored, and moves past the last evaluation are written bare.
///
/// After each move, as lichess writes them:
/// - its judgement ([`move_judgements`]) as a numeric annotation glyph:
///   `$6` an inaccuracy (`?!`), `$2` a mistake (`?`), `$4` a blunder (`??`);
///   a move that checkmates is never judged;
/// - the evaluation of the position it reached, in pawns from White's point
///   of view (`{ [%eval 0.35] }`, a mate `{ [%eval #-2] }`; none where the
///   side to move is already mated);
/// - for a judged move, the engine's line from the position before it
///   (`evals[i].line`) as a variation in SAN (`(12... Nf6 13. Bb5)`), when
///   its first move is legal and is not the move played. The line ends at
///   its first move that cannot be read or played.
///
/// The importer here skips the variations and reads the same game back.
pub fn export_reviewed(
    game: &Game,
    tags: &PgnTags,
    evals: &[PositionEval],
    comments: &[(usize, String)],
) -> String {
    write_game(game, tags, comments, evals)
}

/// The whole record: tags, then the movetext (reviewed where `evals` has
/// evaluations; with none, exactly [`export_with_comments`]).
fn write_game(
    game: &Game,
    tags: &PgnTags,
    comments: &[(usize, String)],
    evals: &[PositionEval],
) -> String {
    let (result, reason) = match game.status() {
        Status::Ongoing => (GameResult::NoResult, None),
        Status::Over { result, reason, .. } => (result, Some(reason)),
    };
    let started = game.started_at();
    let date = started.format("%Y.%m.%d").to_string();

    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", escape_tag(value)));
    };
    tag("Event", &tags.event);
    tag("Site", &tags.site);
    tag("Date", &date);
    tag("Round", tags.round.as_deref().unwrap_or("-"));
    tag("White", &tags.white);
    tag("Black", &tags.black);
    tag("Result", result.as_pgn());
    tag("UTCDate", &date);
    tag("UTCTime", &started.format("%H:%M:%S").to_string());
    match &tags.time_control {
        Some(control) => {
            tag("TimeControl", &time_control_tag(control));
            tag(CORRESPONDENCE_TIME_CONTROL, &control.to_string());
        }
        None => tag("TimeControl", "?"),
    }
    if let Some(opening) = game.opening() {
        tag("ECO", opening.eco);
        tag("Opening", opening.name);
    }
    tag("Termination", termination(reason));
    if let Some(variant) = game.variant().pgn_tag() {
        tag("Variant", variant);
    }
    // A Chess960 FEN's castling rights are X-FEN (`KQkq` while the rooks
    // are the outermost ones, their files otherwise), which python-chess,
    // lichess and the PGN importer here all read.
    if let Some(fen) = game.start_fen() {
        tag("SetUp", "1");
        tag("FEN", fen);
    }
    out.push('\n');
    out.push_str(&movetext(game, result, reason, comments, evals));
    out.push('\n');
    out
}

/// PGN's `TimeControl` value for `control` (PGN standard, 9.6.1), in seconds:
///
/// | control | written | as |
/// |---|---|---|
/// | `3d` (per move) | `1/259200` | one move in each period of 3 days |
/// | `10/50d` (moves in a period) | `10/4320000` | 10 moves in each period of 50 days |
/// | `30d+1d` (increment; a cap is dropped) | `2592000+86400` | a bank plus a bonus per move |
/// | `5d delay 1d` (delay) | `432000+86400` | as an increment, PGN having no delay |
/// | `none` | `-` | no time control |
///
/// A delay is written as an increment of the same length: over any number
/// of moves both allow the same longest total time (the bank plus a grace
/// per move); they differ only in that a delay's unused grace is lost.
/// [`CORRESPONDENCE_TIME_CONTROL`] keeps the exact form.
pub fn time_control_tag(control: &TimeControl) -> String {
    let seconds = |d: chrono::Duration| d.num_seconds();
    match *control {
        TimeControl::PerMove { per_move } => format!("1/{}", seconds(per_move)),
        TimeControl::Period { moves, period } => format!("{moves}/{}", seconds(period)),
        TimeControl::Increment {
            base, increment, ..
        } => format!("{}+{}", seconds(base), seconds(increment)),
        TimeControl::Delay { base, delay } => format!("{}+{}", seconds(base), seconds(delay)),
        TimeControl::Unlimited => "-".to_owned(),
    }
}

/// The time control a record states: our own tag, else PGN's `TimeControl`
/// when it is one of the forms [`time_control_tag`] writes.
fn read_time_control(ours: Option<&str>, standard: Option<&str>) -> Option<TimeControl> {
    if let Some(control) = ours.and_then(|text| text.parse().ok()) {
        return Some(control);
    }
    let standard = standard?.trim();
    if standard == "-" {
        return Some(TimeControl::Unlimited);
    }
    // Whole hours only, as our own forms are.
    let span = |text: &str| -> Option<chrono::Duration> {
        let seconds: i64 = text.parse().ok()?;
        if seconds <= 0 || seconds % 3600 != 0 {
            return None;
        }
        chrono::Duration::try_seconds(seconds)
    };
    let control = if let Some((moves, period)) = standard.split_once('/') {
        match moves.parse::<u32>().ok()? {
            1 => TimeControl::PerMove {
                per_move: span(period)?,
            },
            moves => TimeControl::Period {
                moves,
                period: span(period)?,
            },
        }
    } else {
        let (base, increment) = standard.split_once('+')?;
        TimeControl::Increment {
            base: span(base)?,
            increment: span(increment)?,
            cap: None,
        }
    };
    // Only what our own parser would accept (1 hour to a year, 1 to 100 moves).
    control.to_string().parse().ok()
}

/// PGN's `Termination` value for a game that ended for `reason`.
fn termination(reason: Option<Reason>) -> &'static str {
    match reason {
        None => "unterminated",
        Some(Reason::Timeout) => "time forfeit",
        Some(Reason::Abort | Reason::NoShow) => "abandoned",
        Some(Reason::Adjudication) => "adjudication",
        Some(_) => "normal",
    }
}

fn movetext(
    game: &Game,
    result: GameResult,
    reason: Option<Reason>,
    comments: &[(usize, String)],
    evals: &[PositionEval],
) -> String {
    let mut text = Wrapped::default();
    let mut pos = game.start_position().clone();
    let mut number = u64::from(pos.fullmoves().get());
    // One evaluation per position at most: the start and after each move.
    let evals = &evals[..evals.len().min(game.moves().len() + 1)];
    let scores: Vec<Eval> = evals.iter().map(|e| e.eval).collect();
    let judgements = move_judgements(&scores, pos.turn());
    // Black's move takes a `12...` number at the start and after a comment.
    let mut renumber = true;
    let notes_at = |ply: usize| game.notes().iter().filter(move |n| n.ply as usize == ply);

    let comments_at = |ply: usize| {
        comments
            .iter()
            .filter(move |(at, _)| *at == ply)
            .map(|(_, comment)| comment)
    };
    for note in notes_at(0) {
        text.comment(&note_comment(note, &pos));
    }
    for comment in comments_at(0) {
        text.comment(comment);
    }
    for (i, played) in game.moves().iter().enumerate() {
        let mover = pos.turn();
        match mover {
            Color::White => text.word(&format!("{number}.")),
            Color::Black if renumber => text.word(&format!("{number}...")),
            Color::Black => {}
        }
        let before = pos.clone();
        let move_number = number;
        // Written from the move itself, never from text kept with it: PGN's
        // SAN is English whatever language the move was typed or shown in.
        // The stored move is legal here: the game played it from this position.
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, played.m);
        text.word(&san.to_string());
        renumber = false;
        // A mate cannot be a mistake, whatever a mated position's score says.
        let judgement = judgements
            .get(i)
            .copied()
            .flatten()
            .filter(|_| !pos.is_checkmate());
        if let Some(judgement) = judgement {
            text.word(nag(judgement));
        }
        // A mated position has no evaluation, whatever an engine said of it.
        let shown = evals.get(i + 1).filter(|_| !pos.is_checkmate());
        if let Some(eval) = shown.and_then(|e| eval_comment(e.eval)) {
            text.comment(&eval);
            renumber = true;
        }
        if played.draw_offer {
            text.comment(DRAW_OFFER_SIGN);
            renumber = true;
        }
        if mover == Color::Black {
            number += 1;
        }
        for note in notes_at(i + 1) {
            text.comment(&note_comment(note, &pos));
            renumber = true;
        }
        for comment in comments_at(i + 1) {
            text.comment(comment);
            renumber = true;
        }
        // The better move, after everything said about the one played.
        if judgement.is_some()
            && let Some(best) = evals.get(i)
        {
            let line = variation(&before, move_number, played.m, &best.line);
            if !line.is_empty() {
                text.variation(&line);
                renumber = true;
            }
        }
    }
    // Notes are never placed past the last move; keep any that are anyway.
    let len = game.moves().len();
    for note in game.notes().iter().filter(|n| n.ply as usize > len) {
        text.comment(&note_comment(note, &pos));
    }
    if let Some(reason) = reason {
        text.comment(&end_comment(result, reason));
    }
    text.word(result.as_pgn());
    text.out
}

/// The numeric annotation glyph of a judgement (PGN standard, 10).
fn nag(judgement: Judgement) -> &'static str {
    match judgement {
        Judgement::Inaccuracy => "$6",
        Judgement::Mistake => "$2",
        Judgement::Blunder => "$4",
    }
}

/// An evaluation as lichess writes it in a comment: `[%eval 0.35]` in pawns
/// from White's point of view, `[%eval #-2]` for a mate. `None` for a mate
/// in 0 (the side to move is mated), whose sign says nothing.
fn eval_comment(eval: Eval) -> Option<String> {
    match eval {
        Eval::Mate(0) => None,
        Eval::Mate(n) => Some(format!("[%eval #{n}]")),
        Eval::Centipawns(cp) => {
            let sign = if cp < 0 { "-" } else { "" };
            let cp = cp.unsigned_abs();
            Some(format!("[%eval {sign}{}.{:02}]", cp / 100, cp % 100))
        }
    }
}

/// The words of the engine's `line` from `pos` as a variation: SAN with move
/// numbers from `number` (`12...` first when Black moves first). Empty when
/// its first move is `played` or cannot be played; it ends at the first move
/// that cannot be read or played.
fn variation(pos: &Chess, mut number: u64, played: Move, line: &[String]) -> Vec<String> {
    let mut pos = pos.clone();
    let mut words = Vec::new();
    for (k, uci) in line.iter().enumerate() {
        // `to_move` reads castling both as king-takes-rook (Chess960) and as
        // the king's two-square step, by the position's own castling rights.
        let Some(m) = UciMove::from_ascii(uci.as_bytes())
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
        else {
            break;
        };
        if k == 0 && m == played {
            break;
        }
        let mover = pos.turn();
        match mover {
            Color::White => words.push(format!("{number}.")),
            Color::Black if k == 0 => words.push(format!("{number}...")),
            Color::Black => {}
        }
        words.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
        if mover == Color::Black {
            number += 1;
        }
    }
    words
}

/// A note as a comment; `pos` is the position the note was made in.
fn note_comment(note: &Note, pos: &Chess) -> String {
    let side = note.by.map(side_name);
    match &note.kind {
        // The sign alone stands for an offer the last mover made after their
        // move; it reads back as an offer made with it, which has the same
        // effect (it stands until the opponent moves). An offer by the side
        // to move is spelt out so it is not pinned on the opponent's move.
        NoteKind::DrawOffered if note.by.is_none_or(|by| by != pos.turn()) => {
            DRAW_OFFER_SIGN.to_owned()
        }
        NoteKind::DrawOffered => format!("{} offers a draw.", side.unwrap_or("A player")),
        NoteKind::DrawDeclined => {
            format!("{} declines the draw offer.", side.unwrap_or("A player"))
        }
        NoteKind::ClaimRefused { kind, with_move } => {
            claim_comment(side, *kind, with_move.as_deref(), pos, "refused")
        }
        NoteKind::ClaimUpheld { kind, with_move } => {
            claim_comment(side, Some(*kind), with_move.as_deref(), pos, "upheld")
        }
        NoteKind::Adjudicated { note } if note.trim().is_empty() => "Adjudicated.".to_owned(),
        NoteKind::Adjudicated { note } => format!("Adjudicated: {note}"),
        NoteKind::TakebackRequested => {
            format!("{} asks to take back a move.", side.unwrap_or("A player"))
        }
        NoteKind::TakebackDeclined => {
            format!("{} declines the takeback.", side.unwrap_or("A player"))
        }
        NoteKind::TakenBack { plies } => format!(
            "{} took back {} with the opponent's agreement.",
            side.unwrap_or("A player"),
            if *plies == 1 { "a move" } else { "two moves" }
        ),
        NoteKind::MoreTime { days } => {
            format!(
                "{} gives the opponent {days} more day(s).",
                side.unwrap_or("A player")
            )
        }
        NoteKind::ClockCredit { seconds } => {
            format!(
                "The clock is credited {} minute(s) for an outage.",
                seconds / 60
            )
        }
    }
}

fn claim_comment(
    side: Option<&str>,
    kind: Option<ClaimKind>,
    with_move: Option<&str>,
    pos: &Chess,
    verdict: &str,
) -> String {
    let mut text = format!("{} claims a draw", side.unwrap_or("A player"));
    match kind {
        Some(ClaimKind::Threefold) => text.push_str(" by threefold repetition"),
        Some(ClaimKind::Fifty) => text.push_str(" by the fifty-move rule"),
        None => {}
    }
    if let Some(uci) = with_move {
        // Notes keep the written move in UCI; the score reads better in SAN.
        let san = uci
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(pos).ok())
            .map(|m| SanPlus::from_move(pos.clone(), m).to_string());
        text.push_str(" with ");
        text.push_str(san.as_deref().unwrap_or(uci));
    }
    text.push_str(": ");
    text.push_str(verdict);
    text
}

/// The comment that closes the movetext of a finished game. [`import`] maps
/// it back to `reason` by comparing against every reason's comment.
fn end_comment(result: GameResult, reason: Reason) -> String {
    let winner = result.winner().map(side_name);
    let loser = result.winner().map(|w| side_name(!w));
    let draw = result == GameResult::Draw;
    match (reason, winner, loser) {
        (Reason::Checkmate, Some(w), _) => format!("{w} wins by checkmate."),
        (Reason::Stalemate, ..) if draw => "Draw by stalemate.".to_owned(),
        (Reason::DeadPosition, ..) if draw => "Draw by dead position.".to_owned(),
        (Reason::Fivefold, ..) if draw => "Draw by fivefold repetition.".to_owned(),
        (Reason::SeventyFiveMoves, ..) if draw => "Draw by the 75-move rule.".to_owned(),
        (Reason::Threefold, ..) if draw => "Draw by threefold repetition.".to_owned(),
        (Reason::FiftyMoves, ..) if draw => "Draw by the fifty-move rule.".to_owned(),
        (Reason::Agreement, ..) if draw => "Draw by agreement.".to_owned(),
        (Reason::Resignation, _, Some(l)) => format!("{l} resigns."),
        (Reason::Resignation, ..) if draw => {
            "Draw: a player resigned, but the opponent cannot checkmate.".to_owned()
        }
        (Reason::Timeout, Some(w), _) => format!("{w} wins on time."),
        (Reason::Timeout, ..) if draw => {
            "Draw: a flag fell, but the opponent cannot checkmate.".to_owned()
        }
        (Reason::Abort, ..) if result == GameResult::NoResult => "Game aborted.".to_owned(),
        (Reason::NoShow, Some(w), Some(l)) => {
            format!("{l} never made a first move: {w} wins by forfeit.")
        }
        (Reason::Adjudication, Some(w), _) => format!("{w} wins by adjudication."),
        (Reason::Adjudication, ..) if draw => "Draw by adjudication.".to_owned(),
        (Reason::Recorded, ..) => format!("Result as recorded elsewhere: {}.", result.as_pgn()),
        // Pairs the game never produces; still one distinct text per pair.
        _ => format!("Result {}: {}.", result.as_pgn(), reason.as_str()),
    }
}

fn side_name(side: Color) -> &'static str {
    side.fold_wb("White", "Black")
}

/// Movetext words, wrapped at [`LINE_WIDTH`].
#[derive(Default)]
struct Wrapped {
    out: String,
    line: usize,
}

impl Wrapped {
    fn word(&mut self, word: &str) {
        let width = word.chars().count();
        if self.line > 0 {
            if self.line + 1 + width > LINE_WIDTH {
                self.out.push('\n');
                self.line = 0;
            } else {
                self.out.push(' ');
                self.line += 1;
            }
        }
        self.out.push_str(word);
        self.line += width;
    }

    /// `(words)`, the parentheses against the first and last words.
    fn variation(&mut self, words: &[String]) {
        let last = words.len().saturating_sub(1);
        for (k, word) in words.iter().enumerate() {
            let open = if k == 0 { "(" } else { "" };
            let close = if k == last { ")" } else { "" };
            self.word(&format!("{open}{word}{close}"));
        }
    }

    /// `{ text }`; a `}` would end the comment early, so it becomes `)`.
    fn comment(&mut self, text: &str) {
        self.word("{");
        for word in text.split_whitespace() {
            self.word(&word.replace('}', ")"));
        }
        self.word("}");
    }
}

/// A tag value bounded, on one line, with `\` and `"` escaped.
fn escape_tag(value: &str) -> String {
    let mut out = String::new();
    for c in bound_tag(value).chars() {
        if matches!(c, '\\' | '"') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// At most [`MAX_TAG_VALUE`] characters, control characters as spaces.
fn bound_tag(value: &str) -> String {
    let bounded: String = value
        .chars()
        .take(MAX_TAG_VALUE)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    bounded.trim().to_owned()
}

/// Reads the first game of `text` into a new game between `players`.
///
/// Moves are timed at the game's `UTCDate`/`UTCTime` (or `Date`) when given,
/// else at `now`. Variations are skipped; only the main line is played.
pub fn import(
    text: &str,
    players: Players,
    now: DateTime<Utc>,
) -> Result<(Game, PgnTags), PgnError> {
    if text.len() > MAX_PGN_BYTES {
        return Err(PgnError::TooLong);
    }
    let recorded = games(text).next().ok_or(PgnError::NoGame)??;
    let game = recorded.play(players, now)?;
    Ok((game, recorded.tags()))
}

/// Every game of `text`, in order (a UTF-8 byte order mark and CRLF line
/// ends are fine). Text the reader cannot go on from ends the sequence with
/// its error. The caller bounds `text`: reading is linear in its length.
pub fn games(text: &str) -> impl Iterator<Item = Result<RecordedGame, PgnError>> + '_ {
    let mut reader = pgn_reader::Reader::build(text.as_bytes())
        .set_supported_tag_line_length(1024)
        .set_supported_comment_length(1024)
        .finish();
    let mut failed = false;
    std::iter::from_fn(move || {
        while !failed {
            match reader.read_game(&mut Collect) {
                Ok(None) => return None,
                Ok(Some(parsed)) if parsed.is_empty() => continue,
                Ok(Some(parsed)) => return Some(Ok(RecordedGame { parsed })),
                Err(error) => {
                    failed = true;
                    return Some(Err(PgnError::Syntax(error.to_string())));
                }
            }
        }
        None
    })
}

/// One game of a PGN text, read but not yet played out (see [`games`]).
pub struct RecordedGame {
    parsed: Parsed,
}

impl RecordedGame {
    pub fn tags(&self) -> PgnTags {
        self.parsed.to_tags()
    }

    /// How many variations were left out (only the main line is played).
    pub fn skipped_variations(&self) -> u32 {
        self.parsed.variations
    }

    /// The record as one text that is the same whenever the same game is
    /// read again, however it was laid out (line ends, comments, spacing):
    /// its tags in order, its main line and its result. An importer keys
    /// the game on it, so a file imported twice adds nothing the second time.
    pub fn fingerprint(&self) -> String {
        let mut text = String::new();
        for (name, value) in &self.parsed.tags {
            text.push_str(&format!("[{name} {value:?}]\n"));
        }
        for item in &self.parsed.items {
            if let Item::San(san) = item {
                text.push_str(&san.to_string());
                text.push(' ');
            }
        }
        if let Ok(Some(result)) = self.parsed.claimed_result() {
            text.push_str(result.as_pgn());
        }
        text
    }

    /// The game between `players`: its moves played, ended as its record
    /// says. Moves are timed at the record's start (`UTCDate`/`UTCTime`,
    /// else `Date`), or at `now` when it gives none.
    pub fn play(&self, players: Players, now: DateTime<Utc>) -> Result<Game, PgnError> {
        let parsed = &self.parsed;
        let variant = match parsed.tag("Variant") {
            None => Variant::Standard,
            Some(tag) => Variant::from_pgn_tag(tag)
                .ok_or_else(|| PgnError::UnsupportedVariant(bound_tag(tag)))?,
        };
        let at = parsed.started_at().unwrap_or(now);
        let fen = parsed
            .tag("FEN")
            .filter(|_| parsed.tag("SetUp") != Some("0"));
        let rules = DrawRules::default();
        let mut game =
            Game::new_variant(variant, players, fen, rules, at).map_err(|e| match e {
                SetupError::SamePlayer => PgnError::Setup(e),
                _ => PgnError::BadFen(e),
            })?;

        let mut last_move = None;
        for (i, item) in parsed.items.iter().enumerate() {
            let Item::San(san) = item else { continue };
            let ply = game.moves().len() as u32 + 1;
            if game.is_over() {
                return Err(PgnError::MovesAfterEnd { ply });
            }
            let m = san
                .san
                .to_move(game.position())
                .map_err(|_| PgnError::IllegalMove {
                    ply,
                    san: san.to_string(),
                })?;
            let offer = parsed.items[i + 1..]
                .iter()
                .take_while(|item| !matches!(item, Item::San(_)))
                .any(|item| matches!(item, Item::Comment(c) if c == DRAW_OFFER_SIGN));
            game.play(m, offer, at);
            last_move = Some(i);
        }

        let trailing: Vec<&str> = parsed.items[last_move.map_or(0, |i| i + 1)..]
            .iter()
            .filter_map(|item| match item {
                Item::Comment(c) => Some(c.as_str()),
                Item::San(_) => None,
            })
            .collect();
        restore_result(&mut game, parsed, &trailing, at)?;
        Ok(game)
    }
}

/// An unfinished game recorded elsewhere, to be continued here: where it
/// started and the moves played so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Continuation {
    pub variant: Variant,
    pub start_fen: Option<String>,
    /// The moves so far, in UCI (castling as `e1g1`; king-takes-rook `b1a1` in Chess960).
    pub moves: Vec<String>,
    /// The record's `White` and `Black` names (`?` when not given).
    pub white: String,
    pub black: String,
    /// The number of the move to play next, and the side to play it.
    pub next_move: u32,
    pub turn: Color,
}

impl Continuation {
    /// Reads the first game of `text`, which must not be over: a game with a
    /// result is history, not something to continue.
    pub fn read(text: &str) -> Result<Continuation, PgnError> {
        // Any two players: the record is only played through to check it.
        let players = Players {
            white: super::game::PlayerId(1),
            black: super::game::PlayerId(2),
        };
        let (game, tags) = import(text, players, DateTime::UNIX_EPOCH)?;
        if let Status::Over { result, .. } = game.status() {
            return Err(PgnError::AlreadyOver(result));
        }
        Ok(Continuation {
            variant: game.variant(),
            start_fen: game.start_fen().map(str::to_owned),
            moves: game.moves().iter().map(|m| m.uci.to_string()).collect(),
            white: tags.white,
            black: tags.black,
            next_move: game.position().fullmoves().get(),
            turn: game.turn(),
        })
    }

    /// The moves as stored with a challenge: UCI, space-separated.
    pub fn moves_text(&self) -> String {
        self.moves.join(" ")
    }

    /// The game between `players` with the recorded moves played at `now`;
    /// its clock, if any, is started afterwards by the caller. `moves` is
    /// [`Continuation::moves_text`]'s form.
    pub fn resume(
        variant: Variant,
        players: Players,
        start_fen: Option<&str>,
        moves: &str,
        rules: DrawRules,
        now: DateTime<Utc>,
    ) -> Result<Game, PgnError> {
        let mut game =
            Game::new_variant(variant, players, start_fen, rules, now).map_err(PgnError::Setup)?;
        for (index, uci) in moves.split_whitespace().enumerate() {
            let illegal = || PgnError::IllegalMove {
                ply: index as u32 + 1,
                san: uci.to_owned(),
            };
            if game.is_over() {
                return Err(PgnError::MovesAfterEnd {
                    ply: index as u32 + 1,
                });
            }
            let m = UciMove::from_ascii(uci.as_bytes())
                .map_err(|_| illegal())?
                .to_move(game.position())
                .map_err(|_| illegal())?;
            game.play(m, false, now);
        }
        if let Status::Over { result, .. } = game.status() {
            return Err(PgnError::AlreadyOver(result));
        }
        Ok(game)
    }
}

/// Ends an imported game the way its record says, unless the moves did.
fn restore_result(
    game: &mut Game,
    parsed: &Parsed,
    trailing: &[&str],
    at: DateTime<Utc>,
) -> Result<(), PgnError> {
    let claimed = parsed.claimed_result()?;
    if let Status::Over { result, .. } = game.status() {
        // The moves decide (mate, stalemate, ...); `*` only means "not recorded".
        return match claimed {
            Some(claimed) if claimed != GameResult::NoResult && claimed != result => {
                Err(PgnError::ResultMismatch { claimed })
            }
            _ => Ok(()),
        };
    }
    let Some(claimed) = claimed else {
        return Ok(());
    };
    let from_comment = trailing.iter().rev().find_map(|comment| {
        Reason::ALL
            .into_iter()
            .find(|&reason| end_comment(claimed, reason) == *comment)
    });
    let reason =
        from_comment.or_else(|| reason_from_termination(claimed, parsed.tag("Termination")));
    match reason {
        None => Ok(()),
        // These end a game by themselves: if the moves did not, the record is wrong.
        Some(
            Reason::Checkmate
            | Reason::Stalemate
            | Reason::DeadPosition
            | Reason::Fivefold
            | Reason::SeventyFiveMoves,
        ) => Err(PgnError::ResultMismatch { claimed }),
        Some(reason) => {
            game.finish(claimed, reason, at);
            Ok(())
        }
    }
}

/// The reason a record's `Termination` tag gives for a result the moves do
/// not explain. lichess writes `Normal`, `Time forfeit`, `Abandoned`;
/// chess.com a sentence (`alice won by resignation`, `Game drawn by
/// agreement`). Only what the tag says is kept: a lichess `Normal` draw may
/// have been agreed or claimed, so it is [`Reason::Recorded`], as is any
/// result whose ending the tag does not name. A reason that would end the
/// game by itself (checkmate, stalemate) is never taken from a tag.
fn reason_from_termination(claimed: GameResult, termination: Option<&str>) -> Option<Reason> {
    let text = termination.unwrap_or_default().trim().to_ascii_lowercase();
    let says = |word: &str| text.contains(word);
    let decisive = claimed.winner().is_some();
    let reason = match claimed {
        GameResult::NoResult if says("abandon") => Reason::Abort,
        GameResult::NoResult => return None,
        _ if says("time") => Reason::Timeout,
        _ if says("adjudicat") => Reason::Adjudication,
        _ if decisive && (says("resign") || text == "normal") => Reason::Resignation,
        _ if !decisive && says("agree") => Reason::Agreement,
        _ if !decisive && says("repetition") => Reason::Threefold,
        _ if !decisive && (says("fifty") || says("50")) => Reason::FiftyMoves,
        _ => Reason::Recorded,
    };
    Some(reason)
}

/// What the reader found in one game.
#[derive(Default)]
struct Parsed {
    tags: Vec<(String, String)>,
    items: Vec<Item>,
    outcome: Option<Outcome>,
    /// A comment longer than the reader's buffer, until its `}` arrives.
    partial: String,
    /// Variations skipped.
    variations: u32,
}

enum Item {
    San(SanPlus),
    /// Whitespace collapsed, so wrapped comments compare equal.
    Comment(String),
}

impl Parsed {
    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.items.is_empty() && self.outcome.is_none()
    }

    /// The first value of tag `name`.
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn to_tags(&self) -> PgnTags {
        let known = |name| {
            self.tag(name)
                .map(bound_tag)
                .unwrap_or_else(|| "?".to_owned())
        };
        let optional = |name| self.tag(name).map(bound_tag).filter(|v| v != "-");
        PgnTags {
            event: known("Event"),
            site: known("Site"),
            white: known("White"),
            black: known("Black"),
            round: optional("Round"),
            time_control: read_time_control(
                self.tag(CORRESPONDENCE_TIME_CONTROL),
                self.tag("TimeControl"),
            ),
        }
    }

    fn started_at(&self) -> Option<DateTime<Utc>> {
        let date = |name| NaiveDate::parse_from_str(self.tag(name)?.trim(), "%Y.%m.%d").ok();
        let date = date("UTCDate").or_else(|| date("Date"))?;
        let time = self
            .tag("UTCTime")
            .and_then(|t| NaiveTime::parse_from_str(t.trim(), "%H:%M:%S").ok())
            .unwrap_or(NaiveTime::MIN);
        Some(date.and_time(time).and_utc())
    }

    /// The result the record states, from the tag or the movetext's token.
    fn claimed_result(&self) -> Result<Option<GameResult>, PgnError> {
        let tag = self
            .tag("Result")
            .and_then(|r| GameResult::from_pgn(r.trim()));
        let token = self.outcome.map(|outcome| match outcome {
            Outcome::Known(KnownOutcome::Decisive { winner }) => GameResult::win_for(winner),
            Outcome::Known(KnownOutcome::Draw) => GameResult::Draw,
            Outcome::Unknown => GameResult::NoResult,
        });
        match (tag, token) {
            (Some(tag), Some(token)) if tag != token => {
                Err(PgnError::ResultConflict { tag, token })
            }
            _ => Ok(tag.or(token)),
        }
    }
}

/// Collects a game's tags and main line; variations are counted and skipped.
struct Collect;

impl Visitor for Collect {
    type Tags = Parsed;
    type Movetext = Parsed;
    type Output = Parsed;

    fn begin_tags(&mut self) -> ControlFlow<Parsed, Parsed> {
        ControlFlow::Continue(Parsed::default())
    }

    fn tag(&mut self, tags: &mut Parsed, name: &[u8], value: RawTag<'_>) -> ControlFlow<Parsed> {
        let name = String::from_utf8_lossy(name).into_owned();
        tags.tags.push((name, unescape_tag(value.as_bytes())));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Parsed) -> ControlFlow<Parsed, Parsed> {
        ControlFlow::Continue(tags)
    }

    fn san(&mut self, movetext: &mut Parsed, san: SanPlus) -> ControlFlow<Parsed> {
        movetext.items.push(Item::San(san));
        ControlFlow::Continue(())
    }

    fn partial_comment(
        &mut self,
        movetext: &mut Parsed,
        comment: RawComment<'_>,
    ) -> ControlFlow<Parsed> {
        movetext
            .partial
            .push_str(&String::from_utf8_lossy(comment.as_bytes()));
        ControlFlow::Continue(())
    }

    fn comment(&mut self, movetext: &mut Parsed, comment: RawComment<'_>) -> ControlFlow<Parsed> {
        let mut text = std::mem::take(&mut movetext.partial);
        text.push_str(&String::from_utf8_lossy(comment.as_bytes()));
        let words: Vec<&str> = text.split_whitespace().collect();
        movetext.items.push(Item::Comment(words.join(" ")));
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, movetext: &mut Parsed) -> ControlFlow<Parsed, Skip> {
        movetext.variations += 1;
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, movetext: &mut Parsed, outcome: Outcome) -> ControlFlow<Parsed> {
        movetext.outcome.get_or_insert(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Parsed) -> Parsed {
        movetext
    }
}

/// Undoes PGN's tag escapes (`\\` and `\"`); other backslashes stay.
fn unescape_tag(raw: &[u8]) -> String {
    let mut out = Vec::with_capacity(raw.len());
    let mut bytes = raw.iter().copied().peekable();
    while let Some(byte) = bytes.next() {
        if byte == b'\\'
            && let Some(escaped) = bytes.next_if(|b| matches!(b, b'\\' | b'"'))
        {
            out.push(escaped);
        } else {
            out.push(byte);
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;
    use shakmaty::EnPassantMode;
    use shakmaty::fen::Fen;
    use shakmaty::san::San;

    use super::*;
    use crate::core::game::{Act, Actor, PlayerId};

    const ALICE: PlayerId = PlayerId(1);
    const BOB: PlayerId = PlayerId(2);

    fn players() -> Players {
        Players {
            white: ALICE,
            black: BOB,
        }
    }

    fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2024, 3, 5, 14, 7, 9)
            .single()
            .expect("a valid instant")
    }

    fn tags() -> PgnTags {
        PgnTags {
            event: "Casual correspondence game".to_owned(),
            site: "pawnpost".to_owned(),
            white: "Alice".to_owned(),
            black: "Bob".to_owned(),
            round: None,
            time_control: Some(TimeControl::PerMove {
                per_move: chrono::Duration::days(3),
            }),
        }
    }

    fn play(game: &mut Game, san: &str, offer: bool) {
        assert!(!game.is_over(), "{san} after the end");
        let m = san
            .parse::<San>()
            .expect("SAN")
            .to_move(game.position())
            .expect("legal");
        game.play(m, offer, t0());
    }

    fn game(fen: Option<&str>, sans: &str) -> Game {
        let mut game = Game::new(players(), fen, DrawRules::default(), t0()).expect("setup");
        for san in sans.split_whitespace() {
            play(&mut game, san, false);
        }
        game
    }

    fn act(game: &mut Game, actor: Actor, act: Act) {
        game.apply(&actor, act, t0()).expect("accepted");
    }

    fn fen(game: &Game) -> String {
        Fen::from_position(game.position(), EnPassantMode::Legal).to_string()
    }

    fn result_and_reason(game: &Game) -> Option<(GameResult, Reason)> {
        match game.status() {
            Status::Ongoing => None,
            Status::Over { result, reason, .. } => Some((result, reason)),
        }
    }

    /// Export, import, and check that nothing the game knows was lost.
    fn assert_round_trip(original: &Game) {
        let text = export(original, &tags());
        let (back, back_tags) = import(&text, players(), t0() + chrono::Duration::days(30))
            .unwrap_or_else(|e| panic!("{e}:\n{text}"));
        let ucis = |g: &Game| {
            g.moves()
                .iter()
                .map(|m| m.uci.to_string())
                .collect::<Vec<_>>()
        };
        let offers = |g: &Game| g.moves().iter().map(|m| m.draw_offer).collect::<Vec<_>>();
        assert_eq!(ucis(&back), ucis(original), "{text}");
        assert_eq!(offers(&back), offers(original), "{text}");
        assert_eq!(fen(&back), fen(original), "{text}");
        assert_eq!(back.start_fen(), original.start_fen());
        assert_eq!(
            result_and_reason(&back),
            result_and_reason(original),
            "{text}"
        );
        assert_eq!(back.started_at(), original.started_at());
        assert_eq!(back_tags, tags());
        for line in text.lines() {
            assert!(line.chars().count() <= LINE_WIDTH, "long line: {line}");
        }
    }

    #[test]
    fn exports_a_short_game_exactly() {
        let game = game(None, "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#");
        let expected = "\
[Event \"Casual correspondence game\"]
[Site \"pawnpost\"]
[Date \"2024.03.05\"]
[Round \"-\"]
[White \"Alice\"]
[Black \"Bob\"]
[Result \"1-0\"]
[UTCDate \"2024.03.05\"]
[UTCTime \"14:07:09\"]
[TimeControl \"1/259200\"]
[CorrespondenceTimeControl \"3d\"]
[ECO \"C20\"]
[Opening \"King's Pawn Game: Wayward Queen Attack\"]
[Termination \"normal\"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# { White wins by checkmate. } 1-0
";
        assert_eq!(export(&game, &tags()), expected);
    }

    /// Every time control form: (as typed, PGN's `TimeControl`, our tag).
    const TIME_CONTROL_ROWS: &[(&str, &str, &str)] = &[
        ("3d", "1/259200", "3d"),
        ("12h", "1/43200", "12h"),
        ("10/50d", "10/4320000", "10/50d"),
        ("30d+1d", "2592000+86400", "30d+1d"),
        ("2d+12h", "172800+43200", "2d+12h"),
        ("30d+1d max 45d", "2592000+86400", "30d+1d max 45d"),
        ("5d delay 1d", "432000+86400", "5d delay 1d"),
        ("none", "-", "none"),
    ];

    #[test]
    fn time_controls_are_written_in_pgn_form_and_kept_as_typed() {
        for &(typed, standard, ours) in TIME_CONTROL_ROWS {
            let control: TimeControl = typed.parse().expect(typed);
            assert_eq!(time_control_tag(&control), standard, "{typed}");
            let mut with = tags();
            with.time_control = Some(control);
            let text = export(&game(None, "e4 e5"), &with);
            let expected =
                format!("[TimeControl \"{standard}\"]\n[CorrespondenceTimeControl \"{ours}\"]\n");
            assert!(text.contains(&expected), "{typed}:\n{text}");
            let (_, back) = import(&text, players(), t0()).expect("imports");
            assert_eq!(back.time_control, Some(control), "{typed}");
        }
        let mut unknown = tags();
        unknown.time_control = None;
        let text = export(&game(None, "e4"), &unknown);
        assert!(text.contains("[TimeControl \"?\"]\n[ECO"), "{text}");
    }

    #[test]
    fn pgn_time_controls_alone_read_back_when_they_are_ours() {
        let three_days = TimeControl::PerMove {
            per_move: chrono::Duration::days(3),
        };
        // (our tag, PGN's TimeControl, what is read)
        let cases: &[(Option<&str>, Option<&str>, Option<TimeControl>)] = &[
            (None, Some("1/259200"), Some(three_days)),
            (Some("3d"), Some("40/9000"), Some(three_days)),
            (Some("soon"), Some("1/259200"), Some(three_days)),
            (None, Some("-"), Some(TimeControl::Unlimited)),
            (None, Some("?"), None),
            (None, Some("40/9000"), None),
            (None, Some("300+5"), None),
            (None, Some("0/3600"), None),
            (None, Some("1/-3600"), None),
            (None, Some("1/9223372036854775807"), None),
            (None, Some("1/99999999999999999999999"), None),
            (None, Some("*180"), None),
            (None, None, None),
        ];
        for &(ours, standard, expected) in cases {
            assert_eq!(
                read_time_control(ours, standard),
                expected,
                "{ours:?} {standard:?}"
            );
        }
        let increment = read_time_control(None, Some("2592000+86400"));
        assert_eq!(increment.map(|c| c.to_string()), Some("30d+1d".to_owned()));
        let period = read_time_control(None, Some("10/4320000"));
        assert_eq!(period.map(|c| c.to_string()), Some("10/50d".to_owned()));
    }

    #[test]
    fn san_is_written_from_the_moves_not_from_stored_text() {
        use crate::core::game::StoredMove;
        // A stored SAN that reads as another move (a French `R` for the
        // king, say) must not reach the PGN: the move decides.
        let stored = [
            StoredMove {
                uci: "e2e4",
                san: "e4",
                at: t0(),
                draw_offer: false,
            },
            StoredMove {
                uci: "e7e5",
                san: "e5",
                at: t0(),
                draw_offer: false,
            },
            StoredMove {
                uci: "e1e2",
                san: "Re2",
                at: t0(),
                draw_offer: false,
            },
        ];
        let game = Game::restore(
            crate::core::variant::Variant::Standard,
            players(),
            None,
            DrawRules::default(),
            t0(),
            stored,
            Vec::new(),
            None,
            Status::Ongoing,
        )
        .expect("restores");
        let text = export(&game, &tags());
        assert!(text.ends_with("\n1. e4 e5 2. Ke2 *\n"), "{text}");
    }

    #[test]
    fn numbers_moves_from_a_fen_with_black_to_move() {
        let start = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 12";
        let game = game(Some(start), "Nf6 Nc3 Bb4");
        let text = export(&game, &PgnTags::default());
        assert!(text.contains("[SetUp \"1\"]\n[FEN \"r1bqkbnr/"), "{text}");
        assert!(text.contains("[Termination \"unterminated\"]"), "{text}");
        assert!(text.ends_with("\n\n12... Nf6 13. Nc3 Bb4 *\n"), "{text}");
        assert_round_trip(&game);
    }

    #[test]
    fn move_numbers_go_past_the_largest_fen_move_number() {
        let cases = [
            (
                "r3k3/8/8/8/8/8/8/R3K3 w - - 0 4294967295",
                "Kd2 Kd7 Ke1",
                "\n\n4294967295. Kd2 Kd7 4294967296. Ke1 *\n",
            ),
            (
                "r3k3/8/8/8/8/8/8/R3K3 b - - 0 4294967295",
                "Kd7 Kd2 Ke8",
                "\n\n4294967295... Kd7 4294967296. Kd2 Ke8 *\n",
            ),
        ];
        for (start, moves, ending) in cases {
            let text = export(&game(Some(start), moves), &PgnTags::default());
            assert!(text.ends_with(ending), "{text}");
        }
    }

    #[test]
    fn ongoing_games_and_offers_are_marked() {
        let mut g = game(None, "e4 e5");
        play(&mut g, "Nf3", true);
        play(&mut g, "Nc6", false);
        let text = export(&g, &PgnTags::default());
        assert!(
            text.ends_with("1. e4 e5 2. Nf3 { (=) } 2... Nc6 *\n"),
            "{text}"
        );
        assert_round_trip(&g);
    }

    #[test]
    fn round_trips_checkmate() {
        assert_round_trip(&game(None, "f3 e5 g4 Qh4#"));
    }

    /// An engine's word on a mated position (here a "mate in 1" of no
    /// meaning) is never written after the mating move.
    #[test]
    fn no_evaluation_follows_a_mate() {
        use crate::core::review::{Eval, PositionEval};
        let g = game(None, "f3 e5 g4 Qh4#");
        let eval = |eval| PositionEval {
            eval,
            line: Vec::new(),
        };
        let evals = [
            eval(Eval::Centipawns(20)),
            eval(Eval::Centipawns(-60)),
            eval(Eval::Centipawns(-40)),
            eval(Eval::Mate(-1)),
            eval(Eval::Mate(1)),
        ];
        let text = export_reviewed(&g, &tags(), &evals, &[]);
        assert!(text.contains("2. g4 $4 { [%eval #-1] }"), "{text}");
        assert!(
            text.contains("2... Qh4# { Black wins by checkmate. } 0-1"),
            "{text}"
        );
    }

    /// A no-show's forfeit says so, and PGN calls it an abandoned game.
    #[test]
    fn a_no_show_forfeit_is_an_abandoned_game() {
        use crate::core::clock::{Clock, TimeControl};
        use crate::core::game::NoShow;
        let mut g = Game::new(players(), None, DrawRules::default(), t0()).expect("setup");
        let control: TimeControl = "3d".parse().expect("3d");
        g.set_clock(Clock::start(control, Color::White, t0()));
        play(&mut g, "e4", false);
        let late = t0() + chrono::Duration::days(7);
        let ended = g.apply(
            &Actor::Clock,
            Act::ClockExpired {
                no_show: NoShow::Forfeit,
            },
            late,
        );
        assert!(ended.is_ok(), "{ended:?}");
        let text = export(&g, &tags());
        assert!(text.contains("[Termination \"abandoned\"]"), "{text}");
        assert!(
            text.contains("{ Black never made a first move: White wins by forfeit. } 1-0"),
            "{text}"
        );
    }

    #[test]
    fn round_trips_resignation() {
        let mut g = game(None, "d4 d5 c4 e6 Nc3 Nf6");
        act(&mut g, Actor::Player(BOB), Act::Resign);
        assert!(export(&g, &tags()).contains("{ Black resigns. } 1-0"));
        assert_round_trip(&g);
    }

    #[test]
    fn round_trips_draw_agreement() {
        let mut g = game(None, "e4 c5 Nf3");
        act(&mut g, Actor::Player(BOB), Act::OfferDraw);
        act(&mut g, Actor::Player(ALICE), Act::AcceptDraw);
        let text = export(&g, &tags());
        assert!(text.contains("{ Draw by agreement. } 1/2-1/2"), "{text}");
        assert_round_trip(&g);
    }

    #[test]
    fn round_trips_a_refused_claim_and_a_declined_offer() {
        let mut g = game(None, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6");
        act(
            &mut g,
            Actor::Player(ALICE),
            Act::Claim {
                kind: Some(ClaimKind::Threefold),
                with_move: None,
            },
        );
        act(&mut g, Actor::Player(BOB), Act::DeclineDraw);
        play(&mut g, "Ng1", false);
        let text = export(&g, &tags());
        let words: Vec<&str> = text.split_whitespace().collect();
        assert!(
            words.join(" ").ends_with(
                "3. Nf3 Nf6 { White claims a draw by threefold repetition: refused } \
                 { Black declines the draw offer. } 4. Ng1 *"
            ),
            "{text}"
        );
        assert_round_trip(&g);
    }

    #[test]
    fn round_trips_a_timeout() {
        let mut g = game(None, "e4 e5 Nf3");
        act(&mut g, Actor::Clock, Act::FlagFall { side: Color::Black });
        let text = export(&g, &tags());
        assert!(text.contains("[Termination \"time forfeit\"]"), "{text}");
        assert!(text.contains("{ White wins on time. } 1-0"), "{text}");
        assert_round_trip(&g);
    }

    #[test]
    fn round_trips_an_abort_and_an_adjudication() {
        let mut aborted = game(None, "e4");
        act(&mut aborted, Actor::Player(BOB), Act::Abort);
        assert!(export(&aborted, &tags()).contains("{ Game aborted. } *"));
        assert_round_trip(&aborted);

        let mut adjudicated = game(None, "e4 e5");
        let note = "Black stopped replying {after} a dispute".to_owned();
        act(
            &mut adjudicated,
            Actor::Moderator(PlayerId(9)),
            Act::Adjudicate {
                result: GameResult::WhiteWins,
                note,
            },
        );
        let text = export(&adjudicated, &tags());
        assert!(text.contains("{ Adjudicated: Black stopped replying {after) a dispute }"));
        assert_round_trip(&adjudicated);
    }

    #[test]
    fn long_games_wrap_at_eighty_columns() {
        let g = game(
            None,
            "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 \
             c4 c6 cxb5 axb5 Nc3 Bb7 Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe5 Nxe5 dxe5 Bxf6 Bxf6",
        );
        assert!(export(&g, &tags()).lines().count() > 14);
        assert_round_trip(&g);
    }

    #[test]
    fn tag_values_are_escaped_and_bounded() {
        let mut names = tags();
        names.white = "Al \"the\" \\Cat\\\nsecond line".to_owned();
        names.black = "x".repeat(500);
        let text = export(&game(None, "e4"), &names);
        assert!(
            text.contains("[White \"Al \\\"the\\\" \\\\Cat\\\\ second line\"]"),
            "{text}"
        );
        let (_, back) = import(&text, players(), t0()).expect("imports");
        assert_eq!(back.white, "Al \"the\" \\Cat\\ second line");
        assert_eq!(back.black.len(), MAX_TAG_VALUE);
    }

    #[test]
    fn imports_foreign_pgn_with_variations_and_termination() {
        let text = "[Event \"Club\"]\n[Result \"0-1\"]\n[Termination \"time forfeit\"]\n\n\
                    1. e4 (1. d4 d5) e5 {A comment} 2. Nf3 $1 Nc6 0-1\n\n[Event \"Second\"]\n\n1. d4 *";
        let (g, tags) = import(text, players(), t0()).expect("imports");
        assert_eq!(g.moves().len(), 4);
        assert_eq!(
            result_and_reason(&g),
            Some((GameResult::BlackWins, Reason::Timeout))
        );
        assert_eq!(tags.event, "Club");
        assert_eq!(tags.white, "?");
        assert_eq!(g.started_at(), t0());
    }

    /// How a result the moves do not explain is kept, by `Termination` tag.
    #[test]
    fn terminations_are_kept_as_recorded() {
        use GameResult::{BlackWins, Draw, NoResult, WhiteWins};
        let cases = [
            // lichess
            ("1-0", Some("Normal"), Some(Reason::Resignation)),
            ("1/2-1/2", Some("Normal"), Some(Reason::Recorded)),
            ("0-1", Some("Time forfeit"), Some(Reason::Timeout)),
            ("1/2-1/2", Some("Time forfeit"), Some(Reason::Timeout)),
            ("1-0", Some("Abandoned"), Some(Reason::Recorded)),
            ("*", Some("Abandoned"), Some(Reason::Abort)),
            ("1-0", Some("Rules infraction"), Some(Reason::Recorded)),
            ("*", Some("Unterminated"), None),
            // chess.com
            (
                "0-1",
                Some("bob won by resignation"),
                Some(Reason::Resignation),
            ),
            ("1-0", Some("alice won on time"), Some(Reason::Timeout)),
            (
                "1/2-1/2",
                Some("Game drawn by agreement"),
                Some(Reason::Agreement),
            ),
            (
                "1/2-1/2",
                Some("Game drawn by repetition"),
                Some(Reason::Threefold),
            ),
            (
                "1/2-1/2",
                Some("Game drawn by 50-move rule"),
                Some(Reason::FiftyMoves),
            ),
            (
                "1/2-1/2",
                Some("Game drawn by stalemate"),
                Some(Reason::Recorded),
            ),
            // PGN's own words, and none
            ("1-0", Some("adjudication"), Some(Reason::Adjudication)),
            ("1-0", None, Some(Reason::Recorded)),
            ("1/2-1/2", None, Some(Reason::Recorded)),
            ("*", None, None),
        ];
        for (result, termination, reason) in cases {
            let tag = termination
                .map(|t| format!("[Termination \"{t}\"]\n"))
                .unwrap_or_default();
            let text = format!("[Result \"{result}\"]\n{tag}\n1. e4 e5 {result}");
            let (g, _) = import(&text, players(), t0()).expect("imports");
            let expected = reason.map(|reason| {
                let result = [WhiteWins, BlackWins, Draw, NoResult]
                    .into_iter()
                    .find(|r| r.as_pgn() == result)
                    .expect("a result");
                (result, reason)
            });
            assert_eq!(result_and_reason(&g), expected, "{result} {termination:?}");
        }
    }

    /// A file as lichess and chess.com write them: a byte order mark, CRLF,
    /// comments with clock times, NAGs, variations; every game read in order.
    #[test]
    fn reads_every_game_of_a_file() {
        let text = "\u{feff}[Event \"Rated correspondence game\"]\r\n[White \"alice\"]\r\n\
                    [Black \"bob\"]\r\n[Result \"1/2-1/2\"]\r\n[Date \"2024.01.02\"]\r\n\
                    [Termination \"Normal\"]\r\n\r\n1. e4 { [%clk 72:00:00] } e5 $2 \
                    { [%clk 71:59:12] } 2. Nf3 (2. Bc4 Nf6 (2... Bc5)) Nc6 $10 1/2-1/2\r\n\r\n\
                    [Event \"Second\"]\r\n\r\n1. d4 d5 2. c4 (2. Nf3) *\r\n\r\n\
                    [Event \"Third\"]\r\n\r\n1. e4 e5 2. Ke3 1-0\r\n";
        let read: Vec<_> = games(text).collect();
        assert_eq!(read.len(), 3);
        let first = read[0].as_ref().expect("first game");
        assert_eq!(first.skipped_variations(), 1);
        assert_eq!(first.tags().white, "alice");
        let game = first.play(players(), t0()).expect("plays");
        assert_eq!(game.moves().len(), 4);
        assert_eq!(
            result_and_reason(&game),
            Some((GameResult::Draw, Reason::Recorded))
        );
        let day = Utc.with_ymd_and_hms(2024, 1, 2, 0, 0, 0).single();
        assert_eq!(Some(game.started_at()), day);
        // Our own export says "as recorded", and reads back so.
        assert_round_trip(&game);
        let second = read[1].as_ref().expect("second game");
        assert_eq!(second.skipped_variations(), 1);
        assert_eq!(second.play(players(), t0()).map(|g| g.moves().len()), Ok(3));
        let third = read[2].as_ref().expect("third game is read");
        assert_eq!(
            third.play(players(), t0()).map(|_| ()).unwrap_err().kind(),
            "illegal_move"
        );
    }

    #[test]
    fn continues_only_unfinished_games() {
        let read = Continuation::read("[White \"alice\"]\n\n1. e4 e5 2. Nf3 *").expect("reads");
        assert_eq!(read.moves, ["e2e4", "e7e5", "g1f3"]);
        assert_eq!(read.white, "alice");
        assert_eq!(read.black, "?");
        assert_eq!((read.next_move, read.turn), (2, Color::Black));
        let game = Continuation::resume(
            Variant::Standard,
            players(),
            None,
            &read.moves_text(),
            DrawRules::default(),
            t0(),
        )
        .expect("resumes");
        assert_eq!(game.turn(), Color::Black);
        assert_eq!(game.moves().len(), 3);
        assert_eq!(
            Continuation::read("1. f3 e5 2. g4 Qh4#"),
            Err(PgnError::AlreadyOver(GameResult::BlackWins))
        );
        assert_eq!(
            Continuation::read("1. e4 e5 1-0"),
            Err(PgnError::AlreadyOver(GameResult::WhiteWins))
        );
        let castled = Continuation::read("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O").expect("reads");
        assert_eq!(castled.moves.last().map(String::as_str), Some("e1g1"));
        assert_eq!(
            Continuation::resume(
                Variant::Standard,
                players(),
                None,
                "e2e4 e2e4",
                DrawRules::default(),
                t0()
            )
            .map(|_| ())
            .unwrap_err()
            .kind(),
            "illegal_move"
        );
    }

    #[test]
    fn a_chess960_game_round_trips_with_its_variant_and_start() {
        // Start 0 (BBQNNRKR): castling short leaves the king on g1 where it
        // stood, and the h-rook goes to f1 (once the other rook left it).
        let fen = crate::core::chess960::fen(0).expect("a number");
        let mut game = Game::new_variant(
            Variant::Chess960,
            players(),
            Some(&fen),
            DrawRules::default(),
            t0(),
        )
        .expect("setup");
        for san in ["f4", "f5", "Rf3", "Rf6", "O-O", "O-O"] {
            let m = san
                .parse::<SanPlus>()
                .expect("SAN")
                .san
                .to_move(game.position())
                .expect("legal");
            game.play(m, false, t0());
        }
        let uci: Vec<String> = game.moves().iter().map(|m| m.uci.to_string()).collect();
        assert_eq!(
            uci[4], "g1h1",
            "Chess960 castling is stored king-takes-rook"
        );
        let text = export(&game, &tags());
        assert!(text.contains("[Variant \"Chess960\"]\n"), "{text}");
        assert!(
            text.contains(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]")),
            "{text}"
        );
        assert!(text.contains("3. O-O O-O"), "{text}");
        assert!(!text.contains("[Opening"), "{text}");
        let (back, _) = import(&text, players(), t0()).expect("imports");
        assert_eq!(back.variant(), Variant::Chess960);
        assert_eq!(back.position(), game.position());
        assert_eq!(back.chess960_number(), Some(0));
        let continued = Continuation::read(&text).expect("reads");
        assert_eq!(continued.variant, Variant::Chess960);
        let resumed = Continuation::resume(
            continued.variant,
            players(),
            continued.start_fen.as_deref(),
            &continued.moves_text(),
            DrawRules::default(),
            t0(),
        )
        .expect("resumes");
        assert_eq!(resumed.position(), game.position());
    }

    #[test]
    fn refuses_bad_records() {
        let err = |text: &str| {
            import(text, players(), t0())
                .map(|_| ())
                .unwrap_err()
                .kind()
        };
        assert_eq!(err(""), "no_game");
        assert_eq!(err("1. e4 e5 2. Ke3"), "illegal_move");
        assert_eq!(
            import("1. e4 e5 2. Ke3 *", players(), t0()).map(|_| ()),
            Err(PgnError::IllegalMove {
                ply: 3,
                san: "Ke3".to_owned()
            })
        );
        assert_eq!(err("1. f3 e5 2. g4 Qh4# 1-0"), "result_mismatch");
        assert_eq!(err("1. f3 e5 2. g4 Qh4# 3. a3 0-1"), "moves_after_end");
        assert_eq!(err("[Result \"1-0\"]\n\n1. e4 0-1"), "result_conflict");
        assert_eq!(err("[FEN \"not a fen\"]\n\n1. e4 *"), "bad_fen");
        assert_eq!(
            err("[Variant \"Atomic\"]\n\n1. e4 *"),
            "unsupported_variant"
        );
        assert_eq!(
            err("1. e4 e5 { White wins by checkmate. } 1-0"),
            "result_mismatch"
        );
        let huge = " ".repeat(MAX_PGN_BYTES + 1);
        assert_eq!(
            import(&huge, players(), t0()).map(|_| ()),
            Err(PgnError::TooLong)
        );
    }

    /// Evaluations written by hand: White's score and the engine's line in
    /// UCI from that position (space-separated).
    fn evals(rows: &[(Eval, &str)]) -> Vec<PositionEval> {
        rows.iter()
            .map(|(eval, line)| PositionEval {
                eval: *eval,
                line: line.split_whitespace().map(str::to_owned).collect(),
            })
            .collect()
    }

    const SCHOLARS_MATE: &str = "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#";

    /// A review of [`SCHOLARS_MATE`], one evaluation per position.
    fn scholars_mate_review() -> Vec<PositionEval> {
        use Eval::{Centipawns as Cp, Mate};
        evals(&[
            (Cp(20), "e2e4 e7e5 g1f3"),
            (Cp(30), "e7e5 g1f3 b8c6"),
            (Cp(35), "g1f3 b8c6 f1b5"),
            // 2. Qh5: a mistake (winning chances 0.06 to -0.18); Nf3 was best.
            (Cp(-100), "b8c6 f1c4 g7g6"),
            // 2... Nc6: an inaccuracy, yet the engine's own move: no variation.
            (Cp(0), "f1c4 g7g6 h5f3"),
            (Cp(0), "g7g6 h5f3 g8f6"),
            // 3... Nf6: a blunder into mate in one.
            (Mate(1), "h5f7"),
            // Mated: the engine's mate in 0, and no line.
            (Mate(0), ""),
        ])
    }

    fn movetext_of(text: &str) -> &str {
        text.split_once("\n\n").expect("tags, then moves").1
    }

    /// Reads a reviewed export back with the importer here: the same moves,
    /// offers and ending, exactly `variations` variations skipped, and no
    /// line over the width.
    fn assert_reviewed_round_trip(original: &Game, text: &str, variations: u32) {
        let read = games(text)
            .next()
            .expect("a game")
            .unwrap_or_else(|e| panic!("{e}:\n{text}"));
        assert_eq!(read.skipped_variations(), variations, "{text}");
        let back = read
            .play(players(), t0())
            .unwrap_or_else(|e| panic!("{e}:\n{text}"));
        let moves = |g: &Game| {
            g.moves()
                .iter()
                .map(|m| (m.uci.to_string(), m.draw_offer))
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(&back), moves(original), "{text}");
        assert_eq!(fen(&back), fen(original), "{text}");
        assert_eq!(
            result_and_reason(&back),
            result_and_reason(original),
            "{text}"
        );
        for line in text.lines() {
            assert!(line.chars().count() <= LINE_WIDTH, "long line: {line}");
        }
    }

    #[test]
    fn exports_a_reviewed_game_exactly() {
        let game = game(None, SCHOLARS_MATE);
        let text = export_reviewed(&game, &tags(), &scholars_mate_review(), &[]);
        let plain = export(&game, &tags());
        assert_eq!(
            text.split_once("\n\n").map(|t| t.0),
            plain.split_once("\n\n").map(|t| t.0)
        );
        assert_eq!(
            movetext_of(&text),
            "\
1. e4 { [%eval 0.30] } 1... e5 { [%eval 0.35] } 2. Qh5 $2 { [%eval -1.00] } (2.
Nf3 Nc6 3. Bb5) 2... Nc6 $6 { [%eval 0.00] } 3. Bc4 { [%eval 0.00] } 3... Nf6 $4
{ [%eval #1] } (3... g6 4. Qf3 Nf6) 4. Qxf7# { White wins by checkmate. } 1-0
"
        );
        assert_reviewed_round_trip(&game, &text, 2);
    }

    #[test]
    fn a_reviewed_game_from_a_fen_numbers_black_s_variation() {
        use Eval::Centipawns as Cp;
        let start = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 12";
        let game = game(Some(start), "Nf6 Nc3 Bb4");
        // Black moves first, and is judged first; no evaluation after Bb4.
        let review = evals(&[(Cp(0), "f8c5 c2c3"), (Cp(200), "b1c3"), (Cp(200), "f8b4")]);
        let text = export_reviewed(&game, &PgnTags::default(), &review, &[]);
        assert_eq!(
            movetext_of(&text),
            "12... Nf6 $4 { [%eval 2.00] } (12... Bc5 13. c3) 13. Nc3 { [%eval 2.00] } 13...\nBb4 *\n"
        );
        assert_reviewed_round_trip(&game, &text, 1);
    }

    #[test]
    fn a_chess960_variation_castles_from_king_takes_rook() {
        // Start 0 (BBQNNRKR): with the f-rooks gone, each king castles short
        // with its h-rook, written g1h1 and g8h8 by an engine in Chess960 mode.
        let fen = crate::core::chess960::fen(0).expect("a number");
        let mut game = Game::new_variant(
            Variant::Chess960,
            players(),
            Some(&fen),
            DrawRules::default(),
            t0(),
        )
        .expect("setup");
        for san in ["f4", "f5", "Rf3", "Rf6", "a4", "O-O"] {
            play(&mut game, san, false);
        }
        let mut review = evals(&[(Eval::Centipawns(0), ""); 7]);
        review[4].line = ["g1h1", "g8h8"].map(str::to_owned).to_vec();
        review[5].eval = Eval::Centipawns(-400);
        let text = export_reviewed(&game, &tags(), &review, &[]);
        assert!(
            text.contains("3. a4 $4 { [%eval -4.00] } (3. O-O O-O) 3... O-O"),
            "{text}"
        );
        assert_reviewed_round_trip(&game, &text, 1);
    }

    #[test]
    fn evaluations_are_written_as_lichess_does() {
        use Eval::{Centipawns as Cp, Mate};
        let cases = [
            (Cp(35), Some("[%eval 0.35]")),
            (Cp(0), Some("[%eval 0.00]")),
            (Cp(-5), Some("[%eval -0.05]")),
            (Cp(-250), Some("[%eval -2.50]")),
            (Cp(1234), Some("[%eval 12.34]")),
            (Cp(i32::MIN), Some("[%eval -21474836.48]")),
            (Mate(3), Some("[%eval #3]")),
            (Mate(-2), Some("[%eval #-2]")),
            (Mate(0), None),
        ];
        for (eval, expected) in cases {
            assert_eq!(eval_comment(eval).as_deref(), expected, "{eval:?}");
        }
    }

    /// Whatever the evaluations, the export reads back to the same game,
    /// skipping exactly the variations it wrote: (what, the review, the
    /// variations written, text the movetext holds).
    #[test]
    fn reviews_of_any_shape_export_without_panicking() {
        let full = scholars_mate_review();
        let with_lines = |lines: [&str; 8]| {
            let mut review = full.clone();
            for (position, line) in review.iter_mut().zip(lines) {
                position.line = line.split_whitespace().map(str::to_owned).collect();
            }
            review
        };
        let mut longer = full.clone();
        longer.extend(evals(&[(Eval::Mate(-3), "zz e2e4"); 5]));
        let garbage = ["", "zz", "e2e5", "0000", "P@e4", "e7e5q", "é2é4", "e1g1"];
        let cases: Vec<(&str, Vec<PositionEval>, u32, &str)> = vec![
            ("none", Vec::new(), 0, "1. e4 e5 2. Qh5 Nc6"),
            (
                "the start only",
                full[..1].to_vec(),
                0,
                "1. e4 e5 2. Qh5 Nc6",
            ),
            (
                "shorter",
                full[..4].to_vec(),
                1,
                "(2. Nf3 Nc6 3. Bb5) 2... Nc6 3. Bc4 Nf6 4. Qxf7#",
            ),
            ("longer", longer, 2, "(3... g6 4. Qf3 Nf6) 4. Qxf7# {"),
            (
                "empty lines",
                with_lines([""; 8]),
                0,
                "2. Qh5 $2 { [%eval -1.00] } 2... Nc6 $6",
            ),
            (
                "garbage lines",
                with_lines(garbage),
                0,
                "3... Nf6 $4 { [%eval #1] } 4. Qxf7#",
            ),
            (
                "garbage after a good move",
                with_lines(["", "", "g1f3 zzzz b8c6", "", "", "g7g6 h5f3 e2e4", "", ""]),
                2,
                "(3... g6 4. Qf3) 4. Qxf7#",
            ),
        ];
        let game = game(None, SCHOLARS_MATE);
        for (what, review, variations, expected) in cases {
            let text = export_reviewed(&game, &tags(), &review, &[]);
            let words = movetext_of(&text)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            assert!(words.contains(expected), "{what}:\n{text}");
            assert_reviewed_round_trip(&game, &text, variations);
        }
        // The "garbage after a good move" case's first variation, ended early.
        let review = with_lines(["", "", "g1f3 zzzz b8c6", "", "", "", "", ""]);
        let text = export_reviewed(&game, &tags(), &review, &[]);
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            words.contains("{ [%eval -1.00] } (2. Nf3) 2... Nc6"),
            "{text}"
        );
    }

    #[test]
    fn a_review_keeps_offers_notes_and_comments_and_adds_nothing_without_evaluations() {
        use Eval::Centipawns as Cp;
        let mut g = game(None, "e4 e5");
        play(&mut g, "Nf3", true);
        play(&mut g, "f6", false);
        act(&mut g, Actor::Player(ALICE), Act::OfferDraw);
        act(&mut g, Actor::Player(BOB), Act::DeclineDraw);
        let comments = [(0, "Before.".to_owned()), (4, "Weak.".to_owned())];
        let review = evals(&[
            (Cp(20), ""),
            (Cp(30), ""),
            (Cp(30), ""),
            (Cp(40), "b8c6 f1b5"),
            (Cp(250), ""),
        ]);
        let text = export_reviewed(&g, &tags(), &review, &comments);
        let words = movetext_of(&text)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(
            words,
            "{ Before. } 1. e4 { [%eval 0.30] } 1... e5 { [%eval 0.30] } 2. Nf3 \
             { [%eval 0.40] } { (=) } 2... f6 $4 { [%eval 2.50] } { White offers a draw. } \
             { Black declines the draw offer. } { Weak. } (2... Nc6 3. Bb5) *"
        );
        assert_reviewed_round_trip(&g, &text, 1);
        assert_eq!(export_reviewed(&g, &tags(), &[], &[]), export(&g, &tags()));
        assert_eq!(
            export_reviewed(&g, &tags(), &[], &comments),
            export_with_comments(&g, &tags(), &comments)
        );
    }
}
