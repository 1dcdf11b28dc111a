//! Discord's REST API as the bot uses it to send messages: requests of our
//! own, so that every answer is read whole (its status, Discord's JSON
//! error code, `retry_after`, the X-RateLimit headers), and paced by what
//! Discord said.
//!
//! serenity's rate limiter builds its requests for discord.com whatever
//! proxy is set, so it cannot run against a proxy or the tests' fake
//! Discord; and serenity's errors drop `retry_after` and the headers. So
//! the messages the bot sends (answers, followups, notices, direct
//! messages, threads) go through [`Rest`], which keeps one bucket per
//! route and major parameter (a channel, an interaction's token) as
//! Discord's headers describe it, waits before a call while a bucket is
//! spent, and after a 429 waits exactly what Discord asked, never a guess.
//! A wait longer than the caller's patience is handed back instead (the
//! outbox tries again then), so a busy channel never holds up another.
//! Registration and autocomplete still go through serenity.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::config::Secret;

/// Tries of a call that failed in passing (a server error, no answer).
const TRIES: u32 = 4;
/// Pauses between those tries: 0.5 s, doubling.
const FIRST_PAUSE: Duration = Duration::from_millis(500);
/// 429s taken and waited out for one call before it is handed back.
const MAX_LIMITED: u32 = 8;
/// The longest `retry_after` believed; a larger or unreadable value counts as this.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(3600);
/// How long a call waits when a 429 says nothing readable.
const DEFAULT_RETRY_AFTER: Duration = Duration::from_secs(1);
/// Buckets remembered before spent ones are forgotten.
const MAX_BUCKETS: usize = 10_000;
/// The largest answer read (a message, a channel): far above any Discord sends.
const MAX_ANSWER: usize = 1 << 20;
/// How long a call may take before it counts as unanswered.
const CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// What Discord answered to a call that did not succeed.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// The HTTP status; 0 when no answer came (no connection, a timeout),
    /// or when the call was never made because its bucket was spent.
    pub status: u16,
    /// Discord's JSON error code (0 when it sent none).
    pub code: i64,
    pub message: String,
    /// How long to wait before trying again, when Discord said.
    pub retry_after: Option<Duration>,
}

impl Failure {
    fn local(message: &str, retry_after: Option<Duration>) -> Failure {
        Failure {
            status: 0,
            code: 0,
            message: message.to_owned(),
            retry_after,
        }
    }

    /// Whether trying again later could help (a rate limit, a server
    /// error, no answer); any other refusal is final.
    pub fn is_transient(&self) -> bool {
        self.status == 0 || self.status == 429 || self.status >= 500
    }

    /// Whether Discord refused the call for good (a 4xx other than 429):
    /// one of the invalid requests Discord counts against the bot.
    pub fn is_refusal(&self) -> bool {
        (400..500).contains(&self.status) && self.status != 429
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.status, self.code) {
            (0, _) => write!(f, "{}", self.message),
            (status, 0) => write!(f, "{status}: {}", self.message),
            (status, code) => write!(f, "{status} ({code}): {}", self.message),
        }
    }
}

/// Discord's JSON error codes the bot acts on.
pub mod code {
    pub const UNKNOWN_CHANNEL: i64 = 10003;
    pub const UNKNOWN_GUILD: i64 = 10004;
    pub const UNKNOWN_MESSAGE: i64 = 10008;
    pub const UNKNOWN_WEBHOOK: i64 = 10015;
    pub const UNKNOWN_INTERACTION: i64 = 10062;
    pub const ALREADY_ACKNOWLEDGED: i64 = 40060;
    pub const MISSING_ACCESS: i64 = 50001;
    pub const CANNOT_MESSAGE_USER: i64 = 50007;
    pub const NOT_A_TEXT_CHANNEL: i64 = 50008;
    pub const MISSING_PERMISSIONS: i64 = 50013;
    pub const INVALID_WEBHOOK_TOKEN: i64 = 50027;
    pub const INVALID_FORM_BODY: i64 = 50035;
    pub const ARCHIVED_THREAD: i64 = 50083;
    pub const LOCKED_THREAD: i64 = 160005;
}

/// What Discord answers about something it made (a message, a channel):
/// its id, and the channel it is in.
#[derive(Debug, Default, serde::Deserialize)]
pub struct Made {
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub channel_id: Option<String>,
}

impl Made {
    pub fn of(answer: &Value) -> Made {
        serde_json::from_value(answer.clone()).unwrap_or_default()
    }
}

/// A file sent with a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileOut {
    pub name: String,
    pub content_type: String,
    pub bytes: std::sync::Arc<[u8]>,
}

/// A request's body: none, JSON, or JSON with files (multipart).
#[derive(Clone, Debug)]
pub enum Body {
    None,
    Json(Value),
    Files(Value, Vec<FileOut>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
    Patch,
    Delete,
}

/// One call: its method, its path under `/api/v10/`, the bucket it counts
/// against, and its body.
#[derive(Clone, Debug)]
pub struct Call {
    pub method: Method,
    pub path: String,
    /// The route and its major parameter (`POST channels/{id}/messages:123`):
    /// calls with one key share Discord's limit.
    pub bucket: String,
    pub body: Body,
}

impl Call {
    pub fn new(method: Method, route: &str, major: &str, path: String, body: Body) -> Call {
        Call {
            method,
            bucket: format!("{method:?} {route}:{major}"),
            path,
            body,
        }
    }
}

/// The bot's REST client for messages.
pub struct Rest {
    client: reqwest::Client,
    base: String,
    authorization: Secret,
    application: AtomicU64,
    limits: Mutex<Limits>,
}

impl Rest {
    /// A client for `base` (`https://discord.com`, a proxy, or a fake).
    pub fn new(client: reqwest::Client, base: Option<&str>, token: &Secret) -> Rest {
        let token = token.expose().trim();
        let authorization = if token.starts_with("Bot ") {
            token.to_owned()
        } else {
            format!("Bot {token}")
        };
        Rest {
            client,
            base: base
                .unwrap_or("https://discord.com")
                .trim_end_matches('/')
                .to_owned(),
            authorization: Secret::new(authorization),
            application: AtomicU64::new(0),
            limits: Mutex::new(Limits::default()),
        }
    }

    /// The application id (from READY), which webhook routes name.
    pub fn set_application(&self, id: u64) {
        self.application.store(id, Ordering::Relaxed);
    }

    pub fn application(&self) -> u64 {
        self.application.load(Ordering::Relaxed)
    }

    /// Makes `call`, trying again while Discord asks for a wait no longer
    /// than `patience` or fails in passing; the answer's JSON (`Null` for
    /// none). A longer wait comes back as a [`Failure`] with `retry_after`,
    /// without a request when the bucket is known to be spent.
    pub async fn send(&self, call: &Call, patience: Duration) -> Result<Value, Failure> {
        let mut pause = FIRST_PAUSE;
        let (mut failed, mut limited) = (0, 0);
        loop {
            let wait = self.limits().reserve(&call.bucket, Instant::now());
            if let Some(wait) = wait {
                if wait > patience {
                    return Err(Failure::local("rate limited", Some(wait)));
                }
                tokio::time::sleep(wait).await;
                continue;
            }
            let failure = match self.once(call).await {
                Ok(value) => return Ok(value),
                Err(failure) => failure,
            };
            if failure.status == 429 {
                limited += 1;
                let wait = failure.retry_after.unwrap_or(DEFAULT_RETRY_AFTER);
                if limited >= MAX_LIMITED || wait > patience {
                    return Err(failure);
                }
                continue;
            }
            if !failure.is_transient() || failed + 1 >= TRIES {
                return Err(failure);
            }
            failed += 1;
            tokio::time::sleep(pause).await;
            pause *= 2;
        }
    }

    fn limits(&self) -> std::sync::MutexGuard<'_, Limits> {
        self.limits.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// One request, and what its answer teaches about the bucket.
    async fn once(&self, call: &Call) -> Result<Value, Failure> {
        let url = format!("{}/api/v10/{}", self.base, call.path);
        let method = match call.method {
            Method::Get => reqwest::Method::GET,
            Method::Post => reqwest::Method::POST,
            Method::Patch => reqwest::Method::PATCH,
            Method::Delete => reqwest::Method::DELETE,
        };
        let mut request = self
            .client
            .request(method, url)
            .header("authorization", self.authorization.expose())
            .timeout(CALL_TIMEOUT);
        request = match &call.body {
            Body::None => request,
            Body::Json(json) => request
                .header("content-type", "application/json")
                .body(json.to_string()),
            Body::Files(json, files) => request.multipart(form(json, files)?),
        };
        let response = match request.send().await {
            Ok(response) => response,
            // Without the URL: it may hold an interaction's token.
            Err(error) => {
                let message = format!("Discord did not answer: {}", error.without_url());
                return Err(Failure::local(&message, None));
            }
        };
        let status = response.status().as_u16();
        let headers = Headers::read(response.headers());
        let body = read_bounded(response).await;
        let json: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        let now = Instant::now();
        let mut limits = self.limits();
        limits.learn(&call.bucket, &headers, now);
        if (200..300).contains(&status) {
            return Ok(json);
        }
        let retry_after = (status == 429).then(|| headers.retry_after(&json));
        if let Some(wait) = retry_after {
            let global = json["global"] == true || headers.scope.as_deref() == Some("global");
            limits.limited(&call.bucket, global, wait, now);
        }
        Err(Failure {
            status,
            code: json["code"].as_i64().unwrap_or(0),
            message: json["message"]
                .as_str()
                .unwrap_or("")
                .chars()
                .take(200)
                .collect(),
            retry_after,
        })
    }
}

/// The multipart form of a message with files: `payload_json`, then
/// `files[n]` as the payload's `attachments` number them.
fn form(json: &Value, files: &[FileOut]) -> Result<reqwest::multipart::Form, Failure> {
    let mut form = reqwest::multipart::Form::new().text("payload_json", json.to_string());
    for (n, file) in files.iter().enumerate() {
        let part = reqwest::multipart::Part::bytes(file.bytes.to_vec())
            .file_name(file.name.clone())
            .mime_str(&file.content_type)
            .map_err(|_| Failure::local("a file's type does not read", None))?;
        form = form.part(format!("files[{n}]"), part);
    }
    Ok(form)
}

/// The answer's body, at most [`MAX_ANSWER`] bytes of it.
async fn read_bounded(mut response: reqwest::Response) -> Vec<u8> {
    let mut body = Vec::new();
    while let Ok(Some(chunk)) = response.chunk().await {
        if body.len() + chunk.len() > MAX_ANSWER {
            break;
        }
        body.extend_from_slice(&chunk);
    }
    body
}

/// What an answer's headers say about its bucket.
#[derive(Clone, Debug, Default, PartialEq)]
struct Headers {
    remaining: Option<u32>,
    reset_after: Option<Duration>,
    retry_after: Option<Duration>,
    scope: Option<String>,
}

impl Headers {
    fn read(headers: &reqwest::header::HeaderMap) -> Headers {
        let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        Headers {
            remaining: text("x-ratelimit-remaining").and_then(|v| v.trim().parse().ok()),
            reset_after: text("x-ratelimit-reset-after").and_then(seconds),
            retry_after: text("retry-after").and_then(seconds),
            scope: text("x-ratelimit-scope").map(|s| s.chars().take(16).collect()),
        }
    }

    /// How long a 429 asks to wait: the body's `retry_after` (exact, in
    /// seconds with a fraction), else the header's, else the bucket's reset.
    fn retry_after(&self, json: &Value) -> Duration {
        json["retry_after"]
            .as_f64()
            .and_then(|s| seconds(&s.to_string()))
            .or(self.retry_after)
            .or(self.reset_after)
            .unwrap_or(DEFAULT_RETRY_AFTER)
    }
}

/// A count of seconds as Discord writes them (`1`, `0.352`), bounded.
fn seconds(text: &str) -> Option<Duration> {
    let value: f64 = text.trim().parse().ok()?;
    if !value.is_finite() || value < 0.0 {
        return None;
    }
    Some(Duration::from_secs_f64(
        value.min(MAX_RETRY_AFTER.as_secs_f64()),
    ))
}

/// Discord's limits as its answers described them.
#[derive(Debug, Default)]
struct Limits {
    buckets: HashMap<String, Bucket>,
    /// Every call waits until then (a global 429).
    global_until: Option<Instant>,
}

#[derive(Clone, Copy, Debug)]
struct Bucket {
    remaining: u32,
    reset_at: Instant,
}

impl Limits {
    /// How long a call on `key` must wait, or `None` if it may go now (and
    /// then it takes one of the bucket's remaining calls).
    fn reserve(&mut self, key: &str, now: Instant) -> Option<Duration> {
        if let Some(until) = self.global_until.filter(|until| *until > now) {
            return Some(until - now);
        }
        let bucket = self.buckets.get_mut(key)?;
        if bucket.reset_at <= now {
            self.buckets.remove(key);
            return None;
        }
        if bucket.remaining == 0 {
            return Some(bucket.reset_at - now);
        }
        bucket.remaining -= 1;
        None
    }

    /// Remembers what an answer's headers say of `key`'s bucket.
    fn learn(&mut self, key: &str, headers: &Headers, now: Instant) {
        let (Some(remaining), Some(reset_after)) = (headers.remaining, headers.reset_after) else {
            return;
        };
        if self.buckets.len() >= MAX_BUCKETS {
            self.buckets.retain(|_, bucket| bucket.reset_at > now);
            if self.buckets.len() >= MAX_BUCKETS {
                self.buckets.clear();
            }
        }
        self.buckets.insert(
            key.to_owned(),
            Bucket {
                remaining,
                reset_at: now + reset_after,
            },
        );
    }

    /// A 429: nothing more on `key` (or anywhere, when `global`) for `wait`.
    fn limited(&mut self, key: &str, global: bool, wait: Duration, now: Instant) {
        let until = now + wait;
        if global {
            self.global_until = Some(self.global_until.map_or(until, |u| u.max(until)));
            return;
        }
        self.buckets.insert(
            key.to_owned(),
            Bucket {
                remaining: 0,
                reset_at: until,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn headers(remaining: u32, reset: f64) -> Headers {
        Headers {
            remaining: Some(remaining),
            reset_after: Some(Duration::from_secs_f64(reset)),
            ..Headers::default()
        }
    }

    #[test]
    fn a_spent_bucket_waits_until_its_reset() {
        let mut limits = Limits::default();
        let t0 = Instant::now();
        assert_eq!(limits.reserve("a", t0), None, "unknown: go");
        limits.learn("a", &headers(1, 2.0), t0);
        assert_eq!(limits.reserve("a", t0), None, "one left");
        assert_eq!(limits.reserve("a", t0), Some(Duration::from_secs(2)));
        assert_eq!(limits.reserve("b", t0), None, "another bucket goes");
        assert_eq!(limits.reserve("a", t0 + Duration::from_secs(2)), None);
    }

    #[test]
    fn a_429_waits_what_discord_said() {
        let mut limits = Limits::default();
        let t0 = Instant::now();
        let body = json!({ "retry_after": 1.5, "global": false });
        let wait = Headers::default().retry_after(&body);
        assert_eq!(wait, Duration::from_millis(1500));
        limits.limited("a", false, wait, t0);
        assert_eq!(limits.reserve("a", t0), Some(wait));
        limits.limited("x", true, Duration::from_secs(3), t0);
        assert_eq!(limits.reserve("b", t0), Some(Duration::from_secs(3)));
    }

    #[test]
    fn untrusted_waits_are_bounded() {
        for text in ["-1", "NaN", "inf", "x", ""] {
            assert_eq!(seconds(text), None, "{text:?}");
        }
        assert_eq!(seconds("1e12"), Some(MAX_RETRY_AFTER));
        let headers = Headers {
            retry_after: Some(Duration::from_secs(2)),
            ..Headers::default()
        };
        assert_eq!(
            headers.retry_after(&json!({ "retry_after": "soon" })),
            Duration::from_secs(2),
            "the header when the body says nothing readable"
        );
    }

    #[test]
    fn the_bucket_map_stays_bounded() {
        let mut limits = Limits::default();
        let t0 = Instant::now();
        for n in 0..MAX_BUCKETS + 10 {
            limits.learn(&n.to_string(), &headers(0, 60.0), t0);
        }
        assert!(limits.buckets.len() <= MAX_BUCKETS);
    }
}
