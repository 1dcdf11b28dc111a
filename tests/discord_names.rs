//! Hostile names on Discord (issue 42): tournaments created with markup in
//! their names and players whose display names are markup are shown
//! literally in every answer and announcement (escaped, no masked link,
//! spoiler, emphasis, code or mention left active), and names that hide
//! text are refused at creation, in English and in French. The real
//! serenity client against the fake.

#[path = "common/fake_discord.rs"]
mod fake_discord;
#[path = "common/discord_harness.rs"]
mod harness;

use std::time::Duration as StdDuration;

use fake_discord::{FakeDiscord, FakeUser, Recorded};
use harness::*;
use pawnpost::adapters::discord::markdown::escape;
use serde_json::{Value, json};

/// The hostile names of issue 42 that can be typed: each must show as typed.
const HOSTILE: &[&str] = &[
    "[Free Nitro](https://evil.example) @everyone ||x||",
    "[x](https://evil.example)",
    "||x||",
    "@everyone",
    "@here",
    "<@&1234>",
    "<@1>",
    "**bold**",
    "`code`",
    "> quote",
    "# heading",
    "<b>x</b>",
    "<a href=\"https://evil.example\">x</a>",
    "&amp;",
    "@room",
    "__x__ ~~y~~ \\*",
];

/// Names that hide or turn text around, refused at creation.
const HIDDEN: &[(&str, &str)] = &[
    ("evil\u{202E}gnp.exe", "U+202E"),
    ("al\u{200B}ice", "U+200B"),
    ("a\u{2066}b\u{2069}", "U+2066"),
    ("bell\u{7}", "U+0007"),
    ("\u{FEFF}bom", "U+FEFF"),
];

/// Players whose display names are markup.
fn hostile_players() -> Vec<FakeUser> {
    [
        "**bob**",
        "<@&1234>",
        "@here",
        "||carol||",
        "[dan](https://evil.example)",
    ]
    .iter()
    .zip(1u64..)
    .map(|(name, k)| FakeUser::new(560_000_000_000_000_000 + k, name))
    .collect()
}

/// `name` escaped as it stands inside a line (a line's `#` or `>` only
/// formats at its start).
fn inline_escaped(name: &str) -> String {
    escape(&format!("x {name}"))[2..].to_owned()
}

fn create(name: &str) -> Value {
    json!([
        { "name": "system", "type": 3, "value": "round_robin" },
        { "name": "name", "type": 3, "value": name },
        { "name": "rated", "type": 5, "value": false },
    ])
}

/// Whether Discord would act on markup in `text`: a formatting character
/// without its backslash (the bot's own `<@id>` mentions and `<t:…>`
/// timestamps aside), a line opened by a heading, quote or list mark, or a
/// mass mention. `None` when all of it reads literally.
fn active_markup(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let slashes = chars[..i].iter().rev().take_while(|&&b| b == '\\').count();
        let escaped = slashes % 2 == 1;
        let rest: String = chars[i..].iter().take(24).collect();
        let bots_own = rest.starts_with("<t:")
            || rest
                .strip_prefix("<@")
                .and_then(|r| r.split_once('>'))
                .is_some_and(|(id, _)| id.len() > 10 && id.chars().all(|d| d.is_ascii_digit()));
        if "*_~|`[]<".contains(c) && !escaped && !bots_own {
            return Some(format!("bare {c:?} at {rest:?}"));
        }
        let line_start = chars[..i].iter().rev().take_while(|&&b| b == ' ').count() == i
            || chars[..i].iter().rev().find(|&&b| b != ' ') == Some(&'\n');
        if line_start && "#>-+".contains(c) && !escaped {
            return Some(format!("a line opened by {c:?}: {rest:?}"));
        }
    }
    ["@everyone", "@here"]
        .iter()
        .find(|mass| text.contains(*mass))
        .map(|mass| format!("{mass} intact"))
}

/// Everything the channel can read from `from` on, once the bot is quiet.
async fn settled_public(fake: &FakeDiscord, from: usize) -> Vec<Recorded> {
    let mut seen = 0;
    loop {
        tokio::time::sleep(StdDuration::from_millis(400)).await;
        let now = fake.request_count();
        if now == seen {
            break;
        }
        seen = now;
    }
    fake.requests()[from..]
        .iter()
        .filter(|r| r.is_public() && r.status < 300)
        .cloned()
        .collect()
}

/// Each hostile name as a tournament's name: the answer names it escaped,
/// and nothing in it is active markup.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_tournament_names_are_shown_literally() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    for name in HOSTILE {
        let answer = send(
            &fake,
            fake.command(GUILD, CHANNEL, &alice(), "tournament create", create(name)),
        )
        .await;
        let text = answer.all_text();
        assert!(!answer.is_ephemeral(), "{name:?} refused: {text}");
        assert!(
            text.contains(&format!("« {} »", inline_escaped(name))),
            "{name:?}: {text}"
        );
        assert_eq!(active_markup(&text), None, "{name:?}: {text}");
        let parse = &answer.message()["allowed_mentions"]["parse"];
        assert!(parse.as_array().is_none_or(Vec::is_empty), "{parse}");
    }
    bot.stop(&fake).await;
}

/// A tournament named with every trick, joined by players named with
/// markup, then started: its announcements (the start, each round's
/// pairings, each player's games) name them all escaped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hostile_tournament_s_announcements_are_literal() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let name = HOSTILE[0];
    send(
        &fake,
        fake.command(GUILD, CHANNEL, &alice(), "tournament create", create(name)),
    )
    .await;
    let players = hostile_players();
    for player in players.iter().chain([&alice()]) {
        let joined = send(
            &fake,
            fake.command(GUILD, CHANNEL, player, "tournament join", json!([])),
        )
        .await;
        assert!(!joined.is_ephemeral(), "{}", joined.all_text());
        assert_eq!(
            active_markup(&joined.all_text()),
            None,
            "{}",
            joined.all_text()
        );
    }
    let mark = fake.request_count();
    let start = fake.command(GUILD, CHANNEL, &alice(), "tournament start", json!([]));
    send(&fake, start).await;
    let messages = settled_public(&fake, mark).await;
    let text: String = messages
        .iter()
        .map(Recorded::all_text)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        text.contains(&format!("« {} »", inline_escaped(name))),
        "{text}"
    );
    for player in &players {
        assert!(
            text.contains(&inline_escaped(&player.name)),
            "{} not named: {text}",
            player.name
        );
    }
    for message in &messages {
        let shown = message.all_text();
        assert_eq!(active_markup(&shown), None, "{shown}");
        let parse = &message.message()["allowed_mentions"]["parse"];
        assert!(parse.as_array().is_none_or(Vec::is_empty), "{parse}");
    }
    bot.stop(&fake).await;
}

/// Names that hide text are refused, privately, naming the character, in
/// the reader's language; nothing is created.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_that_hide_text_are_refused() {
    let fake = FakeDiscord::start(1).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let time = ManualTime::new();
    let bot = start_bot(&fake, &dir.path().join("pawnpost.db"), &time).await;
    let mut french = bob();
    french.locale = "fr".to_owned();
    for (name, code) in HIDDEN {
        for (user, words) in [
            (alice(), "invisible or direction-changing"),
            (french.clone(), "caractère invisible"),
        ] {
            let answer = send(
                &fake,
                fake.command(GUILD, CHANNEL, &user, "tournament create", create(name)),
            )
            .await;
            let text = answer.all_text();
            assert!(answer.is_ephemeral(), "{name:?} accepted: {text}");
            assert!(
                text.contains(words) && text.contains(code),
                "{name:?}: {text}"
            );
        }
    }
    let none = send(
        &fake,
        fake.command(GUILD, CHANNEL, &alice(), "tournament join", json!([])),
    )
    .await;
    assert!(
        none.is_ephemeral(),
        "no tournament was made: {}",
        none.all_text()
    );
    bot.stop(&fake).await;
}
