//! Team matches between a club's servers (issue 44): the team a match is
//! proposed to is found on any member server of the club, on any
//! platform, and the two sides may then be on two platforms. A team of
//! another platform hears of the proposal through its creator, by direct
//! message there.
//!
//! Such a match's games are played as a club's games between servers are
//! (`cross`): at the start each away player's place is written, so every
//! message about a game reaches both sides' channels on their platforms,
//! reminders and flag falls included. What the match itself says (its
//! acceptance, its boards, a withdrawal, its result) is marked here with
//! the platform of the channel it goes to, the other platform's put last,
//! and kept a second time for that platform's outbox worker
//! (`Commit::relay`).

use super::{Context, Reply, Service};
use crate::core::command::NewMatchWish;
use crate::core::names::Named;
use crate::core::notation::Lang;
use crate::core::platform::Platform;
use crate::core::team::MatchSide;
use crate::i18n::{Arg, I18n};
use crate::storage::{
    Commit, MatchEntrant, MatchRow, NewGame, NewGamePlace, Outgoing, PlayerRow, ServerRow,
    StorageError, TeamRow,
};

/// Each side's channel (platform id, once known) and platform, for a
/// match whose sides are on two platforms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct MatchPlatforms {
    home: (Option<String>, Platform),
    away: (Option<String>, Platform),
}

impl MatchPlatforms {
    /// The platform of `channel`: a side's, or `here`'s for another one.
    fn platform_of(&self, channel: &str, here: Platform) -> Platform {
        for (side, platform) in [&self.home, &self.away] {
            if side.as_deref() == Some(channel) {
                return *platform;
            }
        }
        here
    }

    /// The platform that is not `here`.
    fn other(&self, here: Platform) -> Platform {
        if here == self.home.1 {
            self.away.1
        } else {
            self.home.1
        }
    }

    /// `replies` each marked with its channel's platform (`here` for a
    /// channel of neither side), those for the other platform last, as
    /// `cross::Spread` orders them.
    pub fn mark(&self, here: Platform, replies: Vec<Reply>) -> Vec<Reply> {
        let mut mine = Vec::with_capacity(replies.len());
        let mut theirs = Vec::new();
        for mut reply in replies {
            let platform = self.platform_of(&reply.channel, here);
            reply.platform = Some(platform);
            if platform == here {
                mine.push(reply);
            } else {
                theirs.push(reply);
            }
        }
        mine.extend(theirs);
        mine
    }

    /// The outbox row the other platform's worker delivers from.
    pub fn relay(&self, here: Platform, server_id: i64) -> Outgoing {
        Outgoing::due_now(self.other(here), Some(server_id))
    }
}

/// The creator of a team proposed a match from another platform: told
/// there by direct message, with how to accept.
pub(super) struct ProposedTo {
    creator: PlayerRow,
    /// The language they read, by their away server's.
    lang: Lang,
}

impl ProposedTo {
    /// The outbox row their platform's worker delivers from.
    pub fn relay(&self, server_id: i64) -> Outgoing {
        Outgoing::due_now(self.creator.platform, Some(server_id))
    }

    /// `reply` for the proposing channel (marked `here`), then the
    /// creator's direct message, marked with their platform, last.
    pub fn replies(
        self,
        i18n: &I18n,
        here: Platform,
        reply: Reply,
        args: &[(&str, Arg)],
    ) -> Vec<Reply> {
        let id = self.creator.platform_id;
        let told = Reply {
            channel: id.clone(),
            to: Some(id),
            direct: true,
            platform: Some(self.creator.platform),
            text: i18n.text(self.lang, "match-created", args),
            ..Reply::default()
        };
        let reply = Reply {
            platform: Some(here),
            ..reply
        };
        vec![reply, told]
    }
}

/// `replies` marked for both platforms with `platforms` (and the relay
/// set in `commit`), or as they are for a match on one platform.
pub(super) fn mark_both(
    platforms: Option<&MatchPlatforms>,
    here: Platform,
    server_id: i64,
    commit: &mut Commit,
    replies: Vec<Reply>,
) -> Vec<Reply> {
    match platforms {
        Some(platforms) => {
            commit.relay = Some(platforms.relay(here, server_id));
            platforms.mark(here, replies)
        }
        None => replies,
    }
}

/// A server as `server:` names it from another platform: `matrix:!space:hs`.
pub(super) fn server_name(server: &ServerRow) -> String {
    format!("{}:{}", server.platform.as_str(), server.platform_id)
}

/// Where the away player of each of `games` plays it from: their side's
/// channel, when the sides are on two platforms; else no place at all.
pub(super) fn away_places(
    row: &MatchRow,
    platforms: Option<&MatchPlatforms>,
    entrants: &[MatchEntrant],
    games: &[(u32, NewGame)],
) -> Vec<Option<NewGamePlace>> {
    let (Some(_), Some((channel_id, _))) = (platforms, &row.away.channel) else {
        return Vec::new();
    };
    let is_away = |player| {
        entrants
            .iter()
            .any(|e| e.player == player && e.side == MatchSide::Away)
    };
    games
        .iter()
        .map(|(_, game)| {
            let away = [game.white, game.black].into_iter().find(|p| is_away(*p))?;
            Some(NewGamePlace {
                player: away,
                server_id: row.away.server_id,
                channel_id: *channel_id,
            })
        })
        .collect()
}

impl Service {
    /// Both sides' channels and platforms of `row`, if they are two.
    pub(super) async fn match_platforms(
        &self,
        row: &MatchRow,
    ) -> Result<Option<MatchPlatforms>, StorageError> {
        let home = self.platform_of(row.home.server_id).await?;
        let away = self.platform_of(row.away.server_id).await?;
        let channel = |side: &Option<(i64, String)>| side.as_ref().map(|(_, c)| c.clone());
        Ok((home != away).then(|| MatchPlatforms {
            home: (channel(&row.home.channel), home),
            away: (channel(&row.away.channel), away),
        }))
    }

    /// The team a match is proposed to, and its server: on the server
    /// named (`server:`; another platform's as `matrix:!space:hs`), else
    /// this server's, else the one of that name on another server of the
    /// club; or the refusal (an unknown server or team, or a name found on
    /// several servers of the club).
    pub(super) async fn match_opponent(
        &self,
        ctx: &Context,
        wish: &NewMatchWish,
    ) -> Result<Result<(ServerRow, TeamRow), Reply>, StorageError> {
        let key = wish.versus.key();
        let refuse =
            |key: &str, args: &[(&str, Arg)]| Ok(Err(self.private(ctx, self.text(ctx, key, args))));
        let not_found = [("team", Arg::from(wish.versus.as_str()))];
        if let Some(named) = &wish.server {
            let Some(server) = self.match_server(ctx, named).await? else {
                return refuse(
                    "match-server-unknown",
                    &[("server", Arg::from(named.as_str()))],
                );
            };
            return match self.store.team_by_name(server.id, &key).await? {
                Some(team) => Ok(Ok((server, team))),
                None => refuse("match-team-not-found", &not_found),
            };
        }
        if let Some(team) = self.store.team_by_name(ctx.server.id, &key).await? {
            return Ok(Ok((ctx.server.clone(), team)));
        }
        let mut found = Vec::new();
        for server in self.club_servers_but(ctx).await? {
            if let Some(team) = self.store.team_by_name(server.id, &key).await? {
                found.push((server, team));
            }
        }
        if found.len() > 1 {
            let servers: Vec<String> = found
                .iter()
                .map(|(server, _)| server_name(server))
                .collect();
            let args = [
                ("team", Arg::from(wish.versus.as_str())),
                ("first", Arg::from(servers[0].as_str())),
                ("servers", Arg::from(servers.join(", "))),
            ];
            return refuse("match-team-several", &args);
        }
        match found.pop() {
            Some(found) => Ok(Ok(found)),
            None => refuse("match-team-not-found", &not_found),
        }
    }

    /// Who hears by direct message of a match proposed to team `away` of
    /// `server`, when that server is on another platform: the team's
    /// creator (nobody can see the proposing channel from there).
    pub(super) async fn proposed_elsewhere(
        &self,
        ctx: &Context,
        server: &ServerRow,
        away: &TeamRow,
    ) -> Result<Option<ProposedTo>, StorageError> {
        if server.platform == ctx.platform {
            return Ok(None);
        }
        let Some(creator) = self.store.player(away.created_by).await? else {
            return Ok(None);
        };
        let lang = creator.reading_language(self.server_language(server.id).await?);
        Ok(Some(ProposedTo { creator, lang }))
    }

    /// The member servers of this server's club but this one, present.
    async fn club_servers_but(&self, ctx: &Context) -> Result<Vec<ServerRow>, StorageError> {
        let Some(club) = self.store.club_of_server(ctx.server.id).await? else {
            return Ok(Vec::new());
        };
        let mut servers = Vec::new();
        for entry in self.store.club_servers(club).await? {
            let server = entry.server;
            if entry.member && server.id != ctx.server.id && !self.server_absent(server.id).await? {
                servers.push(server);
            }
        }
        Ok(servers)
    }

    /// The server a match's `server:` names: one of this platform the bot
    /// is in, or (`platform:id`) one of another platform in this club.
    async fn match_server(
        &self,
        ctx: &Context,
        named: &str,
    ) -> Result<Option<ServerRow>, StorageError> {
        let Some((platform, id)) = super::cross::other_platform_member(named, ctx.platform) else {
            let found = self.store.find_server(ctx.platform, named).await?;
            return self.present(found).await;
        };
        let Some(server) = self.store.find_server(platform, id).await? else {
            return Ok(None);
        };
        let same_club = self.same_club(ctx.server.id, server.id).await?;
        self.present(Some(server).filter(|_| same_club)).await
    }

    /// `server`, unless the bot was removed from it.
    async fn present(&self, server: Option<ServerRow>) -> Result<Option<ServerRow>, StorageError> {
        match server {
            Some(server) if !self.server_absent(server.id).await? => Ok(Some(server)),
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(channel: &str) -> Reply {
        Reply {
            channel: channel.to_owned(),
            text: channel.to_owned(),
            ..Reply::default()
        }
    }

    /// (the channel, the platform it is marked with), for an act on Matrix.
    #[test]
    fn each_sides_channel_is_marked_with_its_platform_the_other_last() {
        let platforms = MatchPlatforms {
            home: (Some("2002".to_owned()), Platform::Discord),
            away: (Some("!room:hs".to_owned()), Platform::Matrix),
        };
        let marked = platforms.mark(
            Platform::Matrix,
            vec![reply("2002"), reply("!room:hs"), reply("!lounge:hs")],
        );
        let seen: Vec<(&str, Option<Platform>)> = marked
            .iter()
            .map(|r| (r.channel.as_str(), r.platform))
            .collect();
        assert_eq!(
            seen,
            [
                ("!room:hs", Some(Platform::Matrix)),
                ("!lounge:hs", Some(Platform::Matrix)),
                ("2002", Some(Platform::Discord)),
            ]
        );
        let relay = platforms.relay(Platform::Matrix, 7);
        assert_eq!(
            (relay.platform, relay.server_id),
            (Platform::Discord, Some(7))
        );
        assert_eq!(
            platforms.relay(Platform::Discord, 7).platform,
            Platform::Matrix
        );
    }
}
