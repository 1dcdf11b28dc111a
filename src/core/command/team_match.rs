//! `match <subcommand> ...`: team matches as text (French `rencontre`, or
//! `match` too, with French subcommand words).
//!
//! `match create team:Rooks vs:Knights [server:ID] [boards:4] [time:3d]`,
//! `match accept|join|start|withdraw|show [#N]`.

use super::{Command, CommandError, Words, bad, bounded, parse_id, take_team_option};
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

pub(super) fn parse(words: &mut Words) -> Result<Command, CommandError> {
    if words.positional.is_empty() {
        let id = take_id(words)?;
        return Ok(Command::Match(MatchCommand::Show { id }));
    }
    let sub = words.positional.remove(0).to_lowercase();
    let command = match sub.as_str() {
        "create" | "creer" | "créer" => MatchCommand::Create(Box::new(parse_create(words)?)),
        "accept" | "accepter" => MatchCommand::Accept {
            id: take_id(words)?,
        },
        "join" | "rejoindre" => MatchCommand::Join {
            id: take_id(words)?,
        },
        "start" | "lancer" | "commencer" => MatchCommand::Start {
            id: take_id(words)?,
        },
        "withdraw" | "retirer" | "forfait" => MatchCommand::Withdraw {
            id: take_id(words)?,
        },
        "show" | "table" | "voir" | "tableau" => MatchCommand::Show {
            id: take_id(words)?,
        },
        _ => return Err(bad("subcommand", &sub)),
    };
    Ok(Command::Match(command))
}

fn parse_create(words: &mut Words) -> Result<NewMatchWish, CommandError> {
    let team = take_team_option(words, &["team", "equipe"])?
        .ok_or(CommandError::MissingArgument("team"))?;
    let versus =
        take_team_option(words, &["vs", "contre"])?.ok_or(CommandError::MissingArgument("vs"))?;
    let server = match words.take("server").or_else(|| words.take("serveur")) {
        None => None,
        Some(id) => {
            let id = id.trim();
            let plain = id.chars().all(|c| !c.is_whitespace() && !c.is_control());
            if id.is_empty() || id.len() > MAX_SERVER_ID || !plain {
                return Err(bad("server", id));
            }
            Some(id.to_owned())
        }
    };
    let boards = match words.take("boards").or_else(|| words.take("echiquiers")) {
        None => DEFAULT_BOARDS,
        Some(value) => value
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=MAX_MATCH_BOARDS).contains(n))
            .ok_or_else(|| bad("boards", &value))?,
    };
    let time_control = words.take("time").or_else(|| words.take("temps"));
    if let Some(time) = &time_control
        && time.chars().count() > 20
    {
        return Err(bad("time", &bounded(time)));
    }
    Ok(NewMatchWish {
        team,
        versus,
        server,
        boards,
        time_control,
    })
}

/// The match named by `id:N`, `match:N`, `#N` or a bare number.
fn take_id(words: &mut Words) -> Result<Option<i64>, CommandError> {
    if let Some(value) = words.take("id").or_else(|| words.take("match")) {
        return parse_id("match", &value).map(Some);
    }
    let index = words
        .positional
        .iter()
        .position(|w| w.starts_with('#') || w.bytes().all(|b| b.is_ascii_digit()));
    match index {
        Some(index) => {
            let word = words.positional.remove(index);
            parse_id("match", &word).map(Some)
        }
        None => Ok(None),
    }
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
        assert_eq!(kind(&long), Err("bad_value"));
        assert_eq!(kind("/match fly"), Err("bad_value"));
        assert_eq!(kind("/match join 0"), Err("bad_value"));
        assert_eq!(kind("/match join 2 extra"), Err("unexpected_argument"));
    }
}
