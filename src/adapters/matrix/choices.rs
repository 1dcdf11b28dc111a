//! Numbered answers to an ambiguous move.
//!
//! When a move text could mean several moves, the service plays nothing and
//! its reply lists the readings; the notice numbers them
//! (`1. Ke1-d1 — !chess move 1`). The player answers `!chess move 1` or
//! `!move 1`, and this module turns the number back into the command the
//! reading stands for (`move e1d1 game:3`), which the service checks again
//! like any other.
//!
//! A bare number is never read as an answer, and `move 1` is never a move
//! (no notation writes a move without a file letter), so an answer cannot be
//! mistaken for anything else. The choices are remembered per room and
//! player, in memory only: until used, replaced by another question, made
//! stale by any other command of that player in that room, or
//! [`LIFETIME`] old. After a restart the player types the move again.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::service::choice::ChoiceAct;
use crate::service::{Prompt, Reply};

/// How long a numbered answer stays valid.
pub const LIFETIME: Duration = Duration::from_secs(60 * 60);
/// The most questions remembered at once (the oldest go first).
const MAX_PENDING: usize = 1024;
/// The most readings numbered (more never occur in practice).
const MAX_NUMBERED: usize = 20;

/// A question waiting for its numbered answer.
#[derive(Clone, Debug)]
struct Pending {
    game: i64,
    act: ChoiceAct,
    /// The readings in UCI, in the order they were numbered.
    ucis: Vec<String>,
    asked_at: Instant,
}

/// The questions waiting for an answer, by (room, player's platform id).
#[derive(Debug, Default)]
pub struct PendingChoices {
    pending: HashMap<(String, String), Pending>,
}

/// What a message means once pending choices are looked at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A numbered answer: the command text of the chosen reading.
    Chosen(String),
    /// Anything else, unchanged.
    Other,
}

impl PendingChoices {
    pub fn new() -> PendingChoices {
        PendingChoices::default()
    }

    /// Reads `command` (the command text of a message by `user` in `room`):
    /// a number answering a pending question becomes its reading's command.
    /// Any other command ends that player's question in that room.
    pub fn answer(&mut self, room: &str, user: &str, command: &str, now: Instant) -> Answer {
        let key = (room.to_owned(), user.to_owned());
        let Some(pending) = self.pending.remove(&key) else {
            return Answer::Other;
        };
        let fresh = now.saturating_duration_since(pending.asked_at) < LIFETIME;
        match choice_number(command) {
            Some(n) if fresh => match pending.ucis.get(n - 1) {
                Some(uci) => Answer::Chosen(pending.act.command_line(pending.game, uci)),
                None => {
                    // A number out of range: keep the question for a second try.
                    self.pending.insert(key, pending);
                    Answer::Other
                }
            },
            _ => Answer::Other,
        }
    }

    /// Remembers the questions among `replies` that ask `user` in `room`.
    pub fn remember(&mut self, room: &str, user: &str, replies: &[Reply], now: Instant) {
        for reply in replies {
            let Prompt::ChooseMove { game, act, choices } = &reply.prompt else {
                continue;
            };
            if reply.channel != room || reply.to.as_deref() != Some(user) || choices.is_empty() {
                continue;
            }
            self.make_room(now);
            let pending = Pending {
                game: *game,
                act: *act,
                ucis: choices
                    .iter()
                    .take(MAX_NUMBERED)
                    .map(|c| c.uci.clone())
                    .collect(),
                asked_at: now,
            };
            self.pending
                .insert((room.to_owned(), user.to_owned()), pending);
        }
    }

    /// Drops expired questions, and the oldest one when still full.
    fn make_room(&mut self, now: Instant) {
        if self.pending.len() < MAX_PENDING {
            return;
        }
        self.pending
            .retain(|_, p| now.saturating_duration_since(p.asked_at) < LIFETIME);
        if self.pending.len() >= MAX_PENDING {
            let oldest = self
                .pending
                .iter()
                .min_by_key(|(_, p)| p.asked_at)
                .map(|(key, _)| key.clone());
            if let Some(key) = oldest {
                self.pending.remove(&key);
            }
        }
    }

    pub fn len(&self) -> usize {
        self.pending.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }
}

/// `move 2` or `m 2` (any case): the number, from 1.
fn choice_number(command: &str) -> Option<usize> {
    let mut words = command.split_whitespace();
    let (name, number) = (words.next()?, words.next()?);
    let names_move = crate::core::command::find(&name.to_lowercase())
        .is_some_and(|row| row.name == crate::core::command::MOVE);
    if words.next().is_some() || !names_move {
        return None;
    }
    if number.is_empty() || number.len() > 2 || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    number
        .parse()
        .ok()
        .filter(|n| (1..=MAX_NUMBERED).contains(n))
}

/// The numbered readings under a question's text, in `prefix`'s syntax:
/// `1. Ke1-d1 — !chess move 1`. `None` for other replies.
pub fn numbered_lines(prompt: &Prompt, prefix: &str) -> Option<String> {
    let Prompt::ChooseMove { choices, .. } = prompt else {
        return None;
    };
    let lines: Vec<String> = choices
        .iter()
        .take(MAX_NUMBERED)
        .enumerate()
        .map(|(index, choice)| {
            let n = index + 1;
            format!("{n}. {} — {prefix} move {n}", choice.label)
        })
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::event::ClaimKind;
    use crate::service::choice::MoveChoice;

    const ROOM: &str = "!game:localhost";
    const ALICE: &str = "alice:localhost";

    fn question(act: ChoiceAct, to: &str, room: &str) -> Reply {
        let choice = |uci: &str, label: &str| MoveChoice {
            uci: uci.into(),
            label: label.into(),
        };
        Reply {
            channel: room.into(),
            to: Some(to.into()),
            ephemeral: true,
            text: "“Rd1” could mean several moves.".into(),
            prompt: Prompt::ChooseMove {
                game: 3,
                act,
                choices: vec![choice("e1d1", "Ke1-d1"), choice("a1d1", "Ra1-d1")],
            },
            ..Reply::default()
        }
    }

    fn asked(act: ChoiceAct, now: Instant) -> PendingChoices {
        let mut pending = PendingChoices::new();
        pending.remember(ROOM, ALICE, &[question(act, ALICE, ROOM)], now);
        pending
    }

    #[test]
    fn a_number_becomes_the_command_of_its_reading() {
        let now = Instant::now();
        let plain = ChoiceAct::Move { offer_draw: false };
        let cases = [
            (plain, "move 1", Answer::Chosen("move e1d1 game:3".into())),
            (plain, "move 2", Answer::Chosen("move a1d1 game:3".into())),
            (plain, "MOVE  2 ", Answer::Chosen("move a1d1 game:3".into())),
            (plain, "m 1", Answer::Chosen("move e1d1 game:3".into())),
            (
                ChoiceAct::Move { offer_draw: true },
                "move 2",
                Answer::Chosen("move a1d1 offer_draw game:3".into()),
            ),
            (
                ChoiceAct::Claim {
                    kind: Some(ClaimKind::Threefold),
                },
                "move 1",
                Answer::Chosen("claim threefold e1d1 game:3".into()),
            ),
            (plain, "move 3", Answer::Other),
            (plain, "move 0", Answer::Other),
            (plain, "move 01", Answer::Chosen("move e1d1 game:3".into())),
            (plain, "move 001", Answer::Other),
            (plain, "move -1", Answer::Other),
            (plain, "move ١", Answer::Other),
            (plain, "move 1 2", Answer::Other),
            (plain, "move Rd1", Answer::Other),
            (plain, "1", Answer::Other),
            (plain, "board 1", Answer::Other),
        ];
        for (act, text, expected) in cases {
            let mut pending = asked(act, now);
            assert_eq!(pending.answer(ROOM, ALICE, text, now), expected, "{text}");
        }
    }

    #[test]
    fn an_answer_is_used_once_and_only_by_its_player_in_its_room() {
        let now = Instant::now();
        let mut pending = asked(ChoiceAct::Move { offer_draw: false }, now);
        assert_eq!(
            pending.answer(ROOM, "bob:localhost", "move 1", now),
            Answer::Other
        );
        assert_eq!(
            pending.answer("!other:localhost", ALICE, "move 1", now),
            Answer::Other
        );
        // A number out of range keeps the question.
        assert_eq!(pending.answer(ROOM, ALICE, "move 9", now), Answer::Other);
        assert!(matches!(
            pending.answer(ROOM, ALICE, "move 1", now),
            Answer::Chosen(_)
        ));
        assert_eq!(pending.answer(ROOM, ALICE, "move 1", now), Answer::Other);
        assert!(pending.is_empty());
    }

    #[test]
    fn another_command_or_time_ends_the_question() {
        let now = Instant::now();
        let act = ChoiceAct::Move { offer_draw: false };
        let mut pending = asked(act, now);
        assert_eq!(pending.answer(ROOM, ALICE, "move Ke2", now), Answer::Other);
        assert_eq!(pending.answer(ROOM, ALICE, "move 1", now), Answer::Other);
        let mut pending = asked(act, now);
        let later = now + LIFETIME;
        assert_eq!(pending.answer(ROOM, ALICE, "move 1", later), Answer::Other);
    }

    #[test]
    fn only_questions_to_the_sender_here_are_remembered() {
        let now = Instant::now();
        let act = ChoiceAct::Move { offer_draw: false };
        let mut pending = PendingChoices::new();
        let mut public = question(act, ALICE, ROOM);
        public.prompt = Prompt::Game { game: 3 };
        let replies = [
            question(act, "bob:localhost", ROOM),
            question(act, ALICE, "!other:localhost"),
            public,
        ];
        pending.remember(ROOM, ALICE, &replies, now);
        assert!(pending.is_empty());
    }

    #[test]
    fn the_memory_is_bounded() {
        let now = Instant::now();
        let act = ChoiceAct::Move { offer_draw: false };
        let mut pending = PendingChoices::new();
        for n in 0..MAX_PENDING + 10 {
            let user = format!("user{n}:localhost");
            let at = now + Duration::from_millis(n as u64);
            pending.remember(ROOM, &user, &[question(act, &user, ROOM)], at);
        }
        assert_eq!(pending.len(), MAX_PENDING);
        // The oldest questions went first.
        let at = now + Duration::from_secs(1);
        assert_eq!(
            pending.answer(ROOM, "user0:localhost", "move 1", at),
            Answer::Other
        );
        let last = format!("user{}:localhost", MAX_PENDING + 9);
        assert!(matches!(
            pending.answer(ROOM, &last, "move 1", at),
            Answer::Chosen(_)
        ));
    }

    #[test]
    fn readings_are_numbered_in_the_rooms_syntax() {
        let reply = question(ChoiceAct::Move { offer_draw: false }, ALICE, ROOM);
        assert_eq!(
            numbered_lines(&reply.prompt, "!chess").as_deref(),
            Some("1. Ke1-d1 — !chess move 1\n2. Ra1-d1 — !chess move 2")
        );
        assert_eq!(numbered_lines(&Prompt::Game { game: 3 }, "!chess"), None);
    }
}
