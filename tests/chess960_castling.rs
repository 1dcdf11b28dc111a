//! Chess960 castling through the whole bot: every game of
//! `tests/fixtures/chess960/castling.txt` (written by python-chess, see its
//! README) is challenged with its start number and replayed through the
//! console, castling typed each way players type it: `O-O`/`O-O-O`,
//! `0-0`/`0-0-0`, king-takes-rook UCI (`b1a1`), and the king's own squares
//! (`b1g1`) where the king travels two squares or more (the only case where
//! that form cannot be a plain king move). After every castling the board's
//! FEN must be the table's.

mod common;

use common::{Console, events_of};
use serde_json::Value;

/// One move of a table game: how python-chess wrote it, and the position
/// after it when it castles.
struct TableMove {
    uci: String,
    san: String,
    fen_after: Option<String>,
}

struct TableGame {
    start: u16,
    moves: Vec<TableMove>,
}

fn table() -> Vec<TableGame> {
    let text = include_str!("fixtures/chess960/castling.txt");
    let mut games: Vec<TableGame> = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        if let Some(number) = line.strip_prefix("start ") {
            games.push(TableGame {
                start: number.trim().parse().expect("a start number"),
                moves: Vec::new(),
            });
            continue;
        }
        let (uci, rest) = line.split_once(' ').expect("uci and san");
        let (san, fen) = match rest.split_once(' ') {
            Some((san, fen)) => (san, Some(fen.to_owned())),
            None => (rest, None),
        };
        games
            .last_mut()
            .expect("a start first")
            .moves
            .push(TableMove {
                uci: uci.to_owned(),
                san: san.to_owned(),
                fen_after: fen,
            });
    }
    games
}

/// How castling is typed in one replay.
#[derive(Clone, Copy, Debug)]
enum Form {
    /// `O-O`, `O-O-O`.
    Letters,
    /// `0-0`, `0-0-0`.
    Zeros,
    /// `b1a1`: the king takes its own rook.
    KingTakesRook,
    /// `b1g1`: the king's start and castled squares, where they are two or
    /// more squares apart; king-takes-rook otherwise.
    KingSquares,
}

/// What a player types for table move `m` in `form`. Other moves go in
/// UCI: SAN letters may be read in several languages (French `R` is the
/// king), which the bot rightly asks about, and that is not under test here.
fn typed(m: &TableMove, form: Form) -> String {
    let castle = m.san.starts_with("O-O");
    match (castle, form) {
        (false, _) => m.uci.clone(),
        (true, Form::Letters) => m.san.trim_end_matches(['+', '#']).to_owned(),
        (true, Form::Zeros) => m.san.trim_end_matches(['+', '#']).replace('O', "0"),
        (true, Form::KingTakesRook) => m.uci.clone(),
        (true, Form::KingSquares) => {
            let (from, rook) = m.uci.split_at(2);
            let rank = &from[1..];
            let long = m.san.starts_with("O-O-O");
            let target = format!("{}{rank}", if long { 'c' } else { 'g' });
            let distance = (i32::from(from.as_bytes()[0]) - i32::from(target.as_bytes()[0])).abs();
            if distance >= 2 {
                format!("{from}{target}")
            } else {
                format!("{from}{rook}")
            }
        }
    }
}

/// The reply carrying ply `ply`'s move, and its event.
fn move_reply(out: &[Value], ply: usize) -> (&Value, Value) {
    out.iter()
        .find_map(|reply| {
            let events = reply["events"].as_array()?;
            let event = events
                .iter()
                .find(|e| e["type"] == "move_played" && e["ply"] == ply as u64)?;
            reply["board"].is_object().then(|| (reply, event.clone()))
        })
        .unwrap_or_else(|| panic!("no reply with a board for ply {ply}"))
}

fn replay(game: &TableGame, form: Form) {
    let mut script = format!(
        "alice: /challenge @bob color:white variant:chess960 start:{}\nbob: /accept\n",
        game.start
    );
    for (index, m) in game.moves.iter().enumerate() {
        let who = if index % 2 == 0 { "alice" } else { "bob" };
        script.push_str(&format!("{who}: /move {}\n", typed(m, form)));
    }
    let out = Console::new().run(&script);
    let context = format!("start {} typed as {form:?}", game.start);
    let played = events_of(&out, "move_played");
    assert_eq!(
        played.len(),
        game.moves.len(),
        "{context}: every move played"
    );
    for (index, m) in game.moves.iter().enumerate() {
        let ply = index + 1;
        let (reply, event) = move_reply(&out, ply);
        // Stored and shown as Chess960 UCI: castling king-takes-rook.
        assert_eq!(event["uci"], m.uci.as_str(), "{context}, ply {ply}");
        assert_eq!(event["san"], m.san.as_str(), "{context}, ply {ply}");
        if let Some(fen) = &m.fen_after {
            assert_eq!(
                reply["board"]["fen"].as_str(),
                Some(fen.as_str()),
                "{context}: the position after {} (ply {ply})",
                m.san
            );
        }
    }
}

#[test]
fn every_table_game_castles_alike_in_every_form() {
    let games = table();
    let starts: std::collections::BTreeSet<u16> = games.iter().map(|g| g.start).collect();
    assert!(
        starts.len() >= 8,
        "at least eight start positions: {starts:?}"
    );
    for game in &games {
        let castlings = game.moves.iter().filter(|m| m.fen_after.is_some()).count();
        assert_eq!(castlings, 2, "start {}: both sides castle", game.start);
        for form in [
            Form::Letters,
            Form::Zeros,
            Form::KingTakesRook,
            Form::KingSquares,
        ] {
            replay(game, form);
        }
    }
}

#[test]
fn each_start_has_each_side_castle_both_ways() {
    let games = table();
    for start in games.iter().map(|g| g.start) {
        let mut seen = std::collections::BTreeSet::new();
        for game in games.iter().filter(|g| g.start == start) {
            for (index, m) in game.moves.iter().enumerate() {
                if m.san.starts_with("O-O") {
                    let side = if index % 2 == 0 { "white" } else { "black" };
                    let way = if m.san.starts_with("O-O-O") {
                        "long"
                    } else {
                        "short"
                    };
                    seen.insert((side, way));
                }
            }
        }
        assert_eq!(seen.len(), 4, "start {start}: {seen:?}");
    }
}
