//! Team matches (`/match`, French `/rencontre`; on Discord inside `/team`):
//! `match create team:Rooks vs:Knights [server:ID] [boards:4] [time:3d]`,
//! `match accept|join|start|withdraw|show [#N]`.

use super::challenge::{AGAINST, TEAM, TIME};
use super::table::{Home, MAX_ID, Opt, Pos, Spec, group, number, opt, row, text};
use super::{Args, Command, CommandError, bad, team_name};
use crate::core::team::{MAX_MATCH_BOARDS, TeamName};

/// The longest platform id a `server:` option may name (a Discord guild is
/// at most 20 digits; a Matrix space id is longer).
pub const MAX_SERVER_ID: usize = 255;
/// Boards a match has when `boards:` is not given.
pub const DEFAULT_BOARDS: u32 = 4;

/// What `match create` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMatchWish {
    /// The proposing team, of this server.
    pub team: TeamName,
    /// The team challenged.
    pub versus: TeamName,
    /// The challenged team's server by its platform id; `None`: this one.
    pub server: Option<String>,
    /// The most boards (1 to [`MAX_MATCH_BOARDS`]).
    pub boards: u32,
    pub time_control: Option<String>,
}

/// A team match act; `id: None` means this server's latest match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchCommand {
    Create(Box<NewMatchWish>),
    Accept { id: Option<i64> },
    Join { id: Option<i64> },
    Start { id: Option<i64> },
    Withdraw { id: Option<i64> },
    Show { id: Option<i64> },
}

/// The match named by `match:N`, `id:N`, `#N` or a bare number.
const ID: Opt = opt("match", "rencontre", number(1, MAX_ID))
    .at(Pos::FirstIf)
    .or(&["id"]);
const SERVER: Opt = opt("server", "serveur", text(MAX_SERVER_ID));
const BOARDS: Opt = opt("boards", "echiquiers", number(1, MAX_MATCH_BOARDS as i64));

#[rustfmt::skip]
pub const ROWS: &[Spec] = &[group("match", "rencontre", &[
    row("show", "voir", &[ID], |a| matched(MatchCommand::Show { id: id(a) })).aka(&["table", "tableau"]),
    row("create", "creer", &[TEAM_OPT.required(), AGAINST.required(), SERVER, BOARDS, TIME], create)
        .aka(&["créer"]),
    row("accept", "accepter", &[ID], |a| matched(MatchCommand::Accept { id: id(a) })),
    row("join", "rejoindre", &[ID], |a| matched(MatchCommand::Join { id: id(a) })),
    row("start", "lancer", &[ID], |a| matched(MatchCommand::Start { id: id(a) })).aka(&["commencer"]),
    row("withdraw", "retirer", &[ID], |a| matched(MatchCommand::Withdraw { id: id(a) })).aka(&["forfait"]),
]).default_sub("show").home(Home::In("team"))];

/// The proposing team.
const TEAM_OPT: Opt = opt("team", "equipe", TEAM);

fn id(a: &Args) -> Option<i64> {
    a.number(ID.name)
}

fn matched(command: MatchCommand) -> Result<Command, CommandError> {
    Ok(Command::Match(command))
}

fn create(a: &Args) -> Result<Command, CommandError> {
    let server = match a.text(SERVER.name) {
        Some(id) if id.chars().any(|c| c.is_whitespace() || c.is_control()) => {
            return Err(bad(SERVER.name, id));
        }
        other => other.map(str::to_owned),
    };
    matched(MatchCommand::Create(Box::new(NewMatchWish {
        team: team_name(a.need(TEAM_OPT.name)?)?,
        versus: team_name(a.need(AGAINST.name)?)?,
        server,
        boards: a.count(BOARDS.name).unwrap_or(DEFAULT_BOARDS),
        time_control: a.owned(TIME.name),
    })))
}

#[cfg(test)]
mod tests {
    use super::super::parse as parse_line;
    use super::*;

    fn command(line: &str) -> MatchCommand {
        match parse_line(line) {
            Ok(Command::Match(command)) => command,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn match_acts_read_in_english_and_french() {
        let name = |text: &str| TeamName::parse(text).expect("a name");
        assert_eq!(
            command("/match create team:Rooks vs:\"Les Cavaliers\" server:12345 boards:6 time:2d"),
            MatchCommand::Create(Box::new(NewMatchWish {
                team: name("Rooks"),
                versus: name("Les Cavaliers"),
                server: Some("12345".to_owned()),
                boards: 6,
                time_control: Some("2d".to_owned()),
            }))
        );
        assert_eq!(
            command("/rencontre creer equipe:Tours contre:Fous"),
            MatchCommand::Create(Box::new(NewMatchWish {
                team: name("Tours"),
                versus: name("Fous"),
                server: None,
                boards: DEFAULT_BOARDS,
                time_control: None,
            }))
        );
        assert_eq!(
            command("/match accept 3"),
            MatchCommand::Accept { id: Some(3) }
        );
        assert_eq!(
            command("/match rejoindre #3"),
            MatchCommand::Join { id: Some(3) }
        );
        assert_eq!(command("/match join"), MatchCommand::Join { id: None });
        assert_eq!(
            command("/match start id:2"),
            MatchCommand::Start { id: Some(2) }
        );
        assert_eq!(
            command("/rencontre forfait 2"),
            MatchCommand::Withdraw { id: Some(2) }
        );
        assert_eq!(command("/match"), MatchCommand::Show { id: None });
        assert_eq!(command("/match voir 4"), MatchCommand::Show { id: Some(4) });
    }

    #[test]
    fn bad_match_acts_are_refused() {
        let kind = |line: &str| parse_line(line).map_err(|e| e.kind());
        assert_eq!(kind("/match create vs:Knights"), Err("missing_argument"));
        assert_eq!(kind("/match create team:Rooks"), Err("missing_argument"));
        assert_eq!(
            kind("/match create team:Rooks vs:K boards:0"),
            Err("bad_value")
        );
        assert_eq!(
            kind("/match create team:Rooks vs:K boards:51"),
            Err("bad_value")
        );
        assert_eq!(kind("/match create team:@x vs:K"), Err("bad_value"));
        let long = format!("/match create team:R vs:K server:{}", "9".repeat(300));
        assert_eq!(kind(&long), Err("too_long"));
        assert_eq!(kind("/match fly"), Err("bad_value"));
        assert_eq!(kind("/match join 0"), Err("bad_value"));
        assert_eq!(kind("/match join 2 extra"), Err("unexpected_argument"));
    }
}
