//! A service [`Reply`] as a Discord message: content with the mention of
//! the player addressed, an embed for game messages (the board PNG as its
//! image, the flag instant as a `<t:UNIX:R>` timestamp every reader sees in
//! their own time zone), the reply's files, and its buttons; and the JSON
//! body each endpoint takes.
//!
//! Nothing is cut unseen: a text that does not fit Discord's limits (2,000
//! characters of content with its mention and fenced diagram, 4,096 of an
//! embed's description, 6,000 of a whole embed) goes whole into a text
//! file, the message keeping its first line and saying where the rest is.

use serde_json::{Value, json};
use serenity::all::{CreateActionRow, UserId};

use super::rest::{Body, FileOut};
use super::{components, markdown};
use crate::core::command::help;
use crate::core::event::Event;
use crate::core::notation::Lang;
use crate::i18n::I18n;
use crate::service::{BoardView, Prompt, Reply};

/// Discord's limits on a message's content, an embed's description, title
/// and whole text, and the users one message may ping.
pub const MAX_CONTENT: usize = 2000;
const MAX_DESCRIPTION: usize = 4096;
const MAX_TITLE: usize = 256;
const MAX_EMBED: usize = 6000;
pub const MAX_MENTIONS: usize = 100;
/// How much of a long text's first line the message keeps.
const FIRST_LINE: usize = 200;
/// The embed colour of game messages (a dark green, like a board's squares).
const GAME_COLOUR: u32 = 0x002e_7d32;
/// Discord's flag of a message only its reader sees.
pub const EPHEMERAL: u64 = 64;
/// The file a long text goes into.
pub const TEXT_FILE: &str = "message.txt";

/// An embed as the bot sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Embed {
    pub title: Option<String>,
    pub description: Option<String>,
    /// The attached file shown as the embed's image.
    pub image: Option<String>,
    pub colour: Option<u32>,
}

/// An embed's JSON, as Discord names its fields.
#[derive(serde::Serialize)]
struct EmbedJson<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    image: Option<ImageJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    color: Option<u32>,
}

#[derive(serde::Serialize)]
struct ImageJson {
    url: String,
}

/// A file's place in a message's `attachments`.
#[derive(serde::Serialize)]
struct AttachmentJson<'a> {
    id: usize,
    filename: &'a str,
}

impl Embed {
    fn to_json(&self) -> Value {
        let embed = EmbedJson {
            title: self.title.as_deref(),
            description: self.description.as_deref(),
            image: self.image.as_ref().map(|image| ImageJson {
                url: format!("attachment://{image}"),
            }),
            color: self.colour,
        };
        serde_json::to_value(embed).unwrap_or(Value::Null)
    }

    fn length(&self) -> usize {
        let count = |text: &Option<String>| text.as_deref().map_or(0, |t| t.chars().count());
        count(&self.title) + count(&self.description)
    }
}

/// Everything a message needs, whichever endpoint sends it.
#[derive(Clone, Debug)]
pub struct Outgoing {
    pub content: String,
    pub embed: Option<Embed>,
    pub files: Vec<FileOut>,
    pub rows: Vec<CreateActionRow>,
    pub ephemeral: bool,
    /// The users the message may ping (at most [`MAX_MENTIONS`]).
    pub mentions: Vec<UserId>,
}

impl Outgoing {
    /// A plain ephemeral text (refusals the adapter itself makes).
    pub fn private(text: &str, i18n: &I18n, lang: Lang) -> Outgoing {
        let mut out = Outgoing::text(text);
        out.ephemeral = true;
        out.fit(i18n, lang);
        out
    }

    /// A plain public text, with nothing else.
    pub fn text(text: &str) -> Outgoing {
        Outgoing {
            content: text.to_owned(),
            embed: None,
            files: Vec::new(),
            rows: Vec::new(),
            ephemeral: false,
            mentions: Vec::new(),
        }
    }

    /// Builds the message for `reply`; button labels in `lang`.
    pub fn from_reply(reply: &Reply, i18n: &I18n, lang: Lang) -> Outgoing {
        let text = discord_text(reply);
        let mention = (!reply.ephemeral)
            .then(|| reply.to.as_deref().and_then(user_id))
            .flatten();
        let files: Vec<FileOut> = reply
            .attachments
            .iter()
            .map(|file| FileOut {
                name: file.filename.clone(),
                content_type: file.content_type.clone(),
                bytes: std::sync::Arc::clone(&file.bytes),
            })
            .collect();
        let image = reply
            .attachments
            .iter()
            .find(|file| file.content_type == "image/png" || file.content_type == "image/gif")
            .map(|file| file.filename.clone());
        let ping = mention.map(|id| format!("<@{id}>"));
        let (content, embed) = match (&reply.board, reply.ephemeral) {
            (Some(board), false) => (
                ping.unwrap_or_default(),
                Some(game_embed(&text, board, image)),
            ),
            _ => {
                let text = match ping {
                    Some(ping) => format!("{ping} {text}"),
                    None => text,
                };
                // Fenced, so that Discord shows it in a fixed-width font.
                let text = match &reply.diagram {
                    Some(diagram) => format!("{text}\n```\n{diagram}\n```"),
                    None => text,
                };
                let embed = image.map(|name| Embed {
                    title: None,
                    description: None,
                    image: Some(name),
                    colour: None,
                });
                (text, embed)
            }
        };
        let mut out = Outgoing {
            content,
            embed,
            files,
            rows: rows_of(reply, i18n, lang),
            ephemeral: reply.ephemeral,
            mentions: mention.into_iter().collect(),
        };
        out.fit(i18n, lang);
        out
    }

    /// Moves any text over Discord's limits into a file, whole: the
    /// content keeps its first line and says where the rest is.
    pub fn fit(&mut self, i18n: &I18n, lang: Lang) {
        if self.content.chars().count() > MAX_CONTENT {
            let whole = std::mem::take(&mut self.content);
            let name = self.attach_text(&whole);
            self.content = pointer(&whole, &name, i18n, lang);
        }
        let Some(embed) = &mut self.embed else { return };
        if let Some(title) = &mut embed.title {
            // Made of names the service bounds: this never cuts in practice.
            *title = cut(title, MAX_TITLE);
        }
        let too_long = embed
            .description
            .as_deref()
            .is_some_and(|d| d.chars().count() > MAX_DESCRIPTION)
            || embed.length() > MAX_EMBED;
        if too_long {
            let whole = embed.description.take().unwrap_or_default();
            let name = self.attach_text(&whole);
            if let Some(embed) = &mut self.embed {
                embed.description = Some(pointer(&whole, &name, i18n, lang));
            }
        }
    }

    /// Attaches `text` as a file (unless a file already holds exactly it,
    /// such as a PGN); returns its name.
    fn attach_text(&mut self, text: &str) -> String {
        // The text of a file of the reply's own (a PGN), mention or not.
        let bare = without_mention(text);
        let own = self.files.iter().find(|f| {
            let bytes = f.bytes.as_ref();
            bytes == text.as_bytes() || bytes == bare.as_bytes()
        });
        if let Some(own) = own {
            return own.name.clone();
        }
        let taken = |name: &str| self.files.iter().any(|f| f.name == name);
        let mut name = TEXT_FILE.to_owned();
        let mut n = 2;
        while taken(&name) {
            name = format!("message-{n}.txt");
            n += 1;
        }
        self.files.push(FileOut {
            name: name.clone(),
            content_type: "text/plain; charset=utf-8".to_owned(),
            bytes: text.as_bytes().into(),
        });
        name
    }

    /// Whether anything would be shown (Discord refuses an empty message).
    pub fn is_empty(&self) -> bool {
        self.content.trim().is_empty()
            && self.embed.is_none()
            && self.files.is_empty()
            && self.rows.is_empty()
    }

    /// The message's JSON: its content, embed, buttons, files, whom it may
    /// ping (never @everyone or roles, whatever a name contains), and a
    /// `nonce` Discord keeps one message for however often it is posted
    /// again within a few minutes (`enforce_nonce`; channel posts only).
    pub fn to_json(&self, nonce: Option<&str>) -> Value {
        let users: Vec<String> = self
            .mentions
            .iter()
            .take(MAX_MENTIONS)
            .map(|id| id.get().to_string())
            .collect();
        let mut message = json!({
            "content": self.content,
            "allowed_mentions": { "parse": [], "users": users },
            "components": serde_json::to_value(&self.rows).unwrap_or(json!([])),
            "embeds": self.embed.iter().map(Embed::to_json).collect::<Vec<_>>(),
        });
        if self.ephemeral {
            message["flags"] = json!(EPHEMERAL);
        }
        if !self.files.is_empty() {
            let attachments: Vec<Value> = self
                .files
                .iter()
                .enumerate()
                .map(|(id, file)| {
                    let attachment = AttachmentJson {
                        id,
                        filename: &file.name,
                    };
                    serde_json::to_value(attachment).unwrap_or(Value::Null)
                })
                .collect();
            message["attachments"] = json!(attachments);
        }
        if let Some(nonce) = nonce {
            message["nonce"] = json!(nonce);
            message["enforce_nonce"] = json!(true);
        }
        message
    }

    /// The request body: JSON, or JSON with the files.
    pub fn body(&self, nonce: Option<&str>) -> Body {
        self.wrap(self.to_json(nonce))
    }

    /// The interaction response (type 4) carrying this message.
    pub fn response_body(&self) -> Body {
        self.wrap(json!({ "type": 4, "data": self.to_json(None) }))
    }

    /// The edit of an interaction's original message into this one (an
    /// edit takes no flags: the original's visibility stays).
    pub fn wrap_edit(&self) -> Body {
        let mut json = self.to_json(None);
        if let Some(object) = json.as_object_mut() {
            object.remove("flags");
        }
        self.wrap(json)
    }

    fn wrap(&self, json: Value) -> Body {
        if self.files.is_empty() {
            Body::Json(json)
        } else {
            Body::Files(json, self.files.clone())
        }
    }
}

/// The reply's text shown literally (the service writes plain text, users'
/// names in it), with the service's hints written as Discord calls
/// commands (by path). Escaped first: the calls are the bot's own words.
pub fn discord_text(reply: &Reply) -> String {
    help::rewrite_calls(&markdown::escape(&reply.text), help::discord_call)
}

/// A reply's buttons: its prompt's, and a standing draw offer's answers. A
/// private answer has no game buttons, but may ask which move was meant.
fn rows_of(reply: &Reply, i18n: &I18n, lang: Lang) -> Vec<CreateActionRow> {
    let draw_offered_in = reply.events.iter().rev().find_map(|e| match e.event {
        Event::DrawOffered { .. } => Some(e.game),
        _ => None,
    });
    match (&reply.prompt, reply.ephemeral) {
        (Prompt::ChooseMove { .. }, _) | (_, false) => {
            components::rows_for(&reply.prompt, draw_offered_in, i18n, lang)
        }
        _ => Vec::new(),
    }
}

/// Whether `reply` is plain text for a channel, with nothing to show but
/// its words: several such replies can share a message.
pub fn is_plain(reply: &Reply) -> bool {
    !reply.ephemeral
        && !reply.direct
        && reply.board.is_none()
        && reply.attachments.is_empty()
        && reply.diagram.is_none()
        && reply.review.is_none()
        && reply.prompt.is_none()
        && !reply
            .events
            .iter()
            .any(|e| matches!(e.event, Event::DrawOffered { .. }))
}

fn game_embed(text: &str, board: &BoardView, image: Option<String>) -> Embed {
    let title = format!(
        "#{} · {} – {}",
        board.game,
        markdown::escape(&board.white),
        markdown::escape(&board.black)
    );
    let mut description = text.to_owned();
    if let Some(flag) = board.flag_at {
        // Discord shows this in each reader's own time zone, counting down.
        let unix = flag.timestamp();
        description.push_str(&format!("\n⏱ <t:{unix}:R> (<t:{unix}:f>)"));
    }
    Embed {
        title: Some(title),
        description: Some(description),
        image,
        colour: Some(GAME_COLOUR),
    }
}

/// A platform id that is a Discord user id.
pub fn user_id(text: &str) -> Option<UserId> {
    text.parse::<u64>()
        .ok()
        .filter(|id| *id != 0)
        .map(UserId::new)
}

/// `text` without the mention that starts it, if it starts with one.
fn without_mention(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("<@") else {
        return text;
    };
    match rest.split_once("> ") {
        Some((id, after)) if id.chars().all(|c| c.is_ascii_digit()) => after,
        _ => text,
    }
}

/// What stays of a long text in its message: its first line (a mention
/// kept whole) and the file holding all of it.
fn pointer(whole: &str, file: &str, i18n: &I18n, lang: Lang) -> String {
    let first_line = cut(whole.lines().next().unwrap_or_default(), FIRST_LINE);
    let note = i18n.text(lang, "discord-text-in-file", &[("file", file.into())]);
    format!("{first_line}\n{note}")
}

/// `text` cut to `max` characters, with an ellipsis when cut (for lines
/// whose whole text is shown elsewhere).
pub fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::{Attachment, GameEvent};
    use chrono::TimeZone;
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

    #[test]
    fn a_game_message_has_the_mention_embed_image_flag_and_buttons() {
        let out = Outgoing::from_reply(&reply(), &I18n::new(), Lang::En);
        let message = out.to_json(None);
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
        assert_eq!(message["attachments"][0]["filename"], "board.png");
        // Draw answers first, then the game's buttons.
        let rows = message["components"].as_array().unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0]["components"][0]["custom_id"], "draw-accept:3");
        assert_eq!(rows[1]["components"][2]["custom_id"], "resign:3");
        assert_eq!(message["allowed_mentions"]["users"][0], "20");
        assert_eq!(message["allowed_mentions"]["parse"], json!([]));
    }

    #[test]
    fn refusals_are_ephemeral_text_without_buttons_or_mention() {
        let mut refusal = reply();
        refusal.ephemeral = true;
        refusal.board = None;
        refusal.attachments.clear();
        let out = Outgoing::from_reply(&refusal, &I18n::new(), Lang::En);
        assert!(out.ephemeral && out.rows.is_empty() && out.mentions.is_empty());
        let Body::Json(response) = out.response_body() else {
            panic!("no files")
        };
        assert_eq!(response["type"], 4);
        assert_eq!(response["data"]["flags"], 64);
        assert_eq!(response["data"]["content"], "alice plays e4.");
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

    /// The fence and the mention are counted: a text that fits alone but
    /// not with its diagram goes into a file whole, fence included.
    #[test]
    fn a_fence_is_never_broken() {
        let mut board = reply();
        board.board = None;
        board.attachments.clear();
        board.text = "x".repeat(MAX_CONTENT - 30);
        board.diagram = Some("8 r n b q k b n r\n".repeat(8));
        let out = Outgoing::from_reply(&board, &I18n::new(), Lang::En);
        assert!(out.content.chars().count() <= MAX_CONTENT);
        assert_eq!(out.content.matches("```").count() % 2, 0, "{}", out.content);
        let file = out.files.iter().find(|f| f.name == TEXT_FILE).unwrap();
        let text = std::str::from_utf8(&file.bytes).unwrap();
        assert!(
            text.starts_with("<@20> xxx") && text.ends_with("```"),
            "{text}"
        );
    }

    #[test]
    fn a_long_embed_description_goes_whole_into_a_file() {
        let mut long = reply();
        long.text = format!("First line\n{}", "é".repeat(5000));
        let out = Outgoing::from_reply(&long, &I18n::new(), Lang::En);
        let description = out.embed.as_ref().unwrap().description.clone().unwrap();
        assert!(description.chars().count() <= MAX_DESCRIPTION);
        assert!(description.starts_with("First line\n"), "{description}");
        let file = out.files.iter().find(|f| f.name == TEXT_FILE).unwrap();
        assert!(
            std::str::from_utf8(&file.bytes)
                .unwrap()
                .contains(&"é".repeat(5000))
        );
        assert!(std::str::from_utf8(&file.bytes).unwrap().contains("<t:"));
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
        assert!(out.ephemeral && out.mentions.is_empty());
        let message = out.to_json(None);
        assert_eq!(message["flags"], 64);
        assert_eq!(
            message["components"][0]["components"][0]["custom_id"],
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
        let file = out.files.iter().find(|f| f.name == "message.txt");
        let whole = format!("<@20> {}", long.text);
        assert_eq!(file.map(|f| f.bytes.as_ref()), Some(whole.as_bytes()));

        // A text that is its own file (a PGN) points to it, once.
        long.to = None;
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
        assert_eq!(out.files[0].bytes.as_ref(), long.text.as_bytes());
    }
}
