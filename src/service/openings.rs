//! `/openings`: the server's most played openings and how they scored,
//! as text and as a table image.

use super::{Attachment, Attempt, Context, Service};
use crate::core::opening::{self, Tally};
use crate::i18n::Arg;

/// The latest finished games looked at: a bound on the work one command
/// asks for (each is replayed for its first moves).
const MAX_GAMES: usize = 2000;
/// Moves replayed per game: the deepest named line is shorter.
const PLIES: u32 = 40;
/// Openings listed in the text; the image shows twice as many.
const TEXT_ROWS: usize = 10;

impl Service {
    pub(super) async fn openings(&self, ctx: &Context) -> Attempt {
        let games = self
            .store
            .openings_played(ctx.server.id, MAX_GAMES, PLIES)
            .await?;
        let tallies = opening::tally(
            games
                .iter()
                .map(|(result, moves)| (opening::of_uci_moves(moves), *result)),
        );
        if tallies.is_empty() {
            return Ok(vec![self.public(
                ctx,
                None,
                self.text(ctx, "openings-none", &[]),
            )]);
        }
        let mut lines = vec![self.text(
            ctx,
            "openings-header",
            &[("games", Arg::from(games.len() as i64))],
        )];
        for tally in tallies.iter().take(TEXT_ROWS) {
            lines.push(self.text(
                ctx,
                "openings-line",
                &[
                    ("eco", Arg::from(tally.opening.eco)),
                    ("name", Arg::from(tally.opening.name)),
                    ("games", Arg::from(tally.games())),
                    ("white", Arg::from(tally.white_wins)),
                    ("draws", Arg::from(tally.draws)),
                    ("black", Arg::from(tally.black_wins)),
                    ("score", Arg::from(tally.white_score_percent())),
                ],
            ));
        }
        let mut reply = self.public(ctx, None, lines.join("\n"));
        reply.attachments.extend(self.openings_png(ctx, &tallies));
        Ok(vec![reply])
    }

    fn openings_png(&self, ctx: &Context, tallies: &[Tally]) -> Option<Attachment> {
        let header: Vec<String> = [
            "eco", "opening", "games", "white", "draws", "black", "score",
        ]
        .iter()
        .map(|column| self.text(ctx, &format!("openings-png-header-{column}"), &[]))
        .collect();
        let cells: Vec<Vec<String>> = tallies
            .iter()
            .take(2 * TEXT_ROWS)
            .map(|t| {
                vec![
                    t.opening.eco.to_owned(),
                    t.opening.name.to_owned(),
                    t.games().to_string(),
                    t.white_wins.to_string(),
                    t.draws.to_string(),
                    t.black_wins.to_string(),
                    format!("{}%", t.white_score_percent()),
                ]
            })
            .collect();
        self.table_picture(ctx, "openings", &header, &cells)
    }
}
