//! How a player's move texts are read, and how moves offered to them are
//! written: their notation (`/settings notation`), the letters they settled
//! by answering which reading they meant, and the question that settles one.
//!
//! A player who said their notation is read in it alone (plus the readings
//! no notation shares); one who answered "Ra8-d8, not Ke8-d8" about `Rd8`
//! has `R` read as the rook from then on, and is told so. Hints and
//! suggestions are written so that the player reads them as one move only
//! ([`notation::write_unmistakable`]).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Move};

use super::{Attempt, Context, Reply, Service};
use crate::core::names::Named;
use crate::core::notation::{self, Lang, Reader, Style};
use crate::i18n::Arg;
use crate::storage::{Commit, PlayerNotation};

/// How a player types moves: how their texts are read, and the letters the
/// texts offered to them (hints, suggestions) are written in.
#[derive(Clone, Debug)]
pub(super) struct Typing {
    pub reader: Reader,
    pub style: Style,
}

impl Typing {
    /// The acting player's.
    pub fn of(ctx: &Context) -> Typing {
        Typing::of_player(ctx.lang, &ctx.player.notation)
    }

    /// A player's who reads `lang`, with `notation` stored for them: their
    /// notation's letters when they set one, else their language's.
    pub fn of_player(lang: Lang, notation: &PlayerNotation) -> Typing {
        Typing {
            reader: Reader::speaking(lang).settled(notation.settled()),
            style: notation
                .notation
                .map_or(Style::for_lang(lang), Style::of_notation),
        }
    }

    /// `m` (legal in `pos`) written so that this player reads it as `m` alone.
    pub fn write(&self, pos: &Chess, m: Move) -> String {
        notation::write_unmistakable(pos, m, self.style, &self.reader)
    }
}

/// A question about a letter's reading, kept until the player answers it:
/// the game, the moves played when asked, and the text typed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Question {
    pub game: i64,
    pub ply: u32,
    pub text: String,
}

impl Question {
    /// The question to keep when `text`, typed in `game` at `pos` (after
    /// `ply` moves), had `candidates` from different readings of a letter;
    /// `None` when choosing would settle nothing (two rooks reach d1).
    pub fn asked(
        game: i64,
        ply: usize,
        pos: &Chess,
        text: &str,
        typing: &Typing,
        candidates: &[Move],
    ) -> Option<Question> {
        let settles = candidates
            .iter()
            .any(|m| notation::settling_letter(pos, text, &typing.reader, *m).is_some());
        settles.then(|| Question {
            game,
            ply: ply as u32,
            text: text.to_owned(),
        })
    }

    fn of_player(notation: &PlayerNotation) -> Option<Question> {
        serde_json::from_str(notation.question.as_deref()?).ok()
    }
}

/// What a move answering a question settles: the player's notation to
/// store, and the letter and piece to tell them.
pub(super) struct Settled {
    pub notation: PlayerNotation,
    pub letter: char,
    pub role: shakmaty::Role,
}

impl Service {
    pub(super) async fn set_notation(
        &self,
        ctx: &Context,
        notation: Option<Lang>,
        now: DateTime<Utc>,
    ) -> Attempt {
        // A notation said outright replaces the letters answers settled.
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            player_notation: Some((
                ctx.player.id,
                PlayerNotation {
                    notation,
                    ..PlayerNotation::default()
                },
            )),
            ..Commit::default()
        };
        let key = match notation {
            Some(lang) => format!("notation-set-{}", lang.as_str()),
            None => "notation-auto".to_owned(),
        };
        let reply = self.private(ctx, self.text(ctx, &key, &[]));
        self.commit_setting(ctx, commit, now, reply).await
    }

    /// The player's notation with `question` kept (a move that asked
    /// about a letter's reading), for the refused act's commit.
    pub(super) fn keep_question(ctx: &Context, question: &Question) -> Commit {
        let notation = PlayerNotation {
            question: serde_json::to_string(question).ok(),
            ..ctx.player.notation.clone()
        };
        Commit {
            act_key: ctx.act_key.clone(),
            player_notation: Some((ctx.player.id, notation)),
            ..Commit::default()
        }
    }

    /// What the move `played` by the actor in `game`, at `pos` after `ply`
    /// moves, settles: the letter of the question it answers, if any. The
    /// question is dropped (`Some` with nothing settled) once the player
    /// moved on from it in that game.
    pub(super) fn answer_question(
        ctx: &Context,
        game: i64,
        ply: usize,
        pos: &Chess,
        played: Move,
    ) -> Option<Result<Settled, PlayerNotation>> {
        let question = Question::of_player(&ctx.player.notation)?;
        if question.game != game {
            return None;
        }
        let mut notation = PlayerNotation {
            question: None,
            ..ctx.player.notation.clone()
        };
        let reader = &Typing::of(ctx).reader;
        let settled = (question.ply as usize == ply)
            .then(|| notation::settling_letter(pos, &question.text, reader, played))
            .flatten();
        Some(match settled {
            Some((letter, role)) => {
                notation.letters = notation.letters.with(letter, role);
                Ok(Settled {
                    notation,
                    letter,
                    role,
                })
            }
            None => Err(notation),
        })
    }

    /// Tells the player what their answer settled.
    pub(super) fn settled_reply(&self, ctx: &Context, settled: &Settled) -> Reply {
        let piece = self.text(
            ctx,
            &format!("piece-{}", notation::role_name(settled.role)),
            &[],
        );
        let text = self.text(
            ctx,
            "notation-letter-settled",
            &[
                ("letter", Arg::from(settled.letter.to_string())),
                ("piece", Arg::from(piece)),
            ],
        );
        self.private(ctx, text)
    }
}
