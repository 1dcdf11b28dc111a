//! Characters that hide or reorder text: controls, bidirectional overrides
//! and isolates, zero-width characters. In a name the bot repeats they
//! make it lie about what it says (`\u{202E}` turns the rest of a line
//! around; a zero-width space makes two names look alike), and no escaping
//! of a platform's markup shows them. So names typed for the bot
//! (tournaments) are refused with them ([`check_name`]), and names the bot
//! cannot refuse (a platform's display name, a PGN record's players) lose
//! them ([`strip`]).

/// The first hidden character of a name, with its code point, to tell the
/// user which one to remove.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the name contains the hidden character U+{:04X}", u32::from(*.0))]
pub struct HiddenCharacter(pub char);

/// Whether `c` hides or reorders text rather than showing a glyph.
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c,
            // Line and paragraph separators: a line break by another name.
            '\u{2028}' | '\u{2029}'
            // Bidirectional marks, embeddings, overrides and isolates.
            | '\u{061C}' | '\u{200E}' | '\u{200F}'
            | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
            // Zero-width space, non-joiner, joiner; word joiner and the
            // invisible operators; the byte-order mark.
            | '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}'
            // Soft hyphen, combining grapheme joiner, Hangul fillers, the
            // Mongolian vowel separator: invisible alone.
            | '\u{00AD}' | '\u{034F}' | '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}'
            | '\u{180E}'
            // Interlinear annotations and tag characters.
            | '\u{FFF9}'..='\u{FFFB}' | '\u{E0000}'..='\u{E007F}'
        )
}

/// A name the bot may repeat as typed, or the first hidden character in it.
pub fn check_name(name: &str) -> Result<(), HiddenCharacter> {
    match name.chars().find(|&c| is_hidden(c)) {
        Some(c) => Err(HiddenCharacter(c)),
        None => Ok(()),
    }
}

/// `name` without its hidden characters, for names the bot cannot refuse.
pub fn strip(name: &str) -> String {
    name.chars().filter(|&c| !is_hidden(c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (name, the first hidden character, the name stripped).
    const CASES: &[(&str, Option<char>, &str)] = &[
        ("Spring Open", None, "Spring Open"),
        ("Élise d’Orléans", None, "Élise d’Orléans"),
        ("شطرنج", None, "شطرنج"),
        (
            "[x](https://evil.example) ||x|| @everyone",
            None,
            "[x](https://evil.example) ||x|| @everyone",
        ),
        ("👨‍👩‍👧", Some('\u{200D}'), "👨👩👧"),
        ("evil\u{202E}gnp.exe", Some('\u{202E}'), "evilgnp.exe"),
        ("a\u{2066}b\u{2069}", Some('\u{2066}'), "ab"),
        ("\u{200F}bob", Some('\u{200F}'), "bob"),
        ("al\u{200B}ice", Some('\u{200B}'), "alice"),
        ("bob\u{2060}", Some('\u{2060}'), "bob"),
        ("\u{FEFF}carol", Some('\u{FEFF}'), "carol"),
        ("two\nlines", Some('\n'), "twolines"),
        ("tab\tbed", Some('\t'), "tabbed"),
        ("bell\u{7}", Some('\u{7}'), "bell"),
        ("del\u{7F}", Some('\u{7F}'), "del"),
        ("c1\u{85}", Some('\u{85}'), "c1"),
        ("line\u{2028}sep", Some('\u{2028}'), "linesep"),
        ("soft\u{AD}hyphen", Some('\u{AD}'), "softhyphen"),
        ("\u{3164}", Some('\u{3164}'), ""),
        ("tag\u{E0041}", Some('\u{E0041}'), "tag"),
    ];

    #[test]
    fn hidden_characters_are_found_and_stripped() {
        for &(name, hidden, stripped) in CASES {
            assert_eq!(
                check_name(name).err(),
                hidden.map(HiddenCharacter),
                "{name:?}"
            );
            assert_eq!(strip(name), stripped, "{name:?}");
        }
    }

    #[test]
    fn the_refusal_names_the_code_point() {
        let error = check_name("x\u{202E}").expect_err("hidden");
        assert_eq!(
            error.to_string(),
            "the name contains the hidden character U+202E"
        );
    }
}
