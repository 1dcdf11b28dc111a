//! Every named opening of lichess-org/chess-openings (`assets/openings/`,
//! CC0), replayed with players of each language typing every move both in
//! English SAN, as the file writes it, and in their own letters. No text may
//! ever play a move other than the one meant: each is read as that move, or
//! asks with that move among the candidates (RULES.md, "How players may write
//! a move"). The test prints how often each kind of player is asked.

use std::collections::HashMap;

use pawnpost::core::notation::{Lang, MoveInputError, Reader, Style, parse_move, write_san};
use shakmaty::san::SanPlus;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

const TABLES: [&str; 5] = [
    include_str!("../assets/openings/a.tsv"),
    include_str!("../assets/openings/b.tsv"),
    include_str!("../assets/openings/c.tsv"),
    include_str!("../assets/openings/d.tsv"),
    include_str!("../assets/openings/e.tsv"),
];

/// How a player writes: English SAN, or the letters of their own language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Alphabet {
    English,
    Own,
}

/// The SAN moves of every opening line, in file order.
fn opening_lines() -> Vec<(String, Vec<String>)> {
    let mut lines = Vec::new();
    for table in TABLES {
        for row in table.lines().skip(1) {
            let columns: Vec<&str> = row.split('\t').collect();
            assert_eq!(columns.len(), 3, "eco, name, pgn: {row:?}");
            let moves = columns[2]
                .split_whitespace()
                .filter(|token| !token.ends_with('.'))
                .map(str::to_owned)
                .collect();
            lines.push((columns[1].to_owned(), moves));
        }
    }
    lines
}

/// English SAN with German letters (the bot writes no German; the
/// substitution is what a German player types).
fn german(english_san: &str) -> String {
    let mut chars = english_san.chars();
    let first = match chars.next() {
        Some('Q') => 'D',
        Some('R') => 'T',
        Some('B') => 'L',
        Some('N') => 'S',
        Some(other) => other,
        None => return String::new(),
    };
    let rest: String = chars.collect();
    let rest = rest
        .replace("=Q", "=D")
        .replace("=R", "=T")
        .replace("=B", "=L")
        .replace("=N", "=S");
    format!("{first}{rest}")
}

/// The text a speaker of `lang` types for `m` in `alphabet`.
fn typed(pos: &Chess, m: Move, english_san: &str, lang: Lang, alphabet: Alphabet) -> String {
    match (alphabet, lang) {
        (Alphabet::English, _) | (Alphabet::Own, Lang::En) => english_san.to_owned(),
        (Alphabet::Own, Lang::Fr) => write_san(pos, m, Style::French),
        (Alphabet::Own, Lang::De) => german(english_san),
        (Alphabet::Own, Lang::Ru) => write_san(pos, m, Style::Russian),
    }
}

#[derive(Clone, Debug)]
enum Outcome {
    Played,
    Asked(Vec<Move>),
    Wrong(String),
}

fn outcome(pos: &Chess, m: Move, text: &str, lang: Lang) -> Outcome {
    match parse_move(pos, text, &Reader::speaking(lang)) {
        Ok(got) if got == m => Outcome::Played,
        Err(MoveInputError::Ambiguous { candidates }) if candidates.contains(&m) => {
            Outcome::Asked(candidates)
        }
        other => Outcome::Wrong(format!("{other:?}")),
    }
}

#[derive(Default)]
struct Count {
    plies: usize,
    asked: usize,
    distinct: usize,
    distinct_asked: usize,
    examples: Vec<String>,
}

#[test]
fn no_opening_move_is_ever_misread() {
    let lines = opening_lines();
    assert_eq!(lines.len(), 3807, "every named opening");
    let kinds: Vec<(Lang, Alphabet)> = Lang::ALL
        .into_iter()
        .flat_map(|lang| [(lang, Alphabet::English), (lang, Alphabet::Own)])
        .filter(|(lang, alphabet)| !(*lang == Lang::En && *alphabet == Alphabet::Own))
        .collect();
    // One position and move is typed the same way in many lines.
    let mut seen: HashMap<(u64, Move, Lang, Alphabet), Outcome> = HashMap::new();
    let mut counts: HashMap<(Lang, Alphabet), Count> = HashMap::new();
    let mut failures = Vec::new();
    let mut plies = 0;
    for (name, moves) in &lines {
        let mut pos = Chess::default();
        for san_text in moves {
            let san: SanPlus = san_text
                .parse()
                .unwrap_or_else(|_| panic!("{name}: {san_text}"));
            let m = san
                .san
                .to_move(&pos)
                .unwrap_or_else(|_| panic!("{name}: {san_text} is legal"));
            let key: u64 = pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
            for &(lang, alphabet) in &kinds {
                let count = counts.entry((lang, alphabet)).or_default();
                count.plies += 1;
                let text = typed(&pos, m, san_text, lang, alphabet);
                let result = seen.entry((key, m, lang, alphabet)).or_insert_with(|| {
                    let result = outcome(&pos, m, &text, lang);
                    count.distinct += 1;
                    if let Outcome::Asked(candidates) = &result {
                        count.distinct_asked += 1;
                        if count.examples.len() < 4 {
                            let written: Vec<String> = candidates
                                .iter()
                                .map(|c| c.to_uci(CastlingMode::Standard).to_string())
                                .collect();
                            count
                                .examples
                                .push(format!("{text} in {name}: {}", written.join(" or ")));
                        }
                    }
                    result
                });
                match result {
                    Outcome::Played => {}
                    Outcome::Asked(_) => count.asked += 1,
                    Outcome::Wrong(got) => failures.push(format!(
                        "{name}: {text:?} typed by a {lang:?} speaker for {san_text}: {got}"
                    )),
                }
            }
            pos.play_unchecked(m);
            plies += 1;
        }
    }
    println!(
        "{} lines, {plies} plies; asked instead of played (plies, distinct position and move):",
        lines.len()
    );
    for kind in &kinds {
        let count = &counts[kind];
        println!(
            "  {:?} speaker typing {:?}: {} of {} plies, {} of {} distinct",
            kind.0, kind.1, count.asked, count.plies, count.distinct_asked, count.distinct
        );
        for example in &count.examples {
            println!("    e.g. {example}");
        }
    }
    failures.dedup();
    assert!(
        failures.is_empty(),
        "{} misread:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Asking is the exception: a player who types a notation is rarely asked.
    for kind in &kinds {
        let count = &counts[kind];
        assert!(
            count.distinct_asked * 100 <= count.distinct,
            "{kind:?}: asked for {} of {} moves",
            count.distinct_asked,
            count.distinct
        );
    }
}
