//! Rows read into the store's types, column lists beside their readers so
//! the two never drift apart. A value the types cannot hold (an unknown
//! platform, a clock that does not parse) is [`StorageError::Corrupt`].
//!
//! [`StorageError::Corrupt`]: crate::storage::StorageError::Corrupt

use crate::core::event::{GameResult, Reason, parse_color};
use crate::core::game::{DrawRules, PlayerId};
use crate::core::names::Named;
use crate::core::notation::{Lang, Letters};
use crate::core::variant::Variant;
use crate::storage::sql::Row;
use crate::storage::{
    ChallengeRow, ChallengeStatus, ColorChoice, GameSummary, LeaveRow, Notify, Platform,
    PlayerNotation, PlayerRow, Result, ServerRow, Status,
};

/// Server columns over `s`, read by [`server`].
pub const SERVER_COLUMNS: &str = "s.id, s.platform, s.platform_id, s.chosen_language, s.time_control, \
     s.draw_agreement_allowed, s.draw_min_moves, s.moderator_role, s.web_pages";

/// Player columns over `p`, read by [`player`] (no comma inside a column:
/// `games` counts them by their commas).
pub const PLAYER_COLUMNS: &str = "p.id, p.platform, p.platform_id, p.display_name, p.language, \
     p.notify, p.client_language, p.notation, p.notation_letters, p.notation_question, \
     CASE WHEN p.person_id IS NULL THEN p.id ELSE p.person_id END, p.time_zone, p.digest_minute";
/// How many columns [`PLAYER_COLUMNS`] has.
pub const PLAYER_WIDTH: usize = 13;

/// Challenge columns, read by [`challenge`].
pub const CHALLENGE_COLUMNS: &str = "id, server_id, channel_id, challenger_id, challenged_id, \
     color, time_control, rated, start_fen, status, created_at, expires_at, start_moves, variant";

/// Leave columns, read by [`leave`].
pub const LEAVE_COLUMNS: &str = "id, player_id, server_id, starts_at, ends_at, ended_at, days";

/// Summary columns over `g` (games), `w` and `b` (its players), read by [`summary`].
pub const SUMMARY_COLUMNS: &str = "g.id, g.channel_id, g.white_id, g.black_id, w.display_name, \
     b.display_name, g.turn, g.plies, g.status, g.result, g.reason, g.ended_at";

fn lang(text: &str) -> Option<Lang> {
    Lang::from_locale(text)
}

/// A server from [`SERVER_COLUMNS`] starting at column `at`.
pub fn server(row: &Row, at: usize) -> Result<ServerRow> {
    Ok(ServerRow {
        id: row.int(at)?,
        platform: row.parsed(at + 1, "platform", Platform::from_name)?,
        platform_id: row.string(at + 2)?,
        chosen_language: row.opt_parsed(at + 3, "chosen language", lang)?,
        time_control: row.string(at + 4)?,
        draw_rules: DrawRules {
            agreement_allowed: row.bool(at + 5)?,
            min_moves_each: row.count(at + 6)?,
        },
        moderator_role: row.opt_string(at + 7)?,
        web_pages: row.bool(at + 8)?,
    })
}

/// A player from [`PLAYER_COLUMNS`] starting at column `at`.
pub fn player(row: &Row, at: usize) -> Result<PlayerRow> {
    Ok(PlayerRow {
        id: PlayerId(row.int(at)?),
        platform: row.parsed(at + 1, "platform", Platform::from_name)?,
        platform_id: row.string(at + 2)?,
        display_name: row.string(at + 3)?,
        language: row.opt_parsed(at + 4, "language", lang)?,
        notify: row.parsed(at + 5, "notify", Notify::from_name)?,
        client_language: row.opt_parsed(at + 6, "client_language", lang)?,
        notation: PlayerNotation {
            notation: row.opt_parsed(at + 7, "notation", lang)?,
            letters: row
                .opt_parsed(at + 8, "notation_letters", Letters::from_text)?
                .unwrap_or_default(),
            question: row.opt_string(at + 9)?,
        },
        person: PlayerId(row.int(at + 10)?),
        time_zone: row.opt_string(at + 11)?,
        digest_minute: row
            .opt_int(at + 12)?
            .and_then(|minute| u32::try_from(minute).ok()),
    })
}

/// A challenge from [`CHALLENGE_COLUMNS`].
pub fn challenge(row: &Row) -> Result<ChallengeRow> {
    Ok(ChallengeRow {
        id: row.int(0)?,
        server_id: row.int(1)?,
        channel_id: row.int(2)?,
        challenger: PlayerId(row.int(3)?),
        challenged: row.opt_int(4)?.map(PlayerId),
        color: row.parsed(5, "colour", ColorChoice::from_name)?,
        time_control: row.string(6)?,
        rated: row.bool(7)?,
        start_fen: row.opt_string(8)?,
        status: row.parsed(9, "status", ChallengeStatus::from_name)?,
        created_at: row.time(10)?,
        expires_at: row.time(11)?,
        start_moves: row.opt_string(12)?,
        variant: row.parsed(13, "variant", Variant::from_name)?,
    })
}

/// A leave from [`LEAVE_COLUMNS`].
pub fn leave(row: &Row) -> Result<LeaveRow> {
    Ok(LeaveRow {
        id: row.int(0)?,
        player: PlayerId(row.int(1)?),
        server_id: row.int(2)?,
        starts_at: row.time(3)?,
        ends_at: row.time(4)?,
        ended_at: row.opt_time(5)?,
        days: row.count(6)?,
    })
}

/// A game's state from its status, result, reason and end columns, from `at`.
pub fn game_state(row: &Row, at: usize) -> Result<Status> {
    match row.text(at)? {
        "ongoing" => Ok(Status::Ongoing),
        "over" => Ok(Status::Over {
            result: row.parsed(at + 1, "result", GameResult::from_pgn)?,
            reason: row.parsed(at + 2, "reason", Reason::from_name)?,
            at: row.time(at + 3)?,
        }),
        other => Err(crate::storage::StorageError::Corrupt(format!(
            "game status {other:?}"
        ))),
    }
}

/// A summary from [`SUMMARY_COLUMNS`].
pub fn summary(row: &Row) -> Result<GameSummary> {
    Ok(GameSummary {
        id: row.int(0)?,
        channel_id: row.int(1)?,
        white: PlayerId(row.int(2)?),
        black: PlayerId(row.int(3)?),
        white_name: row.string(4)?,
        black_name: row.string(5)?,
        turn: row.parsed(6, "colour", parse_color)?,
        plies: row.count(7)?,
        state: game_state(row, 8)?,
    })
}
