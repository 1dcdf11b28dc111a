//! The sync loop: each sync response's invitations are answered and its new
//! timeline events turned into acts, room by room and in order.
//!
//! The very first start only catches up (the rooms' history is not replayed);
//! afterwards matrix-sdk resumes from its saved sync token, so what was said
//! while the bot was down is handled once it is back. An event's id is its
//! act's idempotency key: an event seen twice changes nothing.

use std::future::Future;
use std::time::{Duration, Instant};

use chrono::Utc;
use futures_util::StreamExt;
use matrix_sdk::config::SyncSettings;
use matrix_sdk::deserialized_responses::TimelineEvent;
use matrix_sdk::ruma::UserId;
use matrix_sdk::sync::SyncResponse;
use matrix_sdk::{Client, Room, RoomMemberships};

use crate::core::command::{self, Command};
use crate::core::platform::Platform;
use crate::service::{BoardImages, Input, Request, Service, User};

use super::choices::{Answer, PendingChoices};
use super::commands::{command_text, resolve_pills};
use super::community::standing;
use super::events::{Incoming, first_new_event, read};
use super::ids::platform_id_of;
use super::offers::is_accept_reaction;
use super::rooms::{answer_invites, display_name};
use super::send::{Progress, deliver, offer_of};
use super::{MatrixError, MatrixSettings};

/// Set in the state store once the first sync has been skipped.
const CAUGHT_UP_KEY: &[u8] = b"pawnpost.caught_up";
/// The long-poll timeout of each sync request.
const SYNC_TIMEOUT: Duration = Duration::from_secs(30);
/// The pause after a failed sync.
const SYNC_RETRY: Duration = Duration::from_secs(5);

/// Whether this session has synced once (a restored one has): before
/// that, a new login knows none of its rooms.
pub(super) async fn caught_up(client: &Client) -> bool {
    matches!(
        client.state_store().get_custom_value(CAUGHT_UP_KEY).await,
        Ok(Some(_))
    )
}

/// Syncs until `shutdown` completes.
pub async fn run(
    client: &Client,
    settings: &MatrixSettings,
    service: &Service,
    shutdown: impl Future<Output = ()>,
) -> Result<(), MatrixError> {
    tokio::pin!(shutdown);
    if client
        .state_store()
        .get_custom_value(CAUGHT_UP_KEY)
        .await?
        .is_none()
    {
        let response = tokio::select! {
            response = client.sync_once(SyncSettings::default()) => response?,
            _ = &mut shutdown => return Ok(()),
        };
        answer_invites(
            client,
            response.rooms.invited.into_keys(),
            &settings.allowed_inviters,
        );
        client
            .state_store()
            .set_custom_value_no_read(CAUGHT_UP_KEY, b"1".to_vec())
            .await?;
        tracing::info!("caught up with Matrix; earlier messages are not replayed");
    }
    // Acts run in their own loop, in arrival order: sending a reply may wait
    // on the next sync, so the sync loop must never wait on a reply.
    let (queue, mut work) = tokio::sync::mpsc::unbounded_channel::<(Room, Incoming)>();
    let acts = async {
        // Only this loop reads and writes the questions: no lock needed.
        let mut choices = PendingChoices::new();
        // Engine reviews take seconds: they run beside the other acts, which
        // do not wait for them (a review changes no game).
        let mut reviews = futures_util::stream::FuturesUnordered::new();
        loop {
            tokio::select! {
                next = work.recv() => match next {
                    Some((room, incoming)) if is_review(&incoming, &settings.prefix) => {
                        reviews.push(async move {
                            let mut none = PendingChoices::new();
                            handle_event(client, settings, service, &mut none, &room, incoming)
                                .await;
                        });
                    }
                    Some((room, incoming)) => {
                        handle_event(client, settings, service, &mut choices, &room, incoming)
                            .await;
                    }
                    None => break,
                },
                Some(()) = reviews.next(), if !reviews.is_empty() => {}
            }
        }
        while reviews.next().await.is_some() {}
    };
    let syncing = async move {
        let sync = client
            .sync_stream(SyncSettings::default().timeout(SYNC_TIMEOUT))
            .await;
        tokio::pin!(sync);
        // The one line that says the bot is up and listening.
        tracing::info!(
            user = %settings.own_user,
            rooms = client.joined_rooms().len(),
            "logged in to Matrix and syncing: ready"
        );
        loop {
            let next = tokio::select! {
                next = sync.next() => next,
                _ = &mut shutdown => return,
            };
            match next {
                None => return,
                Some(Ok(response)) => queue_events(client, settings, &queue, response),
                Some(Err(error)) => {
                    tracing::warn!(%error, "Matrix sync failed; trying again");
                    tokio::select! {
                        _ = tokio::time::sleep(SYNC_RETRY) => {}
                        _ = &mut shutdown => return,
                    }
                }
            }
        }
        // Dropping the queue here lets the acts already received finish.
    };
    tokio::join!(syncing, acts);
    Ok(())
}

/// Whether a new message asks for an engine review (slow: run apart).
fn is_review(incoming: &Incoming, prefix: &str) -> bool {
    let Incoming::Text { body, html, .. } = incoming else {
        return false;
    };
    command_in(body, html.as_deref(), prefix)
        .is_some_and(|text| matches!(command::parse(&text), Ok(Command::Review { .. })))
}

/// The command a message's text holds (pills read as the users they name),
/// if it starts with the prefix.
fn command_in(body: &str, html: Option<&str>, prefix: &str) -> Option<String> {
    command_text(&resolve_pills(body, html), prefix)
}

/// Answers the response's invitations and queues its new events.
fn queue_events(
    client: &Client,
    settings: &MatrixSettings,
    queue: &tokio::sync::mpsc::UnboundedSender<(Room, Incoming)>,
    response: SyncResponse,
) {
    answer_invites(
        client,
        response.rooms.invited.into_keys(),
        &settings.allowed_inviters,
    );
    for (room_id, update) in response.rooms.joined {
        let Some(room) = client.get_room(&room_id) else {
            continue;
        };
        let events: &[TimelineEvent] = &update.timeline.events;
        let start = first_new_event(
            events.iter().map(TimelineEvent::raw),
            settings.own_user.as_str(),
        );
        for event in &events[start..] {
            if let Some(incoming) = read(event.raw()) {
                let _ = queue.send((room.clone(), incoming));
            }
        }
    }
}

async fn handle_event(
    client: &Client,
    settings: &MatrixSettings,
    service: &Service,
    choices: &mut PendingChoices,
    room: &Room,
    incoming: Incoming,
) {
    let Some((event_id, sender, input)) = input_of(client, settings, room, incoming).await else {
        return;
    };
    if sender == settings.own_user.as_str() {
        return;
    }
    let Ok(sender_id) = <&UserId>::try_from(sender.as_str()) else {
        return;
    };
    let room_id = room.room_id().to_string();
    let player = platform_id_of(&sender);
    // `!chess move 2` answers the question an ambiguous move asked.
    let input = match input {
        Input::Text(text) => match choices.answer(&room_id, &player, &text, Instant::now()) {
            Answer::Chosen(command) => Input::Text(command),
            Answer::Other => Input::Text(text),
        },
        other => other,
    };
    let name = display_name(room, sender_id)
        .await
        .unwrap_or_else(|| sender_id.localpart().to_owned());
    let command: Option<Command> = match &input {
        Input::Text(text) | Input::Edit { text, .. } => command::parse(text).ok(),
        Input::Command(command) => Some(command.clone()),
    };
    let standing = standing(client, room, sender_id, &settings.fallback_server).await;
    let key = format!("matrix:{event_id}");
    let act = Request {
        platform: Platform::Matrix,
        server: standing.server,
        channel: room_id.clone(),
        user: User {
            id: player.clone(),
            name,
            locale: None,
            moderation: standing.moderation,
        },
        key: Some(key.clone()),
        input,
        board_images: BoardImages::Drawn,
    };
    let replies = service.handle(act, Utc::now()).await;
    // In a room with others than the player and the bot.
    if replies.iter().any(|reply| reply.secret) && shared_with_others(room).await {
        hide_command(room, &event_id, command.as_ref()).await;
    }
    choices.remember(&room_id, &player, &replies, Instant::now());
    tracing::debug!(replies = replies.len(), "act answered");
    if deliver(
        client,
        &settings.prefix,
        &replies,
        command.as_ref(),
        Some(&key),
        Progress::Answering(service),
    )
    .await
    {
        // Else the outbox worker sends them again, under the same transaction ids.
        service.answered(&key);
    }
}

/// What an event asks the service, with its id and sender: a command's
/// text, an edit of one, or the accept of an offer reacted to; `None` for
/// an event that asks nothing (no prefix, another reaction, unreadable).
async fn input_of(
    client: &Client,
    settings: &MatrixSettings,
    room: &Room,
    incoming: Incoming,
) -> Option<(String, String, Input)> {
    match incoming {
        Incoming::Text {
            event_id,
            sender,
            body,
            html,
        } => {
            let text = command_in(&body, html.as_deref(), &settings.prefix)?;
            Some((event_id, sender, Input::Text(text)))
        }
        Incoming::Edit {
            event_id,
            sender,
            original,
            body,
            html,
        } => {
            let text = command_in(&body, html.as_deref(), &settings.prefix)?;
            let original = format!("matrix:{original}");
            Some((event_id, sender, Input::Edit { original, text }))
        }
        Incoming::Reaction {
            event_id,
            sender,
            target,
            key,
        } => {
            if !is_accept_reaction(&key) {
                return None;
            }
            let offer = offer_of(client, &target).await?;
            Some((event_id, sender, Input::Command(offer.accept())))
        }
        Incoming::Unreadable { event_id, sender } => {
            tracing::warn!(%event_id, %sender, room = %room.room_id(), "cannot decrypt an event");
            None
        }
    }
}

/// Whether others than a player and the bot are in `room`, counted from
/// its members: `Room::joined_members_count` comes from the sync's room
/// summary, which Synapse sends only to a client lazy-loading members (the
/// bot does not), so it stays 0. A room whose members cannot be read
/// counts as shared.
async fn shared_with_others(room: &Room) -> bool {
    match room.members(RoomMemberships::JOIN).await {
        Ok(members) => members.len() > 2,
        Err(error) => {
            tracing::debug!(%error, room = %room.room_id(), "cannot list a room's members");
            true
        }
    }
}

/// Redacts a command whose answer is secret (a line of conditional moves
/// or a team's vote typed in a room), so the room's other members cannot
/// read it. It takes the power to redact others' messages; without it the
/// answer (sent as a direct message) says nothing more, and
/// docs/playing.md advises writing `/if` to the bot directly.
async fn hide_command(room: &Room, event_id: &str, command: Option<&Command>) {
    let Ok(event_id) = <&matrix_sdk::ruma::EventId>::try_from(event_id) else {
        return;
    };
    // The reason clients show in place of the message.
    let reason = match command {
        Some(Command::Vote { .. }) => "private: a vote",
        _ => "private: conditional moves",
    };
    if let Err(error) = room.redact(event_id, Some(reason), None).await {
        tracing::debug!(%error, "cannot hide a secret command");
    }
}
