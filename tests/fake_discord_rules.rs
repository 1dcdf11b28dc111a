//! The fake Discord refuses what Discord refuses, each rule checked by a
//! request of its own (raw HTTP, no bot): interaction tokens and their
//! deadlines, the first followup after a deferral, rate limits with their
//! headers, message bodies over Discord's limits, channel types and
//! states, a guild that removed the bot, and the gateway's lifecycle
//! events and RESUME as a real serenity client receives them.

#[path = "common/fake_discord.rs"]
mod fake_discord;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use fake_discord::{FakeChannel, FakeDiscord, FakeUser, Seen, token};
use serde_json::{Value, json};

const GUILD: u64 = 700_000_000_000_000_001;
const CHANNEL: u64 = 710_000_000_000_000_001;

fn alice() -> FakeUser {
    FakeUser::new(510_000_000_000_000_001, "alice")
}

/// A request to the fake: its status, Discord's code, the headers.
struct Answered {
    status: u16,
    code: u64,
    body: Value,
    headers: reqwest::header::HeaderMap,
}

async fn call(fake: &FakeDiscord, method: &str, path: &str, body: Value) -> Answered {
    let client = reqwest::Client::new();
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let url = format!("{}/api/v10/{path}", fake.api_base());
    let response = client
        .request(method, url)
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .expect("the fake answers");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let bytes = response.bytes().await.unwrap_or_default();
    let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Answered {
        status,
        code: body["code"].as_u64().unwrap_or(0),
        body,
        headers,
    }
}

async fn post_file(fake: &FakeDiscord, channel: u64, bytes: usize) -> Answered {
    let form = reqwest::multipart::Form::new()
        .text("payload_json", json!({ "content": "big" }).to_string())
        .part(
            "files[0]",
            reqwest::multipart::Part::bytes(vec![0u8; bytes]).file_name("big.bin"),
        );
    let response = reqwest::Client::new()
        .post(format!(
            "{}/api/v10/channels/{channel}/messages",
            fake.api_base()
        ))
        .multipart(form)
        .send()
        .await
        .expect("the fake answers");
    let status = response.status().as_u16();
    let body: Value =
        serde_json::from_slice(&response.bytes().await.unwrap_or_default()).unwrap_or(Value::Null);
    Answered {
        status,
        code: body["code"].as_u64().unwrap_or(0),
        headers: reqwest::header::HeaderMap::new(),
        body,
    }
}

fn callback_path(id: u64) -> String {
    format!("interactions/{id}/{}/callback", token(id))
}

fn webhook_path(id: u64) -> String {
    format!("webhooks/{}/{}", fake_discord::APPLICATION_ID, token(id))
}

fn a_command(fake: &FakeDiscord) -> u64 {
    fake.stale_command(GUILD, CHANNEL, &alice(), "help", json!([]))
        .0
}

#[tokio::test]
async fn interaction_tokens_answer_once_in_time_and_followups_follow_the_deferral() {
    let fake = FakeDiscord::start(1).await;
    // A followup before any response: the webhook does not exist yet.
    let id = a_command(&fake);
    let early = call(&fake, "POST", &webhook_path(id), json!({ "content": "x" })).await;
    assert_eq!((early.status, early.code), (404, 10015));
    // A public deferral, then a followup flagged private: it fills the
    // deferral, public, its flag ignored.
    let deferred = call(
        &fake,
        "POST",
        &callback_path(id),
        json!({ "type": 5, "data": {} }),
    )
    .await;
    assert_eq!(deferred.status, 204);
    let again = call(
        &fake,
        "POST",
        &callback_path(id),
        json!({ "type": 4, "data": { "content": "x" } }),
    )
    .await;
    assert_eq!((again.status, again.code), (400, 40060));
    let secret = json!({ "content": "my vote: e5", "flags": 64 });
    assert_eq!(
        call(&fake, "POST", &webhook_path(id), secret).await.status,
        200
    );
    let requests = fake.requests();
    let defer = requests
        .iter()
        .find(|r| r.path.ends_with("/callback"))
        .unwrap();
    assert_eq!(defer.seen, Seen::Everyone);
    assert!(defer.shown.contains("alice used /help"), "{}", defer.shown);
    let filled = requests
        .iter()
        .rev()
        .find(|r| r.path.contains("/webhooks/"))
        .unwrap();
    assert_eq!(filled.seen, Seen::Everyone, "the flag is ignored");
    // The next followup is a message of its own, with its own flag.
    let second = json!({ "content": "private", "flags": 64 });
    assert_eq!(
        call(&fake, "POST", &webhook_path(id), second).await.status,
        200
    );
    assert_eq!(fake.requests().last().unwrap().seen, Seen::Author);

    // A private deferral keeps its first followup private.
    let id = a_command(&fake);
    call(
        &fake,
        "POST",
        &callback_path(id),
        json!({ "type": 5, "data": { "flags": 64 } }),
    )
    .await;
    call(
        &fake,
        "POST",
        &webhook_path(id),
        json!({ "content": "mine" }),
    )
    .await;
    assert_eq!(fake.requests().last().unwrap().seen, Seen::Author);

    // Deleting the original, editing a deleted one: 10008.
    let id = a_command(&fake);
    call(
        &fake,
        "POST",
        &callback_path(id),
        json!({ "type": 5, "data": {} }),
    )
    .await;
    let original = format!("{}/messages/@original", webhook_path(id));
    assert_eq!(
        call(&fake, "DELETE", &original, json!(null)).await.status,
        204
    );
    let edit = call(&fake, "PATCH", &original, json!({ "content": "x" })).await;
    assert_eq!((edit.status, edit.code), (404, 10008));

    // Past 3 seconds no response is taken (10062); past 15 minutes the
    // token takes no followup (50027).
    let late = fake.made_ago(
        fake.stale_command(GUILD, CHANNEL, &alice(), "help", json!([])),
        Duration::from_secs(4),
    );
    let refused = call(
        &fake,
        "POST",
        &callback_path(late.0),
        json!({ "type": 4, "data": { "content": "x" } }),
    )
    .await;
    assert_eq!((refused.status, refused.code), (404, 10062));
    let old = fake.made_ago(
        fake.stale_command(GUILD, CHANNEL, &alice(), "help", json!([])),
        Duration::from_secs(16 * 60),
    );
    let expired = call(
        &fake,
        "POST",
        &webhook_path(old.0),
        json!({ "content": "x" }),
    )
    .await;
    assert_eq!((expired.status, expired.code), (401, 50027));
}

#[tokio::test]
async fn rate_limits_answer_429_with_retry_after_and_headers() {
    let fake = FakeDiscord::start(1).await;
    let id = a_command(&fake);
    call(
        &fake,
        "POST",
        &callback_path(id),
        json!({ "type": 5, "data": {} }),
    )
    .await;
    let mut statuses = Vec::new();
    let mut last = None;
    for n in 0..6 {
        let answer = call(
            &fake,
            "POST",
            &webhook_path(id),
            json!({ "content": format!("{n}") }),
        )
        .await;
        statuses.push(answer.status);
        last = Some(answer);
    }
    assert_eq!(
        statuses,
        [200, 200, 200, 200, 200, 429],
        "5 followups per 2 s"
    );
    let limited = last.unwrap();
    let retry_after = limited.body["retry_after"].as_f64().expect("retry_after");
    assert!(retry_after > 0.0 && retry_after <= 2.0, "{retry_after}");
    for header in [
        "retry-after",
        "x-ratelimit-limit",
        "x-ratelimit-remaining",
        "x-ratelimit-reset-after",
        "x-ratelimit-bucket",
        "x-ratelimit-scope",
    ] {
        assert!(limited.headers.contains_key(header), "{header}");
    }
    assert_eq!(limited.headers["x-ratelimit-remaining"], "0");
    // Posts in one channel: 5 per 5 s; another channel is not held.
    let post = |channel: u64| {
        let path = format!("channels/{channel}/messages");
        let fake = &fake;
        async move { call(fake, "POST", &path, json!({ "content": "hi" })).await }
    };
    for _ in 0..5 {
        assert_eq!(post(CHANNEL).await.status, 200);
    }
    assert_eq!(post(CHANNEL).await.status, 429);
    assert_eq!(post(CHANNEL + 1).await.status, 200);
    // A route limited on demand.
    fake.rate_limit_route(
        "PATCH",
        "/api/v10/channels/",
        1,
        Duration::from_millis(1500),
    );
    let patched = call(
        &fake,
        "PATCH",
        &format!("channels/{CHANNEL}/messages/1"),
        json!({ "components": [] }),
    )
    .await;
    assert_eq!(patched.status, 429);
    assert_eq!(patched.body["retry_after"], 1.5);
    assert_eq!(fake.refused(0).len(), 3, "every refusal is counted");
}

#[tokio::test]
async fn message_bodies_over_discord_s_limits_are_refused() {
    let fake = FakeDiscord::start(1).await;
    fake.set_limits(None, None);
    let buttons = |n: usize, prefix: &str| -> Value {
        let buttons: Vec<Value> = (0..n)
            .map(|k| json!({ "type": 2, "style": 1, "label": "b", "custom_id": format!("{prefix}{k}") }))
            .collect();
        json!({ "type": 1, "components": buttons })
    };
    let long_id = "x".repeat(101);
    let cases: Vec<(&str, Value, u64)> = vec![
        (
            "content of 2,001",
            json!({ "content": "x".repeat(2001) }),
            50035,
        ),
        (
            "a description of 4,097",
            json!({ "embeds": [{ "description": "x".repeat(4097) }] }),
            50035,
        ),
        (
            "embeds of 6,001 in all",
            json!({ "embeds": [{ "description": "x".repeat(4000) }, { "description": "x".repeat(2001) }] }),
            50035,
        ),
        (
            "six rows",
            json!({ "content": "x", "components": (0..6).map(|r| buttons(1, &format!("r{r}-"))).collect::<Vec<_>>() }),
            50035,
        ),
        (
            "a row of six",
            json!({ "content": "x", "components": [buttons(6, "b")] }),
            50035,
        ),
        (
            "one custom id twice",
            json!({ "content": "x", "components": [buttons(1, "same"), buttons(1, "same")] }),
            50035,
        ),
        (
            "a custom id of 101",
            json!({ "content": "x", "components": [{ "type": 1, "components": [{ "type": 2, "style": 1, "label": "b", "custom_id": long_id }] }] }),
            50035,
        ),
        (
            "a nonce of 26",
            json!({ "content": "x", "nonce": "n".repeat(26), "enforce_nonce": true }),
            50035,
        ),
        ("nothing at all", json!({ "content": "  " }), 50006),
    ];
    for (what, body, code) in cases {
        let answer = call(&fake, "POST", &format!("channels/{CHANNEL}/messages"), body).await;
        assert_eq!((answer.status, answer.code), (400, code), "{what}");
    }
    let fits = json!({ "content": "x".repeat(2000), "embeds": [{ "description": "x".repeat(4096) }], "components": (0..5).map(|r| buttons(5, &format!("r{r}-"))).collect::<Vec<_>>(), "nonce": "n".repeat(25), "enforce_nonce": true });
    assert_eq!(
        call(&fake, "POST", &format!("channels/{CHANNEL}/messages"), fits)
            .await
            .status,
        200
    );
    // 10 MiB per file.
    let big = post_file(&fake, CHANNEL, fake_discord::rules::MAX_FILE + 1).await;
    assert_eq!((big.status, big.code), (413, 40005));
    assert_eq!(post_file(&fake, CHANNEL, 1000).await.status, 200);
}

#[tokio::test]
async fn channels_refuse_as_their_type_and_state_say() {
    let fake = FakeDiscord::start(1).await;
    fake.set_limits(None, None);
    let (forum, post) = (CHANNEL + 10, CHANNEL + 11);
    fake.forum_post(GUILD, forum, post);
    let say = |channel: u64| {
        let path = format!("channels/{channel}/messages");
        let fake = &fake;
        async move { call(fake, "POST", &path, json!({ "content": "hi" })).await }
    };
    let refused = say(forum).await;
    assert_eq!(
        (refused.status, refused.code),
        (400, 50008),
        "a forum takes posts, not messages"
    );
    assert_eq!(say(post).await.status, 200, "a forum post is a thread");
    // Archived: 50083, until opened again; locked: 160005, and it stays shut.
    fake.change_channel(post, |c| c.archived = true);
    assert_eq!(say(post).await.code, 50083);
    let open = call(
        &fake,
        "PATCH",
        &format!("channels/{post}"),
        json!({ "archived": false }),
    )
    .await;
    assert_eq!(open.status, 200);
    assert_eq!(say(post).await.status, 200);
    fake.change_channel(post, |c| {
        c.archived = true;
        c.locked = true;
    });
    assert_eq!(say(post).await.code, 160005);
    let open = call(
        &fake,
        "PATCH",
        &format!("channels/{post}"),
        json!({ "archived": false }),
    )
    .await;
    assert_eq!((open.status, open.code), (403, 50013));
    // Permissions: no View Channel 50001, no Send Messages 50013, no
    // Send Messages in Threads in a thread 50013, no Attach Files 50013.
    let text = CHANNEL + 20;
    fake.add_channel(text, FakeChannel::text(GUILD));
    fake.change_channel(text, |c| {
        c.permissions = fake_discord::ALL_PERMISSIONS & !fake_discord::ATTACH_FILES
    });
    assert_eq!(say(text).await.status, 200, "text needs no Attach Files");
    assert_eq!(post_file(&fake, text, 10).await.code, 50013);
    fake.change_channel(text, |c| c.permissions &= !fake_discord::SEND_MESSAGES);
    assert_eq!(say(text).await.code, 50013);
    fake.change_channel(text, |c| c.permissions &= !fake_discord::VIEW_CHANNEL);
    assert_eq!(say(text).await.code, 50001);
    let thread = CHANNEL + 30;
    fake.thread(GUILD, CHANNEL + 31, thread);
    fake.change_channel(thread, |c| {
        c.permissions &= !fake_discord::SEND_MESSAGES_IN_THREADS
    });
    assert_eq!(say(thread).await.code, 50013);
    // Deleted: 10003. A guild that removed the bot: 50001.
    let gone = CHANNEL + 40;
    fake.add_channel(gone, FakeChannel::text(GUILD));
    fake.change_channel(gone, |c| c.deleted = true);
    let unknown = say(gone).await;
    assert_eq!((unknown.status, unknown.code), (404, 10003));
    let elsewhere = CHANNEL + 50;
    fake.add_channel(elsewhere, FakeChannel::text(GUILD + 1));
    assert_eq!(say(elsewhere).await.status, 200);
    fake.leave_quietly(GUILD + 1);
    assert_eq!(say(elsewhere).await.code, 50001);
    // Closed direct messages: 50007.
    let dm = call(
        &fake,
        "POST",
        "users/@me/channels",
        json!({ "recipient_id": alice().id.to_string() }),
    )
    .await;
    let dm: u64 = dm.body["id"].as_str().unwrap().parse().unwrap();
    fake.close_dms(&alice());
    assert_eq!(say(dm).await.code, 50007);
}

/// What a real serenity client receives from the fake's gateway.
#[derive(Clone, Default)]
struct Heard(Arc<Mutex<Vec<String>>>);

#[serenity::async_trait]
impl serenity::all::EventHandler for Heard {
    async fn guild_create(
        &self,
        _: serenity::all::Context,
        guild: serenity::all::Guild,
        _: Option<bool>,
    ) {
        self.0
            .lock()
            .unwrap()
            .push(format!("guild_create {}", guild.id));
    }
    async fn guild_delete(
        &self,
        _: serenity::all::Context,
        gone: serenity::all::UnavailableGuild,
        _: Option<serenity::all::Guild>,
    ) {
        self.0
            .lock()
            .unwrap()
            .push(format!("guild_delete {} {}", gone.id, gone.unavailable));
    }
    async fn channel_delete(
        &self,
        _: serenity::all::Context,
        channel: serenity::all::GuildChannel,
        _: Option<Vec<serenity::all::Message>>,
    ) {
        self.0
            .lock()
            .unwrap()
            .push(format!("channel_delete {}", channel.id));
    }
    async fn thread_delete(
        &self,
        _: serenity::all::Context,
        thread: serenity::all::PartialGuildChannel,
        _: Option<serenity::all::GuildChannel>,
    ) {
        self.0
            .lock()
            .unwrap()
            .push(format!("thread_delete {}", thread.id));
    }
    async fn resume(&self, _: serenity::all::Context, _: serenity::all::ResumedEvent) {
        self.0.lock().unwrap().push("resumed".to_owned());
    }
    async fn interaction_create(
        &self,
        _: serenity::all::Context,
        interaction: serenity::all::Interaction,
    ) {
        self.0
            .lock()
            .unwrap()
            .push(format!("interaction {}", interaction.id()));
    }
}

impl Heard {
    async fn wait_for(&self, what: &str) {
        for _ in 0..500 {
            if self.0.lock().unwrap().iter().any(|e| e == what) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("never heard {what:?}: {:?}", self.0.lock().unwrap());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gateway_sends_the_lifecycle_and_resumes_with_late_interactions() {
    let fake = FakeDiscord::start(1).await;
    let http = serenity::all::HttpBuilder::new("fake-token")
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .build();
    let heard = Heard::default();
    let mut client =
        serenity::all::ClientBuilder::new_with_http(http, serenity::all::GatewayIntents::GUILDS)
            .event_handler(heard.clone())
            .await
            .expect("client");
    let manager = Arc::clone(&client.shard_manager);
    let running = tokio::spawn(async move { client.start().await });
    fake.wait_for_shards(1).await;
    let (thread, parent) = (CHANNEL + 1, CHANNEL + 2);
    fake.add_channel(CHANNEL, FakeChannel::text(GUILD));
    fake.thread(GUILD, parent, thread);
    fake.add_bot(GUILD);
    heard.wait_for(&format!("guild_create {GUILD}")).await;
    fake.delete_channel(thread);
    heard.wait_for(&format!("thread_delete {thread}")).await;
    fake.delete_channel(CHANNEL);
    heard.wait_for(&format!("channel_delete {CHANNEL}")).await;
    fake.guild_outage(GUILD);
    heard.wait_for(&format!("guild_delete {GUILD} true")).await;
    fake.remove_bot(GUILD);
    heard.wait_for(&format!("guild_delete {GUILD} false")).await;
    // RECONNECT: the shard resumes and gets the interaction made meanwhile.
    let late = fake.made_ago(
        fake.stale_command(GUILD, CHANNEL, &alice(), "help", json!([])),
        Duration::from_secs(5),
    );
    fake.reconnect_with(vec![late.1]);
    heard.wait_for("resumed").await;
    heard.wait_for(&format!("interaction {}", late.0)).await;
    assert_eq!(fake.resumes(), 1);
    manager.shutdown_all().await;
    let _ = tokio::time::timeout(Duration::from_secs(5), running).await;
}
