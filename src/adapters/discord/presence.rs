//! What the bot knows of the places it posts in, learned from Discord
//! without asking: the guilds it was removed from (GUILD_DELETE), the
//! channels deleted (CHANNEL_DELETE, THREAD_DELETE, or a 10003 answer), its
//! own permissions in each channel (`app_permissions`, sent with every
//! interaction, and the refusals it met), a channel per guild where it may
//! post, and the refusals already logged. With it a notice goes where it
//! can be read on the first try, instead of learning through a refused
//! request each time (Discord bans a bot for 10,000 of those in ten
//! minutes).
//!
//! Everything here is bounded: past [`MAX_ENTRIES`] a map forgets what it
//! knew and learns it again.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use serenity::all::Permissions;

/// The most entries each map keeps.
const MAX_ENTRIES: usize = 100_000;

/// What the bot may do in a channel, as far as it knows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rights {
    /// It may post there (`None`: not known).
    pub post: Option<bool>,
    /// It may attach files there.
    pub attach: Option<bool>,
}

#[derive(Default)]
struct Known {
    absent: HashSet<u64>,
    gone: HashSet<u64>,
    guild_of: HashMap<u64, u64>,
    rights: HashMap<u64, Rights>,
    /// A channel of each guild where the bot was seen able to post.
    postable: HashMap<u64, u64>,
    /// (channel, code) of the refusals already logged.
    told: HashSet<(u64, i64)>,
}

/// Shared by the interaction handler and the notifier.
#[derive(Default)]
pub struct Presence {
    known: Mutex<Known>,
}

/// Inserts into a bounded map, forgetting it all when it is full.
fn bounded_insert<K: std::hash::Hash + Eq, V>(map: &mut HashMap<K, V>, key: K, value: V) {
    if map.len() >= MAX_ENTRIES && !map.contains_key(&key) {
        map.clear();
    }
    map.insert(key, value);
}

fn bounded_add<K: std::hash::Hash + Eq>(set: &mut HashSet<K>, key: K) -> bool {
    if set.len() >= MAX_ENTRIES && !set.contains(&key) {
        set.clear();
    }
    set.insert(key)
}

impl Presence {
    fn known(&self) -> std::sync::MutexGuard<'_, Known> {
        self.known.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// An interaction in `channel` of `guild`, with the bot's permissions
    /// there (`app_permissions`); `thread`: a thread or forum post.
    pub fn seen(&self, guild: u64, channel: u64, permissions: Option<Permissions>, thread: bool) {
        let mut known = self.known();
        bounded_insert(&mut known.guild_of, channel, guild);
        known.gone.remove(&channel);
        let Some(permissions) = permissions else {
            return;
        };
        let send = if thread {
            Permissions::SEND_MESSAGES_IN_THREADS
        } else {
            Permissions::SEND_MESSAGES
        };
        let post = permissions.contains(Permissions::VIEW_CHANNEL | send);
        let attach = post && permissions.contains(Permissions::ATTACH_FILES);
        let rights = Rights {
            post: Some(post),
            attach: Some(attach),
        };
        bounded_insert(&mut known.rights, channel, rights);
        if post && !thread {
            bounded_insert(&mut known.postable, guild, channel);
        } else if known.postable.get(&guild) == Some(&channel) {
            known.postable.remove(&guild);
        }
    }

    /// A guild's system channel (from GUILD_CREATE), a place to post when
    /// no other is known.
    pub fn guild_channel(&self, guild: u64, channel: u64) {
        let mut known = self.known();
        bounded_insert(&mut known.guild_of, channel, guild);
        if !known.postable.contains_key(&guild) {
            bounded_insert(&mut known.postable, guild, channel);
        }
    }

    pub fn rights(&self, channel: u64) -> Rights {
        self.known()
            .rights
            .get(&channel)
            .copied()
            .unwrap_or_default()
    }

    /// Learns from a refusal that the bot may not post (or attach) in `channel`.
    pub fn refused(&self, channel: u64, attach_only: bool) {
        let mut known = self.known();
        let mut rights = known.rights.get(&channel).copied().unwrap_or_default();
        if attach_only {
            rights.attach = Some(false);
        } else {
            rights.post = Some(false);
            rights.attach = Some(false);
        }
        bounded_insert(&mut known.rights, channel, rights);
        let guild = known.guild_of.get(&channel).copied();
        if let Some(guild) = guild.filter(|_| !attach_only)
            && known.postable.get(&guild) == Some(&channel)
        {
            known.postable.remove(&guild);
        }
    }

    /// The guild of a channel the bot has seen.
    pub fn guild_of(&self, channel: u64) -> Option<u64> {
        self.known().guild_of.get(&channel).copied()
    }

    /// Another channel of `channel`'s guild where the bot may post.
    pub fn other_channel(&self, channel: u64) -> Option<u64> {
        let known = self.known();
        let guild = known.guild_of.get(&channel)?;
        known
            .postable
            .get(guild)
            .copied()
            .filter(|other| *other != channel && !known.gone.contains(other))
    }

    pub fn set_gone(&self, channel: u64) {
        let mut known = self.known();
        bounded_add(&mut known.gone, channel);
        known.postable.retain(|_, c| *c != channel);
    }

    pub fn is_gone(&self, channel: u64) -> bool {
        self.known().gone.contains(&channel)
    }

    pub fn set_absent(&self, guild: u64, absent: bool) {
        let mut known = self.known();
        if absent {
            bounded_add(&mut known.absent, guild);
        } else {
            known.absent.remove(&guild);
        }
    }

    pub fn is_absent(&self, guild: u64) -> bool {
        self.known().absent.contains(&guild)
    }

    /// Whether the bot is known to be out of `channel`'s guild.
    pub fn is_in_absent_guild(&self, channel: u64) -> bool {
        let known = self.known();
        known
            .guild_of
            .get(&channel)
            .is_some_and(|guild| known.absent.contains(guild))
    }

    /// Whether a refusal with `code` in `channel` is new (to log once).
    pub fn first_refusal(&self, channel: u64, code: i64) -> bool {
        bounded_add(&mut self.known().told, (channel, code))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permissions_decide_before_any_request() {
        let presence = Presence::default();
        let everything = Permissions::all();
        let no_files = everything - Permissions::ATTACH_FILES;
        presence.seen(1, 10, Some(no_files), false);
        assert_eq!(
            presence.rights(10),
            Rights {
                post: Some(true),
                attach: Some(false)
            }
        );
        presence.seen(
            1,
            11,
            Some(everything - Permissions::SEND_MESSAGES_IN_THREADS),
            true,
        );
        assert_eq!(
            presence.rights(11).post,
            Some(false),
            "a thread needs its own right"
        );
        assert_eq!(presence.other_channel(11), Some(10));
        assert_eq!(presence.other_channel(10), None, "not itself");
        presence.set_gone(10);
        assert_eq!(presence.other_channel(11), None);
        assert_eq!(presence.rights(12), Rights::default(), "unknown");
    }

    #[test]
    fn a_refusal_is_told_once_per_channel() {
        let presence = Presence::default();
        assert!(presence.first_refusal(10, 50013));
        assert!(!presence.first_refusal(10, 50013));
        assert!(presence.first_refusal(11, 50013));
    }

    #[test]
    fn absent_guilds_cover_their_channels() {
        let presence = Presence::default();
        presence.seen(1, 10, None, false);
        presence.set_absent(1, true);
        assert!(presence.is_in_absent_guild(10));
        presence.set_absent(1, false);
        assert!(!presence.is_in_absent_guild(10));
    }
}
