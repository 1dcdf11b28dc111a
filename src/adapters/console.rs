//! The console: play from a terminal or a script, for people and for tests.
//!
//! Each input line is `<user>: /<command> [args]` (`alice: /move e4`).
//! Lines starting with `:` steer the console itself:
//!
//! - `:server NAME`, `:channel NAME`: where the next acts happen;
//! - `:lang USER fr`: the locale USER's client sends from now on;
//! - `:moderator USER`: USER moderates the console's servers from now on
//!   (as Discord's Manage Server would vouch);
//! - `:advance 3d`, `:advance 5h`, `:advance 30m`: move the simulated clock;
//! - `:now 2026-01-01T12:00:00Z`: set the simulated clock.
//!
//! With a simulated clock, every `:` line also runs what the scheduler would
//! at that instant (flags that fell), so a script can play a game to a flag.
//!
//! `#` starts a comment. A line the console cannot read (not UTF-8, longer
//! than [`MAX_LINE_BYTES`], not `<user>: ...`) is answered with an error and
//! the next line runs. Replies are printed as text, or with `--json` as one
//! object per line: `{"server", "channel", "to", "ephemeral", "text", "events", "board"}`.
//! When a move text could mean several moves, nothing is played and the reply
//! is followed by one line per reading, ready to be typed back
//! (`  alice: /move e1d1 game:3   # Ke1-d1`); in JSON they are its `choices`.
//! Scripted acts carry an idempotency key made of what decides the act:
//! the script's name, the line's text and the console's state when it is
//! read (server, channel, simulated clock, the user's locale), plus how
//! many times that same line in that same state came before in the script.
//! Running a script again after a crash repeats nothing that was already
//! done and gives the same answers, refusals included; a line that now
//! runs somewhere else (an edited `:channel`, `:now` or `:lang`) is a new
//! act. Line numbers are left out, so adding a comment changes no key.

mod editor;
mod lines;

pub use editor::TypedLines;

use std::collections::HashMap;
use std::io::{BufRead, Write};

use chrono::{DateTime, Datelike, Duration, Utc};
use serde::Serialize;

use crate::core::platform::Platform;
use crate::service::{
    BoardImages, Input, Moderation, Notifier, Prompt, Reply, Request, Service, User,
};

/// The longest input line accepted: a command and its speaker's name
/// (`alice: `). Longer lines are refused whole, and no more than this (plus
/// one byte) of them is ever held in memory.
pub const MAX_LINE_BYTES: usize = crate::core::command::MAX_COMMAND_BYTES + 128;

/// How the console runs.
#[derive(Clone, Debug, Default)]
pub struct ConsoleOptions {
    /// Print JSON lines instead of text.
    pub json: bool,
    /// Start with a simulated clock at this instant.
    pub now: Option<DateTime<Utc>>,
    /// A name for the input when it is a script: turns on idempotency keys.
    pub script_name: Option<String>,
    /// Write every attached file (board PNGs, GIFs) into this directory.
    pub boards: Option<std::path::PathBuf>,
    /// Boards in Unicode pieces on coloured squares (a terminal that shows
    /// colours); otherwise plain ASCII letters.
    pub pretty: bool,
}

impl ConsoleOptions {
    /// Board images are drawn only when someone sees the replies' files
    /// (written out or listed).
    fn board_images(&self) -> BoardImages {
        if self.json || self.boards.is_some() {
            BoardImages::Drawn
        } else {
            BoardImages::Omitted
        }
    }
}

/// Why the console stopped.
#[derive(Debug, thiserror::Error)]
pub enum ConsoleError {
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
}

/// Where acts happen and what time it is.
struct Session {
    server: String,
    channel: String,
    locales: Vec<(String, String)>,
    /// Users who moderate every server of the console (`:moderator`).
    moderators: Vec<String>,
    simulated_now: Option<DateTime<Utc>>,
    /// How many times each act key's content came so far (scripts only).
    seen: HashMap<u64, u32>,
}

impl Session {
    /// A console's state at start: the `console` server's `main` channel.
    fn starting_at(simulated_now: Option<DateTime<Utc>>) -> Session {
        Session {
            server: "console".to_owned(),
            channel: "main".to_owned(),
            locales: Vec::new(),
            moderators: Vec::new(),
            simulated_now,
            seen: HashMap::new(),
        }
    }

    fn now(&self) -> DateTime<Utc> {
        self.simulated_now.unwrap_or_else(Utc::now)
    }

    /// `user`'s act `command` in the session's channel, under `key`.
    fn request(
        &self,
        user: &str,
        command: &str,
        key: Option<String>,
        board_images: BoardImages,
    ) -> Request {
        Request {
            platform: Platform::Console,
            server: self.server.clone(),
            channel: self.channel.clone(),
            user: User {
                id: user.to_owned(),
                name: user.to_owned(),
                locale: self.locale_of(user),
                moderation: self.moderation_of(user),
            },
            key,
            input: Input::Text(command.trim().to_owned()),
            board_images,
        }
    }

    fn moderation_of(&self, user: &str) -> Moderation {
        match self.moderators.iter().any(|name| name == user) {
            true => Moderation::Server,
            false => Moderation::None,
        }
    }

    fn locale_of(&self, user: &str) -> Option<String> {
        self.locales
            .iter()
            .find(|(name, _)| name == user)
            .map(|(_, locale)| locale.clone())
    }

    /// The idempotency key of `line` by `user` in script `script`: a hash of
    /// everything that decides the act, and its count among equal ones.
    fn act_key(&mut self, script: &str, user: &str, line: &str) -> String {
        let clock = match self.simulated_now {
            Some(at) => at.to_rfc3339(),
            // The system clock differs every run: it cannot be part of the key.
            None => "system clock".to_owned(),
        };
        let mut locale = self.locale_of(user).unwrap_or_default();
        if self.moderation_of(user) != Moderation::None {
            // What the user may do decides the act too (a key unchanged for others).
            locale.push_str(" moderator");
        }
        let fields = [
            script,
            self.server.as_str(),
            self.channel.as_str(),
            clock.as_str(),
            locale.as_str(),
            line,
        ];
        let hash = fields.iter().fold(FNV_OFFSET, |hash, field| {
            // Length-prefixed, so that no two field lists hash the same text.
            fnv1a(fnv1a(hash, &format!("{}:", field.len())), field)
        });
        let count = self.seen.entry(hash).or_insert(0);
        *count += 1;
        format!("console:{script}:{hash:016x}:{count}")
    }
}

/// One reply as the console's JSON lines show it.
#[derive(Serialize)]
struct JsonReply<'a> {
    server: &'a str,
    channel: &'a str,
    to: Option<&'a str>,
    ephemeral: bool,
    direct: bool,
    text: &'a str,
    /// The position as text, when the reply shows one (`/board`).
    #[serde(skip_serializing_if = "Option::is_none")]
    diagram: Option<&'a str>,
    /// The game events, then the tournament ones (pairings and byes).
    events: Vec<serde_json::Value>,
    board: Option<&'a crate::service::BoardView>,
    /// The files sent with the reply: name, type and size (the bytes go to `--boards`).
    attachments: Vec<JsonAttachment<'a>>,
    /// The readings of an ambiguous move the player may choose from.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    choices: Vec<JsonChoice>,
}

/// One reading of an ambiguous move, and the line that plays it.
#[derive(Serialize)]
struct JsonChoice {
    /// What to type: `/move e1d1 game:3`.
    command: String,
    uci: String,
    /// The move as the reader writes it: `Ke1-d1`.
    label: String,
}

/// The command lines that choose between the readings of an ambiguous move.
fn choices(prompt: &Prompt) -> Vec<JsonChoice> {
    let Prompt::ChooseMove { game, act, choices } = prompt else {
        return Vec::new();
    };
    choices
        .iter()
        .map(|choice| JsonChoice {
            command: format!("/{}", act.command_line(*game, &choice.uci)),
            uci: choice.uci.clone(),
            label: choice.label.clone(),
        })
        .collect()
}

#[derive(Serialize)]
struct JsonAttachment<'a> {
    filename: &'a str,
    content_type: &'a str,
    bytes: usize,
    /// Where `--files` saved it.
    #[serde(skip_serializing_if = "Option::is_none")]
    saved: Option<&'a std::path::Path>,
}

/// Reads acts from `input` until it ends, printing every answer to `output`.
pub async fn run(
    service: &Service,
    input: impl BufRead,
    mut output: impl Write,
    options: &ConsoleOptions,
) -> Result<(), ConsoleError> {
    let mut session = Session::starting_at(options.now);
    // The console's own lines for `/help`, after the commands every chat has.
    let help = crate::i18n::I18n::new();
    for (index, raw) in lines::bounded_lines(input, MAX_LINE_BYTES).enumerate() {
        let raw = raw?;
        let line_no = index + 1;
        let complain = |output: &mut dyn Write, message: &str| {
            print_console_error(output, line_no, message, options.json)
        };
        if raw.is_blank_or_comment() {
            continue;
        }
        if raw.is_too_long() {
            complain(
                &mut output,
                &format!("longer than {MAX_LINE_BYTES} bytes, ignored"),
            )?;
            continue;
        }
        // Not UTF-8: answered like any unreadable line, and the next lines run.
        let Some(line) = raw.into_text() else {
            complain(&mut output, "not valid UTF-8, ignored")?;
            continue;
        };
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if let Some(steer) = trimmed.strip_prefix(':') {
            if let Err(message) = steer_session(&mut session, steer) {
                complain(&mut output, &message)?;
                continue;
            }
            // Moving the simulated clock is what wakes the scheduler here.
            if session.simulated_now.is_some() {
                scheduler_pass(service, &session, &mut output, options).await?;
            }
            continue;
        }
        let Some((user, command)) = trimmed.split_once(':') else {
            complain(&mut output, "expected `<user>: /<command>`")?;
            continue;
        };
        let user = user.trim();
        if user.is_empty() || user.len() > 64 || user.contains(char::is_whitespace) {
            complain(&mut output, "a user name is one word")?;
            continue;
        }
        let key = options
            .script_name
            .as_deref()
            .map(|name| session.act_key(name, user, trimmed));
        let act = session.request(user, command, key.clone(), options.board_images());
        let replies = service.handle(act, session.now()).await;
        for (index, reply) in replies.iter().enumerate() {
            let prefix = format!("line-{line_no:04}-{index}-");
            let saved = save_attachments(options.boards.as_deref(), &prefix, reply)?;
            print_reply(&mut output, &session, reply, options, &saved)?;
        }
        if !options.json && asks_for_help(command) {
            let lang = session
                .locale_of(user)
                .as_deref()
                .and_then(crate::core::notation::Lang::from_locale)
                .unwrap_or(crate::core::notation::Lang::En);
            writeln!(output, "{}", help.text(lang, "console-help", &[]))?;
        }
        // A printed answer is an acknowledged act: make sure it is out.
        output.flush()?;
        if let Some(key) = &key {
            service.answered(key);
        }
    }
    // Not left for the outbox to print again in the next session.
    service.settle_answered().await;
    Ok(())
}

/// What the scheduler does once the simulated clock moved: its notices
/// wait in the outbox, as on a chat, and are printed as the console's
/// worker delivers them.
async fn scheduler_pass(
    service: &Service,
    session: &Session,
    output: &mut impl Write,
    options: &ConsoleOptions,
) -> Result<(), ConsoleError> {
    service.run_due(session.now()).await;
    service.review_finished_games(session.now()).await;
    let outbox = Printed::default();
    service
        .deliver_notices(&outbox, session.now(), options.board_images())
        .await;
    for reply in outbox.take() {
        let saved = save_attachments(options.boards.as_deref(), "notice-", &reply)?;
        print_reply(output, session, &reply, options, &saved)?;
    }
    output.flush()?;
    Ok(())
}

/// Whether a command asks for the list of commands (`/help`, French `/aide`).
fn asks_for_help(command: &str) -> bool {
    matches!(
        crate::core::command::parse(command),
        Ok(crate::core::command::Command::Help { about: None })
    )
}

/// Saves a reply's files in `dir` (`--boards`), named after the line that
/// asked (`line-0007-1-board.png`; a scheduler's notice: `notice-…`), each
/// under a name no file there has yet (else `…-2.png`): a later session or
/// a second file of that name never replaces one reported saved. The
/// paths, in the reply's order.
fn save_attachments(
    dir: Option<&std::path::Path>,
    prefix: &str,
    reply: &Reply,
) -> std::io::Result<Vec<std::path::PathBuf>> {
    let Some(dir) = dir else {
        return Ok(Vec::new());
    };
    reply
        .attachments
        .iter()
        .map(|attachment| save_attachment(dir, prefix, &attachment.filename, &attachment.bytes))
        .collect()
}

/// How many names `save_attachment` tries before giving up.
const MAX_NAME_TRIES: usize = 10_000;

fn save_attachment(
    dir: &std::path::Path,
    prefix: &str,
    filename: &str,
    bytes: &[u8],
) -> std::io::Result<std::path::PathBuf> {
    // The service names its files; keep only plain characters all the same.
    let plain: String = filename
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
        .collect();
    let name = format!("{prefix}{plain}");
    let (stem, extension) = match name.rfind('.') {
        Some(dot) if dot > 0 => name.split_at(dot),
        _ => (name.as_str(), ""),
    };
    for number in 1..=MAX_NAME_TRIES {
        let candidate = match number {
            1 => name.clone(),
            n => format!("{stem}-{n}{extension}"),
        };
        let path = dir.join(candidate);
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path);
        match file {
            Ok(mut file) => {
                file.write_all(bytes)?;
                return Ok(path);
            }
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(error),
        }
    }
    Err(std::io::Error::other(format!(
        "{MAX_NAME_TRIES} files named like {name} in {}",
        dir.display()
    )))
}

/// A problem with a console line itself (not an act), as text or JSON.
fn print_console_error(
    output: &mut dyn Write,
    line_no: usize,
    message: &str,
    json: bool,
) -> std::io::Result<()> {
    if json {
        let value = serde_json::json!({ "console_error": message, "line": line_no });
        writeln!(output, "{value}")
    } else {
        writeln!(output, "line {line_no}: {message}")
    }
}

/// The console's outbox worker: it keeps the notices it is handed, for
/// the console to print in order.
#[derive(Default)]
struct Printed(std::sync::Mutex<Vec<Reply>>);

impl Printed {
    fn take(&self) -> Vec<Reply> {
        std::mem::take(
            &mut *self
                .0
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
        )
    }
}

impl Notifier for Printed {
    fn platform(&self) -> Platform {
        Platform::Console
    }

    async fn deliver(&self, replies: Vec<Reply>) {
        let mut printed = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        printed.extend(replies);
    }
}

fn print_reply(
    output: &mut impl Write,
    session: &Session,
    reply: &Reply,
    options: &ConsoleOptions,
    saved: &[std::path::PathBuf],
) -> std::io::Result<()> {
    let pretty = options.pretty;
    if options.json {
        let line = JsonReply {
            server: &session.server,
            channel: &reply.channel,
            to: reply.to.as_deref(),
            ephemeral: reply.ephemeral,
            direct: reply.direct,
            text: &reply.text,
            diagram: reply.diagram.as_deref(),
            events: reply
                .events
                .iter()
                .map(serde_json::to_value)
                .chain(reply.tournament_events.iter().map(serde_json::to_value))
                .filter_map(Result::ok)
                .collect(),
            board: reply.board.as_ref(),
            attachments: reply
                .attachments
                .iter()
                .enumerate()
                .map(|(index, a)| JsonAttachment {
                    filename: &a.filename,
                    content_type: &a.content_type,
                    bytes: a.bytes.len(),
                    saved: saved.get(index).map(std::path::PathBuf::as_path),
                })
                .collect(),
            choices: choices(&reply.prompt),
        };
        let text = serde_json::to_string(&line).map_err(std::io::Error::other)?;
        return writeln!(output, "{text}");
    }
    let audience = match (&reply.to, reply.ephemeral) {
        (Some(to), _) if reply.direct => format!("[direct message → {to}]"),
        (Some(to), true) => format!("[#{} → {to} only]", reply.channel),
        (Some(to), false) => format!("[#{}] @{to}", reply.channel),
        (None, _) => format!("[#{}]", reply.channel),
    };
    writeln!(output, "{audience} {}", reply.text)?;
    // An ambiguous move: a line per reading, ready to be typed.
    if let Some(to) = &reply.to {
        for choice in choices(&reply.prompt) {
            writeln!(output, "  {to}: {}   # {}", choice.command, choice.label)?;
        }
    }
    for (index, attachment) in reply.attachments.iter().enumerate() {
        let (name, bytes) = (&attachment.filename, attachment.bytes.len());
        match saved.get(index) {
            Some(path) => writeln!(
                output,
                "[{name} ({bytes} bytes) saved as {}]",
                path.display()
            )?,
            None => writeln!(
                output,
                "[{name} ({bytes} bytes): not saved; --files DIR saves pictures]"
            )?,
        }
    }
    // In colours, the board the reply shows; else the reply's own diagram
    // (`/board`), else one of the board it shows.
    let coloured = reply.board.as_ref().filter(|_| pretty).and_then(|board| {
        crate::render::text::coloured_diagram_of_fen(&board.fen, board.orientation == "black")
    });
    let picture = coloured
        .or_else(|| reply.diagram.clone())
        .or_else(|| reply.board.as_ref().and_then(board_diagram));
    if let Some(picture) = picture {
        writeln!(output, "{picture}")?;
    }
    Ok(())
}

/// A text diagram of a board view, for human output.
fn board_diagram(board: &crate::service::BoardView) -> Option<String> {
    crate::render::text::diagram_of_fen(&board.fen, board.orientation == "black")
}

/// Carries out a `:` line.
fn steer_session(session: &mut Session, line: &str) -> Result<(), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["server", name] => session.server = (*name).to_owned(),
        ["channel", name] => session.channel = (*name).to_owned(),
        ["lang", user, locale] => {
            session.locales.retain(|(name, _)| name != user);
            session
                .locales
                .push(((*user).to_owned(), (*locale).to_owned()));
        }
        ["moderator", user] => {
            if !session.moderators.iter().any(|name| name == user) {
                session.moderators.push((*user).to_owned());
            }
        }
        ["advance", amount] => {
            let step = parse_duration(amount).ok_or("expected :advance <N>d|h|m|s")?;
            let at = session.now().checked_add_signed(step);
            session.simulated_now = Some(at.filter(is_simulable).ok_or(CLOCK_RANGE)?);
        }
        ["now", instant] => {
            let at = DateTime::parse_from_rfc3339(instant)
                .map_err(|_| "expected :now <RFC 3339 instant>")?
                .with_timezone(&Utc);
            session.simulated_now = Some(Some(at).filter(is_simulable).ok_or(CLOCK_RANGE)?);
        }
        _ => return Err(format!("unknown console line :{line}")),
    }
    Ok(())
}

/// Why a `:now` or `:advance` was refused for its instant.
pub const CLOCK_RANGE: &str = "the simulated clock stays between 1970 and 9000";

/// Whether the simulated clock may show `at`: from 1970 to the year 9000,
/// so that every deadline counted from it is still a four-digit year, as
/// the store writes instants (RFC 3339) and as `:advance` may add up to.
pub fn is_simulable(at: &DateTime<Utc>) -> bool {
    (1970..9000).contains(&at.year())
}

/// `3d`, `5h`, `30m`, `10s`.
pub fn parse_duration(text: &str) -> Option<Duration> {
    // The unit is the last *character*, so `3é` is refused, not cut inside `é`.
    let mut chars = text.chars();
    let unit = chars.next_back()?;
    let n: i64 = chars
        .as_str()
        .parse()
        .ok()
        .filter(|n| (0..=100_000).contains(n))?;
    match unit {
        'd' => Some(Duration::days(n)),
        'h' => Some(Duration::hours(n)),
        'm' => Some(Duration::minutes(n)),
        's' => Some(Duration::seconds(n)),
        _ => None,
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// `hash` continued over `text`, for idempotency keys (FNV-1a: tiny and
/// stable across Rust versions, unlike `DefaultHasher`).
fn fnv1a(hash: u64, text: &str) -> u64 {
    text.bytes().fold(hash, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse() {
        let cases = [
            ("3d", Some(Duration::days(3))),
            ("5h", Some(Duration::hours(5))),
            ("30m", Some(Duration::minutes(30))),
            ("10s", Some(Duration::seconds(10))),
            ("d", None),
            ("", None),
            ("3w", None),
            ("-3d", None),
            ("99999999999d", None),
            ("3é", None),
            ("é", None),
            ("3dé", None),
            ("é3d", None),
            ("３d", None),
        ];
        for (text, expected) in cases {
            assert_eq!(parse_duration(text), expected, "{text}");
        }
    }

    #[test]
    fn script_keys_follow_what_decides_the_act() {
        let mut session = Session::starting_at(None);
        let line = "alice: /move e4";
        let first = session.act_key("s.txt", "alice", line);
        let again = session.act_key("s.txt", "alice", line);
        assert_ne!(first, again, "a repeated line is another act");
        let steps: [(&str, &str); 4] = [
            ("channel other", "the channel"),
            ("server club", "the server"),
            ("now 2026-01-01T00:00:00Z", "the simulated clock"),
            ("lang alice fr", "the user's locale"),
        ];
        let mut keys = vec![first.clone(), again];
        for (steer, what) in steps {
            steer_session(&mut session, steer).expect("steer");
            let key = session.act_key("s.txt", "alice", line);
            assert!(!keys.contains(&key), "{what} is part of the key");
            keys.push(key);
        }
        // Another user's locale does not decide alice's act.
        let before = session.act_key("s.txt", "alice", line);
        steer_session(&mut session, "lang bob de").expect("steer");
        let after = session.act_key("s.txt", "alice", line);
        let content = |key: &str| key.rsplit_once(':').map(|(content, _)| content.to_owned());
        assert_eq!(content(&before), content(&after));

        // A fresh run from the start gives the same keys in the same order.
        let mut rerun = Session::starting_at(None);
        assert_eq!(rerun.act_key("s.txt", "alice", line), first);
        assert_ne!(
            rerun.act_key("t.txt", "alice", line),
            first,
            "the script's name"
        );
    }

    #[test]
    fn console_lines_steer_the_session() {
        let mut session = Session::starting_at(None);
        steer_session(&mut session, "channel tournament").expect("ok");
        steer_session(&mut session, "lang bob fr").expect("ok");
        steer_session(&mut session, "now 2026-01-01T00:00:00Z").expect("ok");
        steer_session(&mut session, "advance 2d").expect("ok");
        assert_eq!(session.channel, "tournament");
        assert_eq!(session.locale_of("bob").as_deref(), Some("fr"));
        assert_eq!(session.now().to_rfc3339(), "2026-01-03T00:00:00+00:00");
        assert!(steer_session(&mut session, "fly away").is_err());
    }

    /// (lines, whether the last one is accepted): the clock never leaves the
    /// years a stored instant can be written in, however often it advances.
    #[test]
    fn the_simulated_clock_stays_in_range() {
        let far = vec!["advance 100000d"; 30];
        let cases: Vec<(Vec<&str>, bool)> = vec![
            (vec!["now 1970-01-01T00:00:00Z"], true),
            (vec!["now 1969-12-31T23:59:59Z"], false),
            (vec!["now 0000-01-01T00:00:00Z"], false),
            (vec!["now 8999-12-31T23:59:59Z"], true),
            (vec!["now 9999-12-31T23:59:59Z"], false),
            (vec!["now 8999-12-31T23:59:59Z", "advance 1s"], false),
            (vec!["now 2026-01-01T00:00:00Z", "advance 100000d"], true),
            (far, false),
            (vec!["advance 3é"], false),
            (vec!["now 2026-01-01T00:00:00Zé"], false),
        ];
        for (lines, accepted) in cases {
            let mut session = Session::starting_at(None);
            let (last, before) = lines.split_last().expect("a line");
            for line in before {
                let _ = steer_session(&mut session, line);
            }
            let kept = session.simulated_now;
            let result = steer_session(&mut session, last);
            assert_eq!(result.is_ok(), accepted, "{lines:?}: {result:?}");
            if !accepted {
                assert_eq!(
                    session.simulated_now, kept,
                    "{lines:?}: a refusal moved the clock"
                );
            }
        }
    }
}
