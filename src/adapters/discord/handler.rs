//! The gateway's events: READY (registration), interactions (commands,
//! buttons, autocomplete), and the guild and channel lifecycle
//! (GUILD_CREATE, GUILD_DELETE, CHANNEL_DELETE, THREAD_DELETE).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use serenity::all::{
    CommandInteraction, ComponentInteraction, Context, EventHandler, Guild, GuildChannel, GuildId,
    Interaction, PartialGuildChannel, Ready, ResumedEvent, UnavailableGuild,
};
use serenity::async_trait;

use super::delivery::{Answer, Asked, DEADLINE, Responder};
use super::notices::Courier;
use super::origin::{self, Fields, NotHere, Origin};
use super::presence::Presence;
use super::replies::Outgoing;
use super::rest::Rest;
use super::{DiscordOptions, autocomplete, commands, components, interactions};
use crate::core::command::CommandError;
use crate::core::platform::Platform;
use crate::service::{BoardImages, Input, Request, Service, TimeSource};

pub(super) struct Handler {
    pub service: Arc<Service>,
    pub options: DiscordOptions,
    pub limiter: super::ratelimit::RateLimiter,
    pub time: Arc<dyn TimeSource>,
    pub registered: AtomicBool,
    pub rest: Arc<Rest>,
    pub presence: Arc<Presence>,
    pub courier: Arc<Courier>,
    /// Work taken and not yet answered; the bot stops once it is none.
    pub in_flight: Arc<super::InFlight>,
}

#[async_trait]
impl EventHandler for Handler {
    async fn ready(&self, ctx: Context, ready: Ready) {
        let shard = ready.shard.map(|s| s.id.0).unwrap_or(0);
        self.rest.set_application(ready.application.id.get());
        tracing::info!(shard, guilds = ready.guilds.len(), "Discord shard ready");
        // One process registers: the one that holds shard 0.
        if shard == 0 && !self.registered.swap(true, Ordering::SeqCst) {
            self.register(&ctx).await;
        }
    }

    async fn resume(&self, _ctx: Context, _event: ResumedEvent) {
        tracing::info!("Discord gateway resumed; missed events follow");
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        let Some(_working) = self.in_flight.enter() else {
            // Stopping: Discord shows the user that nothing answered.
            return;
        };
        match interaction {
            Interaction::Command(command) => self.on_command(&command).await,
            Interaction::Autocomplete(command) => {
                autocomplete::answer(self, &ctx, &command).await;
            }
            Interaction::Component(component) => self.on_component(&component).await,
            _ => {}
        }
    }

    async fn guild_create(&self, _ctx: Context, guild: Guild, _is_new: Option<bool>) {
        if let Some(channel) = guild.system_channel_id {
            self.presence.guild_channel(guild.id.get(), channel.get());
        }
        if self.presence.is_absent(guild.id.get()) {
            self.presence.set_absent(guild.id.get(), false);
            let now = self.time.now();
            self.service
                .guild_back(Platform::Discord, &guild.id.get().to_string(), now)
                .await;
        }
    }

    async fn guild_delete(
        &self,
        _ctx: Context,
        incomplete: UnavailableGuild,
        _full: Option<Guild>,
    ) {
        if incomplete.unavailable {
            // An outage at Discord: the guild comes back by itself.
            return;
        }
        let guild = incomplete.id.get();
        tracing::info!(
            guild,
            "the bot was removed from a server: its games' clocks stop"
        );
        self.presence.set_absent(guild, true);
        let now = self.time.now();
        self.service
            .guild_left(Platform::Discord, &guild.to_string(), now)
            .await;
    }

    async fn channel_delete(
        &self,
        _ctx: Context,
        channel: GuildChannel,
        _messages: Option<Vec<serenity::all::Message>>,
    ) {
        self.channel_gone(channel.guild_id, channel.id.get()).await;
    }

    async fn thread_delete(
        &self,
        _ctx: Context,
        thread: PartialGuildChannel,
        _full: Option<GuildChannel>,
    ) {
        self.channel_gone(thread.guild_id, thread.id.get()).await;
    }
}

impl Handler {
    async fn register(&self, ctx: &Context) {
        let commands = commands::registrations(self.service.i18n());
        if self.options.guilds.is_empty() {
            let set = || serenity::all::Command::set_global_commands(&ctx.http, commands.clone());
            if registered(set).await {
                tracing::info!("commands registered globally");
            }
        } else {
            for guild in &self.options.guilds {
                let guild = GuildId::new((*guild).max(1));
                registered(|| guild.set_commands(&ctx.http, commands.clone())).await;
            }
        }
    }

    /// A channel or thread was deleted: its games' notices go to their
    /// players, who are told how to go on.
    async fn channel_gone(&self, guild: GuildId, channel: u64) {
        self.presence.set_gone(channel);
        let now = self.time.now();
        self.service
            .channel_gone(
                Platform::Discord,
                &guild.get().to_string(),
                &channel.to_string(),
                now,
            )
            .await;
    }

    pub(super) fn origin(&self, fields: Fields<'_>) -> Origin {
        let origin = Origin::new(
            fields,
            &self.options.moderator_roles,
            self.options.default_language,
        );
        if let Some(guild) = origin.guild {
            self.presence
                .seen(guild, origin.channel_id, origin.permissions, origin.thread);
        }
        origin
    }

    pub(super) fn act(&self, origin: &Origin, key: Option<String>, input: Input) -> Request {
        Request {
            platform: Platform::Discord,
            server: origin.server.clone(),
            channel: origin.channel.clone(),
            user: origin.user.clone(),
            key,
            input,
            board_images: BoardImages::Drawn,
        }
    }

    fn responder<'a>(
        &'a self,
        origin: &Origin,
        id: u64,
        token: &'a str,
        secret: bool,
    ) -> Responder<'a> {
        let age = origin::age(
            serenity::all::InteractionId::new(id.max(1)),
            origin::now_ms(),
        );
        let late = age >= DEADLINE;
        if late {
            tracing::warn!(
                interaction = id,
                age_ms = age.as_millis() as u64,
                "an interaction arrived after Discord's deadline"
            );
        }
        let asked = Asked {
            id,
            token,
            channel: &origin.channel,
            user: origin.user_id,
            secret,
            late,
        };
        Responder::new(
            &self.rest,
            &self.courier,
            self.service.i18n(),
            origin.lang,
            asked,
        )
    }

    /// The polite refusal of an interaction from a place the bot does not play in.
    fn not_here(&self, origin: &Origin, why: NotHere) -> Outgoing {
        let id = match why {
            NotHere::NotAServer => "discord-servers-only",
            NotHere::NotInstalled => "discord-not-installed",
        };
        let text = self.service.i18n().text(origin.lang, id, &[]);
        Outgoing::private(&text, self.service.i18n(), origin.lang)
    }

    /// A polite refusal when the user sends commands too fast.
    fn over_limit(&self, origin: &Origin) -> Option<Outgoing> {
        if self.limiter.allow(origin.user_id, Instant::now()) {
            return None;
        }
        let text = self
            .service
            .i18n()
            .text(origin.lang, "discord-rate-limited", &[]);
        Some(Outgoing::private(&text, self.service.i18n(), origin.lang))
    }

    async fn on_command(&self, command: &CommandInteraction) {
        let origin = self.origin(Fields {
            guild: command.guild_id,
            channel_id: command.channel_id.get(),
            channel: command.channel.as_ref(),
            member: command.member.as_deref(),
            user: &command.user,
            locale: &command.locale,
            guild_locale: command.guild_locale.as_deref(),
            permissions: command.app_permissions,
        });
        let parsed = interactions::to_command(&command.data);
        // Known from the command's row before any work: a secret answer
        // defers privately.
        let secret = parsed.as_ref().is_ok_and(|(spec, _)| spec.secret);
        let responder = self.responder(&origin, command.id.get(), &command.token, secret);
        let place = origin::place_check(
            command.guild_id,
            command.context,
            &command.authorizing_integration_owners,
        );
        if let Err(why) = place {
            responder.refuse(self.not_here(&origin, why)).await;
            return;
        }
        if let Some(refusal) = self.over_limit(&origin) {
            responder.refuse(refusal).await;
            return;
        }
        let command_input = match parsed {
            Ok((_, parsed)) => parsed,
            Err(error) => {
                let text = refusal_text(self.service.i18n(), origin.lang, &error);
                let out = Outgoing::private(&text, self.service.i18n(), origin.lang);
                responder.refuse(out).await;
                return;
            }
        };
        let act = self.act(
            &origin,
            Some(command.id.get().to_string()),
            Input::Command(command_input),
        );
        self.carry_out(&responder, act, None).await;
    }

    async fn on_component(&self, component: &ComponentInteraction) {
        let origin = self.origin(Fields {
            guild: component.guild_id,
            channel_id: component.channel_id.get(),
            channel: component.channel.as_ref(),
            member: component.member.as_ref(),
            user: &component.user,
            locale: &component.locale,
            guild_locale: component.guild_locale.as_deref(),
            permissions: component.app_permissions,
        });
        let responder = self.responder(&origin, component.id.get(), &component.token, false);
        let place = origin::place_check(
            component.guild_id,
            component.context,
            &component.authorizing_integration_owners,
        );
        if let Err(why) = place {
            responder.refuse(self.not_here(&origin, why)).await;
            return;
        }
        let i18n = self.service.i18n();
        let Some(button) = components::Button::parse(&component.data.custom_id) else {
            let text = i18n.text(origin.lang, "discord-unknown-button", &[]);
            responder
                .refuse(Outgoing::private(&text, i18n, origin.lang))
                .await;
            return;
        };
        if let Some(refusal) = self.over_limit(&origin) {
            responder.refuse(refusal).await;
            return;
        }
        let Some(command) = button.to_command() else {
            // Resign asks first; only the confirmation acts.
            let components::Button::Resign(game) = button else {
                return;
            };
            let (text, row) = components::resign_question(game, i18n, origin.lang);
            let mut question = Outgoing::private(&text, i18n, origin.lang);
            question.rows = vec![row];
            responder.refuse(question).await;
            return;
        };
        let act = self.act(
            &origin,
            Some(component.id.get().to_string()),
            Input::Command(command),
        );
        // An answered challenge or offer keeps no live buttons.
        let close = button
            .answers_its_message()
            .then(|| (component.channel_id.get(), component.message.id.get()));
        self.carry_out(&responder, act, close).await;
    }

    /// Hands the act to the service and sends its replies.
    async fn carry_out(&self, responder: &Responder<'_>, act: Request, close: Option<(u64, u64)>) {
        let now = self.time.now();
        let key = act.key.clone();
        let handling = self.service.handle(act, now);
        let replies = responder.answer_in_time(handling).await;
        let all_out = responder
            .deliver(Answer {
                replies,
                key: key.clone(),
                service: &self.service,
                threads: self.options.threads,
                close,
                time: self.time.as_ref(),
            })
            .await;
        if let Some(key) = key.filter(|_| all_out) {
            // Else the outbox worker sends what others had to receive.
            self.service.answered(&key);
        }
    }
}

/// Registers commands with `set`, tried again a few times while Discord
/// fails in passing (a server error, no answer); whether it took them.
async fn registered<T, F, Fut>(set: F) -> bool
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = serenity::Result<T>>,
{
    use serenity::http::HttpError;
    let mut pause = std::time::Duration::from_secs(1);
    for attempt in 1..=4 {
        let error = match set().await {
            Ok(_) => return true,
            Err(error) => error,
        };
        let passing = match &error {
            serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) => {
                response.status_code.as_u16() == 429 || response.status_code.is_server_error()
            }
            serenity::Error::Http(HttpError::Request(_)) => true,
            _ => false,
        };
        if !passing || attempt == 4 {
            tracing::error!(%error, "registering the commands failed");
            return false;
        }
        tokio::time::sleep(pause).await;
        pause *= 2;
    }
    false
}

/// Why the adapter could not make a command of an interaction, for the user.
fn refusal_text(
    i18n: &crate::i18n::I18n,
    lang: crate::core::notation::Lang,
    error: &CommandError,
) -> String {
    crate::service::command_error_text(i18n, lang, error)
}
