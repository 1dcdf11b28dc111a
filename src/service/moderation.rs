//! Who may moderate what.
//!
//! The platform says what the acting user moderates, always relative to
//! where the act was sent: nothing, that channel, or that whole server. The
//! service then judges every moderator power (aborting a started game,
//! starting someone else's tournament) against the place the game or
//! tournament lives, never against the place the command came from: a
//! Matrix room's admin moderates the games of her room and of no other,
//! and nobody moderates anything on another server.

use super::Context;

/// What the platform vouches the acting user moderates, relative to the
/// act's own server and channel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Moderation {
    /// Not a moderator here.
    #[default]
    None,
    /// The act's channel only: games and tournaments living there (a Matrix
    /// room's moderators, whose power ends at their room).
    Channel,
    /// The act's whole server (Discord's Manage Server or a moderator role;
    /// the moderators of a Matrix space the room verifiably belongs to).
    Server,
}

/// Where something lives, by the store's ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Place {
    pub server: i64,
    pub channel: i64,
}

impl Moderation {
    /// Whether this scope, vouched for where the act was sent (`at`), covers
    /// something living at `thing`.
    pub(super) fn covers(self, at: Place, thing: Place) -> bool {
        match self {
            Moderation::None => false,
            Moderation::Channel => thing == at,
            Moderation::Server => thing.server == at.server,
        }
    }
}

impl Context {
    /// Whether the acting user moderates what lives in `server` and `channel`.
    pub(super) fn moderates(&self, server: i64, channel: i64) -> bool {
        let at = Place {
            server: self.server.id,
            channel: self.channel.id,
        };
        self.moderation.covers(at, Place { server, channel })
    }
}

#[cfg(test)]
mod tests {
    use chrono::{DateTime, TimeZone, Utc};

    use super::*;
    use crate::core::platform::Platform;
    use crate::service::{BoardImages, Input, Reply, Request, Service, ServiceConfig, User};
    use crate::storage::sqlite::SqliteStore;
    use crate::storage::{Status, TournamentState};

    #[test]
    fn a_scope_covers_its_channel_or_its_server_and_nothing_else() {
        let here = Place {
            server: 1,
            channel: 10,
        };
        let next_door = Place {
            server: 1,
            channel: 11,
        };
        let elsewhere = Place {
            server: 2,
            channel: 20,
        };
        // The same channel id can never be under two servers, but a scope
        // must not rely on it.
        let same_channel_other_server = Place {
            server: 2,
            channel: 10,
        };
        let table = [
            (Moderation::None, here, false),
            (Moderation::None, next_door, false),
            (Moderation::Channel, here, true),
            (Moderation::Channel, next_door, false),
            (Moderation::Channel, elsewhere, false),
            (Moderation::Channel, same_channel_other_server, false),
            (Moderation::Server, here, true),
            (Moderation::Server, next_door, true),
            (Moderation::Server, elsewhere, false),
            (Moderation::Server, same_channel_other_server, false),
        ];
        for (scope, thing, expected) in table {
            assert_eq!(
                scope.covers(here, thing),
                expected,
                "{scope:?} on {thing:?}"
            );
        }
    }

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap()
    }

    /// A fresh service where alice and bob play game #1 in `room-b` of
    /// `club`, both sides having moved (so only a moderator may abort), and
    /// alice organises tournament #1 in `room-b`, three players entered.
    async fn club() -> (Service, u32) {
        let config = ServiceConfig {
            board_images: false,
            ..ServiceConfig::default()
        };
        let service = Service::new(
            SqliteStore::open_in_memory().expect("SQLite in memory"),
            config,
        );
        let mut key = 0;
        for (user, text) in [
            ("alice", "challenge @bob"),
            ("bob", "accept"),
            ("alice", "move e4"),
            ("bob", "move e5"),
            ("alice", "tournament create rr"),
            ("alice", "tournament join"),
            ("bob", "tournament join"),
            ("carol", "tournament join"),
        ] {
            key += 1;
            let act = act("club", "room-b", user, Moderation::None, text, key);
            service.handle(act, now()).await;
        }
        (service, key)
    }

    fn act(
        server: &str,
        channel: &str,
        user: &str,
        scope: Moderation,
        text: &str,
        key: u32,
    ) -> Request {
        Request {
            platform: Platform::Matrix,
            server: server.into(),
            channel: channel.into(),
            user: User {
                id: user.into(),
                name: user.into(),
                locale: None,
                moderation: scope,
            },
            key: Some(format!("k{key}")),
            input: Input::Text(text.into()),
            board_images: BoardImages::Omitted,
        }
    }

    fn texts(replies: &[Reply]) -> String {
        replies
            .iter()
            .map(|r| r.text.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Every moderator power, tried from every kind of place: only a scope
    /// that covers the game's (or tournament's) own channel acts.
    #[tokio::test]
    async fn moderators_act_only_where_the_game_lives() {
        use Moderation::{Channel, Server};
        let table = [
            // (server, channel, scope, allowed)
            // Mallory owns room-a: her power ends there.
            ("club", "room-a", Channel, false),
            // Another server, whatever its rights and even with the same room name.
            ("elsewhere", "room-b", Channel, false),
            ("elsewhere", "room-x", Server, false),
            // In the game's own room, or over its whole server: allowed.
            ("club", "room-b", Moderation::None, false),
            ("club", "room-b", Channel, true),
            ("club", "room-a", Server, true),
        ];
        for (server, channel, scope, allowed) in table {
            let (service, key) = club().await;
            let abort = act(server, channel, "mallory", scope, "abort game:1", key + 1);
            let answer = texts(&service.handle(abort, now()).await);
            assert_eq!(
                answer.contains("Game aborted"),
                allowed,
                "abort from {server}/{channel} as {scope:?}: {answer}"
            );
            let game = service.store().game(1).await.expect("read").expect("game");
            assert_eq!(
                matches!(game.state, Status::Ongoing),
                !allowed,
                "abort from {server}/{channel} as {scope:?}"
            );
            let start = act(
                server,
                channel,
                "mallory",
                scope,
                "tournament start #1",
                key + 2,
            );
            let answer = texts(&service.handle(start, now()).await);
            let tournament = service.store().tournament(1).await.expect("read");
            let state = tournament.expect("tournament").state;
            assert_eq!(
                state == TournamentState::Running,
                allowed,
                "tournament start from {server}/{channel} as {scope:?}: {answer}"
            );
        }
    }
}
