//! Choosing between the readings of an ambiguous move.
//!
//! When a move text could mean two legal moves (French `Rd1` is the king,
//! English `Rd1` the rook), nothing is played: the reply carries a
//! [`Prompt::ChooseMove`] listing each candidate in UCI, which is never
//! ambiguous, with its label written for the reader (`Ke1-d1`, `Ta1-d1`).
//! Choosing a candidate repeats the original command with the UCI in place
//! of the typed text ([`ChoiceAct::to_command`], or as text
//! [`ChoiceAct::command_line`]), so it goes through every check again: turn,
//! legality, the game still running.

use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Move, Position};

use super::Prompt;
use crate::core::command::Command;
use crate::core::event::ClaimKind;
use crate::core::names::Named;
use crate::core::notation::{self, Style};

/// The most candidates offered (Discord shows at most 25 buttons).
pub const MAX_CHOICES: usize = 20;

/// What the ambiguous move was typed for, so the choice does the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ChoiceAct {
    /// `/move`, with or without a draw offer.
    Move { offer_draw: bool },
    /// `/claim [kind] <move>`: the claim made with the chosen move.
    Claim { kind: Option<ClaimKind> },
}

/// One candidate of an ambiguous move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveChoice {
    /// The move in UCI (`e1d1`).
    pub uci: String,
    /// The move written unambiguously for the reader (`Ke1-d1`, `Re1-d1`).
    pub label: String,
}

impl ChoiceAct {
    /// The act `command` asks for, if it carries a move text.
    pub fn of(command: &Command) -> Option<ChoiceAct> {
        match command {
            Command::Move { offer_draw, .. } => Some(ChoiceAct::Move {
                offer_draw: *offer_draw,
            }),
            Command::Claim {
                kind,
                with_move: Some(_),
                ..
            } => Some(ChoiceAct::Claim { kind: *kind }),
            _ => None,
        }
    }

    /// The command that makes this act with the move `uci` in `game`.
    pub fn to_command(self, game: i64, uci: &str) -> Command {
        match self {
            ChoiceAct::Move { offer_draw } => Command::Move {
                text: uci.to_owned(),
                offer_draw,
                game: Some(game),
            },
            ChoiceAct::Claim { kind } => Command::Claim {
                kind,
                with_move: Some(uci.to_owned()),
                game: Some(game),
            },
        }
    }

    /// The same command as text, without a leading `/`:
    /// `move e1d1 offer_draw game:3`, `claim threefold e1d1 game:3`.
    pub fn command_line(self, game: i64, uci: &str) -> String {
        match self {
            ChoiceAct::Move { offer_draw: false } => format!("move {uci} game:{game}"),
            ChoiceAct::Move { offer_draw: true } => format!("move {uci} offer_draw game:{game}"),
            ChoiceAct::Claim { kind: None } => format!("claim {uci} game:{game}"),
            ChoiceAct::Claim { kind: Some(kind) } => {
                format!("claim {} {uci} game:{game}", kind.as_str())
            }
        }
    }
}

/// The prompt asking which of `candidates` (legal in `pos`) `command` meant;
/// [`Prompt::None`] for commands without a move.
pub(super) fn prompt(
    game: i64,
    command: &Command,
    pos: &Chess,
    candidates: &[Move],
    style: Style,
) -> Prompt {
    let Some(act) = ChoiceAct::of(command) else {
        return Prompt::None;
    };
    let choices = candidates
        .iter()
        .take(MAX_CHOICES)
        .map(|m| MoveChoice {
            // The game's own form: in Chess960 castling is king-takes-rook,
            // the one UCI that cannot also be a plain king move.
            uci: m.to_uci(pos.castles().mode()).to_string(),
            label: notation::write_long(pos, *m, style),
        })
        .collect();
    Prompt::ChooseMove { game, act, choices }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::command;
    use crate::core::notation::{Lang, MoveInputError, Reader, parse_move};
    use shakmaty::fen::Fen;

    #[test]
    fn a_choice_is_the_original_command_with_the_move_in_uci() {
        let cases = [
            (
                "move Rd1 game:3",
                "move e1d1 game:3",
                ChoiceAct::Move { offer_draw: false },
            ),
            (
                "move Rd1 offer_draw",
                "move e1d1 offer_draw game:3",
                ChoiceAct::Move { offer_draw: true },
            ),
            (
                "claim threefold Rd1",
                "claim threefold e1d1 game:3",
                ChoiceAct::Claim {
                    kind: Some(ClaimKind::Threefold),
                },
            ),
            (
                "claim fifty Rd1 game:3",
                "claim fifty e1d1 game:3",
                ChoiceAct::Claim {
                    kind: Some(ClaimKind::Fifty),
                },
            ),
            (
                "claim Rd1",
                "claim e1d1 game:3",
                ChoiceAct::Claim { kind: None },
            ),
        ];
        for (typed, line, act) in cases {
            let original = command::parse(typed).expect(typed);
            assert_eq!(ChoiceAct::of(&original), Some(act), "{typed}");
            assert_eq!(act.command_line(3, "e1d1"), line, "{typed}");
            // The text form and the built command agree.
            assert_eq!(
                command::parse(line).as_ref(),
                Ok(&act.to_command(3, "e1d1")),
                "{line}"
            );
        }
        for other in ["claim threefold", "resign", "draw offer"] {
            let command = command::parse(other).expect(other);
            assert_eq!(ChoiceAct::of(&command), None, "{other}");
        }
    }

    #[test]
    fn candidates_are_labelled_for_the_reader_and_replay_as_uci() {
        let fen: Fen = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1".parse().unwrap();
        let pos: Chess = fen.into_position(shakmaty::CastlingMode::Standard).unwrap();
        let command = command::parse("move Rd1").unwrap();
        let pair = |uci: &str, label: &str| (uci.to_owned(), label.to_owned());
        // French R is the king, English R the rook: every speaker is asked.
        let cases = [
            (Lang::En, [pair("a1d1", "Ra1-d1"), pair("e1d1", "Ke1-d1")]),
            (Lang::Fr, [pair("a1d1", "Ta1-d1"), pair("e1d1", "Re1-d1")]),
        ];
        for (lang, expected) in cases {
            let reader = Reader::speaking(lang);
            let Err(MoveInputError::Ambiguous { candidates }) = parse_move(&pos, "Rd1", &reader)
            else {
                panic!("Rd1 should be ambiguous to a {lang:?} speaker");
            };
            let style = Style::for_lang(lang);
            let Prompt::ChooseMove { game, act, choices } =
                prompt(3, &command, &pos, &candidates, style)
            else {
                panic!("a choice for {lang:?}");
            };
            assert_eq!(game, 3);
            assert_eq!(act, ChoiceAct::Move { offer_draw: false });
            for choice in &choices {
                // Every choice is read back as exactly its own move.
                let m = parse_move(&pos, &choice.uci, &reader).expect("UCI is never ambiguous");
                assert_eq!(m.to_uci(pos.castles().mode()).to_string(), choice.uci);
            }
            let mut pairs: Vec<(String, String)> =
                choices.into_iter().map(|c| (c.uci, c.label)).collect();
            pairs.sort();
            assert_eq!(pairs, expected, "{lang:?}");
            let resign = command::parse("resign").unwrap();
            assert_eq!(prompt(3, &resign, &pos, &candidates, style), Prompt::None);
        }
    }

    #[test]
    fn prompts_survive_the_stored_answer() {
        let prompt = Prompt::ChooseMove {
            game: 9,
            act: ChoiceAct::Claim {
                kind: Some(ClaimKind::Fifty),
            },
            choices: vec![MoveChoice {
                uci: "e1d1".into(),
                label: "Ke1-d1".into(),
            }],
        };
        let json = serde_json::to_string(&prompt).unwrap();
        assert_eq!(serde_json::from_str::<Prompt>(&json).unwrap(), prompt);
    }
}
