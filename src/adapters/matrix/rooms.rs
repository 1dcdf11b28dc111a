//! What the bot needs to know about a room: the community it belongs to
//! (its space, for standings), members' names, and whether to join it.

use std::time::Duration;

use matrix_sdk::deserialized_responses::RawSyncOrStrippedState;
use matrix_sdk::ruma::events::space::parent::SpaceParentEventContent;
use matrix_sdk::ruma::{OwnedRoomId, UserId};
use matrix_sdk::{Client, Room};
use serde::Deserialize;

use super::ids::may_invite;

/// How often a failed join is tried again, and how long to wait between.
const JOIN_ATTEMPTS: u32 = 3;
const JOIN_RETRY: Duration = Duration::from_secs(2);

/// A member's display name in the room, if they set one.
pub async fn display_name(room: &Room, user: &UserId) -> Option<String> {
    let member = room.get_member_no_sync(user).await.ok()??;
    Some(member.name().to_owned())
}

/// The community a room's games count for: its space (the smallest
/// `m.space.parent` room id, so the choice is stable), else `fallback`.
pub async fn server_of(room: &Room, fallback: &str) -> String {
    let parents = room
        .get_state_events_static::<SpaceParentEventContent>()
        .await
        .unwrap_or_default();
    parents
        .iter()
        .filter_map(|raw| {
            let json = match raw {
                RawSyncOrStrippedState::Sync(raw) => raw.json().get(),
                RawSyncOrStrippedState::Stripped(raw) => raw.json().get(),
            };
            live_parent(json)
        })
        .min()
        .map_or_else(|| fallback.to_owned(), |id| id.to_string())
}

/// The parent named by an `m.space.parent` event, unless it was removed
/// (an empty `via` means removed).
fn live_parent(json: &str) -> Option<OwnedRoomId> {
    #[derive(Deserialize)]
    struct Parent {
        state_key: OwnedRoomId,
        content: Via,
    }
    #[derive(Deserialize)]
    struct Via {
        #[serde(default)]
        via: Vec<String>,
    }
    let parent: Parent = serde_json::from_str(json).ok()?;
    (!parent.content.via.is_empty()).then_some(parent.state_key)
}

/// Joins `room` if whoever invited the bot may; declines otherwise.
pub async fn answer_invite(room: Room, allowed: &[String]) {
    let inviter = match room.invite_details().await {
        Ok(invite) => invite.inviter_id.to_string(),
        Err(error) => {
            tracing::warn!(%error, room = %room.room_id(), "cannot read an invitation");
            return;
        }
    };
    if !may_invite(&inviter, allowed) {
        tracing::info!(room = %room.room_id(), %inviter, "invitation declined");
        if let Err(error) = room.leave().await {
            tracing::warn!(%error, "cannot decline an invitation");
        }
        return;
    }
    for attempt in 1..=JOIN_ATTEMPTS {
        match room.join().await {
            Ok(()) => {
                tracing::info!(room = %room.room_id(), %inviter, "joined");
                return;
            }
            Err(error) => {
                tracing::warn!(%error, attempt, room = %room.room_id(), "cannot join yet");
                tokio::time::sleep(JOIN_RETRY * attempt).await;
            }
        }
    }
}

/// Answers every pending invitation (each in its own task: a join waits on
/// the server, and the sync loop must go on meanwhile).
pub fn answer_invites(
    client: &Client,
    rooms: impl IntoIterator<Item = OwnedRoomId>,
    allowed: &[String],
) {
    for room_id in rooms {
        let Some(room) = client.get_room(&room_id) else {
            continue;
        };
        let allowed = allowed.to_vec();
        tokio::spawn(async move { answer_invite(room, &allowed).await });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removed_space_parents_do_not_count() {
        let live = r#"{"type":"m.space.parent","state_key":"!space:localhost","content":{"via":["localhost"]}}"#;
        let removed = r#"{"type":"m.space.parent","state_key":"!old:localhost","content":{}}"#;
        assert_eq!(
            live_parent(live).map(|id| id.to_string()).as_deref(),
            Some("!space:localhost")
        );
        assert_eq!(live_parent(removed), None);
        assert_eq!(live_parent("{}"), None);
    }
}
