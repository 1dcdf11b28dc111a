//! One `pawnpost serve` process for both platforms (issue 44): with a
//! Discord token (the fake Discord on 127.0.0.1) and a `[matrix]` section
//! (the real Synapse, `MATRIX_HS`; skipped with a note without it), one
//! child process serves both over one SQLite database. A club of a guild
//! and a space is formed; Lena, on Matrix, and Bob, on Discord, play, each
//! move told on the other platform at once (the process hands a relayed
//! notice to its other platform's worker: `poll_seconds` stays at its
//! default of 60, far beyond this test's bound); then SIGTERM stops both
//! bots and the process exits 0.

#![cfg(feature = "matrix")]
#![recursion_limit = "256"]

#[path = "common/bot_process.rs"]
mod bot_process;
#[path = "common/fake_discord.rs"]
mod fake_discord;
#[path = "common/discord_harness.rs"]
mod harness;
#[path = "common/matrix_client.rs"]
mod matrix_client;

use std::path::Path;
use std::time::{Duration, Instant};

use bot_process::BotProcess;
use fake_discord::{FakeDiscord, FakeUser, Recorded};
use harness::*;
use matrix_client::{BOT, Player, register};
use matrix_sdk::ruma::{OwnedRoomId, UserId};
use serde_json::json;

/// The whole run's bound.
const WHOLE_TEST: Duration = Duration::from_secs(300);

/// How long a move may take to reach the other platform: well under the
/// 60 s a worker of another process would wait between two looks.
const HANDOVER: Duration = Duration::from_secs(15);

/// `pawnpost serve` with both platforms configured, on `dir`'s database.
async fn start_both(fake: &FakeDiscord, homeserver: &str, dir: &Path) -> BotProcess {
    let env = [
        ("DISCORD_TOKEN", "fake-token".to_owned()),
        ("PAWNPOST_DISCORD_API_BASE", fake.api_base()),
        ("PAWNPOST_MATRIX_HOMESERVER", homeserver.to_owned()),
        ("PAWNPOST_MATRIX_USER_ID", BOT.to_owned()),
        ("MATRIX_PASSWORD", "pass-chessbot".to_owned()),
    ];
    let bot = BotProcess::spawn(dir, "both", &env);
    fake.wait_for_shards(1).await;
    bot
}

/// A space of Lena's with one room in it, both joined by the bot.
async fn lenas_space(lena: &Player) -> (OwnedRoomId, OwnedRoomId) {
    let bot = UserId::parse(BOT).expect("bot id");
    let space = lena.create_space(&[&bot]).await;
    let room = lena.create_room(&[&bot], false).await;
    lena.name_parent(&room, &space).await;
    lena.list_child(&space, &room).await;
    lena.until_joined(&space, BOT).await;
    lena.until_joined(&room, BOT).await;
    (space, room)
}

/// What the bot says next in `room` holding `text`, after Lena says `said`.
async fn lena_hears(lena: &Player, room: &OwnedRoomId, said: &str, text: &str) -> String {
    let mark = lena.inbox.mark();
    lena.say(room, said).await;
    lena.inbox
        .after(mark, text, |s| {
            &s.room == room && s.sender == BOT && s.body.contains(text)
        })
        .await
        .body
}

/// A Discord message in the game's channel holding `text`.
fn in_channel(text: &str) -> impl Fn(&Recorded) -> bool + '_ {
    move |r: &Recorded| {
        r.method == "POST"
            && r.path == format!("/api/v10/channels/{CHANNEL}/messages")
            && r.all_text().contains(text)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_process_serves_discord_and_matrix() {
    let Ok(homeserver) = std::env::var("MATRIX_HS") else {
        eprintln!("note: MATRIX_HS is not set: the one-process end-to-end test is skipped");
        return;
    };
    tokio::time::timeout(WHOLE_TEST, scenario(&homeserver))
        .await
        .expect("the whole scenario finishes in time");
}

async fn scenario(homeserver: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    register(homeserver, "chessbot").await;
    register(homeserver, "lena").await;
    let fake = FakeDiscord::start(1).await;
    let mut both = start_both(&fake, homeserver, dir.path()).await;
    let lena = Player::login(homeserver, "lena").await;
    let (space, room) = lenas_space(&lena).await;
    let bob = bob();
    fake.know(&bob);

    // The club: Dora (Discord moderator) invites, Lena (the space's) joins.
    let mut dora = FakeUser::new(540_000_000_000_000_004, "dora");
    dora.permissions = 32; // Manage Server
    let invite = json!([
        { "name": "platform", "type": 3, "value": "matrix" },
        { "name": "guest", "type": 3, "value": space.as_str() },
    ]);
    let invited = send(
        &fake,
        fake.command(GUILD, CHANNEL, &dora, "club invite", invite),
    )
    .await;
    assert!(
        invited.all_text().contains("invites the matrix server"),
        "{invited:?}"
    );
    lena_hears(&lena, &room, "!chess club join 1", "joined club #1").await;
    // Bob has used the bot on Discord (so he can be challenged by name).
    let servers = send(
        &fake,
        fake.command(GUILD, CHANNEL, &bob, "club servers", json!([])),
    )
    .await;
    assert!(servers.all_text().contains("member"), "{servers:?}");

    // Lena challenges Bob across platforms; he accepts on Discord.
    let mark = fake.request_count();
    let challenge = format!("!chess challenge @discord:{} color:white", bob.id);
    lena_hears(&lena, &room, &challenge, "challenges bob").await;
    fake.wait_for(mark, |r| {
        r.method == "POST" && r.all_text().contains("challenges bob")
    })
    .await;
    let mark = lena.inbox.mark();
    let accept = json!([{ "name": "challenge", "type": 4, "value": 1 }]);
    let started = send(
        &fake,
        fake.command(GUILD, CHANNEL, &bob, "play accept", accept),
    )
    .await;
    assert!(started.all_text().contains("Game #1 begins"), "{started:?}");
    lena.inbox
        .after(mark, "the start in Lena's room", |s| {
            s.room == room && s.sender == BOT && s.body.contains("Game #1 begins")
        })
        .await;

    // Each move reaches the other platform at once, from one process.
    let mark = fake.request_count();
    let asked = Instant::now();
    lena_hears(&lena, &room, "!chess move f3", "f3").await;
    fake.wait_for(mark, in_channel("f3")).await;
    let matrix_to_discord = asked.elapsed();
    let mark = lena.inbox.mark();
    let asked = Instant::now();
    let moved = send(
        &fake,
        fake.command(GUILD, CHANNEL, &bob, "move", move_options("e5", json!([]))),
    )
    .await;
    assert!(moved.all_text().contains("e5"), "{moved:?}");
    lena.inbox
        .after(mark, "e5 in Lena's room", |s| {
            s.room == room && s.sender == BOT && s.body.contains("e5")
        })
        .await;
    let discord_to_matrix = asked.elapsed();
    eprintln!(
        "handed over: Matrix→Discord {matrix_to_discord:?}, Discord→Matrix {discord_to_matrix:?}"
    );
    assert!(matrix_to_discord < HANDOVER, "{matrix_to_discord:?}");
    assert!(discord_to_matrix < HANDOVER, "{discord_to_matrix:?}");

    // SIGTERM stops both bots; the process exits 0.
    both.terminate();
    let status = both.wait_exit(Duration::from_secs(40));
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    lena.sync.abort();
}
