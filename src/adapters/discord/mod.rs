//! The Discord bot: serenity's gateway client, the core's command table
//! and our own paced REST calls for messages.
//!
//! [`Bot::connect`] builds the client; [`Bot::run`] runs the configured
//! shards until shutdown, then stops taking interactions and waits for
//! those taken to be answered. Each interaction becomes a [`Request`] keyed
//! by the interaction id, so a redelivery changes nothing; the service's
//! replies go back as the interaction's response, followups, channel
//! messages or direct messages. [`DiscordNotifier`] posts the scheduler's
//! notices.
//!
//! Modules: [`handler`] (the gateway's events), [`origin`] (who and where),
//! [`commands`] (the slash commands, generated from
//! [`crate::core::command::table`]), [`interactions`]
//! (options to commands), [`components`] (buttons), [`autocomplete`],
//! [`replies`] (replies to messages), [`digest`] (many replies as few
//! messages), [`delivery`] (answering an interaction), [`notices`]
//! (messages outside an answer), [`presence`] (what the bot knows of
//! guilds and channels), [`rest`] (paced REST calls), [`ratelimit`]
//! (per-user command limits) and [`shards`].

pub mod autocomplete;
pub mod commands;
pub mod components;
pub mod delivery;
pub mod digest;
mod handler;
pub mod interactions;
pub mod markdown;
pub mod notices;
pub mod origin;
pub mod presence;
pub mod ratelimit;
pub mod replies;
pub mod rest;
pub mod shards;

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::Context as _;
use serenity::all::{Client, ClientBuilder, GatewayIntents, HttpBuilder};

use self::handler::Handler;
use self::notices::{Courier, Item};
use self::presence::Presence;
use self::rest::Rest;
use self::shards::ShardPlan;
use crate::config::{DiscordConfig, Secret};
use crate::core::notation::Lang;
use crate::core::platform::Platform;
use crate::service::{NoticeId, Reply, Sent, Service, TimeSource};

/// How long a stop waits for the interactions already taken to be answered.
const FINISH_WITHIN: Duration = Duration::from_secs(15);

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
    in_flight: Arc<InFlight>,
}

impl Bot {
    /// Builds the client; nothing is sent until [`Bot::run`].
    pub async fn connect(
        service: Arc<Service>,
        options: DiscordOptions,
        time: Arc<dyn TimeSource>,
    ) -> anyhow::Result<Bot> {
        let client = reqwest::Client::builder()
            .build()
            .context("building the HTTP client")?;
        let mut http = HttpBuilder::new(options.token.expose()).client(client.clone());
        if let Some(base) = &options.api_base {
            // serenity 0.12's rate limiter builds its requests for
            // discord.com whatever the proxy: off here (registration and
            // autocomplete only; messages are paced by `rest`).
            http = http
                .proxy(base.trim_end_matches('/'))
                .ratelimiter_disabled(true);
        }
        let rest = Arc::new(Rest::new(
            client,
            options.api_base.as_deref(),
            &options.token,
        ));
        let presence = Arc::new(Presence::default());
        for guild in service.absent_servers(Platform::Discord).await {
            if let Ok(guild) = guild.parse() {
                presence.set_absent(guild, true);
            }
        }
        let courier = Arc::new(Courier::new(
            Arc::clone(&rest),
            Arc::clone(&presence),
            options.default_language,
            Some(Arc::clone(&service)),
        ));
        let in_flight = Arc::new(InFlight::default());
        let handler = Handler {
            service,
            limiter: ratelimit::RateLimiter::new(options.rate_limit_per_minute),
            options: options.clone(),
            time,
            registered: AtomicBool::new(false),
            rest,
            presence,
            courier: Arc::clone(&courier),
            in_flight: Arc::clone(&in_flight),
        };
        let client = ClientBuilder::new_with_http(http.build(), GatewayIntents::GUILDS)
            .event_handler(handler)
            .await
            .context("building the Discord client")?;
        Ok(Bot {
            client,
            shards: options.shards,
            notifier: DiscordNotifier { courier },
            in_flight,
        })
    }

    /// Posts the scheduler's notices through this bot's REST client.
    pub fn notifier(&self) -> DiscordNotifier {
        self.notifier.clone()
    }

    /// Runs the shards until `shutdown` completes (or the gateway gives up).
    /// Discord out of reach (no network yet at boot, DNS, a refused
    /// connection) is tried again, waiting 1 s and doubling up to a minute;
    /// Discord's own refusals (a bad token) end the run. On `shutdown`, no
    /// new interaction is taken, those taken are answered (for at most
    /// [`FINISH_WITHIN`]), then the shards close.
    pub async fn run(mut self, shutdown: impl Future<Output = ()>) -> anyhow::Result<()> {
        let manager = Arc::clone(&self.client.shard_manager);
        let shards = self.shards.clone();
        let running = async {
            let mut wait = Duration::from_secs(1);
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
                        wait = (wait * 2).min(Duration::from_secs(60));
                    }
                    other => return other,
                }
            }
        };
        tokio::select! {
            result = running => result.context("the Discord gateway stopped"),
            () = shutdown => {
                let unfinished = self.in_flight.close_and_wait(FINISH_WITHIN).await;
                if unfinished > 0 {
                    tracing::warn!(unfinished, "stopping with interactions still unanswered");
                }
                manager.shutdown_all().await;
                Ok(())
            }
        }
    }
}

/// The interactions being handled, and whether new ones are still taken.
#[derive(Default)]
pub struct InFlight {
    closed: AtomicBool,
    count: AtomicUsize,
    idle: tokio::sync::Notify,
}

/// One interaction being handled; dropping it counts it done.
pub struct Working<'a>(&'a InFlight);

impl Drop for Working<'_> {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

impl InFlight {
    /// Counts one more interaction, unless the bot is stopping.
    pub fn enter(&self) -> Option<Working<'_>> {
        self.count.fetch_add(1, Ordering::SeqCst);
        let working = Working(self);
        if self.closed.load(Ordering::SeqCst) {
            return None;
        }
        Some(working)
    }

    /// Takes no more, and waits (at most `patience`) for those taken; how
    /// many were still running.
    pub async fn close_and_wait(&self, patience: Duration) -> usize {
        self.closed.store(true, Ordering::SeqCst);
        let deadline = tokio::time::Instant::now() + patience;
        loop {
            let idle = self.idle.notified();
            let running = self.count.load(Ordering::SeqCst);
            if running == 0 {
                return 0;
            }
            if tokio::time::timeout_at(deadline, idle).await.is_err() {
                return self.count.load(Ordering::SeqCst);
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

/// Posts the scheduler's notices (flags, reminders, leave) on Discord.
#[derive(Clone)]
pub struct DiscordNotifier {
    courier: Arc<Courier>,
}

impl crate::service::Notifier for DiscordNotifier {
    fn platform(&self) -> Platform {
        Platform::Discord
    }

    async fn deliver(&self, replies: Vec<Reply>) {
        let items = replies
            .into_iter()
            .map(|reply| Item { reply, id: None })
            .collect();
        self.courier.send_all(items).await;
    }

    async fn send(&self, reply: Reply, id: NoticeId<'_>) -> Sent {
        let item = Item {
            reply,
            id: Some((id.act_key.to_owned(), id.item)),
        };
        let mut sent = self.courier.send_all(vec![item]).await;
        sent.pop().unwrap_or(Sent::Refused("not sent".to_owned()))
    }

    async fn send_all(&self, notices: Vec<(Reply, NoticeId<'_>)>) -> Vec<Sent> {
        let items = notices
            .into_iter()
            .map(|(reply, id)| Item {
                reply,
                id: Some((id.act_key.to_owned(), id.item)),
            })
            .collect();
        self.courier.send_all(items).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_stop_waits_for_the_work_taken_and_takes_no_more() {
        let in_flight = Arc::new(InFlight::default());
        let working = in_flight.enter().expect("taken");
        let finishing = {
            let in_flight = Arc::clone(&in_flight);
            tokio::spawn(async move { in_flight.close_and_wait(Duration::from_secs(5)).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(in_flight.enter().is_none(), "nothing new once stopping");
        assert!(!finishing.is_finished());
        drop(working);
        assert_eq!(finishing.await.unwrap(), 0);
    }
}
