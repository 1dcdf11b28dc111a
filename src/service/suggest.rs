//! Suggestions while a user types (Discord's autocomplete): the caller's
//! legal moves and games. They change nothing and store no answer.

use chrono::{DateTime, Utc};
use shakmaty::Position;

use super::games::Pick;
use super::notation::Typing;
use super::{Opened, Request, Service};
use crate::storage::StorageError;

/// Longest typed text looked at; more than any move needs.
const MAX_TYPED: usize = 16;

impl Service {
    /// Up to `limit` legal moves of the caller's game (the one named, or
    /// their only running game in the act's channel), written in their
    /// notation as texts with one reading for them; those matching what
    /// they typed first. Empty when it is not
    /// their move or the game cannot be told.
    pub async fn move_choices(
        &self,
        act: &Request,
        game: Option<i64>,
        typed: &str,
        limit: usize,
        now: DateTime<Utc>,
    ) -> Result<Vec<String>, StorageError> {
        let ctx = match self.open(&without_key(act), now).await? {
            Opened::New(ctx) => ctx,
            Opened::Answered(_) => return Ok(Vec::new()),
        };
        let loaded = match self.pick_game(&ctx, game, true).await? {
            Pick::Game(loaded, _) => loaded,
            Pick::Answer(_) => return Ok(Vec::new()),
        };
        let game = &loaded.game;
        if game.is_over() || game.players().get(game.turn()) != ctx.player.id {
            return Ok(Vec::new());
        }
        // Each written so that the player reads it as that move alone: no
        // suggestion is then asked about (`Rad8` where `Rd8` has two readings).
        let typing = Typing::of(&ctx);
        let pos = game.position();
        let written = pos.legal_moves().into_iter().map(|m| typing.write(pos, m));
        Ok(rank_matches(written, typed, limit))
    }

    /// Up to `limit` of the caller's running games in the act's channel, as
    /// (game id, "#id: white – black").
    pub async fn game_choices(
        &self,
        act: &Request,
        limit: usize,
        now: DateTime<Utc>,
    ) -> Result<Vec<(i64, String)>, StorageError> {
        let ctx = match self.open(&without_key(act), now).await? {
            Opened::New(ctx) => ctx,
            Opened::Answered(_) => return Ok(Vec::new()),
        };
        let games = self
            .store
            .games_in_channel(ctx.channel.id, ctx.player.id, true)
            .await?;
        Ok(games
            .into_iter()
            .take(limit)
            .map(|g| {
                (
                    g.id,
                    format!("#{}: {} – {}", g.id, g.white_name, g.black_name),
                )
            })
            .collect())
    }
}

/// Suggestions are never replays: they must not look up or store answers.
fn without_key(act: &Request) -> Request {
    Request {
        key: None,
        ..act.clone()
    }
}

/// Lower case without capture, check and promotion marks, for matching.
fn loose(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, 'x' | 'X' | '+' | '#' | '=' | '-' | ':'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Moves starting with `typed` first, then those containing it, each in
/// the order given; at most `limit`.
fn rank_matches(moves: impl Iterator<Item = String>, typed: &str, limit: usize) -> Vec<String> {
    let typed: String = loose(typed.trim()).chars().take(MAX_TYPED).collect();
    let (mut starting, mut containing) = (Vec::new(), Vec::new());
    for written in moves {
        let key = loose(&written);
        if key.starts_with(&typed) {
            starting.push(written);
        } else if key.contains(&typed) {
            containing.push(written);
        }
    }
    starting.extend(containing);
    starting.truncate(limit);
    starting
}

#[cfg(test)]
mod tests {
    use super::rank_matches;

    fn moves(list: &[&str]) -> impl Iterator<Item = String> {
        list.iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .into_iter()
    }

    #[test]
    fn prefix_matches_come_first_and_marks_are_ignored() {
        let list = ["Nf3", "e4", "Bxe4", "exd5", "Qe2+"];
        let cases: &[(&str, &[&str])] = &[
            ("", &["Nf3", "e4", "Bxe4", "exd5", "Qe2+"]),
            ("e", &["e4", "exd5", "Bxe4", "Qe2+"]),
            ("ex", &["e4", "exd5", "Bxe4", "Qe2+"]),
            ("xe4", &["e4", "Bxe4"]),
            ("NF", &["Nf3"]),
            ("zz", &[]),
        ];
        for (typed, expected) in cases {
            assert_eq!(
                rank_matches(moves(&list), typed, 25),
                *expected,
                "{typed:?}"
            );
        }
        assert_eq!(rank_matches(moves(&list), "", 2).len(), 2);
    }
}
