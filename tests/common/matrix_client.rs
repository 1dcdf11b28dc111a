//! A Matrix client for end-to-end tests against a real homeserver: players
//! who log in, keep syncing and collect what they receive, make rooms and
//! spaces; accounts registered through Synapse's shared-secret API.
//! Shared by `tests/matrix_e2e.rs` and `tests/two_platforms_e2e.rs`.

#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use matrix_sdk::config::SyncSettings;
use matrix_sdk::media::{MediaFormat, MediaRequestParameters};
use matrix_sdk::ruma::api::client::room::create_room::v3::{
    CreationContent, Request as CreateRoom,
};
use matrix_sdk::ruma::events::reaction::ReactionEventContent;
use matrix_sdk::ruma::events::relation::Annotation;
use matrix_sdk::ruma::events::room::encryption::RoomEncryptionEventContent;
use matrix_sdk::ruma::events::room::message::{
    MessageType, OriginalSyncRoomMessageEvent, RoomMessageEventContent,
};
use matrix_sdk::ruma::events::space::child::SpaceChildEventContent;
use matrix_sdk::ruma::events::space::parent::SpaceParentEventContent;
use matrix_sdk::ruma::events::{InitialStateEvent, room::MediaSource};
use matrix_sdk::ruma::room::RoomType;
use matrix_sdk::ruma::serde::Raw;
use matrix_sdk::ruma::{OwnedEventId, OwnedRoomId, OwnedServerName, OwnedUserId, UserId};
use matrix_sdk::{Client, Room, RoomMemberships};
use tokio::task::JoinHandle;

/// The longest any single expected answer may take.
pub const WAIT: Duration = Duration::from_secs(30);

/// The bot's account.
pub const BOT: &str = "@chessbot:localhost";

/// A message a player's client received.
#[derive(Clone, Debug)]
pub struct Seen {
    pub room: OwnedRoomId,
    pub event_id: OwnedEventId,
    pub sender: OwnedUserId,
    pub body: String,
    pub html: Option<String>,
    pub mentions: Vec<OwnedUserId>,
    pub image: Option<MediaSource>,
}

/// Everything one client received, in order.
#[derive(Clone, Default)]
pub struct Inbox {
    pub seen: Arc<Mutex<Vec<Seen>>>,
    pub arrived: Arc<tokio::sync::Notify>,
}

impl Inbox {
    pub fn mark(&self) -> usize {
        self.seen.lock().expect("inbox").len()
    }

    /// The first message after `mark` matching `wanted`, waiting at most `WAIT`.
    pub async fn after(&self, mark: usize, what: &str, wanted: impl Fn(&Seen) -> bool) -> Seen {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let notified = self.arrived.notified();
            if let Some(found) = self.seen.lock().expect("inbox")[mark..]
                .iter()
                .find(|s| wanted(s))
                .cloned()
            {
                return found;
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                let seen: Vec<String> = self.seen.lock().expect("inbox")[mark..]
                    .iter()
                    .map(|s| format!("{}: {}", s.sender, s.body))
                    .collect();
                panic!("timed out waiting for {what}; received since: {seen:#?}");
            }
        }
    }

    /// The bot's messages in `room` after `mark`.
    pub fn bot_messages(&self, mark: usize, room: &OwnedRoomId) -> Vec<Seen> {
        self.seen.lock().expect("inbox")[mark..]
            .iter()
            .filter(|s| &s.room == room && s.sender == BOT)
            .cloned()
            .collect()
    }
}

/// A player: a logged-in client that keeps syncing.
pub struct Player {
    pub client: Client,
    pub inbox: Inbox,
    pub sync: JoinHandle<()>,
}

impl Player {
    pub async fn login(homeserver: &str, name: &str) -> Player {
        let client = Client::builder()
            .homeserver_url(homeserver)
            .build()
            .await
            .expect("client");
        client
            .matrix_auth()
            .login_username(name, &format!("pass-{name}"))
            .initial_device_display_name(name)
            .send()
            .await
            .expect("login");
        client
            .sync_once(SyncSettings::default())
            .await
            .expect("first sync");
        let inbox = Inbox::default();
        let collect = inbox.clone();
        client.add_event_handler(move |event: OriginalSyncRoomMessageEvent, room: Room| {
            let inbox = collect.clone();
            async move {
                let (body, html, image) = match &event.content.msgtype {
                    MessageType::Notice(n) => (
                        n.body.clone(),
                        n.formatted.as_ref().map(|f| f.body.clone()),
                        None,
                    ),
                    MessageType::Text(t) => (t.body.clone(), None, None),
                    MessageType::Image(i) => (i.body.clone(), None, Some(i.source.clone())),
                    _ => return,
                };
                let mentions = event
                    .content
                    .mentions
                    .as_ref()
                    .map(|m| m.user_ids.iter().cloned().collect())
                    .unwrap_or_default();
                inbox.seen.lock().expect("inbox").push(Seen {
                    room: room.room_id().to_owned(),
                    event_id: event.event_id.clone(),
                    sender: event.sender.clone(),
                    body,
                    html,
                    mentions,
                    image,
                });
                inbox.arrived.notify_waiters();
            }
        });
        let syncing = client.clone();
        let sync = tokio::spawn(async move {
            let settings = SyncSettings::default().timeout(Duration::from_secs(5));
            let _ = syncing.sync(settings).await;
        });
        Player {
            client,
            inbox,
            sync,
        }
    }

    pub fn id(&self) -> OwnedUserId {
        self.client.user_id().expect("logged in").to_owned()
    }

    pub fn room(&self, id: &OwnedRoomId) -> Room {
        self.client.get_room(id).expect("room known")
    }

    pub async fn say(&self, room: &OwnedRoomId, text: &str) -> OwnedEventId {
        self.room(room)
            .send(RoomMessageEventContent::text_plain(text))
            .await
            .expect("send")
            .response
            .event_id
    }

    pub async fn react(&self, room: &OwnedRoomId, target: &OwnedEventId, key: &str) {
        let reaction = ReactionEventContent::new(Annotation::new(target.clone(), key.to_owned()));
        self.room(room).send(reaction).await.expect("react");
    }

    /// A new room with `invited` invited, encrypted or not.
    pub async fn create_room(&self, invited: &[&UserId], encrypted: bool) -> OwnedRoomId {
        let mut request = CreateRoom::new();
        request.invite = invited.iter().map(|u| (*u).to_owned()).collect();
        if encrypted {
            let event = InitialStateEvent::with_empty_state_key(
                RoomEncryptionEventContent::with_recommended_defaults(),
            );
            request.initial_state = vec![Raw::new(&event).expect("state").cast()];
        }
        self.client
            .create_room(request)
            .await
            .expect("create room")
            .room_id()
            .to_owned()
    }

    /// A new space (a room of type `m.space`) with `invited` invited.
    pub async fn create_space(&self, invited: &[&UserId]) -> OwnedRoomId {
        let mut request = CreateRoom::new();
        request.invite = invited.iter().map(|u| (*u).to_owned()).collect();
        let mut creation = CreationContent::new();
        creation.room_type = Some(RoomType::Space);
        request.creation_content = Some(Raw::new(&creation).expect("creation content"));
        self.client
            .create_room(request)
            .await
            .expect("create space")
            .room_id()
            .to_owned()
    }

    /// Names `space` as the parent of `room` (`m.space.parent` in the room).
    pub async fn name_parent(&self, room: &OwnedRoomId, space: &OwnedRoomId) {
        let content = SpaceParentEventContent::new(vec![localhost()]);
        self.room(room)
            .send_state_event_for_key(space, content)
            .await
            .expect("m.space.parent");
    }

    /// Lists `room` as a child of `space` (`m.space.child` in the space).
    pub async fn list_child(&self, space: &OwnedRoomId, room: &OwnedRoomId) {
        let content = SpaceChildEventContent::new(vec![localhost()]);
        self.room(space)
            .send_state_event_for_key(room, content)
            .await
            .expect("m.space.child");
    }

    pub async fn join(&self, room: &OwnedRoomId) {
        self.client.join_room_by_id(room).await.expect("join");
    }

    pub async fn invite(&self, room: &OwnedRoomId, user: &str) {
        let user = UserId::parse(user).expect("user id");
        self.room(room)
            .invite_user_by_id(&user)
            .await
            .expect("invite");
    }

    /// Waits until `user` is a joined member of `room`, as this client sees it.
    pub async fn until_joined(&self, room: &OwnedRoomId, user: &str) {
        let user = UserId::parse(user).expect("user id");
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            if let Some(room) = self.client.get_room(room) {
                let joined = room
                    .members_no_sync(RoomMemberships::JOIN)
                    .await
                    .unwrap_or_default();
                if joined.iter().any(|m| m.user_id() == user) {
                    return;
                }
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "{user} did not join {room}"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    pub async fn download(&self, source: &MediaSource) -> Vec<u8> {
        let request = MediaRequestParameters {
            source: source.clone(),
            format: MediaFormat::File,
        };
        self.client
            .media()
            .get_media_content(&request, false)
            .await
            .expect("download")
    }
}

pub fn localhost() -> OwnedServerName {
    "localhost".try_into().expect("server name")
}

/// Registers `name` (password `pass-<name>`) through Synapse's shared-secret
/// admin API, as `register_new_matrix_user` does; an existing account is kept.
pub async fn register(homeserver: &str, name: &str) {
    use hmac::{Hmac, Mac};
    let secret = std::env::var("MATRIX_REGISTRATION_SECRET")
        .unwrap_or_else(|_| "ci-test-shared-secret".to_owned());
    let http = matrix_sdk::reqwest::Client::new();
    let url = format!("{homeserver}/_synapse/admin/v1/register");
    let answer = http.get(&url).send().await.expect("nonce");
    let nonce: serde_json::Value =
        serde_json::from_str(&answer.text().await.expect("nonce body")).expect("nonce json");
    let nonce = nonce["nonce"].as_str().expect("a nonce");
    let password = format!("pass-{name}");
    let mut mac = Hmac::<sha1::Sha1>::new_from_slice(secret.as_bytes()).expect("key");
    mac.update(format!("{nonce}\0{name}\0{password}\0notadmin").as_bytes());
    let mac: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    let body = serde_json::json!({
        "nonce": nonce, "username": name, "password": password, "admin": false, "mac": mac
    });
    let answer = http
        .post(&url)
        .header("Content-Type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .expect("register");
    let status = answer.status();
    let text = answer.text().await.unwrap_or_default();
    assert!(
        status.is_success() || text.contains("M_USER_IN_USE"),
        "registering {name}: {status} {text}"
    );
}

/// The room of the bot's first message to `player` after `mark` holding
/// `text` outside `room`: its direct-message room with them, joined if
/// the bot had to invite them (a room from an earlier run is reused).
pub async fn the_bots_direct_answer(
    player: &Player,
    mark: usize,
    room: &OwnedRoomId,
    text: &str,
) -> OwnedRoomId {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        for invited in player.client.invited_rooms() {
            let id = invited.room_id().to_owned();
            player.join(&id).await;
            player.until_joined(&id, BOT).await;
        }
        let found = player.inbox.seen.lock().expect("inbox")[mark..]
            .iter()
            .find(|s| &s.room != room && s.sender == BOT && s.body.contains(text))
            .map(|s| s.room.clone());
        if let Some(direct) = found {
            return direct;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no direct answer holding {text:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
