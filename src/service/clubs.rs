//! Clubs of servers of either platform (`/club invite`, `/club join`,
//! `/club quit`, `/club servers`): a Discord guild and a Matrix space (or
//! several of each) that keep one standings table.
//!
//! A club forms only with the consent of each server's moderators: a
//! moderator of the whole server invites another server (founding the
//! club if theirs has none), and only a moderator of the invited server
//! makes it a member. A server belongs to one club at most. Games stay
//! where they are played; a server that leaves keeps its games, and its
//! running games end as they would have: leaving takes effect between
//! games, never inside one.

use chrono::{DateTime, Utc};

use super::{Attempt, Context, Moderation, Reply, Service};
use crate::core::command::ClubAction;
use crate::core::names::Named;
use crate::core::platform::Platform;
use crate::i18n::Arg;
use crate::storage::{ClubChange, Commit, Committed, ServerDefaults, StorageError};

impl Service {
    /// Whether servers `a` and `b` are members of one club.
    pub(super) async fn same_club(&self, a: i64, b: i64) -> Result<bool, StorageError> {
        let Some(club) = self.store.club_of_server(a).await? else {
            return Ok(false);
        };
        Ok(self.store.club_of_server(b).await? == Some(club))
    }

    pub(super) async fn club_act(
        &self,
        ctx: &Context,
        act: &ClubAction,
        now: DateTime<Utc>,
    ) -> Attempt {
        if let ClubAction::Servers = act {
            return self.club_servers(ctx).await;
        }
        if ctx.moderation != Moderation::Server {
            let text = self.text(ctx, "refused-not_a_moderator", &[]);
            return Ok(vec![self.private(ctx, text)]);
        }
        match act {
            ClubAction::Invite { platform, server } => {
                self.club_invite(ctx, *platform, server.trim(), now).await
            }
            ClubAction::Join { club } => self.club_join(ctx, *club, now).await,
            ClubAction::Quit => self.club_quit(ctx, now).await,
            ClubAction::Servers => Ok(Vec::new()),
        }
    }

    async fn club_invite(
        &self,
        ctx: &Context,
        platform: Platform,
        guest_id: &str,
        now: DateTime<Utc>,
    ) -> Attempt {
        if guest_id.is_empty() || (platform == ctx.platform && guest_id == ctx.server.platform_id) {
            let text = self.text(ctx, "club-invite-self", &[]);
            return Ok(vec![self.private(ctx, text)]);
        }
        let mine = self.store.club_of_server(ctx.server.id).await?;
        let defaults = ServerDefaults {
            time_control: self.config.default_time_control.clone(),
        };
        let guest = self
            .store
            .ensure_server(platform, guest_id, &defaults, now)
            .await?;
        if let Some(theirs) = self.store.club_of_server(guest.id).await? {
            let id = if Some(theirs) == mine {
                "club-already-member"
            } else {
                "club-guest-taken"
            };
            return Ok(vec![self.private(ctx, self.text(ctx, id, &[]))]);
        }
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            club: Some(ClubChange::Invite {
                club: mine,
                home: ctx.server.id,
                guest: guest.id,
            }),
            ..Commit::default()
        };
        let (i18n, lang) = (std::sync::Arc::clone(&self.i18n), ctx.server_lang);
        let channel = ctx.channel_platform_id.clone();
        let (platform_name, guest_id) = (platform.as_str(), guest_id.to_owned());
        let answer = move |committed: &Committed| {
            let args = [
                ("club", Arg::from(committed.club_id.unwrap_or_default())),
                ("platform", Arg::from(platform_name)),
                ("server", Arg::from(guest_id.as_str())),
            ];
            vec![Reply {
                channel,
                text: i18n.text(lang, "club-invited", &args),
                ..Reply::default()
            }]
        };
        let (_, replies) = self.commit_act(ctx, commit, now, answer).await?;
        Ok(replies)
    }

    async fn club_join(&self, ctx: &Context, club: i64, now: DateTime<Utc>) -> Attempt {
        let servers = self.store.club_servers(club).await?;
        let here = servers.iter().find(|s| s.server.id == ctx.server.id);
        let refusal = match (here, self.store.club_of_server(ctx.server.id).await?) {
            (None, _) => Some("club-not-invited"),
            (Some(s), _) if s.member => Some("club-already-member"),
            (_, Some(_)) => Some("club-quit-first"),
            (Some(_), None) => None,
        };
        if let Some(id) = refusal {
            let text = self.text(ctx, id, &[("club", Arg::from(club))]);
            return Ok(vec![self.private(ctx, text)]);
        }
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            club: Some(ClubChange::Join {
                club,
                server: ctx.server.id,
            }),
            ..Commit::default()
        };
        let members = servers
            .iter()
            .filter(|s| s.member)
            .map(|s| format!("{} {}", s.server.platform.as_str(), s.server.platform_id))
            .collect::<Vec<_>>()
            .join(", ");
        let args = [("club", Arg::from(club)), ("servers", Arg::from(members))];
        let text = self.i18n.text(ctx.server_lang, "club-joined", &args);
        let reply = self.public(ctx, None, text);
        self.commit_replies(ctx, commit, now, vec![reply]).await
    }

    async fn club_quit(&self, ctx: &Context, now: DateTime<Utc>) -> Attempt {
        let Some(club) = self.store.club_of_server(ctx.server.id).await? else {
            return Ok(vec![self.private(ctx, self.text(ctx, "club-none", &[]))]);
        };
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            club: Some(ClubChange::Quit {
                club,
                server: ctx.server.id,
            }),
            ..Commit::default()
        };
        let args = [("club", Arg::from(club))];
        let text = self.i18n.text(ctx.server_lang, "club-left", &args);
        let reply = self.public(ctx, None, text);
        self.commit_replies(ctx, commit, now, vec![reply]).await
    }

    async fn club_servers(&self, ctx: &Context) -> Attempt {
        let Some(club) = self.store.club_of_server(ctx.server.id).await? else {
            return Ok(vec![self.private(ctx, self.text(ctx, "club-none", &[]))]);
        };
        let mut lines = vec![self.text(ctx, "club-servers-header", &[("club", Arg::from(club))])];
        for server in self.store.club_servers(club).await? {
            let args = [
                ("platform", Arg::from(server.server.platform.as_str())),
                ("server", Arg::from(server.server.platform_id.as_str())),
                (
                    "member",
                    Arg::from(if server.member { "yes" } else { "no" }),
                ),
            ];
            lines.push(self.text(ctx, "club-server-line", &args));
        }
        Ok(vec![self.private(ctx, lines.join("\n"))])
    }
}
