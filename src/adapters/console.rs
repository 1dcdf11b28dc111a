//! The console: play from a terminal or a script, for people and for tests.
//!
//! Each input line is `<user>: /<command> [args]` (`alice: /move e4`).
//! Lines starting with `:` steer the console itself:
//!
//! - `:server NAME`, `:channel NAME`: where the next acts happen;
//! - `:lang USER fr`: the locale USER's client sends from now on;
//! - `:advance 3d`, `:advance 5h`, `:advance 30m`: move the simulated clock;
//! - `:now 2026-01-01T12:00:00Z`: set the simulated clock.
//!
//! With a simulated clock, every `:` line also runs what the scheduler would
//! at that instant (flags that fell), so a script can play a game to a flag.
//!
//! `#` starts a comment. Replies are printed as text, or with `--json` as one
//! object per line: `{"server", "channel", "to", "ephemeral", "text", "events", "board"}`.
//! When a move text could mean several moves, nothing is played and the reply
//! is followed by one line per reading, ready to be typed back
//! (`  alice: /move e1d1 game:3   # Ke1-d1`); in JSON they are its `choices`.
//! Scripted acts carry an idempotency key made of the script's name, the
//! line number and the line's text, so running a script again after a crash
//! repeats nothing that was already done.

use std::io::{BufRead, Write};

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;

use crate::render::text::diagram;
use crate::service::{Act, GameEvent, Input, Prompt, Reply, Service, User};
use crate::storage::{Platform, Store};

/// The longest input line read; longer lines are refused whole.
pub const MAX_LINE_BYTES: usize = 1024;

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
}

impl ConsoleOptions {
    /// Whether anyone sees the replies' files (written out or listed):
    /// only then are board images drawn.
    fn shows_files(&self) -> bool {
        self.json || self.boards.is_some()
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
    simulated_now: Option<DateTime<Utc>>,
}

impl Session {
    fn now(&self) -> DateTime<Utc> {
        self.simulated_now.unwrap_or_else(Utc::now)
    }

    fn locale_of(&self, user: &str) -> Option<String> {
        self.locales
            .iter()
            .find(|(name, _)| name == user)
            .map(|(_, locale)| locale.clone())
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
    events: &'a [GameEvent],
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
}

/// Reads acts from `input` until it ends, printing every answer to `output`.
pub async fn run<S: Store>(
    service: &Service<S>,
    input: impl BufRead,
    mut output: impl Write,
    options: &ConsoleOptions,
) -> Result<(), ConsoleError> {
    let mut session = Session {
        server: "console".to_owned(),
        channel: "main".to_owned(),
        locales: Vec::new(),
        simulated_now: options.now,
    };
    for (index, line) in input.lines().enumerate() {
        let line = line?;
        let line_no = index + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let complain = |output: &mut dyn Write, message: &str| {
            print_console_error(output, line_no, message, options.json)
        };
        if line.len() > MAX_LINE_BYTES {
            complain(
                &mut output,
                &format!("longer than {MAX_LINE_BYTES} bytes, ignored"),
            )?;
            continue;
        }
        if let Some(steer) = trimmed.strip_prefix(':') {
            if let Err(message) = steer_session(&mut session, steer) {
                complain(&mut output, &message)?;
                continue;
            }
            // Moving the simulated clock is what wakes the scheduler here.
            if session.simulated_now.is_some() {
                let mut replies = service.run_due(session.now()).await;
                if options.shows_files() {
                    service.draw_boards(&mut replies);
                }
                for reply in &replies {
                    print_reply(&mut output, &session, reply, options.json)?;
                }
                output.flush()?;
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
        let act = Act {
            platform: Platform::Console,
            server: session.server.clone(),
            channel: session.channel.clone(),
            user: User {
                id: user.to_owned(),
                name: user.to_owned(),
                locale: session.locale_of(user),
                moderator: false,
            },
            key: options
                .script_name
                .as_ref()
                .map(|name| format!("console:{name}:{line_no}:{:016x}", fnv1a(trimmed))),
            input: Input::Text(command.trim().to_owned()),
        };
        let mut replies = service.handle(act, session.now()).await;
        if options.shows_files() {
            service.draw_boards(&mut replies);
        }
        for (index, reply) in replies.iter().enumerate() {
            print_reply(&mut output, &session, reply, options.json)?;
            if let Some(dir) = &options.boards {
                save_attachments(dir, line_no, index, reply)?;
            }
        }
        // A printed answer is an acknowledged act: make sure it is out.
        output.flush()?;
    }
    Ok(())
}

/// Writes a reply's files as `line-0007-1-board.png` (input line, reply, name).
fn save_attachments(
    dir: &std::path::Path,
    line_no: usize,
    index: usize,
    reply: &Reply,
) -> std::io::Result<()> {
    for attachment in &reply.attachments {
        // The service names its files; keep only plain characters all the same.
        let name: String = attachment
            .filename
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
            .collect();
        let path = dir.join(format!("line-{line_no:04}-{index}-{name}"));
        std::fs::write(path, &attachment.bytes)?;
    }
    Ok(())
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

fn print_reply(
    output: &mut impl Write,
    session: &Session,
    reply: &Reply,
    json: bool,
) -> std::io::Result<()> {
    if json {
        let line = JsonReply {
            server: &session.server,
            channel: &reply.channel,
            to: reply.to.as_deref(),
            ephemeral: reply.ephemeral,
            direct: reply.direct,
            text: &reply.text,
            events: &reply.events,
            board: reply.board.as_ref(),
            attachments: reply
                .attachments
                .iter()
                .map(|a| JsonAttachment {
                    filename: &a.filename,
                    content_type: &a.content_type,
                    bytes: a.bytes.len(),
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
    for attachment in &reply.attachments {
        writeln!(
            output,
            "[file {} ({}, {} bytes)]",
            attachment.filename,
            attachment.content_type,
            attachment.bytes.len()
        )?;
    }
    // Moves and game starts get a diagram; answers that are pictures already do not.
    let picture = reply.board.as_ref().and_then(board_diagram);
    if let Some(picture) = picture.filter(|_| !reply.text.contains('\n')) {
        writeln!(output, "{picture}")?;
    }
    Ok(())
}

/// A text diagram of a board view, for human output.
fn board_diagram(board: &crate::service::BoardView) -> Option<String> {
    use shakmaty::{CastlingMode, Chess, Color, fen::Fen};
    let fen: Fen = board.fen.parse().ok()?;
    let pos: Chess = fen.into_position(CastlingMode::Standard).ok()?;
    let orientation = if board.orientation == "black" {
        Color::Black
    } else {
        Color::White
    };
    Some(diagram(&pos, orientation))
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
        ["advance", amount] => {
            let step = parse_duration(amount).ok_or("expected :advance <N>d|h|m|s")?;
            session.simulated_now = Some(session.now() + step);
        }
        ["now", instant] => {
            let at = DateTime::parse_from_rfc3339(instant)
                .map_err(|_| "expected :now <RFC 3339 instant>")?;
            session.simulated_now = Some(at.with_timezone(&Utc));
        }
        _ => return Err(format!("unknown console line :{line}")),
    }
    Ok(())
}

/// `3d`, `5h`, `30m`, `10s`.
pub fn parse_duration(text: &str) -> Option<Duration> {
    let (number, unit) = text.split_at(text.len().checked_sub(1)?);
    let n: i64 = number.parse().ok().filter(|n| (0..=100_000).contains(n))?;
    match unit {
        "d" => Some(Duration::days(n)),
        "h" => Some(Duration::hours(n)),
        "m" => Some(Duration::minutes(n)),
        "s" => Some(Duration::seconds(n)),
        _ => None,
    }
}

/// A stable hash of a line for its idempotency key (FNV-1a: tiny and stable
/// across Rust versions, unlike `DefaultHasher`).
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
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
        ];
        for (text, expected) in cases {
            assert_eq!(parse_duration(text), expected, "{text}");
        }
    }

    #[test]
    fn console_lines_steer_the_session() {
        let mut session = Session {
            server: "console".into(),
            channel: "main".into(),
            locales: Vec::new(),
            simulated_now: None,
        };
        steer_session(&mut session, "channel tournament").expect("ok");
        steer_session(&mut session, "lang bob fr").expect("ok");
        steer_session(&mut session, "now 2026-01-01T00:00:00Z").expect("ok");
        steer_session(&mut session, "advance 2d").expect("ok");
        assert_eq!(session.channel, "tournament");
        assert_eq!(session.locale_of("bob").as_deref(), Some("fr"));
        assert_eq!(session.now().to_rfc3339(), "2026-01-03T00:00:00+00:00");
        assert!(steer_session(&mut session, "fly away").is_err());
    }
}
