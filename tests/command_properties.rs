//! No text makes the command layer panic, whatever its characters.
//!
//! Every command and every option gets arbitrary Unicode (weighted towards
//! the characters that break byte-offset code: multi-byte letters beside
//! ASCII syntax, case mappings that change length, full-width digits), and
//! near misses of valid values (`3é`, `tc 3d🙂`). What parses is followed
//! into the pure parsers the service applies next (time controls, FENs,
//! moves). Matrix's message-to-command translation and the console's own
//! `:` lines get the same treatment, and a sample of scripts runs end to end
//! through the console and the service on SQLite (`:memory:`).
//!
//! The case counts add up to over 100,000 (see `CASES`); the fuzz target
//! `fuzz/fuzz_targets/parse_command.rs` explores the same seam with coverage.

use std::io::Cursor;
use std::time::Instant;

use chrono::{DateTime, Utc};
use pawnpost::adapters::console::{self, ConsoleOptions};
use pawnpost::core::clock::TimeControl;
use pawnpost::core::command::{
    self, Command, MAX_COMMAND_BYTES, NewTournamentWish, TournamentCommand,
};
use pawnpost::core::game::{DrawRules, Game, PlayerId, Players};
use pawnpost::core::notation::{Lang, Reader, parse_move};
use pawnpost::service::{Service, ServiceConfig};
use pawnpost::storage::sqlite::SqliteStore;
use proptest::prelude::*;
use proptest::sample::{Index, select};
use proptest::test_runner::{Config, TestRunner};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// Cases per property; their sum is the total the issue asks for (≥ 100,000).
const CASES: Cases = Cases {
    any_line: 20_000,
    command_option: 40_000,
    time_control: 10_000,
    matrix: 15_000,
    console_steering: 15_000,
    service_scripts: 3_000,
};

struct Cases {
    any_line: u32,
    command_option: u32,
    time_control: u32,
    matrix: u32,
    console_steering: u32,
    service_scripts: u32,
}

#[test]
fn the_case_counts_reach_a_hundred_thousand() {
    let c = &CASES;
    let total = c.any_line
        + c.command_option
        + c.time_control
        + c.matrix
        + c.console_steering
        + c.service_scripts;
    assert!(total >= 100_000, "{total}");
}

/// Characters that broke (or could break) text handling: multi-byte letters
/// next to ASCII syntax, case mappings that change length (`İ`, `ẞ`, `ﬀ`),
/// look-alike digits and letters, invisible and combining marks, and the
/// command language's own punctuation.
const TRICKY: &[char] = &[
    'é',
    'É',
    'ß',
    'ẞ',
    'İ',
    'ı',
    '\u{212a}',
    'ﬀ',
    'ǅ',
    '３',
    'ｄ',
    '٣',
    '½',
    '⁄',
    '🙂',
    '♞',
    'К',
    'р',
    'Ф',
    ':',
    '\u{a0}',
    '\u{200b}',
    '\u{301}',
    '\u{feff}',
    '\u{0}',
    '\u{10ffff}',
    '"',
    ':',
    '/',
    '#',
    '@',
    '+',
    '-',
    '=',
    '.',
    ' ',
    '\t',
    '\n',
    '\r',
    'd',
    'h',
    'm',
    's',
    'x',
    'e',
    'N',
    'K',
    'O',
    'Q',
    '0',
    '1',
    '2',
    '3',
    '9',
    'a',
    'w',
    'b',
];

/// Up to `max` characters, mostly from [`TRICKY`], some from anywhere.
fn text(max: usize) -> impl Strategy<Value = String> {
    let char = prop_oneof![3 => select(TRICKY), 1 => any::<char>()];
    prop::collection::vec(char, 0..=max).prop_map(String::from_iter)
}

/// Valid option values of every kind, to be spoiled by [`near_miss`].
const VALID: &[&str] = &[
    "3d",
    "12h",
    "30d+1d",
    "30d+1d max 45d",
    "10/50d",
    "5d delay 1d",
    "none",
    "e4",
    "Nf3",
    "exd6 e.p.",
    "O-O",
    "e7e8=Q",
    "Cc6",
    "white",
    "black",
    "random",
    "yes",
    "no",
    "fr",
    "en",
    "de",
    "default",
    "5",
    "#3",
    "3d",
    "@bob",
    "bob",
    "threefold",
    "fifty",
    "offer",
    "accept",
    "decline",
    "swiss",
    "round_robin",
    "knockout",
    "start",
    "end",
    "status",
    "show",
    "join",
    "leave",
    "challenge",
    "notify",
    "dm",
    "off",
    "0.5",
    "½",
    "2026",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/R3K3 w Q - 0 4294967295",
];

/// A valid value with arbitrary text put in at any character position.
fn near_miss() -> impl Strategy<Value = String> {
    (select(VALID), text(3), any::<Index>()).prop_map(|(valid, extra, at)| {
        let chars: Vec<char> = valid.chars().collect();
        let at = at.index(chars.len() + 1);
        let mut out: String = chars.iter().take(at).collect();
        out.push_str(&extra);
        out.extend(chars.iter().skip(at));
        out
    })
}

/// An option value: arbitrary, or a near miss of a valid one.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![text(16), near_miss(), select(VALID).prop_map(str::to_owned)]
}

/// Every command and every option, `{}` standing for the value.
const TEMPLATES: &[&str] = &[
    "/challenge {}",
    "/challenge @{}",
    "/challenge @bob time:{}",
    "/challenge time:{}",
    "/challenge fen:\"{}\"",
    "/challenge fen:{}",
    "/challenge color:{}",
    "/challenge colour:{}",
    "/challenge rated:{}",
    "/challenge user:{}",
    "/accept {}",
    "/accept challenge:{}",
    "/decline {}",
    "/decline challenge:{}",
    "/cancel {}",
    "/cancel challenge:{}",
    "/move {}",
    "/move {} offer_draw",
    "/move move:{}",
    "/move e4 game:{}",
    "/move e4 offer:{}",
    "/move e4 offer_draw:{}",
    "/m {}",
    "/draw {}",
    "/draw action:{}",
    "/draw game:{}",
    "/claim {}",
    "/claim kind:{}",
    "/claim threefold {}",
    "/claim fifty move:{}",
    "/claim game:{}",
    "/resign {}",
    "/resign game:{}",
    "/abort {}",
    "/abort game:{}",
    "/moretime {}",
    "/moretime days:{}",
    "/moretime 2 game:{}",
    "/if {}",
    "/note {}",
    "/note text:{}",
    "/note hello game:{}",
    "/notes {}",
    "/openings {}",
    "/takeback {}",
    "/review {}",
    "/review game:{}",
    "/analyse {}",
    "/puzzle {}",
    "/puzzle move:{}",
    "/probleme {}",
    "/tournament create rr reviews:{}",
    "/takeback accept game:{}",
    "/reprise {}",
    "/if e5 {}",
    "/if moves:{}",
    "/if list game:{}",
    "/si {}",
    "/leave {}",
    "/leave start {}",
    "/leave start days:{}",
    "/board {}",
    "/board game:{}",
    "/moves {}",
    "/pgn {}",
    "/gif {}",
    "/gif game:{}",
    "/games {}",
    "/standings {}",
    "/standings season:{}",
    "/record {}",
    "/record @{}",
    "/record @alice @{}",
    "/rating {}",
    "/rating user:{}",
    "/rating @{}",
    "/settings {}",
    "/settings language {}",
    "/settings language:{}",
    "/settings server-language {}",
    "/settings server_language:{}",
    "/reglages langue-serveur {}",
    "/settings notify {}",
    "/settings notify:{}",
    "/settings timezone {}",
    "/challenge member:{}",
    "/challenge member:matrix:{}",
    "/settings digest {}",
    "/settings digest at:{}",
    "/games scope:{}",
    "/link {}",
    "/link link_code:{}",
    "/unlink {}",
    "/club invite matrix {}",
    "/club invite {}",
    "/club join {}",
    "/club quit {}",
    "/club servers {}",
    "/ladder {}",
    "/ladder challenge {}",
    "/ladder challenge @{}",
    "/ladder challenge user:{}",
    "/help {}",
    "/status {}",
    "/tournament {}",
    "/tournoi {}",
    "/tournament create {}",
    "/tournament create system:{}",
    "/tournament create swiss tc {}",
    "/tournament create swiss time:{}",
    "/tournament create swiss tc:{}",
    "/tournament create swiss rounds {}",
    "/tournament create swiss rounds:{}",
    "/tournament create swiss name:{}",
    "/tournament create swiss name:\"{}\"",
    "/tournament create rr max {}",
    "/tournament create rr entry {}",
    "/tournament create swiss bye {}",
    "/tournament create swiss rated:{}",
    "/tournament create swiss unrated:{}",
    "/tournament create swiss tiebreaks:{}",
    "/tournament create rr tiebreaks {}",
    "/tournament create swiss tiebreaks:bh,{}",
    "/tournament join {}",
    "/tournament join id:{}",
    "/tournament leave {}",
    "/tournament start tournament:{}",
    "/tournament pairings {}",
    "/tournament pairings round {}",
    "/tournament pairings round:{}",
    "/tournament standings {}",
    "/tournament crosstable {}",
    "/tournament withdraw {}",
    "/review {}",
    "/puzzle {}",
    "/team create {}",
    "/team join {}",
    "/team {}",
    "/vote {}",
    "/vote draw {}",
    "/vote {} game:1",
    "/challenge team:{} @bob",
    "/challenge vs:{}",
    "/match {}",
    "/match create team:Rooks vs:{}",
    "/match create team:{} vs:Knights server:{}",
    "/match create team:Rooks vs:Knights boards:{}",
    "/match join {}",
    "/rencontre voir {}",
    "/rematch {}",
    "/revanche game:{}",
    "/play {}",
    "/play draw {}",
    "/jouer nulle {}",
    "/game {}",
    "/game board {}",
    "/club {}",
    "/club ladder {}",
    "/help draw {}",
    "{} e4",
    "/{}",
];

#[test]
fn the_templates_cover_every_command() {
    // Every command typed first, by its English name (its other names
    // reach the same row).
    for name in command::top_level().map(|row| row.name) {
        let prefix = format!("/{name} ");
        assert!(
            TEMPLATES.iter().any(|t| t.starts_with(&prefix)),
            "no template for /{name}"
        );
        // And the name is one the parser knows (not `unknown_command`).
        let known = command::parse(&format!("/{name}")).map_err(|e| e.kind());
        assert_ne!(known, Err("unknown_command"), "/{name}");
    }
}

/// A command line: a template filled with a value, sometimes with more
/// arbitrary words after it.
fn command_line() -> impl Strategy<Value = String> {
    (
        select(TEMPLATES),
        value(),
        prop_oneof![3 => Just(String::new()), 1 => text(12)],
    )
        .prop_map(|(template, value, tail)| {
            let line = template.replacen("{}", &value, 1);
            if tail.is_empty() {
                line
            } else {
                format!("{line} {tail}")
            }
        })
}

const PLAYERS: Players = Players {
    white: PlayerId(1),
    black: PlayerId(2),
};

/// Positions where move text is read: the start, castling and promotion,
/// en passant.
const POSITIONS: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
    "4k3/8/8/8/8/2n5/1P1B4/R3K3 w Q - 0 4294967295",
];

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-01-01T12:00:00Z")
        .expect("instant")
        .with_timezone(&Utc)
}

/// Parses `line` and takes what parsed on into the pure parsers the service
/// would apply next; only a panic fails.
fn parse_and_follow(line: &str) -> Result<(), TestCaseError> {
    let parsed = command::parse(line);
    if line.len() > MAX_COMMAND_BYTES {
        prop_assert!(parsed.is_err(), "{line:?} is too long to parse");
    }
    match parsed {
        Ok(command) => follow(&command),
        Err(error) => {
            // Errors echo bounded text.
            prop_assert!(error.to_string().len() <= MAX_COMMAND_BYTES + 64, "{error}");
        }
    }
    Ok(())
}

fn follow(command: &Command) {
    match command {
        Command::Challenge(command::ChallengeCommand::Offer(wish)) => {
            let command::ChallengeWish {
                opponent,
                fen,
                time_control,
                start,
                ..
            } = wish.as_ref();
            if let Some(number) = start {
                assert!(*number < pawnpost::core::chess960::COUNT);
            }
            if let Some(opponent) = opponent {
                let _ = (opponent.as_str(), opponent.display_name());
            }
            if let Some(control) = time_control {
                let _ = control.parse::<TimeControl>();
            }
            if let Some(fen) = fen {
                let _ = Game::new(PLAYERS, Some(fen), DrawRules::default(), t0());
            }
        }
        Command::Move { text, .. }
        | Command::Vote {
            choice: command::VoteChoice::Move { text, .. },
            ..
        }
        | Command::Claim {
            with_move: Some(text),
            ..
        } => read_move(text),
        Command::Tournament(TournamentCommand::Create(NewTournamentWish {
            time_control: Some(control),
            ..
        })) => {
            let _ = control.parse::<TimeControl>();
        }
        _ => {}
    }
}

fn read_move(text: &str) {
    let readers = [
        Reader::speaking(Lang::En),
        Reader::speaking(Lang::Fr),
        Reader::unknown(&Lang::ALL),
    ];
    for fen in POSITIONS {
        let fen: Fen = fen.parse().expect("valid FEN");
        let pos: Chess = fen
            .into_position(CastlingMode::Standard)
            .expect("legal position");
        for reader in &readers {
            let _ = parse_move(&pos, text, reader);
        }
    }
}

/// Runs `property` for `cases` cases of `strategy` and reports the time taken.
fn check<S: Strategy>(
    name: &str,
    cases: u32,
    strategy: S,
    property: impl Fn(S::Value) -> Result<(), TestCaseError>,
) {
    let started = Instant::now();
    let mut runner = TestRunner::new(Config {
        cases,
        // Failures are shrunk and printed; no regression files in the tree.
        failure_persistence: None,
        ..Config::default()
    });
    if let Err(failure) = runner.run(&strategy, property) {
        panic!("{name}: {failure}");
    }
    eprintln!("{name}: {cases} cases in {:.2?}", started.elapsed());
}

#[test]
fn any_line_parses_or_is_refused() {
    // Every name of every command typed first, French ones included.
    let names: Vec<&'static str> = command::names().collect();
    let line = prop_oneof![
        text(80),
        (text(3), select(names), text(60))
            .prop_map(|(lead, name, rest)| format!("{lead}/{name}{rest}")),
        prop::collection::vec(any::<u8>(), 0..100)
            .prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
        // Around the length bound.
        (490..530usize, select(TRICKY))
            .prop_map(|(n, c)| format!("/move {}", c.to_string().repeat(n / c.len_utf8()))),
    ];
    check("any line", CASES.any_line, line, |line| {
        parse_and_follow(&line)
    });
}

#[test]
fn every_command_and_option_takes_any_value() {
    check(
        "every command and option",
        CASES.command_option,
        command_line(),
        |line| parse_and_follow(&line),
    );
}

#[test]
fn time_controls_take_any_text() {
    let control = prop_oneof![
        value(),
        (value(), value()).prop_map(|(a, b)| format!("{a}+{b}")),
        (value(), value(), value()).prop_map(|(a, b, c)| format!("{a}+{b} max {c}")),
        (value(), value()).prop_map(|(a, b)| format!("{a}/{b}")),
        (value(), value()).prop_map(|(a, b)| format!("{a} delay {b}")),
    ];
    check("time controls", CASES.time_control, control, |text| {
        if let Ok(control) = text.parse::<TimeControl>() {
            // What parses prints back to something that parses the same.
            prop_assert_eq!(control.to_string().parse::<TimeControl>(), Ok(control));
        }
        Ok(())
    });
}

#[cfg(feature = "matrix")]
#[test]
fn matrix_messages_take_any_text() {
    use pawnpost::adapters::matrix::commands::{command_text, matrix_hints, resolve_pills};

    const PREFIXES: &[&str] = &["!chess", "!échecs", "!♞", "!c"];
    let lead = select(&["", " ", "> <@bob:localhost> e4?\n\n", "\u{a0}", "é"][..]);
    let head = select(&["!chess", "!CHESS", "!échecs", "!♞", "!move", "!movee4", "!"][..]);
    let rest = prop_oneof![command_line(), text(40)];
    let body = prop_oneof![
        (lead, head, select(&[" ", "", "\n", "\u{a0}"][..]), rest)
            .prop_map(|(lead, head, sep, rest)| format!("{lead}{head}{sep}{rest}")),
        text(80),
    ];
    let pill = (value(), text(12), text(12)).prop_map(|(target, label, after)| {
        format!(r#"<a href="https://matrix.to/#/{target}">{label}</a>{after}"#)
    });
    let message = (body, select(PREFIXES), prop::option::of(pill));
    check(
        "matrix messages",
        CASES.matrix,
        message,
        |(body, prefix, html)| {
            let body = resolve_pills(&body, html.as_deref());
            if let Some(text) = command_text(&body, prefix) {
                parse_and_follow(&text)?;
            }
            let _ = matrix_hints(&body, prefix);
            Ok(())
        },
    );
}

/// A console script line: a `:` line with arbitrary words, or an act by
/// one of `users` or anyone.
fn console_line(users: &'static [&'static str]) -> impl Strategy<Value = String> {
    let steer = select(&["advance", "now", "lang", "channel", "server", "", "fly"][..]);
    let steering = (steer, prop::collection::vec(value(), 0..3))
        .prop_map(|(word, args)| format!(":{word} {}", args.join(" ")));
    let user = prop_oneof![
        3 => select(users).prop_map(str::to_owned),
        1 => text(8),
    ];
    let act = (user, command_line()).prop_map(|(user, line)| format!("{user}: {line}"));
    prop_oneof![2 => steering, 2 => act, 1 => text(60)]
        // One script line each: a newline in a value would start another.
        .prop_map(|line| line.replace(['\n', '\r'], " "))
}

/// A script of a few console lines.
fn script(users: &'static [&'static str], lines: usize) -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(console_line(users), 1..=lines)
}

/// Runs a script through the console, with a simulated clock when `now`;
/// with `json`, board images are drawn too (the slow part: one case in a few).
fn run_script(
    runtime: &tokio::runtime::Runtime,
    service: &Service,
    script: &str,
    now: Option<DateTime<Utc>>,
    json: bool,
) -> Result<(), TestCaseError> {
    let options = ConsoleOptions {
        json,
        now,
        ..ConsoleOptions::default()
    };
    let mut output = Vec::new();
    runtime
        .block_on(console::run(
            service,
            Cursor::new(script.as_bytes()),
            &mut output,
            &options,
        ))
        .expect("the console reads from memory");
    let output = String::from_utf8_lossy(&output);
    // Refusals are answers; only an internal or a database error is a failure.
    for failure in ["Something went wrong", "my database", "stored data"] {
        prop_assert!(!output.contains(failure), "{output}");
    }
    if json {
        for line in output.lines() {
            let parsed = serde_json::from_str::<serde_json::Value>(line);
            prop_assert!(parsed.is_ok(), "not JSON: {line}");
        }
    }
    Ok(())
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

#[test]
fn console_lines_take_any_text() {
    let runtime = runtime();
    let service = Service::new(
        SqliteStore::open_in_memory().expect("SQLite in memory"),
        ServiceConfig::default(),
    );
    let lines = (
        script(&["alice", "bob", "carol"], 3),
        any::<bool>(),
        any::<bool>(),
    );
    check(
        "console lines",
        CASES.console_steering,
        lines,
        |(lines, simulated, json)| {
            for word in lines.iter().flat_map(|line| line.split_whitespace()) {
                let _ = console::parse_duration(word);
            }
            let now = simulated.then(t0);
            run_script(&runtime, &service, &lines.join("\n"), now, json)
        },
    );
}

#[test]
fn scripts_run_end_to_end_on_sqlite() {
    let runtime = runtime();
    let store = SqliteStore::open_in_memory().expect("SQLite in memory");
    let service = Service::new(store, ServiceConfig::default());
    // Players who always have a game to act in, and a tournament and a ladder.
    let setup = "alice: /challenge @bob color:white\n\
                 bob: /accept\n\
                 alice: /move e4\n\
                 carol: /challenge @dave fen:\"r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1\"\n\
                 dave: /accept\n\
                 carol: /tournament create swiss rounds:3 tc 3d\n\
                 alice: /ladder join";
    run_script(&runtime, &service, setup, Some(t0()), true).expect("setup");
    let game = runtime.block_on(service.store().game(1)).expect("store");
    assert!(game.is_some(), "the setup started a game");
    // `white` and `black` stand for the case's own two players.
    let case = (
        script(&["white", "black", "alice", "carol"], 6),
        prop::bool::weighted(0.1),
    );
    let played = std::cell::Cell::new(0);
    check(
        "service scripts on SQLite",
        CASES.service_scripts,
        case,
        |(lines, json)| {
            // A fresh game for two new players, so moves have a game to go to.
            played.set(played.get() + 1);
            let (white, black) = (format!("w{}", played.get()), format!("b{}", played.get()));
            let mut script =
                format!("{white}: /challenge @{black} color:white\n{black}: /accept\n");
            for line in &lines {
                let line = match line.split_once(": ") {
                    Some(("white", rest)) => format!("{white}: {rest}"),
                    Some(("black", rest)) => format!("{black}: {rest}"),
                    _ => line.clone(),
                };
                script.push_str(&line);
                script.push('\n');
            }
            run_script(&runtime, &service, &script, Some(t0()), json)
        },
    );
}
