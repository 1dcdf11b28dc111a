//! Many plain replies for one channel as few messages.
//!
//! One act may say many things in one channel (a tournament's start: a
//! message per round and per player), and many notices may fall due
//! together there (the reminders of a tournament's games). Posted one by
//! one they would take minutes under Discord's limits (about five messages
//! per few seconds per channel or interaction). So plain replies (text
//! only: no board, file or button) that go to one place are packed into
//! messages of at most 2,000 characters and 100 pings, in order, each
//! reply whole; when that would still take more than [`MAX_SPLIT`]
//! messages, they become one message whose content pings everyone
//! addressed and points to a text file holding every reply whole (a reply
//! addressed to someone under their name).

use serenity::all::UserId;

use super::replies::{MAX_CONTENT, MAX_MENTIONS, Outgoing, TEXT_FILE, cut};
use super::rest::FileOut;
use crate::core::notation::Lang;
use crate::i18n::I18n;

/// The most messages a run of replies is split into before it becomes a file.
pub const MAX_SPLIT: usize = 4;
/// How much of the first reply's first line a file's message shows.
const FIRST_LINE: usize = 300;

/// One reply of a run: its text, and whom it addresses (with their name).
#[derive(Clone, Debug)]
pub struct Part {
    pub text: String,
    pub to: Option<UserId>,
    pub name: Option<String>,
}

impl Part {
    /// The reply as a line of a message: its mention first.
    fn line(&self) -> String {
        match self.to {
            Some(id) => format!("<@{id}> {}", self.text),
            None => self.text.clone(),
        }
    }
}

/// The messages that show `parts`, in order; each part whole in one of them.
pub fn digest(parts: &[Part], i18n: &I18n, lang: Lang) -> Vec<Outgoing> {
    match packed(parts) {
        Some(messages) => messages,
        None => in_a_file(parts, i18n, lang),
    }
}

/// The parts packed into at most [`MAX_SPLIT`] messages, if they fit.
fn packed(parts: &[Part]) -> Option<Vec<Outgoing>> {
    let mut messages: Vec<Outgoing> = Vec::new();
    for part in parts {
        let line = part.line();
        if line.chars().count() > MAX_CONTENT {
            return None;
        }
        let fits = messages.last().is_some_and(|last| {
            let length = last.content.chars().count() + 1 + line.chars().count();
            let pings = last.mentions.len() + usize::from(part.to.is_some());
            length <= MAX_CONTENT && pings <= MAX_MENTIONS
        });
        if fits {
            let last = messages.last_mut()?;
            last.content.push('\n');
            last.content.push_str(&line);
            last.mentions.extend(part.to);
        } else {
            if messages.len() == MAX_SPLIT {
                return None;
            }
            let mut message = Outgoing::text(&line);
            message.mentions.extend(part.to);
            messages.push(message);
        }
    }
    Some(messages)
}

/// One message pointing to a file of every part, then as many messages of
/// pings as the people addressed need.
fn in_a_file(parts: &[Part], i18n: &I18n, lang: Lang) -> Vec<Outgoing> {
    let sections: Vec<String> = parts
        .iter()
        .map(|part| match (&part.to, &part.name) {
            (Some(_), Some(name)) => format!("@{name}\n{}", part.text),
            (Some(id), None) => format!("@{id}\n{}", part.text),
            _ => part.text.clone(),
        })
        .collect();
    let whole = sections.join("\n\n");
    let first = parts
        .first()
        .and_then(|p| p.text.lines().next())
        .unwrap_or_default();
    let note = i18n.text(lang, "discord-text-in-file", &[("file", TEXT_FILE.into())]);
    let mut lead = Outgoing::text(&format!("{}\n{note}", cut(first, FIRST_LINE)));
    lead.files.push(FileOut {
        name: TEXT_FILE.to_owned(),
        content_type: "text/plain; charset=utf-8".to_owned(),
        bytes: whole.as_bytes().into(),
    });
    let mut addressed: Vec<UserId> = Vec::new();
    for id in parts.iter().filter_map(|p| p.to) {
        if !addressed.contains(&id) {
            addressed.push(id);
        }
    }
    let mut messages = vec![lead];
    for id in addressed {
        let ping = format!("<@{id}>");
        let last = messages.last_mut().expect("the lead message");
        let fits = last.content.chars().count() + 1 + ping.chars().count() <= MAX_CONTENT
            && last.mentions.len() < MAX_MENTIONS;
        if fits {
            last.content
                .push(if last.mentions.is_empty() { '\n' } else { ' ' });
            last.content.push_str(&ping);
            last.mentions.push(id);
        } else {
            let mut more = Outgoing::text(&ping);
            more.mentions.push(id);
            messages.push(more);
        }
    }
    messages
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(text: &str, to: Option<u64>) -> Part {
        Part {
            text: text.to_owned(),
            to: to.map(UserId::new),
            name: to.map(|id| format!("player{id}")),
        }
    }

    #[test]
    fn short_replies_share_one_message_in_order() {
        let parts = [
            part("one", None),
            part("two", Some(7)),
            part("three", Some(8)),
        ];
        let messages = digest(&parts, &I18n::new(), Lang::En);
        assert_eq!(messages.len(), 1);
        assert_eq!(messages[0].content, "one\n<@7> two\n<@8> three");
        assert_eq!(messages[0].mentions, [UserId::new(7), UserId::new(8)]);
    }

    #[test]
    fn messages_split_at_discord_s_limits_each_reply_whole() {
        let line = "x".repeat(900);
        let parts: Vec<Part> = (0..5).map(|n| part(&line, Some(n + 1))).collect();
        let messages = digest(&parts, &I18n::new(), Lang::En);
        assert_eq!(messages.len(), 3, "two replies of ~900 per message");
        for message in &messages {
            assert!(message.content.chars().count() <= MAX_CONTENT);
        }
        let pings: Vec<Part> = (0..150).map(|n| part("hi", Some(n + 1))).collect();
        let messages = digest(&pings, &I18n::new(), Lang::En);
        assert!(messages.iter().all(|m| m.mentions.len() <= MAX_MENTIONS));
        assert_eq!(
            messages.iter().map(|m| m.mentions.len()).sum::<usize>(),
            150
        );
    }

    #[test]
    fn a_burst_becomes_one_file_and_pings_everyone() {
        // A 64-player start: a long line per round, a list per player.
        let round = "Tournament #1, round 1: game #1, a (White) – b (Black).\n".repeat(32);
        let mut parts = vec![part("Tournament 1 has started with 64 players.", None)];
        parts.extend((0..63).map(|_| part(&round, None)));
        parts.extend((1..=64).map(|n| part(&format!("Your games:\n{round}"), Some(n))));
        let messages = digest(&parts, &I18n::new(), Lang::En);
        assert_eq!(messages.len(), 1, "64 pings fit one message");
        let lead = &messages[0];
        assert!(lead.content.starts_with("Tournament 1 has started"));
        assert!(lead.content.contains(TEXT_FILE), "{}", lead.content);
        assert_eq!(lead.mentions.len(), 64);
        assert!(lead.content.chars().count() <= MAX_CONTENT);
        let file = std::str::from_utf8(&lead.files[0].bytes).unwrap();
        assert_eq!(file.matches("round 1: game #1").count(), 63 * 32 + 64 * 32);
        assert!(file.contains("@player64\nYour games:"));
        // Past 100 people, the pings go on in messages of their own.
        let many: Vec<Part> = (1..=250).map(|n| part(&round, Some(n))).collect();
        let messages = digest(&many, &I18n::new(), Lang::En);
        assert_eq!(
            messages.iter().map(|m| m.mentions.len()).sum::<usize>(),
            250
        );
        assert!(
            messages
                .iter()
                .all(|m| m.mentions.len() <= MAX_MENTIONS
                    && m.content.chars().count() <= MAX_CONTENT)
        );
    }
}
