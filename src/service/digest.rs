//! The daily digest (`/settings digest HH:MM`, `/settings timezone`): one
//! direct message a day, at the player's local time, on the platform where
//! they asked for it, listing the games where it is their move (most urgent
//! first), the games finished since the last digest and the challenges
//! waiting for them; none when there is nothing to say, none during leave.
//!
//! A digest due is a deadline like a flag: the scheduler wakes for it and
//! [`Service::send_due_digests`] commits each one with its notice in the
//! outbox, under the key `digest:<account>:<due instant>` and conditioned
//! on the due instant it read, so it is never lost (the outbox) and never
//! doubled (across restarts and processes).

use chrono::{DateTime, Duration, Utc};
use chrono_tz::Tz;

use super::links::place_link;
use super::{Attempt, Context, Reply, Service, texts};
use crate::core::digest::{self, MINUTES_PER_DAY};
use crate::core::game::Status;
use crate::core::names::Named;
use crate::core::notation::Lang;
use crate::i18n::Arg;
use crate::storage::{Commit, DigestWrite, DueDigest, Outgoing, PlayerRow, StorageError};

/// Digests read per store query; more are read until none are due.
const BATCH: usize = 50;
/// Rounds of [`BATCH`] one wake-up makes at most (the rest at the next).
const MAX_ROUNDS: usize = 40;
/// The most games and challenges one digest lists in each section.
const MAX_LINES: usize = 20;

/// `minute` after midnight as `HH:MM`.
fn clock_time(minute: u32) -> String {
    format!("{:02}:{:02}", minute / 60, minute % 60)
}

/// A stored zone name read back (UTC when none or unknown).
fn zone_of(player: &PlayerRow) -> Tz {
    player
        .time_zone
        .as_deref()
        .and_then(digest::zone)
        .unwrap_or(Tz::UTC)
}

impl Service {
    /// `/settings timezone NAME` (`None`: UTC). The digest, if asked for,
    /// moves to the new zone's local time and to this account's platform.
    pub(super) async fn set_time_zone(
        &self,
        ctx: &Context,
        name: Option<&str>,
        now: DateTime<Utc>,
    ) -> Attempt {
        let zone = match name {
            None => Tz::UTC,
            Some(name) => match digest::zone(name) {
                Some(zone) => zone,
                None => {
                    let text = self.text(ctx, "timezone-unknown", &[]);
                    return Ok(vec![self.private(ctx, text)]);
                }
            },
        };
        let minute = ctx.player.digest_minute;
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            digest: Some(DigestWrite::Setting {
                player: ctx.player.id,
                time_zone: name.map(|_| zone.name().to_owned()),
                minute,
                next: minute.map(|m| digest::next_at(now, zone, m)),
            }),
            ..Commit::default()
        };
        let local = now.with_timezone(&zone).format("%H:%M").to_string();
        let text = self.text(
            ctx,
            "timezone-set",
            &[("zone", Arg::from(zone.name())), ("time", Arg::from(local))],
        );
        let reply = self.private(ctx, text);
        self.commit_setting(ctx, commit, now, reply).await
    }

    /// `/settings digest HH:MM` (`None`: off).
    pub(super) async fn set_digest(
        &self,
        ctx: &Context,
        minute: Option<u32>,
        now: DateTime<Utc>,
    ) -> Attempt {
        let minute = minute.filter(|m| *m < MINUTES_PER_DAY);
        let zone = zone_of(&ctx.player);
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            digest: Some(DigestWrite::Setting {
                player: ctx.player.id,
                time_zone: ctx.player.time_zone.clone(),
                minute,
                next: minute.map(|m| digest::next_at(now, zone, m)),
            }),
            ..Commit::default()
        };
        let text = match minute {
            Some(minute) => self.text(
                ctx,
                "digest-set",
                &[
                    ("time", Arg::from(clock_time(minute))),
                    ("zone", Arg::from(zone.name())),
                    ("platform", Arg::from(ctx.platform.as_str())),
                ],
            ),
            None => self.text(ctx, "digest-off", &[]),
        };
        let reply = self.private(ctx, text);
        self.commit_setting(ctx, commit, now, reply).await
    }

    /// When the next digest is due, if any player asked for one.
    pub(super) async fn next_digest(&self) -> Result<Option<DateTime<Utc>>, StorageError> {
        self.store.next_digest().await
    }

    /// Makes every digest due at `now`: each queued in the outbox with
    /// its account's next due instant; returns how many were queued.
    pub async fn send_due_digests(&self, now: DateTime<Utc>) -> usize {
        let mut queued = 0;
        for _ in 0..MAX_ROUNDS {
            let due = match self.store.due_digests(now, BATCH).await {
                Ok(due) => due,
                Err(error) => {
                    tracing::error!(kind = error.kind(), %error, "cannot read the digests due");
                    return queued;
                }
            };
            let full = due.len() == BATCH;
            for one in due {
                match self.make_digest(one, now).await {
                    Ok(true) => queued += 1,
                    Ok(false) => {}
                    Err(error) => {
                        tracing::error!(kind = error.kind(), %error, "a digest failed");
                        return queued;
                    }
                }
            }
            if !full {
                break;
            }
        }
        queued
    }

    /// One account's digest: queued if there is something to say and the
    /// person is not on leave; its next one set either way. `false` when
    /// nothing was queued (or another process made it first).
    async fn make_digest(&self, due: DueDigest, now: DateTime<Utc>) -> Result<bool, StorageError> {
        let player = &due.player;
        let zone = zone_of(player);
        let Some(minute) = player.digest_minute else {
            // No digest asked any more: nothing is due for this account.
            let commit = Commit {
                digest: Some(DigestWrite::Setting {
                    player: player.id,
                    time_zone: player.time_zone.clone(),
                    minute: None,
                    next: None,
                }),
                ..Commit::default()
            };
            self.store.commit(commit, now, |_| ()).await?;
            return Ok(false);
        };
        // A bot that was down skips the digests it missed but the last.
        let next = digest::next_at(now.max(due.due), zone, minute);
        let text = if self.store.person_on_leave(player.person, now).await? {
            None
        } else {
            let since = due.last.unwrap_or(now - Duration::days(1));
            self.digest_text(player, since, now).await?
        };
        let replies: Vec<Reply> = text
            .map(|text| Reply {
                channel: player.platform_id.clone(),
                to: Some(player.platform_id.clone()),
                direct: true,
                text,
                ..Reply::default()
            })
            .into_iter()
            .collect();
        let sends = !replies.is_empty();
        let commit = Commit {
            act_key: Some(format!(
                "digest:{}:{}",
                player.id.0,
                due.due.timestamp_millis()
            )),
            digest: Some(DigestWrite::Made {
                player: player.id,
                was: due.due,
                next,
                at: now,
            }),
            outgoing: sends.then_some(Outgoing::due_now(player.platform, None)),
            ..Commit::default()
        };
        match self.store.commit(commit, now, move |_| replies).await {
            Ok(_) => Ok(sends),
            Err(StorageError::Conflict | StorageError::DuplicateAct(_)) => Ok(false),
            Err(error) => Err(error),
        }
    }

    /// The digest's text for `player`'s person, or `None` when there is
    /// nothing to say.
    async fn digest_text(
        &self,
        player: &PlayerRow,
        since: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<Option<String>, StorageError> {
        let lang = player.reading_language(self.config.default_language);
        let to_move = self.digest_to_move(player, lang, now).await?;
        let finished = self.digest_finished(player, lang, since).await?;
        let challenges = self
            .store
            .challenges_to_person(player.person, now, MAX_LINES)
            .await?;
        if to_move.is_empty() && finished.is_empty() && challenges.is_empty() {
            return Ok(None);
        }
        let counts = [
            ("moves", Arg::from(to_move.len() as i64)),
            ("finished", Arg::from(finished.len() as i64)),
            ("challenges", Arg::from(challenges.len() as i64)),
        ];
        let mut lines = vec![self.i18n.text(lang, "digest-header", &counts)];
        if !to_move.is_empty() {
            lines.push(self.i18n.text(lang, "digest-your-move", &[]));
            lines.extend(to_move);
        }
        if !finished.is_empty() {
            lines.push(self.i18n.text(lang, "digest-finished", &[]));
            lines.extend(finished);
        }
        if !challenges.is_empty() {
            lines.push(self.i18n.text(lang, "digest-challenges", &[]));
            for challenge in &challenges {
                let args = [
                    ("id", Arg::from(challenge.id)),
                    ("player", Arg::from(challenge.challenger.as_str())),
                ];
                lines.push(self.i18n.text(lang, "digest-challenge-line", &args));
            }
        }
        Ok(Some(lines.join("\n")))
    }

    /// The games where it is the person's move, most urgent first.
    async fn digest_to_move(
        &self,
        player: &PlayerRow,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> Result<Vec<String>, StorageError> {
        let placed = self
            .store
            .games_of_person(player.person, false, MAX_LINES * 2)
            .await?;
        let mut mine = Vec::new();
        for place in &placed {
            let Some(record) = self.store.game(place.id).await? else {
                continue;
            };
            let game = super::games::restore(&record)?;
            if record.player(game.turn()).person != player.person {
                continue;
            }
            let left = game.clock().remaining(game.turn(), now);
            let left_text = left.map_or_else(
                || self.i18n.text(lang, "games-no-clock", &[]),
                |left| texts::duration_text(&self.i18n, lang, left),
            );
            let args = [
                ("game", Arg::from(record.id)),
                (
                    "white",
                    Arg::from(record.white_player.display_name.as_str()),
                ),
                (
                    "black",
                    Arg::from(record.black_player.display_name.as_str()),
                ),
                ("left", Arg::from(left_text)),
                ("where", Arg::from(place_link(place))),
            ];
            let line = self.i18n.text(lang, "digest-move-line", &args);
            mine.push((left.unwrap_or(Duration::days(100_000)), record.id, line));
        }
        mine.sort_by_key(|(left, id, _)| (*left, *id));
        Ok(mine
            .into_iter()
            .take(MAX_LINES)
            .map(|(_, _, line)| line)
            .collect())
    }

    /// The person's games finished since `since`, latest first.
    async fn digest_finished(
        &self,
        player: &PlayerRow,
        lang: Lang,
        since: DateTime<Utc>,
    ) -> Result<Vec<String>, StorageError> {
        let placed = self
            .store
            .games_of_person(player.person, true, MAX_LINES)
            .await?;
        let mut lines = Vec::new();
        for place in &placed {
            let Some(record) = self.store.game(place.id).await? else {
                continue;
            };
            let game = super::games::restore(&record)?;
            let Status::Over { result, at, .. } = game.status() else {
                continue;
            };
            if at <= since {
                // Latest first: the rest ended earlier still.
                break;
            }
            let args = [
                ("game", Arg::from(record.id)),
                (
                    "white",
                    Arg::from(record.white_player.display_name.as_str()),
                ),
                (
                    "black",
                    Arg::from(record.black_player.display_name.as_str()),
                ),
                ("result", Arg::from(result.as_pgn())),
            ];
            lines.push(self.i18n.text(lang, "digest-finished-line", &args));
        }
        Ok(lines)
    }
}
