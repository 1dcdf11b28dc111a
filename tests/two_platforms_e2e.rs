//! Both real platform clients in one run (issue 44): serenity against the
//! fake Discord on 127.0.0.1 (the bot a `pawnpost serve` child process)
//! and a Matrix client against the real Synapse (`MATRIX_HS`; skipped with
//! a note without it; the Matrix bot in this process), on one SQLite
//! database. Alice links her Discord account to her Matrix account, Lena
//! (the code shown only to her on Discord, typed on Matrix); a Discord
//! server's moderator invites Lena's space into a club and the space's own
//! moderator joins it; Lena, on Matrix, challenges Bob, on Discord, who
//! accepts in his channel; they play to checkmate, each acting and told on
//! their own platform; the Discord bot is killed (SIGKILL) with Bob's move
//! committed and unannounced, and started again: each side reads that
//! move once. The club's standings then show the result on both
//! platforms, alike.

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
use std::sync::Arc;

use bot_process::{BotProcess, until_committed};
use fake_discord::{FakeDiscord, FakeUser, Recorded};
use harness::*;
use matrix_client::{BOT, Player, WAIT, register, the_bots_direct_answer};
use matrix_sdk::ruma::{OwnedRoomId, UserId};
use pawnpost::adapters::matrix::MatrixBot;
use pawnpost::config::{MatrixConfig, Secret};
use pawnpost::scheduler::{self, SchedulerSettings};
use pawnpost::service::{Service, ServiceConfig, SystemTime};
use pawnpost::storage::sqlite::SqliteStore;
use serde_json::json;

/// The whole run's bound.
const WHOLE_TEST: std::time::Duration = std::time::Duration::from_secs(400);

/// The Matrix bot on `db` (beside the Discord one) with its scheduler and
/// outbox worker, until `stop` turns true.
async fn start_matrix_bot(
    homeserver: &str,
    dir: &Path,
    db: &Path,
) -> (
    tokio::sync::watch::Sender<bool>,
    tokio::task::JoinHandle<()>,
) {
    let config = MatrixConfig {
        homeserver: Some(homeserver.to_owned()),
        user_id: Some(BOT.to_owned()),
        password: Some(Secret::new("pass-chessbot")),
        store_path: dir.join("matrix"),
        ..MatrixConfig::default()
    };
    let store = SqliteStore::open(db).expect("store");
    let service = Arc::new(Service::new(store, ServiceConfig::default()));
    let bot = MatrixBot::connect(&config).await.expect("bot connects");
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let settings = SchedulerSettings {
        heartbeat_every: std::time::Duration::from_millis(200),
        poll_every: std::time::Duration::from_millis(200),
        ..SchedulerSettings::default()
    };
    let mut until_stopped = stopped.clone();
    let worker = tokio::spawn(scheduler::run(
        Arc::clone(&service),
        bot.notifier(Arc::clone(&service)),
        SystemTime,
        settings,
        async move {
            let _ = until_stopped.wait_for(|s| *s).await;
        },
    ));
    let mut stopped = stopped;
    let task = tokio::spawn(async move {
        let shutdown = async move {
            let _ = stopped.wait_for(|s| *s).await;
        };
        bot.run(&service, shutdown).await.expect("bot runs");
        let _ = worker.await;
    });
    (stop, task)
}

/// The Discord bot as a `pawnpost serve` process on `dir`'s database,
/// looking each second for what the Matrix bot queued for Discord.
async fn start_discord_bot(fake: &FakeDiscord, dir: &Path, name: &str) -> BotProcess {
    let env = [
        ("DISCORD_TOKEN", "fake-token".to_owned()),
        ("PAWNPOST_DISCORD_API_BASE", fake.api_base()),
        ("PAWNPOST_DELIVERY_POLL_SECONDS", "1".to_owned()),
    ];
    let bot = BotProcess::spawn(dir, name, &env);
    fake.wait_for_shards(1).await;
    bot
}

/// A space of Lena's with one room in it, both joined by the bot: the
/// room's games count for the space, which Lena moderates (she made it).
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

fn moderator(id: u64, name: &str) -> FakeUser {
    let mut user = FakeUser::new(id, name);
    user.permissions = 32; // Manage Server
    user
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_linked_player_and_a_club_of_a_guild_and_a_space() {
    let Ok(homeserver) = std::env::var("MATRIX_HS") else {
        eprintln!("note: MATRIX_HS is not set: the two-platform end-to-end test is skipped");
        return;
    };
    tokio::time::timeout(WHOLE_TEST, scenario(&homeserver))
        .await
        .expect("the whole scenario finishes in time");
}

async fn scenario(homeserver: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("pawnpost.db");
    let fake = FakeDiscord::start(1).await;
    let discord_bot = start_discord_bot(&fake, dir.path(), "discord-1").await;
    register(homeserver, "chessbot").await;
    register(homeserver, "lena").await;
    let (stop_matrix, matrix_task) = start_matrix_bot(homeserver, dir.path(), &db).await;
    let lena = Player::login(homeserver, "lena").await;
    let (space, room) = lenas_space(&lena).await;
    let (alice, bob) = (alice(), bob());
    fake.know(&bob);

    link_alice_and_lena(&fake, &lena, &room, &alice).await;
    form_the_club(&fake, &lena, &room, &space, &bob).await;
    let discord_bot =
        play_across_platforms(&fake, &lena, &room, &bob, dir.path(), discord_bot).await;

    // One table on both platforms, alike; Lena's result is Alice's line.
    let on_discord = send(
        &fake,
        fake.command(GUILD, CHANNEL, &bob, "club standings", json!([])),
    )
    .await
    .all_text();
    let on_matrix = lena_hears(&lena, &room, "!chess standings", "Standings").await;
    // Discord's text escapes a numbered line's dot (`1\.`).
    let on_discord = on_discord.replace("\\.", ".");
    for table in [&on_discord, &on_matrix] {
        assert!(table.contains("1. bob: 1 point"), "{table}");
        assert!(table.contains("2. alice: 0 points"), "{table}");
        assert!(!table.contains("lena"), "{table}");
    }

    let _ = stop_matrix.send(true);
    let _ = tokio::time::timeout(WAIT, matrix_task).await;
    drop(discord_bot);
    lena.sync.abort();
}

/// Alice asks for a code on Discord (only she sees it) and types it as
/// Lena on Matrix, where she is told privately.
async fn link_alice_and_lena(
    fake: &FakeDiscord,
    lena: &Player,
    room: &OwnedRoomId,
    alice: &FakeUser,
) {
    let asked = send(
        fake,
        fake.command(GUILD, CHANNEL, alice, "settings link", json!([])),
    )
    .await;
    assert!(asked.is_ephemeral(), "{asked:?}");
    let code = asked
        .all_text()
        .split_whitespace()
        .find(|w| w.chars().count() == 9 && w.chars().nth(4) == Some('-'))
        .expect("a code")
        .to_owned();
    let mark = lena.inbox.mark();
    lena.say(room, &format!("!chess link {code}")).await;
    the_bots_direct_answer(lena, mark, room, "are now one player").await;
}

/// Dora, a moderator of the Discord server, invites Lena's space; Bob, no
/// moderator, cannot act on the club; Lena, the space's moderator, joins.
async fn form_the_club(
    fake: &FakeDiscord,
    lena: &Player,
    room: &OwnedRoomId,
    space: &OwnedRoomId,
    bob: &FakeUser,
) {
    let dora = moderator(540_000_000_000_000_004, "dora");
    let invite = json!([
        { "name": "platform", "type": 3, "value": "matrix" },
        { "name": "guest", "type": 3, "value": space.as_str() },
    ]);
    let invited = send(
        fake,
        fake.command(GUILD, CHANNEL, &dora, "club invite", invite),
    )
    .await;
    assert!(
        invited
            .all_text()
            .contains("Club #1 invites the matrix server"),
        "{invited:?}"
    );
    let refused = send(
        fake,
        fake.command(GUILD, CHANNEL, bob, "club quit", json!([])),
    )
    .await;
    assert!(refused.is_ephemeral() && refused.all_text().contains("Only a moderator"));
    let joined = lena_hears(lena, room, "!chess club join 1", "joined club #1").await;
    assert!(joined.contains(&format!("discord {GUILD}")), "{joined}");
}

/// A Discord request holding `text` after `mark`, in the game's channel.
fn in_channel(text: &str) -> impl Fn(&Recorded) -> bool + '_ {
    move |r: &Recorded| {
        r.method == "POST"
            && r.path == format!("/api/v10/channels/{CHANNEL}/messages")
            && r.all_text().contains(text)
    }
}

/// Lena (Matrix, White) challenges Bob (Discord), who accepts in his
/// channel; fool's mate, each acting from their own platform and told
/// there; the Discord bot is killed with Bob's e5 committed and
/// unannounced, then started again: each side reads e5 once.
async fn play_across_platforms(
    fake: &FakeDiscord,
    lena: &Player,
    room: &OwnedRoomId,
    bob: &FakeUser,
    dir: &Path,
    discord_bot: BotProcess,
) -> BotProcess {
    let mark = fake.request_count();
    lena_hears(
        lena,
        room,
        &format!("!chess challenge @discord:{} color:white", bob.id),
        "challenges bob",
    )
    .await;
    // Bob is told by direct message on Discord.
    fake.wait_for(mark, |r| {
        r.method == "POST" && r.all_text().contains("challenges bob")
    })
    .await;
    let mark = lena.inbox.mark();
    let accept = json!([{ "name": "challenge", "type": 4, "value": 1 }]);
    let started = send(
        fake,
        fake.command(GUILD, CHANNEL, bob, "play accept", accept),
    )
    .await;
    assert!(started.all_text().contains("Game #1 begins"), "{started:?}");
    lena.inbox
        .after(mark, "the game's start in Lena's room", |s| {
            &s.room == room && s.sender == BOT && s.body.contains("Game #1 begins")
        })
        .await;
    // Lena plays from her room; Bob is told in his channel.
    let mark = fake.request_count();
    lena_hears(lena, room, "!chess move f3", "f3").await;
    let told = fake.wait_for(mark, in_channel("f3")).await;
    assert!(told.content().contains(&bob.mention()), "{told:?}");

    // Bob's e5 is committed, then the Discord bot dies before saying it.
    fake.hold_interaction_answers(true);
    let lena_mark = lena.inbox.mark();
    let act = fake.command(GUILD, CHANNEL, bob, "move", move_options("e5", json!([])));
    let key = act.0.to_string();
    fake.dispatch(&act.1);
    until_committed(&dir.join("pawnpost.db"), &key, fake_discord::PATIENCE).await;
    let discord_mark = fake.request_count();
    discord_bot.kill();
    fake.forget_shards();
    fake.hold_interaction_answers(false);
    let discord_bot = start_discord_bot(fake, dir, "discord-2").await;
    fake.wait_for(discord_mark, in_channel("e5")).await;
    lena.inbox
        .after(lena_mark, "e5 in Lena's room", |s| {
            &s.room == room && s.sender == BOT && s.body.contains("e5")
        })
        .await;

    lena_hears(lena, room, "!chess move g4", "g4").await;
    let mark = lena.inbox.mark();
    let mate = send(
        fake,
        fake.command(GUILD, CHANNEL, bob, "move", move_options("Qh4#", json!([]))),
    )
    .await;
    assert!(mate.all_text().contains("checkmate"), "{mate:?}");
    lena.inbox
        .after(mark, "the mate in Lena's room", |s| {
            &s.room == room && s.sender == BOT && s.body.contains("checkmate")
        })
        .await;
    // Nothing doubled: e5 said once on each platform, past another handoff.
    tokio::time::sleep(std::time::Duration::from_secs(4)).await;
    let on_discord = fake.requests()[discord_mark..]
        .iter()
        .filter(|r| in_channel("played e5")(r))
        .count();
    assert_eq!(on_discord, 1, "e5 posted {on_discord} times on Discord");
    let on_matrix = lena.inbox.seen.lock().expect("inbox")[lena_mark..]
        .iter()
        .filter(|s| &s.room == room && s.sender == BOT && s.body.contains("played e5"))
        .count();
    assert_eq!(on_matrix, 1, "e5 said {on_matrix} times on Matrix");
    discord_bot
}
