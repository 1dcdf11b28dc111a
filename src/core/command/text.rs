//! Text to a command (the console and Matrix): words → the row they name →
//! its options' values → the row's builder.
//!
//! A command name, then words. `key:value` words are options, `"..."`
//! groups words (for a FEN), and other words are positional: a subcommand's
//! name, then what each option's [`Pos`] lets text give without its key.

use super::args::{Args, fits};
use super::table::{self, Kind, Opt, Pos, Spec};
use super::{Command, CommandError, MAX_COMMAND_BYTES, bad, bounded};

/// Parses one command line, with or without a leading `/`.
pub fn parse(line: &str) -> Result<Command, CommandError> {
    read(line).map(|(_, command)| command)
}

/// Parses one command line into the row it names and its command.
pub fn read(line: &str) -> Result<(&'static Spec, Command), CommandError> {
    if line.len() > MAX_COMMAND_BYTES {
        return Err(CommandError::TooLong);
    }
    let tokens = tokenize(line)?;
    let (name, rest) = tokens.split_first().ok_or(CommandError::Empty)?;
    let name = name.trim_start_matches('/').to_lowercase();
    let row = table::find(&name).ok_or_else(|| CommandError::Unknown(bounded(&name)))?;
    let mut words = Words::sort(rest);
    let spec = descend(row, &mut words)?;
    let args = fill(spec, &mut words)?;
    words
        .finish()
        .map_err(|error| hint_mention(spec, &args, error))?;
    Ok((spec, (spec.build)(&args)?))
}

/// A word left over where a player could still be named is most likely
/// their name without its `@` (`/challenge bob`): say how to write it.
fn hint_mention(spec: &Spec, args: &Args, error: CommandError) -> CommandError {
    let wants_player = spec
        .options
        .iter()
        .any(|o| o.pos == Pos::Mention && matches!(o.kind, Kind::User) && !args.has(o.name));
    match error {
        CommandError::Unexpected(word) if wants_player && is_bare_name(&word) => {
            CommandError::NotAMention(word)
        }
        other => other,
    }
}

/// A word that could be a user's name (letters, digits, `_`, `.`, `-`).
fn is_bare_name(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_alphabetic)
        && word
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '-'))
}

/// Words of a command line, sorted into positional words and options.
#[derive(Debug, Default)]
struct Words {
    positional: Vec<String>,
    options: Vec<(String, String)>,
}

impl Words {
    fn sort(tokens: &[String]) -> Words {
        let mut words = Words::default();
        for token in tokens {
            match token.split_once(':') {
                // `e.p.`-style move text never has a colon; option keys are plain words.
                Some((key, value)) if is_option_key(key) => words
                    .options
                    .push((key.to_ascii_lowercase(), value.to_owned())),
                _ => words.positional.push(token.clone()),
            }
        }
        words
    }

    /// Removes and returns the value of `opt` given as `key:value`.
    fn take_key(&mut self, opt: &Opt) -> Option<String> {
        let index = self.options.iter().position(|(k, _)| opt.is_named(k))?;
        Some(self.options.remove(index).1)
    }

    /// Removes and returns the first positional word `keep` accepts.
    fn take_where(&mut self, keep: impl Fn(&str) -> bool) -> Option<String> {
        let index = self.positional.iter().position(|w| keep(w))?;
        Some(self.positional.remove(index))
    }

    /// `name value` as two words: removes both, returns the value.
    fn take_spaced(&mut self, opt: &Opt) -> Option<String> {
        let index = self.positional.iter().position(|w| opt.is_named(w))?;
        if index + 1 >= self.positional.len() {
            return None;
        }
        self.positional.remove(index);
        Some(self.positional.remove(index))
    }

    /// A flag's bare word: its name or an alias sets it, `un…`/`no_…` clears it.
    fn take_flag(&mut self, opt: &Opt) -> Option<bool> {
        let negated = |w: &str| {
            let lower = w.to_ascii_lowercase();
            [lower.strip_prefix("un"), lower.strip_prefix("no_")]
                .into_iter()
                .flatten()
                .any(|rest| rest == opt.name)
        };
        if self.take_where(|w| opt.is_named(w)).is_some() {
            return Some(true);
        }
        self.take_where(negated).map(|_| false)
    }

    /// Fails on anything left over, so typos are not silently ignored.
    fn finish(self) -> Result<(), CommandError> {
        if let Some(word) = self.positional.into_iter().next() {
            return Err(CommandError::Unexpected(bounded(&word)));
        }
        if let Some((key, value)) = self.options.into_iter().next() {
            return Err(CommandError::Unexpected(bounded(&format!("{key}:{value}"))));
        }
        Ok(())
    }
}

fn is_option_key(key: &str) -> bool {
    !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphabetic() || b == b'_')
}

/// From a row to the subcommand the words name, else its default one.
fn descend(mut row: &'static Spec, words: &mut Words) -> Result<&'static Spec, CommandError> {
    while row.children().next().is_some() {
        let named = words.positional.first().map(|w| w.to_lowercase());
        if let Some(child) = named.and_then(|w| row.child(&w)) {
            words.positional.remove(0);
            row = child;
            continue;
        }
        // `settings language:fr`: an option named as a subcommand is its value.
        let keyed = words
            .options
            .iter()
            .position(|(key, _)| row.child(key).is_some());
        if let Some(index) = keyed {
            let (key, value) = words.options.remove(index);
            words.positional.insert(0, value);
            row = row.child(&key).unwrap_or(row);
            continue;
        }
        let default = row.default.and_then(|name| row.child(name));
        row = match (default, words.positional.first()) {
            (Some(child), None) => child,
            (Some(child), Some(word)) if takes(child, word) => child,
            (_, None) => return Err(CommandError::MissingArgument("subcommand")),
            (_, Some(word)) => return Err(bad("subcommand", word)),
        };
    }
    Ok(row)
}

/// Whether a row may take `word` as one of its options' values, given
/// without its key (a default subcommand takes what no other one names).
fn takes(row: &Spec, word: &str) -> bool {
    row.options.iter().any(|o| match o.pos {
        Pos::First | Pos::Rest => true,
        Pos::FirstIf | Pos::Any => fits(o, word),
        Pos::Mention => word.starts_with('@'),
        Pos::Hashed => word.starts_with('#'),
        Pos::Key | Pos::Spaced | Pos::Flag => false,
    })
}

/// The values of `spec`'s options: keys and words that can only be theirs
/// first, then the first words left, then the rest.
fn fill(spec: &Spec, words: &mut Words) -> Result<Args, CommandError> {
    let mut args = Args::new(spec.options);
    for opt in spec.options {
        if let Some(raw) = words.take_key(opt) {
            args.read(opt, &raw)?;
            continue;
        }
        let raw = match opt.pos {
            Pos::Flag => words
                .take_flag(opt)
                .map(|set| if set { "yes" } else { "no" }.to_owned()),
            Pos::Spaced => words.take_spaced(opt),
            Pos::Any => words
                .take_spaced(opt)
                .or_else(|| words.take_where(|w| fits(opt, w))),
            Pos::Hashed => words.take_where(|w| w.starts_with('#')),
            Pos::Mention => words.take_where(|w| w.starts_with('@')),
            Pos::Key | Pos::First | Pos::FirstIf | Pos::Rest => None,
        };
        if let Some(raw) = raw {
            args.read(opt, &raw)?;
        }
    }
    for opt in spec.options {
        let first = match (opt.pos, words.positional.first()) {
            _ if args.has(opt.name) => false,
            (Pos::First, Some(_)) => true,
            (Pos::FirstIf, Some(word)) => fits(opt, word),
            _ => false,
        };
        if first {
            let word = words.positional.remove(0);
            args.read(opt, &word)?;
        }
    }
    let rest = spec.options.iter().find(|o| o.pos == Pos::Rest);
    if let Some(opt) = rest.filter(|o| !args.has(o.name) && !words.positional.is_empty()) {
        // The rest may hold a space (`exd6 e.p.`, a team's name).
        args.read(opt, &std::mem::take(&mut words.positional).join(" "))?;
    }
    args.complete()
}

/// Splits on whitespace, keeping `"quoted words"` (also after `key:`) together.
/// Within quotes, `\"` is a quote and `\\` a backslash (a PGN's tags:
/// `pgn:"[White \"alice\"] 1. e4"`).
fn tokenize(line: &str) -> Result<Vec<String>, CommandError> {
    let mut tokens = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut started = false;
    let mut chars = line.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' if quoted && matches!(chars.peek(), Some('"' | '\\')) => {
                current.extend(chars.next());
            }
            '"' => {
                quoted = !quoted;
                started = true;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    tokens.push(std::mem::take(&mut current));
                    started = false;
                }
            }
            c => {
                current.push(c);
                started = true;
            }
        }
    }
    if quoted {
        return Err(CommandError::UnclosedQuote);
    }
    if started {
        tokens.push(current);
    }
    Ok(tokens)
}
