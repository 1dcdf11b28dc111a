//! Flags that fall: the service's side of the scheduler.
//!
//! The scheduler only knows when to wake; [`Service::run_due`] finds the
//! games whose flag has fallen, lets the core decide (a loss, a draw when
//! the opponent cannot mate, or an abort when the first move never came) and
//! commits each one under an idempotency key made of the game and its
//! version, so two schedulers (or a restart) never end a game twice.

use chrono::{DateTime, Utc};

use super::cache::LoadedGame;
use super::texts::{self, Names};
use super::{Failure, GameEvent, Reply, Service};
use crate::core::game::{Act, Actor, GameError};
use crate::storage::{Commit, DueGame, GameUpdate, StorageError, Store};

/// Games handled per store query; more are fetched until none are due.
const BATCH: usize = 200;

impl<S: Store> Service<S> {
    /// The earliest instant a flag falls, if any game has a clock running.
    pub async fn next_deadline(&self) -> Result<Option<DateTime<Utc>>, StorageError> {
        self.store.next_deadline().await
    }

    /// Ends every game whose flag has fallen at `now` and returns the notices
    /// for their channels. Games a player saved meanwhile are left alone.
    pub async fn run_due(&self, now: DateTime<Utc>) -> Vec<Reply> {
        let mut replies = Vec::new();
        loop {
            let due = match self.store.due_games(now, BATCH).await {
                Ok(due) => due,
                Err(error) => {
                    tracing::error!(%error, "cannot read due games");
                    return replies;
                }
            };
            let full_batch = due.len() == BATCH;
            let mut ended = 0;
            for game in due {
                match self.expire(game, now).await {
                    Ok(notices) => {
                        ended += usize::from(!notices.is_empty());
                        replies.extend(notices);
                    }
                    Err(Failure::Storage(error)) => {
                        tracing::error!(%error, game = game.id, "cannot end a game on time");
                    }
                }
            }
            // A full batch where nothing ended would repeat forever: stop.
            if !full_batch || ended == 0 {
                return replies;
            }
        }
    }

    /// Lets the clock end one game, if its flag has really fallen.
    async fn expire(&self, due: DueGame, now: DateTime<Utc>) -> Result<Vec<Reply>, Failure> {
        let loaded = match self.games.get(due.id, due.version) {
            Some(loaded) => loaded,
            None => match self.store.game(due.id).await? {
                Some(record) if record.version == due.version => {
                    let game = super::games::restore(&record)?;
                    self.games.put(LoadedGame::new(record, game))
                }
                // Saved meanwhile: the next round looks at it again.
                _ => return Ok(Vec::new()),
            },
        };
        let record = &loaded.record;
        let mut game = loaded.game.clone();
        let turn = game.turn();
        let events = match game.apply(&Actor::Clock, Act::ClockExpired, now) {
            Ok(events) => events,
            Err(GameError::NotFlagged | GameError::GameOver) => return Ok(Vec::new()),
            Err(error) => {
                tracing::warn!(%error, game = record.id, "the clock could not end a game");
                return Ok(Vec::new());
            }
        };
        let names = Names::new(&record.white_player, &record.black_player);
        let lang = self.config.default_language;
        let lines =
            texts::describe_events(&self.i18n, lang, record.id, &names, &events, None, turn);
        // Tell the player who was waiting: the one whose flag did not fall.
        let reply = Reply {
            channel: record.channel.clone(),
            to: Some(names.platform_id(!turn).to_owned()),
            ephemeral: false,
            text: lines.join("\n"),
            events: events
                .iter()
                .map(|event| GameEvent {
                    game: record.id,
                    event: event.clone(),
                })
                .collect(),
            board: None,
        };
        let update = GameUpdate {
            id: record.id,
            expected_version: record.version,
            new_moves: Vec::new(),
            new_notes: game.notes()[loaded.game.notes().len()..].to_vec(),
            state: super::games::to_state(game.status()),
            pending_offer: game.pending_offer(),
            turn: game.turn(),
            clock: Some(*game.clock()),
        };
        let commit = Commit {
            act_key: Some(format!("deadline:{}:{}", record.id, record.version)),
            game_update: Some(update),
            ..Commit::default()
        };
        match self.store.commit(commit, now, move |_| vec![reply]).await {
            Ok((_, replies)) => Ok(replies),
            // Another scheduler (or a move) got there first: nothing to say twice.
            Err(StorageError::Conflict | StorageError::DuplicateAct(_)) => Ok(Vec::new()),
            Err(error) => Err(error.into()),
        }
    }
}
