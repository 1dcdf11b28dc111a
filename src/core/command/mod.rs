//! The command language, written once: every command's names (English and
//! French), options, bounds and builder are one row of the table
//! ([`table`]), which the text parser ([`text`]), Discord's registration and
//! option reading (`adapters::discord`), `/help` and the docs' reference
//! ([`help`]) all read. Parse errors ([`CommandError`]) are kept apart from
//! rule errors: a command that parses may still be refused by the game.
//!
//! The rows live beside what they build: [`challenge`], [`play`], [`game`],
//! [`club`], [`tournament`], [`team`], [`team_match`], [`settings`].

pub mod args;
pub mod challenge;
pub mod club;
pub mod game;
pub mod help;
pub mod play;
pub mod settings;
pub mod table;
pub mod team;
pub mod team_match;
pub mod text;
pub mod tournament;

pub use args::{Args, Value};
pub use challenge::{ChallengeCommand, ChallengeWish};
pub use club::{ClubAction, LadderAction, PuzzleAction};
pub use game::{GamesScope, MAX_NOTE_CHARS};
pub use play::{DrawAction, IfAction, VoteChoice};
pub use settings::LeaveAction;
pub use table::{Spec, find, names, top_level};
pub use team::TeamAction;
pub use team_match::{DEFAULT_BOARDS, MAX_SERVER_ID, MatchCommand, NewMatchWish};
pub use text::{parse, read};
pub use tournament::{NewTournamentWish, TournamentCommand, tie_breaks_from_words};

use super::choices::{ColorChoice, Notify};
use super::event::ClaimKind;
pub use super::game::TakebackAction;
use super::notation::Lang;
use super::team::TeamName;

/// The longest command line accepted: room for a game to continue
/// (`/challenge @bob pgn:"1. e4 e5 …"`, about 11 bytes a move, so a
/// 150-move game), and a bound on what one line can make the bot do.
pub const MAX_COMMAND_BYTES: usize = 2048;
/// The longest user reference accepted (`@name`, a Discord or Matrix id).
pub const MAX_USER_REF: usize = 100;
/// The name of the option that names a game (`game:3`).
pub const GAME: &str = play::GAME.name;
/// The command that plays a move, for platforms with a shortcut to it.
pub const MOVE: &str = play::MOVE_ROW;
/// The command that lists the others, for a platform's bare prefix.
pub const HELP: &str = settings::HELP;

/// A user named in a command, as the platform identifies them, with the
/// name the platform shows when it tells (Discord resolves mentions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserRef(String, Option<String>);

impl UserRef {
    pub fn new(text: &str) -> Result<UserRef, CommandError> {
        let id = text.trim().trim_start_matches('@');
        if id.is_empty() {
            return Err(CommandError::MissingArgument("user"));
        }
        if id.len() > MAX_USER_REF {
            return Err(CommandError::TooLong);
        }
        Ok(UserRef(id.to_owned(), None))
    }

    /// The same user with their display name (cut to [`MAX_USER_REF`]).
    pub fn with_name(mut self, name: &str) -> UserRef {
        // A platform's name cannot be refused: what would hide text goes.
        let name: String = super::hidden::strip(name.trim())
            .chars()
            .take(MAX_USER_REF)
            .collect();
        self.1 = Some(name).filter(|n| !n.is_empty());
        self
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The display name if known, else the id.
    pub fn display_name(&self) -> &str {
        self.1.as_deref().unwrap_or(&self.0)
    }
}

/// One command, before any rule is checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Propose, accept, decline or withdraw a challenge.
    Challenge(ChallengeCommand),
    Move {
        text: String,
        offer_draw: bool,
        game: Option<i64>,
    },
    Draw {
        action: DrawAction,
        game: Option<i64>,
    },
    Claim {
        kind: Option<ClaimKind>,
        with_move: Option<String>,
        game: Option<i64>,
    },
    Resign {
        game: Option<i64>,
    },
    /// Give the opponent `days` more days.
    MoreTime {
        days: u32,
        game: Option<i64>,
    },
    Abort {
        game: Option<i64>,
    },
    Board {
        game: Option<i64>,
    },
    Moves {
        game: Option<i64>,
    },
    Pgn {
        game: Option<i64>,
    },
    /// The game as an animated GIF, one frame per ply.
    Gif {
        game: Option<i64>,
    },
    /// One's games: here, everywhere, or finished.
    Games(GamesScope),
    Standings,
    /// The standings of a configured season.
    SeasonStandings {
        season: String,
    },
    /// `player`'s record against `opponent` (the caller when `None`).
    Record {
        player: UserRef,
        opponent: Option<UserRef>,
    },
    /// A player's Glicko-2 rating and its history (the caller's when `None`).
    Rating {
        user: Option<UserRef>,
    },
    /// `None` returns the player to the server's language.
    SetLanguage(Option<Lang>),
    /// A moderator sets the server's language; `None` returns it to the
    /// configured default.
    SetServerLanguage(Option<Lang>),
    /// A moderator puts the server's pages on the web, or takes them off.
    SetWebPages(bool),
    /// Where turn notices and reminders go.
    SetNotify(Notify),
    /// The notation the player writes moves in (English, French or
    /// German); `None`: every reading, and asking when two differ.
    SetNotation(Option<Lang>),
    /// `/link`: a one-time code to link another account (`None`), or the
    /// code got on the other account, to link this one to it.
    Link {
        code: Option<String>,
    },
    /// `/unlink`: this account leaves the player it was linked into.
    Unlink,
    /// `/settings timezone`: an IANA time zone name; `None`: UTC.
    SetTimeZone(Option<String>),
    /// `/settings digest`: the local time of the daily digest, minutes
    /// after midnight; `None`: no digest.
    SetDigest(Option<u32>),
    /// Leave (vacation): start for whole days, end early, or show.
    Leave(LeaveAction),
    /// The challenge ladder: show, join, leave, challenge.
    Ladder(LadderAction),
    /// The commands, or one command's options.
    Help {
        about: Option<String>,
    },
    /// For moderators: what the bot could not deliver on this server lately.
    Status,
    /// A tournament act (create, join, leave, start, pairings, standings, withdraw).
    Tournament(TournamentCommand),
    /// A private note on a game, seen only by its writer.
    Note {
        text: String,
        game: Option<i64>,
    },
    /// The server's most played openings and how they scored.
    Openings,
    /// Ask to take back one's last move, or answer the opponent's asking.
    Takeback {
        action: TakebackAction,
        game: Option<i64>,
    },
    /// One's private notes on a game.
    Notes {
        game: Option<i64>,
    },
    /// Conditional moves: store a line, list or clear one's lines.
    If {
        action: IfAction,
        game: Option<i64>,
    },
    /// An engine review of a finished game (the caller's last one here).
    Review {
        game: Option<i64>,
    },
    /// The server's puzzles: the next one, an answer, the solvers' table.
    Puzzle(PuzzleAction),
    /// A server's teams: create, join, leave, list, delete.
    Team(TeamAction),
    /// A vote chess challenge (`/challenge team:<name> …` or `vs:<team>`).
    TeamChallenge(Box<TeamChallenge>),
    /// A team match: create, accept, join, start, withdraw, show.
    Match(MatchCommand),
    /// A club of servers of either platform: invite, join, quit, show.
    Club(ClubAction),
    /// A team member's vote on the team's move.
    Vote {
        choice: VoteChoice,
        game: Option<i64>,
    },
}

/// A vote chess challenge: a team (or the challenger alone) against a
/// player or a team.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamChallenge {
    /// The challenger's team; `None`: the challenger plays alone.
    pub team: Option<TeamName>,
    /// The player challenged, or…
    pub opponent: Option<UserRef>,
    /// …the team challenged.
    pub versus: Option<TeamName>,
    /// The challenger's side's colour.
    pub color: ColorChoice,
    pub time_control: Option<String>,
    /// Whether a member may change their vote until the move is played.
    pub change_vote: bool,
}

/// Why a text is not a command. Each has a `kind()` name for i18n.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("the command is too long")]
    TooLong,
    #[error("empty command")]
    Empty,
    #[error("unknown command {0}")]
    Unknown(String),
    #[error("missing {0}")]
    MissingArgument(&'static str),
    #[error("bad value {value:?} for {option}")]
    BadValue { option: &'static str, value: String },
    #[error("unexpected {0:?}")]
    Unexpected(String),
    /// A word where a player could be named, without its `@` (`/challenge bob`).
    #[error("{0:?} is not a mention")]
    NotAMention(String),
    #[error("unclosed quote")]
    UnclosedQuote,
    /// A tie-break that is not one of FIDE's acronyms this bot knows.
    #[error("unknown tie-break {0:?}")]
    UnknownTieBreak(String),
    /// A tie-break listed twice.
    #[error("tie-break {0} listed twice")]
    RepeatedTieBreak(String),
    /// A name with a character that hides or reorders text (see
    /// [`crate::core::hidden`]), named by its code point (`U+202E`).
    #[error("the {option} contains the hidden character {code}")]
    HiddenCharacter { option: &'static str, code: String },
}

impl Command {
    /// Whether the command only looks at what is stored: repeating it changes
    /// nothing, so the service answers it afresh on every delivery (with its
    /// files) instead of keeping its answer under the act's key.
    pub fn only_looks(&self) -> bool {
        match self {
            Command::Board { .. }
            | Command::Moves { .. }
            | Command::Pgn { .. }
            | Command::Gif { .. }
            | Command::Games(_)
            | Command::Standings
            | Command::Rating { .. }
            | Command::SeasonStandings { .. }
            | Command::Record { .. }
            | Command::Help { .. }
            | Command::Status
            | Command::Leave(LeaveAction::Status)
            | Command::Ladder(LadderAction::Show)
            | Command::If {
                action: IfAction::List,
                ..
            }
            | Command::Notes { .. }
            | Command::Openings
            | Command::Review { .. }
            | Command::Puzzle(PuzzleAction::Solvers)
            | Command::Team(TeamAction::List)
            | Command::Club(ClubAction::Servers)
            | Command::Match(MatchCommand::Show { .. })
            | Command::Tournament(
                TournamentCommand::Pairings { .. } | TournamentCommand::Standings { .. },
            ) => true,
            Command::Challenge(_)
            | Command::Move { .. }
            | Command::Draw { .. }
            | Command::Claim { .. }
            | Command::Resign { .. }
            | Command::MoreTime { .. }
            | Command::Abort { .. }
            | Command::SetLanguage(_)
            | Command::SetServerLanguage(_)
            | Command::SetWebPages(_)
            | Command::SetNotify(_)
            | Command::SetNotation(_)
            | Command::Link { .. }
            | Command::Unlink
            | Command::SetTimeZone(_)
            | Command::SetDigest(_)
            | Command::Leave(_)
            | Command::Ladder(_)
            | Command::If { .. }
            | Command::Note { .. }
            | Command::Takeback { .. }
            | Command::Puzzle(_)
            | Command::Team(_)
            | Command::TeamChallenge(_)
            | Command::Vote { .. }
            | Command::Club(_)
            | Command::Match(_)
            | Command::Tournament(_) => false,
        }
    }
}

impl CommandError {
    /// A stable snake_case name: the i18n message key.
    pub fn kind(&self) -> &'static str {
        match self {
            CommandError::TooLong => "too_long",
            CommandError::Empty => "empty",
            CommandError::Unknown(_) => "unknown_command",
            CommandError::MissingArgument(_) => "missing_argument",
            CommandError::BadValue { .. } => "bad_value",
            CommandError::Unexpected(_) => "unexpected_argument",
            CommandError::NotAMention(_) => "not_a_mention",
            CommandError::UnclosedQuote => "unclosed_quote",
            CommandError::UnknownTieBreak(_) => "unknown_tiebreak",
            CommandError::RepeatedTieBreak(_) => "repeated_tiebreak",
            CommandError::HiddenCharacter { .. } => "hidden_character",
        }
    }
}

/// The known command name (English or French) nearest to `typed`, to
/// suggest for a typo: at most two edits away (a swap of neighbours is one)
/// and fewer edits than half the name's letters, so `/halp` and `/drwa`
/// find a command and `/x` finds none.
pub fn nearest_name(typed: &str) -> Option<&'static str> {
    let typed = typed.trim_start_matches('/').to_lowercase();
    names()
        .map(|name| (strsim::damerau_levenshtein(&typed, name), name))
        .filter(|&(edits, name)| edits <= 2 && edits * 2 < name.chars().count())
        .min_by_key(|&(edits, _)| edits)
        .map(|(_, name)| name)
}

/// A team named by an option, refused as its kind's bound words it.
fn team_name(text: &str) -> Result<TeamName, CommandError> {
    TeamName::parse(text).map_err(|_| bad("team", text))
}

fn bad(option: &'static str, value: &str) -> CommandError {
    CommandError::BadValue {
        option,
        value: bounded(value),
    }
}

/// A name typed for the bot to repeat, refused if it hides characters.
fn shown_name(option: &'static str, text: &str) -> Result<String, CommandError> {
    match super::hidden::check_name(text) {
        Ok(()) => Ok(text.to_owned()),
        Err(hidden) => Err(CommandError::HiddenCharacter {
            option,
            code: format!("U+{:04X}", u32::from(hidden.0)),
        }),
    }
}

/// Keeps echoed user text short in error messages, and visible: without
/// characters that would hide or turn around the rest of the message.
fn bounded(text: &str) -> String {
    super::hidden::strip(text).chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::notation::MAX_MOVE_INPUT;
    use crate::core::variant::Variant;

    /// A challenge offer: the wish `/challenge` alone makes, changed by `change`.
    fn offer(change: impl FnOnce(&mut ChallengeWish)) -> Command {
        let Ok(Command::Challenge(ChallengeCommand::Offer(mut wish))) = parse("/challenge") else {
            panic!("/challenge is an offer");
        };
        change(&mut wish);
        Command::Challenge(ChallengeCommand::Offer(wish))
    }

    fn user(name: &str) -> UserRef {
        UserRef::new(name).expect("a user")
    }

    #[test]
    fn commands_parse() {
        let challenge = |act| Command::Challenge(act);
        let cases: Vec<(&str, Command)> = vec![
            (
                "/challenge @bob color:white",
                offer(|w| {
                    w.opponent = Some(user("bob"));
                    w.color = ColorChoice::White;
                }),
            ),
            (
                "challenge rated:no fen:\"8/8/4k3/8/8/3K4/3Q4/8 w - - 0 1\"",
                offer(|w| {
                    w.rated = false;
                    w.fen = Some("8/8/4k3/8/8/3K4/3Q4/8 w - - 0 1".into());
                }),
            ),
            (
                // A game to continue is unrated unless asked otherwise;
                // quotes inside the quoted PGN are escaped.
                "/challenge @bob pgn:\"[White \\\"a\\\\b\\\"] 1. e4\"",
                offer(|w| {
                    w.opponent = Some(user("bob"));
                    w.rated = false;
                    w.pgn = Some("[White \"a\\b\"] 1. e4".into());
                }),
            ),
            (
                "/challenge @bob variant:chess960 start:#12",
                offer(|w| {
                    w.opponent = Some(user("bob"));
                    w.variant = Variant::Chess960;
                    w.start = Some(12);
                }),
            ),
            (
                // French names, and a start alone is a Chess960 one.
                "/défi couleur:blancs depart:518",
                offer(|w| {
                    w.color = ColorChoice::White;
                    w.variant = Variant::Chess960;
                    w.start = Some(518);
                }),
            ),
            (
                "/defi variante:960",
                offer(|w| w.variant = Variant::Chess960),
            ),
            // The theme word Discord shows may be typed too.
            (
                "/jouer defi cadence:5d",
                offer(|w| w.time_control = Some("5d".into())),
            ),
            (
                "/accept",
                challenge(ChallengeCommand::Accept { challenge: None }),
            ),
            (
                "/accept 3",
                challenge(ChallengeCommand::Accept { challenge: Some(3) }),
            ),
            (
                "/play accept C3",
                challenge(ChallengeCommand::Accept { challenge: Some(3) }),
            ),
            (
                "/decline #c3",
                challenge(ChallengeCommand::Decline { challenge: Some(3) }),
            ),
            (
                "/cancel challenge:C3",
                challenge(ChallengeCommand::Cancel { challenge: Some(3) }),
            ),
            (
                "/move e4 offer_draw",
                Command::Move {
                    text: "e4".into(),
                    offer_draw: true,
                    game: None,
                },
            ),
            (
                "/move exd6 e.p. game:7",
                Command::Move {
                    text: "exd6 e.p.".into(),
                    offer_draw: false,
                    game: Some(7),
                },
            ),
            (
                "/draw accept",
                Command::Draw {
                    action: DrawAction::Accept,
                    game: None,
                },
            ),
            (
                "/jouer nulle refuser partie:2",
                Command::Draw {
                    action: DrawAction::Decline,
                    game: Some(2),
                },
            ),
            (
                "/draw",
                Command::Draw {
                    action: DrawAction::Offer,
                    game: None,
                },
            ),
            (
                "/claim threefold Ng8",
                Command::Claim {
                    kind: Some(ClaimKind::Threefold),
                    with_move: Some("Ng8".into()),
                    game: None,
                },
            ),
            (
                "/claim",
                Command::Claim {
                    kind: None,
                    with_move: None,
                    game: None,
                },
            ),
            ("/board 12", Command::Board { game: Some(12) }),
            ("/partie echiquier 12", Command::Board { game: Some(12) }),
            ("/gif", Command::Gif { game: None }),
            ("/gif game:7", Command::Gif { game: Some(7) }),
            (
                "/settings language fr",
                Command::SetLanguage(Some(Lang::Fr)),
            ),
            (
                "/settings language:en",
                Command::SetLanguage(Some(Lang::En)),
            ),
            ("/reglages langue defaut", Command::SetLanguage(None)),
            (
                "/settings server-language fr",
                Command::SetServerLanguage(Some(Lang::Fr)),
            ),
            (
                "/settings server_language:en",
                Command::SetServerLanguage(Some(Lang::En)),
            ),
            ("/settings web on", Command::SetWebPages(true)),
            ("/reglages web non", Command::SetWebPages(false)),
            ("/settings web pages:off", Command::SetWebPages(false)),
            (
                "/reglages langue-serveur defaut",
                Command::SetServerLanguage(None),
            ),
            ("/resign game:#4", Command::Resign { game: Some(4) }),
            ("/games", Command::Games(GamesScope::Here)),
            ("/games everywhere", Command::Games(GamesScope::Everywhere)),
            ("/parties partout", Command::Games(GamesScope::Everywhere)),
            ("/games finished", Command::Games(GamesScope::Finished)),
            ("/parties terminées", Command::Games(GamesScope::Finished)),
            ("/link", Command::Link { code: None }),
            (
                "/link abcd efgh",
                Command::Link {
                    code: Some("abcd efgh".to_owned()),
                },
            ),
            (
                "/lier ABCD-EFGH",
                Command::Link {
                    code: Some("ABCD-EFGH".to_owned()),
                },
            ),
            ("/unlink", Command::Unlink),
            ("/délier", Command::Unlink),
            ("/settings digest 08:30", Command::SetDigest(Some(510))),
            ("/settings digest 8h", Command::SetDigest(Some(480))),
            ("/reglages resume 23:59", Command::SetDigest(Some(1439))),
            ("/settings digest off", Command::SetDigest(None)),
            ("/réglages résumé aucun", Command::SetDigest(None)),
            (
                "/settings timezone Europe/Paris",
                Command::SetTimeZone(Some("Europe/Paris".to_owned())),
            ),
            ("/reglages fuseau UTC", Command::SetTimeZone(None)),
            (
                "/club invite matrix !space:example.org",
                Command::Club(ClubAction::Invite {
                    platform: crate::core::platform::Platform::Matrix,
                    server: "!space:example.org".to_owned(),
                }),
            ),
            ("/club join 3", Command::Club(ClubAction::Join { club: 3 })),
            (
                "/club rejoindre #3",
                Command::Club(ClubAction::Join { club: 3 }),
            ),
            ("/club quitter", Command::Club(ClubAction::Quit)),
            ("/club servers", Command::Club(ClubAction::Servers)),
            (
                "/leave start 5",
                Command::Leave(LeaveAction::Start { days: 5 }),
            ),
            ("/leave end", Command::Leave(LeaveAction::End)),
            ("/leave", Command::Leave(LeaveAction::Status)),
            ("/settings notify off", Command::SetNotify(Notify::Off)),
            ("/settings notify:dm", Command::SetNotify(Notify::Direct)),
            (
                "/settings notation english",
                Command::SetNotation(Some(Lang::En)),
            ),
            (
                "/reglages notation francaise",
                Command::SetNotation(Some(Lang::Fr)),
            ),
            (
                "/réglages notation allemande",
                Command::SetNotation(Some(Lang::De)),
            ),
            (
                "/settings notation:de",
                Command::SetNotation(Some(Lang::De)),
            ),
            ("/settings notation auto", Command::SetNotation(None)),
            (
                "/moretime 2",
                Command::MoreTime {
                    days: 2,
                    game: None,
                },
            ),
            (
                "/moretime days:3d game:5",
                Command::MoreTime {
                    days: 3,
                    game: Some(5),
                },
            ),
            ("/help", Command::Help { about: None }),
            (
                "/aide nulle",
                Command::Help {
                    about: Some("nulle".into()),
                },
            ),
            (
                "/if e5 Nf3",
                Command::If {
                    action: IfAction::Add(vec!["e5".into(), "Nf3".into()]),
                    game: None,
                },
            ),
            (
                "/si liste",
                Command::If {
                    action: IfAction::List,
                    game: None,
                },
            ),
            ("/puzzle", Command::Puzzle(PuzzleAction::Next)),
            (
                "/puzzle Qxf7",
                Command::Puzzle(PuzzleAction::Answer("Qxf7".into())),
            ),
            (
                "/probleme classement",
                Command::Puzzle(PuzzleAction::Solvers),
            ),
            (
                "/takeback",
                Command::Takeback {
                    action: TakebackAction::Request,
                    game: None,
                },
            ),
            (
                "/reprise accepter",
                Command::Takeback {
                    action: TakebackAction::Accept,
                    game: None,
                },
            ),
        ];
        for (line, expected) in cases {
            assert_eq!(parse(line), Ok(expected), "{line}");
        }
    }

    #[test]
    fn every_name_is_a_command() {
        for name in names() {
            let result = parse(&format!("/{name}"));
            assert!(
                !matches!(result, Err(CommandError::Unknown(_))),
                "{name}: {result:?}"
            );
        }
        assert_eq!(
            parse("COUP Cf6"),
            Ok(Command::Move {
                text: "Cf6".to_owned(),
                offer_draw: false,
                game: None,
            })
        );
    }

    #[test]
    fn bad_commands_are_refused() {
        let long = format!("/move {}", "a".repeat(MAX_COMMAND_BYTES));
        let cases: Vec<(&str, &str)> = vec![
            ("", "empty"),
            ("/fly", "unknown_command"),
            ("/move", "missing_argument"),
            ("/move Nf3 game:x", "bad_value"),
            ("/move Nf3 game:-1", "bad_value"),
            ("/draw maybe", "bad_value"),
            ("/settings digest 24:00", "bad_value"),
            ("/challenge member:bob", "bad_value"),
            ("/challenge member:mastodon:bob", "bad_value"),
            ("/challenge member:matrix:", "bad_value"),
            ("/settings digest 8:60", "bad_value"),
            ("/settings digest 0800", "bad_value"),
            ("/settings digest ８:00", "bad_value"),
            ("/settings digest 123:0", "bad_value"),
            ("/settings digest :30", "bad_value"),
            ("/games nowhere", "bad_value"),
            ("/club invite mastodon x", "bad_value"),
            ("/club join x", "bad_value"),
            ("/challenge color:green", "bad_value"),
            ("/challenge start:960", "bad_value"),
            ("/challenge start:-1", "bad_value"),
            ("/challenge start:1é", "bad_value"),
            ("/challenge variant:atomic", "bad_value"),
            ("/challenge variant:standard start:3", "bad_value"),
            ("/resign now", "unexpected_argument"),
            ("/challenge bob", "not_a_mention"),
            ("/defi marie-claire", "not_a_mention"),
            ("/challenge @bob carol", "unexpected_argument"),
            ("/challenge 3d", "unexpected_argument"),
            ("/challenge fen:\"8/8", "unclosed_quote"),
            ("/move aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "too_long"),
            (&long, "too_long"),
            ("/settings language klingon", "bad_value"),
            ("/play", "missing_argument"),
            ("/moretime 31", "bad_value"),
            ("/ladder climb", "bad_value"),
            ("/accept 0", "bad_value"),
            ("/note", "missing_argument"),
        ];
        for (line, kind) in cases {
            let got = parse(line).map_err(|e| e.kind());
            assert_eq!(got, Err(kind), "{line}");
        }
    }

    #[test]
    fn team_and_vote_commands_parse() {
        let name = |text: &str| TeamName::parse(text).expect("a name");
        let team = |action| Ok(Command::Team(action));
        let vote = |choice, game| Ok(Command::Vote { choice, game });
        let moved = |text: &str, offer_draw| VoteChoice::Move {
            text: text.to_owned(),
            offer_draw,
        };
        let cases = [
            ("/team", team(TeamAction::List)),
            ("/team list", team(TeamAction::List)),
            ("/equipe liste", team(TeamAction::List)),
            (
                "/team create Les  Tours",
                team(TeamAction::Create(name("Les Tours"))),
            ),
            (
                "/équipe créer \"Les Tours\"",
                team(TeamAction::Create(name("Les Tours"))),
            ),
            ("/team join rooks", team(TeamAction::Join(name("rooks")))),
            (
                "/equipe rejoindre Rooks",
                team(TeamAction::Join(name("Rooks"))),
            ),
            ("/team leave", team(TeamAction::Leave(None))),
            (
                "/equipe quitter Rooks",
                team(TeamAction::Leave(Some(name("Rooks")))),
            ),
            (
                "/team delete Rooks",
                team(TeamAction::Delete(name("Rooks"))),
            ),
            ("/team create", Err(CommandError::MissingArgument("team"))),
            ("/team create @bob", Err(bad("team", "@bob"))),
            // `a:b` reads as an option, never as a name.
            (
                "/team create a:b",
                Err(CommandError::MissingArgument("team")),
            ),
            ("/team fly", Err(bad("subcommand", "fly"))),
            ("/vote e4", vote(moved("e4", false), None)),
            ("/voter Cf3 game:2", vote(moved("Cf3", false), Some(2))),
            ("/vote e4 offer_draw", vote(moved("e4", true), None)),
            ("/vote draw e4", vote(moved("e4", true), None)),
            ("/vote nulle Cf3", vote(moved("Cf3", true), None)),
            ("/vote exd6 e.p.", vote(moved("exd6 e.p.", false), None)),
            ("/vote resign", vote(VoteChoice::Resign, None)),
            ("/vote abandon game:3", vote(VoteChoice::Resign, Some(3))),
            ("/vote accept", vote(VoteChoice::Accept, None)),
            ("/vote accepter", vote(VoteChoice::Accept, None)),
            ("/vote", Err(CommandError::MissingArgument("move"))),
            ("/vote draw", Err(CommandError::MissingArgument("move"))),
        ];
        for (line, expected) in cases {
            assert_eq!(parse(line), expected, "{line}");
        }
        let long = format!("/vote {}", "a".repeat(MAX_MOVE_INPUT + 1));
        assert_eq!(parse(&long), Err(CommandError::TooLong));
        let long = format!("/team create {}", "a".repeat(40));
        assert_eq!(parse(&long), Err(CommandError::TooLong));
    }

    #[test]
    fn team_challenges_parse() {
        let name = |text: &str| Some(TeamName::parse(text).expect("a name"));
        let wish = |team, opponent: Option<&str>, versus| TeamChallenge {
            team,
            opponent: opponent.map(|o| UserRef::new(o).expect("user")),
            versus,
            color: ColorChoice::Random,
            time_control: None,
            change_vote: true,
        };
        let ok = |wish| Ok(Command::TeamChallenge(Box::new(wish)));
        let cases = [
            (
                "/challenge team:Rooks @dave",
                ok(wish(name("Rooks"), Some("dave"), None)),
            ),
            (
                "/challenge vs:\"Les Tours\"",
                ok(wish(None, None, name("Les Tours"))),
            ),
            (
                "/défi equipe:Rooks contre:Knights color:white time:12h change_vote:no",
                ok(TeamChallenge {
                    color: ColorChoice::White,
                    time_control: Some("12h".to_owned()),
                    change_vote: false,
                    ..wish(name("Rooks"), None, name("Knights"))
                }),
            ),
            (
                "/challenge team:Rooks",
                Err(CommandError::MissingArgument("opponent")),
            ),
            (
                "/challenge team:Rooks @dave vs:Knights",
                Err(CommandError::Unexpected("@dave".to_owned())),
            ),
            (
                "/challenge team:Rooks @dave fen:\"8/8/8/8/8/8/8/8 w - - 0 1\"",
                Err(CommandError::Unexpected("fen:…".to_owned())),
            ),
            ("/challenge team:@x @dave", Err(bad("team", "@x"))),
        ];
        for (line, expected) in cases {
            assert_eq!(parse(line), expected, "{line}");
        }
    }

    #[test]
    fn typos_find_the_nearest_command() {
        let cases = [
            ("/halp", Some("help")),
            ("drwa", Some("draw")),
            ("/chalenge", Some("challenge")),
            ("/RESING", Some("resign")),
            ("/abandn", Some("abandon")),
            ("/classment", Some("classement")),
            ("/x", None),
            ("/fly", None),
            ("/xyzzy", None),
            ("/échiquer", Some("échiquier")),
        ];
        for (typed, nearest) in cases {
            assert_eq!(nearest_name(typed), nearest, "{typed}");
        }
    }

    #[test]
    fn competition_commands_parse() {
        let user = |name: &str| UserRef::new(name).expect("user");
        let cases = [
            ("/rating", Ok(Command::Rating { user: None })),
            (
                "/rating @bob",
                Ok(Command::Rating {
                    user: Some(user("bob")),
                }),
            ),
            (
                "/standings season:2026",
                Ok(Command::SeasonStandings {
                    season: "2026".to_owned(),
                }),
            ),
            (
                "/record @alice @bob",
                Ok(Command::Record {
                    player: user("alice"),
                    opponent: Some(user("bob")),
                }),
            ),
            (
                "/record @alice",
                Ok(Command::Record {
                    player: user("alice"),
                    opponent: None,
                }),
            ),
            ("/record", Err(CommandError::MissingArgument("player"))),
            ("/ladder", Ok(Command::Ladder(LadderAction::Show))),
            ("/ladder show", Ok(Command::Ladder(LadderAction::Show))),
            ("/ladder JOIN", Ok(Command::Ladder(LadderAction::Join))),
            ("/ladder leave", Ok(Command::Ladder(LadderAction::Leave))),
            (
                "/ladder challenge @bob",
                Ok(Command::Ladder(LadderAction::Challenge {
                    opponent: user("bob"),
                })),
            ),
            (
                "/ladder challenge user:bob",
                Ok(Command::Ladder(LadderAction::Challenge {
                    opponent: user("bob"),
                })),
            ),
            (
                "/ladder challenge member:matrix:@carl:hs",
                Ok(Command::Ladder(LadderAction::Challenge {
                    opponent: user("matrix:@carl:hs"),
                })),
            ),
            (
                "/ladder challenge @matrix:@carl:hs",
                Ok(Command::Ladder(LadderAction::Challenge {
                    opponent: user("matrix:@carl:hs"),
                })),
            ),
            (
                "/ladder challenge @bob member:matrix:@carl:hs",
                Err(CommandError::Unexpected("member".to_owned())),
            ),
            (
                "/ladder challenge member:carl",
                Err(CommandError::BadValue {
                    option: "member",
                    value: "carl".to_owned(),
                }),
            ),
            (
                "/ladder challenge",
                Err(CommandError::MissingArgument("player")),
            ),
            (
                "/ladder climb",
                Err(CommandError::BadValue {
                    option: "subcommand",
                    value: "climb".to_owned(),
                }),
            ),
            (
                "/ladder join @bob",
                Err(CommandError::Unexpected("@bob".to_owned())),
            ),
        ];
        for (line, expected) in cases {
            assert_eq!(parse(line), expected, "{line}");
        }
    }
}
