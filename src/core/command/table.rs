//! The rows of the command table and the tree they make.
//!
//! A [`Spec`] is one command: its English and French names, its options,
//! its subcommands, whether its answer is secret, where Discord shows it and
//! how its option values become a [`Command`]. The rows live beside the
//! commands they build (`challenge.rs`, `play.rs`…); [`top_level`] lists
//! them all. Text commands are the rows' names (`/draw accept`); on Discord
//! the rows without a [`Home::Top`] sit under a theme command (`/play draw
//! accept`), and text accepts that path too.

use super::args::Args;
use super::{Command, CommandError};
use super::{challenge, club, game, play, settings, team, team_match, tournament};

/// Builds a command from the values of its options.
pub type Build = fn(&Args) -> Result<Command, CommandError>;

/// One command (or subcommand) of the table.
#[derive(Debug)]
pub struct Spec {
    pub name: &'static str,
    pub fr: &'static str,
    /// Other words that name it in text (`m`, `défi`, `yes`).
    pub aliases: &'static [&'static str],
    pub options: &'static [Opt],
    /// Its subcommands (`/tournament create`); a row with some builds nothing.
    pub subs: &'static [Spec],
    /// The subcommand meant when text names none (`/draw` offers).
    pub default: Option<&'static str>,
    /// Its answers are for the asker alone (votes, notes, conditional moves):
    /// a platform keeps even the wait for them private.
    pub secret: bool,
    /// Where Discord shows a top-level row.
    pub home: Home,
    pub build: Build,
}

/// Where Discord shows a row typed on its own in text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Home {
    /// A command of its own (`/move`, `/play`, `/tournament`).
    Top,
    /// Inside the top-level row of that name (`draw` in `/play`).
    In(&'static str),
}

/// One option of a command.
#[derive(Clone, Copy, Debug)]
pub struct Opt {
    pub name: &'static str,
    pub fr: &'static str,
    pub kind: Kind,
    pub pos: Pos,
    pub required: bool,
    /// Other keys text accepts (`colour:`, `tc:`), and words for a flag.
    pub aliases: &'static [&'static str],
    /// What Discord suggests while the option is typed.
    pub suggest: Suggest,
}

/// What an option holds, with its bounds.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// At most `max` characters, trimmed.
    Text {
        max: usize,
    },
    /// A whole number in `min..=max`; text may write `#3`.
    Number {
        min: i64,
        max: i64,
    },
    /// Whole days in `1..=max`; text may write `3d`.
    Days {
        max: i64,
    },
    /// A challenge's number: `6`, `#6`, `C6`.
    Challenge,
    Bool,
    /// A user (`@bob`, a platform id); Discord resolves their name.
    User,
    /// One of these values, by any of their words.
    Choice(&'static [Choice]),
}

/// One value of a [`Kind::Choice`]: the value Discord sends and the words
/// text accepts for it (its French name among them).
#[derive(Clone, Copy, Debug)]
pub struct Choice {
    pub value: &'static str,
    pub fr: &'static str,
    pub words: &'static [&'static str],
}

/// How text gives an option besides `name:value` (always accepted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pos {
    /// Only `name:value`.
    Key,
    /// Also `name value`, two words (`rounds 5`).
    Spaced,
    /// Also the first word left.
    First,
    /// Also the first word left, if it reads as this option (`/accept C6`).
    FirstIf,
    /// Also any word that reads as this option (`swiss`), or `name value`.
    Any,
    /// Also a word starting with `#` (`#3`).
    Hashed,
    /// Also every word left, joined by spaces (a move, a note).
    Rest,
    /// Also the next `@name` word.
    Mention,
    /// Also the bare word (`offer_draw`); a boolean.
    Flag,
}

/// Suggestions Discord asks for while an option is typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suggest {
    None,
    /// The legal moves of the caller's game, in their notation.
    Moves,
    /// The caller's games.
    Games,
}

/// The largest id an option takes: Discord's integers stay below 2^53.
pub const MAX_ID: i64 = i64::MAX >> 11;

/// At most `max` characters.
pub const fn text(max: usize) -> Kind {
    Kind::Text { max }
}

/// A whole number in `min..=max`.
pub const fn number(min: i64, max: i64) -> Kind {
    Kind::Number { min, max }
}

/// A choice's value, its French name and the other words text accepts.
pub const fn choice(
    value: &'static str,
    fr: &'static str,
    words: &'static [&'static str],
) -> Choice {
    Choice { value, fr, words }
}

pub const fn opt(name: &'static str, fr: &'static str, kind: Kind) -> Opt {
    Opt {
        name,
        fr,
        kind,
        pos: Pos::Key,
        required: false,
        aliases: &[],
        suggest: Suggest::None,
    }
}

impl Opt {
    pub const fn at(self, pos: Pos) -> Opt {
        Opt { pos, ..self }
    }

    pub const fn required(self) -> Opt {
        Opt {
            required: true,
            ..self
        }
    }

    pub const fn or(self, aliases: &'static [&'static str]) -> Opt {
        Opt { aliases, ..self }
    }

    pub const fn suggest(self, suggest: Suggest) -> Opt {
        Opt { suggest, ..self }
    }

    /// Whether text names this option with `key` (its names, in any case).
    pub fn is_named(&self, key: &str) -> bool {
        [self.name, self.fr]
            .iter()
            .chain(self.aliases)
            .any(|name| name.eq_ignore_ascii_case(key))
    }
}

/// A row with no subcommands, built by `build`.
pub const fn row(
    name: &'static str,
    fr: &'static str,
    options: &'static [Opt],
    build: Build,
) -> Spec {
    Spec {
        name,
        fr,
        aliases: &[],
        options,
        subs: &[],
        default: None,
        secret: false,
        home: Home::Top,
        build,
    }
}

/// A row of subcommands.
pub const fn group(name: &'static str, fr: &'static str, subs: &'static [Spec]) -> Spec {
    Spec {
        subs,
        ..row(name, fr, &[], no_subcommand)
    }
}

impl Spec {
    pub const fn home(self, home: Home) -> Spec {
        Spec { home, ..self }
    }

    pub const fn aka(self, aliases: &'static [&'static str]) -> Spec {
        Spec { aliases, ..self }
    }

    pub const fn secret(self) -> Spec {
        Spec {
            secret: true,
            ..self
        }
    }

    pub const fn default_sub(self, sub: &'static str) -> Spec {
        Spec {
            default: Some(sub),
            ..self
        }
    }

    /// Whether `word` (lower case) names this row; French words with
    /// accents are among the aliases.
    pub fn is_named(&self, word: &str) -> bool {
        [self.name, self.fr]
            .iter()
            .chain(self.aliases)
            .any(|name| *name == word)
    }

    /// Its subcommands, then the rows Discord shows inside it.
    pub fn children(&self) -> impl Iterator<Item = &'static Spec> + '_ {
        let inside = top_level().filter(move |row| row.home == Home::In(self.name));
        self.subs.iter().chain(inside)
    }

    /// The child named `word`.
    pub fn child(&self, word: &str) -> Option<&'static Spec> {
        self.children().find(|child| child.is_named(word))
    }

    /// The option named `name` (its English name).
    pub fn option(&self, name: &str) -> Option<&'static Opt> {
        self.options.iter().find(|o| o.name == name)
    }
}

/// The builder of a row of subcommands, reached when text names none.
fn no_subcommand(_: &Args) -> Result<Command, CommandError> {
    Err(CommandError::MissingArgument("subcommand"))
}

/// The themes Discord groups commands under, which text may name too.
const THEMES: &[Spec] = &[
    group("play", "jouer", &[]),
    group("game", "partie", &[]),
    group("club", "club", club::CLUB_SUBS),
];

/// The rows of each theme's file.
/// In the order `/help` and Discord list them: `/move` first.
const ROWS: [&[Spec]; 9] = [
    challenge::ROWS,
    play::ROWS,
    THEMES,
    game::ROWS,
    club::ROWS,
    tournament::ROWS,
    team::ROWS,
    team_match::ROWS,
    settings::ROWS,
];

/// Every row text may name first (each Discord command and what sits in one).
pub fn top_level() -> impl Iterator<Item = &'static Spec> {
    ROWS.iter().flat_map(|rows| rows.iter())
}

/// The row text names first with `word`.
pub fn find(word: &str) -> Option<&'static Spec> {
    top_level().find(|row| row.is_named(word))
}

/// An option's French name, by its English one (as errors name it), from
/// the first row that has it.
pub fn french_option_name(name: &str) -> Option<&'static str> {
    fn find_in(rows: &'static [Spec], name: &str) -> Option<&'static str> {
        rows.iter().find_map(|row| {
            row.options
                .iter()
                .find(|o| o.name == name)
                .map(|o| o.fr)
                .or_else(|| find_in(row.subs, name))
        })
    }
    ROWS.iter().find_map(|rows| find_in(rows, name))
}

/// Every word that names a row typed first, aliases included.
pub fn names() -> impl Iterator<Item = &'static str> {
    top_level().flat_map(|row| {
        [row.name, row.fr]
            .into_iter()
            .chain(row.aliases.iter().copied())
    })
}

/// The Discord command a row sits in (itself for a top-level row).
pub fn discord_home(row: &Spec) -> &'static str {
    match row.home {
        Home::Top => row.name,
        Home::In(theme) => theme,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Discord's rule for command and option names.
    fn is_discord_name(name: &str) -> bool {
        let count = name.chars().count();
        (1..=32).contains(&count)
            && name
                .chars()
                .all(|c| c == '-' || c == '_' || c.is_alphanumeric() && !c.is_uppercase())
    }

    /// Every path of the tree, with its row.
    fn walk(
        rows: impl Iterator<Item = &'static Spec>,
        at: &mut Vec<&'static Spec>,
        out: &mut Vec<Vec<&'static Spec>>,
    ) {
        for row in rows {
            at.push(row);
            out.push(at.clone());
            let subs: Vec<_> = row.subs.iter().collect();
            walk(subs.into_iter(), at, out);
            at.pop();
        }
    }

    #[test]
    fn names_are_valid_unique_and_within_discords_limits() {
        let mut first = BTreeSet::new();
        for row in top_level() {
            let words: BTreeSet<&str> = [row.name, row.fr]
                .into_iter()
                .chain(row.aliases.iter().copied())
                .collect();
            for word in words {
                assert_eq!(word, word.to_lowercase(), "text names are lower case");
                assert!(first.insert(word), "{word} names two commands");
            }
        }
        let mut paths = Vec::new();
        walk(top_level(), &mut Vec::new(), &mut paths);
        for path in &paths {
            let row = path[path.len() - 1];
            assert!(
                is_discord_name(row.name) && is_discord_name(row.fr),
                "{}",
                row.name
            );
            let mut options = BTreeSet::new();
            for option in row.options {
                assert!(is_discord_name(option.name) && is_discord_name(option.fr));
                assert!(
                    options.insert(option.name),
                    "{}: {} twice",
                    row.name,
                    option.name
                );
                assert!(
                    options.insert(option.fr) || option.fr == option.name,
                    "{}",
                    option.fr
                );
            }
            assert!(row.options.len() <= 25, "{}", row.name);
            let mut children = BTreeSet::new();
            for child in row.children() {
                assert!(children.insert(child.name), "{}", child.name);
                assert!(
                    children.insert(child.fr) || child.fr == child.name,
                    "{}",
                    child.fr
                );
            }
            if let Some(default) = row.default {
                assert!(
                    row.child(default).is_some(),
                    "{}: default {default}",
                    row.name
                );
            }
        }
        // Room to grow: no Discord command or group holds more than 20 of 25.
        for row in top_level() {
            assert!(row.children().count() <= 20, "{}", row.name);
            for child in row.children() {
                assert!(child.subs.len() <= 20, "{}", child.name);
                assert!(
                    child.subs.iter().all(|s| s.subs.is_empty()),
                    "{} is too deep",
                    child.name
                );
            }
            if let Home::In(theme) = row.home {
                let theme = find(theme).expect("a theme");
                assert_eq!(theme.home, Home::Top, "{}", row.name);
            }
        }
    }
}
