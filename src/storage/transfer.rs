//! Copying a whole database from SQLite to PostgreSQL (`pawnpost migrate
//! --from sqlite:FILE --to postgres://...`), table by table, and checking
//! that every table has as many rows on both sides.
//!
//! Kept out of the [`Store`] trait: the bot never reads everything. The
//! tables and their columns are listed once here ([`TABLES`]); each store
//! builds its own SQL from that list. A branch that adds a table adds it
//! here, in an order where rows come after the rows they point to (the
//! PostgreSQL side defers its foreign keys to the end anyway).
//!
//! [`Store`]: super::Store

use super::postgres::PgStore;
use super::sqlite::SqliteStore;
use super::{Result, StorageError};

/// How a column is held, so each side reads and writes the right SQL type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `bigint` on PostgreSQL.
    BigInt,
    /// `integer` on PostgreSQL.
    Int,
    /// 0/1 in SQLite, `boolean` on PostgreSQL.
    Bool,
    Text,
    /// RFC 3339 text in SQLite, `timestamptz` on PostgreSQL.
    Instant,
    /// JSON text in SQLite, `jsonb` on PostgreSQL.
    Json,
    /// REAL in SQLite, `double precision` on PostgreSQL.
    Float,
}

/// One table to copy: its columns, the first `key` of which order its rows.
#[derive(Debug)]
pub struct Table {
    pub name: &'static str,
    pub columns: &'static [(&'static str, Kind)],
    pub key: usize,
    /// Whether `id` comes from an identity sequence to move past the copied ids.
    pub identity: bool,
}

impl Table {
    pub fn column_list(&self) -> String {
        self.columns
            .iter()
            .map(|(name, _)| *name)
            .collect::<Vec<_>>()
            .join(", ")
    }

    pub fn key_list(&self) -> String {
        self.columns[..self.key]
            .iter()
            .map(|(name, _)| *name)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

use Kind::{BigInt, Bool, Float, Instant, Int, Json, Text};

/// Every table of the schema, parents before children.
pub const TABLES: &[Table] = &[
    Table {
        name: "servers",
        columns: &[
            ("id", BigInt),
            ("platform", Text),
            ("platform_id", Text),
            ("language", Text),
            ("time_control", Text),
            ("draw_agreement_allowed", Bool),
            ("draw_min_moves", Int),
            ("moderator_role", Text),
            ("created_at", Instant),
        ],
        key: 1,
        identity: true,
    },
    Table {
        name: "channels",
        columns: &[("id", BigInt), ("server_id", BigInt), ("platform_id", Text)],
        key: 1,
        identity: true,
    },
    Table {
        name: "players",
        columns: &[
            ("id", BigInt),
            ("platform", Text),
            ("platform_id", Text),
            ("display_name", Text),
            ("language", Text),
            ("notify", Text),
            ("created_at", Instant),
        ],
        key: 1,
        identity: true,
    },
    Table {
        name: "challenges",
        columns: &[
            ("id", BigInt),
            ("server_id", BigInt),
            ("channel_id", BigInt),
            ("challenger_id", BigInt),
            ("challenged_id", BigInt),
            ("color", Text),
            ("time_control", Text),
            ("rated", Bool),
            ("start_fen", Text),
            ("status", Text),
            ("game_id", BigInt),
            ("created_at", Instant),
            ("expires_at", Instant),
        ],
        key: 1,
        identity: true,
    },
    Table {
        name: "games",
        columns: &[
            ("id", BigInt),
            ("server_id", BigInt),
            ("channel_id", BigInt),
            ("white_id", BigInt),
            ("black_id", BigInt),
            ("start_fen", Text),
            ("time_control", Text),
            ("rated", Bool),
            ("draw_agreement_allowed", Bool),
            ("draw_min_moves", Int),
            ("status", Text),
            ("result", Text),
            ("reason", Text),
            ("turn", Text),
            ("plies", Int),
            ("pending_offer", Text),
            ("version", BigInt),
            ("challenge_id", BigInt),
            ("created_at", Instant),
            ("ended_at", Instant),
            ("clock", Json),
            ("deadline", Instant),
            ("remind_at", Instant),
            ("wake_at", Instant),
        ],
        key: 1,
        identity: true,
    },
    Table {
        name: "moves",
        columns: &[
            ("game_id", BigInt),
            ("ply", Int),
            ("uci", Text),
            ("san", Text),
            ("played_at", Instant),
            ("draw_offer", Bool),
        ],
        key: 2,
        identity: false,
    },
    Table {
        name: "game_notes",
        columns: &[("game_id", BigInt), ("seq", Int), ("note", Json)],
        key: 2,
        identity: false,
    },
    Table {
        name: "processed_acts",
        columns: &[
            ("act_key", Text),
            ("processed_at", Instant),
            ("answer", Text),
        ],
        key: 1,
        identity: false,
    },
    Table {
        name: "heartbeat",
        columns: &[("id", Int), ("at", Instant)],
        key: 1,
        identity: false,
    },
    Table {
        name: "leaves",
        columns: &[
            ("id", BigInt),
            ("player_id", BigInt),
            ("server_id", BigInt),
            ("starts_at", Instant),
            ("ends_at", Instant),
            ("ended_at", Instant),
            ("days", Int),
        ],
        key: 1,
        identity: true,
    },
    Table {
        name: "ratings",
        columns: &[
            ("server_id", BigInt),
            ("player_id", BigInt),
            ("rating", Float),
            ("deviation", Float),
            ("volatility", Float),
            ("games", Int),
            ("rated_at", Instant),
        ],
        key: 2,
        identity: false,
    },
    Table {
        name: "rating_history",
        columns: &[
            ("id", BigInt),
            ("server_id", BigInt),
            ("player_id", BigInt),
            ("game_id", BigInt),
            ("rating", Float),
            ("deviation", Float),
            ("at", Instant),
        ],
        key: 1,
        identity: true,
    },
    Table {
        name: "ladders",
        columns: &[("server_id", BigInt), ("version", BigInt)],
        key: 1,
        identity: false,
    },
    Table {
        name: "ladder_rungs",
        columns: &[
            ("server_id", BigInt),
            ("player_id", BigInt),
            ("place", Int),
            ("active_at", Instant),
        ],
        key: 2,
        identity: false,
    },
    Table {
        name: "ladder_matches",
        columns: &[
            ("id", BigInt),
            ("server_id", BigInt),
            ("challenge_id", BigInt),
            ("game_id", BigInt),
            ("challenger_id", BigInt),
            ("defender_id", BigInt),
            ("status", Text),
            ("accept_by", Instant),
            ("created_at", Instant),
        ],
        key: 1,
        identity: true,
    },
    Table {
        name: "tournaments",
        columns: &[
            ("id", BigInt),
            ("server_id", BigInt),
            ("channel_id", BigInt),
            ("name", Text),
            ("system", Text),
            ("time_control", Text),
            ("rated", Bool),
            ("rounds", Int),
            ("bye_half_points", Int),
            ("max_players", Int),
            ("entry_closes_at", Instant),
            ("state", Text),
            ("round", Int),
            ("created_by", BigInt),
            ("created_at", Instant),
            ("version", BigInt),
        ],
        key: 1,
        identity: true,
    },
    Table {
        name: "tournament_entrants",
        columns: &[
            ("tournament_id", BigInt),
            ("player_id", BigInt),
            ("joined_at", Instant),
            ("seed", Int),
            ("withdrawn_at", Instant),
        ],
        key: 2,
        identity: false,
    },
    Table {
        name: "tournament_games",
        columns: &[
            ("id", BigInt),
            ("tournament_id", BigInt),
            ("round", Int),
            ("board", Int),
            ("white_id", BigInt),
            ("black_id", BigInt),
            ("game_id", BigInt),
            ("score", Text),
        ],
        key: 1,
        identity: true,
    },
];

/// A value as SQLite holds it: the neutral form rows travel in.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

/// Rows read per page.
const PAGE: usize = 500;

/// One table's rows on each side after the copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copied {
    pub table: &'static str,
    pub source: u64,
    pub target: u64,
}

/// Copies every table of `from` into `to`, which must hold no rows yet, in
/// one PostgreSQL transaction (all or nothing), then compares row counts.
/// Stop the bot first: the source is read a page at a time.
pub async fn copy_sqlite_to_postgres(from: &SqliteStore, to: &PgStore) -> Result<Vec<Copied>> {
    let mut import = to.begin_import().await?;
    for table in TABLES {
        let mut after: Option<Vec<Value>> = None;
        loop {
            let rows = from.export_page(table, after.take(), PAGE).await?;
            let Some(last) = rows.last() else { break };
            after = Some(last[..table.key].to_vec());
            let full = rows.len() == PAGE;
            import.insert(table, &rows).await?;
            if !full {
                break;
            }
        }
    }
    import.finish().await?;
    let mut copied = Vec::new();
    for table in TABLES {
        copied.push(Copied {
            table: table.name,
            source: from.count_rows(table).await?,
            target: to.count_rows(table).await?,
        });
    }
    if let Some(differ) = copied.iter().find(|c| c.source != c.target) {
        return Err(StorageError::Backend(format!(
            "table {}: {} rows in SQLite but {} in PostgreSQL",
            differ.table, differ.source, differ.target
        )));
    }
    Ok(copied)
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, TimeZone, Utc};

    use super::*;
    use crate::core::platform::Platform;
    use crate::service::{BoardImages, Input, Moderation, Request, Service, ServiceConfig, User};
    use crate::storage::Store;
    use crate::storage::postgres::scratch::{ScratchSchema, test_url};

    fn act(user: &str, channel: &str, text: &str, key: &str) -> Request {
        Request {
            platform: Platform::Discord,
            server: "guild".into(),
            channel: channel.into(),
            user: User {
                id: user.into(),
                name: user.into(),
                locale: None,
                moderation: Moderation::None,
            },
            key: Some(key.into()),
            input: Input::Text(text.into()),
            board_images: BoardImages::Omitted,
        }
    }

    #[tokio::test]
    async fn everything_in_sqlite_arrives_in_postgres() {
        let Some(url) = test_url() else { return };
        let dir = tempfile::tempdir().expect("temp dir");
        let sqlite = SqliteStore::open(dir.path().join("old.db")).expect("open");
        let service = Service::new(sqlite.clone(), ServiceConfig::default());
        let start = Utc.with_ymd_and_hms(2026, 3, 1, 12, 0, 0).unwrap();
        let script = [
            ("alice", "a", "/challenge @bob color:white time:3d"),
            ("bob", "a", "/accept"),
            ("alice", "a", "/move e4"),
            ("bob", "a", "/move e5 offer_draw"),
            ("alice", "a", "/draw decline"),
            ("carol", "b", "/challenge @dave"),
            ("dave", "b", "/accept"),
            ("dave", "b", "/resign"),
            ("carol", "b", "/challenge"),
            ("bob", "a", "/settings language fr"),
            ("bob", "a", "/leave start 2"),
            ("erin", "c", "/ladder join"),
            ("frank", "c", "/ladder join"),
            ("frank", "c", "/ladder challenge @erin"),
            ("carol", "c", "/tournament create swiss unrated"),
            ("carol", "c", "/tournament join"),
            ("dave", "c", "/tournament join"),
            ("alice", "c", "/tournament join"),
            ("carol", "c", "/tournament start"),
        ];
        for (index, (user, channel, text)) in script.iter().enumerate() {
            let at = start + Duration::minutes(index as i64);
            service
                .handle(act(user, channel, text, &format!("k{index}")), at)
                .await;
        }
        sqlite.beat(start + Duration::hours(1)).await.expect("beat");

        let schema = ScratchSchema::create(&url, "copy").await.expect("schema");
        let pg = schema.store(2).await.expect("open");
        let copied = copy_sqlite_to_postgres(&sqlite, &pg).await.expect("copy");
        assert_eq!(copied.len(), TABLES.len());
        for table in [
            "servers",
            "players",
            "games",
            "moves",
            "game_notes",
            "leaves",
            "ratings",
            "rating_history",
            "ladders",
            "ladder_rungs",
            "ladder_matches",
            "tournaments",
            "tournament_entrants",
            "tournament_games",
        ] {
            let rows = copied.iter().find(|c| c.table == table).expect(table);
            assert!(rows.target > 0, "{table} copied empty");
        }
        for id in 1..=2 {
            let old = sqlite.game(id).await.expect("sqlite").expect("game");
            assert_eq!(Some(old), pg.game(id).await.expect("pg"), "game {id}");
        }
        let server = sqlite
            .open_act(
                crate::storage::ActRequest {
                    act_key: Some("k3".into()),
                    platform: Platform::Discord,
                    server: "guild".into(),
                    channel: "a".into(),
                    user_id: "bob".into(),
                    user_name: "bob".into(),
                    defaults: crate::storage::ServerDefaults {
                        language: crate::core::notation::Lang::En,
                        time_control: "3d".into(),
                    },
                },
                start,
            )
            .await
            .expect("answer");
        let pg_answer = pg.answer_of("k3").await.expect("answer");
        assert_eq!(
            server,
            crate::storage::OpenedAct::Answered(pg_answer.expect("stored"))
        );
        assert_eq!(
            sqlite.standings(1).await.expect("standings"),
            pg.standings(1).await.expect("standings")
        );
        assert_eq!(
            sqlite.last_heartbeat().await.expect("beat"),
            pg.last_heartbeat().await.expect("beat")
        );
        assert_eq!(
            sqlite.ladder(1).await.expect("ladder"),
            pg.ladder(1).await.expect("ladder")
        );
        assert_eq!(
            sqlite.unsettled_ladder_matches(1).await.expect("matches"),
            pg.unsettled_ladder_matches(1).await.expect("matches")
        );
        assert_eq!(pg.ladder(1).await.expect("ladder").entries.len(), 2);
        let bob = sqlite
            .find_player(Platform::Discord, "bob")
            .await
            .expect("bob");
        let bob = bob.expect("bob");
        assert_eq!(
            sqlite.running_leave(bob.id, 1).await.expect("leave"),
            pg.running_leave(bob.id, 1).await.expect("leave")
        );
        let dave = sqlite
            .find_player(Platform::Discord, "dave")
            .await
            .expect("dave")
            .expect("dave");
        assert_eq!(
            sqlite.rating(1, dave.id).await.expect("rating"),
            pg.rating(1, dave.id).await.expect("rating")
        );
        assert_eq!(
            sqlite.rating_history(1, dave.id).await.expect("history"),
            pg.rating_history(1, dave.id).await.expect("history")
        );
        // New rows get new ids after the copied ones.
        let new_service = Service::new(pg.clone(), ServiceConfig::default());
        let later = start + Duration::hours(2);
        new_service
            .handle(act("erin", "c", "/challenge @frank", "n1"), later)
            .await;
        new_service
            .handle(act("frank", "c", "/accept", "n2"), later)
            .await;
        assert!(pg.game(3).await.expect("read").is_some());
        // A second copy into a database that has rows is refused.
        let again = copy_sqlite_to_postgres(&sqlite, &pg).await;
        assert!(again.is_err());
    }
}
