//! `/help`, and the docs' command reference, written from the command
//! table: every command the bot knows is listed, as the reader's platform
//! calls it (`/draw accept` in text, `/play draw accept` on Discord), in
//! their language, with its description from the catalogues.

use super::{Context, Reply, Service};
use crate::core::command::help::{self, Path, call, description_id, option_usage, usage};
use crate::core::command::table::{self, Home, Kind, Spec};
use crate::core::notation::Lang;
use crate::core::platform::Platform;
use crate::i18n::{Arg, I18n};

impl Service {
    /// The overview, or one command's (or group's) usage and options.
    pub(super) fn help(&self, ctx: &Context, about: Option<&str>) -> Reply {
        let discord = ctx.platform == Platform::Discord;
        let text = match about {
            None => overview(&self.i18n, ctx.lang, discord),
            Some(words) => match lookup(words) {
                Some(path) => details(&self.i18n, ctx.lang, discord, &path),
                None => self.text(ctx, "help-unknown", &[("command", Arg::from(words))]),
            },
        };
        self.private(ctx, text)
    }
}

/// One line per Discord command (a theme, or a command of its own), then
/// the notes on time controls and notation.
fn overview(i18n: &I18n, lang: Lang, discord: bool) -> String {
    let mut lines = vec![i18n.text(lang, "help-header", &[])];
    for top in table::top_level().filter(|row| row.home == Home::Top) {
        let children: Vec<&Spec> = top.children().collect();
        let calls = match (children.is_empty(), discord) {
            (true, _) => usage(&[top], lang, discord),
            (false, true) => format!(
                "/{} {}",
                help::name(top, lang),
                names(&children, lang, " · ")
            ),
            (false, false) if top.subs.is_empty() => {
                let each = children
                    .iter()
                    .map(|child| format!("/{}{}", help::name(child, lang), sub_names(child, lang)));
                each.collect::<Vec<_>>().join(" · ")
            }
            (false, false) => {
                let own = format!(
                    "/{} {}",
                    help::name(top, lang),
                    names(&top.subs.iter().collect::<Vec<_>>(), lang, "|")
                );
                let homed = children[top.subs.len()..]
                    .iter()
                    .map(|child| format!("/{}{}", help::name(child, lang), sub_names(child, lang)));
                std::iter::once(own)
                    .chain(homed)
                    .collect::<Vec<_>>()
                    .join(" · ")
            }
        };
        let about = i18n.text(lang, &description_id(&[top]), &[]);
        lines.push(line(i18n, lang, about, calls));
    }
    lines.push(i18n.text(lang, "help-notes", &[]));
    lines.join("\n")
}

/// `what: about`, punctuated for the reader's language.
fn line(i18n: &I18n, lang: Lang, what: String, about: String) -> String {
    i18n.text(
        lang,
        "help-line",
        &[("about", Arg::from(what)), ("calls", Arg::from(about))],
    )
}

fn names(rows: &[&Spec], lang: Lang, separator: &str) -> String {
    let names: Vec<String> = rows
        .iter()
        .map(|row| format!("{}{}", help::name(row, lang), sub_names(row, lang)))
        .collect();
    names.join(separator)
}

/// ` offer|accept|decline` after a row with subcommands.
fn sub_names(row: &Spec, lang: Lang) -> String {
    match row.subs {
        [] => String::new(),
        subs => format!(
            " {}",
            subs.iter()
                .map(|sub| help::name(sub, lang))
                .collect::<Vec<_>>()
                .join("|")
        ),
    }
}

/// The command typed after `/help`: its text or Discord path, in either
/// language (`draw accept`, `play draw accept`, `nulle accepter`).
fn lookup(words: &str) -> Option<Path> {
    let words: Vec<String> = words
        .split_whitespace()
        .map(|w| w.trim_start_matches('/').to_lowercase())
        .collect();
    let mut path = vec![table::find(words.first()?)?];
    for word in &words[1..] {
        let child = path[path.len() - 1].child(word)?;
        // A theme named first is not part of the command's text path.
        if path.len() == 1 && path[0].home == Home::Top && path[0].subs.is_empty() {
            path.clear();
        }
        path.push(child);
    }
    Some(path)
}

/// A command's usage, description and options; for a group, its commands.
fn details(i18n: &I18n, lang: Lang, discord: bool, path: &[&'static Spec]) -> String {
    let row = path[path.len() - 1];
    let describe = |path: &[&'static Spec]| i18n.text(lang, &description_id(path), &[]);
    let children: Vec<&'static Spec> = row.children().collect();
    if !children.is_empty() {
        let mut lines = vec![format!("{}: {}", call(path, lang, discord), describe(path))];
        for child in children {
            let mut longer = path.to_vec();
            longer.push(child);
            lines.push(format!(
                "{}: {}",
                usage(&longer, lang, discord),
                describe(&longer)
            ));
        }
        return lines.join("\n");
    }
    let mut lines = vec![usage(path, lang, discord), describe(path)];
    for opt in row.options {
        let about = i18n.text(lang, &format!("opt-{}", opt.name), &[]);
        lines.push(format!(
            "  {}: {about}",
            option_usage(opt, lang, discord).trim_matches(['[', ']'])
        ));
    }
    lines.join("\n")
}

/// The docs' command reference (docs/playing.md): every command with its
/// text form, its Discord path and French name, its options and what it does.
pub fn reference(i18n: &I18n) -> String {
    let mut out = String::new();
    for top in table::top_level().filter(|row| row.home == Home::Top) {
        let about = i18n.text(Lang::En, &description_id(&[top]), &[]);
        out.push_str(&format!(
            "\n### `/{}` (French `/{}`): {about}\n\n",
            top.name, top.fr
        ));
        out.push_str("| command | on Discord | in French | what it does |\n|---|---|---|---|\n");
        for path in help::commands()
            .into_iter()
            .filter(|p| table::discord_home(p[0]) == top.name)
        {
            let row = |text: String| text.replace('|', "\\|");
            out.push_str(&format!(
                "| `{}` | `{}` | `{}` | {}{} |\n",
                row(usage(&path, Lang::En, false)),
                row(call(&path, Lang::En, true)),
                row(usage(&path, Lang::Fr, false)),
                row(i18n.text(Lang::En, &description_id(&path), &[])),
                row(choices_note(&path)),
            ));
        }
    }
    out
}

/// The Discord command tree (docs/hosting.md): each command with its French
/// name and what sits in it, French names beside.
pub fn discord_tree() -> String {
    let mut out = String::from("| command | French | subcommands |\n|---|---|---|\n");
    for top in table::top_level().filter(|row| row.home == Home::Top) {
        let children: Vec<&Spec> = top.children().collect();
        let inside = match children.is_empty() {
            true => {
                let names: Vec<String> = top
                    .options
                    .iter()
                    .map(|o| format!("`{}`", o.name))
                    .collect();
                format!("options {}", names.join(", "))
            }
            false => {
                let each = children.iter().map(|child| {
                    let (en, fr) = (
                        names(&[child], Lang::En, "|"),
                        names(&[child], Lang::Fr, "|"),
                    );
                    format!("`{en}` (`{fr}`)").replace('|', "\\|")
                });
                each.collect::<Vec<_>>().join(", ")
            }
        };
        out.push_str(&format!("| `/{}` | `/{}` | {inside} |\n", top.name, top.fr));
    }
    out
}

/// French words of a command's choices, where they differ: `(blancs, noirs…)`.
fn choices_note(path: &[&Spec]) -> String {
    let row = path[path.len() - 1];
    let french: Vec<String> = row
        .options
        .iter()
        .filter_map(|opt| match opt.kind {
            Kind::Choice(choices) => {
                let words: Vec<&str> = choices.iter().map(|c| c.fr).collect();
                Some(format!("{}: {}", opt.fr, words.join("|")))
            }
            _ => None,
        })
        .collect();
    match french.is_empty() {
        true => String::new(),
        false => format!(" (French: {})", french.join("; ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every description the table needs, in both catalogues, within
    /// Discord's 100 characters.
    #[test]
    fn every_description_exists_in_both_languages_within_discords_limits() {
        let i18n = I18n::new();
        let mut ids = Vec::new();
        let mut paths: Vec<Path> = table::top_level().map(|row| vec![row]).collect();
        while let Some(path) = paths.pop() {
            let row = path[path.len() - 1];
            ids.push(description_id(&path));
            for opt in row.options {
                ids.push(format!("opt-{}", opt.name));
                if let Kind::Choice(choices) = opt.kind {
                    ids.extend(choices.iter().map(|c| format!("choice-{}", c.value)));
                }
            }
            for sub in row.subs {
                let mut longer = path.clone();
                longer.push(sub);
                paths.push(longer);
            }
        }
        ids.sort();
        ids.dedup();
        if std::env::var("PRINT_IDS").is_ok() {
            eprintln!("IDS {}", ids.join(" "));
        }
        let mut missing = Vec::new();
        for id in &ids {
            for lang in [Lang::En, Lang::Fr] {
                let text = i18n.text(lang, id, &[]);
                if text == *id {
                    missing.push(format!("{id} ({lang:?})"));
                }
                let count = text.chars().count();
                assert!((1..=100).contains(&count), "{id} ({lang:?}): {count} chars");
            }
        }
        assert!(missing.is_empty(), "missing: {missing:#?}");
    }
}
