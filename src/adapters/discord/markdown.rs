//! Discord markdown: the service's text shown literally.
//!
//! The service writes plain text, and names typed by users (tournaments,
//! teams, players, PGN records, notes) are part of it, so the whole of a
//! reply's text is escaped ([`escape`]); the markup Discord must act on
//! (the addressee's `<@id>`, fenced diagrams, `<t:…>` timestamps) is added
//! by the adapter afterwards, never escaped.

/// Characters that format text wherever they stand: emphasis, strike,
/// spoilers, code, masked links (`[x](url)` needs its brackets), the tags
/// of mentions, channels, roles, timestamps, commands and custom emoji
/// (`<@1>`, `<#1>`, `<@&1>`, `<t:1>`, `</cmd:1>`, `<:e:1>`), and the
/// backslash itself. Parentheses alone make no link, so they stay as typed.
const INLINE: &[char] = &['\\', '*', '_', '~', '|', '`', '[', ']', '<'];

/// Characters that format a line when they start it: headings and subtext
/// (`#`, `-#`), quotes (`>`, `>>>`), lists (`-`, `*`, `+`).
const LINE_START: &[char] = &['#', '>', '-', '+'];

/// The zero-width space that keeps `@everyone` and `@here` from being a
/// mention (readers see the same words).
const MENTION_BREAK: char = '\u{200B}';

/// `text` as Discord markdown that shows it literally: every character
/// that could format is escaped with a backslash, and mass mentions are
/// broken, so a name like `[Free Nitro](https://evil.example) ||x||` shows
/// as typed.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for (n, line) in text.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        escape_line(line, &mut out);
    }
    out
}

fn escape_line(line: &str, out: &mut String) {
    let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
    let (lead, body) = line.split_at(indent);
    out.push_str(lead);
    if body.starts_with(LINE_START) {
        out.push('\\');
    }
    // `1. ` starts a numbered list: its dot is escaped.
    let after_digits = body.trim_start_matches(|c: char| c.is_ascii_digit());
    let digits = body.len() - after_digits.len();
    let numbered = digits > 0 && after_digits.starts_with(". ");
    for (i, c) in body.char_indices() {
        if INLINE.contains(&c) || (numbered && i == digits) {
            out.push('\\');
        }
        out.push(c);
        if c == '@' && is_mass_mention(&body[i + 1..]) {
            out.push(MENTION_BREAK);
        }
    }
}

/// Whether the text after an `@` makes it `@everyone` or `@here`.
fn is_mass_mention(after_at: &str) -> bool {
    ["everyone", "here"].iter().any(|word| {
        after_at
            .get(..word.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(word))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hostile names of issue 42, and what Discord must be sent for
    /// each to show as typed.
    const HOSTILE: &[(&str, &str)] = &[
        ("[x](https://evil.example)", "\\[x\\](https://evil.example)"),
        (
            "[Free Nitro](https://evil.example) @everyone ||x||",
            "\\[Free Nitro\\](https://evil.example) @\u{200B}everyone \\|\\|x\\|\\|",
        ),
        ("||x||", "\\|\\|x\\|\\|"),
        ("@everyone", "@\u{200B}everyone"),
        ("@here now", "@\u{200B}here now"),
        ("@Everyone", "@\u{200B}Everyone"),
        ("<@&1234>", "\\<@&1234>"),
        ("<@1>", "\\<@1>"),
        ("<#55>", "\\<#55>"),
        ("<t:0:R>", "\\<t:0:R>"),
        ("</move:123>", "\\</move:123>"),
        ("**bold**", "\\*\\*bold\\*\\*"),
        (
            "__under__ ~~strike~~",
            "\\_\\_under\\_\\_ \\~\\~strike\\~\\~",
        ),
        ("`code`", "\\`code\\`"),
        ("```rust", "\\`\\`\\`rust"),
        ("> quote", "\\> quote"),
        (">>> quote", "\\>>> quote"),
        ("# heading", "\\# heading"),
        ("-# small", "\\-# small"),
        ("- item", "\\- item"),
        ("+ item", "\\+ item"),
        ("* item", "\\* item"),
        ("1. first", "1\\. first"),
        ("  # indented", "  \\# indented"),
        ("a\n# second line", "a\n\\# second line"),
        ("back\\slash", "back\\\\slash"),
        ("<b>x</b>", "\\<b>x\\</b>"),
        (
            "<a href=\"https://evil.example\">x</a>",
            "\\<a href=\"https://evil.example\">x\\</a>",
        ),
        ("&amp;", "&amp;"),
        ("@room", "@room"),
        ("evil\u{202E}txt", "evil\u{202E}txt"),
        ("Jean-Paul #1 (2 pts) 1-0", "Jean-Paul #1 (2 pts) 1-0"),
        ("alice@example.org", "alice@example.org"),
    ];

    #[test]
    fn hostile_names_are_escaped() {
        for &(name, escaped) in HOSTILE {
            assert_eq!(escape(name), escaped, "{name:?}");
        }
    }

    /// Whatever is escaped, no markup survives: every formatting character
    /// is preceded by an odd number of backslashes.
    #[test]
    fn no_formatting_character_is_left_bare() {
        for &(name, _) in HOSTILE {
            let escaped = escape(name);
            let chars: Vec<char> = escaped.chars().collect();
            for (i, c) in chars.iter().enumerate() {
                if INLINE.contains(c) && *c != '\\' {
                    let slashes = chars[..i].iter().rev().take_while(|&&b| b == '\\').count();
                    assert_eq!(slashes % 2, 1, "{name:?} -> {escaped:?}");
                }
            }
        }
    }
}
