//! What the fake Discord refuses, as Discord does: message bodies over its
//! limits (50035, Invalid Form Body; 50006, an empty message), command
//! registrations it would refuse, and rate-limit windows.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use serde_json::Value;

/// Discord's limits on a message.
pub const MAX_CONTENT: usize = 2000;
pub const MAX_EMBEDS: usize = 10;
pub const MAX_EMBED_TOTAL: usize = 6000;
pub const MAX_DESCRIPTION: usize = 4096;
pub const MAX_TITLE: usize = 256;
pub const MAX_ROWS: usize = 5;
pub const MAX_ROW_WIDTH: usize = 5;
pub const MAX_CUSTOM_ID: usize = 100;
pub const MAX_LABEL: usize = 80;
pub const MAX_NONCE: usize = 25;
pub const MAX_MENTIONED_USERS: usize = 100;
/// The most one file may weigh (Discord's default upload limit).
pub const MAX_FILE: usize = 10 * 1024 * 1024;

fn chars(value: &Value) -> usize {
    value.as_str().map_or(0, |s| s.chars().count())
}

/// Why Discord would refuse a message body with 50035, if it would.
pub fn message_problem(body: &Value) -> Option<String> {
    if chars(&body["content"]) > MAX_CONTENT {
        return Some(format!("content: {} characters", chars(&body["content"])));
    }
    if let Some(problem) = embeds_problem(&body["embeds"]) {
        return Some(problem);
    }
    if let Some(problem) = components_problem(&body["components"]) {
        return Some(problem);
    }
    let nonce = match &body["nonce"] {
        Value::String(s) => s.chars().count(),
        Value::Number(n) => n.to_string().len(),
        _ => 0,
    };
    if nonce > MAX_NONCE {
        return Some(format!("nonce: {nonce} characters"));
    }
    let users = body["allowed_mentions"]["users"]
        .as_array()
        .map_or(0, Vec::len);
    if users > MAX_MENTIONED_USERS {
        return Some(format!("allowed_mentions.users: {users}"));
    }
    None
}

fn embeds_problem(embeds: &Value) -> Option<String> {
    let embeds = embeds.as_array().cloned().unwrap_or_default();
    if embeds.len() > MAX_EMBEDS {
        return Some(format!("embeds: {}", embeds.len()));
    }
    let mut total = 0;
    for embed in &embeds {
        if chars(&embed["description"]) > MAX_DESCRIPTION {
            return Some(format!(
                "embeds.description: {} characters",
                chars(&embed["description"])
            ));
        }
        if chars(&embed["title"]) > MAX_TITLE {
            return Some("embeds.title: too long".to_owned());
        }
        total += chars(&embed["title"]) + chars(&embed["description"]);
        for field in embed["fields"].as_array().into_iter().flatten() {
            total += chars(&field["name"]) + chars(&field["value"]);
        }
        total += chars(&embed["footer"]["text"]) + chars(&embed["author"]["name"]);
    }
    (total > MAX_EMBED_TOTAL).then(|| format!("embeds: {total} characters in all"))
}

fn components_problem(rows: &Value) -> Option<String> {
    let rows = rows.as_array().cloned().unwrap_or_default();
    if rows.len() > MAX_ROWS {
        return Some(format!("components: {} rows", rows.len()));
    }
    let mut ids = HashSet::new();
    for row in &rows {
        let buttons = row["components"].as_array().cloned().unwrap_or_default();
        if buttons.is_empty() || buttons.len() > MAX_ROW_WIDTH {
            return Some(format!("components: a row of {}", buttons.len()));
        }
        for button in &buttons {
            let id = button["custom_id"].as_str().unwrap_or("");
            if button["style"] != 5 && (id.is_empty() || id.chars().count() > MAX_CUSTOM_ID) {
                return Some(format!("custom_id {id:?}"));
            }
            if !id.is_empty() && !ids.insert(id.to_owned()) {
                return Some(format!("custom_id {id:?} twice"));
            }
            if chars(&button["label"]) > MAX_LABEL {
                return Some("a button label is too long".to_owned());
            }
        }
    }
    None
}

/// Whether a message shows nothing at all (Discord's 50006).
pub fn is_empty_message(body: &Value, files: usize) -> bool {
    let content = body["content"].as_str().unwrap_or("").trim().is_empty();
    let embeds = body["embeds"].as_array().is_none_or(Vec::is_empty);
    let rows = body["components"].as_array().is_none_or(Vec::is_empty);
    content && embeds && rows && files == 0
}

/// Why Discord would refuse one command (or option) of a registration,
/// if it would: names of 1–32 lower-case letters, digits, `-` or `_`;
/// descriptions of 1–100 characters; at most 25 options and 25 choices; at
/// most 8,000 characters of names, descriptions and values per command; the
/// same for each localization.
pub fn command_problem(command: &Value) -> Option<String> {
    let mut total = 0;
    if let Some(problem) = check_command(command, true, &mut total) {
        return Some(problem);
    }
    (total > 8000).then(|| format!("{}: {total} characters", command["name"]))
}

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

fn check_command(item: &Value, is_command: bool, total: &mut usize) -> Option<String> {
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
        .find_map(|option| check_command(option, false, total))
}

/// Fixed windows of at most `limit` calls per bucket, as Discord counts them.
#[derive(Default)]
pub struct Windows {
    open: HashMap<String, (Instant, u32)>,
}

/// A bucket's state after a call: allowed or not, and its headers' values.
#[derive(Clone, Copy, Debug)]
pub struct Count {
    pub allowed: bool,
    pub limit: u32,
    pub remaining: u32,
    pub reset_after: Duration,
}

impl Windows {
    /// Counts one call on `bucket` at `now` against `limit` per `window`.
    pub fn count(&mut self, bucket: &str, limit: u32, window: Duration, now: Instant) -> Count {
        let (start, used) = self.open.entry(bucket.to_owned()).or_insert((now, 0));
        if now.duration_since(*start) >= window {
            (*start, *used) = (now, 0);
        }
        let reset_after = window.saturating_sub(now.duration_since(*start));
        if *used >= limit {
            return Count {
                allowed: false,
                limit,
                remaining: 0,
                reset_after,
            };
        }
        *used += 1;
        Count {
            allowed: true,
            limit,
            remaining: limit - *used,
            reset_after,
        }
    }
}
