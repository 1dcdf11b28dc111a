//! Our Dutch pairing against the 40 events bbpPairings paired
//! (tests/fixtures/dutch/, with their README): every round of every event is
//! paired again from the rounds before it and compared, opponents, colours
//! and bye.

use pawnpost::competition::dutch::{self, Colour, Float, Player, Round};

/// One player's line of a TRF file.
struct Line {
    number: usize,
    /// Per round: opponent number (0 for none), colour, result code.
    rounds: Vec<(usize, Option<Colour>, char)>,
}

fn parse(trf: &str) -> Vec<Line> {
    let mut lines: Vec<Line> = trf
        .lines()
        .filter(|l| l.starts_with("001"))
        .map(|l| {
            let chars: Vec<char> = l.chars().collect();
            let field = |from: usize, to: usize| -> String {
                chars[from - 1..to.min(chars.len())]
                    .iter()
                    .collect::<String>()
            };
            let number = field(5, 8).trim().parse().expect("pairing number");
            let mut rounds = Vec::new();
            let mut at = 92;
            while at + 7 <= chars.len() {
                let opponent = field(at, at + 3).trim().parse().unwrap_or(0);
                let colour = match chars[at + 4] {
                    'w' => Some(Colour::White),
                    'b' => Some(Colour::Black),
                    _ => None,
                };
                rounds.push((opponent, colour, chars[at + 6]));
                at += 10;
            }
            Line { number, rounds }
        })
        .collect();
    lines.sort_by_key(|l| l.number);
    lines
}

/// Points times two of a result code.
fn half_points(code: char) -> u32 {
    match code {
        '1' | '+' | 'W' | 'U' | 'F' => 2,
        '=' | 'D' | 'H' => 1,
        _ => 0,
    }
}

fn played(code: char) -> bool {
    matches!(code, '1' | '=' | '0' | 'W' | 'D' | 'L')
}

/// Did the player take part in round `r`'s pairing?
fn paired_in(line: &Line, r: usize) -> bool {
    let (opponent, _, code) = line.rounds[r];
    opponent != 0 || code == 'U'
}

fn score_before(line: &Line, r: usize) -> u32 {
    line.rounds[..r].iter().map(|x| half_points(x.2)).sum()
}

/// The float a player got in round `k` (A.4): an unplayed round that
/// scored is a downfloat; a game against a different score floats both.
fn float(lines: &[Line], line: &Line, k: usize) -> Float {
    let (opponent, _, code) = line.rounds[k];
    if !played(code) {
        return if half_points(code) > 0 {
            Float::Down
        } else {
            Float::None
        };
    }
    let mine = score_before(line, k);
    let theirs = score_before(&lines[opponent - 1], k);
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => Float::Down,
        std::cmp::Ordering::Less => Float::Up,
        std::cmp::Ordering::Equal => Float::None,
    }
}

fn players_before(lines: &[Line], r: usize) -> Vec<Player> {
    lines
        .iter()
        .filter(|l| paired_in(l, r))
        .map(|l| {
            let history = &l.rounds[..r];
            let back = |n: usize| {
                if r >= n {
                    float(lines, l, r - n)
                } else {
                    Float::None
                }
            };
            Player {
                id: l.number,
                rank: l.number - 1,
                half_points: score_before(l, r),
                colours: history
                    .iter()
                    .filter(|x| played(x.2))
                    .filter_map(|x| x.1)
                    .collect(),
                opponents: history
                    .iter()
                    .filter(|x| played(x.2))
                    .map(|x| x.0)
                    .collect(),
                bye_eligible: !history.iter().any(|x| matches!(x.2, 'U' | '+' | 'F')),
                floats: [back(1), back(2)],
            }
        })
        .collect()
}

/// Round `r`'s pairing as the file has it, sorted.
fn expected(lines: &[Line], r: usize) -> Vec<(usize, Option<usize>)> {
    let mut pairs: Vec<(usize, Option<usize>)> = lines
        .iter()
        .filter_map(|l| match l.rounds[r] {
            (0, _, 'U') => Some((l.number, None)),
            (o, Some(Colour::White), _) if o != 0 => Some((l.number, Some(o))),
            _ => None,
        })
        .collect();
    pairs.sort();
    pairs
}

#[test]
fn rounds_are_paired_as_the_dutch_fixtures_say() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dutch");
    let (mut same, mut total) = (0, 0);
    let mut report = Vec::new();
    for event in 1..=40 {
        let path = dir.join(format!("event-{event:02}.trf"));
        let lines = parse(&std::fs::read_to_string(&path).expect("fixture"));
        let rounds = lines[0].rounds.len();
        let initial_colour = lines[0].rounds[0].1.unwrap_or(Colour::White);
        let mut misses = Vec::new();
        for r in 0..rounds {
            let players = players_before(&lines, r);
            let round = Round {
                initial_colour,
                played: r as u32,
                last: r + 1 == rounds,
            };
            let mut ours = dutch::pair(&players, round).unwrap_or_default();
            ours.sort();
            total += 1;
            let theirs = expected(&lines, r);
            if ours == theirs {
                same += 1;
            } else {
                misses.push(r + 1);
                if std::env::var("DUTCH_DEBUG").is_ok_and(|v| v == format!("{event}")) {
                    let only = |a: &[(usize, Option<usize>)], b: &[(usize, Option<usize>)]| {
                        a.iter()
                            .filter(|x| !b.contains(x))
                            .copied()
                            .collect::<Vec<_>>()
                    };
                    println!(
                        "event {event} round {}: ours {:?} theirs {:?}",
                        r + 1,
                        only(&ours, &theirs),
                        only(&theirs, &ours)
                    );
                    for p in &players {
                        println!(
                            "  {:>2} {:>2} {:?} fl {:?} bye {}",
                            p.id,
                            p.half_points,
                            p.colours
                                .iter()
                                .map(|c| if *c == Colour::White { 'w' } else { 'b' })
                                .collect::<String>(),
                            p.floats,
                            p.bye_eligible
                        );
                    }
                }
            }
        }
        if !misses.is_empty() {
            report.push(format!("event {event:02}: rounds {misses:?} differ"));
        }
    }
    let share = f64::from(same) / f64::from(total);
    println!("{}", report.join("\n"));
    println!(
        "{same} of {total} rounds paired as Dutch ({:.1} %)",
        share * 100.0
    );
    assert_eq!(
        same,
        total,
        "{same} of {total} rounds agree ({:.1} %)",
        share * 100.0
    );
}
