//! `/note` and `/notes`: what a player keeps on one of their games, seen
//! only by them, and written as comments in the PGN they alone receive.

use chrono::{DateTime, Utc};
use shakmaty::{Color, Position};

use super::games::Pick;
use super::{Attempt, Context, Service};
use crate::core::notation::{self, Style};
use crate::i18n::Arg;
use crate::storage::{Commit, PrivateNote};

impl Service {
    pub(super) async fn note(
        &self,
        ctx: &Context,
        text: &str,
        game_id: Option<i64>,
        now: DateTime<Utc>,
    ) -> Attempt {
        let loaded = match self.pick_game(ctx, game_id, false).await? {
            Pick::Game(loaded, _) => loaded,
            Pick::Answer(replies) => return Ok(replies),
        };
        let (record, game) = (&loaded.record, &loaded.game);
        if game.players().side_of(ctx.player.id).is_none() {
            return Ok(vec![
                self.secret(ctx, self.text(ctx, "refused-not_a_player", &[])),
            ]);
        }
        let note = PrivateNote {
            game_id: record.id,
            player: ctx.player.id,
            ply: game.moves().len() as u32,
            written_at: now,
            // One line: a PGN comment and a chat list keep it readable.
            text: text.split_whitespace().collect::<Vec<_>>().join(" "),
        };
        let commit = Commit {
            act_key: ctx.act_key.clone(),
            private_note: Some(note),
            ..Commit::default()
        };
        let kept = self.text(ctx, "note-kept", &[("game", Arg::from(record.id))]);
        let replies = vec![self.secret(ctx, kept)];
        let (_, replies) = self.commit_act(ctx, commit, now, move |_| replies).await?;
        Ok(replies)
    }

    pub(super) async fn notes(&self, ctx: &Context, game_id: Option<i64>) -> Attempt {
        let loaded = match self.pick_game(ctx, game_id, false).await? {
            Pick::Game(loaded, _) => loaded,
            Pick::Answer(replies) => return Ok(replies),
        };
        let (record, game) = (&loaded.record, &loaded.game);
        let game_arg = || [("game", Arg::from(record.id))];
        let notes = self.store.private_notes(record.id, ctx.player.id).await?;
        if notes.is_empty() {
            return Ok(vec![
                self.secret(ctx, self.text(ctx, "notes-none", &game_arg())),
            ]);
        }
        let style = Style::for_lang(ctx.lang);
        let mut lines = vec![self.text(ctx, "notes-list", &game_arg())];
        for note in notes {
            let after = match (note.ply as usize).checked_sub(1) {
                None => self.text(ctx, "note-at-start", &[]),
                Some(index) => {
                    let Some(played) = game.moves().get(index) else {
                        continue;
                    };
                    // Counted from the start position, which may have Black to move.
                    let start = game.start_position();
                    let k = index + usize::from(start.turn() == Color::Black);
                    let number = start.fullmoves().get() as usize + k / 2;
                    let dots = if k % 2 == 0 { "." } else { "..." };
                    let san = notation::restyle_san(&played.san.to_string(), style);
                    self.text(
                        ctx,
                        "note-after",
                        &[("move", Arg::from(format!("{number}{dots} {san}")))],
                    )
                }
            };
            lines.push(format!("• {after} {}", note.text));
        }
        Ok(vec![self.secret(ctx, lines.join("\n"))])
    }
}
