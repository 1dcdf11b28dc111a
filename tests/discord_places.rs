//! Where Discord games live and what happens to their places: a game in a
//! forum post or a thread keeps it as its channel from the challenge to
//! the flag fall; a deleted channel sends its notices to the players; a
//! guild that removes the bot stops its clocks and gets no request until
//! the bot is back; the bot's permissions (`app_permissions`) choose how a
//! notice goes without a refused request; and a server the bot is not
//! installed in creates nothing. The real serenity client against the fake.

#[path = "common/fake_discord.rs"]
mod fake_discord;
#[path = "common/discord_harness.rs"]
mod harness;

use std::time::{Duration as StdDuration, Instant};

use chrono::Duration;
use fake_discord::{FakeChannel, FakeDiscord, Recorded};
use harness::*;
use pawnpost::core::platform::Platform;
use pawnpost::service::{BoardImages, Input, Moderation, Request, TimeSource, User};
use pawnpost::storage::Status;
use serde_json::json;

const FORUM: u64 = 720_000_000_000_000_001;
const POST: u64 = 720_000_000_000_000_002;

fn posted_in(channel: u64) -> impl Fn(&Recorded) -> bool {
    let path = format!("/api/v10/channels/{channel}/messages");
    move |r: &Recorded| r.method == "POST" && r.path == path && r.status == 200
}

/// Prints what Discord refused during a test (the suite's count).
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

/// Opens a game in `channel` and answers e4 with e5: alice (White) is to
/// move, so her flag falls after a day.
async fn game_to_flag(fake: &FakeDiscord, channel: u64) -> i64 {
    let (alice, bob) = (alice(), bob());
    let game = open_game_in(fake, GUILD, channel, &alice, &bob, "1d").await;
    let e5 = fake.command(GUILD, channel, &bob, "move", move_options("e5", json!([])));
    let answer = send(fake, e5).await;
    assert!(!answer.is_ephemeral(), "{answer:?}");
    game
}

async fn over(bot: &Running, game: i64) -> bool {
    let record = bot.service.store().game(game).await.unwrap().unwrap();
    matches!(record.state, Status::Over { .. })
}

/// A game played in a forum post: the challenge, the moves, the reminder
/// and the flag fall all go to the post (never to the forum, which takes no
/// message), mentioning the player concerned; nothing is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forum_post_game_goes_from_challenge_to_flag_fall_in_its_post() {
    let fake = FakeDiscord::start(1).await;
    fake.forum_post(GUILD, FORUM, POST);
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let (alice, bob) = (alice(), bob());
    let game = game_to_flag(&fake, POST).await;
    let scheduler = Scheduler::start(&bot, &time);

    let mark = fake.request_count();
    time.advance(Duration::hours(20));
    bot.service.deadline_signal().wake();
    let reminder = fake.wait_for(mark, posted_in(POST)).await;
    assert!(
        reminder.content().contains(&alice.mention()),
        "{}",
        reminder.content()
    );
    assert!(
        reminder.all_text().contains(&format!("#{game}")),
        "{}",
        reminder.all_text()
    );

    let mark = fake.request_count();
    time.advance(Duration::hours(5));
    bot.service.deadline_signal().wake();
    let fall = fake.wait_for(mark, posted_in(POST)).await;
    let text = fall.all_text();
    assert!(
        text.contains("alice ran out of time") && text.contains("bob wins"),
        "{text}"
    );
    assert!(
        fall.content().contains(&bob.mention()),
        "{}",
        fall.content()
    );
    assert!(over(&bot, game).await);
    assert!(
        !fake
            .requests()
            .iter()
            .any(|r| r.path.contains(&FORUM.to_string())),
        "nothing went to the forum itself"
    );
    scheduler.stop().await;
    assert_eq!(print_refused(&fake, "forum post"), 0);
    bot.stop(&fake).await;
}

/// In an ordinary thread, a game's notices go to the thread, not to the
/// public channel it hangs from.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_game_s_notices_go_to_the_thread() {
    let fake = FakeDiscord::start(1).await;
    let thread = CHANNEL + 5;
    fake.thread(GUILD, CHANNEL, thread);
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let game = game_to_flag(&fake, thread).await;
    let scheduler = Scheduler::start(&bot, &time);
    let mark = fake.request_count();
    time.advance(Duration::days(2));
    bot.service.deadline_signal().wake();
    let fall = fake.wait_for(mark, posted_in(thread)).await;
    assert!(fall.all_text().contains(&format!("#{game}")));
    tokio::time::sleep(StdDuration::from_millis(300)).await;
    assert!(
        !fake.requests()[mark..].iter().any(posted_in(CHANNEL)),
        "nothing went to the parent channel"
    );
    scheduler.stop().await;
    assert_eq!(print_refused(&fake, "thread"), 0);
    bot.stop(&fake).await;
}

/// The direct-message channel a post went to, and its recipient.
fn recipient(fake: &FakeDiscord, request: &Recorded) -> Option<u64> {
    let channel: u64 = request.path.split('/').nth(4)?.parse().ok()?;
    fake.dm_recipient(channel)
}

/// The forum post is deleted mid-game: both players are told by direct
/// message how to go on, the reminder reaches the player to move and the
/// flag fall reaches both, by direct message, with no request to the
/// deleted post.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_post_s_game_reaches_its_players_directly() {
    let fake = FakeDiscord::start(1).await;
    fake.forum_post(GUILD, FORUM, POST);
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let (alice, bob) = (alice(), bob());
    let game = game_to_flag(&fake, POST).await;
    let scheduler = Scheduler::start(&bot, &time);

    let mark = fake.request_count();
    fake.delete_channel(POST);
    let told = |fake: &FakeDiscord, from: usize, user: u64, words: &str| {
        fake.requests()[from..]
            .iter()
            .filter(|r| r.status == 200 && r.all_text().contains(words))
            .any(|r| recipient(fake, r) == Some(user))
    };
    for user in [&alice, &bob] {
        fake.wait_for(mark, |r| {
            r.status == 200
                && r.all_text().contains("was deleted")
                && recipient(&fake, r) == Some(user.id)
        })
        .await;
    }
    let text = fake.requests()[mark..]
        .iter()
        .find(|r| r.all_text().contains("was deleted"))
        .unwrap()
        .all_text();
    assert!(text.contains(&format!("game:{game}")), "{text}");

    let mark = fake.request_count();
    time.advance(Duration::hours(20));
    bot.service.deadline_signal().wake();
    fake.wait_for(mark, |r| {
        r.status == 200
            && r.all_text().contains("your move")
            && recipient(&fake, r) == Some(alice.id)
    })
    .await;
    let mark = fake.request_count();
    time.advance(Duration::hours(5));
    bot.service.deadline_signal().wake();
    for user in [&alice, &bob] {
        fake.wait_for(mark, |r| {
            r.status == 200
                && r.all_text().contains("ran out of time")
                && recipient(&fake, r) == Some(user.id)
        })
        .await;
    }
    assert!(told(&fake, mark, alice.id, "ran out of time"));
    assert!(over(&bot, game).await);
    scheduler.stop().await;
    assert!(
        !fake
            .requests()
            .iter()
            .any(|r| r.path.contains(&POST.to_string()) && r.is_refused()),
        "no request to the deleted post after it was deleted"
    );
    assert_eq!(print_refused(&fake, "deleted post"), 0);
    bot.stop(&fake).await;
}

/// The bot is removed from the server mid-game: its clock stops, nothing
/// is sent there for three days; added back, it says so in the post and
/// the game goes on to a reminder and a flag fall that count from the
/// return, not from before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_removed_bot_stops_the_clocks_and_resumes_them_when_added_back() {
    let fake = FakeDiscord::start(1).await;
    fake.forum_post(GUILD, FORUM, POST);
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let (alice, bob) = (alice(), bob());
    let game = game_to_flag(&fake, POST).await;
    let scheduler = Scheduler::start(&bot, &time);

    let away = fake.request_count();
    fake.remove_bot(GUILD);
    // The bot hears of it on the gateway: a moment, then the clock jumps.
    tokio::time::sleep(StdDuration::from_secs(1)).await;
    time.advance(Duration::days(3));
    bot.service.deadline_signal().wake();
    tokio::time::sleep(StdDuration::from_secs(1)).await;
    assert!(
        !over(&bot, game).await,
        "no flag falls while the bot is away"
    );
    assert_eq!(fake.request_count(), away, "no request while away");

    fake.add_bot(GUILD);
    let back = fake.wait_for(away, posted_in(POST)).await;
    assert!(back.all_text().contains("is back"), "{}", back.all_text());
    assert!(
        back.content().contains(&alice.mention()),
        "{}",
        back.content()
    );
    let mark = fake.request_count();
    time.advance(Duration::hours(20));
    bot.service.deadline_signal().wake();
    let reminder = fake.wait_for(mark, posted_in(POST)).await;
    assert!(
        reminder.all_text().contains("your move"),
        "{}",
        reminder.all_text()
    );
    assert!(!over(&bot, game).await, "the time away was not charged");
    let mark = fake.request_count();
    time.advance(Duration::hours(5));
    bot.service.deadline_signal().wake();
    let fall = fake.wait_for(mark, posted_in(POST)).await;
    assert!(
        fall.all_text().contains("ran out of time"),
        "{}",
        fall.all_text()
    );
    assert!(
        fall.content().contains(&bob.mention()),
        "{}",
        fall.content()
    );
    assert!(over(&bot, game).await);
    scheduler.stop().await;
    assert_eq!(print_refused(&fake, "removed and back"), 0);
    bot.stop(&fake).await;
}

/// Guild `k` of the thousand, and its one channel and players.
fn guild(k: u64) -> u64 {
    730_000_000_000_000_000 + (k << 22)
}

fn act(k: u64, user: u64, text: &str) -> Request {
    Request {
        platform: Platform::Discord,
        server: guild(k).to_string(),
        channel: (guild(k) + 1).to_string(),
        user: User {
            id: user.to_string(),
            name: format!("player{user}"),
            locale: None,
            moderation: Moderation::None,
        },
        key: None,
        input: Input::Text(text.to_owned()),
        board_images: BoardImages::Omitted,
    }
}

/// A bot in 1,000 guilds, 500 of which remove it: when every game's flag
/// falls, the 500 guilds it is in get their notices and the 500 it left
/// get no request at all (their games wait, clocks stopped); no request is
/// refused. A team match naming a server the bot left is refused too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_removed_from_500_of_1000_guilds_sends_them_nothing() {
    const GUILDS: u64 = 1000;
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let began = Instant::now();
    for k in 0..GUILDS {
        let (white, black) = (
            600_000_000_000_000_000 + 2 * k,
            600_000_000_000_000_001 + 2 * k,
        );
        let challenge = format!("/challenge @{black} color:white time:1d");
        for (user, text) in [
            (white, challenge.as_str()),
            (black, "/accept"),
            (white, "/move e4"),
            (black, "/move e5"),
        ] {
            let replies = bot.service.handle(act(k, user, text), time.now()).await;
            assert!(replies.iter().all(|r| !r.ephemeral), "{text}: {replies:?}");
        }
    }
    println!(
        "{GUILDS} games in {GUILDS} guilds made in {:?}",
        began.elapsed()
    );
    let mark = fake.request_count();
    for k in (0..GUILDS).filter(|k| k % 2 == 1) {
        fake.remove_bot(guild(k));
    }
    tokio::time::sleep(StdDuration::from_secs(2)).await;
    let scheduler = Scheduler::start(&bot, &time);
    time.advance(Duration::days(2));
    bot.service.deadline_signal().wake();
    let began = Instant::now();
    let present = |k: u64| posted_in(guild(k) + 1);
    for k in (0..GUILDS).filter(|k| k % 2 == 0) {
        fake.wait_for_within(mark, StdDuration::from_secs(120), present(k))
            .await;
    }
    println!("500 flag falls posted in {:?}", began.elapsed());
    tokio::time::sleep(StdDuration::from_secs(1)).await;
    let to_removed = fake.requests()[mark..]
        .iter()
        .filter(|r| {
            let channel = r.path.split('/').nth(4).and_then(|c| c.parse::<u64>().ok());
            channel.is_some_and(|c| ((c - 1 - 730_000_000_000_000_000) >> 22) % 2 == 1)
        })
        .count();
    assert_eq!(to_removed, 0, "no request to a guild that removed the bot");
    assert_eq!(print_refused(&fake, "1,000 guilds"), 0);

    // A cross-server team match refuses a server the bot left.
    let mut captain = act(0, 600_000_000_000_000_000, "/team create Rooks");
    captain.key = Some("team-rooks".to_owned());
    bot.service.handle(captain, time.now()).await;
    let away = act(1, 600_000_000_000_000_002, "/team create Knights");
    bot.service.handle(away, time.now()).await;
    let proposal = format!("/match create team:Rooks vs:Knights server:{}", guild(1));
    let refused = bot
        .service
        .handle(act(0, 600_000_000_000_000_000, &proposal), time.now())
        .await;
    assert!(refused[0].ephemeral, "{refused:?}");
    assert!(
        refused[0].text.contains("not in a server"),
        "{}",
        refused[0].text
    );
    scheduler.stop().await;
    bot.stop(&fake).await;
}

/// `app_permissions` decide before any request: a channel without Attach
/// Files gets the flag fall as text with the board drawn in it, one
/// without Send Messages gets it by direct message; nothing is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn app_permissions_choose_the_delivery_without_a_refused_request() {
    let fake = FakeDiscord::start(1).await;
    let (no_files, no_send) = (CHANNEL + 1, CHANNEL + 2);
    for (channel, missing) in [
        (no_files, fake_discord::ATTACH_FILES),
        (no_send, fake_discord::SEND_MESSAGES),
    ] {
        let mut known = FakeChannel::text(GUILD);
        known.permissions = fake_discord::ALL_PERMISSIONS & !missing;
        fake.add_channel(channel, known);
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let first = game_to_flag(&fake, no_files).await;
    let second = game_to_flag(&fake, no_send).await;
    let scheduler = Scheduler::start(&bot, &time);
    let mark = fake.request_count();
    time.advance(Duration::days(2));
    bot.service.deadline_signal().wake();
    let text = fake.wait_for(mark, posted_in(no_files)).await;
    assert!(
        text.files.is_empty() && text.content().contains("```"),
        "{text:?}"
    );
    assert!(text.all_text().contains(&format!("#{first}")));
    let direct = fake
        .wait_for(mark, |r| {
            r.status == 200
                && r.all_text().contains(&format!("#{second}"))
                && recipient(&fake, r).is_some()
        })
        .await;
    let to = recipient(&fake, &direct);
    assert!(to == Some(alice().id) || to == Some(bob().id), "{to:?}");
    scheduler.stop().await;
    assert_eq!(print_refused(&fake, "app_permissions"), 0);
    // The accepted challenges' buttons went with the clicks' own answers
    // (UPDATE_MESSAGE), not through the channel.
    let update = fake
        .requests()
        .into_iter()
        .find(|r| r.path.ends_with("/callback") && r.json["type"] == 7)
        .expect("an UPDATE_MESSAGE answer");
    assert_eq!(update.json["data"]["components"], json!([]), "{update:?}");
    assert!(
        !fake
            .requests()
            .iter()
            .any(|r| r.method == "PATCH" && r.path.contains("/channels/")),
        "no channel edit"
    );
    bot.stop(&fake).await;
}

/// The commands are for servers the bot is installed in (`integration_types:
/// [0]`), and an interaction from a server where only a user installed the
/// app is answered with why, creating nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_the_bot_installed_creates_nothing() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let registered = fake
        .wait_for(0, |r| r.method == "PUT" && r.path.ends_with("/commands"))
        .await;
    for command in registered.json.as_array().unwrap() {
        assert_eq!(
            command["integration_types"],
            json!([0]),
            "{}",
            command["name"]
        );
        assert_eq!(command["contexts"], json!([0]), "{}", command["name"]);
    }
    let (alice, bob) = (alice(), bob());
    fake.know(&bob);
    let challenge = fake.command(
        GUILD,
        CHANNEL,
        &alice,
        "play challenge",
        json!([{ "name": "user", "type": 6, "value": bob.id.to_string() }]),
    );
    let answer = send(&fake, fake.user_installed(challenge, &alice)).await;
    assert!(answer.is_ephemeral(), "{answer:?}");
    assert!(
        answer.content().contains("not installed"),
        "{}",
        answer.content()
    );
    let server = bot
        .service
        .store()
        .find_server(Platform::Discord, &GUILD.to_string())
        .await
        .unwrap();
    assert!(server.is_none(), "nothing was created: {server:?}");
    bot.stop(&fake).await;
}

/// A move sent from another channel of the server (issue 42) is posted in
/// the game's channel, with the opponent's mention and the board; the
/// mover's answer is a private line pointing to that channel.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_sent_from_another_channel_is_posted_in_the_game_s_channel() {
    const SIDE: u64 = 710_000_000_000_000_042;
    let fake = FakeDiscord::start(1).await;
    fake.add_channel(SIDE, FakeChannel::text(GUILD));
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let (alice, bob) = (alice(), bob());
    let game = open_game(&fake, &alice, &bob, "3d").await;

    let mark = fake.request_count();
    let options = move_options("e5", json!([{ "name": "game", "type": 4, "value": game }]));
    let answer = send(&fake, fake.command(GUILD, SIDE, &bob, "move", options)).await;
    assert!(answer.is_ephemeral(), "{answer:?}");
    assert!(
        answer.content().contains(&format!("<#{CHANNEL}>")),
        "{}",
        answer.content()
    );
    let posted = fake.wait_for(mark, posted_in(CHANNEL)).await;
    assert!(
        posted
            .all_text()
            .contains(&format!("bob played e5 in game #{game}")),
        "{}",
        posted.all_text()
    );
    assert!(
        posted.content().contains(&alice.mention()),
        "{}",
        posted.content()
    );
    assert_board_attached(&posted);
    assert!(
        !fake.requests().iter().skip(mark).any(posted_in(SIDE)),
        "nothing public in the side channel"
    );
    assert_eq!(print_refused(&fake, "move from elsewhere"), 0);
    bot.stop(&fake).await;
}
