//! `/team`: a server's teams, and the challenges that make a team play
//! (vote chess; the votes themselves are in `votes`).
//!
//! Anyone creates a team (and is its first member), joins or leaves one;
//! its creator or a server moderator deletes it once it plays no game. A
//! team plays through a stand-in player row, so a vote game is a game like
//! any other: the challenge names the stand-in, and a member (or the
//! player challenged) accepts for it.
//!
//! A club has one team list (issue 44): `/team list` on any of its servers
//! shows this server's teams, then those of its other servers, each marked
//! with its server. A team still belongs to its server: it is joined and
//! plays from there.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::club_matches::server_name;
use super::{Attempt, Context, Moderation, Prompt, Reply, Service};
use crate::core::choices::ColorChoice;
use crate::core::clock::TimeControl;
use crate::core::command::CommandError;
use crate::core::command::{TeamAction, TeamChallenge};
use crate::core::game::PlayerId;
use crate::core::notation::Lang;
use crate::core::team::{MAX_MEMBERS, MAX_TEAMS_PER_SERVER, TeamName};
use crate::i18n::{Arg, I18n};
use crate::storage::{
    Commit, Committed, NewChallenge, PlayerRow, StorageError, TeamChange, TeamRow,
};

/// Teams a list shows at most (the rest are counted).
const LISTED_TEAMS: usize = 50;
/// Member names a list shows per team at most (the rest are counted).
const LISTED_MEMBERS: usize = 20;

impl Service {
    pub(super) async fn team_act(
        &self,
        ctx: &Context,
        action: &TeamAction,
        now: DateTime<Utc>,
    ) -> Attempt {
        match action {
            TeamAction::List => self.team_list(ctx).await,
            TeamAction::Create(name) => self.team_create(ctx, name, now).await,
            TeamAction::Join(name) => {
                let Some(team) = self.named_team(ctx, name).await? else {
                    return Ok(vec![self.no_such_team(ctx, name)]);
                };
                let members = self.store.team_members(team.id).await?;
                if members.contains(&ctx.player.id) {
                    return Ok(vec![self.team_reply(ctx, "team-already-member", &team)]);
                }
                if members.len() >= MAX_MEMBERS as usize {
                    let args = [
                        ("team", Arg::from(team.name.as_str())),
                        ("max", Arg::from(MAX_MEMBERS)),
                    ];
                    return Ok(vec![self.private(ctx, self.text(ctx, "team-full", &args))]);
                }
                let change = TeamChange::Join {
                    team: team.id,
                    player: ctx.player.id,
                    at: now,
                };
                self.commit_team(ctx, change, "team-joined", &team, now)
                    .await
            }
            TeamAction::Leave(name) => {
                let mine = self.store.teams_of(ctx.server.id, ctx.player.id).await?;
                let team = match name {
                    Some(name) => mine.iter().find(|t| same_name(t, name)),
                    None if mine.len() == 1 => mine.first(),
                    None if mine.is_empty() => {
                        let text = self.text(ctx, "team-none-joined", &[]);
                        return Ok(vec![self.private(ctx, text)]);
                    }
                    None => {
                        let names: Vec<&str> = mine.iter().map(|t| t.name.as_str()).collect();
                        let args = [("teams", Arg::from(names.join(", ")))];
                        return Ok(vec![self.private(ctx, self.text(ctx, "team-which", &args))]);
                    }
                };
                let Some(team) = team.cloned() else {
                    let name = name.as_ref().map_or("", TeamName::as_str);
                    let args = [("team", Arg::from(name))];
                    let text = self.text(ctx, "team-not-member", &args);
                    return Ok(vec![self.private(ctx, text)]);
                };
                // Leaving withdraws from the team's matches (as chess.com's
                // clubs do): games still running are lost.
                let withdrawal = self.leaving_team(ctx, team.id, now).await?;
                let commit = Commit {
                    act_key: ctx.act_key.clone(),
                    team_change: Some(TeamChange::Leave {
                        team: team.id,
                        player: ctx.player.id,
                    }),
                    game_updates: withdrawal.game_updates,
                    match_changes: withdrawal.match_changes,
                    relay: withdrawal.relay,
                    ..Commit::default()
                };
                let args = [
                    ("team", Arg::from(team.name.as_str())),
                    ("player", Arg::from(ctx.player.display_name.as_str())),
                ];
                let mut left = self.public(ctx, None, self.text(ctx, "team-left", &args));
                // Relayed to another platform: every reply says whose it is.
                if commit.relay.is_some() {
                    left.platform = Some(ctx.platform);
                }
                let mut replies = vec![left];
                replies.extend(withdrawal.replies);
                self.commit_replies(ctx, commit, now, replies).await
            }
            TeamAction::Delete(name) => {
                let Some(team) = self.named_team(ctx, name).await? else {
                    return Ok(vec![self.no_such_team(ctx, name)]);
                };
                let allowed =
                    team.created_by == ctx.player.id || ctx.moderation == Moderation::Server;
                if !allowed {
                    return Ok(vec![self.team_reply(ctx, "team-delete-refused", &team)]);
                }
                if self.store.team_plays(team.id).await? {
                    return Ok(vec![self.team_reply(ctx, "team-plays", &team)]);
                }
                let change = TeamChange::Delete { team: team.id };
                self.commit_team(ctx, change, "team-deleted", &team, now)
                    .await
            }
        }
    }

    async fn team_create(&self, ctx: &Context, name: &TeamName, now: DateTime<Utc>) -> Attempt {
        if let Some(team) = self.named_team(ctx, name).await? {
            return Ok(vec![self.team_reply(ctx, "team-exists", &team)]);
        }
        if self.store.team_count(ctx.server.id).await? >= MAX_TEAMS_PER_SERVER {
            let args = [("max", Arg::from(MAX_TEAMS_PER_SERVER))];
            return Ok(vec![
                self.private(ctx, self.text(ctx, "team-too-many", &args)),
            ]);
        }
        let change = TeamChange::Create {
            server_id: ctx.server.id,
            platform: ctx.platform,
            name: name.as_str().to_owned(),
            name_key: name.key(),
            created_by: ctx.player.id,
            at: now,
        };
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            team_change: Some(change),
            ..Commit::default()
        };
        let args = [
            ("team", Arg::from(name.as_str())),
            ("player", Arg::from(ctx.player.display_name.as_str())),
        ];
        let reply = self.public(ctx, None, self.text(ctx, "team-created", &args));
        self.commit_replies(ctx, commit, now, vec![reply]).await
    }

    /// Commits a join, leave or deletion and tells the channel.
    async fn commit_team(
        &self,
        ctx: &Context,
        change: TeamChange,
        key: &str,
        team: &TeamRow,
        now: DateTime<Utc>,
    ) -> Attempt {
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            team_change: Some(change),
            ..Commit::default()
        };
        let args = [
            ("team", Arg::from(team.name.as_str())),
            ("player", Arg::from(ctx.player.display_name.as_str())),
        ];
        let reply = self.public(ctx, None, self.text(ctx, key, &args));
        self.commit_replies(ctx, commit, now, vec![reply]).await
    }

    /// This server's teams, then its club's other servers' (marked with
    /// their server): a club has one team list.
    async fn team_list(&self, ctx: &Context) -> Attempt {
        let (teams, total) = self.store.teams(ctx.server.id, LISTED_TEAMS).await?;
        if teams.is_empty() {
            let text = self.text(ctx, "team-list-empty", &[]);
            return Ok(vec![self.private(ctx, text)]);
        }
        let servers = self.servers_named(ctx, &teams).await?;
        let mut lines = vec![self.text(ctx, "team-list-header", &[])];
        for (team, members) in &teams {
            let mut shown: Vec<&str> = members
                .iter()
                .take(LISTED_MEMBERS)
                .map(String::as_str)
                .collect();
            let more;
            if members.len() > LISTED_MEMBERS {
                more = format!("… (+{})", members.len() - LISTED_MEMBERS);
                shown.push(&more);
            }
            let mut line = self.text(
                ctx,
                "team-list-line",
                &[
                    ("team", Arg::from(team.name.as_str())),
                    ("count", Arg::from(members.len() as i64)),
                    ("members", Arg::from(shown.join(", "))),
                ],
            );
            if let Some(server) = servers.get(&team.server_id) {
                let server = Arg::from(server.as_str());
                line.push(' ');
                line.push_str(&self.text(ctx, "team-list-from", &[("server", server)]));
            }
            lines.push(line);
        }
        if total as usize > teams.len() {
            let args = [("count", Arg::from(total as i64 - teams.len() as i64))];
            lines.push(self.text(ctx, "team-list-more", &args));
        }
        Ok(vec![self.private(ctx, lines.join("\n"))])
    }

    /// The names of the other servers (of the club) whose teams are listed.
    async fn servers_named(
        &self,
        ctx: &Context,
        teams: &[(TeamRow, Vec<String>)],
    ) -> Result<HashMap<i64, String>, StorageError> {
        let mut names = HashMap::new();
        for (team, _) in teams {
            let id = team.server_id;
            if id == ctx.server.id || names.contains_key(&id) {
                continue;
            }
            let server = self.store.server(id).await?;
            let named = server.as_ref().map_or_else(String::new, server_name);
            names.insert(id, named);
        }
        Ok(names)
    }

    /// The team of this server named `name` (whatever its case).
    pub(super) async fn named_team(
        &self,
        ctx: &Context,
        name: &TeamName,
    ) -> Result<Option<TeamRow>, StorageError> {
        self.store.team_by_name(ctx.server.id, &name.key()).await
    }

    pub(super) fn no_such_team(&self, ctx: &Context, name: &TeamName) -> Reply {
        let args = [("team", Arg::from(name.as_str()))];
        self.private(ctx, self.text(ctx, "team-not-found", &args))
    }

    fn team_reply(&self, ctx: &Context, key: &str, team: &TeamRow) -> Reply {
        let args = [("team", Arg::from(team.name.as_str()))];
        self.private(ctx, self.text(ctx, key, &args))
    }

    /// The players `ctx`'s player may act for in a challenge: themselves and
    /// the stand-ins of their teams on this server.
    pub(super) async fn acting_for(&self, ctx: &Context) -> Result<Vec<PlayerId>, StorageError> {
        let teams = self.store.teams_of(ctx.server.id, ctx.player.id).await?;
        Ok(std::iter::once(ctx.player.id)
            .chain(teams.iter().map(|t| t.player))
            .collect())
    }

    /// `/challenge team:<name> @player|vs:<team>`, or `/challenge vs:<team>`:
    /// a vote game, never rated, from the standard position, with a time per
    /// move (each vote ends with it).
    pub(super) async fn team_challenge(
        &self,
        ctx: &Context,
        wish: &TeamChallenge,
        now: DateTime<Utc>,
    ) -> Attempt {
        let refuse = |key: &str, args: &[(&str, Arg)]| {
            Ok(vec![self.private(ctx, self.text(ctx, key, args))])
        };
        let challenger = match self.challenger_side(ctx, wish).await? {
            Ok(side) => side,
            Err(refusal) => return Ok(refusal),
        };
        let opponent = match self.opponent_side(ctx, wish, now).await? {
            Ok(side) => side,
            Err(refusal) => return Ok(refusal),
        };
        let (player, versus) = (&challenger.player, &opponent.player);
        if versus.id == player.id || (wish.team.is_some() && versus.id == ctx.player.id) {
            return refuse("team-challenge-same", &[]);
        }
        if let Some((player, team)) = crossed(&challenger, &opponent) {
            let args = [
                ("player", Arg::from(player.as_str())),
                ("team", Arg::from(team.as_str())),
            ];
            return refuse("team-challenge-member-opponent", &args);
        }
        let time_control = match wish.time_control.as_deref().map(str::parse::<TimeControl>) {
            Some(Ok(control @ TimeControl::PerMove { .. })) => control.to_string(),
            Some(_) => return refuse("team-challenge-per-move", &[]),
            None => match ctx.server.time_control.parse::<TimeControl>() {
                Ok(control @ TimeControl::PerMove { .. }) => control.to_string(),
                _ => "3d".to_owned(),
            },
        };
        let new = NewChallenge {
            server_id: ctx.server.id,
            channel_id: ctx.channel.id,
            challenger: player.id,
            challenged: Some(versus.id),
            color: wish.color,
            time_control,
            rated: false,
            variant: crate::core::variant::Variant::Standard,
            start_fen: None,
            expires_at: now + self.config.challenge_expiry,
            start_moves: None,
            votes_changeable: Some(wish.change_vote),
        };
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            new_challenge: Some(new),
            ..Commit::default()
        };
        let notice = VoteChallengeNotice {
            i18n: self.i18n.clone(),
            lang: match opponent.team {
                Some(_) => ctx.server_lang,
                None => versus.reading_language(ctx.server_lang),
            },
            channel: ctx.channel_platform_id.clone(),
            to: opponent.team.is_none().then(|| versus.platform_id.clone()),
            player: player.display_name.clone(),
            versus: versus.display_name.clone(),
            colour: match wish.color {
                ColorChoice::White => "white",
                ColorChoice::Black => "black",
                ColorChoice::Random => "random",
            },
            change_vote: wish.change_vote,
        };
        let (_, replies) = self
            .commit_act(ctx, commit, now, move |committed: &Committed| {
                notice.replies(committed)
            })
            .await?;
        Ok(replies)
    }

    /// The challenger's side: their team's (they must be in it), or
    /// themselves; or the refusal.
    async fn challenger_side(
        &self,
        ctx: &Context,
        wish: &TeamChallenge,
    ) -> Result<Result<VoteSide, Vec<Reply>>, StorageError> {
        let Some(name) = &wish.team else {
            let player = ctx.player.clone();
            return Ok(Ok(VoteSide { player, team: None }));
        };
        let Some(team) = self.named_team(ctx, name).await? else {
            return Ok(Err(vec![self.no_such_team(ctx, name)]));
        };
        let members = self.store.team_members(team.id).await?;
        if !members.contains(&ctx.player.id) {
            let args = [("team", Arg::from(team.name.as_str()))];
            let text = self.text(ctx, "team-challenge-not-member", &args);
            return Ok(Err(vec![self.private(ctx, text)]));
        }
        let Some(stand_in) = self.store.player(team.player).await? else {
            return Err(StorageError::NotFound("player"));
        };
        Ok(Ok(VoteSide {
            player: stand_in,
            team: Some((team, members)),
        }))
    }

    /// The side challenged: a team (`vs:`) or a player; or the refusal.
    async fn opponent_side(
        &self,
        ctx: &Context,
        wish: &TeamChallenge,
        now: DateTime<Utc>,
    ) -> Result<Result<VoteSide, Vec<Reply>>, StorageError> {
        match (&wish.versus, &wish.opponent) {
            (Some(name), _) => {
                let Some(team) = self.named_team(ctx, name).await? else {
                    return Ok(Err(vec![self.no_such_team(ctx, name)]));
                };
                let Some(stand_in) = self.store.player(team.player).await? else {
                    return Err(StorageError::NotFound("player"));
                };
                let members = self.store.team_members(team.id).await?;
                Ok(Ok(VoteSide {
                    player: stand_in,
                    team: Some((team, members)),
                }))
            }
            (None, Some(user)) => {
                let row = self
                    .store
                    .ensure_player(ctx.platform, user.as_str(), user.display_name(), now)
                    .await?;
                Ok(Ok(VoteSide {
                    player: row,
                    team: None,
                }))
            }
            (None, None) => {
                let missing = CommandError::MissingArgument("opponent");
                let text = super::texts::command_error_text(&self.i18n, ctx.lang, &missing);
                Ok(Err(vec![self.private(ctx, text)]))
            }
        }
    }
}

/// A side of a vote game.
struct VoteSide {
    /// Who plays it: a team's stand-in, or a player.
    player: PlayerRow,
    /// Its team, with the team's members.
    team: Option<(TeamRow, Vec<PlayerId>)>,
}

/// Who would play against a team they are in, named with that team:
/// nobody may. Either side's player in the other's team, or a member of
/// both teams (then the two teams are named).
fn crossed(challenger: &VoteSide, opponent: &VoteSide) -> Option<(String, String)> {
    let in_team = |person: &PlayerRow, team: &Option<(TeamRow, Vec<PlayerId>)>| {
        team.as_ref()
            .filter(|(_, members)| members.contains(&person.id))
            .map(|(team, _)| (person.display_name.clone(), team.name.clone()))
    };
    in_team(&opponent.player, &challenger.team)
        .or_else(|| in_team(&challenger.player, &opponent.team))
        .or_else(|| match (&challenger.team, &opponent.team) {
            (Some((mine, ours)), Some((theirs, members))) => ours
                .iter()
                .any(|m| members.contains(m))
                .then(|| (mine.name.clone(), theirs.name.clone())),
            _ => None,
        })
}

/// A vote game's challenge, written once the commit has numbered it.
struct VoteChallengeNotice {
    i18n: Arc<I18n>,
    /// The challenged player's language; the server's for a team.
    lang: Lang,
    channel: String,
    /// The challenged player's platform id; `None` for a team.
    to: Option<String>,
    player: String,
    versus: String,
    colour: &'static str,
    change_vote: bool,
}

impl VoteChallengeNotice {
    fn replies(self, committed: &Committed) -> Vec<Reply> {
        let challenge = committed.challenge_id.unwrap_or_default();
        let args = [
            ("player", Arg::from(self.player.as_str())),
            ("opponent", Arg::from(self.versus.as_str())),
            ("challenge", Arg::from(challenge)),
            ("color", Arg::from(self.colour)),
            (
                "changeable",
                Arg::from(if self.change_vote { "yes" } else { "no" }),
            ),
        ];
        let (i18n, lang) = (&self.i18n, self.lang);
        let text = [
            i18n.text(lang, "challenge-direct", &args),
            i18n.text(lang, "vote-game-line", &args),
        ]
        .join("\n");
        vec![Reply {
            channel: self.channel,
            to: self.to,
            text,
            prompt: Prompt::Challenge { challenge },
            ..Reply::default()
        }]
    }
}

fn same_name(team: &TeamRow, name: &TeamName) -> bool {
    team.name.to_lowercase() == name.key()
}
