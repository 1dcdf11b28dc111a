//! The command table: `/move`, and `/chess` with one entry per subcommand.
//!
//! Each entry names the subcommand (in English, and in French for French
//! clients), its options, and how its options become a [`Command`]. Adding
//! a subcommand is one entry in [`CHESS`]; registration and translation
//! read the table. Descriptions come from the i18n catalogues
//! (`discord-cmd-<name>`, `discord-opt-<name>`, `discord-choice-<value>`).

use serenity::all::{CommandOptionType, CreateCommand, CreateCommandOption, InteractionContext};

mod tournament;
pub use tournament::{TOURNAMENT, TOURNAMENT_FR, TOURNAMENT_NAME, tournament_subcommand};

use super::interactions::Options;
use crate::core::chess960;
use crate::core::choices::{ColorChoice, Notify};
use crate::core::command::{
    Command, CommandError, DrawAction, IfAction, LadderAction, LeaveAction, MatchCommand,
    NewMatchWish, PuzzleAction, TakebackAction, TeamAction, TeamChallenge, UserRef, VoteChoice,
    challenge_variant,
};
use crate::core::event::ClaimKind;
use crate::core::notation::{Lang, MAX_MOVE_INPUT};
use crate::core::team::TeamName;
use crate::i18n::I18n;

/// The longest line of conditional moves typed at once (twenty moves of
/// up to a dozen bytes, with spaces).
pub const MAX_IF_LINE: u16 = 300;
/// The longest private note, in characters (Discord counts characters).
pub const MAX_NOTE_OPTION: u16 = crate::core::command::MAX_NOTE_CHARS as u16;
/// The longest FEN accepted (a legal FEN is under 100 bytes).
pub const MAX_FEN: u16 = 100;
/// The longest time control text accepted (`30d+1d max 45d`).
pub const MAX_TIME_CONTROL: u16 = 32;
/// The longest game to continue, as PGN (the whole command line must fit
/// in [`crate::core::command::MAX_COMMAND_BYTES`]).
pub const MAX_PGN_OPTION: u16 = 1900;

/// What an option holds.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Text {
        max: u16,
    },
    Integer {
        min: i64,
        max: i64,
    },
    Boolean,
    User,
    /// One of these values (each shown through `discord-choice-<value>`).
    Choice(&'static [&'static str]),
}

/// One option of a command.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub fr: &'static str,
    pub kind: Kind,
    pub required: bool,
    /// Discord asks the bot for suggestions while the user types.
    pub autocomplete: bool,
}

/// One command (or `/chess` subcommand) and how it becomes a [`Command`].
#[derive(Clone, Copy, Debug)]
pub struct CommandSpec {
    pub name: &'static str,
    pub fr: &'static str,
    pub options: &'static [OptionSpec],
    pub build: fn(&Options) -> Result<Command, CommandError>,
}

const fn opt(name: &'static str, fr: &'static str, kind: Kind) -> OptionSpec {
    OptionSpec {
        name,
        fr,
        kind,
        required: false,
        autocomplete: false,
    }
}

const fn required(spec: OptionSpec) -> OptionSpec {
    OptionSpec {
        required: true,
        ..spec
    }
}

const fn suggested(spec: OptionSpec) -> OptionSpec {
    OptionSpec {
        autocomplete: true,
        ..spec
    }
}

const MOVE_TEXT: OptionSpec = suggested(required(opt(
    "move",
    "coup",
    Kind::Text {
        max: MAX_MOVE_INPUT as u16,
    },
)));
const GAME: OptionSpec = suggested(opt(
    "game",
    "partie",
    Kind::Integer {
        min: 1,
        max: i64::MAX >> 11,
    },
));
const CHALLENGE_ID: OptionSpec = opt(
    "challenge",
    "defi",
    Kind::Integer {
        min: 1,
        max: i64::MAX >> 11,
    },
);

/// The longest season name accepted (as the text parser does).
const MAX_SEASON: u16 = 40;

/// A user option as a [`UserRef`], with the name Discord resolved for them.
fn user_ref((id, name): (&str, Option<&str>)) -> Result<UserRef, CommandError> {
    let user = UserRef::new(id)?;
    Ok(match name {
        Some(name) => user.with_name(name),
        None => user,
    })
}

/// `/move move:<text> [offer_draw] [game]`: the most frequent act, kept short.
pub const MOVE: CommandSpec = CommandSpec {
    name: "move",
    fr: "coup",
    options: &[
        MOVE_TEXT,
        opt("offer_draw", "proposer_nulle", Kind::Boolean),
        GAME,
    ],
    build: |o| {
        Ok(Command::Move {
            text: o.required_text("move")?.to_owned(),
            offer_draw: o.flag("offer_draw"),
            game: o.integer("game"),
        })
    },
};

/// `/takeback [action] [game]`: a command of its own, `/chess` having
/// Discord's 25 subcommands already.
pub const TAKEBACK: CommandSpec = CommandSpec {
    name: "takeback",
    fr: "reprise",
    options: &[
        opt(
            "action",
            "action",
            Kind::Choice(&["request", "accept", "decline"]),
        ),
        GAME,
    ],
    build: |o| {
        let action = match o.text("action") {
            None | Some("request") => TakebackAction::Request,
            Some("accept") => TakebackAction::Accept,
            Some("decline") => TakebackAction::Decline,
            Some(other) => return Err(bad("action", other)),
        };
        Ok(Command::Takeback {
            action,
            game: o.integer("game"),
        })
    },
};

/// `/review [game]`: an engine review of a finished game.
pub const REVIEW: CommandSpec = CommandSpec {
    name: "review",
    fr: "analyse",
    options: &[GAME],
    build: |o| {
        Ok(Command::Review {
            game: o.integer("game"),
        })
    },
};

/// `/puzzle [move] [solvers]`: the next puzzle, an answer, or the solvers.
pub const PUZZLE: CommandSpec = CommandSpec {
    name: "puzzle",
    fr: "probleme",
    options: &[
        opt("answer", "reponse", Kind::Text { max: 16 }),
        opt("solvers", "solveurs", Kind::Boolean),
    ],
    build: |o| {
        Ok(Command::Puzzle(
            match (o.text("answer"), o.flag("solvers")) {
                (_, true) => PuzzleAction::Solvers,
                (Some(answer), false) => PuzzleAction::Answer(answer.to_owned()),
                (None, false) => PuzzleAction::Next,
            },
        ))
    },
};

/// A team's name, as the text commands bound it.
const TEAM_NAME: Kind = Kind::Text {
    max: crate::core::team::MAX_NAME_CHARS as u16,
};

/// A team named by an option, read as the text commands read it.
fn team_name(text: &str) -> Result<TeamName, CommandError> {
    TeamName::parse(text).map_err(|_| bad("team", text))
}

/// `/team action:<…> [team:<name>]`: the server's teams.
pub const TEAM: CommandSpec = CommandSpec {
    name: "team",
    fr: "equipe",
    options: &[
        required(opt(
            "action",
            "action",
            Kind::Choice(&[
                "team_list",
                "team_create",
                "team_join",
                "team_leave",
                "team_delete",
            ]),
        )),
        opt("team", "equipe", TEAM_NAME),
    ],
    build: |o| {
        let named = || team_name(o.required_text("team")?);
        let action = match o.text("action") {
            None | Some("team_list") => TeamAction::List,
            Some("team_create") => TeamAction::Create(named()?),
            Some("team_join") => TeamAction::Join(named()?),
            Some("team_leave") => TeamAction::Leave(o.text("team").map(team_name).transpose()?),
            Some("team_delete") => TeamAction::Delete(named()?),
            Some(other) => return Err(bad("action", other)),
        };
        Ok(Command::Team(action))
    },
};

/// `/vote [move] [offer_draw] [action:resign|accept] [game]`: a member's
/// vote on their team's move, answered to them alone.
pub const VOTE: CommandSpec = CommandSpec {
    name: "vote",
    fr: "voter",
    options: &[
        opt(
            "move",
            "coup",
            Kind::Text {
                max: MAX_MOVE_INPUT as u16,
            },
        ),
        opt("offer_draw", "proposer_nulle", Kind::Boolean),
        opt(
            "action",
            "action",
            Kind::Choice(&["vote_resign", "vote_accept"]),
        ),
        GAME,
    ],
    build: |o| {
        let choice = match (o.text("action"), o.text("move")) {
            (Some("vote_resign"), None) => VoteChoice::Resign,
            (Some("vote_accept"), None) => VoteChoice::Accept,
            (Some(other), _) => return Err(bad("action", other)),
            (None, Some(text)) => VoteChoice::Move {
                text: text.to_owned(),
                offer_draw: o.flag("offer_draw"),
            },
            (None, None) => return Err(CommandError::MissingArgument("move")),
        };
        Ok(Command::Vote {
            choice,
            game: o.integer("game"),
        })
    },
};

/// `/match action:<…> [match] [team] [against] [server] [boards] [time]`:
/// team matches, read as the text commands read them.
pub const MATCH: CommandSpec = CommandSpec {
    name: "match",
    fr: "rencontre",
    options: &[
        required(opt(
            "action",
            "action",
            Kind::Choice(&[
                "match_show",
                "match_create",
                "match_accept",
                "match_join",
                "match_start",
                "match_withdraw",
            ]),
        )),
        opt(
            "match",
            "rencontre",
            Kind::Integer {
                min: 1,
                max: i64::MAX >> 11,
            },
        ),
        opt("team", "equipe", TEAM_NAME),
        opt("against", "adversaire", TEAM_NAME),
        opt(
            "server",
            "serveur",
            Kind::Text {
                max: crate::core::command::MAX_SERVER_ID as u16,
            },
        ),
        opt(
            "boards",
            "echiquiers",
            Kind::Integer {
                min: 1,
                max: crate::core::team::MAX_MATCH_BOARDS as i64,
            },
        ),
        opt(
            "time",
            "cadence",
            Kind::Text {
                max: MAX_TIME_CONTROL,
            },
        ),
    ],
    build: |o| {
        let id = o.integer("match");
        Ok(Command::Match(match o.text("action") {
            None | Some("match_show") => MatchCommand::Show { id },
            Some("match_create") => {
                let server = match o.text("server").map(str::trim) {
                    None => None,
                    Some(id)
                        if id.is_empty()
                            || id.len() > crate::core::command::MAX_SERVER_ID
                            || id.chars().any(|c| c.is_whitespace() || c.is_control()) =>
                    {
                        return Err(bad("server", id));
                    }
                    Some(id) => Some(id.to_owned()),
                };
                let boards = match o.integer("boards") {
                    None => crate::core::command::DEFAULT_BOARDS,
                    Some(n) => u32::try_from(n)
                        .ok()
                        .filter(|n| (1..=crate::core::team::MAX_MATCH_BOARDS).contains(n))
                        .ok_or_else(|| bad("boards", &n.to_string()))?,
                };
                MatchCommand::Create(Box::new(NewMatchWish {
                    team: team_name(o.required_text("team")?)?,
                    versus: team_name(o.required_text("against")?)?,
                    server,
                    boards,
                    time_control: o.text("time").map(str::to_owned),
                }))
            }
            Some("match_accept") => MatchCommand::Accept { id },
            Some("match_join") => MatchCommand::Join { id },
            Some("match_start") => MatchCommand::Start { id },
            Some("match_withdraw") => MatchCommand::Withdraw { id },
            Some(other) => return Err(bad("action", other)),
        }))
    },
};

/// The commands of their own (not `/chess` subcommands, of which Discord
/// allows 25).
pub const SINGLES: [&CommandSpec; 7] = [&MOVE, &TAKEBACK, &REVIEW, &PUZZLE, &TEAM, &VOTE, &MATCH];

/// The name of the command that holds every other act.
pub const CHESS_NAME: &str = "chess";
pub const CHESS_FR: &str = "echecs";

/// `/chess <subcommand>`: one entry each.
pub const CHESS: &[CommandSpec] = &[
    CommandSpec {
        name: "challenge",
        fr: "defi",
        options: &[
            opt("user", "joueur", Kind::User),
            opt(
                "color",
                "couleur",
                Kind::Choice(&["white", "black", "random"]),
            ),
            opt(
                "time",
                "cadence",
                Kind::Text {
                    max: MAX_TIME_CONTROL,
                },
            ),
            opt("rated", "classee", Kind::Boolean),
            opt("fen", "fen", Kind::Text { max: MAX_FEN }),
            opt(
                "pgn",
                "pgn",
                Kind::Text {
                    max: MAX_PGN_OPTION,
                },
            ),
            opt(
                "variant",
                "variante",
                Kind::Choice(&["standard", "chess960"]),
            ),
            opt(
                "start",
                "depart",
                Kind::Integer {
                    min: 0,
                    max: chess960::COUNT as i64 - 1,
                },
            ),
            opt("team", "equipe", TEAM_NAME),
            opt("vs", "contre", TEAM_NAME),
            opt("change_vote", "changer_vote", Kind::Boolean),
        ],
        build: |o| {
            let (team, versus) = (o.text("team"), o.text("vs"));
            if team.is_some() || versus.is_some() {
                // A vote game: a team against a player or a team.
                let opponent = o.user("user").map(user_ref).transpose()?;
                if opponent.is_some() && versus.is_some() {
                    return Err(CommandError::Unexpected("vs".to_owned()));
                }
                if opponent.is_none() && versus.is_none() {
                    return Err(CommandError::MissingArgument("opponent"));
                }
                return Ok(Command::TeamChallenge(Box::new(TeamChallenge {
                    team: team.map(team_name).transpose()?,
                    opponent,
                    versus: versus.map(team_name).transpose()?,
                    color: match o.text("color") {
                        None | Some("random") => ColorChoice::Random,
                        Some("white") => ColorChoice::White,
                        Some("black") => ColorChoice::Black,
                        Some(other) => return Err(bad("color", other)),
                    },
                    time_control: o.text("time").map(str::to_owned),
                    change_vote: o.boolean("change_vote").unwrap_or(true),
                })));
            }
            let start = match o.integer("start") {
                None => None,
                Some(n) => match u16::try_from(n) {
                    Ok(n) if n < chess960::COUNT => Some(n),
                    _ => return Err(bad("start", &n.to_string())),
                },
            };
            Ok(Command::Challenge {
                variant: challenge_variant(o.text("variant"), start)?,
                start,
                opponent: o.user("user").map(user_ref).transpose()?,
                color: match o.text("color") {
                    None | Some("random") => ColorChoice::Random,
                    Some("white") => ColorChoice::White,
                    Some("black") => ColorChoice::Black,
                    Some(other) => return Err(bad("color", other)),
                },
                rated: o.flag("rated"),
                fen: o.text("fen").map(str::to_owned),
                time_control: o.text("time").map(str::to_owned),
                pgn: o.text("pgn").map(str::to_owned),
            })
        },
    },
    CommandSpec {
        name: "accept",
        fr: "accepter",
        options: &[CHALLENGE_ID],
        build: |o| {
            Ok(Command::Accept {
                challenge: o.integer("challenge"),
            })
        },
    },
    CommandSpec {
        name: "decline",
        fr: "refuser",
        options: &[CHALLENGE_ID],
        build: |o| {
            Ok(Command::Decline {
                challenge: o.integer("challenge"),
            })
        },
    },
    CommandSpec {
        name: "cancel",
        fr: "retirer",
        options: &[CHALLENGE_ID],
        build: |o| {
            Ok(Command::Cancel {
                challenge: o.integer("challenge"),
            })
        },
    },
    CommandSpec {
        name: "draw",
        fr: "nulle",
        options: &[
            required(opt(
                "action",
                "action",
                Kind::Choice(&["offer", "accept", "decline"]),
            )),
            GAME,
        ],
        build: |o| {
            let action = match o.required_text("action")? {
                "offer" => DrawAction::Offer,
                "accept" => DrawAction::Accept,
                "decline" => DrawAction::Decline,
                other => return Err(bad("action", other)),
            };
            Ok(Command::Draw {
                action,
                game: o.integer("game"),
            })
        },
    },
    CommandSpec {
        name: "claim",
        fr: "reclamer",
        options: &[
            opt("kind", "motif", Kind::Choice(&["threefold", "fifty"])),
            opt(
                "move",
                "coup",
                Kind::Text {
                    max: MAX_MOVE_INPUT as u16,
                },
            ),
            GAME,
        ],
        build: |o| {
            let kind = match o.text("kind") {
                None => None,
                Some("threefold") => Some(ClaimKind::Threefold),
                Some("fifty") => Some(ClaimKind::Fifty),
                Some(other) => return Err(bad("kind", other)),
            };
            Ok(Command::Claim {
                kind,
                with_move: o.text("move").map(str::to_owned),
                game: o.integer("game"),
            })
        },
    },
    CommandSpec {
        name: "resign",
        fr: "abandon",
        options: &[GAME],
        build: |o| {
            Ok(Command::Resign {
                game: o.integer("game"),
            })
        },
    },
    CommandSpec {
        name: "abort",
        fr: "annuler",
        options: &[GAME],
        build: |o| {
            Ok(Command::Abort {
                game: o.integer("game"),
            })
        },
    },
    CommandSpec {
        name: "board",
        fr: "echiquier",
        options: &[GAME],
        build: |o| {
            Ok(Command::Board {
                game: o.integer("game"),
            })
        },
    },
    CommandSpec {
        name: "moves",
        fr: "coups",
        options: &[GAME],
        build: |o| {
            Ok(Command::Moves {
                game: o.integer("game"),
            })
        },
    },
    CommandSpec {
        name: "pgn",
        fr: "pgn",
        options: &[GAME],
        build: |o| {
            Ok(Command::Pgn {
                game: o.integer("game"),
            })
        },
    },
    CommandSpec {
        name: "gif",
        fr: "gif",
        options: &[GAME],
        build: |o| {
            Ok(Command::Gif {
                game: o.integer("game"),
            })
        },
    },
    CommandSpec {
        name: "games",
        fr: "parties",
        options: &[],
        build: |_| Ok(Command::Games),
    },
    CommandSpec {
        name: "standings",
        fr: "classement",
        options: &[opt("season", "saison", Kind::Text { max: MAX_SEASON })],
        build: |o| {
            Ok(match o.text("season") {
                None => Command::Standings,
                Some(season) => Command::SeasonStandings {
                    season: season.to_owned(),
                },
            })
        },
    },
    CommandSpec {
        name: "rating",
        fr: "cote",
        options: &[opt("player", "joueur", Kind::User)],
        build: |o| {
            Ok(Command::Rating {
                user: o.user("player").map(user_ref).transpose()?,
            })
        },
    },
    CommandSpec {
        name: "record",
        fr: "bilan",
        options: &[
            required(opt("player", "joueur", Kind::User)),
            opt("opponent", "adversaire", Kind::User),
        ],
        build: |o| {
            Ok(Command::Record {
                player: o
                    .user("player")
                    .map(user_ref)
                    .ok_or(CommandError::MissingArgument("player"))??,
                opponent: o.user("opponent").map(user_ref).transpose()?,
            })
        },
    },
    CommandSpec {
        name: "ladder",
        fr: "echelle",
        options: &[
            required(opt(
                "action",
                "action",
                Kind::Choice(&[
                    "ladder_show",
                    "ladder_join",
                    "ladder_leave",
                    "ladder_challenge",
                ]),
            )),
            opt("player", "joueur", Kind::User),
        ],
        build: |o| {
            let action = match o.required_text("action")? {
                "ladder_show" => LadderAction::Show,
                "ladder_join" => LadderAction::Join,
                "ladder_leave" => LadderAction::Leave,
                "ladder_challenge" => LadderAction::Challenge {
                    opponent: o
                        .user("player")
                        .map(user_ref)
                        .ok_or(CommandError::MissingArgument("player"))??,
                },
                other => return Err(bad("action", other)),
            };
            Ok(Command::Ladder(action))
        },
    },
    CommandSpec {
        name: "leave",
        fr: "conge",
        options: &[
            required(opt(
                "action",
                "action",
                Kind::Choice(&["start", "end", "status"]),
            )),
            opt("days", "jours", Kind::Integer { min: 1, max: 366 }),
        ],
        build: |o| {
            let action = match o.required_text("action")? {
                "start" => LeaveAction::Start {
                    days: day_count(
                        o.integer("days")
                            .ok_or(CommandError::MissingArgument("days"))?,
                    )?,
                },
                "end" => LeaveAction::End,
                "status" => LeaveAction::Status,
                other => return Err(bad("action", other)),
            };
            Ok(Command::Leave(action))
        },
    },
    CommandSpec {
        name: "moretime",
        fr: "plus_de_temps",
        options: &[
            required(opt("days", "jours", Kind::Integer { min: 1, max: 30 })),
            GAME,
        ],
        build: |o| {
            let days = o
                .integer("days")
                .ok_or(CommandError::MissingArgument("days"))?;
            Ok(Command::MoreTime {
                days: day_count(days)?,
                game: o.integer("game"),
            })
        },
    },
    // One subcommand for both (Discord allows 25): without text, the list.
    CommandSpec {
        name: "note",
        fr: "note",
        options: &[
            opt(
                "text",
                "texte",
                Kind::Text {
                    max: MAX_NOTE_OPTION,
                },
            ),
            GAME,
        ],
        build: |o| {
            let game = o.integer("game");
            Ok(match o.text("text") {
                Some(text) => Command::Note {
                    text: text.to_owned(),
                    game,
                },
                None => Command::Notes { game },
            })
        },
    },
    CommandSpec {
        name: "openings",
        fr: "ouvertures",
        options: &[],
        build: |_| Ok(Command::Openings),
    },
    CommandSpec {
        name: "if",
        fr: "si",
        options: &[
            opt("moves", "coups", Kind::Text { max: MAX_IF_LINE }),
            opt("action", "action", Kind::Choice(&["list", "clear"])),
            GAME,
        ],
        build: |o| {
            let action = match (o.text("action"), o.text("moves")) {
                (Some(action), Some(_)) => return Err(CommandError::Unexpected(action.to_owned())),
                (Some("list"), None) => IfAction::List,
                (Some("clear"), None) => IfAction::Clear,
                (Some(other), None) => return Err(bad("action", other)),
                (None, Some(moves)) => {
                    IfAction::Add(moves.split_whitespace().map(str::to_owned).collect())
                }
                (None, None) => return Err(CommandError::MissingArgument("moves")),
            };
            Ok(Command::If {
                action,
                game: o.integer("game"),
            })
        },
    },
    CommandSpec {
        name: "settings",
        fr: "reglages",
        options: &[
            opt("language", "langue", Kind::Choice(&["en", "fr", "default"])),
            opt(
                "notify",
                "notifications",
                Kind::Choice(&["channel", "direct", "off"]),
            ),
        ],
        build: |o| match (o.text("language"), o.text("notify")) {
            (Some(_), Some(notify)) => Err(CommandError::Unexpected(format!("notify:{notify}"))),
            (Some("default"), None) => Ok(Command::SetLanguage(None)),
            (Some(tag), None) => Lang::from_locale(tag)
                .map(|lang| Command::SetLanguage(Some(lang)))
                .ok_or_else(|| bad("language", tag)),
            (None, Some(notify)) => Ok(Command::SetNotify(match notify {
                "channel" => Notify::Channel,
                "direct" => Notify::Direct,
                "off" => Notify::Off,
                other => return Err(bad("notify", other)),
            })),
            (None, None) => Err(CommandError::MissingArgument("language")),
        },
    },
    CommandSpec {
        name: "help",
        fr: "aide",
        options: &[],
        build: |_| Ok(Command::Help),
    },
    CommandSpec {
        name: "status",
        fr: "etat",
        options: &[],
        build: |_| Ok(Command::Status),
    },
];

fn bad(option: &'static str, value: &str) -> CommandError {
    CommandError::BadValue {
        option,
        value: value.chars().take(40).collect(),
    }
}

fn day_count(days: i64) -> Result<u32, CommandError> {
    u32::try_from(days).map_err(|_| bad("days", &days.to_string()))
}

/// The `/chess` subcommand called `name`.
pub fn chess_subcommand(name: &str) -> Option<&'static CommandSpec> {
    CHESS.iter().find(|spec| spec.name == name)
}

/// Every command as Discord registers it, described in English and French.
pub fn registrations(i18n: &I18n) -> Vec<CreateCommand> {
    let describe = |id: String| (i18n.text(Lang::En, &id, &[]), i18n.text(Lang::Fr, &id, &[]));
    // Games live in servers: the commands are offered in servers only (a
    // command from a direct message is refused too, for older registrations).
    let in_servers = || vec![InteractionContext::Guild];
    let mut commands = Vec::new();
    for spec in SINGLES {
        let (en, fr) = describe(format!("discord-cmd-{}", spec.name));
        let mut single = CreateCommand::new(spec.name)
            .contexts(in_servers())
            .name_localized("fr", spec.fr)
            .description(en)
            .description_localized("fr", fr);
        for option in spec.options {
            single = single.add_option(option_for(i18n, option));
        }
        commands.push(single);
    }
    let (en, fr) = describe(format!("discord-cmd-{CHESS_NAME}"));
    let mut chess = CreateCommand::new(CHESS_NAME)
        .contexts(in_servers())
        .name_localized("fr", CHESS_FR)
        .description(en)
        .description_localized("fr", fr);
    for spec in CHESS {
        let (en, fr) = describe(format!("discord-cmd-{}", spec.name));
        let mut sub = CreateCommandOption::new(CommandOptionType::SubCommand, spec.name, en)
            .name_localized("fr", spec.fr)
            .description_localized("fr", fr);
        for option in spec.options {
            sub = sub.add_sub_option(option_for(i18n, option));
        }
        chess = chess.add_option(sub);
    }
    let (en, fr) = describe(format!("discord-cmd-{TOURNAMENT_NAME}"));
    let mut tournaments = CreateCommand::new(TOURNAMENT_NAME)
        .contexts(in_servers())
        .name_localized("fr", TOURNAMENT_FR)
        .description(en)
        .description_localized("fr", fr);
    for spec in TOURNAMENT {
        let (en, fr) = describe(format!("discord-cmd-{TOURNAMENT_NAME}-{}", spec.name));
        let mut sub = CreateCommandOption::new(CommandOptionType::SubCommand, spec.name, en)
            .name_localized("fr", spec.fr)
            .description_localized("fr", fr);
        for option in spec.options {
            sub = sub.add_sub_option(option_for(i18n, option));
        }
        tournaments = tournaments.add_option(sub);
    }
    commands.extend([chess, tournaments]);
    commands
}

fn option_for(i18n: &I18n, spec: &OptionSpec) -> CreateCommandOption {
    let id = format!("discord-opt-{}", spec.name);
    let kind = match spec.kind {
        Kind::Text { .. } | Kind::Choice(_) => CommandOptionType::String,
        Kind::Integer { .. } => CommandOptionType::Integer,
        Kind::Boolean => CommandOptionType::Boolean,
        Kind::User => CommandOptionType::User,
    };
    let mut option = CreateCommandOption::new(kind, spec.name, i18n.text(Lang::En, &id, &[]))
        .name_localized("fr", spec.fr)
        .description_localized("fr", i18n.text(Lang::Fr, &id, &[]))
        .required(spec.required)
        .set_autocomplete(spec.autocomplete);
    match spec.kind {
        Kind::Text { max } => option = option.max_length(max),
        Kind::Integer { min, max } => {
            option = option.min_int_value(min as u64).max_int_value(max as u64)
        }
        Kind::Choice(values) => {
            for value in values {
                let id = format!("discord-choice-{value}");
                option = option.add_string_choice_localized(
                    i18n.text(Lang::En, &id, &[]),
                    *value,
                    [("fr", i18n.text(Lang::Fr, &id, &[]))],
                );
            }
        }
        Kind::Boolean | Kind::User => {}
    }
    option
}

/// Every i18n id the table uses, so a test can check both catalogues.
pub fn message_ids() -> Vec<String> {
    let mut ids = vec![
        format!("discord-cmd-{}", MOVE.name),
        format!("discord-cmd-{CHESS_NAME}"),
    ];
    for spec in SINGLES.into_iter().chain(CHESS) {
        ids.push(format!("discord-cmd-{}", spec.name));
        for option in spec.options {
            ids.push(format!("discord-opt-{}", option.name));
            if let Kind::Choice(values) = option.kind {
                ids.extend(values.iter().map(|v| format!("discord-choice-{v}")));
            }
        }
    }
    ids.push(format!("discord-cmd-{TOURNAMENT_NAME}"));
    for spec in TOURNAMENT {
        ids.push(format!("discord-cmd-{TOURNAMENT_NAME}-{}", spec.name));
        for option in spec.options {
            ids.push(format!("discord-opt-{}", option.name));
            if let Kind::Choice(values) = option.kind {
                ids.extend(values.iter().map(|v| format!("discord-choice-{v}")));
            }
        }
    }
    ids.sort();
    ids.dedup();
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Discord's rule for command and option names.
    fn is_valid_name(name: &str) -> bool {
        let count = name.chars().count();
        (1..=32).contains(&count)
            && name
                .chars()
                .all(|c| c == '-' || c == '_' || c.is_alphanumeric() && !c.is_uppercase())
    }

    #[test]
    fn names_are_valid_and_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for spec in CHESS {
            assert!(
                is_valid_name(spec.name) && is_valid_name(spec.fr),
                "{}",
                spec.name
            );
            assert!(seen.insert(spec.name), "{} twice", spec.name);
            let mut options = std::collections::BTreeSet::new();
            for option in spec.options {
                assert!(is_valid_name(option.name) && is_valid_name(option.fr));
                assert!(
                    options.insert(option.name),
                    "{}: {} twice",
                    spec.name,
                    option.name
                );
            }
        }
        // Discord allows 25 subcommands and 25 options each.
        assert!(CHESS.len() <= 25);
        let mut seen = std::collections::BTreeSet::new();
        for spec in TOURNAMENT {
            assert!(
                is_valid_name(spec.name) && is_valid_name(spec.fr),
                "{}",
                spec.name
            );
            assert!(seen.insert(spec.name), "{} twice", spec.name);
            for option in spec.options {
                assert!(is_valid_name(option.name) && is_valid_name(option.fr));
            }
        }
    }

    #[test]
    fn every_description_exists_in_both_languages_within_discord_limits() {
        let i18n = I18n::new();
        for id in message_ids() {
            for lang in [Lang::En, Lang::Fr] {
                let text = i18n.text(lang, &id, &[]);
                assert_ne!(text, id, "{id} missing in {lang:?}");
                // Discord's limit for descriptions and choice names.
                let count = text.chars().count();
                assert!((1..=100).contains(&count), "{id} ({lang:?}): {count} chars");
            }
        }
        // /move, /takeback, /review, /puzzle, /team, /vote, /match, /chess,
        // /tournament.
        assert_eq!(registrations(&i18n).len(), 9);
    }
}
