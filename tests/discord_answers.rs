//! How the bot answers on Discord as it really is: a tournament's start
//! (a burst) delivered once under the followup limit, rate limits waited
//! out as Discord says, notices falling due together grouped per channel
//! and fair between channels, private acts deferred privately on every
//! path, interactions replayed late after a RESUME, nothing cut unseen,
//! and a clean stop on SIGTERM. The real serenity client against the fake;
//! each test prints the requests Discord refused.

#[path = "common/bot_process.rs"]
mod bot_process;
#[path = "common/fake_discord.rs"]
mod fake_discord;
#[path = "common/discord_harness.rs"]
mod harness;

use std::collections::HashMap;
use std::time::{Duration as StdDuration, Instant};

use chrono::Duration;
use fake_discord::{FakeDiscord, FakeUser, Recorded};
use harness::*;
use pawnpost::core::platform::Platform;
use pawnpost::service::{
    BoardImages, Input, Moderation, NoticeId, Notifier, Reply, Request, ServiceConfig, TimeSource,
    User,
};
use serde_json::json;

/// Prints what Discord refused during a test.
fn print_refused(fake: &FakeDiscord, test: &str) -> usize {
    let refused = fake.refused(0);
    let limited = refused.iter().filter(|r| r.status == 429).count();
    println!(
        "{test}: {} requests, {} refused ({limited} rate limits)",
        fake.request_count(),
        refused.len()
    );
    refused.len()
}

fn player(k: u64) -> FakeUser {
    FakeUser::new(560_000_000_000_000_000 + k, &format!("p{k:02}"))
}

fn act(user: &FakeUser, channel: u64, text: &str) -> Request {
    Request {
        platform: Platform::Discord,
        server: GUILD.to_string(),
        channel: channel.to_string(),
        user: User {
            id: user.id.to_string(),
            name: user.name.clone(),
            locale: None,
            moderation: Moderation::None,
        },
        key: None,
        input: Input::Text(text.to_owned()),
        board_images: BoardImages::Omitted,
    }
}

/// A bot whose server allows round robins of 64 players (the default
/// stops at 32: `[tournaments] max_round_robin`).
async fn start_club_bot(fake: &FakeDiscord, db: &std::path::Path, time: &ManualTime) -> Running {
    let mut config = ServiceConfig::default();
    config.tournament_limits.round_robin = 64;
    start_bot_configured(fake, db, time, config, |_| {}).await
}

/// A round robin of `players` in CHANNEL, all joined, not started.
async fn tournament(bot: &Running, time: &ManualTime, players: u64, control: &str) {
    let create = format!("/tournament create round_robin unrated max:64 tc {control}");
    let replies = bot
        .service
        .handle(act(&player(0), CHANNEL, &create), time.now())
        .await;
    assert!(!replies[0].ephemeral, "{replies:?}");
    for k in 0..players {
        let replies = bot
            .service
            .handle(act(&player(k), CHANNEL, "/tournament join"), time.now())
            .await;
        assert!(!replies[0].ephemeral, "{replies:?}");
    }
}

/// Every message readable in the channel, with its text files.
fn public_text(requests: &[Recorded]) -> String {
    requests
        .iter()
        .filter(|r| r.is_public() && r.status < 300)
        .map(Recorded::text_and_files)
        .collect::<Vec<_>>()
        .join("\n")
}

/// How many times each game's pairing line was shown.
fn pairings_shown(text: &str) -> HashMap<u64, usize> {
    let mut shown = HashMap::new();
    for line in text.lines() {
        if let Some((_, rest)) = line.split_once(": game #")
            && let Some(game) = rest.split(',').next().and_then(|g| g.parse().ok())
        {
            *shown.entry(game).or_default() += 1;
        }
    }
    shown
}

/// A round robin's start through `/tournament start`, under Discord's
/// followup limit: every pairing shown exactly once (its round's line,
/// and once in each of its two players' lists), in a few messages, none
/// posted again by the outbox once the hand-off time has passed.
async fn start_delivers_every_pairing_once(players: u64) {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_club_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    tournament(&bot, &time, players, "3d").await;
    let mark = fake.request_count();
    let began = Instant::now();
    let start = fake.command(GUILD, CHANNEL, &player(0), "tournament start", json!([]));
    let id = start.0;
    send(&fake, start).await;
    // Until the answer stops growing.
    let mut seen = 0;
    loop {
        tokio::time::sleep(StdDuration::from_millis(500)).await;
        let now = fake.request_count();
        if now == seen {
            break;
        }
        seen = now;
    }
    let answered_in = began.elapsed();
    let scheduler = Scheduler::start(&bot, &time);
    time.advance(Duration::seconds(120));
    bot.service.deadline_signal().wake();
    tokio::time::sleep(StdDuration::from_secs(2)).await;
    scheduler.stop().await;
    let requests = fake.requests()[mark..].to_vec();
    let messages: Vec<&Recorded> = requests
        .iter()
        .filter(|r| r.is_public() && r.status < 300)
        .collect();
    let games = (players * (players - 1) / 2) as usize;
    let shown = pairings_shown(&public_text(&requests));
    assert_eq!(shown.len(), games, "every game named");
    let wrong: Vec<_> = shown.iter().filter(|(_, n)| **n != 3).collect();
    assert!(
        wrong.is_empty(),
        "shown other than once per round and player: {wrong:?}"
    );
    assert!(messages.len() <= 3, "{} messages", messages.len());
    let pinged: usize = messages
        .iter()
        .map(|m| {
            m.message()["allowed_mentions"]["users"]
                .as_array()
                .map_or(0, Vec::len)
        })
        .sum();
    assert_eq!(pinged as u64, players, "every player pinged once");
    assert!(fake.followups(id).iter().all(|r| r.status < 300));
    println!(
        "{players}-player round robin start: {games} pairings in {} messages ({} KiB of files) in {answered_in:?}",
        messages.len(),
        messages
            .iter()
            .flat_map(|m| &m.files)
            .map(|f| f.bytes.len())
            .sum::<usize>()
            / 1024
    );
    print_refused(&fake, &format!("{players}-player start"));
    bot.stop(&fake).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_64_player_round_robin_start_delivers_every_pairing_exactly_once() {
    start_delivers_every_pairing_once(64).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_16_player_round_robin_start_delivers_every_pairing_exactly_once() {
    start_delivers_every_pairing_once(16).await;
}

/// The gap between the first 429 among the requests that `matches` and
/// the try after it.
fn gap_after_429(requests: &[Recorded], matches: impl Fn(&Recorded) -> bool) -> StdDuration {
    let on_path: Vec<&Recorded> = requests.iter().filter(|r| matches(r)).collect();
    let at = on_path.iter().position(|r| r.status == 429).expect("a 429");
    let next = on_path.get(at + 1).expect("a try after the 429");
    next.at.duration_since(on_path[at].at)
}

/// The wait the tests' 429s ask for.
const ASKED: StdDuration = StdDuration::from_millis(1500);

/// A followup refused with 429 is sent again only after the `retry_after`
/// Discord gave, not on a guessed schedule; so is a refused notice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_is_waited_out_as_retry_after_says() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let (alice, bob) = (alice(), bob());
    fake.know(&bob);
    // alice is team Rooks alone; her vote is the last and plays the move:
    // a private answer, then the move for everyone as a followup.
    let team = json!([{ "name": "team", "type": 3, "value": "Rooks" }]);
    send(
        &fake,
        fake.command(GUILD, CHANNEL, &alice, "team create", team),
    )
    .await;
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
                { "name": "color", "type": 3, "value": "black" }
            ]),
        ),
    )
    .await;
    let accept = challenge
        .buttons()
        .into_iter()
        .find(|b| b.starts_with("challenge-accept:"))
        .unwrap();
    send(&fake, fake.click(GUILD, CHANNEL, &bob, &accept)).await;
    send(
        &fake,
        fake.command(GUILD, CHANNEL, &bob, "move", move_options("e4", json!([]))),
    )
    .await;
    fake.rate_limit_route("POST", "/api/v10/webhooks/", 1, ASKED);
    let vote = fake.command(
        GUILD,
        CHANNEL,
        &alice,
        "play vote move",
        json!([{ "name": "move", "type": 3, "value": "e5" }]),
    );
    let id = vote.0;
    let answer = send(&fake, vote).await;
    assert!(answer.is_ephemeral(), "{answer:?}");
    let played = fake
        .wait_for(0, |r| {
            r.path.contains(&fake_discord::token(id)) && r.status == 200
        })
        .await;
    assert!(
        played.all_text().contains("Rooks played e5"),
        "{}",
        played.all_text()
    );
    let webhook = |r: &Recorded| r.path.contains(&fake_discord::token(id)) && r.method == "POST";
    let gap = gap_after_429(&fake.requests(), webhook);
    assert!(gap >= ASKED, "tried again after {gap:?}, asked {ASKED:?}");

    // A notice refused with 429: the same.
    let scheduler = Scheduler::start(&bot, &time);
    let mark = fake.request_count();
    fake.rate_limit_route("POST", "/api/v10/channels/", 1, ASKED);
    time.advance(Duration::days(4));
    bot.service.deadline_signal().wake();
    let path = format!("/api/v10/channels/{CHANNEL}/messages");
    fake.wait_for(mark, |r| r.path == path && r.status == 200)
        .await;
    let posts = |r: &Recorded| r.path == path;
    let gap = gap_after_429(&fake.requests()[mark..], posts);
    assert!(gap >= ASKED, "tried again after {gap:?}, asked {ASKED:?}");
    scheduler.stop().await;
    print_refused(&fake, "retry_after");
    bot.stop(&fake).await;
}

/// The reminders of a 120-game tournament fall due together in one
/// channel, with one more in another channel: the tournament's are grouped
/// into a few messages within Discord's limit (no 429), each reminder shown
/// once, and the other channel's is not held behind them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notices_due_together_are_grouped_per_channel_and_fair_between_channels() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_club_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    tournament(&bot, &time, 16, "1d").await;
    let started = bot
        .service
        .handle(act(&player(0), CHANNEL, "/tournament start"), time.now())
        .await;
    assert!(!started[0].ephemeral, "{started:?}");
    let other = CHANNEL + 1;
    let (x, y) = (player(40), player(41));
    let challenge = format!("/challenge @{} color:white time:1d", y.id);
    for (user, text) in [(&x, challenge.as_str()), (&y, "/accept")] {
        let replies = bot.service.handle(act(user, other, text), time.now()).await;
        assert!(!replies[0].ephemeral, "{replies:?}");
    }
    let scheduler = Scheduler::start(&bot, &time);
    tokio::time::sleep(StdDuration::from_secs(1)).await;
    let mark = fake.request_count();
    time.advance(Duration::hours(20));
    bot.service.deadline_signal().wake();
    let began = Instant::now();
    let in_channel = |channel: u64| {
        let path = format!("/api/v10/channels/{channel}/messages");
        move |r: &Recorded| r.path == path && r.status == 200
    };
    fake.wait_for(mark, in_channel(CHANNEL)).await;
    fake.wait_for_within(mark, StdDuration::from_secs(3), in_channel(other))
        .await;
    let other_after = began.elapsed();
    // Until every reminder is out.
    let all_out = |fake: &FakeDiscord| {
        let text = public_text(&fake.requests()[mark..]);
        text.matches("it is your move").count()
    };
    let deadline = Instant::now() + StdDuration::from_secs(30);
    while all_out(&fake) < 121 && Instant::now() < deadline {
        tokio::time::sleep(StdDuration::from_millis(100)).await;
    }
    scheduler.stop().await;
    let requests = fake.requests()[mark..].to_vec();
    assert_eq!(all_out(&fake), 121, "each reminder once");
    let posts = requests.iter().filter(|r| in_channel(CHANNEL)(r)).count();
    let limited = requests.iter().filter(|r| r.status == 429).count();
    println!(
        "121 reminders: {posts} posts in the tournament's channel, the other channel's after {other_after:?}, {limited} rate limits, all in {:?}",
        began.elapsed()
    );
    assert!(posts <= 8, "{posts} posts for 120 reminders");
    assert_eq!(limited, 0, "paced within Discord's limit");
    print_refused(&fake, "reminders");
    bot.stop(&fake).await;
}

/// Holds the database's write lock for `for_ms` milliseconds from a
/// second connection, so the bot's next act waits past 1.5 s and defers.
fn hold_database(db: &std::path::Path, for_ms: u64) -> std::thread::JoinHandle<()> {
    let holder = rusqlite::Connection::open(db).expect("second connection");
    holder.execute_batch("BEGIN IMMEDIATE").expect("write lock");
    std::thread::spawn(move || {
        std::thread::sleep(StdDuration::from_millis(for_ms));
        holder.execute_batch("COMMIT").expect("release");
    })
}

/// A secret act (a conditional line) that has to defer defers privately;
/// a public act whose answer turns out private (a refusal) after a public
/// deferral never shows it publicly, even when deleting the deferral
/// fails. Nothing a third person can read names the secret.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_acts_defer_privately_on_every_path() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("pawnpost.db");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &db, &time).await;
    let (alice, bob, carol) = (alice(), bob(), carol());
    let game = open_game(&fake, &alice, &bob, "3d").await;

    let lock = hold_database(&db, 2500);
    let line = json!([{ "name": "moves", "type": 3, "value": "e5 Nf3 Nc6 Bb5" }]);
    let secret = fake.command(GUILD, CHANNEL, &alice, "play if add", line);
    let id = secret.0;
    let deferred = fake.answer(secret).await;
    assert_eq!(deferred.json["type"], 5, "{deferred:?}");
    assert_eq!(deferred.message()["flags"], 64, "a private deferral");
    lock.join().unwrap();
    let filled = fake
        .wait_for(0, |r| {
            r.path.contains(&fake_discord::token(id)) && r.method == "PATCH"
        })
        .await;
    assert!(filled.all_text().contains("Bb5"), "{}", filled.all_text());
    assert!(!filled.is_public());

    // carol moves in a game not hers, slowly: a public deferral, then a
    // refusal; deleting the deferral fails (429 for minutes).
    fake.rate_limit_route(
        "DELETE",
        "/api/v10/webhooks/",
        5,
        StdDuration::from_secs(300),
    );
    let lock = hold_database(&db, 2500);
    let wrong = fake.command(
        GUILD,
        CHANNEL,
        &carol,
        "move",
        move_options("e5", json!([{ "name": "game", "type": 4, "value": game }])),
    );
    let id = wrong.0;
    let deferred = fake.answer(wrong).await;
    assert_eq!(deferred.json["type"], 5, "{deferred:?}");
    lock.join().unwrap();
    let refusal = fake
        .wait_for(0, |r| {
            r.path.contains(&fake_discord::token(id)) && r.seen == fake_discord::Seen::Author
        })
        .await;
    let refused_text = refusal.all_text();
    assert!(!refused_text.is_empty());
    for request in fake.requests() {
        if request.is_public() {
            let shown = format!("{}\n{}", request.shown, request.all_text());
            assert!(
                !shown.contains("Bb5") && !shown.contains("if add"),
                "public: {shown}"
            );
            assert!(
                !shown.contains(&refused_text),
                "the refusal shown publicly: {shown}"
            );
        }
    }
    print_refused(&fake, "private deferrals");
    bot.stop(&fake).await;
}

/// An interaction replayed after a RESUME, older than Discord's 3
/// seconds, is carried out once and its answer reaches the players as a
/// channel post (a private answer as a direct message); delivered again,
/// it changes nothing and shows nothing twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_interaction_is_done_once_and_its_answer_arrives() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let (alice, bob) = (alice(), bob());
    let game = open_game(&fake, &alice, &bob, "3d").await;
    let mark = fake.request_count();
    let e5 = fake.made_ago(
        fake.command(GUILD, CHANNEL, &bob, "move", move_options("e5", json!([]))),
        StdDuration::from_secs(5),
    );
    let note = fake.made_ago(
        fake.command(
            GUILD,
            CHANNEL,
            &bob,
            "game note",
            json!([{ "name": "text", "type": 3, "value": "watch the knight" }]),
        ),
        StdDuration::from_secs(5),
    );
    fake.reconnect_with(vec![e5.1.clone(), note.1.clone()]);
    let path = format!("/api/v10/channels/{CHANNEL}/messages");
    let posted = fake
        .wait_for(mark, |r| {
            r.path == path && r.status == 200 && r.all_text().contains("bob played e5")
        })
        .await;
    assert!(
        posted.content().contains(&alice.mention()),
        "{}",
        posted.content()
    );
    let noted = fake
        .wait_for(mark, |r| {
            r.status == 200 && r.all_text().contains("Note kept")
        })
        .await;
    assert!(
        !noted.is_public(),
        "a private answer by direct message: {noted:?}"
    );
    let record = bot.service.store().game(game).await.unwrap().unwrap();
    assert_eq!(record.moves.len(), 2);
    assert!(
        !fake.requests()[mark..]
            .iter()
            .any(|r| r.path.contains(&e5.0.to_string())),
        "no response tried for an interaction past its deadline"
    );
    // Delivered once more (another replay): nothing new is shown.
    let before = fake.request_count();
    fake.dispatch(&e5.1);
    tokio::time::sleep(StdDuration::from_secs(2)).await;
    let record = bot.service.store().game(game).await.unwrap().unwrap();
    assert_eq!(record.moves.len(), 2, "e5 once");
    let shown_again = fake.requests()[before..]
        .iter()
        .filter(|r| r.all_text().contains("bob played e5") && !r.repeated && r.status == 200)
        .count();
    assert_eq!(shown_again, 0);
    assert!(fake.resumes() >= 1);
    print_refused(&fake, "late interactions");
    bot.stop(&fake).await;
}

/// Long texts are never cut: a game message whose text is over an embed's
/// 4,096 characters, and a text that fits alone but not with its fenced
/// diagram, arrive whole (in a file), fences unbroken, and Discord takes
/// every request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_texts_and_embeds_arrive_whole() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let (alice, bob) = (alice(), bob());
    let game = open_game(&fake, &alice, &bob, "3d").await;
    let record = bot.service.store().game(game).await.unwrap().unwrap();
    let board = pawnpost::service::BoardView {
        game,
        fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".to_owned(),
        last_move: None,
        orientation: "white".to_owned(),
        white: record.white_player.display_name.clone(),
        black: record.black_player.display_name.clone(),
        flag_at: None,
        result: None,
        white_clock: None,
        black_clock: None,
    };
    let long = format!("First line\n{}\nthe end", "é".repeat(5000));
    let with_board = Reply {
        channel: CHANNEL.to_string(),
        to: Some(alice.id.to_string()),
        text: long.clone(),
        board: Some(board),
        ..Reply::default()
    };
    let nearly = format!("{}\nthe end", "x".repeat(1900));
    let with_diagram = Reply {
        channel: CHANNEL.to_string(),
        to: Some(bob.id.to_string()),
        text: nearly.clone(),
        diagram: Some("8 r n b q k b n r\n".repeat(8)),
        ..Reply::default()
    };
    let mark = fake.request_count();
    for (n, reply) in [with_board, with_diagram].into_iter().enumerate() {
        let id = NoticeId {
            act_key: "long",
            item: n as u32,
            first_part: 0,
        };
        let sent = bot.notifier.send(reply, id).await;
        assert_eq!(sent, pawnpost::service::Sent::Delivered);
    }
    let posts: Vec<Recorded> = fake.requests()[mark..].to_vec();
    assert!(posts.iter().all(|r| r.status == 200), "{posts:?}");
    let everything: String = posts.iter().map(Recorded::text_and_files).collect();
    assert!(everything.contains(&"é".repeat(5000)) && everything.contains("the end"));
    assert!(everything.contains(&"x".repeat(1900)));
    for post in &posts {
        assert_eq!(
            post.content().matches("```").count() % 2,
            0,
            "a broken fence: {}",
            post.content()
        );
        for embed in post.message()["embeds"].as_array().into_iter().flatten() {
            let description = embed["description"].as_str().unwrap_or("");
            assert!(description.chars().count() <= 4096);
        }
    }
    print_refused(&fake, "long texts");
    bot.stop(&fake).await;
}

/// SIGTERM stops a real `pawnpost serve` cleanly: an interaction already
/// taken (waiting for the database) is still answered, the process says it
/// is shutting down and exits 0.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_finishes_what_was_taken_and_exits_zero() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let env = [
        ("DISCORD_TOKEN", "fake-token".to_owned()),
        ("PAWNPOST_DISCORD_API_BASE", fake.api_base()),
        ("RUST_LOG", "info".to_owned()),
    ];
    let mut bot = bot_process::BotProcess::spawn(dir.path(), "serve", &env);
    fake.wait_for_shards(1).await;
    let (alice, bob) = (alice(), bob());
    open_game(&fake, &alice, &bob, "3d").await;
    let lock = hold_database(&dir.path().join("pawnpost.db"), 2500);
    let e5 = fake.command(GUILD, CHANNEL, &bob, "move", move_options("e5", json!([])));
    let id = e5.0;
    let deferred = fake.answer(e5).await;
    assert_eq!(deferred.json["type"], 5, "taken and deferred: {deferred:?}");
    bot.terminate();
    lock.join().unwrap();
    let status = tokio::task::spawn_blocking(move || {
        let status = bot.wait_exit(StdDuration::from_secs(30));
        (status, bot)
    })
    .await
    .unwrap();
    let (status, _bot) = status;
    let status = status.expect("the bot stopped");
    assert_eq!(
        status.code(),
        Some(0),
        "a clean exit, not a signal: {status:?}"
    );
    let filled = fake
        .requests()
        .into_iter()
        .find(|r| r.path.contains(&fake_discord::token(id)) && r.method == "PATCH")
        .expect("the taken interaction answered before the exit");
    assert!(
        filled.all_text().contains("bob played e5"),
        "{}",
        filled.all_text()
    );
    let log = std::fs::read_to_string(dir.path().join("serve.log")).unwrap_or_default();
    assert!(
        log.contains("shutting down") && log.contains("stopped"),
        "{log}"
    );
    print_refused(&fake, "SIGTERM");
}
