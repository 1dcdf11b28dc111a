//! The Discord bot: serenity's gateway client, the core's command table.
//!
//! [`Bot::connect`] builds the client (REST through `api_base` when set,
//! with serenity's rate limiter off so a proxy or a test's fake decides);
//! [`Bot::run`] runs the configured shards until shutdown. Each interaction
//! becomes a [`Request`] keyed by the interaction id, so a redelivery changes
//! nothing; the service's replies go back as the interaction's response,
//! followups, channel messages or direct messages. [`DiscordNotifier`] posts
//! the scheduler's notices.
//!
//! Modules: [`commands`] (the slash commands, generated from
//! [`crate::core::command::table`]), [`interactions`] (a payload's path and
//! options to a command, through the same rows), [`components`] (buttons),
//! [`autocomplete`],
//! [`replies`] (replies to messages), [`delivery`] (sending them),
//! [`ratelimit`], [`rest`] (retries) and [`shards`].

pub mod autocomplete;
pub mod commands;
pub mod components;
pub mod delivery;
pub mod interactions;
pub mod ratelimit;
pub mod replies;
pub mod rest;
pub mod shards;

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::Context as _;
use serenity::all::{
    ChannelType, Client, ClientBuilder, CommandInteraction, ComponentInteraction, Context,
    EventHandler, GatewayIntents, GuildId, HttpBuilder, Interaction, Member, PartialChannel,
    Permissions, Ready, User as DiscordUser,
};
use serenity::async_trait;

use self::delivery::Responder;
use self::replies::Outgoing;
use self::shards::ShardPlan;
use crate::config::{DiscordConfig, Secret};
use crate::core::command::CommandError;
use crate::core::notation::Lang;
use crate::core::platform::Platform;
use crate::service::{BoardImages, Input, Moderation, Request, Service, TimeSource, User};

pub use self::delivery::DiscordNotifier;

/// The longest display name passed on (Discord's nicknames are 32).
const MAX_NAME: usize = 64;

/// What the bot needs to know, from the configuration.
#[derive(Clone, Debug)]
pub struct DiscordOptions {
    pub token: Secret,
    pub api_base: Option<String>,
    pub shards: ShardPlan,
    pub guilds: Vec<u64>,
    pub rate_limit_per_minute: u32,
    pub moderator_roles: Vec<u64>,
    pub threads: bool,
    /// The language of button labels when the client sends no locale.
    pub default_language: Lang,
}

impl DiscordOptions {
    pub fn from_config(config: &DiscordConfig, default_language: Lang) -> anyhow::Result<Self> {
        let token = config
            .token
            .clone()
            .context("no Discord token: set DISCORD_TOKEN")?;
        Ok(DiscordOptions {
            token,
            api_base: config.api_base.clone(),
            shards: config.shards.parse()?,
            guilds: config.guilds.clone(),
            rate_limit_per_minute: config.rate_limit_per_minute,
            moderator_roles: config.moderator_roles.clone(),
            threads: config.threads,
            default_language,
        })
    }
}

/// A connected (not yet running) bot.
pub struct Bot {
    client: Client,
    shards: ShardPlan,
    notifier: DiscordNotifier,
}

impl Bot {
    /// Builds the client; nothing is sent until [`Bot::run`].
    pub async fn connect(
        service: Arc<Service>,
        options: DiscordOptions,
        time: Arc<dyn TimeSource>,
    ) -> anyhow::Result<Bot> {
        let mut http = HttpBuilder::new(options.token.expose());
        if let Some(base) = &options.api_base {
            // serenity 0.12's rate limiter builds its requests without the
            // proxy (they would go to discord.com): off here. Against
            // Discord it is on, and waits out a 429 as the headers say.
            http = http
                .proxy(base.trim_end_matches('/'))
                .ratelimiter_disabled(true);
        }
        let handler = Handler {
            service,
            limiter: ratelimit::RateLimiter::new(options.rate_limit_per_minute),
            options: options.clone(),
            time,
            registered: AtomicBool::new(false),
        };
        let client = ClientBuilder::new_with_http(http.build(), GatewayIntents::GUILDS)
            .event_handler(handler)
            .await
            .context("building the Discord client")?;
        let notifier = DiscordNotifier::new(Arc::clone(&client.http), options.default_language);
        Ok(Bot {
            client,
            shards: options.shards,
            notifier,
        })
    }

    /// Posts the scheduler's notices through this bot's REST client.
    pub fn notifier(&self) -> DiscordNotifier {
        self.notifier.clone()
    }

    /// Runs the shards until `shutdown` completes (or the gateway gives up).
    /// Discord out of reach (no network yet at boot, DNS, a refused
    /// connection) is tried again, waiting 1 s and doubling up to a minute;
    /// Discord's own refusals (a bad token) end the run.
    pub async fn run(mut self, shutdown: impl Future<Output = ()>) -> anyhow::Result<()> {
        let manager = Arc::clone(&self.client.shard_manager);
        let shards = self.shards.clone();
        let running = async {
            let mut wait = std::time::Duration::from_secs(1);
            loop {
                tracing::info!(%shards, "connecting to Discord");
                let result = match &shards {
                    ShardPlan::Auto => self.client.start_autosharded().await,
                    ShardPlan::Range { shards, total } => {
                        self.client.start_shard_range(shards.clone(), *total).await
                    }
                };
                match result {
                    Err(error) if out_of_reach(&error) => {
                        tracing::warn!(%error, seconds = wait.as_secs(), "Discord is out of reach; trying again");
                        tokio::time::sleep(wait).await;
                        wait = (wait * 2).min(std::time::Duration::from_secs(60));
                    }
                    other => return other,
                }
            }
        };
        tokio::select! {
            result = running => result.context("the Discord gateway stopped"),
            () = shutdown => {
                manager.shutdown_all().await;
                Ok(())
            }
        }
    }
}

/// Whether the gateway failed because Discord could not be reached at all
/// (worth trying again), not because it answered with a refusal.
fn out_of_reach(error: &serenity::Error) -> bool {
    use serenity::http::HttpError;
    matches!(
        error,
        serenity::Error::Http(HttpError::Request(_))
            | serenity::Error::Io(_)
            | serenity::Error::Gateway(serenity::gateway::GatewayError::BuildingUrl)
    )
}

/// Who acted and where, as the service sees it.
#[derive(Clone, Debug)]
struct Origin {
    server: String,
    /// The channel games belong to: a thread's parent, so a game's thread
    /// and its channel are one place.
    channel: String,
    user: User,
    user_id: u64,
    /// Labels and the adapter's own messages: the client's locale, else the server's.
    lang: Lang,
}

struct Handler {
    service: Arc<Service>,
    options: DiscordOptions,
    limiter: ratelimit::RateLimiter,
    time: Arc<dyn TimeSource>,
    registered: AtomicBool,
}

#[async_trait]
impl EventHandler for Handler {
    async fn ready(&self, ctx: Context, ready: Ready) {
        let shard = ready.shard.map(|s| s.id.0).unwrap_or(0);
        tracing::info!(shard, guilds = ready.guilds.len(), "Discord shard ready");
        // One process registers: the one that holds shard 0.
        if shard == 0 && !self.registered.swap(true, Ordering::SeqCst) {
            self.register(&ctx).await;
        }
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        match interaction {
            Interaction::Command(command) => self.on_command(&ctx, &command).await,
            Interaction::Autocomplete(command) => {
                autocomplete::answer(self, &ctx, &command).await;
            }
            Interaction::Component(component) => self.on_component(&ctx, &component).await,
            _ => {}
        }
    }
}

impl Handler {
    async fn register(&self, ctx: &Context) {
        let commands = commands::registrations(self.service.i18n());
        if self.options.guilds.is_empty() {
            let result = rest::with_retries("registering commands", || {
                serenity::all::Command::set_global_commands(&ctx.http, commands.clone())
            })
            .await;
            if result.is_ok() {
                tracing::info!("commands registered globally");
            }
        } else {
            for guild in &self.options.guilds {
                let guild = GuildId::new((*guild).max(1));
                let _ = rest::with_retries("registering guild commands", || {
                    guild.set_commands(&ctx.http, commands.clone())
                })
                .await;
            }
        }
    }

    /// Who acted, from the interaction's fields.
    #[allow(clippy::too_many_arguments)]
    fn origin(
        &self,
        guild: Option<GuildId>,
        channel_id: u64,
        channel: Option<&PartialChannel>,
        member: Option<&Member>,
        user: &DiscordUser,
        locale: &str,
        guild_locale: Option<&str>,
    ) -> Origin {
        let is_thread = channel.is_some_and(|c| {
            matches!(
                c.kind,
                ChannelType::PublicThread | ChannelType::PrivateThread | ChannelType::NewsThread
            )
        });
        let channel = match channel.and_then(|c| c.parent_id) {
            Some(parent) if is_thread => parent.get(),
            _ => channel_id,
        };
        let server = match guild {
            Some(guild) => guild.get().to_string(),
            // Direct messages with the bot: each conversation is its own place.
            None => format!("dm-{channel}"),
        };
        // Discord vouches for the member's permissions and roles in this
        // guild only, and the service acts only on this guild's games: a
        // moderator here moderates the whole guild and nothing else.
        let moderator = member.is_some_and(|m| {
            m.permissions
                .is_some_and(|p| p.contains(Permissions::MANAGE_GUILD))
                || m.roles
                    .iter()
                    .any(|role| self.options.moderator_roles.contains(&role.get()))
        });
        let name = member
            .and_then(|m| m.nick.as_deref())
            .or(user.global_name.as_deref())
            .unwrap_or(&user.name);
        let lang = Lang::from_locale(locale)
            .or_else(|| guild_locale.and_then(Lang::from_locale))
            .unwrap_or(self.options.default_language);
        Origin {
            server,
            channel: channel.to_string(),
            user: User {
                id: user.id.get().to_string(),
                name: name.chars().take(MAX_NAME).collect(),
                locale: Some(locale.chars().take(16).collect()).filter(|l: &String| !l.is_empty()),
                moderation: if moderator {
                    Moderation::Server
                } else {
                    Moderation::None
                },
            },
            user_id: user.id.get(),
            lang,
        }
    }

    fn act(&self, origin: &Origin, key: Option<String>, input: Input) -> Request {
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

    /// A polite refusal when the user sends commands too fast.
    /// The answer to a command sent in a direct message: games live in servers.
    fn servers_only(&self, origin: &Origin) -> Outgoing {
        let text = self
            .service
            .i18n()
            .text(origin.lang, "discord-servers-only", &[]);
        Outgoing::private(&text)
    }

    fn over_limit(&self, origin: &Origin) -> Option<Outgoing> {
        if self.limiter.allow(origin.user_id, Instant::now()) {
            return None;
        }
        let text = self
            .service
            .i18n()
            .text(origin.lang, "discord-rate-limited", &[]);
        Some(Outgoing::private(&text))
    }

    async fn on_command(&self, ctx: &Context, command: &CommandInteraction) {
        let origin = self.origin(
            command.guild_id,
            command.channel_id.get(),
            command.channel.as_ref(),
            command.member.as_deref(),
            &command.user,
            &command.locale,
            command.guild_locale.as_deref(),
        );
        let responder = Responder::new(ctx, command.id, &command.token, &origin.channel);
        if command.guild_id.is_none() {
            responder.refuse(self.servers_only(&origin)).await;
            return;
        }
        if let Some(refusal) = self.over_limit(&origin) {
            responder.refuse(refusal).await;
            return;
        }
        let parsed = interactions::to_command(&command.data);
        let command_input = match parsed {
            Ok((_, parsed)) => parsed,
            Err(error) => {
                let text = refusal_text(self.service.i18n(), origin.lang, &error);
                responder.refuse(Outgoing::private(&text)).await;
                return;
            }
        };
        let act = self.act(
            &origin,
            Some(command.id.get().to_string()),
            Input::Command(command_input),
        );
        self.carry_out(responder, act, &origin).await;
    }

    async fn on_component(&self, ctx: &Context, component: &ComponentInteraction) {
        let origin = self.origin(
            component.guild_id,
            component.channel_id.get(),
            component.channel.as_ref(),
            component.member.as_ref(),
            &component.user,
            &component.locale,
            component.guild_locale.as_deref(),
        );
        let responder = Responder::new(ctx, component.id, &component.token, &origin.channel);
        if component.guild_id.is_none() {
            responder.refuse(self.servers_only(&origin)).await;
            return;
        }
        let Some(button) = components::Button::parse(&component.data.custom_id) else {
            let text = self
                .service
                .i18n()
                .text(origin.lang, "discord-unknown-button", &[]);
            responder.refuse(Outgoing::private(&text)).await;
            return;
        };
        if let Some(refusal) = self.over_limit(&origin) {
            responder.refuse(refusal).await;
            return;
        }
        let Some(command) = button.to_command() else {
            // Resign asks first; only the confirmation acts.
            let game = match button {
                components::Button::Resign(game) => game,
                _ => return,
            };
            let (text, row) = components::resign_question(game, self.service.i18n(), origin.lang);
            let mut question = Outgoing::private(&text);
            question.rows = vec![row];
            responder.refuse(question).await;
            return;
        };
        let act = self.act(
            &origin,
            Some(component.id.get().to_string()),
            Input::Command(command),
        );
        let accepted = self.carry_out(responder, act, &origin).await;
        if accepted && button.answers_its_message() {
            // An answered challenge or offer keeps no live buttons.
            delivery::close_buttons(&ctx.http, component.channel_id, component.message.id).await;
        }
    }

    /// Hands the act to the service and sends its replies; says whether the
    /// act was carried out (its answer is not a private refusal).
    async fn carry_out(&self, responder: Responder<'_>, act: Request, origin: &Origin) -> bool {
        let now = self.time.now();
        let key = act.key.clone();
        let handling = self.service.handle(act, now);
        let replies = responder.answer_in_time(handling).await;
        let accepted = replies.first().is_some_and(|reply| !reply.ephemeral);
        let i18n = self.service.i18n();
        let all_out = responder
            .deliver(
                replies,
                key.as_deref(),
                i18n,
                origin.lang,
                self.options.threads,
            )
            .await;
        if let Some(key) = key.filter(|_| all_out) {
            // Else the outbox worker sends what others had to receive.
            self.service.answered(&key);
        }
        accepted
    }
}

/// Why the adapter could not make a command of an interaction, for the user.
fn refusal_text(i18n: &crate::i18n::I18n, lang: Lang, error: &CommandError) -> String {
    crate::service::command_error_text(i18n, lang, error)
}
