//! `/match`: team matches (issue 25), as chess.com's club matches.
//!
//! A member (or a moderator) of a team proposes a match to a team of this
//! server, of another server the bot is in on the same platform, or of any
//! server of this server's club on either platform (`club_matches`); the
//! other team accepts on its own server, in the channel it will play from.
//! Members of both teams sign up; at the start the boards are paired by
//! rating (`competition::team_match`) and every game is created in one
//! commit. The games live in the home channel; the away side plays them
//! from its own channel: the game's server check lets a match game be
//! reached from the away server ([`Service::reachable`]), the away channel
//! lists its players' match games as its own, and every message about a
//! match game is sent to both channels ([`MatchProgress`]), so each
//! player hears of their game where they play it. A club's match between
//! two platforms plays its games as a club's games between servers
//! (`cross`), and marks what the match says with each channel's platform
//! (`club_matches`). Match games are never rated: a rating belongs to one
//! server, and the players' are two.

use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::club_matches::{away_places, mark_both};
use super::{Attempt, Context, Reply, Service, TournamentEvent};
use crate::competition::team_match::{self, Board, Score, SignUp};
use crate::competition::tiebreak::halves;
use crate::core::clock::TimeControl;
use crate::core::command::CommandError;
use crate::core::command::{MatchCommand, NewMatchWish};
use crate::core::event::GameResult;
use crate::core::game::{Act as GameAct, Actor, DrawRules, Game, PlayerId, Players};
use crate::core::names::Named;
use crate::core::notation::Lang;
use crate::core::team::MatchSide;
use crate::core::variant::Variant;
use crate::i18n::{Arg, I18n};
use crate::storage::{
    Commit, Committed, GameRecord, GameUpdate, MatchChange, MatchEntrant, MatchGameRow, MatchRow,
    MatchState, NewGame, NewMatch, Status, StorageError,
};

/// What a match game's act or end adds: its messages copied to the other
/// side's channel, the match's new version, and its result at the end.
pub(super) struct MatchProgress {
    /// Both sides' channels (platform ids); the away one once accepted.
    channels: (String, Option<String>),
    /// The game acted on: only messages about it are copied (not, say, the
    /// notices of a leave the move ended); `None` for the match's own.
    game: Option<i64>,
    pub change: Option<MatchChange>,
    /// The final result, for both channels.
    result: Vec<Reply>,
}

impl MatchProgress {
    /// Copies every message for all to see in one side's channel to the
    /// other side's (one said elsewhere, by an act naming the game from
    /// another channel, to both), then adds the result.
    pub(super) fn spread(self, replies: &mut Vec<Reply>) {
        let (home, Some(away)) = self.channels else {
            replies.extend(self.result);
            return;
        };
        let about = |r: &Reply| match self.game {
            None => true,
            Some(game) => {
                r.board.as_ref().is_some_and(|b| b.game == game)
                    || r.events.iter().any(|e| e.game == game)
            }
        };
        let copies: Vec<Reply> = replies
            .iter()
            .filter(|r| !r.ephemeral && !r.direct && !r.secret && about(r))
            .flat_map(|r| {
                let mut to = vec![&home];
                if away != home {
                    to.push(&away);
                }
                to.retain(|channel| **channel != r.channel);
                to.into_iter().map(|channel| Reply {
                    channel: channel.clone(),
                    ..r.clone()
                })
            })
            .collect();
        replies.extend(copies);
        replies.extend(self.result);
    }
}

impl Service {
    pub(super) async fn match_act(
        &self,
        ctx: &Context,
        act: &MatchCommand,
        now: DateTime<Utc>,
    ) -> Attempt {
        if let MatchCommand::Create(wish) = act {
            return self.match_create(ctx, wish, now).await;
        }
        let id = match act {
            MatchCommand::Create(_) => None,
            MatchCommand::Accept { id }
            | MatchCommand::Join { id }
            | MatchCommand::Start { id }
            | MatchCommand::Withdraw { id }
            | MatchCommand::Show { id } => *id,
        };
        let found = match id {
            Some(id) => self.store.team_match(id).await?,
            None => self.store.latest_match(ctx.server.id).await?,
        };
        // A match is seen from its two servers only.
        let Some(row) = found.filter(|m| m.side_on(ctx.server.id).is_some()) else {
            let text = match id {
                Some(id) => self.text(ctx, "match-not-found", &[("match", Arg::from(id))]),
                None => self.text(ctx, "match-none", &[]),
            };
            return Ok(vec![self.private(ctx, text)]);
        };
        match act {
            MatchCommand::Create(_) => Ok(Vec::new()),
            MatchCommand::Accept { .. } => self.match_accept(ctx, row, now).await,
            MatchCommand::Join { .. } => self.match_join(ctx, row, now).await,
            MatchCommand::Start { .. } => self.match_start(ctx, row, now).await,
            MatchCommand::Withdraw { .. } => self.match_withdraw(ctx, row, now).await,
            MatchCommand::Show { .. } => self.match_show(ctx, row).await,
        }
    }

    fn match_refusal(&self, ctx: &Context, key: &str, row: &MatchRow) -> Attempt {
        let args = match_args(row);
        Ok(vec![self.private(ctx, self.text(ctx, key, &args))])
    }

    async fn match_create(
        &self,
        ctx: &Context,
        wish: &NewMatchWish,
        now: DateTime<Utc>,
    ) -> Attempt {
        let refuse = |key: &str, args: &[(&str, Arg)]| {
            Ok(vec![self.private(ctx, self.text(ctx, key, args))])
        };
        let Some(home) = self.named_team(ctx, &wish.team).await? else {
            return Ok(vec![self.no_such_team(ctx, &wish.team)]);
        };
        let members = self.store.team_members(home.id).await?;
        let moderator = ctx.moderation == super::Moderation::Server;
        if !members.contains(&ctx.player.id) && !moderator {
            let args = [("team", Arg::from(home.name.as_str()))];
            return refuse("team-challenge-not-member", &args);
        }
        // A team of a server the bot is in, on this platform or in the club.
        let (away_server, away) = match self.match_opponent(ctx, wish).await? {
            Ok(found) => found,
            Err(refusal) => return Ok(vec![refusal]),
        };
        if away.id == home.id {
            return refuse("team-challenge-same", &[]);
        }
        let time_control = match wish.time_control.as_deref().map(str::parse::<TimeControl>) {
            Some(Ok(control)) => control.to_string(),
            Some(Err(_)) => {
                let error = CommandError::BadValue {
                    option: "time",
                    value: wish.time_control.clone().unwrap_or_default(),
                };
                let refusal = super::texts::command_error_text(&self.i18n, ctx.lang, &error);
                return Ok(vec![self.private(ctx, refusal)]);
            }
            None => ctx.server.time_control.clone(),
        };
        // A team of another platform hears of it there (see `club_matches`).
        let proposed_to = self.proposed_elsewhere(ctx, &away_server, &away).await?;
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            relay: proposed_to.as_ref().map(|p| p.relay(away_server.id)),
            match_changes: vec![MatchChange::Create(NewMatch {
                home_server_id: ctx.server.id,
                home_channel_id: ctx.channel.id,
                home_team_id: home.id,
                away_server_id: away_server.id,
                away_team_id: away.id,
                boards: wish.boards,
                time_control: time_control.clone(),
                created_by: ctx.player.id,
                at: now,
            })],
            ..Commit::default()
        };
        let (i18n, lang) = (Arc::clone(&self.i18n), ctx.lang);
        let channel = ctx.channel_platform_id.clone();
        let (home_name, away_name) = (home.name.clone(), away.name.clone());
        let elsewhere = away_server.id != ctx.server.id;
        let (boards, here) = (wish.boards, ctx.platform);
        let (_, replies) = self
            .commit_act(ctx, commit, now, move |committed: &Committed| {
                let args = [
                    ("match", Arg::from(committed.match_id.unwrap_or_default())),
                    ("home", Arg::from(home_name.as_str())),
                    ("away", Arg::from(away_name.as_str())),
                    ("boards", Arg::from(boards)),
                    ("time", Arg::from(time_control.as_str())),
                    ("elsewhere", Arg::from(if elsewhere { "yes" } else { "no" })),
                ];
                let reply = Reply {
                    channel,
                    text: i18n.text(lang, "match-created", &args),
                    ..Reply::default()
                };
                match proposed_to {
                    Some(told) => told.replies(&i18n, here, reply, &args),
                    None => vec![reply],
                }
            })
            .await?;
        Ok(replies)
    }

    async fn match_accept(&self, ctx: &Context, row: MatchRow, now: DateTime<Utc>) -> Attempt {
        if row.state != MatchState::Proposed {
            return self.match_refusal(ctx, "match-accepted-already", &row);
        }
        let members = self.store.team_members(row.away.team_id).await?;
        let moderator = ctx.moderates(row.away.server_id, ctx.channel.id);
        if ctx.server.id != row.away.server_id || !(members.contains(&ctx.player.id) || moderator) {
            return self.match_refusal(ctx, "match-accept-refused", &row);
        }
        let mut commit = Commit {
            act_key: ctx.act_key.clone(),
            match_changes: vec![MatchChange::Accept {
                id: row.id,
                expected_version: row.version,
                away_channel_id: ctx.channel.id,
            }],
            ..Commit::default()
        };
        let mut args = match_args(&row);
        args.push(("player", Arg::from(ctx.player.display_name.as_str())));
        let here = self.public(ctx, None, self.text(ctx, "match-accepted", &args));
        let mut replies = vec![here];
        if let Some((_, home)) = row
            .home
            .channel
            .as_ref()
            .filter(|(id, _)| *id != ctx.channel.id)
        {
            let lang = self.server_language(row.home.server_id).await?;
            replies.push(Reply {
                channel: home.clone(),
                text: self.i18n.text(lang, "match-accepted", &args),
                ..Reply::default()
            });
        }
        // The home side of another platform hears of it there.
        let platforms = self.match_platforms(&row).await?;
        let (here, home_server) = (ctx.platform, row.home.server_id);
        let replies = mark_both(platforms.as_ref(), here, home_server, &mut commit, replies);
        self.commit_replies(ctx, commit, now, replies).await
    }

    async fn match_join(&self, ctx: &Context, row: MatchRow, now: DateTime<Utc>) -> Attempt {
        if !matches!(row.state, MatchState::Proposed | MatchState::SignUp) {
            return self.match_refusal(ctx, "match-signup-closed", &row);
        }
        let mut sides = Vec::new();
        for side in [MatchSide::Home, MatchSide::Away] {
            let team = row.side(side);
            if team.server_id == ctx.server.id
                && self
                    .store
                    .team_members(team.team_id)
                    .await?
                    .contains(&ctx.player.id)
            {
                sides.push(side);
            }
        }
        let side = match sides.as_slice() {
            [side] => *side,
            [] => return self.match_refusal(ctx, "match-join-not-member", &row),
            _ => return self.match_refusal(ctx, "match-join-both", &row),
        };
        let entrants = self.store.match_entrants(row.id).await?;
        let signed = |e: &MatchEntrant| e.withdrawn_at.is_none();
        if entrants
            .iter()
            .any(|e| e.player == ctx.player.id && signed(e))
        {
            return self.match_refusal(ctx, "match-already-joined", &row);
        }
        let count = entrants
            .iter()
            .filter(|e| e.side == side && signed(e))
            .count()
            + 1;
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            match_changes: vec![MatchChange::Join {
                id: row.id,
                player: ctx.player.id,
                side,
                at: now,
            }],
            ..Commit::default()
        };
        let mut args = match_args(&row);
        args.push(("player", Arg::from(ctx.player.display_name.as_str())));
        args.push(("team", Arg::from(row.side(side).team_name.as_str())));
        args.push(("count", Arg::from(count as i64)));
        let reply = self.public(ctx, None, self.text(ctx, "match-joined", &args));
        self.commit_replies(ctx, commit, now, vec![reply]).await
    }

    async fn match_start(&self, ctx: &Context, row: MatchRow, now: DateTime<Utc>) -> Attempt {
        match row.state {
            MatchState::Proposed => return self.match_refusal(ctx, "match-not-accepted", &row),
            MatchState::Running | MatchState::Over => {
                return self.match_refusal(ctx, "match-signup-closed", &row);
            }
            MatchState::SignUp => {}
        }
        let (Some((home_channel, home_pid)), Some((_, away_pid))) =
            (row.home.channel.clone(), row.away.channel.clone())
        else {
            return Err(StorageError::Corrupt(format!(
                "match {} has no channel",
                row.id
            )));
        };
        if row.created_by != ctx.player.id && !ctx.moderates(row.home.server_id, home_channel) {
            return self.match_refusal(ctx, "match-start-refused", &row);
        }
        let entrants: Vec<MatchEntrant> = self
            .store
            .match_entrants(row.id)
            .await?
            .into_iter()
            .filter(|e| e.withdrawn_at.is_none())
            .collect();
        let lists = self.match_sign_ups(&row, &entrants).await?;
        let boards = team_match::pair(&lists[0], &lists[1], row.boards);
        if boards.is_empty() {
            return self.match_refusal(ctx, "match-too-few", &row);
        }
        let home_server = self
            .store
            .server(row.home.server_id)
            .await?
            .ok_or(StorageError::NotFound("server"))?;
        let seating = Seating {
            row: &row,
            channel_id: home_channel,
            draw_rules: home_server.draw_rules,
            lists: &lists,
            initial_rating: self.config.ratings.initial_rating,
        };
        let (games, planned) = self.match_games(&seating, &boards, now);
        // Sides on two platforms: each away player plays from their channel.
        let platforms = self.match_platforms(&row).await?;
        let places = away_places(&row, platforms.as_ref(), &entrants, &games);
        let mut commit = Commit {
            act_key: ctx.act_key.clone(),
            match_changes: vec![MatchChange::Start {
                id: row.id,
                expected_version: row.version,
                games,
                places,
                at: now,
            }],
            ..Commit::default()
        };
        commit.relay = platforms
            .as_ref()
            .map(|p| p.relay(ctx.platform, row.home.server_id));
        let here = ctx.platform;
        let notice = MatchStartNotice {
            i18n: Arc::clone(&self.i18n),
            match_id: row.id,
            home: row.home.team_name.clone(),
            away: row.away.team_name.clone(),
            board_count: boards.len(),
            channels: [home_pid, away_pid],
            langs: [
                self.language_of(Some(&home_server)),
                self.server_language(row.away.server_id).await?,
            ],
            planned,
        };
        let (_, replies) = self
            .commit_act(ctx, commit, now, move |committed: &Committed| {
                let replies = notice.replies(committed);
                match &platforms {
                    Some(platforms) => platforms.mark(here, replies),
                    None => replies,
                }
            })
            .await?;
        self.deadline_changed.wake();
        Ok(replies)
    }

    /// Each side's sign-ups (home, then away) with their rating, each
    /// rated on their own side's server.
    async fn match_sign_ups<'a>(
        &self,
        row: &MatchRow,
        entrants: &'a [MatchEntrant],
    ) -> Result<[Vec<SignUp<&'a MatchEntrant>>; 2], StorageError> {
        let mut lists: [Vec<SignUp<&MatchEntrant>>; 2] = [Vec::new(), Vec::new()];
        for entrant in entrants {
            let scope = self.rating_scope(row.side(entrant.side).server_id).await?;
            let rating = self
                .store
                .rating_of_account(scope, entrant.player, Variant::Standard)
                .await?
                .unwrap_or(self.config.ratings.initial_rating);
            let list = match entrant.side {
                MatchSide::Home => &mut lists[0],
                MatchSide::Away => &mut lists[1],
            };
            list.push(SignUp {
                player: entrant,
                rating,
                order: entrant.seq,
            });
        }
        Ok(lists)
    }

    /// The games of `boards`, two a board, their clocks started: each
    /// game's board and row, and the line that announces it.
    fn match_games(
        &self,
        seating: &Seating<'_>,
        boards: &[Board<&MatchEntrant>],
        now: DateTime<Utc>,
    ) -> (Vec<(u32, NewGame)>, Vec<PlannedGame>) {
        let row = seating.row;
        let control: TimeControl = row.time_control.parse().unwrap_or(TimeControl::Unlimited);
        let mut games = Vec::with_capacity(boards.len() * 2);
        let mut planned = Vec::with_capacity(boards.len() * 2);
        for board in boards {
            for (white, black) in board.games() {
                let players = Players {
                    white: white.player,
                    black: black.player,
                };
                let Ok(mut game) = Game::new(players, None, seating.draw_rules, now) else {
                    // Only a player paired with themselves fails; sign-ups are one side each.
                    continue;
                };
                game.start_clock(control);
                games.push((
                    board.number,
                    NewGame {
                        server_id: row.home.server_id,
                        channel_id: seating.channel_id,
                        white: white.player,
                        black: black.player,
                        variant: Variant::Standard,
                        start_fen: None,
                        time_control: row.time_control.clone(),
                        rated: false,
                        draw_rules: seating.draw_rules,
                        turn: game.turn(),
                        challenge_id: None,
                        clock: Some(*game.clock()),
                        remind_at: self.next_reminder(&game, now),
                        history: None,
                    },
                ));
                planned.push(PlannedGame {
                    board: board.number,
                    white: (white.name.clone(), seating.rating_of(white.player)),
                    black: (black.name.clone(), seating.rating_of(black.player)),
                    home_white: white.side == MatchSide::Home,
                });
            }
        }
        (games, planned)
    }

    /// Before the start, a sign-up withdrawn; after it, the player's games
    /// still running are lost (resigned), as chess.com's club matches do.
    async fn match_withdraw(&self, ctx: &Context, row: MatchRow, now: DateTime<Utc>) -> Attempt {
        let entrants = self.store.match_entrants(row.id).await?;
        if row.state == MatchState::Over {
            return self.match_refusal(ctx, "match-signup-closed", &row);
        }
        let signed = entrants
            .iter()
            .any(|e| e.player == ctx.player.id && e.withdrawn_at.is_none());
        if !signed {
            return self.match_refusal(ctx, "match-not-joined", &row);
        }
        let withdrawal = self.withdrawal(ctx, &row, &entrants, now).await?;
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            game_updates: withdrawal.game_updates,
            match_changes: withdrawal.match_changes,
            relay: withdrawal.relay,
            ..Commit::default()
        };
        self.commit_replies(ctx, commit, now, withdrawal.replies)
            .await
    }

    /// What leaving team `team_id` does to the matches the player signed
    /// up for it and that are not over: a withdrawal from each.
    pub(super) async fn leaving_team(
        &self,
        ctx: &Context,
        team_id: i64,
        now: DateTime<Utc>,
    ) -> Result<Withdrawal, StorageError> {
        let mut all = Withdrawal::default();
        for row in self.store.matches_joined(team_id, ctx.player.id).await? {
            let entrants = self.store.match_entrants(row.id).await?;
            let one = self.withdrawal(ctx, &row, &entrants, now).await?;
            all.game_updates.extend(one.game_updates);
            all.match_changes.extend(one.match_changes);
            all.replies.extend(one.replies);
            all.relay = all.relay.or(one.relay);
        }
        Ok(all)
    }

    /// The acting player's withdrawal from `row`, which they signed up for
    /// and which is not over: before the start, their sign-up goes; after
    /// it, their games still running are resigned (the opponents win them)
    /// and the match moves on, to its result if they were the last. Told
    /// in the player's side's channel and the other side's.
    async fn withdrawal(
        &self,
        ctx: &Context,
        row: &MatchRow,
        entrants: &[MatchEntrant],
        now: DateTime<Utc>,
    ) -> Result<Withdrawal, StorageError> {
        let player = ctx.player.id;
        let mut args = match_args(row);
        args.push(("player", Arg::from(ctx.player.display_name.as_str())));
        let channel = entrants
            .iter()
            .find(|e| e.player == player)
            .and_then(|e| row.side(e.side).channel.clone())
            .map_or_else(|| ctx.channel_platform_id.clone(), |(_, c)| c);
        let mut done = Withdrawal {
            match_changes: vec![MatchChange::Withdraw {
                id: row.id,
                player,
                at: now,
            }],
            ..Withdrawal::default()
        };
        let mut result = Vec::new();
        let text = if row.state == MatchState::Running {
            let mut games = self.store.match_games(row.id).await?;
            let mut lost = 0;
            for entry in games.iter_mut().filter(|g| g.state == Status::Ongoing) {
                if entry.white != player && entry.black != player {
                    continue;
                }
                let Some(record) = self.store.game(entry.game_id).await? else {
                    continue;
                };
                let mut game = super::games::restore(&record)?;
                let saved = super::games::Saved::all_of(&game);
                if game
                    .apply(&Actor::Player(player), GameAct::Resign, now)
                    .is_ok()
                {
                    let update = super::games::game_update(&record, &game, saved, None);
                    entry.state = update.state;
                    done.game_updates.push(update);
                    lost += 1;
                }
            }
            let score = score_of(row, entrants, &games);
            if lost > 0 {
                done.match_changes.push(MatchChange::GameEnded {
                    id: row.id,
                    expected_version: row.version,
                    over_at: score.is_final().then_some(now),
                });
                if score.is_final() {
                    result = self.result_replies(row, score).await?;
                }
            }
            args.push(("count", Arg::from(lost as i64)));
            self.text(ctx, "match-withdrawn-forfeits", &args)
        } else {
            self.text(ctx, "match-withdrawn", &args)
        };
        done.replies.push(Reply {
            channel,
            text,
            ..Reply::default()
        });
        let progress = MatchProgress {
            channels: channels_of(row),
            game: None,
            change: None,
            result,
        };
        progress.spread(&mut done.replies);
        // Sides on two platforms: each channel's copy goes by its own.
        if let Some(platforms) = self.match_platforms(row).await? {
            let replies = std::mem::take(&mut done.replies);
            done.replies = platforms.mark(ctx.platform, replies);
            done.relay = Some(platforms.relay(ctx.platform, row.home.server_id));
        }
        Ok(done)
    }

    /// The match table: each board's players and games, and the score;
    /// before the start, who signed up.
    async fn match_show(&self, ctx: &Context, row: MatchRow) -> Attempt {
        let entrants = self.store.match_entrants(row.id).await?;
        let games = self.store.match_games(row.id).await?;
        let score = score_of(&row, &entrants, &games);
        let mut args = match_args(&row);
        args.push(("home_points", Arg::from(halves(score.home_halves))));
        args.push(("away_points", Arg::from(halves(score.away_halves))));
        args.push(("state", Arg::from(row.state.as_str())));
        args.push(("running", Arg::from(i64::from(score.running))));
        let mut lines = vec![self.text(ctx, "match-table-header", &args)];
        if games.is_empty() {
            for side in [MatchSide::Home, MatchSide::Away] {
                let names: Vec<&str> = entrants
                    .iter()
                    .filter(|e| e.side == side && e.withdrawn_at.is_none())
                    .map(|e| e.name.as_str())
                    .collect();
                let args = [
                    ("team", Arg::from(row.side(side).team_name.as_str())),
                    ("count", Arg::from(names.len() as i64)),
                    ("players", Arg::from(names.join(", "))),
                ];
                lines.push(self.text(ctx, "match-signed-up", &args));
            }
            return Ok(vec![self.private(ctx, lines.join("\n"))]);
        }
        let table = board_table(&entrants, &games);
        let teams = [
            ("home", Arg::from(row.home.team_name.as_str())),
            ("away", Arg::from(row.away.team_name.as_str())),
        ];
        lines.push(self.text(ctx, "match-table-legend", &teams));
        for board in &table {
            let games: Vec<&str> = board
                .cells
                .iter()
                .filter(|cell| !cell.is_empty())
                .map(String::as_str)
                .collect();
            let args = [
                ("board", Arg::from(board.number)),
                ("home", Arg::from(board.home.as_str())),
                ("away", Arg::from(board.away.as_str())),
                ("games", Arg::from(games.join(" · "))),
                ("home_points", Arg::from(halves(board.home_halves))),
                ("away_points", Arg::from(halves(board.away_halves))),
            ];
            lines.push(self.text(ctx, "match-board-row", &args));
        }
        let total = [
            ("home", Arg::from(row.home.team_name.as_str())),
            ("away", Arg::from(row.away.team_name.as_str())),
            ("home_points", Arg::from(halves(score.home_halves))),
            ("away_points", Arg::from(halves(score.away_halves))),
        ];
        lines.push(self.text(ctx, "match-table-total", &total));
        let header = vec![
            self.text(ctx, "match-png-header-board", &[]),
            row.home.team_name.clone(),
            row.away.team_name.clone(),
            self.text(ctx, "match-png-header-first", &teams),
            self.text(ctx, "match-png-header-second", &teams),
            self.text(ctx, "match-png-header-score", &teams),
        ];
        let mut cells: Vec<Vec<String>> = table
            .iter()
            .map(|b| {
                vec![
                    b.number.to_string(),
                    b.home.clone(),
                    b.away.clone(),
                    b.cells[0].clone(),
                    b.cells[1].clone(),
                    format!("{}–{}", halves(b.home_halves), halves(b.away_halves)),
                ]
            })
            .collect();
        cells.push(vec![
            self.text(ctx, "match-png-total", &[]),
            row.home.team_name.clone(),
            row.away.team_name.clone(),
            String::new(),
            String::new(),
            format!(
                "{}–{}",
                halves(score.home_halves),
                halves(score.away_halves)
            ),
        ]);
        let mut reply = self.private(ctx, lines.join("\n"));
        reply
            .attachments
            .extend(self.table_picture(ctx, "match", &header, &cells));
        Ok(vec![reply])
    }

    /// What a match game's act adds (see [`MatchProgress`]): `None` for a
    /// game of no running match. When `state` ends the game, the match's
    /// version moves on, and at its last game the result is told.
    pub(super) async fn match_progress(
        &self,
        record: &GameRecord,
        state: &Status,
        lang: Lang,
        lines: &mut Vec<String>,
    ) -> Result<Option<MatchProgress>, StorageError> {
        // Most games are not a match's: they read nothing more on a move.
        if !record.team_match {
            return Ok(None);
        }
        let Some(row) = self.store.match_of_game(record.id).await? else {
            return Ok(None);
        };
        // A game with an away place is told on both sides by `cross`.
        let (home, away) = channels_of(&row);
        let placed = self.store.place_of_game(record.id).await?.is_some();
        let mut progress = MatchProgress {
            channels: (home, away.filter(|_| !placed)),
            game: Some(record.id),
            change: None,
            result: Vec::new(),
        };
        let Status::Over { at: ended_at, .. } = *state else {
            return Ok(Some(progress));
        };
        if row.state != MatchState::Running {
            return Ok(Some(progress));
        }
        let entrants = self.store.match_entrants(row.id).await?;
        let mut games = self.store.match_games(row.id).await?;
        for game in games.iter_mut().filter(|g| g.game_id == record.id) {
            game.state = *state;
        }
        let score = score_of(&row, &entrants, &games);
        progress.change = Some(MatchChange::GameEnded {
            id: row.id,
            expected_version: row.version,
            over_at: score.is_final().then_some(ended_at),
        });
        if score.is_final() {
            progress.result = self.result_replies(&row, score).await?;
        } else {
            let mut args = match_args(&row);
            args.push(("home_points", Arg::from(halves(score.home_halves))));
            args.push(("away_points", Arg::from(halves(score.away_halves))));
            args.push(("running", Arg::from(i64::from(score.running))));
            lines.push(self.i18n.text(lang, "match-score", &args));
        }
        Ok(Some(progress))
    }

    /// The final result, in each side's channel and language.
    async fn result_replies(
        &self,
        row: &MatchRow,
        score: Score,
    ) -> Result<Vec<Reply>, StorageError> {
        let mut args = match_args(row);
        args.push(("home_points", Arg::from(halves(score.home_halves))));
        args.push(("away_points", Arg::from(halves(score.away_halves))));
        let winner = score.leader().map(|side| row.side(side).team_name.as_str());
        args.push(("winner", Arg::from(winner.unwrap_or("-"))));
        args.push((
            "drawn",
            Arg::from(if winner.is_none() { "yes" } else { "no" }),
        ));
        let event = TournamentEvent::MatchResult {
            team_match: row.id,
            home: row.home.team_name.clone(),
            away: row.away.team_name.clone(),
            home_points: f64::from(score.home_halves) / 2.0,
            away_points: f64::from(score.away_halves) / 2.0,
        };
        let mut replies = Vec::new();
        let (home, away) = channels_of(row);
        let mut targets = vec![(home.clone(), row.home.server_id)];
        if let Some(away) = away.filter(|a| *a != home) {
            targets.push((away, row.away.server_id));
        }
        // Sides on two platforms: each is told on its own.
        let two = self.match_platforms(row).await?.is_some();
        for (channel, server) in targets {
            let lang = self.server_language(server).await?;
            let platform = match two {
                true => Some(self.platform_of(server).await?),
                false => None,
            };
            replies.push(Reply {
                channel,
                text: self.i18n.text(lang, "match-result", &args),
                tournament_events: vec![event.clone()],
                platform,
                ..Reply::default()
            });
        }
        Ok(replies)
    }

    /// Whether a game of another server may be reached from the act's: a
    /// match game, from its away side's server.
    pub(super) async fn reachable(
        &self,
        ctx: &Context,
        record: &GameRecord,
    ) -> Result<bool, StorageError> {
        if record.server_id == ctx.server.id {
            return Ok(true);
        }
        // A game between a club's servers, played from here.
        if let Some(place) = self.store.place_of_game(record.id).await? {
            return Ok(place.server_id == ctx.server.id);
        }
        let row = self.store.match_of_game(record.id).await?;
        Ok(row.is_some_and(|m| m.away.server_id == ctx.server.id))
    }

    /// The channel where `player` hears of game `record`: the away side's
    /// for an away player of a match game, else the game's own (also for
    /// a game with an away place, which `cross` copies there).
    pub(super) async fn channel_of_player(
        &self,
        record: &GameRecord,
        player: PlayerId,
    ) -> Result<String, StorageError> {
        if self.store.place_of_game(record.id).await?.is_some() {
            return Ok(record.channel.clone());
        }
        let Some(row) = self.store.match_of_game(record.id).await? else {
            return Ok(record.channel.clone());
        };
        let entrants = self.store.match_entrants(row.id).await?;
        let away = entrants
            .iter()
            .any(|e| e.player == player && e.side == MatchSide::Away);
        Ok(match (&row.away.channel, away) {
            (Some((_, channel)), true) => channel.clone(),
            _ => record.channel.clone(),
        })
    }
}

/// What withdrawing from matches writes and tells.
#[derive(Default)]
pub(super) struct Withdrawal {
    pub game_updates: Vec<GameUpdate>,
    pub match_changes: Vec<MatchChange>,
    pub replies: Vec<Reply>,
    /// The other platform's outbox row, when a match's sides are on two.
    pub relay: Option<crate::storage::Outgoing>,
}

/// Where a match's games are played and by which rules, and each side's
/// sign-ups with their ratings.
struct Seating<'a> {
    row: &'a MatchRow,
    /// The home side's channel, where the games live.
    channel_id: i64,
    draw_rules: DrawRules,
    lists: &'a [Vec<SignUp<&'a MatchEntrant>>; 2],
    /// The rating of a player without one.
    initial_rating: f64,
}

impl Seating<'_> {
    /// A signed-up player's rating.
    fn rating_of(&self, player: PlayerId) -> f64 {
        self.lists
            .iter()
            .flatten()
            .find(|s| s.player.player == player)
            .map_or(self.initial_rating, |s| s.rating)
    }
}

/// A started match's announcement in each side's channel, written once the
/// commit has numbered its games.
struct MatchStartNotice {
    i18n: Arc<I18n>,
    match_id: i64,
    home: String,
    away: String,
    board_count: usize,
    /// Both sides' channels (platform ids), home first, and their languages.
    channels: [String; 2],
    langs: [Lang; 2],
    planned: Vec<PlannedGame>,
}

impl MatchStartNotice {
    /// The match's boards, in each channel (once if both sides share one).
    fn replies(&self, committed: &Committed) -> Vec<Reply> {
        let (i18n, match_id) = (&self.i18n, self.match_id);
        let args = [
            ("match", Arg::from(match_id)),
            ("home", Arg::from(self.home.as_str())),
            ("away", Arg::from(self.away.as_str())),
        ];
        let mut replies = Vec::new();
        let channels = match self.channels[0] == self.channels[1] {
            true => &self.channels[..1],
            false => &self.channels[..],
        };
        for (channel, &lang) in channels.iter().zip(&self.langs) {
            let mut header = args.to_vec();
            header.push(("boards", Arg::from(self.board_count as i64)));
            let mut lines = vec![i18n.text(lang, "match-started", &header)];
            let mut events = Vec::new();
            for (plan, &game) in self.planned.iter().zip(&committed.match_games) {
                lines.push(plan.line(i18n, lang, game));
                events.push(TournamentEvent::MatchPairing {
                    team_match: match_id,
                    board: plan.board,
                    game,
                    white: plan.white.0.clone(),
                    black: plan.black.0.clone(),
                    home_white: plan.home_white,
                });
            }
            replies.push(Reply {
                channel: channel.clone(),
                text: lines.join("\n"),
                tournament_events: events,
                ..Reply::default()
            });
        }
        replies
    }
}

/// A new game's line in the start's announcement.
struct PlannedGame {
    board: u32,
    white: (String, f64),
    black: (String, f64),
    home_white: bool,
}

impl PlannedGame {
    fn line(&self, i18n: &I18n, lang: Lang, game: i64) -> String {
        let args = [
            ("board", Arg::from(self.board)),
            ("game", Arg::from(game)),
            ("white", Arg::from(self.white.0.as_str())),
            ("white_rating", Arg::from(self.white.1.round() as i64)),
            ("black", Arg::from(self.black.0.as_str())),
            ("black_rating", Arg::from(self.black.1.round() as i64)),
        ];
        i18n.text(lang, "match-board-line", &args)
    }
}

/// A board of the match table, read from the home side throughout.
struct BoardCells {
    number: u32,
    home: String,
    away: String,
    /// Its game with the home player on White, then on Black: the game's
    /// number and its score home–away (`#14 1–0`, `#15 ½–½`, `#16 *`).
    cells: [String; 2],
    home_halves: u32,
    away_halves: u32,
}

/// A game's score from the home side: `1–0` when the home player won,
/// whatever their colour; `*` while it runs, `-/-` when it scored nothing.
fn home_score(home_white: bool, result: Option<GameResult>) -> String {
    let white_halves = match result {
        None => return "*".to_owned(),
        Some(GameResult::NoResult) => return "-/-".to_owned(),
        Some(GameResult::WhiteWins) => 2,
        Some(GameResult::Draw) => 1,
        Some(GameResult::BlackWins) => 0,
    };
    let home = if home_white {
        white_halves
    } else {
        2 - white_halves
    };
    format!("{}–{}", halves(home), halves(2 - home))
}

fn board_table(entrants: &[MatchEntrant], games: &[MatchGameRow]) -> Vec<BoardCells> {
    let name = |player: PlayerId| {
        entrants
            .iter()
            .find(|e| e.player == player)
            .map_or_else(|| "?".to_owned(), |e| e.name.clone())
    };
    let mut boards: Vec<BoardCells> = Vec::new();
    for game in games {
        let home_white = side_of(entrants, game.white) == MatchSide::Home;
        let (home, away) = match home_white {
            true => (game.white, game.black),
            false => (game.black, game.white),
        };
        let result = match game.state {
            Status::Ongoing => None,
            Status::Over { result, .. } => Some(result),
        };
        let white_side = if home_white {
            MatchSide::Home
        } else {
            MatchSide::Away
        };
        let score = team_match::score([(white_side, result)]);
        let cell = format!("#{} {}", game.game_id, home_score(home_white, result));
        let slot = usize::from(!home_white);
        let board = match boards.iter().position(|b| b.number == game.board) {
            Some(at) => &mut boards[at],
            None => {
                boards.push(BoardCells {
                    number: game.board,
                    home: name(home),
                    away: name(away),
                    cells: [String::new(), String::new()],
                    home_halves: 0,
                    away_halves: 0,
                });
                let last = boards.len() - 1;
                &mut boards[last]
            }
        };
        board.cells[slot] = cell;
        board.home_halves += score.home_halves;
        board.away_halves += score.away_halves;
    }
    boards
}

fn side_of(entrants: &[MatchEntrant], player: PlayerId) -> MatchSide {
    entrants
        .iter()
        .find(|e| e.player == player)
        .map_or(MatchSide::Home, |e| e.side)
}

/// The match's score from its games as they stand.
fn score_of(_row: &MatchRow, entrants: &[MatchEntrant], games: &[MatchGameRow]) -> Score {
    team_match::score(games.iter().map(|g| {
        let result = match g.state {
            Status::Ongoing => None,
            Status::Over { result, .. } => Some(result),
        };
        (side_of(entrants, g.white), result)
    }))
}

fn channels_of(row: &MatchRow) -> (String, Option<String>) {
    (
        row.home.channel.clone().map(|(_, c)| c).unwrap_or_default(),
        row.away.channel.clone().map(|(_, c)| c),
    )
}

fn match_args(row: &MatchRow) -> Vec<(&'static str, Arg)> {
    vec![
        ("match", Arg::from(row.id)),
        ("home", Arg::from(row.home.team_name.as_str())),
        ("away", Arg::from(row.away.team_name.as_str())),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::GameEvent;

    fn reply(channel: &str, game: Option<i64>, ephemeral: bool) -> Reply {
        Reply {
            channel: channel.to_owned(),
            ephemeral,
            text: format!("{channel} {game:?}"),
            events: game
                .map(|game| GameEvent {
                    game,
                    event: crate::core::event::Event::DrawDeclined {
                        by: shakmaty::Color::White,
                    },
                })
                .into_iter()
                .collect(),
            ..Reply::default()
        }
    }

    fn progress(away: Option<&str>, game: Option<i64>) -> MatchProgress {
        MatchProgress {
            channels: ("home".to_owned(), away.map(str::to_owned)),
            game,
            change: None,
            result: vec![reply("result", None, false)],
        }
    }

    fn channels(replies: &[Reply]) -> Vec<(&str, &str)> {
        replies
            .iter()
            .map(|r| (r.channel.as_str(), r.text.as_str()))
            .collect()
    }

    #[test]
    fn a_match_games_messages_reach_both_sides_channels_once() {
        let mut replies = vec![
            reply("away", Some(7), false),
            reply("away", Some(7), true),
            reply("lounge", Some(7), false),
            // A leave's notice about another game stays where it is.
            reply("home", Some(8), false),
        ];
        progress(Some("away"), Some(7)).spread(&mut replies);
        assert_eq!(
            channels(&replies),
            [
                ("away", "away Some(7)"),
                ("away", "away Some(7)"),
                ("lounge", "lounge Some(7)"),
                ("home", "home Some(8)"),
                ("home", "away Some(7)"),
                ("home", "lounge Some(7)"),
                ("away", "lounge Some(7)"),
                ("result", "result None"),
            ]
        );
        // One channel for both sides, or none accepted yet: nothing doubled.
        for away in [Some("home"), None] {
            let mut replies = vec![reply("home", Some(7), false)];
            progress(away, Some(7)).spread(&mut replies);
            assert_eq!(
                channels(&replies),
                [("home", "home Some(7)"), ("result", "result None")]
            );
        }
    }
}
