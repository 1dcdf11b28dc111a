//! Flags that fall: the service's side of the scheduler.
//!
//! The scheduler only knows when to wake; [`Service::run_due`] finds the
//! games whose flag has fallen, lets the core decide (a loss, a draw when
//! the opponent cannot mate, or an abort when the first move never came) and
//! commits each one under an idempotency key made of the game and its
//! version, so two schedulers (or a restart) never end a game twice.
//!
//! The flag falls of one claimed batch are committed together, in one
//! transaction (one write to disk rather than one per game): all of them or
//! none, so a crash mid-batch loses nothing (the games stay running, and
//! come back when the claim's lease ends). A game whose end reads what an
//! earlier one in the batch changes (a shared player's rating, a ladder, a
//! tournament) is worked out only once those are committed; a batch that is
//! refused is attended again game by game.

use std::pin::Pin;

use chrono::{DateTime, Utc};

use super::cache::LoadedGame;
use super::cross::{home_notices, spread_all};
use super::games::{Saved, game_update};
use super::outbox::notices_on;
use super::texts::{self, Names};
use super::votes::Decided;
use super::{GameEvent, Reply, Service};
use crate::core::clock::Alarms;
use crate::core::game::{Act, Actor, Game, GameError, NoShow, PlayerId};
use crate::core::notation::Lang;
use crate::i18n::Arg;
use crate::storage::{
    Commit, Committed, DueGame, GameRecord, GameUpdate, Notify, PlayerRow, StorageError, WakeUp,
};

/// Games handled per store query; more are fetched until none are due.
const BATCH: usize = 200;

/// Flag falls worked out at once (their reads in flight together).
const READ_AHEAD: usize = 16;

/// How long a claimed batch stays this scheduler's: ample for a batch, and
/// short enough that the games of a process that died come back soon.
const CLAIM_LEASE: chrono::Duration = chrono::Duration::minutes(2);

impl Service {
    /// The earliest instant the scheduler has work: a flag or a reminder.
    pub async fn next_wake_up(&self) -> Result<Option<DateTime<Utc>>, StorageError> {
        let game = self.store.next_wake_up().await?;
        let leave_end = self.store.next_leave_end().await?;
        let ladder = self.next_ladder_deadline().await?;
        let tournament_start = self.store.next_tournament_start().await?;
        let digest = self.next_digest().await?;
        Ok([game, leave_end, ladder, tournament_start, digest]
            .into_iter()
            .flatten()
            .min())
    }

    /// Ends every game whose flag has fallen at `now`, the leaves and
    /// ladder challenges that ran out, starts the tournaments due, reminds
    /// the players whose reminder came, and returns how many notices that
    /// queued. They wait in the outbox, written in the same commits, for
    /// [`Service::deliver_notices`] (which draws their boards). Games a
    /// player saved meanwhile are left alone.
    pub async fn run_due(&self, now: DateTime<Utc>) -> usize {
        // Leaves first: a clock that restarted may be the next to run out.
        let mut queued = self.end_due_leaves(now).await.len();
        // Boxed as `Send` here, where that is proven: left to callers generic
        // over their notifier, the compiler fails to see it (a rustc
        // limitation with lifetimes inside nested async types).
        let due: Pin<Box<dyn Future<Output = Vec<Reply>> + Send + '_>> =
            Box::pin(self.attend_due_games(now));
        queued += due.await.len();
        queued += self.attend_ladders(now).await.len();
        queued += self.start_due_tournaments(now).await.len();
        queued += self.send_due_digests(now).await;
        queued
    }

    /// Reminds the player to move once, and moves the game's next reminder on.
    async fn remind(
        &self,
        due: DueGame,
        now: DateTime<Utc>,
    ) -> Result<Option<Vec<Reply>>, StorageError> {
        let Some(record) = self.store.game(due.id).await? else {
            return Ok(None);
        };
        if record.version != due.version {
            // An act came first; if it left the wake-up later, the game
            // comes due again and is looked at then.
            return Ok(None);
        }
        let Some(remind_at) = record.remind_at.filter(|at| *at <= now) else {
            // Woken early: a move put the alarm later and left the stored
            // wake-up (see `WakeUp`). Set it to the real alarm now.
            let alarm = Alarms::of(record.clock.as_ref(), record.remind_at).wake_at;
            self.store
                .rearm_wake_up(record.id, record.version, alarm)
                .await?;
            return Ok(None);
        };
        let game = super::games::restore(&record)?;
        let replies = self.reminders(&record, &game, now).await?;
        // A game between two platforms: the player reminded is told on theirs.
        let spread = self.home_spread(&record).await?;
        // The next point after this one. Counting from `now` (not the
        // stored instant, which a store may round) can never pick the same
        // point again; a scheduler that was late skips stale ones.
        let next = self.next_reminder(&game, now.max(remind_at));
        let update = exact(game_update(&record, &game, Saved::all_of(&game), next));
        let commit = Commit {
            // Once per reminder point, even across restarts.
            act_key: Some(format!(
                "remind:{}:{}",
                record.id,
                remind_at.timestamp_millis()
            )),
            game_updates: vec![update],
            outgoing: home_notices(&record, spread.as_ref()),
            relay: spread.as_ref().map(|s| s.relay(Some(record.server_id))),
            ..Commit::default()
        };
        let answer = move |_: &Committed| spread_all(spread.as_ref(), replies);
        match self.store.commit(commit, now, answer).await {
            Ok((_, replies)) => Ok(Some(replies)),
            Err(StorageError::Conflict | StorageError::DuplicateAct(_)) => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// The reminders (and warnings before the flag) due in `game`: to the
    /// player to move, or, when a team is to move, to each of its members
    /// (but one who plays against it), each in their language, through
    /// the outbox with the reminder's commit. Those who turned notices off
    /// get none.
    async fn reminders(
        &self,
        record: &GameRecord,
        game: &Game,
        now: DateTime<Utc>,
    ) -> Result<Vec<Reply>, StorageError> {
        let turn = game.turn();
        let to_move = record.player(turn);
        let left = game.clock().remaining(turn, now).unwrap_or_default();
        let team = match texts::is_stand_in(&to_move.platform_id) {
            true => self.store.game_teams(record.id).await?,
            false => Vec::new(),
        };
        // Each in their language, else the server's.
        let server_lang = self.server_language(record.server_id).await?;
        let Some((_, team)) = team.into_iter().find(|(side, _)| *side == turn) else {
            // An away player of a team match is reminded in their own channel.
            let channel = self.channel_of_player(record, to_move.id).await?;
            let reply = self.reminder(to_move, server_lang, record.id, None, left, channel);
            return Ok(reply.into_iter().collect());
        };
        let mut replies = Vec::new();
        for member in self.store.team_members(team.id).await? {
            if game.players().side_of(member).is_some() {
                continue;
            }
            let Some(row) = self.store.player(member).await? else {
                continue;
            };
            let channel = record.channel.clone();
            let team = Some(team.name.as_str());
            replies.extend(self.reminder(&row, server_lang, record.id, team, left, channel));
        }
        Ok(replies)
    }

    /// One reminder for `player` in their language, in `channel`: their
    /// move, or their team's (`team`) to vote on; `None` if they turned
    /// notices off.
    fn reminder(
        &self,
        player: &PlayerRow,
        server_lang: Lang,
        game: i64,
        team: Option<&str>,
        left: chrono::Duration,
        channel: String,
    ) -> Option<Reply> {
        let lang = player.reading_language(server_lang);
        let mut args = vec![
            ("player", Arg::from(player.display_name.as_str())),
            ("game", Arg::from(game)),
            (
                "left",
                Arg::from(texts::duration_text(&self.i18n, lang, left)),
            ),
        ];
        let key = match team {
            Some(team) => {
                args.push(("team", Arg::from(team)));
                "vote-reminder"
            }
            None => "reminder",
        };
        match player.notify {
            Notify::Off => None,
            notify => Some(Reply {
                channel,
                to: Some(player.platform_id.clone()),
                direct: notify == Notify::Direct,
                text: self.i18n.text(lang, key, &args),
                ..Reply::default()
            }),
        }
    }

    /// Ends the games whose flag fell and reminds the players whose reminder came.
    async fn attend_due_games(&self, now: DateTime<Utc>) -> Vec<Reply> {
        let mut replies = Vec::new();
        loop {
            // Claimed, so that schedulers in other processes take other games.
            let due = match self
                .store
                .claim_due_games(now, now + CLAIM_LEASE, BATCH)
                .await
            {
                Ok(due) => due,
                Err(error) => {
                    tracing::error!(%error, "cannot read due games");
                    return replies;
                }
            };
            let full_batch = due.len() == BATCH;
            let due_ids = due.clone();
            // Each game's notices, in the order the games came due.
            let mut notices: Vec<Option<Vec<Reply>>> = vec![None; due.len()];
            let mut ends = Vec::new();
            // Worked out a few at a time: each reads through its own connection.
            let mut worked: Vec<_> = Vec::new();
            // What was committed since the games in `worked` were read.
            let mut written: Vec<Read> = Vec::new();
            for (slot, game) in due.into_iter().enumerate() {
                if slot % READ_AHEAD == 0 {
                    let next: Vec<_> = due_ids[slot..]
                        .iter()
                        .take(READ_AHEAD)
                        .map(|&g| self.work_out_expiry(g, now))
                        .collect();
                    worked = futures_util::future::join_all(next).await;
                    worked.reverse();
                    written.clear();
                }
                let Some(mut worked_out) = worked.pop() else {
                    continue;
                };
                if stale(&worked_out, &ends, &written) {
                    // It read what a flag fall waiting in `ends` changes, or
                    // what one committed since has changed: commit those
                    // first, then read again.
                    for (_, _, end) in &ends {
                        written.extend(&end.reads);
                    }
                    self.commit_expiries(std::mem::take(&mut ends), &mut notices, now)
                        .await;
                    worked_out = self.work_out_expiry(game, now).await;
                }
                let outcome = match worked_out {
                    Ok(Some(expiry)) => {
                        ends.push((slot, game, expiry));
                        continue;
                    }
                    // No flag fell: the wake-up was for a reminder.
                    Ok(None) => self.remind(game, now).await,
                    Err(error) => Err(error),
                };
                notices[slot] = attended(game, outcome);
            }
            self.commit_expiries(ends, &mut notices, now).await;
            let handled = notices.iter().flatten().count();
            if handled > 0 {
                // Shows how processes sharing a database split the work.
                tracing::info!(handled, "due games attended");
            }
            replies.extend(notices.into_iter().flatten().flatten());
            // A full batch where nothing was done would repeat forever: stop.
            if !full_batch || handled == 0 {
                return replies;
            }
        }
    }

    /// Commits the flag falls of `ends` together, putting each one's
    /// notices in its slot of `notices`. If the batch is refused (a player
    /// moved meanwhile, say), nothing of it was written: each game is then
    /// attended alone, as if it had never been batched.
    async fn commit_expiries(
        &self,
        ends: Vec<(usize, DueGame, Expiry)>,
        notices: &mut [Option<Vec<Reply>>],
        now: DateTime<Utc>,
    ) {
        if ends.is_empty() {
            return;
        }
        let (games, commits): (Vec<_>, Vec<_>) = ends
            .into_iter()
            .map(|(slot, game, end)| {
                let answer = end.answer;
                let answer = move |committed: &Committed| answer(committed.clone());
                ((slot, game), (end.commit, answer))
            })
            .unzip();
        match self.store.commit_all(commits, now).await {
            Ok(done) => {
                for ((slot, _), (_, replies)) in games.into_iter().zip(done) {
                    notices[slot] = Some(replies);
                }
            }
            Err(error) => {
                tracing::debug!(%error, games = games.len(), "flag falls committed one by one");
                for (slot, game) in games {
                    let outcome = match self.expire(game, now).await {
                        Ok(None) => self.remind(game, now).await,
                        outcome => outcome,
                    };
                    notices[slot] = attended(game, outcome);
                }
            }
        }
    }

    /// Records that the bot is alive at `now`.
    pub async fn beat(&self, now: DateTime<Utc>) -> Result<(), StorageError> {
        self.store.beat(now).await
    }

    /// At start-up: if the last heartbeat is older than `threshold`, the bot
    /// was down; every running clock gets the outage back (recorded in each
    /// game) and both players are told (in text: these notices show no
    /// board). Then the heartbeat is renewed.
    pub async fn recover_downtime(
        &self,
        now: DateTime<Utc>,
        threshold: chrono::Duration,
    ) -> Result<Vec<Reply>, StorageError> {
        let mut replies = Vec::new();
        if let Some(last) = self.store.last_heartbeat().await? {
            let outage = now - last;
            if outage > threshold {
                tracing::warn!(
                    minutes = outage.num_minutes(),
                    "crediting clocks for an outage"
                );
                let mut after = 0;
                loop {
                    let page = self.store.clocked_games(after, BATCH).await?;
                    let Some(last_game) = page.last() else { break };
                    after = last_game.id;
                    for game in page {
                        match self.credit(game, outage, last, now).await {
                            Ok(notice) => replies.extend(notice),
                            Err(error) => {
                                tracing::error!(%error, game = game.id, "cannot credit a clock");
                            }
                        }
                    }
                }
            }
        }
        self.store.beat(now).await?;
        Ok(replies)
    }

    /// Gives one game's running clock the outage back.
    async fn credit(
        &self,
        target: DueGame,
        outage: chrono::Duration,
        down_since: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<Vec<Reply>, StorageError> {
        let Some(record) = self.store.game(target.id).await? else {
            return Ok(Vec::new());
        };
        let mut game = super::games::restore(&record)?;
        let saved = Saved::all_of(&game);
        game.credit_outage(outage, now);
        let names = Names::new(&record.white_player, &record.black_player);
        let lang = self.server_language(record.server_id).await?;
        let text = self.i18n.text(
            lang,
            "outage-credited",
            &[
                ("game", crate::i18n::Arg::from(record.id)),
                (
                    "duration",
                    crate::i18n::Arg::from(texts::duration_text(&self.i18n, lang, outage)),
                ),
                ("player", crate::i18n::Arg::from(names.display(game.turn()))),
            ],
        );
        let reply = Reply {
            channel: record.channel.clone(),
            to: names.mention(game.turn()),
            text,
            ..Reply::default()
        };
        let next = self.next_reminder(&game, now);
        let update = exact(game_update(&record, &game, saved, next));
        let spread = self.home_spread(&record).await?;
        let commit = Commit {
            // Once per game per outage, even if start-up is interrupted and run again.
            act_key: Some(format!(
                "outage:{}:{}",
                record.id,
                down_since.timestamp_millis()
            )),
            game_updates: vec![update],
            outgoing: home_notices(&record, spread.as_ref()),
            relay: spread.as_ref().map(|s| s.relay(Some(record.server_id))),
            ..Commit::default()
        };
        let answer = move |_: &Committed| spread_all(spread.as_ref(), vec![reply]);
        match self.store.commit(commit, now, answer).await {
            Ok((_, replies)) => Ok(replies),
            Err(StorageError::Conflict | StorageError::DuplicateAct(_)) => Ok(Vec::new()),
            Err(error) => Err(error),
        }
    }

    /// Lets the clock end one game, if its flag has really fallen.
    async fn expire(
        &self,
        due: DueGame,
        now: DateTime<Utc>,
    ) -> Result<Option<Vec<Reply>>, StorageError> {
        let Some(end) = self.work_out_expiry(due, now).await? else {
            return Ok(None);
        };
        let answer = end.answer;
        let answer = move |committed: &Committed| answer(committed.clone());
        match self.store.commit(end.commit, now, answer).await {
            Ok((_, replies)) => Ok(Some(replies)),
            // Another scheduler (or a move) got there first: nothing to say twice.
            Err(StorageError::Conflict | StorageError::DuplicateAct(_)) => Ok(Some(Vec::new())),
            Err(error) => Err(error),
        }
    }

    /// What the clock ending one game writes and says, if its flag has
    /// really fallen; nothing is written yet.
    async fn work_out_expiry(
        &self,
        due: DueGame,
        now: DateTime<Utc>,
    ) -> Result<Option<Expiry>, StorageError> {
        let loaded = match self.games.get(due.id, due.version) {
            Some(loaded) => loaded,
            None => match self.store.game(due.id).await? {
                Some(record) if record.version == due.version => {
                    let game = super::games::restore(&record)?;
                    self.games.put(LoadedGame::new(record, game))
                }
                // Saved meanwhile: the next round looks at it again.
                _ => return Ok(None),
            },
        };
        let record = &loaded.record;
        let mut game = loaded.game.clone();
        let turn = game.turn();
        // A team's time is up: its votes play its move, if they decide one
        // (with no vote, or none that decides, its flag falls as anyone's).
        let team_to_move = texts::is_stand_in(&record.player(turn).platform_id);
        if team_to_move
            && !game.is_over()
            && game.clock().is_flagged(now)
            && let Some(expiry) = self.vote_expiry(record, &game, now).await?
        {
            return Ok(Some(expiry));
        }
        // RULES.md: a no-show forfeits in a competition, aborts elsewhere.
        let no_show = match record.is_in_competition() {
            true => NoShow::Forfeit,
            false => NoShow::Abort,
        };
        let events = match game.apply(&Actor::Clock, Act::ClockExpired { no_show }, now) {
            Ok(events) => events,
            Err(GameError::NotFlagged | GameError::GameOver) => return Ok(None),
            Err(error) => {
                tracing::warn!(%error, game = record.id, "the clock could not end a game");
                return Ok(None);
            }
        };
        let names = Names::new(&record.white_player, &record.black_player);
        // In the language of the player who was waiting: the notice is theirs.
        let waiting = record.player(!turn);
        let lang = waiting.reading_language(self.server_language(record.server_id).await?);
        let mut lines =
            texts::describe_events(&self.i18n, lang, record.id, &names, &events, None, turn);
        self.push_kept_page_link(&mut lines, record.id, lang)
            .await?;
        // Tell the player who was waiting: the one whose flag did not fall.
        let reply = Reply {
            channel: record.channel.clone(),
            to: names.mention(!turn),
            text: lines.join("\n"),
            events: events
                .iter()
                .map(|event| GameEvent {
                    game: record.id,
                    event: event.clone(),
                })
                .collect(),
            // The final position, seen by the player who was waiting.
            board: Some(super::games::board_view(&game, record.id, &names, !turn)),
            ..Reply::default()
        };
        let next = self.next_reminder(&game, now);
        let update = exact(game_update(
            record,
            &game,
            Saved::all_of(&loaded.game),
            next,
        ));
        // Ratings, ladder and tournament move in the commit that ends the game.
        let end = self.game_end(record, &update.state, lang, now).await?;
        let reads = self.reads_of(record, &end).await?;
        let mut reply = reply;
        let spread = self.home_spread(record).await?;
        let mut commit = Commit {
            act_key: Some(format!("deadline:{}:{}", record.id, record.version)),
            game_updates: vec![update],
            outgoing: home_notices(record, spread.as_ref()),
            relay: spread.as_ref().map(|s| s.relay(Some(record.server_id))),
            ..Commit::default()
        };
        let answer = end.apply(&mut commit, &mut reply);
        Ok(Some(Expiry {
            commit,
            answer: Box::new(move |committed: Committed| {
                spread_all(spread.as_ref(), answer(&committed, vec![reply]))
            }),
            reads,
        }))
    }
}

impl Service {
    /// What game `record` ending as `end` reads and may change: its
    /// players' ratings, and its competitions when it moves one. A club's
    /// servers share them, so they are read under the club's scope.
    async fn reads_of(
        &self,
        record: &GameRecord,
        end: &super::game_end::GameEnd,
    ) -> Result<Vec<Read>, StorageError> {
        let scope = self.rating_scope(record.server_id).await?;
        let mut reads = vec![
            Read::Rating(scope, record.white),
            Read::Rating(scope, record.black),
        ];
        if end.touches_competition() {
            reads.push(Read::Competition(scope));
        }
        Ok(reads)
    }

    /// Game `game`'s page link as a line of `lines`, when it has one (read
    /// only: a flag's notice writes nothing outside its commit).
    async fn push_kept_page_link(
        &self,
        lines: &mut Vec<String>,
        game: i64,
        lang: Lang,
    ) -> Result<(), StorageError> {
        if let Some(url) = self.kept_game_link(game).await? {
            let url = [("url", crate::i18n::Arg::from(url))];
            lines.push(self.i18n.text(lang, "web-link", &url));
        }
        Ok(())
    }

    /// What a team's votes play when its time is up, if they decide
    /// something: the move is played at the deadline itself.
    async fn vote_expiry(
        &self,
        record: &GameRecord,
        game: &Game,
        now: DateTime<Utc>,
    ) -> Result<Option<Expiry>, StorageError> {
        let side = game.turn();
        let teams = self.store.game_teams(record.id).await?;
        let Some((_, team)) = teams.iter().find(|(colour, _)| *colour == side) else {
            return Ok(None);
        };
        let ballots = self.ballots_on(record, game, team).await?;
        if ballots.is_empty() {
            return Ok(None);
        }
        let server = self.store.server(record.server_id).await?;
        let server_lang = self.language_of(server.as_ref());
        let at = game
            .clock()
            .deadline()
            .map_or(now, |deadline| deadline.min(now));
        let decided = self
            .decide_votes(record, game, side, &ballots, server_lang, at, now)
            .await?;
        let Some(Decided {
            update,
            mut reply,
            end,
            ..
        }) = decided
        else {
            return Ok(None);
        };
        let reads = self.reads_of(record, &end).await?;
        let mut commit = Commit {
            act_key: Some(format!("deadline:{}:{}", record.id, record.version)),
            game_updates: vec![exact(update)],
            outgoing: notices_on(record.white_player.platform, record.server_id),
            ..Commit::default()
        };
        let answer = end.apply(&mut commit, &mut reply);
        Ok(Some(Expiry {
            commit,
            answer: Box::new(move |committed: Committed| answer(&committed, vec![reply])),
            reads,
        }))
    }
}

/// Whether a flag fall was worked out from what a flag fall waiting in
/// `ends` changes, or what one committed since (`written`) has changed.
fn stale(
    worked_out: &Result<Option<Expiry>, StorageError>,
    ends: &[(usize, DueGame, Expiry)],
    written: &[Read],
) -> bool {
    let Ok(Some(expiry)) = worked_out else {
        return false;
    };
    ends.iter().any(|(_, _, end)| expiry.shares_reads(end))
        || expiry.reads.iter().any(|read| written.contains(read))
}

/// The notices of one attended game (`None` if it needed nothing), with a
/// failure logged.
fn attended(
    game: DueGame,
    outcome: Result<Option<Vec<Reply>>, StorageError>,
) -> Option<Vec<Reply>> {
    match outcome {
        Ok(notices) => notices,
        Err(error) => {
            tracing::error!(%error, game = game.id, "cannot attend a due game");
            None
        }
    }
}

/// A flag fall worked out and not committed yet.
struct Expiry {
    commit: Commit,
    /// Given what the commit assigned (owned: a boxed closure over a
    /// borrowed argument would keep the scheduler's future from being `Send`).
    answer: Box<dyn FnOnce(Committed) -> Vec<Reply> + Send>,
    /// What working it out read besides the game itself.
    reads: Vec<Read>,
}

impl Expiry {
    /// Whether one of the two read what the other changes (a rating, a
    /// ladder, a tournament): then the second must be worked out after the
    /// first is committed, as if the games had ended one after the other.
    fn shares_reads(&self, other: &Expiry) -> bool {
        self.reads.iter().any(|read| other.reads.contains(read))
    }
}

/// Something a game's end reads and may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Read {
    /// A player's rating on a server (a club's scope for its servers).
    Rating(i64, PlayerId),
    /// A server's ladder and tournaments (a club's scope for its servers).
    Competition(i64),
}

/// A save made by the scheduler, which holds a claim on the game: its
/// wake-up is set to the next alarm, not only brought forward.
fn exact(update: GameUpdate) -> GameUpdate {
    GameUpdate {
        wake_up: WakeUp::Exact,
        ..update
    }
}
