//! Acts on a running game: move, draw, claim, resign, abort.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use shakmaty::{Color, EnPassantMode, fen::Fen, uci::UciMove};

use super::cache::LoadedGame;
use super::notation::{Question, Typing};
use super::texts::{self, Names};
use super::{Attempt, BoardView, Context, GameEvent, Reply, Service, choice};
use crate::core::command::{Command, DrawAction};
use crate::core::conditional::{self, Conditionals};
use crate::core::event::Event;
use crate::core::game::{
    Act as GameAct, Actor, Game, GameError, MoveInput, Note, NoteKind, PlayerId, Players,
    RestoreError, Status, StoredMove, TakebackAction,
};
use crate::core::notation::{self, Lang, MoveInputError, Style};
use crate::i18n::Arg;
use crate::storage::{
    ChannelGames, Commit, GameRecord, GameSummary, GameUpdate, MoveRow, StorageError, WakeUp,
};

/// The game an act is about, or the answer when it cannot be told.
pub(super) enum Pick {
    /// The game, and whether one of its players may be on leave.
    Game(Arc<LoadedGame>, bool),
    Answer(Vec<Reply>),
}

impl Service {
    pub(super) async fn game_act(
        &self,
        ctx: &Context,
        command: &Command,
        now: DateTime<Utc>,
    ) -> Attempt {
        self.game_act_storing(ctx, command, None, now).await
    }

    /// A game act; with `line`, a move played from `/if` on one's own
    /// turn, whose following moves are stored as conditional moves in the
    /// same commit (the whole act refused if they cannot be).
    pub(super) async fn game_act_storing(
        &self,
        ctx: &Context,
        command: &Command,
        line: Option<&[String]>,
        now: DateTime<Utc>,
    ) -> Attempt {
        let Some((game_id, act)) = self.to_game_act(ctx, command) else {
            return Ok(vec![self.help(ctx, None)]);
        };
        let (loaded, maybe_on_leave) = match self.pick_game(ctx, game_id, true).await? {
            Pick::Game(loaded, on_leave) => (loaded, on_leave),
            Pick::Answer(replies) => return Ok(replies),
        };
        let record = &loaded.record;
        let mut game = loaded.game.clone();
        let actor_side = game.players().side_of(ctx.player.id);
        let mut events = match self.try_game_act(ctx, command, record, &mut game, act, now) {
            Ok(events) => events,
            Err((refusal, question)) => return self.refused(ctx, refusal, question, now).await,
        };
        // A takeback shortened the score: the store keeps what is left of
        // it and appends the takeback's note.
        let truncate_to = taken_back_to(&game, &events);
        let saved = match truncate_to {
            Some((moves, notes)) => Saved { moves, notes },
            None => Saved::all_of(&loaded.game),
        };

        let storing = line.zip(actor_side).filter(|_| !game.is_over());
        let (lines, away_notice) =
            match self.follow_lines(ctx, record, &mut game, &mut events, storing, now) {
                Ok(followed) => followed,
                Err(refusal) => return Ok(refusal),
            };

        let moved = game.moves().len() > saved.moves;
        let leave_commit = match moved && maybe_on_leave {
            true => self.leave_after_move(ctx, record, &mut game, now).await?,
            false => None,
        };

        let names = Names::new(&record.white_player, &record.black_player);
        let update = GameUpdate {
            conditionals: lines,
            truncate_to: truncate_to.map(|(moves, notes)| (moves as u32, notes as u32)),
            ..game_update(record, &game, saved, self.next_reminder(&game, now))
        };
        let claimed = claimed_move(loaded.game.position(), &game.notes()[saved.notes..]);
        let told = Told {
            game: &game,
            id: record.id,
            names: &names,
            events: &events,
            actor_side,
            claimed: claimed.as_deref(),
        };
        let (public_lang, mut reply, confirmation) = self.tell_act(ctx, record, &told);
        if told.game.is_over() {
            // The finished game's page, for the record.
            self.add_page_link(&mut reply, record.id, public_lang)
                .await?;
        }
        let confirmation = self
            .told_where_played(ctx, record, &mut reply, confirmation)
            .await?;
        // Ratings, ladder and tournament move in the commit that ends the game.
        let end = self
            .game_end(record, &update.state, public_lang, now)
            .await?;
        // Once committed, the next act on this game starts from here without a reload.
        let next = LoadedGame::saved(record, &update, game);
        let game = &next.game;
        let (mut commit, notices) = act_commit(ctx, update, leave_commit);
        let spread = self.relayed(ctx, record, &mut commit).await?;
        let settled = self.settled_by(ctx, record.id, &loaded.game, game, &mut commit);
        let answer = end.apply(&mut commit, &mut reply, ctx.platform);
        // A player who asked for direct messages gets their turn there too.
        let direct = self.direct_turn_notice(&reply, game, record, actor_side);
        let mut replies = vec![reply];
        replies.extend(confirmation);
        replies.extend(settled);
        if let Some((_, side)) = storing {
            let key = "if-stored";
            let lines = next.record.conditionals.of(side);
            let stored = self.lines_text(ctx.lang, key, record.id, game, lines);
            replies.push(self.secret(ctx, stored));
        }
        replies.extend(away_notice);
        replies.extend(direct);
        replies.extend(notices);
        let (_, replies) = self
            .commit_act(ctx, commit, now, move |committed| {
                super::cross::spread_all(spread.as_ref(), answer(committed, replies))
            })
            .await?;
        self.games.put(next);
        self.deadline_changed.wake();
        Ok(replies)
    }

    /// A refused act's answer; a question about a letter's reading is kept
    /// with it, for the answer to settle the letter.
    async fn refused(
        &self,
        ctx: &Context,
        refusal: Vec<Reply>,
        question: Option<Question>,
        now: DateTime<Utc>,
    ) -> Attempt {
        match question {
            None => Ok(refusal),
            Some(question) => {
                let commit = Self::keep_question(ctx, &question);
                self.commit_replies(ctx, commit, now, refusal).await
            }
        }
    }

    /// The actor's move in `after` (played from `before`) answering the
    /// question their notation keeps: the letter it settles written into
    /// `commit`, and the reply telling them so.
    fn settled_by(
        &self,
        ctx: &Context,
        game_id: i64,
        before: &Game,
        after: &Game,
        commit: &mut Commit,
    ) -> Option<Reply> {
        let ply = before.moves().len();
        let played = after.moves().get(ply)?;
        let answer = Self::answer_question(ctx, game_id, ply, before.position(), played.m)?;
        let (notation, reply) = match answer {
            Ok(settled) => {
                let reply = self.settled_reply(ctx, &settled);
                (settled.notation, Some(reply))
            }
            Err(dropped) => (dropped, None),
        };
        commit.player_notation = Some((ctx.player.id, notation));
        reply
    }

    /// Lets the core carry out `act` on `game` for the actor: its events,
    /// or the answer saying why not (then `game` is unchanged), with the
    /// question to keep when the move had two readings of a letter.
    fn try_game_act(
        &self,
        ctx: &Context,
        command: &Command,
        record: &GameRecord,
        game: &mut Game,
        act: GameAct,
        now: DateTime<Utc>,
    ) -> Result<Vec<Event>, (Vec<Reply>, Option<Question>)> {
        // Aborting a started game takes a moderator of the game's own channel
        // or server, wherever the command came from; the core checks the rest.
        let actor = match act {
            GameAct::Abort if ctx.moderates(record.server_id, record.channel_id) => {
                Actor::Moderator(ctx.player.id)
            }
            _ => Actor::Player(ctx.player.id),
        };
        let last = game.last_recorded_at();
        if now < last {
            // The core times the act at `last`, keeping the record in order.
            tracing::warn!(
                game = record.id,
                %now,
                %last,
                "the clock is behind the game's last act: this act is timed at that act's instant"
            );
        }
        // Correspondence fair play: no takeback where the result counts.
        let takes_back = matches!(
            act,
            GameAct::Takeback(TakebackAction::Request | TakebackAction::Accept)
        );
        // Nor where a team plays: its members vote on moves, not on takebacks.
        let applied = if takes_back
            && (record.rated || super::votes::has_team(record) || record.is_in_competition())
        {
            Err(GameError::TakebackNotAllowed)
        } else {
            game.apply(&actor, act, now)
        };
        applied.map_err(|error| {
            let input = move_text(command).unwrap_or_default();
            let typing = Typing::of(ctx);
            let pos = game.position();
            let text = texts::game_refusal(&self.i18n, ctx.lang, &typing, &error, pos, input);
            let mut reply = self.private(ctx, text);
            let mut question = None;
            // Nothing was played: the player picks the reading they meant.
            if let GameError::Move(MoveInputError::Ambiguous { candidates }) = &error {
                reply.prompt = choice::prompt(record.id, command, pos, candidates, typing.style);
                let ply = game.moves().len();
                question = Question::asked(record.id, ply, pos, input, &typing, candidates);
                if question.is_some() {
                    reply.text.push(' ');
                    reply
                        .text
                        .push_str(&self.text(ctx, "notation-ask-once", &[]));
                }
            }
            (vec![reply], question)
        })
    }

    /// The game's conditional lines after the act: the actor's new line
    /// stored first (`storing`: its moves and the actor's side; the act is
    /// refused if they cannot be), then a move answered at once from the
    /// lines the player it leaves to move stored, in this same commit (an
    /// offer, a claim or the end clears every line). Returns the lines and
    /// the notice for the player whose line answered.
    fn follow_lines(
        &self,
        ctx: &Context,
        record: &GameRecord,
        game: &mut Game,
        events: &mut Vec<Event>,
        storing: Option<(&[String], Color)>,
        now: DateTime<Utc>,
    ) -> Result<(Conditionals, Option<Reply>), Vec<Reply>> {
        let mut lines = record.conditionals.clone();
        if let Some((words, side)) = storing {
            self.add_line(ctx, game, &mut lines, side, words)
                .map_err(|refusal| vec![self.secret(ctx, refusal)])?;
        }
        let answered = conditional::after_act(game, &mut lines, events, now);
        let actor_side = game.players().side_of(ctx.player.id);
        let away_notice = self.conditional_notice(ctx, record, game, actor_side, &answered);
        events.extend(answered);
        Ok((lines, away_notice))
    }

    /// After a move: the mover's leave ends (its ending's commit and
    /// notices, for the act to join), and a player on leave gets the move
    /// with their clock stopped.
    async fn leave_after_move(
        &self,
        ctx: &Context,
        record: &GameRecord,
        game: &mut Game,
        now: DateTime<Utc>,
    ) -> Result<Option<(Commit, Vec<Reply>)>, StorageError> {
        let next_player = game.players().get(game.turn());
        let leaves = self
            .store
            .running_leaves(ctx.server.id, [ctx.player.id, next_player])
            .await?;
        let mut leave_commit = None;
        if let Some(leave) = leaves.iter().find(|l| l.player == ctx.player.id) {
            leave_commit = Some(self.ending(leave, now, None, Some(record.id)).await?);
        }
        if !game.is_over() && leaves.iter().any(|l| l.player == next_player) {
            game.pause_clock(now);
        }
        Ok(leave_commit)
    }

    /// An accepted act told: the language of the channel's message, the
    /// message, and the actor's copy in their own language if it differs.
    /// The channel's message goes first to the opponent: in their language
    /// when they chose one. The actor then gets the same lines in theirs,
    /// so each reads the move in their own notation. Once the game is over
    /// the message is for both: the server's language.
    fn tell_act(
        &self,
        ctx: &Context,
        record: &GameRecord,
        told: &Told<'_>,
    ) -> (Lang, Reply, Option<Reply>) {
        let public_lang = if told.game.is_over() {
            ctx.server_lang
        } else {
            opponent_lang(ctx, record, told.actor_side)
        };
        let reply = self.game_reply(ctx, public_lang, told);
        let confirmation = (public_lang != ctx.lang)
            .then(|| self.private(ctx, self.describe(ctx, ctx.lang, told).join("\n")));
        (public_lang, reply, confirmation)
    }

    /// An act sent from outside the game's channel (another channel, a
    /// direct message with `/if` lines): its public message goes to the
    /// game's channel, where the opponent follows the game and is
    /// mentioned, and the actor gets, where they asked, a line pointing there.
    /// Every game act's replies pass here, so each act is told alike.
    async fn told_where_played(
        &self,
        ctx: &Context,
        record: &GameRecord,
        reply: &mut Reply,
        copy: Option<Reply>,
    ) -> Result<Option<Reply>, StorageError> {
        if record.channel == ctx.channel_platform_id {
            return Ok(copy);
        }
        // A team match's away player plays from their own side's channel,
        // to which the match copies every message (see `matches`).
        // A game of another server of the club, played from here (a club
        // match's away game too).
        let theirs = match self.placed_channel(ctx, record).await? {
            Some(placed) => placed,
            None if record.team_match => self.channel_of_player(record, ctx.player.id).await?,
            None => record.channel.clone(),
        };
        if theirs == ctx.channel_platform_id {
            return Ok(copy);
        }
        reply.channel = record.channel.clone();
        let channel = texts::channel_reference(ctx.platform, &theirs);
        let args = [
            ("game", Arg::from(record.id)),
            ("channel", Arg::from(channel)),
        ];
        // Short, in place of the actor's copy: the act is read in full
        // where the game is played.
        let pointer = self.text(ctx, "act-told-in-game-channel", &args);
        Ok(Some(self.private(ctx, pointer)))
    }

    /// The core act a command asks for, with the game it names; `None` for
    /// commands that are not acts on a game.
    fn to_game_act(&self, ctx: &Context, command: &Command) -> Option<(Option<i64>, GameAct)> {
        let reader = Typing::of(ctx).reader;
        Some(match command {
            Command::Move {
                text,
                offer_draw,
                game,
            } => (
                *game,
                GameAct::Move {
                    input: MoveInput::new(text.clone(), reader),
                    offer_draw: *offer_draw,
                },
            ),
            Command::Draw { action, game } => (
                *game,
                match action {
                    DrawAction::Offer => GameAct::OfferDraw,
                    DrawAction::Accept => GameAct::AcceptDraw,
                    DrawAction::Decline => GameAct::DeclineDraw,
                },
            ),
            Command::Claim {
                kind,
                with_move,
                game,
            } => (
                *game,
                GameAct::Claim {
                    kind: *kind,
                    with_move: with_move
                        .as_ref()
                        .map(|text| MoveInput::new(text.clone(), reader.clone())),
                },
            ),
            Command::Abort { game } => (*game, GameAct::Abort),
            Command::Resign { game } => (*game, GameAct::Resign),
            Command::MoreTime { days, game } => (*game, GameAct::MoreTime { days: *days }),
            Command::Takeback { action, game } => (*game, GameAct::Takeback(*action)),
            _ => return None,
        })
    }

    /// The game a command means: the one named, or the caller's only game
    /// in this channel; with several, the answer asks which.
    pub(super) async fn pick_game(
        &self,
        ctx: &Context,
        game_id: Option<i64>,
        ongoing_only: bool,
    ) -> Result<Pick, StorageError> {
        if let Some(id) = game_id {
            // A game of this server, or a team match game of its away side's.
            return match self.store.game(id).await? {
                Some(record) if self.reachable(ctx, &record).await? => {
                    Ok(Pick::Game(self.loaded(record)?, true))
                }
                _ => {
                    let text = self.text(ctx, "game-not-found", &[("game", Arg::from(id))]);
                    Ok(Pick::Answer(vec![self.private(ctx, text)]))
                }
            };
        }
        match ctx.games_here.clone() {
            ChannelGames::One {
                id,
                version,
                on_leave,
            } => match self.games.get(id, version) {
                Some(loaded) => Ok(Pick::Game(loaded, on_leave)),
                None => {
                    let record = self.store.game(id).await?;
                    let record = record.ok_or(StorageError::NotFound("game"))?;
                    Ok(Pick::Game(self.loaded(record)?, on_leave))
                }
            },
            ChannelGames::Several(games) => {
                let mine = [ctx.player.id];
                Ok(Pick::Answer(vec![self.which_game(ctx, &games, &mine)]))
            }
            ChannelGames::None if !ongoing_only => self.game_to_look_at(ctx).await,
            ChannelGames::None => Ok(Pick::Answer(vec![self.no_game(ctx)])),
        }
    }

    /// The game to look at (`/board`, `/pgn`…) for a caller who plays no
    /// running game in this channel: their team's running vote game (a
    /// vote game is its members' game), asking which if several; else the
    /// last game they or their team played here.
    async fn game_to_look_at(&self, ctx: &Context) -> Result<Pick, StorageError> {
        let (channel, me) = (ctx.channel.id, ctx.player.id);
        let teams = self.store.team_games_in_channel(channel, me).await?;
        let running: Vec<GameSummary> = teams
            .iter()
            .filter(|g| g.state == Status::Ongoing)
            .cloned()
            .collect();
        if running.len() > 1 {
            let mut mine = vec![me];
            mine.extend(
                self.store
                    .teams_of(ctx.server.id, me)
                    .await?
                    .iter()
                    .map(|t| t.player),
            );
            return Ok(Pick::Answer(vec![self.which_game(ctx, &running, &mine)]));
        }
        let own = self.store.games_in_channel(channel, me, false).await?;
        let last = running
            .first()
            .or_else(|| own.iter().chain(&teams).max_by_key(|g| g.id));
        let Some(last) = last else {
            return Ok(Pick::Answer(vec![self.no_game(ctx)]));
        };
        let record = self.store.game(last.id).await?;
        let record = record.ok_or(StorageError::NotFound("game"))?;
        Ok(Pick::Game(self.loaded(record)?, true))
    }

    /// Rebuilds a stored game and keeps it for the next act.
    pub(super) fn loaded(&self, record: GameRecord) -> Result<Arc<LoadedGame>, StorageError> {
        let game = restore(&record)?;
        Ok(self.games.put(LoadedGame::new(record, game)))
    }

    fn no_game(&self, ctx: &Context) -> Reply {
        self.private(ctx, self.text(ctx, "no-game", &[]))
    }

    /// Asks which of `games` the caller means, each named by the side that
    /// is not `mine` (the caller, and their teams' stand-ins).
    fn which_game(&self, ctx: &Context, games: &[GameSummary], mine: &[PlayerId]) -> Reply {
        let mut lines = vec![self.text(ctx, "which-game", &[])];
        for game in games {
            let opponent = if mine.contains(&game.white) {
                &game.black_name
            } else {
                &game.white_name
            };
            lines.push(self.text(
                ctx,
                "which-game-line",
                &[
                    ("game", Arg::from(game.id)),
                    ("opponent", Arg::from(opponent.as_str())),
                ],
            ));
        }
        self.private(ctx, lines.join("\n"))
    }

    /// What happened, in `lang`: a line per event (with the claimed move of
    /// an upheld claim), then the clock while the game runs.
    fn describe(&self, ctx: &Context, lang: Lang, told: &Told<'_>) -> Vec<String> {
        let game = told.game;
        let mut lines = texts::describe_events(
            &self.i18n,
            lang,
            told.id,
            told.names,
            told.events,
            told.actor_side,
            game.turn(),
        );
        let moved = told
            .events
            .iter()
            .any(|e| matches!(e, Event::MovePlayed { .. }));
        if let Some(opening) = game.opening_reached().filter(|_| moved) {
            lines.push(self.i18n.text(
                lang,
                "board-opening",
                &[
                    ("eco", Arg::from(opening.eco)),
                    ("name", Arg::from(opening.name)),
                ],
            ));
        }
        if let (Some(san), Some(side)) = (told.claimed, told.actor_side) {
            let style = Style::for_lang(lang);
            lines.push(self.i18n.text(
                lang,
                "claim-with-move",
                &[
                    ("player", Arg::from(told.names.display(side))),
                    ("san", Arg::from(notation::restyle_san(san, style))),
                ],
            ));
        }
        if !game.is_over() && game.clock().deadline().is_some() {
            lines.push(texts::clock_text(
                &self.i18n, lang, told.names, game, ctx.now,
            ));
        }
        lines
    }

    /// The channel's message again, as a direct message to the player who
    /// must act next, when that is the actor's opponent and they chose
    /// direct messages (`/settings notify dm`).
    fn direct_turn_notice(
        &self,
        message: &Reply,
        game: &Game,
        record: &GameRecord,
        actor_side: Option<Color>,
    ) -> Option<Reply> {
        let side = addressee(game);
        let reader = record.player(side);
        let wanted = !game.is_over()
            && actor_side == Some(!side)
            && reader.notify == crate::storage::Notify::Direct;
        wanted.then(|| Reply {
            direct: true,
            ephemeral: false,
            prompt: super::Prompt::None,
            // Seen from the reader's side.
            board: message.board.clone().map(|board| BoardView {
                orientation: crate::core::event::color_str(side).to_owned(),
                ..board
            }),
            ..message.clone()
        })
    }

    /// The channel message after an accepted act on a game, in `lang`.
    fn game_reply(&self, ctx: &Context, lang: Lang, told: &Told<'_>) -> Reply {
        let (game, game_id, names) = (told.game, told.id, told.names);
        let lines = self.describe(ctx, lang, told);
        // The actor's opponent, whose language the message is in: never the
        // actor (who declined a draw or gave time on their own move).
        let to = match (game.is_over(), told.actor_side) {
            (true, _) => None,
            (false, Some(actor)) => names.mention(!actor),
            (false, None) => names.mention(addressee(game)),
        };
        let mut reply = self.public(ctx, to, lines.join("\n"));
        if !game.is_over() {
            reply.prompt = super::Prompt::Game { game: game_id };
        }
        reply.events = told
            .events
            .iter()
            .map(|event| GameEvent {
                game: game_id,
                event: event.clone(),
            })
            .collect();
        // Seen by the player to move, whom it asks to play (as a
        // correspondence client shows it); a finished game by the one who
        // ended it.
        let viewer = match game.is_over() {
            true => told.actor_side.unwrap_or(Color::White),
            false => game.turn(),
        };
        let view = board_view(game, game_id, names, viewer);
        reply.board = Some(self.with_clocks(view, game, lang, ctx.now));
        reply
    }

    /// `view` with each side's time left at `now`, in `lang`, while the game runs.
    pub(super) fn with_clocks(
        &self,
        mut view: BoardView,
        game: &Game,
        lang: Lang,
        now: DateTime<Utc>,
    ) -> BoardView {
        if !game.is_over() {
            let left = |side| {
                let left = game.clock().remaining(side, now)?;
                Some(texts::duration_text(&self.i18n, lang, left))
            };
            view.white_clock = left(Color::White);
            view.black_clock = left(Color::Black);
        }
        view
    }
}

/// An accepted act on a game, as the replies tell it.
struct Told<'a> {
    game: &'a Game,
    id: i64,
    names: &'a Names,
    events: &'a [Event],
    actor_side: Option<Color>,
    /// The move written with an upheld claim (English SAN); it is not played.
    claimed: Option<&'a str>,
}

/// The moves and notes a takeback in `events` keeps of the stored score
/// (its own note is appended), if there was one.
fn taken_back_to(game: &Game, events: &[Event]) -> Option<(usize, usize)> {
    let taken_back = events.iter().any(|e| matches!(e, Event::TakenBack { .. }));
    taken_back.then(|| (game.moves().len(), game.notes().len() - 1))
}

/// An act's commit: the game's save, joined to the commit that ends the
/// mover's leave when the move ended it (with that ending's notices).
fn act_commit(
    ctx: &Context,
    update: GameUpdate,
    leave_commit: Option<(Commit, Vec<Reply>)>,
) -> (Commit, Vec<Reply>) {
    match leave_commit {
        None => (
            Commit {
                act_key: ctx.act_key.clone(),
                game_updates: vec![update],
                ..Commit::default()
            },
            Vec::new(),
        ),
        Some((mut ending, notices)) => {
            ending.act_key = ctx.act_key.clone();
            ending.game_updates.push(update);
            (ending, notices)
        }
    }
}

/// The language of the actor's opponent, who reads the channel's message:
/// the one they chose, else their chat client's at their latest act, else
/// the server's; never the actor's.
fn opponent_lang(ctx: &Context, record: &GameRecord, actor_side: Option<Color>) -> Lang {
    match actor_side {
        Some(side) => record.player(!side).reading_language(ctx.server_lang),
        None => ctx.lang,
    }
}

/// Who must act next: the side to move, unless a draw offer or a takeback
/// request waits for the other side's answer.
pub(super) fn addressee(game: &Game) -> Color {
    match game.pending_offer().or(game.pending_takeback()) {
        Some(asker) => !asker,
        None => game.turn(),
    }
}

/// The move an upheld claim was written with, in English SAN, from the
/// notes the act added; `pos` is the position the claim was made in.
fn claimed_move(pos: &shakmaty::Chess, new_notes: &[Note]) -> Option<String> {
    new_notes.iter().find_map(|note| match &note.kind {
        NoteKind::ClaimUpheld {
            with_move: Some(uci),
            ..
        } => {
            let m = uci.parse::<UciMove>().ok()?.to_move(pos).ok()?;
            Some(notation::write_san(pos, m, Style::English))
        }
        _ => None,
    })
}

/// The move text a command carries, if any.
fn move_text(command: &Command) -> Option<&str> {
    match command {
        Command::Move { text, .. } => Some(text),
        Command::Claim { with_move, .. } => with_move.as_deref(),
        _ => None,
    }
}

/// Rebuilds the core's game from its stored record.
pub(super) fn restore(record: &GameRecord) -> Result<Game, StorageError> {
    try_restore(record).map_err(|e| StorageError::Corrupt(format!("game {}: {e}", record.id)))
}

/// Rebuilds the core's game from its stored record, or says which stored
/// part the rules refuse (`pawnpost check` reports it as such).
pub(super) fn try_restore(record: &GameRecord) -> Result<Game, RestoreError> {
    let players = Players {
        white: record.white,
        black: record.black,
    };
    let moves = record.moves.iter().map(|row| StoredMove {
        uci: &row.uci,
        san: &row.san,
        at: row.played_at,
        draw_offer: row.draw_offer,
    });
    let mut game = Game::restore(
        record.variant,
        players,
        record.start_fen.as_deref(),
        record.draw_rules,
        record.created_at,
        moves,
        record.notes.clone(),
        record.pending_offer,
        record.state,
    )?;
    if let Some(clock) = record.clock {
        game.set_clock(clock);
    }
    Ok(game)
}

/// How much of a game its store already holds: a save appends the moves
/// and notes that came after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Saved {
    pub moves: usize,
    pub notes: usize,
}

impl Saved {
    /// Everything `game` holds now.
    pub(super) fn all_of(game: &Game) -> Saved {
        Saved {
            moves: game.moves().len(),
            notes: game.notes().len(),
        }
    }
}

/// The save of `game`, read from the store as `record` holding `saved` of
/// it: the moves and notes since, and the game's state, offer, turn and
/// clock now, with its next reminder. Every game an act changes is saved
/// through here.
pub(super) fn game_update(
    record: &GameRecord,
    game: &Game,
    saved: Saved,
    remind_at: Option<DateTime<Utc>>,
) -> GameUpdate {
    GameUpdate {
        id: record.id,
        expected_version: record.version,
        new_moves: to_rows(game, saved.moves),
        new_notes: game.notes()[saved.notes..].to_vec(),
        state: game.status(),
        pending_offer: game.pending_offer(),
        turn: game.turn(),
        clock: Some(*game.clock()),
        remind_at,
        wake_up: WakeUp::NoLater,
        // An act that answers or adds lines sets them; others keep them.
        conditionals: record.conditionals.clone(),
        truncate_to: None,
    }
}

pub(super) fn to_rows(game: &Game, from: usize) -> Vec<MoveRow> {
    game.moves()[from..]
        .iter()
        .enumerate()
        .map(|(offset, played)| MoveRow {
            ply: (from + offset + 1) as u32,
            uci: played.uci.to_string(),
            san: played.san.to_string(),
            played_at: played.at,
            draw_offer: played.draw_offer,
        })
        .collect()
}

pub(super) fn board_view(game: &Game, id: i64, names: &Names, orientation: Color) -> BoardView {
    BoardView {
        game: id,
        fen: Fen::from_position(game.position(), EnPassantMode::Legal).to_string(),
        last_move: game.moves().last().map(|m| m.uci.to_string()),
        orientation: crate::core::event::color_str(orientation).to_owned(),
        white: names.display(Color::White).to_owned(),
        black: names.display(Color::Black).to_owned(),
        flag_at: game.clock().deadline().filter(|_| !game.is_over()),
        result: match game.status() {
            Status::Over { result, .. } if result != crate::core::event::GameResult::NoResult => {
                Some(result.as_pgn().to_owned())
            }
            _ => None,
        },
        white_clock: None,
        black_clock: None,
    }
}
