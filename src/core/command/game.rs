//! What a game shows: its board, moves, PGN and GIF, one's games, an
//! engine review, and one's private notes on it.

use super::play::GAME;
use super::table::{Home, Kind, Pos, Spec, opt, row};
use super::{Command, CommandError};

/// The longest private note accepted, in characters.
pub const MAX_NOTE_CHARS: usize = 1000;

const fn in_game(spec: Spec) -> Spec {
    spec.home(Home::In("game"))
}

/// `board 12` and `board game:12` both name game 12.
const ANY_GAME: &[super::table::Opt] = &[GAME.at(Pos::First)];

pub const ROWS: &[Spec] = &[
    in_game(
        row("board", "echiquier", ANY_GAME, |a| {
            Ok(Command::Board { game: a.game() })
        })
        .aka(&["échiquier"]),
    ),
    in_game(row("moves", "coups", ANY_GAME, |a| {
        Ok(Command::Moves { game: a.game() })
    })),
    in_game(row("pgn", "pgn", ANY_GAME, |a| {
        Ok(Command::Pgn { game: a.game() })
    })),
    in_game(row("gif", "gif", ANY_GAME, |a| {
        Ok(Command::Gif { game: a.game() })
    })),
    in_game(row("games", "parties", &[], |_| Ok(Command::Games))),
    in_game(row("review", "analyse", ANY_GAME, |a| {
        Ok(Command::Review { game: a.game() })
    })),
    in_game(
        row(
            "note",
            "note",
            &[
                opt(
                    "text",
                    "texte",
                    Kind::Text {
                        max: MAX_NOTE_CHARS,
                    },
                )
                .at(Pos::Rest)
                .required(),
                GAME,
            ],
            |a| -> Result<Command, CommandError> {
                Ok(Command::Note {
                    text: a.need("text")?.to_owned(),
                    game: a.game(),
                })
            },
        )
        .secret(),
    ),
    in_game(
        row("notes", "notes", ANY_GAME, |a| {
            Ok(Command::Notes { game: a.game() })
        })
        .secret(),
    ),
];
