//! Linked accounts (`/link`, `/unlink`) and one's games on every server
//! and platform (`/games everywhere`, `/games finished`).
//!
//! `/link` on one account answers, privately, a one-time code (see
//! [`crate::core::link`]); `/link CODE` on an account of another platform
//! makes the two one player (a person): one language, one notification
//! setting, one digest, one list of games. Only the code's owner ever
//! sees it; wrong codes are counted and bounded per hour, per account and
//! in all, so guessing one is hopeless within the bound.

use chrono::{DateTime, Utc};

use super::{Attempt, Context, Reply, Service, texts};
use crate::core::game::Status;
use crate::core::link::{self, Code, Refusal};
use crate::core::names::Named;
use crate::core::platform::Platform;
use crate::i18n::Arg;
use crate::storage::{Commit, LinkChange, PlacedGame, PlayerRow, StorageError};

/// The most games `/games everywhere` and `/games finished` list.
const MAX_LISTED: usize = 25;

impl Service {
    /// `/link` (a new code) or `/link CODE` (link this account).
    pub(super) async fn link_act(
        &self,
        ctx: &Context,
        code: Option<&str>,
        now: DateTime<Utc>,
    ) -> Attempt {
        match code {
            None => self.new_link_code(ctx, now).await,
            Some(typed) => self.redeem_link_code(ctx, typed, now).await,
        }
    }

    async fn new_link_code(&self, ctx: &Context, now: DateTime<Utc>) -> Attempt {
        let mut bytes = [0; link::CODE_BYTES];
        getrandom::fill(&mut bytes)
            .map_err(|e| StorageError::Backend(format!("no randomness for a link code: {e}")))?;
        let code = Code::from_random(bytes);
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            link: Some(LinkChange::NewCode {
                hash: code.digest(),
                player: ctx.player.id,
                expires_at: now + link::lifetime(),
            }),
            ..Commit::default()
        };
        let text = self.text(
            ctx,
            "link-code",
            &[
                ("code", Arg::from(code.shown())),
                ("minutes", Arg::from(link::CODE_MINUTES)),
            ],
        );
        // The answer kept under the act's key (for a replay) never holds
        // the code: only its owner's screen does.
        let kept = self.secret_to(ctx, self.text(ctx, "link-code-kept", &[]));
        let mut replies = self.commit_replies(ctx, commit, now, vec![kept]).await?;
        if let Some(reply) = replies.first_mut() {
            reply.text = text;
        }
        Ok(replies)
    }

    async fn redeem_link_code(&self, ctx: &Context, typed: &str, now: DateTime<Utc>) -> Attempt {
        let (mine, all) = self
            .store
            .wrong_link_codes(ctx.player.id, now - chrono::Duration::hours(1))
            .await?;
        if mine >= link::WRONG_PER_HOUR || all >= link::WRONG_PER_HOUR_ALL {
            return self.refuse_link(ctx, Refusal::TooManyTries, now).await;
        }
        let found = match Code::read(typed) {
            Some(code) => {
                let row = self.store.link_code(&code.digest()).await?;
                row.filter(|row| !row.used && row.expires_at > now)
                    .map(|row| (code, row))
            }
            None => None,
        };
        let Some((code, row)) = found else {
            return self.refuse_link(ctx, Refusal::Unknown, now).await;
        };
        let Some(owner) = self.store.player(row.player).await? else {
            return self.refuse_link(ctx, Refusal::Unknown, now).await;
        };
        if let Err(refusal) = self.may_link(ctx, &owner).await? {
            return self.refuse_link(ctx, refusal, now).await;
        }
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            link: Some(LinkChange::Redeem {
                hash: code.digest(),
                account: ctx.player.id,
                person: owner.person,
            }),
            ..Commit::default()
        };
        let text = self.text(
            ctx,
            "link-done",
            &[
                ("other", Arg::from(owner.display_name.as_str())),
                ("platform", Arg::from(owner.platform.as_str())),
            ],
        );
        let reply = self.secret_to(ctx, text);
        // The person's settings now hold for this account's games too.
        self.commit_setting(ctx, commit, now, reply).await
    }

    /// Whether this account may join the person of `owner` (the code's).
    async fn may_link(
        &self,
        ctx: &Context,
        owner: &PlayerRow,
    ) -> Result<Result<(), Refusal>, StorageError> {
        let me = &ctx.player;
        if owner.person == me.person {
            return Ok(Err(Refusal::SameAccount));
        }
        if owner.platform == me.platform {
            return Ok(Err(Refusal::SamePlatform));
        }
        if me.person != me.id || self.store.accounts_of(me.id).await?.len() > 1 {
            return Ok(Err(Refusal::AlreadyLinked));
        }
        let theirs = self.store.accounts_of(owner.person).await?;
        if theirs.iter().any(|account| account.platform == me.platform) {
            return Ok(Err(Refusal::PlatformTaken));
        }
        Ok(Ok(()))
    }

    /// Refuses a code; a wrong one is counted in the same commit.
    async fn refuse_link(&self, ctx: &Context, refusal: Refusal, now: DateTime<Utc>) -> Attempt {
        let reply = self.secret_to(ctx, self.text(ctx, refusal.message(), &[]));
        if !refusal.counts_as_wrong() {
            return Ok(vec![reply]);
        }
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            link: Some(LinkChange::WrongCode {
                player: ctx.player.id,
            }),
            ..Commit::default()
        };
        self.commit_replies(ctx, commit, now, vec![reply]).await
    }

    /// `/unlink`: this account leaves the player it is part of.
    pub(super) async fn unlink(&self, ctx: &Context, now: DateTime<Utc>) -> Attempt {
        let accounts = self.store.accounts_of(ctx.player.person).await?;
        if accounts.len() < 2 {
            let text = self.text(ctx, "unlink-not-linked", &[]);
            return Ok(vec![self.secret_to(ctx, text)]);
        }
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            link: Some(LinkChange::Unlink {
                account: ctx.player.id,
            }),
            ..Commit::default()
        };
        let reply = self.secret_to(ctx, self.text(ctx, "unlink-done", &[]));
        self.commit_setting(ctx, commit, now, reply).await
    }

    /// `/games everywhere` (running) or `/games finished`: every account's
    /// games on every server and platform, with where each is played.
    pub(super) async fn games_everywhere(
        &self,
        ctx: &Context,
        finished: bool,
        now: DateTime<Utc>,
    ) -> Attempt {
        let placed = self
            .store
            .games_of_person(ctx.player.person, finished, MAX_LISTED)
            .await?;
        let (none, header) = if finished {
            ("games-finished-none", "games-finished-header")
        } else {
            ("games-everywhere-none", "games-everywhere-header")
        };
        if placed.is_empty() {
            return Ok(vec![self.secret_to(ctx, self.text(ctx, none, &[]))]);
        }
        let mut lines = vec![self.text(ctx, header, &[])];
        for place in &placed {
            if let Some(line) = self.placed_line(ctx, place, now).await? {
                lines.push(line);
            }
        }
        Ok(vec![self.secret_to(ctx, lines.join("\n"))])
    }

    /// One game of `/games everywhere` or `/games finished`.
    async fn placed_line(
        &self,
        ctx: &Context,
        place: &PlacedGame,
        now: DateTime<Utc>,
    ) -> Result<Option<String>, StorageError> {
        let Some(record) = self.store.game(place.id).await? else {
            return Ok(None);
        };
        let game = super::games::restore(&record)?;
        let (white, black) = (&record.white_player, &record.black_player);
        let mut args = vec![
            ("game", Arg::from(record.id)),
            ("white", Arg::from(white.display_name.as_str())),
            ("black", Arg::from(black.display_name.as_str())),
            ("where", Arg::from(place_link(place))),
        ];
        let id = match game.status() {
            Status::Over { result, at, .. } => {
                args.push(("result", Arg::from(result.as_pgn())));
                args.push(("ended", Arg::from(at.format("%Y-%m-%d").to_string())));
                "games-finished-line"
            }
            Status::Ongoing => {
                let turn = game.turn();
                let mover = record.player(turn);
                let yours = mover.person == ctx.player.person;
                let left = game.clock().remaining(turn, now);
                args.push(("yours", Arg::from(if yours { "yes" } else { "no" })));
                args.push(("player", Arg::from(mover.display_name.as_str())));
                args.push((
                    "left",
                    Arg::from(left.map_or_else(
                        || self.text(ctx, "games-no-clock", &[]),
                        |left| texts::duration_text(&self.i18n, ctx.lang, left),
                    )),
                ));
                "games-everywhere-line"
            }
        };
        let mut line = self.text(ctx, id, &args);
        // Read only (a list changes nothing): games older than the pages
        // get their link when one is first asked for elsewhere.
        if let Some(page) = self.kept_game_link(record.id).await? {
            line.push_str(&format!(" {page}"));
        }
        Ok(Some(line))
    }

    /// A private answer for the acting player: ephemeral on Discord, a
    /// direct message on Matrix (`secret`) and in the console.
    pub(super) fn secret_to(&self, ctx: &Context, text: String) -> Reply {
        let mut reply = self.private(ctx, text);
        reply.secret = true;
        reply.direct = ctx.platform == Platform::Console;
        reply
    }
}

/// Where a game is played, as a link its platform opens (a Discord
/// channel, a Matrix room), or its channel and server in the console.
pub(super) fn place_link(place: &PlacedGame) -> String {
    match place.platform {
        Platform::Discord => format!(
            "https://discord.com/channels/{}/{}",
            place.server, place.channel
        ),
        Platform::Matrix => format!("https://matrix.to/#/{}", place.channel),
        Platform::Console => format!("#{} ({})", place.channel, place.server),
    }
}
