//! Live pages: one watcher per process tells every open page of a game
//! that the game changed.
//!
//! Pages subscribe to a game ([`Live::subscribe`]); a tick (every
//! [`Live::tick`], 250 ms by default) reads the stored versions of the
//! games someone watches in one statement, whoever committed the change
//! (this process, or another on the same database: that is how a move
//! played through one process reaches the pages served by another), and
//! broadcasts the new page to that game's subscribers once per language.
//! No page ever polls the database itself: 1,000 viewers of a game cost
//! the same one read per tick as one.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::Utc;
use tokio::sync::broadcast;

use crate::core::notation::Lang;
use crate::service::Service;

/// How many updates a slow page may fall behind before it skips to the
/// latest (it only ever needs the latest).
const BACKLOG: usize = 4;

/// A game's new state, as each language's page reads it (JSON).
#[derive(Debug)]
pub struct Update {
    pub version: i64,
    pub en: String,
    pub fr: String,
}

impl Update {
    /// The update in `lang` (French, or else English).
    pub fn in_lang(&self, lang: Lang) -> &str {
        match lang {
            Lang::Fr => &self.fr,
            _ => &self.en,
        }
    }
}

struct Watch {
    version: i64,
    sender: broadcast::Sender<Arc<Update>>,
    latest: Option<Arc<Update>>,
}

/// The games watched by this process's pages.
pub struct Live {
    watched: Mutex<HashMap<i64, Watch>>,
    tick: Duration,
}

/// A page's subscription: the update it missed, if any, then the next ones.
pub struct Subscription {
    pub missed: Option<Arc<Update>>,
    pub updates: broadcast::Receiver<Arc<Update>>,
}

impl Live {
    pub fn new(tick: Duration) -> Live {
        Live {
            watched: Mutex::new(HashMap::new()),
            tick,
        }
    }

    /// Subscribes a page that shows `game` at `version`.
    pub fn subscribe(&self, game: i64, version: i64) -> Subscription {
        let mut watched = self.watched.lock().unwrap_or_else(|e| e.into_inner());
        let watch = watched.entry(game).or_insert_with(|| Watch {
            version,
            sender: broadcast::channel(BACKLOG).0,
            latest: None,
        });
        let missed = watch
            .latest
            .clone()
            .filter(|latest| latest.version != version);
        if watch.latest.is_none() && watch.version != version {
            // Pages showing different versions and nothing sent yet: the
            // next tick reads the game and sends it to all of them.
            watch.version = -1;
        }
        Subscription {
            missed,
            updates: watch.sender.subscribe(),
        }
    }

    /// How many games pages are watching.
    pub fn watched_games(&self) -> usize {
        self.watched.lock().map(|w| w.len()).unwrap_or(0)
    }

    /// The watched games (those nobody watches any more are dropped) and
    /// the versions their pages show.
    fn watched_versions(&self) -> Vec<(i64, i64)> {
        let mut watched = self.watched.lock().unwrap_or_else(|e| e.into_inner());
        watched.retain(|_, watch| watch.sender.receiver_count() > 0);
        watched.iter().map(|(id, w)| (*id, w.version)).collect()
    }

    /// One tick: the games that changed are read and sent to their pages.
    pub async fn check(&self, service: &Service) {
        let shown: std::collections::HashSet<(i64, i64)> =
            self.watched_versions().into_iter().collect();
        let ids: Vec<i64> = shown.iter().map(|(id, _)| *id).collect();
        let stored = match service.game_versions(&ids).await {
            Ok(stored) => stored,
            Err(error) => {
                tracing::warn!(%error, "web: reading the watched games failed");
                return;
            }
        };
        for (id, version) in stored {
            if !shown.contains(&(id, version)) {
                self.publish(service, id).await;
            }
        }
    }

    async fn publish(&self, service: &Service, id: i64) {
        let now = Utc::now();
        let en = service.game_page(id, Lang::En, now).await;
        let fr = service.game_page(id, Lang::Fr, now).await;
        let (Ok(Some(en)), Ok(Some(fr))) = (en, fr) else {
            return;
        };
        let update = Arc::new(Update {
            version: en.version,
            en: serde_json::to_string(&en).unwrap_or_default(),
            fr: serde_json::to_string(&fr).unwrap_or_default(),
        });
        let mut watched = self.watched.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(watch) = watched.get_mut(&id) {
            watch.version = update.version;
            watch.latest = Some(Arc::clone(&update));
            // No receiver left is no error: the game is dropped next tick.
            let _ = watch.sender.send(update);
        }
    }

    /// Ticks until `stop` completes.
    pub async fn run(self: Arc<Live>, service: Arc<Service>, stop: impl Future<Output = ()>) {
        let mut ticks = tokio::time::interval(self.tick);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tokio::pin!(stop);
        loop {
            tokio::select! {
                _ = &mut stop => return,
                _ = ticks.tick() => self.check(&service).await,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_watched_while_a_page_shows_it() {
        let live = Live::new(Duration::from_millis(250));
        let first = live.subscribe(7, 3);
        assert!(first.missed.is_none());
        assert_eq!(live.watched_versions(), vec![(7, 3)]);
        let same = live.subscribe(7, 3);
        assert_eq!(live.watched_versions(), vec![(7, 3)]);
        // A page on another version: the next tick reads the game anew.
        let other = live.subscribe(7, 4);
        assert_eq!(live.watched_versions(), vec![(7, -1)]);
        drop((first, same, other));
        assert!(live.watched_versions().is_empty(), "nobody watches");
        assert_eq!(live.watched_games(), 0);
    }
}
