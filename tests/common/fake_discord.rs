//! A fake Discord on 127.0.0.1 for tests and benches, answering like
//! Discord: the REST endpoints the bot calls (recorded for assertions) and
//! a ws:// gateway that speaks HELLO, IDENTIFY, READY, heartbeats, RESUME
//! and RECONNECT, holds one connection per shard, and dispatches
//! interactions and the guild and channel lifecycle (GUILD_CREATE,
//! GUILD_DELETE, CHANNEL_DELETE, THREAD_DELETE) to the shard that owns the
//! guild.
//!
//! It refuses what Discord refuses, with Discord's codes:
//! - interactions: one initial response within 3 s (else 10062; a second
//!   is 40060); followups only once acknowledged (10015) and for 15 minutes
//!   (50027); the first followup after a deferral *is* the deferred message,
//!   its own flag ignored unless the deferral was private; at most 5
//!   followups per 2 s per interaction (429 with `retry_after` and the
//!   X-RateLimit headers);
//! - messages: bodies over Discord's limits (50035: content 2,000, embeds
//!   6,000 and 4,096, 5 rows of 5 buttons with unique custom ids of at most
//!   100 characters, nonces of 25), empty ones (50006), files over 10 MiB
//!   (40005); channel posts at most 5 per 5 s per channel;
//! - channels of types 0 (text), 11 (thread, forum post), 12 (private
//!   thread) and 15 (forum): a forum takes no message (50008), a deleted
//!   channel is unknown (10003), an archived thread refuses (50083) until
//!   it is opened again, a locked one refuses for good (160005), a guild
//!   that removed the bot gives 50001, and a channel without the bot's
//!   permissions 50001 or 50013;
//! - per-route 429s on demand, and closed direct messages (50007).
//!
//! Every refused request is counted ([`FakeDiscord::refused`]). serenity
//! drops events it cannot deserialize without a word, so every payload
//! built here is checked against serenity's own model before it is sent:
//! a test fails loudly instead of waiting for nothing.

#![allow(dead_code)]

#[path = "fake_gateway.rs"]
mod gateway;
#[path = "fake_rest.rs"]
mod rest;
#[path = "fake_rules.rs"]
pub mod rules;

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::routing::get;
use axum::serve::ListenerExt;
use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc};

/// The bot's application (and user) id in READY.
pub const APPLICATION_ID: u64 = 900_000_000_000_000_001;
/// How long a test waits for the bot before failing.
pub const PATIENCE: Duration = Duration::from_secs(10);
/// How long Discord waits for an interaction's initial response.
pub const INTERACTION_DEADLINE: Duration = Duration::from_secs(3);
/// How long an interaction's token takes followups.
pub const TOKEN_LIFETIME: Duration = Duration::from_secs(15 * 60);
/// Discord's followup limit: this many per [`FOLLOWUP_WINDOW`] per interaction.
pub const FOLLOWUPS: u32 = 5;
pub const FOLLOWUP_WINDOW: Duration = Duration::from_secs(2);
/// Discord's message limit per channel: this many per [`POST_WINDOW`].
pub const POSTS: u32 = 5;
pub const POST_WINDOW: Duration = Duration::from_secs(5);
/// Discord's epoch, in Unix milliseconds (ids count from it).
pub const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;
/// Every permission (the bot's in a channel unless a test says otherwise).
pub const ALL_PERMISSIONS: u64 = 2_251_799_813_685_247;
pub const VIEW_CHANNEL: u64 = 1 << 10;
pub const SEND_MESSAGES: u64 = 1 << 11;
pub const ATTACH_FILES: u64 = 1 << 15;
pub const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;

/// What a request made readable, and to whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    /// Nothing (not a message: a registration, a direct-message channel…).
    Nothing,
    /// Everyone in the channel.
    Everyone,
    /// The interaction's author alone (ephemeral).
    Author,
    /// One user, in their direct messages.
    Recipient,
}

/// One REST request the bot made.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    /// The JSON body, or a multipart request's `payload_json`.
    pub json: Value,
    pub files: Vec<File>,
    pub at: Instant,
    /// A post Discord took before (the same `nonce` with `enforce_nonce`):
    /// answered with the first message, shown once.
    pub repeated: bool,
    /// The HTTP status the fake answered with.
    pub status: u16,
    /// Discord's JSON error code when it refused.
    pub code: u64,
    /// Who can read what the request made (Discord's rules, not the
    /// request's own flags: a followup filling a public deferral is public).
    pub seen: Seen,
    /// What a reader sees: the message's text, or for a deferral
    /// "<user> used /<command>… is thinking".
    pub shown: String,
}

impl Recorded {
    /// The interaction callback's message (`data`), or the body itself.
    pub fn message(&self) -> &Value {
        if self.json.get("type").is_some() && self.json.get("data").is_some() {
            &self.json["data"]
        } else {
            &self.json
        }
    }

    /// Whether the bot asked for the message to be ephemeral (flag 64).
    pub fn is_ephemeral(&self) -> bool {
        self.message()["flags"].as_u64().unwrap_or(0) & 64 != 0
    }

    /// Whether everyone in the channel can read what this request made.
    pub fn is_public(&self) -> bool {
        self.seen == Seen::Everyone
    }

    /// Whether Discord refused it (4xx).
    pub fn is_refused(&self) -> bool {
        (400..500).contains(&self.status)
    }

    pub fn content(&self) -> &str {
        self.message()["content"].as_str().unwrap_or("")
    }

    /// Every custom id of the message's buttons.
    pub fn buttons(&self) -> Vec<String> {
        let rows = self.message()["components"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        rows.iter()
            .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
            .filter_map(|b| b["custom_id"].as_str().map(str::to_owned))
            .collect()
    }

    /// The content, embed titles and descriptions, in one string.
    pub fn all_text(&self) -> String {
        let mut text = self.content().to_owned();
        for embed in self.message()["embeds"]
            .as_array()
            .cloned()
            .unwrap_or_default()
        {
            for key in ["title", "description"] {
                if let Some(s) = embed[key].as_str() {
                    text.push('\n');
                    text.push_str(s);
                }
            }
        }
        text
    }

    /// The text and every text file, in one string.
    pub fn text_and_files(&self) -> String {
        let mut text = self.all_text();
        for file in &self.files {
            if file.filename.ends_with(".txt") {
                text.push('\n');
                text.push_str(&String::from_utf8_lossy(&file.bytes));
            }
        }
        text
    }
}

/// A file attached to a request.
#[derive(Clone, Debug)]
pub struct File {
    pub filename: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

/// A user in a guild.
#[derive(Clone, Debug)]
pub struct FakeUser {
    pub id: u64,
    pub name: String,
    /// The member's permissions bit set (32 = Manage Server).
    pub permissions: u64,
    pub locale: String,
}

impl FakeUser {
    pub fn new(id: u64, name: &str) -> FakeUser {
        FakeUser {
            id,
            name: name.to_owned(),
            permissions: 0,
            locale: "en-US".to_owned(),
        }
    }

    pub fn mention(&self) -> String {
        format!("<@{}>", self.id)
    }

    fn user_json(&self) -> Value {
        json!({
            "id": self.id.to_string(), "username": self.name, "global_name": self.name,
            "discriminator": "0", "avatar": null, "public_flags": 0
        })
    }

    fn member_json(&self) -> Value {
        json!({
            "user": self.user_json(), "nick": null, "avatar": null, "roles": [],
            "joined_at": "2026-01-01T00:00:00.000000+00:00", "premium_since": null,
            "deaf": false, "mute": false, "flags": 0, "pending": false,
            "permissions": self.permissions.to_string(), "communication_disabled_until": null
        })
    }
}

struct Shard {
    total: u32,
    outbox: mpsc::UnboundedSender<String>,
}

/// A channel as the fake knows it. Channels it was never told of are text
/// channels (type 0) where the bot may do everything.
#[derive(Clone, Debug)]
pub struct FakeChannel {
    pub guild: u64,
    /// 0 text, 11 public thread (a forum post too), 12 private thread, 15 forum.
    pub kind: u8,
    pub parent: Option<u64>,
    pub archived: bool,
    pub locked: bool,
    pub deleted: bool,
    /// The bot's permissions there (`app_permissions`).
    pub permissions: u64,
    pub name: String,
}

impl FakeChannel {
    pub fn text(guild: u64) -> FakeChannel {
        FakeChannel {
            guild,
            kind: 0,
            parent: None,
            archived: false,
            locked: false,
            deleted: false,
            permissions: ALL_PERMISSIONS,
            name: "chess".to_owned(),
        }
    }

    pub fn is_thread(&self) -> bool {
        matches!(self.kind, 10..=12)
    }
}

/// An interaction's initial response, as Discord keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Original {
    /// Not acknowledged yet.
    None,
    /// "… is thinking": public, or seen by the author alone.
    Deferred {
        ephemeral: bool,
    },
    /// A message (answered, or a filled deferral).
    Shown {
        ephemeral: bool,
    },
    /// The click's message was updated (type 6 or 7): followups are new messages.
    Updated,
    Deleted,
}

/// What the fake keeps of an interaction for its webhook.
#[derive(Clone, Debug)]
struct Hook {
    interaction: u64,
    sent_at: Instant,
    channel: u64,
    user: String,
    /// The command as its author typed it (`/play vote move`).
    called: String,
    original: Original,
}

/// A 429 the test asked for: the next `left` requests whose path starts
/// with `prefix` are refused, asking to wait `retry_after`.
struct Injected {
    method: String,
    prefix: String,
    left: u64,
    retry_after: Duration,
}

#[derive(Default)]
struct Inner {
    requests: Mutex<Vec<Recorded>>,
    recorded: Notify,
    shards: Mutex<HashMap<u32, Shard>>,
    connected: Notify,
    /// Shards `/gateway/bot` recommends.
    recommended_shards: u32,
    ids: AtomicU64,
    sequence: AtomicU64,
    base: Mutex<String>,
    log: bool,
    hooks: Mutex<HashMap<String, Hook>>,
    /// Who waits for the callback of which interaction.
    waiting: Mutex<HashMap<u64, tokio::sync::oneshot::Sender<Recorded>>>,
    /// While set, answers to interactions (callbacks, webhooks) never
    /// arrive: the bot's requests hang as on a dead link, unrecorded.
    holding: AtomicBool,
    /// Messages posted with an enforced nonce, by (channel, nonce).
    nonces: Mutex<HashMap<(u64, String), Value>>,
    /// Channels where the bot lacks a permission.
    refusing: Mutex<HashMap<u64, Missing>>,
    /// Users whose direct messages are closed to the bot.
    closed_dms: Mutex<HashSet<u64>>,
    /// Each direct-message channel's recipient.
    dm_channels: Mutex<HashMap<u64, u64>>,
    channels: Mutex<HashMap<u64, FakeChannel>>,
    /// Guilds that removed the bot.
    left: Mutex<HashSet<u64>>,
    /// Followups per interaction and posts per channel, Discord's limits
    /// (`None`: off).
    followup_limit: Mutex<Option<(u32, Duration)>>,
    post_limit: Mutex<Option<(u32, Duration)>>,
    windows: Mutex<rules::Windows>,
    injected: Mutex<Vec<Injected>>,
    /// The commands the bot registered last (global or for a guild), as
    /// Discord keeps them: a later registration replaces the whole set.
    registered: Mutex<Option<Value>>,
    /// Events dispatched, by shard, for a RESUME to send again (bounded).
    sent_events: Mutex<Vec<(u32, u64, String)>>,
    /// Interactions to dispatch once a shard resumes (they come late).
    after_resume: Mutex<Vec<Value>>,
    /// Resumes the shards made.
    resumes: AtomicU64,
}

/// A permission the bot lacks in a channel, and how Discord says so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missing {
    /// Cannot see the channel: 403, 50001 Missing Access.
    Access,
    /// No Send Messages: 403, 50013 Missing Permissions.
    SendMessages,
    /// No Attach Files: 403, 50013 for a message with files.
    AttachFiles,
}

/// A running fake Discord.
pub struct FakeDiscord {
    pub addr: SocketAddr,
    /// Users whose names the fake resolves in options ([`FakeDiscord::know`]).
    users: Mutex<Vec<FakeUser>>,
    inner: Arc<Inner>,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl FakeDiscord {
    /// Starts on a free port; `/gateway/bot` recommends `shards` shards.
    pub async fn start(shards: u32) -> FakeDiscord {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("address");
        let inner = Arc::new(Inner {
            recommended_shards: shards.max(1),
            log: std::env::var_os("FAKE_DISCORD_LOG").is_some(),
            followup_limit: Mutex::new(Some((FOLLOWUPS, FOLLOWUP_WINDOW))),
            post_limit: Mutex::new(Some((POSTS, POST_WINDOW))),
            ..Inner::default()
        });
        *inner.base.lock().unwrap() = format!("127.0.0.1:{}", addr.port());
        let app = Router::new()
            .route("/", get(gateway::gateway))
            .fallback(rest::rest)
            // Files up to Discord's limit and past it (to be refused as
            // Discord does, not by the HTTP server).
            .layer(axum::extract::DefaultBodyLimit::max(4 * rules::MAX_FILE))
            .with_state(Arc::clone(&inner));
        // Like a real server, the fake answers without Nagle's delay: with it,
        // a gateway event written while the previous one is unacknowledged
        // waits for the bot's delayed ACK (up to 40 ms on Linux).
        let listener = listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        FakeDiscord {
            addr,
            users: Mutex::new(Vec::new()),
            inner,
            server,
        }
    }

    /// Lets the fake resolve `user`'s name when an option names them.
    pub fn know(&self, user: &FakeUser) {
        self.users.lock().unwrap().push(user.clone());
    }

    /// What `discord.api_base` should be.
    pub fn api_base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// A fresh snowflake made now (interaction ids, message ids).
    pub fn next_id(&self) -> u64 {
        self.inner.next_id()
    }

    /// Waits until `count` shard connections are identified.
    pub async fn wait_for_shards(&self, count: usize) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let connected = self.inner.connected.notified();
            if self.inner.shards.lock().unwrap().len() >= count {
                return;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(!left.is_zero(), "no {count} shard connections in time");
            let _ = tokio::time::timeout(left, connected).await;
        }
    }

    /// Forgets every shard connection (after a bot stopped).
    pub fn forget_shards(&self) {
        self.inner.shards.lock().unwrap().clear();
    }

    /// Dispatches an INTERACTION_CREATE to the shard owning its guild.
    pub fn dispatch(&self, interaction: &Value) {
        check::<serenity::all::Interaction>("INTERACTION_CREATE", interaction);
        let guild: u64 = interaction["guild_id"]
            .as_str()
            .and_then(|g| g.parse().ok())
            .unwrap_or(0);
        self.inner
            .dispatch_event("INTERACTION_CREATE", interaction, guild);
    }

    /// Dispatches an interaction and waits for the bot's callback to it.
    pub async fn answer(&self, (id, payload): (u64, Value)) -> Recorded {
        let (tell, told) = tokio::sync::oneshot::channel();
        self.inner.waiting.lock().unwrap().insert(id, tell);
        self.dispatch(&payload);
        match tokio::time::timeout(PATIENCE, told).await {
            Ok(Ok(recorded)) => recorded,
            _ => panic!("no answer to interaction {id}"),
        }
    }

    /// Dispatches an interaction and returns the message that answers it:
    /// the callback's, or when the callback only updated the clicked
    /// message (type 7), the first followup.
    pub async fn answer_message(&self, interaction: (u64, Value)) -> Recorded {
        let id = interaction.0;
        let callback = self.answer(interaction).await;
        if callback.json["type"] != 7 {
            return callback;
        }
        let path = format!("/api/v10/webhooks/{APPLICATION_ID}/{}", token(id));
        self.wait_for(0, |r| r.method == "POST" && r.path.starts_with(&path))
            .await
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.inner.requests.lock().unwrap().clone()
    }

    /// How many requests so far.
    pub fn request_count(&self) -> usize {
        self.inner.requests.lock().unwrap().len()
    }

    /// The requests Discord refused (4xx) since `from`, 429s included.
    pub fn refused(&self, from: usize) -> Vec<Recorded> {
        let requests = self.inner.requests.lock().unwrap();
        requests
            .get(from..)
            .unwrap_or(&[])
            .iter()
            .filter(|r| r.is_refused())
            .cloned()
            .collect()
    }

    /// Waits for the first request after `from` (an index) that `matches`.
    pub async fn wait_for(&self, from: usize, matches: impl Fn(&Recorded) -> bool) -> Recorded {
        self.wait_for_within(from, PATIENCE, matches).await
    }

    /// [`FakeDiscord::wait_for`] with its own patience.
    pub async fn wait_for_within(
        &self,
        from: usize,
        patience: Duration,
        matches: impl Fn(&Recorded) -> bool,
    ) -> Recorded {
        let deadline = Instant::now() + patience;
        loop {
            let recorded = self.inner.recorded.notified();
            let found = {
                let requests = self.inner.requests.lock().unwrap();
                let since = requests.get(from..).unwrap_or(&[]);
                since.iter().find(|r| matches(r)).cloned()
            };
            if let Some(found) = found {
                return found;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                let paths: Vec<String> = self
                    .requests()
                    .iter()
                    .map(|r| format!("{} {} {}", r.method, r.path, r.status))
                    .collect();
                panic!("the bot did not send the expected request; it sent {paths:#?}");
            }
            let _ = tokio::time::timeout(left, recorded).await;
        }
    }

    /// Makes `channel` refuse the bot's messages as Discord does without
    /// the permission.
    pub fn refuse_in(&self, channel: u64, refusal: Missing) {
        self.inner.refusing.lock().unwrap().insert(channel, refusal);
    }

    /// Answers the next `posts` channel messages with 429 and a
    /// `retry_after` of 0.1 s, as Discord does past a route's rate limit.
    pub fn rate_limit_posts(&self, posts: u64) {
        self.rate_limit_route(
            "POST",
            "/api/v10/channels/",
            posts,
            Duration::from_millis(100),
        );
    }

    /// Answers the next `count` `method` requests whose path starts with
    /// `prefix` with 429, asking to wait `retry_after`.
    pub fn rate_limit_route(&self, method: &str, prefix: &str, count: u64, retry_after: Duration) {
        self.inner.injected.lock().unwrap().push(Injected {
            method: method.to_owned(),
            prefix: prefix.to_owned(),
            left: count,
            retry_after,
        });
    }

    /// Sets Discord's followup limit (`None`: off) and post limit per channel.
    pub fn set_limits(&self, followups: Option<(u32, Duration)>, posts: Option<(u32, Duration)>) {
        *self.inner.followup_limit.lock().unwrap() = followups;
        *self.inner.post_limit.lock().unwrap() = posts;
    }

    /// Closes `user`'s direct messages to the bot (50007).
    pub fn close_dms(&self, user: &FakeUser) {
        self.inner.closed_dms.lock().unwrap().insert(user.id);
    }

    /// The user a direct-message channel the bot opened writes to.
    pub fn dm_recipient(&self, channel: u64) -> Option<u64> {
        self.inner
            .dm_channels
            .lock()
            .unwrap()
            .get(&channel)
            .copied()
    }

    /// Holds (`true`) or lets through every answer to an interaction: a held
    /// request never reaches "Discord" and is not recorded.
    pub fn hold_interaction_answers(&self, hold: bool) {
        self.inner.holding.store(hold, Ordering::SeqCst);
    }

    /// The callback answering interaction `id`.
    pub async fn callback(&self, id: u64) -> Recorded {
        let path = format!("/api/v10/interactions/{id}/");
        self.wait_for(0, |r| r.path.starts_with(&path)).await
    }

    /// Followups and edits sent with interaction `id`'s token.
    pub fn followups(&self, id: u64) -> Vec<Recorded> {
        let path = format!("/api/v10/webhooks/{APPLICATION_ID}/{}", token(id));
        self.requests()
            .into_iter()
            .filter(|r| r.path.starts_with(&path))
            .collect()
    }

    /// Declares a channel (a text channel, thread, forum or forum post).
    pub fn add_channel(&self, id: u64, channel: FakeChannel) {
        self.inner.channels.lock().unwrap().insert(id, channel);
    }

    /// A forum `forum` in `guild` with one post (a thread) `post`.
    pub fn forum_post(&self, guild: u64, forum: u64, post: u64) {
        let mut forum_channel = FakeChannel::text(guild);
        forum_channel.kind = 15;
        self.add_channel(forum, forum_channel);
        let mut thread = FakeChannel::text(guild);
        thread.kind = 11;
        thread.parent = Some(forum);
        self.add_channel(post, thread);
    }

    /// A public thread `thread` of `parent` in `guild`.
    pub fn thread(&self, guild: u64, parent: u64, thread: u64) {
        self.add_channel(parent, FakeChannel::text(guild));
        let mut channel = FakeChannel::text(guild);
        channel.kind = 11;
        channel.parent = Some(parent);
        self.add_channel(thread, channel);
    }

    /// Changes what the fake knows of a channel.
    pub fn change_channel(&self, id: u64, change: impl FnOnce(&mut FakeChannel)) {
        let mut channels = self.inner.channels.lock().unwrap();
        let channel = channels.entry(id).or_insert_with(|| FakeChannel::text(0));
        change(channel);
    }

    /// The threads of channel `parent` (those the bot opened included).
    pub fn threads_of(&self, parent: u64) -> Vec<u64> {
        let channels = self.inner.channels.lock().unwrap();
        let mut threads: Vec<u64> = channels
            .iter()
            .filter(|(_, c)| c.parent == Some(parent) && c.is_thread())
            .map(|(id, _)| *id)
            .collect();
        threads.sort_unstable();
        threads
    }

    pub fn channel(&self, id: u64) -> Option<FakeChannel> {
        self.inner.channels.lock().unwrap().get(&id).cloned()
    }

    /// Deletes a channel or thread and tells the bot (CHANNEL_DELETE or THREAD_DELETE).
    pub fn delete_channel(&self, id: u64) {
        let channel = self.channel(id).unwrap_or_else(|| FakeChannel::text(0));
        self.change_channel(id, |c| c.deleted = true);
        self.inner.channel_deleted(id, &channel);
    }

    /// The bot is removed from `guild` (GUILD_DELETE without `unavailable`).
    pub fn remove_bot(&self, guild: u64) {
        self.inner.left.lock().unwrap().insert(guild);
        let event = json!({ "id": guild.to_string() });
        check::<serenity::all::UnavailableGuild>("GUILD_DELETE", &event);
        self.inner.dispatch_event("GUILD_DELETE", &event, guild);
    }

    /// The bot is out of `guild` without the gateway saying so (removed
    /// while it was not connected).
    pub fn leave_quietly(&self, guild: u64) {
        self.inner.left.lock().unwrap().insert(guild);
    }

    /// A guild is out of reach at Discord (GUILD_DELETE with `unavailable`).
    pub fn guild_outage(&self, guild: u64) {
        let event = json!({ "id": guild.to_string(), "unavailable": true });
        self.inner.dispatch_event("GUILD_DELETE", &event, guild);
    }

    /// The bot is added (back) to `guild` (GUILD_CREATE).
    pub fn add_bot(&self, guild: u64) {
        self.inner.left.lock().unwrap().remove(&guild);
        let event = self.inner.guild_json(guild);
        self.inner.dispatch_event("GUILD_CREATE", &event, guild);
    }

    /// Asks every shard to reconnect (op 7 RECONNECT); they come back with a
    /// RESUME, and `late` interactions are then dispatched as missed events.
    pub fn reconnect_with(&self, late: Vec<Value>) {
        self.inner.after_resume.lock().unwrap().extend(late);
        let frame = json!({ "op": 7, "d": null }).to_string();
        for shard in self.inner.shards.lock().unwrap().values() {
            let _ = shard.outbox.send(frame.clone());
        }
    }

    /// How many RESUMEs the shards made.
    pub fn resumes(&self) -> u64 {
        self.inner.resumes.load(Ordering::SeqCst)
    }

    /// The commands the bot registered last.
    pub fn registered(&self) -> Option<Value> {
        self.inner.registered.lock().unwrap().clone()
    }
}

impl Inner {
    /// A snowflake made now: Discord's epoch milliseconds, then a counter.
    fn next_id(&self) -> u64 {
        self.id_made(Duration::ZERO)
    }

    /// A snowflake made `ago` before now.
    fn id_made(&self, ago: Duration) -> u64 {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .saturating_sub(ago)
            .as_millis() as u64;
        let count = self.ids.fetch_add(1, Ordering::SeqCst) & 0x3f_ffff;
        ((now - DISCORD_EPOCH_MS) << 22) | count
    }

    /// Sends a dispatch to the shard that owns `guild`.
    fn dispatch_event(&self, kind: &str, data: &Value, guild: u64) {
        let shards = self.shards.lock().unwrap();
        let total = shards
            .values()
            .map(|s| s.total)
            .next()
            .expect("a shard is connected");
        let shard = ((guild >> 22) % u64::from(total)) as u32;
        let target = shards.get(&shard).expect("the guild's shard is connected");
        let seq = self.sequence.fetch_add(1, Ordering::SeqCst) + 2;
        let frame = json!({ "op": 0, "t": kind, "s": seq, "d": data }).to_string();
        if self.log {
            eprintln!("fake discord → shard {shard}: {frame}");
        }
        let mut sent = self.sent_events.lock().unwrap();
        if sent.len() >= 10_000 {
            sent.drain(..5_000);
        }
        sent.push((shard, seq, frame.clone()));
        let _ = target.outbox.send(frame);
    }

    fn channel_deleted(&self, id: u64, channel: &FakeChannel) {
        if channel.is_thread() {
            let event = json!({
                "id": id.to_string(), "guild_id": channel.guild.to_string(),
                "parent_id": channel.parent.map(|p| p.to_string()), "type": channel.kind
            });
            check::<serenity::all::PartialGuildChannel>("THREAD_DELETE", &event);
            self.dispatch_event("THREAD_DELETE", &event, channel.guild);
        } else {
            let event = json!({
                "id": id.to_string(), "type": channel.kind, "guild_id": channel.guild.to_string(),
                "name": "chess", "position": 0, "permission_overwrites": [], "nsfw": false,
                "parent_id": channel.parent.map(|p| p.to_string())
            });
            check::<serenity::all::GuildChannel>("CHANNEL_DELETE", &event);
            self.dispatch_event("CHANNEL_DELETE", &event, channel.guild);
        }
    }

    /// A GUILD_CREATE's guild, its first known text channel as its system channel.
    fn guild_json(&self, guild: u64) -> Value {
        let system = self
            .channels
            .lock()
            .unwrap()
            .iter()
            .filter(|(_, c)| c.guild == guild && c.kind == 0 && !c.deleted)
            .map(|(id, _)| *id)
            .min();
        let mut event = json!({
            "id": guild.to_string(), "name": "club", "icon": null, "icon_hash": null,
            "splash": null, "discovery_splash": null, "owner_id": "1",
            "afk_channel_id": null, "afk_timeout": 300, "widget_enabled": false,
            "widget_channel_id": null, "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "roles": [],
            "emojis": [], "features": [], "mfa_level": 0, "application_id": null,
            "system_channel_id": system.map(|c| c.to_string()), "system_channel_flags": 0,
            "rules_channel_id": null, "max_presences": null, "max_members": 1000
        });
        let more = json!({
            "vanity_url_code": null, "description": null, "banner": null, "premium_tier": 0,
            "premium_subscription_count": 0, "preferred_locale": "en-US",
            "public_updates_channel_id": null, "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50, "nsfw_level": 0, "stickers": [],
            "premium_progress_bar_enabled": false, "joined_at": "2026-01-01T00:00:00.000000+00:00",
            "large": false, "member_count": 3, "voice_states": [], "members": [], "channels": [],
            "threads": [], "presences": [], "stage_instances": [], "guild_scheduled_events": [],
            "safety_alerts_channel_id": null
        });
        if let (Some(event), Some(more)) = (event.as_object_mut(), more.as_object()) {
            event.extend(more.clone());
        }
        check::<serenity::all::Guild>("GUILD_CREATE", &event);
        event
    }
}

impl FakeDiscord {
    /// A slash command as Discord sends it: `path` is the command, its
    /// group and subcommand (`"play draw accept"`), `options` the last
    /// one's options. Discord only sends what the bot registered: the path
    /// and each option name must be in the registration.
    pub fn command(
        &self,
        guild: u64,
        channel: u64,
        user: &FakeUser,
        path: &str,
        options: Value,
    ) -> (u64, Value) {
        if let Some(problem) = self.unregistered(path, &options) {
            panic!("Discord would never send {path}: {problem}");
        }
        self.stale_command(guild, channel, user, path, options)
    }

    /// A command as [`FakeDiscord::command`] builds it, registered or not
    /// (as a client that has not yet seen a new registration may send).
    pub fn stale_command(
        &self,
        guild: u64,
        channel: u64,
        user: &FakeUser,
        path: &str,
        options: Value,
    ) -> (u64, Value) {
        let words: Vec<&str> = path.split(' ').collect();
        let mut options = options;
        for (depth, word) in words.iter().enumerate().skip(1).rev() {
            // The last word is a subcommand (1), any before it a group (2).
            let kind = if depth == words.len() - 1 { 1 } else { 2 };
            options = json!([{ "name": word, "type": kind, "options": options }]);
        }
        let data =
            json!({ "id": "800000000000000001", "name": words[0], "type": 1, "options": options });
        self.interaction(2, guild, channel, user, data, None, &format!("/{path}"))
    }

    /// Why `path` with `options` is not a registered command, if it is not.
    pub fn unregistered(&self, path: &str, options: &Value) -> Option<String> {
        let registered = self.registered()?;
        let mut level = registered.as_array()?.clone();
        for word in path.split(' ') {
            let Some(found) = level.iter().find(|c| c["name"] == word) else {
                return Some(format!("no {word:?}"));
            };
            level = found["options"].as_array().cloned().unwrap_or_default();
        }
        let given = options.as_array().cloned().unwrap_or_default();
        given
            .iter()
            .find_map(|option| {
                let name = &option["name"];
                let known = level.iter().find(|o| o["name"] == *name)?;
                (known["type"] != option["type"])
                    .then(|| format!("{name} is of type {}", known["type"]))
            })
            .or_else(|| {
                let names: Vec<&Value> = level.iter().map(|o| &o["name"]).collect();
                given
                    .iter()
                    .find(|o| !names.contains(&&o["name"]))
                    .map(|o| format!("no option {}", o["name"]))
            })
    }

    /// `interaction` as sent from the user's direct messages with the bot:
    /// no guild, no member (the user instead), a DM channel.
    pub fn in_dm(&self, interaction: (u64, Value), user: &FakeUser) -> (u64, Value) {
        let (id, mut payload) = interaction;
        let object = payload.as_object_mut().expect("an interaction object");
        for key in ["guild_id", "member", "guild_locale"] {
            object.remove(key);
        }
        object.insert("user".into(), user.user_json());
        object.insert("context".into(), json!(1));
        object.insert(
            "authorizing_integration_owners".into(),
            json!({ "1": user.id.to_string() }),
        );
        payload["channel"]["type"] = json!(1);
        (id, payload)
    }

    /// An autocomplete request: `options` marks the typed one `focused`.
    pub fn autocomplete(
        &self,
        guild: u64,
        channel: u64,
        user: &FakeUser,
        name: &str,
        options: Value,
    ) -> (u64, Value) {
        let data =
            json!({ "id": "800000000000000001", "name": name, "type": 1, "options": options });
        self.interaction(4, guild, channel, user, data, None, &format!("/{name}"))
    }

    /// A button click on a message the bot sent.
    pub fn click(
        &self,
        guild: u64,
        channel: u64,
        user: &FakeUser,
        custom_id: &str,
    ) -> (u64, Value) {
        let data = json!({ "custom_id": custom_id, "component_type": 2 });
        let message = message_json(self.next_id(), channel, "", &json!({}));
        self.interaction(3, guild, channel, user, data, Some(message), "a button")
    }

    /// The same interaction as if it had been made `ago` before now (a new
    /// id and token that say so): Discord takes no initial response to it.
    pub fn made_ago(&self, (old, mut payload): (u64, Value), ago: Duration) -> (u64, Value) {
        let id = self.inner.id_made(ago);
        payload["id"] = json!(id.to_string());
        payload["token"] = json!(token(id));
        let mut hooks = self.inner.hooks.lock().unwrap();
        if let Some(mut hook) = hooks.remove(&token(old)) {
            hook.interaction = id;
            hook.sent_at = Instant::now().checked_sub(ago).unwrap_or_else(Instant::now);
            hooks.insert(token(id), hook);
        }
        (id, payload)
    }

    /// The same interaction from a server the bot is not installed in (a
    /// user install used there): only the user authorizes it.
    pub fn user_installed(&self, (id, mut payload): (u64, Value), user: &FakeUser) -> (u64, Value) {
        payload["authorizing_integration_owners"] = json!({ "1": user.id.to_string() });
        payload["app_permissions"] = json!("0");
        (id, payload)
    }

    #[allow(clippy::too_many_arguments)]
    fn interaction(
        &self,
        kind: u8,
        guild: u64,
        channel: u64,
        user: &FakeUser,
        data: Value,
        message: Option<Value>,
        called: &str,
    ) -> (u64, Value) {
        let id = self.next_id();
        let known = self
            .channel(channel)
            .unwrap_or_else(|| FakeChannel::text(guild));
        self.inner.hooks.lock().unwrap().insert(
            token(id),
            Hook {
                interaction: id,
                sent_at: Instant::now(),
                channel,
                user: user.name.clone(),
                called: called.to_owned(),
                original: Original::None,
            },
        );
        let mut channel_json =
            json!({ "id": channel.to_string(), "type": known.kind, "name": known.name });
        if let Some(parent) = known.parent {
            channel_json["parent_id"] = json!(parent.to_string());
        }
        let mut payload = json!({
            "id": id.to_string(),
            "application_id": APPLICATION_ID.to_string(),
            "type": kind,
            "data": data,
            "guild_id": guild.to_string(),
            "channel": channel_json,
            "channel_id": channel.to_string(),
            "member": user.member_json(),
            "token": token(id),
            "version": 1,
            "app_permissions": known.permissions.to_string(),
            "locale": user.locale,
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": { "0": guild.to_string() },
            "context": 0,
            "attachment_size_limit": 10_485_760
        });
        if let Some(message) = message {
            payload["message"] = message;
        }
        (id, payload)
    }
}

/// The token of interaction `id` (unique, so its followups can be found).
pub fn token(id: u64) -> String {
    format!("token-{id}")
}

/// Panics with serenity's own complaint if `payload` would be dropped.
fn check<T: serde::de::DeserializeOwned>(what: &str, payload: &Value) {
    if let Err(error) = serde_json::from_value::<T>(payload.clone()) {
        panic!("fake Discord built an invalid {what}: {error}\n{payload:#}");
    }
}

fn bot_user() -> Value {
    json!({
        "id": APPLICATION_ID.to_string(), "username": "pawnpost", "discriminator": "0",
        "global_name": null, "avatar": null, "bot": true, "flags": 0, "verified": true,
        "mfa_enabled": false
    })
}

/// A message as Discord returns it.
fn message_json(id: u64, channel: u64, content: &str, sent: &Value) -> Value {
    let message = json!({
        "id": id.to_string(),
        "channel_id": channel.to_string(),
        "author": bot_user(),
        "content": content,
        "timestamp": "2026-01-01T00:00:00.000000+00:00",
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": sent.get("embeds").cloned().unwrap_or(json!([])),
        "pinned": false,
        "type": 0,
        "flags": sent.get("flags").cloned().unwrap_or(json!(0)),
        "components": []
    });
    check::<serenity::all::Message>("message", &message);
    message
}
