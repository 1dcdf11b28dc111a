//! Clubs across platforms (issue 44), through the service on SQLite: a
//! club of a Discord guild and a Matrix space forms only with the consent
//! of each server's moderators, and keeps one standings table, shown alike
//! on both platforms; a linked player is one line in it.

#[path = "common/requests.rs"]
mod requests;

use chrono::{DateTime, TimeZone, Utc};
use pawnpost::core::platform::Platform;
use pawnpost::service::{Moderation, Reply, Request, Service, ServiceConfig};
use pawnpost::storage::sqlite::SqliteStore;
use requests::{RequestExt, request, text};

const GUILD: &str = "1001";
const SPACE: &str = "!space:hs";

fn start() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 5, 1, 12, 0, 0).unwrap()
}

fn discord(user: &str, said: &str) -> Request {
    request(Platform::Discord, GUILD, "2002", user, text(said))
}

fn matrix(user: &str, said: &str) -> Request {
    request(Platform::Matrix, SPACE, "!room:hs", user, text(said))
}

fn all_text(replies: &[Reply]) -> String {
    replies
        .iter()
        .map(|r| r.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

async fn said(service: &Service, act: Request) -> String {
    all_text(&service.handle(act, start()).await)
}

fn service() -> (Service, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(dir.path().join("bot.db")).unwrap();
    (Service::new(store, ServiceConfig::default()), dir)
}

/// Every way to join without both sides' moderators is refused and
/// changes nothing; then the consented way forms the club.
#[tokio::test]
async fn a_club_cannot_be_joined_without_the_other_sides_moderators() {
    let (service, _dir) = service();
    let invite = format!("/club invite matrix {SPACE}");
    let mod_d = |said: &str| discord("dora#1", said).moderating(Moderation::Server);
    let mod_m = |said: &str| matrix("max:hs", said).moderating(Moderation::Server);
    // (the act, what it must say): none of these forms or joins a club.
    let refused = [
        (discord("ann#2", &invite), "Only a moderator"),
        (
            discord("ann#2", &invite).moderating(Moderation::Channel),
            "Only a moderator",
        ),
        (mod_m("/club join 1"), "no invitation to club #1"),
        (matrix("ann:hs", "/club join 1"), "Only a moderator"),
        (
            mod_d(&format!("/club invite discord {GUILD}")),
            "another server than this one",
        ),
    ];
    for (act, expected) in refused {
        let answer = said(&service, act).await;
        assert!(answer.contains(expected), "{answer}");
    }
    assert!(
        said(&service, matrix("ann:hs", "/club servers"))
            .await
            .contains("in no club")
    );
    // The Discord moderator invites: the club is formed with the guild
    // alone; the space is invited, not a member.
    let invited = said(&service, mod_d(&invite)).await;
    assert!(
        invited.contains("Club #1 invites the matrix server !space:hs"),
        "{invited}"
    );
    assert!(
        said(&service, matrix("ann:hs", "/club servers"))
            .await
            .contains("in no club")
    );
    // A player of the space, or a room moderator, still cannot accept.
    for act in [
        matrix("ann:hs", "/club join 1"),
        matrix("max:hs", "/club join 1").moderating(Moderation::Channel),
    ] {
        assert!(said(&service, act).await.contains("Only a moderator"));
    }
    // Another server cannot use the space's invitation.
    let other = request(
        Platform::Matrix,
        "!other:hs",
        "!r2:hs",
        "oz:hs",
        text("/club join 1"),
    )
    .moderating(Moderation::Server);
    assert!(
        said(&service, other)
            .await
            .contains("no invitation to club #1")
    );
    // The space's own moderator accepts.
    let joined = said(&service, mod_m("/club join 1")).await;
    assert!(
        joined.contains("joined club #1, with discord 1001"),
        "{joined}"
    );
    let servers = said(&service, discord("ann#2", "/club servers")).await;
    assert!(servers.contains("discord 1001: member"), "{servers}");
    assert!(servers.contains("matrix !space:hs: member"), "{servers}");
}

/// One standings table: a game on Discord and one on Matrix count in
/// the table each platform shows; a linked player is one line.
#[tokio::test]
async fn a_clubs_standings_are_one_table_on_both_platforms() {
    let (service, _dir) = service();
    let now = start();
    service
        .handle(
            discord("dora#1", &format!("/club invite matrix {SPACE}"))
                .moderating(Moderation::Server),
            now,
        )
        .await;
    service
        .handle(
            matrix("max:hs", "/club join 1").moderating(Moderation::Server),
            now,
        )
        .await;
    // Ann links her accounts; she beats bob on Discord and carl on Matrix.
    let code = all_text(
        &service
            .handle(discord("ann#2", "/link").keyed("k1"), now)
            .await,
    );
    let code = code
        .split_whitespace()
        .find(|w| w.chars().count() == 9 && w.chars().nth(4) == Some('-'))
        .expect("a code")
        .to_owned();
    service
        .handle(matrix("ann:hs", &format!("/link {code}")), now)
        .await;
    for (act, accept, resign) in [
        (
            discord("ann#2", "/challenge @bob#3 color:white"),
            discord("bob#3", "/accept"),
            discord("bob#3", "/resign"),
        ),
        (
            matrix("ann:hs", "/challenge @carl:hs color:white"),
            matrix("carl:hs", "/accept"),
            matrix("carl:hs", "/resign"),
        ),
    ] {
        service.handle(act, now).await;
        service.handle(accept, now).await;
        service.handle(resign, now).await;
    }
    let on_discord = said(&service, discord("bob#3", "/standings")).await;
    let on_matrix = said(&service, matrix("carl:hs", "/standings")).await;
    assert_eq!(on_discord, on_matrix, "one table on both platforms");
    for name in ["ann#2", "bob#3", "carl:hs"] {
        assert!(on_matrix.contains(name), "{name}: {on_matrix}");
    }
    // Ann's two wins are one line (her linked accounts are one player).
    assert_eq!(on_matrix.matches("ann").count(), 1, "{on_matrix}");
    // And one rating, the club's, whichever platform asks.
    for act in [discord("ann#2", "/rating"), matrix("ann:hs", "/rating")] {
        let rating = said(&service, act).await;
        assert!(rating.contains("2 rated games"), "{rating}");
    }
    // A server that quits counts its own games only again.
    service
        .handle(
            matrix("max:hs", "/club quit").moderating(Moderation::Server),
            now,
        )
        .await;
    let alone = said(&service, matrix("carl:hs", "/standings")).await;
    assert!(!alone.contains("bob#3"), "{alone}");
}

/// What one platform's outbox worker sends.
struct Outbox {
    platform: Platform,
    got: std::sync::Mutex<Vec<Reply>>,
}

impl pawnpost::service::Notifier for Outbox {
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
        self.sent_at(service, start()).await
    }

    /// What it sent at `now` since the last call.
    async fn sent_at(&self, service: &Service, now: DateTime<Utc>) -> Vec<Reply> {
        service
            .deliver_notices(self, now, pawnpost::service::BoardImages::Omitted)
            .await;
        std::mem::take(&mut *self.got.lock().unwrap())
    }
}

/// A game between a Matrix member and a Discord member of one club, from
/// challenge to checkmate: each acts from their own channel and is told
/// there, on their own platform (the other side's messages come through
/// that platform's outbox); the result is in the club's one table.
#[tokio::test]
async fn a_matrix_member_and_a_discord_member_play_from_their_own_channels() {
    let (service, _dir) = service();
    let now = start();
    let (to_discord, to_matrix) = (
        Outbox::new(Platform::Discord),
        Outbox::new(Platform::Matrix),
    );
    service
        .handle(
            discord("dora#1", &format!("/club invite matrix {SPACE}"))
                .moderating(Moderation::Server),
            now,
        )
        .await;
    service
        .handle(
            matrix("max:hs", "/club join 1").moderating(Moderation::Server),
            now,
        )
        .await;
    service.handle(discord("bob#3", "/games"), now).await;
    // Carl, on Matrix, challenges Bob, on Discord.
    let challenge = service
        .handle(
            matrix("carl:hs", "/challenge @discord:bob#3 color:white").keyed("m1"),
            now,
        )
        .await;
    assert!(
        challenge.iter().all(|r| r.to.as_deref() != Some("bob#3")),
        "{challenge:?}"
    );
    assert!(
        all_text(&challenge).contains("carl:hs challenges bob#3"),
        "{challenge:?}"
    );
    let dm = to_discord.sent(&service).await;
    assert_eq!(dm.len(), 1, "{dm:?}");
    assert!(
        dm[0].direct && dm[0].to.as_deref() == Some("bob#3"),
        "{dm:?}"
    );
    assert!(dm[0].text.contains("/accept 1"), "{dm:?}");
    // Bob accepts in his Discord channel; Carl's room is told.
    let started = service
        .handle(discord("bob#3", "/accept 1").keyed("d1"), now)
        .await;
    assert!(all_text(&started).contains("Game #1 begins"), "{started:?}");
    assert!(started.iter().all(|r| r.channel == "2002"), "{started:?}");
    let told = to_matrix.sent(&service).await;
    assert!(
        told.iter()
            .any(|r| r.channel == "!room:hs" && r.text.contains("Game #1 begins")),
        "{told:?}"
    );
    // Fool's mate: Carl from his room, Bob from his channel.
    let script = [
        (true, "f3", "m2"),
        (false, "e5", "d2"),
        (true, "g4", "m3"),
        (false, "Qh4#", "d3"),
    ];
    for (carl, mv, key) in script {
        let (act, here, there, outbox, opponent) = if carl {
            (
                matrix("carl:hs", &format!("/move {mv}")),
                "!room:hs",
                "2002",
                &to_discord,
                "bob#3",
            )
        } else {
            (
                discord("bob#3", &format!("/move {mv}")),
                "2002",
                "!room:hs",
                &to_matrix,
                "carl:hs",
            )
        };
        let replies = service.handle(act.keyed(key), now).await;
        assert!(
            replies.iter().all(|r| r.channel == here),
            "{mv}: {replies:?}"
        );
        assert!(all_text(&replies).contains(mv), "{mv}: {replies:?}");
        let other = outbox.sent(&service).await;
        assert!(
            other
                .iter()
                .any(|r| r.channel == there && r.text.contains(mv)),
            "{mv} not told on the other platform: {other:?}"
        );
        if mv != "Qh4#" {
            assert!(
                other.iter().any(|r| r.to.as_deref() == Some(opponent)),
                "{mv}: {opponent} not mentioned on their platform: {other:?}"
            );
        }
    }
    let on_discord = said(&service, discord("bob#3", "/standings")).await;
    let on_matrix = said(&service, matrix("carl:hs", "/standings")).await;
    assert_eq!(on_discord, on_matrix);
    assert!(on_matrix.contains("1. bob#3: 1 point"), "{on_matrix}");
    // Nothing went out twice: the outboxes are empty now.
    assert!(to_discord.sent(&service).await.is_empty());
    assert!(to_matrix.sent(&service).await.is_empty());
}

/// In a game between two platforms, the scheduler's outage credit and
/// reminder reach the player to move on their platform, and the flag fall
/// both sides.
#[tokio::test]
async fn reminders_and_flag_falls_reach_the_other_platform() {
    let (service, _dir) = service();
    let now = start();
    let (to_discord, to_matrix) = (
        Outbox::new(Platform::Discord),
        Outbox::new(Platform::Matrix),
    );
    service
        .handle(
            discord("dora#1", &format!("/club invite matrix {SPACE}"))
                .moderating(Moderation::Server),
            now,
        )
        .await;
    service
        .handle(
            matrix("max:hs", "/club join 1").moderating(Moderation::Server),
            now,
        )
        .await;
    service.handle(discord("bob#3", "/games"), now).await;
    let challenge = "/challenge @discord:bob#3 color:white time:1d";
    service
        .handle(matrix("carl:hs", challenge).keyed("m1"), now)
        .await;
    service
        .handle(discord("bob#3", "/accept 1").keyed("d1"), now)
        .await;
    service
        .handle(matrix("carl:hs", "/move e4").keyed("m2"), now)
        .await;
    service
        .handle(discord("bob#3", "/move e5").keyed("d2"), now)
        .await;
    service
        .handle(matrix("carl:hs", "/move Nf3").keyed("m3"), now)
        .await;
    to_discord.sent(&service).await;
    to_matrix.sent(&service).await;
    // The bot was down half an hour: Bob's clock gets it back, and he is
    // told in his channel.
    service.beat(now).await.unwrap();
    let back = now + chrono::Duration::minutes(30);
    service
        .recover_downtime(back, chrono::Duration::minutes(10))
        .await
        .unwrap();
    let credited = to_discord.sent_at(&service, back).await;
    assert!(
        credited
            .iter()
            .any(|r| r.channel == "2002" && r.to.as_deref() == Some("bob#3")),
        "{credited:?}"
    );
    to_matrix.sent_at(&service, back).await;
    // Bob's reminder (80% of his day used): to him, in his Discord channel.
    let later = now + chrono::Duration::hours(20);
    service.run_due(later).await;
    let reminded = to_discord.sent_at(&service, later).await;
    assert!(
        reminded
            .iter()
            .any(|r| r.channel == "2002" && r.to.as_deref() == Some("bob#3")),
        "{reminded:?}"
    );
    let in_room = to_matrix.sent_at(&service, later).await;
    assert!(
        in_room.iter().all(|r| r.to.as_deref() != Some("bob#3")),
        "{in_room:?}"
    );
    // His flag falls: Carl is told in his room, Bob in his channel.
    let flag = now + chrono::Duration::hours(25);
    service.run_due(flag).await;
    let on_discord = to_discord.sent_at(&service, flag).await;
    let on_matrix = to_matrix.sent_at(&service, flag).await;
    for (sent, channel) in [(&on_discord, "2002"), (&on_matrix, "!room:hs")] {
        assert!(
            sent.iter()
                .any(|r| r.channel == channel && r.text.contains("ran out of time")),
            "{channel}: {sent:?}"
        );
    }
    assert!(on_matrix.iter().any(|r| r.to.as_deref() == Some("carl:hs")));
}

/// A Discord member names a Matrix member with `member:` (Discord's user
/// option holds Discord users only); Carl is told by direct message on
/// Matrix, and accepts from his room.
#[tokio::test]
async fn a_discord_member_challenges_a_matrix_member() {
    let (service, _dir) = service();
    let now = start();
    let to_matrix = Outbox::new(Platform::Matrix);
    service
        .handle(
            discord("dora#1", &format!("/club invite matrix {SPACE}"))
                .moderating(Moderation::Server),
            now,
        )
        .await;
    service
        .handle(
            matrix("max:hs", "/club join 1").moderating(Moderation::Server),
            now,
        )
        .await;
    service.handle(matrix("carl:hs", "/games"), now).await;
    let sent = service
        .handle(
            discord("bob#3", "/challenge member:matrix:carl:hs").keyed("d1"),
            now,
        )
        .await;
    assert!(
        all_text(&sent).contains("bob#3 challenges carl:hs"),
        "{sent:?}"
    );
    let dm = to_matrix.sent(&service).await;
    assert!(
        dm.iter()
            .any(|r| r.direct && r.to.as_deref() == Some("carl:hs")),
        "{dm:?}"
    );
    let started = service
        .handle(matrix("carl:hs", "/accept 1").keyed("m1"), now)
        .await;
    assert!(all_text(&started).contains("Game #1 begins"), "{started:?}");
    // Naming someone the bot never saw on that platform is refused.
    let unknown = service
        .handle(discord("bob#3", "/challenge member:matrix:nobody:hs"), now)
        .await;
    assert!(
        all_text(&unknown).contains("I do not know that player"),
        "{unknown:?}"
    );
}

/// A club of the Discord guild (founded by it) and the Matrix space.
async fn form_club(service: &Service) {
    let invite = format!("/club invite matrix {SPACE}");
    for act in [discord("dora#1", &invite), matrix("max:hs", "/club join 1")] {
        service
            .handle(act.moderating(Moderation::Server), start())
            .await;
    }
}

/// Who moves each ply of a mate by Black (fool's mate) or by White
/// (scholar's mate): (White moves, the move).
const FOOLS_MATE: [(bool, &str); 4] = [(true, "f3"), (false, "e5"), (true, "g4"), (false, "Qh4#")];
const SCHOLARS_MATE: [(bool, &str); 7] = [
    (true, "e4"),
    (false, "e5"),
    (true, "Bc4"),
    (false, "Nc6"),
    (true, "Qh5"),
    (false, "Nf6"),
    (true, "Qxf7#"),
];

/// One player's side of a game between the platforms: how they act, the
/// channel they are told in, and the outbox that tells them when the
/// other side acts.
struct Seat<'a> {
    act: fn(&str, &str) -> Request,
    user: &'static str,
    channel: &'static str,
    outbox: &'a Outbox,
}

/// Plays `script` in game `game` between `white` and `black`: each move
/// is answered in the mover's own channel only, and the other side's
/// outbox tells the other channel.
async fn play(
    service: &Service,
    game: i64,
    (white, black): (&Seat<'_>, &Seat<'_>),
    script: &[(bool, &str)],
) {
    for (ply, (by_white, mv)) in script.iter().enumerate() {
        let (mover, other) = if *by_white {
            (white, black)
        } else {
            (black, white)
        };
        let said = format!("/move {mv} game:{game}");
        let act = (mover.act)(mover.user, &said).keyed(&format!("g{game}p{ply}"));
        let replies = service.handle(act, start()).await;
        assert!(
            replies.iter().all(|r| r.channel == mover.channel),
            "{mv}: {replies:?}"
        );
        assert!(all_text(&replies).contains(mv), "{mv}: {replies:?}");
        let told = other.outbox.sent(service).await;
        assert!(
            told.iter()
                .any(|r| r.channel == other.channel && r.text.contains(mv)),
            "{mv} not told on the other platform: {told:?}"
        );
    }
}

/// The club's one ladder: a Matrix and a Discord player join it from
/// their own platforms and see the same ladder; the Discord player
/// challenges the Matrix rung holder above (`member:matrix:…`), who is
/// told on Matrix and accepts there; the game is played from both sides
/// and the ladder moves, alike on both platforms.
#[tokio::test]
async fn a_clubs_ladder_is_one_ladder_across_platforms() {
    let (service, _dir) = service();
    let (to_discord, to_matrix) = (
        Outbox::new(Platform::Discord),
        Outbox::new(Platform::Matrix),
    );
    form_club(&service).await;
    said(&service, matrix("carl:hs", "/ladder join")).await;
    let joined = said(&service, discord("bob#3", "/ladder join")).await;
    assert!(joined.contains("at place 2"), "{joined}");
    let on_discord = said(&service, discord("bob#3", "/ladder")).await;
    let on_matrix = said(&service, matrix("carl:hs", "/ladder")).await;
    assert_eq!(on_discord, on_matrix, "one ladder on both platforms");
    assert!(on_matrix.contains("1. carl:hs\n2. bob#3"), "{on_matrix}");
    to_discord.sent(&service).await;
    to_matrix.sent(&service).await;
    // Bob challenges Carl, on Matrix: the challenge is told to him there.
    let challenge = service
        .handle(
            discord("bob#3", "/ladder challenge member:matrix:carl:hs").keyed("d1"),
            start(),
        )
        .await;
    assert!(
        all_text(&challenge).contains("bob#3 (place 2) challenges carl:hs (place 1)"),
        "{challenge:?}"
    );
    assert!(
        challenge.iter().all(|r| r.channel == "2002"),
        "{challenge:?}"
    );
    let dm = to_matrix.sent(&service).await;
    assert!(
        dm.iter().any(|r| r.direct
            && r.to.as_deref() == Some("carl:hs")
            && r.text.contains("/accept 1")),
        "{dm:?}"
    );
    let started = service
        .handle(matrix("carl:hs", "/accept 1").keyed("m1"), start())
        .await;
    let begins = all_text(&started);
    assert!(begins.contains("Ladder game #1 begins"), "{started:?}");
    assert!(
        started.iter().all(|r| r.channel == "!room:hs"),
        "{started:?}"
    );
    let told = to_discord.sent(&service).await;
    assert!(
        told.iter()
            .any(|r| r.channel == "2002" && r.text.contains("Ladder game #1 begins")),
        "{told:?}"
    );
    // Bob mates with whichever colour he was given.
    let bob = Seat {
        act: discord,
        user: "bob#3",
        channel: "2002",
        outbox: &to_discord,
    };
    let carl = Seat {
        act: matrix,
        user: "carl:hs",
        channel: "!room:hs",
        outbox: &to_matrix,
    };
    if begins.contains("bob#3 (White)") {
        play(&service, 1, (&bob, &carl), &SCHOLARS_MATE).await;
    } else {
        play(&service, 1, (&carl, &bob), &FOOLS_MATE).await;
    }
    let on_discord = said(&service, discord("bob#3", "/ladder")).await;
    let on_matrix = said(&service, matrix("carl:hs", "/ladder")).await;
    assert_eq!(on_discord, on_matrix);
    assert!(on_matrix.contains("1. bob#3\n2. carl:hs"), "{on_matrix}");
    // A server out of the club keeps its own ladder: empty here.
    let alone = request(
        Platform::Matrix,
        "!other:hs",
        "!r2:hs",
        "oz:hs",
        text("/ladder"),
    );
    assert!(
        said(&service, alone)
            .await
            .contains("Nobody is on the ladder")
    );
}

/// The club's one team list, and a team match between its platforms: a
/// Discord team challenges a Matrix team, which accepts in its room;
/// members of both sign up from their own platforms, the match starts,
/// and a game is played from both sides, each told on its own platform
/// (the other side's copy through that platform's outbox).
#[tokio::test]
async fn a_team_match_is_played_between_the_clubs_platforms() {
    let (service, _dir) = service();
    let (to_discord, to_matrix) = (
        Outbox::new(Platform::Discord),
        Outbox::new(Platform::Matrix),
    );
    form_club(&service).await;
    for act in [
        discord("ann#2", "/team create Rooks"),
        matrix("carl:hs", "/team create Knights"),
    ] {
        service.handle(act, start()).await;
    }
    // One list on both platforms, this server's teams first.
    let on_discord = said(&service, discord("ann#2", "/team list")).await;
    assert!(
        on_discord
            .contains("Rooks (1 member): ann#2\nKnights (1 member): carl:hs (of matrix:!space:hs)"),
        "{on_discord}"
    );
    let on_matrix = said(&service, matrix("carl:hs", "/team list")).await;
    assert!(
        on_matrix
            .contains("Knights (1 member): carl:hs\nRooks (1 member): ann#2 (of discord:1001)"),
        "{on_matrix}"
    );
    // Knights are found on the club's Matrix space without naming it.
    let created = said(
        &service,
        discord("ann#2", "/match create team:Rooks vs:Knights boards:1").keyed("d0"),
    )
    .await;
    assert!(created.contains("Team match #1 proposed"), "{created}");
    // Carl, who made Knights, is told on Matrix.
    let dm = to_matrix.sent(&service).await;
    assert!(
        dm.iter().any(|r| r.direct
            && r.to.as_deref() == Some("carl:hs")
            && r.text.contains("/match accept 1")),
        "{dm:?}"
    );
    let accepted = service
        .handle(matrix("carl:hs", "/match accept 1").keyed("m1"), start())
        .await;
    assert!(
        accepted.iter().all(|r| r.channel == "!room:hs"),
        "{accepted:?}"
    );
    assert!(all_text(&accepted).contains("accepted team match #1"));
    let told = to_discord.sent(&service).await;
    assert!(
        told.iter().any(|r| r.channel == "2002"
            && r.platform == Some(Platform::Discord)
            && r.text.contains("accepted team match #1")),
        "{told:?}"
    );
    said(&service, discord("ann#2", "/match join 1")).await;
    said(&service, matrix("carl:hs", "/match join 1")).await;
    let started = service
        .handle(discord("ann#2", "/match start 1").keyed("d1"), start())
        .await;
    let boards = all_text(&started);
    assert!(boards.contains("Team match #1 starts"), "{started:?}");
    assert!(
        started
            .iter()
            .all(|r| r.channel == "2002" && r.platform == Some(Platform::Discord)),
        "{started:?}"
    );
    let told = to_matrix.sent(&service).await;
    assert!(
        told.iter().any(|r| r.channel == "!room:hs"
            && r.platform == Some(Platform::Matrix)
            && r.text.contains("Team match #1 starts")),
        "{told:?}"
    );
    to_discord.sent(&service).await;
    // Game #1: ann (home) with White, from Discord; carl from his room.
    assert!(
        boards.contains("game #1, ann#2 (1500) with White against carl:hs"),
        "{boards}"
    );
    let ann = Seat {
        act: discord,
        user: "ann#2",
        channel: "2002",
        outbox: &to_discord,
    };
    let carl = Seat {
        act: matrix,
        user: "carl:hs",
        channel: "!room:hs",
        outbox: &to_matrix,
    };
    play(&service, 1, (&ann, &carl), &FOOLS_MATE).await;
    let table = said(&service, matrix("carl:hs", "/match show 1")).await;
    assert!(table.contains("Rooks 0 – 1 Knights"), "{table}");
    // Game #2, carl with White: ann mates, and the match is over; its
    // result is told on each side's platform.
    to_discord.sent(&service).await;
    let mated = service
        .handle(discord("ann#2", "/move f3 game:2").keyed("bad"), start())
        .await;
    assert!(
        !all_text(&mated).contains("f3"),
        "not ann's turn: {mated:?}"
    );
    play(&service, 2, (&carl, &ann), &FOOLS_MATE[..3]).await;
    let last = service
        .handle(discord("ann#2", "/move Qh4# game:2").keyed("end"), start())
        .await;
    assert!(
        last.iter()
            .any(|r| r.channel == "2002" && r.text.contains("Team match #1 is over")),
        "{last:?}"
    );
    assert!(
        last.iter().all(|r| r.platform == Some(Platform::Discord)),
        "{last:?}"
    );
    let over = to_matrix.sent(&service).await;
    for expected in ["Qh4#", "Team match #1 is over"] {
        assert!(
            over.iter()
                .any(|r| r.channel == "!room:hs" && r.text.contains(expected)),
            "{expected}: {over:?}"
        );
    }
    // Nothing went out twice.
    assert!(to_discord.sent(&service).await.is_empty());
    assert!(to_matrix.sent(&service).await.is_empty());
}

/// A team name found on several other servers of the club must be told
/// apart with `server:`; a server of another platform outside the club
/// cannot be named.
#[tokio::test]
async fn a_clubs_match_names_the_server_when_the_team_is_on_several() {
    let (service, _dir) = service();
    form_club(&service).await;
    let third =
        |user: &str, said: &str| request(Platform::Matrix, "!third:hs", "!r3:hs", user, text(said));
    service
        .handle(
            discord("dora#1", "/club invite matrix !third:hs").moderating(Moderation::Server),
            start(),
        )
        .await;
    service
        .handle(
            third("tess:hs", "/club join 1").moderating(Moderation::Server),
            start(),
        )
        .await;
    for act in [
        discord("ann#2", "/team create Rooks"),
        matrix("carl:hs", "/team create Knights"),
        third("tess:hs", "/team create Knights"),
    ] {
        service.handle(act, start()).await;
    }
    // (what ann proposes, what she is told).
    let table = [
        (
            "/match create team:Rooks vs:Knights",
            "Several servers of the club have a team named Knights",
        ),
        (
            "/match create team:Rooks vs:Knights server:matrix:!third:hs",
            "Team match #1 proposed",
        ),
        (
            "/match create team:Rooks vs:Knights server:matrix:!nowhere:hs",
            "I am not in a server matrix:!nowhere:hs",
        ),
        (
            "/match create team:Rooks vs:Bishops",
            "There is no team named Bishops",
        ),
    ];
    for (act, expected) in table {
        let answer = said(&service, discord("ann#2", act)).await;
        assert!(answer.contains(expected), "{act}: {answer}");
    }
}

/// The ladder's scheduler on a club whose ladder is kept by its Discord
/// founder: a challenge made on Matrix and not taken up is forfeited with
/// a notice in the Matrix room, and a Matrix player gone idle is told by
/// direct message on Matrix.
#[tokio::test]
async fn a_clubs_ladder_forfeits_and_idle_players_are_told_on_their_platform() {
    let (service, _dir) = service();
    let (to_discord, to_matrix) = (
        Outbox::new(Platform::Discord),
        Outbox::new(Platform::Matrix),
    );
    form_club(&service).await;
    said(&service, discord("bob#3", "/ladder join")).await;
    said(&service, matrix("carl:hs", "/ladder join")).await;
    let challenge = said(
        &service,
        matrix("carl:hs", "/ladder challenge @discord:bob#3").keyed("m1"),
    )
    .await;
    assert!(challenge.contains("challenges bob#3"), "{challenge}");
    to_discord.sent(&service).await;
    to_matrix.sent(&service).await;
    // Bob lets three days pass: Carl climbs, told in his room.
    let forfeit = start() + chrono::Duration::days(3) + chrono::Duration::hours(1);
    service.run_due(forfeit).await;
    let told = to_matrix.sent_at(&service, forfeit).await;
    assert!(
        told.iter().any(|r| r.channel == "!room:hs"
            && r.text.contains("carl:hs takes place 1 by forfeit")),
        "{told:?}"
    );
    assert!(to_discord.sent_at(&service, forfeit).await.is_empty());
    // A month without a ladder game: Carl drops, told on Matrix.
    let idle = start() + chrono::Duration::days(34);
    service.run_due(idle).await;
    let told = to_matrix.sent_at(&service, idle).await;
    assert!(
        told.iter().any(|r| r.direct
            && r.to.as_deref() == Some("carl:hs")
            && r.text.contains("no ladder game")),
        "{told:?}"
    );
    let ladder = said(&service, discord("bob#3", "/ladder")).await;
    assert!(ladder.contains("1. bob#3\n2. carl:hs"), "{ladder}");
}

/// A club match's scheduler between platforms: each White player is
/// reminded on their own platform, and when their day is over without a
/// first move, both games' ends and the match's result are told in both
/// sides' channels.
#[tokio::test]
async fn a_club_matchs_reminders_and_no_shows_reach_both_platforms() {
    let (service, _dir) = service();
    let (to_discord, to_matrix) = (
        Outbox::new(Platform::Discord),
        Outbox::new(Platform::Matrix),
    );
    form_club(&service).await;
    for act in [
        discord("ann#2", "/team create Rooks"),
        matrix("carl:hs", "/team create Knights"),
        discord(
            "ann#2",
            "/match create team:Rooks vs:Knights boards:1 time:1d",
        ),
        matrix("carl:hs", "/match accept 1"),
        discord("ann#2", "/match join 1"),
        matrix("carl:hs", "/match join 1"),
        discord("ann#2", "/match start 1"),
    ] {
        service.handle(act, start()).await;
    }
    to_discord.sent(&service).await;
    to_matrix.sent(&service).await;
    // Ann has White in game #1, Carl in game #2.
    let later = start() + chrono::Duration::hours(20);
    service.run_due(later).await;
    let on_discord = to_discord.sent_at(&service, later).await;
    let on_matrix = to_matrix.sent_at(&service, later).await;
    for (sent, channel, player) in [
        (&on_discord, "2002", "ann#2"),
        (&on_matrix, "!room:hs", "carl:hs"),
    ] {
        assert!(
            sent.iter()
                .any(|r| r.channel == channel && r.to.as_deref() == Some(player)),
            "{player}: {sent:?}"
        );
    }
    let flag = start() + chrono::Duration::hours(25);
    service.run_due(flag).await;
    let on_discord = to_discord.sent_at(&service, flag).await;
    let on_matrix = to_matrix.sent_at(&service, flag).await;
    for (sent, channel) in [(&on_discord, "2002"), (&on_matrix, "!room:hs")] {
        for expected in [
            "Game #1 is over",
            "Game #2 is over",
            "Team match #1 is over",
        ] {
            assert!(
                sent.iter()
                    .any(|r| r.channel == channel && r.text.contains(expected)),
                "{channel}, {expected}: {sent:?}"
            );
        }
    }
}

/// A linked player has one place on the club's ladder, whichever platform
/// they act from: Ann joins on Discord, is already on it from Matrix, is
/// challenged by her Matrix account and loses her place from there.
#[tokio::test]
async fn a_linked_player_has_one_place_on_the_clubs_ladder() {
    let (service, _dir) = service();
    form_club(&service).await;
    let code = all_text(
        &service
            .handle(discord("ann#2", "/link").keyed("k1"), start())
            .await,
    );
    let code = code
        .split_whitespace()
        .find(|w| w.chars().count() == 9 && w.chars().nth(4) == Some('-'))
        .expect("a code")
        .to_owned();
    said(&service, matrix("ann:hs", &format!("/link {code}"))).await;
    said(&service, discord("ann#2", "/ladder join")).await;
    let again = said(&service, matrix("ann:hs", "/ladder join")).await;
    assert!(again.contains("already on the ladder"), "{again}");
    said(&service, matrix("carl:hs", "/ladder join")).await;
    // Carl challenges Ann's Matrix account: her place is the one at stake.
    let challenged = said(&service, matrix("carl:hs", "/ladder challenge @ann:hs")).await;
    assert!(challenged.contains("(place 1)"), "{challenged}");
    said(&service, matrix("ann:hs", "/accept 1")).await;
    let resigned = said(&service, matrix("ann:hs", "/resign game:1")).await;
    assert!(resigned.contains("resign"), "{resigned}");
    let ladder = said(&service, discord("bob#3", "/ladder")).await;
    assert!(ladder.contains("1. carl:hs\n2. ann#2"), "{ladder}");
    // She leaves it from Matrix: her one place goes.
    said(&service, matrix("ann:hs", "/ladder leave")).await;
    let ladder = said(&service, matrix("carl:hs", "/ladder")).await;
    assert!(!ladder.contains("ann"), "{ladder}");
}
