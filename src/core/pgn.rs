//! PGN: export a game, and import a game's main line to continue it here.
//!
//! Export writes the Seven Tag Roster, then `UTCDate`, `UTCTime`,
//! `TimeControl`, `Termination` and, for games from a position, `SetUp` and
//! `FEN`. Draw offers are marked `{ (=) }` after their move, claims and
//! adjudications become comments, and the way the game ended is the final
//! comment. PGN is a file format, so its comments are English whatever the
//! reader's language. Import reads those comments back, so export → import
//! gives the same positions and result.

use std::fmt::Write as _;
use std::ops::ControlFlow;

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use pgn_reader::{Outcome, RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::{Color, Position};

use super::event::{GameResult, Reason};
use super::game::{DrawRules, Game, NoteKind, Players, SetupError, Status};

/// The largest PGN text accepted for import.
pub const MAX_PGN_BYTES: usize = 1 << 20;
/// Tag values are cut to this many characters.
const MAX_TAG_CHARS: usize = 200;
/// Lines of movetext are wrapped at this width.
const LINE_WIDTH: usize = 80;
/// The comment that marks a draw offer.
const OFFER: &str = "(=)";

/// Tags that do not come from the game itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnTags {
    pub event: String,
    pub site: String,
    pub white: String,
    pub black: String,
    pub round: Option<String>,
    /// The game's time control, as pawnpost writes it (`3d`, `10/50d`).
    pub time_control: Option<String>,
}

/// Why a PGN could not be imported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    #[error("the PGN is larger than {MAX_PGN_BYTES} bytes")]
    TooLong,
    #[error("no game found")]
    NoGame,
    #[error("start position: {0}")]
    Setup(#[from] SetupError),
    #[error("move {ply} ({san}) is not legal")]
    IllegalMove { ply: u32, san: String },
    #[error("the game ended at move {ply}, but more moves follow")]
    MovesAfterEnd { ply: u32 },
    #[error("the result tag says {tag}, but the moves end in {moves}")]
    ResultMismatch { tag: String, moves: String },
}

impl PgnError {
    /// A stable snake_case name for messages and tests.
    pub fn kind(&self) -> &'static str {
        match self {
            PgnError::TooLong => "too_long",
            PgnError::NoGame => "no_game",
            PgnError::Setup(_) => "setup",
            PgnError::IllegalMove { .. } => "illegal_move",
            PgnError::MovesAfterEnd { .. } => "moves_after_end",
            PgnError::ResultMismatch { .. } => "result_mismatch",
        }
    }
}

/// Writes `game` as PGN.
pub fn export(game: &Game, tags: &PgnTags) -> String {
    let (result, reason) = match game.status() {
        Status::Ongoing => (GameResult::NoResult, None),
        Status::Over { result, reason, .. } => (result, Some(reason)),
    };
    let started = game.started_at();
    let mut out = String::with_capacity(512 + game.moves().len() * 8);
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    };
    tag("Event", or_unknown(&tags.event));
    tag("Site", or_unknown(&tags.site));
    tag("Date", &started.format("%Y.%m.%d").to_string());
    tag("Round", tags.round.as_deref().unwrap_or("-"));
    tag("White", or_unknown(&tags.white));
    tag("Black", or_unknown(&tags.black));
    tag("Result", result.as_pgn());
    tag("UTCDate", &started.format("%Y.%m.%d").to_string());
    tag("UTCTime", &started.format("%H:%M:%S").to_string());
    tag("TimeControl", tags.time_control.as_deref().unwrap_or("-"));
    tag("Termination", termination(reason));
    if let Some(fen) = game.start_fen() {
        tag("SetUp", "1");
        tag("FEN", fen);
    }
    out.push('\n');

    let mut words = movetext_words(game);
    if let Some(reason) = reason {
        words.push(comment(&final_comment(result, reason)));
    }
    words.push(result.as_pgn().to_owned());
    out.push_str(&wrap(&words));
    out.push_str("\n\n");
    out
}

fn or_unknown(value: &str) -> &str {
    if value.is_empty() { "?" } else { value }
}

/// Tag values: bounded, one line, with `\` and `"` escaped.
fn escape(value: &str) -> String {
    value
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_TAG_CHARS)
        .flat_map(|c| match c {
            '\\' | '"' => vec!['\\', c],
            c => vec![c],
        })
        .collect()
}

/// A PGN comment; `}` would end it early, so it is replaced.
fn comment(text: &str) -> String {
    let safe: String = text
        .chars()
        .map(|c| if c == '}' { ')' } else { c })
        .filter(|c| !c.is_control())
        .collect();
    format!("{{ {safe} }}")
}

fn termination(reason: Option<Reason>) -> &'static str {
    match reason {
        None => "unterminated",
        Some(Reason::Timeout) => "time forfeit",
        Some(Reason::Abort) => "abandoned",
        Some(Reason::Adjudication) => "adjudication",
        Some(_) => "normal",
    }
}

/// Move numbers, moves and the comments placed after them.
fn movetext_words(game: &Game) -> Vec<String> {
    let start = game.start_position();
    let mut number = start.fullmoves().get();
    let mut side = start.turn();
    let mut words = Vec::with_capacity(game.moves().len() * 2);
    let notes_after = |ply: usize| {
        game.notes()
            .iter()
            .filter(move |note| note.ply as usize == ply)
            .filter_map(|note| note_comment(&note.kind, note.by))
    };
    words.extend(notes_after(0).map(|text| comment(&text)));
    let mut need_number = true;
    for (index, played) in game.moves().iter().enumerate() {
        if side == Color::White {
            words.push(format!("{number}."));
        } else if need_number {
            words.push(format!("{number}..."));
        }
        words.push(played.san.to_string());
        let mut commented = false;
        if played.draw_offer {
            words.push(comment(OFFER));
            commented = true;
        }
        for text in notes_after(index + 1) {
            // An offer made alone right after this move reads the same as one made with it.
            if text == OFFER && played.draw_offer {
                continue;
            }
            words.push(comment(&text));
            commented = true;
        }
        if side == Color::Black {
            number += 1;
        }
        side = !side;
        // After a comment, Black's move needs its number again (`5... Nf6`).
        need_number = commented;
    }
    words
}

fn side_name(side: Option<Color>) -> &'static str {
    match side {
        Some(Color::White) => "White",
        Some(Color::Black) => "Black",
        None => "A moderator",
    }
}

fn note_comment(kind: &NoteKind, by: Option<Color>) -> Option<String> {
    let who = side_name(by);
    let claim = |kind: Option<super::event::ClaimKind>, with_move: &Option<String>| {
        let what = match kind {
            Some(kind) => format!("a draw by {}", claim_words(kind.reason())),
            None => "a draw".to_owned(),
        };
        match with_move {
            Some(m) => format!("{who} claims {what} with {m}"),
            None => format!("{who} claims {what}"),
        }
    };
    Some(match kind {
        NoteKind::DrawOffered => OFFER.to_owned(),
        NoteKind::DrawDeclined => format!("{who} declines the draw offer."),
        NoteKind::ClaimRefused { kind, with_move } => {
            format!(
                "{}: refused, and it stands as a draw offer.",
                claim(*kind, with_move)
            )
        }
        NoteKind::ClaimUpheld { kind, with_move } => {
            format!("{}: correct.", claim(Some(*kind), with_move))
        }
        NoteKind::Adjudicated { note } => format!("Adjudicated by a moderator: {note}"),
    })
}

fn claim_words(reason: Reason) -> &'static str {
    match reason {
        Reason::Threefold => "threefold repetition",
        _ => "the fifty-move rule",
    }
}

/// The final comment: how the game ended. [`reason_from_comment`] reads it back.
fn final_comment(result: GameResult, reason: Reason) -> String {
    let winner = result.winner();
    let loser = winner.map(|w| !w);
    match (reason, winner) {
        (Reason::Checkmate, _) => format!("{} wins by checkmate.", side_name(winner)),
        (Reason::Resignation, Some(_)) => format!("{} resigns.", side_name(loser)),
        (Reason::Resignation, None) => {
            "Resignation against a side that cannot checkmate: draw.".to_owned()
        }
        (Reason::Timeout, Some(_)) => format!("{} wins on time.", side_name(winner)),
        (Reason::Timeout, None) => {
            "Time forfeit against a side that cannot checkmate: draw.".to_owned()
        }
        (Reason::Stalemate, _) => "Draw by stalemate.".to_owned(),
        (Reason::DeadPosition, _) => "Draw: dead position.".to_owned(),
        (Reason::Fivefold, _) => "Draw by fivefold repetition.".to_owned(),
        (Reason::SeventyFiveMoves, _) => "Draw by the 75-move rule.".to_owned(),
        (Reason::Threefold, _) => "Draw by threefold repetition.".to_owned(),
        (Reason::FiftyMoves, _) => "Draw by the fifty-move rule.".to_owned(),
        (Reason::Agreement, _) => "Draw by agreement.".to_owned(),
        (Reason::Abort, _) => "Game aborted.".to_owned(),
        (Reason::Adjudication, _) => format!("Adjudicated: {}.", result.as_pgn()),
    }
}

/// The reason behind one of our own final comments.
fn reason_from_comment(text: &str, result: GameResult) -> Option<Reason> {
    Reason::ALL
        .into_iter()
        .find(|reason| final_comment(result, *reason) == text)
}

fn wrap(words: &[String]) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for word in words {
        if line_len > 0 && line_len + 1 + word.len() > LINE_WIDTH {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
    out
}

/// What the reader collected from the first game.
#[derive(Default)]
struct Collected {
    tags: Vec<(String, String)>,
    /// Main-line moves, each with whether a `(=)` comment followed it.
    moves: Vec<(SanPlus, bool)>,
    /// The last comment seen after the last move (our final comment).
    last_comment: Option<String>,
    outcome: Option<Outcome>,
}

impl Collected {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

struct Collector;

impl Visitor for Collector {
    type Tags = Collected;
    type Movetext = Collected;
    type Output = Collected;

    fn begin_tags(&mut self) -> ControlFlow<Collected, Collected> {
        ControlFlow::Continue(Collected::default())
    }

    fn tag(
        &mut self,
        tags: &mut Collected,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Collected> {
        let name = String::from_utf8_lossy(name).into_owned();
        let value: String = value
            .decode_utf8_lossy()
            .chars()
            .take(MAX_TAG_CHARS)
            .collect();
        tags.tags.push((name, value));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Collected) -> ControlFlow<Collected, Collected> {
        ControlFlow::Continue(tags)
    }

    fn san(&mut self, movetext: &mut Collected, san_plus: SanPlus) -> ControlFlow<Collected> {
        movetext.moves.push((san_plus, false));
        movetext.last_comment = None;
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        movetext: &mut Collected,
        comment: RawComment<'_>,
    ) -> ControlFlow<Collected> {
        let text = String::from_utf8_lossy(comment.as_bytes())
            .trim()
            .to_owned();
        if text == OFFER
            && let Some(last) = movetext.moves.last_mut()
        {
            last.1 = true;
        }
        movetext.last_comment = Some(text);
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, movetext: &mut Collected, outcome: Outcome) -> ControlFlow<Collected> {
        movetext.outcome = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Collected) -> Collected {
        movetext
    }
}

/// Reads the first game's main line of `text` into a [`Game`] for `players`.
pub fn import(
    text: &str,
    players: Players,
    now: DateTime<Utc>,
) -> Result<(Game, PgnTags), PgnError> {
    if text.len() > MAX_PGN_BYTES {
        return Err(PgnError::TooLong);
    }
    let mut reader = Reader::new(text.as_bytes());
    let collected = reader
        .read_game(&mut Collector)
        .ok()
        .flatten()
        .ok_or(PgnError::NoGame)?;
    if collected.moves.is_empty() && collected.tags.is_empty() {
        return Err(PgnError::NoGame);
    }
    let started = started_at(&collected).unwrap_or(now);
    let fen = match collected.tag("SetUp") {
        Some("1") | None => collected.tag("FEN"),
        Some(_) => None,
    };
    let mut game = Game::new(players, fen, DrawRules::default(), started)?;
    for (index, (san_plus, offer)) in collected.moves.iter().enumerate() {
        let ply = index as u32 + 1;
        if game.is_over() {
            return Err(PgnError::MovesAfterEnd { ply: ply - 1 });
        }
        let m = san_plus
            .san
            .to_move(game.position())
            .map_err(|_| PgnError::IllegalMove {
                ply,
                san: san_plus.to_string(),
            })?;
        game.play(m, *offer, started);
    }
    finish_as_recorded(&mut game, &collected, started)?;
    let tags = PgnTags {
        event: collected.tag("Event").unwrap_or_default().to_owned(),
        site: collected.tag("Site").unwrap_or_default().to_owned(),
        white: collected.tag("White").unwrap_or_default().to_owned(),
        black: collected.tag("Black").unwrap_or_default().to_owned(),
        round: collected
            .tag("Round")
            .filter(|r| *r != "-")
            .map(str::to_owned),
        time_control: collected
            .tag("TimeControl")
            .filter(|t| *t != "-")
            .map(str::to_owned),
    };
    Ok((game, tags))
}

fn started_at(collected: &Collected) -> Option<DateTime<Utc>> {
    let date = NaiveDate::parse_from_str(collected.tag("UTCDate")?, "%Y.%m.%d").ok()?;
    let time = collected
        .tag("UTCTime")
        .and_then(|t| NaiveTime::parse_from_str(t, "%H:%M:%S").ok())
        .unwrap_or_default();
    Some(date.and_time(time).and_utc())
}

/// Gives the game the result the PGN records, when the moves alone did not end it.
fn finish_as_recorded(
    game: &mut Game,
    collected: &Collected,
    at: DateTime<Utc>,
) -> Result<(), PgnError> {
    let recorded = collected
        .tag("Result")
        .and_then(GameResult::from_pgn)
        .or_else(|| {
            collected
                .outcome
                .map(|o| GameResult::from_pgn(&o.to_string()).unwrap_or(GameResult::NoResult))
        })
        .unwrap_or(GameResult::NoResult);
    if let Status::Over { result, .. } = game.status() {
        if recorded != GameResult::NoResult && recorded != result {
            return Err(PgnError::ResultMismatch {
                tag: recorded.as_pgn().to_owned(),
                moves: result.as_pgn().to_owned(),
            });
        }
        return Ok(());
    }
    let from_comment = collected
        .last_comment
        .as_deref()
        .and_then(|text| reason_from_comment(text, recorded));
    let reason = match (from_comment, collected.tag("Termination"), recorded) {
        (Some(reason), _, _) => reason,
        (None, _, GameResult::NoResult) => return Ok(()),
        (None, Some("time forfeit"), _) => Reason::Timeout,
        (None, Some("abandoned"), _) => Reason::Abort,
        (None, Some("adjudication"), _) => Reason::Adjudication,
        (None, _, GameResult::Draw) => Reason::Agreement,
        (None, _, _) => Reason::Resignation,
    };
    // An aborted game is over without a result; anything else unfinished stays open.
    if recorded == GameResult::NoResult && reason != Reason::Abort {
        return Ok(());
    }
    game.finish(recorded, reason, at);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::event::ClaimKind;
    use crate::core::game::{Act, Actor, MoveInput, PlayerId};
    use crate::core::notation::Reader;
    use chrono::TimeZone;
    use shakmaty::EnPassantMode;
    use shakmaty::fen::Fen;

    const PLAYERS: Players = Players {
        white: PlayerId(1),
        black: PlayerId(2),
    };

    fn at() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, 14, 9, 26, 53).unwrap()
    }

    fn actor(side: Color) -> Actor {
        Actor::Player(PLAYERS.get(side))
    }

    /// Plays a script of SAN moves and acts (`offer`, `claim`, `resign`, `flag`).
    fn play(fen: Option<&str>, script: &str) -> Game {
        let mut game = Game::new(PLAYERS, fen, DrawRules::default(), at()).expect("start");
        for word in script.split_whitespace() {
            let side = game.turn();
            let (who, act) = match word {
                "offer" => (actor(side), Act::OfferDraw),
                "accept" => (actor(side), Act::AcceptDraw),
                "resign" => (actor(side), Act::Resign),
                "flag" => (Actor::Clock, Act::FlagFall { side }),
                "claim" => (
                    actor(side),
                    Act::Claim {
                        kind: Some(ClaimKind::Threefold),
                        with_move: None,
                    },
                ),
                san if san.ends_with('=') => (
                    actor(side),
                    Act::Move {
                        input: MoveInput::new(san.trim_end_matches('='), Reader::default()),
                        offer_draw: true,
                    },
                ),
                san => (
                    actor(side),
                    Act::Move {
                        input: MoveInput::new(san, Reader::default()),
                        offer_draw: false,
                    },
                ),
            };
            game.apply(&who, act, at()).expect(word);
        }
        game
    }

    fn tags() -> PgnTags {
        PgnTags {
            event: "Club \"Open\"".into(),
            site: "console".into(),
            white: "alice".into(),
            black: "bob".into(),
            round: None,
            time_control: Some("3d".into()),
        }
    }

    #[test]
    fn exports_a_short_game_exactly() {
        let game = play(None, "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#");
        let pgn = export(&game, &tags());
        let expected = "[Event \"Club \\\"Open\\\"\"]
[Site \"console\"]
[Date \"2026.03.14\"]
[Round \"-\"]
[White \"alice\"]
[Black \"bob\"]
[Result \"1-0\"]
[UTCDate \"2026.03.14\"]
[UTCTime \"09:26:53\"]
[TimeControl \"3d\"]
[Termination \"normal\"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# { White wins by checkmate. } 1-0

";
        assert_eq!(pgn, expected);
    }

    #[test]
    fn games_round_trip() {
        let cases: [(Option<&str>, &str); 8] = [
            (None, "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#"),
            (None, "d4 d5 c4 resign"),
            (None, "e4 e5 Nf3= accept"),
            (None, "e4 e5= Nf3 Nf6 Ng1 claim Ng8 Nf3 flag"),
            (
                Some("4k3/8/8/8/8/8/4P3/4K3 b - - 0 37"),
                "Kd7 e4 Kc6 e5 resign",
            ),
            (Some("8/8/4k3/8/8/3K4/3Q4/8 w - - 0 1"), "resign"),
            (None, "f3 e5 g4 Qh4#"),
            (None, "Nf3 Nf6"),
        ];
        for (fen, script) in cases {
            let game = play(fen, script);
            let pgn = export(&game, &tags());
            let (back, read_tags) =
                import(&pgn, PLAYERS, at()).unwrap_or_else(|e| panic!("{e}: {pgn}"));
            assert_eq!(read_tags, tags(), "{script}");
            let ucis = |g: &Game| {
                g.moves()
                    .iter()
                    .map(|m| m.uci.to_string())
                    .collect::<Vec<_>>()
            };
            assert_eq!(ucis(&back), ucis(&game), "{script}");
            let fen_of =
                |g: &Game| Fen::from_position(g.position(), EnPassantMode::Legal).to_string();
            assert_eq!(fen_of(&back), fen_of(&game), "{script}");
            let outcome = |g: &Game| match g.status() {
                Status::Ongoing => None,
                Status::Over { result, reason, .. } => Some((result, reason)),
            };
            assert_eq!(outcome(&back), outcome(&game), "{script}\n{pgn}");
            let offers = |g: &Game| g.moves().iter().map(|m| m.draw_offer).collect::<Vec<_>>();
            assert_eq!(offers(&back), offers(&game), "{script}\n{pgn}");
        }
    }

    #[test]
    fn black_to_move_starts_with_an_ellipsis_and_comments_renumber() {
        let game = play(Some("4k3/8/8/8/8/8/4P3/4K3 b - - 0 37"), "Kd7 e4= Kc6");
        let pgn = export(&game, &tags());
        assert!(pgn.contains("[SetUp \"1\"]"), "{pgn}");
        assert!(
            pgn.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 37\"]"),
            "{pgn}"
        );
        assert!(
            pgn.contains("37... Kd7 38. e4 { (=) } 38... Kc6 *"),
            "{pgn}"
        );
        assert!(pgn.contains("[Termination \"unterminated\"]"), "{pgn}");
    }

    #[test]
    fn claims_and_adjudications_are_comments() {
        let mut game = play(None, "Nf3 Nf6 Ng1 claim");
        let pgn = export(&game, &tags());
        assert!(
            pgn.contains("{ Black claims a draw by threefold repetition: refused, and it stands as a draw offer. }"),
            "{pgn}"
        );
        let adjudicate = Act::Adjudicate {
            result: GameResult::Draw,
            note: "players agreed by mail }".into(),
        };
        game.apply(&Actor::Moderator(PlayerId(9)), adjudicate, at())
            .expect("ok");
        let pgn = export(&game, &tags());
        assert!(
            pgn.contains("{ Adjudicated by a moderator: players agreed by mail ) }"),
            "{pgn}"
        );
        assert!(pgn.contains("[Termination \"adjudication\"]"), "{pgn}");
    }

    #[test]
    fn bad_pgn_is_refused() {
        let cases = [
            ("", "no_game"),
            ("1. e4 e5 2. Ke3 *", "illegal_move"),
            (
                "[Result \"0-1\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 0-1",
                "result_mismatch",
            ),
            ("[FEN \"8/8/8 w - - 0 1\"]\n\n*", "setup"),
            ("1. f3 e5 2. g4 Qh4# 3. Kf2 *", "moves_after_end"),
        ];
        for (text, kind) in cases {
            let got = import(text, PLAYERS, at())
                .map(|_| ())
                .map_err(|e| e.kind());
            assert_eq!(got, Err(kind), "{text:?}");
        }
        let huge = "1".repeat(MAX_PGN_BYTES + 1);
        assert_eq!(import(&huge, PLAYERS, at()).err(), Some(PgnError::TooLong));
    }

    #[test]
    fn an_import_from_elsewhere_keeps_its_result() {
        let text = "[Event \"Elsewhere\"]\n[White \"x\"]\n[Black \"y\"]\n[Result \"0-1\"]\n[Termination \"time forfeit\"]\n\n1. e4 e5 2. Nf3 0-1\n";
        let (game, tags) = import(text, PLAYERS, at()).expect("imports");
        assert_eq!(tags.event, "Elsewhere");
        assert_eq!(game.moves().len(), 3);
        assert!(matches!(
            game.status(),
            Status::Over {
                result: GameResult::BlackWins,
                reason: Reason::Timeout,
                ..
            }
        ));
    }
}
