//! A server's teams (who play vote chess and team matches): list, create,
//! join, leave, delete.

use super::challenge::TEAM;
use super::table::{Opt, Pos, Spec, group, opt, row};
use super::{Args, Command, CommandError, team_name};
use crate::core::team::TeamName;

/// What a player does with the server's teams.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TeamAction {
    /// Create a team (its creator is its first member).
    Create(TeamName),
    Join(TeamName),
    /// Leave a team: the one named, or one's only team on the server.
    Leave(Option<TeamName>),
    List,
    /// Delete a team (its creator or a moderator), not while it plays.
    Delete(TeamName),
}

/// A team's name: the rest of the words (`/team create Les Tours`).
const NAME: Opt = opt("team", "equipe", TEAM).at(Pos::Rest);

#[rustfmt::skip]
pub const ROWS: &[Spec] = &[group("team", "equipe", &[
    row("list", "liste", &[], |_| Ok(Command::Team(TeamAction::List))),
    row("create", "creer", &[NAME.required()], |a| named(a, TeamAction::Create)).aka(&["créer"]),
    row("join", "rejoindre", &[NAME.required()], |a| named(a, TeamAction::Join)),
    row("leave", "quitter", &[NAME], leave),
    row("delete", "supprimer", &[NAME.required()], |a| named(a, TeamAction::Delete)),
]).default_sub("list").aka(&["équipe"])];

fn named(a: &Args, action: fn(TeamName) -> TeamAction) -> Result<Command, CommandError> {
    Ok(Command::Team(action(team_name(a.need(NAME.name)?)?)))
}

fn leave(a: &Args) -> Result<Command, CommandError> {
    let name = a.text(NAME.name).map(team_name).transpose()?;
    Ok(Command::Team(TeamAction::Leave(name)))
}
