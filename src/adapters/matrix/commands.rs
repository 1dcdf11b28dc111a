//! Message text to command text, and command hints back to Matrix syntax.
//!
//! A command is a text message that starts with the prefix (`!chess move
//! e4`), or the `!move e4` shortcut. What follows the prefix is the console's
//! command language, parsed by [`crate::core::command::parse`]. Pills (links
//! to `https://matrix.to/#/@user:server`) stand for their user id, so a
//! challenge written with a client's mention picker names the right user.

use crate::core::command;

/// The mark of the shortcut that plays a move without the prefix (`!move e4`).
const SHORTCUT: char = '!';

/// How much of a message is read: a command longer than this is cut here,
/// and the parser, whose limit is shorter, then answers that it is too long.
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// The command text in a message body, or `None` when the message is not
/// addressed to the bot. A bare prefix asks for help.
pub fn command_text(body: &str, prefix: &str) -> Option<String> {
    // Whole characters only, and never more than the bound of them.
    let mut read = String::new();
    for c in body.chars() {
        if read.len() + c.len_utf8() > MAX_MESSAGE_BYTES {
            break;
        }
        read.push(c);
    }
    let body = strip_reply_fallback(&read).trim();
    if let Some(rest) = strip_word(body, prefix) {
        let rest = rest.trim();
        return Some(if rest.is_empty() {
            command::HELP.to_owned()
        } else {
            rest.to_owned()
        });
    }
    let rest = strip_word(body.strip_prefix(SHORTCUT)?, command::MOVE)?;
    Some(format!("{} {}", command::MOVE, rest.trim()))
}

/// `rest` when `text` starts with `word` (ASCII case-insensitive) followed by
/// whitespace or nothing.
fn strip_word<'a>(text: &'a str, word: &str) -> Option<&'a str> {
    // Compared character by character: the body is untrusted and the prefix
    // may be non-ASCII (`!échecs`), so no byte offset is taken from either.
    let mut chars = text.chars();
    for expected in word.chars() {
        if !chars.next()?.eq_ignore_ascii_case(&expected) {
            return None;
        }
    }
    let rest = chars.as_str();
    let ends = rest.is_empty() || rest.starts_with(char::is_whitespace);
    ends.then_some(rest)
}

/// Drops the `> quoted` lines some clients put before a reply's own text.
fn strip_reply_fallback(body: &str) -> &str {
    if !body.starts_with("> ") {
        return body;
    }
    let mut rest = body;
    while rest.starts_with('>') {
        rest = rest.split_once('\n').map_or("", |(_, tail)| tail);
    }
    rest
}

/// Replaces the display names of pills in `body` by the user ids they link
/// to, read from the message's HTML.
pub fn resolve_pills(body: &str, html: Option<&str>) -> String {
    let mut body = body.to_owned();
    let Some(html) = html else { return body };
    for (user_id, label) in pills(html) {
        if label == user_id || label.is_empty() {
            continue;
        }
        body = body.replacen(&label, &user_id, 1);
    }
    body
}

/// `(user id, link text)` of each `<a href="https://matrix.to/#/@...">` in `html`.
fn pills(html: &str) -> Vec<(String, String)> {
    const LINK: &str = "href=\"https://matrix.to/#/";
    let mut found = Vec::new();
    let mut rest = html;
    while let Some((_, link)) = rest.split_once(LINK) {
        let Some((target, tail)) = link.split_once('"') else {
            break;
        };
        let target = percent_decode(target);
        rest = tail;
        let label = rest
            .split_once('>')
            .and_then(|(_, tail)| tail.split_once("</a>"))
            .map(|(label, _)| unescape_html(label.trim()));
        if let (true, Some(label)) = (target.starts_with('@'), label) {
            found.push((target, label));
        }
    }
    found
}

/// `%40` → `@` and friends: matrix.to links may percent-encode the id.
fn percent_decode(text: &str) -> String {
    let hex = |digit: &u8| char::from(*digit).to_digit(16);
    let mut out = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let [first, tail @ ..] = rest {
        let escaped = match (first, tail) {
            (b'%', [high, low, more @ ..]) => hex(high).zip(hex(low)).map(|hl| (hl, more)),
            _ => None,
        };
        rest = match escaped {
            Some(((high, low), more)) => {
                // Two hex digits: at most 0xff, so the cast never truncates.
                out.push((high * 16 + low) as u8);
                more
            }
            None => {
                out.push(*first);
                tail
            }
        };
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn unescape_html(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Rewrites the service's `/accept`-style hints into this room's syntax
/// (`!chess accept`), since Matrix clients keep `/` for their own commands.
pub fn matrix_hints(text: &str, prefix: &str) -> String {
    command::help::rewrite_calls(text, |_, word| format!("{prefix} {word}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_become_command_text() {
        let cases = [
            ("!chess move e4", Some("move e4")),
            (
                "  !chess   challenge @bob:localhost  ",
                Some("challenge @bob:localhost"),
            ),
            ("!CHESS draw accept", Some("draw accept")),
            ("!chess", Some("help")),
            ("!move e4", Some("move e4")),
            ("!move  Nf3 offer_draw", Some("move Nf3 offer_draw")),
            ("!chessmove e4", None),
            ("!movee4", None),
            ("hello !chess move e4", None),
            ("e4", None),
            ("", None),
            ("> <@bob:localhost> e4?\n\n!chess move e5", Some("move e5")),
        ];
        for (body, expected) in cases {
            assert_eq!(
                command_text(body, "!chess").as_deref(),
                expected,
                "{body:?}"
            );
        }
        assert_eq!(
            command_text("!echecs coup e4", "!echecs").as_deref(),
            Some("coup e4")
        );
        // A command longer than a message is read is cut, and then too
        // long for the parser, which says so; other long messages are not commands.
        let long = format!("!chess move {}", "é".repeat(MAX_MESSAGE_BYTES));
        let cut = command_text(&long, "!chess").expect("a command");
        assert!(cut.len() < MAX_MESSAGE_BYTES, "{}", cut.len());
        assert_eq!(command::parse(&cut).map_err(|e| e.kind()), Err("too_long"));
        assert_eq!(command_text(&"a".repeat(10_000), "!chess"), None);
        // Non-ASCII bodies and prefixes never split a character.
        assert_eq!(command_text("é!chess", "!chess"), None);
        assert_eq!(command_text("éé", "!chess"), None);
        assert_eq!(command_text("!chesé", "!chess"), None);
        assert_eq!(
            command_text("!chess\u{a0}moves", "!chess"),
            Some("moves".to_owned())
        );
        assert_eq!(command_text("!move é", "!chess"), Some("move é".to_owned()));
        assert_eq!(command_text("!ÉCHECS coup", "!échecs"), None);
        assert_eq!(
            command_text("!échecs coup", "!échecs").as_deref(),
            Some("coup")
        );
        assert_eq!(command_text("!é", "!échecs"), None);
    }

    #[test]
    fn chess960_challenges_parse_in_both_languages() {
        use crate::core::command::{ChallengeCommand, Command};
        use crate::core::variant::Variant;
        for (body, prefix) in [
            (
                "!chess challenge @bob:localhost variant:chess960 start:12",
                "!chess",
            ),
            (
                "!échecs défi @bob:localhost variante:960 depart:12",
                "!échecs",
            ),
            ("!chess challenge @bob:localhost start:12", "!chess"),
        ] {
            let text = command_text(body, prefix).expect("a command");
            let Ok(Command::Challenge(ChallengeCommand::Offer(wish))) = command::parse(&text)
            else {
                panic!("{body}: a challenge");
            };
            assert_eq!(
                (wish.variant, wish.start),
                (Variant::Chess960, Some(12)),
                "{body}"
            );
        }
    }

    #[test]
    fn pills_name_their_user() {
        let html =
            r#"!chess challenge <a href="https://matrix.to/#/@bob:localhost">Bob &amp; co</a>"#;
        assert_eq!(
            resolve_pills("!chess challenge Bob & co", Some(html)),
            "!chess challenge @bob:localhost"
        );
        let encoded = r#"<a href="https://matrix.to/#/%40bob%3Alocalhost">Bob</a>"#;
        assert_eq!(
            resolve_pills("!chess challenge Bob", Some(encoded)),
            "!chess challenge @bob:localhost"
        );
        // Room links and plain bodies are left alone.
        let room = r##"<a href="https://matrix.to/#/#chess:localhost">chess</a>"##;
        assert_eq!(resolve_pills("see chess", Some(room)), "see chess");
        assert_eq!(resolve_pills("!chess games", None), "!chess games");
        assert_eq!(
            resolve_pills("x", Some(r#"<a href="https://matrix.to/#/@"#)),
            "x"
        );
        // Bad escapes and multi-byte text around them stay as they are.
        for (target, decoded) in [
            ("%40bob%3", "@bob%3"),
            ("%40bob%", "@bob%"),
            ("%40b%C3%A9b", "@béb"),
            ("%40b%+1b", "@b%+1b"),
            ("%40é%", "@é%"),
        ] {
            assert_eq!(percent_decode(target), decoded, "{target}");
        }
    }

    #[test]
    fn slash_hints_use_the_prefix() {
        let cases = [
            (
                "Alice challenges Bob (#3): /accept or /decline.",
                "Alice challenges Bob (#3): !chess accept or !chess decline.",
            ),
            (
                "Bob: /draw accept or /draw decline.",
                "Bob: !chess draw accept or !chess draw decline.",
            ),
            ("1/2-1/2 and e4/d4", "1/2-1/2 and e4/d4"),
            ("/unknown stays", "/unknown stays"),
            ("trailing /", "trailing /"),
            ("é/é /accept/é", "é/é !chess accept/é"),
            ("Zoé (/draw) ♟/moves", "Zoé (!chess draw) ♟/moves"),
            (
                "Join with /tournament join id:2, or /ladder join.",
                "Join with !chess tournament join id:2, or !chess ladder join.",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(matrix_hints(text, "!chess"), expected, "{text}");
        }
    }
}
