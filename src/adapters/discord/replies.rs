//! A service [`Reply`] as a Discord message: content with the mention of
//! the player addressed, an embed for game messages (the board PNG as its
//! image, the flag instant as a `<t:UNIX:R>` timestamp every reader sees in
//! their own time zone), the reply's files, and its buttons.

use serenity::all::{
    CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateEmbed,
    CreateInteractionResponseFollowup, CreateInteractionResponseMessage, CreateMessage,
    EditInteractionResponse, Nonce, UserId,
};

use super::components;
use crate::core::command::help;
use crate::core::event::Event;
use crate::core::notation::Lang;
use crate::i18n::I18n;
use crate::service::{BoardView, Prompt, Reply};

/// Discord's limits on a message's content and an embed's description.
const MAX_CONTENT: usize = 2000;
const MAX_DESCRIPTION: usize = 4096;
const MAX_TITLE: usize = 256;
/// The embed colour of game messages (a dark green, like a board's squares).
const GAME_COLOUR: u32 = 0x002e_7d32;

/// Everything a message needs, whichever endpoint sends it.
#[derive(Clone, Debug)]
pub struct Outgoing {
    pub content: String,
    pub embed: Option<CreateEmbed>,
    pub files: Vec<CreateAttachment>,
    pub rows: Vec<CreateActionRow>,
    pub ephemeral: bool,
    /// The one user the message may ping.
    pub mention: Option<UserId>,
}

impl Outgoing {
    /// A plain ephemeral text (refusals the adapter itself makes).
    pub fn private(text: &str) -> Outgoing {
        Outgoing {
            content: cut(text, MAX_CONTENT),
            embed: None,
            files: Vec::new(),
            rows: Vec::new(),
            ephemeral: true,
            mention: None,
        }
    }

    /// Builds the message for `reply`; button labels in `lang`.
    pub fn from_reply(reply: &Reply, i18n: &I18n, lang: Lang) -> Outgoing {
        // The service's hints name text commands: Discord calls them by path.
        let reply = &Reply {
            text: help::rewrite_calls(&reply.text, help::discord_call),
            ..reply.clone()
        };
        let mention = (!reply.ephemeral)
            .then(|| reply.to.as_deref().and_then(user_id))
            .flatten();
        let mut files: Vec<CreateAttachment> = reply
            .attachments
            .iter()
            .map(|file| CreateAttachment::bytes(file.bytes.to_vec(), file.filename.clone()))
            .collect();
        let text = whole_or_in_file(reply, &mut files, i18n, lang);
        let image = reply
            .attachments
            .iter()
            .find(|file| file.content_type == "image/png" || file.content_type == "image/gif")
            .map(|file| file.filename.clone());
        let (content, embed) = match (&reply.board, reply.ephemeral) {
            (Some(board), false) => {
                let content = mention.map(|id| format!("<@{id}>")).unwrap_or_default();
                (content, Some(game_embed(reply, board, image.as_deref())))
            }
            _ => {
                let text = match mention {
                    Some(id) => format!("<@{id}> {text}"),
                    None => text,
                };
                // Fenced, so that Discord shows it in a fixed-width font.
                let text = match &reply.diagram {
                    Some(diagram) => format!("{text}\n```\n{diagram}\n```"),
                    None => text,
                };
                let embed =
                    image.map(|name| CreateEmbed::new().image(format!("attachment://{}", name)));
                (text, embed)
            }
        };
        let draw_offered_in = reply.events.iter().rev().find_map(|e| match e.event {
            Event::DrawOffered { .. } => Some(e.game),
            _ => None,
        });
        // A private answer has no game buttons, but may ask which move was meant.
        let rows = match (&reply.prompt, reply.ephemeral) {
            (Prompt::ChooseMove { .. }, _) | (_, false) => {
                components::rows_for(&reply.prompt, draw_offered_in, i18n, lang)
            }
            _ => Vec::new(),
        };
        Outgoing {
            content: cut(&content, MAX_CONTENT),
            embed,
            files,
            rows,
            ephemeral: reply.ephemeral,
            mention,
        }
    }

    fn allowed_mentions(&self) -> CreateAllowedMentions {
        // Never @everyone or roles, whatever a player's name contains.
        CreateAllowedMentions::new()
            .everyone(false)
            .empty_roles()
            .users(self.mention)
    }

    pub fn to_response(&self) -> CreateInteractionResponseMessage {
        let mut message = CreateInteractionResponseMessage::new()
            .content(self.content.clone())
            .ephemeral(self.ephemeral)
            .allowed_mentions(self.allowed_mentions())
            .components(self.rows.clone())
            .files(self.files.clone());
        if let Some(embed) = &self.embed {
            message = message.embed(embed.clone());
        }
        message
    }

    pub fn to_followup(&self) -> CreateInteractionResponseFollowup {
        let mut message = CreateInteractionResponseFollowup::new()
            .content(self.content.clone())
            .ephemeral(self.ephemeral)
            .allowed_mentions(self.allowed_mentions())
            .components(self.rows.clone())
            .files(self.files.clone());
        if let Some(embed) = &self.embed {
            message = message.embed(embed.clone());
        }
        message
    }

    /// The edit that fills a deferred response.
    pub fn to_edit(&self) -> EditInteractionResponse {
        let mut edit = EditInteractionResponse::new()
            .content(self.content.clone())
            .allowed_mentions(self.allowed_mentions())
            .components(self.rows.clone());
        for file in &self.files {
            edit = edit.new_attachment(file.clone());
        }
        if let Some(embed) = &self.embed {
            edit = edit.embed(embed.clone());
        }
        edit
    }

    /// A message in a channel or a direct message (scheduler notices).
    /// A channel message; with a `nonce`, Discord keeps one message however
    /// often it is posted again within a few minutes (`enforce_nonce`).
    pub fn to_message(&self, nonce: Option<String>) -> CreateMessage {
        let mut message = CreateMessage::new()
            .content(self.content.clone())
            .allowed_mentions(self.allowed_mentions())
            .components(self.rows.clone())
            .files(self.files.clone());
        if let Some(embed) = &self.embed {
            message = message.embed(embed.clone());
        }
        if let Some(nonce) = nonce {
            message = message.nonce(Nonce::String(nonce)).enforce_nonce(true);
        }
        message
    }
}

fn game_embed(reply: &Reply, board: &BoardView, image: Option<&str>) -> CreateEmbed {
    let title = format!("#{} · {} – {}", board.game, board.white, board.black);
    let mut description = reply.text.clone();
    if let Some(flag) = board.flag_at {
        // Discord shows this in each reader's own time zone, counting down.
        let unix = flag.timestamp();
        description.push_str(&format!("\n⏱ <t:{unix}:R> (<t:{unix}:f>)"));
    }
    let mut embed = CreateEmbed::new()
        .title(cut(&title, MAX_TITLE))
        .description(cut(&description, MAX_DESCRIPTION))
        .colour(GAME_COLOUR);
    if let Some(name) = image {
        embed = embed.image(format!("attachment://{name}"));
    }
    embed
}

/// A platform id that is a Discord user id.
pub fn user_id(text: &str) -> Option<UserId> {
    text.parse::<u64>()
        .ok()
        .filter(|id| *id != 0)
        .map(UserId::new)
}

/// Room in a message's content for a reply's text (the rest is the mention).
const MAX_TEXT: usize = MAX_CONTENT - 40;
/// How much of a long text's first line the message keeps.
const FIRST_LINE: usize = 200;

/// A reply's text as the message shows it: whole when it fits, else its
/// first line and where the whole text is: a text file of the reply's own
/// (a PGN), or one attached here. Nothing is cut away unseen.
fn whole_or_in_file(
    reply: &Reply,
    files: &mut Vec<CreateAttachment>,
    i18n: &I18n,
    lang: Lang,
) -> String {
    if reply.text.chars().count() <= MAX_TEXT {
        return reply.text.clone();
    }
    let own = reply
        .attachments
        .iter()
        .find(|file| file.bytes.as_ref() == reply.text.as_bytes())
        .map(|file| file.filename.clone());
    let name = own.unwrap_or_else(|| {
        let name = "message.txt".to_owned();
        files.push(CreateAttachment::bytes(
            reply.text.as_bytes().to_vec(),
            name.clone(),
        ));
        name
    });
    let first_line = cut(reply.text.lines().next().unwrap_or_default(), FIRST_LINE);
    let note = i18n.text(
        lang,
        "discord-text-in-file",
        &[("file", name.as_str().into())],
    );
    format!("{first_line}\n{note}")
}

/// `text` cut to `max` characters, with an ellipsis when cut.
fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max - 1).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::{Attachment, GameEvent};
    use chrono::TimeZone;
    use serde_json::Value;
    use shakmaty::Color;

    fn reply() -> Reply {
        Reply {
            channel: "10".into(),
            to: Some("20".into()),
            text: "alice plays e4.".into(),
            events: vec![GameEvent {
                game: 3,
                event: Event::DrawOffered { by: Color::White },
            }],
            board: Some(BoardView {
                game: 3,
                fen: String::new(),
                last_move: None,
                orientation: "white".into(),
                white: "alice".into(),
                black: "bob".into(),
                flag_at: Some(chrono::Utc.with_ymd_and_hms(2026, 1, 2, 0, 0, 0).unwrap()),
                result: None,
                white_clock: None,
                black_clock: None,
            }),
            attachments: vec![Attachment {
                filename: "board.png".into(),
                content_type: "image/png".into(),
                bytes: std::sync::Arc::from(&b"png"[..]),
            }],
            prompt: Prompt::Game { game: 3 },
            ..Reply::default()
        }
    }

    fn json(out: &Outgoing) -> Value {
        serde_json::to_value(out.to_message(None)).expect("serializes")
    }

    #[test]
    fn a_game_message_has_the_mention_embed_image_flag_and_buttons() {
        let out = Outgoing::from_reply(&reply(), &I18n::new(), Lang::En);
        let message = json(&out);
        assert_eq!(message["content"], "<@20>");
        let embed = &message["embeds"][0];
        assert_eq!(embed["title"], "#3 · alice – bob");
        assert_eq!(embed["image"]["url"], "attachment://board.png");
        let unix = chrono::Utc
            .with_ymd_and_hms(2026, 1, 2, 0, 0, 0)
            .unwrap()
            .timestamp();
        assert!(
            embed["description"]
                .as_str()
                .unwrap()
                .contains(&format!("<t:{unix}:R>"))
        );
        assert_eq!(out.files.len(), 1);
        // Draw answers first, then the game's buttons.
        let rows = message["components"].as_array().unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0]["components"][0]["custom_id"], "draw-accept:3");
        assert_eq!(rows[1]["components"][2]["custom_id"], "resign:3");
        assert_eq!(message["allowed_mentions"]["users"][0], "20");
    }

    #[test]
    fn refusals_are_ephemeral_text_without_buttons_or_mention() {
        let mut refusal = reply();
        refusal.ephemeral = true;
        refusal.board = None;
        refusal.attachments.clear();
        let out = Outgoing::from_reply(&refusal, &I18n::new(), Lang::En);
        assert!(out.ephemeral && out.rows.is_empty() && out.mention.is_none());
        let response = serde_json::to_value(out.to_response()).unwrap();
        assert_eq!(response["flags"], 64);
        assert_eq!(response["content"], "alice plays e4.");
    }

    #[test]
    fn a_text_diagram_is_fenced_for_a_fixed_width_font() {
        let mut board = reply();
        board.ephemeral = true;
        board.attachments.clear();
        board.diagram = Some("8 r n\n  a b".to_owned());
        let out = Outgoing::from_reply(&board, &I18n::new(), Lang::En);
        assert_eq!(out.content, "alice plays e4.\n```\n8 r n\n  a b\n```");
    }

    #[test]
    fn an_ambiguous_move_is_asked_privately_with_a_button_per_reading() {
        use crate::service::choice::{ChoiceAct, MoveChoice};
        let question = Reply {
            channel: "10".into(),
            to: Some("20".into()),
            ephemeral: true,
            text: "“Rd1” could mean several moves.".into(),
            prompt: Prompt::ChooseMove {
                game: 3,
                act: ChoiceAct::Move { offer_draw: false },
                choices: vec![MoveChoice {
                    uci: "a1d1".into(),
                    label: "Ra1-d1".into(),
                }],
            },
            ..Reply::default()
        };
        let out = Outgoing::from_reply(&question, &I18n::new(), Lang::En);
        assert!(out.ephemeral && out.mention.is_none());
        let response = serde_json::to_value(out.to_response()).unwrap();
        assert_eq!(response["flags"], 64);
        assert_eq!(
            response["components"][0]["components"][0]["custom_id"],
            "choose:3:m:a1d1"
        );
    }

    #[test]
    fn long_texts_arrive_whole_as_a_file() {
        let mut long = reply();
        long.board = None;
        long.text = format!("First line\n{}", "é".repeat(5000));
        let out = Outgoing::from_reply(&long, &I18n::new(), Lang::En);
        assert!(out.content.chars().count() <= MAX_CONTENT);
        assert!(out.content.contains("First line"), "{}", out.content);
        assert!(out.content.contains("message.txt"), "{}", out.content);
        let file = out.files.iter().find(|f| f.filename == "message.txt");
        assert_eq!(file.map(|f| f.data.as_slice()), Some(long.text.as_bytes()));

        // A text that is its own file (a PGN) points to it, once.
        long.attachments = vec![Attachment {
            filename: "game-1.pgn".to_owned(),
            content_type: "application/x-chess-pgn".to_owned(),
            bytes: long.text.as_bytes().into(),
        }];
        let out = Outgoing::from_reply(&long, &I18n::new(), Lang::Fr);
        assert!(
            out.content.contains("fichier joint game-1.pgn"),
            "{}",
            out.content
        );
        assert_eq!(out.files.len(), 1);
        assert_eq!(out.files[0].data, long.text.as_bytes());
    }
}
