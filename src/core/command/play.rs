//! Acts on a running game: move, draw, claim, resign, abort, more time,
//! takebacks, conditional moves, and a team member's vote.

use super::table::{Choice, Home, Kind, MAX_ID, Opt, Pos, Spec, Suggest, choice, group, number};
use super::table::{opt, row, text};
use super::{Args, Command, CommandError};
use crate::core::conditional::MAX_PLIES;
use crate::core::event::ClaimKind;
use crate::core::game::{MAX_MORE_TIME_DAYS, TakebackAction};
use crate::core::notation::MAX_MOVE_INPUT;

/// The option every command about one game has (`game:3`).
pub const GAME: Opt = opt("game", "partie", number(1, MAX_ID)).suggest(Suggest::Games);
/// A move as typed: the rest of the words (`exd6 e.p.`).
const MOVE: Opt = opt("move", "coup", text(MAX_MOVE_INPUT)).at(Pos::Rest);
const OFFER_DRAW: Opt = opt("offer_draw", "proposer_nulle", Kind::Bool)
    .at(Pos::Flag)
    .or(&["offer"]);
const KIND: Opt = opt("kind", "motif", Kind::Choice(CLAIMS)).at(Pos::FirstIf);
const DAYS: Opt = opt(
    "days",
    "jours",
    Kind::Days {
        max: MAX_MORE_TIME_DAYS as i64,
    },
)
.at(Pos::First);
/// A line of conditional moves typed at once: a move and its replies up to
/// the line's limit, each up to a move's length, with spaces.
const MOVES: Opt = opt(
    "moves",
    "coups",
    text((MAX_PLIES + 1) * (MAX_MOVE_INPUT + 1)),
)
.at(Pos::Rest);
const CLAIMS: &[Choice] = &[
    choice("threefold", "repetition", &["3", "répétition"]),
    choice("fifty", "cinquante", &["50"]),
];

/// The most frequent act's name.
pub const MOVE_ROW: &str = "move";

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

const PLAY: Home = Home::In("play");

#[rustfmt::skip]
pub const ROWS: &[Spec] = &[
    row(MOVE_ROW, "coup", &[MOVE.required().suggest(Suggest::Moves), OFFER_DRAW, GAME], play_move).aka(&["m"]),
    group("draw", "nulle", &[
        row("offer", "proposer", &[GAME], |a| draw(a, DrawAction::Offer)),
        row("accept", "accepter", &[GAME], |a| draw(a, DrawAction::Accept)).aka(&["yes", "oui"]),
        row("decline", "refuser", &[GAME], |a| draw(a, DrawAction::Decline)).aka(&["no", "non"]),
    ]).default_sub("offer").home(PLAY),
    row("claim", "reclamer", &[KIND, MOVE, GAME], claim).aka(&["réclamer"]).home(PLAY),
    row("resign", "abandon", &[GAME], |a| Ok(Command::Resign { game: a.game() })).home(PLAY),
    row("abort", "annuler", &[GAME], |a| Ok(Command::Abort { game: a.game() })).home(PLAY),
    row("moretime", "plus_de_temps", &[DAYS.required(), GAME], more_time).home(PLAY),
    group("takeback", "reprise", &[
        row("request", "demander", &[GAME], |a| takeback(a, TakebackAction::Request)),
        row("accept", "accepter", &[GAME], |a| takeback(a, TakebackAction::Accept)),
        row("decline", "refuser", &[GAME], |a| takeback(a, TakebackAction::Decline)),
    ]).default_sub("request").home(PLAY),
    group("if", "si", &[
        row("add", "ajouter", &[MOVES.required(), GAME], add_line).secret(),
        row("list", "liste", &[GAME], |a| line_act(a, IfAction::List)).secret(),
        row("clear", "effacer", &[GAME], |a| line_act(a, IfAction::Clear)).secret(),
    ]).default_sub("add").home(PLAY),
    group("vote", "voter", &[
        row("move", "coup", &[MOVE.required(), OFFER_DRAW, GAME], |a| vote_move(a, flag(a))).secret(),
        row("draw", "nulle", &[MOVE.required(), GAME], |a| vote_move(a, true)).secret(),
        row("resign", "abandon", &[GAME], |a| vote(a, VoteChoice::Resign)).secret(),
        row("accept", "accepter", &[GAME], |a| vote(a, VoteChoice::Accept)).secret(),
    ]).default_sub("move").home(PLAY),
];

fn flag(a: &Args) -> bool {
    a.flag(OFFER_DRAW.name).unwrap_or(false)
}

fn play_move(a: &Args) -> Result<Command, CommandError> {
    let text = a.need(MOVE.name)?.to_owned();
    Ok(Command::Move {
        text,
        offer_draw: flag(a),
        game: a.game(),
    })
}

fn draw(a: &Args, action: DrawAction) -> Result<Command, CommandError> {
    Ok(Command::Draw {
        action,
        game: a.game(),
    })
}

fn claim(a: &Args) -> Result<Command, CommandError> {
    let kind = a.text(KIND.name).map(|kind| match kind {
        "threefold" => ClaimKind::Threefold,
        _ => ClaimKind::Fifty,
    });
    Ok(Command::Claim {
        kind,
        with_move: a.owned(MOVE.name),
        game: a.game(),
    })
}

fn more_time(a: &Args) -> Result<Command, CommandError> {
    Ok(Command::MoreTime {
        days: a.need_count(DAYS.name)?,
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
        .need(MOVES.name)?
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    if moves.len() > MAX_PLIES + 1 || moves.iter().any(|m| m.len() > MAX_MOVE_INPUT) {
        return Err(CommandError::TooLong);
    }
    line_act(a, IfAction::Add(moves))
}

fn line_act(a: &Args, action: IfAction) -> Result<Command, CommandError> {
    Ok(Command::If {
        action,
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
    let text = a.need(MOVE.name)?.to_owned();
    vote(a, VoteChoice::Move { text, offer_draw })
}
