//! The challenge ladder in memory, with SQLite's checks (migration 0007).

use chrono::{DateTime, Utc};

use super::State;
use crate::core::game::PlayerId;
use crate::storage::{
    Commit, Committed, IdleRung, LadderEntry, LadderMatchRow, LadderMatchStatus, LadderMatchUpdate,
    LadderRow, LadderWrite, NewLadderMatch, Result, StorageError, to_stored_precision,
};

/// A server's ladder as kept in memory.
#[derive(Clone, Debug, Default)]
pub(super) struct StoredLadder {
    pub version: i64,
    /// Best first, with each player's last activity.
    pub entries: Vec<(PlayerId, DateTime<Utc>)>,
}

impl State {
    /// What SQLite refuses in a commit's ladder rows.
    pub(super) fn check_ladder(&self, commit: &Commit) -> Result<()> {
        if let Some(write) = &commit.ladder {
            let version = self.ladders.get(&write.server_id).map_or(0, |l| l.version);
            if version != write.expected_version {
                return Err(StorageError::Conflict);
            }
            for (player, _) in &write.entries {
                self.check_player(*player)?;
            }
        }
        if let Some(new) = &commit.new_ladder_match {
            if commit.new_challenge.is_none() {
                return Err(StorageError::Backend(
                    "a ladder match needs a new challenge".into(),
                ));
            }
            self.check_player(new.challenger)?;
            self.check_player(new.defender)?;
        }
        if let Some(update) = &commit.ladder_match_update {
            if update.link_new_game && commit.new_game.is_none() {
                return Err(StorageError::Backend("no new game to link".into()));
            }
            let current = self.ladder_matches.iter().find(|m| m.id == update.id);
            if current.is_none_or(|m| m.status != update.from) {
                return Err(StorageError::Conflict);
            }
        }
        Ok(())
    }

    /// Applies the ladder rows of a commit that passed [`State::check_ladder`].
    pub(super) fn apply_ladder(
        &mut self,
        write: Option<&LadderWrite>,
        new_match: Option<&NewLadderMatch>,
        update: Option<LadderMatchUpdate>,
        committed: &Committed,
    ) {
        if let Some(write) = write {
            let ladder = self.ladders.entry(write.server_id).or_default();
            ladder.version += 1;
            ladder.entries = write
                .entries
                .iter()
                .map(|(p, at)| (*p, to_stored_precision(*at)))
                .collect();
        }
        if let (Some(new), Some(challenge_id)) = (new_match, committed.challenge_id) {
            let id = self.ladder_matches.len() as i64 + 1;
            let channel = self
                .challenges
                .iter()
                .find(|c| c.id == challenge_id)
                .and_then(|c| self.channels.iter().find(|ch| ch.id == c.channel_id))
                .map(|ch| ch.platform_id.clone())
                .unwrap_or_default();
            self.ladder_matches.push(LadderMatchRow {
                id,
                server_id: new.server_id,
                challenge_id,
                channel,
                game_id: None,
                challenger: new.challenger,
                defender: new.defender,
                status: LadderMatchStatus::Pending,
                accept_by: to_stored_precision(new.accept_by),
            });
        }
        if let Some(update) = update
            && let Some(row) = self.ladder_matches.iter_mut().find(|m| m.id == update.id)
        {
            row.status = update.to;
            if update.link_new_game {
                row.game_id = committed.game_id;
            }
        }
    }

    pub(super) fn ladder_row(&self, server_id: i64) -> LadderRow {
        let stored = self.ladders.get(&server_id).cloned().unwrap_or_default();
        LadderRow {
            server_id,
            version: stored.version,
            entries: stored
                .entries
                .iter()
                .map(|(player, active_at)| LadderEntry {
                    player: *player,
                    name: self.name(*player),
                    active_at: *active_at,
                })
                .collect(),
        }
    }

    pub(super) fn idle_rungs(&self, active_before: DateTime<Utc>, limit: usize) -> Vec<IdleRung> {
        let before = to_stored_precision(active_before);
        let mut rungs: Vec<(usize, IdleRung)> = self
            .ladders
            .iter()
            .flat_map(|(server_id, ladder)| {
                ladder
                    .entries
                    .iter()
                    .enumerate()
                    .filter(|(_, (_, at))| *at <= before)
                    .map(|(place, (player, at))| {
                        (
                            place,
                            IdleRung {
                                server_id: *server_id,
                                player: *player,
                                active_at: *at,
                            },
                        )
                    })
            })
            .collect();
        rungs.sort_by_key(|(place, r)| (r.active_at, r.server_id, *place));
        rungs.into_iter().take(limit).map(|(_, r)| r).collect()
    }

    pub(super) fn next_ladder_deadline(
        &self,
        inactive_after: Option<chrono::Duration>,
    ) -> Option<DateTime<Utc>> {
        let accept_by = self
            .ladder_matches
            .iter()
            .filter(|m| m.status == LadderMatchStatus::Pending)
            .map(|m| m.accept_by)
            .min();
        let idle = inactive_after.and_then(|after| {
            self.ladders
                .values()
                .flat_map(|l| l.entries.iter().map(|(_, at)| *at))
                .min()
                .map(|oldest| oldest + after)
        });
        [accept_by, idle].into_iter().flatten().min()
    }
}
