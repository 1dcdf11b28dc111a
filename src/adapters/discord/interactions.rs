//! Slash-command options to a [`Command`], through the command table.
//!
//! Discord checks option types and lengths on its side, but a payload may
//! still carry anything: the path must be one the table has, every value is
//! read and bounded by its option's kind as text is, and anything else
//! becomes a [`CommandError`] (a polite refusal), never a panic.

use serenity::all::{CommandData, CommandDataOption, CommandDataOptionValue, CommandDataResolved};

use crate::core::command::table::{self, Home, Spec};
use crate::core::command::{Args, Command, CommandError, MAX_COMMAND_BYTES, UserRef, Value};

/// The most options looked at in one interaction (Discord sends at most 25).
const MAX_OPTIONS: usize = 25;

/// The command an interaction asks for, and its row (which says whether its
/// answer is secret).
pub fn to_command(data: &CommandData) -> Result<(&'static Spec, Command), CommandError> {
    let (spec, args) = resolve(data, false)?;
    Ok((spec, (spec.build)(&args.complete()?)?))
}

/// The row an interaction names and the values of its options. `typing`:
/// an autocomplete request, whose half-typed values that do not read are
/// left out instead of refused.
pub fn resolve(data: &CommandData, typing: bool) -> Result<(&'static Spec, Args), CommandError> {
    let unknown = |name: &str| CommandError::Unknown(bounded(name));
    let top = table::top_level()
        .find(|row| row.home == Home::Top && row.name == data.name)
        .ok_or_else(|| unknown(&data.name))?;
    let (spec, options) = descend(top, &data.options)?;
    let mut args = Args::new(spec.options);
    for option in options.iter().take(MAX_OPTIONS) {
        let opt = spec
            .option(&option.name)
            .ok_or_else(|| unknown(&option.name))?;
        let put = match value(&option.value, &data.resolved) {
            Some(value) => args.put(opt, value),
            None => Err(CommandError::Unexpected(bounded(&option.name))),
        };
        if !typing {
            put?;
        }
    }
    Ok((spec, args))
}

/// From a Discord command down its subcommands and groups to a row that
/// builds; the payload cannot go deeper than the table, which is finite.
fn descend<'a>(
    row: &'static Spec,
    options: &'a [CommandDataOption],
) -> Result<(&'static Spec, &'a [CommandDataOption]), CommandError> {
    if row.children().next().is_none() {
        return Ok((row, options));
    }
    let sub = options.first().ok_or(CommandError::Empty)?;
    let (CommandDataOptionValue::SubCommand(inner)
    | CommandDataOptionValue::SubCommandGroup(inner)) = &sub.value
    else {
        return Err(CommandError::Empty);
    };
    let child = row
        .children()
        .find(|child| child.name == sub.name)
        .ok_or_else(|| CommandError::Unknown(bounded(&sub.name)))?;
    descend(child, inner)
}

/// One option's value as the table reads it.
fn value(value: &CommandDataOptionValue, resolved: &CommandDataResolved) -> Option<Value> {
    Some(match value {
        CommandDataOptionValue::String(text) => Value::Text(bounded(text)),
        // What the user is typing in an autocompleted option.
        CommandDataOptionValue::Autocomplete { value, .. } => Value::Text(bounded(value)),
        CommandDataOptionValue::Integer(n) => Value::Number(*n),
        CommandDataOptionValue::Boolean(b) => Value::Bool(*b),
        CommandDataOptionValue::User(id) => {
            let nick = resolved.members.get(id).and_then(|m| m.nick.clone());
            let user = resolved.users.get(id);
            let name = nick
                .or_else(|| user.and_then(|u| u.global_name.clone()))
                .or_else(|| user.map(|u| u.name.clone()));
            let user = UserRef::new(&id.get().to_string()).ok()?;
            Value::User(match name {
                Some(name) => user.with_name(&name),
                None => user,
            })
        }
        _ => return None,
    })
}

/// Cuts untrusted text to the longest command line the core accepts.
fn bounded(text: &str) -> String {
    // Cut at a character boundary; `get` could not panic even if it were not.
    let end = text.floor_char_boundary(MAX_COMMAND_BYTES);
    text.get(..end).unwrap_or_default().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_text_is_cut_at_a_character_boundary() {
        let long = "é".repeat(10_000);
        let cut = bounded(&long);
        assert!(cut.len() <= MAX_COMMAND_BYTES);
        assert!(cut.chars().all(|c| c == 'é'));
    }
}
