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

#[cfg(test)]
mod tests {
    use super::*;

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
