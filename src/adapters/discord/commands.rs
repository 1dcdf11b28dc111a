//! Discord's slash commands, generated from the command table.
//!
//! Each top-level row is one Discord command (`/move`, `/play`,
//! `/tournament`…); the rows Discord shows inside it and its own
//! subcommands become its subcommands, and a row with subcommands of its own
//! a group (`/play draw accept`). Descriptions come from the catalogues:
//! `cmd-<row>[-<sub>]`, `opt-<option>`, `choice-<value>`.

use serenity::all::{
    CommandOptionType, CreateCommand, CreateCommandOption, InstallationContext, InteractionContext,
};

use crate::core::command::help::description_id;
use crate::core::command::table::{self, Home, Kind, MAX_ID, Opt, Spec, Suggest};
use crate::core::notation::Lang;
use crate::i18n::I18n;

/// Every command as Discord registers it, described in English and French.
/// Registering the whole set replaces whatever an older version registered.
pub fn registrations(i18n: &I18n) -> Vec<CreateCommand> {
    let describe = |id: &str| (i18n.text(Lang::En, id, &[]), i18n.text(Lang::Fr, id, &[]));
    let tops = table::top_level().filter(|row| row.home == Home::Top);
    tops.map(|row| {
        let id = description_id(&[row]);
        let (en, fr) = describe(&id);
        // Games live in servers, and their notices need the bot there: the
        // commands are offered in servers only, where the bot is installed
        // (not through a user's own install of the app).
        let mut command = CreateCommand::new(row.name)
            .name_localized("fr", row.fr)
            .description(en)
            .description_localized("fr", fr)
            .contexts(vec![InteractionContext::Guild])
            .integration_types(vec![InstallationContext::Guild]);
        for option in options(i18n, row, &[row]) {
            command = command.add_option(option);
        }
        command
    })
    .collect()
}

/// What Discord shows under `row`: its children as subcommands (or groups),
/// else its own options.
fn options(i18n: &I18n, row: &'static Spec, path: &[&'static Spec]) -> Vec<CreateCommandOption> {
    if row.children().next().is_none() {
        // Discord wants the required options first.
        let required = row.options.iter().filter(|o| o.required);
        let optional = row.options.iter().filter(|o| !o.required);
        return required.chain(optional).map(|o| option(i18n, o)).collect();
    }
    row.children()
        .map(|child| {
            let mut path = path.to_vec();
            path.push(child);
            let kind = match child.children().next() {
                Some(_) => CommandOptionType::SubCommandGroup,
                None => CommandOptionType::SubCommand,
            };
            let id = description_id(&path);
            let mut sub = CreateCommandOption::new(kind, child.name, i18n.text(Lang::En, &id, &[]))
                .name_localized("fr", child.fr)
                .description_localized("fr", i18n.text(Lang::Fr, &id, &[]));
            for option in options(i18n, child, &path) {
                sub = sub.add_sub_option(option);
            }
            sub
        })
        .collect()
}

fn option(i18n: &I18n, spec: &Opt) -> CreateCommandOption {
    let id = format!("opt-{}", spec.name);
    let kind = match spec.kind {
        Kind::Text { .. } | Kind::Choice(_) => CommandOptionType::String,
        Kind::Number { .. } | Kind::Days { .. } | Kind::Challenge => CommandOptionType::Integer,
        Kind::Bool => CommandOptionType::Boolean,
        Kind::User => CommandOptionType::User,
    };
    let mut option = CreateCommandOption::new(kind, spec.name, i18n.text(Lang::En, &id, &[]))
        .name_localized("fr", spec.fr)
        .description_localized("fr", i18n.text(Lang::Fr, &id, &[]))
        .required(spec.required)
        .set_autocomplete(spec.suggest != Suggest::None);
    // Bounds are the table's: every value is read against them again.
    let range = |option: CreateCommandOption, min: i64, max: i64| {
        option
            .min_int_value(min.max(0) as u64)
            .max_int_value(max.max(0) as u64)
    };
    match spec.kind {
        Kind::Text { max } => option = option.max_length(u16::try_from(max).unwrap_or(u16::MAX)),
        Kind::Number { min, max } => option = range(option, min, max),
        Kind::Days { max } => option = range(option, 1, max),
        Kind::Challenge => option = range(option, 1, MAX_ID),
        Kind::Choice(choices) => {
            for choice in choices {
                let id = format!("choice-{}", choice.value);
                option = option.add_string_choice_localized(
                    i18n.text(Lang::En, &id, &[]),
                    choice.value,
                    [("fr", i18n.text(Lang::Fr, &id, &[]))],
                );
            }
        }
        Kind::Bool | Kind::User => {}
    }
    option
}
