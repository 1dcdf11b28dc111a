//! The command language is written once, in the table under
//! src/core/command: `/help` (in both languages, as text and as Discord
//! paths) lists every command and every option the table has, the docs'
//! reference is the one the table writes, and the adapters name no command
//! or option themselves (they read the table).
//!
//! Discord's registration is checked against the table by
//! tests/discord_options.rs (every command reachable by its path, every
//! payload building what its text form parses to) and tests/discord_e2e.rs
//! (what the bot registers with the fake Discord).

use std::path::Path;

use chrono::{TimeZone, Utc};
use pawnpost::core::command::help::{self, option_usage};
use pawnpost::core::command::table;
use pawnpost::core::notation::Lang;
use pawnpost::core::platform::Platform;
use pawnpost::i18n::I18n;
use pawnpost::service::{
    BoardImages, Input, Moderation, Request, Service, ServiceConfig, User, command_reference,
    discord_tree,
};
use pawnpost::storage::sqlite::SqliteStore;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// What `text` answers on `platform` for a reader of `locale`.
async fn ask(service: &Service, platform: Platform, locale: &str, text: &str) -> String {
    let act = Request {
        platform,
        server: "club".into(),
        channel: "main".into(),
        user: User {
            id: format!("reader-{locale}"),
            name: "reader".into(),
            locale: Some(locale.into()),
            moderation: Moderation::None,
        },
        key: None,
        input: Input::Text(text.into()),
        board_images: BoardImages::Omitted,
    };
    let now = Utc.with_ymd_and_hms(2026, 6, 1, 9, 0, 0).unwrap();
    let replies = service.handle(act, now).await;
    replies
        .into_iter()
        .map(|r| r.text)
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn help_lists_every_command_and_option() {
    let store = SqliteStore::open_in_memory().expect("SQLite in memory");
    let service = Service::new(store, ServiceConfig::default());
    for (platform, discord) in [(Platform::Console, false), (Platform::Discord, true)] {
        for (locale, lang) in [("en", Lang::En), ("fr", Lang::Fr)] {
            let overview = ask(&service, platform, locale, "/help").await;
            for path in help::commands() {
                // The overview names each command by its words, in order.
                let call = help::call(&path, lang, discord);
                let mut rest = overview.as_str();
                for word in call.trim_start_matches('/').split(' ') {
                    let at = rest.find(word).unwrap_or_else(|| {
                        panic!("{platform:?} {locale}: /help lacks {call}:\n{overview}")
                    });
                    rest = &rest[at + word.len()..];
                }
                // Its own help gives its usage and every option.
                let asked = format!("/help {}", call.trim_start_matches('/'));
                let details = ask(&service, platform, locale, &asked).await;
                assert!(
                    details.contains(&help::usage(&path, lang, discord)),
                    "{asked}:\n{details}"
                );
                for opt in path[path.len() - 1].options {
                    let written = option_usage(opt, lang, discord);
                    assert!(
                        details.contains(written.trim_matches(['[', ']'])),
                        "{asked}: {written}"
                    );
                }
            }
        }
    }
}

/// The block of `file` between the markers of `what`, checked against (or,
/// with PAWNPOST_WRITE_DOCS set, rewritten as) `expected`.
fn generated_block(file: &str, what: &str, expected: &str) -> String {
    let begin = format!("<!-- {what}: generated from src/core/command, do not edit by hand -->");
    let end = format!("<!-- end of {what} -->");
    let path = Path::new(ROOT).join(file);
    let docs = std::fs::read_to_string(&path).expect("the docs");
    let (before, rest) = docs.split_once(&begin).expect("the first marker");
    let (written, after) = rest.split_once(&end).expect("the last marker");
    if written.trim() != expected.trim() {
        if std::env::var_os("PAWNPOST_WRITE_DOCS").is_some() {
            let docs = format!("{before}{begin}\n{}\n{end}{after}", expected.trim());
            std::fs::write(&path, docs).expect("write the docs");
            return expected.to_owned();
        }
        panic!(
            "{file}'s {what} differs from the table's; run \
             `PAWNPOST_WRITE_DOCS=1 cargo test --test one_command_language` to rewrite it"
        );
    }
    written.to_owned()
}

/// The Discord command tree in docs/hosting.md is the table's.
#[test]
fn the_docs_command_tree_is_the_tables() {
    generated_block("docs/hosting.md", "command tree", &discord_tree());
}

/// The reference in docs/playing.md is the one the table writes.
#[test]
fn the_docs_reference_is_the_tables() {
    let expected = command_reference(&I18n::new());
    let written = generated_block("docs/playing.md", "command reference", &expected);
    // And it writes every command with every option, in both languages.
    let markdown = |text: String| text.replace('|', "\\|");
    for path in help::commands() {
        for lang in [Lang::En, Lang::Fr] {
            let usage = markdown(help::usage(&path, lang, false));
            assert!(written.contains(&usage), "{usage}");
        }
    }
}

/// Every name of a command or an option: English, French and other words
/// (not the values an option takes: `black`, `fr`).
fn table_names() -> Vec<&'static str> {
    let mut names = Vec::new();
    let mut rows: Vec<&'static table::Spec> = table::top_level().collect();
    while let Some(row) = rows.pop() {
        names.extend([row.name, row.fr].iter().chain(row.aliases));
        for opt in row.options {
            names.extend([opt.name, opt.fr].iter().chain(opt.aliases));
        }
        rows.extend(row.subs);
    }
    names
}

/// Literals in the adapters that equal a table name but are not about
/// commands: button ids, a message's argument, Matrix membership states,
/// console `:` lines.
const NOT_COMMANDS: &[(&str, &str)] = &[
    ("discord/components.rs", "game"),
    ("discord/components.rs", "board"),
    ("discord/components.rs", "resign"),
    ("discord/components.rs", "m"),
    ("matrix/events.rs", "join"),
    ("console.rs", "server"),
    // A message argument (`web-round`'s `$round`), not the command.
    ("web/pages.rs", "round"),
];

/// The adapters name no command or option: a string literal (outside their
/// tests) that is a command's or option's name, or a command line built
/// from one (`"move {}"`), fails.
#[test]
fn adapters_name_no_command_or_option() {
    let names = table_names();
    let mut found = Vec::new();
    let mut dirs = vec![Path::new(ROOT).join("src/adapters")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/adapters") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let source = std::fs::read_to_string(&path).expect("a source file");
            let code = source
                .split("#[cfg(test)]\nmod tests")
                .next()
                .unwrap_or_default();
            let file = path
                .strip_prefix(Path::new(ROOT).join("src/adapters"))
                .expect("inside");
            let file = file.to_string_lossy().replace('\\', "/");
            for (number, line) in code.lines().enumerate() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                for literal in literals(line) {
                    let word = literal.trim_start_matches(['!', '/']);
                    let head = word.split([' ', ':']).next().unwrap_or_default();
                    let builds_a_line = word.len() > head.len() && word[head.len()..].contains('{');
                    let named = names.contains(&word) || (builds_a_line && names.contains(&head));
                    let allowed = NOT_COMMANDS.contains(&(file.as_str(), word));
                    if named && !allowed {
                        found.push(format!("src/adapters/{file}:{}: {literal:?}", number + 1));
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "command names written in the adapters:\n{}",
        found.join("\n")
    );
}

/// The string literals of a line of Rust (escapes kept as written).
fn literals(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find('"') {
        // A char literal `'"'` is no string.
        if rest[..start].ends_with('\'') {
            rest = &rest[start + 1..];
            continue;
        }
        let body = &rest[start + 1..];
        let mut end = None;
        let mut escaped = false;
        for (at, c) in body.char_indices() {
            match c {
                '\\' if !escaped => escaped = true,
                '"' if !escaped => {
                    end = Some(at);
                    break;
                }
                _ => escaped = false,
            }
        }
        let Some(end) = end else { break };
        out.push(&body[..end]);
        rest = &body[end + 1..];
    }
    out
}
