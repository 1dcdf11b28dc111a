//! Slash-command options to a [`Command`], through the command table.
//!
//! Discord checks option types and lengths on its side, but a payload may
//! still carry anything: every value is bounded again here, and anything
//! unexpected becomes a [`CommandError`] (a polite refusal), never a panic.

use serenity::all::{CommandData, CommandDataOption, CommandDataOptionValue, CommandDataResolved};

use super::commands::{self, CHESS_NAME, CommandSpec};
use crate::core::command::{Command, CommandError, MAX_COMMAND_BYTES};

/// The most options looked at in one interaction (Discord sends at most 25).
const MAX_OPTIONS: usize = 25;

/// One option's value, as far as the table cares.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Text(String),
    Integer(i64),
    Boolean(bool),
    /// A user's id, and the name Discord resolved for them.
    User(String, Option<String>),
}

/// The options of one command, by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    values: Vec<(String, Value)>,
}

impl Options {
    fn from_discord(options: &[CommandDataOption], resolved: &CommandDataResolved) -> Options {
        let values = options
            .iter()
            .take(MAX_OPTIONS)
            .filter_map(|option| {
                let value = match &option.value {
                    CommandDataOptionValue::String(text) => Value::Text(bounded(text)),
                    // What the user is typing in an autocompleted option.
                    CommandDataOptionValue::Autocomplete { value, .. } => {
                        Value::Text(bounded(value))
                    }
                    CommandDataOptionValue::Integer(n) => Value::Integer(*n),
                    CommandDataOptionValue::Boolean(b) => Value::Boolean(*b),
                    CommandDataOptionValue::User(id) => {
                        let nick = resolved.members.get(id).and_then(|m| m.nick.clone());
                        let user = resolved.users.get(id);
                        let name = nick
                            .or_else(|| user.and_then(|u| u.global_name.clone()))
                            .or_else(|| user.map(|u| u.name.clone()));
                        Value::User(id.get().to_string(), name.map(|n| bounded(&n)))
                    }
                    _ => return None,
                };
                Some((bounded(&option.name), value))
            })
            .collect();
        Options { values }
    }

    /// A boolean option (`None` when absent).
    pub fn boolean(&self, name: &str) -> Option<bool> {
        match self.get(name)? {
            Value::Boolean(b) => Some(*b),
            _ => None,
        }
    }

    fn get(&self, name: &str) -> Option<&Value> {
        self.values.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// A text option (trimmed; `None` when absent or empty).
    pub fn text(&self, name: &str) -> Option<&str> {
        match self.get(name)? {
            Value::Text(text) => Some(text.trim()).filter(|t| !t.is_empty()),
            _ => None,
        }
    }

    pub fn required_text(&self, name: &'static str) -> Result<&str, CommandError> {
        self.text(name).ok_or(CommandError::MissingArgument(name))
    }

    /// An integer option; a half-typed autocomplete value counts if it parses.
    pub fn integer(&self, name: &str) -> Option<i64> {
        match self.get(name)? {
            Value::Integer(n) => Some(*n),
            Value::Text(text) => text.trim().trim_start_matches('#').parse().ok(),
            _ => None,
        }
    }

    pub fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Some(Value::Boolean(true)))
    }

    /// A user option: the user's platform id, and their name if resolved.
    pub fn user(&self, name: &str) -> Option<(&str, Option<&str>)> {
        match self.get(name)? {
            Value::User(id, name) => Some((id, name.as_deref())),
            _ => None,
        }
    }
}

/// Cuts untrusted text to the longest command line the core accepts.
fn bounded(text: &str) -> String {
    // Cut at a character boundary; `get` could not panic even if it were not.
    let end = text.floor_char_boundary(MAX_COMMAND_BYTES);
    text.get(..end).unwrap_or_default().to_owned()
}

/// The table entry an interaction names, and its options.
pub fn resolve(data: &CommandData) -> Result<(&'static CommandSpec, Options), CommandError> {
    match data.name.as_str() {
        name if commands::SINGLES.iter().any(|spec| spec.name == name) => {
            let spec = commands::SINGLES
                .into_iter()
                .find(|spec| spec.name == name)
                .ok_or(CommandError::Empty)?;
            Ok((spec, Options::from_discord(&data.options, &data.resolved)))
        }
        CHESS_NAME => {
            let sub = data.options.first().ok_or(CommandError::Empty)?;
            let CommandDataOptionValue::SubCommand(options) = &sub.value else {
                return Err(CommandError::Empty);
            };
            let spec = commands::chess_subcommand(&sub.name)
                .ok_or_else(|| CommandError::Unknown(bounded(&sub.name)))?;
            Ok((spec, Options::from_discord(options, &data.resolved)))
        }
        commands::TOURNAMENT_NAME => {
            let sub = data.options.first().ok_or(CommandError::Empty)?;
            let CommandDataOptionValue::SubCommand(options) = &sub.value else {
                return Err(CommandError::Empty);
            };
            let spec = commands::tournament_subcommand(&sub.name)
                .ok_or_else(|| CommandError::Unknown(bounded(&sub.name)))?;
            Ok((spec, Options::from_discord(options, &data.resolved)))
        }
        other => Err(CommandError::Unknown(bounded(other))),
    }
}

/// The command an interaction asks for.
pub fn to_command(data: &CommandData) -> Result<Command, CommandError> {
    let (spec, options) = resolve(data)?;
    (spec.build)(&options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::choices::ColorChoice;
    use crate::core::command::{
        DrawAction, LadderAction, LeaveAction, MatchCommand, NewMatchWish, TeamAction,
        TeamChallenge, UserRef, VoteChoice,
    };
    use crate::core::team::TeamName;
    use crate::core::variant::Variant;
    use serde_json::{Value as Json, json};

    /// Command data as Discord sends it.
    fn data(name: &str, options: Json) -> CommandData {
        serde_json::from_value(json!({
            "id": "1", "name": name, "type": 1, "options": options
        }))
        .expect("valid command data")
    }

    fn chess(sub: &str, options: Json) -> CommandData {
        data(
            "chess",
            json!([{ "name": sub, "type": 1, "options": options }]),
        )
    }

    #[test]
    fn options_become_commands() {
        let cases: Vec<(CommandData, Result<Command, CommandError>)> = vec![
            (
                data(
                    "move",
                    json!([
                        { "name": "move", "type": 3, "value": " Nf3 " },
                        { "name": "offer_draw", "type": 5, "value": true },
                        { "name": "game", "type": 4, "value": 7 }
                    ]),
                ),
                Ok(Command::Move {
                    text: "Nf3".into(),
                    offer_draw: true,
                    game: Some(7),
                }),
            ),
            (
                data("move", json!([])),
                Err(CommandError::MissingArgument("move")),
            ),
            (
                chess(
                    "challenge",
                    json!([
                        { "name": "user", "type": 6, "value": "42" },
                        { "name": "color", "type": 3, "value": "black" }
                    ]),
                ),
                Ok(Command::Challenge {
                    opponent: Some(UserRef::new("42").unwrap()),
                    color: ColorChoice::Black,
                    rated: false,
                    fen: None,
                    time_control: None,
                    pgn: None,
                    variant: Variant::Standard,
                    start: None,
                }),
            ),
            (
                chess(
                    "challenge",
                    json!([
                        { "name": "variant", "type": 3, "value": "chess960" },
                        { "name": "start", "type": 4, "value": 959 }
                    ]),
                ),
                Ok(Command::Challenge {
                    opponent: None,
                    color: ColorChoice::Random,
                    rated: false,
                    fen: None,
                    time_control: None,
                    pgn: None,
                    variant: Variant::Chess960,
                    start: Some(959),
                }),
            ),
            (
                chess(
                    "challenge",
                    json!([{ "name": "start", "type": 4, "value": 960 }]),
                ),
                Err(CommandError::BadValue {
                    option: "start",
                    value: "960".to_owned(),
                }),
            ),
            (
                chess(
                    "draw",
                    json!([{ "name": "action", "type": 3, "value": "accept" }]),
                ),
                Ok(Command::Draw {
                    action: DrawAction::Accept,
                    game: None,
                }),
            ),
            (
                chess(
                    "draw",
                    json!([{ "name": "action", "type": 3, "value": "maybe" }]),
                ),
                Err(CommandError::BadValue {
                    option: "action",
                    value: "maybe".into(),
                }),
            ),
            (
                chess(
                    "leave",
                    json!([
                        { "name": "action", "type": 3, "value": "start" },
                        { "name": "days", "type": 4, "value": 3 }
                    ]),
                ),
                Ok(Command::Leave(LeaveAction::Start { days: 3 })),
            ),
            (
                chess(
                    "moretime",
                    json!([{ "name": "days", "type": 4, "value": -2 }]),
                ),
                Err(CommandError::BadValue {
                    option: "days",
                    value: "-2".into(),
                }),
            ),
            (
                chess(
                    "ladder",
                    json!([
                        { "name": "action", "type": 3, "value": "ladder_challenge" },
                        { "name": "player", "type": 6, "value": "42" }
                    ]),
                ),
                Ok(Command::Ladder(LadderAction::Challenge {
                    opponent: UserRef::new("42").unwrap(),
                })),
            ),
            (
                chess(
                    "ladder",
                    json!([{ "name": "action", "type": 3, "value": "ladder_challenge" }]),
                ),
                Err(CommandError::MissingArgument("player")),
            ),
            (
                chess(
                    "ladder",
                    json!([{ "name": "action", "type": 3, "value": "ladder_join" }]),
                ),
                Ok(Command::Ladder(LadderAction::Join)),
            ),
            (chess("standings", json!([])), Ok(Command::Standings)),
            (
                chess("nope", json!([])),
                Err(CommandError::Unknown("nope".into())),
            ),
            (
                data("other", json!([])),
                Err(CommandError::Unknown("other".into())),
            ),
            (data("chess", json!([])), Err(CommandError::Empty)),
            (
                data(
                    "team",
                    json!([
                        { "name": "action", "type": 3, "value": "team_create" },
                        { "name": "team", "type": 3, "value": " Les  Tours " }
                    ]),
                ),
                Ok(Command::Team(TeamAction::Create(
                    TeamName::parse("Les Tours").unwrap(),
                ))),
            ),
            (
                data(
                    "team",
                    json!([{ "name": "action", "type": 3, "value": "team_join" }]),
                ),
                Err(CommandError::MissingArgument("team")),
            ),
            (
                data(
                    "team",
                    json!([{ "name": "action", "type": 3, "value": "team_list" }]),
                ),
                Ok(Command::Team(TeamAction::List)),
            ),
            (
                data(
                    "vote",
                    json!([
                        { "name": "move", "type": 3, "value": "Cf3" },
                        { "name": "offer_draw", "type": 5, "value": true },
                        { "name": "game", "type": 4, "value": 3 }
                    ]),
                ),
                Ok(Command::Vote {
                    choice: VoteChoice::Move {
                        text: "Cf3".into(),
                        offer_draw: true,
                    },
                    game: Some(3),
                }),
            ),
            (
                data(
                    "vote",
                    json!([{ "name": "action", "type": 3, "value": "vote_resign" }]),
                ),
                Ok(Command::Vote {
                    choice: VoteChoice::Resign,
                    game: None,
                }),
            ),
            (
                data("vote", json!([])),
                Err(CommandError::MissingArgument("move")),
            ),
            (
                data(
                    "match",
                    json!([
                        { "name": "action", "type": 3, "value": "match_create" },
                        { "name": "team", "type": 3, "value": "Rooks" },
                        { "name": "against", "type": 3, "value": "Les  Fous" },
                        { "name": "server", "type": 3, "value": "81234567890" },
                        { "name": "boards", "type": 4, "value": 6 },
                        { "name": "time", "type": 3, "value": "2d" }
                    ]),
                ),
                Ok(Command::Match(MatchCommand::Create(Box::new(
                    NewMatchWish {
                        team: TeamName::parse("Rooks").unwrap(),
                        versus: TeamName::parse("Les Fous").unwrap(),
                        server: Some("81234567890".into()),
                        boards: 6,
                        time_control: Some("2d".into()),
                    },
                )))),
            ),
            (
                data(
                    "match",
                    json!([
                        { "name": "action", "type": 3, "value": "match_create" },
                        { "name": "team", "type": 3, "value": "Rooks" },
                        { "name": "against", "type": 3, "value": "Fous" },
                        { "name": "server", "type": 3, "value": "a b" }
                    ]),
                ),
                Err(CommandError::BadValue {
                    option: "server",
                    value: "a b".into(),
                }),
            ),
            (
                data(
                    "match",
                    json!([
                        { "name": "action", "type": 3, "value": "match_create" },
                        { "name": "team", "type": 3, "value": "Rooks" }
                    ]),
                ),
                Err(CommandError::MissingArgument("against")),
            ),
            (
                data(
                    "match",
                    json!([
                        { "name": "action", "type": 3, "value": "match_join" },
                        { "name": "match", "type": 4, "value": 2 }
                    ]),
                ),
                Ok(Command::Match(MatchCommand::Join { id: Some(2) })),
            ),
            (
                data(
                    "match",
                    json!([{ "name": "action", "type": 3, "value": "match_show" }]),
                ),
                Ok(Command::Match(MatchCommand::Show { id: None })),
            ),
            (
                chess(
                    "challenge",
                    json!([
                        { "name": "team", "type": 3, "value": "Rooks" },
                        { "name": "user", "type": 6, "value": "42" },
                        { "name": "color", "type": 3, "value": "white" },
                        { "name": "change_vote", "type": 5, "value": false }
                    ]),
                ),
                Ok(Command::TeamChallenge(Box::new(TeamChallenge {
                    team: Some(TeamName::parse("Rooks").unwrap()),
                    opponent: Some(UserRef::new("42").unwrap()),
                    versus: None,
                    color: ColorChoice::White,
                    time_control: None,
                    change_vote: false,
                }))),
            ),
        ];
        for (data, expected) in cases {
            assert_eq!(to_command(&data), expected, "{data:?}");
        }
    }

    #[test]
    fn huge_text_is_cut_at_a_character_boundary() {
        let long = "é".repeat(10_000);
        let cut = bounded(&long);
        assert!(cut.len() <= MAX_COMMAND_BYTES);
        assert!(cut.chars().all(|c| c == 'é'));
    }

    #[test]
    fn tournament_subcommands_become_commands() {
        use crate::core::command::{NewTournamentWish, TournamentCommand};
        use crate::core::tournament::{System, TieBreak};
        let tournament = |sub: &str, options: Json| {
            data(
                "tournament",
                json!([{ "name": sub, "type": 1, "options": options }]),
            )
        };
        let create = tournament(
            "create",
            json!([
                { "name": "system", "type": 3, "value": "swiss" },
                { "name": "rounds", "type": 4, "value": 5 },
                { "name": "rated", "type": 5, "value": false },
                { "name": "bye", "type": 3, "value": "bye_half" },
                { "name": "tiebreaks", "type": 3, "value": "sb, DE" }
            ]),
        );
        assert_eq!(
            to_command(&create),
            Ok(Command::Tournament(TournamentCommand::Create(
                NewTournamentWish {
                    system: System::Swiss,
                    name: None,
                    rounds: Some(5),
                    time_control: None,
                    rated: false,
                    max_players: None,
                    entry_days: None,
                    bye_half_points: Some(1),
                    tie_breaks: Some(vec![TieBreak::SonnebornBerger, TieBreak::DirectEncounter]),
                    reviews_after_round: false,
                }
            )))
        );
        let pairings = tournament(
            "pairings",
            json!([
                { "name": "tournament", "type": 4, "value": 3 },
                { "name": "round", "type": 4, "value": 2 }
            ]),
        );
        assert_eq!(
            to_command(&pairings),
            Ok(Command::Tournament(TournamentCommand::Pairings {
                tournament: Some(3),
                round: Some(2)
            }))
        );
        assert_eq!(
            to_command(&tournament("join", json!([]))),
            Ok(Command::Tournament(TournamentCommand::Join {
                tournament: None
            }))
        );
        assert!(to_command(&tournament("dance", json!([]))).is_err());
    }
}
