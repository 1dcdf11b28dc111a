//! Real lichess games of `tests/data/lichess/` replayed through the
//! service by two players who type every move in their notation's SAN:
//! English, French and German players who set it (`/settings notation`),
//! and players who left it on `auto` and answer each question by choosing
//! the move they meant (so the bot learns their letters as they go). No
//! move is ever played other than the one meant; those who set their
//! notation are never asked. The test prints how often each was asked.

#[path = "common/lichess.rs"]
mod lichess;
#[path = "common/requests.rs"]
mod requests;

use chrono::{DateTime, Duration, TimeZone, Utc};
use pawnpost::core::event::Event;
use pawnpost::core::notation::{Lang, Style, write_san};
use pawnpost::core::platform::Platform;
use pawnpost::service::{Prompt, Reply, Request, Service, ServiceConfig};
use pawnpost::storage::sqlite::SqliteStore;
use requests::{RequestExt, request, text};
use shakmaty::{CastlingMode, Color, Position};

/// How many of the file's games are replayed for each kind of player:
/// `tests/lichess_replay.rs` reads all 500 through the core; all 500 here
/// take minutes of a debug build (0 asked, 0 misplayed when last run so).
const GAMES: usize = 150;

/// The service, the simulated clock and the next act's key.
struct Club {
    service: Service,
    now: DateTime<Utc>,
    acts: u64,
}

impl Club {
    fn act(&mut self, user: &str, channel: &str, said: &str) -> Request {
        self.acts += 1;
        self.now += Duration::minutes(1);
        request(Platform::Discord, "club", channel, user, text(said))
            .keyed(&format!("act-{}", self.acts))
    }

    async fn say(&mut self, user: &str, channel: &str, said: &str) -> Vec<Reply> {
        let act = self.act(user, channel, said);
        self.service.handle(act, self.now).await
    }
}

#[derive(Debug, Default)]
struct Count {
    games: usize,
    plies: usize,
    asked: usize,
    settled: usize,
    misplayed: Vec<String>,
}

fn is_over(replies: &[Reply]) -> bool {
    replies
        .iter()
        .flat_map(|r| &r.events)
        .any(|e| matches!(e.event, Event::GameOver { .. }))
}

fn played(replies: &[Reply]) -> Option<String> {
    replies
        .iter()
        .flat_map(|r| &r.events)
        .find_map(|e| match &e.event {
            Event::MovePlayed { uci, .. } => Some(uci.clone()),
            _ => None,
        })
}

/// The choice's command for `uci`, when the replies ask which move was meant.
fn choice_for(replies: &[Reply], uci: &str) -> Option<Option<String>> {
    replies.iter().find_map(|r| match &r.prompt {
        Prompt::ChooseMove { game, act, choices } => Some(
            choices
                .iter()
                .find(|c| c.uci == uci)
                .map(|c| format!("/{}", act.command_line(*game, &c.uci))),
        ),
        _ => None,
    })
}

/// Every game played by `white` and `black`, who speak `lang` and set it
/// as their notation or not; their letters learnt stay from game to game.
async fn replay(lang: Lang, set: bool) -> Count {
    let store = SqliteStore::open_in_memory().expect("store");
    let mut club = Club {
        service: Service::new(store, ServiceConfig::default()),
        now: Utc.with_ymd_and_hms(2026, 5, 1, 12, 0, 0).unwrap(),
        acts: 0,
    };
    let language = if lang == Lang::De {
        "en"
    } else {
        lang_tag(lang)
    };
    for player in ["white", "black"] {
        club.say(player, "lobby", &format!("/settings language {language}"))
            .await;
        if set {
            let notation = match lang {
                Lang::Fr => "french",
                Lang::De => "german",
                _ => "english",
            };
            club.say(player, "lobby", &format!("/settings notation {notation}"))
                .await;
        }
    }
    let style = Style::of_notation(lang);
    let mut count = Count::default();
    for (index, game) in lichess::games().iter().take(GAMES).enumerate() {
        let channel = format!("game-{index}");
        club.say("white", &channel, "/challenge @black color:white")
            .await;
        club.say("black", &channel, "/accept").await;
        count.games += 1;
        for (pos, m) in &game.plies {
            count.plies += 1;
            let mover = if pos.turn() == Color::White {
                "white"
            } else {
                "black"
            };
            let typed = write_san(pos, *m, style);
            let uci = m.to_uci(CastlingMode::Standard).to_string();
            let mut replies = club.say(mover, &channel, &format!("/move {typed}")).await;
            if let Some(choice) = choice_for(&replies, &uci) {
                count.asked += 1;
                let Some(command) = choice else {
                    count
                        .misplayed
                        .push(format!("{}: {typed} did not offer {uci}", game.site));
                    break;
                };
                replies = club.say(mover, &channel, &command).await;
                // "Noted: from now on “R” is the rook for you…"
                let settled = replies
                    .iter()
                    .any(|r| r.text.starts_with("Noted") || r.text.starts_with("C’est noté"));
                count.settled += usize::from(settled);
            }
            if played(&replies).as_deref() != Some(uci.as_str()) {
                count
                    .misplayed
                    .push(format!("{}: {typed} for {uci}: {replies:?}", game.site));
                break;
            }
            // The rules may end a game lichess let go on (a dead position,
            // FIDE 5.2.2): its last moves are not played here.
            if is_over(&replies) {
                break;
            }
        }
    }
    count
}

fn lang_tag(lang: Lang) -> &'static str {
    match lang {
        Lang::Fr => "fr",
        _ => "en",
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 3)]
async fn real_games_through_the_service_for_each_notation() {
    let kinds = [Lang::En, Lang::Fr, Lang::De]
        .into_iter()
        .flat_map(|lang| [(lang, true), (lang, false)]);
    let runs: Vec<_> = kinds
        .map(|(lang, set)| tokio::spawn(async move { (lang, set, replay(lang, set).await) }))
        .collect();
    let mut failures = Vec::new();
    for run in runs {
        let (lang, set, count) = run.await.expect("replay");
        println!(
            "{lang:?} players, notation {}: {} games, {} plies, asked {}, letters settled by answers {}, misplayed {}",
            if set { "set" } else { "auto" },
            count.games,
            count.plies,
            count.asked,
            count.settled,
            count.misplayed.len()
        );
        assert_eq!(count.games, GAMES);
        if set {
            assert_eq!(count.asked, 0, "{lang:?} players who set their notation");
        }
        failures.extend(count.misplayed.into_iter().take(3));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Discord's autocomplete offers each legal move as a text with one
/// reading for the player: `Rad1` while `Rd1` could be the French king too,
/// `Rd1` once they said they write English.
#[tokio::test]
async fn autocomplete_never_offers_a_text_with_two_readings() {
    let mut club = Club {
        service: Service::new(
            SqliteStore::open_in_memory().expect("store"),
            ServiceConfig::default(),
        ),
        now: Utc.with_ymd_and_hms(2026, 5, 1, 12, 0, 0).unwrap(),
        acts: 0,
    };
    club.say(
        "alice",
        "c",
        "/challenge @bob color:white fen:\"r3k3/8/8/8/8/8/8/R3K3 w - - 0 1\"",
    )
    .await;
    club.say("bob", "c", "/accept").await;
    let auto = offered(&mut club).await;
    assert!(auto.contains(&"Rad1".to_owned()), "{auto:?}");
    assert!(!auto.contains(&"Rd1".to_owned()), "{auto:?}");
    club.say("alice", "c", "/settings notation english").await;
    let english = offered(&mut club).await;
    assert!(english.contains(&"Rd1".to_owned()), "{english:?}");
    assert!(!english.contains(&"Rad1".to_owned()), "{english:?}");
    club.say("alice", "c", "/settings notation french").await;
    let french = offered(&mut club).await;
    // `R` is her king now (the rook is `T`): Rd1 and Rf1 are king moves.
    assert!(french.contains(&"Rd1".to_owned()), "{french:?}");
    assert!(french.contains(&"Rf1".to_owned()), "{french:?}");
    assert!(!french.contains(&"Rad1".to_owned()), "{french:?}");
}

/// What Discord's autocomplete offers alice when she has typed `R`.
async fn offered(club: &mut Club) -> Vec<String> {
    let act = club.act("alice", "c", "/move");
    club.service
        .move_choices(&act, None, "R", 25, club.now)
        .await
        .expect("choices")
}
