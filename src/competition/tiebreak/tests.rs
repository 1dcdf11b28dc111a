//! The tie-breaks against tables of events computed by FIDE or by hand
//! (`tests/fixtures/tiebreaks/`, described in its README), and the
//! writing of values.

use super::*;
use crate::core::names::Named;

/// Every table, with its file name for messages.
const TABLES: [(&str, &str); 7] = [
    (
        "fide_exercises_swiss.txt",
        include_str!("../../../tests/fixtures/tiebreaks/fide_exercises_swiss.txt"),
    ),
    (
        "fide_exercises_round_robin.txt",
        include_str!("../../../tests/fixtures/tiebreaks/fide_exercises_round_robin.txt"),
    ),
    (
        "round_robin_five.txt",
        include_str!("../../../tests/fixtures/tiebreaks/round_robin_five.txt"),
    ),
    (
        "round_robin_withdrawal.txt",
        include_str!("../../../tests/fixtures/tiebreaks/round_robin_withdrawal.txt"),
    ),
    (
        "double_round_robin_direct_encounter.txt",
        include_str!("../../../tests/fixtures/tiebreaks/double_round_robin_direct_encounter.txt"),
    ),
    (
        "swiss_unplayed_rounds.txt",
        include_str!("../../../tests/fixtures/tiebreaks/swiss_unplayed_rounds.txt"),
    ),
    (
        "swiss_direct_encounter_unmet.txt",
        include_str!("../../../tests/fixtures/tiebreaks/swiss_direct_encounter_unmet.txt"),
    ),
];

/// What one `expect` line says.
struct Expected {
    line: usize,
    player: usize,
    rank: Option<usize>,
    /// In quarters, as every value here can be written.
    points: u32,
    values: Vec<Option<u32>>,
}

/// An event and the crosstables it must give.
struct Table {
    rule: Unplayed,
    players: Vec<String>,
    results: Vec<Result>,
    checks: Vec<(Vec<TieBreak>, Vec<Expected>)>,
}

/// A decimal (`12.5`, `9.75`) in quarters.
fn decimal_quarters(text: &str) -> u32 {
    let value: f64 = text.parse().unwrap_or_else(|_| panic!("bad number {text}"));
    let quarters = value * 4.0;
    assert_eq!(quarters.fract(), 0.0, "{text} is not a number of quarters");
    quarters as u32
}

/// A tie-break value in quarters, whatever its unit.
fn in_quarters(tie_break: TieBreak, value: u32) -> u32 {
    match tie_break {
        TieBreak::SonnebornBerger | TieBreak::SonnebornBergerCut1 => value,
        TieBreak::Wins | TieBreak::GamesWon => value * 4,
        _ => value * 2,
    }
}

fn parse(name: &str, text: &str) -> Table {
    let mut table = Table {
        rule: Unplayed::Swiss,
        players: Vec::new(),
        results: Vec::new(),
        checks: Vec::new(),
    };
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default();
        let words: Vec<&str> = line.split_whitespace().collect();
        let player = |name_: &str| {
            table_player(&table.players, name_)
                .unwrap_or_else(|| panic!("{name}:{}: who is {name_}?", number + 1))
        };
        let round = |word: &str| -> u32 { word.parse().expect("a round") };
        match words.as_slice() {
            [] => {}
            ["rule", "swiss"] => table.rule = Unplayed::Swiss,
            ["rule", "as_games"] => table.rule = Unplayed::AsGames,
            ["players", names @ ..] => {
                table.players = names.iter().map(|n| n.to_string()).collect()
            }
            ["game", r, white, black, result] => {
                let outcome = match *result {
                    "1-0" => Outcome::Played { white_half: 2 },
                    "0-1" => Outcome::Played { white_half: 0 },
                    "1/2-1/2" => Outcome::Played { white_half: 1 },
                    "+/-" => Outcome::Forfeit {
                        white_half: 2,
                        black_half: 0,
                    },
                    "-/+" => Outcome::Forfeit {
                        white_half: 0,
                        black_half: 2,
                    },
                    "-/-" => Outcome::Forfeit {
                        white_half: 0,
                        black_half: 0,
                    },
                    "*" => Outcome::Pending,
                    other => panic!("{name}:{}: result {other}", number + 1),
                };
                let result = Result {
                    round: round(r),
                    white: player(white),
                    black: Some(player(black)),
                    outcome,
                };
                table.results.push(result);
            }
            ["bye", r, who, points, rest @ ..] => {
                let half = match *points {
                    "1" => 2,
                    "1/2" => 1,
                    "0" => 0,
                    other => panic!("{name}:{}: bye worth {other}", number + 1),
                };
                let result = Result {
                    round: round(r),
                    white: player(who),
                    black: None,
                    outcome: Outcome::Bye {
                        half,
                        requested: rest == ["requested"],
                    },
                };
                table.results.push(result);
            }
            ["order", names @ ..] => {
                let order = names
                    .iter()
                    .map(|n| TieBreak::from_typed(n).expect("a tie-break"))
                    .collect();
                table.checks.push((order, Vec::new()));
            }
            ["expect", who, rank, points, values @ ..] => {
                let expected = Expected {
                    line: number + 1,
                    player: player(who),
                    rank: rank.parse().ok(),
                    points: decimal_quarters(points),
                    values: values
                        .iter()
                        .map(|v| (*v != "-").then(|| decimal_quarters(v)))
                        .collect(),
                };
                let (_, expectations) = table.checks.last_mut().expect("an order first");
                expectations.push(expected);
            }
            _ => panic!("{name}:{}: cannot read {line:?}", number + 1),
        }
    }
    table
}

fn table_player(players: &[String], name: &str) -> Option<usize> {
    players.iter().position(|p| p == name)
}

#[test]
fn tie_breaks_match_the_tables() {
    let mut failures = Vec::new();
    for (name, text) in TABLES {
        let table = parse(name, text);
        assert!(!table.checks.is_empty(), "{name}: nothing checked");
        for (order, expectations) in &table.checks {
            let lines = crosstable(table.players.len(), &table.results, order, table.rule);
            for expected in expectations {
                let who = &table.players[expected.player];
                let rank = lines
                    .iter()
                    .position(|l| l.player == expected.player)
                    .expect("a line each");
                let line = &lines[rank];
                let mut fail = |what: String| {
                    failures.push(format!("{name}:{} {who}: {what}", expected.line));
                };
                if let Some(want) = expected.rank
                    && rank + 1 != want
                {
                    fail(format!("rank {}, not {want}", rank + 1));
                }
                if line.half_points * 2 != expected.points {
                    fail(format!("{} half points", line.half_points));
                }
                assert_eq!(
                    expected.values.len(),
                    order.len(),
                    "{name}:{}: one value per tie-break",
                    expected.line
                );
                for ((tie_break, got), want) in
                    order.iter().zip(&line.tie_breaks).zip(&expected.values)
                {
                    let got = got.map(|v| in_quarters(*tie_break, v));
                    if got != *want {
                        fail(format!(
                            "{} is {}, not {}",
                            tie_break.as_str(),
                            got.map_or("-".to_owned(), quarters),
                            want.map_or("-".to_owned(), quarters)
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A pairing-allocated bye and a forfeit win are no voluntary unplayed
/// rounds: Cut-1 takes the least significant value, not them (Article
/// 16.5). A forfeit loss is one, and goes first. (That a VUR goes before
/// a lower game is in FIDE's table: Paul.)
#[test]
fn only_voluntary_unplayed_rounds_are_cut_first() {
    // Round 1: 0 beats 1; 3 wins against 2 by forfeit; 4 has the bye.
    // Round 2: 3 beats 1; 4 beats 0; 2 has the bye.
    let forfeit = Outcome::Forfeit {
        white_half: 0,
        black_half: 2,
    };
    let bye = Outcome::Bye {
        half: 2,
        requested: false,
    };
    let won = Outcome::Played { white_half: 2 };
    let results = [
        (1, 0, Some(1), won),
        (1, 2, Some(3), forfeit),
        (1, 4, None, bye),
        (2, 3, Some(1), won),
        (2, 4, Some(0), won),
        (2, 2, None, bye),
    ]
    .map(|(round, white, black, outcome)| Result {
        round,
        white,
        black,
        outcome,
    });
    let order = [TieBreak::Buchholz, TieBreak::BuchholzCut1];
    let lines = crosstable(5, &results, &order, Unplayed::Swiss);
    let of = |p: usize| lines.iter().find(|l| l.player == p).expect("line").clone();
    // Points: 0 has 1, 1 none, 2 has 1 (the bye), 3 has 2, 4 has 2.
    // Player 3: forfeit win (own 2) + 1 (0) = 2; 1's 0 is cut, not the win.
    assert_eq!(of(3).tie_breaks, [Some(4), Some(4)]);
    // Player 4: bye (own 2) + 0 (1) = 3; 0's 1 is cut, not the bye.
    assert_eq!(of(4).tie_breaks, [Some(6), Some(4)]);
    // Player 2: forfeit loss (own 1, a VUR) + bye (own 1) = 2; the VUR goes.
    assert_eq!(of(2).tie_breaks, [Some(4), Some(2)]);
}

#[test]
fn without_tie_breaks_ties_stay_in_seed_order() {
    let results = [Result {
        round: 1,
        white: 1,
        black: Some(0),
        outcome: Outcome::Played { white_half: 1 },
    }];
    let lines = crosstable(3, &results, &[], Unplayed::AsGames);
    let players: Vec<usize> = lines.iter().map(|l| l.player).collect();
    assert_eq!(players, [0, 1, 2]);
    assert!(lines.iter().all(|l| l.tie_breaks.is_empty()));
}

#[test]
fn values_are_written_with_fractions() {
    let cases = [
        (halves(5), "2½"),
        (halves(4), "2"),
        (halves(1), "½"),
        (halves(0), "0"),
        (quarters(17), "4¼"),
        (quarters(14), "3½"),
        (quarters(11), "2¾"),
        (quarters(1), "¼"),
        (quarters(0), "0"),
        (value_text(TieBreak::BuchholzCut1, Some(9)), "4½"),
        (value_text(TieBreak::SonnebornBerger, Some(9)), "2¼"),
        (value_text(TieBreak::Wins, Some(3)), "3"),
        (value_text(TieBreak::DirectEncounter, Some(1)), "½"),
        (value_text(TieBreak::DirectEncounter, None), ""),
    ];
    for (written, expected) in cases {
        assert_eq!(written, expected);
    }
}
