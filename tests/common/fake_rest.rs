//! The fake Discord's REST endpoints: every call recorded, then answered
//! as Discord would (see the module above for what it refuses).

// A refusal is an `Answer` like any other: small enough for a test.
#![allow(clippy::result_large_err)]

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::rules::{self, Count};
use super::{
    APPLICATION_ID, ATTACH_FILES, FakeChannel, File, Hook, INTERACTION_DEADLINE, Inner, Missing,
    Original, Recorded, SEND_MESSAGES, SEND_MESSAGES_IN_THREADS, Seen, TOKEN_LIFETIME,
    VIEW_CHANNEL, message_json,
};

/// What the fake answers, and what the answer made readable.
struct Answer {
    response: Response,
    repeated: bool,
    seen: Seen,
    shown: String,
}

impl Answer {
    fn ok(value: Value) -> Answer {
        Answer {
            response: (StatusCode::OK, axum::Json(value)).into_response(),
            repeated: false,
            seen: Seen::Nothing,
            shown: String::new(),
        }
    }

    fn no_content() -> Answer {
        Answer {
            response: StatusCode::NO_CONTENT.into_response(),
            repeated: false,
            seen: Seen::Nothing,
            shown: String::new(),
        }
    }

    fn refused(status: StatusCode, code: u32, message: &str) -> Answer {
        Answer {
            response: (
                status,
                axum::Json(json!({ "message": message, "code": code })),
            )
                .into_response(),
            repeated: false,
            seen: Seen::Nothing,
            shown: String::new(),
        }
    }

    fn seen(mut self, seen: Seen, shown: String) -> Answer {
        self.seen = seen;
        self.shown = shown;
        self
    }
}

/// Every REST call: recorded, then answered like Discord would.
pub async fn rest(State(inner): State<Arc<Inner>>, request: Request) -> Response {
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
    let answer = decide(&inner, &method, &path, &json, &files);
    let status = answer.response.status().as_u16();
    let recorded = Recorded {
        method: method.to_string(),
        path,
        json,
        files,
        at: Instant::now(),
        repeated: answer.repeated,
        status,
        code: 0,
        seen: answer.seen,
        shown: answer.shown,
    };
    let (response, code) = with_code(answer.response).await;
    let recorded = Recorded { code, ..recorded };
    if inner.log && status >= 400 {
        eprintln!(
            "fake discord refused {} {}: {status} {code}",
            recorded.method, recorded.path
        );
    }
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
    response
}

/// The response again, and the JSON error code it carries (0 for none).
async fn with_code(response: Response) -> (Response, u64) {
    if response.status().is_success() {
        return (response, 0);
    }
    let (parts, body) = response.into_parts();
    let bytes = axum::body::to_bytes(body, 1 << 20)
        .await
        .unwrap_or_default();
    let code = serde_json::from_slice::<Value>(&bytes)
        .ok()
        .and_then(|v| v["code"].as_u64())
        .unwrap_or(0);
    (
        Response::from_parts(parts, axum::body::Body::from(bytes)),
        code,
    )
}

fn decide(inner: &Inner, method: &Method, path: &str, json: &Value, files: &[File]) -> Answer {
    if let Some(big) = files.iter().find(|f| f.bytes.len() > rules::MAX_FILE) {
        let message = format!("Request entity too large: {}", big.filename);
        return Answer::refused(StatusCode::PAYLOAD_TOO_LARGE, 40005, &message);
    }
    if let Some(limited) = injected(inner, method, path) {
        return limited;
    }
    let parts: Vec<&str> = path.trim_start_matches("/api/v10/").split('/').collect();
    match (method.as_str(), parts.as_slice()) {
        ("POST", ["interactions", id, token, "callback"]) => {
            callback(inner, id.parse().unwrap_or(0), token, json, files.len())
        }
        ("POST", ["webhooks", _, token]) => followup(inner, token, json, files.len()),
        ("PATCH", ["webhooks", _, token, "messages", "@original"]) => {
            edit_original(inner, token, json, files.len())
        }
        ("DELETE", ["webhooks", _, token, "messages", "@original"]) => {
            delete_original(inner, token)
        }
        ("GET", ["webhooks", _, token, "messages", "@original"]) => get_original(inner, token),
        ("POST", ["channels", channel, "messages"]) => {
            channel_post(inner, channel.parse().unwrap_or(1), json, files.len())
        }
        ("PATCH", ["channels", channel, "messages", message]) => {
            edit_message(inner, channel.parse().unwrap_or(1), message, json)
        }
        ("PATCH", ["channels", channel]) => {
            open_thread_again(inner, channel.parse().unwrap_or(1), json)
        }
        _ => other(inner, method, &parts, json),
    }
}

/// The routes that only answer: the gateway, registration, threads, DMs.
fn other(inner: &Inner, method: &Method, parts: &[&str], json: &Value) -> Answer {
    let base = inner.base.lock().unwrap().clone();
    match (method.as_str(), parts) {
        ("GET", ["gateway"]) => Answer::ok(json!({ "url": format!("ws://{base}") })),
        ("GET", ["gateway", "bot"]) => Answer::ok(json!({
            "url": format!("ws://{base}"),
            "shards": inner.recommended_shards,
            "session_start_limit": { "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1 }
        })),
        ("PUT", ["applications", _, "commands"])
        | ("PUT", ["applications", _, "guilds", _, "commands"]) => register(inner, json),
        ("POST", ["users", "@me", "channels"]) => {
            let channel = inner.next_id();
            let recipient = json["recipient_id"]
                .as_str()
                .and_then(|r| r.parse().ok())
                .unwrap_or(0);
            inner.dm_channels.lock().unwrap().insert(channel, recipient);
            Answer::ok(json!({
                "id": channel.to_string(), "type": 1, "last_message_id": null,
                "recipients": [{ "id": json["recipient_id"].clone(), "username": "player", "discriminator": "0", "avatar": null }]
            }))
        }
        ("POST", ["channels", parent, "messages", _, "threads"]) => {
            let id = inner.next_id();
            let parent: u64 = parent.parse().unwrap_or(1);
            let guild = inner
                .channels
                .lock()
                .unwrap()
                .get(&parent)
                .map_or(1, |c| c.guild);
            let mut thread = FakeChannel::text(guild);
            thread.kind = 11;
            thread.parent = Some(parent);
            thread.name = json["name"].as_str().unwrap_or("thread").to_owned();
            inner.channels.lock().unwrap().insert(id, thread);
            Answer::ok(json!({
                "id": id.to_string(), "type": 11, "guild_id": guild.to_string(), "parent_id": parent.to_string(),
                "name": json["name"].clone(), "position": 0, "nsfw": false, "permission_overwrites": []
            }))
        }
        _ => Answer::refused(StatusCode::NOT_FOUND, 0, "Unknown route"),
    }
}

/// A 429 the test asked for, with Discord's body and headers.
fn injected(inner: &Inner, method: &Method, path: &str) -> Option<Answer> {
    let mut injected = inner.injected.lock().unwrap();
    let rule = injected
        .iter_mut()
        .find(|r| r.left > 0 && r.method == method.as_str() && path.starts_with(&r.prefix))?;
    rule.left -= 1;
    let count = Count {
        allowed: false,
        limit: 5,
        remaining: 0,
        reset_after: rule.retry_after,
    };
    Some(too_many(&count, path))
}

/// Discord's 429: `retry_after` in the body (seconds, with a fraction),
/// `Retry-After` and the X-RateLimit headers.
fn too_many(count: &Count, bucket: &str) -> Answer {
    let seconds = count.reset_after.as_secs_f64();
    let mut response = (
        StatusCode::TOO_MANY_REQUESTS,
        axum::Json(json!({
            "message": "You are being rate limited.", "retry_after": seconds, "global": false
        })),
    )
        .into_response();
    add_limit_headers(&mut response, count, bucket);
    let headers = response.headers_mut();
    let whole = count.reset_after.as_secs() + u64::from(count.reset_after.subsec_nanos() > 0);
    headers.insert("retry-after", whole.to_string().parse().unwrap());
    headers.insert("x-ratelimit-scope", "user".parse().unwrap());
    Answer {
        response,
        repeated: false,
        seen: Seen::Nothing,
        shown: String::new(),
    }
}

fn add_limit_headers(response: &mut Response, count: &Count, bucket: &str) {
    let headers = response.headers_mut();
    headers.insert(
        "x-ratelimit-limit",
        count.limit.to_string().parse().unwrap(),
    );
    headers.insert(
        "x-ratelimit-remaining",
        count.remaining.to_string().parse().unwrap(),
    );
    let reset = format!("{:.3}", count.reset_after.as_secs_f64());
    headers.insert("x-ratelimit-reset-after", reset.parse().unwrap());
    let bucket: String = bucket
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(32)
        .collect();
    headers.insert("x-ratelimit-bucket", bucket.parse().unwrap());
}

/// Counts a call against a limit; a 429 past it.
fn limited(
    inner: &Inner,
    limit: Option<(u32, Duration)>,
    bucket: &str,
) -> Result<Option<Count>, Answer> {
    let Some((limit, window)) = limit else {
        return Ok(None);
    };
    let count = inner
        .windows
        .lock()
        .unwrap()
        .count(bucket, limit, window, Instant::now());
    if count.allowed {
        Ok(Some(count))
    } else {
        Err(too_many(&count, bucket))
    }
}

/// 50035 for a body over Discord's limits, 50006 for an empty one.
fn invalid(json: &Value, files: usize) -> Option<Answer> {
    if let Some(problem) = rules::message_problem(json) {
        let message = format!("Invalid Form Body: {problem}");
        return Some(Answer::refused(StatusCode::BAD_REQUEST, 50035, &message));
    }
    rules::is_empty_message(json, files).then(|| {
        Answer::refused(
            StatusCode::BAD_REQUEST,
            50006,
            "Cannot send an empty message",
        )
    })
}

fn text_of(json: &Value) -> String {
    let mut text = json["content"].as_str().unwrap_or("").to_owned();
    for embed in json["embeds"].as_array().into_iter().flatten() {
        for key in ["title", "description"] {
            if let Some(s) = embed[key].as_str() {
                text.push('\n');
                text.push_str(s);
            }
        }
    }
    text
}

fn is_flagged(json: &Value) -> bool {
    json["flags"].as_u64().unwrap_or(0) & 64 != 0
}

fn hook_of(inner: &Inner, token: &str) -> Option<Hook> {
    inner.hooks.lock().unwrap().get(token).cloned()
}

fn set_original(inner: &Inner, token: &str, original: Original) {
    if let Some(hook) = inner.hooks.lock().unwrap().get_mut(token) {
        hook.original = original;
    }
}

fn seen_as(ephemeral: bool) -> Seen {
    if ephemeral {
        Seen::Author
    } else {
        Seen::Everyone
    }
}

/// An interaction's initial response: taken once, within
/// [`INTERACTION_DEADLINE`] (else 10062; a second one is 40060).
fn callback(inner: &Inner, id: u64, token: &str, json: &Value, files: usize) -> Answer {
    let Some(hook) = hook_of(inner, token).filter(|h| h.interaction == id) else {
        return Answer::refused(StatusCode::NOT_FOUND, 10062, "Unknown interaction");
    };
    if hook.sent_at.elapsed() > INTERACTION_DEADLINE {
        return Answer::refused(StatusCode::NOT_FOUND, 10062, "Unknown interaction");
    }
    if hook.original != Original::None {
        return Answer::refused(
            StatusCode::BAD_REQUEST,
            40060,
            "Interaction has already been acknowledged.",
        );
    }
    let data = &json["data"];
    let kind = json["type"].as_u64().unwrap_or(0);
    if matches!(kind, 4 | 7)
        && let Some(refused) = invalid(data, files).filter(|_| kind == 4)
    {
        return refused;
    }
    let ephemeral = is_flagged(data);
    let (original, seen, shown) = match kind {
        4 => (
            Original::Shown { ephemeral },
            seen_as(ephemeral),
            text_of(data),
        ),
        5 => {
            let shown = format!("{} used {} — pawnpost is thinking…", hook.user, hook.called);
            (Original::Deferred { ephemeral }, seen_as(ephemeral), shown)
        }
        6 | 7 => (Original::Updated, Seen::Everyone, String::new()),
        _ => (
            Original::Shown { ephemeral: true },
            Seen::Nothing,
            String::new(),
        ),
    };
    set_original(inner, token, original);
    Answer::no_content().seen(seen, shown)
}

/// The webhook's refusals: an unknown token, or one past its 15 minutes.
fn live_hook(inner: &Inner, token: &str) -> Result<Hook, Answer> {
    let Some(hook) = hook_of(inner, token) else {
        return Err(Answer::refused(
            StatusCode::NOT_FOUND,
            10015,
            "Unknown Webhook",
        ));
    };
    if hook.sent_at.elapsed() > TOKEN_LIFETIME {
        return Err(Answer::refused(
            StatusCode::UNAUTHORIZED,
            50027,
            "Invalid Webhook Token",
        ));
    }
    Ok(hook)
}

/// A followup: only once acknowledged; the first after a deferral fills
/// it (its own flag ignored unless the deferral was private).
fn followup(inner: &Inner, token: &str, json: &Value, files: usize) -> Answer {
    let hook = match live_hook(inner, token) {
        Ok(hook) => hook,
        Err(refused) => return refused,
    };
    if hook.original == Original::None {
        return Answer::refused(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
    }
    let limit = *inner.followup_limit.lock().unwrap();
    let count = match limited(inner, limit, &format!("followup:{token}")) {
        Ok(count) => count,
        Err(refused) => return refused,
    };
    if let Some(refused) = invalid(json, files) {
        return refused;
    }
    let ephemeral = match hook.original {
        Original::Deferred { ephemeral } => {
            set_original(inner, token, Original::Shown { ephemeral });
            ephemeral
        }
        _ => is_flagged(json),
    };
    let message = message_json(
        inner.next_id(),
        hook.channel,
        json["content"].as_str().unwrap_or(""),
        json,
    );
    let mut answer = Answer::ok(message).seen(seen_as(ephemeral), text_of(json));
    if let Some(count) = count {
        add_limit_headers(&mut answer.response, &count, token);
    }
    answer
}

fn edit_original(inner: &Inner, token: &str, json: &Value, files: usize) -> Answer {
    let hook = match live_hook(inner, token) {
        Ok(hook) => hook,
        Err(refused) => return refused,
    };
    let ephemeral = match hook.original {
        Original::Deferred { ephemeral } | Original::Shown { ephemeral } => ephemeral,
        Original::Updated => false,
        Original::None | Original::Deleted => {
            return Answer::refused(StatusCode::NOT_FOUND, 10008, "Unknown Message");
        }
    };
    if let Some(refused) = invalid(json, files) {
        return refused;
    }
    if hook.original != Original::Updated {
        set_original(inner, token, Original::Shown { ephemeral });
    }
    let message = message_json(
        inner.next_id(),
        hook.channel,
        json["content"].as_str().unwrap_or(""),
        json,
    );
    Answer::ok(message).seen(seen_as(ephemeral), text_of(json))
}

fn delete_original(inner: &Inner, token: &str) -> Answer {
    let hook = match live_hook(inner, token) {
        Ok(hook) => hook,
        Err(refused) => return refused,
    };
    match hook.original {
        Original::Deferred { .. } | Original::Shown { .. } => {
            set_original(inner, token, Original::Deleted);
            Answer::no_content()
        }
        _ => Answer::refused(StatusCode::NOT_FOUND, 10008, "Unknown Message"),
    }
}

fn get_original(inner: &Inner, token: &str) -> Answer {
    let hook = match live_hook(inner, token) {
        Ok(hook) => hook,
        Err(refused) => return refused,
    };
    match hook.original {
        Original::Deferred { .. } | Original::Shown { .. } => {
            Answer::ok(message_json(inner.next_id(), hook.channel, "", &json!({})))
        }
        _ => Answer::refused(StatusCode::NOT_FOUND, 10008, "Unknown Message"),
    }
}

/// Why a channel refuses the bot's post, as Discord says it.
fn channel_refusal(inner: &Inner, channel: u64, files: bool) -> Option<Answer> {
    let refuse = Answer::refused;
    let recipient = inner.dm_channels.lock().unwrap().get(&channel).copied();
    if let Some(user) = recipient {
        if inner.closed_dms.lock().unwrap().contains(&user) {
            return Some(refuse(
                StatusCode::FORBIDDEN,
                50007,
                "Cannot send messages to this user",
            ));
        }
        return None;
    }
    let known = inner.channels.lock().unwrap().get(&channel).cloned();
    if let Some(known) = &known {
        if known.deleted {
            return Some(refuse(StatusCode::NOT_FOUND, 10003, "Unknown Channel"));
        }
        if inner.left.lock().unwrap().contains(&known.guild) {
            return Some(refuse(StatusCode::FORBIDDEN, 50001, "Missing Access"));
        }
        if matches!(known.kind, 15 | 16) {
            return Some(refuse(
                StatusCode::BAD_REQUEST,
                50008,
                "Cannot send messages in a non-text channel",
            ));
        }
        if known.locked {
            return Some(refuse(StatusCode::BAD_REQUEST, 160005, "Thread is locked"));
        }
        if known.archived {
            return Some(refuse(StatusCode::BAD_REQUEST, 50083, "Thread is archived"));
        }
        let send = if known.is_thread() {
            SEND_MESSAGES_IN_THREADS
        } else {
            SEND_MESSAGES
        };
        if known.permissions & VIEW_CHANNEL == 0 {
            return Some(refuse(StatusCode::FORBIDDEN, 50001, "Missing Access"));
        }
        if known.permissions & send == 0 || (files && known.permissions & ATTACH_FILES == 0) {
            return Some(refuse(StatusCode::FORBIDDEN, 50013, "Missing Permissions"));
        }
    }
    match inner.refusing.lock().unwrap().get(&channel) {
        Some(Missing::Access) => Some(refuse(StatusCode::FORBIDDEN, 50001, "Missing Access")),
        Some(Missing::SendMessages) => {
            Some(refuse(StatusCode::FORBIDDEN, 50013, "Missing Permissions"))
        }
        Some(Missing::AttachFiles) if files => {
            Some(refuse(StatusCode::FORBIDDEN, 50013, "Missing Permissions"))
        }
        _ => None,
    }
}

/// A channel post: refused as the channel says, counted against the
/// channel's limit, checked, and with an enforced nonce taken once.
fn channel_post(inner: &Inner, channel: u64, json: &Value, files: usize) -> Answer {
    if let Some(refused) = channel_refusal(inner, channel, files > 0) {
        return refused;
    }
    let direct = inner.dm_channels.lock().unwrap().contains_key(&channel);
    let limit = *inner.post_limit.lock().unwrap();
    let count = match limited(inner, limit, &format!("post:{channel}")) {
        Ok(count) => count,
        Err(refused) => return refused,
    };
    if let Some(refused) = invalid(json, files) {
        return refused;
    }
    let seen = if direct {
        Seen::Recipient
    } else {
        Seen::Everyone
    };
    let content = json["content"].as_str().unwrap_or("");
    let nonce = json["nonce"]
        .as_str()
        .filter(|_| json["enforce_nonce"] == true);
    let mut answer = match nonce {
        Some(nonce) => {
            let key = (channel, nonce.to_owned());
            let mut nonces = inner.nonces.lock().unwrap();
            match nonces.get(&key) {
                Some(first) => {
                    let mut answer = Answer::ok(first.clone());
                    answer.repeated = true;
                    answer
                }
                None => {
                    let message = message_json(inner.next_id(), channel, content, json);
                    nonces.insert(key, message.clone());
                    Answer::ok(message).seen(seen, text_of(json))
                }
            }
        }
        None => Answer::ok(message_json(inner.next_id(), channel, content, json))
            .seen(seen, text_of(json)),
    };
    if let Some(count) = count {
        add_limit_headers(&mut answer.response, &count, &channel.to_string());
    }
    answer
}

fn edit_message(inner: &Inner, channel: u64, message: &str, json: &Value) -> Answer {
    let known = inner.channels.lock().unwrap().get(&channel).cloned();
    if let Some(known) = known {
        if known.deleted {
            return Answer::refused(StatusCode::NOT_FOUND, 10003, "Unknown Channel");
        }
        if inner.left.lock().unwrap().contains(&known.guild)
            || known.permissions & VIEW_CHANNEL == 0
        {
            return Answer::refused(StatusCode::FORBIDDEN, 50001, "Missing Access");
        }
    }
    Answer::ok(message_json(
        message.parse().unwrap_or(1),
        channel,
        json["content"].as_str().unwrap_or(""),
        json,
    ))
}

/// Opening an archived thread again (`archived: false`): refused in a
/// locked one (that needs Manage Threads).
fn open_thread_again(inner: &Inner, channel: u64, json: &Value) -> Answer {
    let mut channels = inner.channels.lock().unwrap();
    let Some(known) = channels.get_mut(&channel).filter(|c| !c.deleted) else {
        return Answer::refused(StatusCode::NOT_FOUND, 10003, "Unknown Channel");
    };
    if known.locked {
        return Answer::refused(StatusCode::FORBIDDEN, 50013, "Missing Permissions");
    }
    if json["archived"] == false {
        known.archived = false;
    }
    Answer::ok(json!({
        "id": channel.to_string(), "type": known.kind, "guild_id": known.guild.to_string(),
        "parent_id": known.parent.map(|p| p.to_string()), "name": "game", "position": 0,
        "nsfw": false, "permission_overwrites": []
    }))
}

/// A registration: 400 (50035) for what Discord would refuse, else kept,
/// replacing the whole set.
fn register(inner: &Inner, body: &Value) -> Answer {
    let problem = match body.as_array() {
        None => Some("not a list of commands".to_owned()),
        Some(commands) => commands.iter().find_map(rules::command_problem),
    };
    if let Some(problem) = problem {
        let message = format!("Invalid Form Body: {problem}");
        return Answer::refused(StatusCode::BAD_REQUEST, 50035, &message);
    }
    // Discord answers with the commands as it keeps them, ids added.
    let mut commands = body.clone();
    for command in commands.as_array_mut().into_iter().flatten() {
        command["id"] = json!(inner.next_id().to_string());
        command["application_id"] = json!(APPLICATION_ID.to_string());
        command["version"] = json!("1");
    }
    *inner.registered.lock().unwrap() = Some(commands.clone());
    Answer::ok(commands)
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
