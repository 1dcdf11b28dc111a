//! Where the bot still is, as a platform tells it: removed from a server
//! (its games' clocks stop, its notices wait untried, a cross-server match
//! refuses it), back in it (the clocks run again, with a notice in each
//! game's channel), a channel deleted (its players are told by direct
//! message how to go on); and an answer still being sent by the process
//! that took the act ([`Service::delivering`]).

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use super::games::{Saved, game_update};
use super::outbox::notices_on;
use super::texts::Names;
use super::{NoticeId, Reply, Service};
use crate::core::platform::Platform;
use crate::i18n::Arg;
use crate::storage::{Commit, GameRecord, StorageError};

/// Games read per page when a server's clocks stop or restart.
const PAGE: usize = 200;
/// The most games of a deleted channel whose players are told.
const MAX_TOLD: usize = 1000;

/// Whether a server's clocks stop or run again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Presence {
    Away,
    Back,
}

impl Service {
    /// The bot was removed from the server `platform_id` at `now`: nothing
    /// is sent there any more and its running games' clocks stop, until it
    /// is added back ([`Service::guild_back`]).
    pub async fn guild_left(&self, platform: Platform, platform_id: &str, now: DateTime<Utc>) {
        let server = match self
            .store
            .set_server_absent(platform, platform_id, now)
            .await
        {
            Ok(Some(server)) => server,
            Ok(None) => return,
            Err(error) => {
                tracing::error!(%error, "cannot record that the bot left a server");
                return;
            }
        };
        let key = format!("away:{}", now.timestamp_millis());
        self.switch_server_clocks(server, Presence::Away, &key, now)
            .await;
        self.deadline_changed.wake();
    }

    /// The bot is in the server `platform_id` again: its running games'
    /// clocks restart (the time away is not charged), each with a notice.
    pub async fn guild_back(&self, platform: Platform, platform_id: &str, now: DateTime<Utc>) {
        let server = match self.store.find_server(platform, platform_id).await {
            Ok(Some(server)) => server.id,
            Ok(None) => return,
            Err(error) => {
                tracing::error!(%error, "cannot read a server");
                return;
            }
        };
        let since = match self.store.server_absent_since(server).await {
            Ok(Some(since)) => since,
            Ok(None) => return,
            Err(error) => {
                tracing::error!(%error, "cannot read a server");
                return;
            }
        };
        // The clocks first: if this stops half way, the server is still
        // absent and the next GUILD_CREATE does the rest.
        let key = format!("back:{}", since.timestamp_millis());
        self.switch_server_clocks(server, Presence::Back, &key, now)
            .await;
        if let Err(error) = self.store.set_server_present(platform, platform_id).await {
            tracing::error!(%error, "cannot record that the bot is back in a server");
        }
        self.deadline_changed.wake();
    }

    /// The platform ids of `platform`'s servers the bot was removed from.
    pub async fn absent_servers(&self, platform: Platform) -> Vec<String> {
        self.store
            .absent_servers(platform)
            .await
            .unwrap_or_else(|error| {
                tracing::error!(%error, "cannot read the servers the bot left");
                Vec::new()
            })
    }

    /// Stops or restarts the clocks of a server's running games, a commit
    /// per game under `key` (so a repeated event changes nothing twice).
    async fn switch_server_clocks(
        &self,
        server: i64,
        presence: Presence,
        key: &str,
        now: DateTime<Utc>,
    ) {
        let mut after = 0;
        loop {
            let page = match self
                .store
                .running_games_on_server(server, after, PAGE)
                .await
            {
                Ok(page) => page,
                Err(error) => {
                    tracing::error!(%error, "cannot read a server's games");
                    return;
                }
            };
            let Some(&last) = page.last() else { return };
            after = last;
            for game in page {
                let attempt = self.switch_game_clock(game, presence, key, now).await;
                if let Err(error) = attempt {
                    tracing::error!(%error, game, "cannot stop or restart a game's clock");
                }
            }
        }
    }

    async fn switch_game_clock(
        &self,
        id: i64,
        presence: Presence,
        key: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        let Some(record) = self.store.game(id).await? else {
            return Ok(());
        };
        let mut game = super::games::restore(&record)?;
        let saved = Saved::all_of(&game);
        let to_move = if game.turn() == shakmaty::Color::White {
            record.white
        } else {
            record.black
        };
        let mut replies = Vec::new();
        match presence {
            Presence::Away => game.pause_clock(now),
            Presence::Back => {
                let on_leave = self
                    .store
                    .running_leave(to_move, record.server_id)
                    .await?
                    .is_some();
                if !on_leave {
                    // A leave keeps the clock stopped; it restarts at its end.
                    game.resume_clock(now);
                }
                replies.push(self.back_notice(&record, game.turn()));
            }
        }
        let next = self.next_reminder(&game, now);
        let commit = Commit {
            act_key: Some(format!("{key}:{id}")),
            game_updates: vec![game_update(&record, &game, saved, next)],
            outgoing: (!replies.is_empty())
                .then(|| notices_on(record.white_player.platform, record.server_id))
                .flatten(),
            ..Commit::default()
        };
        self.commit_scheduled(commit, now, replies).await
    }

    /// Commits a scheduled change; one already made (the same key) or
    /// overtaken by a move (a conflict) is left alone.
    async fn commit_scheduled(
        &self,
        commit: Commit,
        now: DateTime<Utc>,
        replies: Vec<Reply>,
    ) -> Result<(), StorageError> {
        match self.store.commit(commit, now, move |_| replies).await {
            Ok(_) | Err(StorageError::DuplicateAct(_) | StorageError::Conflict) => Ok(()),
            Err(error) => Err(error),
        }
    }

    fn back_notice(&self, record: &GameRecord, turn: shakmaty::Color) -> Reply {
        let names = Names::new(&record.white_player, &record.black_player);
        let lang = self.config.default_language;
        let args = [
            ("game", Arg::from(record.id)),
            ("player", Arg::from(names.display(turn))),
        ];
        Reply {
            channel: record.channel.clone(),
            to: names.mention(turn),
            text: self.i18n.text(lang, "server-back", &args),
            ..Reply::default()
        }
    }

    /// The channel `channel` of server `server` was deleted at `now`: the
    /// players of its running games are told, by direct message, how to go
    /// on; its later notices reach them there (the platform sends them).
    pub async fn channel_gone(
        &self,
        platform: Platform,
        server: &str,
        channel: &str,
        now: DateTime<Utc>,
    ) {
        if let Err(error) = self.tell_channel_gone(platform, server, channel, now).await {
            tracing::error!(%error, "cannot record a deleted channel");
        }
    }

    async fn tell_channel_gone(
        &self,
        platform: Platform,
        server: &str,
        channel: &str,
        now: DateTime<Utc>,
    ) -> Result<(), StorageError> {
        let Some(server) = self.store.find_server(platform, server).await? else {
            return Ok(());
        };
        let Some(channel_id) = self.store.set_channel_gone(server.id, channel, now).await? else {
            return Ok(());
        };
        for id in self
            .store
            .running_games_in_channel(channel_id, MAX_TOLD)
            .await?
        {
            let Some(record) = self.store.game(id).await? else {
                continue;
            };
            let names = Names::new(&record.white_player, &record.black_player);
            let server_lang = self.language_of(Some(&server));
            let replies: Vec<Reply> = [shakmaty::Color::White, shakmaty::Color::Black]
                .into_iter()
                .filter_map(|side| names.mention(side).map(|id| (side, id)))
                .map(|(side, player)| Reply {
                    channel: record.channel.clone(),
                    to: Some(player),
                    direct: true,
                    // A direct message: in its reader's language.
                    text: self.i18n.text(
                        record.player(side).reading_language(server_lang),
                        "channel-gone",
                        &[("game", Arg::from(record.id))],
                    ),
                    ..Reply::default()
                })
                .collect();
            let commit = Commit {
                act_key: Some(format!("gone:{id}:{channel_id}")),
                outgoing: notices_on(platform, server.id),
                ..Commit::default()
            };
            self.commit_scheduled(commit, now, replies).await?;
        }
        self.deadline_changed.wake();
        Ok(())
    }

    /// The display names of `platform`'s players `ids` that the bot knows.
    pub async fn display_names(
        &self,
        platform: Platform,
        ids: &[String],
    ) -> HashMap<String, String> {
        let mut names = HashMap::new();
        for id in ids {
            if names.contains_key(id) {
                continue;
            }
            if let Ok(Some(player)) = self.store.find_player(platform, id).await {
                names.insert(id.clone(), player.display_name);
            }
        }
        names
    }

    /// Records that the process that took the act `key` has delivered its
    /// answer up to item `next_item` (and `next_part` parts of that one:
    /// its text, then files) and is still sending the rest: the outbox will
    /// not send those again, and takes over the rest only once this process
    /// has been silent for the whole hand-off time.
    pub async fn delivering(&self, key: &str, next_item: u32, next_part: u32, now: DateTime<Utc>) {
        let until = now + self.config.notice_handoff;
        let recorded = self
            .store
            .delivering(key, next_item, next_part, until)
            .await;
        if let Err(error) = recorded {
            tracing::warn!(%error, "cannot record how far an answer went out");
        }
        self.held_until(until);
    }

    /// Records that the parts of the outbox notice `id` before `next_part`
    /// went out, before the next is sent (see [`NoticeId::first_part`]).
    /// Unrecorded, the next try sends them again, under the same
    /// transaction ids: a platform that still remembers them shows them once.
    pub async fn notice_part_sent(&self, id: NoticeId<'_>, next_part: u32) {
        let recorded = self
            .store
            .notice_part_sent(id.act_key, id.item, next_part)
            .await;
        if let Err(error) = recorded {
            tracing::warn!(%error, "cannot record how far a notice went out");
        }
    }

    /// Whether the server `id` is one the bot was removed from.
    pub(super) async fn server_absent(&self, id: i64) -> Result<bool, StorageError> {
        Ok(self.store.server_absent_since(id).await?.is_some())
    }
}
