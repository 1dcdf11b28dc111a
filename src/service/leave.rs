//! Leave (vacation): a player's clocks stop in all their games on a server.
//!
//! Leave is taken in whole days from a yearly allowance (reset on 1 January
//! UTC), starts when asked for (never backdated), and ends when its days are
//! up, when the player ends it, or when they move in a game; days not used
//! go back to the allowance. Opponents are told in each game's channel.

use chrono::{DateTime, Datelike, Duration, Utc};

use super::games::{Saved, game_update};
use super::outbox::notices_on;
use super::texts::{self, Names};
use super::{Attempt, Context, Reply, Service};
use crate::core::command::LeaveAction;
use crate::core::game::{Game, PlayerId};
use crate::core::notation::Lang;
use crate::i18n::Arg;
use crate::storage::{
    Commit, GameRecord, GameUpdate, LeaveEnding, LeaveRow, NewLeave, StorageError,
};

/// Whether a leave stops or restarts clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Switch {
    Pause,
    Resume,
}

impl Service {
    pub(super) async fn leave(
        &self,
        ctx: &Context,
        action: LeaveAction,
        now: DateTime<Utc>,
    ) -> Attempt {
        match action {
            LeaveAction::Status => self.leave_status(ctx, now).await,
            LeaveAction::Start { days } => self.start_leave(ctx, days, now).await,
            LeaveAction::End => {
                let Some(leave) = self
                    .store
                    .running_leave(ctx.player.id, ctx.server.id)
                    .await?
                else {
                    return Ok(vec![self.private(ctx, self.text(ctx, "leave-none", &[]))]);
                };
                let (commit, mut replies) =
                    self.ending(&leave, now, ctx.act_key.clone(), None).await?;
                let left =
                    self.leave_left(ctx.player.id, ctx.server.id, now).await? + unused(&leave, now);
                let text = self.text(ctx, "leave-ended", &[("left", Arg::from(left))]);
                replies.insert(0, self.private(ctx, text));
                self.commit_replies(ctx, commit, now, replies).await
            }
        }
    }

    /// Days of allowance `player` has left this year on a server.
    async fn leave_left(
        &self,
        player: PlayerId,
        server_id: i64,
        now: DateTime<Utc>,
    ) -> Result<u32, StorageError> {
        let used = self
            .store
            .leave_days_in_year(player, server_id, now.year())
            .await?;
        Ok(self.config.leave_days_per_year.saturating_sub(used))
    }

    async fn leave_status(&self, ctx: &Context, now: DateTime<Utc>) -> Attempt {
        let left = self.leave_left(ctx.player.id, ctx.server.id, now).await?;
        let text = match self
            .store
            .running_leave(ctx.player.id, ctx.server.id)
            .await?
        {
            Some(leave) => self.text(
                ctx,
                "leave-status-on",
                &[
                    ("until", Arg::from(instant(leave.ends_at))),
                    ("left", Arg::from(left)),
                ],
            ),
            None => self.text(ctx, "leave-status-off", &[("left", Arg::from(left))]),
        };
        Ok(vec![self.private(ctx, text)])
    }

    async fn start_leave(&self, ctx: &Context, days: u32, now: DateTime<Utc>) -> Attempt {
        if self
            .store
            .running_leave(ctx.player.id, ctx.server.id)
            .await?
            .is_some()
        {
            return Ok(vec![
                self.private(ctx, self.text(ctx, "leave-already", &[])),
            ]);
        }
        let left = self.leave_left(ctx.player.id, ctx.server.id, now).await?;
        if days > left {
            let text = self.text(ctx, "leave-too-long", &[("left", Arg::from(left))]);
            return Ok(vec![self.private(ctx, text)]);
        }
        let ends_at = now + Duration::days(i64::from(days));
        let (game_updates, notices) = self
            .switch_clocks(ctx.player.id, ctx.server.id, Switch::Pause, now, None)
            .await?;
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            new_leave: Some(NewLeave {
                player: ctx.player.id,
                server_id: ctx.server.id,
                starts_at: now,
                ends_at,
                days,
            }),
            game_updates,
            ..Commit::default()
        };
        let args = [
            ("until", Arg::from(instant(ends_at))),
            ("left", Arg::from(left - days)),
        ];
        let mut replies = vec![self.private(ctx, self.text(ctx, "leave-started", &args))];
        replies.extend(notices.into_iter().map(|(record, _)| {
            let notice = (ctx.player.id, "leave-notice", Some(ends_at));
            self.leave_notice(&record, ctx.server_lang, notice)
        }));
        self.commit_replies(ctx, commit, now, replies).await
    }

    /// The commit and notices that end `leave` at `now` (its clocks restart),
    /// leaving out `moving_in`, the game a move is being saved for.
    pub(super) async fn ending(
        &self,
        leave: &LeaveRow,
        now: DateTime<Utc>,
        act_key: Option<String>,
        moving_in: Option<i64>,
    ) -> Result<(Commit, Vec<Reply>), StorageError> {
        let (game_updates, notices) = self
            .switch_clocks(
                leave.player,
                leave.server_id,
                Switch::Resume,
                now,
                moving_in,
            )
            .await?;
        let commit = Commit {
            act_key,
            ending_leave: Some(LeaveEnding {
                id: leave.id,
                ended_at: now,
                days: leave.days.min(days_taken(leave, now)),
            }),
            game_updates,
            ..Commit::default()
        };
        let server_lang = self.server_language(leave.server_id).await?;
        let replies = notices
            .into_iter()
            .map(|(record, _)| {
                let notice = (leave.player, "leave-back", None);
                self.leave_notice(&record, server_lang, notice)
            })
            .collect();
        Ok((commit, replies))
    }

    /// Ends the leaves whose days are up at `now`; for the scheduler.
    pub(super) async fn end_due_leaves(&self, now: DateTime<Utc>) -> Vec<Reply> {
        let due = match self.store.due_leave_ends(now, 200).await {
            Ok(due) => due,
            Err(error) => {
                tracing::error!(%error, "cannot read leaves that end");
                return Vec::new();
            }
        };
        let mut replies = Vec::new();
        for leave in due {
            // Clocks restart at the leave's own end, not when the scheduler woke.
            let at = leave.ends_at;
            let key = Some(format!("leave-end:{}", leave.id));
            let attempt = match self.ending(&leave, at, key, None).await {
                Ok((mut commit, notices)) => match self.platform_of(leave.server_id).await {
                    Ok(platform) => {
                        commit.outgoing = notices_on(platform, leave.server_id);
                        self.store.commit(commit, now, move |_| notices).await
                    }
                    Err(error) => Err(error),
                },
                Err(error) => Err(error),
            };
            match attempt {
                Ok((_, notices)) => replies.extend(notices),
                Err(StorageError::Conflict | StorageError::DuplicateAct(_)) => {}
                Err(error) => tracing::error!(%error, leave = leave.id, "cannot end a leave"),
            }
        }
        // No need to wake the scheduler: it is the caller, and looks at the
        // next wake-up right after this.
        replies
    }

    /// Stops or restarts the clocks of `player`'s games on a server where it
    /// is their move; returns the saves and the games changed.
    async fn switch_clocks(
        &self,
        player: PlayerId,
        server_id: i64,
        switch: Switch,
        now: DateTime<Utc>,
        except: Option<i64>,
    ) -> Result<(Vec<GameUpdate>, Vec<(GameRecord, Game)>), StorageError> {
        let mut updates = Vec::new();
        let mut changed = Vec::new();
        for summary in self
            .store
            .ongoing_games_on_server(server_id, player)
            .await?
        {
            let their_move = match summary.turn {
                shakmaty::Color::White => summary.white == player,
                shakmaty::Color::Black => summary.black == player,
            };
            if !their_move || Some(summary.id) == except {
                continue;
            }
            let Some(record) = self.store.game(summary.id).await? else {
                continue;
            };
            let mut game = super::games::restore(&record)?;
            match switch {
                Switch::Pause => game.pause_clock(now),
                Switch::Resume => game.resume_clock(now),
            }
            let remind_at = self.next_reminder(&game, now);
            let saved = Saved::all_of(&game);
            updates.push(game_update(&record, &game, saved, remind_at));
            changed.push((record, game));
        }
        Ok((updates, changed))
    }

    /// Tells a game's channel that `player` went on leave or came back.
    /// It is told to the opponent, in their language.
    fn leave_notice(
        &self,
        record: &GameRecord,
        server_lang: Lang,
        (player, key, until): (PlayerId, &str, Option<DateTime<Utc>>),
    ) -> Reply {
        let names = Names::new(&record.white_player, &record.black_player);
        let (on_leave, opponent) = if record.white == player {
            (shakmaty::Color::White, shakmaty::Color::Black)
        } else {
            (shakmaty::Color::Black, shakmaty::Color::White)
        };
        let lang = record.player(opponent).reading_language(server_lang);
        let mut args = vec![
            ("player", Arg::from(names.display(on_leave))),
            ("game", Arg::from(record.id)),
        ];
        if let Some(until) = until {
            args.push(("until", Arg::from(instant(until))));
        }
        Reply {
            channel: record.channel.clone(),
            to: names.mention(opponent),
            text: self.i18n.text(lang, key, &args),
            ..Reply::default()
        }
    }
}

/// Whole days a leave has used by `now`: a day begun counts whole (leave
/// is taken in whole days), but a leave ended the instant it began stopped
/// no clock for any time and costs none.
fn days_taken(leave: &LeaveRow, now: DateTime<Utc>) -> u32 {
    let elapsed = (now - leave.starts_at).num_milliseconds().max(0);
    u32::try_from((elapsed as u64).div_ceil(86_400_000)).unwrap_or(u32::MAX)
}

/// Days of a running leave that ending it at `now` gives back.
fn unused(leave: &LeaveRow, now: DateTime<Utc>) -> u32 {
    leave.days.saturating_sub(days_taken(leave, now))
}

fn instant(at: DateTime<Utc>) -> String {
    texts::utc_instant(at)
}
