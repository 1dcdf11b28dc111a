//! Runs every row of `tests/fixtures/rules_cases.txt` (the rules table of
//! RULES.md) through `Game::apply`. The file's header documents the format.

use chrono::{DateTime, Duration, TimeZone, Utc};
use pawnpost::core::event::{ClaimKind, Event};
use pawnpost::core::game::{Act, Actor, DrawRules, Game, MoveInput, PlayerId, Players, Status};
use pawnpost::core::names::Named;
use pawnpost::core::notation::Reader;
use shakmaty::Color;

const WHITE: PlayerId = PlayerId(1);
const BLACK: PlayerId = PlayerId(2);

struct Case {
    line: usize,
    id: String,
    start: String,
    acts: String,
    expected: String,
}

fn cases() -> Vec<Case> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/rules_cases.txt"
    );
    let text = std::fs::read_to_string(path).expect("fixture file");
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(index, line)| {
            let fields: Vec<&str> = line.split(" | ").map(str::trim).collect();
            assert_eq!(fields.len(), 4, "line {}: four columns", index + 1);
            Case {
                line: index + 1,
                id: fields[0].to_owned(),
                start: fields[1].to_owned(),
                acts: fields[2].to_owned(),
                expected: fields[3].to_owned(),
            }
        })
        .collect()
}

fn side(name: &str) -> Color {
    match name {
        "white" => Color::White,
        "black" => Color::Black,
        other => panic!("not a side: {other}"),
    }
}

fn actor(side: Color) -> Actor {
    Actor::Player(if side == Color::White { WHITE } else { BLACK })
}

fn mv(text: &str) -> MoveInput {
    MoveInput::new(text, Reader::default())
}

/// One act of the script, as (actor, act); a run of moves gives several.
fn parse_acts(segment: &str, game: &Game) -> Vec<(Actor, Act)> {
    let words: Vec<&str> = segment.split_whitespace().collect();
    match words.as_slice() {
        ["flag", who] => vec![(Actor::Clock, Act::FlagFall { side: side(who) })],
        ["clock", "abort"] => vec![(Actor::Clock, Act::Abort)],
        [who @ ("white" | "black"), verb, rest @ ..] => {
            let by = actor(side(who));
            let act = match (*verb, rest) {
                ("offer", []) => Act::OfferDraw,
                ("accept", []) => Act::AcceptDraw,
                ("decline", []) => Act::DeclineDraw,
                ("resign", []) => Act::Resign,
                ("abort", []) => Act::Abort,
                ("move", [text]) => Act::Move {
                    input: mv(text),
                    offer_draw: false,
                },
                ("move", [text, "offer"]) => Act::Move {
                    input: mv(text),
                    offer_draw: true,
                },
                ("claim", args) => {
                    let (kind, args) = match args {
                        ["threefold", more @ ..] => (Some(ClaimKind::Threefold), more),
                        ["fifty", more @ ..] => (Some(ClaimKind::Fifty), more),
                        more => (None, more),
                    };
                    Act::Claim {
                        kind,
                        with_move: args.first().map(|text| mv(text)),
                    }
                }
                other => panic!("unknown act {other:?}"),
            };
            vec![(by, act)]
        }
        moves => {
            // Moves alternate from the side to move.
            let mut to_move = game.turn();
            moves
                .iter()
                .map(|text| {
                    let by = actor(to_move);
                    to_move = !to_move;
                    let act = Act::Move {
                        input: mv(text),
                        offer_draw: false,
                    };
                    (by, act)
                })
                .collect()
        }
    }
}

fn event_kind(event: &Event) -> &'static str {
    match event {
        Event::MovePlayed { .. } => "move_played",
        Event::DrawOffered { .. } => "draw_offered",
        Event::DrawDeclined { .. } => "draw_declined",
        Event::DrawOfferLapsed { .. } => "draw_offer_lapsed",
        Event::ClaimRefused { .. } => "claim_refused",
        Event::MoreTimeGiven { .. } => "more_time_given",
        Event::TakebackRequested { .. } => "takeback_requested",
        Event::TakebackDeclined { .. } => "takeback_declined",
        Event::TakenBack { .. } => "taken_back",
        Event::GameOver { .. } => "game_over",
        Event::Review { .. } => "review",
        Event::VoteTally { .. } => "vote_tally",
    }
}

/// Runs one case; returns the failed checks.
fn run(case: &Case) -> Vec<String> {
    let start_time: DateTime<Utc> = Utc.with_ymd_and_hms(2026, 1, 1, 12, 0, 0).unwrap();
    let fen = (case.start != "startpos").then_some(case.start.as_str());
    let players = Players {
        white: WHITE,
        black: BLACK,
    };
    let mut game = Game::new(players, fen, DrawRules::default(), start_time).expect("start");
    let mut now = start_time;
    let mut last: Result<Vec<Event>, String> = Ok(Vec::new());
    let segments: Vec<&str> = case.acts.split(" ; ").collect();
    for (index, segment) in segments.iter().enumerate() {
        let acts = parse_acts(segment, &game);
        let count = acts.len();
        for (n, (actor, act)) in acts.into_iter().enumerate() {
            now += Duration::hours(7);
            let before = format!("{:?}", game.moves().len());
            let status_before = game.status();
            last = game
                .apply(&actor, act, now)
                .map_err(|e| e.kind().to_owned());
            let is_final = index + 1 == segments.len() && n + 1 == count;
            if let Err(kind) = &last {
                // A refusal changes nothing.
                assert_eq!(before, format!("{:?}", game.moves().len()));
                assert_eq!(status_before, game.status());
                if !is_final {
                    return vec![format!("act {segment:?} refused early: {kind}")];
                }
            }
        }
    }

    let mut failures = Vec::new();
    for check in case.expected.split_whitespace() {
        let (key, want) = check.split_once('=').expect("key=value");
        let got = match key {
            "result" => match game.status() {
                Status::Ongoing => "ongoing".to_owned(),
                Status::Over { result, .. } => result.as_pgn().to_owned(),
            },
            "reason" => match game.status() {
                Status::Ongoing => "none".to_owned(),
                Status::Over { reason, .. } => reason.as_str().to_owned(),
            },
            "refused" => match &last {
                Ok(_) => "accepted".to_owned(),
                Err(kind) => kind.clone(),
            },
            "turn" => format!("{:?}", game.turn()).to_lowercase(),
            "last" => game
                .moves()
                .last()
                .map(|m| m.san.to_string())
                .unwrap_or_default(),
            "offer" => game
                .pending_offer()
                .map(|c| format!("{c:?}").to_lowercase())
                .unwrap_or_else(|| "none".to_owned()),
            "plies" => game.moves().len().to_string(),
            "events" => match &last {
                Ok(events) => events.iter().map(event_kind).collect::<Vec<_>>().join(","),
                Err(kind) => format!("refused:{kind}"),
            },
            other => panic!("unknown check {other}"),
        };
        if got != want {
            failures.push(format!("{key}: want {want}, got {got}"));
        }
    }
    failures
}

#[test]
fn every_rules_case_passes() {
    let cases = cases();
    assert!(cases.len() >= 26, "the table has 26 cases");
    let failures: Vec<String> = cases
        .iter()
        .flat_map(|case| {
            run(case)
                .into_iter()
                .map(move |f| format!("case {} (line {}): {f}", case.id, case.line))
        })
        .collect();
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
