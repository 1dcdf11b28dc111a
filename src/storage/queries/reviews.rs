//! Engine reviews, the puzzles drawn from them and the puzzles' attempts.

use chrono::{DateTime, Utc};

use super::super::sql::{Conn, Row, params};
use super::super::{NewReview, Puzzle, PuzzleAttempt, PuzzleSolver, Result, StoredReview};
use crate::core::game::PlayerId;

/// The stored review of game `game_id`.
pub async fn review(c: &impl Conn, game_id: i64) -> Result<Option<StoredReview>> {
    c.query(
        "SELECT engine, nodes, evals, reviewed_at FROM reviews WHERE game_id = ?1",
        &params![game_id],
    )
    .await?
    .first()
    .map(|row| {
        Ok(StoredReview {
            game_id,
            engine: row.string(0)?,
            nodes: u64::try_from(row.int(1)?).unwrap_or(0),
            evals: row.string(2)?,
            reviewed_at: row.time(3)?,
        })
    })
    .transpose()
}

/// Writes a review and its puzzles; a game already reviewed keeps its first
/// review (two processes may review it at once: the same numbers).
pub async fn write_review(c: &impl Conn, review: &NewReview) -> Result<()> {
    let written = c
        .execute(
            "INSERT INTO reviews (game_id, engine, nodes, evals, reviewed_at)
             VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (game_id) DO NOTHING",
            &params![
                review.game_id,
                &review.engine,
                i64::try_from(review.nodes).unwrap_or(i64::MAX),
                &review.evals,
                review.reviewed_at
            ],
        )
        .await?;
    if written == 0 {
        return Ok(());
    }
    for puzzle in &review.puzzles {
        c.execute(
            "INSERT INTO puzzles (server_id, game_id, ply, fen, solution)
             SELECT server_id, id, ?2, ?3, ?4 FROM games WHERE id = ?1
             ON CONFLICT (game_id, ply) DO NOTHING",
            &params![
                review.game_id,
                i64::from(puzzle.ply),
                &puzzle.fen,
                &puzzle.solution
            ],
        )
        .await?;
    }
    Ok(())
}

/// Finished games ended since `since` that have no review yet, oldest
/// first, at most `limit`.
pub async fn games_awaiting_review(
    c: &impl Conn,
    since: DateTime<Utc>,
    limit: usize,
) -> Result<Vec<i64>> {
    c.query_map(
        "SELECT g.id FROM games g
         WHERE g.status = 'over' AND g.ended_at >= ?1 AND g.plies > 0
           AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.game_id = g.id)
         ORDER BY g.ended_at, g.id LIMIT ?2",
        &params![since, limit as i64],
        |row| row.int(0),
    )
    .await
}

/// Whether game `id` belongs to a tournament that keeps reviews until a
/// round is over, in a round some game of which still runs.
pub async fn review_waits_for_round(c: &impl Conn, id: i64) -> Result<bool> {
    c.query_one(
        "SELECT EXISTS (
             SELECT 1 FROM tournament_games mine
             JOIN tournaments t ON t.id = mine.tournament_id AND t.reviews_after_round
             JOIN tournament_games other
               ON other.tournament_id = mine.tournament_id AND other.round = mine.round
             JOIN games g ON g.id = other.game_id AND g.status = 'ongoing'
             WHERE mine.game_id = ?1)",
        &params![id],
    )
    .await?
    .bool(0)
}

const PUZZLE_COLUMNS: &str = "p.id, p.game_id, p.ply, p.fen, p.solution";

fn puzzle(row: &Row) -> Result<Puzzle> {
    Ok(Puzzle {
        id: row.int(0)?,
        game_id: row.int(1)?,
        ply: row.count(2)?,
        fen: row.string(3)?,
        solution: row.string(4)?,
    })
}

/// The puzzle `player` was given on server `server_id` and has not answered.
pub async fn open_puzzle(
    c: &impl Conn,
    server_id: i64,
    player: PlayerId,
) -> Result<Option<Puzzle>> {
    c.query(
        &format!(
            "SELECT {PUZZLE_COLUMNS} FROM puzzles p
             JOIN puzzle_attempts a ON a.puzzle_id = p.id
             WHERE p.server_id = ?1 AND a.player_id = ?2 AND a.answered_at IS NULL
             ORDER BY a.given_at DESC, p.id LIMIT 1"
        ),
        &params![server_id, player],
    )
    .await?
    .first()
    .map(puzzle)
    .transpose()
}

/// The server's oldest puzzle `player` has not tried, not from their own
/// game (they saw it played).
pub async fn next_puzzle(
    c: &impl Conn,
    server_id: i64,
    player: PlayerId,
) -> Result<Option<Puzzle>> {
    c.query(
        &format!(
            "SELECT {PUZZLE_COLUMNS} FROM puzzles p JOIN games g ON g.id = p.game_id
             WHERE p.server_id = ?1 AND g.white_id <> ?2 AND g.black_id <> ?2
               AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a
                               WHERE a.puzzle_id = p.id AND a.player_id = ?2)
             ORDER BY p.id LIMIT 1"
        ),
        &params![server_id, player],
    )
    .await?
    .first()
    .map(puzzle)
    .transpose()
}

/// Records a puzzle given or answered.
pub async fn write_attempt(c: &impl Conn, attempt: &PuzzleAttempt) -> Result<()> {
    match *attempt {
        PuzzleAttempt::Given { puzzle, player, at } => c
            .execute(
                "INSERT INTO puzzle_attempts (puzzle_id, player_id, given_at)
                 VALUES (?1, ?2, ?3) ON CONFLICT (puzzle_id, player_id) DO NOTHING",
                &params![puzzle, player, at],
            )
            .await
            .map(drop),
        PuzzleAttempt::Answered {
            puzzle,
            player,
            solved,
            at,
        } => c
            .execute(
                "UPDATE puzzle_attempts SET solved = ?3, answered_at = ?4
                 WHERE puzzle_id = ?1 AND player_id = ?2 AND answered_at IS NULL",
                &params![puzzle, player, solved, at],
            )
            .await
            .and_then(super::commit::changed_one),
    }
}

/// The server's solvers, most puzzles solved first, at most `limit`.
pub async fn puzzle_solvers(
    c: &impl Conn,
    server_id: i64,
    limit: usize,
) -> Result<Vec<PuzzleSolver>> {
    c.query_map(
        "SELECT pl.display_name,
                SUM(CASE WHEN a.solved THEN 1 ELSE 0 END) AS solved,
                COUNT(*) AS tried
         FROM puzzle_attempts a
         JOIN puzzles p ON p.id = a.puzzle_id
         JOIN players pl ON pl.id = a.player_id
         WHERE p.server_id = ?1 AND a.answered_at IS NOT NULL
         GROUP BY pl.id, pl.display_name
         ORDER BY solved DESC, tried, pl.display_name LIMIT ?2",
        &params![server_id, limit as i64],
        |row| {
            Ok(PuzzleSolver {
                name: row.string(0)?,
                solved: row.count(1)?,
                tried: row.count(2)?,
            })
        },
    )
    .await
}
