//! Recently used games, kept rebuilt between acts.
//!
//! Rebuilding a game means reading its moves and replaying them; a game
//! that is being played is used again at its next move. The cache is keyed
//! by game id and checked against the stored version, so a stale entry (the
//! game changed through another process) is never used: it is reloaded.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

use lru::LruCache;

use crate::core::game::Game;
use crate::storage::{GameRecord, GameUpdate};

/// A stored game and the core's game rebuilt from it.
#[derive(Clone, Debug)]
pub(super) struct LoadedGame {
    /// The stored record, without its moves and notes: those live in `game`.
    pub record: GameRecord,
    pub game: Game,
}

impl LoadedGame {
    pub fn new(mut record: GameRecord, game: Game) -> LoadedGame {
        record.moves = Vec::new();
        record.notes = Vec::new();
        LoadedGame { record, game }
    }

    /// `record` as the store holds it once `update` of it commits, with
    /// `game` as the act left it: the next act starts from here without a
    /// reload. Every save bumps a game's version by one in the store; this
    /// is the one place the service follows that bump.
    pub fn saved(record: &GameRecord, update: &GameUpdate, game: Game) -> LoadedGame {
        debug_assert_eq!(
            (record.id, record.version),
            (update.id, update.expected_version)
        );
        let record = GameRecord {
            version: update.expected_version + 1,
            state: update.state,
            pending_offer: update.pending_offer,
            clock: update.clock,
            // An act that saves the game again from here (`/if`) keeps this one.
            remind_at: update.remind_at,
            conditionals: update.conditionals.clone(),
            ..record.clone()
        };
        LoadedGame::new(record, game)
    }
}

/// A bounded least-recently-used map of game id to loaded game.
pub(super) struct GameCache {
    games: Mutex<LruCache<i64, Arc<LoadedGame>>>,
}

impl GameCache {
    pub fn new(capacity: usize) -> GameCache {
        let capacity = NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN);
        GameCache {
            games: Mutex::new(LruCache::new(capacity)),
        }
    }

    /// The cached game `id`, if it is at `version`.
    pub fn get(&self, id: i64, version: i64) -> Option<Arc<LoadedGame>> {
        let mut games = self.games.lock().ok()?;
        let loaded = games.get(&id)?;
        (loaded.record.version == version).then(|| Arc::clone(loaded))
    }

    /// Forgets every game: their records hold players' settings (language,
    /// notices), which change without a game's version changing.
    pub fn clear(&self) {
        if let Ok(mut games) = self.games.lock() {
            games.clear();
        }
    }

    pub fn put(&self, loaded: LoadedGame) -> Arc<LoadedGame> {
        let loaded = Arc::new(loaded);
        if let Ok(mut games) = self.games.lock() {
            games.put(loaded.record.id, Arc::clone(&loaded));
        }
        loaded
    }
}
