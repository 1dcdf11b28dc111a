//! Suggestions while the user types: `/move`'s legal moves (in their
//! notation, filtered by what they typed) and the caller's games for any
//! `game` option. Discord shows at most 25 and waits 3 seconds.

use serenity::all::{
    CommandInteraction, Context, CreateAutocompleteResponse, CreateInteractionResponse,
};
use serenity::builder::Builder;

use super::handler::Handler;
use super::interactions;
use super::origin::Fields;
use crate::core::command::Command;
use crate::core::command::table::Suggest;
use crate::service::Input;

/// Discord's limit on choices.
pub const MAX_CHOICES: usize = 25;
/// Discord's limit on a choice's name.
const MAX_CHOICE_NAME: usize = 100;

pub(super) async fn answer(handler: &Handler, ctx: &Context, interaction: &CommandInteraction) {
    let origin = handler.origin(Fields {
        guild: interaction.guild_id,
        channel_id: interaction.channel_id.get(),
        channel: interaction.channel.as_ref(),
        member: interaction.member.as_deref(),
        user: &interaction.user,
        locale: &interaction.locale,
        guild_locale: interaction.guild_locale.as_deref(),
        permissions: interaction.app_permissions,
    });
    let Some(focused) = interaction.data.autocomplete() else {
        return;
    };
    let Ok((spec, options)) = interactions::resolve(&interaction.data, true) else {
        return;
    };
    // Suggestions are not acts: no key, nothing stored, no rate limit.
    let act = handler.act(&origin, None, Input::Command(Command::Help { about: None }));
    let now = handler.time.now();
    let service = &handler.service;
    let mut response = CreateAutocompleteResponse::new();
    // No game lives in a direct message: nothing to suggest there.
    let suggesting = match (interaction.guild_id, spec.option(focused.name)) {
        (Some(_), Some(option)) => option.suggest,
        _ => Suggest::None,
    };
    match suggesting {
        Suggest::Moves => {
            let moves = service
                .move_choices(&act, options.game(), focused.value, MAX_CHOICES, now)
                .await
                .unwrap_or_default();
            for written in moves {
                response = response.add_string_choice(written.clone(), written);
            }
        }
        Suggest::Games => {
            let games = service
                .game_choices(&act, MAX_CHOICES, now)
                .await
                .unwrap_or_default();
            for (id, label) in games {
                let label: String = label.chars().take(MAX_CHOICE_NAME).collect();
                response = response.add_int_choice(label, id);
            }
        }
        Suggest::None => {}
    }
    // Suggestions are worth nothing late: one try.
    let sent = CreateInteractionResponse::Autocomplete(response)
        .execute(&ctx.http, (interaction.id, &interaction.token))
        .await;
    if let Err(error) = sent {
        tracing::debug!(%error, "suggestions were not taken");
    }
}
