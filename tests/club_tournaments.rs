//! A club's tournaments across platforms (issue 44), through the service on
//! SQLite: a tournament of a Discord guild is listed on the club's Matrix
//! space, joined from a Matrix room, paired across platforms, played from
//! each side's own channel and finished on both; each platform's outbox
//! delivers what is for it, once.

#[path = "common/requests.rs"]
mod requests;

use chrono::{DateTime, TimeZone, Utc};
use pawnpost::core::platform::Platform;
use pawnpost::service::{
    BoardImages, Moderation, Notifier, Reply, Request, Service, ServiceConfig,
};
use pawnpost::storage::sqlite::SqliteStore;
use requests::{RequestExt, request, text};

const GUILD: &str = "1001";
const SPACE: &str = "!space:hs";
const CHANNEL: &str = "2002";
const ROOM: &str = "!room:hs";

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 5, 1, 12, 0, 0).unwrap()
}

fn discord(user: &str, said: &str) -> Request {
    request(Platform::Discord, GUILD, CHANNEL, user, text(said))
}

fn matrix(user: &str, said: &str) -> Request {
    request(Platform::Matrix, SPACE, ROOM, user, text(said))
}

fn all_text(replies: &[Reply]) -> String {
    let texts: Vec<&str> = replies.iter().map(|r| r.text.as_str()).collect();
    texts.join("\n")
}

/// What one platform's outbox worker sends.
struct Outbox {
    platform: Platform,
    got: std::sync::Mutex<Vec<Reply>>,
}

impl Notifier for Outbox {
    fn platform(&self) -> Platform {
        self.platform
    }

    async fn deliver(&self, replies: Vec<Reply>) {
        self.got.lock().unwrap().extend(replies);
    }
}

impl Outbox {
    fn new(platform: Platform) -> Outbox {
        Outbox {
            platform,
            got: std::sync::Mutex::default(),
        }
    }

    /// What it sent since the last call.
    async fn sent(&self, service: &Service) -> Vec<Reply> {
        service
            .deliver_notices(self, now(), BoardImages::Omitted)
            .await;
        std::mem::take(&mut *self.got.lock().unwrap())
    }
}

/// A service over a fresh file with a club of the guild and the space.
async fn club() -> (Service, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(dir.path().join("bot.db")).unwrap();
    let service = Service::new(store, ServiceConfig::default());
    let invite = discord("dora#1", &format!("/club invite matrix {SPACE}"));
    service
        .handle(invite.moderating(Moderation::Server), now())
        .await;
    let join = matrix("max:hs", "/club join 1").moderating(Moderation::Server);
    service.handle(join, now()).await;
    (service, dir)
}

/// The games `reply` names: (id, White, Black), from its
/// "game #N, white (White) – black (Black)" lines.
fn games_named(reply: &Reply) -> Vec<(u32, String, String)> {
    let mut games = Vec::new();
    for line in reply.text.lines() {
        let Some((_, rest)) = line.split_once("game #") else {
            continue;
        };
        let (id, players) = rest.split_once(", ").unwrap();
        let (white, black) = players.split_once(" (White) – ").unwrap();
        let black = black.trim_end_matches(" (Black).");
        games.push((id.parse().unwrap(), white.to_owned(), black.to_owned()));
    }
    games
}

/// The act of `player` (a Discord or a Matrix user) saying `said`.
fn act_of(player: &str, said: &str) -> Request {
    match player.ends_with(":hs") {
        true => matrix(player, said),
        false => discord(player, said),
    }
}

/// Discord's Ann and Bob and Matrix's Carl and Lena play a round robin of
/// the guild: Carl and Lena join from their room, every game is played
/// from each player's own channel, and the end is told on both platforms.
#[tokio::test]
async fn a_discord_tournament_is_joined_and_played_from_matrix() {
    let (service, _dir) = club().await;
    let (to_discord, to_matrix) = (
        Outbox::new(Platform::Discord),
        Outbox::new(Platform::Matrix),
    );
    let create = discord("dora#1", "/tournament create round_robin name:Club tc:3d");
    let created = all_text(&service.handle(create, now()).await);
    assert!(created.contains("#1"), "{created}");
    // The space's members see it in the club's list, marked as the guild's.
    let listed = all_text(
        &service
            .handle(matrix("carl:hs", "/tournament list"), now())
            .await,
    );
    assert!(listed.contains("#1 « Club »"), "{listed}");
    assert!(listed.contains("club server discord 1001"), "{listed}");
    let french = matrix("lena:hs", "/tournoi liste").locale("fr");
    let listed = all_text(&service.handle(french, now()).await);
    assert!(
        listed.contains("0 joueur,"),
        "zero reads as a number, singular in French: {listed}"
    );
    // Two join on each platform, each where they play.
    for (n, player) in ["ann#2", "bob#3", "carl:hs", "lena:hs"].iter().enumerate() {
        let joined = service
            .handle(
                act_of(player, "/tournament join #1").keyed(&format!("j{n}")),
                now(),
            )
            .await;
        assert!(all_text(&joined).contains("joined"), "{player}: {joined:?}");
    }
    // A server outside the club sees nothing and cannot join.
    let outsider = request(
        Platform::Matrix,
        "!else:hs",
        "!r:hs",
        "oz:hs",
        text("/tournament join #1"),
    );
    let refused = all_text(&service.handle(outsider, now()).await);
    assert!(refused.contains("no tournament"), "{refused}");

    let started = service
        .handle(discord("dora#1", "/tournament start #1").keyed("s1"), now())
        .await;
    assert!(started.iter().all(|r| r.channel == CHANNEL), "{started:?}");
    assert!(all_text(&started).contains("has started"), "{started:?}");
    // The Matrix side hears the start in its room, and each of its players
    // their own games; nothing for Matrix is sent by the Discord act.
    let heard = to_matrix.sent(&service).await;
    assert!(heard.iter().all(|r| r.channel == ROOM), "{heard:?}");
    assert!(
        heard.iter().any(|r| r.text.contains("has started")),
        "{heard:?}"
    );
    let mut games = Vec::new();
    for player in ["carl:hs", "lena:hs"] {
        let own = heard
            .iter()
            .find(|r| r.to.as_deref() == Some(player))
            .unwrap_or_else(|| panic!("{player} not told: {heard:?}"));
        games.extend(games_named(own));
    }
    for player in ["ann#2", "bob#3"] {
        let own = started
            .iter()
            .find(|r| r.to.as_deref() == Some(player))
            .unwrap();
        games.extend(games_named(own));
    }
    games.sort();
    games.dedup();
    assert_eq!(games.len(), 6, "a round robin of four: {games:?}");
    assert!(to_discord.sent(&service).await.is_empty());

    // Black resigns every game, from their own platform and channel; what
    // each platform shows is what its act answered or its outbox sent.
    let (mut on_discord, mut on_matrix) = (Vec::new(), Vec::new());
    for (id, white, black) in &games {
        let resign = act_of(black, &format!("/resign game:{id}")).keyed(&format!("r{id}"));
        let answered = service.handle(resign, now()).await;
        let (here, mine) = match black.ends_with(":hs") {
            true => (ROOM, &mut on_matrix),
            false => (CHANNEL, &mut on_discord),
        };
        assert!(
            answered.iter().all(|r| r.channel == here),
            "{id}: {answered:?}"
        );
        assert!(all_text(&answered).contains("resign"), "{id}: {answered:?}");
        mine.extend(answered);
        let before = (on_discord.len(), on_matrix.len());
        on_discord.extend(to_discord.sent(&service).await);
        on_matrix.extend(to_matrix.sent(&service).await);
        // White is told where they play.
        let (told, there) = match white.ends_with(":hs") {
            true => (&on_matrix[before.1..], ROOM),
            false => (&on_discord[before.0..], CHANNEL),
        };
        if black.ends_with(":hs") != white.ends_with(":hs") {
            assert!(
                told.iter()
                    .any(|r| r.channel == there && r.text.contains("resign")),
                "{id}: {white} not told: {told:?}"
            );
        }
    }
    // The end is said in the guild's channel and in the Matrix room.
    for (seen, channel) in [(&on_discord, CHANNEL), (&on_matrix, ROOM)] {
        assert!(
            seen.iter()
                .any(|r| r.channel == channel && r.text.contains("is over")),
            "{channel}: {seen:?}"
        );
    }
    assert!(to_discord.sent(&service).await.is_empty(), "nothing twice");
    assert!(to_matrix.sent(&service).await.is_empty(), "nothing twice");
    let standings_d = all_text(
        &service
            .handle(discord("ann#2", "/tournament standings #1"), now())
            .await,
    );
    let standings_m = all_text(
        &service
            .handle(matrix("lena:hs", "/tournament standings #1"), now())
            .await,
    );
    assert_eq!(standings_d, standings_m, "one crosstable on both platforms");
    for name in ["ann#2", "bob#3", "carl:hs", "lena:hs"] {
        assert!(standings_m.contains(name), "{name}: {standings_m}");
    }
    let list = all_text(
        &service
            .handle(matrix("carl:hs", "/tournament list"), now())
            .await,
    );
    assert!(
        !list.contains("« Club »"),
        "a finished tournament is not listed: {list}"
    );
    // The club's one table has the results on both platforms.
    let table_d = all_text(&service.handle(discord("bob#3", "/standings"), now()).await);
    let table_m = all_text(&service.handle(matrix("carl:hs", "/standings"), now()).await);
    assert_eq!(table_d, table_m);
    assert!(table_m.contains("lena:hs"), "{table_m}");
}

/// What each platform showed: what its acts answered and its outbox sent.
#[derive(Default)]
struct Seen {
    discord: Vec<Reply>,
    matrix: Vec<Reply>,
}

impl Seen {
    /// Carries out `act` at `at`, then lets both outboxes deliver.
    async fn act(&mut self, service: &Service, act: Request, at: DateTime<Utc>) {
        let platform = act.platform;
        let answered = service.handle(act, at).await;
        match platform {
            Platform::Matrix => self.matrix.extend(answered),
            _ => self.discord.extend(answered),
        }
        self.deliver(service, at).await;
    }

    async fn deliver(&mut self, service: &Service, at: DateTime<Utc>) {
        for (platform, seen) in [
            (Platform::Discord, &mut self.discord),
            (Platform::Matrix, &mut self.matrix),
        ] {
            let outbox = Outbox::new(platform);
            service
                .deliver_notices(&outbox, at, BoardImages::Omitted)
                .await;
            seen.extend(std::mem::take(&mut *outbox.got.lock().unwrap()));
        }
    }

    /// The games of round `round` that `player` was told of where they play.
    fn games_of(&self, player: &str, round: u32) -> Vec<(u32, String, String)> {
        let (seen, channel) = match player.ends_with(":hs") {
            true => (&self.matrix, ROOM),
            false => (&self.discord, CHANNEL),
        };
        let needle = format!("round {round}:");
        seen.iter()
            .filter(|r| r.channel == channel && r.to.as_deref() == Some(player))
            .filter(|r| r.text.starts_with("Your games"))
            .flat_map(|r| {
                r.text
                    .lines()
                    .filter(|l| l.contains(&needle))
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            })
            .flat_map(|line| {
                games_named(&Reply {
                    text: line,
                    ..Reply::default()
                })
            })
            .collect()
    }
}

/// A Swiss of the guild that starts by itself: its start, and its second
/// round paired by a result given on Matrix, reach each player where they
/// play, on their platform.
#[tokio::test]
async fn a_club_swiss_starts_by_itself_and_pairs_its_rounds_across_platforms() {
    let (service, _dir) = club().await;
    let mut seen = Seen::default();
    let create = discord(
        "dora#1",
        "/tournament create swiss rounds:2 entry:1 name:Open",
    );
    seen.act(&service, create.keyed("c"), now()).await;
    for (n, player) in ["ann#2", "bob#3", "carl:hs", "lena:hs"].iter().enumerate() {
        let join = act_of(player, "/tournament join #1").keyed(&format!("j{n}"));
        seen.act(&service, join, now()).await;
    }
    // The scheduler starts it a day later.
    let later = now() + chrono::Duration::days(1) + chrono::Duration::minutes(1);
    service.run_due(later).await;
    seen.deliver(&service, later).await;
    for round in 1..=2 {
        let mut games = Vec::new();
        for player in ["ann#2", "bob#3", "carl:hs", "lena:hs"] {
            let own = seen.games_of(player, round);
            assert_eq!(
                own.len(),
                1,
                "{player}, round {round}: {:?}",
                (&seen.discord, &seen.matrix)
            );
            games.extend(own);
        }
        games.sort();
        games.dedup();
        assert_eq!(games.len(), 2, "round {round}: {games:?}");
        // Each player lists their game where they play.
        for (id, white, black) in &games {
            for player in [white, black] {
                let listed = service.handle(act_of(player, "/games"), later).await;
                assert!(
                    all_text(&listed).contains(&format!("#{id}")),
                    "{player}: {listed:?}"
                );
            }
        }
        if round == 2 {
            break;
        }
        for (id, _, black) in games {
            let resign = act_of(&black, &format!("/resign game:{id}")).keyed(&format!("r{id}"));
            seen.act(&service, resign, later).await;
        }
    }
    // Round 2 ends by the flags the scheduler makes fall (White never moves).
    let flags = later + chrono::Duration::days(30);
    service.run_due(flags).await;
    seen.deliver(&service, flags).await;
    for (seen, channel) in [(&seen.discord, CHANNEL), (&seen.matrix, ROOM)] {
        assert!(
            seen.iter()
                .any(|r| r.channel == channel && r.text.contains("is over")),
            "{channel}: {seen:?}"
        );
    }
}

/// Ten times a big club: a Swiss of 400, half joined from the Matrix room,
/// starts with one message per player where they play and one copy of the
/// start per channel, each platform's share sent once by its own side.
#[tokio::test]
async fn a_club_swiss_of_four_hundred_starts_on_both_platforms() {
    let (service, _dir) = club().await;
    let mut seen = Seen::default();
    let create = discord("dora#1", "/tournament create swiss rounds:9 name:Big");
    seen.act(&service, create.keyed("c"), now()).await;
    let players: Vec<String> = (0..400)
        .map(|n| match n % 2 {
            0 => format!("d{n}#1"),
            _ => format!("m{n}:hs"),
        })
        .collect();
    for (n, player) in players.iter().enumerate() {
        let join = act_of(player, "/tournament join #1").keyed(&format!("j{n}"));
        service.handle(join, now()).await;
    }
    let clock = std::time::Instant::now();
    seen.act(
        &service,
        discord("dora#1", "/tournament start #1").keyed("s"),
        now(),
    )
    .await;
    eprintln!(
        "a 400-player club Swiss started and was delivered in {:?}",
        clock.elapsed()
    );
    for (platform_seen, channel, suffix) in
        [(&seen.discord, CHANNEL, "#1"), (&seen.matrix, ROOM, ":hs")]
    {
        let own: Vec<&Reply> = platform_seen
            .iter()
            .filter(|r| r.text.starts_with("Your games"))
            .collect();
        assert_eq!(own.len(), 200, "{channel}: one message per player");
        assert!(own.iter().all(|r| r.channel == channel));
        assert!(
            own.iter()
                .all(|r| r.to.as_deref().is_some_and(|to| to.ends_with(suffix)))
        );
        let starts = platform_seen
            .iter()
            .filter(|r| r.channel == channel && r.text.contains("has started"))
            .count();
        assert_eq!(starts, 1, "{channel}: the start once");
    }
}
