//! The challenge ladder: `ladder show|join|leave|challenge @user`, and the
//! ladder's side of everything else. A ladder challenge is an ordinary
//! challenge with a ladder row beside it; accepting it, declining it, its
//! game's end, a forfeit and inactivity each move the ladder in the same
//! commit as what caused them. The rules are [`crate::competition::ladder`].
//!
//! A club has one ladder (issue 44): every server of it reads and writes
//! the ladder of the club's scope, its founding server
//! ([`Service::rating_scope`]). A server that joins a club sets its own
//! ladder aside (its rows stay, keyed by its id) and finds it again as it
//! was if it quits. A ladder challenge to a member of another platform is
//! told to them by direct message there, and they accept on a server of
//! the club, as any challenge between a club's servers.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use shakmaty::Color;

use super::outbox::notices_on;
use super::{Attachment, Attempt, Context, Prompt, Reply, Service};
use crate::competition::ladder::{Ladder, LadderError, LadderOutcome};
use crate::core::clock::TimeControl;
use crate::core::command::{LadderAction, UserRef};
use crate::core::game::PlayerId;
use crate::core::notation::Lang;
use crate::core::variant::Variant;
use crate::i18n::Arg;
use crate::render::table::{Caption, table_png};
use crate::storage::{
    ChallengeClosing, ChallengeStatus, ColorChoice, Commit, Committed, GameRecord, IdleRung,
    LadderMatchRow, LadderMatchStatus, LadderMatchUpdate, LadderRow, LadderWrite, NewChallenge,
    NewLadderMatch, Outgoing, PlayerRow, Status, StorageError,
};

/// Ladder deadlines handled per store query.
const BATCH: usize = 100;

/// What a settled ladder challenge changes, and what to tell.
#[derive(Clone, Debug)]
pub(super) struct Settlement {
    /// The new ranking (`None` when nothing is rewritten: a withdrawal).
    ladder: Option<LadderWrite>,
    update: LadderMatchUpdate,
    news: LadderNews,
}

/// A settled ladder challenge, for a sentence.
#[derive(Clone, Debug)]
struct LadderNews {
    challenger: String,
    defender: String,
    status: LadderMatchStatus,
    /// The challenger's new place, when they climbed.
    place: Option<usize>,
}

impl Settlement {
    /// Puts the settlement's writes into `commit`.
    pub(super) fn add_to(&self, commit: &mut Commit) {
        commit.ladder = self.ladder.clone();
        commit.ladder_match_update = Some(self.update);
    }
}

/// The ranking of a stored ladder, and each player's last activity.
/// The account that holds `player`'s place on ladder `row`: the one of
/// their linked accounts that joined it (a person has one place, acting
/// from either platform), else their own.
fn rung_of(row: &LadderRow, player: &PlayerRow) -> PlayerId {
    row.entries
        .iter()
        .find(|e| e.person == player.person)
        .map_or(player.id, |e| e.player)
}

fn ranking_of(row: &LadderRow) -> (Ladder, HashMap<PlayerId, DateTime<Utc>>) {
    let ladder = Ladder {
        ranking: row.entries.iter().map(|e| e.player).collect(),
    };
    let activity = row
        .entries
        .iter()
        .map(|e| (e.player, e.active_at))
        .collect();
    (ladder, activity)
}

/// The write that stores `ladder`, with `active` players' activity set to `at`.
fn write_of(
    row: &LadderRow,
    ladder: &Ladder,
    activity: &HashMap<PlayerId, DateTime<Utc>>,
    active: &[PlayerId],
    at: DateTime<Utc>,
) -> LadderWrite {
    LadderWrite {
        server_id: row.server_id,
        expected_version: row.version,
        entries: ladder
            .ranking
            .iter()
            .map(|player| {
                let last = if active.contains(player) {
                    at
                } else {
                    activity.get(player).copied().unwrap_or(at)
                };
                (*player, last)
            })
            .collect(),
    }
}

/// How a ladder challenge that ends as `status` counts.
fn outcome_of(status: LadderMatchStatus) -> Option<LadderOutcome> {
    match status {
        LadderMatchStatus::ChallengerWon | LadderMatchStatus::Forfeited => {
            Some(LadderOutcome::ChallengerWins)
        }
        LadderMatchStatus::DefenderWon => Some(LadderOutcome::DefenderWins),
        LadderMatchStatus::Drawn => Some(LadderOutcome::Draw),
        _ => None,
    }
}

impl Service {
    pub(super) async fn ladder(
        &self,
        ctx: &Context,
        action: &LadderAction,
        now: DateTime<Utc>,
    ) -> Attempt {
        match action {
            LadderAction::Show => self.show_ladder(ctx).await,
            LadderAction::Join => self.join_ladder(ctx, now).await,
            LadderAction::Leave => self.leave_ladder(ctx, now).await,
            LadderAction::Challenge { opponent } => self.ladder_challenge(ctx, opponent, now).await,
        }
    }

    fn ladder_refusal(&self, ctx: &Context, error: LadderError, other: &str) -> Reply {
        let (key, args) = match error {
            LadderError::AlreadyOn => ("ladder-already-on", vec![]),
            LadderError::NotOn => ("ladder-not-on", vec![("player", Arg::from(other))]),
            LadderError::NotAbove => ("ladder-not-above", vec![("player", Arg::from(other))]),
            LadderError::TooFar(reach) => (
                "ladder-too-far",
                vec![
                    ("player", Arg::from(other)),
                    ("places", Arg::from(reach as i64)),
                ],
            ),
        };
        self.private(ctx, self.text(ctx, key, &args))
    }

    /// The ladder the act's server plays on: its club's, or its own.
    async fn ladder_of(&self, ctx: &Context) -> Result<LadderRow, StorageError> {
        let scope = self.rating_scope(ctx.server.id).await?;
        self.store.ladder(scope).await
    }

    async fn join_ladder(&self, ctx: &Context, now: DateTime<Utc>) -> Attempt {
        let row = self.ladder_of(ctx).await?;
        let (mut ladder, activity) = ranking_of(&row);
        let me = rung_of(&row, &ctx.player);
        let place = match ladder.join(me) {
            Ok(place) => place,
            Err(error) => return Ok(vec![self.ladder_refusal(ctx, error, "")]),
        };
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            ladder: Some(write_of(&row, &ladder, &activity, &[me], now)),
            ..Commit::default()
        };
        let args = [
            ("player", Arg::from(ctx.player.display_name.as_str())),
            ("place", Arg::from(place as i64)),
        ];
        let reply = self.public(ctx, None, self.text(ctx, "ladder-joined", &args));
        let replies = self.commit_replies(ctx, commit, now, vec![reply]).await?;
        self.deadline_changed.wake();
        Ok(replies)
    }

    async fn leave_ladder(&self, ctx: &Context, now: DateTime<Utc>) -> Attempt {
        let row = self.ladder_of(ctx).await?;
        let (mut ladder, activity) = ranking_of(&row);
        if let Err(error) = ladder.leave(rung_of(&row, &ctx.player)) {
            let name = ctx.player.display_name.clone();
            return Ok(vec![self.ladder_refusal(ctx, error, &name)]);
        }
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            ladder: Some(write_of(&row, &ladder, &activity, &[], now)),
            ..Commit::default()
        };
        let args = [("player", Arg::from(ctx.player.display_name.as_str()))];
        let reply = self.public(ctx, None, self.text(ctx, "ladder-left", &args));
        self.commit_replies(ctx, commit, now, vec![reply]).await
    }

    /// The ladder as text, with a PNG table.
    async fn show_ladder(&self, ctx: &Context) -> Attempt {
        let row = self.ladder_of(ctx).await?;
        if row.entries.is_empty() {
            return Ok(vec![self.public(
                ctx,
                None,
                self.text(ctx, "ladder-empty", &[]),
            )]);
        }
        let args = [("places", Arg::from(self.config.ladder.max_places_up as i64))];
        let mut lines = vec![self.text(ctx, "ladder-header", &args)];
        for (index, entry) in row.entries.iter().enumerate() {
            lines.push(self.text(
                ctx,
                "ladder-line",
                &[
                    ("place", Arg::from(index as i64 + 1)),
                    ("player", Arg::from(entry.name.as_str())),
                ],
            ));
        }
        let mut reply = self.public(ctx, None, lines.join("\n"));
        let header = vec![
            self.text(ctx, "ladder-png-place", &[]),
            self.text(ctx, "ladder-png-player", &[]),
        ];
        let cells: Vec<Vec<String>> = row
            .entries
            .iter()
            .enumerate()
            .map(|(index, entry)| vec![(index + 1).to_string(), entry.name.clone()])
            .collect();
        let caption = Caption {
            title: &self.text(ctx, "ladder-png-title", &[]),
            detail: &super::texts::picture_detail(ctx),
        };
        match table_png(&caption, &header, &cells) {
            Ok(png) => reply.attachments.push(Attachment {
                filename: "ladder.png".to_owned(),
                content_type: "image/png".to_owned(),
                bytes: Arc::from(png),
            }),
            Err(error) => tracing::error!(%error, "cannot draw the ladder"),
        }
        Ok(vec![reply])
    }

    async fn ladder_challenge(
        &self,
        ctx: &Context,
        opponent: &UserRef,
        now: DateTime<Utc>,
    ) -> Attempt {
        let settings = &self.config.ladder;
        let defender = match self.ladder_defender(ctx, opponent).await? {
            Ok(defender) => defender,
            Err(refusal) => return Ok(refusal),
        };
        let row = self.ladder_of(ctx).await?;
        let (ladder, _) = ranking_of(&row);
        let (me, them) = (rung_of(&row, &ctx.player), rung_of(&row, &defender));
        if let Err(error) = ladder.check_challenge(me, them, settings.max_places_up) {
            let other = match (error, ladder.place(me)) {
                (LadderError::NotOn, None) => ctx.player.display_name.as_str(),
                _ => defender.display_name.as_str(),
            };
            return Ok(vec![self.ladder_refusal(ctx, error, other)]);
        }
        let busy = self.busy_in_ladder(ctx, row.server_id, (me, them), &defender);
        if let Some(refusal) = busy.await? {
            return Ok(vec![refusal]);
        }
        let rungs = (me, them);
        let mut commit = self.ladder_challenge_commit(ctx, row.server_id, defender.id, rungs, now);
        // A member of another platform is told there, by direct message.
        let here = ctx.platform;
        let elsewhere = (defender.platform != here).then(|| defender.clone());
        commit.relay = elsewhere
            .as_ref()
            .map(|row| Outgoing::due_now(row.platform, None));
        let (i18n, lang) = (self.i18n.clone(), ctx.lang);
        let channel = ctx.channel_platform_id.clone();
        let challenger = ctx.player.display_name.clone();
        let days = i64::from(settings.accept_days);
        let places = (
            ladder.place(me).unwrap_or_default() as i64,
            ladder.place(them).unwrap_or_default() as i64,
        );
        let (_, replies) = self
            .commit_act(ctx, commit, now, move |committed: &Committed| {
                let challenge = committed.challenge_id.unwrap_or_default();
                let text = i18n.text(
                    lang,
                    "ladder-challenged",
                    &[
                        ("player", Arg::from(challenger.as_str())),
                        ("from", Arg::from(places.0)),
                        ("opponent", Arg::from(defender.display_name.as_str())),
                        ("to", Arg::from(places.1)),
                        ("challenge", Arg::from(challenge)),
                        ("days", Arg::from(days)),
                    ],
                );
                let replies = vec![Reply {
                    channel,
                    to: Some(defender.platform_id.clone()),
                    text,
                    prompt: Prompt::Challenge { challenge },
                    ..Reply::default()
                }];
                let Some(row) = elsewhere else {
                    return replies;
                };
                let hint = i18n.text(
                    row.reading_language(lang),
                    "challenge-cross-hint",
                    &[("challenge", Arg::from(challenge))],
                );
                super::cross::challenge_elsewhere(replies, here, &row, &hint)
            })
            .await?;
        self.deadline_changed.wake();
        Ok(replies)
    }

    /// The player a ladder challenge names: one of this platform, or a
    /// club member of another (`matrix:@ann:hs`, `discord:<id>`), as
    /// `/challenge` names them; or the refusal.
    async fn ladder_defender(
        &self,
        ctx: &Context,
        opponent: &UserRef,
    ) -> Result<Result<PlayerRow, Vec<Reply>>, StorageError> {
        let named = opponent.as_str();
        let found = match super::cross::other_platform_member(named, ctx.platform) {
            Some((platform, id)) => match self.club_member(ctx, platform, id).await? {
                Ok(found) => found,
                Err(refusal) => return Ok(Err(refusal)),
            },
            None => self.store.find_player(ctx.platform, named).await?,
        };
        let Some(defender) = found else {
            let error = LadderError::NotOn;
            let name = opponent.display_name();
            return Ok(Err(vec![self.ladder_refusal(ctx, error, name)]));
        };
        if defender.person == ctx.player.person {
            let text = self.text(ctx, "challenge-self", &[]);
            return Ok(Err(vec![self.private(ctx, text)]));
        }
        Ok(Ok(defender))
    }

    /// The refusal of a ladder challenge when the challenger or `defender`
    /// (by the accounts holding their places: `rungs`) is in one on ladder
    /// `scope` that is not settled yet, if one is.
    async fn busy_in_ladder(
        &self,
        ctx: &Context,
        scope: i64,
        (me, them): (PlayerId, PlayerId),
        defender: &PlayerRow,
    ) -> Result<Option<Reply>, StorageError> {
        let unsettled = self.store.unsettled_ladder_matches(scope).await?;
        let busy = [me, them].into_iter().find(|player| {
            unsettled
                .iter()
                .any(|m| m.challenger == *player || m.defender == *player)
        });
        Ok(busy.map(|busy| {
            let name = if busy == me {
                &ctx.player.display_name
            } else {
                &defender.display_name
            };
            let text = self.text(ctx, "ladder-busy", &[("player", Arg::from(name.as_str()))]);
            self.private(ctx, text)
        }))
    }

    /// A ladder challenge to `defender` written: the challenge itself, by
    /// the ladder's settings, between the accounts that play it, and the
    /// ladder match it opens on the ladder of `scope` between the accounts
    /// holding their places (`rungs`: a linked player's other account's).
    fn ladder_challenge_commit(
        &self,
        ctx: &Context,
        scope: i64,
        defender: PlayerId,
        rungs: (PlayerId, PlayerId),
        now: DateTime<Utc>,
    ) -> Commit {
        let settings = &self.config.ladder;
        // Checked at start-up; a bad one falls back to the server's default.
        let time_control = settings
            .time_control
            .parse::<TimeControl>()
            .map(|control| control.to_string())
            .unwrap_or_else(|_| ctx.server.time_control.clone());
        let accept_by = settings.accept_by(now);
        let me = ctx.player.id;
        Commit {
            act_key: ctx.act_key.clone(),
            new_challenge: Some(NewChallenge {
                server_id: ctx.server.id,
                channel_id: ctx.channel.id,
                challenger: me,
                challenged: Some(defender),
                color: ColorChoice::Random,
                time_control,
                rated: settings.rated,
                variant: Variant::Standard,
                start_fen: None,
                expires_at: accept_by,
                start_moves: None,
                votes_changeable: None,
            }),
            new_ladder_match: Some(NewLadderMatch {
                server_id: scope,
                challenger: rungs.0,
                defender: rungs.1,
                accept_by,
            }),
            ..Commit::default()
        }
    }

    /// The ladder challenge behind challenge `challenge_id`, while it waits.
    pub(super) async fn pending_ladder_match(
        &self,
        challenge_id: i64,
    ) -> Result<Option<LadderMatchRow>, StorageError> {
        let found = self.store.ladder_match_of_challenge(challenge_id).await?;
        Ok(found.filter(|m| m.status == LadderMatchStatus::Pending))
    }

    /// Settles a ladder challenge as `status` at `at`; `active` players'
    /// activity moves to `at`.
    pub(super) async fn settle_ladder_match(
        &self,
        matched: &LadderMatchRow,
        status: LadderMatchStatus,
        active: &[PlayerId],
        at: DateTime<Utc>,
    ) -> Result<Settlement, StorageError> {
        let name = |id| async move {
            let player = self.store.player(id).await?;
            Ok::<_, StorageError>(player.map(|p| p.display_name).unwrap_or_default())
        };
        let challenger = name(matched.challenger).await?;
        let defender = name(matched.defender).await?;
        let update = LadderMatchUpdate {
            id: matched.id,
            from: matched.status,
            to: status,
            link_new_game: false,
        };
        if status == LadderMatchStatus::Withdrawn {
            return Ok(Settlement {
                ladder: None,
                update,
                news: LadderNews {
                    challenger,
                    defender,
                    status,
                    place: None,
                },
            });
        }
        let row = self.store.ladder(matched.server_id).await?;
        let (mut ladder, activity) = ranking_of(&row);
        let climbed = outcome_of(status)
            .is_some_and(|outcome| ladder.settle(matched.challenger, matched.defender, outcome));
        Ok(Settlement {
            ladder: Some(write_of(&row, &ladder, &activity, active, at)),
            update,
            news: LadderNews {
                challenger,
                defender,
                status,
                place: climbed.then(|| ladder.place(matched.challenger)).flatten(),
            },
        })
    }

    /// The ladder settlement of a game that `state` ends, if it was a ladder game.
    pub(super) async fn ladder_game_settlement(
        &self,
        record: &GameRecord,
        state: &Status,
    ) -> Result<Option<Settlement>, StorageError> {
        let Status::Over {
            result,
            at: ended_at,
            ..
        } = *state
        else {
            return Ok(None);
        };
        // Most games are no ladder challenge's: they read nothing more.
        if !record.ladder_match || record.state != Status::Ongoing {
            return Ok(None);
        }
        let Some(matched) = self.store.ladder_match_of_game(record.id).await? else {
            return Ok(None);
        };
        if matched.status != LadderMatchStatus::Playing {
            return Ok(None);
        }
        // By person: a linked player may play from another account than
        // the one holding their place.
        let challenger = self.store.player(matched.challenger).await?;
        let challenger = challenger.map_or(matched.challenger, |p| p.person);
        let challenger_color = if record.white_player.person == challenger {
            Color::White
        } else {
            Color::Black
        };
        let status = match LadderOutcome::of_game(challenger_color, result) {
            Some(LadderOutcome::ChallengerWins) => LadderMatchStatus::ChallengerWon,
            Some(LadderOutcome::DefenderWins) => LadderMatchStatus::DefenderWon,
            Some(LadderOutcome::Draw) => LadderMatchStatus::Drawn,
            None => LadderMatchStatus::Aborted,
        };
        let players = [matched.challenger, matched.defender];
        let settlement = self
            .settle_ladder_match(&matched, status, &players, ended_at)
            .await?;
        Ok(Some(settlement))
    }

    /// One sentence about a settled ladder challenge.
    pub(super) fn settlement_text(&self, lang: Lang, settlement: &Settlement) -> String {
        let news = &settlement.news;
        let key = match (news.status, news.place) {
            (LadderMatchStatus::Forfeited, Some(_)) => "ladder-forfeit",
            (_, Some(_)) => "ladder-climbed",
            (LadderMatchStatus::Withdrawn, None) => "ladder-withdrawn",
            (_, None) => "ladder-unchanged",
        };
        let place = news.place.unwrap_or_default() as i64;
        self.i18n.text(
            lang,
            key,
            &[
                ("player", Arg::from(news.challenger.as_str())),
                ("opponent", Arg::from(news.defender.as_str())),
                ("place", Arg::from(place)),
            ],
        )
    }

    /// The earliest ladder deadline: a forfeit or an inactive player.
    pub(super) async fn next_ladder_deadline(&self) -> Result<Option<DateTime<Utc>>, StorageError> {
        let inactive_after = self.config.ladder.inactive_after();
        self.store.next_ladder_deadline(inactive_after).await
    }

    /// Forfeits the ladder challenges not accepted in time and applies the
    /// inactivity rule; returns the notices.
    pub(super) async fn attend_ladders(&self, now: DateTime<Utc>) -> Vec<Reply> {
        let mut replies = Vec::new();
        match self.store.due_ladder_forfeits(now, BATCH).await {
            Ok(due) => {
                for matched in due {
                    match self.forfeit(&matched, now).await {
                        Ok(notices) => replies.extend(notices),
                        Err(error) => {
                            tracing::error!(%error, ladder_match = matched.id, "cannot forfeit");
                        }
                    }
                }
            }
            Err(error) => tracing::error!(%error, "cannot read due ladder forfeits"),
        }
        let Some(after) = self.config.ladder.inactive_after() else {
            return replies;
        };
        match self.store.idle_ladder_rungs(now - after, BATCH).await {
            Ok(idle) => {
                for rung in idle {
                    match self.retire_idle(rung, now).await {
                        Ok(notices) => replies.extend(notices),
                        Err(error) => {
                            tracing::error!(%error, server = rung.server_id, "cannot apply inactivity");
                        }
                    }
                }
            }
            Err(error) => tracing::error!(%error, "cannot read idle ladder players"),
        }
        replies
    }

    /// A ladder challenge not accepted in time: the challenger wins by forfeit.
    async fn forfeit(
        &self,
        matched: &LadderMatchRow,
        now: DateTime<Utc>,
    ) -> Result<Vec<Reply>, StorageError> {
        let settlement = self
            .settle_ladder_match(
                matched,
                LadderMatchStatus::Forfeited,
                &[matched.challenger],
                now,
            )
            .await?;
        let mut commit = Commit {
            act_key: Some(format!("ladder-forfeit:{}", matched.id)),
            closing_challenge: Some(ChallengeClosing {
                id: matched.challenge_id,
                to: ChallengeStatus::Expired,
            }),
            // Told where the challenge was made, on that server's platform.
            outgoing: notices_on(
                self.platform_of(matched.challenge_server).await?,
                matched.challenge_server,
            ),
            ..Commit::default()
        };
        settlement.add_to(&mut commit);
        let lang = self.server_language(matched.challenge_server).await?;
        let text = self.settlement_text(lang, &settlement);
        let reply = Reply {
            channel: matched.channel.clone(),
            to: None,
            text,
            ..Reply::default()
        };
        match self.store.commit(commit, now, move |_| vec![reply]).await {
            Ok((_, replies)) => Ok(replies),
            // Accepted, declined or forfeited meanwhile: the next round looks again.
            Err(StorageError::Conflict | StorageError::DuplicateAct(_)) => Ok(Vec::new()),
            Err(error) => Err(error),
        }
    }

    /// Applies the inactivity rule to one idle player, unless a ladder
    /// challenge of theirs is under way (then their activity is renewed).
    async fn retire_idle(
        &self,
        rung: IdleRung,
        now: DateTime<Utc>,
    ) -> Result<Vec<Reply>, StorageError> {
        let row = self.store.ladder(rung.server_id).await?;
        let (mut ladder, activity) = ranking_of(&row);
        if activity.get(&rung.player) != Some(&rung.active_at) {
            return Ok(Vec::new());
        }
        let unsettled = self.store.unsettled_ladder_matches(rung.server_id).await?;
        let busy = unsettled
            .iter()
            .any(|m| m.challenger == rung.player || m.defender == rung.player);
        let before = ladder.place(rung.player);
        if !busy {
            ladder.apply_inactivity(rung.player, self.config.ladder.inactivity);
        }
        let player = self.store.player(rung.player).await?;
        // A club's ladder player may be of another platform than its scope.
        let platform = match &player {
            Some(player) => player.platform,
            None => self.platform_of(rung.server_id).await?,
        };
        let commit = Commit {
            act_key: Some(format!(
                "ladder-idle:{}:{}:{}",
                rung.server_id,
                rung.player.0,
                rung.active_at.timestamp_millis()
            )),
            ladder: Some(write_of(&row, &ladder, &activity, &[rung.player], now)),
            outgoing: notices_on(platform, rung.server_id),
            ..Commit::default()
        };
        // Renewed, or already at the bottom: nothing to tell.
        let moved = ladder.place(rung.player) != before;
        let server_lang = self.server_language(rung.server_id).await?;
        let notice = player.filter(|_| moved).map(|player| {
            let lang = player.reading_language(server_lang);
            let (key, place) = match ladder.place(rung.player) {
                Some(place) => ("ladder-inactive-dropped", place),
                None => ("ladder-inactive-removed", before.unwrap_or_default()),
            };
            let text = self.i18n.text(
                lang,
                key,
                &[
                    ("player", Arg::from(player.display_name.as_str())),
                    ("place", Arg::from(place as i64)),
                    ("days", Arg::from(self.config.ladder.inactive_days)),
                ],
            );
            // No channel belongs to a ladder: the player hears it directly.
            Reply {
                channel: String::new(),
                to: Some(player.platform_id.clone()),
                direct: true,
                text,
                ..Reply::default()
            }
        });
        let replies: Vec<Reply> = notice.into_iter().collect();
        match self.store.commit(commit, now, move |_| replies).await {
            Ok((_, replies)) => Ok(replies),
            Err(StorageError::Conflict | StorageError::DuplicateAct(_)) => Ok(Vec::new()),
            Err(error) => Err(error),
        }
    }
}
