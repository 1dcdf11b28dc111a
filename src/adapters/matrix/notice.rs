//! A [`Reply`] as the text of an `m.notice`: plain body, HTML, and the user
//! it mentions (an intentional mention with a pill link).

use crate::service::{Attachment, Reply};

use super::choices::numbered_lines;
use super::commands::matrix_hints;
use super::ids::mxid_of;

/// The parts of one notice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub body: String,
    pub html: String,
    /// The user to mention (`@bob:example.org`), listed in `m.mentions`.
    pub mention: Option<String>,
}

/// The notice for `reply`; `name_of_to` is the addressed user's display name
/// in the room, when known.
pub fn notice_for(reply: &Reply, name_of_to: Option<&str>, prefix: &str) -> Notice {
    let mut text = quiet_room_mentions(&matrix_hints(&reply.text, prefix));
    if let Some(lines) = numbered_lines(&reply.prompt, prefix) {
        text.push('\n');
        text.push_str(&lines);
    }
    let mut html_text = text_to_html(&text);
    if let Some(diagram) = &reply.diagram {
        text.push('\n');
        text.push_str(diagram);
        html_text.push_str(&format!("<pre><code>{}</code></pre>", escape_html(diagram)));
    }
    // A direct message needs no mention: it is already the reader's own room.
    let mention = reply.to.as_deref().filter(|_| !reply.direct).map(mxid_of);
    match &mention {
        None => Notice {
            body: text,
            html: html_text,
            mention: None,
        },
        Some(user_id) => {
            let name = quiet_room_mentions(name_of_to.unwrap_or(user_id));
            Notice {
                body: format!("{name}: {text}"),
                html: format!(
                    "<a href=\"https://matrix.to/#/{}\">{}</a>: {html_text}",
                    escape_html(user_id),
                    escape_html(&name)
                ),
                mention,
            }
        }
    }
}

/// The most a notice's body and HTML may take together: Synapse refuses an
/// event over 64 KiB, and the JSON around them (escapes, mentions) needs room.
pub const MAX_NOTICE_BYTES: usize = 48 * 1024;

/// A notice too long for one event becomes its first line and a pointer to
/// a `reply.txt` file that holds the whole text; others are left as they are.
pub fn fit_notice(notice: Notice) -> (Notice, Option<Attachment>) {
    if notice.body.len() + notice.html.len() <= MAX_NOTICE_BYTES {
        return (notice, None);
    }
    let first_line: String = notice
        .body
        .lines()
        .next()
        .unwrap_or_default()
        .chars()
        .take(200)
        .collect();
    let short = format!("{first_line} … (📎 reply.txt)");
    let file = Attachment {
        filename: "reply.txt".to_owned(),
        content_type: "text/plain; charset=utf-8".to_owned(),
        bytes: notice.body.clone().into_bytes().into(),
    };
    let notice = Notice {
        html: escape_html(&short),
        body: short,
        mention: notice.mention,
    };
    (notice, Some(file))
}

/// Escaped text; several lines (diagrams, lists) keep their layout in `<pre>`.
fn text_to_html(text: &str) -> String {
    match text.split_once('\n') {
        None => escape_html(text),
        Some((first, rest)) => format!(
            "{}<pre><code>{}</code></pre>",
            escape_html(first),
            escape_html(rest)
        ),
    }
}

/// `text` with `@room` kept from notifying the room: a word joiner after
/// the `@` (readers see the same words). Every notice also declares its
/// mentions (`m.mentions`), which turns off the body-matching push rules on
/// servers that know them; this is for the others, and for clients that
/// highlight `@room` themselves. The service's own words never say `@room`:
/// only a name can.
fn quiet_room_mentions(text: &str) -> String {
    text.replace("@room", "@\u{2060}room")
}

/// `text` as HTML that shows it literally (tags, entities and quotes
/// escaped): the only escaping of Matrix's `formatted_body`.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(text: &str, to: Option<&str>, direct: bool) -> Reply {
        Reply {
            channel: "!room:localhost".into(),
            to: to.map(str::to_owned),
            direct,
            text: text.into(),
            prompt: Default::default(),
            ..Reply::default()
        }
    }

    #[test]
    fn the_addressed_player_gets_a_pill_and_a_mention() {
        let notice = notice_for(
            &reply("Your move <now> /move", Some("bob:localhost"), false),
            Some("Bob"),
            "!chess",
        );
        assert_eq!(notice.mention.as_deref(), Some("@bob:localhost"));
        assert_eq!(notice.body, "Bob: Your move <now> !chess move");
        assert_eq!(
            notice.html,
            "<a href=\"https://matrix.to/#/@bob:localhost\">Bob</a>: Your move &lt;now&gt; !chess move"
        );
    }

    #[test]
    fn plain_and_direct_replies_mention_nobody() {
        let plain = notice_for(&reply("Hello", None, false), None, "!chess");
        assert_eq!(plain.mention, None);
        assert_eq!(plain.html, "Hello");
        let direct = notice_for(&reply("Hi", Some("bob:localhost"), true), None, "!chess");
        assert_eq!(direct.mention, None);
        assert_eq!(direct.body, "Hi");
    }

    #[test]
    fn a_diagram_comes_after_the_text_in_a_fixed_width_block() {
        let mut board = reply("Game #1: alice – bob", None, false);
        board.diagram = Some("8 r n\n  a b".to_owned());
        let notice = notice_for(&board, None, "!c");
        assert_eq!(notice.body, "Game #1: alice – bob\n8 r n\n  a b");
        assert_eq!(
            notice.html,
            "Game #1: alice – bob<pre><code>8 r n\n  a b</code></pre>"
        );
    }

    #[test]
    fn a_notice_over_the_event_limit_comes_as_a_file() {
        let games: String = (1..=5000)
            .map(|n| format!("#{n} alice – bob, bob to move\n"))
            .collect();
        let long = notice_for(&reply(&games, Some("bob:localhost"), false), None, "!c");
        let (short, file) = fit_notice(long.clone());
        let file = file.expect("a file");
        assert_eq!(&*file.bytes, long.body.as_bytes(), "the whole text");
        assert!(short.body.len() + short.html.len() < 1024, "{short:?}");
        assert_eq!(short.mention, long.mention, "still addressed");
        let small = notice_for(&reply("hi", None, false), None, "!c");
        assert_eq!(fit_notice(small.clone()), (small, None));
    }

    /// The hostile names of issue 42 in a reply's text and as the
    /// addressee's display name: the body keeps them as typed (it is plain
    /// text), the HTML shows them escaped, and `@room` notifies nobody.
    #[test]
    fn hostile_names_show_literally() {
        const HOSTILE: &[(&str, &str)] = &[
            ("[x](https://evil.example)", "[x](https://evil.example)"),
            ("||x|| **bold** `code`", "||x|| **bold** `code`"),
            (
                "@everyone @here <@&1234> <@1>",
                "@everyone @here &lt;@&amp;1234&gt; &lt;@1&gt;",
            ),
            ("> quote", "&gt; quote"),
            ("# heading", "# heading"),
            ("<b>x</b>", "&lt;b&gt;x&lt;/b&gt;"),
            (
                "<a href=\"https://evil.example\">x</a>",
                "&lt;a href=&quot;https://evil.example&quot;&gt;x&lt;/a&gt;",
            ),
            ("&amp;", "&amp;amp;"),
            ("it's", "it&#39;s"),
            ("@room", "@\u{2060}room"),
        ];
        for &(name, html) in HOSTILE {
            let text = format!("Tournament “{name}” starts.");
            let notice = notice_for(&reply(&text, None, false), None, "!c");
            assert_eq!(
                notice.body,
                text.replace("@room", "@\u{2060}room"),
                "{name:?}"
            );
            assert_eq!(
                notice.html,
                format!("Tournament “{html}” starts."),
                "{name:?}"
            );
            let addressed = notice_for(&reply("x", Some("bob:localhost"), false), Some(name), "!c");
            assert!(
                addressed.html.ends_with(&format!(">{html}</a>: x")),
                "{name:?}: {}",
                addressed.html
            );
            assert_eq!(addressed.mention.as_deref(), Some("@bob:localhost"));
        }
    }

    #[test]
    fn several_lines_keep_their_layout() {
        let notice = notice_for(&reply("Board:\n r n\n & b", None, false), None, "!c");
        assert_eq!(notice.html, "Board:<pre><code> r n\n &amp; b</code></pre>");
        // Without a display name, the id stands in.
        let unnamed = notice_for(&reply("x", Some("@bob:localhost"), false), None, "!c");
        assert_eq!(unnamed.body, "@bob:localhost: x");
    }
}
