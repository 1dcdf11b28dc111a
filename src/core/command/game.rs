//! What a game shows: its board, moves, PGN and GIF, one's games, an
//! engine review, and one's private notes on it.

use super::play::GAME;
use super::table::{Home, Opt, Pos, Spec, opt, row, text};
use super::{Args, Command, CommandError};

/// The longest private note accepted, in characters.
pub const MAX_NOTE_CHARS: usize = 1000;

/// `board 12` and `board game:12` both name game 12.
const ANY_GAME: &[Opt] = &[GAME.at(Pos::First)];
const NOTE: Opt = opt("text", "texte", text(MAX_NOTE_CHARS)).at(Pos::Rest);
const GAMES: Home = Home::In("game");

#[rustfmt::skip]
pub const ROWS: &[Spec] = &[
    row("board", "echiquier", ANY_GAME, |a| Ok(Command::Board { game: a.game() })).aka(&["échiquier"]).home(GAMES),
    row("moves", "coups", ANY_GAME, |a| Ok(Command::Moves { game: a.game() })).home(GAMES),
    row("pgn", "pgn", ANY_GAME, |a| Ok(Command::Pgn { game: a.game() })).home(GAMES),
    row("gif", "gif", ANY_GAME, |a| Ok(Command::Gif { game: a.game() })).home(GAMES),
    row("games", "parties", &[], |_| Ok(Command::Games)).home(GAMES),
    row("review", "analyse", ANY_GAME, |a| Ok(Command::Review { game: a.game() })).home(GAMES),
    row("note", "note", &[NOTE.required(), GAME], note).secret().home(GAMES),
    row("notes", "notes", ANY_GAME, |a| Ok(Command::Notes { game: a.game() })).secret().home(GAMES),
];

fn note(a: &Args) -> Result<Command, CommandError> {
    let text = a.need(NOTE.name)?.to_owned();
    Ok(Command::Note {
        text,
        game: a.game(),
    })
}
