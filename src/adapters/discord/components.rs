//! Buttons: what each one means, and its custom id (`<kind>:<id>`, or
//! `choose:<game>:<act>:<uci>` for a reading of an ambiguous move).
//!
//! A click becomes the same [`Command`] a slash command would, so the
//! service decides who may do it: a spectator's or the wrong player's click
//! is refused (ephemerally) like any other act. Resigning asks first. A
//! custom id is untrusted input: it is bounded and parsed strictly, and the
//! move it names is only a request that the service checks again.

use serenity::all::{ButtonStyle, CreateActionRow, CreateButton};
use shakmaty::uci::UciMove;

use crate::core::command::{ChallengeCommand, Command, DrawAction};
use crate::core::event::ClaimKind;
use crate::core::notation::Lang;
use crate::i18n::I18n;
use crate::service::Prompt;
use crate::service::choice::ChoiceAct;

/// The longest custom id read (Discord allows 100).
const MAX_CUSTOM_ID: usize = 100;
/// Buttons in a row, and rows in a message (Discord's limits).
const ROW_WIDTH: usize = 5;
const MAX_ROWS: usize = 5;
/// The longest button label Discord accepts.
const MAX_LABEL: usize = 80;
/// The custom id kind of a reading of an ambiguous move.
const CHOOSE: &str = "choose";
/// How a [`ChoiceAct`] is written in a custom id.
const CHOICE_ACTS: [(&str, ChoiceAct); 5] = [
    ("m", ChoiceAct::Move { offer_draw: false }),
    ("md", ChoiceAct::Move { offer_draw: true }),
    ("c", ChoiceAct::Claim { kind: None }),
    (
        "c3",
        ChoiceAct::Claim {
            kind: Some(ClaimKind::Threefold),
        },
    ),
    (
        "c50",
        ChoiceAct::Claim {
            kind: Some(ClaimKind::Fifty),
        },
    ),
];

/// Builds a button from the id in its custom id.
type MakeButton = fn(i64) -> Button;

/// What a button does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    AcceptChallenge(i64),
    DeclineChallenge(i64),
    AcceptDraw(i64),
    DeclineDraw(i64),
    Board(i64),
    OfferDraw(i64),
    /// Asks whether to resign; nothing happens yet.
    Resign(i64),
    /// The answer to that question.
    ConfirmResign(i64),
    /// One reading of an ambiguous move: make `act` with `uci` in `game`.
    Choose {
        game: i64,
        act: ChoiceAct,
        uci: UciMove,
    },
}

impl Button {
    const KINDS: [(&'static str, MakeButton); 8] = [
        ("challenge-accept", Button::AcceptChallenge),
        ("challenge-decline", Button::DeclineChallenge),
        ("draw-accept", Button::AcceptDraw),
        ("draw-decline", Button::DeclineDraw),
        ("board", Button::Board),
        ("draw-offer", Button::OfferDraw),
        ("resign", Button::Resign),
        ("resign-confirm", Button::ConfirmResign),
    ];

    /// The button's kind and the game or challenge it is about.
    fn parts(self) -> (&'static str, i64) {
        match self {
            Button::AcceptChallenge(id) => ("challenge-accept", id),
            Button::DeclineChallenge(id) => ("challenge-decline", id),
            Button::AcceptDraw(id) => ("draw-accept", id),
            Button::DeclineDraw(id) => ("draw-decline", id),
            Button::Board(id) => ("board", id),
            Button::OfferDraw(id) => ("draw-offer", id),
            Button::Resign(id) => ("resign", id),
            Button::ConfirmResign(id) => ("resign-confirm", id),
            Button::Choose { game, .. } => (CHOOSE, game),
        }
    }

    /// Whether acting on it answers the message it is on (a challenge, a
    /// draw offer), so that message's buttons must go once it succeeded.
    pub fn answers_its_message(self) -> bool {
        matches!(
            self,
            Button::AcceptChallenge(_)
                | Button::DeclineChallenge(_)
                | Button::AcceptDraw(_)
                | Button::DeclineDraw(_)
        )
    }

    pub fn custom_id(self) -> String {
        if let Button::Choose { game, act, uci } = self {
            let code = CHOICE_ACTS
                .iter()
                .find(|(_, a)| *a == act)
                .map_or("m", |(code, _)| *code);
            return format!("{CHOOSE}:{game}:{code}:{uci}");
        }
        let (kind, id) = self.parts();
        format!("{kind}:{id}")
    }

    /// Reads a custom id; `None` for anything this bot did not make.
    pub fn parse(custom_id: &str) -> Option<Button> {
        if custom_id.len() > MAX_CUSTOM_ID {
            return None;
        }
        let (kind, rest) = custom_id.split_once(':')?;
        if kind == CHOOSE {
            return parse_choice(rest);
        }
        let id = parse_id(rest)?;
        Button::KINDS
            .iter()
            .find(|(name, _)| *name == kind)
            .map(|(_, make)| make(id))
    }

    /// The act a click asks for; `None` when the bot must ask first.
    pub fn to_command(self) -> Option<Command> {
        Some(match self {
            Button::AcceptChallenge(id) => Command::Challenge(ChallengeCommand::Accept {
                challenge: Some(id),
            }),
            Button::DeclineChallenge(id) => Command::Challenge(ChallengeCommand::Decline {
                challenge: Some(id),
            }),
            Button::AcceptDraw(id) => Command::Draw {
                action: DrawAction::Accept,
                game: Some(id),
            },
            Button::DeclineDraw(id) => Command::Draw {
                action: DrawAction::Decline,
                game: Some(id),
            },
            Button::Board(id) => Command::Board { game: Some(id) },
            Button::OfferDraw(id) => Command::Draw {
                action: DrawAction::Offer,
                game: Some(id),
            },
            Button::Resign(_) => return None,
            Button::ConfirmResign(id) => Command::Resign { game: Some(id) },
            Button::Choose { game, act, uci } => act.to_command(game, &uci.to_string()),
        })
    }

    /// The button with its translated label; a reading of an ambiguous move
    /// is labelled with the move itself instead (see `choice_rows`).
    fn create(self, i18n: &I18n, lang: Lang) -> CreateButton {
        let (kind, _) = self.parts();
        let style = match self {
            Button::AcceptChallenge(_) | Button::AcceptDraw(_) => ButtonStyle::Success,
            Button::DeclineChallenge(_) | Button::DeclineDraw(_) => ButtonStyle::Secondary,
            Button::Resign(_) | Button::ConfirmResign(_) => ButtonStyle::Danger,
            Button::Board(_) | Button::OfferDraw(_) | Button::Choose { .. } => ButtonStyle::Primary,
        };
        CreateButton::new(self.custom_id())
            .label(i18n.text(lang, &format!("discord-button-{kind}"), &[]))
            .style(style)
    }
}

/// A positive id, as written in a custom id.
fn parse_id(text: &str) -> Option<i64> {
    text.parse().ok().filter(|id| *id > 0)
}

/// `<game>:<act>:<uci>` after `choose:`.
fn parse_choice(rest: &str) -> Option<Button> {
    let mut parts = rest.split(':');
    let (game, code, uci) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let game = parse_id(game)?;
    let act = CHOICE_ACTS
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, act)| *act)?;
    // Only plain moves: never a null move or a piece drop.
    let uci = match UciMove::from_ascii(uci.as_bytes()).ok()? {
        normal @ UciMove::Normal { .. } => normal,
        _ => return None,
    };
    Some(Button::Choose { game, act, uci })
}

/// The buttons choosing between the readings of an ambiguous move, labelled
/// as the reader writes them.
fn choice_rows(prompt: &Prompt) -> Vec<CreateActionRow> {
    let Prompt::ChooseMove { game, act, choices } = prompt else {
        return Vec::new();
    };
    let buttons: Vec<CreateButton> = choices
        .iter()
        .filter_map(|choice| {
            let uci = UciMove::from_ascii(choice.uci.as_bytes()).ok()?;
            let button = Button::Choose {
                game: *game,
                act: *act,
                uci,
            };
            let label: String = choice.label.chars().take(MAX_LABEL).collect();
            Some(
                CreateButton::new(button.custom_id())
                    .label(label)
                    .style(ButtonStyle::Primary),
            )
        })
        .take(ROW_WIDTH * MAX_ROWS)
        .collect();
    buttons
        .chunks(ROW_WIDTH)
        .map(|row| CreateActionRow::Buttons(row.to_vec()))
        .collect()
}

/// The button rows for a reply: its prompt, and a standing draw offer's answers.
pub fn rows_for(
    prompt: &Prompt,
    draw_offered_in: Option<i64>,
    i18n: &I18n,
    lang: Lang,
) -> Vec<CreateActionRow> {
    let row = |buttons: &[Button]| {
        CreateActionRow::Buttons(buttons.iter().map(|b| b.create(i18n, lang)).collect())
    };
    let mut rows = Vec::new();
    if let Some(game) = draw_offered_in {
        rows.push(row(&[Button::AcceptDraw(game), Button::DeclineDraw(game)]));
    }
    match prompt {
        Prompt::None => {}
        Prompt::Challenge { challenge } => rows.push(row(&[
            Button::AcceptChallenge(*challenge),
            Button::DeclineChallenge(*challenge),
        ])),
        Prompt::NewGame { game } | Prompt::Game { game } => rows.push(row(&[
            Button::Board(*game),
            Button::OfferDraw(*game),
            Button::Resign(*game),
        ])),
        Prompt::ChooseMove { .. } => rows.extend(choice_rows(prompt)),
    }
    rows
}

/// The question a Resign click asks, with its one button.
pub fn resign_question(game: i64, i18n: &I18n, lang: Lang) -> (String, CreateActionRow) {
    let text = i18n.text(
        lang,
        "discord-resign-confirm",
        &[("game", crate::i18n::Arg::from(game))],
    );
    let row = CreateActionRow::Buttons(vec![Button::ConfirmResign(game).create(i18n, lang)]);
    (text, row)
}

/// Every i18n id the buttons use.
pub fn message_ids() -> Vec<String> {
    let mut ids: Vec<String> = Button::KINDS
        .iter()
        .map(|(kind, _)| format!("discord-button-{kind}"))
        .collect();
    ids.push("discord-resign-confirm".to_owned());
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_round_trip() {
        for (_, make) in Button::KINDS {
            let button = make(42);
            assert_eq!(Button::parse(&button.custom_id()), Some(button));
        }
    }

    #[test]
    fn foreign_or_broken_ids_are_ignored() {
        let long = format!("board:{}", "9".repeat(200));
        for id in [
            "", "board", "board:", "board:x", "board:-1", "board:0", "nope:3", ":3", &long,
        ] {
            assert_eq!(Button::parse(id), None, "{id:?}");
        }
    }

    #[test]
    fn labels_exist_in_both_languages() {
        let i18n = I18n::new();
        for id in message_ids() {
            for lang in [Lang::En, Lang::Fr] {
                assert_ne!(i18n.text(lang, &id, &[]), id, "{id} in {lang:?}");
            }
        }
    }

    #[test]
    fn a_choice_button_replays_the_command_with_the_move_in_uci() {
        for (code, act) in CHOICE_ACTS {
            let uci = UciMove::from_ascii(b"e7e8q").unwrap();
            let button = Button::Choose { game: 3, act, uci };
            let id = button.custom_id();
            assert_eq!(id, format!("choose:3:{code}:e7e8q"));
            assert!(id.len() <= MAX_CUSTOM_ID);
            assert_eq!(Button::parse(&id), Some(button));
            assert_eq!(button.to_command(), Some(act.to_command(3, "e7e8q")));
        }
        assert_eq!(
            Button::parse("choose:12:md:a1d1").and_then(Button::to_command),
            Some(Command::Move {
                text: "a1d1".into(),
                offer_draw: true,
                game: Some(12)
            })
        );
    }

    #[test]
    fn broken_choice_ids_are_ignored() {
        let cases = [
            "choose",
            "choose:",
            "choose:3",
            "choose:3:m",
            "choose:3:m:",
            "choose:0:m:e1d1",
            "choose:-3:m:e1d1",
            "choose:x:m:e1d1",
            "choose:3:z:e1d1",
            "choose:3:m:e1d9",
            "choose:3:m:Rd1",
            "choose:3:m:0000",
            "choose:3:m:Q@e4",
            "choose:3:m:e1d1:more",
            "choose:3:m:e1d1 ",
            "choose:3:m:é1d1",
        ];
        for id in cases {
            assert_eq!(Button::parse(id), None, "{id:?}");
        }
    }

    #[test]
    fn candidates_become_buttons_in_rows_of_five() {
        use crate::service::choice::MoveChoice;
        let choice = |uci: &str, label: &str| MoveChoice {
            uci: uci.into(),
            label: label.into(),
        };
        let prompt = Prompt::ChooseMove {
            game: 3,
            act: ChoiceAct::Move { offer_draw: false },
            choices: vec![
                choice("e1d1", "Ke1-d1"),
                choice("a1d1", "Ra1-d1"),
                choice("nonsense", "skipped"),
            ],
        };
        let rows = rows_for(&prompt, None, &I18n::new(), Lang::En);
        let json = serde_json::to_value(&rows).unwrap();
        assert_eq!(rows.len(), 1);
        let buttons = json[0]["components"].as_array().unwrap();
        assert_eq!(buttons.len(), 2);
        assert_eq!(buttons[0]["custom_id"], "choose:3:m:e1d1");
        assert_eq!(buttons[0]["label"], "Ke1-d1");
        assert_eq!(buttons[1]["label"], "Ra1-d1");
        let many = Prompt::ChooseMove {
            game: 3,
            act: ChoiceAct::Move { offer_draw: false },
            choices: (0..40).map(|_| choice("e1d1", "Ke1-d1")).collect(),
        };
        let rows = rows_for(&many, None, &I18n::new(), Lang::En);
        assert_eq!(rows.len(), MAX_ROWS);
    }

    #[test]
    fn only_resign_asks_first() {
        assert_eq!(Button::Resign(1).to_command(), None);
        assert_eq!(
            Button::ConfirmResign(1).to_command(),
            Some(Command::Resign { game: Some(1) })
        );
    }
}
