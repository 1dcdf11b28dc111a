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
use super::sql::{Conn, Row, Value};
use super::sqlite::SqliteStore;
use super::{Result, StorageError};

/// One table to copy: its columns, the first `key` of which order its rows.
#[derive(Debug)]
pub struct Table {
    pub name: &'static str,
    /// The columns, comma-separated, in the order rows travel in.
    pub columns: &'static str,
    pub key: usize,
    /// Whether `id` comes from an identity sequence to move past the copied ids.
    pub identity: bool,
}

const fn table(name: &'static str, key: usize, identity: bool, columns: &'static str) -> Table {
    Table {
        name,
        columns,
        key,
        identity,
    }
}

impl Table {
    pub fn column_list(&self) -> &'static str {
        self.columns
    }

    pub fn width(&self) -> usize {
        self.columns.split(',').count()
    }

    pub fn key_list(&self) -> String {
        self.columns
            .split(", ")
            .take(self.key)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Every table of the schema, parents before children.
#[rustfmt::skip]
pub const TABLES: &[Table] = &[
    table("servers", 1, true, "id, platform, platform_id, language, time_control, \
                 draw_agreement_allowed, draw_min_moves, moderator_role, created_at, \
                 absent_since, chosen_language, web_pages"),
    table("channels", 1, true, "id, server_id, platform_id, gone_since"),
    table("players", 1, true, "id, platform, platform_id, display_name, language, notify, \
                 created_at, client_language, notation, notation_letters, notation_question, \
                 person_id, time_zone, digest_minute, digest_next, digest_last"),
    table("challenges", 1, true, "id, server_id, channel_id, challenger_id, challenged_id, color, \
                 time_control, rated, start_fen, status, game_id, created_at, \
                 expires_at, variant, start_moves, votes_changeable"),
    table("games", 1, true, "id, server_id, channel_id, white_id, black_id, start_fen, \
                 time_control, rated, draw_agreement_allowed, draw_min_moves, \
                 status, result, reason, turn, plies, pending_offer, version, \
                 challenge_id, created_at, ended_at, clock, deadline, remind_at, \
                 wake_at, conditionals, variant"),
    table("moves", 2, false, "game_id, ply, uci, san, played_at, draw_offer"),
    table("game_notes", 2, false, "game_id, seq, note"),
    table("private_notes", 1, true, "id, game_id, player_id, ply, written_at, text"),
    table("acts", 1, true, "id, act_key, processed_at, answer, platform, server_id, next_item, \
                 next_part, attempts, failures, last_error, due_at, held_until"),
    table("held_acts_done", 1, false, "id, through"),
    table("heartbeat", 1, false, "id, at"),
    table("leaves", 1, true, "id, player_id, server_id, starts_at, ends_at, ended_at, days"),
    table("ratings", 3, false, "server_id, player_id, pool, rating, deviation, volatility, \
                 games, rated_at"),
    table("rating_history", 1, true, "id, server_id, player_id, game_id, rating, deviation, at, \
                 pool"),
    table("ladders", 1, false, "server_id, version"),
    table("ladder_rungs", 2, false, "server_id, player_id, place, active_at"),
    table("ladder_matches", 1, true, "id, server_id, challenge_id, game_id, challenger_id, defender_id, \
                 status, accept_by, created_at"),
    table("tournaments", 1, true, "id, server_id, channel_id, name, system, time_control, rated, \
                 rounds, bye_half_points, max_players, entry_closes_at, state, \
                 round, created_by, created_at, version, tiebreaks, reviews_after_round"),
    table("tournament_entrants", 2, false, "tournament_id, player_id, joined_at, seed, withdrawn_at, \
                 channel_id"),
    table("tournament_games", 1, true, "id, tournament_id, round, board, white_id, black_id, game_id, \
                 score"),
    table("reviews", 1, false, "game_id, engine, nodes, evals, reviewed_at"),
    table("puzzles", 1, true, "id, server_id, game_id, ply, fen, solution"),
    table("puzzle_attempts", 2, false, "puzzle_id, player_id, given_at, solved, answered_at"),
    table("teams", 1, true, "id, server_id, name, name_key, player_id, created_by, created_at"),
    table("team_members", 2, false, "team_id, player_id, joined_at"),
    table("votes", 3, false, "game_id, ply, player_id, choice, offers_draw, voted_at, seq"),
    table("team_matches", 1, true, "id, home_server_id, home_channel_id, home_team_id, \
                 away_server_id, away_channel_id, away_team_id, boards, time_control, state, \
                 created_by, created_at, started_at, ended_at, version"),
    table("match_players", 2, false, "match_id, player_id, side, joined_at, seq, withdrawn_at"),
    table("match_games", 1, false, "game_id, match_id, board"),
    // Leases end by themselves: copied only so that every table is.
    table("engine_slots", 1, false, "slot, holder, leased_until"),
    table("game_links", 1, false, "game_id, token"),
    table("link_codes", 1, false, "code_hash, player_id, created_at, expires_at, used_at, used_by"),
    table("link_attempts", 1, true, "id, player_id, at"),
    table("clubs", 1, true, "id, founded_by, created_at"),
    table("club_servers", 2, false, "club_id, server_id, state, invited_at, joined_at"),
    table("game_places", 2, false, "game_id, player_id, server_id, channel_id"),
];

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
            let rows = from.export_page(table, after.as_deref(), PAGE).await?;
            let Some(last) = rows.last() else { break };
            after = Some(last.0[..table.key].to_vec());
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

/// Up to `limit` rows of `table` after the key `after`, in key order, its
/// columns in [`Table::columns`] order.
pub async fn export_page(
    c: &impl Conn,
    table: &Table,
    after: Option<&[Value]>,
    limit: usize,
) -> Result<Vec<Row>> {
    let keys = table.key_list();
    let filter = match after {
        Some(_) => {
            let marks: Vec<String> = (1..=table.key).map(|i| format!("?{i}")).collect();
            format!("WHERE ({keys}) > ({})", marks.join(", "))
        }
        None => String::new(),
    };
    let sql = format!(
        "SELECT {} FROM {} {filter} ORDER BY {keys} LIMIT {limit}",
        table.column_list(),
        table.name
    );
    c.query(&sql, after.unwrap_or_default()).await
}

/// How many rows `table` holds.
pub async fn count_rows(c: &impl Conn, table: &Table) -> Result<u64> {
    let sql = format!("SELECT count(*) FROM {}", table.name);
    let count = c.query_one(&sql, &[]).await?.int(0)?;
    u64::try_from(count).map_err(|_| StorageError::Corrupt(format!("{} rows", table.name)))
}

/// Inserts `rows` (in `table`'s column order, as [`export_page`] reads
/// them from SQLite) in one statement; each value is converted to its
/// column's type as it is bound (see [`Value`]).
pub async fn insert_rows(c: &impl Conn, table: &Table, rows: &[Row]) -> Result<()> {
    if rows.is_empty() {
        return Ok(());
    }
    let width = table.width();
    let mut params = Vec::with_capacity(rows.len() * width);
    let mut tuples = Vec::with_capacity(rows.len());
    for row in rows {
        if row.0.len() != width {
            return Err(StorageError::Corrupt(format!("a row of {}", table.name)));
        }
        let marks: Vec<String> = (0..width)
            .map(|i| format!("?{}", params.len() + i + 1))
            .collect();
        tuples.push(format!("({})", marks.join(", ")));
        params.extend(row.0.iter().cloned());
    }
    let sql = format!(
        "INSERT INTO {} ({}) VALUES {}",
        table.name,
        table.column_list(),
        tuples.join(", ")
    );
    c.execute(&sql, &params).await.map(|_| ())
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, TimeZone, Utc};

    use super::*;
    use crate::core::platform::Platform;
    use crate::core::variant::Variant;
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
            ("bob", "a", "/if Nf3 Nc6"),
            ("alice", "a", "/note watch the e-file"),
            ("erin", "d", "/challenge @frank pgn:\"1. d4 d5\""),
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
        service
            .store()
            .beat(start + Duration::hours(1))
            .await
            .expect("beat");

        let schema = ScratchSchema::create(&url, "copy").await.expect("schema");
        let pg = schema.store(2).await.expect("open");
        let copied = copy_sqlite_to_postgres(&sqlite, &pg).await.expect("copy");
        assert_eq!(copied.len(), TABLES.len());
        let (sqlite, pg) = (Store::from(sqlite), Store::from(pg));
        // Both stores read the same from the copied rows.
        macro_rules! same {
            ($($read:tt)+) => {
                assert_eq!(
                    sqlite.$($read)+.await.expect("sqlite"),
                    pg.$($read)+.await.expect("pg"),
                    stringify!($($read)+)
                )
            };
        }
        let filled = "servers players games moves game_notes private_notes leaves ratings \
             rating_history ladders ladder_rungs ladder_matches tournaments \
             tournament_entrants tournament_games";
        for table in filled.split_whitespace() {
            let rows = copied.iter().find(|c| c.table == table).expect(table);
            assert!(rows.target > 0, "{table} copied empty");
        }
        let lines = sqlite.game(1).await.expect("sqlite").expect("game");
        assert!(!lines.conditionals.is_empty(), "bob's line is stored");
        for id in 1..=2 {
            let old = sqlite.game(id).await.expect("sqlite").expect("game");
            assert_eq!(Some(old), pg.game(id).await.expect("pg"), "game {id}");
        }
        same!(answer_of("k3"));
        let answer = pg.answer_of("k3").await.expect("pg");
        assert!(answer.is_some(), "an act's answer is copied");
        same!(standings(1));
        // No act was answered: held in its row on SQLite, due once its hold
        // is over on PostgreSQL, which reads no hold from a row.
        let first_hold = start + ServiceConfig::default().notice_handoff;
        assert_eq!(
            sqlite
                .next_notice_due(Platform::Discord)
                .await
                .expect("due"),
            None
        );
        assert_eq!(
            pg.next_notice_due(Platform::Discord).await.expect("due"),
            Some(first_hold)
        );
        same!(last_heartbeat());
        same!(ladder(1));
        same!(unsettled_ladder_matches(1));
        assert_eq!(pg.ladder(1).await.expect("ladder").entries.len(), 2);
        let find = async |name| {
            let found = sqlite.find_player(Platform::Discord, name).await;
            found.expect("read").expect(name).id
        };
        let (bob, dave) = (find("bob").await, find("dave").await);
        same!(running_leave(bob, 1));
        same!(rating(1, dave, Variant::Standard));
        same!(rating_history(1, dave, Variant::Standard));
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
        let again = copy_sqlite_to_postgres(sqlite.sqlite(), pg.postgres()).await;
        assert!(again.is_err());
    }
}
