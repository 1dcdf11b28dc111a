//! Conditional moves, as ICCF and chess.com Daily have them and lichess's
//! forecasts: a player away from the board leaves lines of "if they play
//! X, I reply Y", and a reply is played the moment its move comes.
//!
//! Each player's lines begin with the opponent's next move and alternate
//! with the player's replies; several lines may share a beginning (a
//! tree), but one move of the opponent has one reply. Moves are kept in
//! UCI with castling as king-takes-rook, which reads the same in standard
//! chess and Chess960.
//!
//! Pure: the service stores the lines with the game and calls
//! [`after_act`] on every act, in the act's own commit.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use super::event::Event;
use super::game::Game;
use super::notation::{self, MoveInputError, Reader};

/// Most lines a player may keep in one game: a tree of this many leaves.
pub const MAX_LINES: usize = 16;
/// Most moves in one line (both sides counted): ten exchanges.
pub const MAX_PLIES: usize = 20;

/// One player's lines in one game, in UCI.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Lines(Vec<Vec<String>>);

/// Both players' lines in one game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conditionals {
    #[serde(default, skip_serializing_if = "Lines::is_empty")]
    white: Lines,
    #[serde(default, skip_serializing_if = "Lines::is_empty")]
    black: Lines,
}

/// Why a line was not stored. Nothing is stored then.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("a line needs a move of the opponent and a reply")]
    TooShort,
    #[error("a line ends with a reply, not with a move of the opponent")]
    EndsWithTheirMove,
    #[error("a line holds at most {MAX_PLIES} moves")]
    TooLong,
    #[error("at most {MAX_LINES} lines per game")]
    TooMany,
    /// Move `at` (from 0) of the line cannot be read or played.
    #[error("move {} of the line: {error}", at + 1)]
    Move { at: usize, error: MoveInputError },
    /// Another line already answers the same moves with another reply.
    #[error("another line replies differently at move {}", at + 1)]
    OtherReply { at: usize, stored: String },
}

impl Lines {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The lines, each as its UCI moves.
    pub fn iter(&self) -> impl Iterator<Item = &[String]> {
        self.0.iter().map(Vec::as_slice)
    }

    /// Adds `line` (moves already read, see [`read_line`]). A line that
    /// extends a stored one replaces it; one that a stored line already
    /// holds changes nothing; one that replies otherwise to the same moves
    /// is refused, so a move of the opponent never has two replies.
    pub fn add(&mut self, line: Vec<String>) -> Result<(), LineError> {
        check_length(line.len())?;
        for stored in &self.0 {
            let shared = stored.iter().zip(&line).take_while(|(a, b)| a == b).count();
            // A reply (odd index) where the two part: the same moves of the
            // opponent answered two ways.
            if shared % 2 == 1 && shared < stored.len() && shared < line.len() {
                return Err(LineError::OtherReply {
                    at: shared,
                    stored: stored[shared].clone(),
                });
            }
        }
        if self.0.iter().any(|stored| stored.starts_with(&line)) {
            return Ok(());
        }
        self.0.retain(|stored| !line.starts_with(stored));
        if self.0.len() >= MAX_LINES {
            return Err(LineError::TooMany);
        }
        self.0.push(line);
        Ok(())
    }

    /// The reply to `theirs` and what is left of the lines after it: the
    /// lines that began with it, shortened by that move and the reply.
    /// `None` when no line began with it: then none is left either.
    fn answer(&self, theirs: &str) -> Option<(String, Lines)> {
        let matching: Vec<&Vec<String>> = self
            .0
            .iter()
            .filter(|line| line.first().is_some_and(|m| m == theirs))
            .collect();
        let reply = matching.first()?.get(1)?.clone();
        let rest = matching
            .iter()
            .filter(|line| line.len() > 2)
            .map(|line| line.iter().skip(2).cloned().collect())
            .collect();
        Some((reply, Lines(rest)))
    }
}

fn check_length(plies: usize) -> Result<(), LineError> {
    match plies {
        0 | 1 => Err(LineError::TooShort),
        n if n > MAX_PLIES => Err(LineError::TooLong),
        n if n % 2 == 1 => Err(LineError::EndsWithTheirMove),
        _ => Ok(()),
    }
}

impl Conditionals {
    pub fn is_empty(&self) -> bool {
        self.white.is_empty() && self.black.is_empty()
    }

    /// The lines of the player with `side`.
    pub fn of(&self, side: Color) -> &Lines {
        match side {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    pub fn of_mut(&mut self, side: Color) -> &mut Lines {
        match side {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }

    pub fn clear(&mut self) {
        *self = Conditionals::default();
    }
}

/// Reads a line written from `position` (the opponent to move): each move
/// in any notation `reader` accepts, under the same rules as a move (an
/// ambiguous one is refused with its readings, never guessed).
pub fn read_line(
    position: &Chess,
    words: &[&str],
    reader: &Reader,
) -> Result<Vec<Move>, LineError> {
    check_length(words.len())?;
    let mut position = position.clone();
    let mut moves = Vec::with_capacity(words.len());
    for (at, word) in words.iter().enumerate() {
        let m = notation::parse_move(&position, word, reader)
            .map_err(|error| LineError::Move { at, error })?;
        position.play_unchecked(m);
        moves.push(m);
    }
    Ok(moves)
}

/// A move as lines keep it.
pub fn uci_of(m: Move) -> String {
    m.to_uci(CastlingMode::Chess960).to_string()
}

/// What an act means for the stored lines, worked out on `game` after the
/// act's own `events`: a draw offer, a claim or the end of the game clears
/// every line; a move is answered from the lines of the player it leaves
/// to move, played at the same instant (which costs their clock nothing),
/// and so on while lines answer each other. Returns the replies' events.
pub fn after_act(
    game: &mut Game,
    lines: &mut Conditionals,
    events: &[Event],
    now: DateTime<Utc>,
) -> Vec<Event> {
    let clears = events.iter().any(|e| {
        matches!(
            e,
            Event::DrawOffered { .. }
                | Event::ClaimRefused { .. }
                | Event::GameOver { .. }
                | Event::TakenBack { .. }
        )
    });
    if clears || game.is_over() {
        lines.clear();
        return Vec::new();
    }
    let mut replies = Vec::new();
    if !events.iter().any(|e| matches!(e, Event::MovePlayed { .. })) {
        return Vec::new();
    }
    // Each reply takes two moves off a line, so this ends; the bound is
    // for safety only.
    for _ in 0..=MAX_PLIES {
        if lines.is_empty() {
            break;
        }
        let side = game.turn();
        let Some(theirs) = game.moves().last().map(|played| uci_of(played.m)) else {
            break;
        };
        let Some((reply, rest)) = lines.of(side).answer(&theirs) else {
            *lines.of_mut(side) = Lines::default();
            break;
        };
        *lines.of_mut(side) = rest;
        let Some(events) = play_reply(game, side, &reply, now) else {
            *lines.of_mut(side) = Lines::default();
            break;
        };
        let ended = events.iter().any(|e| matches!(e, Event::GameOver { .. }));
        replies.extend(events);
        if ended {
            lines.clear();
            break;
        }
    }
    replies
}

/// Plays a stored reply for `side` if it is still legal (it was when
/// stored, from the same position).
fn play_reply(game: &mut Game, side: Color, reply: &str, now: DateTime<Utc>) -> Option<Vec<Event>> {
    if game.turn() != side {
        return None;
    }
    let m = UciMove::from_ascii(reply.as_bytes())
        .ok()?
        .to_move(game.position())
        .ok()?;
    let mut events = game.play(m, false, now);
    for event in &mut events {
        if let Event::MovePlayed { conditional, .. } = event {
            *conditional = true;
        }
    }
    Some(events)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::clock::{Clock, TimeControl};
    use crate::core::game::{Act, Actor, DrawRules, MoveInput, PlayerId, Players};
    use crate::core::notation::Lang;
    use chrono::TimeZone;

    const WHITE: PlayerId = PlayerId(1);
    const BLACK: PlayerId = PlayerId(2);

    fn at(minutes: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap() + chrono::Duration::minutes(minutes)
    }

    fn game() -> Game {
        let mut game = Game::new(
            Players {
                white: WHITE,
                black: BLACK,
            },
            None,
            DrawRules::default(),
            at(0),
        )
        .expect("standard start");
        game.set_clock(Clock::start(
            TimeControl::PerMove {
                per_move: chrono::Duration::days(3),
            },
            Color::White,
            at(0),
        ));
        game
    }

    fn reader() -> Reader {
        Reader::speaking(Lang::En)
    }

    /// Plays `san` for whoever is to move, then what the lines answer.
    fn play(game: &mut Game, lines: &mut Conditionals, san: &str, minute: i64) -> Vec<String> {
        let player = game.players().get(game.turn());
        let act = Act::Move {
            input: MoveInput::new(san, reader()),
            offer_draw: false,
        };
        let events = game
            .apply(&Actor::Player(player), act, at(minute))
            .expect("legal");
        after_act(game, lines, &events, at(minute))
            .iter()
            .filter_map(|e| match e {
                Event::MovePlayed {
                    san, conditional, ..
                } => {
                    assert!(conditional);
                    Some(san.clone())
                }
                _ => None,
            })
            .collect()
    }

    /// `words` read from `game`'s position, as a line of UCI moves.
    fn line(game: &Game, words: &str) -> Vec<String> {
        let words: Vec<&str> = words.split_whitespace().collect();
        read_line(game.position(), &words, &reader())
            .expect("readable")
            .into_iter()
            .map(uci_of)
            .collect()
    }

    #[test]
    fn a_matched_move_is_answered_and_the_line_shortened() {
        let mut g = game();
        let mut lines = Conditionals::default();
        play(&mut g, &mut lines, "e4", 1);
        // White waits for black's reply.
        let stored = line(&g, "e5 Nf3 Nc6 Bb5");
        lines.of_mut(Color::White).add(stored).unwrap();
        lines.of_mut(Color::White).add(line(&g, "c5 Nf3")).unwrap();
        assert_eq!(play(&mut g, &mut lines, "e5", 2), ["Nf3"]);
        assert_eq!(lines.of(Color::White).iter().count(), 1, "c5 line dropped");
        assert_eq!(play(&mut g, &mut lines, "Nc6", 3), ["Bb5"]);
        assert!(lines.is_empty(), "the line is used up");
        // An instant reply: white's clock was not charged.
        assert_eq!(g.moves().last().unwrap().at, at(3));
    }

    #[test]
    fn an_unmatched_move_drops_every_line() {
        let mut g = game();
        let mut lines = Conditionals::default();
        play(&mut g, &mut lines, "e4", 1);
        lines.of_mut(Color::White).add(line(&g, "e5 Nf3")).unwrap();
        assert!(play(&mut g, &mut lines, "c5", 2).is_empty());
        assert!(lines.is_empty());
    }

    #[test]
    fn a_draw_offer_a_claim_or_the_end_clears_both_players_lines() {
        let cases = [
            Act::OfferDraw,
            Act::Move {
                input: MoveInput::new("e5", reader()),
                offer_draw: true,
            },
            Act::Resign,
        ];
        for act in cases {
            let mut g = game();
            let mut lines = Conditionals::default();
            play(&mut g, &mut lines, "e4", 1);
            lines.of_mut(Color::White).add(line(&g, "e5 Nf3")).unwrap();
            let events = g.apply(&Actor::Player(BLACK), act.clone(), at(2)).unwrap();
            assert!(after_act(&mut g, &mut lines, &events, at(2)).is_empty());
            assert!(lines.is_empty(), "{act:?}");
        }
    }

    #[test]
    fn lines_of_both_players_answer_each_other() {
        let mut g = game();
        let mut lines = Conditionals::default();
        play(&mut g, &mut lines, "e4", 1);
        lines
            .of_mut(Color::White)
            .add(line(&g, "e5 Nf3 Nc6 Bb5"))
            .unwrap();
        // Black plays e5 and leaves: if Nf3 then Nc6, if Bb5 then a6.
        let mut after_e5 = g.clone();
        play(&mut after_e5, &mut Conditionals::default(), "e5", 2);
        lines
            .of_mut(Color::Black)
            .add(line(&after_e5, "Nf3 Nc6 Bb5 a6"))
            .unwrap();
        let played = play(&mut g, &mut lines, "e5", 2);
        assert_eq!(played, ["Nf3", "Nc6", "Bb5", "a6"]);
        assert!(lines.is_empty());
        assert_eq!(g.turn(), Color::White);
    }

    #[test]
    fn lines_are_refused_when_they_cannot_be_kept() {
        let g = {
            let mut g = game();
            play(&mut g, &mut Conditionals::default(), "e4", 1);
            g
        };
        let mut lines = Lines::default();
        lines.add(line(&g, "e5 Nf3 Nc6 Bb5")).unwrap();
        let refused = [
            ("e5", LineError::TooShort),
            ("e5 Nf3 Nc6", LineError::EndsWithTheirMove),
        ];
        for (words, expected) in refused {
            let words: Vec<&str> = words.split_whitespace().collect();
            assert_eq!(read_line(g.position(), &words, &reader()), Err(expected));
        }
        assert!(matches!(
            lines.add(line(&g, "e5 Bc4")),
            Err(LineError::OtherReply { at: 1, .. })
        ));
        // Another reply of the opponent's is a new branch; a prefix of a
        // stored line is already there; a longer line replaces its prefix.
        lines.add(line(&g, "e5 Nf3 d6 d4")).unwrap();
        lines.add(line(&g, "e5 Nf3")).unwrap();
        lines.add(line(&g, "e5 Nf3 Nc6 Bb5 a6 Ba4")).unwrap();
        assert_eq!(lines.iter().count(), 2);
        let words = ["e5", "Ke3"];
        assert!(matches!(
            read_line(g.position(), &words, &reader()),
            Err(LineError::Move { at: 1, .. })
        ));
    }

    #[test]
    fn castling_is_kept_in_one_form_and_played_back() {
        let mut g = game();
        let mut lines = Conditionals::default();
        for (minute, san) in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3"]
            .iter()
            .enumerate()
        {
            play(&mut g, &mut lines, san, minute as i64);
        }
        // White, waiting: if Nf6, castle.
        lines.of_mut(Color::White).add(line(&g, "Nf6 O-O")).unwrap();
        assert_eq!(lines.of(Color::White).iter().next().unwrap()[1], "e1h1");
        assert_eq!(play(&mut g, &mut lines, "Nf6", 10), ["O-O"]);
    }
}
