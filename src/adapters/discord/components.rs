//! Buttons: what each one means, and its custom id (`<kind>:<id>`).
//!
//! A click becomes the same [`Command`] a slash command would, so the
//! service decides who may do it: a spectator's or the wrong player's click
//! is refused (ephemerally) like any other act. Resigning asks first.

use serenity::all::{ButtonStyle, CreateActionRow, CreateButton};

use crate::core::command::{Command, DrawAction};
use crate::core::notation::Lang;
use crate::i18n::I18n;
use crate::service::Prompt;

/// The longest custom id read (Discord allows 100).
const MAX_CUSTOM_ID: usize = 100;

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
        }
    }

    pub fn custom_id(self) -> String {
        let (kind, id) = self.parts();
        format!("{kind}:{id}")
    }

    /// Reads a custom id; `None` for anything this bot did not make.
    pub fn parse(custom_id: &str) -> Option<Button> {
        if custom_id.len() > MAX_CUSTOM_ID {
            return None;
        }
        let (kind, id) = custom_id.split_once(':')?;
        let id: i64 = id.parse().ok().filter(|id| *id > 0)?;
        Button::KINDS
            .iter()
            .find(|(name, _)| *name == kind)
            .map(|(_, make)| make(id))
    }

    /// The act a click asks for; `None` when the bot must ask first.
    pub fn to_command(self) -> Option<Command> {
        Some(match self {
            Button::AcceptChallenge(id) => Command::Accept {
                challenge: Some(id),
            },
            Button::DeclineChallenge(id) => Command::Decline {
                challenge: Some(id),
            },
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
        })
    }

    fn create(self, i18n: &I18n, lang: Lang) -> CreateButton {
        let (kind, _) = self.parts();
        let style = match self {
            Button::AcceptChallenge(_) | Button::AcceptDraw(_) => ButtonStyle::Success,
            Button::DeclineChallenge(_) | Button::DeclineDraw(_) => ButtonStyle::Secondary,
            Button::Resign(_) | Button::ConfirmResign(_) => ButtonStyle::Danger,
            Button::Board(_) | Button::OfferDraw(_) => ButtonStyle::Primary,
        };
        CreateButton::new(self.custom_id())
            .label(i18n.text(lang, &format!("discord-button-{kind}"), &[]))
            .style(style)
    }
}

/// The button rows for a reply: its prompt, and a standing draw offer's answers.
pub fn rows_for(
    prompt: Prompt,
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
            Button::AcceptChallenge(challenge),
            Button::DeclineChallenge(challenge),
        ])),
        Prompt::NewGame { game } | Prompt::Game { game } => rows.push(row(&[
            Button::Board(game),
            Button::OfferDraw(game),
            Button::Resign(game),
        ])),
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
    fn only_resign_asks_first() {
        assert_eq!(Button::Resign(1).to_command(), None);
        assert_eq!(
            Button::ConfirmResign(1).to_command(),
            Some(Command::Resign { game: Some(1) })
        );
    }
}
