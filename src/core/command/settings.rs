//! A player's settings and leave, the moderators' status, and help.

use super::table::{Choice, Home, Kind, Pos, Spec, group, opt, row};
use super::{Command, CommandError};
use crate::core::choices::Notify;
use crate::core::notation::Lang;

/// The name of the command that lists the others.
pub const HELP: &str = "help";
/// The longest leave taken at once, in days.
pub const MAX_LEAVE_DAYS: i64 = 366;

/// What a player does with their leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaveAction {
    Start { days: u32 },
    End,
    Status,
}

const LANGUAGES: &[Choice] = &[
    Choice {
        value: "en",
        fr: "anglais",
        words: &["english"],
    },
    Choice {
        value: "fr",
        fr: "francais",
        words: &["french", "français"],
    },
    Choice {
        value: "default",
        fr: "defaut",
        words: &["server", "auto", "défaut", "serveur"],
    },
];

const NOTICES: &[Choice] = &[
    Choice {
        value: "channel",
        fr: "salon",
        words: &["mention"],
    },
    Choice {
        value: "direct",
        fr: "prive",
        words: &["dm", "privé"],
    },
    Choice {
        value: "off",
        fr: "aucune",
        words: &["none"],
    },
];

pub const ROWS: &[Spec] = &[
    group(
        "settings",
        "reglages",
        &[
            row(
                "language",
                "langue",
                &[opt("language", "langue", Kind::Choice(LANGUAGES))
                    .at(Pos::First)
                    .required()],
                |a| {
                    Ok(Command::SetLanguage(match a.need("language")? {
                        "en" => Some(Lang::En),
                        "fr" => Some(Lang::Fr),
                        _ => None,
                    }))
                },
            ),
            row(
                "notify",
                "notifications",
                &[opt("notify", "notifications", Kind::Choice(NOTICES))
                    .at(Pos::First)
                    .required()],
                |a| {
                    Ok(Command::SetNotify(match a.need("notify")? {
                        "channel" => Notify::Channel,
                        "direct" => Notify::Direct,
                        _ => Notify::Off,
                    }))
                },
            ),
        ],
    )
    .aka(&["réglages"]),
    group(
        "leave",
        "conge",
        &[
            row(
                "start",
                "debut",
                &[opt(
                    "days",
                    "jours",
                    Kind::Days {
                        max: MAX_LEAVE_DAYS,
                    },
                )
                .at(Pos::First)
                .required()],
                |a| {
                    Ok(Command::Leave(LeaveAction::Start {
                        days: a.need_count("days")?,
                    }))
                },
            )
            .aka(&["début"]),
            row("end", "fin", &[], |_| Ok(Command::Leave(LeaveAction::End))).aka(&["stop"]),
            row("status", "etat", &[], |_| {
                Ok(Command::Leave(LeaveAction::Status))
            })
            .aka(&["état"]),
        ],
    )
    .default_sub("status")
    .aka(&["congé"])
    .home(Home::In("settings")),
    row("status", "etat", &[], |_| Ok(Command::Status))
        .aka(&["état"])
        .home(Home::In("settings")),
    row(
        HELP,
        "aide",
        &[opt("command", "commande", Kind::Text { max: 40 }).at(Pos::Rest)],
        |a| -> Result<Command, CommandError> {
            Ok(Command::Help {
                about: a.owned("command"),
            })
        },
    ),
];
