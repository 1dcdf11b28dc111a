//! The Matrix bot against a real Synapse: two players (alice, bob) on real
//! matrix-sdk clients (and carol, alice's teammate in a vote game), the bot
//! in-process on its SQLite stores.
//!
//! Needs `MATRIX_HS`, the URL of a homeserver on 127.0.0.1 where users
//! alice, bob and chessbot exist with passwords `pass-alice`, `pass-bob` and
//! `pass-chessbot`. Without it the tests print a note (which `cargo test`
//! shows) and return at once.
//!
//! CI starts one with `../shared/tools/synapse-test-server.sh DIR PORT`. By
//! hand: `pip install matrix-synapse`, generate a config
//! (`python -m synapse.app.homeserver --server-name localhost --config-path
//! homeserver.yaml --generate-config --report-stats=no`), set in it
//! `registration_shared_secret`, generous rate limits (`rc_message`,
//! `rc_login`, `rc_joins`, `rc_invites`, `rc_registration`: `per_second:
//! 1000, burst_count: 1000`), `caches: {sync_response_cache_duration: 0}`
//! and a listener on 127.0.0.1, start Synapse, register the three users with
//! `register_new_matrix_user -c homeserver.yaml -u NAME -p pass-NAME
//! --no-admin`, then run `MATRIX_HS=http://127.0.0.1:PORT
//! MATRIX_REGISTRATION_SECRET=SECRET cargo test --test matrix_e2e`. The
//! attacker, mallory, and alice's teammate in vote chess, carol, are
//! registered by the test itself through Synapse's shared-secret admin API
//! (`MATRIX_REGISTRATION_SECRET`, or the CI script's secret).

#![cfg(feature = "matrix")]
#![recursion_limit = "256"]

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use matrix_sdk::ruma::events::room::message::{
    MessageType, ReplacementMetadata, RoomMessageEventContent,
};
use matrix_sdk::ruma::{OwnedEventId, OwnedRoomId, OwnedUserId, UserId};
use pawnpost::adapters::matrix::MatrixBot;
use pawnpost::config::{MatrixConfig, Secret};
use pawnpost::service::{Attachment, Notifier, Reply, Service, ServiceConfig};
use pawnpost::storage::sqlite::SqliteStore;
use tokio::task::JoinHandle;

#[path = "common/bot_process.rs"]
mod bot_process;
#[path = "common/matrix_client.rs"]
mod matrix_client;
use bot_process::{BotProcess, until_committed};
use matrix_client::*;

/// How long to watch for answers that must not come.
const QUIET: Duration = Duration::from_secs(3);
/// The whole scenario's bound.
const WHOLE_TEST: Duration = Duration::from_secs(420);

/// A 1×1 PNG, to check the upload path whatever the renderer produces.
const TINY_PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0,
    0x1f, 0x00, 0x05, 0x00, 0x01, 0xff, 0x56, 0xc7, 0x2f, 0x0d, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

/// The bot, running in this process until stopped.
struct RunningBot {
    stop: tokio::sync::watch::Sender<bool>,
    task: JoinHandle<()>,
    device: Option<String>,
    notifier: pawnpost::adapters::matrix::MatrixNotifier,
}

async fn start_bot(homeserver: &str, dir: &Path) -> RunningBot {
    let config = MatrixConfig {
        homeserver: Some(homeserver.to_owned()),
        user_id: Some(BOT.to_owned()),
        password: Some(Secret::new("pass-chessbot")),
        store_path: dir.join("matrix"),
        ..MatrixConfig::default()
    };
    let store = SqliteStore::open(dir.join("pawnpost.db")).expect("store");
    let service = Arc::new(Service::new(store, ServiceConfig::default()));
    let bot = MatrixBot::connect(&config).await.expect("bot connects");
    let (stop, mut stopped) = tokio::sync::watch::channel(false);
    let device = bot.device_id();
    let notifier = bot.notifier(Arc::clone(&service));
    let task = tokio::spawn(async move {
        let shutdown = async move {
            let _ = stopped.wait_for(|s| *s).await;
        };
        bot.run(&service, shutdown).await.expect("bot runs");
    });
    RunningBot {
        stop,
        task,
        device,
        notifier,
    }
}

impl RunningBot {
    async fn stop(self) {
        let _ = self.stop.send(true);
        tokio::time::timeout(WAIT, self.task)
            .await
            .expect("the bot stops in time")
            .expect("the bot task ends cleanly");
    }
}

fn mentions(seen: &Seen, user: &OwnedUserId) -> bool {
    seen.mentions.contains(user)
        && seen
            .html
            .as_deref()
            .is_some_and(|html| html.contains(&format!("https://matrix.to/#/{user}")))
}

/// Checks the bot's board images (when the renderer sends one) download as PNGs.
async fn board_images_download(player: &Player, mark: usize, room: &OwnedRoomId) {
    let mut boards = 0;
    for seen in player.inbox.bot_messages(mark, room) {
        if let Some(source) = &seen.image {
            let bytes = player.download(source).await;
            let board = image::load_from_memory_with_format(&bytes, image::ImageFormat::Png)
                .expect("the board image decodes as a PNG");
            assert!(board.width() >= 240, "a board, not a thumbnail");
            boards += 1;
        }
    }
    assert!(boards > 0, "the moves' replies carry board images");
}

/// The upload path itself: a reply with a PNG attachment arrives as an
/// `m.image` whose content downloads intact (decrypted in encrypted rooms).
async fn attachments_arrive(bot: &RunningBot, reader: &Player, room: &OwnedRoomId) {
    let mark = reader.inbox.mark();
    let reply = Reply {
        channel: room.to_string(),
        to: None,
        ephemeral: false,
        direct: false,
        secret: false,
        text: "Board:".into(),
        events: Vec::new(),
        tournament_events: Vec::new(),
        board: None,
        diagram: None,
        attachments: vec![Attachment {
            filename: "upload-check.png".into(),
            content_type: "image/png".into(),
            bytes: Arc::from(TINY_PNG),
        }],
        prompt: Default::default(),
        review: None,
        platform: None,
    };
    bot.notifier.deliver(vec![reply]).await;
    let image = reader
        .inbox
        .after(mark, "the uploaded image", |s| {
            &s.room == room && s.sender == BOT && s.body == "upload-check.png"
        })
        .await;
    let bytes = reader.download(image.image.as_ref().expect("image")).await;
    assert_eq!(bytes, TINY_PNG);
}

/// One game from challenge to agreed draw, with the bot restarted mid-game
/// when `restart_in` is given.
async fn play_a_game(
    alice: &Player,
    bob: &Player,
    room: &OwnedRoomId,
    mut bot: RunningBot,
    restart_in: Option<(&str, &Path)>,
) -> RunningBot {
    let (a, b) = (alice.id(), bob.id());
    let start = alice.inbox.mark();

    // Alice challenges Bob; the notice mentions Bob with a pill.
    let mark = bob.inbox.mark();
    alice
        .say(room, "!chess challenge @bob:localhost color:white")
        .await;
    let challenge = bob
        .inbox
        .after(mark, "the challenge", |s| {
            &s.room == room && s.sender == BOT && mentions(s, &b)
        })
        .await;
    assert!(
        challenge.body.contains("!chess accept"),
        "{}",
        challenge.body
    );

    // Bob accepts with ✅; Alice (White) is told to move.
    let mark = alice.inbox.mark();
    bob.react(room, &challenge.event_id, "✅").await;
    let started = alice
        .inbox
        .after(mark, "the game start", |s| {
            &s.room == room && s.sender == BOT && mentions(s, &a)
        })
        .await;
    assert!(started.body.contains("(White)"), "{}", started.body);

    let mark = bob.inbox.mark();
    alice.say(room, "!chess move e4").await;
    bob.inbox
        .after(mark, "Bob's turn after e4", |s| {
            &s.room == room && s.sender == BOT && mentions(s, &b) && s.body.contains("e4")
        })
        .await;

    if let Some((homeserver, dir)) = restart_in {
        // The bot goes down; Bob moves meanwhile; the restarted bot (same
        // device, same stores) catches up from its sync token.
        let device = bot.device.clone();
        bot.stop().await;
        let mark = alice.inbox.mark();
        bob.say(room, "!move e5").await;
        bot = start_bot(homeserver, dir).await;
        assert_eq!(bot.device, device, "the device id survives a restart");
        alice
            .inbox
            .after(mark, "the move made while the bot was down", |s| {
                &s.room == room && s.sender == BOT && mentions(s, &a) && s.body.contains("e5")
            })
            .await;
    } else {
        let mark = alice.inbox.mark();
        bob.say(room, "!move e5").await;
        alice
            .inbox
            .after(mark, "Alice's turn after e5", |s| {
                &s.room == room && s.sender == BOT && mentions(s, &a) && s.body.contains("e5")
            })
            .await;
    }

    // An illegal move is refused, and changes nothing.
    let mark = alice.inbox.mark();
    alice.say(room, "!move e5").await;
    let refusal = alice
        .inbox
        .after(mark, "the refusal", |s| {
            &s.room == room && s.sender == BOT && mentions(s, &a)
        })
        .await;
    assert!(!refusal.body.contains("played"), "{}", refusal.body);
    let mark = bob.inbox.mark();
    alice.say(room, "!move Nf3").await;
    bob.inbox
        .after(mark, "Bob's turn after Nf3", |s| {
            &s.room == room && s.sender == BOT && mentions(s, &b) && s.body.contains("Nf3")
        })
        .await;
    let mark = alice.inbox.mark();
    bob.say(room, "!move Nc6").await;
    alice
        .inbox
        .after(mark, "Alice's turn after Nc6", |s| {
            &s.room == room && s.sender == BOT && s.body.contains("Nc6")
        })
        .await;

    // Bob offers a draw; Alice accepts it with ✅.
    let mark = alice.inbox.mark();
    bob.say(room, "!chess draw offer").await;
    let offer = alice
        .inbox
        .after(mark, "the draw offer", |s| {
            &s.room == room && s.sender == BOT && s.body.contains("!chess draw accept")
        })
        .await;
    let mark = bob.inbox.mark();
    alice.react(room, &offer.event_id, "✅").await;
    let over = bob
        .inbox
        .after(mark, "the agreed draw", |s| {
            &s.room == room && s.sender == BOT && s.body.contains("Draw by agreement")
        })
        .await;
    assert!(over.body.contains("over"), "{}", over.body);

    board_images_download(alice, start, room).await;
    attachments_arrive(&bot, alice, room).await;
    bot
}

/// An ambiguous move plays nothing; the notice numbers the readings and a
/// numbered answer plays the one chosen.
async fn an_ambiguous_move_is_answered_by_number(alice: &Player, bob: &Player, room: &OwnedRoomId) {
    let (a, b) = (alice.id(), bob.id());
    let mark = bob.inbox.mark();
    // Both rooks reach d1 (and the king cannot).
    alice
        .say(
            room,
            "!chess challenge @bob:localhost color:white fen:\"4k3/8/8/8/8/4K3/8/R6R w - - 0 1\"",
        )
        .await;
    let challenge = bob
        .inbox
        .after(mark, "the challenge from a position", |s| {
            &s.room == room && s.sender == BOT && mentions(s, &b)
        })
        .await;
    let mark = alice.inbox.mark();
    bob.react(room, &challenge.event_id, "✅").await;
    alice
        .inbox
        .after(mark, "the game from a position", |s| {
            &s.room == room && s.sender == BOT && mentions(s, &a)
        })
        .await;

    let mark = alice.inbox.mark();
    alice.say(room, "!move Rd1").await;
    let question = alice
        .inbox
        .after(mark, "the numbered readings", |s| {
            &s.room == room && s.sender == BOT && mentions(s, &a)
        })
        .await;
    for line in ["1. Ra1-d1 — !chess move 1", "2. Rh1-d1 — !chess move 2"] {
        assert!(question.body.contains(line), "{}", question.body);
    }
    let mark = bob.inbox.mark();
    alice.say(room, "!chess move 2").await;
    let played = bob
        .inbox
        .after(mark, "the chosen move", |s| {
            &s.room == room && s.sender == BOT && mentions(s, &b)
        })
        .await;
    assert!(played.body.contains("played Rhd1"), "{}", played.body);

    // Over, so the rooms that follow see no running game.
    let mark = bob.inbox.mark();
    alice.say(room, "!chess resign").await;
    bob.inbox
        .after(mark, "the resignation", |s| {
            &s.room == room && s.sender == BOT && s.body.contains("resigns")
        })
        .await;
}

/// `!chess rematch` after the game just resigned: the same game with colours
/// swapped, offered to the opponent, who accepts with ✅ as any challenge.
async fn a_rematch_is_accepted_with_a_reaction(alice: &Player, bob: &Player, room: &OwnedRoomId) {
    let (a, b) = (alice.id(), bob.id());
    let mark = alice.inbox.mark();
    bob.say(room, "!chess rematch").await;
    let offer = alice
        .inbox
        .after(mark, "the rematch offer", |s| {
            &s.room == room && s.sender == BOT && mentions(s, &a)
        })
        .await;
    assert!(offer.body.contains("a rematch of game #"), "{}", offer.body);
    assert!(offer.body.contains("!chess accept"), "{}", offer.body);
    let mark = bob.inbox.mark();
    alice.react(room, &offer.event_id, "✅").await;
    // bob had Black: now White, and to move.
    let started = bob
        .inbox
        .after(mark, "the rematch's start", |s| {
            &s.room == room && s.sender == BOT && mentions(s, &b) && s.body.contains("begins")
        })
        .await;
    assert!(
        started.body.contains("bob (White) against alice (Black)"),
        "{}",
        started.body
    );
    let mark = alice.inbox.mark();
    bob.say(room, "!chess resign").await;
    alice
        .inbox
        .after(mark, "the rematch's resignation", |s| {
            &s.room == room && s.sender == BOT && s.body.contains("resigns")
        })
        .await;
}

/// Conditional moves on Matrix: every answer about Alice's lines comes to
/// her by direct message, where she writes them too; Bob learns of a line
/// only as the reply played to his move, and Alice is told of it.
async fn conditional_moves_stay_private(alice: &Player, bob: &Player, room: &OwnedRoomId) {
    let (a, b) = (alice.id(), bob.id());
    let game = start_a_game(alice, bob, room).await;
    let bob_from = bob.inbox.mark();
    // Asked in the game's room, answered privately.
    let mark = alice.inbox.mark();
    alice
        .say(room, &format!("!chess if list game:{game}"))
        .await;
    let direct = the_bots_direct_answer(alice, mark, room, "no conditional moves").await;
    // Alice to move: Nf3 is played now, and "if Nc6 then Bb5" kept.
    let mark = alice.inbox.mark();
    let bob_mark = bob.inbox.mark();
    alice
        .say(&direct, &format!("!chess si Nf3 Nc6 Bb5 game:{game}"))
        .await;
    let stored = alice
        .inbox
        .after(mark, "the stored line", |s| {
            s.room == direct && s.sender == BOT && s.body.contains("Bb5")
        })
        .await;
    assert!(stored.body.contains("2... Nc6 3. Bb5"), "{}", stored.body);
    bob.inbox
        .after(bob_mark, "Nf3 in the room", |s| {
            &s.room == room && s.sender == BOT && mentions(s, &b) && s.body.contains("Nf3")
        })
        .await;
    let mark = alice.inbox.mark();
    let bob_mark = bob.inbox.mark();
    bob.say(room, &format!("!move Nc6 game:{game}")).await;
    let played = bob
        .inbox
        .after(bob_mark, "the conditional reply", |s| {
            &s.room == room && s.sender == BOT && s.body.contains("Bb5")
        })
        .await;
    assert!(played.body.contains("conditional move"), "{}", played.body);
    alice
        .inbox
        .after(mark, "Alice told of her reply", |s| {
            &s.room == room
                && s.sender == BOT
                && mentions(s, &a)
                && s.body.contains("your conditional move Bb5")
        })
        .await;
    // Before the reply was played, nothing Bob could read named it.
    let before: Vec<Seen> = bob.inbox.seen.lock().expect("inbox")[bob_from..]
        .iter()
        .take_while(|s| s.event_id != played.event_id)
        .cloned()
        .collect();
    assert!(
        before.iter().all(|s| !s.body.contains("Bb5")),
        "Bob saw Alice's line: {before:#?}"
    );
    let mark = bob.inbox.mark();
    alice.say(room, &format!("!chess resign game:{game}")).await;
    bob.inbox
        .after(mark, "the resignation", |s| {
            &s.room == room && s.sender == BOT && s.body.contains("resigns")
        })
        .await;
}

/// `!chess link` asked in a room shared with Bob (issue 44): the one-time
/// code comes to Alice by direct message, and nothing Bob receives holds
/// it; a wrong code Bob types is refused to him alone, by direct message.
async fn a_link_code_comes_in_private(alice: &Player, bob: &Player, room: &OwnedRoomId) {
    let bob_from = bob.inbox.mark();
    let mark = alice.inbox.mark();
    alice.say(room, "!chess link").await;
    let direct = the_bots_direct_answer(alice, mark, room, "Your link code").await;
    let answer = alice
        .inbox
        .after(mark, "the link code", |s| {
            s.room == direct && s.sender == BOT && s.body.contains("Your link code")
        })
        .await;
    let code = answer
        .body
        .split_whitespace()
        .find(|w| w.chars().count() == 9 && w.chars().nth(4) == Some('-'))
        .expect("a code")
        .to_owned();
    let mark = bob.inbox.mark();
    bob.say(room, "!chess link 0000-0000").await;
    the_bots_direct_answer(bob, mark, room, "unknown, used or expired").await;
    let seen = bob.inbox.seen.lock().expect("inbox")[bob_from..].to_vec();
    assert!(
        seen.iter().all(|s| !s.body.contains(&code)),
        "Bob saw Alice's code: {seen:#?}"
    );
    assert!(
        seen.iter()
            .filter(|s| &s.room == room)
            .all(|s| !s.body.contains("unknown, used or expired")),
        "the refusal was said in the room"
    );
}

/// Waits until the homeserver serves `event` in `room` redacted (its body
/// gone), as `reader` fetches it; the redaction's reason.
async fn until_redacted(reader: &Player, room: &OwnedRoomId, event: &OwnedEventId) -> String {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let fetched = reader
            .room(room)
            .event(event, None)
            .await
            .expect("the event");
        let json: serde_json::Value =
            serde_json::from_str(fetched.raw().json().get()).expect("an event's JSON");
        if json["content"].get("body").is_none() {
            let because = &json["unsigned"]["redacted_because"];
            return because["content"]["reason"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{event} was not redacted: {json}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Vote chess on Matrix: team Rooks (alice, carol) has White against bob in
/// a room of the four where the bot may redact others' messages. A vote
/// typed in the room is redacted and answered by direct message; bob's
/// vote is refused to him alone; nothing the bot tells bob names a vote
/// before the move; the last vote plays the move voted first of a 1–1 tie,
/// and the room reads the tally.
async fn a_team_votes_in_secret(homeserver: &str, alice: &Player, bob: &Player) {
    register(homeserver, "carol").await;
    let carol = Player::login(homeserver, "carol").await;
    let (a, b) = (alice.id(), bob.id());
    let bot_id = UserId::parse(BOT).expect("bot id");
    let room = alice.create_room(&[&b, &carol.id(), &bot_id], false).await;
    bob.join(&room).await;
    carol.join(&room).await;
    for user in [BOT, b.as_str(), carol.id().as_str()] {
        alice.until_joined(&room, user).await;
    }
    // Moderator's power: the bot may redact the votes typed here.
    alice
        .room(&room)
        .update_power_levels(vec![(&bot_id, matrix_sdk::ruma::Int::from(50))])
        .await
        .expect("the bot's power level");
    let from_bot = |s: &Seen| s.room == room && s.sender == BOT;

    let mark = alice.inbox.mark();
    alice.say(&room, "!chess team create Rooks").await;
    alice
        .inbox
        .after(mark, "the team created", |s| {
            from_bot(s) && s.body.contains("alice created team Rooks")
        })
        .await;
    let mark = carol.inbox.mark();
    carol.say(&room, "!chess equipe rejoindre rooks").await;
    carol
        .inbox
        .after(mark, "carol in the team", |s| {
            from_bot(s) && s.body.contains("carol") && s.body.contains("Rooks")
        })
        .await;

    // alice challenges bob for the team, White; bob accepts with ✅.
    let mark = bob.inbox.mark();
    alice
        .say(
            &room,
            "!chess challenge team:Rooks @bob:localhost color:white time:3d",
        )
        .await;
    let challenge = bob
        .inbox
        .after(mark, "the team's challenge", |s| {
            from_bot(s) && mentions(s, &b)
        })
        .await;
    assert!(challenge.body.contains("A vote game"), "{}", challenge.body);
    let mark = alice.inbox.mark();
    bob.react(&room, &challenge.event_id, "✅").await;
    let started = alice
        .inbox
        .after(mark, "the vote game's start", |s| {
            from_bot(s) && s.body.contains("Game #")
        })
        .await;
    let game = game_number(&started.body);
    assert!(started.body.contains("Rooks"), "{}", started.body);

    let bob_from = bob.inbox.mark();
    // bob plays against the team: his vote is refused to him alone.
    let mark = bob.inbox.mark();
    bob.say(&room, &format!("!chess vote e4 game:{game}")).await;
    let refused = the_bots_direct_answer(bob, mark, &room, "You play against this team").await;
    assert_ne!(refused, room);

    // alice votes in the room: redacted there, answered by direct message.
    let mark = alice.inbox.mark();
    let alice_vote = alice.say(&room, "!chess vote Nf3").await;
    let direct = the_bots_direct_answer(alice, mark, &room, "Your vote in game").await;
    let told = alice
        .inbox
        .after(mark, "alice's vote, to her alone", |s| {
            s.room == direct && s.sender == BOT && s.body.contains("Your vote")
        })
        .await;
    assert!(
        told.body
            .contains(&format!("Your vote in game #{game}: Nf3.")),
        "{}",
        told.body
    );
    assert!(told.body.contains("1 of 2"), "{}", told.body);
    let reason = until_redacted(bob, &room, &alice_vote).await;
    assert_eq!(reason, "private: a vote");

    // carol's vote (in French) completes the team: the 1–1 tie goes to
    // the move voted first, and the room reads the tally with it.
    let mark = bob.inbox.mark();
    let carol_mark = carol.inbox.mark();
    let carol_vote = carol.say(&room, "!chess voter d4").await;
    let played = bob
        .inbox
        .after(mark, "the team's move with its tally", |s| {
            from_bot(s) && s.body.contains("Votes of team Rooks")
        })
        .await;
    assert!(mentions(&played, &b), "{played:?}");
    assert!(
        played.body.contains(&format!(
            "Votes of team Rooks: Nf3 1, d4 1.\nRooks played Nf3 in game #{game}."
        )),
        "{}",
        played.body
    );
    the_bots_direct_answer(&carol, carol_mark, &room, "d4").await;
    until_redacted(bob, &room, &carol_vote).await;
    // Before the move, nothing from the bot that bob read named a vote.
    let before: Vec<Seen> = bob.inbox.seen.lock().expect("inbox")[bob_from..]
        .iter()
        .take_while(|s| s.event_id != played.event_id)
        .filter(|s| s.sender == BOT)
        .cloned()
        .collect();
    assert!(
        before
            .iter()
            .all(|s| !s.body.contains("Nf3") && !s.body.contains("d4")),
        "bob read a vote: {before:#?}"
    );

    // bob answers as in any game, then resigns it.
    let mark = alice.inbox.mark();
    bob.say(&room, &format!("!move e5 game:{game}")).await;
    let answered = alice
        .inbox
        .after(mark, "bob's answer", |s| {
            from_bot(s) && s.body.contains("bob played e5")
        })
        .await;
    assert!(
        !mentions(&answered, &a),
        "a team is not pinged: {answered:?}"
    );
    let mark = alice.inbox.mark();
    bob.say(&room, &format!("!chess resign game:{game}")).await;
    alice
        .inbox
        .after(mark, "the resignation", |s| {
            from_bot(s) && s.body.contains("resigns")
        })
        .await;
    carol.sync.abort();
}

/// A room with old commands in it, joined later: nothing old is answered.
async fn backlog_is_not_replayed(alice: &Player) {
    let room = alice.create_room(&[], false).await;
    alice.say(&room, "!chess help").await;
    alice.say(&room, "!chess challenge @bob:localhost").await;
    let mark = alice.inbox.mark();
    alice.invite(&room, BOT).await;
    alice.until_joined(&room, BOT).await;
    alice.say(&room, "!chess games").await;
    alice
        .inbox
        .after(mark, "the answer to !chess games", |s| {
            s.room == room && s.sender == BOT && s.body.contains("no games")
        })
        .await;
    tokio::time::sleep(QUIET).await;
    let answers = alice.inbox.bot_messages(mark, &room);
    assert_eq!(
        answers.len(),
        1,
        "only the new command is answered: {answers:#?}"
    );
}

/// The number in "Game #12 begins".
fn game_number(text: &str) -> i64 {
    let (_, after) = text.split_once("Game #").expect("a game number");
    let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().expect("a game number")
}

/// Alice challenges Bob in `room` and both move once (so only a moderator
/// may abort the game now); returns the game's number.
async fn start_a_game(alice: &Player, bob: &Player, room: &OwnedRoomId) -> i64 {
    let (a, b) = (alice.id(), bob.id());
    let mark = bob.inbox.mark();
    alice
        .say(room, "!chess challenge @bob:localhost color:white")
        .await;
    let challenge = bob
        .inbox
        .after(mark, "the challenge", |s| {
            &s.room == room && s.sender == BOT && mentions(s, &b)
        })
        .await;
    let mark = alice.inbox.mark();
    bob.react(room, &challenge.event_id, "✅").await;
    let started = alice
        .inbox
        .after(mark, "the game start", |s| {
            &s.room == room && s.sender == BOT && s.body.contains("Game #")
        })
        .await;
    let game = game_number(&started.body);
    let mark = bob.inbox.mark();
    alice.say(room, "!move e4").await;
    bob.inbox
        .after(mark, "Bob's turn after e4", |s| {
            &s.room == room && s.sender == BOT && mentions(s, &b) && s.body.contains("e4")
        })
        .await;
    let mark = alice.inbox.mark();
    bob.say(room, "!move e5").await;
    alice
        .inbox
        .after(mark, "Alice's turn after e5", |s| {
            &s.room == room && s.sender == BOT && mentions(s, &a) && s.body.contains("e5")
        })
        .await;
    game
}

/// `who` sends `!chess abort game:N` in `from`: the bot's answer is a
/// refusal addressed to them.
async fn abort_is_refused(who: &Player, from: &OwnedRoomId, game: i64) {
    let me = who.id();
    let mark = who.inbox.mark();
    who.say(from, &format!("!chess abort game:{game}")).await;
    let answer = who
        .inbox
        .after(mark, "the answer to the abort", |s| {
            &s.room == from && s.sender == BOT
        })
        .await;
    assert!(
        mentions(&answer, &me) && !answer.body.contains("aborted"),
        "{me} aborted game #{game} from {from}: {}",
        answer.body
    );
}

/// The game in `room` still runs: Alice's next move is played.
async fn still_running(alice: &Player, bob: &Player, room: &OwnedRoomId, next: &str) {
    let b = bob.id();
    let mark = bob.inbox.mark();
    alice.say(room, &format!("!move {next}")).await;
    bob.inbox
        .after(mark, "the game going on", |s| {
            &s.room == room && s.sender == BOT && mentions(s, &b) && s.body.contains(next)
        })
        .await;
}

/// `who` aborts game `game` from `from`, and it ends.
async fn abort_is_accepted(who: &Player, from: &OwnedRoomId, game: i64) {
    let mark = who.inbox.mark();
    who.say(from, &format!("!chess abort game:{game}")).await;
    let answer = who
        .inbox
        .after(mark, "the abort", |s| {
            &s.room == from && s.sender == BOT && s.body.contains("Game aborted")
        })
        .await;
    assert!(answer.body.contains(&format!("#{game}")), "{}", answer.body);
}

/// Issue 17: the admin of her own room (mallory) cannot abort a game living
/// in another room, neither plainly nor by naming that room's space as her
/// room's parent; the game's own room and space moderators still can.
async fn only_the_games_own_moderators_abort_it(homeserver: &str, alice: &Player, bob: &Player) {
    register(homeserver, "mallory").await;
    let mallory = Player::login(homeserver, "mallory").await;
    let bot_id = UserId::parse(BOT).expect("bot id");

    // Alice and Bob play in Bob's room, outside any space (Alice has no power there).
    let room = bob.create_room(&[&alice.id(), &bot_id], false).await;
    alice.join(&room).await;
    bob.until_joined(&room, BOT).await;
    bob.until_joined(&room, alice.id().as_str()).await;
    let game = start_a_game(alice, bob, &room).await;

    // Mallory's own room: she made it, so she is its admin.
    let lair = mallory.create_room(&[&bot_id], false).await;
    mallory.until_joined(&lair, BOT).await;
    abort_is_refused(&mallory, &lair, game).await;
    still_running(alice, bob, &room, "Nf3").await;

    // A space Alice runs, with the bot in it, lists a room Bob made and that
    // room names the space back; a game there counts for the space.
    let space = alice.create_space(&[&bot_id]).await;
    alice.until_joined(&space, BOT).await;
    let club = bob.create_room(&[&alice.id(), &bot_id], false).await;
    alice.join(&club).await;
    bob.until_joined(&club, BOT).await;
    bob.until_joined(&club, alice.id().as_str()).await;
    bob.name_parent(&club, &space).await;
    alice.list_child(&space, &club).await;
    let club_game = start_a_game(alice, bob, &club).await;

    // Mallory names the space as her room's parent; it does not list her room.
    mallory.name_parent(&lair, &space).await;
    abort_is_refused(&mallory, &lair, club_game).await;
    still_running(alice, bob, &club, "Nf3").await;

    // The games' own moderators: Bob is the admin of the first room; Alice
    // has no power in Bob's club room but moderates the space it belongs to.
    abort_is_accepted(bob, &room, game).await;
    abort_is_accepted(alice, &club, club_game).await;
    mallory.sync.abort();
}

/// Says a test was skipped where `cargo test` shows it: straight to the
/// process's stderr, which the harness does not capture (`eprintln!` output
/// of a passing test is hidden, and the skip would pass for a pass).
fn say_skipped() {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "note: MATRIX_HS is not set: the Matrix end-to-end tests are skipped \
         (see tests/matrix_e2e.rs for how to start a Synapse)"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_bot_plays_through_a_real_homeserver() {
    let Ok(homeserver) = std::env::var("MATRIX_HS") else {
        say_skipped();
        return;
    };
    tokio::time::timeout(WHOLE_TEST, scenario(&homeserver))
        .await
        .expect("the whole scenario finishes in time");
}

async fn scenario(homeserver: &str) {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "pawnpost=info".into()),
        )
        .with_test_writer()
        .try_init();
    let dir = tempfile::tempdir().expect("temp dir");
    let alice = Player::login(homeserver, "alice").await;
    let bob = Player::login(homeserver, "bob").await;
    let bot_id = UserId::parse(BOT).expect("bot id");
    let mut bot = start_bot(homeserver, dir.path()).await;

    // A plain room: invite, challenge, ✅, moves, refusal, draw by ✅.
    let plain = alice.create_room(&[&bob.id(), &bot_id], false).await;
    bob.client.join_room_by_id(&plain).await.expect("bob joins");
    alice.until_joined(&plain, BOT).await;
    alice.until_joined(&plain, bob.id().as_str()).await;
    bot = play_a_game(&alice, &bob, &plain, bot, None).await;
    an_ambiguous_move_is_answered_by_number(&alice, &bob, &plain).await;
    a_rematch_is_accepted_with_a_reaction(&alice, &bob, &plain).await;
    conditional_moves_stay_private(&alice, &bob, &plain).await;
    a_link_code_comes_in_private(&alice, &bob, &plain).await;
    a_team_votes_in_secret(homeserver, &alice, &bob).await;

    // The same in an encrypted room, with the bot restarted mid-game.
    let secret = alice.create_room(&[&bob.id(), &bot_id], true).await;
    bob.client
        .join_room_by_id(&secret)
        .await
        .expect("bob joins");
    alice.until_joined(&secret, BOT).await;
    alice.until_joined(&secret, bob.id().as_str()).await;
    bob.until_joined(&secret, BOT).await;
    bot = play_a_game(&alice, &bob, &secret, bot, Some((homeserver, dir.path()))).await;

    backlog_is_not_replayed(&alice).await;
    only_the_games_own_moderators_abort_it(homeserver, &alice, &bob).await;

    bot.stop().await;
    alice.sync.abort();
    bob.sync.abort();
}

/// The account of the bot `a_move_committed_before_a_crash_reaches_the_opponent_once`
/// runs as a child process (not `BOT`, which the scenario runs alongside).
const CRASH_BOT: &str = "@crashbot:localhost";

/// An HTTP proxy on 127.0.0.1 between a bot and Synapse that can hold the
/// bot's sends (`PUT …/send/…`, media uploads) as on a dead link: a held
/// request never reaches Synapse.
struct HoldingProxy {
    url: String,
    holding: Arc<std::sync::atomic::AtomicBool>,
    server: JoinHandle<()>,
}

impl HoldingProxy {
    async fn start(upstream: &str) -> HoldingProxy {
        use axum::extract::{Request, State};
        use axum::response::{IntoResponse, Response};
        type Shared = (
            String,
            Arc<std::sync::atomic::AtomicBool>,
            matrix_sdk::reqwest::Client,
        );

        async fn forward(
            State((upstream, holding, http)): State<Shared>,
            request: Request,
        ) -> Response {
            let method = request.method().clone();
            let target = request
                .uri()
                .path_and_query()
                .map(|p| p.as_str().to_owned())
                .unwrap_or_else(|| "/".to_owned());
            let sends = (method == "PUT" && target.contains("/send/"))
                || target.starts_with("/_matrix/media/v3/upload");
            if sends && holding.load(std::sync::atomic::Ordering::SeqCst) {
                std::future::pending::<()>().await;
            }
            let headers = request.headers().clone();
            let Ok(body) = axum::body::to_bytes(request.into_body(), 64 << 20).await else {
                return axum::http::StatusCode::BAD_REQUEST.into_response();
            };
            let mut out = http
                .request(method, format!("{upstream}{target}"))
                .body(body);
            for (name, value) in &headers {
                if name != "host" && name != "content-length" {
                    out = out.header(name, value);
                }
            }
            let Ok(answer) = out.send().await else {
                return axum::http::StatusCode::BAD_GATEWAY.into_response();
            };
            let status = answer.status();
            let content_type = answer.headers().get("content-type").cloned();
            let bytes = answer.bytes().await.unwrap_or_default();
            let mut response = (status, bytes).into_response();
            if let Some(content_type) = content_type {
                response.headers_mut().insert("content-type", content_type);
            }
            response
        }

        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let holding = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let shared: Shared = (
            upstream.to_owned(),
            Arc::clone(&holding),
            matrix_sdk::reqwest::Client::new(),
        );
        let app = axum::Router::new().fallback(forward).with_state(shared);
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        HoldingProxy {
            url,
            holding,
            server,
        }
    }

    fn hold(&self, hold: bool) {
        self.holding
            .store(hold, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Drop for HoldingProxy {
    fn drop(&mut self) {
        self.server.abort();
    }
}

/// The bot is killed (SIGKILL) after it committed bob's move and before its
/// notice reached the homeserver. Restarted, it tells alice, with her
/// mention and the board, exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_move_committed_before_a_crash_reaches_the_opponent_once() {
    let Ok(homeserver) = std::env::var("MATRIX_HS") else {
        say_skipped();
        return;
    };
    tokio::time::timeout(WHOLE_TEST, crash_scenario(&homeserver))
        .await
        .expect("the crash scenario finishes in time");
}

async fn crash_scenario(homeserver: &str) {
    register(homeserver, "crashbot").await;
    let dir = tempfile::tempdir().expect("temp dir");
    let proxy = HoldingProxy::start(homeserver).await;
    let env = [
        ("PAWNPOST_MATRIX_HOMESERVER", proxy.url.clone()),
        ("PAWNPOST_MATRIX_USER_ID", CRASH_BOT.to_owned()),
        ("MATRIX_PASSWORD", "pass-crashbot".to_owned()),
        (
            "PAWNPOST_MATRIX_STORE_PATH",
            dir.path().join("matrix").display().to_string(),
        ),
    ];
    let first = BotProcess::spawn(dir.path(), "first", &env);
    let alice = Player::login(homeserver, "alice").await;
    let bob = Player::login(homeserver, "bob").await;
    let bot = UserId::parse(CRASH_BOT).expect("bot id");
    let room = alice.create_room(&[&bob.id(), &bot], false).await;
    bob.join(&room).await;
    alice.until_joined(&room, CRASH_BOT).await;
    let from_bot = |s: &Seen| s.room == room && s.sender == bot;

    let mark = bob.inbox.mark();
    alice
        .say(&room, "!chess challenge @bob:localhost color:white")
        .await;
    let challenge = bob
        .inbox
        .after(mark, "the challenge", |s| {
            from_bot(s) && mentions(s, &bob.id())
        })
        .await;
    let mark = alice.inbox.mark();
    bob.react(&room, &challenge.event_id, "✅").await;
    alice
        .inbox
        .after(mark, "the game start", |s| {
            from_bot(s) && s.body.contains("Game #")
        })
        .await;
    let mark = bob.inbox.mark();
    alice.say(&room, "!move e4").await;
    bob.inbox
        .after(mark, "bob's turn", |s| from_bot(s) && s.body.contains("e4"))
        .await;

    proxy.hold(true);
    let mark = alice.inbox.mark();
    let e5 = bob.say(&room, "!move e5").await;
    let key = format!("matrix:{e5}");
    until_committed(&dir.path().join("pawnpost.db"), &key, WAIT).await;
    first.kill();
    proxy.hold(false);
    let told = |s: &Seen| from_bot(s) && s.body.contains("bob played e5");
    assert!(
        alice.inbox.seen.lock().expect("inbox")[mark..]
            .iter()
            .all(|s| !told(s)),
        "the move was announced before the kill"
    );

    let second = BotProcess::spawn(dir.path(), "second", &env);
    let notice = alice.inbox.after(mark, "alice's turn", told).await;
    assert!(mentions(&notice, &alice.id()), "{notice:?}");
    // Past another handoff and a worker round: one notice, one board.
    tokio::time::sleep(QUIET + Duration::from_secs(3)).await;
    let since: Vec<Seen> = alice.inbox.seen.lock().expect("inbox")[mark..]
        .iter()
        .filter(|s| from_bot(s))
        .cloned()
        .collect();
    let notices = since.iter().filter(|s| told(s)).count();
    // (The board of bob's turn may still arrive just after the mark.)
    let boards = since
        .iter()
        .skip_while(|s| !told(s))
        .filter(|s| s.image.is_some())
        .count();
    assert_eq!((notices, boards), (1, 1), "{since:#?}");

    // Bob edits his played move: answered, not carried out.
    let mark = bob.inbox.mark();
    let replacement = RoomMessageEventContent::text_plain("!move d5")
        .make_replacement(ReplacementMetadata::new(e5.clone(), None));
    bob.room(&room).send(replacement).await.expect("edit");
    let answer = bob
        .inbox
        .after(mark, "the answer to the edit", |s| {
            from_bot(s) && s.body.contains("already carried out")
        })
        .await;
    assert!(mentions(&answer, &bob.id()), "{answer:?}");
    drop(second);
    alice.sync.abort();
    bob.sync.abort();
}

/// The account of the bot the text-and-board crash test runs as.
const PARTS_BOT: &str = "@partsbot:localhost";

/// The bot is killed (SIGKILL) after bob's move's text reached the room
/// and before its board image (a test hook holds the sender between the
/// parts). Restarted with its Matrix store lost — a new login, a new device,
/// to which the homeserver's memory of the first one's transaction ids does
/// not apply, as after half an hour — it sends the board alone, from the
/// part recorded with the act: alice's room gets the text once and the
/// image once. (The new session knows no room until its first sync: the
/// notice waits for it rather than counting as sent.)
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_crash_between_a_notice_s_text_and_its_board_delivers_the_board_once() {
    let Ok(homeserver) = std::env::var("MATRIX_HS") else {
        say_skipped();
        return;
    };
    tokio::time::timeout(WHOLE_TEST, parts_scenario(&homeserver))
        .await
        .expect("the scenario finishes in time");
}

async fn parts_scenario(homeserver: &str) {
    register(homeserver, "partsbot").await;
    let dir = tempfile::tempdir().expect("temp dir");
    let env = [
        ("PAWNPOST_MATRIX_HOMESERVER", homeserver.to_owned()),
        ("PAWNPOST_MATRIX_USER_ID", PARTS_BOT.to_owned()),
        ("MATRIX_PASSWORD", "pass-partsbot".to_owned()),
        (
            "PAWNPOST_MATRIX_STORE_PATH",
            dir.path().join("matrix").display().to_string(),
        ),
    ];
    let mut env = env.to_vec();
    env.push(("PAWNPOST_DELIVERY_HANDOFF_SECONDS", "12".to_owned()));
    let mut paused = env.clone();
    paused.push((
        "PAWNPOST_TEST_PAUSE_BETWEEN_PARTS",
        "bob played e5".to_owned(),
    ));
    let first = BotProcess::spawn(dir.path(), "first", &paused);
    let alice = Player::login(homeserver, "alice").await;
    let bob = Player::login(homeserver, "bob").await;
    let bot = UserId::parse(PARTS_BOT).expect("bot id");
    let room = alice.create_room(&[&bob.id(), &bot], false).await;
    bob.join(&room).await;
    alice.until_joined(&room, PARTS_BOT).await;
    let from_bot = |s: &Seen| s.room == room && s.sender == bot;
    let mark = bob.inbox.mark();
    alice
        .say(&room, "!chess challenge @bob:localhost color:white")
        .await;
    let challenge = bob
        .inbox
        .after(mark, "the challenge", |s| {
            from_bot(s) && mentions(s, &bob.id())
        })
        .await;
    let mark = alice.inbox.mark();
    bob.react(&room, &challenge.event_id, "✅").await;
    alice
        .inbox
        .after(mark, "the game start", |s| {
            from_bot(s) && s.body.contains("Game #")
        })
        .await;
    // Every board so far arrived (the start's and e4's) before bob moves.
    let mark = alice.inbox.mark();
    alice.say(&room, "!move e4").await;
    alice
        .inbox
        .after(mark, "e4's text", |s| from_bot(s) && s.body.contains("e4"))
        .await;
    let boards_by = |n: usize| {
        let inbox = alice.inbox.seen.lock().expect("inbox");
        inbox
            .iter()
            .filter(|s| from_bot(s) && s.image.is_some())
            .count()
            >= n
    };
    let deadline = tokio::time::Instant::now() + WAIT;
    while !boards_by(2) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the first boards never came"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let mark = alice.inbox.mark();
    bob.say(&room, "!move e5").await;
    let told = |s: &Seen| from_bot(s) && s.body.contains("bob played e5");
    alice.inbox.after(mark, "the move's text", told).await;
    first.kill();
    let board = |s: &Seen| from_bot(s) && s.image.is_some();
    assert!(
        !alice.inbox.seen.lock().expect("inbox")[mark..]
            .iter()
            .any(board),
        "the board went out before the kill"
    );

    let mut new_device = env.clone();
    new_device.retain(|(key, _)| *key != "PAWNPOST_MATRIX_STORE_PATH");
    new_device.push((
        "PAWNPOST_MATRIX_STORE_PATH",
        dir.path().join("matrix-new").display().to_string(),
    ));
    let second = BotProcess::spawn(dir.path(), "second", &new_device);
    alice.inbox.after(mark, "the move's board", board).await;
    // Past another handoff and a worker round: one text, one board.
    tokio::time::sleep(QUIET + Duration::from_secs(3)).await;
    let since: Vec<Seen> = alice.inbox.seen.lock().expect("inbox")[mark..]
        .iter()
        .filter(|s| from_bot(s))
        .cloned()
        .collect();
    let texts = since.iter().filter(|s| told(s)).count();
    let boards = since.iter().filter(|s| board(s)).count();
    println!("after the restart: {texts} text(s), {boards} board(s)");
    assert_eq!((texts, boards), (1, 1), "{since:#?}");
    let timeline = bot_events_in(&alice, &room, &bot).await;
    assert_eq!(
        (
            timeline
                .iter()
                .filter(|(body, _)| body.contains("bob played e5"))
                .count(),
            timeline.iter().filter(|(_, image)| *image).count(),
        ),
        (1, 3),
        "the room's history: the boards of the start, e4 and e5 once each: {timeline:#?}"
    );
    drop(second);
    alice.sync.abort();
    bob.sync.abort();
}

/// The bot's messages in `room` as the homeserver keeps them (`/messages`,
/// newest 100): each body and whether it is an image.
async fn bot_events_in(reader: &Player, room: &OwnedRoomId, bot: &UserId) -> Vec<(String, bool)> {
    use matrix_sdk::room::MessagesOptions;
    let messages = reader
        .room(room)
        .messages(MessagesOptions::backward())
        .await
        .expect("the room's messages");
    messages
        .chunk
        .iter()
        .filter_map(|event| event.raw().deserialize().ok())
        .filter_map(|event| match event {
            matrix_sdk::ruma::events::AnySyncTimelineEvent::MessageLike(
                matrix_sdk::ruma::events::AnySyncMessageLikeEvent::RoomMessage(
                    matrix_sdk::ruma::events::SyncMessageLikeEvent::Original(message),
                ),
            ) if message.sender == bot => Some(message.content.msgtype),
            _ => None,
        })
        .map(|msgtype| {
            let image = matches!(msgtype, MessageType::Image(_));
            (msgtype.body().to_owned(), image)
        })
        .collect()
}
