//! The fake Discord's gateway: HELLO, then IDENTIFY → READY or RESUME →
//! the missed events and RESUMED; heartbeats; dispatches.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::State;
use axum::extract::ws::{Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::{APPLICATION_ID, Inner, Shard, bot_user, check};

pub async fn gateway(ws: WebSocketUpgrade, State(inner): State<Arc<Inner>>) -> Response {
    ws.on_upgrade(move |socket| shard_connection(socket, inner))
}

async fn send(socket: &mut WebSocket, frame: &Value) -> bool {
    socket
        .send(WsMessage::Text(frame.to_string().into()))
        .await
        .is_ok()
}

/// One shard's connection: HELLO, then IDENTIFY → READY (or RESUME),
/// heartbeats, dispatches.
async fn shard_connection(mut socket: WebSocket, inner: Arc<Inner>) {
    let hello = json!({ "op": 10, "d": { "heartbeat_interval": 41_250 } });
    if !send(&mut socket, &hello).await {
        return;
    }
    let (outbox, mut outgoing) = mpsc::unbounded_channel::<String>();
    let mut shard_id = None;
    loop {
        tokio::select! {
            frame = outgoing.recv() => {
                let Some(frame) = frame else { break };
                if socket.send(WsMessage::Text(frame.into())).await.is_err() {
                    break;
                }
            }
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(WsMessage::Text(text))) => text.to_string(),
                    Some(Ok(WsMessage::Binary(_) | WsMessage::Ping(_) | WsMessage::Pong(_))) => continue,
                    _ => break,
                };
                let Ok(frame) = serde_json::from_str::<Value>(&text) else { continue };
                let ok = match frame["op"].as_u64() {
                    Some(1) => send(&mut socket, &json!({ "op": 11 })).await,
                    Some(2) => identify(&mut socket, &inner, &frame, &outbox, &mut shard_id).await,
                    Some(6) => resume(&mut socket, &inner, &frame, &outbox, &mut shard_id).await,
                    _ => true,
                };
                if !ok {
                    break;
                }
            }
        }
    }
    if let Some(id) = shard_id {
        let mut shards = inner.shards.lock().unwrap();
        if shards
            .get(&id)
            .is_some_and(|s| s.outbox.same_channel(&outbox))
        {
            shards.remove(&id);
        }
    }
}

async fn identify(
    socket: &mut WebSocket,
    inner: &Inner,
    frame: &Value,
    outbox: &mpsc::UnboundedSender<String>,
    shard_id: &mut Option<u32>,
) -> bool {
    let id = frame["d"]["shard"][0].as_u64().unwrap_or(0) as u32;
    let total = frame["d"]["shard"][1].as_u64().unwrap_or(1).max(1) as u32;
    let base = inner.base.lock().unwrap().clone();
    let ready = json!({
        "v": 10,
        "user": bot_user(),
        "guilds": [],
        "session_id": format!("session-{id}-{total}"),
        "resume_gateway_url": format!("ws://{base}"),
        "shard": [id, total],
        "application": { "id": APPLICATION_ID.to_string(), "flags": 0 }
    });
    check::<serenity::all::Ready>("READY", &ready);
    let frame = json!({ "op": 0, "t": "READY", "s": 1, "d": ready });
    if !send(socket, &frame).await {
        return false;
    }
    register(inner, id, total, outbox, shard_id);
    true
}

fn register(
    inner: &Inner,
    id: u32,
    total: u32,
    outbox: &mpsc::UnboundedSender<String>,
    shard_id: &mut Option<u32>,
) {
    inner.shards.lock().unwrap().insert(
        id,
        Shard {
            total,
            outbox: outbox.clone(),
        },
    );
    *shard_id = Some(id);
    inner.connected.notify_waiters();
}

/// A RESUME: the events the shard missed after the sequence it names, then
/// the interactions held for a resume (which thus come late), then RESUMED.
async fn resume(
    socket: &mut WebSocket,
    inner: &Inner,
    frame: &Value,
    outbox: &mpsc::UnboundedSender<String>,
    shard_id: &mut Option<u32>,
) -> bool {
    let session = frame["d"]["session_id"].as_str().unwrap_or("");
    let mut parts = session.trim_start_matches("session-").split('-');
    let id: u32 = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    let total: u32 = parts.next().and_then(|p| p.parse().ok()).unwrap_or(1);
    let seq = frame["d"]["seq"].as_u64().unwrap_or(0);
    inner.resumes.fetch_add(1, Ordering::SeqCst);
    let missed: Vec<String> = inner
        .sent_events
        .lock()
        .unwrap()
        .iter()
        .filter(|(shard, s, _)| *shard == id && *s > seq)
        .map(|(_, _, frame)| frame.clone())
        .collect();
    for frame in missed {
        if socket.send(WsMessage::Text(frame.into())).await.is_err() {
            return false;
        }
    }
    let late: Vec<Value> = std::mem::take(&mut *inner.after_resume.lock().unwrap());
    for interaction in late {
        check::<serenity::all::Interaction>("INTERACTION_CREATE", &interaction);
        let seq = inner.sequence.fetch_add(1, Ordering::SeqCst) + 2;
        let frame = json!({ "op": 0, "t": "INTERACTION_CREATE", "s": seq, "d": interaction });
        if !send(socket, &frame).await {
            return false;
        }
    }
    let seq = inner.sequence.fetch_add(1, Ordering::SeqCst) + 2;
    let resumed = json!({ "op": 0, "t": "RESUMED", "s": seq, "d": {} });
    if !send(socket, &resumed).await {
        return false;
    }
    register(inner, id, total, outbox, shard_id);
    true
}
