//! The in-memory store's tournament rows, with SQLite's semantics.

use chrono::{DateTime, Utc};

use super::{State, dangling};
use crate::core::game::PlayerId;
use crate::storage::{
    Commit, Committed, DueTournament, EntrantRow, PairingRow, Result, StorageError,
    TournamentChange, TournamentRow, TournamentState, to_stored_precision,
};

/// An entrant as kept: the names are filled in on every read.
#[derive(Clone, Debug)]
pub(super) struct Entrant {
    tournament_id: i64,
    player: PlayerId,
    joined_at: DateTime<Utc>,
    seed: Option<u32>,
    withdrawn_at: Option<DateTime<Utc>>,
}

/// A pairing as kept: the game's state is read on every read.
#[derive(Clone, Debug)]
pub(super) struct Pairing {
    tournament_id: i64,
    row: PairingRow,
}

impl State {
    /// What SQLite refuses among the commit's tournament changes.
    pub(super) fn check_tournament_changes(&self, commit: &Commit) -> Result<()> {
        for change in &commit.tournament_changes {
            match change {
                TournamentChange::Create(new) => {
                    self.check_place(new.server_id, new.channel_id)?;
                    self.check_player(new.created_by)?;
                }
                TournamentChange::Advance {
                    id,
                    expected_version,
                    ..
                } => {
                    let current = self.tournaments.iter().find(|t| t.id == *id);
                    if current.is_none_or(|t| t.version != *expected_version) {
                        return Err(StorageError::Conflict);
                    }
                }
                TournamentChange::Join {
                    tournament_id,
                    player,
                    ..
                } => {
                    self.check_tournament(*tournament_id)?;
                    self.check_player(*player)?;
                    let joined = self
                        .entrants
                        .iter()
                        .any(|e| e.tournament_id == *tournament_id && e.player == *player);
                    if joined {
                        return Err(StorageError::Conflict);
                    }
                }
                TournamentChange::Pair(new) => {
                    self.check_tournament(new.tournament_id)?;
                    self.check_player(new.white)?;
                    if let Some(black) = new.black {
                        self.check_player(black)?;
                    }
                    if let Some(game) = &new.game {
                        self.check_game_refs(game)?;
                    }
                }
                TournamentChange::Leave { .. }
                | TournamentChange::Seed { .. }
                | TournamentChange::Withdraw { .. }
                | TournamentChange::Score { .. } => {}
            }
        }
        Ok(())
    }

    fn check_tournament(&self, id: i64) -> Result<()> {
        match self.tournaments.iter().any(|t| t.id == id) {
            true => Ok(()),
            false => Err(dangling("tournament")),
        }
    }

    /// The ids [`State::apply_tournament_changes`] will give, after `games_before` games.
    pub(super) fn next_tournament_ids(
        &self,
        commit: &Commit,
        games_before: i64,
        committed: &mut Committed,
    ) {
        let mut next_game = games_before;
        for change in &commit.tournament_changes {
            match change {
                TournamentChange::Create(_) => {
                    committed.tournament_id = Some(self.tournaments.len() as i64 + 1);
                }
                TournamentChange::Pair(new) if new.game.is_some() => {
                    next_game += 1;
                    committed.tournament_games.push(next_game);
                }
                _ => {}
            }
        }
    }

    pub(super) fn apply_tournament_changes(
        &mut self,
        changes: Vec<TournamentChange>,
        now: DateTime<Utc>,
        committed: &mut Committed,
    ) {
        for change in changes {
            match change {
                TournamentChange::Create(new) => {
                    let id = self.tournaments.len() as i64 + 1;
                    let channel = self
                        .channels
                        .iter()
                        .find(|c| c.id == new.channel_id)
                        .map(|c| c.platform_id.clone())
                        .unwrap_or_default();
                    self.tournaments.push(TournamentRow {
                        id,
                        server_id: new.server_id,
                        channel_id: new.channel_id,
                        channel,
                        name: new.name,
                        system: new.system,
                        time_control: new.time_control,
                        rated: new.rated,
                        rounds: new.rounds,
                        bye_half_points: new.bye_half_points,
                        max_players: new.max_players,
                        entry_closes_at: new.entry_closes_at.map(to_stored_precision),
                        state: TournamentState::Entry,
                        round: 0,
                        created_by: new.created_by,
                        created_at: now,
                        version: 0,
                    });
                    committed.tournament_id = Some(id);
                }
                TournamentChange::Advance {
                    id, state, round, ..
                } => {
                    if let Some(t) = self.tournaments.iter_mut().find(|t| t.id == id) {
                        t.state = state;
                        t.round = round;
                        t.version += 1;
                    }
                }
                TournamentChange::Join {
                    tournament_id,
                    player,
                    at,
                } => self.entrants.push(Entrant {
                    tournament_id,
                    player,
                    joined_at: to_stored_precision(at),
                    seed: None,
                    withdrawn_at: None,
                }),
                TournamentChange::Leave {
                    tournament_id,
                    player,
                } => self
                    .entrants
                    .retain(|e| !(e.tournament_id == tournament_id && e.player == player)),
                TournamentChange::Seed {
                    tournament_id,
                    player,
                    seed,
                } => {
                    if let Some(e) = self.entrant_mut(tournament_id, player) {
                        e.seed = Some(seed);
                    }
                }
                TournamentChange::Withdraw {
                    tournament_id,
                    player,
                    at,
                } => {
                    if let Some(e) = self.entrant_mut(tournament_id, player) {
                        e.withdrawn_at = Some(to_stored_precision(at));
                    }
                }
                TournamentChange::Pair(new) => {
                    let game_id = new.game.map(|game| self.insert_game(game, now));
                    committed.tournament_games.extend(game_id);
                    let id = self.pairings.len() as i64 + 1;
                    self.pairings.push(Pairing {
                        tournament_id: new.tournament_id,
                        row: PairingRow {
                            id,
                            round: new.round,
                            board: new.board,
                            white: new.white,
                            black: new.black,
                            game_id,
                            game_state: None,
                            score: new.score,
                        },
                    });
                }
                TournamentChange::Score { pairing_id, score } => {
                    if let Some(p) = self.pairings.iter_mut().find(|p| p.row.id == pairing_id) {
                        p.row.score = Some(score);
                    }
                }
            }
        }
    }

    fn entrant_mut(&mut self, tournament_id: i64, player: PlayerId) -> Option<&mut Entrant> {
        self.entrants
            .iter_mut()
            .find(|e| e.tournament_id == tournament_id && e.player == player)
    }

    pub(super) fn tournament(&self, id: i64) -> Option<TournamentRow> {
        self.tournaments.iter().find(|t| t.id == id).cloned()
    }

    pub(super) fn tournaments_in_channel(&self, channel_id: i64) -> Vec<TournamentRow> {
        let mut found: Vec<TournamentRow> = self
            .tournaments
            .iter()
            .filter(|t| t.channel_id == channel_id)
            .cloned()
            .collect();
        found.reverse();
        found
    }

    pub(super) fn tournament_entrants(&self, tournament_id: i64) -> Vec<EntrantRow> {
        let mut rows: Vec<EntrantRow> = self
            .entrants
            .iter()
            .filter(|e| e.tournament_id == tournament_id)
            .map(|e| {
                let player = self.player(e.player);
                EntrantRow {
                    player: e.player,
                    name: player.map(|p| p.display_name.clone()).unwrap_or_default(),
                    platform_id: player.map(|p| p.platform_id.clone()).unwrap_or_default(),
                    joined_at: e.joined_at,
                    seed: e.seed,
                    withdrawn_at: e.withdrawn_at,
                }
            })
            .collect();
        rows.sort_by_key(|e| (e.joined_at, e.player.0));
        rows
    }

    pub(super) fn tournament_pairings(&self, tournament_id: i64) -> Vec<PairingRow> {
        let mut rows: Vec<PairingRow> = self
            .pairings
            .iter()
            .filter(|p| p.tournament_id == tournament_id)
            .map(|p| PairingRow {
                game_state: p.row.game_id.and_then(|id| {
                    self.games
                        .iter()
                        .find(|(g, _)| g.id == id)
                        .map(|(g, _)| g.state)
                }),
                ..p.row.clone()
            })
            .collect();
        rows.sort_by_key(|p| (p.round, p.board, p.id));
        rows
    }

    pub(super) fn tournament_of_game(&self, game_id: i64) -> Option<i64> {
        self.pairings
            .iter()
            .find(|p| p.row.game_id == Some(game_id))
            .map(|p| p.tournament_id)
    }

    fn waiting(&self) -> impl Iterator<Item = (&TournamentRow, DateTime<Utc>)> {
        self.tournaments.iter().filter_map(|t| match t.state {
            TournamentState::Entry => t.entry_closes_at.map(|at| (t, at)),
            _ => None,
        })
    }

    pub(super) fn due_tournaments(&self, now: DateTime<Utc>, limit: usize) -> Vec<DueTournament> {
        let now = to_stored_precision(now);
        let mut due: Vec<(DateTime<Utc>, DueTournament)> = self
            .waiting()
            .filter(|(_, at)| *at <= now)
            .map(|(t, at)| {
                (
                    at,
                    DueTournament {
                        id: t.id,
                        version: t.version,
                    },
                )
            })
            .collect();
        due.sort_by_key(|(at, d)| (*at, d.id));
        due.into_iter().take(limit).map(|(_, d)| d).collect()
    }

    pub(super) fn next_tournament_start(&self) -> Option<DateTime<Utc>> {
        self.waiting().map(|(_, at)| at).min()
    }
}
