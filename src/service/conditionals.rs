//! `/if`: a player's conditional moves (see [`crate::core::conditional`]).
//!
//! Everything said about a player's lines is private to them: stored,
//! listed and cleared in replies only they see. The opponent learns of a
//! line only when its reply is played, as a move like any other.

use chrono::{DateTime, Utc};
use shakmaty::{Chess, Color, Position, san::SanPlus, uci::UciMove};

use super::cache::LoadedGame;
use super::games::{Pick, Saved, game_update};
use super::notation::Typing;
use super::{Attempt, Context, Reply, Service, texts};
use crate::core::command::{Command, IfAction};
use crate::core::conditional::{self, Conditionals, LineError, Lines, MAX_LINES, MAX_PLIES};
use crate::core::event::Event;
use crate::core::game::{Game, GameError};
use crate::core::notation::{self, Lang, Style};
use crate::i18n::Arg;
use crate::storage::{Commit, GameRecord, GameUpdate};

impl Service {
    pub(super) async fn if_act(
        &self,
        ctx: &Context,
        action: &IfAction,
        game_id: Option<i64>,
        now: DateTime<Utc>,
    ) -> Attempt {
        let loaded = match self.pick_game(ctx, game_id, true).await? {
            Pick::Game(loaded, _) => loaded,
            Pick::Answer(replies) => return Ok(replies),
        };
        let (record, game) = (&loaded.record, &loaded.game);
        let Some(side) = game.players().side_of(ctx.player.id) else {
            return Ok(vec![
                self.secret(ctx, self.text(ctx, "refused-not_a_player", &[])),
            ]);
        };
        let id = Arg::from(record.id);
        if game.is_over() {
            let text = self.text(ctx, "if-game-over", &[("game", id)]);
            return Ok(vec![self.secret(ctx, text)]);
        }
        let words = match action {
            IfAction::List => {
                let lines = record.conditionals.of(side);
                let text = match lines.is_empty() {
                    true => self.text(ctx, "if-none", &[("game", id)]),
                    false => self.lines_text(ctx.lang, "if-list", record.id, game, lines),
                };
                return Ok(vec![self.secret(ctx, text)]);
            }
            IfAction::Clear => return self.clear_lines(ctx, record, game, side, now).await,
            IfAction::Add(words) => words,
        };
        if game.turn() == side {
            // One's own turn: the first move is played now, as /move would,
            // and the rest waits for the opponent's answer.
            let (first, rest) = words.split_first().expect("a line has moves");
            let play = Command::Move {
                text: first.clone(),
                offer_draw: false,
                game: Some(record.id),
            };
            return self.game_act_storing(ctx, &play, Some(rest), now).await;
        }
        let mut lines = record.conditionals.clone();
        if let Err(refusal) = self.add_line(ctx, game, &mut lines, side, words) {
            return Ok(vec![self.secret(ctx, refusal)]);
        }
        let text = self.lines_text(ctx.lang, "if-stored", record.id, game, lines.of(side));
        self.save_lines(ctx, record, game, lines, text, now).await
    }

    /// Reads `words` from `game`'s position (the opponent to move) and adds
    /// them to `side`'s lines, or says why not (in the actor's words).
    pub(super) fn add_line(
        &self,
        ctx: &Context,
        game: &Game,
        lines: &mut Conditionals,
        side: Color,
        words: &[String],
    ) -> Result<(), String> {
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let typing = Typing::of(ctx);
        let read = conditional::read_line(game.position(), &words, &typing.reader)
            .map(|moves| moves.into_iter().map(conditional::uci_of).collect())
            .and_then(|line| lines.of_mut(side).add(line));
        read.map_err(|error| self.line_refusal(ctx.lang, &typing, game.position(), &words, &error))
    }

    async fn clear_lines(
        &self,
        ctx: &Context,
        record: &GameRecord,
        game: &Game,
        side: Color,
        now: DateTime<Utc>,
    ) -> Attempt {
        let mut lines = record.conditionals.clone();
        let text = self.text(ctx, "if-cleared", &[("game", Arg::from(record.id))]);
        if lines.of(side).is_empty() {
            return Ok(vec![self.secret(ctx, text)]);
        }
        *lines.of_mut(side) = Lines::default();
        self.save_lines(ctx, record, game, lines, text, now).await
    }

    /// Commits the game's new `lines` (nothing else of it changes) and
    /// answers the actor alone with `answer`.
    async fn save_lines(
        &self,
        ctx: &Context,
        record: &GameRecord,
        game: &Game,
        lines: Conditionals,
        answer: String,
        now: DateTime<Utc>,
    ) -> Attempt {
        let update = GameUpdate {
            conditionals: lines,
            ..game_update(record, game, Saved::all_of(game), record.remind_at)
        };
        // Once committed, the next act on the game starts from its new
        // lines without a reload.
        let next = LoadedGame::saved(record, &update, game.clone());
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            game_updates: vec![update],
            ..Commit::default()
        };
        let replies = vec![self.secret(ctx, answer)];
        let (_, replies) = self.commit_act(ctx, commit, now, move |_| replies).await?;
        self.games.put(next);
        Ok(replies)
    }

    /// An answer for the actor alone that tells their lines.
    pub(super) fn secret(&self, ctx: &Context, text: String) -> Reply {
        Reply {
            secret: true,
            ..self.private(ctx, text)
        }
    }

    /// `key`'s heading, then each line in the reader's notation with move
    /// numbers from the game's next move (`1... e5 2. Nf3 Nc6 3. Bb5`).
    pub(super) fn lines_text(
        &self,
        lang: Lang,
        key: &str,
        game_id: i64,
        game: &Game,
        lines: &Lines,
    ) -> String {
        let mut text = vec![self.i18n.text(lang, key, &[("game", Arg::from(game_id))])];
        let style = Style::for_lang(lang);
        let first_ply = game.moves().len() as u32 + 1;
        for line in lines.iter() {
            text.push(format!(
                "• {}",
                numbered(game.position(), first_ply, line, style)
            ));
        }
        text.join("\n")
    }

    fn line_refusal(
        &self,
        lang: Lang,
        typing: &Typing,
        start: &Chess,
        words: &[&str],
        error: &LineError,
    ) -> String {
        let max = |n: usize| [("max", Arg::from(n as i64))];
        match error {
            LineError::TooShort => self.i18n.text(lang, "if-too_short", &[]),
            LineError::EndsWithTheirMove => self.i18n.text(lang, "if-ends_with_their_move", &[]),
            LineError::TooLong => self.i18n.text(lang, "if-too_long", &max(MAX_PLIES)),
            LineError::TooMany => self.i18n.text(lang, "if-too_many", &max(MAX_LINES)),
            LineError::OtherReply { at, stored } => {
                let mut position = start.clone();
                for word in words.iter().take(*at) {
                    match notation::parse_move(&position, word, &typing.reader) {
                        Ok(m) => position.play_unchecked(m),
                        Err(_) => break,
                    }
                }
                let san = san_of(&position, stored, Style::for_lang(lang));
                self.i18n
                    .text(lang, "if-other_reply", &[("stored", Arg::from(san))])
            }
            LineError::Move { at, error } => {
                let mut position = start.clone();
                for word in words.iter().take(*at) {
                    if let Ok(m) = notation::parse_move(&position, word, &typing.reader) {
                        position.play_unchecked(m);
                    }
                }
                let input = words.get(*at).copied().unwrap_or_default();
                let error = GameError::Move(error.clone());
                let refusal =
                    texts::game_refusal(&self.i18n, lang, typing, &error, &position, input);
                self.i18n.text(
                    lang,
                    "if-bad_move",
                    &[
                        ("at", Arg::from(*at as i64 + 1)),
                        ("refusal", Arg::from(refusal)),
                    ],
                )
            }
        }
    }

    /// The away player's notice that their line answered: in their
    /// language, by direct message if they asked for those, else in the
    /// channel mentioning them.
    pub(super) fn conditional_notice(
        &self,
        ctx: &Context,
        record: &GameRecord,
        game: &Game,
        actor_side: Option<Color>,
        answered: &[Event],
    ) -> Option<Reply> {
        let away = actor_side.map(|side| !side)?;
        let (ply, san) = answered.iter().find_map(|event| match event {
            Event::MovePlayed { ply, san, by, .. } if *by == away => Some((*ply, san)),
            _ => None,
        })?;
        let theirs = game.moves().get((ply as usize).checked_sub(2)?)?;
        let reader = record.player(away);
        let lang = reader.reading_language(ctx.server_lang);
        let style = Style::for_lang(lang);
        let text = self.i18n.text(
            lang,
            "if-played",
            &[
                ("player", Arg::from(reader.display_name.as_str())),
                ("san", Arg::from(notation::restyle_san(san, style))),
                (
                    "theirs",
                    Arg::from(notation::restyle_san(&theirs.san.to_string(), style)),
                ),
                ("game", Arg::from(record.id)),
            ],
        );
        Some(Reply {
            channel: record.channel.clone(),
            direct: reader.notify == crate::storage::Notify::Direct,
            ..self.public(ctx, Some(reader.platform_id.clone()), text)
        })
    }
}

/// `line` (UCI) as numbered moves in `style`, from `position` at `ply`.
fn numbered(position: &Chess, ply: u32, line: &[String], style: Style) -> String {
    let mut position = position.clone();
    let mut out = Vec::with_capacity(line.len() + line.len() / 2 + 1);
    for (offset, uci) in line.iter().enumerate() {
        let ply = ply + offset as u32;
        let number = ply.div_ceil(2);
        let Some(m) = UciMove::from_ascii(uci.as_bytes())
            .ok()
            .and_then(|u| u.to_move(&position).ok())
        else {
            break;
        };
        match (ply % 2 == 1, offset) {
            (true, _) => out.push(format!("{number}.")),
            (false, 0) => out.push(format!("{number}...")),
            (false, _) => {}
        }
        let san = SanPlus::from_move_and_play_unchecked(&mut position, m);
        out.push(notation::restyle_san(&san.to_string(), style));
    }
    out.join(" ")
}

/// One stored UCI move as SAN in `style`, from `position`.
fn san_of(position: &Chess, uci: &str, style: Style) -> String {
    UciMove::from_ascii(uci.as_bytes())
        .ok()
        .and_then(|u| u.to_move(position).ok())
        .map(|m| SanPlus::from_move(position.clone(), m).to_string())
        .map_or_else(|| uci.to_owned(), |san| notation::restyle_san(&san, style))
}
