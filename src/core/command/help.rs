//! How a command is written, from its row: `/draw accept [game:N]`, in the
//! reader's language (French names and words for French readers), as text
//! or as Discord's path (`/play draw accept`). `/help` and the docs'
//! reference are made of these.

use super::table::{self, Home, Kind, Opt, Pos, Spec};
use crate::core::notation::Lang;

/// The rows from a top-level row down to one command: `[draw, accept]`.
pub type Path = Vec<&'static Spec>;

/// Every command that builds something, with its path, in table order.
pub fn commands() -> Vec<Path> {
    let mut out = Vec::new();
    for row in table::top_level() {
        collect(vec![row], &mut out);
    }
    out
}

fn collect(path: Path, out: &mut Vec<Path>) {
    let row = path[path.len() - 1];
    if row.subs.is_empty() {
        // Theme rows hold other rows and build nothing themselves.
        if row.home != Home::Top || table::top_level().all(|r| r.home != Home::In(row.name)) {
            out.push(path);
        }
        return;
    }
    for sub in row.subs {
        let mut longer = path.clone();
        longer.push(sub);
        collect(longer, out);
    }
}

/// The catalogue id describing the last row of `path`: the names of the
/// rows text types, after `cmd-` (`cmd-draw-accept` for `/play draw
/// accept`, `cmd-tournament-create`); options are `opt-<name>`, choices
/// `choice-<value>`.
pub fn description_id(path: &[&Spec]) -> String {
    let typed = path
        .iter()
        .rposition(|row| table::top_level().any(|top| std::ptr::eq(top, *row)))
        .unwrap_or(0);
    let names: Vec<&str> = path[typed..].iter().map(|row| row.name).collect();
    format!("cmd-{}", names.join("-"))
}

/// A row's name for the reader.
pub fn name(row: &Spec, lang: Lang) -> &'static str {
    match lang {
        Lang::Fr => row.fr,
        _ => row.name,
    }
}

/// The words that call `path`: `/draw accept`, or on Discord `/play draw accept`.
pub fn call(path: &[&Spec], lang: Lang, discord: bool) -> String {
    let mut words: Vec<&str> = path.iter().map(|row| name(row, lang)).collect();
    if let (true, Home::In(theme)) = (discord, path[0].home) {
        let theme = table::find(theme).map_or(theme, |row| name(row, lang));
        words.insert(0, theme);
    }
    format!("/{}", words.join(" "))
}

/// The whole usage: the call, then each option as it may be written.
pub fn usage(path: &[&Spec], lang: Lang, discord: bool) -> String {
    let row = path[path.len() - 1];
    let mut out = call(path, lang, discord);
    for opt in row.options {
        out.push(' ');
        out.push_str(&option_usage(opt, lang, discord));
    }
    out
}

/// `<move>`, `[game:N]`, `[color:white|black|random]`, `[offer_draw]`.
pub fn option_usage(opt: &Opt, lang: Lang, discord: bool) -> String {
    let key = match lang {
        Lang::Fr => opt.fr,
        _ => opt.name,
    };
    let value = match opt.kind {
        Kind::Text { .. } => "…".to_owned(),
        Kind::Number { .. } | Kind::Days { .. } | Kind::Challenge => "N".to_owned(),
        Kind::Bool if lang == Lang::Fr => "oui|non".to_owned(),
        Kind::Bool => "yes|no".to_owned(),
        Kind::User => "@…".to_owned(),
        Kind::Choice(choices) => {
            let word = |c: &table::Choice| if lang == Lang::Fr { c.fr } else { c.value };
            choices.iter().map(word).collect::<Vec<_>>().join("|")
        }
    };
    let written = match (opt.pos, discord, opt.kind) {
        (_, true, _) | (Pos::Key | Pos::Spaced, _, _) => format!("{key}:{value}"),
        (Pos::Flag, ..) => key.to_owned(),
        (Pos::Mention, ..) => format!("@{key}"),
        (Pos::Hashed, ..) => "#N".to_owned(),
        (_, _, Kind::Choice(_)) => value,
        _ => format!("<{key}>"),
    };
    match opt.required {
        true => written,
        false => format!("[{written}]"),
    }
}

/// Rewrites each command hint in a message (`/accept`: a word that starts
/// with `/` and names a command) as `call(row, word)` says, for platforms
/// that call commands otherwise (`!chess accept`, `/play accept`).
pub fn rewrite_calls(text: &str, call: impl Fn(&'static Spec, &str) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some((before, after_slash)) = rest.split_once('/') {
        out.push_str(before);
        let starts_word = out
            .chars()
            .last()
            .is_none_or(|c| c.is_whitespace() || c == '(' || c == '«');
        // The name is the ASCII letters and digits after the slash; the rest
        // (any text, a user's name included) is copied as it is.
        let after_name = after_slash.trim_start_matches(|c: char| c.is_ascii_alphanumeric());
        let name = after_slash.strip_suffix(after_name).unwrap_or_default();
        match table::find(name).filter(|_| starts_word) {
            Some(row) => out.push_str(&call(row, name)),
            None => {
                out.push('/');
                out.push_str(name);
            }
        }
        rest = after_name;
    }
    out.push_str(rest);
    out
}

/// A hint as Discord calls it: `/accept` → `/play accept` (`/accepter` →
/// `/jouer accepter`).
pub fn discord_call(row: &'static Spec, word: &str) -> String {
    let lang = if word == row.fr && row.fr != row.name {
        Lang::Fr
    } else {
        Lang::En
    };
    call(&[row], lang, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usages_read_as_text_and_as_discord_paths() {
        let find = |words: &[&str]| -> Path {
            let mut path = vec![table::find(words[0]).expect("a row")];
            for word in &words[1..] {
                path.push(path[path.len() - 1].child(word).expect("a child"));
            }
            path
        };
        let cases = [
            (
                &["move"][..],
                Lang::En,
                false,
                "/move <move> [offer_draw] [game:N]",
            ),
            (
                &["move"],
                Lang::Fr,
                true,
                "/coup coup:… [proposer_nulle:oui|non] [partie:N]",
            ),
            (
                &["draw", "accept"],
                Lang::En,
                true,
                "/play draw accept [game:N]",
            ),
            (
                &["draw", "accept"],
                Lang::Fr,
                false,
                "/nulle accepter [partie:N]",
            ),
            (
                &["settings", "notify"],
                Lang::En,
                false,
                "/settings notify channel|direct|off",
            ),
            (&["record"], Lang::En, false, "/record @player [@opponent]"),
        ];
        for (words, lang, discord, expected) in cases {
            assert_eq!(usage(&find(words), lang, discord), expected, "{words:?}");
        }
        let hinted = rewrite_calls(
            "Type /accept, /nulle accepter or /tournament join.",
            discord_call,
        );
        assert_eq!(
            hinted,
            "Type /play accept, /jouer nulle accepter or /tournament join."
        );
        // Every command is listed once, themes and groups only through theirs.
        let all = commands();
        assert!(
            all.iter()
                .any(|p| call(p, Lang::En, false) == "/tournament create")
        );
        assert!(!all.iter().any(|p| call(p, Lang::En, false) == "/play"));
    }
}
