//! Text to [`Command`]: the platform-neutral command language.
//!
//! The console and Matrix read commands from text (`/move e4 offer_draw`,
//! `!chess challenge @bob color:white`); Discord builds a [`Command`] from
//! slash-command options directly. Parse errors ([`CommandError`]) are kept
//! apart from rule errors: a command that parses may still be refused by the
//! game.
//!
//! Grammar: a command name, then words. `key:value` words are options,
//! `@name` words name a user, `"..."` groups words (for a FEN), and other
//! words are positional arguments.

mod team_match;
mod tournament;
pub use team_match::{DEFAULT_BOARDS, MAX_SERVER_ID, MatchCommand, NewMatchWish};
pub use tournament::{
    NewTournamentWish, TournamentCommand, system_from_word, tie_breaks_from_words,
};

/// Bounds of the tournament options (for adapters that declare them).
pub mod tournament_limits {
    pub use super::tournament::{MAX_ENTRY_DAYS, MAX_NAME, MAX_PLAYERS, MAX_ROUNDS};
}

use super::choices::{ColorChoice, Notify};
use super::event::ClaimKind;
pub use super::game::TakebackAction;
use super::notation::{Lang, MAX_MOVE_INPUT};
use super::team::TeamName;
use super::variant::Variant;

/// The longest command line accepted: room for a game to continue
/// (`/challenge @bob pgn:"1. e4 e5 …"`, about 11 bytes a move, so a
/// 150-move game), and a bound on what one line can make the bot do.
pub const MAX_COMMAND_BYTES: usize = 2048;
/// The longest private note accepted, in characters.
pub const MAX_NOTE_CHARS: usize = 1000;
/// The longest user reference accepted (`@name`, a Discord or Matrix id).
pub const MAX_USER_REF: usize = 100;

/// Every command name [`parse`] knows (aliases included), for adapters that
/// must recognise a command in free text and for tests that must cover them all.
pub const NAMES: [&str; 36] = [
    "challenge",
    "accept",
    "decline",
    "cancel",
    "move",
    "m",
    "draw",
    "claim",
    "resign",
    "abort",
    "moretime",
    "leave",
    "board",
    "moves",
    "pgn",
    "gif",
    "games",
    "standings",
    "record",
    "rating",
    "settings",
    "ladder",
    "help",
    "status",
    "tournament",
    "tournoi",
    "if",
    "note",
    "notes",
    "openings",
    "takeback",
    "review",
    "puzzle",
    "team",
    "vote",
    "match",
];

/// French command words (written in Matrix rooms and the console as on
/// Discord, where they are the commands' French names), with and without
/// accents, and the command each stands for. `tournoi` is in [`NAMES`].
pub const FRENCH_NAMES: [(&str, &str); 38] = [
    ("defi", "challenge"),
    ("défi", "challenge"),
    ("accepter", "accept"),
    ("refuser", "decline"),
    ("retirer", "cancel"),
    ("coup", "move"),
    ("nulle", "draw"),
    ("reclamer", "claim"),
    ("réclamer", "claim"),
    ("abandon", "resign"),
    ("annuler", "abort"),
    ("plus_de_temps", "moretime"),
    ("conge", "leave"),
    ("congé", "leave"),
    ("echiquier", "board"),
    ("échiquier", "board"),
    ("coups", "moves"),
    ("parties", "games"),
    ("classement", "standings"),
    ("bilan", "record"),
    ("cote", "rating"),
    ("reglages", "settings"),
    ("réglages", "settings"),
    ("echelle", "ladder"),
    ("échelle", "ladder"),
    ("aide", "help"),
    ("etat", "status"),
    ("état", "status"),
    ("si", "if"),
    ("ouvertures", "openings"),
    ("reprise", "takeback"),
    ("analyse", "review"),
    ("probleme", "puzzle"),
    ("problème", "puzzle"),
    ("equipe", "team"),
    ("équipe", "team"),
    ("voter", "vote"),
    ("rencontre", "match"),
];

/// What a player does with their leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaveAction {
    Start { days: u32 },
    End,
    Status,
}

/// What a player does on the server's challenge ladder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LadderAction {
    Show,
    Join,
    Leave,
    /// Challenge a player above (a ladder game if they accept).
    Challenge {
        opponent: UserRef,
    },
}

/// What to do with a draw offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawAction {
    Offer,
    Accept,
    Decline,
}

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
        let name: String = name.trim().chars().take(MAX_USER_REF).collect();
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
    Challenge {
        opponent: Option<UserRef>,
        color: ColorChoice,
        rated: bool,
        fen: Option<String>,
        time_control: Option<String>,
        /// A game begun elsewhere to continue (PGN: tags optional, then
        /// the moves so far); such a game is never rated.
        pgn: Option<String>,
        /// The rules to play by; a Chess960 game starts from `start`, or
        /// from `fen`, or from a start drawn at random.
        variant: Variant,
        /// A Chess960 start by its number (0–959, 518 the standard one).
        start: Option<u16>,
    },
    Accept {
        challenge: Option<i64>,
    },
    Decline {
        challenge: Option<i64>,
    },
    Cancel {
        challenge: Option<i64>,
    },
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
    Games,
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
    /// Where turn notices and reminders go.
    SetNotify(Notify),
    /// Leave (vacation): start for whole days, end early, or show.
    Leave(LeaveAction),
    /// The challenge ladder: show, join, leave, challenge.
    Ladder(LadderAction),
    Help,
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
    /// A team member's vote on the team's move.
    Vote {
        choice: VoteChoice,
        game: Option<i64>,
    },
}

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

/// What a team member votes for on the team's turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VoteChoice {
    /// A move as written, in any notation a move may be, perhaps with a
    /// draw offer.
    Move {
        text: String,
        offer_draw: bool,
    },
    Resign,
    /// Accept the opponent's standing draw offer.
    Accept,
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

/// What a player does with the server's puzzles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleAction {
    /// Show the puzzle given and not answered, or give the next one.
    Next,
    /// Answer the puzzle given with a move, in any accepted notation.
    Answer(String),
    /// The server's solvers.
    Solvers,
}

/// What a player does with their conditional moves in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IfAction {
    /// A line of moves as written, beginning with the opponent's next
    /// move (or, on one's own turn, with one's own move, played at once).
    Add(Vec<String>),
    List,
    Clear,
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
    #[error("unclosed quote")]
    UnclosedQuote,
    /// A tie-break that is not one of FIDE's acronyms this bot knows.
    #[error("unknown tie-break {0:?}")]
    UnknownTieBreak(String),
    /// A tie-break listed twice.
    #[error("tie-break {0} listed twice")]
    RepeatedTieBreak(String),
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
            | Command::Games
            | Command::Standings
            | Command::Rating { .. }
            | Command::SeasonStandings { .. }
            | Command::Record { .. }
            | Command::Help
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
            | Command::Match(MatchCommand::Show { .. })
            | Command::Tournament(
                TournamentCommand::Pairings { .. } | TournamentCommand::Standings { .. },
            ) => true,
            Command::Challenge { .. }
            | Command::Accept { .. }
            | Command::Decline { .. }
            | Command::Cancel { .. }
            | Command::Move { .. }
            | Command::Draw { .. }
            | Command::Claim { .. }
            | Command::Resign { .. }
            | Command::MoreTime { .. }
            | Command::Abort { .. }
            | Command::SetLanguage(_)
            | Command::SetNotify(_)
            | Command::Leave(_)
            | Command::Ladder(_)
            | Command::If { .. }
            | Command::Note { .. }
            | Command::Takeback { .. }
            | Command::Puzzle(_)
            | Command::Team(_)
            | Command::TeamChallenge(_)
            | Command::Vote { .. }
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
            CommandError::UnclosedQuote => "unclosed_quote",
            CommandError::UnknownTieBreak(_) => "unknown_tiebreak",
            CommandError::RepeatedTieBreak(_) => "repeated_tiebreak",
        }
    }
}

/// Words of a command line, sorted into positional words and options.
#[derive(Debug, Default)]
struct Words {
    positional: Vec<String>,
    options: Vec<(String, String)>,
}

impl Words {
    /// Removes and returns the option `key`, if given.
    fn take(&mut self, key: &str) -> Option<String> {
        let index = self.options.iter().position(|(k, _)| k == key)?;
        Some(self.options.remove(index).1)
    }

    /// Removes a positional flag word (such as `offer_draw`), or reads it as an option.
    fn take_flag(&mut self, name: &'static str) -> Result<bool, CommandError> {
        if let Some(index) = self.positional.iter().position(|w| w == name) {
            self.positional.remove(index);
            return Ok(true);
        }
        match self.take(name) {
            None => Ok(false),
            Some(value) => parse_bool(name, &value),
        }
    }

    fn take_game(&mut self) -> Result<Option<i64>, CommandError> {
        self.take("game").map(|v| parse_id("game", &v)).transpose()
    }

    /// Fails on anything left over, so typos are not silently ignored.
    fn finish(self) -> Result<(), CommandError> {
        if let Some(word) = self.positional.into_iter().next() {
            return Err(CommandError::Unexpected(word));
        }
        if let Some((key, value)) = self.options.into_iter().next() {
            return Err(CommandError::Unexpected(format!("{key}:{value}")));
        }
        Ok(())
    }
}

/// The known command name (English or French) nearest to `typed`, to
/// suggest for a typo: at most two edits away (a swap of neighbours is one)
/// and fewer edits than half the name's letters, so `/halp` and `/drwa`
/// find a command and `/x` finds none.
pub fn nearest_name(typed: &str) -> Option<&'static str> {
    let typed = typed.trim_start_matches('/').to_lowercase();
    let known = NAMES
        .iter()
        .copied()
        .chain(FRENCH_NAMES.iter().map(|(french, _)| *french));
    known
        .map(|name| (strsim::damerau_levenshtein(&typed, name), name))
        .filter(|&(edits, name)| edits <= 2 && edits * 2 < name.chars().count())
        .min_by_key(|&(edits, _)| edits)
        .map(|(_, name)| name)
}

/// Parses one command line, with or without a leading `/`.
pub fn parse(line: &str) -> Result<Command, CommandError> {
    if line.len() > MAX_COMMAND_BYTES {
        return Err(CommandError::TooLong);
    }
    let tokens = tokenize(line)?;
    let (name, rest) = tokens.split_first().ok_or(CommandError::Empty)?;
    let name = name.trim_start_matches('/').to_lowercase();
    let name = match FRENCH_NAMES.iter().find(|(french, _)| *french == name) {
        Some((_, english)) => (*english).to_owned(),
        None => name,
    };
    let mut words = sort_words(rest);
    let command = match name.as_str() {
        "challenge" => parse_challenge(&mut words)?,
        "accept" => Command::Accept {
            challenge: take_challenge_id(&mut words)?,
        },
        "decline" => Command::Decline {
            challenge: take_challenge_id(&mut words)?,
        },
        "cancel" => Command::Cancel {
            challenge: take_challenge_id(&mut words)?,
        },
        "move" | "m" => parse_move(&mut words)?,
        "draw" => parse_draw(&mut words)?,
        "claim" => parse_claim(&mut words)?,
        "resign" => Command::Resign {
            game: words.take_game()?,
        },
        "abort" => Command::Abort {
            game: words.take_game()?,
        },
        "moretime" => parse_more_time(&mut words)?,
        "leave" => parse_leave(&mut words)?,
        "board" => Command::Board {
            game: take_game_anywhere(&mut words)?,
        },
        "moves" => Command::Moves {
            game: take_game_anywhere(&mut words)?,
        },
        "pgn" => Command::Pgn {
            game: take_game_anywhere(&mut words)?,
        },
        "gif" => Command::Gif {
            game: take_game_anywhere(&mut words)?,
        },
        "games" => Command::Games,
        "standings" => match words.take("season") {
            None => Command::Standings,
            Some(season) if season.is_empty() || season.len() > 40 => {
                return Err(bad("season", &season));
            }
            Some(season) => Command::SeasonStandings { season },
        },
        "record" => {
            let player = take_mention(&mut words).ok_or(CommandError::MissingArgument("user"))?;
            let opponent = take_mention(&mut words);
            Command::Record {
                player: UserRef::new(&player)?,
                opponent: opponent.as_deref().map(UserRef::new).transpose()?,
            }
        }
        "rating" => Command::Rating {
            user: match words.take("user").or_else(|| take_mention(&mut words)) {
                Some(text) => Some(UserRef::new(&text)?),
                None => None,
            },
        },
        "settings" => parse_settings(&mut words)?,
        "ladder" => parse_ladder(&mut words)?,
        "help" => Command::Help,
        "status" => Command::Status,
        "tournament" | "tournoi" => tournament::parse(&mut words)?,
        "if" => parse_if(&mut words)?,
        "note" => {
            let game = words.take_game()?;
            let text = match words.take("text") {
                Some(text) => text,
                None => std::mem::take(&mut words.positional).join(" "),
            };
            if text.trim().is_empty() {
                return Err(CommandError::MissingArgument("text"));
            }
            if text.chars().count() > MAX_NOTE_CHARS {
                return Err(CommandError::TooLong);
            }
            Command::Note { text, game }
        }
        "openings" => Command::Openings,
        "takeback" => {
            let game = words.take_game()?;
            let word = match words.take("action") {
                Some(action) => Some(action),
                None if words.positional.is_empty() => None,
                None => Some(words.positional.remove(0)),
            };
            let action = match word.as_deref().map(str::to_lowercase).as_deref() {
                None | Some("request" | "demander") => TakebackAction::Request,
                Some("accept" | "accepter") => TakebackAction::Accept,
                Some("decline" | "refuser") => TakebackAction::Decline,
                Some(other) => return Err(bad("action", other)),
            };
            Command::Takeback { action, game }
        }
        "notes" => Command::Notes {
            game: take_game_anywhere(&mut words)?,
        },
        "review" => Command::Review {
            game: take_game_anywhere(&mut words)?,
        },
        "puzzle" => {
            let answer = match words.take("move").or_else(|| words.take("coup")) {
                Some(text) => Some(text),
                None => {
                    let mut typed = std::mem::take(&mut words.positional).into_iter();
                    let first = typed.next();
                    if let Some(extra) = typed.next() {
                        return Err(CommandError::Unexpected(bounded(&extra)));
                    }
                    first
                }
            };
            Command::Puzzle(match answer {
                None => PuzzleAction::Next,
                Some(word) => match word.to_lowercase().as_str() {
                    "next" | "suivant" => PuzzleAction::Next,
                    "top" | "solvers" | "classement" => PuzzleAction::Solvers,
                    _ if word.chars().count() > 16 => return Err(bad("move", &word)),
                    _ => PuzzleAction::Answer(word),
                },
            })
        }
        "team" => parse_team(&mut words)?,
        "vote" => parse_vote(&mut words)?,
        "match" => team_match::parse(&mut words)?,
        other => return Err(CommandError::Unknown(bounded(other))),
    };
    words.finish()?;
    Ok(command)
}

/// Splits on whitespace, keeping `"quoted words"` (also after `key:`) together.
/// Within quotes, `\"` is a quote and `\\` a backslash (a PGN's tags:
/// `pgn:"[White \"alice\"] 1. e4"`).
fn tokenize(line: &str) -> Result<Vec<String>, CommandError> {
    let mut tokens = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut started = false;
    let mut chars = line.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' if quoted && matches!(chars.peek(), Some('"' | '\\')) => {
                current.extend(chars.next());
            }
            '"' => {
                quoted = !quoted;
                started = true;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    tokens.push(std::mem::take(&mut current));
                    started = false;
                }
            }
            c => {
                current.push(c);
                started = true;
            }
        }
    }
    if quoted {
        return Err(CommandError::UnclosedQuote);
    }
    if started {
        tokens.push(current);
    }
    Ok(tokens)
}

fn sort_words(tokens: &[String]) -> Words {
    let mut words = Words::default();
    for token in tokens {
        match token.split_once(':') {
            // `e.p.`-style move text never has a colon; option keys are plain words.
            Some((key, value)) if is_option_key(key) => words
                .options
                .push((key.to_ascii_lowercase(), value.to_owned())),
            _ => words.positional.push(token.clone()),
        }
    }
    words
}

fn is_option_key(key: &str) -> bool {
    !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphabetic() || b == b'_')
}

fn parse_challenge(words: &mut Words) -> Result<Command, CommandError> {
    let opponent = match words.take("user").or_else(|| take_mention(words)) {
        Some(text) => Some(UserRef::new(&text)?),
        None => None,
    };
    let color = match words.take("color").or_else(|| words.take("colour")) {
        None => ColorChoice::Random,
        Some(value) => match value.to_ascii_lowercase().as_str() {
            "white" | "w" | "blancs" | "blanc" => ColorChoice::White,
            "black" | "b" | "noirs" | "noir" => ColorChoice::Black,
            "random" | "any" => ColorChoice::Random,
            _ => return Err(bad("color", &value)),
        },
    };
    let team = take_team_option(words, &["team", "equipe"])?;
    let versus = take_team_option(words, &["vs", "contre"])?;
    if team.is_some() || versus.is_some() {
        return parse_team_challenge(words, team, opponent, versus, color);
    }
    let pgn = words
        .take("pgn")
        .map(|text| text.trim().to_owned())
        .filter(|text| !text.is_empty());
    let rated = match words.take("rated") {
        // A game begun elsewhere was played outside the bot's rules.
        None => pgn.is_none(),
        Some(value) => parse_bool("rated", &value)?,
    };
    let fen = words.take("fen").map(|f| f.trim().to_owned());
    let time_control = words.take("time");
    let (variant, start) = take_variant(words)?;
    Ok(Command::Challenge {
        opponent,
        color,
        rated,
        fen,
        time_control,
        pgn,
        variant,
        start,
    })
}

/// A team named by the first of `keys` given (`team:Rooks`, `vs:"Les Tours"`).
fn take_team_option(words: &mut Words, keys: &[&str]) -> Result<Option<TeamName>, CommandError> {
    let Some(text) = keys.iter().find_map(|key| words.take(key)) else {
        return Ok(None);
    };
    TeamName::parse(&text)
        .map(Some)
        .map_err(|_| bad("team", &text))
}

/// The rest of a vote chess challenge: one opponent (a player or a team),
/// a colour, a time and whether votes may change; nothing else (a vote
/// game starts from the standard position and is never rated).
fn parse_team_challenge(
    words: &mut Words,
    team: Option<TeamName>,
    opponent: Option<UserRef>,
    versus: Option<TeamName>,
    color: ColorChoice,
) -> Result<Command, CommandError> {
    if opponent.is_some() && versus.is_some() {
        return Err(CommandError::Unexpected(format!(
            "@{}",
            opponent.as_ref().map(UserRef::as_str).unwrap_or_default()
        )));
    }
    if opponent.is_none() && versus.is_none() {
        return Err(CommandError::MissingArgument("opponent"));
    }
    let change_vote = match words
        .take("change_vote")
        .or_else(|| words.take("changer_vote"))
    {
        None => true,
        Some(value) => parse_bool("change_vote", &value)?,
    };
    Ok(Command::TeamChallenge(Box::new(TeamChallenge {
        team,
        opponent,
        versus,
        color,
        time_control: words.take("time").or_else(|| words.take("temps")),
        change_vote,
    })))
}

/// `team create|join|leave|delete <name>`, `team list` (French `equipe
/// creer|rejoindre|quitter|supprimer|liste`). A name may hold spaces.
fn parse_team(words: &mut Words) -> Result<Command, CommandError> {
    if words.positional.is_empty() {
        return Ok(Command::Team(TeamAction::List));
    }
    let action = words.positional.remove(0).to_lowercase();
    let rest = std::mem::take(&mut words.positional).join(" ");
    let name = || match words_name(&rest) {
        Some(name) => name,
        None => Err(CommandError::MissingArgument("team")),
    };
    let action = match action.as_str() {
        "create" | "creer" | "créer" => TeamAction::Create(name()?),
        "join" | "rejoindre" => TeamAction::Join(name()?),
        "leave" | "quitter" => TeamAction::Leave(words_name(&rest).transpose()?),
        "delete" | "supprimer" => TeamAction::Delete(name()?),
        "list" | "liste" if rest.is_empty() => TeamAction::List,
        "list" | "liste" => return Err(CommandError::Unexpected(bounded(&rest))),
        _ => return Err(bad("team", &action)),
    };
    Ok(Command::Team(action))
}

/// A team name from the words after a team action; `None` when there are none.
fn words_name(rest: &str) -> Option<Result<TeamName, CommandError>> {
    if rest.trim().is_empty() {
        return None;
    }
    Some(TeamName::parse(rest).map_err(|_| bad("team", rest)))
}

/// `vote <move> [offer_draw]`, `vote draw <move>`, `vote resign`, `vote
/// accept` (French `nulle`, `abandon`, `accepter`), with `game:N` anywhere.
fn parse_vote(words: &mut Words) -> Result<Command, CommandError> {
    let game = words.take_game()?;
    let mut offer_draw = words.take_flag("offer_draw")? | words.take_flag("offer")?;
    let first = words.positional.first().map(|w| w.to_lowercase());
    let choice = match first.as_deref() {
        None => return Err(CommandError::MissingArgument("move")),
        Some("resign" | "abandon") if words.positional.len() == 1 => {
            words.positional.clear();
            VoteChoice::Resign
        }
        Some("accept" | "accepter") if words.positional.len() == 1 => {
            words.positional.clear();
            VoteChoice::Accept
        }
        Some("draw" | "nulle") => {
            // A draw is offered with a move: `vote draw e4`.
            words.positional.remove(0);
            if words.positional.is_empty() {
                return Err(CommandError::MissingArgument("move"));
            }
            offer_draw = true;
            vote_move(words, offer_draw)?
        }
        Some(_) => vote_move(words, offer_draw)?,
    };
    Ok(Command::Vote { choice, game })
}

fn vote_move(words: &mut Words, offer_draw: bool) -> Result<VoteChoice, CommandError> {
    // The rest is the move, which may hold a space (`exd6 e.p.`).
    let text = std::mem::take(&mut words.positional).join(" ");
    if text.len() > MAX_MOVE_INPUT {
        return Err(CommandError::TooLong);
    }
    Ok(VoteChoice::Move { text, offer_draw })
}

/// `variant:chess960` and `start:NNN` (French `variante:`, `depart:`).
fn take_variant(words: &mut Words) -> Result<(Variant, Option<u16>), CommandError> {
    let start = match words.take("start").or_else(|| words.take("depart")) {
        None => None,
        Some(value) => match value.trim().trim_start_matches('#').parse::<u16>() {
            Ok(number) if number < super::chess960::COUNT => Some(number),
            _ => return Err(bad("start", &value)),
        },
    };
    let variant = words.take("variant").or_else(|| words.take("variante"));
    Ok((challenge_variant(variant.as_deref(), start)?, start))
}

/// The variant a challenge asks for, from its `variant` option (a word, see
/// [`Variant::from_word`]) and its numbered start, which is a Chess960 one:
/// `start:` alone asks for Chess960, and with `variant:standard` it is refused.
/// Shared by every adapter that reads options (text here, Discord's table).
pub fn challenge_variant(word: Option<&str>, start: Option<u16>) -> Result<Variant, CommandError> {
    match (word.map(|w| (w, Variant::from_word(w))), start) {
        (None, None) => Ok(Variant::Standard),
        (None, Some(_)) => Ok(Variant::Chess960),
        (Some((_, Some(Variant::Chess960))), _) => Ok(Variant::Chess960),
        (Some((_, Some(Variant::Standard))), None) => Ok(Variant::Standard),
        (Some((word, _)), _) => Err(bad("variant", word)),
    }
}

/// The first `@name` positional word, removed.
fn take_mention(words: &mut Words) -> Option<String> {
    let index = words.positional.iter().position(|w| w.starts_with('@'))?;
    Some(words.positional.remove(index))
}

fn take_challenge_id(words: &mut Words) -> Result<Option<i64>, CommandError> {
    if let Some(value) = words.take("challenge") {
        return parse_id("challenge", &value).map(Some);
    }
    match words.positional.first() {
        Some(word) if is_challenge_number(word) => {
            let word = words.positional.remove(0);
            parse_id("challenge", &word).map(Some)
        }
        _ => Ok(None),
    }
}

/// `6`, `#6`, `C6`, `#c6`: a challenge's number as typed.
fn is_challenge_number(word: &str) -> bool {
    let number = word.trim_start_matches('#');
    let number = number.strip_prefix(['c', 'C']).unwrap_or(number);
    !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit())
}

/// `board 12` and `board game:12` both name game 12.
fn take_game_anywhere(words: &mut Words) -> Result<Option<i64>, CommandError> {
    if let Some(id) = words.take_game()? {
        return Ok(Some(id));
    }
    match words.positional.first() {
        Some(_) => {
            let word = words.positional.remove(0);
            parse_id("game", &word).map(Some)
        }
        None => Ok(None),
    }
}

fn parse_move(words: &mut Words) -> Result<Command, CommandError> {
    let offer_draw = words.take_flag("offer_draw")? | words.take_flag("offer")?;
    let game = words.take_game()?;
    let text = match words.take("move") {
        Some(text) => text,
        // The rest is the move, which may hold a space (`exd6 e.p.`).
        None => std::mem::take(&mut words.positional).join(" "),
    };
    if text.is_empty() {
        return Err(CommandError::MissingArgument("move"));
    }
    if text.len() > MAX_MOVE_INPUT {
        return Err(CommandError::TooLong);
    }
    Ok(Command::Move {
        text,
        offer_draw,
        game,
    })
}

/// `if e5 Nf3 Nc6 Bb5`, `if list`, `if clear` (French `si liste`, `si effacer`).
fn parse_if(words: &mut Words) -> Result<Command, CommandError> {
    let game = words.take_game()?;
    let moves = match words.take("moves") {
        Some(text) => text.split_whitespace().map(str::to_owned).collect(),
        None => std::mem::take(&mut words.positional),
    };
    let first = moves.first().map(|w| w.to_lowercase());
    let action = match (first.as_deref(), moves.len()) {
        (None, _) => return Err(CommandError::MissingArgument("moves")),
        (Some("list" | "liste"), 1) => IfAction::List,
        (Some("clear" | "effacer"), 1) => IfAction::Clear,
        _ if moves.len() > crate::core::conditional::MAX_PLIES + 1 => {
            return Err(CommandError::TooLong);
        }
        _ if moves.iter().any(|m| m.len() > MAX_MOVE_INPUT) => {
            return Err(CommandError::TooLong);
        }
        _ => IfAction::Add(moves),
    };
    Ok(Command::If { action, game })
}

fn parse_leave(words: &mut Words) -> Result<Command, CommandError> {
    let action = match words.positional.first().map(|w| w.to_ascii_lowercase()) {
        None => return Ok(Command::Leave(LeaveAction::Status)),
        Some(action) => {
            words.positional.remove(0);
            action
        }
    };
    let action = match action.as_str() {
        "status" => LeaveAction::Status,
        "end" | "stop" => LeaveAction::End,
        "start" => {
            let value = match words.take("days") {
                Some(value) => value,
                None if words.positional.is_empty() => {
                    return Err(CommandError::MissingArgument("days"));
                }
                None => words.positional.remove(0),
            };
            let days = value
                .trim_end_matches('d')
                .parse::<u32>()
                .ok()
                .filter(|d| (1..=366).contains(d))
                .ok_or_else(|| bad("days", &value))?;
            LeaveAction::Start { days }
        }
        _ => return Err(bad("leave", &action)),
    };
    Ok(Command::Leave(action))
}

fn parse_ladder(words: &mut Words) -> Result<Command, CommandError> {
    let action = match words.positional.first().map(|w| w.to_ascii_lowercase()) {
        Some(action) if !action.starts_with('@') => {
            words.positional.remove(0);
            action
        }
        _ => "show".to_owned(),
    };
    let action = match action.as_str() {
        "show" => LadderAction::Show,
        "join" => LadderAction::Join,
        "leave" => LadderAction::Leave,
        "challenge" => {
            let text = words
                .take("user")
                .or_else(|| take_mention(words))
                .ok_or(CommandError::MissingArgument("user"))?;
            LadderAction::Challenge {
                opponent: UserRef::new(&text)?,
            }
        }
        _ => return Err(bad("ladder", &action)),
    };
    Ok(Command::Ladder(action))
}

fn parse_more_time(words: &mut Words) -> Result<Command, CommandError> {
    let game = words.take_game()?;
    let value = match words.take("days") {
        Some(value) => value,
        None if words.positional.is_empty() => return Err(CommandError::MissingArgument("days")),
        None => words.positional.remove(0),
    };
    let days = value
        .trim_end_matches('d')
        .parse::<u32>()
        .ok()
        .filter(|d| *d > 0)
        .ok_or_else(|| bad("days", &value))?;
    Ok(Command::MoreTime { days, game })
}

fn parse_draw(words: &mut Words) -> Result<Command, CommandError> {
    let game = words.take_game()?;
    let action = match words.take("action") {
        Some(action) => action,
        None if words.positional.is_empty() => "offer".to_owned(),
        None => words.positional.remove(0),
    };
    let action = match action.to_ascii_lowercase().as_str() {
        "offer" => DrawAction::Offer,
        "accept" | "yes" => DrawAction::Accept,
        "decline" | "no" => DrawAction::Decline,
        _ => return Err(bad("action", &action)),
    };
    Ok(Command::Draw { action, game })
}

fn parse_claim(words: &mut Words) -> Result<Command, CommandError> {
    let game = words.take_game()?;
    let kind_word = words.take("kind").or_else(|| {
        let first = words.positional.first()?;
        claim_kind(first).map(|_| words.positional.remove(0))
    });
    let kind = match kind_word {
        None => None,
        Some(word) => Some(claim_kind(&word).ok_or_else(|| bad("kind", &word))?),
    };
    let with_move = match words.take("move") {
        Some(text) => Some(text),
        None if words.positional.is_empty() => None,
        None => Some(std::mem::take(&mut words.positional).join(" ")),
    };
    if with_move.as_ref().is_some_and(|m| m.len() > MAX_MOVE_INPUT) {
        return Err(CommandError::TooLong);
    }
    Ok(Command::Claim {
        kind,
        with_move,
        game,
    })
}

fn claim_kind(word: &str) -> Option<ClaimKind> {
    match word.to_ascii_lowercase().as_str() {
        "threefold" | "repetition" | "3" => Some(ClaimKind::Threefold),
        "fifty" | "50" => Some(ClaimKind::Fifty),
        _ => None,
    }
}

fn parse_settings(words: &mut Words) -> Result<Command, CommandError> {
    let notify = words
        .take("notify")
        .or_else(|| match words.positional.as_slice() {
            [key, _] if key.eq_ignore_ascii_case("notify") => {
                let value = words.positional.remove(1);
                words.positional.clear();
                Some(value)
            }
            _ => None,
        });
    if let Some(value) = notify {
        let wish = match value.to_ascii_lowercase().as_str() {
            "channel" | "mention" => Notify::Channel,
            "direct" | "dm" => Notify::Direct,
            "off" | "none" => Notify::Off,
            _ => return Err(bad("notify", &value)),
        };
        return Ok(Command::SetNotify(wish));
    }
    let value = match words.take("language") {
        Some(value) => value,
        None => match words.positional.as_slice() {
            [key, _] if key.eq_ignore_ascii_case("language") => {
                let value = words.positional.remove(1);
                words.positional.clear();
                value
            }
            _ => return Err(CommandError::MissingArgument("language")),
        },
    };
    match value.to_ascii_lowercase().as_str() {
        "default" | "server" | "auto" => Ok(Command::SetLanguage(None)),
        other => match Lang::from_locale(other) {
            Some(Lang::De | Lang::Ru) | None => Err(bad("language", &value)),
            Some(lang) => Ok(Command::SetLanguage(Some(lang))),
        },
    }
}

fn parse_bool(option: &'static str, value: &str) -> Result<bool, CommandError> {
    match value.to_ascii_lowercase().as_str() {
        "yes" | "true" | "1" | "on" | "oui" => Ok(true),
        "no" | "false" | "0" | "off" | "non" => Ok(false),
        _ => Err(bad(option, value)),
    }
}

fn parse_id(option: &'static str, value: &str) -> Result<i64, CommandError> {
    let number = value.trim_start_matches('#');
    // Challenges are written C6, so that they never read as game 6.
    let number = match option {
        "challenge" => number.strip_prefix(['c', 'C']).unwrap_or(number),
        _ => number,
    };
    number
        .parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| bad(option, value))
}

fn bad(option: &'static str, value: &str) -> CommandError {
    CommandError::BadValue {
        option,
        value: bounded(value),
    }
}

/// Keeps echoed user text short in error messages.
fn bounded(text: &str) -> String {
    text.chars().take(40).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        let cases: Vec<(&str, Command)> = vec![
            (
                "/challenge @bob color:white",
                Command::Challenge {
                    opponent: Some(UserRef("bob".into(), None)),
                    color: ColorChoice::White,
                    rated: true,
                    fen: None,
                    time_control: None,
                    pgn: None,
                    variant: Variant::Standard,
                    start: None,
                },
            ),
            (
                "challenge rated:no fen:\"8/8/4k3/8/8/3K4/3Q4/8 w - - 0 1\"",
                Command::Challenge {
                    opponent: None,
                    color: ColorChoice::Random,
                    rated: false,
                    fen: Some("8/8/4k3/8/8/3K4/3Q4/8 w - - 0 1".into()),
                    time_control: None,
                    pgn: None,
                    variant: Variant::Standard,
                    start: None,
                },
            ),
            (
                // A game to continue is unrated unless asked otherwise;
                // quotes inside the quoted PGN are escaped.
                "/challenge @bob pgn:\"[White \\\"a\\\\b\\\"] 1. e4\"",
                Command::Challenge {
                    opponent: Some(UserRef("bob".into(), None)),
                    color: ColorChoice::Random,
                    rated: false,
                    fen: None,
                    time_control: None,
                    pgn: Some("[White \"a\\b\"] 1. e4".into()),
                    variant: Variant::Standard,
                    start: None,
                },
            ),
            (
                "/challenge @bob variant:chess960 start:#12",
                Command::Challenge {
                    opponent: Some(UserRef("bob".into(), None)),
                    color: ColorChoice::Random,
                    rated: true,
                    fen: None,
                    time_control: None,
                    pgn: None,
                    variant: Variant::Chess960,
                    start: Some(12),
                },
            ),
            (
                // French option names, and a start alone is a Chess960 one.
                "/défi color:blancs depart:518",
                Command::Challenge {
                    opponent: None,
                    color: ColorChoice::White,
                    rated: true,
                    fen: None,
                    time_control: None,
                    pgn: None,
                    variant: Variant::Chess960,
                    start: Some(518),
                },
            ),
            (
                "/defi variante:960",
                Command::Challenge {
                    opponent: None,
                    color: ColorChoice::Random,
                    rated: true,
                    fen: None,
                    time_control: None,
                    pgn: None,
                    variant: Variant::Chess960,
                    start: None,
                },
            ),
            ("/accept", Command::Accept { challenge: None }),
            ("/accept 3", Command::Accept { challenge: Some(3) }),
            ("/accept C3", Command::Accept { challenge: Some(3) }),
            ("/decline #c3", Command::Decline { challenge: Some(3) }),
            (
                "/cancel challenge:C3",
                Command::Cancel { challenge: Some(3) },
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
            ("/resign game:#4", Command::Resign { game: Some(4) }),
            ("/games", Command::Games),
            (
                "/leave start 5",
                Command::Leave(LeaveAction::Start { days: 5 }),
            ),
            ("/leave end", Command::Leave(LeaveAction::End)),
            ("/leave", Command::Leave(LeaveAction::Status)),
            ("/settings notify off", Command::SetNotify(Notify::Off)),
            ("/settings notify:dm", Command::SetNotify(Notify::Direct)),
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
        ];
        for (line, expected) in cases {
            assert_eq!(parse(line), Ok(expected), "{line}");
        }
    }

    #[test]
    fn french_command_words_are_the_same_commands() {
        for (french, english) in FRENCH_NAMES {
            let args = match english {
                "move" => " e4",
                "record" => " @bob",
                _ => "",
            };
            assert_eq!(
                parse(&format!("{french}{args}")).map_err(|e| e.kind()),
                parse(&format!("{english}{args}")).map_err(|e| e.kind()),
                "{french}"
            );
            assert!(NAMES.contains(&english), "{english}");
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
    fn every_listed_name_is_a_command() {
        for name in NAMES {
            let result = parse(&format!("/{name}"));
            assert!(
                !matches!(result, Err(CommandError::Unknown(_))),
                "{name}: {result:?}"
            );
        }
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
            ("/challenge color:green", "bad_value"),
            ("/challenge start:960", "bad_value"),
            ("/challenge start:-1", "bad_value"),
            ("/challenge start:1é", "bad_value"),
            ("/challenge variant:atomic", "bad_value"),
            ("/challenge variant:standard start:3", "bad_value"),
            ("/resign now", "unexpected_argument"),
            ("/challenge fen:\"8/8", "unclosed_quote"),
            ("/move aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "too_long"),
            (&long, "too_long"),
            ("/settings language klingon", "bad_value"),
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
            ("/team fly", Err(bad("team", "fly"))),
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
        assert!(matches!(parse(&long), Err(CommandError::BadValue { .. })));
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
                Err(CommandError::Unexpected(
                    "fen:8/8/8/8/8/8/8/8 w - - 0 1".to_owned(),
                )),
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
            ("/record", Err(CommandError::MissingArgument("user"))),
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
                "/ladder challenge",
                Err(CommandError::MissingArgument("user")),
            ),
            (
                "/ladder climb",
                Err(CommandError::BadValue {
                    option: "ladder",
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
