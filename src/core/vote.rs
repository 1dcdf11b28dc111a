//! Vote chess: a team plays one side of a game, and each of its members
//! votes on the team's turn. Pure: the service keeps the ballots, counts
//! them with [`tally`] and asks [`Tally::decision`] what they decide, at the
//! team's deadline or once every member has voted, then plays it with
//! [`carry_out`].
//!
//! The rules (issue 25): the most voted move is played, a tie going to the
//! move whose first vote came first; a draw is offered with it, or a
//! standing offer accepted, when more than half of the votes cast say so;
//! the team resigns when more than 60 % of them do. A draw offer goes with
//! a move (as FIDE 9.1.2.2 has it: the offer is made after moving), so it
//! is a mark on a move's ballot, never a ballot of its own that could
//! leave the team with nothing to play.
//!
//! Moves are kept in UCI with castling as king-takes-rook (as conditional
//! moves are), which reads the same in standard chess and Chess960.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use shakmaty::Color;
use shakmaty::uci::UciMove;

use super::event::Event;
use super::game::{Act, Actor, Game, GameError};
use super::notation::{self, Style};

/// What one member voted for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// A move in UCI (king-takes-rook castling), with or without a draw offer.
    Move {
        uci: String,
        offers_draw: bool,
    },
    Resign,
    /// Accept the opponent's standing draw offer.
    AcceptDraw,
}

/// The stored words for the choices that are not moves.
const RESIGN: &str = "resign";
const ACCEPT: &str = "accept";

impl Choice {
    /// The choice as stored: a UCI move, `resign` or `accept`.
    pub fn as_stored(&self) -> &str {
        match self {
            Choice::Move { uci, .. } => uci,
            Choice::Resign => RESIGN,
            Choice::AcceptDraw => ACCEPT,
        }
    }

    pub fn offers_draw(&self) -> bool {
        matches!(
            self,
            Choice::Move {
                offers_draw: true,
                ..
            }
        )
    }

    /// The inverse of [`Choice::as_stored`].
    pub fn from_stored(text: &str, offers_draw: bool) -> Choice {
        match text {
            RESIGN => Choice::Resign,
            ACCEPT => Choice::AcceptDraw,
            uci => Choice::Move {
                uci: uci.to_owned(),
                offers_draw,
            },
        }
    }
}

/// One member's vote on one move of the team.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ballot {
    pub voter: super::game::PlayerId,
    pub choice: Choice,
    /// When it was cast among the move's ballots (smaller first); a
    /// changed vote is cast anew.
    pub order: i64,
}

/// One move's votes, as the tally shows them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveVotes {
    pub uci: String,
    /// English SAN, from the position the team voted in.
    pub san: String,
    pub votes: u32,
}

/// The votes once counted, shown when the team's move is played.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Every ballot counted.
    pub cast: u32,
    /// Each move voted for, the most voted first (ties: the first voted first).
    pub moves: Vec<MoveVotes>,
    pub resign: u32,
    pub accept: u32,
    /// Move ballots that also offer a draw.
    pub draw_offers: u32,
}

/// What the ballots make the team do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    Resign,
    AcceptDraw,
    Play { uci: String, offer_draw: bool },
}

/// Counts `ballots`, naming each move from `position` (a ballot whose move
/// is no longer legal there is left out).
pub fn tally(position: &shakmaty::Chess, ballots: &[Ballot]) -> Tally {
    let mut tally = Tally::default();
    // (uci, votes, first order)
    let mut moves: Vec<(String, u32, i64)> = Vec::new();
    for ballot in ballots {
        match &ballot.choice {
            Choice::Resign => tally.resign += 1,
            Choice::AcceptDraw => tally.accept += 1,
            Choice::Move { uci, offers_draw } => {
                if read_uci(position, uci).is_none() {
                    continue;
                }
                tally.draw_offers += u32::from(*offers_draw);
                match moves.iter_mut().find(|(m, ..)| m == uci) {
                    Some((_, votes, first)) => {
                        *votes += 1;
                        *first = (*first).min(ballot.order);
                    }
                    None => moves.push((uci.clone(), 1, ballot.order)),
                }
            }
        }
        tally.cast += 1;
    }
    moves.sort_by_key(|&(_, votes, first)| (std::cmp::Reverse(votes), first));
    tally.moves = moves
        .into_iter()
        .filter_map(|(uci, votes, _)| {
            let m = read_uci(position, &uci)?;
            let san = notation::write_san(position, m, Style::English);
            Some(MoveVotes { uci, san, votes })
        })
        .collect();
    tally
}

impl Tally {
    /// What the votes decide; `offer_to_answer` says whether the opponent's
    /// draw offer stands. `None` when they decide nothing (no ballot, or
    /// no move among them and neither a resignation nor an acceptance
    /// carried).
    pub fn decision(&self, offer_to_answer: bool) -> Option<Decision> {
        if self.cast == 0 {
            return None;
        }
        // More than half; more than 60 % (integers: 5r > 3c).
        if offer_to_answer && self.accept * 2 > self.cast {
            return Some(Decision::AcceptDraw);
        }
        if self.resign * 5 > self.cast * 3 {
            return Some(Decision::Resign);
        }
        let best = self.moves.first()?;
        Some(Decision::Play {
            uci: best.uci.clone(),
            offer_draw: self.draw_offers * 2 > self.cast,
        })
    }
}

/// Plays `decision` for the team with `side` at `at`, after the tally's
/// event (so a reader sees the votes, then the move). Refused, changing
/// nothing, if it is not that side's turn or the move is not legal.
pub fn carry_out(
    game: &mut Game,
    side: Color,
    decision: &Decision,
    tally: Tally,
    at: DateTime<Utc>,
) -> Result<Vec<Event>, GameError> {
    if game.is_over() {
        return Err(GameError::GameOver);
    }
    if game.turn() != side {
        return Err(GameError::NotYourTurn);
    }
    let team = Actor::Player(game.players().get(side));
    let counted = Event::VoteTally { by: side, tally };
    let mut events = match decision {
        Decision::Resign => game.apply(&team, Act::Resign, at)?,
        Decision::AcceptDraw => game.apply(&team, Act::AcceptDraw, at)?,
        Decision::Play { uci, offer_draw } => {
            let m = read_uci(game.position(), uci)
                .ok_or(GameError::Move(notation::MoveInputError::Syntax))?;
            game.play(m, *offer_draw, at)
        }
    };
    events.insert(0, counted);
    Ok(events)
}

/// A stored UCI move, if legal in `position`.
fn read_uci(position: &shakmaty::Chess, uci: &str) -> Option<shakmaty::Move> {
    UciMove::from_ascii(uci.as_bytes())
        .ok()?
        .to_move(position)
        .ok()
}

/// A move as ballots keep it.
pub fn uci_of(m: shakmaty::Move) -> String {
    super::conditional::uci_of(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::clock::{Clock, TimeControl};
    use crate::core::event::{GameResult, Reason};
    use crate::core::game::{DrawRules, PlayerId, Players};
    use chrono::TimeZone;
    use shakmaty::Chess;

    fn at(minutes: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap() + chrono::Duration::minutes(minutes)
    }

    fn ballot(voter: i64, choice: &str, order: i64) -> Ballot {
        let choice = match choice.strip_suffix('=') {
            Some(uci) => Choice::from_stored(uci, true),
            None => Choice::from_stored(choice, false),
        };
        Ballot {
            voter: PlayerId(voter),
            choice,
            order,
        }
    }

    fn decided(ballots: &[Ballot], offer: bool) -> Option<Decision> {
        tally(&Chess::default(), ballots).decision(offer)
    }

    fn play(uci: &str, offer_draw: bool) -> Option<Decision> {
        Some(Decision::Play {
            uci: uci.to_owned(),
            offer_draw,
        })
    }

    #[test]
    fn the_most_voted_move_wins_and_a_tie_goes_to_the_first_voted() {
        let two_one = [
            ballot(1, "e2e4", 1),
            ballot(2, "g1f3", 2),
            ballot(3, "g1f3", 3),
        ];
        assert_eq!(decided(&two_one, false), play("g1f3", false));
        let tie = [ballot(1, "d2d4", 1), ballot(2, "e2e4", 2)];
        assert_eq!(decided(&tie, false), play("d2d4", false));
        // The first vote of each move counts, not its last.
        let tie = [
            ballot(1, "e2e4", 1),
            ballot(2, "d2d4", 2),
            ballot(3, "d2d4", 3),
            ballot(4, "e2e4", 4),
        ];
        assert_eq!(decided(&tie, false), play("e2e4", false));
        assert_eq!(decided(&[], false), None);
    }

    #[test]
    fn resignation_takes_more_than_sixty_percent() {
        let three_of_five = [
            ballot(1, "resign", 1),
            ballot(2, "resign", 2),
            ballot(3, "resign", 3),
            ballot(4, "e2e4", 4),
            ballot(5, "d2d4", 5),
        ];
        assert_eq!(decided(&three_of_five, false), play("e2e4", false));
        let two_of_three = [
            ballot(1, "resign", 1),
            ballot(2, "resign", 2),
            ballot(3, "e2e4", 3),
        ];
        assert_eq!(decided(&two_of_three, false), Some(Decision::Resign));
        // Only resignations, below the bar: nothing to play.
        let half = [ballot(1, "resign", 1), ballot(2, "accept", 2)];
        assert_eq!(decided(&half, true), None);
    }

    #[test]
    fn draws_take_more_than_half_of_the_votes_cast() {
        let offers = [
            ballot(1, "e2e4=", 1),
            ballot(2, "d2d4=", 2),
            ballot(3, "d2d4", 3),
        ];
        assert_eq!(decided(&offers, false), play("d2d4", true));
        let half = [ballot(1, "e2e4=", 1), ballot(2, "d2d4", 2)];
        assert_eq!(decided(&half, false), play("e2e4", false));
        let accept = [
            ballot(1, "accept", 1),
            ballot(2, "accept", 2),
            ballot(3, "e2e4", 3),
        ];
        assert_eq!(decided(&accept, true), Some(Decision::AcceptDraw));
        // No offer stands: an acceptance is a vote for nothing.
        assert_eq!(decided(&accept, false), play("e2e4", false));
    }

    #[test]
    fn the_tally_names_moves_and_leaves_out_illegal_ones() {
        let ballots = [
            ballot(1, "g1f3", 1),
            ballot(2, "e2e4=", 2),
            ballot(3, "g1f3", 3),
            ballot(4, "e2e5", 4),
            ballot(5, "resign", 5),
        ];
        let counted = tally(&Chess::default(), &ballots);
        assert_eq!(counted.cast, 4);
        assert_eq!(counted.resign, 1);
        assert_eq!(counted.draw_offers, 1);
        let moves: Vec<(&str, u32)> = counted
            .moves
            .iter()
            .map(|m| (m.san.as_str(), m.votes))
            .collect();
        assert_eq!(moves, [("Nf3", 2), ("e4", 1)]);
    }

    #[test]
    fn a_decision_is_played_after_its_tally() {
        let players = Players {
            white: PlayerId(10),
            black: PlayerId(2),
        };
        let mut game = Game::new(players, None, DrawRules::default(), at(0)).unwrap();
        game.set_clock(Clock::start(
            TimeControl::PerMove {
                per_move: chrono::Duration::days(3),
            },
            Color::White,
            at(0),
        ));
        let ballots = [ballot(1, "e2e4", 1)];
        let counted = tally(game.position(), &ballots);
        let decision = counted.decision(false).unwrap();
        let events = carry_out(&mut game, Color::White, &decision, counted, at(5)).unwrap();
        assert!(matches!(
            events[0],
            Event::VoteTally {
                by: Color::White,
                ..
            }
        ));
        assert!(matches!(&events[1], Event::MovePlayed { san, .. } if san == "e4"));
        // Not the team's turn any more.
        let again = carry_out(&mut game, Color::White, &decision, Tally::default(), at(6));
        assert_eq!(again, Err(GameError::NotYourTurn));
        let resigned = carry_out(
            &mut game,
            Color::Black,
            &Decision::Resign,
            Tally::default(),
            at(7),
        )
        .unwrap();
        assert!(resigned.contains(&Event::GameOver {
            result: GameResult::WhiteWins,
            reason: Reason::Resignation,
        }));
    }
}
