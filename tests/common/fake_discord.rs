//! A fake Discord on 127.0.0.1 for tests and benches: the REST endpoints
//! the bot calls (recorded for assertions) and a ws:// gateway that speaks
//! HELLO, IDENTIFY, READY and heartbeats, holds one connection per shard,
//! and dispatches INTERACTION_CREATE to the shard that owns the guild.
//!
//! serenity drops events it cannot deserialize without a word, so every
//! payload built here is checked against serenity's own model before it is
//! sent: a test fails loudly instead of waiting for nothing.

#![allow(dead_code)]

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::ws::{Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::serve::ListenerExt;
use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc};

/// The bot's application (and user) id in READY.
pub const APPLICATION_ID: u64 = 900_000_000_000_000_001;
/// How long a test waits for the bot before failing.
pub const PATIENCE: Duration = Duration::from_secs(10);

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

    pub fn is_ephemeral(&self) -> bool {
        self.message()["flags"].as_u64().unwrap_or(0) & 64 != 0
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
    /// The channel of each interaction's token, for its webhook messages.
    channels: Mutex<HashMap<String, u64>>,
    /// Who waits for the callback of which interaction.
    waiting: Mutex<HashMap<u64, tokio::sync::oneshot::Sender<Recorded>>>,
    /// When each interaction was sent, and whether it was answered: like
    /// Discord, the fake takes one initial response, within 3 seconds.
    sent_at: Mutex<HashMap<u64, Instant>>,
    acknowledged: Mutex<std::collections::HashSet<u64>>,
    /// While set, answers to interactions (callbacks, webhooks) never
    /// arrive: the bot's requests hang as on a dead link, unrecorded.
    holding: std::sync::atomic::AtomicBool,
    /// Messages posted with an enforced nonce, by (channel, nonce).
    nonces: Mutex<HashMap<(u64, String), Value>>,
    /// Channels where the bot lacks a permission.
    refusing: Mutex<HashMap<u64, Missing>>,
    /// Users whose direct messages are closed to the bot.
    closed_dms: Mutex<std::collections::HashSet<u64>>,
    /// Each direct-message channel's recipient.
    dm_channels: Mutex<HashMap<u64, u64>>,
    /// Channel posts still to refuse with 429 (a rate limit).
    limited_posts: AtomicU64,
    /// The commands the bot registered last (global or for a guild), as
    /// Discord keeps them: a later registration replaces the whole set.
    registered: Mutex<Option<Value>>,
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

/// How long Discord waits for an interaction's initial response.
pub const INTERACTION_DEADLINE: Duration = Duration::from_secs(3);

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
            ids: AtomicU64::new(1_100_000_000_000_000_000),
            log: std::env::var_os("FAKE_DISCORD_LOG").is_some(),
            ..Inner::default()
        });
        *inner.base.lock().unwrap() = format!("127.0.0.1:{}", addr.port());
        let app = Router::new()
            .route("/", get(gateway))
            .fallback(rest)
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

    /// A fresh snowflake (interaction ids, message ids).
    pub fn next_id(&self) -> u64 {
        self.inner.ids.fetch_add(1, Ordering::SeqCst)
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
        let shards = self.inner.shards.lock().unwrap();
        let total = shards
            .values()
            .map(|s| s.total)
            .next()
            .expect("a shard is connected");
        let shard = ((guild >> 22) % u64::from(total)) as u32;
        let target = shards.get(&shard).expect("the guild's shard is connected");
        let seq = self.inner.sequence.fetch_add(1, Ordering::SeqCst) + 2;
        let frame = json!({ "op": 0, "t": "INTERACTION_CREATE", "s": seq, "d": interaction });
        if self.inner.log {
            eprintln!("fake discord → shard {shard}: {frame}");
        }
        let _ = target.outbox.send(frame.to_string());
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

    /// Every request so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.inner.requests.lock().unwrap().clone()
    }

    /// How many requests so far.
    pub fn request_count(&self) -> usize {
        self.inner.requests.lock().unwrap().len()
    }

    /// Waits for the first request after `from` (an index) that `matches`.
    pub async fn wait_for(&self, from: usize, matches: impl Fn(&Recorded) -> bool) -> Recorded {
        let deadline = Instant::now() + PATIENCE;
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
                    .map(|r| format!("{} {}", r.method, r.path))
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
    /// `retry_after`, as Discord does past a route's rate limit.
    pub fn rate_limit_posts(&self, posts: u64) {
        self.inner.limited_posts.store(posts, Ordering::SeqCst);
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
        self.interaction(2, guild, channel, user, data, None)
    }

    /// The commands the bot registered last.
    pub fn registered(&self) -> Option<Value> {
        self.inner.registered.lock().unwrap().clone()
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
        self.interaction(4, guild, channel, user, data, None)
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
        self.interaction(3, guild, channel, user, data, Some(message))
    }

    fn interaction(
        &self,
        kind: u8,
        guild: u64,
        channel: u64,
        user: &FakeUser,
        data: Value,
        message: Option<Value>,
    ) -> (u64, Value) {
        let id = self.next_id();
        self.inner
            .channels
            .lock()
            .unwrap()
            .insert(token(id), channel);
        self.inner
            .sent_at
            .lock()
            .unwrap()
            .insert(id, Instant::now());
        let mut payload = json!({
            "id": id.to_string(),
            "application_id": APPLICATION_ID.to_string(),
            "type": kind,
            "data": data,
            "guild_id": guild.to_string(),
            "channel": { "id": channel.to_string(), "type": 0, "name": "chess" },
            "channel_id": channel.to_string(),
            "member": user.member_json(),
            "token": token(id),
            "version": 1,
            "app_permissions": "2251799813685247",
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

async fn gateway(ws: WebSocketUpgrade, State(inner): State<Arc<Inner>>) -> Response {
    ws.on_upgrade(move |socket| shard_connection(socket, inner))
}

/// One shard's connection: HELLO, then IDENTIFY → READY, heartbeats, dispatches.
async fn shard_connection(mut socket: WebSocket, inner: Arc<Inner>) {
    let hello = json!({ "op": 10, "d": { "heartbeat_interval": 41_250 } });
    if socket
        .send(WsMessage::Text(hello.to_string().into()))
        .await
        .is_err()
    {
        return;
    }
    let (outbox, mut outgoing) = mpsc::unbounded_channel::<String>();
    let mut shard_id = None;
    loop {
        tokio::select! {
            frame = outgoing.recv() => {
                let Some(frame) = frame else { break };
                if socket.send(WsMessage::Text(frame.into())).await.is_err() {
                    break;
                }
            }
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(WsMessage::Text(text))) => text.to_string(),
                    Some(Ok(WsMessage::Binary(_) | WsMessage::Ping(_) | WsMessage::Pong(_))) => continue,
                    _ => break,
                };
                let Ok(frame) = serde_json::from_str::<Value>(&text) else { continue };
                match frame["op"].as_u64() {
                    Some(1) => {
                        let ack = json!({ "op": 11 }).to_string();
                        if socket.send(WsMessage::Text(ack.into())).await.is_err() {
                            break;
                        }
                    }
                    Some(2) => {
                        let id = frame["d"]["shard"][0].as_u64().unwrap_or(0) as u32;
                        let total = frame["d"]["shard"][1].as_u64().unwrap_or(1).max(1) as u32;
                        let base = inner.base.lock().unwrap().clone();
                        let ready = json!({
                            "v": 10,
                            "user": bot_user(),
                            "guilds": [],
                            "session_id": format!("session-{id}"),
                            "resume_gateway_url": format!("ws://{base}"),
                            "shard": [id, total],
                            "application": { "id": APPLICATION_ID.to_string(), "flags": 0 }
                        });
                        check::<serenity::all::Ready>("READY", &ready);
                        let frame = json!({ "op": 0, "t": "READY", "s": 1, "d": ready });
                        if socket.send(WsMessage::Text(frame.to_string().into())).await.is_err() {
                            break;
                        }
                        inner.shards.lock().unwrap().insert(id, Shard { total, outbox: outbox.clone() });
                        shard_id = Some(id);
                        inner.connected.notify_waiters();
                    }
                    _ => {}
                }
            }
        }
    }
    if let Some(id) = shard_id {
        let mut shards = inner.shards.lock().unwrap();
        if shards
            .get(&id)
            .is_some_and(|s| s.outbox.same_channel(&outbox))
        {
            shards.remove(&id);
        }
    }
}

/// Every REST call: recorded, then answered like Discord would.
async fn rest(State(inner): State<Arc<Inner>>, request: Request) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let answers_an_interaction =
        path.starts_with("/api/v10/interactions/") || path.starts_with("/api/v10/webhooks/");
    if answers_an_interaction && inner.holding.load(Ordering::SeqCst) {
        std::future::pending::<()>().await;
    }
    let is_multipart = request
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/"));
    let (json, files) = if is_multipart {
        read_multipart(request).await
    } else {
        let body = Bytes::from_request(request, &()).await.unwrap_or_default();
        (
            serde_json::from_slice(&body).unwrap_or(Value::Null),
            Vec::new(),
        )
    };
    if inner.log {
        eprintln!(
            "fake discord ← {method} {path} {json} ({} files)",
            files.len()
        );
    }
    // Discord checks limits and permissions before it looks at a nonce.
    let refused = too_large(&files)
        .or_else(|| rate_limited(&inner, &method, &path))
        .or_else(|| refusal(&inner, &method, &path, !files.is_empty()))
        .or_else(|| invalid_registration(&method, &path, &json));
    let nonced = || post_with_nonce(&inner, &method, &path, &json);
    let (answer, repeated) = match refused.map(Err).or_else(|| nonced().map(Ok)) {
        Some(Err(refused)) => (refused, false),
        Some(Ok((message, repeated))) => (
            (StatusCode::OK, axum::Json(message)).into_response(),
            repeated,
        ),
        None => (answer(&inner, &method, &path, &json), false),
    };
    let recorded = Recorded {
        method: method.to_string(),
        path,
        json,
        files,
        at: Instant::now(),
        repeated,
        status: answer.status().as_u16(),
    };
    let interaction = recorded
        .path
        .strip_prefix("/api/v10/interactions/")
        .and_then(|rest| rest.split('/').next())
        .and_then(|id| id.parse::<u64>().ok());
    // Recorded before the waiter hears of it, so that what it reads next
    // (`requests()`) already holds this request.
    inner.requests.lock().unwrap().push(recorded.clone());
    if let Some(tell) = interaction.and_then(|id| inner.waiting.lock().unwrap().remove(&id)) {
        let _ = tell.send(recorded);
    }
    inner.recorded.notify_waiters();
    answer
}

async fn read_multipart(request: Request) -> (Value, Vec<File>) {
    let Ok(mut multipart) = Multipart::from_request(request, &()).await else {
        return (Value::Null, Vec::new());
    };
    let (mut json, mut files) = (Value::Null, Vec::new());
    while let Ok(Some(field)) = multipart.next_field().await {
        let name = field.name().unwrap_or_default().to_owned();
        let filename = field.file_name().map(str::to_owned);
        let content_type = field.content_type().unwrap_or_default().to_owned();
        let bytes = field.bytes().await.unwrap_or_default();
        match filename {
            Some(filename) => files.push(File {
                filename,
                content_type,
                bytes: bytes.to_vec(),
            }),
            None if name == "payload_json" => {
                json = serde_json::from_slice(&bytes).unwrap_or(Value::Null)
            }
            None => {}
        }
    }
    (json, files)
}

/// Discord's answer to an interaction's initial response: taken once, and
/// only within [`INTERACTION_DEADLINE`] of the interaction (else 10062,
/// "Unknown interaction"; a second one is 40060).
fn initial_response(inner: &Inner, interaction: u64) -> Response {
    let refuse = |status: StatusCode, code: u32, message: &str| {
        (
            status,
            axum::Json(json!({ "message": message, "code": code })),
        )
            .into_response()
    };
    let sent_at = inner.sent_at.lock().unwrap().get(&interaction).copied();
    if sent_at.is_some_and(|at| at.elapsed() > INTERACTION_DEADLINE) {
        return refuse(StatusCode::NOT_FOUND, 10062, "Unknown interaction");
    }
    if !inner.acknowledged.lock().unwrap().insert(interaction) {
        return refuse(
            StatusCode::BAD_REQUEST,
            40060,
            "Interaction has already been acknowledged.",
        );
    }
    StatusCode::NO_CONTENT.into_response()
}

/// The most a request's files may weigh together: Discord's default
/// upload limit (a server's boosts raise it; `attachment_size_limit`).
pub const MAX_UPLOAD: usize = 10 * 1024 * 1024;

/// Discord's 413 (40005, Request entity too large) past [`MAX_UPLOAD`].
fn too_large(files: &[File]) -> Option<Response> {
    let total: usize = files.iter().map(|file| file.bytes.len()).sum();
    (total > MAX_UPLOAD).then(|| {
        (
            StatusCode::PAYLOAD_TOO_LARGE,
            axum::Json(json!({ "message": "Request entity too large", "code": 40005 })),
        )
            .into_response()
    })
}

/// A 429 for a channel post while [`FakeDiscord::rate_limit_posts`] says so,
/// with Discord's body and headers.
fn rate_limited(inner: &Inner, method: &Method, path: &str) -> Option<Response> {
    let posting = method == Method::POST
        && path.starts_with("/api/v10/channels/")
        && path.ends_with("/messages");
    let take = |left: u64| left.checked_sub(1);
    if !posting
        || inner
            .limited_posts
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, take)
            .is_err()
    {
        return None;
    }
    let mut response = (
        StatusCode::TOO_MANY_REQUESTS,
        axum::Json(json!({
            "message": "You are being rate limited.", "retry_after": 0.1, "global": false
        })),
    )
        .into_response();
    let headers = response.headers_mut();
    headers.insert("retry-after", "1".parse().unwrap());
    headers.insert("x-ratelimit-scope", "user".parse().unwrap());
    headers.insert("x-ratelimit-remaining", "0".parse().unwrap());
    Some(response)
}

/// Discord's 400 (50035, Invalid Form Body) for a command registration it
/// would refuse: names of 1–32 lower-case letters, digits, `-` or `_`;
/// descriptions of 1–100 characters; at most 25 options and 25 choices; at
/// most 8,000 characters of names, descriptions and values per command; the
/// same for each localization.
fn invalid_registration(method: &Method, path: &str, body: &Value) -> Option<Response> {
    if method != Method::PUT || !path.ends_with("/commands") {
        return None;
    }
    let problem = body
        .as_array()
        .map_or(Some("not a list of commands".to_owned()), |commands| {
            commands.iter().find_map(command_problem)
        })?;
    Some(
        (
            StatusCode::BAD_REQUEST,
            axum::Json(
                json!({ "message": format!("Invalid Form Body: {problem}"), "code": 50035 }),
            ),
        )
            .into_response(),
    )
}

/// Why Discord would refuse one command (or option), if it would.
fn command_problem(command: &Value) -> Option<String> {
    fn name_ok(name: &str) -> bool {
        let length = name.chars().count();
        (1..=32).contains(&length)
            && name
                .chars()
                .all(|c| c == '-' || c == '_' || c.is_alphanumeric() && !c.is_uppercase())
    }
    fn description_ok(text: &str, is_command: bool, kind: u64) -> bool {
        // Context-menu commands (types 2 and 3) have none.
        let length = text.chars().count();
        (1..=100).contains(&length) || (is_command && kind != 1 && length == 0)
    }
    fn strings<'a>(value: &'a Value, key: &str) -> Vec<&'a str> {
        let mut all: Vec<&str> = value[key].as_str().into_iter().collect();
        if let Some(localized) = value[format!("{key}_localizations")].as_object() {
            all.extend(localized.values().filter_map(Value::as_str));
        }
        all
    }
    fn check(item: &Value, is_command: bool, total: &mut usize) -> Option<String> {
        let kind = item["type"].as_u64().unwrap_or(1);
        let name = item["name"].as_str().unwrap_or("");
        for n in strings(item, "name") {
            if !name_ok(n) {
                return Some(format!("bad name {n:?}"));
            }
            *total += n.chars().count();
        }
        for d in strings(item, "description") {
            if !description_ok(d, is_command, kind) {
                return Some(format!("{name}: bad description {d:?}"));
            }
            *total += d.chars().count();
        }
        let options = item["options"].as_array().cloned().unwrap_or_default();
        let choices = item["choices"].as_array().cloned().unwrap_or_default();
        if options.len() > 25 || choices.len() > 25 {
            return Some(format!("{name}: over 25 options or choices"));
        }
        for choice in &choices {
            for n in strings(choice, "name") {
                if !(1..=100).contains(&n.chars().count()) {
                    return Some(format!("{name}: bad choice name {n:?}"));
                }
                *total += n.chars().count();
            }
            *total += choice["value"].as_str().map_or(0, |v| v.chars().count());
        }
        options
            .iter()
            .find_map(|option| check(option, false, total))
    }
    let mut total = 0;
    if let Some(problem) = check(command, true, &mut total) {
        return Some(problem);
    }
    (total > 8000).then(|| format!("{}: {total} characters", command["name"]))
}

/// Discord's refusal of a message the bot may not post: 403 with 50001 or
/// 50013 in a channel without the permission, 50007 in the direct messages
/// of a user who closed them.
fn refusal(inner: &Inner, method: &Method, path: &str, has_files: bool) -> Option<Response> {
    let parts: Vec<&str> = path.trim_start_matches("/api/v10/").split('/').collect();
    let (&Method::POST, ["channels", channel, "messages"]) = (method, parts.as_slice()) else {
        return None;
    };
    let channel: u64 = channel.parse().unwrap_or(0);
    let refuse = |code: u32, message: &str| {
        Some(
            (
                StatusCode::FORBIDDEN,
                axum::Json(json!({ "message": message, "code": code })),
            )
                .into_response(),
        )
    };
    let recipient = inner.dm_channels.lock().unwrap().get(&channel).copied();
    if recipient.is_some_and(|user| inner.closed_dms.lock().unwrap().contains(&user)) {
        return refuse(50007, "Cannot send messages to this user");
    }
    match inner.refusing.lock().unwrap().get(&channel) {
        Some(Missing::Access) => refuse(50001, "Missing Access"),
        Some(Missing::SendMessages) => refuse(50013, "Missing Permissions"),
        Some(Missing::AttachFiles) if has_files => refuse(50013, "Missing Permissions"),
        _ => None,
    }
}

/// A channel message posted with an enforced nonce, and whether Discord
/// took that nonce before: then it answers with the first message and
/// creates none. `None` for every other request.
fn post_with_nonce(
    inner: &Inner,
    method: &Method,
    path: &str,
    body: &Value,
) -> Option<(Value, bool)> {
    let parts: Vec<&str> = path.trim_start_matches("/api/v10/").split('/').collect();
    let (&Method::POST, ["channels", channel, "messages"]) = (method, parts.as_slice()) else {
        return None;
    };
    let nonce = body["nonce"]
        .as_str()
        .filter(|_| body["enforce_nonce"] == true)?;
    let key = (channel.parse().unwrap_or(0), nonce.to_owned());
    let mut nonces = inner.nonces.lock().unwrap();
    if let Some(first) = nonces.get(&key) {
        return Some((first.clone(), true));
    }
    let message = message_json(
        inner.ids.fetch_add(1, Ordering::SeqCst),
        key.0,
        body["content"].as_str().unwrap_or(""),
        body,
    );
    nonces.insert(key, message.clone());
    Some((message, false))
}

fn answer(inner: &Inner, method: &Method, path: &str, body: &Value) -> Response {
    let base = inner.base.lock().unwrap().clone();
    let parts: Vec<&str> = path.trim_start_matches("/api/v10/").split('/').collect();
    let id = || inner.ids.fetch_add(1, Ordering::SeqCst);
    let ok = |value: Value| (StatusCode::OK, axum::Json(value)).into_response();
    match (method.as_str(), parts.as_slice()) {
        ("GET", ["gateway"]) => ok(json!({ "url": format!("ws://{base}") })),
        ("GET", ["gateway", "bot"]) => ok(json!({
            "url": format!("ws://{base}"),
            "shards": inner.recommended_shards,
            "session_start_limit": { "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1 }
        })),
        ("POST", ["interactions", interaction, _, "callback"]) => {
            initial_response(inner, interaction.parse().unwrap_or_default())
        }
        ("PUT", ["applications", _, "commands"])
        | ("PUT", ["applications", _, "guilds", _, "commands"]) => {
            // Discord answers with the commands as it keeps them, ids added.
            let mut commands = body.clone();
            for command in commands.as_array_mut().into_iter().flatten() {
                command["id"] = json!(id().to_string());
                command["application_id"] = json!(APPLICATION_ID.to_string());
                command["version"] = json!("1");
            }
            *inner.registered.lock().unwrap() = Some(commands.clone());
            ok(commands)
        }
        ("POST", ["webhooks", _, token])
        | ("PATCH" | "GET", ["webhooks", _, token, "messages", _]) => {
            let channel = inner.channels.lock().unwrap().get(*token).copied();
            let content = body["content"].as_str().unwrap_or("");
            ok(message_json(id(), channel.unwrap_or(1), content, body))
        }
        ("DELETE", ["webhooks", _, _, "messages", _]) => StatusCode::NO_CONTENT.into_response(),
        ("POST", ["channels", channel, "messages"]) => {
            let channel = channel.parse().unwrap_or(1);
            ok(message_json(
                id(),
                channel,
                body["content"].as_str().unwrap_or(""),
                body,
            ))
        }
        ("PATCH", ["channels", channel, "messages", message]) => ok(message_json(
            message.parse().unwrap_or(1),
            channel.parse().unwrap_or(1),
            body["content"].as_str().unwrap_or(""),
            body,
        )),
        ("POST", ["users", "@me", "channels"]) => {
            let channel = id();
            let recipient = body["recipient_id"]
                .as_str()
                .and_then(|r| r.parse().ok())
                .unwrap_or(0);
            inner.dm_channels.lock().unwrap().insert(channel, recipient);
            ok(json!({
            "id": channel.to_string(), "type": 1, "last_message_id": null,
            "recipients": [{ "id": body["recipient_id"].clone(), "username": "player", "discriminator": "0", "avatar": null }]
            }))
        }
        ("POST", ["channels", parent, "messages", _, "threads"]) => ok(json!({
            "id": id().to_string(), "type": 11, "guild_id": "1", "parent_id": parent,
            "name": body["name"].clone(), "position": 0, "nsfw": false, "permission_overwrites": []
        })),
        _ => (
            StatusCode::NOT_FOUND,
            axum::Json(json!({ "message": "Unknown route", "code": 0 })),
        )
            .into_response(),
    }
}
