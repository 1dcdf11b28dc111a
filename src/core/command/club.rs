//! What a server plays together: standings, ratings, records, openings,
//! puzzles from its games, and the challenge ladder.

use super::table::{Home, Kind, Opt, Pos, Spec, group, opt, row};
use super::{Command, CommandError};

/// The longest season name accepted.
pub const MAX_SEASON: usize = 40;
/// The longest puzzle answer accepted (a move, with its `+`).
const MAX_ANSWER: usize = 16;

/// What a player does on the server's challenge ladder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LadderAction {
    Show,
    Join,
    Leave,
    /// Challenge a player above (a ladder game if they accept).
    Challenge {
        opponent: super::UserRef,
    },
}

/// What a player does with the server's puzzles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleAction {
    /// Show the puzzle given and not answered, or give the next one.
    Next,
    /// Answer the puzzle given with a move, in any accepted notation.
    Answer(String),
    /// The server's solvers.
    Solvers,
}

const PLAYER: Opt = opt("player", "joueur", Kind::User)
    .at(Pos::Mention)
    .or(&["user"]);

const fn in_club(spec: Spec) -> Spec {
    spec.home(Home::In("club"))
}

pub const ROWS: &[Spec] = &[
    in_club(row(
        "standings",
        "classement",
        &[opt("season", "saison", Kind::Text { max: MAX_SEASON })],
        |a| {
            Ok(match a.owned("season") {
                None => Command::Standings,
                Some(season) => Command::SeasonStandings { season },
            })
        },
    )),
    in_club(row("rating", "cote", &[PLAYER], |a| {
        Ok(Command::Rating {
            user: a.user("player"),
        })
    })),
    in_club(row(
        "record",
        "bilan",
        &[
            PLAYER.required(),
            opt("opponent", "adversaire", Kind::User).at(Pos::Mention),
        ],
        |a| {
            let player = a
                .user("player")
                .ok_or(CommandError::MissingArgument("player"))?;
            Ok(Command::Record {
                player,
                opponent: a.user("opponent"),
            })
        },
    )),
    in_club(row("openings", "ouvertures", &[], |_| {
        Ok(Command::Openings)
    })),
    in_club(
        group(
            "puzzle",
            "probleme",
            &[
                row("next", "suivant", &[], |_| {
                    Ok(Command::Puzzle(PuzzleAction::Next))
                }),
                // Without a move, the puzzle to answer: `/puzzle` alone shows it.
                row(
                    "answer",
                    "reponse",
                    &[opt("move", "coup", Kind::Text { max: MAX_ANSWER }).at(Pos::First)],
                    |a| {
                        Ok(Command::Puzzle(match a.owned("move") {
                            Some(answer) => PuzzleAction::Answer(answer),
                            None => PuzzleAction::Next,
                        }))
                    },
                )
                .aka(&["réponse"]),
                row("solvers", "solveurs", &[], |_| {
                    Ok(Command::Puzzle(PuzzleAction::Solvers))
                })
                .aka(&["top", "classement"]),
            ],
        )
        .default_sub("answer")
        .aka(&["problème"]),
    ),
    in_club(
        group(
            "ladder",
            "echelle",
            &[
                row("show", "voir", &[], |_| {
                    Ok(Command::Ladder(LadderAction::Show))
                }),
                row("join", "rejoindre", &[], |_| {
                    Ok(Command::Ladder(LadderAction::Join))
                }),
                row("leave", "quitter", &[], |_| {
                    Ok(Command::Ladder(LadderAction::Leave))
                }),
                row("challenge", "defi", &[PLAYER.required()], |a| {
                    let opponent = a
                        .user("player")
                        .ok_or(CommandError::MissingArgument("player"))?;
                    Ok(Command::Ladder(LadderAction::Challenge { opponent }))
                })
                .aka(&["défi"]),
            ],
        )
        .default_sub("show")
        .aka(&["échelle"]),
    ),
];
