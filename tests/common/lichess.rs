//! The real games of `tests/data/lichess/` (lichess's open database, CC0;
//! see its README), read into positions and moves.

#![allow(dead_code)]

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position};

const GAMES: &str = include_str!("../data/lichess/lichess_db_standard_rated_2013-01_500.pgn");

/// One game: its lichess address, and each position with the move played.
pub struct Game {
    pub site: String,
    pub plies: Vec<(Chess, Move)>,
}

/// Every game of the file, its moves (English SAN, as lichess wrote them)
/// checked legal.
pub fn games() -> Vec<Game> {
    let mut games = Vec::new();
    let mut site = String::new();
    for line in GAMES.lines() {
        if let Some(tag) = line.strip_prefix("[Site \"") {
            site = tag.trim_end_matches("\"]").to_owned();
            continue;
        }
        if line.starts_with('[') || line.trim().is_empty() {
            continue;
        }
        let mut pos = Chess::default();
        let mut plies = Vec::new();
        for token in line.split_whitespace() {
            if token.ends_with('.') || ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
                continue;
            }
            let san: SanPlus = token.parse().unwrap_or_else(|_| panic!("{site}: {token}"));
            let m = san
                .san
                .to_move(&pos)
                .unwrap_or_else(|_| panic!("{site}: {token} is legal"));
            plies.push((pos.clone(), m));
            pos.play_unchecked(m);
        }
        games.push(Game {
            site: site.clone(),
            plies,
        });
    }
    games
}
