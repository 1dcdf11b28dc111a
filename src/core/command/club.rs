//! What a server plays together: standings, ratings, records, openings,
//! puzzles from its games, and the challenge ladder.

use super::table::{
    Choice, Home, Kind, MAX_ID, Opt, Pos, Spec, choice, group, number, opt, row, text,
};
use super::{Args, Command, CommandError, UserRef};
use crate::core::platform::Platform;

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
        opponent: UserRef,
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
const OPPONENT: Opt = opt("opponent", "adversaire", Kind::User).at(Pos::Mention);
const SEASON: Opt = opt("season", "saison", text(MAX_SEASON));
const ANSWER: Opt = opt("move", "coup", text(MAX_ANSWER)).at(Pos::First);
const CLUB: Home = Home::In("club");
const PLATFORMS: &[Choice] = &[
    choice("discord", "discord", &[]),
    choice("matrix", "matrix", &[]),
    choice("console", "console", &[]),
];
/// `/club invite matrix !space:example.org`: the invited server's platform…
const PLATFORM: Opt = opt("platform", "plateforme", Kind::Choice(PLATFORMS)).at(Pos::First);
/// …and its id there (a Discord guild id, a Matrix space id).
const GUEST: Opt = opt("guest", "invite", text(super::MAX_SERVER_ID))
    .at(Pos::Rest)
    .or(&["server", "serveur"]);
/// `/club join 3`: the club's number.
const CLUB_ID: Opt = opt("club", "club", number(1, MAX_ID)).at(Pos::First);

/// What a server's moderator does with a club of servers (issue 44).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClubAction {
    /// Invite another server (of any platform) into this server's club,
    /// founding one if this server has none.
    Invite { platform: Platform, server: String },
    /// Accept the invitation of club `club` for this server.
    Join { club: i64 },
    /// This server leaves its club.
    Quit,
    /// The club's servers, members and invited.
    Servers,
}

/// The subcommands of `/club` that make a club of several servers.
#[rustfmt::skip]
pub const CLUB_SUBS: &[Spec] = &[
    row("invite", "inviter", &[PLATFORM.required(), GUEST.required()], invite),
    row("join", "rejoindre", &[CLUB_ID.required()], join),
    row("quit", "quitter", &[], |_| Ok(Command::Club(ClubAction::Quit))),
    row("servers", "serveurs", &[], |_| Ok(Command::Club(ClubAction::Servers))),
];

fn invite(a: &Args) -> Result<Command, CommandError> {
    let platform = match a.need(PLATFORM.name)? {
        "discord" => Platform::Discord,
        "matrix" => Platform::Matrix,
        _ => Platform::Console,
    };
    let server = a.need(GUEST.name)?.to_owned();
    Ok(Command::Club(ClubAction::Invite { platform, server }))
}

fn join(a: &Args) -> Result<Command, CommandError> {
    let club = a
        .number(CLUB_ID.name)
        .ok_or(CommandError::MissingArgument(CLUB_ID.name))?;
    Ok(Command::Club(ClubAction::Join { club }))
}

#[rustfmt::skip]
pub const ROWS: &[Spec] = &[
    row("standings", "classement", &[SEASON], standings).home(CLUB),
    row("rating", "cote", &[PLAYER], |a| Ok(Command::Rating { user: a.user(PLAYER.name) })).home(CLUB),
    row("record", "bilan", &[PLAYER.required(), OPPONENT], record).home(CLUB),
    row("openings", "ouvertures", &[], |_| Ok(Command::Openings)).home(CLUB),
    group("puzzle", "probleme", &[
        row("next", "suivant", &[], |_| puzzle(PuzzleAction::Next)),
        // Without a move, the puzzle to answer: `/puzzle` alone shows it.
        row("answer", "reponse", &[ANSWER], answer).aka(&["réponse"]),
        row("solvers", "solveurs", &[], |_| puzzle(PuzzleAction::Solvers)).aka(&["top", "classement"]),
    ]).default_sub("answer").aka(&["problème"]).home(CLUB),
    group("ladder", "echelle", &[
        row("show", "voir", &[], |_| ladder(LadderAction::Show)),
        row("join", "rejoindre", &[], |_| ladder(LadderAction::Join)),
        row("leave", "quitter", &[], |_| ladder(LadderAction::Leave)),
        row("challenge", "defi", &[PLAYER, super::challenge::MEMBER], ladder_challenge).aka(&["défi"]),
    ]).default_sub("show").aka(&["échelle"]).home(CLUB),
];

fn standings(a: &Args) -> Result<Command, CommandError> {
    Ok(match a.owned(SEASON.name) {
        None => Command::Standings,
        Some(season) => Command::SeasonStandings { season },
    })
}

fn player(a: &Args) -> Result<UserRef, CommandError> {
    a.user(PLAYER.name)
        .ok_or(CommandError::MissingArgument(PLAYER.name))
}

fn record(a: &Args) -> Result<Command, CommandError> {
    let opponent = a.user(OPPONENT.name);
    Ok(Command::Record {
        player: player(a)?,
        opponent,
    })
}

fn puzzle(action: PuzzleAction) -> Result<Command, CommandError> {
    Ok(Command::Puzzle(action))
}

fn answer(a: &Args) -> Result<Command, CommandError> {
    puzzle(
        a.owned(ANSWER.name)
            .map_or(PuzzleAction::Next, PuzzleAction::Answer),
    )
}

fn ladder(action: LadderAction) -> Result<Command, CommandError> {
    Ok(Command::Ladder(action))
}

/// A ladder challenge names a player of this platform, or a club member
/// of another (`member:matrix:@ann:hs`), as `/challenge` does.
fn ladder_challenge(a: &Args) -> Result<Command, CommandError> {
    let member = super::challenge::MEMBER.name;
    let opponent = match (a.user(PLAYER.name), a.text(member)) {
        (Some(_), Some(_)) => return Err(CommandError::Unexpected(member.to_owned())),
        (None, Some(text)) => super::challenge::club_member(text)?,
        _ => player(a)?,
    };
    ladder(LadderAction::Challenge { opponent })
}
