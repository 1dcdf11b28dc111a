//! The community a room's games count for, and what a sender moderates.
//!
//! A room names its space with `m.space.parent`, but whoever may set state
//! in a room may name any space there. The bot believes the claim only when
//! it can check it: the bot is joined to the space, and the space lists the
//! room back with a live `m.space.child` (the relationship is declared from
//! both sides). Rooms without such a space count for the configured
//! community (`fallback`): they share standings, never moderators.
//!
//! Moderation is judged where the game lives. A sender with moderator power
//! in the verified space moderates everything of the space; a sender with
//! moderator power in the room moderates that room's games and tournaments
//! only (the owner of a room is its admin, and a room costs nothing to
//! make). The service checks each game's own server and room against that
//! ([`Moderation`]).

use matrix_sdk::deserialized_responses::RawSyncOrStrippedState;
use matrix_sdk::ruma::events::room::member::MembershipState;
use matrix_sdk::ruma::events::room::power_levels::UserPowerLevel;
use matrix_sdk::ruma::events::space::child::SpaceChildEventContent;
use matrix_sdk::ruma::events::space::parent::SpaceParentEventContent;
use matrix_sdk::ruma::events::{RedactContent, RedactedStateEventContent, StaticStateEventContent};
use matrix_sdk::ruma::{OwnedRoomId, RoomId, UserId};
use matrix_sdk::{Client, Room, RoomState};
use serde::Deserialize;

use crate::service::Moderation;

/// Matrix's conventional moderator level (Element's "Moderator"; the
/// default power to kick, ban and redact).
pub const MODERATOR_POWER: i64 = 50;

/// At most this many claimed parents are checked (room state is anyone's
/// who may set it; each check is a store read).
const MAX_PARENTS: usize = 16;

/// What the bot could check about one space a room names as its parent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParentFacts {
    pub space: OwnedRoomId,
    /// The bot is joined to the space and the space lists the room as a
    /// live child.
    pub lists_room: bool,
    /// The sender's power in the space, when they are a joined member of it.
    pub sender_power: Option<i64>,
}

/// Where an act sent in a room belongs, for the service.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The community (server) its games count for.
    pub server: String,
    /// What the sender moderates, relative to this room and `server`.
    pub moderation: Moderation,
}

/// Judges checked facts: the smallest verified parent is the room's space
/// (a stable choice); power there moderates the space, power in the room
/// moderates the room.
pub fn judge(parents: &[ParentFacts], room_power: i64, fallback: &str) -> Standing {
    let space = parents
        .iter()
        .filter(|parent| parent.lists_room)
        .min_by(|a, b| a.space.cmp(&b.space));
    let moderates_space =
        space.is_some_and(|s| s.sender_power.is_some_and(|p| p >= MODERATOR_POWER));
    let moderation = if moderates_space {
        Moderation::Server
    } else if room_power >= MODERATOR_POWER {
        Moderation::Channel
    } else {
        Moderation::None
    };
    Standing {
        server: space.map_or_else(|| fallback.to_owned(), |s| s.space.to_string()),
        moderation,
    }
}

/// Reads what the bot knows of `room`, its claimed spaces and `sender` from
/// its state store (no network), and judges it.
pub async fn standing(client: &Client, room: &Room, sender: &UserId, fallback: &str) -> Standing {
    let mut parents = Vec::new();
    for space in claimed_parents(room).await {
        parents.push(check_parent(client, room.room_id(), space, sender).await);
    }
    let room_power = match room.get_user_power_level(sender).await {
        Ok(level) => power_value(level),
        Err(error) => {
            tracing::warn!(%error, room = %room.room_id(), "cannot read power levels");
            0
        }
    };
    judge(&parents, room_power, fallback)
}

/// The spaces `room`'s live `m.space.parent` events name, smallest first.
async fn claimed_parents(room: &Room) -> Vec<OwnedRoomId> {
    let events = room
        .get_state_events_static::<SpaceParentEventContent>()
        .await
        .unwrap_or_default();
    let mut parents: Vec<OwnedRoomId> = events
        .iter()
        .filter_map(|raw| live_link(raw_json(raw)))
        .collect();
    parents.sort();
    parents.dedup();
    parents.truncate(MAX_PARENTS);
    parents
}

/// Whether `space` lists `room` back, and `sender`'s power there.
async fn check_parent(
    client: &Client,
    room: &RoomId,
    space: OwnedRoomId,
    sender: &UserId,
) -> ParentFacts {
    let unverified = |space| ParentFacts {
        space,
        lists_room: false,
        sender_power: None,
    };
    // Only a joined space's state is the space's current state.
    let Some(joined) = client
        .get_room(&space)
        .filter(|s| s.state() == RoomState::Joined && s.is_space())
    else {
        return unverified(space);
    };
    let child = joined
        .get_state_event_static_for_key::<SpaceChildEventContent, _>(room)
        .await
        .ok()
        .flatten();
    let lists_room = child.is_some_and(|raw| live_link(raw_json(&raw)).as_deref() == Some(room));
    if !lists_room {
        return unverified(space);
    }
    let sender_power = match joined.get_member_no_sync(sender).await {
        Ok(Some(member)) if *member.membership() == MembershipState::Join => {
            Some(power_value(member.power_level()))
        }
        _ => None,
    };
    ParentFacts {
        space,
        lists_room,
        sender_power,
    }
}

fn raw_json<C>(raw: &RawSyncOrStrippedState<C>) -> &str
where
    C: StaticStateEventContent + RedactContent,
    C::Redacted: RedactedStateEventContent,
{
    match raw {
        RawSyncOrStrippedState::Sync(raw) => raw.json().get(),
        RawSyncOrStrippedState::Stripped(raw) => raw.json().get(),
    }
}

/// A power level as a number; a room creator's unlimited power (room
/// version 12) counts as the most.
fn power_value(level: UserPowerLevel) -> i64 {
    match level {
        UserPowerLevel::Int(level) => level.into(),
        UserPowerLevel::Infinite => i64::MAX,
        // A kind of power this code does not know grants nothing.
        _ => 0,
    }
}

/// The room named by a live `m.space.parent` or `m.space.child` event (its
/// state key), unless the link was removed (an empty `via` means removed).
fn live_link(json: &str) -> Option<OwnedRoomId> {
    #[derive(Deserialize)]
    struct Link {
        state_key: OwnedRoomId,
        content: Via,
    }
    #[derive(Deserialize)]
    struct Via {
        #[serde(default)]
        via: Vec<String>,
    }
    let link: Link = serde_json::from_str(json).ok()?;
    (!link.content.via.is_empty()).then_some(link.state_key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removed_links_do_not_count() {
        let live = r#"{"type":"m.space.parent","state_key":"!space:localhost","content":{"via":["localhost"]}}"#;
        let child = r#"{"type":"m.space.child","state_key":"!room:localhost","content":{"via":["localhost"]}}"#;
        let removed = r#"{"type":"m.space.parent","state_key":"!old:localhost","content":{}}"#;
        let emptied =
            r#"{"type":"m.space.child","state_key":"!old:localhost","content":{"via":[]}}"#;
        assert_eq!(
            live_link(live).map(|id| id.to_string()).as_deref(),
            Some("!space:localhost")
        );
        assert_eq!(
            live_link(child).map(|id| id.to_string()).as_deref(),
            Some("!room:localhost")
        );
        assert_eq!(live_link(removed), None);
        assert_eq!(live_link(emptied), None);
        assert_eq!(live_link("{}"), None);
        assert_eq!(
            live_link(r#"{"state_key":"not a room","content":{"via":["x"]}}"#),
            None
        );
    }

    fn parent(space: &str, lists_room: bool, sender_power: Option<i64>) -> ParentFacts {
        ParentFacts {
            space: space.try_into().expect("room id"),
            lists_room,
            sender_power,
        }
    }

    #[test]
    fn moderation_is_judged_where_the_room_verifiably_belongs() {
        use Moderation::{Channel, Server};
        const FALLBACK: &str = "localhost";
        let club = "!club:localhost";
        let table: Vec<(&str, Vec<ParentFacts>, i64, &str, Moderation)> = vec![
            // (what, parents, power in the room, server, scope)
            (
                "outside any space, the room's admin",
                vec![],
                100,
                FALLBACK,
                Channel,
            ),
            (
                "outside any space, a room moderator",
                vec![],
                50,
                FALLBACK,
                Channel,
            ),
            (
                "outside any space, a member",
                vec![],
                49,
                FALLBACK,
                Moderation::None,
            ),
            (
                "room creator, room version 12",
                vec![],
                i64::MAX,
                FALLBACK,
                Channel,
            ),
            (
                "a forged parent: the space does not list the room",
                vec![parent(club, false, None)],
                100,
                FALLBACK,
                Channel,
            ),
            (
                "a space the bot is not in cannot be checked",
                vec![parent("!unknown:localhost", false, None)],
                100,
                FALLBACK,
                Channel,
            ),
            (
                "a verified space's moderator",
                vec![parent(club, true, Some(50))],
                0,
                club,
                Server,
            ),
            (
                "a verified space, power in the room only",
                vec![parent(club, true, Some(0))],
                100,
                club,
                Channel,
            ),
            (
                "a verified space, power there but no longer a member",
                vec![parent(club, true, None)],
                0,
                club,
                Moderation::None,
            ),
            (
                "a verified space, a member of both without power",
                vec![parent(club, true, Some(10))],
                10,
                club,
                Moderation::None,
            ),
            (
                "a forged parent sorting first does not hide the real one",
                vec![
                    parent("!aaa:localhost", false, None),
                    parent(club, true, Some(100)),
                ],
                0,
                club,
                Server,
            ),
            (
                "two verified spaces: the smallest id, and power there",
                vec![
                    parent("!zzz:localhost", true, Some(100)),
                    parent(club, true, Some(0)),
                ],
                0,
                club,
                Moderation::None,
            ),
        ];
        for (what, parents, room_power, server, moderation) in table {
            let expected = Standing {
                server: server.to_owned(),
                moderation,
            };
            assert_eq!(judge(&parents, room_power, FALLBACK), expected, "{what}");
        }
    }
}
