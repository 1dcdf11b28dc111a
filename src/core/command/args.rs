//! The values of a command's options, read and bounded by their [`Kind`],
//! whichever platform gave them: text words or Discord's typed options.

use super::table::{Kind, Opt};
use super::{CommandError, UserRef, bad};

/// One option's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Text(String),
    Number(i64),
    Bool(bool),
    User(UserRef),
}

/// The values given to one command, by option name.
#[derive(Clone, Debug, Default)]
pub struct Args {
    /// The command's options: a builder asking for another is a bug.
    options: &'static [Opt],
    values: Vec<(&'static str, Value)>,
}

impl Args {
    pub fn new(options: &'static [Opt]) -> Args {
        Args {
            options,
            values: Vec::new(),
        }
    }

    /// Refuses the command if a required option is missing.
    pub fn complete(self) -> Result<Args, CommandError> {
        match self
            .options
            .iter()
            .find(|o| o.required && !self.has(o.name))
        {
            Some(missing) => Err(CommandError::MissingArgument(missing.name)),
            None => Ok(self),
        }
    }

    /// Reads `raw` as `opt`'s value: bounded, checked, in its canonical form
    /// (a choice's English value, a number without its `#`).
    /// An empty text counts as not given.
    pub fn read(&mut self, opt: &Opt, raw: &str) -> Result<(), CommandError> {
        self.put(opt, Value::Text(raw.to_owned()))
    }

    /// Sets `opt` to a value already typed (Discord's numbers, booleans and
    /// users), checked against its kind.
    pub fn put(&mut self, opt: &Opt, value: Value) -> Result<(), CommandError> {
        let value = match (opt.kind, value) {
            (Kind::Text { .. }, Value::Text(text)) if text.trim().is_empty() => return Ok(()),
            (Kind::User, Value::User(user)) => Value::User(user),
            (Kind::Bool, Value::Bool(b)) => Value::Bool(b),
            (_, value) => read(opt, &raw_text(&value))?,
        };
        match self.values.iter().any(|(name, _)| *name == opt.name) {
            true => Err(CommandError::Unexpected(format!("{}:…", opt.name))),
            false => {
                self.values.push((opt.name, value));
                Ok(())
            }
        }
    }

    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    fn get(&self, name: &str) -> Option<&Value> {
        debug_assert!(
            self.options.iter().any(|o| o.name == name),
            "no option {name} here"
        );
        self.values.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    pub fn text(&self, name: &str) -> Option<&str> {
        match self.get(name)? {
            Value::Text(text) => Some(text),
            _ => None,
        }
    }

    /// A text the row requires (checked when it was filled; named again here
    /// so a builder never assumes it).
    pub fn need(&self, name: &'static str) -> Result<&str, CommandError> {
        self.text(name).ok_or(CommandError::MissingArgument(name))
    }

    pub fn owned(&self, name: &str) -> Option<String> {
        self.text(name).map(str::to_owned)
    }

    pub fn number(&self, name: &str) -> Option<i64> {
        match self.get(name)? {
            Value::Number(n) => Some(*n),
            _ => None,
        }
    }

    /// A number whose option bounds it to `u32` (counts, days, rounds).
    pub fn count(&self, name: &str) -> Option<u32> {
        self.number(name).and_then(|n| u32::try_from(n).ok())
    }

    pub fn need_count(&self, name: &'static str) -> Result<u32, CommandError> {
        self.count(name).ok_or(CommandError::MissingArgument(name))
    }

    pub fn flag(&self, name: &str) -> Option<bool> {
        match self.get(name)? {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn user(&self, name: &str) -> Option<UserRef> {
        match self.get(name)? {
            Value::User(user) => Some(user.clone()),
            _ => None,
        }
    }

    /// The game named with the option every game command has.
    pub fn game(&self) -> Option<i64> {
        self.number(super::GAME)
    }
}

fn raw_text(value: &Value) -> String {
    match value {
        Value::Text(text) => text.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::User(user) => user.as_str().to_owned(),
    }
}

/// `raw` as `opt`'s value.
fn read(opt: &Opt, raw: &str) -> Result<Value, CommandError> {
    let text = raw.trim();
    let refused = || bad(opt.name, raw);
    Ok(match opt.kind {
        Kind::Text { max } if text.chars().count() > max => return Err(CommandError::TooLong),
        Kind::Text { .. } => Value::Text(text.to_owned()),
        Kind::Number { min, max } => Value::Number(
            number(text.strip_prefix('#').unwrap_or(text))
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(refused)?,
        ),
        Kind::Days { max } => Value::Number(
            number(text.strip_suffix('d').unwrap_or(text))
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(refused)?,
        ),
        Kind::Challenge => {
            let text = text.strip_prefix('#').unwrap_or(text);
            let text = text.strip_prefix(['c', 'C']).unwrap_or(text);
            Value::Number(number(text).filter(|n| *n > 0).ok_or_else(refused)?)
        }
        Kind::Bool => Value::Bool(boolean(text).ok_or_else(refused)?),
        Kind::User => Value::User(UserRef::new(text)?),
        Kind::Choice(choices) => {
            let lower = text.to_lowercase();
            let choice = choices
                .iter()
                .find(|c| c.value == lower || c.fr == lower || c.words.contains(&lower.as_str()))
                .ok_or_else(refused)?;
            Value::Text(choice.value.to_owned())
        }
    })
}

/// Digits only (no sign, no spaces): `+3` and `٣` are not numbers here.
fn number(text: &str) -> Option<i64> {
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    digits.then(|| text.parse().ok()).flatten()
}

fn boolean(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "yes" | "true" | "1" | "on" | "oui" => Some(true),
        "no" | "false" | "0" | "off" | "non" => Some(false),
        _ => None,
    }
}

/// Whether text `word` has the shape of `opt`'s value, in or out of its
/// bounds (for words that may or may not be this option: `/accept C6`,
/// `/claim threefold`, `/match join 0`, which is then refused by its bounds).
pub fn fits(opt: &Opt, word: &str) -> bool {
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    match opt.kind {
        Kind::Number { .. } => digits(word.strip_prefix('#').unwrap_or(word)),
        Kind::Days { .. } => digits(word.strip_suffix('d').unwrap_or(word)),
        Kind::Challenge => {
            let word = word.strip_prefix('#').unwrap_or(word);
            digits(word.strip_prefix(['c', 'C']).unwrap_or(word))
        }
        Kind::Bool | Kind::Choice(_) => read(opt, word).is_ok(),
        Kind::Text { .. } | Kind::User => true,
    }
}
