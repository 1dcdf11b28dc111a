//! The PostgreSQL store's tournament rows (migration 0004): the reads the
//! service makes, as SQLite has them.

use tokio_postgres::Row;

use super::rows::{self, corrupt, count, get};
use crate::core::game::PlayerId;
use crate::storage::{
    EntrantRow, PairingRow, PairingScore, Result, TournamentRow, TournamentState, TournamentSystem,
};

pub const TOURNAMENT_COLUMNS: &str = "t.id, t.server_id, t.channel_id, c.platform_id, t.name, \
     t.system, t.time_control, t.rated, t.rounds, t.bye_half_points, t.max_players, \
     t.entry_closes_at, t.state, t.round, t.created_by, t.created_at, t.version";

pub const ENTRANT_COLUMNS: &str =
    "e.player_id, p.display_name, p.platform_id, e.joined_at, e.seed, e.withdrawn_at";

pub const PAIRING_COLUMNS: &str = "t.id, t.round, t.board, t.white_id, t.black_id, t.game_id, \
     t.score, g.status, g.result, g.reason, g.ended_at";

fn optional_count(row: &Row, index: usize) -> Result<Option<u32>> {
    match get::<Option<i32>>(row, index)? {
        None => Ok(None),
        Some(n) => u32::try_from(n)
            .map(Some)
            .map_err(|_| corrupt("count", &n.to_string())),
    }
}

pub fn tournament(row: &Row) -> Result<TournamentRow> {
    let system: String = get(row, 5)?;
    let state: String = get(row, 12)?;
    Ok(TournamentRow {
        id: get(row, 0)?,
        server_id: get(row, 1)?,
        channel_id: get(row, 2)?,
        channel: get(row, 3)?,
        name: get(row, 4)?,
        system: TournamentSystem::from_name(&system).ok_or_else(|| corrupt("system", &system))?,
        time_control: get(row, 6)?,
        rated: get(row, 7)?,
        rounds: optional_count(row, 8)?,
        bye_half_points: count(row, 9)?,
        max_players: optional_count(row, 10)?,
        entry_closes_at: get(row, 11)?,
        state: TournamentState::from_name(&state)
            .ok_or_else(|| corrupt("tournament state", &state))?,
        round: count(row, 13)?,
        created_by: PlayerId(get(row, 14)?),
        created_at: get(row, 15)?,
        version: get(row, 16)?,
    })
}

pub fn entrant(row: &Row) -> Result<EntrantRow> {
    Ok(EntrantRow {
        player: PlayerId(get(row, 0)?),
        name: get(row, 1)?,
        platform_id: get(row, 2)?,
        joined_at: get(row, 3)?,
        seed: optional_count(row, 4)?,
        withdrawn_at: get(row, 5)?,
    })
}

pub fn pairing(row: &Row) -> Result<PairingRow> {
    let score: Option<String> = get(row, 6)?;
    let status: Option<String> = get(row, 7)?;
    let game_state = match status {
        None => None,
        Some(status) => Some(rows::game_state(
            &status,
            get::<Option<&str>>(row, 8)?,
            get::<Option<&str>>(row, 9)?,
            get(row, 10)?,
        )?),
    };
    Ok(PairingRow {
        id: get(row, 0)?,
        round: count(row, 1)?,
        board: count(row, 2)?,
        white: PlayerId(get(row, 3)?),
        black: get::<Option<i64>>(row, 4)?.map(PlayerId),
        game_id: get(row, 5)?,
        game_state,
        score: score
            .map(|s| PairingScore::from_name(&s).ok_or_else(|| corrupt("score", &s)))
            .transpose()?,
    })
}
