//! Tournaments read: one or a channel's, their entrants and pairings (with
//! each paired game's state), and those whose entry has closed. Their
//! changes are written inside a commit.

use crate::core::names::Named;
use crate::core::tournament::tie_breaks_from_text;
use chrono::{DateTime, Utc};

use super::rows::game_state;
use crate::core::game::PlayerId;
use crate::core::notation::Lang;
use crate::core::platform::Platform;
use crate::storage::sql::{Conn, Row, params};
use crate::storage::{
    DueTournament, EntrantPlace, EntrantRow, PairingRow, PairingScore, Result, TournamentRow,
    TournamentState, TournamentSystem,
};

/// Tournament columns over `t`, with its channel (`c`), read by [`tournament_row`].
const TOURNAMENT_COLUMNS: &str = "t.id, t.server_id, t.channel_id, c.platform_id, t.name, \
     t.system, t.time_control, t.rated, t.rounds, t.bye_half_points, t.max_players, \
     t.entry_closes_at, t.state, t.round, t.created_by, t.created_at, t.version, t.tiebreaks, \
     sv.platform";

/// The tournaments with their channel and server.
const TOURNAMENT_TABLES: &str =
    "tournaments t JOIN channels c ON c.id = t.channel_id JOIN servers sv ON sv.id = t.server_id";

/// Entrant columns over `e`, with the player (`p`), read by [`entrant`].
const ENTRANT_COLUMNS: &str = "e.player_id, p.display_name, p.platform_id, e.joined_at, e.seed, e.withdrawn_at, \
     COALESCE(p.language, p.client_language), ch.id, ch.platform_id, ch.server_id, s.platform";

/// The tables [`ENTRANT_COLUMNS`] reads: entrants `e`, their players `p`,
/// and the channel (`ch`) and server (`s`) they play from, if elsewhere.
const ENTRANT_TABLES: &str = "tournament_entrants e JOIN players p ON p.id = e.player_id
     LEFT JOIN channels ch ON ch.id = e.channel_id LEFT JOIN servers s ON s.id = ch.server_id";

/// Pairing columns over `t` (tournament_games), with its game (`g`, absent
/// for a bye), read by [`pairing`].
const PAIRING_COLUMNS: &str = "t.id, t.round, t.board, t.white_id, t.black_id, t.game_id, \
     t.score, g.status, g.result, g.reason, g.ended_at";

/// A nullable count (rounds, a seed).
fn opt_count(row: &Row, index: usize) -> Result<Option<u32>> {
    match row.opt_int(index)? {
        None => Ok(None),
        Some(_) => row.count(index).map(Some),
    }
}

/// A tournament from [`TOURNAMENT_COLUMNS`].
fn tournament_row(row: &Row) -> Result<TournamentRow> {
    Ok(TournamentRow {
        id: row.int(0)?,
        server_id: row.int(1)?,
        channel_id: row.int(2)?,
        channel: row.string(3)?,
        name: row.string(4)?,
        system: row.parsed(5, "system", TournamentSystem::from_name)?,
        time_control: row.string(6)?,
        rated: row.bool(7)?,
        rounds: opt_count(row, 8)?,
        bye_half_points: row.count(9)?,
        max_players: opt_count(row, 10)?,
        entry_closes_at: row.opt_time(11)?,
        state: row.parsed(12, "tournament state", TournamentState::from_name)?,
        round: row.count(13)?,
        created_by: PlayerId(row.int(14)?),
        created_at: row.time(15)?,
        version: row.int(16)?,
        tie_breaks: row.parsed(17, "tie-breaks", tie_breaks_from_text)?,
        platform: row.parsed(18, "platform", Platform::from_name)?,
    })
}

/// An entrant from [`ENTRANT_COLUMNS`].
fn entrant(row: &Row) -> Result<EntrantRow> {
    Ok(EntrantRow {
        player: PlayerId(row.int(0)?),
        name: row.string(1)?,
        platform_id: row.string(2)?,
        joined_at: row.time(3)?,
        seed: opt_count(row, 4)?,
        withdrawn_at: row.opt_time(5)?,
        language: row.opt_parsed(6, "language", Lang::from_locale)?,
        place: match row.opt_int(7)? {
            None => None,
            Some(channel_id) => Some(EntrantPlace {
                channel_id,
                channel: row.string(8)?,
                server_id: row.int(9)?,
                platform: row.parsed(10, "platform", Platform::from_name)?,
            }),
        },
    })
}

/// A pairing from [`PAIRING_COLUMNS`].
fn pairing(row: &Row) -> Result<PairingRow> {
    Ok(PairingRow {
        id: row.int(0)?,
        round: row.count(1)?,
        board: row.count(2)?,
        white: PlayerId(row.int(3)?),
        black: row.opt_int(4)?.map(PlayerId),
        game_id: row.opt_int(5)?,
        score: row.opt_parsed(6, "score", PairingScore::from_name)?,
        game_state: if row.is_null(7)? {
            None
        } else {
            Some(game_state(row, 7)?)
        },
    })
}

pub async fn tournament(c: &impl Conn, id: i64) -> Result<Option<TournamentRow>> {
    let sql = format!("SELECT {TOURNAMENT_COLUMNS} FROM {TOURNAMENT_TABLES} WHERE t.id = ?1");
    c.query_opt_map(&sql, &params![id], tournament_row).await
}

/// A channel's tournaments, the newest first.
pub async fn tournaments_in_channel(c: &impl Conn, channel_id: i64) -> Result<Vec<TournamentRow>> {
    let sql = format!(
        "SELECT {TOURNAMENT_COLUMNS} FROM {TOURNAMENT_TABLES}
         WHERE t.channel_id = ?1 ORDER BY t.id DESC"
    );
    c.query_map(&sql, &params![channel_id], tournament_row)
        .await
}

/// A server's tournaments, the newest first, at most `limit`.
pub async fn tournaments_on_server(
    c: &impl Conn,
    server_id: i64,
    limit: u32,
) -> Result<Vec<TournamentRow>> {
    let sql = format!(
        "SELECT {TOURNAMENT_COLUMNS} FROM {TOURNAMENT_TABLES}
         WHERE t.server_id = ?1 ORDER BY t.id DESC LIMIT ?2"
    );
    c.query_map(&sql, &params![server_id, limit], tournament_row)
        .await
}

/// The tournaments of server `server_id` and of every other server of its
/// club, open or running, the newest first, at most `limit`.
pub async fn club_tournaments(
    c: &impl Conn,
    server_id: i64,
    limit: u32,
) -> Result<Vec<TournamentRow>> {
    let sql = format!(
        "SELECT {TOURNAMENT_COLUMNS} FROM {TOURNAMENT_TABLES}
         WHERE {} AND t.state IN ('entry', 'running') ORDER BY t.id DESC LIMIT ?2",
        super::clubs::in_same_club("t.server_id", 1)
    );
    c.query_map(&sql, &params![server_id, limit], tournament_row)
        .await
}

/// A tournament's entrants in the order they joined.
pub async fn tournament_entrants(c: &impl Conn, tournament_id: i64) -> Result<Vec<EntrantRow>> {
    let sql = format!(
        "SELECT {ENTRANT_COLUMNS} FROM {ENTRANT_TABLES}
         WHERE e.tournament_id = ?1 ORDER BY e.joined_at, e.player_id"
    );
    c.query_map(&sql, &params![tournament_id], entrant).await
}

/// A tournament's pairings by round and board.
pub async fn tournament_pairings(c: &impl Conn, tournament_id: i64) -> Result<Vec<PairingRow>> {
    let sql = format!(
        "SELECT {PAIRING_COLUMNS} FROM tournament_games t LEFT JOIN games g ON g.id = t.game_id
         WHERE t.tournament_id = ?1 ORDER BY t.round, t.board, t.id"
    );
    c.query_map(&sql, &params![tournament_id], pairing).await
}

/// The tournament a game was paired in, if any.
pub async fn tournament_of_game(c: &impl Conn, game_id: i64) -> Result<Option<i64>> {
    c.query_opt_map(
        "SELECT tournament_id FROM tournament_games WHERE game_id = ?1",
        &params![game_id],
        |row| row.int(0),
    )
    .await
}

/// Tournaments still taking entrants whose entry closed at or before
/// `now`, the longest closed first.
pub async fn due_tournaments(
    c: &impl Conn,
    now: DateTime<Utc>,
    limit: usize,
) -> Result<Vec<DueTournament>> {
    c.query_map(
        "SELECT id, version FROM tournaments
         WHERE state = 'entry' AND entry_closes_at IS NOT NULL AND entry_closes_at <= ?1
         ORDER BY entry_closes_at, id LIMIT ?2",
        &params![now, i64::try_from(limit).unwrap_or(i64::MAX)],
        |row| {
            Ok(DueTournament {
                id: row.int(0)?,
                version: row.int(1)?,
            })
        },
    )
    .await
}

/// When the next tournament's entry closes.
pub async fn next_tournament_start(c: &impl Conn) -> Result<Option<DateTime<Utc>>> {
    c.query_one(
        "SELECT min(entry_closes_at) FROM tournaments
         WHERE state = 'entry' AND entry_closes_at IS NOT NULL",
        &[],
    )
    .await?
    .opt_time(0)
}
