//! An act's writes, in one transaction the backend opens (see
//! [`Store::commit`]): the rows of a [`Commit`] in the order of its fields,
//! then the act's answer under its key.
//!
//! Every refusal is found by a row count: a challenge no longer open, a
//! game, leave or ranking whose version moved on is
//! [`StorageError::Conflict`]; a key already stored is
//! [`StorageError::DuplicateAct`], and so is a conflict met by an act whose
//! key is stored (a replay, refused alike whatever else changed since). The
//! caller then rolls back, so a refused act leaves nothing written.
//!
//! The key is stored last, with `ON CONFLICT DO NOTHING`: of two processes
//! committing the same act on PostgreSQL, the second waits on the first's
//! key and then finds it taken; SQLite's write lock keeps them apart anyway.
//!
//! [`Store::commit`]: crate::storage::Store::commit

use crate::core::names::Named;
use chrono::{DateTime, Utc};
use serde::Serialize;

use super::commit_competition;
use super::identity::answer_of;
use crate::core::clock::Alarms;
use crate::core::conditional::Conditionals;
use crate::core::event::color_str;
use crate::core::notation::Lang;
use crate::storage::sql::{Conn, Value, json, params, value_rows};
use crate::storage::{
    ChallengeClosing, Commit, Committed, GameUpdate, LeaveEnding, MoveRow, NewChallenge, NewGame,
    NewLeave, Note, Outgoing, Result, Status, StorageError, WakeUp,
};

/// Writes every commit of `batch`, each with its answer: the caller commits
/// the transaction, or rolls it back if any was refused.
///
/// The commits must touch different rows (the scheduler batches only flag
/// falls that read nothing another one writes), so their statements may
/// interleave: PostgreSQL gets them pipelined on the one connection instead
/// of one round trip after another; SQLite's run one act after the other.
/// A refusal is reported as a conflict or a replay when one of the acts
/// met one; otherwise as the first act's error (a statement that fails
/// aborts a PostgreSQL transaction, so the others may read only that).
pub async fn write_all<R, F>(
    c: &impl Conn,
    batch: Vec<(Commit, F)>,
    now: DateTime<Utc>,
) -> Result<Vec<(Committed, R)>>
where
    R: Serialize,
    F: FnOnce(&Committed) -> R,
{
    let acts = batch
        .into_iter()
        .map(|(commit, answer)| async move { write_answered(c, &commit, now, answer).await });
    let mut done = Vec::new();
    let mut answers = Vec::new();
    let mut first_error = None;
    for act in futures_util::future::join_all(acts).await {
        match act {
            Ok((committed, value, answer)) => {
                done.push((committed, value));
                answers.extend(answer);
            }
            Err(refusal @ (StorageError::Conflict | StorageError::DuplicateAct(_))) => {
                return Err(refusal);
            }
            Err(error) => {
                first_error.get_or_insert(error);
            }
        }
    }
    if let Some(error) = first_error {
        return Err(error);
    }
    record_answers(c, &answers, now).await?;
    Ok(done)
}

/// Writes one act's rows and its answer, which `answer` builds once the new
/// ids are known; the caller commits, or rolls back on an error.
pub async fn write_act<R, F>(
    c: &impl Conn,
    commit: &Commit,
    now: DateTime<Utc>,
    answer: F,
) -> Result<(Committed, R)>
where
    R: Serialize,
    F: FnOnce(&Committed) -> R,
{
    let (committed, value, answer) = write_answered(c, commit, now, answer).await?;
    record_answers(c, answer.as_slice(), now).await?;
    Ok((committed, value))
}

/// What an act keeps under its key: its answer as JSON text, and whether
/// the answer's notices wait in the outbox.
struct Kept {
    key: String,
    answer: String,
    outgoing: Option<Outgoing>,
}

/// An act's rows and its answer, with what is to be kept under its key
/// (nothing for an act without a key; twice for an act relayed to another
/// platform).
async fn write_answered<R, F>(
    c: &impl Conn,
    commit: &Commit,
    now: DateTime<Utc>,
    answer: F,
) -> Result<(Committed, R, Vec<Kept>)>
where
    R: Serialize,
    F: FnOnce(&Committed) -> R,
{
    let committed = match write_rows(c, commit, now).await {
        Ok(committed) => committed,
        Err(StorageError::Conflict) => return Err(conflict_or_replay(c, commit).await),
        Err(error) => return Err(error),
    };
    let value = answer(&committed);
    let mut kept = Vec::new();
    match &commit.act_key {
        Some(key) => {
            let answer = serde_json::to_string(&value)
                .map_err(|e| StorageError::Backend(format!("answer to JSON: {e}")))?;
            if let Some(relay) = commit.relay {
                // The same answer for the other platform's worker, which
                // sends only the replies meant for its platform.
                kept.push(Kept {
                    key: relay_key(key, relay.platform),
                    answer: answer.clone(),
                    outgoing: Some(relay),
                });
            }
            kept.insert(
                0,
                Kept {
                    key: key.clone(),
                    answer,
                    outgoing: commit.outgoing,
                },
            );
        }
        None if commit.outgoing.is_some() || commit.relay.is_some() => {
            return Err(StorageError::Backend(
                "notices to deliver need the act's key".to_owned(),
            ));
        }
        None => {}
    }
    Ok((committed, value, kept))
}

/// The key an act's answer is kept under a second time for `platform`'s
/// worker (see [`Commit::relay`]).
pub fn relay_key(key: &str, platform: crate::core::platform::Platform) -> String {
    use crate::core::names::Named;
    format!("{key}>{}", platform.as_str())
}

/// A conflict, or a duplicate when the act's key is stored already: a
/// replay is refused as answered, whatever changed since.
async fn conflict_or_replay(c: &impl Conn, commit: &Commit) -> StorageError {
    let Some(key) = &commit.act_key else {
        return StorageError::Conflict;
    };
    match answer_of(c, key).await {
        Ok(Some(_)) => StorageError::DuplicateAct(key.clone()),
        Ok(None) => StorageError::Conflict,
        Err(error) => error,
    }
}

/// The rows of a commit, in the order of [`Commit`]'s fields.
async fn write_rows(c: &impl Conn, commit: &Commit, now: DateTime<Utc>) -> Result<Committed> {
    let mut committed = Committed::default();
    if let Some(new) = &commit.new_challenge {
        committed.challenge_id = Some(insert_challenge(c, new, now).await?);
    }
    if let Some(closing) = &commit.closing_challenge {
        close_challenge(c, closing).await?;
    }
    if let Some(new) = &commit.new_game {
        let game_id = insert_game(c, new, now).await?;
        committed.game_id = Some(game_id);
        committed.game_token = super::web::token_of(c, game_id).await?;
        // Only a challenge this act closes becomes the game: an open one
        // keeps no game, whatever the caller names.
        let closed = commit.closing_challenge.map(|c| c.id);
        if let Some(challenge_id) = new.challenge_id.filter(|&id| closed == Some(id)) {
            link_challenge(c, challenge_id, game_id).await?;
        }
    }
    for update in &commit.game_updates {
        update_game(c, update).await?;
    }
    write_settings(c, commit).await?;
    if let Some(leave) = &commit.new_leave {
        insert_leave(c, leave).await?;
    }
    for update in &commit.rating_updates {
        commit_competition::write_rating(c, update).await?;
    }
    commit_competition::write_rating_history(c, &commit.rating_updates).await?;
    for change in &commit.tournament_changes {
        commit_competition::write_tournament_change(c, change, now, &mut committed).await?;
    }
    if let Some(ending) = &commit.ending_leave {
        end_leave(c, ending).await?;
    }
    commit_competition::write_ladder(c, commit, &committed, now).await?;
    if let Some(note) = &commit.private_note {
        c.execute(
            "INSERT INTO private_notes (game_id, player_id, ply, written_at, text)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            &params![
                note.game_id,
                note.player,
                i64::from(note.ply),
                note.written_at,
                &note.text
            ],
        )
        .await?;
    }
    if let Some(review) = &commit.review {
        super::reviews::write_review(c, review).await?;
    }
    if let Some(attempt) = &commit.puzzle_attempt {
        super::reviews::write_attempt(c, attempt).await?;
    }
    if let Some(change) = &commit.team_change {
        committed.team_id = super::teams::write_change(c, change).await?;
    }
    if let Some(vote) = &commit.vote {
        super::teams::write_vote(c, vote).await?;
    }
    for change in &commit.match_changes {
        super::matches::write_change(c, change, now, &mut committed).await?;
    }
    if let Some(change) = &commit.link {
        super::links::write_change(c, change, now).await?;
    }
    if let Some(write) = &commit.digest {
        super::digests::write(c, write).await?;
    }
    if let Some(change) = &commit.club {
        super::clubs::write_change(c, change, now, &mut committed).await?;
    }
    if let Some(place) = &commit.game_place {
        super::clubs::write_place(c, place, &committed).await?;
    }
    Ok(committed)
}

/// A player's or server's settings the act changed: languages, where
/// notices go, and how the player's moves are read.
async fn write_settings(c: &impl Conn, commit: &Commit) -> Result<()> {
    if let Some((player, language)) = commit.player_language {
        c.execute(
            "UPDATE players SET language = ?1 WHERE COALESCE(person_id, id) = (SELECT COALESCE(person_id, id) FROM players WHERE id = ?2)",
            &params![language.map(Lang::as_str), player],
        )
        .await?;
    }
    if let Some((server, language)) = commit.server_language {
        c.execute(
            "UPDATE servers SET chosen_language = ?1 WHERE id = ?2",
            &params![language.map(Lang::as_str), server],
        )
        .await?;
    }
    if let Some((server, on)) = commit.server_web_pages {
        c.execute(
            "UPDATE servers SET web_pages = ?1 WHERE id = ?2",
            &params![on, server],
        )
        .await?;
    }
    if let Some((player, notify)) = commit.player_notify {
        c.execute(
            "UPDATE players SET notify = ?1 WHERE COALESCE(person_id, id) = (SELECT COALESCE(person_id, id) FROM players WHERE id = ?2)",
            &params![notify.as_str(), player],
        )
        .await?;
    }
    if let Some((player, notation)) = &commit.player_notation {
        let letters = Some(notation.letters.to_text()).filter(|text| !text.is_empty());
        c.execute(
            "UPDATE players SET notation = ?1, notation_letters = ?2, notation_question = ?3 \
             WHERE COALESCE(person_id, id) = (SELECT COALESCE(person_id, id) FROM players WHERE id = ?4)",
            &params![
                notation.notation.map(Lang::as_str),
                letters,
                notation.question.clone(),
                *player
            ],
        )
        .await?;
    }
    Ok(())
}

/// Refused with `Conflict` unless a row changed.
pub(super) fn changed_one(changed: u64) -> Result<()> {
    match changed {
        0 => Err(StorageError::Conflict),
        _ => Ok(()),
    }
}

async fn insert_challenge(c: &impl Conn, new: &NewChallenge, now: DateTime<Utc>) -> Result<i64> {
    c.query_one(
        "INSERT INTO challenges (server_id, channel_id, challenger_id, challenged_id, color,
                                 time_control, rated, start_fen, created_at, expires_at,
                                 start_moves, variant, votes_changeable)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) RETURNING id",
        &params![
            new.server_id,
            new.channel_id,
            new.challenger,
            new.challenged,
            new.color.as_str(),
            &new.time_control,
            new.rated,
            new.start_fen.as_deref(),
            now,
            new.expires_at,
            new.start_moves.as_deref(),
            new.variant.as_str(),
            new.votes_changeable
        ],
    )
    .await?
    .int(0)
}

/// Moves a challenge out of `open`; someone else closing it first is a conflict.
async fn close_challenge(c: &impl Conn, closing: &ChallengeClosing) -> Result<()> {
    let changed = c
        .execute(
            "UPDATE challenges SET status = ?1 WHERE id = ?2 AND status = 'open'",
            &params![closing.to.as_str(), closing.id],
        )
        .await?;
    changed_one(changed)
}

/// A new game (of a challenge, or of a tournament's pairing), with what it
/// brings from elsewhere.
pub(super) async fn insert_game(c: &impl Conn, new: &NewGame, now: DateTime<Utc>) -> Result<i64> {
    Ok(insert_game_with_token(c, new, now).await?.0)
}

/// [`insert_game`], with the new game's page token.
pub(super) async fn insert_game_with_token(
    c: &impl Conn,
    new: &NewGame,
    now: DateTime<Utc>,
) -> Result<(i64, String)> {
    let history = new.history.as_ref();
    let ending = history.and_then(|h| h.ending);
    // A finished game keeps no deadline, reminder or wake-up.
    let alarms = match ending {
        None => Alarms::of(new.clock.as_ref(), new.remind_at),
        Some(_) => Alarms::of(None, None),
    };
    let id = c
        .query_one(
            "INSERT INTO games (server_id, channel_id, white_id, black_id, start_fen, time_control,
                            rated, draw_agreement_allowed, draw_min_moves, turn, challenge_id,
                            created_at, clock, deadline, remind_at, wake_at, plies, status,
                            result, reason, ended_at, variant)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                 ?18, ?19, ?20, ?21, ?22)
         RETURNING id",
            &params![
                new.server_id,
                new.channel_id,
                new.white,
                new.black,
                new.start_fen.as_deref(),
                &new.time_control,
                new.rated,
                new.draw_rules.agreement_allowed,
                new.draw_rules.min_moves_each,
                color_str(new.turn),
                new.challenge_id,
                history.map_or(now, |h| h.started_at),
                new.clock.as_ref().map(json).transpose()?,
                alarms.deadline,
                alarms.remind_at,
                alarms.wake_at,
                history.map_or(0, |h| h.moves.len() as i64),
                if ending.is_some() { "over" } else { "ongoing" },
                ending.map(|(result, ..)| result.as_pgn()),
                ending.map(|(_, reason, _)| reason.as_str()),
                ending.map(|(.., at)| at),
                new.variant.as_str()
            ],
        )
        .await?
        .int(0)?;
    if let Some(history) = history {
        insert_score(c, id, &history.moves, &history.notes).await?;
    }
    // Every game has its page's link from its first commit: a page, which
    // changes nothing, can then link the games it lists.
    let token = super::web::fresh_token()?;
    c.execute(
        "INSERT INTO game_links (game_id, token) VALUES (?1, ?2)",
        &params![id, &token],
    )
    .await?;
    Ok((id, token))
}

/// Records which game a challenge became.
async fn link_challenge(c: &impl Conn, challenge_id: i64, game_id: i64) -> Result<()> {
    c.execute(
        "UPDATE challenges SET game_id = ?1 WHERE id = ?2",
        &params![game_id, challenge_id],
    )
    .await?;
    Ok(())
}

/// A game's new state if its version is still the one read, then its new
/// moves and notes. An ended game keeps no deadline, reminder or wake-up.
async fn update_game(c: &impl Conn, update: &GameUpdate) -> Result<()> {
    if let Some((moves, notes)) = update.truncate_to {
        // A takeback: the score ends earlier before the act's own rows.
        c.execute(
            "DELETE FROM moves WHERE game_id = ?1 AND ply > ?2",
            &params![update.id, i64::from(moves)],
        )
        .await?;
        c.execute(
            "DELETE FROM game_notes WHERE game_id = ?1 AND seq >= ?2",
            &params![update.id, i64::from(notes)],
        )
        .await?;
        // A private note on a taken-back move stays its writer's, pinned to
        // the position the game went back to, never to the move replacing it.
        c.execute(
            "UPDATE private_notes SET ply = ?2 WHERE game_id = ?1 AND ply > ?2",
            &params![update.id, i64::from(moves)],
        )
        .await?;
    }
    let kept_plies = update.truncate_to.map(|(moves, _)| i64::from(moves));
    let changed = match update.state {
        // The columns that say how a game ended are left out while it runs:
        // SQLite rewrites the entries of every index on a column a statement
        // sets, changed or not (four indexes hold `status`), which would
        // make each move write four more pages.
        Status::Ongoing => {
            let alarms = Alarms::of(update.clock.as_ref(), update.remind_at);
            let changed = c
                .execute(
                    "UPDATE games SET pending_offer = ?1, turn = ?2,
                        plies = coalesce(?10, plies) + ?3,
                        version = version + 1, clock = ?6, deadline = ?7, remind_at = ?8,
                        conditionals = ?9
                 WHERE id = ?4 AND version = ?5",
                    &params![
                        update.pending_offer.map(color_str),
                        color_str(update.turn),
                        update.new_moves.len() as i64,
                        update.id,
                        update.expected_version,
                        update.clock.as_ref().map(json).transpose()?,
                        alarms.deadline,
                        alarms.remind_at,
                        conditionals(&update.conditionals)?,
                        kept_plies
                    ],
                )
                .await?;
            move_wake_up(c, update.id, alarms.wake_at, update.wake_up).await?;
            changed
        }
        Status::Over {
            result,
            reason,
            at: ended_at,
        } => {
            c.execute(
                "UPDATE games SET status = 'over', result = ?1, reason = ?2, ended_at = ?3,
                        pending_offer = ?4, turn = ?5, plies = plies + ?6, version = version + 1,
                        clock = ?9, deadline = NULL, remind_at = NULL, wake_at = NULL,
                        conditionals = NULL
                 WHERE id = ?7 AND version = ?8",
                &params![
                    result.as_pgn(),
                    reason.as_str(),
                    ended_at,
                    update.pending_offer.map(color_str),
                    color_str(update.turn),
                    update.new_moves.len() as i64,
                    update.id,
                    update.expected_version,
                    update.clock.as_ref().map(json).transpose()?
                ],
            )
            .await?
        }
    };
    changed_one(changed)?;
    insert_score(c, update.id, &update.new_moves, &update.new_notes).await
}

/// Conditional moves as stored: NULL when nobody has any.
fn conditionals(lines: &Conditionals) -> Result<Value> {
    match lines.is_empty() {
        true => Ok(Value::Null),
        false => json(lines),
    }
}

/// Sets a running game's wake-up as [`WakeUp`] says. The statement writes
/// the wake-up index only when the time changes: a move that leaves it
/// alone writes the game's row and nothing more.
async fn move_wake_up(
    c: &impl Conn,
    game_id: i64,
    alarm: Option<DateTime<Utc>>,
    how: WakeUp,
) -> Result<()> {
    let exact = how == WakeUp::Exact;
    if alarm.is_none() && !exact {
        // No alarm at all: the stored one is still no later than that.
        return Ok(());
    }
    c.execute(
        "UPDATE games SET wake_at = ?2
         WHERE id = ?1 AND (?3 OR wake_at IS NULL OR wake_at > ?2)",
        &params![game_id, alarm, exact],
    )
    .await?;
    Ok(())
}

/// Moves and notes appended to a game's score.
async fn insert_score(
    c: &impl Conn,
    game_id: i64,
    moves: &[MoveRow],
    notes: &[Note],
) -> Result<()> {
    for m in moves {
        c.execute(
            "INSERT INTO moves (game_id, ply, uci, san, played_at, draw_offer)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            &params![game_id, m.ply, &m.uci, &m.san, m.played_at, m.draw_offer],
        )
        .await?;
    }
    // Each note numbered after the game's notes so far, the ones this
    // statement's predecessors added included.
    for note in notes {
        c.execute(
            "INSERT INTO game_notes (game_id, seq, note)
             VALUES (?1, (SELECT count(*) FROM game_notes WHERE game_id = ?1), ?2)",
            &[game_id.into(), json(note)?],
        )
        .await?;
    }
    Ok(())
}

async fn insert_leave(c: &impl Conn, leave: &NewLeave) -> Result<()> {
    c.execute(
        "INSERT INTO leaves (player_id, server_id, starts_at, ends_at, days)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        &params![
            leave.player,
            leave.server_id,
            leave.starts_at,
            leave.ends_at,
            leave.days
        ],
    )
    .await?;
    Ok(())
}

/// Ends a running leave; one ended meanwhile is a conflict.
async fn end_leave(c: &impl Conn, ending: &LeaveEnding) -> Result<()> {
    let changed = c
        .execute(
            "UPDATE leaves SET ended_at = ?1, days = ?2 WHERE id = ?3 AND ended_at IS NULL",
            &params![ending.ended_at, ending.days, ending.id],
        )
        .await?;
    changed_one(changed)
}

/// Stores each act's answer under its key with its notices' place in the
/// outbox, in one statement; a key already taken (by this or another
/// process) refuses the whole commit as a replay of that act.
async fn record_answers(c: &impl Conn, answers: &[Kept], now: DateTime<Utc>) -> Result<()> {
    if answers.is_empty() {
        return Ok(());
    }
    let mut values = Vec::with_capacity(answers.len() * 8);
    for kept in answers {
        let outgoing = kept.outgoing.as_ref();
        // A hold waits in the row where rows are numbered in commit order
        // (no due index entry written, then erased once answered); else
        // in the due index (see migration 0022).
        let (due_at, held_until) = match outgoing.map(|o| o.held_until) {
            None => (None, None),
            Some(Some(until)) if c.numbers_in_commit_order() => (None, Some(until)),
            Some(until) => (Some(until.unwrap_or(now)), None),
        };
        values.extend(params![
            &kept.key,
            now,
            &kept.answer,
            outgoing.map(|o| o.platform.as_str()),
            outgoing.and_then(|o| o.server_id),
            outgoing.map_or(0, |o| o.first),
            due_at,
            held_until
        ]);
    }
    let sql = format!(
        "INSERT INTO acts (act_key, processed_at, answer, platform, server_id, next_item, due_at,
                           held_until)
         VALUES {}
         ON CONFLICT (act_key) DO NOTHING",
        value_rows(answers.len(), 8)
    );
    if let [kept] = answers {
        // One act (the common case): the count says it all.
        if c.execute(&sql, &values).await? == 0 {
            return Err(StorageError::DuplicateAct(kept.key.clone()));
        }
        return Ok(());
    }
    let stored = c
        .query(&format!("{sql} RETURNING act_key"), &values)
        .await?;
    if stored.len() < answers.len() {
        let stored = stored
            .iter()
            .map(|row| row.string(0))
            .collect::<Result<std::collections::HashSet<_>>>()?;
        let replayed = answers.iter().find(|kept| !stored.contains(&kept.key));
        return Err(StorageError::DuplicateAct(
            replayed.map(|kept| kept.key.clone()).unwrap_or_default(),
        ));
    }
    Ok(())
}
