//! Tie-breaks against a crosstable computed by hand (tests/fixtures/crosstable_tiebreaks.txt).

use pawnpost::competition::tiebreak::{self, Result, TieBreak};

#[test]
fn tie_breaks_match_the_hand_computed_crosstable() {
    let text = include_str!("fixtures/crosstable_tiebreaks.txt");
    let mut names: Vec<String> = Vec::new();
    let mut index = |name: &str| match names.iter().position(|n| n == name) {
        Some(i) => i,
        None => {
            names.push(name.to_owned());
            names.len() - 1
        }
    };
    let mut results = Vec::new();
    let mut expected = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["game", white, black, result] => {
                let white_half = match *result {
                    "1-0" => 2,
                    "0-1" => 0,
                    "1/2-1/2" => 1,
                    other => panic!("bad result {other}"),
                };
                results.push(Result {
                    white: index(white),
                    black: Some(index(black)),
                    white_half,
                    played: true,
                });
            }
            ["expect", rest @ ..] => {
                expected.push(rest.iter().map(|w| w.to_string()).collect::<Vec<_>>())
            }
            _ => panic!("bad fixture line {line}"),
        }
    }
    let order = [
        TieBreak::DirectEncounter,
        TieBreak::SonnebornBerger,
        TieBreak::Wins,
    ];
    let lines = tiebreak::crosstable(names.len(), &results, &order);
    assert_eq!(lines.len(), expected.len());
    for (rank, line) in lines.iter().enumerate() {
        let got = vec![
            names[line.player].clone(),
            (rank + 1).to_string(),
            decimal(line.half_points * 2),
            decimal(line.sb_quarters),
            decimal(line.buchholz_half * 2),
            decimal(line.buchholz_cut1_half * 2),
            line.wins.to_string(),
            decimal(line.direct_half * 2),
        ];
        assert_eq!(got, expected[rank], "rank {}", rank + 1);
    }
}

/// A value kept in quarters as the fixture writes it: 17 → "4.25".
fn decimal(quarters: u32) -> String {
    format!("{}", f64::from(quarters) / 4.0)
}
