//! Both real platform clients in one run (issue 44): serenity against the
//! fake Discord on 127.0.0.1 and a Matrix client against the real Synapse
//! (`MATRIX_HS`; skipped with a note without it), two bots on one SQLite
//! database as two processes would be. A player links her Discord account
//! to her Matrix account (the code shown only to her on Discord, typed on
//! Matrix); a Discord server's moderator invites a Matrix space into a club
//! and the space's own moderator joins it; a game played on Discord then
//! shows in the club's standings on both platforms, alike, the linked
//! player one line.
//!
//! Not here yet: a game between a Discord and a Matrix player (each side
//! playing from its own channel) and a SIGKILL in its middle; see
//! docs/competition.md ("Clubs across servers and platforms").

#![cfg(feature = "matrix")]
#![recursion_limit = "256"]

#[path = "common/fake_discord.rs"]
mod fake_discord;
#[path = "common/discord_harness.rs"]
mod harness;
#[path = "common/matrix_client.rs"]
mod matrix_client;

use std::path::Path;

use fake_discord::{FakeDiscord, FakeUser};
use harness::*;
use matrix_client::{BOT, Player, WAIT, register, the_bots_direct_answer};
use matrix_sdk::ruma::{OwnedRoomId, UserId};
use pawnpost::adapters::matrix::MatrixBot;
use pawnpost::config::{MatrixConfig, Secret};
use pawnpost::service::{Service, ServiceConfig};
use pawnpost::storage::sqlite::SqliteStore;
use serde_json::json;

/// The whole run's bound.
const WHOLE_TEST: std::time::Duration = std::time::Duration::from_secs(300);

/// The Matrix bot on `db` (beside the Discord one), until `stop` turns true.
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
    let service = Service::new(
        SqliteStore::open(db).expect("store"),
        ServiceConfig::default(),
    );
    let bot = MatrixBot::connect(&config).await.expect("bot connects");
    let (stop, mut stopped) = tokio::sync::watch::channel(false);
    let task = tokio::spawn(async move {
        let shutdown = async move {
            let _ = stopped.wait_for(|s| *s).await;
        };
        bot.run(&service, shutdown).await.expect("bot runs");
    });
    (stop, task)
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
    let time = ManualTime::new();
    // Acts on both platforms happen now: a code made on Discord is typed
    // on Matrix within its ten minutes.
    *time.0.lock().unwrap() = chrono::Utc::now();
    let discord_bot = start_bot(&fake, &db, &time).await;
    register(homeserver, "chessbot").await;
    register(homeserver, "lena").await;
    let (stop_matrix, matrix_task) = start_matrix_bot(homeserver, dir.path(), &db).await;
    let lena = Player::login(homeserver, "lena").await;
    let (space, room) = lenas_space(&lena).await;
    let (alice, bob) = (alice(), bob());

    // Alice asks for a code on Discord: only she sees it.
    let asked = send(
        &fake,
        fake.command(GUILD, CHANNEL, &alice, "settings link", json!([])),
    )
    .await;
    assert!(asked.is_ephemeral(), "{asked:?}");
    let code = asked
        .all_text()
        .split_whitespace()
        .find(|w| w.chars().count() == 9 && w.chars().nth(4) == Some('-'))
        .expect("a code")
        .to_owned();
    // Lena is Alice on Matrix: she types it there, and is told privately.
    let mark = lena.inbox.mark();
    lena.say(&room, &format!("!chess link {code}")).await;
    the_bots_direct_answer(&lena, mark, &room, "are now one player").await;

    // Dora moderates the Discord server: she invites Lena's space.
    let dora = moderator(540_000_000_000_000_004, "dora");
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
        invited
            .all_text()
            .contains("Club #1 invites the matrix server"),
        "{invited:?}"
    );
    // Bob, no moderator, cannot; Lena, the space's moderator, joins.
    let refused = send(
        &fake,
        fake.command(GUILD, CHANNEL, &bob, "club quit", json!([])),
    )
    .await;
    assert!(refused.is_ephemeral() && refused.all_text().contains("Only a moderator"));
    let joined = lena_hears(&lena, &room, "!chess club join 1", "joined club #1").await;
    assert!(joined.contains(&format!("discord {GUILD}")), "{joined}");

    // Alice beats Bob on Discord.
    let game = open_game(&fake, &alice, &bob, "3d").await;
    let resigned = send(
        &fake,
        fake.command(GUILD, CHANNEL, &bob, "play resign", json!([])),
    )
    .await;
    assert!(
        resigned.all_text().contains("resigns"),
        "game {game}: {resigned:?}"
    );

    // One table on both platforms, alike: Alice (with Lena) one line.
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
        assert!(table.contains("1. alice: 1 point"), "{table}");
        assert!(table.contains("2. bob: 0 points"), "{table}");
        assert!(!table.contains("lena"), "{table}");
    }

    let _ = stop_matrix.send(true);
    let _ = tokio::time::timeout(WAIT, matrix_task).await;
    discord_bot.stop(&fake).await;
    lena.sync.abort();
}
