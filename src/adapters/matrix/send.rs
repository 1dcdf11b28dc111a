//! Sending replies: an `m.notice` per reply, then its attachments as
//! uploads (`m.image` for the board PNG), then the offer it makes, if any,
//! remembered for ✅ reactions. Encrypted rooms are handled by matrix-sdk.
//! A failed send is logged and the next reply still goes out.
//!
//! Each event of an act's reply is sent under a transaction id made from
//! the act's key (see [`NoticeId`]): sent again after a crash, by this
//! process or by the outbox worker, the homeserver keeps the first one.
//!
//! A notice's parts (its text, then its board and other files) are separate
//! events, and two events are never sent atomically. So before each part
//! after the text goes out, how far the notice came is recorded with the
//! act ([`Progress`]); a crash between the parts leaves only the rest to the
//! next try, which starts from there ([`NoticeId::first_part`]). The
//! transaction ids cover the last gap (a crash after a part went out and
//! before it was recorded) while the homeserver remembers them: Synapse
//! does for about half an hour, per device (issue 42; `tests/matrix_e2e.rs`
//! kills the bot between the parts and restarts it as a new device).

use matrix_sdk::attachment::{AttachmentConfig, AttachmentInfo, BaseImageInfo};
use matrix_sdk::ruma::events::Mentions;
use matrix_sdk::ruma::events::room::message::RoomMessageEventContent;
use matrix_sdk::ruma::{OwnedTransactionId, OwnedUserId, RoomId, UInt};
use matrix_sdk::{Client, Room};

use crate::core::command::Command;
use crate::service::{Attachment, NoticeId, Reply, Sent, Service};

use super::ids::{is_room_id, mxid_of};
use super::notice::{fit_notice, notice_for};
use super::offers::{Offer, offer_in};
use super::rooms::display_name;
use super::sync::caught_up;

/// Where a notice records how far it came, part by part.
#[derive(Clone, Copy)]
pub enum Progress<'a> {
    /// Nothing to record: not an act's answer (nor deduplicated).
    Untracked,
    /// The act's own process answering it: recorded with its hold, so the
    /// outbox takes over from there only if this process goes silent.
    Answering(&'a Service),
    /// An outbox worker's try.
    Outbox(&'a Service),
}

impl Progress<'_> {
    /// Records that the parts of notice `id` before `next_part` went out.
    async fn parts_out(self, id: Option<NoticeId<'_>>, next_part: u32) {
        let Some(id) = id else { return };
        match self {
            Progress::Untracked => {}
            Progress::Answering(service) => {
                let now = chrono::Utc::now();
                service
                    .delivering(id.act_key, id.item, next_part, now)
                    .await;
            }
            Progress::Outbox(service) => service.notice_part_sent(id, next_part).await,
        }
    }
}

/// Sends `replies` in order, the answer of the act `key` if it has one;
/// `command` is what the user asked, if anyone. Says whether all went out.
pub async fn deliver(
    client: &Client,
    prefix: &str,
    replies: &[Reply],
    command: Option<&Command>,
    key: Option<&str>,
    progress: Progress<'_>,
) -> bool {
    let mut all_out = true;
    for (item, reply) in (0..).zip(replies) {
        let id = key.map(|act_key| NoticeId {
            act_key,
            item,
            first_part: 0,
        });
        if item > 0 && all_out {
            // The earlier ones are out: a crash from here resumes here.
            progress.parts_out(id, 0).await;
        }
        if let Err(error) = deliver_one(client, prefix, reply, command, id, progress).await {
            tracing::warn!(%error, channel = %reply.channel, "a Matrix reply was not sent");
            all_out = false;
        }
    }
    all_out
}

/// Sends one notice of the outbox and says what became of it: the
/// homeserver's rate limit, its own failures and a lost connection are
/// worth another try; any other refusal (not in the room, forbidden) is final.
pub async fn send_notice(
    client: &Client,
    prefix: &str,
    reply: &Reply,
    id: NoticeId<'_>,
    service: &Service,
) -> Sent {
    let progress = Progress::Outbox(service);
    match deliver_one(client, prefix, reply, None, Some(id), progress).await {
        Ok(()) => Sent::Delivered,
        Err(Failure::NotYetInRoom) => Sent::Retry("the room is not known yet".to_owned()),
        Err(Failure::Sdk(error)) => {
            let status = error.as_client_api_error().map(|e| e.status_code.as_u16());
            match status {
                Some(429) | Some(500..) | None => Sent::Retry(error.to_string()),
                Some(_) => {
                    // Said once: the outbox counts it and does not try again.
                    tracing::warn!(%error, room = %reply.channel, "the homeserver refused a notice");
                    Sent::Refused(error.to_string())
                }
            }
        }
    }
}

/// The transaction id of a notice's `part` (0: its text, then its files).
fn transaction(id: Option<NoticeId<'_>>, part: u32) -> Option<OwnedTransactionId> {
    id.map(|id| OwnedTransactionId::from(format!("pawnpost.{}", id.token(part))))
}

/// Why a notice did not (all) go out.
#[derive(Debug, thiserror::Error)]
enum Failure {
    /// A room this new session has not synced yet: known after the first sync.
    #[error("the room is not known yet")]
    NotYetInRoom,
    #[error(transparent)]
    Sdk(#[from] matrix_sdk::Error),
}

/// Sends a notice's parts from `id`'s first part on: its text (part 0),
/// then its files, recording how far it came before each file.
async fn deliver_one(
    client: &Client,
    prefix: &str,
    reply: &Reply,
    command: Option<&Command>,
    id: Option<NoticeId<'_>>,
    progress: Progress<'_>,
) -> Result<(), Failure> {
    let room = match destination(client, reply).await? {
        Destination::Room(room) => room,
        Destination::Elsewhere => return Ok(()),
        Destination::NotYetKnown => return Err(Failure::NotYetInRoom),
    };
    let to: Option<OwnedUserId> = reply
        .to
        .as_deref()
        .and_then(|id| OwnedUserId::try_from(mxid_of(id)).ok());
    let name = match &to {
        Some(user) => display_name(&room, user).await,
        None => None,
    };
    let (notice, whole_text) = fit_notice(notice_for(reply, name.as_deref(), prefix));
    let first_part = id.map_or(0, |id| id.first_part);
    if first_part == 0 {
        let mut content = RoomMessageEventContent::notice_html(notice.body, notice.html);
        let mentioned = notice.mention.and_then(|id| OwnedUserId::try_from(id).ok());
        content = content.add_mentions(Mentions::with_user_ids(mentioned));
        tracing::debug!(room = %room.room_id(), "sending a notice");
        let mut sending = room.send(content);
        if let Some(txn) = transaction(id, 0) {
            sending = sending.with_transaction_id(txn);
        }
        let sent = sending.await?;
        tracing::debug!(event = %sent.response.event_id, "notice sent");
        if let Some(offer) = offer_in(reply, command) {
            remember_offer(client, sent.response.event_id.as_str(), offer).await;
        }
    }
    let files = whole_text.iter().chain(&reply.attachments);
    for (part, attachment) in (1..).zip(files).skip_while(|(part, _)| *part < first_part) {
        progress.parts_out(id, part).await;
        pause_between_parts(reply).await;
        send_attachment(&room, attachment, transaction(id, part)).await?;
    }
    Ok(())
}

/// Fault injection for the crash tests, in debug builds only: with
/// `PAWNPOST_TEST_PAUSE_BETWEEN_PARTS=<words>`, a notice whose text holds
/// those words and has files stops for good after its text, so a test can
/// kill the process exactly between the parts.
#[cfg(debug_assertions)]
async fn pause_between_parts(reply: &Reply) {
    let Ok(words) = std::env::var("PAWNPOST_TEST_PAUSE_BETWEEN_PARTS") else {
        return;
    };
    if !words.is_empty() && reply.text.contains(&words) && !reply.attachments.is_empty() {
        tracing::warn!("paused between a notice's text and its files (test hook)");
        std::future::pending::<()>().await;
    }
}

#[cfg(not(debug_assertions))]
async fn pause_between_parts(_: &Reply) {}

/// Where a reply goes.
enum Destination {
    Room(Room),
    /// Not a Matrix room (another platform's channel), or one the bot is
    /// not in: nothing to send here.
    Elsewhere,
    /// A room a session that has not synced yet cannot know (a new login
    /// after a lost store): it will after the first sync.
    NotYetKnown,
}

/// The room a reply goes to: its channel, or the addressee's direct-message room.
async fn destination(client: &Client, reply: &Reply) -> Result<Destination, matrix_sdk::Error> {
    if reply.direct || reply.secret {
        let Some(user) = reply
            .to
            .as_deref()
            .and_then(|id| OwnedUserId::try_from(mxid_of(id)).ok())
        else {
            return Ok(Destination::Elsewhere);
        };
        if let Some(room) = client.get_dm_room(&user) {
            return Ok(Destination::Room(room));
        }
        if !caught_up(client).await {
            // Its direct room may exist, unknown until the first sync.
            return Ok(Destination::NotYetKnown);
        }
        return client.create_dm(&user).await.map(Destination::Room);
    }
    if !is_room_id(&reply.channel) {
        return Ok(Destination::Elsewhere);
    }
    let Ok(room_id) = <&RoomId>::try_from(reply.channel.as_str()) else {
        return Ok(Destination::Elsewhere);
    };
    Ok(match client.get_room(room_id) {
        Some(room) => Destination::Room(room),
        None if !caught_up(client).await => Destination::NotYetKnown,
        None => Destination::Elsewhere,
    })
}

async fn remember_offer(client: &Client, event_id: &str, offer: Offer) {
    let Ok(value) = serde_json::to_vec(&offer) else {
        return;
    };
    let stored = client
        .state_store()
        .set_custom_value_no_read(&Offer::store_key(event_id), value)
        .await;
    if let Err(error) = stored {
        tracing::warn!(%error, "cannot remember an offer for reactions");
    }
}

/// The offer made by the bot's notice `event_id`, if it made one.
pub async fn offer_of(client: &Client, event_id: &str) -> Option<Offer> {
    let value = client
        .state_store()
        .get_custom_value(&Offer::store_key(event_id))
        .await
        .ok()??;
    serde_json::from_slice(&value).ok()
}

/// Uploads a file (encrypted in encrypted rooms) and posts it.
async fn send_attachment(
    room: &Room,
    attachment: &Attachment,
    txn: Option<OwnedTransactionId>,
) -> Result<(), matrix_sdk::Error> {
    let mime: mime::Mime = attachment
        .content_type
        .parse()
        .unwrap_or(mime::APPLICATION_OCTET_STREAM);
    let mut config = AttachmentConfig::new();
    if let Some(txn) = txn {
        config = config.txn_id(txn);
    }
    if let Some((width, height)) = png_size(&attachment.bytes) {
        config = config.info(AttachmentInfo::Image(BaseImageInfo {
            width: Some(UInt::from(width)),
            height: Some(UInt::from(height)),
            size: UInt::new(attachment.bytes.len() as u64),
            ..BaseImageInfo::default()
        }));
    }
    room.send_attachment(
        attachment.filename.clone(),
        &mime,
        attachment.bytes.to_vec(),
        config,
    )
    .await?;
    Ok(())
}

/// Width and height from a PNG's header, so clients can lay the image out
/// before downloading it.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.get(..8)? != SIGNATURE || bytes.get(12..16)? != b"IHDR" {
        return None;
    }
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
    };
    Some((word(16)?, word(20)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_sizes_come_from_the_header() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend(480u32.to_be_bytes());
        png.extend(360u32.to_be_bytes());
        assert_eq!(png_size(&png), Some((480, 360)));
        assert_eq!(png_size(b"GIF89a"), None);
        assert_eq!(png_size(&png[..18]), None);
    }
}
