//! Ratings and standings: a player's Glicko-2 rating and its history, and
//! the server's 1/½/0 table, computed from the finished games by
//! [`competition::standings`] (the one place the table is derived).

use std::collections::HashMap;

use crate::competition::standings::{self, Finished};
use crate::core::event::GameResult;
use crate::core::game::PlayerId;
use crate::core::names::Named;
use crate::core::variant::Variant;
use crate::storage::sql::{Conn, params};
use crate::storage::{RatingPoint, RatingRow, Result, STAND_IN_PREFIX, StandingRow};

/// The rating (in `pool`, kept under `server_id`) of the person whose
/// account `account` is: a linked player's rating is their first account's.
pub async fn rating_of_account(
    c: &impl Conn,
    server_id: i64,
    account: PlayerId,
    pool: Variant,
) -> Result<Option<f64>> {
    c.query_opt_map(
        "SELECT rating FROM ratings
         WHERE server_id = ?1 AND pool = ?3
           AND player_id = (SELECT COALESCE(person_id, id) FROM players WHERE id = ?2)",
        &params![server_id, account, pool.as_str()],
        |row| row.real(0),
    )
    .await
}

pub async fn rating(
    c: &impl Conn,
    server_id: i64,
    player: PlayerId,
    pool: Variant,
) -> Result<Option<RatingRow>> {
    c.query_opt_map(
        "SELECT rating, deviation, volatility, games, rated_at FROM ratings
         WHERE server_id = ?1 AND player_id = ?2 AND pool = ?3",
        &params![server_id, player, pool.as_str()],
        |row| {
            Ok(RatingRow {
                server_id,
                player,
                pool,
                rating: row.real(0)?,
                deviation: row.real(1)?,
                volatility: row.real(2)?,
                games: row.count(3)?,
                rated_at: row.time(4)?,
            })
        },
    )
    .await
}

pub async fn rating_history(
    c: &impl Conn,
    server_id: i64,
    player: PlayerId,
    pool: Variant,
) -> Result<Vec<RatingPoint>> {
    c.query_map(
        "SELECT game_id, rating, deviation, at FROM rating_history
         WHERE server_id = ?1 AND player_id = ?2 AND pool = ?3 ORDER BY id",
        &params![server_id, player, pool.as_str()],
        |row| {
            Ok(RatingPoint {
                game_id: row.int(0)?,
                rating: row.real(1)?,
                deviation: row.real(2)?,
                at: row.time(3)?,
            })
        },
    )
    .await
}

/// The server's table over its finished, scored games, best first (see
/// [`standings::table_by_name`]), each line with the player's name and
/// whether it is a team's. A server in a club counts the games of every
/// server of the club (of either platform), and a player's linked
/// accounts are one line, under their first account's name.
pub async fn standings(c: &impl Conn, server_id: i64) -> Result<Vec<StandingRow>> {
    let rows = c
        .query(
            &format!(
                "SELECT w.id, w.display_name, b.id, b.display_name, g.result, g.ended_at,
                        w.platform_id, b.platform_id
                 FROM games g
                 JOIN players wa ON wa.id = g.white_id
                 JOIN players ba ON ba.id = g.black_id
                 JOIN players w ON w.id = COALESCE(wa.person_id, wa.id)
                 JOIN players b ON b.id = COALESCE(ba.person_id, ba.id)
                 WHERE {} AND g.status = 'over'
                   AND g.result IN ('1-0', '0-1', '1/2-1/2')",
                super::clubs::in_same_club("g.server_id", 1)
            ),
            &params![server_id],
        )
        .await?;
    let mut names: HashMap<PlayerId, (String, bool)> = HashMap::new();
    let mut games = Vec::with_capacity(rows.len());
    let team = |id: String| id.starts_with(STAND_IN_PREFIX);
    for row in &rows {
        let (white, black) = (PlayerId(row.int(0)?), PlayerId(row.int(2)?));
        names
            .entry(white)
            .or_insert((row.string(1)?, team(row.string(6)?)));
        names
            .entry(black)
            .or_insert((row.string(3)?, team(row.string(7)?)));
        games.push(Finished {
            white,
            black,
            result: row.parsed(4, "result", GameResult::from_pgn)?,
            ended_at: row.time(5)?,
        });
    }
    let name = |player: PlayerId| names.get(&player).map_or("", |(name, _)| name.as_str());
    let lines = standings::table_by_name(&games, None, name);
    Ok(lines
        .into_iter()
        .map(|line| {
            let (name, team) = names.remove(&line.player).unwrap_or_default();
            StandingRow { name, team, line }
        })
        .collect())
}
