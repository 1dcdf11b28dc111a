//! Messages outside an interaction's answer: the scheduler's notices (flag
//! falls, reminders, leave, tournaments), replies for other channels or
//! for a player's direct messages, and the answers of interactions that
//! arrived too late to be answered directly.
//!
//! A batch is sorted by where each message goes. Each place gets its own
//! queue, several served at once, so one busy channel never holds back
//! another's; in a place, plain replies that fall due together share a
//! message ([`super::digest`]). Where a notice cannot go, it goes on by
//! the next way, never dropped: a channel deleted, archived for good,
//! locked, a forum, or one the bot may not post in sends it to the player
//! by direct message, then, if those are closed, to another channel of the
//! server with a mention (the text names the game); a channel where the
//! bot may not attach files gets the board as a text diagram. What the bot
//! knows of a channel ([`Presence`]) decides this before any request, and a
//! refusal teaches it, logged once per channel. A guild the bot was
//! removed from gets no request at all.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use serde_json::json;
use serenity::all::UserId;

use super::digest::{self, Part};
use super::presence::Presence;
use super::replies::{Outgoing, is_plain, user_id};
use super::rest::{Call, Failure, Method, Rest, code};
use crate::core::notation::Lang;
use crate::i18n::I18n;
use crate::service::{NoticeId, Reply, Sent, Service};

/// How long a notice waits for a rate limit in line before it is handed
/// back to the outbox (which tries again when Discord said).
const PATIENCE: Duration = Duration::from_secs(10);
/// Places served at once.
const PLACES_AT_ONCE: usize = 8;
/// Direct-message channels remembered.
const MAX_DM_CHANNELS: usize = 100_000;

/// Where a message goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Place {
    Channel(u64),
    Direct(UserId),
    /// Nowhere the bot may post, without asking Discord.
    Nowhere(&'static str),
}

/// One message to send: a reply, and the id naming it (its nonce's base).
pub struct Item {
    pub reply: Reply,
    pub id: Option<(String, u32)>,
}

impl Item {
    fn nonce(&self, part: u32) -> Option<String> {
        self.id.as_ref().map(|(act_key, item)| {
            NoticeId {
                act_key,
                item: *item,
                first_part: 0,
            }
            .token(part)
        })
    }
}

/// Nonce parts: a reply's channel post, its text-only post, its direct
/// message, its post elsewhere; a digest's messages from [`DIGEST_PART`].
const PART_CHANNEL: u32 = 0;
const PART_TEXT_ONLY: u32 = 1;
const PART_DIRECT: u32 = 2;
const PART_ELSEWHERE: u32 = 3;
const DIGEST_PART: u32 = 16;

/// Sends messages outside interactions' answers.
pub struct Courier {
    rest: Arc<Rest>,
    presence: Arc<Presence>,
    i18n: Arc<I18n>,
    lang: Lang,
    /// Names the people a digest's file addresses.
    service: Option<Arc<Service>>,
    dm_channels: Mutex<HashMap<UserId, u64>>,
}

impl Courier {
    pub fn new(
        rest: Arc<Rest>,
        presence: Arc<Presence>,
        lang: Lang,
        service: Option<Arc<Service>>,
    ) -> Courier {
        Courier {
            rest,
            presence,
            i18n: Arc::new(I18n::new()),
            lang,
            service,
            dm_channels: Mutex::new(HashMap::new()),
        }
    }

    pub fn presence(&self) -> &Presence {
        &self.presence
    }

    /// Sends `items`; what became of each, in order.
    pub async fn send_all(&self, items: Vec<Item>) -> Vec<Sent> {
        let mut groups: Vec<(Place, Vec<usize>)> = Vec::new();
        for (n, item) in items.iter().enumerate() {
            let place = self.place(&item.reply);
            match groups.iter_mut().find(|(p, _)| *p == place) {
                Some((_, members)) => members.push(n),
                None => groups.push((place, vec![n])),
            }
        }
        let items = &items;
        let outcomes: Vec<Vec<(usize, Sent)>> = futures_util::stream::iter(groups)
            .map(|(place, members)| self.deliver_group(place, members, items))
            .buffer_unordered(PLACES_AT_ONCE)
            .collect()
            .await;
        let mut sent = vec![Sent::Refused("not sent".to_owned()); items.len()];
        for (n, outcome) in outcomes.into_iter().flatten() {
            sent[n] = outcome;
        }
        sent
    }

    /// Where `reply` goes first, from what the bot knows.
    fn place(&self, reply: &Reply) -> Place {
        if reply.direct || reply.ephemeral {
            return match reply.to.as_deref().and_then(user_id) {
                Some(user) => Place::Direct(user),
                None => Place::Nowhere("no user to write to"),
            };
        }
        let Some(channel) = reply.channel.parse::<u64>().ok().filter(|id| *id != 0) else {
            return Place::Nowhere("not a Discord channel");
        };
        if self.presence.is_in_absent_guild(channel) {
            return Place::Nowhere("the bot was removed from this server");
        }
        if self.presence.is_gone(channel) || self.presence.rights(channel).post == Some(false) {
            return self.instead_of(channel, reply);
        }
        Place::Channel(channel)
    }

    /// Where a notice for `channel` goes when the bot cannot post there:
    /// the player addressed, else another channel of the server.
    fn instead_of(&self, channel: u64, reply: &Reply) -> Place {
        if let Some(user) = reply.to.as_deref().and_then(user_id) {
            return Place::Direct(user);
        }
        match self.presence.other_channel(channel) {
            Some(other) => Place::Channel(other),
            None => Place::Nowhere("no channel of the server takes the bot's messages"),
        }
    }

    async fn deliver_group(
        &self,
        place: Place,
        members: Vec<usize>,
        items: &[Item],
    ) -> Vec<(usize, Sent)> {
        match place {
            Place::Nowhere(reason) => members
                .into_iter()
                .map(|n| (n, Sent::Refused(reason.to_owned())))
                .collect(),
            Place::Direct(_) => {
                let mut outcomes = Vec::new();
                for n in members {
                    outcomes.push((n, self.direct(&items[n], PART_DIRECT).await));
                }
                outcomes
            }
            Place::Channel(channel) => self.in_channel(channel, members, items).await,
        }
    }

    /// Posts a place's items in order, plain ones together; after a
    /// passing failure the rest wait for the outbox's next try.
    async fn in_channel(
        &self,
        channel: u64,
        members: Vec<usize>,
        items: &[Item],
    ) -> Vec<(usize, Sent)> {
        let mut outcomes = Vec::new();
        let mut at = 0;
        while at < members.len() {
            let run = plain_run(&members[at..], items);
            let covered = &members[at..at + run.max(1)];
            at += covered.len();
            let result = if run > 1 {
                self.post_digest(channel, covered, items).await
            } else {
                self.post_one(channel, &items[covered[0]]).await
            };
            match result {
                Ok(()) => outcomes.extend(covered.iter().map(|&n| (n, Sent::Delivered))),
                Err(failure) if failure.is_transient() => {
                    let sent = later(&failure);
                    outcomes.extend(
                        members[at - covered.len()..]
                            .iter()
                            .map(|&n| (n, sent.clone())),
                    );
                    return outcomes;
                }
                Err(failure) => {
                    self.learn(channel, &failure);
                    // This one and the rest of the place go on by another way.
                    for &n in &members[at - covered.len()..] {
                        outcomes.push((n, self.elsewhere(channel, &items[n]).await));
                    }
                    return outcomes;
                }
            }
        }
        outcomes
    }

    /// Posts a run of plain replies as a digest.
    async fn post_digest(
        &self,
        channel: u64,
        covered: &[usize],
        items: &[Item],
    ) -> Result<(), Failure> {
        let replies: Vec<&Reply> = covered.iter().map(|&n| &items[n].reply).collect();
        let parts = self.parts(&replies).await;
        let first = &items[covered[0]];
        let lang = self.lang;
        for (k, message) in digest::digest(&parts, &self.i18n, lang).iter().enumerate() {
            let nonce = first.nonce(DIGEST_PART + k as u32);
            self.post(channel, message, nonce.as_deref()).await?;
        }
        Ok(())
    }

    /// The digest parts of `replies`, addressed ones under their player's name.
    pub async fn parts(&self, replies: &[&Reply]) -> Vec<Part> {
        let ids: Vec<String> = replies.iter().filter_map(|r| r.to.clone()).collect();
        let names = match &self.service {
            Some(service) => {
                service
                    .display_names(crate::core::platform::Platform::Discord, &ids)
                    .await
            }
            None => HashMap::new(),
        };
        replies
            .iter()
            .map(|reply| Part {
                text: super::replies::discord_text(reply),
                to: reply.to.as_deref().and_then(user_id),
                name: reply.to.as_ref().and_then(|id| names.get(id).cloned()),
            })
            .collect()
    }

    /// Posts one reply; a board where the bot may not attach files comes
    /// as a text diagram, at once if that is known, else after the refusal.
    async fn post_one(&self, channel: u64, item: &Item) -> Result<(), Failure> {
        let attach = self.presence.rights(channel).attach;
        if attach == Some(false) && !item.reply.attachments.is_empty() {
            let text_only = without_files(&item.reply);
            let message = Outgoing::from_reply(&text_only, &self.i18n, self.lang);
            return self
                .post(channel, &message, item.nonce(PART_TEXT_ONLY).as_deref())
                .await;
        }
        let message = Outgoing::from_reply(&item.reply, &self.i18n, self.lang);
        match self
            .post(channel, &message, item.nonce(PART_CHANNEL).as_deref())
            .await
        {
            Err(failure)
                if failure.code == code::MISSING_PERMISSIONS && !message.files.is_empty() =>
            {
                // Perhaps only Attach Files is missing: the board as text.
                self.presence.refused(channel, true);
                let text_only = without_files(&item.reply);
                let message = Outgoing::from_reply(&text_only, &self.i18n, self.lang);
                self.post(channel, &message, item.nonce(PART_TEXT_ONLY).as_deref())
                    .await
            }
            other => other,
        }
    }

    /// Posts `message` in `channel`; an archived thread is opened again
    /// once, if Discord lets the bot.
    pub async fn post(
        &self,
        channel: u64,
        message: &Outgoing,
        nonce: Option<&str>,
    ) -> Result<(), Failure> {
        let call = Call::new(
            Method::Post,
            "channels/{id}/messages",
            &channel.to_string(),
            format!("channels/{channel}/messages"),
            message.body(nonce),
        );
        match self.rest.send(&call, PATIENCE).await {
            Err(failure) if failure.code == code::ARCHIVED_THREAD => {
                let reopen = Call::new(
                    Method::Patch,
                    "channels/{id}",
                    &channel.to_string(),
                    format!("channels/{channel}"),
                    super::rest::Body::Json(json!({ "archived": false })),
                );
                if self.rest.send(&reopen, PATIENCE).await.is_err() {
                    return Err(failure);
                }
                self.rest.send(&call, PATIENCE).await.map(|_| ())
            }
            other => other.map(|_| ()),
        }
    }

    /// What a refusal in `channel` teaches; said once per channel and code.
    fn learn(&self, channel: u64, failure: &Failure) {
        match failure.code {
            code::UNKNOWN_CHANNEL => self.presence.set_gone(channel),
            _ => self.presence.refused(channel, false),
        }
        if self.presence.first_refusal(channel, failure.code) {
            tracing::warn!(channel, %failure, "Discord refused a message in this channel; its notices go to the players instead");
        } else {
            tracing::debug!(channel, %failure, "a message refused again");
        }
    }

    /// An item whose channel refused it: to the player addressed, else
    /// another channel of the server.
    async fn elsewhere(&self, channel: u64, item: &Item) -> Sent {
        if item.reply.to.as_deref().and_then(user_id).is_some() {
            return self.direct(item, PART_DIRECT).await;
        }
        self.other_channel(channel, item).await
    }

    /// Posts `item` in another channel of its server, with its mention.
    async fn other_channel(&self, channel: u64, item: &Item) -> Sent {
        let Some(other) = self.presence.other_channel(channel) else {
            return Sent::Refused("no channel of the server takes the bot's messages".to_owned());
        };
        let mut reply = item.reply.clone();
        reply.direct = false;
        reply.ephemeral = false;
        if reply.secret {
            // Only its reader may see it: the channel is only told to look.
            reply = self.undelivered_private(&reply);
        }
        let message = Outgoing::from_reply(&without_files(&reply), &self.i18n, self.lang);
        match self
            .post(other, &message, item.nonce(PART_ELSEWHERE).as_deref())
            .await
        {
            Ok(()) => Sent::Delivered,
            Err(failure) => outcome(&failure),
        }
    }

    /// A neutral notice standing for a private answer that could not be sent privately.
    fn undelivered_private(&self, reply: &Reply) -> Reply {
        Reply {
            channel: reply.channel.clone(),
            to: reply.to.clone(),
            text: self
                .i18n
                .text(self.lang, "discord-private-undelivered", &[]),
            ..Reply::default()
        }
    }

    /// Sends `item` as a direct message to the user it addresses; closed
    /// direct messages send it on to its channel (or another of the server).
    async fn direct(&self, item: &Item, part: u32) -> Sent {
        let Some(user) = item.reply.to.as_deref().and_then(user_id) else {
            return Sent::Refused("no user to write to".to_owned());
        };
        let result = match self.dm_channel(user).await {
            Ok(dm) => {
                let mut message = Outgoing::from_reply(&item.reply, &self.i18n, self.lang);
                message.ephemeral = false;
                self.post(dm, &message, item.nonce(part).as_deref()).await
            }
            Err(failure) => Err(failure),
        };
        let failure = match result {
            Ok(()) => return Sent::Delivered,
            Err(failure) => failure,
        };
        if failure.code != code::CANNOT_MESSAGE_USER {
            return outcome(&failure);
        }
        if self.presence.first_refusal(user.get(), failure.code) {
            tracing::info!(
                user = user.get(),
                "a player's direct messages are closed; told in a channel instead"
            );
        }
        self.after_closed_dms(item).await
    }

    /// Closed direct messages: the reply's own channel if the bot may post
    /// there (never for a private answer), else another of the server.
    async fn after_closed_dms(&self, item: &Item) -> Sent {
        let channel = item.reply.channel.parse::<u64>().unwrap_or(0);
        let private = item.reply.ephemeral || item.reply.secret;
        let usable = channel != 0
            && !self.presence.is_gone(channel)
            && self.presence.rights(channel).post != Some(false);
        if usable && !private {
            let mut reply = item.reply.clone();
            reply.direct = false;
            let message = Outgoing::from_reply(&reply, &self.i18n, self.lang);
            match self
                .post(channel, &message, item.nonce(PART_CHANNEL).as_deref())
                .await
            {
                Ok(()) => return Sent::Delivered,
                Err(failure) if failure.is_transient() => return outcome(&failure),
                Err(failure) => self.learn(channel, &failure),
            }
        }
        if item.reply.ephemeral && !item.reply.secret {
            // A refusal nobody else may read: nowhere else to say it.
            return Sent::Refused("direct messages closed".to_owned());
        }
        let mut elsewhere = Item {
            reply: item.reply.clone(),
            id: item.id.clone(),
        };
        elsewhere.reply.secret |= private;
        self.other_channel(channel, &elsewhere).await
    }

    /// The direct-message channel with `user`, opened once.
    async fn dm_channel(&self, user: UserId) -> Result<u64, Failure> {
        let known = self
            .dm_channels
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&user)
            .copied();
        if let Some(channel) = known {
            return Ok(channel);
        }
        let call = Call::new(
            Method::Post,
            "users/@me/channels",
            "",
            "users/@me/channels".to_owned(),
            super::rest::Body::Json(json!({ "recipient_id": user.get().to_string() })),
        );
        let answer = self.rest.send(&call, PATIENCE).await?;
        let channel = super::rest::Made::of(&answer)
            .id
            .parse::<u64>()
            .map_err(|_| Failure {
                status: 0,
                code: 0,
                message: "no direct-message channel in Discord's answer".to_owned(),
                retry_after: None,
            })?;
        let mut known = self.dm_channels.lock().unwrap_or_else(|e| e.into_inner());
        if known.len() >= MAX_DM_CHANNELS {
            known.clear();
        }
        known.insert(user, channel);
        Ok(channel)
    }
}

/// How many of `members` from the first are plain replies in a row.
fn plain_run(members: &[usize], items: &[Item]) -> usize {
    members
        .iter()
        .take_while(|&&n| is_plain(&items[n].reply))
        .count()
}

/// A failure as the outbox reads it.
pub fn outcome(failure: &Failure) -> Sent {
    if failure.is_transient() {
        later(failure)
    } else {
        Sent::Refused(failure.to_string())
    }
}

fn later(failure: &Failure) -> Sent {
    match failure.retry_after {
        Some(after) => Sent::RetryIn(failure.to_string(), after),
        None => Sent::Retry(failure.to_string()),
    }
}

/// `reply` without its files: a board shows as a fenced text diagram.
pub fn without_files(reply: &Reply) -> Reply {
    let mut text_only = reply.clone();
    text_only.attachments.clear();
    if let Some(board) = text_only.board.take() {
        let black_below = board.orientation == "black";
        text_only.diagram = text_only
            .diagram
            .or_else(|| crate::render::text::diagram_of_fen(&board.fen, black_below));
    }
    text_only
}
