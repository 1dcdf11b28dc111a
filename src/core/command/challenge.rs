//! Challenges: propose a game (to a player, to anyone here, or as a vote
//! game between teams), accept, decline or withdraw one.

use super::play::GAME;
use super::table::{Choice, Home, Kind, Opt, Pos, Spec, choice, number, opt, row, text};
use super::{Args, Command, CommandError, TeamChallenge, UserRef, bad, team_name};
use crate::core::choices::ColorChoice;
use crate::core::clock::MAX_TIME_CONTROL;
use crate::core::game::MAX_FEN;
use crate::core::variant::Variant;

/// The longest game to continue, as PGN (the whole command line must fit
/// in [`super::MAX_COMMAND_BYTES`]).
pub const MAX_PGN: usize = 1900;

/// A challenge act.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChallengeCommand {
    Offer(Box<ChallengeWish>),
    /// `challenge: None`: the one challenge the caller may answer here.
    Accept {
        challenge: Option<i64>,
    },
    Decline {
        challenge: Option<i64>,
    },
    Cancel {
        challenge: Option<i64>,
    },
    /// The same game again with colours swapped, after a finished one
    /// (`None`: the caller's latest finished game here).
    Rematch {
        game: Option<i64>,
    },
}

/// The game a challenge proposes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeWish {
    /// `None`: anyone in the channel may accept.
    pub opponent: Option<UserRef>,
    pub color: ColorChoice,
    pub rated: bool,
    pub fen: Option<String>,
    pub time_control: Option<String>,
    /// A game begun elsewhere to continue (PGN: tags optional, then the
    /// moves so far); such a game is never rated.
    pub pgn: Option<String>,
    /// The rules to play by; a Chess960 game starts from `start`, or from
    /// `fen`, or from a start drawn at random.
    pub variant: Variant,
    /// A Chess960 start by its number (0–959, 518 the standard one).
    pub start: Option<u16>,
    /// The finished game this one plays again, colours swapped.
    pub rematch_of: Option<i64>,
}

const COLORS: &[Choice] = &[
    choice("white", "blancs", &["w", "blanc"]),
    choice("black", "noirs", &["b", "noir"]),
    choice("random", "hasard", &["any"]),
];
const VARIANTS: &[Choice] = &[
    choice("standard", "classique", &["normal"]),
    choice(
        "chess960",
        "echecs960",
        &["960", "échecs960", "fischerandom"],
    ),
];

/// A team's name, as a team's own commands bound it.
pub const TEAM: Kind = text(crate::core::team::MAX_NAME_CHARS);
pub const TIME: Opt = opt("time", "cadence", text(MAX_TIME_CONTROL)).or(&["tc", "temps"]);
/// The team another team plays.
pub const AGAINST: Opt = opt("against", "adversaire", TEAM).or(&["vs", "contre"]);
const CHALLENGE_ID: Opt = opt("challenge", "defi", Kind::Challenge).at(Pos::FirstIf);
const START: Kind = number(0, crate::core::chess960::COUNT as i64 - 1);
const PLAY: Home = Home::In("play");
/// A club member on another platform, as `matrix:@ann:example.org` or
/// `discord:<id>`: what Discord's user option cannot hold.
pub(super) const MEMBER: Opt = opt("member", "membre", text(super::MAX_USER_REF));

#[rustfmt::skip]
pub const ROWS: &[Spec] = &[
    row("challenge", "defi", &[
        opt("user", "joueur", Kind::User).at(Pos::Mention),
        MEMBER,
        opt("color", "couleur", Kind::Choice(COLORS)).or(&["colour"]),
        TIME,
        opt("rated", "classee", Kind::Bool),
        opt("fen", "fen", text(MAX_FEN)),
        opt("pgn", "pgn", text(MAX_PGN)),
        opt("variant", "variante", Kind::Choice(VARIANTS)),
        opt("start", "depart", START),
        opt("team", "equipe", TEAM),
        AGAINST,
        opt("change_vote", "changer_vote", Kind::Bool),
    ], challenge).aka(&["défi"]).home(PLAY),
    row("accept", "accepter", &[CHALLENGE_ID], |a| answer(a, ChallengeCommand::accept)).home(PLAY),
    row("decline", "refuser", &[CHALLENGE_ID], |a| answer(a, ChallengeCommand::decline)).home(PLAY),
    row("cancel", "retirer", &[CHALLENGE_ID], |a| answer(a, ChallengeCommand::cancel)).home(PLAY),
    row("rematch", "revanche", &[GAME.at(Pos::First)], |a| {
        Ok(Command::Challenge(ChallengeCommand::Rematch { game: a.game() }))
    }).home(PLAY),
];

impl ChallengeCommand {
    fn accept(challenge: Option<i64>) -> ChallengeCommand {
        ChallengeCommand::Accept { challenge }
    }

    fn decline(challenge: Option<i64>) -> ChallengeCommand {
        ChallengeCommand::Decline { challenge }
    }

    fn cancel(challenge: Option<i64>) -> ChallengeCommand {
        ChallengeCommand::Cancel { challenge }
    }
}

fn answer(a: &Args, act: fn(Option<i64>) -> ChallengeCommand) -> Result<Command, CommandError> {
    Ok(Command::Challenge(act(a.number("challenge"))))
}

fn challenge(a: &Args) -> Result<Command, CommandError> {
    let color = match a.text("color") {
        Some("white") => ColorChoice::White,
        Some("black") => ColorChoice::Black,
        _ => ColorChoice::Random,
    };
    if a.has("team") || a.has("against") {
        return team_challenge(a, color);
    }
    let pgn = a.owned("pgn");
    let start = a.number("start").and_then(|n| u16::try_from(n).ok());
    let variant = match (a.text("variant"), start) {
        (Some("standard"), Some(n)) => return Err(bad("variant", &format!("standard start:{n}"))),
        (Some("chess960"), _) | (None, Some(_)) => Variant::Chess960,
        _ => Variant::Standard,
    };
    let opponent = match (a.user("user"), a.text(MEMBER.name)) {
        (Some(user), None) => Some(user),
        (None, Some(member)) => Some(club_member(member)?),
        (None, None) => None,
        (Some(user), Some(_)) => {
            return Err(CommandError::Unexpected(format!("@{}", user.as_str())));
        }
    };
    Ok(Command::Challenge(ChallengeCommand::Offer(Box::new(
        ChallengeWish {
            opponent,
            color,
            // A game begun elsewhere was played outside the bot's rules.
            rated: a.flag("rated").unwrap_or(pgn.is_none()),
            fen: a.owned("fen"),
            time_control: a.owned("time"),
            pgn,
            variant,
            start,
            rematch_of: None,
        },
    ))))
}

/// `platform:id`, a club member on another platform.
pub(super) fn club_member(text: &str) -> Result<UserRef, CommandError> {
    let named = text.split_once(':').is_some_and(|(platform, id)| {
        ["discord", "matrix", "console"].contains(&platform.to_ascii_lowercase().as_str())
            && !id.trim().is_empty()
    });
    if !named {
        return Err(bad(MEMBER.name, text));
    }
    UserRef::new(text)
}

/// A vote game: a team (or the challenger alone) against a player or a
/// team; it starts from the standard position and is never rated.
fn team_challenge(a: &Args, color: ColorChoice) -> Result<Command, CommandError> {
    let opponent = a.user("user");
    let versus = a.text("against").map(team_name).transpose()?;
    if let (Some(user), Some(_)) = (&opponent, &versus) {
        return Err(CommandError::Unexpected(format!("@{}", user.as_str())));
    }
    if opponent.is_none() && versus.is_none() {
        return Err(CommandError::MissingArgument("opponent"));
    }
    for other in ["rated", "fen", "pgn", "variant", "start"] {
        if a.has(other) {
            return Err(CommandError::Unexpected(format!("{other}:…")));
        }
    }
    Ok(Command::TeamChallenge(Box::new(TeamChallenge {
        team: a.text("team").map(team_name).transpose()?,
        opponent,
        versus,
        color,
        time_control: a.owned("time"),
        change_vote: a.flag("change_vote").unwrap_or(true),
    })))
}
