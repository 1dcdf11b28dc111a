//! Acts on a running game: move, draw, claim, resign, abort, more time,
//! takebacks, conditional moves, and a team member's vote.

use super::table::{Home, Kind, MAX_ID, Opt, Pos, Spec, Suggest, group, opt, row};
use super::{Args, Command, CommandError};
use crate::core::event::ClaimKind;
use crate::core::game::{MAX_MORE_TIME_DAYS, TakebackAction};
use crate::core::notation::MAX_MOVE_INPUT;

/// The option every command about one game has (`game:3`).
pub const GAME: Opt = opt(
    "game",
    "partie",
    Kind::Number {
        min: 1,
        max: MAX_ID,
    },
)
.suggest(Suggest::Games);
/// A move as typed: the rest of the words (`exd6 e.p.`).
const MOVE: Opt = opt(
    "move",
    "coup",
    Kind::Text {
        max: MAX_MOVE_INPUT,
    },
)
.at(Pos::Rest);
const OFFER_DRAW: Opt = opt("offer_draw", "proposer_nulle", Kind::Bool)
    .at(Pos::Flag)
    .or(&["offer"]);
/// The longest line of conditional moves typed at once: a move and its
/// replies up to the line's limit, each up to a move's length, with spaces.
const MAX_IF_LINE: usize = (crate::core::conditional::MAX_PLIES + 1) * (MAX_MOVE_INPUT + 1);

/// What to do with a draw offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawAction {
    Offer,
    Accept,
    Decline,
}

/// What a player does with their conditional moves in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IfAction {
    /// A line of moves as written, beginning with the opponent's next
    /// move (or, on one's own turn, with one's own move, played at once).
    Add(Vec<String>),
    List,
    Clear,
}

/// What a team member votes for on the team's turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VoteChoice {
    /// A move as written, perhaps with a draw offer.
    Move {
        text: String,
        offer_draw: bool,
    },
    Resign,
    /// Accept the opponent's standing draw offer.
    Accept,
}

const fn in_play(spec: Spec) -> Spec {
    spec.home(Home::In("play"))
}

/// The most frequent act's name.
pub const MOVE_ROW: &str = "move";

pub const ROWS: &[Spec] = &[
    row(
        MOVE_ROW,
        "coup",
        &[MOVE.required().suggest(Suggest::Moves), OFFER_DRAW, GAME],
        |a| {
            Ok(Command::Move {
                text: a.need("move")?.to_owned(),
                offer_draw: flag(a, "offer_draw"),
                game: a.game(),
            })
        },
    )
    .aka(&["m"]),
    in_play(
        group(
            "draw",
            "nulle",
            &[
                row("offer", "proposer", &[GAME], |a| draw(a, DrawAction::Offer)),
                row("accept", "accepter", &[GAME], |a| {
                    draw(a, DrawAction::Accept)
                })
                .aka(&["yes", "oui"]),
                row("decline", "refuser", &[GAME], |a| {
                    draw(a, DrawAction::Decline)
                })
                .aka(&["no", "non"]),
            ],
        )
        .default_sub("offer"),
    ),
    in_play(row(
        "claim",
        "reclamer",
        &[
            opt("kind", "motif", Kind::Choice(CLAIMS)).at(Pos::FirstIf),
            opt(
                "move",
                "coup",
                Kind::Text {
                    max: MAX_MOVE_INPUT,
                },
            )
            .at(Pos::Rest),
            GAME,
        ],
        |a| {
            let kind = match a.text("kind") {
                Some("threefold") => Some(ClaimKind::Threefold),
                Some(_) => Some(ClaimKind::Fifty),
                None => None,
            };
            Ok(Command::Claim {
                kind,
                with_move: a.owned("move"),
                game: a.game(),
            })
        },
    ))
    .aka(&["réclamer"]),
    in_play(row("resign", "abandon", &[GAME], |a| {
        Ok(Command::Resign { game: a.game() })
    })),
    in_play(row("abort", "annuler", &[GAME], |a| {
        Ok(Command::Abort { game: a.game() })
    })),
    in_play(row(
        "moretime",
        "plus_de_temps",
        &[
            opt(
                "days",
                "jours",
                Kind::Days {
                    max: MAX_MORE_TIME_DAYS as i64,
                },
            )
            .at(Pos::First)
            .required(),
            GAME,
        ],
        |a| {
            Ok(Command::MoreTime {
                days: a.need_count("days")?,
                game: a.game(),
            })
        },
    )),
    in_play(
        group(
            "takeback",
            "reprise",
            &[
                row("request", "demander", &[GAME], |a| {
                    takeback(a, TakebackAction::Request)
                }),
                row("accept", "accepter", &[GAME], |a| {
                    takeback(a, TakebackAction::Accept)
                }),
                row("decline", "refuser", &[GAME], |a| {
                    takeback(a, TakebackAction::Decline)
                }),
            ],
        )
        .default_sub("request"),
    ),
    in_play(
        group(
            "if",
            "si",
            &[
                row(
                    "add",
                    "ajouter",
                    &[
                        opt("moves", "coups", Kind::Text { max: MAX_IF_LINE })
                            .at(Pos::Rest)
                            .required(),
                        GAME,
                    ],
                    add_line,
                )
                .secret(),
                row("list", "liste", &[GAME], |a| {
                    Ok(Command::If {
                        action: IfAction::List,
                        game: a.game(),
                    })
                })
                .secret(),
                row("clear", "effacer", &[GAME], |a| {
                    Ok(Command::If {
                        action: IfAction::Clear,
                        game: a.game(),
                    })
                })
                .secret(),
            ],
        )
        .default_sub("add")
        .secret(),
    ),
    in_play(
        group(
            "vote",
            "voter",
            &[
                row("move", "coup", &[MOVE.required(), OFFER_DRAW, GAME], |a| {
                    vote_move(a, flag(a, "offer_draw"))
                })
                .secret(),
                row("draw", "nulle", &[MOVE.required(), GAME], |a| {
                    vote_move(a, true)
                })
                .secret(),
                row("resign", "abandon", &[GAME], |a| {
                    vote(a, VoteChoice::Resign)
                })
                .secret(),
                row("accept", "accepter", &[GAME], |a| {
                    vote(a, VoteChoice::Accept)
                })
                .secret(),
            ],
        )
        .default_sub("move")
        .secret(),
    ),
];

const CLAIMS: &[super::table::Choice] = &[
    super::table::Choice {
        value: "threefold",
        fr: "repetition",
        words: &["3", "répétition"],
    },
    super::table::Choice {
        value: "fifty",
        fr: "cinquante",
        words: &["50"],
    },
];

fn flag(a: &Args, name: &str) -> bool {
    a.flag(name).unwrap_or(false)
}

fn draw(a: &Args, action: DrawAction) -> Result<Command, CommandError> {
    Ok(Command::Draw {
        action,
        game: a.game(),
    })
}

fn takeback(a: &Args, action: TakebackAction) -> Result<Command, CommandError> {
    Ok(Command::Takeback {
        action,
        game: a.game(),
    })
}

/// `if e5 Nf3 Nc6 Bb5`: each word a move, at most a line's length of them.
fn add_line(a: &Args) -> Result<Command, CommandError> {
    let moves: Vec<String> = a
        .need("moves")?
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    if moves.len() > crate::core::conditional::MAX_PLIES + 1
        || moves.iter().any(|m| m.len() > MAX_MOVE_INPUT)
    {
        return Err(CommandError::TooLong);
    }
    Ok(Command::If {
        action: IfAction::Add(moves),
        game: a.game(),
    })
}

fn vote(a: &Args, choice: VoteChoice) -> Result<Command, CommandError> {
    Ok(Command::Vote {
        choice,
        game: a.game(),
    })
}

fn vote_move(a: &Args, offer_draw: bool) -> Result<Command, CommandError> {
    vote(
        a,
        VoteChoice::Move {
            text: a.need("move")?.to_owned(),
            offer_draw,
        },
    )
}
