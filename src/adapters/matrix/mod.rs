//! Matrix: the bot as a Matrix account (matrix-sdk, end-to-end encryption,
//! SQLite stores).
//!
//! A room is a channel; the room's space, when the space lists the room back
//! and the bot is in it, or else the configured community (the homeserver by
//! default), is the server standings count on. Moderators of the room
//! moderate its games; moderators of that verified space moderate all of the
//! space's ([`community`]). Commands
//! are text messages (`!chess move e4`, `!move e4`) in the console's command
//! language; replies are `m.notice`s mentioning the player addressed, with
//! attachments uploaded beside them; a ✅ on a challenge or draw offer
//! accepts it. A move text that could mean several moves plays nothing: the
//! notice numbers the readings and the player answers `!chess move 2`.
//!
//! - [`session`]: log in once, then restore the same device;
//! - [`sync`]: the sync loop, invitations and acts;
//! - [`events`]: which timeline events are new and what they ask;
//! - [`commands`]: message text to command text, and hints back;
//! - [`notice`], [`send`]: replies as notices and uploads;
//! - [`offers`]: what a ✅ accepts;
//! - [`choices`]: numbered answers to an ambiguous move;
//! - [`community`]: the room's verified space, and who moderates what;
//! - [`rooms`], [`ids`]: names, invitations, ids.

pub mod choices;
pub mod commands;
mod community;
pub mod events;
pub mod ids;
pub mod notice;
pub mod offers;
mod rooms;
mod send;
mod session;
mod sync;

use std::future::Future;
use std::sync::Arc;

use matrix_sdk::Client;
use matrix_sdk::ruma::OwnedUserId;

use crate::config::MatrixConfig;
use crate::service::{NoticeId, Notifier, Sent};
use crate::service::{Reply, Service};

/// Why the Matrix bot could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum MatrixError {
    #[error("Matrix configuration: {0}")]
    Config(&'static str),
    #[error("Matrix client: {0}")]
    Client(String),
    #[error("Matrix: {0}")]
    Sdk(#[from] matrix_sdk::Error),
    #[error("Matrix store: {0}")]
    Store(#[from] matrix_sdk::StoreError),
    #[error("Matrix session file: {0}")]
    Io(std::io::Error),
}

impl MatrixError {
    /// The homeserver could not be reached at all (worth trying again), as
    /// opposed to an answer refusing us.
    fn is_out_of_reach(&self) -> bool {
        let MatrixError::Sdk(matrix_sdk::Error::Http(http)) = self else {
            return false;
        };
        let mut http: &matrix_sdk::HttpError = http;
        while let matrix_sdk::HttpError::Cached(inner) = http {
            http = inner;
        }
        matches!(http, matrix_sdk::HttpError::Reqwest(_))
    }
}

/// What the running bot needs besides its client.
#[derive(Clone, Debug)]
pub struct MatrixSettings {
    pub prefix: String,
    pub allowed_inviters: Vec<String>,
    /// The community of rooms outside any space.
    pub fallback_server: String,
    pub own_user: OwnedUserId,
}

/// The bot, logged in and ready to sync.
pub struct MatrixBot {
    client: Client,
    settings: Arc<MatrixSettings>,
}

impl MatrixBot {
    /// Logs in (the first time) or restores the saved session. A homeserver
    /// out of reach (no network yet at boot, DNS, a refused connection) is
    /// tried again, waiting 1 s and doubling up to a minute; its refusals
    /// (a wrong password) end the attempt.
    pub async fn connect(config: &MatrixConfig) -> Result<MatrixBot, MatrixError> {
        let mut wait = std::time::Duration::from_secs(1);
        let client = loop {
            match session::connect(config).await {
                Err(error) if error.is_out_of_reach() => {
                    tracing::warn!(%error, seconds = wait.as_secs(), "the homeserver is out of reach; trying again");
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(std::time::Duration::from_secs(60));
                }
                connected => break connected?,
            }
        };
        let own_user = client
            .user_id()
            .ok_or(MatrixError::Config("the client has no user after login"))?
            .to_owned();
        let fallback_server = config
            .server
            .clone()
            .unwrap_or_else(|| own_user.server_name().to_string());
        let settings = MatrixSettings {
            prefix: config.prefix.clone(),
            allowed_inviters: config.allowed_inviters.clone(),
            fallback_server,
            own_user,
        };
        Ok(MatrixBot {
            client,
            settings: Arc::new(settings),
        })
    }

    pub fn settings(&self) -> &MatrixSettings {
        &self.settings
    }

    /// The bot's device, stable across restarts.
    pub fn device_id(&self) -> Option<String> {
        self.client.device_id().map(ToString::to_string)
    }

    /// Where the scheduler's notices (flags, reminders) for Matrix rooms
    /// go; `service` records how far each went.
    pub fn notifier(&self, service: Arc<Service>) -> MatrixNotifier {
        MatrixNotifier {
            client: self.client.clone(),
            settings: Arc::clone(&self.settings),
            service,
        }
    }

    /// Syncs and answers until `shutdown` completes.
    pub async fn run(
        &self,
        service: &Service,
        shutdown: impl Future<Output = ()>,
    ) -> Result<(), MatrixError> {
        sync::run(&self.client, &self.settings, service, shutdown).await
    }
}

/// Sends replies that no Matrix message asked for (the scheduler's); replies
/// for other platforms' channels are left to them.
#[derive(Clone)]
pub struct MatrixNotifier {
    client: Client,
    settings: Arc<MatrixSettings>,
    service: Arc<Service>,
}

impl Notifier for MatrixNotifier {
    fn platform(&self) -> crate::core::platform::Platform {
        crate::core::platform::Platform::Matrix
    }

    async fn deliver(&self, replies: Vec<Reply>) {
        let untracked = send::Progress::Untracked;
        send::deliver(
            &self.client,
            &self.settings.prefix,
            &replies,
            None,
            None,
            untracked,
        )
        .await;
    }

    async fn send(&self, reply: Reply, id: NoticeId<'_>) -> Sent {
        let prefix = &self.settings.prefix;
        send::send_notice(&self.client, prefix, &reply, id, &self.service).await
    }
}
