//! Answering an interaction: its initial response (deferred when the
//! service is slow), followups, replies for other places, and what is
//! left when Discord no longer takes an answer.
//!
//! - **Private acts defer privately.** Whether a command's answer is
//!   secret (a vote, a note, a conditional line) is known from its row in
//!   the command table before any work; such a command defers with flag 64,
//!   so the channel never reads "alice used /play vote … is thinking".
//!   A private answer after a public deferral never goes out as the first
//!   followup (Discord makes that one the deferred message, public, its own
//!   flag ignored): the deferral is deleted, or else replaced by a neutral
//!   word, before the private followup.
//! - **Late interactions.** An interaction older than Discord's 3 seconds
//!   (replayed after a gateway resume) cannot be answered directly: it is
//!   still carried out once (its id is the act's key) and its answer goes
//!   out as channel posts and direct messages, never publicly for what was
//!   private. So does the answer whose callback Discord refuses as unknown.
//! - **Bursts.** Plain replies in a row share messages ([`super::digest`]);
//!   followups wait what Discord's rate limit says; each message delivered
//!   is recorded with the service ([`Service::delivering`]), so the outbox
//!   takes over only what did not go out, and only once this answer has
//!   stalled for the whole hand-off time.
//! - **Buttons** answered (a challenge, a draw offer) are closed by the
//!   click's own response (UPDATE_MESSAGE), which needs no permission.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use super::notices::{Courier, Item};
use super::replies::{EPHEMERAL, Outgoing, is_plain};
use super::rest::{Body, Call, Failure, Method, Rest, code};
use crate::core::notation::Lang;
use crate::i18n::I18n;
use crate::service::{Prompt, Reply, Sent, Service, TimeSource};

/// Discord wants an answer within 3 seconds: past this, defer and follow up.
const DEFER_AFTER: Duration = Duration::from_millis(1500);
/// Discord's deadline for an interaction's initial response.
pub const DEADLINE: Duration = Duration::from_secs(3);
/// How long an initial response may wait for a rate limit.
const CALLBACK_PATIENCE: Duration = Duration::from_millis(800);
/// How long a followup waits for a rate limit (the token lasts 15 minutes).
const FOLLOWUP_PATIENCE: Duration = Duration::from_secs(120);
/// The longest thread name Discord accepts.
const MAX_THREAD_NAME: usize = 100;

/// The initial response, as far as it went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gate {
    /// Nothing sent yet.
    Waiting,
    /// Deferred (publicly, or privately): the answer fills it.
    Deferred { private: bool },
    /// The answer is being given: the timer must not defer any more.
    Answering,
    /// Discord no longer takes an initial response (too late).
    Expired,
}

/// Where an interaction came from and who sent it.
pub struct Asked<'a> {
    pub id: u64,
    pub token: &'a str,
    /// The channel's platform id, as the service names it.
    pub channel: &'a str,
    pub user: u64,
    /// The command's answer is secret: defer privately.
    pub secret: bool,
    /// Older than Discord's deadline on arrival.
    pub late: bool,
}

/// Answers one interaction.
pub struct Responder<'a> {
    rest: &'a Arc<Rest>,
    courier: &'a Courier,
    i18n: &'a I18n,
    lang: Lang,
    id: u64,
    token: String,
    channel: String,
    user: u64,
    secret: bool,
    gate: Arc<tokio::sync::Mutex<Gate>>,
}

impl<'a> Responder<'a> {
    pub fn new(
        rest: &'a Arc<Rest>,
        courier: &'a Courier,
        i18n: &'a I18n,
        lang: Lang,
        asked: Asked<'_>,
    ) -> Responder<'a> {
        let gate = if asked.late {
            Gate::Expired
        } else {
            Gate::Waiting
        };
        Responder {
            rest,
            courier,
            i18n,
            lang,
            id: asked.id,
            token: asked.token.to_owned(),
            channel: asked.channel.to_owned(),
            user: asked.user,
            secret: asked.secret,
            gate: Arc::new(tokio::sync::Mutex::new(gate)),
        }
    }

    /// Answers privately with a text the adapter made itself (a refusal, a
    /// question with its buttons).
    pub async fn refuse(&self, message: Outgoing) {
        if *self.gate.lock().await == Gate::Expired {
            let reply = Reply {
                channel: self.channel.clone(),
                to: Some(self.user.to_string()),
                ephemeral: true,
                text: message.content.clone(),
                ..Reply::default()
            };
            self.deliver_late(vec![reply], None).await;
            return;
        }
        if let Err(failure) = self.respond(&message.response_body()).await {
            tracing::warn!(%failure, "an interaction's answer was refused");
        }
    }

    /// Awaits `work`; if it is slow, tells Discord the answer is coming
    /// (privately for a secret command).
    ///
    /// The timer is a task of its own: work that blocks its thread (the
    /// database waiting for another process's lock, a picture being drawn)
    /// cannot hold the acknowledgement back past Discord's 3 seconds.
    pub async fn answer_in_time<T>(&self, work: impl Future<Output = T>) -> T {
        let timer = tokio::spawn({
            let gate = Arc::clone(&self.gate);
            let rest = Arc::clone(self.rest);
            let (id, token, private) = (self.id, self.token.clone(), self.secret);
            async move {
                tokio::time::sleep(DEFER_AFTER).await;
                let mut gate = gate.lock().await;
                if *gate != Gate::Waiting {
                    return;
                }
                let flags = if private { EPHEMERAL } else { 0 };
                let body = Body::Json(json!({ "type": 5, "data": { "flags": flags } }));
                *gate = match callback(&rest, id, &token, body).await {
                    Ok(_) => Gate::Deferred { private },
                    Err(failure) if failure.code == code::UNKNOWN_INTERACTION => Gate::Expired,
                    Err(failure) => {
                        tracing::warn!(%failure, "deferring an interaction failed");
                        Gate::Waiting
                    }
                };
            }
        });
        let done = work.await;
        // Waits while a deferral is being sent; after this the timer does nothing.
        let mut gate = self.gate.lock().await;
        timer.abort();
        if *gate == Gate::Waiting {
            *gate = Gate::Answering;
        }
        done
    }

    async fn respond(&self, body: &Body) -> Result<Value, Failure> {
        callback(self.rest, self.id, &self.token, body.clone()).await
    }

    fn webhook(&self, method: Method, suffix: &str, body: Body) -> Call {
        let app = self.rest.application();
        Call::new(
            method,
            "webhooks/{app}/{token}",
            &self.token,
            format!("webhooks/{app}/{}{suffix}", self.token),
            body,
        )
    }

    /// A followup; the message Discord made of it.
    async fn follow_up(&self, message: &Outgoing) -> Result<Value, Failure> {
        let call = self.webhook(Method::Post, "", message.body(None));
        self.rest.send(&call, FOLLOWUP_PATIENCE).await
    }
}

/// The service's replies to one act, sent in order, and how far they got.
pub struct Answer<'s> {
    pub replies: Vec<Reply>,
    pub key: Option<String>,
    pub service: &'s Service,
    /// Open a thread on a new game's message.
    pub threads: bool,
    /// The clicked message whose buttons the answer closes (channel,
    /// message), when the act succeeds.
    pub close: Option<(u64, u64)>,
    pub time: &'s dyn TimeSource,
}

/// Which replies went out: the outbox takes over from the first that did not.
struct Progress<'s> {
    done: Vec<bool>,
    reported: usize,
    key: Option<String>,
    service: &'s Service,
    time: &'s dyn TimeSource,
}

impl Progress<'_> {
    /// Marks `items` delivered (or refused for good) and, while some are
    /// still to go, records with the service how far the answer got without
    /// a gap (and restarts its hold), before the next message is sent. The
    /// last one needs no write: [`Service::answered`] settles the act.
    async fn settle(&mut self, items: impl IntoIterator<Item = usize>) {
        for n in items {
            if let Some(done) = self.done.get_mut(n) {
                *done = true;
            }
        }
        let through = self.done.iter().take_while(|d| **d).count();
        if through > self.reported && through < self.done.len() {
            self.reported = through;
            if let Some(key) = &self.key {
                let now = self.time.now();
                self.service.delivering(key, through as u32, 0, now).await;
            }
        }
    }

    fn all_out(&self) -> bool {
        self.done.iter().all(|d| *d)
    }
}

/// One message of the answer here, and the replies it carries.
struct Planned {
    message: Outgoing,
    items: Vec<usize>,
}

impl Responder<'_> {
    /// Sends an act's replies: the first here answers the interaction, the
    /// others here follow it, the rest go where they belong. Says whether
    /// every one went out.
    pub async fn deliver(&self, answer: Answer<'_>) -> bool {
        let mut progress = Progress {
            done: vec![false; answer.replies.len()],
            reported: 0,
            key: answer.key.clone(),
            service: answer.service,
            time: answer.time,
        };
        if *self.gate.lock().await == Gate::Expired {
            let all: Vec<usize> = (0..answer.replies.len()).collect();
            return self.late_rest(&answer, &all, &mut progress).await;
        }
        let (here, elsewhere): (Vec<usize>, Vec<usize>) =
            (0..answer.replies.len()).partition(|&n| {
                let r = &answer.replies[n];
                !r.direct && r.channel == self.channel
            });
        let plan = self.plan(&answer.replies, &here).await;
        let accepted = answer.replies.first().is_some_and(|r| !r.ephemeral);
        let close = answer.close.filter(|_| accepted);
        let new_game = here
            .iter()
            .copied()
            .find(|&n| matches!(answer.replies[n].prompt, Prompt::NewGame { .. }))
            .filter(|_| answer.threads);
        let (sent_here, announced) = self.send_here(plan, close, new_game, &mut progress).await;
        if sent_here < here.len() && *self.gate.lock().await == Gate::Expired {
            // Discord no longer knows the interaction: the rest as posts.
            let left: Vec<usize> = here[sent_here..].to_vec();
            self.late_rest(&answer, &left, &mut progress).await;
        }
        if let Some(n) = new_game {
            self.open_thread(&answer.replies[n], announced).await;
        }
        self.send_elsewhere(&answer, &elsewhere, &mut progress)
            .await;
        progress.all_out()
    }

    /// The messages for the replies `here`, plain ones in a row together.
    async fn plan(&self, replies: &[Reply], here: &[usize]) -> Vec<Planned> {
        let mut plan = Vec::new();
        let mut at = 0;
        while at < here.len() {
            let run = here[at..]
                .iter()
                .take_while(|&&n| is_plain(&replies[n]))
                .count();
            if run > 1 {
                let items: Vec<usize> = here[at..at + run].to_vec();
                let chosen: Vec<&Reply> = items.iter().map(|&n| &replies[n]).collect();
                let parts = self.courier.parts(&chosen).await;
                let messages = super::digest::digest(&parts, self.i18n, self.lang);
                let last = messages.len().saturating_sub(1);
                for (k, message) in messages.into_iter().enumerate() {
                    // The replies count as out with the digest's last message.
                    let covered = if k == last { items.clone() } else { Vec::new() };
                    plan.push(Planned {
                        message,
                        items: covered,
                    });
                }
                at += run;
            } else {
                let n = here[at];
                let message = Outgoing::from_reply(&replies[n], self.i18n, self.lang);
                plan.push(Planned {
                    message,
                    items: vec![n],
                });
                at += 1;
            }
        }
        plan
    }

    /// Sends the planned messages here; how many of the replies here went
    /// out before one failed, and the message Discord made of the reply
    /// `announcing` (when it said).
    async fn send_here(
        &self,
        plan: Vec<Planned>,
        close: Option<(u64, u64)>,
        announcing: Option<usize>,
        progress: &mut Progress<'_>,
    ) -> (usize, Option<Value>) {
        let mut sent = 0;
        let mut announced = None;
        if plan.is_empty() {
            // The service always answers; never leave the user with "thinking...".
            let text = self.i18n.text(self.lang, "discord-done", &[]);
            let message = Outgoing::private(&text, self.i18n, self.lang);
            let _ = self.answer_first(&message, close).await;
            return (0, None);
        }
        for (k, planned) in plan.into_iter().enumerate() {
            let result = if k == 0 {
                self.answer_first(&planned.message, close).await
            } else {
                self.follow_up(&planned.message).await
            };
            match result {
                Ok(message) => {
                    if announcing.is_some_and(|n| planned.items.contains(&n)) {
                        announced = Some(message).filter(|m| !m.is_null());
                    }
                }
                Err(failure) => {
                    tracing::warn!(%failure, "an interaction's answer was not taken");
                    return (sent, announced);
                }
            }
            sent += planned.items.len();
            progress.settle(planned.items).await;
        }
        (sent, announced)
    }

    /// The first message here: the interaction's response, or what fills
    /// its deferral.
    async fn answer_first(
        &self,
        message: &Outgoing,
        close: Option<(u64, u64)>,
    ) -> Result<Value, Failure> {
        let mut gate = self.gate.lock().await;
        match *gate {
            Gate::Expired => Err(expired()),
            Gate::Waiting | Gate::Answering => {
                // The click's own answer closes its message; the answer
                // follows. Should Discord not take the update, the answer
                // itself is the response.
                let updated = match close {
                    Some(_) => {
                        let update = Body::Json(json!({ "type": 7, "data": { "components": [] } }));
                        self.respond(&update).await.map(|_| ())
                    }
                    None => Err(expired()),
                };
                let result = match &updated {
                    Ok(()) => Ok(()),
                    Err(failure)
                        if close.is_some() && failure.code == code::UNKNOWN_INTERACTION =>
                    {
                        updated.clone()
                    }
                    Err(_) => self.respond(&message.response_body()).await.map(|_| ()),
                };
                *gate = match &result {
                    Err(failure) if failure.code == code::UNKNOWN_INTERACTION => Gate::Expired,
                    _ => Gate::Answering,
                };
                drop(gate);
                match (result, updated) {
                    (Ok(()), Ok(())) => self.follow_up(message).await,
                    (result, _) => result.map(|()| Value::Null),
                }
            }
            Gate::Deferred { private } => {
                drop(gate);
                if let Some((channel, id)) = close {
                    self.close_buttons(channel, id).await;
                }
                self.fill_deferral(message, private).await
            }
        }
    }

    /// Fills a deferral with `message`, never letting a private text show
    /// publicly nor a public one stay private.
    async fn fill_deferral(&self, message: &Outgoing, private: bool) -> Result<Value, Failure> {
        let edit = |message: &Outgoing| {
            let body = message.wrap_edit();
            self.webhook(Method::Patch, "/messages/@original", body)
        };
        if message.ephemeral == private {
            return self.rest.send(&edit(message), FOLLOWUP_PATIENCE).await;
        }
        if message.ephemeral {
            // A public deferral: removed (or else made neutral), then the
            // private text as a followup of its own.
            let delete = self.webhook(Method::Delete, "/messages/@original", Body::None);
            if self.rest.send(&delete, FOLLOWUP_PATIENCE).await.is_err() {
                let neutral = self.i18n.text(self.lang, "discord-answered-privately", &[]);
                self.rest
                    .send(&edit(&Outgoing::text(&neutral)), FOLLOWUP_PATIENCE)
                    .await?;
            }
            return self.follow_up(message).await;
        }
        // A private deferral of a public answer: it says so privately, and
        // the answer follows for everyone.
        let done = self.i18n.text(self.lang, "discord-done", &[]);
        self.rest
            .send(&edit(&Outgoing::text(&done)), FOLLOWUP_PATIENCE)
            .await?;
        self.follow_up(message).await
    }

    /// Takes the buttons off a clicked message through its channel (when
    /// the click's response was already a deferral).
    async fn close_buttons(&self, channel: u64, message: u64) {
        let call = Call::new(
            Method::Patch,
            "channels/{id}/messages/{id}",
            &channel.to_string(),
            format!("channels/{channel}/messages/{message}"),
            Body::Json(json!({ "components": [] })),
        );
        if let Err(failure) = self.rest.send(&call, FOLLOWUP_PATIENCE).await {
            tracing::debug!(%failure, "closing a message's buttons failed");
        }
    }

    /// Sends the replies for other places through the courier.
    async fn send_elsewhere(
        &self,
        answer: &Answer<'_>,
        items: &[usize],
        progress: &mut Progress<'_>,
    ) {
        if items.is_empty() {
            return;
        }
        let batch: Vec<Item> = items
            .iter()
            .map(|&n| Item {
                reply: answer.replies[n].clone(),
                id: answer.key.clone().map(|key| (key, n as u32)),
            })
            .collect();
        let outcomes = self.courier.send_all(batch).await;
        let settled = items
            .iter()
            .zip(outcomes)
            .filter(|(_, sent)| matches!(sent, Sent::Delivered | Sent::Refused(_)))
            .map(|(&n, _)| n);
        progress.settle(settled.collect::<Vec<_>>()).await;
    }

    /// The answer of an interaction Discord no longer takes: public replies
    /// as posts in their channels, private ones as direct messages.
    async fn late_rest(
        &self,
        answer: &Answer<'_>,
        items: &[usize],
        progress: &mut Progress<'_>,
    ) -> bool {
        tracing::info!(
            interaction = self.id,
            "an interaction came too late to be answered directly; its answer goes out as messages"
        );
        let replies: Vec<Reply> = items.iter().map(|&n| answer.replies[n].clone()).collect();
        let outcomes = self.deliver_late(replies, answer.key.clone()).await;
        let settled: Vec<usize> = items
            .iter()
            .zip(&outcomes)
            .filter(|(_, sent)| matches!(sent, Sent::Delivered | Sent::Refused(_)))
            .map(|(&n, _)| n)
            .collect();
        progress.settle(settled).await;
        progress.all_out()
    }

    async fn deliver_late(&self, replies: Vec<Reply>, key: Option<String>) -> Vec<Sent> {
        let items: Vec<Item> = replies
            .into_iter()
            .enumerate()
            .map(|(n, mut reply)| {
                if reply.ephemeral {
                    // Only its reader may see it: by direct message, and
                    // never in a channel in words.
                    reply.ephemeral = false;
                    reply.direct = true;
                    reply.secret = true;
                }
                Item {
                    reply,
                    id: key.clone().map(|key| (format!("late:{key}"), n as u32)),
                }
            })
            .collect();
        self.courier.send_all(items).await
    }

    /// Starts a thread on the message that announced a new game (the one
    /// Discord made of a followup, else the interaction's response), named
    /// after the game (`#12 alice – bob`): acts in it are the game's
    /// channel's ([`super::origin::game_thread`]). The thread's id.
    async fn open_thread(&self, reply: &Reply, announced: Option<Value>) -> Option<String> {
        let board = reply.board.as_ref()?;
        let message = match announced {
            Some(message) => message,
            None => {
                let get = self.webhook(Method::Get, "/messages/@original", Body::None);
                self.rest.send(&get, FOLLOWUP_PATIENCE).await.ok()?
            }
        };
        let made = super::rest::Made::of(&message);
        // Only in the channel itself (an interaction in a thread answers in it).
        let (Some(channel), id) = (made.channel_id.filter(|c| *c == self.channel), made.id) else {
            return None;
        };
        if id.is_empty() {
            return None;
        }
        let name: String = format!("#{} {} – {}", board.game, board.white, board.black)
            .chars()
            .take(MAX_THREAD_NAME)
            .collect();
        #[derive(serde::Serialize)]
        struct NewThread {
            name: String,
            #[serde(rename = "type")]
            kind: u8,
        }
        let thread = NewThread { name, kind: 11 };
        let call = Call::new(
            Method::Post,
            "channels/{id}/messages/{id}/threads",
            &channel,
            format!("channels/{channel}/messages/{id}/threads"),
            Body::Json(serde_json::to_value(thread).unwrap_or(Value::Null)),
        );
        match self.rest.send(&call, FOLLOWUP_PATIENCE).await {
            Ok(thread) => Some(super::rest::Made::of(&thread).id).filter(|id| !id.is_empty()),
            Err(failure) => {
                tracing::info!(%failure, "could not open a game's thread");
                None
            }
        }
    }
}

/// An interaction's callback (its initial response).
async fn callback(rest: &Rest, id: u64, token: &str, body: Body) -> Result<Value, Failure> {
    let call = Call::new(
        Method::Post,
        "interactions/{id}/{token}/callback",
        &id.to_string(),
        format!("interactions/{id}/{token}/callback"),
        body,
    );
    rest.send(&call, CALLBACK_PATIENCE).await
}

fn expired() -> Failure {
    Failure {
        status: 404,
        code: code::UNKNOWN_INTERACTION,
        message: "the interaction is too old to answer".to_owned(),
        retry_after: None,
    }
}
