//! The PostgreSQL store: the same [`Store`] as SQLite, for several bot
//! processes sharing one database.
//!
//! tokio-postgres with a deadpool pool; every call borrows a connection and
//! runs one statement where it can (a game with its moves and notes is one
//! query; an act's commit is `BEGIN`, one pipelined round trip, `COMMIT`).
//! What several processes share is made safe by the database itself: a
//! game's version is checked in the `UPDATE` that saves it, an act's key is
//! a primary key, and the scheduler claims due games with
//! `FOR UPDATE SKIP LOCKED`. Migrations live in `migrations/postgres/`.

mod import;
mod ladder;
mod rows;
pub mod schema;
pub mod scratch;
mod tournaments;
mod write;

pub use import::Import;

use std::str::FromStr;

use chrono::{DateTime, Datelike, TimeZone, Utc};
use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod};
use serde::Serialize;
use tokio_postgres::NoTls;

use super::DriverError;
use super::{
    ActRequest, ChallengeRow, ChannelGames, ChannelRow, Commit, Committed, DueGame, FinishedGame,
    GameRecord, GameSummary, LeaveRow, MoveRow, OpenedAct, Platform, PlayerRow, RatingPoint,
    RatingRow, Result, ServerDefaults, ServerRow, StandingRow, StorageError, Store,
    to_stored_precision,
};
use crate::core::event::GameResult;
use crate::core::game::{DrawRules, Note, PlayerId};
use crate::core::names::Named;
use rows::{CHALLENGE_COLUMNS, LEAVE_COLUMNS, PLAYER_COLUMNS, SERVER_COLUMNS, SUMMARY_COLUMNS};

/// Connections per process unless the URL's caller asks otherwise.
pub const DEFAULT_POOL_SIZE: usize = 16;

/// A PostgreSQL database (one schema of it: the URL's `search_path`).
#[derive(Clone)]
pub struct PgStore {
    pool: Pool,
}

/// A driver error as a storage error of its kind, the error kept as its source.
pub(crate) fn backend(error: tokio_postgres::Error) -> StorageError {
    let kind = match error.code() {
        Some(code) => kind_of_sqlstate(code.code()),
        // No answer from the server: the connection failed or was lost.
        None if error.is_closed() || io_failure(&error) => StorageError::Unavailable,
        None => StorageError::Driver,
    };
    kind(Box::new(error))
}

/// A failure to get a pooled connection, by its cause.
fn pool_error(error: deadpool_postgres::PoolError) -> StorageError {
    use deadpool_postgres::{PoolError, TimeoutType};
    match error {
        PoolError::Backend(error) => backend(error),
        // Every connection stayed in use longer than the pool waits.
        PoolError::Timeout(TimeoutType::Wait) => StorageError::Busy(Box::new(error)),
        PoolError::Timeout(_) | PoolError::Closed => StorageError::Unavailable(Box::new(error)),
        other => StorageError::Driver(Box::new(other)),
    }
}

/// Whether an I/O error (a refused or broken connection) lies behind `error`.
fn io_failure(error: &tokio_postgres::Error) -> bool {
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        if cause.is::<std::io::Error>() {
            return true;
        }
        source = cause.source();
    }
    false
}

/// Which [`StorageError`] a server's SQLSTATE is. Serialization failures
/// and deadlocks are [`StorageError::Conflict`]: the act is tried again.
fn kind_of_sqlstate(code: &str) -> fn(DriverError) -> StorageError {
    match code {
        "40001" | "40P01" => |_| StorageError::Conflict,
        "53100" => StorageError::DiskFull,
        "25006" => StorageError::ReadOnly,
        "55P03" => StorageError::Busy,
        "XX001" | "XX002" => StorageError::Damaged,
        // admin_shutdown, crash_shutdown, cannot_connect_now, and every
        // connection_exception.
        "57P01" | "57P02" | "57P03" => StorageError::Unavailable,
        _ if code.starts_with("08") => StorageError::Unavailable,
        _ => StorageError::Driver,
    }
}

/// An instant as every store keeps it (to the millisecond, truncated).
fn stored(at: DateTime<Utc>) -> DateTime<Utc> {
    to_stored_precision(at)
}

/// A deadline rounded up to the stored millisecond, so no flag is looked at early.
fn round_up(at: DateTime<Utc>) -> DateTime<Utc> {
    let truncated = to_stored_precision(at);
    if truncated == at {
        at
    } else {
        truncated + chrono::Duration::milliseconds(1)
    }
}

/// A core value (clock, note) as a JSON column.
fn json<T: Serialize>(value: &T) -> Result<serde_json::Value> {
    serde_json::to_value(value).map_err(|e| StorageError::Backend(format!("to JSON: {e}")))
}

impl PgStore {
    /// Connects to `url` (`postgres://user@host:port/db`), brings the
    /// schema up to date and keeps a pool of `pool_size` connections.
    pub async fn connect(url: &str, pool_size: usize) -> Result<PgStore> {
        let config = tokio_postgres::Config::from_str(url)
            .map_err(|e| StorageError::Backend(format!("database URL: {e}")))?;
        PgStore::open(config, pool_size).await
    }

    /// [`PgStore::connect`] with a parsed configuration (tests set the
    /// `search_path` here to give each test its own schema).
    pub async fn open(config: tokio_postgres::Config, pool_size: usize) -> Result<PgStore> {
        let (mut client, connection) = config.connect(NoTls).await.map_err(backend)?;
        let driver = tokio::spawn(connection);
        let migrated = schema::migrate(&mut client).await;
        drop(client);
        // The connection task ends once its client is gone.
        let _ = driver.await;
        migrated?;
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(pool_size.max(1))
            .build()
            .map_err(|e| StorageError::Backend(format!("connection pool: {e}")))?;
        Ok(PgStore { pool })
    }

    /// The schema version recorded in the database.
    pub async fn schema_version(&self) -> Result<usize> {
        let client = self.client().await?;
        schema::version(&client).await
    }

    /// Games whose moves do not add up (see [`check_moves`]), for `pawnpost
    /// check`: PostgreSQL checks its own pages, so this is the whole check.
    ///
    /// [`check_moves`]: crate::storage::check_moves
    pub async fn check_games(&self) -> Result<Vec<String>> {
        let rows = self
            .query(
                "SELECT g.id, g.plies, count(m.ply) FROM games g
                 LEFT JOIN moves m ON m.game_id = g.id
                 GROUP BY g.id
                 HAVING count(m.ply) <> g.plies
                     OR (count(m.ply) > 0 AND (min(m.ply) <> 1 OR max(m.ply) <> g.plies))
                 ORDER BY g.id",
                &[],
            )
            .await?;
        rows.iter()
            .map(|row| {
                let (id, plies, stored): (i64, i32, i64) =
                    (rows::get(row, 0)?, rows::get(row, 1)?, rows::get(row, 2)?);
                Ok(if stored == i64::from(plies) {
                    format!("game {id} moves: {plies} stored, not numbered 1 to {plies}")
                } else {
                    format!("game {id} moves: {plies} counted, {stored} stored")
                })
            })
            .collect()
    }

    async fn client(&self) -> Result<Object> {
        self.pool.get().await.map_err(pool_error)
    }

    /// Runs one prepared query on a pooled connection.
    async fn query(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Vec<tokio_postgres::Row>> {
        let client = self.client().await?;
        let statement = client.prepare_cached(sql).await.map_err(backend)?;
        client.query(&statement, params).await.map_err(backend)
    }

    async fn query_opt(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Option<tokio_postgres::Row>> {
        Ok(self.query(sql, params).await?.into_iter().next())
    }
}

async fn find_server(
    client: &Object,
    platform: Platform,
    platform_id: &str,
) -> Result<Option<ServerRow>> {
    let sql =
        format!("SELECT {SERVER_COLUMNS} FROM servers s WHERE platform = $1 AND platform_id = $2");
    let statement = client.prepare_cached(&sql).await.map_err(backend)?;
    let found = client
        .query_opt(&statement, &[&platform.as_str(), &platform_id])
        .await
        .map_err(backend)?;
    found.map(|row| rows::server(&row, 0)).transpose()
}

async fn ensure_server(
    client: &Object,
    platform: Platform,
    platform_id: &str,
    defaults: &ServerDefaults,
    now: DateTime<Utc>,
) -> Result<ServerRow> {
    if let Some(server) = find_server(client, platform, platform_id).await? {
        return Ok(server);
    }
    let statement = client
        .prepare_cached(
            "INSERT INTO servers (platform, platform_id, language, time_control, created_at)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
        )
        .await
        .map_err(backend)?;
    client
        .execute(
            &statement,
            &[
                &platform.as_str(),
                &platform_id,
                &defaults.language.as_str(),
                &defaults.time_control,
                &stored(now),
            ],
        )
        .await
        .map_err(backend)?;
    find_server(client, platform, platform_id)
        .await?
        .ok_or(StorageError::NotFound("server"))
}

async fn ensure_channel(client: &Object, server_id: i64, platform_id: &str) -> Result<ChannelRow> {
    let statement = client
        .prepare_cached(
            "WITH new AS (
                 INSERT INTO channels (server_id, platform_id) VALUES ($1, $2)
                 ON CONFLICT DO NOTHING RETURNING id
             )
             SELECT id FROM new
             UNION ALL
             SELECT id FROM channels WHERE server_id = $1 AND platform_id = $2",
        )
        .await
        .map_err(backend)?;
    let row = client
        .query(&statement, &[&server_id, &platform_id])
        .await
        .map_err(backend)?
        .into_iter()
        .next()
        .ok_or(StorageError::NotFound("channel"))?;
    Ok(ChannelRow {
        id: row.get(0),
        server_id,
        platform_id: platform_id.to_owned(),
    })
}

async fn ensure_player(
    client: &Object,
    platform: Platform,
    platform_id: &str,
    display_name: &str,
    now: DateTime<Utc>,
) -> Result<PlayerRow> {
    // New players are created and renamed ones get their current name in
    // one statement; a player whose name is current is only read.
    let sql = format!(
        "INSERT INTO players (platform, platform_id, display_name, created_at)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (platform, platform_id) DO UPDATE SET display_name = excluded.display_name
         WHERE players.display_name <> excluded.display_name
         RETURNING {PLAYER_COLUMNS}"
    );
    let statement = client.prepare_cached(&sql).await.map_err(backend)?;
    let written = client
        .query_opt(
            &statement,
            &[
                &platform.as_str(),
                &platform_id,
                &display_name,
                &stored(now),
            ],
        )
        .await
        .map_err(backend)?;
    if let Some(row) = written {
        return rows::player(&row, 0);
    }
    let sql =
        format!("SELECT {PLAYER_COLUMNS} FROM players WHERE platform = $1 AND platform_id = $2");
    let statement = client.prepare_cached(&sql).await.map_err(backend)?;
    let row = client
        .query_one(&statement, &[&platform.as_str(), &platform_id])
        .await
        .map_err(backend)?;
    rows::player(&row, 0)
}

/// The one-query game read: the row, its players and channel, and its moves
/// and notes as arrays, from one snapshot.
const GAME_QUERY: &str = "
    SELECT g.server_id, g.channel_id, g.start_fen, g.time_control, g.rated,
           g.draw_agreement_allowed, g.draw_min_moves, g.status, g.result, g.reason,
           g.pending_offer, g.version, g.created_at, g.ended_at, c.platform_id, g.clock,
           g.remind_at,
           w.id, w.platform, w.platform_id, w.display_name, w.language, w.notify,
           b.id, b.platform, b.platform_id, b.display_name, b.language, b.notify,
           m.plies, m.ucis, m.sans, m.times, m.offers, n.notes, g.plies
    FROM games g
    JOIN channels c ON c.id = g.channel_id
    JOIN players w ON w.id = g.white_id
    JOIN players b ON b.id = g.black_id
    CROSS JOIN LATERAL (
        SELECT array_agg(ply ORDER BY ply) AS plies, array_agg(uci ORDER BY ply) AS ucis,
               array_agg(san ORDER BY ply) AS sans, array_agg(played_at ORDER BY ply) AS times,
               array_agg(draw_offer ORDER BY ply) AS offers
        FROM moves WHERE game_id = g.id
    ) m
    CROSS JOIN LATERAL (
        SELECT array_agg(note ORDER BY seq) AS notes FROM game_notes WHERE game_id = g.id
    ) n
    WHERE g.id = $1";

fn game_record(id: i64, row: &tokio_postgres::Row) -> Result<GameRecord> {
    use rows::get;
    let plies: Vec<i32> = get::<Option<_>>(row, 29)?.unwrap_or_default();
    let ucis: Vec<String> = get::<Option<_>>(row, 30)?.unwrap_or_default();
    let sans: Vec<String> = get::<Option<_>>(row, 31)?.unwrap_or_default();
    let times: Vec<DateTime<Utc>> = get::<Option<_>>(row, 32)?.unwrap_or_default();
    let offers: Vec<bool> = get::<Option<_>>(row, 33)?.unwrap_or_default();
    let moves = plies
        .into_iter()
        .zip(ucis)
        .zip(sans)
        .zip(times)
        .zip(offers)
        .map(|((((ply, uci), san), played_at), draw_offer)| {
            Ok(MoveRow {
                ply: u32::try_from(ply).map_err(|_| rows::corrupt("ply", &ply.to_string()))?,
                uci,
                san,
                played_at,
                draw_offer,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    super::check_moves(id, rows::count(row, 35)?, &moves)?;
    let notes = get::<Option<Vec<serde_json::Value>>>(row, 34)?
        .unwrap_or_default()
        .into_iter()
        .map(|value| rows::from_json::<Note>("note", value))
        .collect::<Result<Vec<_>>>()?;
    let white_player = rows::player(row, 17)?;
    let black_player = rows::player(row, 23)?;
    Ok(GameRecord {
        id,
        server_id: get(row, 0)?,
        channel_id: get(row, 1)?,
        white: white_player.id,
        black: black_player.id,
        white_player,
        black_player,
        channel: get(row, 14)?,
        clock: get::<Option<serde_json::Value>>(row, 15)?
            .map(|value| rows::from_json("clock", value))
            .transpose()?,
        remind_at: get(row, 16)?,
        start_fen: get(row, 2)?,
        time_control: get(row, 3)?,
        rated: get(row, 4)?,
        draw_rules: DrawRules {
            agreement_allowed: get(row, 5)?,
            min_moves_each: rows::count(row, 6)?,
        },
        created_at: get(row, 12)?,
        state: rows::game_state(get(row, 7)?, get(row, 8)?, get(row, 9)?, get(row, 13)?)?,
        pending_offer: get::<Option<&str>>(row, 10)?.map(rows::color).transpose()?,
        version: get(row, 11)?,
        moves,
        notes,
    })
}

/// Game lists: `filter` is the WHERE clause over `g`, with parameters $1 and $2.
async fn summaries(store: &PgStore, filter: &str, a: i64, b: i64) -> Result<Vec<GameSummary>> {
    let sql = format!(
        "SELECT {SUMMARY_COLUMNS}
         FROM games g JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id
         WHERE {filter} ORDER BY g.id DESC"
    );
    store
        .query(&sql, &[&a, &b])
        .await?
        .iter()
        .map(rows::summary)
        .collect()
}

fn due_game(row: &tokio_postgres::Row) -> Result<DueGame> {
    Ok(DueGame {
        id: rows::get(row, 0)?,
        version: rows::get(row, 1)?,
    })
}

impl Store for PgStore {
    async fn ensure_server(
        &self,
        platform: Platform,
        platform_id: &str,
        defaults: &ServerDefaults,
        now: DateTime<Utc>,
    ) -> Result<ServerRow> {
        let client = self.client().await?;
        ensure_server(&client, platform, platform_id, defaults, now).await
    }

    async fn ensure_channel(&self, server_id: i64, platform_id: &str) -> Result<ChannelRow> {
        let client = self.client().await?;
        ensure_channel(&client, server_id, platform_id).await
    }

    async fn ensure_player(
        &self,
        platform: Platform,
        platform_id: &str,
        display_name: &str,
        now: DateTime<Utc>,
    ) -> Result<PlayerRow> {
        let client = self.client().await?;
        ensure_player(&client, platform, platform_id, display_name, now).await
    }

    async fn find_player(
        &self,
        platform: Platform,
        platform_id: &str,
    ) -> Result<Option<PlayerRow>> {
        let sql = format!(
            "SELECT {PLAYER_COLUMNS} FROM players WHERE platform = $1 AND platform_id = $2"
        );
        self.query_opt(&sql, &[&platform.as_str(), &platform_id])
            .await?
            .map(|row| rows::player(&row, 0))
            .transpose()
    }

    async fn player(&self, id: PlayerId) -> Result<Option<PlayerRow>> {
        let sql = format!("SELECT {PLAYER_COLUMNS} FROM players WHERE id = $1");
        self.query_opt(&sql, &[&id.0])
            .await?
            .map(|row| rows::player(&row, 0))
            .transpose()
    }

    async fn server(&self, id: i64) -> Result<Option<ServerRow>> {
        let sql = format!("SELECT {SERVER_COLUMNS} FROM servers s WHERE s.id = $1");
        self.query_opt(&sql, &[&id])
            .await?
            .map(|row| rows::server(&row, 0))
            .transpose()
    }

    async fn open_act(&self, request: ActRequest, now: DateTime<Utc>) -> Result<OpenedAct> {
        let client = self.client().await?;
        // The common case (a known place and player, a new key) in one query.
        let sql = format!(
            "SELECT (SELECT answer FROM processed_acts WHERE act_key = $1), {SERVER_COLUMNS}, c.id,
                    p.id, p.platform, p.platform_id, p.display_name, p.language, p.notify
             FROM (SELECT 1) AS one
             LEFT JOIN servers s ON s.platform = $2 AND s.platform_id = $3
             LEFT JOIN channels c ON c.server_id = s.id AND c.platform_id = $4
             LEFT JOIN players p ON p.platform = $2 AND p.platform_id = $5"
        );
        let statement = client.prepare_cached(&sql).await.map_err(backend)?;
        let platform = request.platform.as_str();
        let row = client
            .query_one(
                &statement,
                &[
                    &request.act_key,
                    &platform,
                    &request.server,
                    &request.channel,
                    &request.user_id,
                ],
            )
            .await
            .map_err(backend)?;
        if let Some(answer) = rows::get::<Option<String>>(&row, 0)? {
            return Ok(OpenedAct::Answered(answer));
        }
        let server = match rows::get::<Option<i64>>(&row, 1)? {
            Some(_) => rows::server(&row, 1)?,
            None => {
                ensure_server(
                    &client,
                    request.platform,
                    &request.server,
                    &request.defaults,
                    now,
                )
                .await?
            }
        };
        let channel = match rows::get::<Option<i64>>(&row, 9)? {
            Some(id) => ChannelRow {
                id,
                server_id: server.id,
                platform_id: request.channel.clone(),
            },
            None => ensure_channel(&client, server.id, &request.channel).await?,
        };
        let known = match rows::get::<Option<i64>>(&row, 10)? {
            Some(_) => Some(rows::player(&row, 10)?),
            None => None,
        };
        let player = match known {
            Some(player) if player.display_name == request.user_name => player,
            _ => {
                ensure_player(
                    &client,
                    request.platform,
                    &request.user_id,
                    &request.user_name,
                    now,
                )
                .await?
            }
        };
        Ok(OpenedAct::New {
            server,
            channel,
            player,
        })
    }

    async fn ongoing_in_channel(&self, channel_id: i64, player: PlayerId) -> Result<ChannelGames> {
        let found = self
            .query(
                "SELECT g.id, g.version, EXISTS (
                     SELECT 1 FROM leaves l
                     WHERE l.server_id = g.server_id AND l.ended_at IS NULL
                       AND l.player_id IN (g.white_id, g.black_id))
                 FROM games g
                 WHERE g.channel_id = $1 AND g.status = 'ongoing'
                   AND (g.white_id = $2 OR g.black_id = $2)
                 LIMIT 2",
                &[&channel_id, &player.0],
            )
            .await?;
        Ok(match found.as_slice() {
            [] => ChannelGames::None,
            [row] => ChannelGames::One {
                id: rows::get(row, 0)?,
                version: rows::get(row, 1)?,
                on_leave: rows::get(row, 2)?,
            },
            _ => {
                let filter = "g.channel_id = $1 AND (g.white_id = $2 OR g.black_id = $2) \
                              AND g.status = 'ongoing'";
                ChannelGames::Several(summaries(self, filter, channel_id, player.0).await?)
            }
        })
    }

    async fn answer_of(&self, act_key: &str) -> Result<Option<String>> {
        self.query_opt(
            "SELECT answer FROM processed_acts WHERE act_key = $1",
            &[&act_key],
        )
        .await?
        .map(|row| rows::get(&row, 0))
        .transpose()
    }

    async fn game(&self, id: i64) -> Result<Option<GameRecord>> {
        self.query_opt(GAME_QUERY, &[&id])
            .await?
            .map(|row| game_record(id, &row))
            .transpose()
    }

    async fn games_in_channel(
        &self,
        channel_id: i64,
        player: PlayerId,
        ongoing_only: bool,
    ) -> Result<Vec<GameSummary>> {
        let filter = if ongoing_only {
            "g.channel_id = $1 AND (g.white_id = $2 OR g.black_id = $2) AND g.status = 'ongoing'"
        } else {
            "g.channel_id = $1 AND (g.white_id = $2 OR g.black_id = $2)"
        };
        summaries(self, filter, channel_id, player.0).await
    }

    async fn ongoing_games_on_server(
        &self,
        server_id: i64,
        player: PlayerId,
    ) -> Result<Vec<GameSummary>> {
        let filter =
            "g.server_id = $1 AND (g.white_id = $2 OR g.black_id = $2) AND g.status = 'ongoing'";
        summaries(self, filter, server_id, player.0).await
    }

    async fn open_challenge_count(&self, challenger: PlayerId, now: DateTime<Utc>) -> Result<u32> {
        let row = self
            .query_opt(
                "SELECT count(*) FROM challenges
                 WHERE challenger_id = $1 AND status = 'open' AND expires_at > $2",
                &[&challenger.0, &stored(now)],
            )
            .await?
            .ok_or(StorageError::NotFound("challenge count"))?;
        rows::count(&row, 0)
    }

    async fn open_challenges(
        &self,
        channel_id: i64,
        now: DateTime<Utc>,
    ) -> Result<Vec<ChallengeRow>> {
        let sql = format!(
            "SELECT {CHALLENGE_COLUMNS} FROM challenges
             WHERE channel_id = $1 AND status = 'open' AND expires_at > $2
             ORDER BY id"
        );
        self.query(&sql, &[&channel_id, &stored(now)])
            .await?
            .iter()
            .map(rows::challenge)
            .collect()
    }

    async fn commit<R, F>(
        &self,
        commit: Commit,
        now: DateTime<Utc>,
        answer: F,
    ) -> Result<(Committed, R)>
    where
        R: Serialize + Send + 'static,
        F: FnOnce(&Committed) -> R + Send + 'static,
    {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(backend)?;
        let written = write::write(&tx, &commit, now, answer).await;
        let refusal = match written {
            Ok(done) => {
                tx.commit().await.map_err(backend)?;
                return Ok(done);
            }
            Err(refusal) => refusal,
        };
        tx.rollback().await.map_err(backend)?;
        // Like SQLite, which looks at the key first: an act already carried
        // out is a duplicate, whatever else it would have run into.
        if let (StorageError::Conflict, Some(key)) = (&refusal, &commit.act_key)
            && self.answer_of(key).await?.is_some()
        {
            return Err(StorageError::DuplicateAct(key.clone()));
        }
        Err(refusal)
    }

    async fn commit_all<R, F>(
        &self,
        batch: Vec<(Commit, F)>,
        now: DateTime<Utc>,
    ) -> Result<Vec<(Committed, R)>>
    where
        R: Serialize + Send + 'static,
        F: FnOnce(&Committed) -> R + Send + 'static,
    {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(backend)?;
        let mut done = Vec::with_capacity(batch.len());
        for (commit, answer) in batch {
            match write::write(&tx, &commit, now, answer).await {
                Ok(one) => done.push(one),
                Err(refusal) => {
                    tx.rollback().await.map_err(backend)?;
                    return Err(refusal);
                }
            }
        }
        // One COMMIT, so one flush of the log, for the whole batch.
        tx.commit().await.map_err(backend)?;
        Ok(done)
    }

    async fn next_wake_up(&self) -> Result<Option<DateTime<Utc>>> {
        let row = self
            .query_opt(
                "SELECT min(wake_at) FROM games WHERE wake_at IS NOT NULL",
                &[],
            )
            .await?;
        Ok(row.map(|row| rows::get(&row, 0)).transpose()?.flatten())
    }

    async fn due_games(&self, now: DateTime<Utc>, limit: usize) -> Result<Vec<DueGame>> {
        self.query(
            "SELECT id, version FROM games
             WHERE wake_at IS NOT NULL AND wake_at <= $1
             ORDER BY wake_at, id LIMIT $2",
            &[&stored(now), &(limit as i64)],
        )
        .await?
        .iter()
        .map(due_game)
        .collect()
    }

    async fn claim_due_games(
        &self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<DueGame>> {
        // SKIP LOCKED: schedulers claiming at the same moment take different
        // games instead of queueing behind each other's row locks.
        self.query(
            "WITH due AS (
                 SELECT id, wake_at FROM games
                 WHERE wake_at IS NOT NULL AND wake_at <= $1
                 ORDER BY wake_at, id LIMIT $3
                 FOR UPDATE SKIP LOCKED
             ), claimed AS (
                 UPDATE games g SET wake_at = $2 FROM due WHERE g.id = due.id
                 RETURNING g.id, g.version, due.wake_at AS was
             )
             SELECT id, version FROM claimed ORDER BY was, id",
            &[&stored(now), &round_up(lease_until), &(limit as i64)],
        )
        .await?
        .iter()
        .map(due_game)
        .collect()
    }

    async fn running_leave(&self, player: PlayerId, server_id: i64) -> Result<Option<LeaveRow>> {
        let sql = format!(
            "SELECT {LEAVE_COLUMNS} FROM leaves
             WHERE player_id = $1 AND server_id = $2 AND ended_at IS NULL"
        );
        self.query_opt(&sql, &[&player.0, &server_id])
            .await?
            .map(|row| rows::leave(&row))
            .transpose()
    }

    async fn running_leaves(
        &self,
        server_id: i64,
        players: [PlayerId; 2],
    ) -> Result<Vec<LeaveRow>> {
        let sql = format!(
            "SELECT {LEAVE_COLUMNS} FROM leaves
             WHERE server_id = $1 AND player_id IN ($2, $3) AND ended_at IS NULL"
        );
        self.query(&sql, &[&server_id, &players[0].0, &players[1].0])
            .await?
            .iter()
            .map(rows::leave)
            .collect()
    }

    async fn leave_days_in_year(&self, player: PlayerId, server_id: i64, year: i32) -> Result<u32> {
        let start = |year: i32| {
            Utc.with_ymd_and_hms(year, 1, 1, 0, 0, 0)
                .single()
                .ok_or_else(|| StorageError::Backend(format!("year {year} out of range")))
        };
        let (from, to) = (start(year)?, start(year + 1)?);
        debug_assert_eq!(from.year(), year);
        let row = self
            .query_opt(
                "SELECT coalesce(sum(days), 0) FROM leaves
                 WHERE player_id = $1 AND server_id = $2 AND starts_at >= $3 AND starts_at < $4",
                &[&player.0, &server_id, &from, &to],
            )
            .await?
            .ok_or(StorageError::NotFound("leave days"))?;
        rows::count(&row, 0)
    }

    async fn due_leave_ends(&self, now: DateTime<Utc>, limit: usize) -> Result<Vec<LeaveRow>> {
        let sql = format!(
            "SELECT {LEAVE_COLUMNS} FROM leaves
             WHERE ended_at IS NULL AND ends_at <= $1 ORDER BY ends_at, id LIMIT $2"
        );
        self.query(&sql, &[&stored(now), &(limit as i64)])
            .await?
            .iter()
            .map(rows::leave)
            .collect()
    }

    async fn next_leave_end(&self) -> Result<Option<DateTime<Utc>>> {
        let row = self
            .query_opt(
                "SELECT min(ends_at) FROM leaves WHERE ended_at IS NULL",
                &[],
            )
            .await?;
        Ok(row.map(|row| rows::get(&row, 0)).transpose()?.flatten())
    }

    async fn clocked_games(&self, after_id: i64, limit: usize) -> Result<Vec<DueGame>> {
        self.query(
            "SELECT id, version FROM games
             WHERE id > $1 AND status = 'ongoing' AND deadline IS NOT NULL
             ORDER BY id LIMIT $2",
            &[&after_id, &(limit as i64)],
        )
        .await?
        .iter()
        .map(due_game)
        .collect()
    }

    async fn last_heartbeat(&self) -> Result<Option<DateTime<Utc>>> {
        self.query_opt("SELECT at FROM heartbeat WHERE id = 1", &[])
            .await?
            .map(|row| rows::get(&row, 0))
            .transpose()
    }

    async fn beat(&self, now: DateTime<Utc>) -> Result<()> {
        self.query(
            "INSERT INTO heartbeat (id, at) VALUES (1, $1)
             ON CONFLICT (id) DO UPDATE SET at = excluded.at",
            &[&stored(now)],
        )
        .await
        .map(|_| ())
    }

    async fn standings(&self, server_id: i64) -> Result<Vec<StandingRow>> {
        // Names sort bytewise (COLLATE "C"), as SQLite does.
        let rows = self
            .query(
                "WITH sides AS (
                     SELECT white_id AS player,
                            CASE result WHEN '1-0' THEN 2 WHEN '1/2-1/2' THEN 1 ELSE 0 END AS half
                     FROM games
                     WHERE server_id = $1 AND status = 'over' AND result IN ('1-0', '0-1', '1/2-1/2')
                     UNION ALL
                     SELECT black_id,
                            CASE result WHEN '0-1' THEN 2 WHEN '1/2-1/2' THEN 1 ELSE 0 END
                     FROM games
                     WHERE server_id = $1 AND status = 'over' AND result IN ('1-0', '0-1', '1/2-1/2')
                 )
                 SELECT s.player, p.display_name, count(*),
                        count(*) FILTER (WHERE s.half = 2), count(*) FILTER (WHERE s.half = 1),
                        count(*) FILTER (WHERE s.half = 0), sum(s.half)
                 FROM sides s JOIN players p ON p.id = s.player
                 GROUP BY s.player, p.display_name
                 ORDER BY sum(s.half) DESC, count(*) FILTER (WHERE s.half = 2) DESC,
                          p.display_name COLLATE \"C\" ASC",
                &[&server_id],
            )
            .await?;
        rows.iter()
            .map(|row| {
                Ok(StandingRow {
                    player: PlayerId(rows::get(row, 0)?),
                    name: rows::get(row, 1)?,
                    played: rows::count(row, 2)?,
                    won: rows::count(row, 3)?,
                    drawn: rows::count(row, 4)?,
                    lost: rows::count(row, 5)?,
                    half_points: rows::count(row, 6)?,
                })
            })
            .collect()
    }

    async fn finished_games(&self, server_id: i64) -> Result<Vec<FinishedGame>> {
        self.query(
            "SELECT id, white_id, black_id, result, ended_at FROM games
             WHERE server_id = $1 AND status = 'over'
               AND result IN ('1-0', '0-1', '1/2-1/2')
             ORDER BY ended_at, id",
            &[&server_id],
        )
        .await?
        .iter()
        .map(|row| {
            let result: String = rows::get(row, 3)?;
            Ok(FinishedGame {
                id: rows::get(row, 0)?,
                white: PlayerId(rows::get(row, 1)?),
                black: PlayerId(rows::get(row, 2)?),
                result: GameResult::from_pgn(&result)
                    .ok_or_else(|| rows::corrupt("result", &result))?,
                ended_at: rows::get(row, 4)?,
            })
        })
        .collect()
    }

    async fn rating(&self, server_id: i64, player: PlayerId) -> Result<Option<RatingRow>> {
        self.query_opt(
            "SELECT rating, deviation, volatility, games, rated_at FROM ratings
             WHERE server_id = $1 AND player_id = $2",
            &[&server_id, &player.0],
        )
        .await?
        .map(|row| {
            Ok(RatingRow {
                server_id,
                player,
                rating: rows::get(&row, 0)?,
                deviation: rows::get(&row, 1)?,
                volatility: rows::get(&row, 2)?,
                games: rows::count(&row, 3)?,
                rated_at: rows::get(&row, 4)?,
            })
        })
        .transpose()
    }

    async fn rating_history(&self, server_id: i64, player: PlayerId) -> Result<Vec<RatingPoint>> {
        self.query(
            "SELECT game_id, rating, deviation, at FROM rating_history
             WHERE server_id = $1 AND player_id = $2 ORDER BY id",
            &[&server_id, &player.0],
        )
        .await?
        .iter()
        .map(|row| {
            Ok(RatingPoint {
                game_id: rows::get(row, 0)?,
                rating: rows::get(row, 1)?,
                deviation: rows::get(row, 2)?,
                at: rows::get(row, 3)?,
            })
        })
        .collect()
    }

    async fn ladder(&self, server_id: i64) -> Result<super::LadderRow> {
        self.read_ladder(server_id).await
    }

    async fn unsettled_ladder_matches(&self, server_id: i64) -> Result<Vec<super::LadderMatchRow>> {
        self.read_unsettled_ladder_matches(server_id).await
    }

    async fn ladder_match_of_challenge(
        &self,
        challenge_id: i64,
    ) -> Result<Option<super::LadderMatchRow>> {
        self.read_ladder_match(ladder::LadderMatchKey::Challenge, challenge_id)
            .await
    }

    async fn ladder_match_of_game(&self, game_id: i64) -> Result<Option<super::LadderMatchRow>> {
        self.read_ladder_match(ladder::LadderMatchKey::Game, game_id)
            .await
    }

    async fn due_ladder_forfeits(
        &self,
        now: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<super::LadderMatchRow>> {
        self.read_due_ladder_forfeits(now, limit).await
    }

    async fn idle_ladder_rungs(
        &self,
        active_before: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<super::IdleRung>> {
        self.read_idle_ladder_rungs(active_before, limit).await
    }

    async fn next_ladder_deadline(
        &self,
        inactive_after: Option<chrono::Duration>,
    ) -> Result<Option<DateTime<Utc>>> {
        self.read_next_ladder_deadline(inactive_after).await
    }

    async fn tournament(&self, id: i64) -> Result<Option<super::TournamentRow>> {
        let sql = format!(
            "SELECT {} FROM tournaments t JOIN channels c ON c.id = t.channel_id
             WHERE t.id = $1",
            tournaments::TOURNAMENT_COLUMNS
        );
        self.query_opt(&sql, &[&id])
            .await?
            .map(|row| tournaments::tournament(&row))
            .transpose()
    }

    async fn tournaments_in_channel(&self, channel_id: i64) -> Result<Vec<super::TournamentRow>> {
        let sql = format!(
            "SELECT {} FROM tournaments t JOIN channels c ON c.id = t.channel_id
             WHERE t.channel_id = $1 ORDER BY t.id DESC",
            tournaments::TOURNAMENT_COLUMNS
        );
        self.query(&sql, &[&channel_id])
            .await?
            .iter()
            .map(tournaments::tournament)
            .collect()
    }

    async fn tournament_entrants(&self, tournament_id: i64) -> Result<Vec<super::EntrantRow>> {
        let sql = format!(
            "SELECT {} FROM tournament_entrants e JOIN players p ON p.id = e.player_id
             WHERE e.tournament_id = $1 ORDER BY e.joined_at, e.player_id",
            tournaments::ENTRANT_COLUMNS
        );
        self.query(&sql, &[&tournament_id])
            .await?
            .iter()
            .map(tournaments::entrant)
            .collect()
    }

    async fn tournament_pairings(&self, tournament_id: i64) -> Result<Vec<super::PairingRow>> {
        let sql = format!(
            "SELECT {} FROM tournament_games t LEFT JOIN games g ON g.id = t.game_id
             WHERE t.tournament_id = $1 ORDER BY t.round, t.board, t.id",
            tournaments::PAIRING_COLUMNS
        );
        self.query(&sql, &[&tournament_id])
            .await?
            .iter()
            .map(tournaments::pairing)
            .collect()
    }

    async fn tournament_of_game(&self, game_id: i64) -> Result<Option<i64>> {
        self.query_opt(
            "SELECT tournament_id FROM tournament_games WHERE game_id = $1",
            &[&game_id],
        )
        .await?
        .map(|row| rows::get(&row, 0))
        .transpose()
    }

    async fn due_tournaments(
        &self,
        now: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<super::DueTournament>> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.query(
            "SELECT id, version FROM tournaments
             WHERE state = 'entry' AND entry_closes_at IS NOT NULL AND entry_closes_at <= $1
             ORDER BY entry_closes_at, id LIMIT $2",
            &[&stored(now), &limit],
        )
        .await?
        .iter()
        .map(|row| {
            Ok(super::DueTournament {
                id: rows::get(row, 0)?,
                version: rows::get(row, 1)?,
            })
        })
        .collect()
    }

    async fn next_tournament_start(&self) -> Result<Option<DateTime<Utc>>> {
        let row = self
            .query_opt(
                "SELECT min(entry_closes_at) FROM tournaments
                 WHERE state = 'entry' AND entry_closes_at IS NOT NULL",
                &[],
            )
            .await?;
        match row {
            Some(row) => rows::get(&row, 0),
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::scratch::{ScratchSchema, test_url};
    use super::*;
    use crate::storage::suite::store_suite;

    async fn fresh() -> Option<(ScratchSchema, PgStore)> {
        let url = test_url()?;
        let schema = ScratchSchema::create(&url, "suite").await.expect("schema");
        let store = schema.store(4).await.expect("open");
        Some((schema, store))
    }

    #[tokio::test]
    async fn batches_are_committed_whole() {
        let Some((_schema, store)) = fresh().await else {
            return;
        };
        crate::storage::suite::batches_are_committed_whole(&store).await;
    }

    store_suite!(optional async fresh);

    const TABLES: [&str; 19] = [
        "challenges",
        "channels",
        "game_notes",
        "games",
        "heartbeat",
        "ladder_matches",
        "ladder_rungs",
        "ladders",
        "leaves",
        "moves",
        "players",
        "processed_acts",
        "rating_history",
        "ratings",
        "schema_migrations",
        "servers",
        "tournament_entrants",
        "tournament_games",
        "tournaments",
    ];

    #[test]
    fn migrations_are_numbered_in_order() {
        for (index, (name, sql)) in schema::MIGRATIONS.iter().enumerate() {
            assert!(
                name.starts_with(&format!("{:04}_", index + 1)),
                "{name} is not migration {}",
                index + 1
            );
            assert!(!sql.trim().is_empty(), "{name} is empty");
        }
    }

    #[tokio::test]
    async fn every_table_and_column_is_commented() {
        let Some((schema, store)) = fresh().await else {
            return;
        };
        assert_eq!(
            store.schema_version().await.expect("version"),
            schema::MIGRATIONS.len()
        );
        let tables: Vec<String> = store
            .query(
                "SELECT table_name::text FROM information_schema.tables
                 WHERE table_schema = current_schema() ORDER BY 1",
                &[],
            )
            .await
            .expect("tables")
            .iter()
            .map(|r| r.get(0))
            .collect();
        assert_eq!(tables, TABLES);
        let uncommented: Vec<String> = store
            .query(
                "SELECT c.relname || coalesce('.' || a.attname, '')
                 FROM pg_class c
                 JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
                 LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0
                                          AND NOT a.attisdropped
                 WHERE c.relkind = 'r'
                   AND col_description(c.oid, coalesce(a.attnum, 0)) IS NULL
                   AND (a.attnum IS NOT NULL OR obj_description(c.oid, 'pg_class') IS NULL)
                 ORDER BY 1",
                &[],
            )
            .await
            .expect("comments")
            .iter()
            .map(|r| r.get(0))
            .collect();
        assert!(uncommented.is_empty(), "no comment: {uncommented:?}");
        drop(schema);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn processes_starting_together_migrate_once() {
        let Some(url) = test_url() else { return };
        let schema = ScratchSchema::create(&url, "race").await.expect("schema");
        let config = schema.config().expect("config");
        let opens = (0..4).map(|_| PgStore::open(config.clone(), 1));
        let stores = futures_join_all(opens).await;
        for store in &stores {
            let store = store.as_ref().expect("open");
            assert_eq!(
                store.schema_version().await.expect("version"),
                schema::MIGRATIONS.len()
            );
        }
        let applied = stores[0]
            .as_ref()
            .expect("open")
            .query("SELECT count(*) FROM schema_migrations", &[])
            .await
            .expect("count");
        assert_eq!(applied[0].get::<_, i64>(0), schema::MIGRATIONS.len() as i64);
        // Opening again applies nothing (0001 has plain CREATE TABLEs).
        schema.store(1).await.expect("reopen");
    }

    #[tokio::test]
    async fn a_newer_database_is_refused() {
        let Some(url) = test_url() else { return };
        let schema = ScratchSchema::create(&url, "newer").await.expect("schema");
        let store = schema.store(1).await.expect("open");
        store
            .query(
                "INSERT INTO schema_migrations (version, name) VALUES (99, '0099_future')",
                &[],
            )
            .await
            .expect("from the future");
        let opened = schema.store(1).await;
        assert!(
            matches!(opened, Err(StorageError::Migration { version: 99, .. })),
            "{:?}",
            opened.err().map(|e| e.to_string())
        );
    }

    #[tokio::test]
    async fn a_game_whose_moves_do_not_add_up_is_refused() {
        use crate::storage::{GameState, GameUpdate, NewGame, ServerDefaults};
        let Some((_schema, store)) = fresh().await else {
            return;
        };
        let now = Utc.with_ymd_and_hms(2026, 2, 1, 8, 0, 0).unwrap();
        let defaults = ServerDefaults {
            language: crate::core::notation::Lang::En,
            time_control: "3d".to_owned(),
        };
        let server = store
            .ensure_server(Platform::Console, "club", &defaults, now)
            .await
            .expect("server");
        let channel = store
            .ensure_channel(server.id, "main")
            .await
            .expect("channel");
        let alice = store
            .ensure_player(Platform::Console, "alice", "alice", now)
            .await
            .expect("alice");
        let bob = store
            .ensure_player(Platform::Console, "bob", "bob", now)
            .await
            .expect("bob");
        let new_game = NewGame {
            server_id: server.id,
            channel_id: channel.id,
            white: alice.id,
            black: bob.id,
            start_fen: None,
            time_control: "3d".to_owned(),
            rated: false,
            draw_rules: DrawRules::default(),
            turn: shakmaty::Color::White,
            challenge_id: None,
            clock: None,
            remind_at: None,
        };
        let created = Commit {
            new_game: Some(new_game),
            ..Commit::default()
        };
        let (committed, ()) = store.commit(created, now, |_| ()).await.expect("game");
        let id = committed.game_id.expect("id");
        let moves = ["e2e4", "e7e5", "g1f3"]
            .iter()
            .zip(1..)
            .map(|(uci, ply)| MoveRow {
                ply,
                uci: (*uci).to_owned(),
                san: (*uci).to_owned(),
                played_at: now,
                draw_offer: false,
            });
        let update = GameUpdate {
            id,
            expected_version: 0,
            new_moves: moves.collect(),
            new_notes: Vec::new(),
            state: GameState::Ongoing,
            pending_offer: None,
            turn: shakmaty::Color::Black,
            clock: None,
            remind_at: None,
        };
        let played = Commit {
            game_updates: vec![update],
            ..Commit::default()
        };
        store.commit(played, now, |_| ()).await.expect("moves");
        assert_eq!(
            store
                .game(id)
                .await
                .expect("read")
                .expect("game")
                .moves
                .len(),
            3
        );
        assert!(store.check_games().await.expect("check").is_empty());

        store
            .query("DELETE FROM moves WHERE game_id = $1 AND ply = 2", &[&id])
            .await
            .expect("lose a row");
        let loaded = store.game(id).await;
        assert!(
            matches!(&loaded, Err(StorageError::Corrupt(m)) if m.contains("moves: 3 counted, 2 stored")),
            "{loaded:?}"
        );
        assert_eq!(
            store.check_games().await.expect("check"),
            [format!("game {id} moves: 3 counted, 2 stored")]
        );
        store
            .query(
                "UPDATE moves SET ply = 2 WHERE game_id = $1 AND ply = 3",
                &[&id],
            )
            .await
            .expect("renumber");
        store
            .query("INSERT INTO moves SELECT game_id, 5, uci, san, played_at, draw_offer FROM moves WHERE game_id = $1 AND ply = 1", &[&id])
            .await
            .expect("misplace");
        let loaded = store.game(id).await;
        assert!(
            matches!(loaded, Err(StorageError::Corrupt(_))),
            "{loaded:?}"
        );
        assert_eq!(
            store.check_games().await.expect("check"),
            [format!("game {id} moves: 3 stored, not numbered 1 to 3")]
        );
    }

    /// Runs the futures together, as processes starting at once would.
    async fn futures_join_all<F: std::future::Future + Send + 'static>(
        futures: impl Iterator<Item = F>,
    ) -> Vec<F::Output>
    where
        F::Output: Send + 'static,
    {
        let tasks: Vec<_> = futures.map(tokio::spawn).collect();
        let mut outputs = Vec::new();
        for task in tasks {
            outputs.push(task.await.expect("task"));
        }
        outputs
    }

    #[tokio::test]
    async fn a_read_only_server_refuses_writes_as_read_only() {
        let Some((schema, _migrated)) = fresh().await else {
            return;
        };
        // Every transaction of these connections is read-only, as on a standby.
        let mut config = schema.config().expect("config");
        config.options(format!(
            "-c search_path={} -c default_transaction_read_only=on",
            schema.name()
        ));
        let manager = Manager::from_config(config, NoTls, ManagerConfig::default());
        let store = PgStore {
            pool: Pool::builder(manager).max_size(1).build().expect("pool"),
        };
        let written = store
            .ensure_player(Platform::Console, "carol", "Carol", Utc::now())
            .await;
        let Err(StorageError::ReadOnly(source)) = written else {
            panic!("{written:?}");
        };
        let driver = source
            .downcast_ref::<tokio_postgres::Error>()
            .expect("the driver's error");
        assert_eq!(
            driver.code(),
            Some(&tokio_postgres::error::SqlState::READ_ONLY_SQL_TRANSACTION)
        );
    }

    /// Each SQLSTATE the store tells apart, and the failure it becomes.
    #[test]
    fn sqlstates_map_to_their_kind() {
        let table = [
            ("53100", "disk-full"),
            ("25006", "read-only"),
            ("55P03", "busy"),
            ("40001", "conflict"),
            ("40P01", "conflict"),
            ("XX001", "damaged"),
            ("XX002", "damaged"),
            ("57P01", "unavailable"),
            ("57P02", "unavailable"),
            ("57P03", "unavailable"),
            ("08000", "unavailable"),
            ("08006", "unavailable"),
            ("23503", "driver"),
            ("23505", "driver"),
            ("42P01", "driver"),
        ];
        for (code, kind) in table {
            let error = kind_of_sqlstate(code)(Box::new(std::io::Error::other(code)));
            assert_eq!(error.kind(), kind, "{code}");
            if kind != "conflict" {
                let source = std::error::Error::source(&error).expect("a source");
                assert_eq!(source.to_string(), code);
            }
        }
    }
}
