//! What the bot needs to know about a room: members' names, and whether to
//! join it (the community it belongs to is [`super::community`]'s).

use std::time::Duration;

use matrix_sdk::ruma::{OwnedRoomId, UserId};
use matrix_sdk::{Client, Room};

use super::ids::may_invite;

/// How often a failed join is tried again, and how long to wait between.
const JOIN_ATTEMPTS: u32 = 3;
const JOIN_RETRY: Duration = Duration::from_secs(2);

/// A member's display name in the room, if they set one.
pub async fn display_name(room: &Room, user: &UserId) -> Option<String> {
    let member = room.get_member_no_sync(user).await.ok()??;
    Some(member.name().to_owned())
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
