//! The real serenity client against a fake Discord on 127.0.0.1: a game
//! played through slash commands, buttons and autocomplete; refusals,
//! replays, a restart and a flag fall.

#[path = "common/bot_process.rs"]
mod bot_process;
#[path = "common/fake_discord.rs"]
mod fake_discord;
#[path = "common/discord_harness.rs"]
mod harness;

use std::sync::Arc;
use std::time::Duration as StdDuration;

use bot_process::{BotProcess, until_committed};
use chrono::Duration;
use fake_discord::{FakeDiscord, FakeUser, Recorded};
use harness::*;
use pawnpost::core::notation::Lang;
use pawnpost::scheduler::{self, SchedulerSettings};
use pawnpost::service::{ServiceConfig, TimeSource};
use serde_json::{Value, json};
use tokio::sync::oneshot;
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_played_through_commands_buttons_and_autocomplete() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let (alice, mut bob, carol) = (alice(), bob(), carol());
    let game = open_game(&fake, &alice, &bob, "3d").await;

    // The flag instant is a Discord timestamp each reader sees in their own zone.
    let requests = fake.requests();
    let last_move = requests
        .iter()
        .rev()
        .find(|r| r.all_text().contains("e4"))
        .unwrap();
    assert!(
        last_move.all_text().contains(":R>"),
        "{}",
        last_move.all_text()
    );

    // A third user cannot move in the game: refused privately, nothing changes.
    let refused = send(
        &fake,
        fake.command(
            GUILD,
            CHANNEL,
            &carol,
            "move",
            move_options("e5", json!([{ "name": "game", "type": 4, "value": game }])),
        ),
    )
    .await;
    assert!(refused.is_ephemeral(), "{refused:?}");
    assert!(!refused.content().contains("<@"), "a refusal pings nobody");
    let record = bot.service.store().game(game).await.unwrap().unwrap();
    assert_eq!(record.moves.len(), 1);

    // Autocomplete offers bob's legal moves, filtered by what he typed.
    let all = send(
        &fake,
        fake.autocomplete(
            GUILD,
            CHANNEL,
            &bob,
            "move",
            json!([{ "name": "move", "type": 3, "value": "", "focused": true }]),
        ),
    )
    .await;
    assert_eq!(all.json["type"], 8, "an autocomplete result");
    let names = |r: &Recorded| -> Vec<String> {
        r.json["data"]["choices"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|c| c["value"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    let choices = names(&all);
    assert_eq!(
        choices.len(),
        20,
        "black's 20 legal replies to 1.e4: {choices:?}"
    );
    for expected in ["e5", "Nf6", "c5", "Nc6", "a6", "h5"] {
        assert!(
            choices.contains(&expected.to_owned()),
            "{expected} in {choices:?}"
        );
    }
    let knights = send(
        &fake,
        fake.autocomplete(
            GUILD,
            CHANNEL,
            &bob,
            "move",
            json!([{ "name": "move", "type": 3, "value": "N", "focused": true }]),
        ),
    )
    .await;
    assert_eq!(names(&knights), ["Na6", "Nc6", "Nf6", "Nh6"]);
    // A game option suggests the caller's games here.
    let games = send(
        &fake,
        fake.autocomplete(
            GUILD,
            CHANNEL,
            &bob,
            "move",
            json!([
                { "name": "move", "type": 3, "value": "e5" },
                { "name": "game", "type": 4, "value": "", "focused": true }
            ]),
        ),
    )
    .await;
    let offered = games.json["data"]["choices"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(offered.len(), 1, "{offered:?}");
    assert_eq!(offered[0]["value"], game);
    // Not alice's move: nothing to suggest.
    let none = send(
        &fake,
        fake.autocomplete(
            GUILD,
            CHANNEL,
            &alice,
            "move",
            json!([{ "name": "move", "type": 3, "value": "", "focused": true }]),
        ),
    )
    .await;
    assert!(names(&none).is_empty());

    // Bob plays from a French client: the channel's message is alice's, in
    // the server's language (she chose none); bob's own lines come in French.
    bob.locale = "fr".to_owned();
    let e5_act = fake.command(GUILD, CHANNEL, &bob, "move", move_options("e5", json!([])));
    let e5_id = e5_act.0;
    let e5 = send(&fake, e5_act).await;
    assert!(e5.all_text().contains("bob played e5"), "{}", e5.all_text());
    let mut own_lines = String::new();
    for _ in 0..100 {
        own_lines = fake
            .followups(e5_id)
            .iter()
            .map(|f| f.all_text())
            .collect::<Vec<_>>()
            .join("\n");
        if own_lines.contains("a joué") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(own_lines.contains("bob a joué e5"), "{own_lines}");

    // The same interaction delivered twice applies once.
    let nf3 = fake.command(
        GUILD,
        CHANNEL,
        &alice,
        "move",
        move_options(
            "Nf3",
            json!([{ "name": "offer_draw", "type": 5, "value": true }]),
        ),
    );
    let first = send(&fake, nf3.clone()).await;
    let before = fake.request_count();
    fake.dispatch(&nf3.1);
    let again = fake
        .wait_for(before, |r| {
            r.path
                .starts_with(&format!("/api/v10/interactions/{}/", nf3.0))
        })
        .await;
    assert_eq!(first.all_text(), again.all_text());
    let record = bot.service.store().game(game).await.unwrap().unwrap();
    assert_eq!(record.moves.len(), 3, "Nf3 once");
    let accept_draw = format!("draw-accept:{game}");
    assert!(
        first.buttons().contains(&accept_draw),
        "{:?}",
        first.buttons()
    );

    // Alice cannot accept her own offer (its buttons stay); bob can (they
    // go, with the click's own UPDATE_MESSAGE answer).
    let own_click = fake.click(GUILD, CHANNEL, &alice, &accept_draw);
    let own_id = own_click.0;
    let own = send(&fake, own_click).await;
    assert!(own.is_ephemeral(), "{own:?}");
    assert_eq!(
        fake.callback(own_id).await.json["type"],
        4,
        "a refusal updates nothing"
    );
    let bob_click = fake.click(GUILD, CHANNEL, &bob, &accept_draw);
    let bob_id = bob_click.0;
    let drawn = send(&fake, bob_click).await;
    assert!(!drawn.is_ephemeral());
    let closed = fake.callback(bob_id).await;
    assert_eq!(closed.json["type"], 7, "{closed:?}");
    assert_eq!(closed.json["data"]["components"], json!([]));
    assert!(
        !fake
            .requests()
            .iter()
            .any(|r| r.method == "PATCH" && r.path.contains("/channels/")),
        "no channel edit: the clicks answered"
    );
    assert!(drawn.buttons().is_empty(), "a finished game has no buttons");
    let record = bot.service.store().game(game).await.unwrap().unwrap();
    assert!(
        matches!(record.state, pawnpost::storage::Status::Over { .. }),
        "{:?}",
        record.state
    );

    let standings = send(
        &fake,
        fake.command(GUILD, CHANNEL, &alice, "club standings", json!([])),
    )
    .await;
    let text = standings.all_text();
    assert!(text.contains("alice") && text.contains("bob"), "{text}");

    // Resign asks first, privately.
    let question = send(
        &fake,
        fake.click(GUILD, CHANNEL, &alice, &format!("resign:{game}")),
    )
    .await;
    assert!(question.is_ephemeral());
    assert_eq!(question.buttons(), [format!("resign-confirm:{game}")]);

    // The game as a GIF, within Discord's upload limit.
    let gif = send(
        &fake,
        fake.command(GUILD, CHANNEL, &alice, "game gif", json!([])),
    )
    .await;
    assert!(
        gif.files.iter().any(|f| f.content_type == "image/gif"),
        "{gif:?}"
    );

    // Every answer the bot sent is well formed, every PNG decodes, and no
    // file was too large for Discord (413). (The replayed interaction's
    // second answer is refused with 400, as Discord does.)
    for request in fake.requests() {
        assert_pngs_decode(&request);
        assert!(!request.path.contains("fake-token"));
        assert_ne!(request.status, 413, "{} {}", request.method, request.path);
    }
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ambiguous_move_is_chosen_with_a_button() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let (alice, bob) = (alice(), bob());
    fake.know(&bob);
    // Both rooks reach d1 (and the king cannot).
    let challenge = send(
        &fake,
        fake.command(
            GUILD,
            CHANNEL,
            &alice,
            "play challenge",
            json!([
                { "name": "user", "type": 6, "value": bob.id.to_string() },
                { "name": "color", "type": 3, "value": "white" },
                { "name": "fen", "type": 3, "value": "4k3/8/8/8/8/4K3/8/R6R w - - 0 1" }
            ]),
        ),
    )
    .await;
    let accept = challenge
        .buttons()
        .into_iter()
        .find(|b| b.starts_with("challenge-accept:"))
        .expect("an Accept button");
    let started = send(&fake, fake.click(GUILD, CHANNEL, &bob, &accept)).await;
    let game = game_in_title(&started);

    // Nothing is played; alice alone is asked, with a button per reading.
    let asked = send(
        &fake,
        fake.command(
            GUILD,
            CHANNEL,
            &alice,
            "move",
            move_options("Rd1", json!([])),
        ),
    )
    .await;
    assert!(asked.is_ephemeral(), "{asked:?}");
    let moves = |record: pawnpost::storage::GameRecord| record.moves.len();
    let record = bot.service.store().game(game).await.unwrap().unwrap();
    assert_eq!(moves(record), 0);
    let choices = [
        format!("choose:{game}:m:a1d1"),
        format!("choose:{game}:m:h1d1"),
    ];
    assert_eq!(asked.buttons(), choices);
    let labels: Vec<&str> = asked.message()["components"][0]["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["Ra1-d1", "Rh1-d1"]);

    // A click is untrusted: bob's, or a forged one, plays nothing.
    let forged = format!("choose:{game}:m:a1h8");
    for (user, id) in [(&bob, choices[1].as_str()), (&alice, forged.as_str())] {
        let refused = send(&fake, fake.click(GUILD, CHANNEL, user, id)).await;
        assert!(refused.is_ephemeral(), "{refused:?}");
    }
    let record = bot.service.store().game(game).await.unwrap().unwrap();
    assert_eq!(moves(record), 0);

    // alice's click plays her reading, named as she writes it.
    let played = send(&fake, fake.click(GUILD, CHANNEL, &alice, &choices[1])).await;
    assert!(!played.is_ephemeral(), "{played:?}");
    assert!(played.all_text().contains("Rhd1"), "{}", played.all_text());
    assert!(played.content().contains(&bob.mention()), "bob is to move");
    let record = bot.service.store().game(game).await.unwrap().unwrap();
    assert_eq!(record.moves.len(), 1);
    assert_eq!(record.moves[0].uci, "h1d1");
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_bot_continues_the_game() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("pawnpost.db");
    let time = ManualTime::new();
    let (alice, bob) = (alice(), bob());
    let bot = start_bot(&fake, &db, &time).await;
    let game = open_game(&fake, &alice, &bob, "3d").await;
    bot.stop(&fake).await;

    let bot = start_bot(&fake, &db, &time).await;
    let e5 = send(
        &fake,
        fake.command(GUILD, CHANNEL, &bob, "move", move_options("e5", json!([]))),
    )
    .await;
    assert!(!e5.is_ephemeral(), "{e5:?}");
    let record = bot.service.store().game(game).await.unwrap().unwrap();
    assert_eq!(record.moves.len(), 2);
    bot.stop(&fake).await;
}

/// `/play rematch` after a resignation: the opponent gets the same game with
/// colours swapped, accepted with the challenge's own button.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_is_offered_and_accepted_with_a_button() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let (alice, bob) = (alice(), bob());
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let first = open_game(&fake, &alice, &bob, "4d").await;
    let resign = json!([{ "name": "game", "type": 4, "value": first }]);
    let resigned = send(
        &fake,
        fake.command(GUILD, CHANNEL, &bob, "play resign", resign),
    )
    .await;
    assert!(resigned.all_text().contains("resigns"), "{resigned:?}");
    fake.know(&alice);
    let offer = send(
        &fake,
        fake.command(GUILD, CHANNEL, &bob, "play rematch", json!([])),
    )
    .await;
    assert!(!offer.is_ephemeral(), "{offer:?}");
    assert!(
        offer.content().contains(&alice.mention()),
        "{}",
        offer.content()
    );
    assert!(
        offer
            .all_text()
            .contains(&format!("rematch of game #{first}")),
        "{offer:?}"
    );
    let accept = offer
        .buttons()
        .into_iter()
        .find(|b| b.starts_with("challenge-accept:"));
    let accept = accept.expect("an Accept button");
    let started = send(&fake, fake.click(GUILD, CHANNEL, &alice, &accept)).await;
    let second = game_in_title(&started);
    assert!(second > first, "{started:?}");
    // Bob had Black: now he has White, and it is his move.
    assert!(
        started.content().contains(&bob.mention()),
        "{}",
        started.content()
    );
    let record = bot.service.store().game(second).await.unwrap().unwrap();
    let old = bot.service.store().game(first).await.unwrap().unwrap();
    assert_eq!((record.white, record.black), (old.black, old.white));
    assert_eq!(
        (record.time_control.as_str(), record.rated),
        (old.time_control.as_str(), old.rated)
    );
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_fall_is_posted_in_the_game_channel_with_a_mention() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let (alice, bob) = (alice(), bob());
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let game = open_game(&fake, &alice, &bob, "1d").await;

    let (stop, stopped) = oneshot::channel::<()>();
    let settings = SchedulerSettings {
        heartbeat_every: StdDuration::from_millis(50),
        ..SchedulerSettings::default()
    };
    let scheduler = tokio::spawn(scheduler::run(
        Arc::clone(&bot.service),
        bot.notifier.clone(),
        time.clone(),
        settings,
        async move {
            let _ = stopped.await;
        },
    ));
    let before = fake.request_count();
    time.advance(Duration::days(2));
    let path = format!("/api/v10/channels/{CHANNEL}/messages");
    // Other notices may come first (a reminder, under load): wait for the
    // one that mentions the player whose flag fell.
    let notice = fake
        .wait_for(before, |r| {
            r.path == path && r.content().contains(&alice.mention())
        })
        .await;
    assert!(notice.all_text().contains(&format!("{game}")));
    // With the final position, drawn by the adapter as it sends.
    assert_board_attached(&notice);
    let _ = stop.send(());
    let _ = scheduler.await;
    let record = bot.service.store().game(game).await.unwrap().unwrap();
    assert!(matches!(
        record.state,
        pawnpost::storage::Status::Over { .. }
    ));
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn threads_moderators_rate_limits_and_junk() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot_with(&fake, &dir.path().join("pawnpost.db"), &time, |o| {
        o.threads = true;
        o.rate_limit_per_minute = 4;
    })
    .await;
    let (alice, bob) = (alice(), bob());
    let game = open_game(&fake, &alice, &bob, "3d").await;

    // A new game gets its own thread, named after its players.
    let thread = fake
        .wait_for(0, |r| r.method == "POST" && r.path.ends_with("/threads"))
        .await;
    assert!(
        thread
            .path
            .starts_with(&format!("/api/v10/channels/{CHANNEL}/messages/"))
    );
    let name = thread.json["name"].as_str().unwrap_or_default();
    assert!(name.contains("alice") && name.contains("bob"), "{name}");
    // The game lives in its thread from then on: played there.
    let opened = fake.threads_of(CHANNEL);
    assert_eq!(opened.len(), 1, "{opened:?}");
    let in_thread = send(
        &fake,
        fake.command(
            GUILD,
            opened[0],
            &bob,
            "move",
            move_options("e5", json!([])),
        ),
    )
    .await;
    assert!(!in_thread.is_ephemeral(), "{in_thread:?}");
    assert!(
        in_thread.all_text().contains("bob played e5"),
        "{}",
        in_thread.all_text()
    );

    // A command from a direct message with the bot is refused privately:
    // games live in servers, and no "server" is made of the conversation.
    let from_dm = send(
        &fake,
        fake.in_dm(
            fake.command(
                GUILD,
                990_000_000_000_000_001,
                &bob,
                "game games",
                json!([]),
            ),
            &bob,
        ),
    )
    .await;
    assert!(from_dm.is_ephemeral());
    assert!(
        from_dm.all_text().contains("servers"),
        "{}",
        from_dm.all_text()
    );

    // Junk is refused privately, never crashes the bot.
    let unknown = send(
        &fake,
        fake.stale_command(GUILD, CHANNEL, &alice, "nope", json!([])),
    )
    .await;
    assert!(unknown.is_ephemeral());
    let button = send(
        &fake,
        fake.click(GUILD, CHANNEL, &alice, "board:not-a-number"),
    )
    .await;
    assert!(button.is_ephemeral());
    let odd = send(
        &fake,
        fake.stale_command(
            GUILD,
            CHANNEL,
            &bob,
            "move",
            json!([{ "name": "move", "type": 4, "value": 5 }]),
        ),
    )
    .await;
    assert!(odd.is_ephemeral(), "{odd:?}");

    // Only a moderator may abort a started game (e4 e5, from anywhere in
    // the server, naming it).
    let abort = |user: &FakeUser| {
        fake.command(
            GUILD,
            CHANNEL,
            user,
            "play abort",
            json!([{ "name": "game", "type": 4, "value": game }]),
        )
    };
    let refused = send(&fake, abort(&alice)).await;
    assert!(refused.is_ephemeral(), "{refused:?}");
    let mut moderator = FakeUser::new(540_000_000_000_000_004, "mod");
    moderator.permissions = 32; // Manage Server
    // Managing another guild gives no say over this guild's games (issue 17).
    let other_guild = fake.command(
        GUILD + 1,
        CHANNEL + 1,
        &moderator,
        "play abort",
        json!([{ "name": "game", "type": 4, "value": game }]),
    );
    let refused = send(&fake, other_guild).await;
    assert!(refused.is_ephemeral(), "{refused:?}");
    let record = bot.service.store().game(game).await.unwrap().unwrap();
    assert_eq!(record.state, pawnpost::storage::Status::Ongoing);
    let aborted = send(&fake, abort(&moderator)).await;
    assert!(!aborted.is_ephemeral(), "{aborted:?}");
    let record = bot.service.store().game(game).await.unwrap().unwrap();
    assert!(matches!(
        record.state,
        pawnpost::storage::Status::Over { .. }
    ));

    // Past the per-user limit: a polite private message, and no act.
    let dave = FakeUser::new(550_000_000_000_000_005, "dave");
    let help = || fake.command(GUILD, CHANNEL, &dave, "help", json!([]));
    for _ in 0..4 {
        let answer = send(&fake, help()).await;
        assert!(!answer.content().contains("a little fast"));
    }
    let limited = send(&fake, help()).await;
    assert!(limited.is_ephemeral());
    assert!(
        limited.content().contains("a little fast"),
        "{}",
        limited.content()
    );
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_split_the_shards() {
    let fake = FakeDiscord::start(2).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("pawnpost.db");
    let time = ManualTime::new();
    let first = start_bot_with(&fake, &db, &time, |o| {
        o.shards = "0-0/2".parse().unwrap();
    })
    .await;
    let second = start_bot_with(&fake, &db, &time, |o| {
        o.shards = "1/2".parse().unwrap();
    })
    .await;
    fake.wait_for_shards(2).await;
    // One guild on each shard: (id >> 22) % 2.
    for guild in [2u64 << 22, 3u64 << 22] {
        let help = send(
            &fake,
            fake.command(guild, CHANNEL, &alice(), "help", json!([])),
        )
        .await;
        assert!(
            help.is_ephemeral() && !help.content().is_empty(),
            "{help:?}"
        );
    }
    let is_registration = |r: &Recorded| r.method == "PUT" && r.path.ends_with("/commands");
    fake.wait_for(0, is_registration).await;
    let registrations = fake
        .requests()
        .iter()
        .filter(|r| is_registration(r))
        .count();
    assert_eq!(
        registrations, 1,
        "only the process holding shard 0 registers"
    );
    // Offered in servers only (context 0): games live there.
    let registered = fake.wait_for(0, is_registration).await;
    assert_eq!(
        registered.status, 200,
        "Discord would refuse the commands: {registered:?}"
    );
    let commands = registered.json.as_array().cloned().unwrap_or_default();
    // /move, /play, /game, /club, /tournament, /team, /settings, /help.
    assert_eq!(commands.len(), 8, "{commands:?}");
    // Room to grow: no command or group holds more than 20 of Discord's 25.
    let subs = |item: &Value| item["options"].as_array().cloned().unwrap_or_default();
    for command in &commands {
        assert!(subs(command).len() <= 20, "{}", command["name"]);
        for group in subs(command).iter().filter(|o| o["type"] == 2) {
            assert!(subs(group).len() <= 20, "{}", group["name"]);
        }
    }
    // Every command of the table is registered at its Discord path.
    for path in pawnpost::core::command::help::commands() {
        let call = pawnpost::core::command::help::call(&path, Lang::En, true);
        let call = call.trim_start_matches('/');
        assert_eq!(fake.unregistered(call, &json!([])), None, "{call}");
    }
    for command in &commands {
        assert_eq!(command["contexts"], json!([0]), "{}", command["name"]);
    }
    first.stop(&fake).await;
    second.stop(&fake).await;
}

/// A move that waits for the database (another process holds its write
/// lock for 4 s) is still acknowledged within Discord's 3 seconds: the
/// answer is deferred, then fills the deferred message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_act_is_acknowledged_within_three_seconds() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("pawnpost.db");
    let time = ManualTime::new();
    let bot = start_bot_with(&fake, &db, &time, |_| {}).await;
    let (alice, bob) = (alice(), bob());
    open_game(&fake, &alice, &bob, "3d").await;

    let holder = rusqlite::Connection::open(&db).expect("second connection");
    holder.execute_batch("BEGIN IMMEDIATE").expect("write lock");
    let release = std::thread::spawn(move || {
        std::thread::sleep(StdDuration::from_secs(4));
        holder.execute_batch("COMMIT").expect("release");
    });
    let act = fake.command(GUILD, CHANNEL, &bob, "move", move_options("e5", json!([])));
    let id = act.0;
    let sent = std::time::Instant::now();
    let first = send(&fake, act).await;
    assert!(
        sent.elapsed() < fake_discord::INTERACTION_DEADLINE,
        "acknowledged after {:?}",
        sent.elapsed()
    );
    assert_eq!(first.json["type"], 5, "a deferred answer: {first:?}");
    let token = fake_discord::token(id);
    let filled = fake
        .wait_for(0, |r| r.method == "PATCH" && r.path.contains(&token))
        .await;
    assert!(
        filled.all_text().contains("bob played e5"),
        "{}",
        filled.all_text()
    );
    release.join().expect("lock holder");
    bot.stop(&fake).await;
}

/// The bot is killed (SIGKILL) after it committed bob's move and before its
/// answer reached Discord. Restarted, it posts the move for alice, with a
/// mention and the board, exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_committed_before_a_crash_reaches_the_opponent_once() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let env = [
        ("DISCORD_TOKEN", "fake-token".to_owned()),
        ("PAWNPOST_DISCORD_API_BASE", fake.api_base()),
    ];
    let first = BotProcess::spawn(dir.path(), "first", &env);
    fake.wait_for_shards(1).await;
    let (alice, bob) = (alice(), bob());
    open_game(&fake, &alice, &bob, "3d").await;

    // Nothing the bot says about the move gets through before it dies.
    fake.hold_interaction_answers(true);
    let act = fake.command(GUILD, CHANNEL, &bob, "move", move_options("e5", json!([])));
    let key = act.0.to_string();
    fake.dispatch(&act.1);
    until_committed(
        &dir.path().join("pawnpost.db"),
        &key,
        fake_discord::PATIENCE,
    )
    .await;
    first.kill();
    fake.forget_shards();
    fake.hold_interaction_answers(false);
    let told = |r: &Recorded| r.all_text().contains("bob played e5");
    assert!(
        !fake.requests().iter().any(told),
        "the move was announced before the kill"
    );

    let mark = fake.request_count();
    let second = BotProcess::spawn(dir.path(), "second", &env);
    fake.wait_for_shards(1).await;
    let notice = fake
        .wait_for(mark, |r| {
            r.method == "POST"
                && r.path == format!("/api/v10/channels/{CHANNEL}/messages")
                && told(r)
        })
        .await;
    assert!(
        notice.content().contains(&alice.mention()),
        "{}",
        notice.content()
    );
    assert_board_attached(&notice);
    assert_pngs_decode(&notice);
    // Past another handoff and a worker round: still one.
    tokio::time::sleep(StdDuration::from_secs(4)).await;
    let shown: Vec<Recorded> = fake
        .requests()
        .into_iter()
        .filter(|r| told(r) && !r.repeated)
        .collect();
    assert_eq!(shown.len(), 1, "{shown:#?}");
    drop(second);
}

/// A flag-fall notice in a channel where Discord refuses the bot still
/// reaches the player: without Attach Files, as text with the board as a
/// fenced diagram; without Send Messages or access, in a direct message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_flag_fall_notice_still_reaches_the_player() {
    use fake_discord::Missing;
    for refusal in [Missing::AttachFiles, Missing::SendMessages, Missing::Access] {
        let fake = FakeDiscord::start(1).await;
        let dir = tempfile::tempdir().expect("temp dir");
        let time = ManualTime::new();
        let (alice, bob) = (alice(), bob());
        let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
        let game = open_game(&fake, &alice, &bob, "1d").await;
        fake.refuse_in(CHANNEL, refusal);

        let (stop, stopped) = oneshot::channel::<()>();
        let scheduler = tokio::spawn(scheduler::run(
            Arc::clone(&bot.service),
            bot.notifier.clone(),
            time.clone(),
            SchedulerSettings::default(),
            async move {
                let _ = stopped.await;
            },
        ));
        let before = fake.request_count();
        time.advance(Duration::days(2));
        bot.service.deadline_signal().wake();
        let in_channel = format!("/api/v10/channels/{CHANNEL}/messages");
        let notice = match refusal {
            Missing::AttachFiles => {
                let notice = fake
                    .wait_for(before, |r| r.path == in_channel && r.files.is_empty())
                    .await;
                assert!(notice.content().contains("```"), "{}", notice.content());
                notice
            }
            _ => {
                let notice = fake
                    .wait_for(before, |r| {
                        r.method == "POST" && r.path.ends_with("/messages") && r.path != in_channel
                    })
                    .await;
                let dm: u64 = notice.path.split('/').nth(4).unwrap().parse().unwrap();
                assert_eq!(fake.dm_recipient(dm), Some(alice.id), "{refusal:?}");
                assert_board_attached(&notice);
                notice
            }
        };
        assert!(
            notice.all_text().contains(&format!("#{game}")),
            "{refusal:?}: {}",
            notice.all_text()
        );
        let _ = stop.send(());
        let _ = scheduler.await;
        bot.stop(&fake).await;
    }
}

/// A player who asked for direct messages but closed them is told in the
/// game's channel, with a mention.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closed_direct_messages_fall_back_to_the_channel() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let (alice, bob) = (alice(), bob());
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    open_game(&fake, &alice, &bob, "3d").await;
    let settings = fake.command(
        GUILD,
        CHANNEL,
        &alice,
        "settings notify",
        json!([{ "name": "notify", "type": 3, "value": "direct" }]),
    );
    let set = send(&fake, settings).await;
    assert!(set.is_ephemeral(), "{set:?}");
    fake.close_dms(&alice);

    let before = fake.request_count();
    send(
        &fake,
        fake.command(GUILD, CHANNEL, &bob, "move", move_options("e5", json!([]))),
    )
    .await;
    let in_channel = format!("/api/v10/channels/{CHANNEL}/messages");
    let notice = fake.wait_for(before, |r| r.path == in_channel).await;
    assert!(
        notice.content().contains(&alice.mention()),
        "{}",
        notice.content()
    );
    assert!(notice.all_text().contains("e5"), "{}", notice.all_text());
    bot.stop(&fake).await;
}

/// A legal game of `plies` moves from the start, beginning with e4, that no
/// rule ends on the way: random quiet moves, a pawn move or a capture often
/// enough for the 75-move rule, no position a third time. In UCI.
fn long_game(plies: usize) -> Vec<String> {
    use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, fen::Fen};
    'seeds: for seed in 1..200u64 {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as usize
        };
        let mut pos = Chess::default();
        let mut seen = std::collections::HashMap::<String, u32>::new();
        let mut moves = Vec::new();
        while moves.len() < plies {
            let legal = pos.legal_moves();
            let resetting = |m: &shakmaty::Move| m.is_zeroing();
            let want_reset = pos.halfmoves() > 60;
            let mut candidates: Vec<_> = legal
                .iter()
                .filter(|m| resetting(m) == want_reset && (want_reset || !m.is_capture()))
                .cloned()
                .collect();
            if candidates.is_empty() {
                candidates = legal.iter().cloned().collect();
            }
            let start = next();
            let chosen = (0..candidates.len())
                .map(|i| candidates[(start + i) % candidates.len()])
                .find(|m| {
                    let mut after = pos.clone();
                    after.play_unchecked(*m);
                    let key = Fen::from_position(&after, EnPassantMode::Legal)
                        .to_string()
                        .rsplitn(3, ' ')
                        .last()
                        .unwrap_or_default()
                        .to_owned();
                    !after.is_game_over() && seen.get(&key).copied().unwrap_or(0) < 2
                });
            let chosen = match (moves.is_empty(), chosen) {
                (true, _) => "e2e4"
                    .parse::<shakmaty::uci::UciMove>()
                    .unwrap()
                    .to_move(&pos)
                    .unwrap(),
                (false, Some(m)) => m,
                (false, None) => continue 'seeds,
            };
            pos.play_unchecked(chosen);
            let key = Fen::from_position(&pos, EnPassantMode::Legal)
                .to_string()
                .rsplitn(3, ' ')
                .last()
                .unwrap_or_default()
                .to_owned();
            *seen.entry(key).or_default() += 1;
            moves.push(chosen.to_uci(CastlingMode::Standard).to_string());
        }
        return moves;
    }
    panic!("no seed gave a {plies}-ply game");
}

/// A 300-move game's `/chess pgn` arrives whole, as a `.pgn` file.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_three_hundred_move_game_s_pgn_arrives_whole_as_a_file() {
    use pawnpost::core::platform::Platform;
    use pawnpost::service::{BoardImages, Input, Moderation, Request, User};
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let (alice, bob) = (alice(), bob());
    let game = open_game(&fake, &alice, &bob, "30d").await;
    let script = long_game(600);
    // The moves after e4 go straight to the service, as the adapter would
    // hand them (drawing 600 boards would only slow the test).
    for (ply, uci) in script.iter().enumerate().skip(1) {
        let player = if ply % 2 == 0 { &alice } else { &bob };
        let act = Request {
            platform: Platform::Discord,
            server: GUILD.to_string(),
            channel: CHANNEL.to_string(),
            user: User {
                id: player.id.to_string(),
                name: player.name.clone(),
                locale: None,
                moderation: Moderation::None,
            },
            key: None,
            input: Input::Text(format!("/move {uci}")),
            board_images: BoardImages::Omitted,
        };
        let replies = bot.service.handle(act, time.now()).await;
        assert!(!replies[0].ephemeral, "ply {ply} {uci}: {replies:?}");
    }
    let pgn = send(
        &fake,
        fake.command(
            GUILD,
            CHANNEL,
            &alice,
            "game pgn",
            json!([{ "name": "game", "type": 4, "value": game }]),
        ),
    )
    .await;
    let file = pgn
        .files
        .iter()
        .find(|f| f.filename == format!("game-{game}.pgn"))
        .unwrap_or_else(|| panic!("no PGN file: {pgn:?}"));
    let text = String::from_utf8(file.bytes.clone()).expect("UTF-8");
    assert!(text.contains("1. e4 "), "{text}");
    assert!(text.contains("300. "), "the 300th move is there: {text}");
    assert!(text.trim_end().ends_with('*'), "a running game: {text}");
    assert!(!text.contains('…'), "nothing cut");
    bot.stop(&fake).await;
}

/// A notice past Discord's rate limit (429) is posted once the limit passes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rate_limited_notice_is_posted_once_the_limit_passes() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let (alice, bob) = (alice(), bob());
    open_game(&fake, &alice, &bob, "1d").await;
    fake.rate_limit_posts(2);
    let (stop, stopped) = oneshot::channel::<()>();
    let scheduler = tokio::spawn(scheduler::run(
        Arc::clone(&bot.service),
        bot.notifier.clone(),
        time.clone(),
        SchedulerSettings::default(),
        async move {
            let _ = stopped.await;
        },
    ));
    let before = fake.request_count();
    time.advance(Duration::days(2));
    bot.service.deadline_signal().wake();
    let path = format!("/api/v10/channels/{CHANNEL}/messages");
    let posted = fake
        .wait_for(before, |r| r.path == path && r.status == 200)
        .await;
    assert!(posted.content().contains(&alice.mention()), "{posted:?}");
    let statuses: Vec<u16> = fake.requests()[before..]
        .iter()
        .filter(|r| r.path == path)
        .map(|r| r.status)
        .collect();
    assert_eq!(statuses, vec![429, 429, 200]);
    let _ = stop.send(());
    let _ = scheduler.await;
    bot.stop(&fake).await;
}

/// `/chess if`: answered to alice alone; bob's move that matches her line
/// gets its reply in the same answer, and alice is told with a mention.
/// Nothing anyone else could read named the line before it was played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conditional_move_stays_private_until_it_is_played() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let (alice, bob) = (alice(), bob());
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let game = open_game(&fake, &alice, &bob, "3d").await;
    let line = json!([{ "name": "moves", "type": 3, "value": "e5 Nf3 Nc6 Bb5" }]);
    let stored = send(
        &fake,
        fake.command(GUILD, CHANNEL, &alice, "play if add", line),
    )
    .await;
    assert!(stored.is_ephemeral(), "{stored:?}");
    assert!(
        stored.all_text().contains("2. Nf3 Nc6 3. Bb5"),
        "{stored:?}"
    );
    let listed = send(
        &fake,
        fake.command(GUILD, CHANNEL, &alice, "play if list", json!([])),
    )
    .await;
    assert!(listed.is_ephemeral() && listed.all_text().contains("Bb5"));

    let before_move = fake.request_count();
    let e5 = send(
        &fake,
        fake.command(GUILD, CHANNEL, &bob, "move", move_options("e5", json!([]))),
    )
    .await;
    assert!(!e5.is_ephemeral(), "{e5:?}");
    let text = e5.all_text();
    assert!(
        text.contains("Nf3") && text.contains("conditional move"),
        "{text}"
    );
    assert!(
        !text.contains("Bb5"),
        "bob saw the rest of the line: {text}"
    );
    let told = fake
        .wait_for(before_move, |r| {
            r.method == "POST" && r.content().contains("your conditional move Nf3")
        })
        .await;
    assert!(told.content().contains(&alice.mention()), "{told:?}");
    assert!(!told.is_ephemeral());
    // Only alice's own ephemeral answers ever named Bb5.
    for request in fake.requests() {
        if request.all_text().contains("Bb5") {
            assert!(request.is_ephemeral(), "public: {request:?}");
        }
    }
    let record = bot.service.store().game(game).await.unwrap().unwrap();
    let sans: Vec<&str> = record.moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["e4", "e5", "Nf3"]);
    bot.stop(&fake).await;
}

/// `/team <action> team:<name>` by `user`: the answer.
async fn team(fake: &FakeDiscord, user: &FakeUser, action: &str, name: &str) -> Recorded {
    let path = format!("team {action}");
    let options = json!([{ "name": "team", "type": 3, "value": name }]);
    send(fake, fake.command(GUILD, CHANNEL, user, &path, options)).await
}

/// `/vote move:<text> [game:<id>]` by `user`, as an interaction.
fn vote(fake: &FakeDiscord, user: &FakeUser, text: &str, game: Option<i64>) -> (u64, Value) {
    let mut options = vec![json!({ "name": "move", "type": 3, "value": text })];
    if let Some(game) = game {
        options.push(json!({ "name": "game", "type": 4, "value": game }));
    }
    fake.command(
        GUILD,
        CHANNEL,
        user,
        "play vote move",
        Value::Array(options),
    )
}

/// Vote chess on Discord: team Rooks (alice, carol, dave) has Black against
/// bob. Each `/vote` is answered to its voter alone (flags 64), nothing
/// public names a vote before the move, bob's vote is refused privately,
/// and the last member's vote plays the most voted move, the channel's
/// message showing the tally.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_team_votes_and_the_last_vote_plays_the_move_with_its_tally() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let (alice, bob, carol, dave) = (alice(), bob(), carol(), dave());
    fake.know(&bob);

    let created = team(&fake, &alice, "create", "Rooks").await;
    assert!(!created.is_ephemeral(), "{created:?}");
    assert!(
        created.content().contains("alice created team Rooks"),
        "{}",
        created.content()
    );
    for member in [&carol, &dave] {
        let joined = team(&fake, member, "join", "rooks").await;
        assert!(
            joined
                .content()
                .contains(&format!("{} joined team Rooks", member.name)),
            "{}",
            joined.content()
        );
    }

    // alice challenges bob for the team, which takes Black; bob accepts.
    let challenge = send(
        &fake,
        fake.command(
            GUILD,
            CHANNEL,
            &alice,
            "play challenge",
            json!([
                { "name": "team", "type": 3, "value": "Rooks" },
                { "name": "user", "type": 6, "value": bob.id.to_string() },
                { "name": "color", "type": 3, "value": "black" },
                { "name": "time", "type": 3, "value": "3d" }
            ]),
        ),
    )
    .await;
    assert!(!challenge.is_ephemeral(), "{challenge:?}");
    assert!(
        challenge.content().contains(&bob.mention()),
        "{}",
        challenge.content()
    );
    assert!(
        challenge.all_text().contains("A vote game"),
        "{}",
        challenge.all_text()
    );
    let accept = challenge
        .buttons()
        .into_iter()
        .find(|b| b.starts_with("challenge-accept:"))
        .expect("an Accept button");
    let started = send(&fake, fake.click(GUILD, CHANNEL, &bob, &accept)).await;
    assert!(!started.is_ephemeral(), "{started:?}");
    assert!(started.content().contains(&bob.mention()), "White: bob");
    let title = started.message()["embeds"][0]["title"]
        .as_str()
        .expect("a game embed")
        .to_owned();
    assert!(title.contains("bob") && title.contains("Rooks"), "{title}");
    let game: i64 = title
        .trim_start_matches('#')
        .split(' ')
        .next()
        .and_then(|id| id.parse().ok())
        .expect("the game id in the title");

    // bob (White) moves; the team is told to vote.
    let e4 = send(
        &fake,
        fake.command(GUILD, CHANNEL, &bob, "move", move_options("e4", json!([]))),
    )
    .await;
    assert!(!e4.is_ephemeral(), "{e4:?}");
    assert!(e4.all_text().contains("bob played e4"), "{}", e4.all_text());

    // The opponent never votes for the team: refused to him alone.
    let refused = send(&fake, vote(&fake, &bob, "e5", Some(game))).await;
    assert!(refused.is_ephemeral(), "{refused:?}");
    assert_eq!(refused.message()["flags"].as_u64().unwrap_or(0) & 64, 64);
    assert!(
        refused.content().contains("You play against this team"),
        "{}",
        refused.content()
    );
    // Without a game named, he has no team's game to vote in here.
    let none = send(&fake, vote(&fake, &bob, "e5", None)).await;
    assert!(none.is_ephemeral(), "{none:?}");
    assert!(
        none.content().starts_with("None of your teams"),
        "{}",
        none.content()
    );

    // Two members vote: each is told alone, and nothing is played.
    for (member, text, told) in [
        (&alice, "e5", "Your vote in game #{game}: e5."),
        (&carol, "c5", "Your vote in game #{game}: c5."),
    ] {
        let answer = send(&fake, vote(&fake, member, text, None)).await;
        assert_eq!(
            answer.message()["flags"].as_u64().unwrap_or(0) & 64,
            64,
            "{answer:?}"
        );
        let told = told.replace("{game}", &game.to_string());
        assert!(answer.content().starts_with(&told), "{}", answer.content());
        assert!(
            !answer.content().contains("<@"),
            "a vote pings nobody: {}",
            answer.content()
        );
    }
    let record = bot.service.store().game(game).await.unwrap().unwrap();
    assert_eq!(record.moves.len(), 1, "two of three voted: nothing played");
    let second = send(&fake, vote(&fake, &alice, "e7e5", None)).await;
    assert!(second.is_ephemeral(), "{second:?}");
    assert!(
        second.content().contains("already voted e5"),
        "{}",
        second.content()
    );

    // Nothing public so far named a vote.
    let secret = |r: &Recorded| {
        let text = r.all_text();
        text.contains("e5") || text.contains("c5") || text.contains("Your vote")
    };
    for request in fake.requests() {
        if secret(&request) {
            assert!(
                request.is_ephemeral(),
                "public before the move: {request:?}"
            );
        }
    }

    // The last member votes: told alone, then the move and the tally for all.
    let last = vote(&fake, &dave, "e5", None);
    let last_id = last.0;
    let mark = fake.request_count();
    let answer = send(&fake, last).await;
    assert!(answer.is_ephemeral(), "{answer:?}");
    assert!(
        answer
            .content()
            .starts_with(&format!("Your vote in game #{game}: e5.")),
        "{}",
        answer.content()
    );
    assert!(answer.content().contains("3 of 3"), "{}", answer.content());
    let followups = format!(
        "/api/v10/webhooks/{}/{}",
        fake_discord::APPLICATION_ID,
        fake_discord::token(last_id)
    );
    let played = fake
        .wait_for(mark, |r| {
            r.method == "POST" && r.path.starts_with(&followups)
        })
        .await;
    assert!(!played.is_ephemeral(), "{played:?}");
    // The game's embed tells the tally, then the move; bob is pinged.
    let told = played.message()["embeds"][0]["description"]
        .as_str()
        .unwrap_or_default();
    assert!(
        told.starts_with(&format!(
            "Votes of team Rooks: e5 2, c5 1.\nRooks played e5 in game #{game}."
        )),
        "{told}"
    );
    assert_eq!(played.content(), bob.mention(), "bob's move");
    assert_board_attached(&played);
    let record = bot.service.store().game(game).await.unwrap().unwrap();
    let sans: Vec<&str> = record.moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["e4", "e5"]);
    // The tally was said once, in public, and only with the move.
    let tallies: Vec<Recorded> = fake
        .requests()
        .into_iter()
        .filter(|r| r.all_text().contains("Votes of team Rooks"))
        .collect();
    assert_eq!(tallies.len(), 1, "{tallies:#?}");

    // bob answers as in any game.
    let nf3 = send(
        &fake,
        fake.command(GUILD, CHANNEL, &bob, "move", move_options("Nf3", json!([]))),
    )
    .await;
    assert!(!nf3.is_ephemeral(), "{nf3:?}");
    assert!(
        nf3.all_text().contains("bob played Nf3"),
        "{}",
        nf3.all_text()
    );
    bot.stop(&fake).await;
}

/// A review that takes the engine longer than Discord's 3 seconds is
/// acknowledged in time (deferred), then fills its message with the
/// figures, the evaluation graph and the annotated PGN; a running game is
/// refused privately. Needs the real Stockfish (Debian's `stockfish`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_review_is_deferred_then_arrives_with_its_graph_and_pgn() {
    use pawnpost::core::platform::Platform;
    use pawnpost::service::{BoardImages, Input, Moderation, Request, ReviewSettings, User};
    const STOCKFISH: &str = "/usr/games/stockfish";
    if !std::path::Path::new(STOCKFISH).is_file() {
        println!("note: {STOCKFISH} is not installed: the review test is skipped");
        return;
    }
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    // About a second per position: five positions take the review past 3 s.
    let config = ServiceConfig {
        reviews: ReviewSettings {
            engine: Some(STOCKFISH.into()),
            nodes: 700_000,
            ..ReviewSettings::default()
        },
        ..ServiceConfig::default()
    };
    let bot = start_bot_configured(
        &fake,
        &dir.path().join("pawnpost.db"),
        &time,
        config,
        |_| {},
    )
    .await;
    let (alice, bob) = (alice(), bob());
    let game = open_game(&fake, &alice, &bob, "3d").await;
    let review = || {
        fake.command(
            GUILD,
            CHANNEL,
            &alice,
            "game review",
            json!([{ "name": "game", "type": 4, "value": game }]),
        )
    };
    let running = send(&fake, review()).await;
    assert!(running.is_ephemeral(), "{running:?}");
    assert!(
        running.content().contains("still being played"),
        "{}",
        running.content()
    );
    for (player, text) in [
        (&bob, "e5"),
        (&alice, "Nf3"),
        (&bob, "Qg5"),
        (&alice, "Nxg5"),
        (&bob, "resign"),
    ] {
        let input = match text {
            "resign" => "/resign".to_owned(),
            text => format!("/move {text}"),
        };
        let act = Request {
            platform: Platform::Discord,
            server: GUILD.to_string(),
            channel: CHANNEL.to_string(),
            user: User {
                id: player.id.to_string(),
                name: player.name.clone(),
                locale: None,
                moderation: Moderation::None,
            },
            key: None,
            input: Input::Text(input),
            board_images: BoardImages::Omitted,
        };
        let replies = bot.service.handle(act, time.now()).await;
        assert!(!replies[0].ephemeral, "{text}: {replies:?}");
    }
    let act = review();
    let token = fake_discord::token(act.0);
    let sent = std::time::Instant::now();
    let first = send(&fake, act).await;
    assert!(
        sent.elapsed() < fake_discord::INTERACTION_DEADLINE,
        "acknowledged after {:?}",
        sent.elapsed()
    );
    assert_eq!(first.json["type"], 5, "a deferred answer: {first:?}");
    // The engine's seconds grow on a loaded machine: patience to match.
    let filled = fake
        .wait_for_within(0, StdDuration::from_secs(60), |r| {
            r.method == "PATCH" && r.path.contains(&token)
        })
        .await;
    let text = filled.all_text();
    assert!(text.contains("Engine review of game"), "{text}");
    assert!(text.contains("Blunder: 2... Qg5"), "{text}");
    let names: Vec<&str> = filled.files.iter().map(|f| f.filename.as_str()).collect();
    assert!(
        names.contains(&format!("review-{game}.png").as_str()),
        "{names:?}"
    );
    let pgn = filled
        .files
        .iter()
        .find(|f| f.filename == format!("game-{game}-review.pgn"))
        .unwrap_or_else(|| panic!("no PGN: {names:?}"));
    let pgn = String::from_utf8(pgn.bytes.clone()).expect("UTF-8");
    assert!(pgn.contains("[%eval") && pgn.contains("$4"), "{pgn}");
    assert_pngs_decode(&filled);
    bot.stop(&fake).await;
}
