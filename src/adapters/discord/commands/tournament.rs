//! `/tournament <subcommand>`: the tournament acts, one entry each.
//! Descriptions are `discord-cmd-tournament-<name>` (a subcommand may share
//! its name with a `/chess` one, such as `leave` or `standings`).

use super::{CommandSpec, Kind, MAX_TIME_CONTROL, bad, opt, required};
use crate::core::command::{
    Command, CommandError, NewTournamentWish, TournamentCommand, tie_breaks_from_words,
    tournament_limits,
};

pub const TOURNAMENT_NAME: &str = "tournament";
pub const TOURNAMENT_FR: &str = "tournoi";

const ID: super::OptionSpec = opt(
    "tournament",
    "tournoi",
    Kind::Integer {
        min: 1,
        max: i64::MAX >> 11,
    },
);

const SYSTEMS: &[&str] = &[
    "round_robin",
    "double_round_robin",
    "swiss",
    "knockout",
    "scheveningen",
];

fn id(o: &super::Options) -> Option<i64> {
    o.integer("tournament")
}

fn small(o: &super::Options, name: &'static str) -> Result<Option<u32>, CommandError> {
    o.integer(name)
        .map(|n| u32::try_from(n).map_err(|_| bad(name, &n.to_string())))
        .transpose()
}

/// `/tournament <subcommand>`: one entry each.
pub const TOURNAMENT: &[CommandSpec] = &[
    CommandSpec {
        name: "create",
        fr: "creer",
        options: &[
            required(opt("system", "systeme", Kind::Choice(SYSTEMS))),
            opt(
                "name",
                "nom",
                Kind::Text {
                    max: tournament_limits::MAX_NAME as u16,
                },
            ),
            opt(
                "rounds",
                "rondes",
                Kind::Integer {
                    min: 1,
                    max: tournament_limits::MAX_ROUNDS as i64,
                },
            ),
            opt(
                "time",
                "cadence",
                Kind::Text {
                    max: MAX_TIME_CONTROL,
                },
            ),
            opt("rated", "classee", Kind::Boolean),
            opt(
                "max",
                "max",
                Kind::Integer {
                    min: 2,
                    max: tournament_limits::MAX_PLAYERS as i64,
                },
            ),
            opt(
                "entry",
                "inscriptions",
                Kind::Integer {
                    min: 1,
                    max: tournament_limits::MAX_ENTRY_DAYS as i64,
                },
            ),
            opt(
                "bye",
                "exemption",
                Kind::Choice(&["bye_one", "bye_half", "bye_zero"]),
            ),
            opt("tiebreaks", "departages", Kind::Text { max: 60 }),
            opt("reviews_after_round", "analyses_apres_ronde", Kind::Boolean),
        ],
        build: |o| {
            let system = o.required_text("system")?;
            let system = crate::core::command::system_from_word(system)
                .ok_or_else(|| bad("system", system))?;
            Ok(Command::Tournament(TournamentCommand::Create(
                NewTournamentWish {
                    system,
                    name: o.text("name").map(str::to_owned),
                    rounds: small(o, "rounds")?,
                    time_control: o.text("time").map(str::to_owned),
                    // Rated unless turned off.
                    rated: o.boolean("rated").unwrap_or(true),
                    max_players: small(o, "max")?,
                    entry_days: small(o, "entry")?,
                    bye_half_points: match o.text("bye") {
                        None => None,
                        Some("bye_one") => Some(2),
                        Some("bye_half") => Some(1),
                        Some("bye_zero") => Some(0),
                        Some(other) => return Err(bad("bye", other)),
                    },
                    tie_breaks: o.text("tiebreaks").map(tie_breaks_from_words).transpose()?,
                    reviews_after_round: o.boolean("reviews_after_round").unwrap_or(false),
                },
            )))
        },
    },
    CommandSpec {
        name: "join",
        fr: "rejoindre",
        options: &[ID],
        build: |o| {
            Ok(Command::Tournament(TournamentCommand::Join {
                tournament: id(o),
            }))
        },
    },
    CommandSpec {
        name: "leave",
        fr: "quitter",
        options: &[ID],
        build: |o| {
            Ok(Command::Tournament(TournamentCommand::Leave {
                tournament: id(o),
            }))
        },
    },
    CommandSpec {
        name: "start",
        fr: "lancer",
        options: &[ID],
        build: |o| {
            Ok(Command::Tournament(TournamentCommand::Start {
                tournament: id(o),
            }))
        },
    },
    CommandSpec {
        name: "pairings",
        fr: "appariements",
        options: &[
            ID,
            opt("round", "ronde", Kind::Integer { min: 1, max: 999 }),
        ],
        build: |o| {
            Ok(Command::Tournament(TournamentCommand::Pairings {
                tournament: id(o),
                round: small(o, "round")?,
            }))
        },
    },
    CommandSpec {
        name: "standings",
        fr: "grille",
        options: &[ID],
        build: |o| {
            Ok(Command::Tournament(TournamentCommand::Standings {
                tournament: id(o),
            }))
        },
    },
    CommandSpec {
        name: "withdraw",
        fr: "abandonner",
        options: &[ID],
        build: |o| {
            Ok(Command::Tournament(TournamentCommand::Withdraw {
                tournament: id(o),
            }))
        },
    },
];

/// The `/tournament` subcommand called `name`.
pub fn tournament_subcommand(name: &str) -> Option<&'static CommandSpec> {
    TOURNAMENT.iter().find(|spec| spec.name == name)
}
