//! Games read back: one game whole (its row, channel, players, moves and
//! notes, in one statement and so from one snapshot), the game lists, open
//! challenges, finished games, and every game a page at a time for the check.

use std::sync::LazyLock;

use super::matches::AWAY_GAMES_IN_CHANNEL;
use super::rows::{self, CHALLENGE_COLUMNS, PLAYER_COLUMNS, SUMMARY_COLUMNS};
use crate::competition::standings::Finished;
use crate::core::event::{GameResult, parse_color};
use crate::core::game::{DrawRules, Note, PlayerId};
use crate::core::names::Named;
use crate::core::variant::Variant;
use crate::storage::sql::{Conn, Row, params};
use crate::storage::{
    ChallengeRow, ChannelGames, GameRecord, GameSummary, MoveRow, PagedGame, PrivateNote, Result,
    StorageError, check_moves,
};
use chrono::{DateTime, Utc};

/// The game's own columns over `g` and its channel's over `c`, read by
/// [`game_record`]; both players' [`PLAYER_COLUMNS`] follow.
const GAME_COLUMNS: &str = "g.server_id, g.channel_id, g.start_fen, g.time_control, g.rated, \
     g.draw_agreement_allowed, g.draw_min_moves, g.status, g.result, g.reason, g.ended_at, \
     g.pending_offer, g.version, g.created_at, g.clock, g.remind_at, g.plies, g.conditionals, \
     c.platform_id, g.variant, EXISTS (SELECT 1 FROM match_games mg WHERE mg.game_id = g.id), \
     EXISTS (SELECT 1 FROM ladder_matches lm WHERE lm.game_id = g.id), \
     EXISTS (SELECT 1 FROM tournament_games tg WHERE tg.game_id = g.id)";

/// Where the white player's columns start, after [`GAME_COLUMNS`].
const WHITE_AT: usize = 23;
/// Where the black player's columns start.
const BLACK_AT: usize = WHITE_AT + rows::PLAYER_WIDTH;

/// One game whole, as rows of three parts told apart by the first column:
/// part 0 is the game (its columns from 1), then part 1 its moves and part
/// 2 its notes, each in order, in the columns after the game's (`seq` is a
/// move's ply or a note's number). The parts leave each other's columns
/// NULL. A note is read as text so that the last column but one has one
/// type on PostgreSQL (`jsonb` there, text in SQLite); the last is the
/// game's id, which tells a page's games apart ([`GAME_PAGE_QUERY`]).
static GAME_QUERY: LazyLock<String> = LazyLock::new(|| game_rows("", "?1"));

/// The games after id ?1, at most ?2 of them, whole, as [`GAME_QUERY`]
/// reads one: `pawnpost check` reads every game a page at a time.
static GAME_PAGE_QUERY: LazyLock<String> = LazyLock::new(|| {
    game_rows(
        "WITH page AS (SELECT id FROM games WHERE id > ?1 ORDER BY id LIMIT ?2) ",
        "SELECT id FROM page",
    )
});

/// The rows of the games whose ids are `IN (ids)`, ordered by game;
/// `with` names what `ids` reads.
fn game_rows(with: &str, ids: &str) -> String {
    let game = format!(
        "{GAME_COLUMNS}, {}, {}",
        PLAYER_COLUMNS.replace("p.", "w."),
        PLAYER_COLUMNS.replace("p.", "b.")
    );
    let blank = vec!["NULL"; game.split(',').count()].join(", ");
    format!(
        "{with}SELECT 0 AS part, {game}, NULL AS seq, NULL, NULL, NULL, NULL, NULL, g.id AS gid
         FROM games g
         JOIN channels c ON c.id = g.channel_id
         JOIN players w ON w.id = g.white_id
         JOIN players b ON b.id = g.black_id
         WHERE g.id IN ({ids})
         UNION ALL
         SELECT 1, {blank}, ply, uci, san, played_at, draw_offer, NULL, game_id
         FROM moves WHERE game_id IN ({ids})
         UNION ALL
         SELECT 2, {blank}, seq, NULL, NULL, NULL, NULL, CAST(note AS TEXT), game_id
         FROM game_notes WHERE game_id IN ({ids})
         ORDER BY gid, part, seq"
    )
}

/// Where a move's or note's columns start in [`GAME_QUERY`]'s rows.
const SEQ_AT: usize = 1 + BLACK_AT + rows::PLAYER_WIDTH;
/// Where the game's id is in [`GAME_QUERY`]'s rows.
const GID_AT: usize = SEQ_AT + 6;

/// Game `id` with its moves and notes, refused if its moves do not add up
/// ([`check_moves`]).
pub async fn game(c: &impl Conn, id: i64) -> Result<Option<GameRecord>> {
    let found = c.query(&GAME_QUERY, &params![id]).await?;
    game_from_rows(id, &found)
}

/// The games after id `after`, at most `limit`, in order of id, each with
/// its record or why it cannot be read: one damaged game does not hide
/// the others.
pub async fn game_page(c: &impl Conn, after: i64, limit: usize) -> Result<Vec<PagedGame>> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let found = c.query(&GAME_PAGE_QUERY, &params![after, limit]).await?;
    let mut page = Vec::new();
    let mut rest = &found[..];
    while let Some(first) = rest.first() {
        let id = first.int(GID_AT)?;
        let end = rest
            .iter()
            .position(|row| row.int(GID_AT).ok() != Some(id))
            .unwrap_or(rest.len());
        let record = game_from_rows(id, &rest[..end]).and_then(|found| {
            found.ok_or_else(|| StorageError::Corrupt(format!("game {id}: its row is missing")))
        });
        page.push(PagedGame { id, record });
        rest = &rest[end..];
    }
    Ok(page)
}

/// Game `id` from its rows of [`GAME_QUERY`], if its row is among them.
fn game_from_rows(id: i64, found: &[Row]) -> Result<Option<GameRecord>> {
    let Some((head, rest)) = found.split_first() else {
        return Ok(None);
    };
    if head.int(0)? != 0 {
        // Moves or notes of a game that is not there.
        return Ok(None);
    }
    let mut moves = Vec::new();
    let mut notes = Vec::new();
    for row in rest {
        match row.int(0)? {
            1 => moves.push(move_row(row)?),
            _ => notes.push(row.json::<Note>(SEQ_AT + 5, "note")?),
        }
    }
    game_record(id, head, moves, notes).map(Some)
}

fn move_row(row: &Row) -> Result<MoveRow> {
    Ok(MoveRow {
        ply: row.count(SEQ_AT)?,
        uci: row.string(SEQ_AT + 1)?,
        san: row.string(SEQ_AT + 2)?,
        played_at: row.time(SEQ_AT + 3)?,
        draw_offer: row.bool(SEQ_AT + 4)?,
    })
}

/// The game from part 0 of [`GAME_QUERY`] (its columns from 1).
fn game_record(id: i64, row: &Row, moves: Vec<MoveRow>, notes: Vec<Note>) -> Result<GameRecord> {
    check_moves(id, row.count(17)?, &moves)?;
    let white_player = rows::player(row, 1 + WHITE_AT)?;
    let black_player = rows::player(row, 1 + BLACK_AT)?;
    Ok(GameRecord {
        id,
        server_id: row.int(1)?,
        channel_id: row.int(2)?,
        white: white_player.id,
        black: black_player.id,
        white_player,
        black_player,
        channel: row.string(19)?,
        clock: row.opt_json(15, "clock")?,
        remind_at: row.opt_time(16)?,
        conditionals: row.opt_json(18, "conditional moves")?.unwrap_or_default(),
        variant: row.parsed(20, "variant", Variant::from_name)?,
        team_match: row.bool(21)?,
        ladder_match: row.bool(22)?,
        tournament_game: row.bool(23)?,
        start_fen: row.opt_string(3)?,
        time_control: row.string(4)?,
        rated: row.bool(5)?,
        draw_rules: DrawRules {
            agreement_allowed: row.bool(6)?,
            min_moves_each: row.count(7)?,
        },
        state: rows::game_state(row, 8)?,
        pending_offer: row.opt_parsed(12, "colour", parse_color)?,
        version: row.int(13)?,
        created_at: row.time(14)?,
        moves,
        notes,
    })
}

/// A player's ongoing games in a channel (with the match games its away
/// side plays there), at most two: ids, versions, and whether a player may
/// be on leave.
static ONGOING_IN_CHANNEL: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT g.id, g.version, EXISTS (
             SELECT 1 FROM leaves l
             WHERE l.server_id = g.server_id AND l.ended_at IS NULL
               AND l.player_id IN (g.white_id, g.black_id))
         FROM games g
         WHERE (g.channel_id = ?1 OR {AWAY_GAMES_IN_CHANNEL}) AND g.status = 'ongoing'
           AND (g.white_id = ?2 OR g.black_id = ?2)
         LIMIT 2"
    )
});

/// The ongoing games of `player` in a channel: the one game's id and
/// version (enough to use a cached copy), or the list when there are several.
pub async fn ongoing_in_channel(
    c: &impl Conn,
    channel_id: i64,
    player: PlayerId,
) -> Result<ChannelGames> {
    // Ids only first: the common case (one game) needs nothing more.
    let found = c
        .query(&ONGOING_IN_CHANNEL, &params![channel_id, player])
        .await?;
    Ok(match found.as_slice() {
        [] => ChannelGames::None,
        [row] => ChannelGames::One {
            id: row.int(0)?,
            version: row.int(1)?,
            on_leave: row.bool(2)?,
        },
        _ => ChannelGames::Several(games_in_channel(c, channel_id, player, true).await?),
    })
}

/// The games of `player` in a channel, newest first.
pub async fn games_in_channel(
    c: &impl Conn,
    channel_id: i64,
    player: PlayerId,
    ongoing_only: bool,
) -> Result<Vec<GameSummary>> {
    // A match game is the away side's too, in the channel it accepted in.
    let status = if ongoing_only {
        "AND g.status = 'ongoing'"
    } else {
        ""
    };
    let filter = format!(
        "(g.channel_id = ?1 OR {AWAY_GAMES_IN_CHANNEL})
         AND (g.white_id = ?2 OR g.black_id = ?2) {status}"
    );
    summaries(c, &filter, channel_id, player).await
}

/// The ongoing games of `player` on a server, newest first.
pub async fn ongoing_games_on_server(
    c: &impl Conn,
    server_id: i64,
    player: PlayerId,
) -> Result<Vec<GameSummary>> {
    // A game of another server of a club counts where its player plays it from.
    let filter = "(g.server_id = ?1 OR EXISTS (SELECT 1 FROM game_places gp
             WHERE gp.game_id = g.id AND gp.player_id = ?2 AND gp.server_id = ?1))
         AND (g.white_id = ?2 OR g.black_id = ?2) AND g.status = 'ongoing'";
    summaries(c, filter, server_id, player).await
}

/// Whether a team `player` (?2) belongs to plays game `g`, through its
/// stand-in: a vote game is its members' game to look at.
const BY_A_TEAM_OF_PLAYER: &str = "EXISTS (
         SELECT 1 FROM teams t JOIN team_members m ON m.team_id = t.id AND m.player_id = ?2
         WHERE t.player_id IN (g.white_id, g.black_id))";

/// The games in a channel that a team of `player`'s plays, newest first.
pub async fn team_games_in_channel(
    c: &impl Conn,
    channel_id: i64,
    player: PlayerId,
) -> Result<Vec<GameSummary>> {
    let filter = format!("g.channel_id = ?1 AND {BY_A_TEAM_OF_PLAYER}");
    summaries(c, &filter, channel_id, player).await
}

/// The ongoing games on a server that a team of `player`'s plays, newest first.
pub async fn team_games_on_server(
    c: &impl Conn,
    server_id: i64,
    player: PlayerId,
) -> Result<Vec<GameSummary>> {
    let filter = format!("g.server_id = ?1 AND g.status = 'ongoing' AND {BY_A_TEAM_OF_PLAYER}");
    summaries(c, &filter, server_id, player).await
}

/// Every game, oldest first, or those `player_name` played, or those of
/// tournament `tournament` (`pawnpost games`, `pawnpost export`).
pub async fn listed_games(
    c: &impl Conn,
    player_name: Option<&str>,
    tournament: Option<i64>,
) -> Result<Vec<GameSummary>> {
    let sql = format!(
        "SELECT {SUMMARY_COLUMNS}
         FROM games g JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id
         WHERE (CAST(?1 AS text) IS NULL OR w.display_name = ?1 OR b.display_name = ?1)
           AND (CAST(?2 AS bigint) IS NULL OR g.id IN (
                SELECT game_id FROM tournament_games WHERE tournament_id = ?2))
         ORDER BY g.id"
    );
    c.query_map(&sql, &params![player_name, tournament], rows::summary)
        .await
}

/// Game lists: `filter` is the WHERE clause over `g`, with parameters ?1
/// (a place) and ?2 (a player).
async fn summaries(
    c: &impl Conn,
    filter: &str,
    place: i64,
    player: PlayerId,
) -> Result<Vec<GameSummary>> {
    let sql = format!(
        "SELECT {SUMMARY_COLUMNS}
         FROM games g JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id
         WHERE {filter} ORDER BY g.id DESC"
    );
    c.query_map(&sql, &params![place, player], rows::summary)
        .await
}

/// How many of `challenger`'s challenges are open at `now`.
pub async fn open_challenge_count(
    c: &impl Conn,
    challenger: PlayerId,
    now: DateTime<Utc>,
) -> Result<u32> {
    c.query_one(
        "SELECT count(*) FROM challenges
         WHERE challenger_id = ?1 AND status = 'open' AND expires_at > ?2",
        &params![challenger, now],
    )
    .await?
    .count(0)
}

/// The challenges open in a channel at `now`, oldest first.
pub async fn open_challenges(
    c: &impl Conn,
    channel_id: i64,
    now: DateTime<Utc>,
) -> Result<Vec<ChallengeRow>> {
    let sql = format!(
        "SELECT {CHALLENGE_COLUMNS} FROM challenges
         WHERE channel_id = ?1 AND status = 'open' AND expires_at > ?2
         ORDER BY id"
    );
    c.query_map(&sql, &params![channel_id, now], rows::challenge)
        .await
}

/// Challenge `id` if it is open at `now`.
pub async fn open_challenge(
    c: &impl Conn,
    id: i64,
    now: DateTime<Utc>,
) -> Result<Option<ChallengeRow>> {
    let sql = format!(
        "SELECT {CHALLENGE_COLUMNS} FROM challenges
         WHERE id = ?1 AND status = 'open' AND expires_at > ?2"
    );
    c.query_opt_map(&sql, &params![id, now], rows::challenge)
        .await
}

/// A server's decided games (aborted ones left out), in the order they ended.
pub async fn finished_games(c: &impl Conn, server_id: i64) -> Result<Vec<Finished>> {
    c.query_map(
        "SELECT white_id, black_id, result, ended_at FROM games
         WHERE server_id = ?1 AND status = 'over'
           AND result IN ('1-0', '0-1', '1/2-1/2')
         ORDER BY ended_at, id",
        &params![server_id],
        |row| {
            Ok(Finished {
                white: PlayerId(row.int(0)?),
                black: PlayerId(row.int(1)?),
                result: row.parsed(2, "result", GameResult::from_pgn)?,
                ended_at: row.time(3)?,
            })
        },
    )
    .await
}

/// The results and first `plies` moves (UCI) of the latest `max` finished
/// games of a server played from the standard start, for its opening
/// statistics.
pub async fn openings_played(
    c: &impl Conn,
    server_id: i64,
    max: usize,
    plies: u32,
) -> Result<Vec<(GameResult, Vec<String>)>> {
    let rows = c
        .query(
            "SELECT g.id, g.result, m.uci
             FROM (SELECT id, result FROM games
                   WHERE server_id = ?1 AND status = 'over' AND start_fen IS NULL
                     AND result IN ('1-0', '0-1', '1/2-1/2')
                   ORDER BY id DESC LIMIT ?2) g
             JOIN moves m ON m.game_id = g.id AND m.ply <= ?3
             ORDER BY g.id, m.ply",
            &params![
                server_id,
                i64::try_from(max).unwrap_or(i64::MAX),
                i64::from(plies)
            ],
        )
        .await?;
    let mut games: Vec<(i64, GameResult, Vec<String>)> = Vec::new();
    for row in &rows {
        let id = row.int(0)?;
        if games.last().is_none_or(|(last, ..)| *last != id) {
            games.push((
                id,
                row.parsed(1, "result", GameResult::from_pgn)?,
                Vec::new(),
            ));
        }
        if let Some((.., moves)) = games.last_mut() {
            moves.push(row.string(2)?);
        }
    }
    Ok(games
        .into_iter()
        .map(|(_, result, moves)| (result, moves))
        .collect())
}

/// `player`'s private notes on game `game_id`, in the order written.
pub async fn private_notes(
    c: &impl Conn,
    game_id: i64,
    player: PlayerId,
) -> Result<Vec<PrivateNote>> {
    c.query_map(
        "SELECT ply, written_at, text FROM private_notes
         WHERE game_id = ?1 AND player_id = ?2 ORDER BY id",
        &params![game_id, player],
        |row| {
            Ok(PrivateNote {
                game_id,
                player,
                ply: row.count(0)?,
                written_at: row.time(1)?,
                text: row.string(2)?,
            })
        },
    )
    .await
}
