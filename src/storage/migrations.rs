//! The schema's history, for both backends, in one place.
//!
//! Released steps are never edited, because databases out there recorded
//! them: SQLite's nine (`migrations/0001…0009`, numbered in the file's
//! `user_version`) and PostgreSQL's five (`migrations/postgres/0001…0005`,
//! in `schema_migrations`) bring both to the same tables. Every later step
//! is written once, in `migrations/shared/`, and generated for each backend
//! by [`for_backend`]: the text is SQL both accept, and the few column types
//! that differ are written as words in braces (see [`TYPE_WORDS`]). A shared
//! step numbered k is version 9 + k on SQLite and 5 + k on PostgreSQL.

use std::borrow::Cow;
use std::sync::LazyLock;

/// A step of the schema: its file name without `.sql`, and its SQL.
pub type Migration = (&'static str, Cow<'static, str>);

/// Which SQL a step is generated for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

const SQLITE_RELEASED: &[(&str, &str)] = &[
    ("0001_init", include_str!("../../migrations/0001_init.sql")),
    (
        "0002_clocks",
        include_str!("../../migrations/0002_clocks.sql"),
    ),
    (
        "0003_heartbeat",
        include_str!("../../migrations/0003_heartbeat.sql"),
    ),
    (
        "0004_reminders",
        include_str!("../../migrations/0004_reminders.sql"),
    ),
    (
        "0005_leave",
        include_str!("../../migrations/0005_leave.sql"),
    ),
    (
        "0006_competition",
        include_str!("../../migrations/0006_competition.sql"),
    ),
    (
        "0007_ladder",
        include_str!("../../migrations/0007_ladder.sql"),
    ),
    (
        "0008_tournaments",
        include_str!("../../migrations/0008_tournaments.sql"),
    ),
    (
        "0009_challenges_by_challenger",
        include_str!("../../migrations/0009_challenges_by_challenger.sql"),
    ),
];

const POSTGRES_RELEASED: &[(&str, &str)] = &[
    (
        "0001_init",
        include_str!("../../migrations/postgres/0001_init.sql"),
    ),
    (
        "0002_competition",
        include_str!("../../migrations/postgres/0002_competition.sql"),
    ),
    (
        "0003_ladder",
        include_str!("../../migrations/postgres/0003_ladder.sql"),
    ),
    (
        "0004_tournaments",
        include_str!("../../migrations/postgres/0004_tournaments.sql"),
    ),
    (
        "0005_challenges_by_challenger",
        include_str!("../../migrations/postgres/0005_challenges_by_challenger.sql"),
    ),
];

/// Steps written once for both backends, in order (`migrations/shared/`).
const SHARED: &[(&str, &str)] = &[
    (
        "0010_outbox",
        include_str!("../../migrations/shared/0010_outbox.sql"),
    ),
    (
        "0011_outbox_server",
        include_str!("../../migrations/shared/0011_outbox_server.sql"),
    ),
    (
        "0012_client_language",
        include_str!("../../migrations/shared/0012_client_language.sql"),
    ),
    (
        "0013_acts",
        include_str!("../../migrations/shared/0013_acts.sql"),
    ),
    (
        "0014_continued_games",
        include_str!("../../migrations/shared/0014_continued_games.sql"),
    ),
    (
        "0015_tiebreaks",
        include_str!("../../migrations/shared/0015_tiebreaks.sql"),
    ),
    (
        "0016_conditionals",
        include_str!("../../migrations/shared/0016_conditionals.sql"),
    ),
    (
        "0017_chess960",
        include_str!("../../migrations/shared/0017_chess960.sql"),
    ),
    (
        "0018_private_notes",
        include_str!("../../migrations/shared/0018_private_notes.sql"),
    ),
    (
        "0019_reviews",
        include_str!("../../migrations/shared/0019_reviews.sql"),
    ),
    (
        "0020_teams",
        include_str!("../../migrations/shared/0020_teams.sql"),
    ),
    (
        "0021_team_matches",
        include_str!("../../migrations/shared/0021_team_matches.sql"),
    ),
    (
        "0022_held_acts",
        include_str!("../../migrations/shared/0022_held_acts.sql"),
    ),
    (
        "0023_presence",
        include_str!("../../migrations/shared/0023_presence.sql"),
    ),
    (
        "0024_server_language",
        include_str!("../../migrations/shared/0024_server_language.sql"),
    ),
    (
        "0025_notation",
        include_str!("../../migrations/shared/0025_notation.sql"),
    ),
    (
        "0026_engine_slots",
        include_str!("../../migrations/shared/0026_engine_slots.sql"),
    ),
    (
        "0027_notice_parts",
        include_str!("../../migrations/shared/0027_notice_parts.sql"),
    ),
    (
        "0028_web",
        include_str!("../../migrations/shared/0028_web.sql"),
    ),
    (
        "0029_linked_accounts",
        include_str!("../../migrations/shared/0029_linked_accounts.sql"),
    ),
    (
        "0030_club_tournaments",
        include_str!("../../migrations/shared/0030_club_tournaments.sql"),
    ),
];

/// A line of a shared step that only PostgreSQL runs (a `COMMENT ON`):
/// SQLite reads it as a comment.
const POSTGRES_ONLY: &str = "--pg ";

/// The column types written as words in shared steps: the word, then
/// SQLite's type, then PostgreSQL's.
pub const TYPE_WORDS: &[(&str, &str, &str)] = &[
    (
        "{id}",
        "INTEGER PRIMARY KEY",
        "bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    ),
    ("{ref}", "INTEGER", "bigint"),
    ("{int}", "INTEGER", "bigint"),
    ("{real}", "REAL", "double precision"),
    ("{flag}", "INTEGER", "boolean"),
    ("{instant}", "TEXT", "timestamptz"),
    ("{json}", "TEXT", "jsonb"),
];

/// A shared step's SQL for one backend.
pub fn generate(sql: &str, backend: Backend) -> String {
    let sql = match backend {
        Backend::Sqlite => sql.to_owned(),
        Backend::Postgres => sql
            .lines()
            .map(|line| line.strip_prefix(POSTGRES_ONLY).unwrap_or(line))
            .collect::<Vec<_>>()
            .join("\n"),
    };
    TYPE_WORDS
        .iter()
        .fold(sql, |sql, (word, sqlite, postgres)| {
            sql.replace(
                word,
                match backend {
                    Backend::Sqlite => sqlite,
                    Backend::Postgres => postgres,
                },
            )
        })
}

fn history(released: &'static [(&str, &str)], backend: Backend) -> Vec<Migration> {
    let released = released
        .iter()
        .map(|&(name, sql)| (name, Cow::Borrowed(sql)));
    let shared = SHARED
        .iter()
        .map(move |&(name, sql)| (name, Cow::Owned(generate(sql, backend))));
    released.chain(shared).collect()
}

/// Every step for `backend`, in order: version N is element N − 1.
pub fn for_backend(backend: Backend) -> &'static [Migration] {
    static SQLITE: LazyLock<Vec<Migration>> =
        LazyLock::new(|| history(SQLITE_RELEASED, Backend::Sqlite));
    static POSTGRES: LazyLock<Vec<Migration>> =
        LazyLock::new(|| history(POSTGRES_RELEASED, Backend::Postgres));
    match backend {
        Backend::Sqlite => &SQLITE,
        Backend::Postgres => &POSTGRES,
    }
}

/// `current`, the version a database holds, unless it is newer than the
/// steps this binary knows for `backend`: such a database is refused.
pub fn known_version(current: usize, backend: Backend) -> crate::storage::Result<usize> {
    let known = for_backend(backend).len();
    if current > known {
        return Err(crate::storage::StorageError::Migration {
            version: current,
            message: format!(
                "the database is newer than this binary (which knows {known} migrations)"
            ),
        });
    }
    Ok(current)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_steps_get_each_backends_types() {
        let step = "CREATE TABLE t (id {id}, game_id {ref} NOT NULL, at {instant}, done {flag} \
                    NOT NULL DEFAULT FALSE, body {json}, score {real}, n {int})";
        assert_eq!(
            generate(step, Backend::Sqlite),
            "CREATE TABLE t (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL, at TEXT, done \
             INTEGER NOT NULL DEFAULT FALSE, body TEXT, score REAL, n INTEGER)"
        );
        assert_eq!(
            generate(step, Backend::Postgres),
            "CREATE TABLE t (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, game_id \
             bigint NOT NULL, at timestamptz, done boolean NOT NULL DEFAULT FALSE, body jsonb, \
             score double precision, n bigint)"
        );
    }

    #[test]
    fn postgres_only_lines_are_comments_to_sqlite() {
        let step = "CREATE TABLE t (a {int});\n--pg COMMENT ON TABLE t IS 'x';";
        assert_eq!(
            generate(step, Backend::Sqlite),
            "CREATE TABLE t (a INTEGER);\n--pg COMMENT ON TABLE t IS 'x';"
        );
        assert_eq!(
            generate(step, Backend::Postgres),
            "CREATE TABLE t (a bigint);\nCOMMENT ON TABLE t IS 'x';"
        );
    }

    #[test]
    fn no_type_word_is_left_in_a_generated_step() {
        for backend in [Backend::Sqlite, Backend::Postgres] {
            for (name, sql) in for_backend(backend) {
                assert!(
                    !sql.contains("{"),
                    "{name} keeps a type word for {backend:?}"
                );
            }
        }
    }

    #[test]
    fn released_steps_are_numbered_from_one_and_none_is_empty() {
        for released in [SQLITE_RELEASED, POSTGRES_RELEASED] {
            for (index, (name, sql)) in released.iter().enumerate() {
                assert!(name.starts_with(&format!("{:04}_", index + 1)), "{name}");
                assert!(!sql.trim().is_empty(), "{name} is empty");
            }
        }
        for (name, sql) in SHARED {
            assert!(
                name.chars().take(4).filter(char::is_ascii_digit).count() == 4,
                "{name}"
            );
            assert!(
                *name >= "0010",
                "{name}: shared steps are numbered from 0010"
            );
            assert!(!sql.trim().is_empty(), "{name} is empty");
        }
    }

    #[test]
    fn shared_steps_follow_the_released_ones_in_order() {
        let names = |backend| {
            for_backend(backend)
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
        };
        for backend in [Backend::Sqlite, Backend::Postgres] {
            let names = names(backend);
            assert!(names.windows(2).all(|w| w[0] < w[1]), "{names:?}");
        }
        assert_eq!(
            for_backend(Backend::Sqlite).len() - SQLITE_RELEASED.len(),
            for_backend(Backend::Postgres).len() - POSTGRES_RELEASED.len()
        );
    }
}
