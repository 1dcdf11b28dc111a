//! The service: the one place that joins the store, the rules core and the
//! message catalogues.
//!
//! Every adapter turns what a user did into a [`Request`] and calls
//! [`Service::handle`]; it gets back [`Reply`]s ready to send, with their
//! board images drawn when the request's readers see them
//! ([`BoardImages`]; drawn last, after the commit). For each act the
//! service reads what it needs, lets the core decide, and commits every
//! change in one store transaction before it answers. An act's idempotency
//! key makes a replay change nothing and return the first answer: the
//! answer of every keyed act that may change something is stored under its
//! key, refusals and unreadable commands included, so a replay is refused
//! alike however the game moved on. Acts that only look (`/board`, `/pgn`…)
//! are answered afresh each time: repeating them changes nothing.
//!
//! What happens without a user (flag falls, reminders, tournament rounds)
//! comes from [`Service::run_due`], which queues its notices in the outbox;
//! [`Service::deliver_notices`] hands them to a [`Notifier`]: the
//! interface the chat adapters implement, defined here
//! with [`TimeSource`], so adapters and the scheduler depend on the service
//! and not on each other.

mod cache;
mod challenges;
pub mod check;
pub mod choice;
mod club_matches;
mod clubs;
mod conditionals;
mod cross;
mod deadlines;
mod digest;
mod game_end;
mod games;
mod handoff;
mod help;
mod import;
mod info;
mod ladder;
mod leave;
mod links;
mod matches;
mod moderation;
mod notation;
mod notes;
mod notifier;
mod openings;
mod outbox;
mod pictures;
mod presence;
mod puzzles;
mod ratings;
mod renders;
mod review;
mod reviewer;
mod suggest;
mod teams;
mod texts;
mod time;
mod tournament_flow;
mod tournament_places;
mod tournaments;
mod votes;
mod wake;
pub mod web;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use crate::core::choices::Notify;
use crate::core::command::{self, Command};
use crate::core::event::Event;
use crate::core::names::Named;
use crate::core::notation::Lang;
use crate::core::platform::Platform;
use crate::i18n::{self, Arg, I18n};
use crate::storage::{
    ActRequest, ChannelGames, ChannelRow, Commit, Committed, OpenedAct, PlayerRow, ServerDefaults,
    ServerRow, StorageError, Store,
};

pub use help::{discord_tree, reference as command_reference};
pub use import::{ImportOutcome, ImportTarget, ImportedGame};
pub use moderation::Moderation;
pub use notifier::{NoticeId, Notifier, Sent};
pub use renders::RenderLimits;
pub use reviewer::ReviewSettings;
pub use texts::command_error_text;
pub use time::{SystemTime, TimeSource, TokioTime};
pub use wake::SchedulerWake;

/// Games kept rebuilt between acts (about 20 KB each for an 80-ply game).
const CACHED_GAMES: usize = 2048;

/// How many times an act is retried when the data changed under it.
const MAX_ATTEMPTS: usize = 8;

/// Settings the service needs from the configuration.
#[derive(Clone, Debug)]
pub struct ServiceConfig {
    pub default_language: Lang,
    pub default_time_control: String,
    /// How long a challenge stays open.
    pub challenge_expiry: Duration,
    /// Remind the player to move when this fraction of the time for the
    /// move is used (`None`: never).
    pub remind_when_used: Option<f64>,
    /// Remind the player to move this long before the flag (`None`: never).
    pub remind_before_flag: Option<Duration>,
    /// Days of leave each player may take per server and calendar year.
    pub leave_days_per_year: u32,
    /// Named date ranges for `standings season:NAME`.
    pub seasons: Vec<crate::competition::standings::Season>,
    /// How Glicko-2 ratings are computed.
    pub ratings: crate::competition::glicko2::RatingSettings,
    /// Attach a board PNG to every reply that shows a position.
    pub board_images: bool,
    /// The board images' width in pixels (240..=1024).
    pub board_size: u32,
    pub board_theme: crate::render::Theme,
    /// How the challenge ladder runs.
    pub ladder: crate::competition::ladder::LadderSettings,
    /// Open challenges one player may have at once; 0: no limit.
    pub max_open_challenges: u32,
    /// How many game GIFs are drawn, and how often one player may ask.
    pub renders: RenderLimits,
    /// How long a user's act is left to the process that answers it before
    /// the outbox worker delivers its notices instead (see `handoff`).
    pub notice_handoff: Duration,
    /// Engine reviews of finished games.
    pub reviews: ReviewSettings,
    /// The most players each tournament system takes.
    pub tournament_limits: crate::competition::tournament::Limits,
    /// The web pages' public address (`[web] public_url`): replies carry
    /// a game's link when it is set.
    pub web_url: Option<String>,
}

impl Default for ServiceConfig {
    fn default() -> ServiceConfig {
        ServiceConfig {
            default_language: Lang::En,
            default_time_control: "3d".to_owned(),
            challenge_expiry: Duration::days(7),
            remind_when_used: Some(0.8),
            remind_before_flag: Some(Duration::hours(24)),
            leave_days_per_year: 45,
            ratings: crate::competition::glicko2::RatingSettings::default(),
            seasons: Vec::new(),
            board_images: true,
            board_size: 480,
            board_theme: crate::render::Theme::Brown,
            ladder: crate::competition::ladder::LadderSettings::default(),
            max_open_challenges: 20,
            renders: RenderLimits::default(),
            notice_handoff: Duration::seconds(30),
            reviews: ReviewSettings::default(),
            tournament_limits: crate::competition::tournament::Limits::default(),
            web_url: None,
        }
    }
}

/// The user behind an act, as their platform knows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    pub id: String,
    pub name: String,
    /// The chat client's locale (`fr`, `en-US`), if it sends one.
    pub locale: Option<String>,
    /// What the platform vouches this user moderates where the act was
    /// sent (Discord: Manage Server or a moderator role moderate the server;
    /// Matrix: see `adapters::matrix`). The service checks it against where
    /// each game or tournament lives.
    pub moderation: Moderation,
}

/// What the user asked for: text to parse, or a command an adapter built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Text(String),
    Command(Command),
    /// An edit of an earlier message, the act `original` (its key), to
    /// `text`. Carried out as `text` if the earlier message changed
    /// nothing (it was no act, only looked, or was refused); else answered
    /// that edits are not carried out: a move cannot be taken back.
    Edit {
        original: String,
        text: String,
    },
}

/// One thing a user did, from any platform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub platform: Platform,
    /// The community's platform id (guild, space, console server name).
    pub server: String,
    /// The channel's platform id.
    pub channel: String,
    pub user: User,
    /// The interaction or event id; `None` when the act cannot be replayed.
    pub key: Option<String>,
    pub input: Input,
    /// Whether the replies' readers see board images.
    pub board_images: BoardImages,
}

/// Whether the readers of some replies see board images. Drawing is the
/// costliest part of an answer (2–3 ms a board at 480–720 px), so a caller
/// whose readers see only text (the console's text output, a benchmark)
/// asks for none. With [`ServiceConfig::board_images`] off, none are drawn
/// either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardImages {
    /// Every reply that shows a position gets its board PNG (`board.png`).
    Drawn,
    /// Replies keep their [`BoardView`] but carry no image.
    Omitted,
}

/// A game event with the game it happened in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameEvent {
    pub game: i64,
    #[serde(flatten)]
    pub event: Event,
}

/// A tournament's or team match's pairing news, by player name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TournamentEvent {
    Pairing {
        tournament: i64,
        round: u32,
        game: i64,
        white: String,
        black: String,
    },
    Bye {
        tournament: i64,
        round: u32,
        player: String,
        /// What the bye is worth: 1, 0.5 or 0.
        points: f64,
    },
    /// A team match's game, created at its start.
    MatchPairing {
        #[serde(rename = "match")]
        team_match: i64,
        board: u32,
        game: i64,
        white: String,
        black: String,
        /// Whether the home team's player has White.
        home_white: bool,
    },
    /// A team match's final score, when its last game ended.
    MatchResult {
        #[serde(rename = "match")]
        team_match: i64,
        home: String,
        away: String,
        home_points: f64,
        away_points: f64,
    },
}

impl Eq for TournamentEvent {}

/// A position to show, for adapters that draw boards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardView {
    pub game: i64,
    pub fen: String,
    /// The last move in UCI, for highlighting.
    pub last_move: Option<String>,
    /// `white` or `black`: the side whose view to draw.
    pub orientation: String,
    pub white: String,
    pub black: String,
    /// When the flag of the side to move falls, while the game runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag_at: Option<DateTime<Utc>>,
    /// The result once the game is over, as PGN writes it (`1-0`, `1/2-1/2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// Each side's time left when the reply was made, in the reader's
    /// words (`2d 4h`), for the picture's caption.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white_clock: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_clock: Option<String>,
}

/// Something to show a user or a channel. `Reply::default()` is a plain
/// channel message: seen by all, no board, no files, no buttons.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
    /// The channel's platform id.
    pub channel: String,
    /// The user addressed (mentioned, or the only reader when `ephemeral`).
    pub to: Option<String>,
    /// Only `to` should see it (refusals and errors).
    pub ephemeral: bool,
    /// Send it to `to` as a direct message rather than in the channel.
    #[serde(default)]
    pub direct: bool,
    /// Only `to` may ever see it (their conditional moves): a platform with
    /// no private answer in a channel (Matrix) sends it as a direct message.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub secret: bool,
    pub text: String,
    pub events: Vec<GameEvent>,
    /// A tournament's new pairings and byes, for tools that check them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tournament_events: Vec<TournamentEvent>,
    pub board: Option<BoardView>,
    /// The position as a text diagram, to show after the text in a
    /// fixed-width font (fenced on Discord, `<pre>` on Matrix).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagram: Option<String>,
    /// Files to send with the text (a board PNG, a PGN, a GIF). Not stored
    /// with the act's answer: the service builds them again on a replay.
    #[serde(skip)]
    pub attachments: Vec<Attachment>,
    /// What readers may answer with, for adapters that show buttons.
    #[serde(default, skip_serializing_if = "Prompt::is_none")]
    pub prompt: Prompt,
    /// A kept engine review to attach (its graph and annotated PGN), drawn
    /// from the store when the reply is sent, in this language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review: Option<ReviewView>,
    /// The platform it is for, in an act that reaches two platforms (a game
    /// between two servers of a club): each platform's adapter and worker
    /// send only theirs (see `cross`). `None`: the act's own platform.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<Platform>,
}

impl Reply {
    /// Whether `platform`'s adapter or worker sends it.
    pub fn is_for(&self, platform: Platform) -> bool {
        self.platform.is_none_or(|p| p == platform)
    }
}

/// Which review a reply carries, and in whose language its graph is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewView {
    pub game: i64,
    pub lang: Lang,
}

/// What a reply invites its readers to do next (Discord shows buttons).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Prompt {
    #[default]
    None,
    /// An open challenge: accept or decline it.
    Challenge { challenge: i64 },
    /// A game just started (adapters may open a thread for it).
    NewGame { game: i64 },
    /// A running game after an act: look at the board, offer a draw, resign.
    Game { game: i64 },
    /// An ambiguous move was not played: the player picks one of `choices`
    /// (see [`choice`]).
    ChooseMove {
        game: i64,
        act: choice::ChoiceAct,
        choices: Vec<choice::MoveChoice>,
    },
}

impl Prompt {
    pub fn is_none(&self) -> bool {
        matches!(self, Prompt::None)
    }
}

/// A file sent with a reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attachment {
    /// The file name shown to readers (`board.png`, `game-12.pgn`).
    pub filename: String,
    /// Its MIME type (`image/png`, `application/x-chess-pgn`, `image/gif`).
    pub content_type: String,
    /// Shared, since one board may go to several readers.
    pub bytes: std::sync::Arc<[u8]>,
}

/// What the service knows about the act's surroundings.
#[derive(Clone, Debug)]
struct Context {
    act_key: Option<String>,
    platform: Platform,
    server: ServerRow,
    channel: ChannelRow,
    channel_platform_id: String,
    player: PlayerRow,
    /// The player's ongoing games in this channel when the act began.
    games_here: ChannelGames,
    /// What the platform vouches the player moderates, relative to
    /// `server` and `channel` (see [`Context::moderates`]).
    moderation: Moderation,
    /// The reader's language (see [`i18n::negotiate`]).
    lang: Lang,
    /// The server's language: its chosen one, else the configured default.
    server_lang: Lang,
    /// The instant the act happens.
    now: DateTime<Utc>,
    /// A commit stored the act's answer under its key (see [`Service::commit_act`]).
    answered: Arc<AtomicBool>,
}

/// A replayed act's answer, or a new act's context.
enum Opened {
    Answered(Vec<Reply>),
    New(Box<Context>),
}

fn parse_answer(json: &str) -> Result<Vec<Reply>, StorageError> {
    serde_json::from_str(json).map_err(|e| StorageError::Corrupt(format!("stored answer: {e}")))
}

/// The message telling the user why their act failed: what they can do
/// differs between a passing failure, one the operator must fix, and damage.
fn failure_message(error: &StorageError) -> &'static str {
    match error {
        StorageError::Busy(_) => "database-busy",
        StorageError::DiskFull(_) => "database-disk-full",
        StorageError::ReadOnly(_) => "database-read-only",
        StorageError::Unavailable(_) => "database-unavailable",
        // Damage is no passing failure: trying again will not help.
        StorageError::Corrupt(_) | StorageError::Damaged(_) => "stored-data-damaged",
        _ => "internal-error",
    }
}

/// An act's answer, or the store's failure that stopped it short of one.
type Attempt = Result<Vec<Reply>, StorageError>;

/// The bot's behaviour, independent of any chat platform.
pub struct Service {
    store: Store,
    games: cache::GameCache,
    /// Woken whenever a committed act may have moved a deadline or queued
    /// a notice for another platform.
    deadline_changed: Arc<SchedulerWake>,
    config: ServiceConfig,
    i18n: Arc<I18n>,
    /// Heavy pictures in flight, per player and in all.
    renders: renders::RenderGate,
    /// Acts whose answer went out, to settle in the outbox.
    answered: handoff::Answered,
    holds: handoff::HoldWatch,
    /// The engine that reviews finished games, behind its queue.
    reviewer: reviewer::Reviewer,
    /// Games whose automatic review failed in this process (not retried).
    failed_reviews: std::sync::Mutex<std::collections::HashSet<i64>>,
    /// Tournament pairings worked out at once (see `tournament_flow`).
    pairing_slots: tokio::sync::Semaphore,
    /// Game GIFs drawn for web pages at once (one: a GIF costs seconds).
    web_gifs: tokio::sync::Semaphore,
}

impl Service {
    pub fn new(store: impl Into<Store>, config: ServiceConfig) -> Service {
        Service {
            store: store.into(),
            games: cache::GameCache::new(CACHED_GAMES),
            deadline_changed: Arc::new(SchedulerWake::default()),
            renders: renders::RenderGate::new(config.renders),
            answered: handoff::Answered::default(),
            holds: handoff::HoldWatch::default(),
            reviewer: reviewer::Reviewer::new(config.reviews.clone()),
            failed_reviews: std::sync::Mutex::default(),
            pairing_slots: tokio::sync::Semaphore::new(tournament_flow::PAIRINGS_AT_ONCE),
            web_gifs: tokio::sync::Semaphore::new(1),
            config,
            i18n: Arc::new(I18n::new()),
        }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn i18n(&self) -> &I18n {
        &self.i18n
    }

    /// Notified whenever an act may have changed a deadline, so a sleeping
    /// scheduler can look again.
    pub fn deadline_signal(&self) -> Arc<SchedulerWake> {
        Arc::clone(&self.deadline_changed)
    }

    /// Carries out one act at `now` and answers it, with the board images
    /// the request asks for.
    pub async fn handle(&self, act: Request, now: DateTime<Utc>) -> Vec<Reply> {
        // The asker's language once the act is opened; their client's
        // locale (or the default) if it fails before that.
        let mut lang = i18n::negotiate(
            None,
            act.user.locale.as_deref(),
            self.config.default_language,
        );
        match self.try_handle(&act, now, &mut lang).await {
            // Drawn after the act and its commit, and again on a replay
            // (images are not stored with an answer).
            Ok(mut replies) => {
                // What another platform must receive goes through its
                // worker (it comes last: the rest keep their numbers).
                replies.retain(|reply| reply.is_for(act.platform));
                self.draw_boards(&mut replies, act.board_images);
                self.attach_reviews(&mut replies).await;
                replies
            }
            Err(error) => {
                // The error's text ends with its driver source's, so the
                // operator sees the kind and the whole cause in one line.
                tracing::error!(
                    kind = error.kind(),
                    %error,
                    platform = act.platform.as_str(),
                    "act failed"
                );
                let text = self.i18n.text(lang, failure_message(&error), &[]);
                vec![Reply {
                    channel: act.channel.clone(),
                    to: Some(act.user.id.clone()),
                    ephemeral: true,
                    text,
                    ..Reply::default()
                }]
            }
        }
    }

    async fn try_handle(&self, act: &Request, now: DateTime<Utc>, lang: &mut Lang) -> Attempt {
        let ctx = match self.open(act, now).await? {
            Opened::Answered(replies) => return Ok(replies),
            Opened::New(ctx) => ctx,
        };
        *lang = ctx.lang;
        let command = match &act.input {
            Input::Command(command) => command.clone(),
            Input::Text(text) => match self.read_command(&ctx, text, now).await? {
                Ok(command) => command,
                Err(refused) => return Ok(refused),
            },
            Input::Edit { original, text } => {
                if self.changed_something(original).await? {
                    let refusal = self.private(&ctx, self.text(&ctx, "edit-not-carried-out", &[]));
                    return self.keep_answer(&ctx, vec![refusal], now).await;
                }
                match self.read_command(&ctx, text, now).await? {
                    Ok(command) => command,
                    Err(refused) => return Ok(refused),
                }
            }
        };
        for _ in 0..MAX_ATTEMPTS {
            match self.attempt(&ctx, &command, now).await {
                Ok(replies) if !command.only_looks() => {
                    return self.keep_answer(&ctx, replies, now).await;
                }
                Err(StorageError::Conflict) => continue,
                Err(StorageError::DuplicateAct(_)) => {
                    // Another delivery of the same act won the race: give its answer.
                    if let Some(answer) = self.stored_answer(ctx.act_key.as_deref()).await? {
                        return Ok(answer);
                    }
                    return Err(StorageError::Conflict);
                }
                other => return other,
            }
        }
        Err(StorageError::Conflict)
    }

    /// `text` as a command, or the kept answer refusing it.
    async fn read_command(
        &self,
        ctx: &Context,
        text: &str,
        now: DateTime<Utc>,
    ) -> Result<Result<Command, Vec<Reply>>, StorageError> {
        match command::parse(text) {
            Ok(command) => Ok(Ok(command)),
            Err(error) => {
                // Kept: a later version might read the same text as an act.
                let refusal = vec![texts::command_refusal(&self.i18n, ctx, &error)];
                self.keep_answer(ctx, refusal, now).await.map(Err)
            }
        }
    }

    /// Whether the act `key` changed something: its stored answer has a
    /// reply for others (a refusal, or an act that only looked, has none).
    async fn changed_something(&self, key: &str) -> Result<bool, StorageError> {
        Ok(self
            .stored_answer(Some(key))
            .await?
            .is_some_and(|answer| answer.iter().any(|reply| !reply.ephemeral)))
    }

    async fn attempt(&self, ctx: &Context, command: &Command, now: DateTime<Utc>) -> Attempt {
        match command {
            Command::Challenge(act) => self.challenge_act(ctx, act, now).await,
            Command::Move { .. }
            | Command::Draw { .. }
            | Command::Claim { .. }
            | Command::Resign { .. }
            | Command::MoreTime { .. }
            | Command::Takeback { .. }
            | Command::Abort { .. } => self.game_act(ctx, command, now).await,
            Command::Board { game } => self.board(ctx, *game).await,
            Command::Moves { game } => self.moves(ctx, *game).await,
            Command::Pgn { game } => self.pgn(ctx, *game).await,
            Command::Gif { game } => self.gif(ctx, *game).await,
            Command::Games(command::GamesScope::Here) => self.games(ctx).await,
            Command::Games(command::GamesScope::Everywhere) => {
                self.games_everywhere(ctx, false, now).await
            }
            Command::Games(command::GamesScope::Finished) => {
                self.games_everywhere(ctx, true, now).await
            }
            Command::Link { code } => self.link_act(ctx, code.as_deref(), now).await,
            Command::Unlink => self.unlink(ctx, now).await,
            Command::SetTimeZone(zone) => self.set_time_zone(ctx, zone.as_deref(), now).await,
            Command::SetDigest(minute) => self.set_digest(ctx, *minute, now).await,
            Command::Standings => self.standings(ctx).await,
            Command::Rating { user } => self.rating(ctx, user.as_ref(), now).await,
            Command::SeasonStandings { season } => self.season_standings(ctx, season).await,
            Command::Record { player, opponent } => {
                self.record(ctx, player, opponent.as_ref()).await
            }
            Command::SetLanguage(lang) => self.set_language(ctx, *lang, now).await,
            Command::SetServerLanguage(lang) => self.set_server_language(ctx, *lang, now).await,
            Command::SetWebPages(on) => self.set_web_pages(ctx, *on, now).await,
            Command::SetNotify(notify) => self.set_notify(ctx, *notify, now).await,
            Command::SetNotation(notation) => self.set_notation(ctx, *notation, now).await,
            Command::Leave(action) => self.leave(ctx, *action, now).await,
            Command::Ladder(action) => self.ladder(ctx, action, now).await,
            Command::Help { about } => Ok(vec![self.help(ctx, about.as_deref())]),
            Command::Status => self.status(ctx, now).await,
            Command::Tournament(act) => self.tournament_act(ctx, act, now).await,
            Command::If { action, game } => self.if_act(ctx, action, *game, now).await,
            Command::Note { text, game } => self.note(ctx, text, *game, now).await,
            Command::Notes { game } => self.notes(ctx, *game).await,
            Command::Openings => self.openings(ctx).await,
            Command::Review { game } => self.review(ctx, *game, now).await,
            Command::Puzzle(action) => self.puzzle(ctx, action, now).await,
            Command::Team(action) => self.team_act(ctx, action, now).await,
            Command::TeamChallenge(wish) => self.team_challenge(ctx, wish, now).await,
            Command::Vote { choice, game } => self.vote(ctx, choice, *game, now).await,
            Command::Match(act) => self.match_act(ctx, act, now).await,
            Command::Club(act) => self.club_act(ctx, act, now).await,
        }
    }

    /// Stores the answer of a keyed act that committed none (a refusal), as
    /// a commit of its key alone: it changes nothing else, and a replay gets
    /// the same refusal even if the act would now succeed.
    async fn keep_answer(&self, ctx: &Context, replies: Vec<Reply>, now: DateTime<Utc>) -> Attempt {
        if ctx.act_key.is_none() || ctx.answered.load(Ordering::Acquire) {
            return Ok(replies);
        }
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            ..Commit::default()
        };
        match self.store.commit(commit, now, move |_| replies).await {
            Ok((_, replies)) => Ok(replies),
            // Another delivery of the same act was answered first: give its answer.
            Err(StorageError::DuplicateAct(_)) => self
                .stored_answer(ctx.act_key.as_deref())
                .await?
                .ok_or(StorageError::Conflict),
            Err(error) => Err(error),
        }
    }

    /// Commits an act's writes with its answer under the act's key, and
    /// notes that the act is answered (so [`Service::keep_answer`] stores
    /// nothing more). Every commit an act makes goes through here.
    async fn commit_act<R, F>(
        &self,
        ctx: &Context,
        commit: Commit,
        now: DateTime<Utc>,
        answer: F,
    ) -> Result<(Committed, R), StorageError>
    where
        R: Serialize + Send + 'static,
        F: FnOnce(&Committed) -> R + Send + 'static,
    {
        let mut commit = commit;
        if commit.act_key.is_none() {
            // Only a keyed act's answer is kept for another platform's worker
            // (acts without a key come from tests and tools).
            commit.relay = None;
        }
        let keyed = commit.act_key.is_some() && commit.act_key == ctx.act_key;
        if keyed && commit.outgoing.is_none() {
            // What others must receive survives this process (see `handoff`).
            commit.outgoing = Some(self.held_for_answer(ctx.platform, ctx.server.id, now));
        }
        let hold = commit.outgoing.as_ref().and_then(|o| o.held_until);
        let relayed = commit.relay.is_some();
        let done = self.store.commit(commit, now, answer).await?;
        if relayed {
            // Another platform's scheduler (in this process, when `serve`
            // runs both) delivers its copy now, not at its next poll.
            self.deadline_changed.wake();
        }
        if let Some(until) = hold {
            self.held_until(until);
        }
        if keyed {
            ctx.answered.store(true, Ordering::Release);
        }
        Ok(done)
    }

    async fn stored_answer(&self, key: Option<&str>) -> Result<Option<Vec<Reply>>, StorageError> {
        let Some(key) = key else { return Ok(None) };
        match self.store.answer_of(key).await? {
            None => Ok(None),
            Some(json) => parse_answer(&json).map(Some),
        }
    }

    /// The stored answer of a replayed act, or the context of a new one.
    async fn open(&self, act: &Request, now: DateTime<Utc>) -> Result<Opened, StorageError> {
        let request = ActRequest {
            act_key: act.key.clone(),
            platform: act.platform,
            server: act.server.clone(),
            channel: act.channel.clone(),
            user_id: act.user.id.clone(),
            // A platform's display name cannot be refused: what would
            // hide or turn text around is dropped before it is stored.
            user_name: crate::core::hidden::strip(&act.user.name),
            // Kept for the notices others' acts send them.
            client_language: act.user.locale.as_deref().and_then(Lang::from_locale),
            defaults: ServerDefaults {
                time_control: self.config.default_time_control.clone(),
            },
        };
        let (server, channel, player, games_here) = match self.store.open_act(request, now).await? {
            OpenedAct::Answered(json) => return Ok(Opened::Answered(parse_answer(&json)?)),
            OpenedAct::New {
                server,
                channel,
                player,
                games_here,
            } => (server, channel, player, games_here),
        };
        let server_lang = self.language_of(Some(&server));
        let lang = i18n::negotiate(player.language, act.user.locale.as_deref(), server_lang);
        Ok(Opened::New(Box::new(Context {
            act_key: act.key.clone(),
            platform: act.platform,
            server,
            channel,
            channel_platform_id: act.channel.clone(),
            player,
            games_here,
            moderation: act.user.moderation,
            lang,
            server_lang,
            now,
            answered: Arc::new(AtomicBool::new(false)),
        })))
    }

    async fn set_language(&self, ctx: &Context, lang: Option<Lang>, now: DateTime<Utc>) -> Attempt {
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            player_language: Some((ctx.player.id, lang)),
            ..Commit::default()
        };
        let shown = lang.unwrap_or(ctx.server_lang);
        let id = if lang.is_some() {
            "language-set"
        } else {
            "language-reset"
        };
        let reply = self.private(ctx, self.i18n.text(shown, id, &[]));
        self.commit_setting(ctx, commit, now, reply).await
    }

    /// A moderator of the whole server chooses its language (`None`: the
    /// configured default again), and the channel is told in it.
    async fn set_server_language(
        &self,
        ctx: &Context,
        lang: Option<Lang>,
        now: DateTime<Utc>,
    ) -> Attempt {
        if ctx.moderation != Moderation::Server {
            let text = self.text(ctx, "refused-not_a_moderator", &[]);
            return Ok(vec![self.private(ctx, text)]);
        }
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            server_language: Some((ctx.server.id, lang)),
            ..Commit::default()
        };
        let shown = lang.unwrap_or(self.config.default_language);
        let name_id = match shown {
            Lang::Fr => "choice-fr",
            // German and Russian readers get English messages (see `i18n`).
            Lang::En | Lang::De | Lang::Ru => "choice-en",
        };
        let name = self.i18n.text(shown, name_id, &[]);
        let id = match lang {
            Some(_) => "server-language-set",
            None => "server-language-default",
        };
        let text = self.i18n.text(shown, id, &[("language", Arg::from(name))]);
        let reply = self.public(ctx, None, text);
        self.commit_setting(ctx, commit, now, reply).await
    }

    /// `/settings web on|off`: a moderator puts the server's pages on the
    /// web (standings, ladder, openings, tournaments, team matches,
    /// players), or takes them off. Game pages are not concerned: each is
    /// reached through its own link whatever this says.
    async fn set_web_pages(&self, ctx: &Context, on: bool, now: DateTime<Utc>) -> Attempt {
        if ctx.moderation != Moderation::Server {
            let text = self.text(ctx, "refused-not_a_moderator", &[]);
            return Ok(vec![self.private(ctx, text)]);
        }
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            server_web_pages: Some((ctx.server.id, on)),
            ..Commit::default()
        };
        let id = if on {
            "web-settings-on"
        } else {
            "web-settings-off"
        };
        let mut text = self.text(ctx, id, &[]);
        if let (true, Some(base)) = (on, self.config.web_url.as_deref()) {
            text = format!("{text}\n{base}/s/{}", ctx.server.id);
        }
        let reply = self.public(ctx, None, text);
        self.commit_setting(ctx, commit, now, reply).await
    }

    /// The next reminder for the player to move after `after`, by the configured points.
    fn next_reminder(
        &self,
        game: &crate::core::game::Game,
        after: DateTime<Utc>,
    ) -> Option<DateTime<Utc>> {
        if game.is_over() {
            return None;
        }
        game.clock().next_reminder(
            after,
            self.config.remind_when_used,
            self.config.remind_before_flag,
        )
    }

    async fn set_notify(&self, ctx: &Context, notify: Notify, now: DateTime<Utc>) -> Attempt {
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            player_notify: Some((ctx.player.id, notify)),
            ..Commit::default()
        };
        let key = format!("notify-{}", notify.as_str());
        let reply = self.private(ctx, self.text(ctx, &key, &[]));
        self.commit_setting(ctx, commit, now, reply).await
    }

    /// Commits a change to the acting player's own settings. Cached games
    /// hold their players' rows, which such a change leaves behind: they
    /// are forgotten, so the player's games are told in the new language,
    /// or where they asked, from the next act on.
    async fn commit_setting(
        &self,
        ctx: &Context,
        commit: Commit,
        now: DateTime<Utc>,
        reply: Reply,
    ) -> Attempt {
        let answer = self.commit_replies(ctx, commit, now, vec![reply]).await;
        self.games.clear();
        answer
    }

    /// Commits an act and answers with replies known before the commit.
    async fn commit_replies(
        &self,
        ctx: &Context,
        commit: Commit,
        now: DateTime<Utc>,
        replies: Vec<Reply>,
    ) -> Attempt {
        let (_, replies) = self
            .commit_act(ctx, commit, now, move |_: &Committed| replies)
            .await?;
        Ok(replies)
    }

    /// The language of a server's public messages: the one its moderators
    /// chose, else the configured default (read now, so a changed default
    /// reaches every server that never chose).
    fn language_of(&self, server: Option<&ServerRow>) -> Lang {
        server
            .and_then(|server| server.chosen_language)
            .unwrap_or(self.config.default_language)
    }

    /// The language of the public messages of server `server_id` (stored).
    async fn server_language(&self, server_id: i64) -> Result<Lang, StorageError> {
        let server = self.store.server(server_id).await?;
        Ok(self.language_of(server.as_ref()))
    }

    fn text(&self, ctx: &Context, id: &str, args: &[(&str, Arg)]) -> String {
        self.i18n.text(ctx.lang, id, args)
    }

    /// An answer only the acting user sees.
    fn private(&self, ctx: &Context, text: String) -> Reply {
        Reply {
            channel: ctx.channel_platform_id.clone(),
            to: Some(ctx.player.platform_id.clone()),
            ephemeral: true,
            text,
            ..Reply::default()
        }
    }

    /// A message to the channel, mentioning `to`.
    fn public(&self, ctx: &Context, to: Option<String>, text: String) -> Reply {
        Reply {
            channel: ctx.channel_platform_id.clone(),
            to,
            text,
            ..Reply::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn driver() -> crate::storage::DriverError {
        Box::new(std::io::Error::other("the driver's own words"))
    }

    /// What a user reads when their act fails, by the failure's kind.
    #[test]
    fn each_storage_failure_reads_as_its_own_message() {
        let i18n = I18n::new();
        let table: [(StorageError, &str, &str); 9] = [
            (
                StorageError::Busy(driver()),
                "My database is busy right now, so nothing was changed. Please try again in a moment.",
                "Ma base de données est occupée en ce moment, je n’ai donc rien modifié. \
                 Merci de réessayer dans un instant.",
            ),
            (
                StorageError::DiskFull(driver()),
                "Refused: my database's disk is full, so I changed nothing. \
                 The bot's operator must free some space.",
                "Refusé : le disque de ma base de données est plein, je n’ai donc rien modifié. \
                 L’opérateur du bot doit libérer de la place.",
            ),
            (
                StorageError::ReadOnly(driver()),
                "Refused: my database is read-only right now, so I changed nothing. \
                 The bot's operator must make it writable again.",
                "Refusé : ma base de données est en lecture seule pour l’instant, je n’ai donc \
                 rien modifié. L’opérateur du bot doit la rendre de nouveau accessible en écriture.",
            ),
            (
                StorageError::Unavailable(driver()),
                "I cannot reach my database right now, so nothing was changed. Please try again later.",
                "Je ne parviens pas à joindre ma base de données pour l’instant, je n’ai donc rien \
                 modifié. Merci de réessayer plus tard.",
            ),
            (
                StorageError::Damaged(driver()),
                "Refused: my stored data for this is damaged, so I changed nothing. \
                 The bot's operator must check the database (`pawnpost check`) and restore it from a backup.",
                "Refusé : mes données enregistrées pour cela sont endommagées, je n’ai donc rien \
                 modifié. L’opérateur du bot doit vérifier la base (`pawnpost check`) et la \
                 restaurer depuis une sauvegarde.",
            ),
            (
                StorageError::Corrupt("game 1 moves: 2 counted, 1 stored".into()),
                "Refused: my stored data for this is damaged, so I changed nothing. \
                 The bot's operator must check the database (`pawnpost check`) and restore it from a backup.",
                "Refusé : mes données enregistrées pour cela sont endommagées, je n’ai donc rien \
                 modifié. L’opérateur du bot doit vérifier la base (`pawnpost check`) et la \
                 restaurer depuis une sauvegarde.",
            ),
            (
                StorageError::Driver(driver()),
                "Something went wrong on my side and nothing was changed. Please try again.",
                "Un incident s’est produit de mon côté et rien n’a été modifié. Merci de réessayer.",
            ),
            (
                StorageError::Backend("connection lock poisoned".into()),
                "Something went wrong on my side and nothing was changed. Please try again.",
                "Un incident s’est produit de mon côté et rien n’a été modifié. Merci de réessayer.",
            ),
            (
                StorageError::Conflict,
                "Something went wrong on my side and nothing was changed. Please try again.",
                "Un incident s’est produit de mon côté et rien n’a été modifié. Merci de réessayer.",
            ),
        ];
        for (error, en, fr) in table {
            let id = failure_message(&error);
            assert_eq!(i18n.text(Lang::En, id, &[]), en, "{}", error.kind());
            assert_eq!(i18n.text(Lang::Fr, id, &[]), fr, "{}", error.kind());
        }
    }

    /// The operator's line names the kind and keeps the driver's words.
    #[test]
    fn a_failure_names_its_kind_and_keeps_its_cause() {
        let error = StorageError::ReadOnly(driver());
        assert_eq!(error.kind(), "read-only");
        assert_eq!(
            error.to_string(),
            "the database is read-only: the driver's own words"
        );
        let source = std::error::Error::source(&error).expect("a source");
        assert_eq!(source.to_string(), "the driver's own words");
    }
}
