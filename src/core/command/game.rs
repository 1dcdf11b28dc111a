//! What a game shows: its board, moves, PGN and GIF, one's games, an
//! engine review, and one's private notes on it.

use super::play::GAME;
use super::table::{Choice, Home, Kind, Opt, Pos, Spec, choice, opt, row, text};
use super::{Args, Command, CommandError};

/// The longest private note accepted, in characters.
pub const MAX_NOTE_CHARS: usize = 1000;

/// `board 12` and `board game:12` both name game 12.
const ANY_GAME: &[Opt] = &[GAME.at(Pos::First)];
const NOTE: Opt = opt("text", "texte", text(MAX_NOTE_CHARS)).at(Pos::Rest);
const GAMES: Home = Home::In("game");
/// Which of one's games `/games` lists.
const SCOPES: &[Choice] = &[
    choice("here", "ici", &["server", "serveur"]),
    choice("everywhere", "partout", &["all", "tout", "toutes"]),
    choice(
        "finished",
        "terminees",
        &["over", "done", "terminées", "finies"],
    ),
];
const SCOPE: Opt = opt("scope", "portee", Kind::Choice(SCOPES))
    .at(Pos::First)
    .or(&["portée"]);

/// Which games `/games` lists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GamesScope {
    /// The running games on this server.
    #[default]
    Here,
    /// The running games on every server and platform (linked accounts too).
    Everywhere,
    /// The finished games everywhere, latest first.
    Finished,
}

#[rustfmt::skip]
pub const ROWS: &[Spec] = &[
    row("board", "echiquier", ANY_GAME, |a| Ok(Command::Board { game: a.game() })).aka(&["échiquier"]).home(GAMES),
    row("moves", "coups", ANY_GAME, |a| Ok(Command::Moves { game: a.game() })).home(GAMES),
    row("pgn", "pgn", ANY_GAME, |a| Ok(Command::Pgn { game: a.game() })).home(GAMES),
    row("gif", "gif", ANY_GAME, |a| Ok(Command::Gif { game: a.game() })).home(GAMES),
    row("games", "parties", &[SCOPE], games).home(GAMES),
    row("review", "analyse", ANY_GAME, |a| Ok(Command::Review { game: a.game() })).home(GAMES),
    row("note", "note", &[NOTE.required(), GAME], note).secret().home(GAMES),
    row("notes", "notes", ANY_GAME, |a| Ok(Command::Notes { game: a.game() })).secret().home(GAMES),
];

fn games(a: &Args) -> Result<Command, CommandError> {
    Ok(Command::Games(match a.text(SCOPE.name) {
        Some("everywhere") => GamesScope::Everywhere,
        Some("finished") => GamesScope::Finished,
        _ => GamesScope::Here,
    }))
}

fn note(a: &Args) -> Result<Command, CommandError> {
    let text = a.need(NOTE.name)?.to_owned();
    Ok(Command::Note {
        text,
        game: a.game(),
    })
}
