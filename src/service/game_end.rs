//! What a game's end moves besides the game: both ratings, the ladder,
//! its tournament and its team match, all in the commit that ends it. A move, a resignation,
//! a draw and a flag fall end games the same way through [`GameEnd`].

use chrono::{DateTime, Utc};

use super::ladder::Settlement;
use super::matches::MatchProgress;
use super::tournament_flow::Announcements;
use super::{Reply, Service};
use crate::core::notation::Lang;
use crate::core::platform::Platform;
use crate::storage::{
    Commit, Committed, GameRecord, RatingUpdate, Status, StorageError, TournamentChange,
};

/// The writes and sentences a game's end adds; all empty while it runs.
pub(super) struct GameEnd {
    rating_updates: Vec<RatingUpdate>,
    settlement: Option<Settlement>,
    tournament_changes: Vec<TournamentChange>,
    /// Announced once the commit has given new tournament games their ids.
    announcements: Option<Announcements>,
    /// Sentences for the reply that tells the end (ratings, ladder, a
    /// team match's score).
    lines: Vec<String>,
    /// A team match game's messages for the other side, and its match's
    /// move on (see `matches`).
    team_match: Option<MatchProgress>,
}

impl Service {
    /// What `record` ending as `state` moves, told in `lang`.
    pub(super) async fn game_end(
        &self,
        record: &GameRecord,
        state: &Status,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<GameEnd, StorageError> {
        let mut lines = Vec::new();
        let (rating_updates, changes) = self.rating_updates(record, state).await?;
        if !changes.is_empty() {
            lines.push(super::ratings::changes_text(&self.i18n, lang, &changes));
        }
        let settlement = self.ladder_game_settlement(record, state).await?;
        if let Some(settlement) = &settlement {
            lines.push(self.settlement_text(lang, settlement));
        }
        let team_match = self.match_progress(record, state, lang, &mut lines).await?;
        let (tournament_changes, announcements) =
            match self.after_tournament_game(record, state, now).await? {
                Some((changes, notes)) => (changes, Some(notes)),
                None => (Vec::new(), None),
            };
        Ok(GameEnd {
            rating_updates,
            settlement,
            tournament_changes,
            announcements,
            lines,
            team_match,
        })
    }
}

impl GameEnd {
    /// Whether working it out read a ladder or a running tournament (whose
    /// other games' ends it depends on), not just its players' ratings.
    pub(super) fn touches_competition(&self) -> bool {
        self.settlement.is_some()
            || self.announcements.is_some()
            || self.team_match.as_ref().is_some_and(|m| m.change.is_some())
    }

    /// Puts the writes into `commit` and the sentences under `reply`'s text;
    /// returns how to answer once committed: `replies`, then the
    /// tournament's announcements.
    /// `here`: the platform the act or notice is delivered on; what its
    /// tournament says on another goes through that platform's worker.
    pub(super) fn apply(
        self,
        commit: &mut Commit,
        reply: &mut Reply,
        here: Platform,
    ) -> impl FnOnce(&Committed, Vec<Reply>) -> Vec<Reply> + Send + 'static {
        for line in &self.lines {
            reply.text.push('\n');
            reply.text.push_str(line);
        }
        commit.rating_updates = self.rating_updates;
        if let Some(settlement) = &self.settlement {
            settlement.add_to(commit);
        }
        commit.tournament_changes = self.tournament_changes;
        let mut team_match = self.team_match;
        if let Some(change) = team_match.as_mut().and_then(|m| m.change.take()) {
            commit.match_changes.push(change);
        }
        let announcements = self.announcements;
        if commit.relay.is_none() {
            commit.relay = announcements.as_ref().and_then(|n| n.relay(here));
        }
        move |committed, mut replies| {
            if let Some(notes) = announcements {
                replies.extend(notes.render(committed));
            }
            if let Some(progress) = team_match {
                progress.spread(&mut replies);
            }
            super::cross::own_first(replies, here)
        }
    }
}
