//! A player's settings and leave, the moderators' status, and help.

use super::table::{Choice, Home, Kind, Opt, Pos, Spec, choice, group, opt, row, text};
use super::{Args, Command, CommandError};
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
    choice("en", "anglais", &["english"]),
    choice("fr", "francais", &["french", "français"]),
    choice(
        "default",
        "defaut",
        &["server", "auto", "défaut", "serveur"],
    ),
];
/// How a player writes moves; `auto` reads every notation and asks when
/// two readings differ.
const NOTATIONS: &[Choice] = &[
    choice("english", "anglaise", &["en", "anglais"]),
    choice(
        "french",
        "francaise",
        &["fr", "française", "français", "francais"],
    ),
    choice("german", "allemande", &["de", "allemand", "deutsch"]),
    choice("auto", "auto", &["automatic", "automatique"]),
];
const NOTICES: &[Choice] = &[
    choice("channel", "salon", &["mention"]),
    choice("direct", "prive", &["dm", "privé"]),
    choice("off", "aucune", &["none"]),
];
/// Whether a server's pages are on the web (`hidden`, said `off` too:
/// the word `off` already names the notices' choice).
const SWITCH: &[Choice] = &[
    choice("on", "oui", &["yes", "true", "activer", "visible"]),
    choice(
        "hidden",
        "masque",
        &[
            "off",
            "no",
            "false",
            "non",
            "masqué",
            "desactiver",
            "désactiver",
        ],
    ),
];
const PAGES: Opt = opt("pages", "pages", Kind::Choice(SWITCH)).at(Pos::First);
const LANGUAGE: Opt = opt("language", "langue", Kind::Choice(LANGUAGES)).at(Pos::First);
const NOTIFY: Opt = opt("notify", "notifications", Kind::Choice(NOTICES)).at(Pos::First);
const NOTATION: Opt = opt("notation", "notation", Kind::Choice(NOTATIONS)).at(Pos::First);
const DAYS: Opt = opt(
    "days",
    "jours",
    Kind::Days {
        max: MAX_LEAVE_DAYS,
    },
)
.at(Pos::First);
/// `/help draw accept`: the command to tell about.
const ABOUT: Opt = opt("command", "commande", text(40)).at(Pos::Rest);
const SETTINGS: Home = Home::In("settings");
/// `/link ABCD-EFGH`: the code got on the other account.
const CODE: Opt = opt(
    "link_code",
    "code_liaison",
    text(crate::core::link::MAX_CODE_TEXT),
)
.at(Pos::Rest);
/// `/settings timezone Europe/Paris`: an IANA name (the longest is 32 characters).
const ZONE: Opt = opt("zone", "fuseau", text(64)).at(Pos::First);
/// `/settings digest 08:30`, or `off`.
const AT: Opt = opt("at", "heure", text(8)).at(Pos::First).or(&["time"]);
/// The words that turn the digest off.
const DIGEST_OFF: &[&str] = &["off", "none", "aucun", "non", "arret", "arrêt"];

#[rustfmt::skip]
pub const ROWS: &[Spec] = &[
    group("settings", "reglages", &[
        row("language", "langue", &[LANGUAGE.required()], language),
        row("server-language", "langue-serveur", &[LANGUAGE.required()], server_language)
            .aka(&["server_language", "langue_serveur"]),
        row("notify", "notifications", &[NOTIFY.required()], notify),
        row("notation", "notation", &[NOTATION.required()], notation),
        row("web", "web", &[PAGES.required()], web_pages),
        row("timezone", "fuseau", &[ZONE.required()], time_zone).aka(&["time-zone", "tz", "fuseau-horaire"]),
        row("digest", "resume", &[AT.required()], digest).aka(&["résumé"]),
    ]).aka(&["réglages"]),
    row("link", "lier", &[CODE], |a| Ok(Command::Link { code: a.owned(CODE.name) })).secret().home(SETTINGS),
    row("unlink", "delier", &[], |_| Ok(Command::Unlink)).aka(&["délier"]).secret().home(SETTINGS),
    group("leave", "conge", &[
        row("start", "debut", &[DAYS.required()], start_leave).aka(&["début"]),
        row("end", "fin", &[], |_| Ok(Command::Leave(LeaveAction::End))).aka(&["stop"]),
        row("status", "etat", &[], |_| Ok(Command::Leave(LeaveAction::Status))).aka(&["état"]),
    ]).default_sub("status").aka(&["congé"]).home(SETTINGS),
    row("status", "etat", &[], |_| Ok(Command::Status)).aka(&["état"]).home(SETTINGS),
    row(HELP, "aide", &[ABOUT], |a| Ok(Command::Help { about: a.owned(ABOUT.name) })),
];

/// The language chosen; `None` for `default`.
fn chosen_language(a: &Args) -> Result<Option<Lang>, CommandError> {
    Ok(match a.need(LANGUAGE.name)? {
        "en" => Some(Lang::En),
        "fr" => Some(Lang::Fr),
        _ => None,
    })
}

fn language(a: &Args) -> Result<Command, CommandError> {
    chosen_language(a).map(Command::SetLanguage)
}

/// A moderator's choice for the whole server: `default` follows the
/// configured default again.
fn server_language(a: &Args) -> Result<Command, CommandError> {
    chosen_language(a).map(Command::SetServerLanguage)
}

/// A moderator's choice: the server's pages on the web, or not.
fn web_pages(a: &Args) -> Result<Command, CommandError> {
    Ok(Command::SetWebPages(a.need(PAGES.name)? == "on"))
}

fn notify(a: &Args) -> Result<Command, CommandError> {
    Ok(Command::SetNotify(match a.need(NOTIFY.name)? {
        "channel" => Notify::Channel,
        "direct" => Notify::Direct,
        _ => Notify::Off,
    }))
}

fn notation(a: &Args) -> Result<Command, CommandError> {
    Ok(Command::SetNotation(match a.need(NOTATION.name)? {
        "english" => Some(Lang::En),
        "french" => Some(Lang::Fr),
        "german" => Some(Lang::De),
        _ => None,
    }))
}

/// An IANA name, or `UTC` (also `off`) for none; the service checks the name.
fn time_zone(a: &Args) -> Result<Command, CommandError> {
    let zone = a.need(ZONE.name)?;
    if ["utc", "off", "none", "aucun"].contains(&zone.to_lowercase().as_str()) {
        return Ok(Command::SetTimeZone(None));
    }
    Ok(Command::SetTimeZone(Some(zone.to_owned())))
}

/// `HH:MM` (24-hour, `8:30` too), or `off`.
fn digest(a: &Args) -> Result<Command, CommandError> {
    let at = a.need(AT.name)?;
    if DIGEST_OFF.contains(&at.to_lowercase().as_str()) {
        return Ok(Command::SetDigest(None));
    }
    let bad = || CommandError::BadValue {
        option: AT.name,
        value: at.to_owned(),
    };
    let (hours, minutes) = at.split_once(['h', 'H', ':']).ok_or_else(bad)?;
    let minutes = if minutes.is_empty() { "0" } else { minutes };
    let all_digits =
        |s: &str| !s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(hours) || !all_digits(minutes) {
        return Err(bad());
    }
    let (hours, minutes): (u32, u32) = (
        hours.parse().map_err(|_| bad())?,
        minutes.parse().map_err(|_| bad())?,
    );
    if hours > 23 || minutes > 59 {
        return Err(bad());
    }
    Ok(Command::SetDigest(Some(hours * 60 + minutes)))
}

fn start_leave(a: &Args) -> Result<Command, CommandError> {
    let days = a.need_count(DAYS.name)?;
    Ok(Command::Leave(LeaveAction::Start { days }))
}
