//! Opening names by position, from lichess's chess-openings tables (CC0,
//! `assets/openings/`): a game is named by the last position of its moves
//! that the tables name, so a transposed move order gets the same name.

use std::collections::HashMap;
use std::sync::OnceLock;

use shakmaty::fen::Epd;
use shakmaty::san::San;
use shakmaty::{Chess, EnPassantMode, Position};

/// A named opening: its ECO code and lichess's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    pub eco: &'static str,
    pub name: &'static str,
}

const TABLES: [&str; 5] = [
    include_str!("../../assets/openings/a.tsv"),
    include_str!("../../assets/openings/b.tsv"),
    include_str!("../../assets/openings/c.tsv"),
    include_str!("../../assets/openings/d.tsv"),
    include_str!("../../assets/openings/e.tsv"),
];

/// The position as the tables are keyed: pieces, side to move, castling
/// rights and an en passant square only when a capture there is legal.
fn key(position: &Chess) -> String {
    Epd::from_position(position, EnPassantMode::Legal).to_string()
}

/// Every named position, built on first use (3,807 lines, a few milliseconds).
fn named() -> &'static HashMap<String, Opening> {
    static NAMED: OnceLock<HashMap<String, Opening>> = OnceLock::new();
    NAMED.get_or_init(|| {
        let mut named = HashMap::new();
        for line in TABLES.iter().flat_map(|t| t.lines().skip(1)) {
            let mut fields = line.split('\t');
            let (Some(eco), Some(name), Some(moves)) =
                (fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            let Some(position) = play(moves) else {
                continue;
            };
            // The first line naming a position keeps it (the tables list
            // the main name before its variations).
            named.entry(key(&position)).or_insert(Opening { eco, name });
        }
        named
    })
}

/// The position after a line of SAN moves with move numbers (`1. e4 e5`).
fn play(moves: &str) -> Option<Chess> {
    let mut position = Chess::default();
    for word in moves.split_whitespace().filter(|w| !w.ends_with('.')) {
        let m = word.parse::<San>().ok()?.to_move(&position).ok()?;
        position.play_unchecked(m);
    }
    Some(position)
}

/// The opening `position` is named for, if the tables name it.
pub fn at(position: &Chess) -> Option<Opening> {
    named().get(&key(position)).copied()
}

/// The opening of a game from the standard start position: the name of
/// the last of its positions the tables know, if any.
pub fn of_positions<'a>(positions: impl IntoIterator<Item = &'a Chess>) -> Option<Opening> {
    let named = named();
    positions
        .into_iter()
        .filter_map(|p| named.get(&key(p)).copied())
        .last()
}

/// The opening of a game from the standard start, given its first moves
/// in UCI; moves that cannot be read end the replay there.
pub fn of_uci_moves<S: AsRef<str>>(moves: &[S]) -> Option<Opening> {
    let named = named();
    let mut position = Chess::default();
    let mut found = named.get(&key(&position)).copied();
    for text in moves {
        let Some(m) = shakmaty::uci::UciMove::from_ascii(text.as_ref().as_bytes())
            .ok()
            .and_then(|uci| uci.to_move(&position).ok())
        else {
            break;
        };
        position.play_unchecked(m);
        found = named.get(&key(&position)).copied().or(found);
    }
    found
}

/// How often one opening was played on a server, and how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    pub opening: Opening,
    pub white_wins: u32,
    pub draws: u32,
    pub black_wins: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.white_wins + self.draws + self.black_wins
    }

    /// White's share of the points, as a whole percentage.
    pub fn white_score_percent(&self) -> u32 {
        let half_points = 2 * self.white_wins + self.draws;
        (half_points * 50 + self.games() / 2) / self.games().max(1)
    }
}

/// The openings of finished games with their results, most played first
/// (then by ECO code and name); games no table names are left out.
pub fn tally(
    games: impl IntoIterator<Item = (Option<Opening>, super::event::GameResult)>,
) -> Vec<Tally> {
    use super::event::GameResult;
    let mut by_name: HashMap<(&'static str, &'static str), Tally> = HashMap::new();
    for (opening, result) in games {
        let Some(opening) = opening else { continue };
        let entry = by_name.entry((opening.eco, opening.name)).or_insert(Tally {
            opening,
            white_wins: 0,
            draws: 0,
            black_wins: 0,
        });
        match result {
            GameResult::WhiteWins => entry.white_wins += 1,
            GameResult::BlackWins => entry.black_wins += 1,
            GameResult::Draw => entry.draws += 1,
            GameResult::NoResult => {}
        }
    }
    let mut tallies: Vec<Tally> = by_name.into_values().filter(|t| t.games() > 0).collect();
    tallies.sort_by(|a, b| {
        b.games()
            .cmp(&a.games())
            .then(a.opening.eco.cmp(b.opening.eco))
            .then(a.opening.name.cmp(b.opening.name))
    });
    tallies
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_tallied_most_played_first_with_white_s_score() {
        use crate::core::event::GameResult::{BlackWins, Draw, WhiteWins};
        let ruy = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"];
        let sicilian = ["e2e4", "c7c5"];
        let games = [
            (&ruy[..], WhiteWins),
            (&ruy[..], Draw),
            (&sicilian[..], BlackWins),
            (&ruy[..], BlackWins),
            (&["a1a1"][..], WhiteWins),
        ];
        let tallies = tally(games.iter().map(|(moves, r)| (of_uci_moves(moves), *r)));
        let rows: Vec<(&str, u32, u32, u32, u32)> = tallies
            .iter()
            .map(|t| {
                let (w, d, b) = (t.white_wins, t.draws, t.black_wins);
                (t.opening.eco, w, d, b, t.white_score_percent())
            })
            .collect();
        assert_eq!(rows, [("C60", 1, 1, 1, 50), ("B20", 0, 0, 1, 0)]);
    }

    fn after(moves: &str) -> Option<Opening> {
        let mut position = Chess::default();
        let mut seen = vec![position.clone()];
        for word in moves.split_whitespace() {
            let m = word
                .parse::<San>()
                .expect("SAN")
                .to_move(&position)
                .expect("legal");
            position.play_unchecked(m);
            seen.push(position.clone());
        }
        of_positions(&seen)
    }

    #[test]
    fn games_are_named_by_their_last_named_position() {
        let cases = [
            ("e4 e5 Nf3 Nc6 Bb5", Some(("C60", "Ruy Lopez"))),
            // The same position by another order.
            ("Nf3 Nc6 e4 e5 Bb5", Some(("C60", "Ruy Lopez"))),
            // Past the tables: the last named position still names it.
            ("e4 e5 Nf3 Nc6 Bb5 h6 h3 h5", Some(("C60", "Ruy Lopez"))),
            ("d4 d5 c4", Some(("D06", "Queen's Gambit"))),
            ("", None),
        ];
        for (moves, expected) in cases {
            let got = after(moves).map(|o| (o.eco, o.name));
            assert_eq!(got, expected, "{moves}");
        }
    }

    #[test]
    fn every_line_of_the_tables_names_its_position() {
        let lines = TABLES.iter().flat_map(|t| t.lines().skip(1)).count();
        assert_eq!(lines, 3_807);
        assert!(named().len() > 3_400, "{}", named().len());
    }
}
