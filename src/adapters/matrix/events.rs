//! Which timeline events the bot acts on, and what they ask.
//!
//! A room the bot has just joined arrives with a slice of its history
//! before the bot's own join; those messages were not meant for the bot and
//! are skipped. Everything after the join, or after the saved sync token, is
//! new. Only text messages (not notices), their edits, and reactions matter.

use matrix_sdk::ruma::events::room::message::{MessageFormat, MessageType, Relation};
use matrix_sdk::ruma::events::{AnySyncMessageLikeEvent, AnySyncTimelineEvent};
use matrix_sdk::ruma::serde::Raw;
use serde::Deserialize;

/// What one timeline event asks of the bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    /// A text message: its plain body and HTML body.
    Text {
        event_id: String,
        sender: String,
        body: String,
        html: Option<String>,
    },
    /// A reaction (`key`) on the event `target`.
    Reaction {
        event_id: String,
        sender: String,
        target: String,
        key: String,
    },
    /// An edit (`m.replace`) of the message `original`: its new text.
    Edit {
        event_id: String,
        sender: String,
        original: String,
        body: String,
        html: Option<String>,
    },
    /// An encrypted event the bot could not read.
    Unreadable { event_id: String, sender: String },
}

/// Just enough of an event to recognise the bot's own join.
#[derive(Deserialize)]
struct MemberProbe {
    #[serde(rename = "type")]
    kind: String,
    state_key: Option<String>,
    content: Option<Membership>,
    unsigned: Option<Unsigned>,
}

#[derive(Deserialize)]
struct Unsigned {
    prev_content: Option<Membership>,
}

#[derive(Deserialize)]
struct Membership {
    membership: Option<String>,
}

/// The index of the first event after the bot's latest join in `events`
/// (0 when the join is not among them: everything is new).
pub fn first_new_event<'a>(
    events: impl IntoIterator<Item = &'a Raw<AnySyncTimelineEvent>>,
    own_user: &str,
) -> usize {
    let mut first = 0;
    for (index, raw) in events.into_iter().enumerate() {
        if is_own_join(raw.json().get(), own_user) {
            first = index + 1;
        }
    }
    first
}

/// Whether `json` is `own_user` becoming a member (not a profile change).
fn is_own_join(json: &str, own_user: &str) -> bool {
    let Ok(probe) = serde_json::from_str::<MemberProbe>(json) else {
        return false;
    };
    let membership = |m: Option<Membership>| m.and_then(|m| m.membership);
    let was = membership(probe.unsigned.and_then(|u| u.prev_content));
    probe.kind == "m.room.member"
        && probe.state_key.as_deref() == Some(own_user)
        && membership(probe.content).as_deref() == Some("join")
        && was.as_deref() != Some("join")
}

/// What `raw` asks, or `None` for events the bot ignores.
pub fn read(raw: &Raw<AnySyncTimelineEvent>) -> Option<Incoming> {
    let event = raw.deserialize().ok()?;
    let AnySyncTimelineEvent::MessageLike(event) = event else {
        return None;
    };
    let event_id = event.event_id().to_string();
    let sender = event.sender().to_string();
    match event {
        AnySyncMessageLikeEvent::RoomMessage(message) => {
            let message = message.as_original()?;
            let html_of =
                |text: &matrix_sdk::ruma::events::room::message::TextMessageEventContent| {
                    text.formatted
                        .as_ref()
                        .filter(|f| f.format == MessageFormat::Html)
                        .map(|f| f.body.clone())
                };
            // An edit carries its new text in `m.new_content`; the service
            // decides whether it may act (a move cannot be taken back).
            if let Some(Relation::Replacement(replacement)) = &message.content.relates_to {
                let MessageType::Text(text) = &replacement.new_content.msgtype else {
                    return None;
                };
                return Some(Incoming::Edit {
                    event_id,
                    sender,
                    original: replacement.event_id.to_string(),
                    body: text.body.clone(),
                    html: html_of(text),
                });
            }
            let MessageType::Text(text) = &message.content.msgtype else {
                return None;
            };
            Some(Incoming::Text {
                event_id,
                sender,
                body: text.body.clone(),
                html: html_of(text),
            })
        }
        AnySyncMessageLikeEvent::Reaction(reaction) => {
            let reaction = reaction.as_original()?;
            let relation = &reaction.content.relates_to;
            Some(Incoming::Reaction {
                event_id,
                sender,
                target: relation.event_id.to_string(),
                key: relation.key.clone(),
            })
        }
        AnySyncMessageLikeEvent::RoomEncrypted(_) => {
            Some(Incoming::Unreadable { event_id, sender })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(json: serde_json::Value) -> Raw<AnySyncTimelineEvent> {
        Raw::from_json(serde_json::value::to_raw_value(&json).expect("json"))
    }

    fn text(id: &str, sender: &str, body: &str) -> Raw<AnySyncTimelineEvent> {
        raw(serde_json::json!({
            "type": "m.room.message", "event_id": id, "sender": sender,
            "origin_server_ts": 1, "content": {"msgtype": "m.text", "body": body}
        }))
    }

    fn member(user: &str, membership: &str, before: Option<&str>) -> Raw<AnySyncTimelineEvent> {
        let mut json = serde_json::json!({
            "type": "m.room.member", "event_id": format!("$m{membership}{user}"),
            "sender": user, "state_key": user, "origin_server_ts": 1,
            "content": {"membership": membership}
        });
        if let Some(before) = before {
            json["unsigned"] = serde_json::json!({"prev_content": {"membership": before}});
        }
        raw(json)
    }

    #[test]
    fn history_before_the_bots_join_is_skipped() {
        let bot = "@bot:localhost";
        let timeline = [
            text("$1", "@alice:localhost", "!chess help"),
            member(bot, "invite", None),
            text("$2", "@alice:localhost", "!chess help"),
            member(bot, "join", Some("invite")),
            text("$3", "@alice:localhost", "!chess games"),
        ];
        assert_eq!(first_new_event(&timeline, bot), 4);
        // Someone else joining, or the bot renaming itself, is not the bot's join.
        let later = [
            text("$4", "@alice:localhost", "!chess games"),
            member("@bob:localhost", "join", Some("invite")),
            member(bot, "join", Some("join")),
            text("$5", "@alice:localhost", "!chess games"),
        ];
        assert_eq!(first_new_event(&later, bot), 0);
        // A join without its previous state is still a join.
        assert_eq!(first_new_event(&[member(bot, "join", None)], bot), 1);
    }

    #[test]
    fn texts_edits_and_reactions_are_read_and_the_rest_ignored() {
        let message = read(&text("$1", "@alice:localhost", "!chess help")).expect("read");
        assert_eq!(
            message,
            Incoming::Text {
                event_id: "$1".into(),
                sender: "@alice:localhost".into(),
                body: "!chess help".into(),
                html: None
            }
        );
        let reaction = raw(serde_json::json!({
            "type": "m.reaction", "event_id": "$r", "sender": "@bob:localhost",
            "origin_server_ts": 1,
            "content": {"m.relates_to": {"rel_type": "m.annotation", "event_id": "$1", "key": "✅"}}
        }));
        assert_eq!(
            read(&reaction),
            Some(Incoming::Reaction {
                event_id: "$r".into(),
                sender: "@bob:localhost".into(),
                target: "$1".into(),
                key: "✅".into()
            })
        );
        let notice = raw(serde_json::json!({
            "type": "m.room.message", "event_id": "$n", "sender": "@bot:localhost",
            "origin_server_ts": 1, "content": {"msgtype": "m.notice", "body": "!chess help"}
        }));
        assert_eq!(read(&notice), None);
        let edit = raw(serde_json::json!({
            "type": "m.room.message", "event_id": "$e", "sender": "@alice:localhost",
            "origin_server_ts": 1, "content": {"msgtype": "m.text", "body": "* !move e5",
            "m.new_content": {"msgtype": "m.text", "body": "!move e5"},
            "m.relates_to": {"rel_type": "m.replace", "event_id": "$1"}}
        }));
        assert_eq!(
            read(&edit),
            Some(Incoming::Edit {
                event_id: "$e".into(),
                sender: "@alice:localhost".into(),
                original: "$1".into(),
                body: "!move e5".into(),
                html: None
            }),
            "an edit is read with its new text, for the service to judge"
        );
        assert_eq!(read(&member("@bot:localhost", "join", None)), None);
        assert_eq!(read(&raw(serde_json::json!({"garbage": true}))), None);
    }
}
