//! An in-memory [`Store`] for fast tests: the same semantics as SQLite,
//! plain collections behind one lock, no SQL.

mod ladder;

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use chrono::{DateTime, Utc};
use serde::Serialize;
use shakmaty::Color;

use super::{
    ActRequest, ChallengeRow, ChallengeStatus, ChannelGames, ChannelRow, Commit, Committed,
    DueGame, FinishedGame, GameRecord, GameState, GameSummary, GameUpdate, LeaveRow, MoveRow,
    NewChallenge, NewGame, OpenedAct, Platform, PlayerRow, RatingPoint, RatingRow, RatingUpdate,
    Result, ServerDefaults, ServerRow, StandingRow, StorageError, Store, to_stored_precision,
};
use crate::core::event::GameResult;
use crate::core::game::{DrawRules, PlayerId};
use crate::storage::Notify;

mod tournaments;

#[derive(Default)]
struct State {
    servers: Vec<ServerRow>,
    channels: Vec<ChannelRow>,
    players: Vec<PlayerRow>,
    challenges: Vec<ChallengeRow>,
    games: Vec<(GameRecord, Color)>,
    answers: HashMap<String, String>,
    heartbeat: Option<DateTime<Utc>>,
    leaves: Vec<LeaveRow>,
    ratings: Vec<RatingRow>,
    rating_history: Vec<(i64, PlayerId, RatingPoint)>,
    tournaments: Vec<crate::storage::TournamentRow>,
    entrants: Vec<tournaments::Entrant>,
    pairings: Vec<tournaments::Pairing>,
    /// Games a scheduler claimed, and when the claim ends (their wake-up until a save).
    claims: HashMap<i64, DateTime<Utc>>,
    /// Each server's ladder, by server id.
    ladders: HashMap<i64, ladder::StoredLadder>,
    ladder_matches: Vec<super::LadderMatchRow>,
}

/// Everything in memory; dropped with the store.
#[derive(Default)]
pub struct MemoryStore {
    state: Mutex<State>,
}

impl MemoryStore {
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    fn lock(&self) -> Result<MutexGuard<'_, State>> {
        self.state
            .lock()
            .map_err(|_| StorageError::Backend("memory store lock poisoned".to_owned()))
    }
}

fn answer_json<R: Serialize>(value: &R) -> Result<String> {
    serde_json::to_string(value).map_err(|e| StorageError::Backend(format!("answer to JSON: {e}")))
}

/// A row naming one that does not exist, refused as SQLite's foreign keys do.
fn dangling(what: &str) -> StorageError {
    StorageError::Backend(format!("FOREIGN KEY constraint failed: unknown {what}"))
}

impl State {
    fn player(&self, id: PlayerId) -> Option<&PlayerRow> {
        self.players.iter().find(|p| p.id == id)
    }

    fn name(&self, id: PlayerId) -> String {
        self.player(id)
            .map(|p| p.display_name.clone())
            .unwrap_or_default()
    }

    /// A stored game with its players as they are now.
    fn record(&self, record: &GameRecord) -> Result<GameRecord> {
        let player = |id| {
            self.player(id)
                .cloned()
                .ok_or(StorageError::NotFound("player"))
        };
        Ok(GameRecord {
            white_player: player(record.white)?,
            black_player: player(record.black)?,
            ..record.clone()
        })
    }

    fn summary(&self, record: &GameRecord, turn: Color) -> GameSummary {
        GameSummary {
            id: record.id,
            channel_id: record.channel_id,
            white: record.white,
            black: record.black,
            white_name: self.name(record.white),
            black_name: self.name(record.black),
            turn,
            plies: record.moves.len() as u32,
            state: record.state,
        }
    }

    /// Checks every precondition of `commit` without changing anything,
    /// in the order SQLite meets them, so both stores refuse alike.
    fn check(&self, commit: &Commit) -> Result<()> {
        if let Some(key) = &commit.act_key
            && self.answers.contains_key(key)
        {
            return Err(StorageError::DuplicateAct(key.clone()));
        }
        if let Some(new) = &commit.new_challenge {
            self.check_challenge_refs(new)?;
        }
        if let Some(closing) = &commit.closing_challenge {
            let open = self
                .challenges
                .iter()
                .any(|c| c.id == closing.id && c.status == ChallengeStatus::Open);
            if !open {
                return Err(StorageError::Conflict);
            }
        }
        for update in &commit.rating_updates {
            let stored = self
                .ratings
                .iter()
                .find(|r| r.server_id == update.server_id && r.player == update.player)
                .map_or(0, |r| r.games);
            if stored != update.expected_games {
                return Err(StorageError::Conflict);
            }
        }
        if let Some(new) = &commit.new_game {
            self.check_game_refs(new)?;
        }
        if let Some(ending) = &commit.ending_leave {
            let running = self
                .leaves
                .iter()
                .any(|l| l.id == ending.id && l.ended_at.is_none());
            if !running {
                return Err(StorageError::Conflict);
            }
        }
        self.check_tournament_changes(commit)?;
        for update in &commit.game_updates {
            // SQLite's `UPDATE ... WHERE id = ? AND version = ?` cannot tell a
            // missing game from a moved-on one: both are a conflict.
            let current = self.games.iter().find(|(g, _)| g.id == update.id);
            if current.is_none_or(|(g, _)| g.version != update.expected_version) {
                return Err(StorageError::Conflict);
            }
        }
        self.check_ladder(commit)
    }

    /// What SQLite's foreign keys refuse for a new challenge.
    fn check_challenge_refs(&self, new: &NewChallenge) -> Result<()> {
        self.check_place(new.server_id, new.channel_id)?;
        self.check_player(new.challenger)?;
        new.challenged.map_or(Ok(()), |p| self.check_player(p))
    }

    /// What SQLite's foreign keys refuse for a new game.
    fn check_game_refs(&self, new: &NewGame) -> Result<()> {
        self.check_place(new.server_id, new.channel_id)?;
        self.check_player(new.white)?;
        self.check_player(new.black)?;
        match new.challenge_id {
            Some(id) if !self.challenges.iter().any(|c| c.id == id) => Err(dangling("challenge")),
            _ => Ok(()),
        }
    }

    fn check_place(&self, server_id: i64, channel_id: i64) -> Result<()> {
        if !self.servers.iter().any(|s| s.id == server_id) {
            return Err(dangling("server"));
        }
        if !self.channels.iter().any(|c| c.id == channel_id) {
            return Err(dangling("channel"));
        }
        Ok(())
    }

    fn check_player(&self, id: PlayerId) -> Result<()> {
        match self.player(id) {
            Some(_) => Ok(()),
            None => Err(dangling("player")),
        }
    }

    /// The ids [`State::apply`] will give the commit's new rows.
    fn next_ids(&self, commit: &Commit) -> Committed {
        let mut committed = Committed {
            challenge_id: commit
                .new_challenge
                .as_ref()
                .map(|_| self.challenges.len() as i64 + 1),
            game_id: commit
                .new_game
                .as_ref()
                .map(|_| self.games.len() as i64 + 1),
            ..Committed::default()
        };
        let games_before = self.games.len() as i64 + i64::from(commit.new_game.is_some());
        self.next_tournament_ids(commit, games_before, &mut committed);
        committed
    }

    /// Applies a commit that [`State::check`] accepted; it cannot fail.
    fn apply(&mut self, commit: Commit, now: DateTime<Utc>) -> Committed {
        let now = to_stored_precision(now);
        let mut committed = Committed::default();

        if let Some(new) = commit.new_challenge {
            committed.challenge_id = Some(self.insert_challenge(new, now));
        }
        if let Some(closing) = commit.closing_challenge
            && let Some(c) = self.challenges.iter_mut().find(|c| c.id == closing.id)
        {
            c.status = closing.to;
        }
        if let Some(new) = commit.new_game {
            committed.game_id = Some(self.insert_game(new, now));
        }
        for update in commit.game_updates {
            self.claims.remove(&update.id);
            self.update_game(update);
        }
        if let Some((id, language)) = commit.player_language
            && let Some(player) = self.players.iter_mut().find(|p| p.id == id)
        {
            player.language = language;
        }
        if let Some(leave) = commit.new_leave {
            let id = self.leaves.len() as i64 + 1;
            self.leaves.push(LeaveRow {
                id,
                player: leave.player,
                server_id: leave.server_id,
                starts_at: to_stored_precision(leave.starts_at),
                ends_at: to_stored_precision(leave.ends_at),
                ended_at: None,
                days: leave.days,
            });
        }
        if let Some(ending) = commit.ending_leave
            && let Some(leave) = self.leaves.iter_mut().find(|l| l.id == ending.id)
        {
            leave.ended_at = Some(to_stored_precision(ending.ended_at));
            leave.days = ending.days;
        }
        for update in commit.rating_updates {
            self.write_rating(update);
        }
        self.apply_tournament_changes(commit.tournament_changes, now, &mut committed);
        if let Some((id, notify)) = commit.player_notify
            && let Some(player) = self.players.iter_mut().find(|p| p.id == id)
        {
            player.notify = notify;
        }
        self.apply_ladder(
            commit.ladder.as_ref(),
            commit.new_ladder_match.as_ref(),
            commit.ladder_match_update,
            &committed,
        );
        committed
    }

    fn write_rating(&mut self, update: RatingUpdate) {
        let at = to_stored_precision(update.at);
        let row = RatingRow {
            server_id: update.server_id,
            player: update.player,
            rating: update.rating,
            deviation: update.deviation,
            volatility: update.volatility,
            games: update.expected_games + 1,
            rated_at: at,
        };
        match self
            .ratings
            .iter_mut()
            .find(|r| r.server_id == update.server_id && r.player == update.player)
        {
            Some(stored) => *stored = row,
            None => self.ratings.push(row),
        }
        self.rating_history.push((
            update.server_id,
            update.player,
            RatingPoint {
                game_id: update.game_id,
                rating: update.rating,
                deviation: update.deviation,
                at,
            },
        ));
    }

    fn insert_challenge(&mut self, new: NewChallenge, now: DateTime<Utc>) -> i64 {
        let id = self.challenges.len() as i64 + 1;
        self.challenges.push(ChallengeRow {
            id,
            server_id: new.server_id,
            channel_id: new.channel_id,
            challenger: new.challenger,
            challenged: new.challenged,
            color: new.color,
            time_control: new.time_control,
            rated: new.rated,
            start_fen: new.start_fen,
            status: ChallengeStatus::Open,
            created_at: now,
            expires_at: to_stored_precision(new.expires_at),
        });
        id
    }

    fn insert_game(&mut self, new: NewGame, now: DateTime<Utc>) -> i64 {
        let id = self.games.len() as i64 + 1;
        let placeholder = |id: PlayerId| PlayerRow {
            id,
            platform: Platform::Console,
            platform_id: String::new(),
            display_name: String::new(),
            language: None,
            notify: Notify::Channel,
        };
        // Player rows are filled in fresh on every read (see `record`).
        let record = GameRecord {
            id,
            server_id: new.server_id,
            channel_id: new.channel_id,
            white: new.white,
            black: new.black,
            white_player: placeholder(new.white),
            black_player: placeholder(new.black),
            channel: self
                .channels
                .iter()
                .find(|c| c.id == new.channel_id)
                .map(|c| c.platform_id.clone())
                .unwrap_or_default(),
            clock: new.clock,
            remind_at: new.remind_at.map(to_stored_precision),
            start_fen: new.start_fen,
            time_control: new.time_control,
            rated: new.rated,
            draw_rules: new.draw_rules,
            created_at: now,
            state: GameState::Ongoing,
            pending_offer: None,
            version: 0,
            moves: Vec::new(),
            notes: Vec::new(),
        };
        self.games.push((record, new.turn));
        id
    }

    fn update_game(&mut self, update: GameUpdate) {
        let Some((game, turn)) = self.games.iter_mut().find(|(g, _)| g.id == update.id) else {
            return;
        };
        game.moves
            .extend(update.new_moves.into_iter().map(|m| MoveRow {
                played_at: to_stored_precision(m.played_at),
                ..m
            }));
        // Notes are stored whole, as JSON, so their instants keep full precision.
        game.notes.extend(update.new_notes);
        game.clock = update.clock;
        game.remind_at = match update.state {
            GameState::Ongoing => update.remind_at.map(to_stored_precision),
            GameState::Over { .. } => None,
        };
        game.state = match update.state {
            GameState::Over {
                result,
                reason,
                ended_at,
            } => GameState::Over {
                result,
                reason,
                ended_at: to_stored_precision(ended_at),
            },
            GameState::Ongoing => GameState::Ongoing,
        };
        game.pending_offer = update.pending_offer;
        game.version += 1;
        *turn = update.turn;
    }
}

/// When the scheduler must look at a stored game again, if ever.
fn deadline(game: &GameRecord) -> Option<DateTime<Utc>> {
    match game.state {
        GameState::Ongoing => game.clock.and_then(|c| c.deadline()),
        GameState::Over { .. } => None,
    }
}

/// When the scheduler must look at a stored game next: its reminder or its flag.
fn wake_at(game: &GameRecord) -> Option<DateTime<Utc>> {
    let remind = game.remind_at.filter(|_| game.state == GameState::Ongoing);
    [deadline(game), remind].into_iter().flatten().min()
}

impl State {
    /// A game's wake-up: the end of a scheduler's claim, else its reminder or flag.
    fn wake(&self, game: &GameRecord) -> Option<DateTime<Utc>> {
        match self.claims.get(&game.id) {
            Some(until) => Some(*until),
            None => wake_at(game),
        }
    }
}

impl Store for MemoryStore {
    async fn claim_due_games(
        &self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<DueGame>> {
        let due = self.due_games(now, limit).await?;
        let mut state = self.lock()?;
        // Checked again under this lock: another claimer may have come in between.
        let due: Vec<DueGame> = due
            .into_iter()
            .filter(|d| {
                state
                    .games
                    .iter()
                    .find(|(g, _)| g.id == d.id)
                    .is_some_and(|(g, _)| state.wake(g).is_some_and(|at| at <= now))
            })
            .collect();
        for game in &due {
            state.claims.insert(game.id, lease_until);
        }
        Ok(due)
    }

    async fn running_leave(&self, player: PlayerId, server_id: i64) -> Result<Option<LeaveRow>> {
        let state = self.lock()?;
        Ok(state
            .leaves
            .iter()
            .find(|l| l.player == player && l.server_id == server_id && l.ended_at.is_none())
            .cloned())
    }

    async fn running_leaves(
        &self,
        server_id: i64,
        players: [PlayerId; 2],
    ) -> Result<Vec<LeaveRow>> {
        let state = self.lock()?;
        Ok(state
            .leaves
            .iter()
            .filter(|l| l.server_id == server_id && players.contains(&l.player))
            .filter(|l| l.ended_at.is_none())
            .cloned()
            .collect())
    }

    async fn leave_days_in_year(&self, player: PlayerId, server_id: i64, year: i32) -> Result<u32> {
        use chrono::Datelike;
        let state = self.lock()?;
        Ok(state
            .leaves
            .iter()
            .filter(|l| l.player == player && l.server_id == server_id)
            .filter(|l| l.starts_at.year() == year)
            .map(|l| l.days)
            .sum())
    }

    async fn due_leave_ends(&self, now: DateTime<Utc>, limit: usize) -> Result<Vec<LeaveRow>> {
        let state = self.lock()?;
        let mut due: Vec<LeaveRow> = state
            .leaves
            .iter()
            .filter(|l| l.ended_at.is_none() && l.ends_at <= now)
            .cloned()
            .collect();
        due.sort_by_key(|l| (l.ends_at, l.id));
        due.truncate(limit);
        Ok(due)
    }

    async fn next_leave_end(&self) -> Result<Option<DateTime<Utc>>> {
        let state = self.lock()?;
        Ok(state
            .leaves
            .iter()
            .filter(|l| l.ended_at.is_none())
            .map(|l| l.ends_at)
            .min())
    }

    async fn clocked_games(&self, after_id: i64, limit: usize) -> Result<Vec<DueGame>> {
        let state = self.lock()?;
        Ok(state
            .games
            .iter()
            .filter(|(g, _)| g.id > after_id && deadline(g).is_some())
            .take(limit)
            .map(|(g, _)| DueGame {
                id: g.id,
                version: g.version,
            })
            .collect())
    }

    async fn last_heartbeat(&self) -> Result<Option<DateTime<Utc>>> {
        Ok(self.lock()?.heartbeat)
    }

    async fn beat(&self, now: DateTime<Utc>) -> Result<()> {
        self.lock()?.heartbeat = Some(to_stored_precision(now));
        Ok(())
    }

    async fn next_wake_up(&self) -> Result<Option<DateTime<Utc>>> {
        let state = self.lock()?;
        Ok(state.games.iter().filter_map(|(g, _)| state.wake(g)).min())
    }

    async fn due_games(&self, now: DateTime<Utc>, limit: usize) -> Result<Vec<DueGame>> {
        let state = self.lock()?;
        let mut due: Vec<(DateTime<Utc>, DueGame)> = state
            .games
            .iter()
            .filter_map(|(g, _)| {
                let at = state.wake(g).filter(|at| *at <= now)?;
                Some((
                    at,
                    DueGame {
                        id: g.id,
                        version: g.version,
                    },
                ))
            })
            .collect();
        due.sort_by_key(|(at, game)| (*at, game.id));
        Ok(due.into_iter().take(limit).map(|(_, game)| game).collect())
    }

    async fn open_act(&self, request: ActRequest, now: DateTime<Utc>) -> Result<OpenedAct> {
        if let Some(key) = &request.act_key
            && let Some(answer) = self.answer_of(key).await?
        {
            return Ok(OpenedAct::Answered(answer));
        }
        let server = self
            .ensure_server(request.platform, &request.server, &request.defaults, now)
            .await?;
        let channel = self.ensure_channel(server.id, &request.channel).await?;
        let player = self
            .ensure_player(request.platform, &request.user_id, &request.user_name, now)
            .await?;
        Ok(OpenedAct::New {
            server,
            channel,
            player,
        })
    }

    async fn ongoing_in_channel(&self, channel_id: i64, player: PlayerId) -> Result<ChannelGames> {
        let mut games = self.games_in_channel(channel_id, player, true).await?;
        Ok(match games.len() {
            0 => ChannelGames::None,
            1 => {
                let id = games.remove(0).id;
                let record = self.game(id).await?.ok_or(StorageError::NotFound("game"))?;
                let players = [record.white, record.black];
                let on_leave = !self
                    .running_leaves(record.server_id, players)
                    .await?
                    .is_empty();
                ChannelGames::One {
                    id,
                    version: record.version,
                    on_leave,
                }
            }
            _ => ChannelGames::Several(games),
        })
    }

    async fn ensure_server(
        &self,
        platform: Platform,
        platform_id: &str,
        defaults: &ServerDefaults,
        _now: DateTime<Utc>,
    ) -> Result<ServerRow> {
        let mut state = self.lock()?;
        let existing = state
            .servers
            .iter()
            .find(|s| s.platform == platform && s.platform_id == platform_id);
        if let Some(server) = existing {
            return Ok(server.clone());
        }
        let server = ServerRow {
            id: state.servers.len() as i64 + 1,
            platform,
            platform_id: platform_id.to_owned(),
            language: defaults.language,
            time_control: defaults.time_control.clone(),
            draw_rules: DrawRules::default(),
            moderator_role: None,
        };
        state.servers.push(server.clone());
        Ok(server)
    }

    async fn ensure_channel(&self, server_id: i64, platform_id: &str) -> Result<ChannelRow> {
        let mut state = self.lock()?;
        let existing = state
            .channels
            .iter()
            .find(|c| c.server_id == server_id && c.platform_id == platform_id);
        if let Some(channel) = existing {
            return Ok(channel.clone());
        }
        if !state.servers.iter().any(|s| s.id == server_id) {
            return Err(dangling("server"));
        }
        let channel = ChannelRow {
            id: state.channels.len() as i64 + 1,
            server_id,
            platform_id: platform_id.to_owned(),
        };
        state.channels.push(channel.clone());
        Ok(channel)
    }

    async fn ensure_player(
        &self,
        platform: Platform,
        platform_id: &str,
        display_name: &str,
        _now: DateTime<Utc>,
    ) -> Result<PlayerRow> {
        let mut state = self.lock()?;
        let existing = state
            .players
            .iter_mut()
            .find(|p| p.platform == platform && p.platform_id == platform_id);
        if let Some(player) = existing {
            if player.display_name != display_name {
                player.display_name = display_name.to_owned();
            }
            return Ok(player.clone());
        }
        let player = PlayerRow {
            id: PlayerId(state.players.len() as i64 + 1),
            platform,
            platform_id: platform_id.to_owned(),
            display_name: display_name.to_owned(),
            language: None,
            notify: Notify::Channel,
        };
        state.players.push(player.clone());
        Ok(player)
    }

    async fn find_player(
        &self,
        platform: Platform,
        platform_id: &str,
    ) -> Result<Option<PlayerRow>> {
        let state = self.lock()?;
        Ok(state
            .players
            .iter()
            .find(|p| p.platform == platform && p.platform_id == platform_id)
            .cloned())
    }

    async fn player(&self, id: PlayerId) -> Result<Option<PlayerRow>> {
        Ok(self.lock()?.player(id).cloned())
    }

    async fn server(&self, id: i64) -> Result<Option<ServerRow>> {
        Ok(self.lock()?.servers.iter().find(|s| s.id == id).cloned())
    }

    async fn answer_of(&self, act_key: &str) -> Result<Option<String>> {
        Ok(self.lock()?.answers.get(act_key).cloned())
    }

    async fn game(&self, id: i64) -> Result<Option<GameRecord>> {
        let state = self.lock()?;
        let found = state.games.iter().find(|(g, _)| g.id == id);
        found.map(|(g, _)| state.record(g)).transpose()
    }

    async fn games_in_channel(
        &self,
        channel_id: i64,
        player: PlayerId,
        ongoing_only: bool,
    ) -> Result<Vec<GameSummary>> {
        let state = self.lock()?;
        Ok(state
            .games
            .iter()
            .rev()
            .filter(|(g, _)| g.channel_id == channel_id && (g.white == player || g.black == player))
            .filter(|(g, _)| !ongoing_only || g.state == GameState::Ongoing)
            .map(|(g, turn)| state.summary(g, *turn))
            .collect())
    }

    async fn ongoing_games_on_server(
        &self,
        server_id: i64,
        player: PlayerId,
    ) -> Result<Vec<GameSummary>> {
        let state = self.lock()?;
        Ok(state
            .games
            .iter()
            .rev()
            .filter(|(g, _)| g.server_id == server_id && (g.white == player || g.black == player))
            .filter(|(g, _)| g.state == GameState::Ongoing)
            .map(|(g, turn)| state.summary(g, *turn))
            .collect())
    }

    async fn open_challenge_count(&self, challenger: PlayerId, now: DateTime<Utc>) -> Result<u32> {
        let state = self.lock()?;
        let count = state
            .challenges
            .iter()
            .filter(|c| c.challenger == challenger && c.status == ChallengeStatus::Open)
            .filter(|c| c.expires_at > to_stored_precision(now))
            .count();
        Ok(u32::try_from(count).unwrap_or(u32::MAX))
    }

    async fn open_challenges(
        &self,
        channel_id: i64,
        now: DateTime<Utc>,
    ) -> Result<Vec<ChallengeRow>> {
        let state = self.lock()?;
        Ok(state
            .challenges
            .iter()
            .filter(|c| c.channel_id == channel_id && c.status == ChallengeStatus::Open)
            .filter(|c| c.expires_at > to_stored_precision(now))
            .cloned()
            .collect())
    }

    async fn commit<R, F>(
        &self,
        commit: Commit,
        now: DateTime<Utc>,
        answer: F,
    ) -> Result<(Committed, R)>
    where
        R: Serialize + Send + 'static,
        F: FnOnce(&Committed) -> R + Send + 'static,
    {
        let mut state = self.lock()?;
        state.check(&commit)?;
        // Everything that can still fail (the answer, its JSON) happens
        // before the first change, so a failure leaves the state untouched.
        let committed = state.next_ids(&commit);
        let value = answer(&committed);
        let json = match &commit.act_key {
            Some(key) => Some((key.clone(), answer_json(&value)?)),
            None => None,
        };
        let applied = state.apply(commit, now);
        debug_assert_eq!(applied, committed);
        if let Some((key, json)) = json {
            state.answers.insert(key, json);
        }
        Ok((committed, value))
    }

    /// No transaction spans several commits here: a batch of more than one
    /// is refused untouched, and the caller commits its acts one by one.
    async fn commit_all<R, F>(
        &self,
        mut batch: Vec<(Commit, F)>,
        now: DateTime<Utc>,
    ) -> Result<Vec<(Committed, R)>>
    where
        R: Serialize + Send + 'static,
        F: FnOnce(&Committed) -> R + Send + 'static,
    {
        match (batch.pop(), batch.is_empty()) {
            (None, _) => Ok(Vec::new()),
            (Some((commit, answer)), true) => Ok(vec![self.commit(commit, now, answer).await?]),
            (Some(_), false) => Err(StorageError::Conflict),
        }
    }

    async fn finished_games(&self, server_id: i64) -> Result<Vec<FinishedGame>> {
        let state = self.lock()?;
        let mut games: Vec<FinishedGame> = state
            .games
            .iter()
            .filter(|(g, _)| g.server_id == server_id)
            .filter_map(|(g, _)| match g.state {
                GameState::Over {
                    result, ended_at, ..
                } if result != GameResult::NoResult => Some(FinishedGame {
                    id: g.id,
                    white: g.white,
                    black: g.black,
                    result,
                    ended_at,
                }),
                _ => None,
            })
            .collect();
        games.sort_by_key(|g| (g.ended_at, g.id));
        Ok(games)
    }

    async fn rating(&self, server_id: i64, player: PlayerId) -> Result<Option<RatingRow>> {
        let state = self.lock()?;
        Ok(state
            .ratings
            .iter()
            .find(|r| r.server_id == server_id && r.player == player)
            .cloned())
    }

    async fn rating_history(&self, server_id: i64, player: PlayerId) -> Result<Vec<RatingPoint>> {
        let state = self.lock()?;
        Ok(state
            .rating_history
            .iter()
            .filter(|(s, p, _)| *s == server_id && *p == player)
            .map(|(_, _, point)| point.clone())
            .collect())
    }

    async fn standings(&self, server_id: i64) -> Result<Vec<StandingRow>> {
        let state = self.lock()?;
        let mut table: HashMap<PlayerId, StandingRow> = HashMap::new();
        for (game, _) in state.games.iter().filter(|(g, _)| g.server_id == server_id) {
            let GameState::Over { result, .. } = game.state else {
                continue;
            };
            if result == GameResult::NoResult {
                continue;
            }
            for (side, player) in [(Color::White, game.white), (Color::Black, game.black)] {
                let row = table.entry(player).or_insert_with(|| StandingRow {
                    player,
                    name: state.name(player),
                    played: 0,
                    won: 0,
                    drawn: 0,
                    lost: 0,
                    half_points: 0,
                });
                let half = result.half_points_for(side).unwrap_or(0);
                row.played += 1;
                row.half_points += half;
                match half {
                    2 => row.won += 1,
                    1 => row.drawn += 1,
                    _ => row.lost += 1,
                }
            }
        }
        let mut rows: Vec<StandingRow> = table.into_values().collect();
        rows.sort_by(|a, b| {
            b.half_points
                .cmp(&a.half_points)
                .then(b.won.cmp(&a.won))
                .then(a.name.cmp(&b.name))
        });
        Ok(rows)
    }

    async fn ladder(&self, server_id: i64) -> Result<super::LadderRow> {
        Ok(self.lock()?.ladder_row(server_id))
    }

    async fn unsettled_ladder_matches(&self, server_id: i64) -> Result<Vec<super::LadderMatchRow>> {
        let state = self.lock()?;
        Ok(state
            .ladder_matches
            .iter()
            .filter(|m| m.server_id == server_id && m.status.is_unsettled())
            .cloned()
            .collect())
    }

    async fn ladder_match_of_challenge(
        &self,
        challenge_id: i64,
    ) -> Result<Option<super::LadderMatchRow>> {
        let state = self.lock()?;
        Ok(state
            .ladder_matches
            .iter()
            .find(|m| m.challenge_id == challenge_id)
            .cloned())
    }

    async fn ladder_match_of_game(&self, game_id: i64) -> Result<Option<super::LadderMatchRow>> {
        let state = self.lock()?;
        Ok(state
            .ladder_matches
            .iter()
            .find(|m| m.game_id == Some(game_id))
            .cloned())
    }

    async fn due_ladder_forfeits(
        &self,
        now: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<super::LadderMatchRow>> {
        let state = self.lock()?;
        let now = to_stored_precision(now);
        let mut due: Vec<_> = state
            .ladder_matches
            .iter()
            .filter(|m| m.status == super::LadderMatchStatus::Pending && m.accept_by <= now)
            .cloned()
            .collect();
        due.sort_by_key(|m| (m.accept_by, m.id));
        due.truncate(limit);
        Ok(due)
    }

    async fn idle_ladder_rungs(
        &self,
        active_before: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<super::IdleRung>> {
        Ok(self.lock()?.idle_rungs(active_before, limit))
    }

    async fn next_ladder_deadline(
        &self,
        inactive_after: Option<chrono::Duration>,
    ) -> Result<Option<DateTime<Utc>>> {
        Ok(self.lock()?.next_ladder_deadline(inactive_after))
    }

    async fn tournament(&self, id: i64) -> Result<Option<crate::storage::TournamentRow>> {
        Ok(self.lock()?.tournament(id))
    }

    async fn tournaments_in_channel(
        &self,
        channel_id: i64,
    ) -> Result<Vec<crate::storage::TournamentRow>> {
        Ok(self.lock()?.tournaments_in_channel(channel_id))
    }

    async fn tournament_entrants(
        &self,
        tournament_id: i64,
    ) -> Result<Vec<crate::storage::EntrantRow>> {
        Ok(self.lock()?.tournament_entrants(tournament_id))
    }

    async fn tournament_pairings(
        &self,
        tournament_id: i64,
    ) -> Result<Vec<crate::storage::PairingRow>> {
        Ok(self.lock()?.tournament_pairings(tournament_id))
    }

    async fn tournament_of_game(&self, game_id: i64) -> Result<Option<i64>> {
        Ok(self.lock()?.tournament_of_game(game_id))
    }

    async fn due_tournaments(
        &self,
        now: DateTime<Utc>,
        limit: usize,
    ) -> Result<Vec<crate::storage::DueTournament>> {
        Ok(self.lock()?.due_tournaments(now, limit))
    }

    async fn next_tournament_start(&self) -> Result<Option<DateTime<Utc>>> {
        Ok(self.lock()?.next_tournament_start())
    }
}

#[cfg(test)]
mod tests {
    use super::MemoryStore;

    fn fresh() -> ((), MemoryStore) {
        ((), MemoryStore::new())
    }

    crate::storage::suite::store_suite!(fresh);
}
