//! Sending replies: as an interaction's response (deferred when the
//! service is slow), as followups, in other channels, or as direct
//! messages; and the scheduler's notices through [`DiscordNotifier`].

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serenity::all::{
    ChannelId, ChannelType, Context, CreateInteractionResponse, CreateInteractionResponseMessage,
    CreateThread, EditMessage, Http, InteractionId, MessageId,
};
use serenity::builder::Builder;

use super::replies::{Outgoing, user_id};
use super::rest::{error_code, is_transient, with_retries};
use crate::core::notation::Lang;
use crate::i18n::I18n;
use crate::service::{NoticeId, Prompt, Reply, Sent};

/// Discord wants an answer within 3 seconds: past this, defer and follow up.
const DEFER_AFTER: Duration = Duration::from_millis(1500);
/// The longest thread name Discord accepts.
const MAX_THREAD_NAME: usize = 100;

/// Who gives an interaction its initial response: the deferral timer, or
/// the answer once the work is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gate {
    /// Neither yet.
    Waiting,
    /// The timer deferred: the answer fills the deferred message.
    Deferred,
    /// The answer is being given: the timer must not defer any more.
    Answering,
}

/// A reply and its place in the act's answer.
type Numbered = (usize, Reply);

/// Answers one interaction.
pub struct Responder<'a> {
    http: &'a Arc<Http>,
    id: InteractionId,
    token: String,
    /// The place the interaction came from, as the service names it.
    channel: String,
    deferred: AtomicBool,
}

impl<'a> Responder<'a> {
    pub fn new(ctx: &'a Context, id: InteractionId, token: &str, channel: &str) -> Responder<'a> {
        Responder {
            http: &ctx.http,
            id,
            token: token.to_owned(),
            channel: channel.to_owned(),
            deferred: AtomicBool::new(false),
        }
    }

    /// Answers with a message the adapter made itself (a refusal, a question).
    pub async fn refuse(&self, message: Outgoing) {
        self.respond(&message).await;
    }

    /// Awaits `work`; if it is slow, tells Discord the answer is coming.
    ///
    /// The timer is a task of its own: work that blocks its thread (the
    /// database waiting for another process's lock, a picture being drawn)
    /// cannot hold the acknowledgement back past Discord's 3 seconds.
    pub async fn answer_in_time<T>(&self, work: impl Future<Output = T>) -> T {
        let gate = Arc::new(tokio::sync::Mutex::new(Gate::Waiting));
        let timer = tokio::spawn({
            let gate = Arc::clone(&gate);
            let http = Arc::clone(self.http);
            let (id, token) = (self.id, self.token.clone());
            async move {
                tokio::time::sleep(DEFER_AFTER).await;
                let mut gate = gate.lock().await;
                if *gate == Gate::Waiting {
                    let defer =
                        CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new());
                    let sent =
                        with_retries("deferring", || defer.clone().execute(&http, (id, &token)))
                            .await;
                    if sent.is_ok() {
                        *gate = Gate::Deferred;
                    }
                }
            }
        });
        let done = work.await;
        // Waits while a deferral is being sent; after this the timer does nothing.
        let mut gate = gate.lock().await;
        timer.abort();
        self.deferred
            .store(*gate == Gate::Deferred, Ordering::SeqCst);
        *gate = Gate::Answering;
        done
    }

    /// Whether Discord took the answer.
    async fn respond(&self, message: &Outgoing) -> bool {
        with_retries("answering an interaction", || {
            CreateInteractionResponse::Message(message.to_response())
                .execute(self.http, (self.id, &self.token))
        })
        .await
        .is_ok()
    }

    async fn follow_up(&self, message: &Outgoing) -> bool {
        with_retries("following up", || {
            message
                .to_followup()
                .execute(self.http, (None, &self.token))
        })
        .await
        .is_ok()
    }

    /// Sends the service's replies to the act `key`: the first one here
    /// answers the interaction, the others here follow it, the rest go where
    /// they belong. Says whether every one went out.
    pub async fn deliver(
        &self,
        replies: Vec<Reply>,
        key: Option<&str>,
        i18n: &I18n,
        lang: Lang,
        threads: bool,
    ) -> bool {
        // Each with its place in the answer, which names it (`NoticeId`).
        let (here, elsewhere): (Vec<Numbered>, Vec<Numbered>) = replies
            .into_iter()
            .enumerate()
            .partition(|(_, r)| !r.direct && r.channel == self.channel);
        let mut first = true;
        let mut all_out = true;
        for (_, reply) in &here {
            let message = Outgoing::from_reply(reply, i18n, lang);
            all_out &= if first {
                first = false;
                self.answer_first(&message).await
            } else {
                self.follow_up(&message).await
            };
        }
        if first {
            // The service always answers; never leave the user with "thinking...".
            let text = i18n.text(lang, "discord-done", &[]);
            self.answer_first(&Outgoing::private(&text)).await;
        }
        let new_game = here
            .iter()
            .map(|(_, reply)| reply)
            .find(|r| matches!(r.prompt, Prompt::NewGame { .. }));
        if let Some(reply) = new_game.filter(|_| threads) {
            self.open_thread(reply).await;
        }
        for (item, reply) in elsewhere {
            let id = key.map(|act_key| NoticeId {
                act_key,
                item: item as u32,
            });
            all_out &= send_elsewhere(self.http, &reply, id, i18n, lang).await == Sent::Delivered;
        }
        all_out
    }

    async fn answer_first(&self, message: &Outgoing) -> bool {
        if !self.deferred.load(Ordering::SeqCst) {
            return self.respond(message).await;
        }
        if message.ephemeral {
            // A deferred answer is public: replace it with a private followup.
            let _ = with_retries("deleting the deferred answer", || {
                self.http.delete_original_interaction_response(&self.token)
            })
            .await;
            return self.follow_up(message).await;
        }
        with_retries("filling the deferred answer", || {
            message.to_edit().execute(self.http, &self.token)
        })
        .await
        .is_ok()
    }

    /// Starts a thread on the message that announced a new game.
    async fn open_thread(&self, reply: &Reply) {
        let Some(board) = &reply.board else { return };
        let Ok(message) = with_retries("reading the answer", || {
            self.http.get_original_interaction_response(&self.token)
        })
        .await
        else {
            return;
        };
        // Only in the channel itself (an interaction in a thread answers in it).
        if message.channel_id.get().to_string() != self.channel {
            return;
        }
        let name: String = format!("#{} {} – {}", board.game, board.white, board.black)
            .chars()
            .take(MAX_THREAD_NAME)
            .collect();
        let _ = with_retries("opening a thread", || {
            CreateThread::new(name.clone())
                .kind(ChannelType::PublicThread)
                .execute(self.http, (message.channel_id, Some(message.id)))
        })
        .await;
    }
}

/// Takes the buttons off the bot's message `message` in `channel`.
pub async fn close_buttons(http: &Arc<Http>, channel: ChannelId, message: MessageId) {
    let _ = with_retries("closing a message's buttons", || {
        channel.edit_message(
            http.as_ref(),
            message,
            EditMessage::new().components(Vec::new()),
        )
    })
    .await;
}

/// Discord's codes for a message it will not take where it was sent.
const MISSING_ACCESS: isize = 50001;
const MISSING_PERMISSIONS: isize = 50013;
const CANNOT_MESSAGE_USER: isize = 50007;

/// A reply for another channel, or for a user's direct messages, and what
/// became of it: a failure Discord may get over (a rate limit, a server
/// error, no connection) is worth another try later; any other is final.
/// `id` names the notice, so a repeated post shows once.
///
/// Where Discord refuses, the reader is still told: a channel the bot may
/// not attach files in gets the board as a text diagram; a channel it may
/// not write in at all, a direct message; closed direct messages, the
/// channel with a mention.
async fn send_elsewhere(
    http: &Arc<Http>,
    reply: &Reply,
    id: Option<NoticeId<'_>>,
    i18n: &I18n,
    lang: Lang,
) -> Sent {
    let nonce = |part: u32| id.map(|id| id.token(part));
    let outcome = |error: serenity::Error| {
        if is_transient(&error) {
            Sent::Retry(error.to_string())
        } else {
            Sent::Refused(error.to_string())
        }
    };
    if reply.direct || reply.ephemeral {
        // Ephemeral answers exist only for an interaction: tell the user privately.
        let error = match post_direct(http, reply, nonce(0), i18n, lang).await {
            Ok(()) => return Sent::Delivered,
            Err(error) => error,
        };
        if error_code(&error) != Some(CANNOT_MESSAGE_USER) || reply.ephemeral {
            return outcome(error);
        }
        let mut in_channel = reply.clone();
        in_channel.direct = false;
        return match post_in_channel(http, &in_channel, nonce(1), i18n, lang).await {
            Ok(()) => Sent::Delivered,
            Err(error) => outcome(error),
        };
    }
    let error = match post_in_channel(http, reply, nonce(0), i18n, lang).await {
        Ok(()) => return Sent::Delivered,
        Err(error) => error,
    };
    let code = error_code(&error);
    if code == Some(MISSING_PERMISSIONS) && !reply.attachments.is_empty() {
        // Perhaps only Attach Files is missing: the board as text.
        let text_only = without_files(reply);
        if post_in_channel(http, &text_only, nonce(1), i18n, lang)
            .await
            .is_ok()
        {
            return Sent::Delivered;
        }
    }
    if !matches!(code, Some(MISSING_ACCESS | MISSING_PERMISSIONS)) {
        return outcome(error);
    }
    let mut direct = reply.clone();
    direct.direct = true;
    match post_direct(http, &direct, nonce(2), i18n, lang).await {
        Ok(()) => Sent::Delivered,
        Err(error) => outcome(error),
    }
}

/// `reply` without its files: a board shows as a fenced text diagram.
fn without_files(reply: &Reply) -> Reply {
    let mut text_only = reply.clone();
    text_only.attachments.clear();
    if let Some(board) = text_only.board.take() {
        let black_below = board.orientation == "black";
        text_only.diagram = text_only
            .diagram
            .or_else(|| crate::render::text::diagram_of_fen(&board.fen, black_below));
    }
    text_only
}

/// Posts `reply` in its channel.
async fn post_in_channel(
    http: &Arc<Http>,
    reply: &Reply,
    nonce: Option<String>,
    i18n: &I18n,
    lang: Lang,
) -> Result<(), serenity::Error> {
    let Some(channel) = reply.channel.parse::<u64>().ok().filter(|id| *id != 0) else {
        return Err(serenity::Error::Other("not a Discord channel"));
    };
    let message = Outgoing::from_reply(reply, i18n, lang);
    post(http, ChannelId::new(channel), &message, nonce).await
}

/// Posts `reply` in a direct message to the user it addresses.
async fn post_direct(
    http: &Arc<Http>,
    reply: &Reply,
    nonce: Option<String>,
    i18n: &I18n,
    lang: Lang,
) -> Result<(), serenity::Error> {
    let Some(user) = reply.to.as_deref().and_then(user_id) else {
        return Err(serenity::Error::Other("no user to write to"));
    };
    let mut message = Outgoing::from_reply(reply, i18n, lang);
    message.ephemeral = false;
    let dm = with_retries("opening a direct message", || {
        user.create_dm_channel(http.as_ref())
    })
    .await?;
    post(http, dm.id, &message, nonce).await
}

async fn post(
    http: &Arc<Http>,
    channel: ChannelId,
    message: &Outgoing,
    nonce: Option<String>,
) -> Result<(), serenity::Error> {
    with_retries("posting a message", || {
        message
            .to_message(nonce.clone())
            .execute(http.as_ref(), (channel, None))
    })
    .await
    .map(|_| ())
}

/// Posts the scheduler's notices (flags, reminders, leave) on Discord.
#[derive(Clone)]
pub struct DiscordNotifier {
    http: Arc<Http>,
    i18n: Arc<I18n>,
    lang: Lang,
}

impl DiscordNotifier {
    pub fn new(http: Arc<Http>, lang: Lang) -> DiscordNotifier {
        DiscordNotifier {
            http,
            i18n: Arc::new(I18n::new()),
            lang,
        }
    }
}

impl crate::service::Notifier for DiscordNotifier {
    fn platform(&self) -> crate::core::platform::Platform {
        crate::core::platform::Platform::Discord
    }

    async fn deliver(&self, replies: Vec<Reply>) {
        for reply in replies {
            send_elsewhere(&self.http, &reply, None, &self.i18n, self.lang).await;
        }
    }

    async fn send(&self, reply: Reply, id: NoticeId<'_>) -> Sent {
        send_elsewhere(&self.http, &reply, Some(id), &self.i18n, self.lang).await
    }
}
