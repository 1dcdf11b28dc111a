//! Glicko-2 ratings: updated in the same commit that ends a rated game,
//! and shown by `rating [@user]` with a chart of their history.

use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::{Attachment, Attempt, Context, Service};
use crate::competition::glicko2::{self, Rating};
use crate::core::command::UserRef;
use crate::core::event::{GameResult, Reason};
use crate::core::notation::Lang;
use crate::core::variant::Variant;
use crate::i18n::{Arg, I18n};
use crate::render::rating_chart::{ChartLabels, RatingSample, rating_chart_png};
use crate::storage::{GameRecord, RatingRow, RatingUpdate, Status, StorageError};

/// How one player's rating moved with a game.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct RatingChange {
    pub name: String,
    pub before: f64,
    pub after: f64,
}

impl Service {
    /// Where ratings of server `server_id`'s games are kept: the club's
    /// (its founding server's id) for a member of a club, so a person has
    /// one rating per pool on every server of it; else the server's own.
    pub(super) async fn rating_scope(&self, server_id: i64) -> Result<i64, StorageError> {
        let Some(club) = self.store.club_of_server(server_id).await? else {
            return Ok(server_id);
        };
        Ok(self.store.club_founder(club).await?.unwrap_or(server_id))
    }

    /// The rating updates for a game that `state` ends, if it was rated and
    /// scored (aborted games are not), with what to tell the players.
    pub(super) async fn rating_updates(
        &self,
        record: &GameRecord,
        state: &Status,
    ) -> Result<(Vec<RatingUpdate>, Vec<RatingChange>), StorageError> {
        let Status::Over {
            result,
            reason,
            at: ended_at,
        } = *state
        else {
            return Ok((Vec::new(), Vec::new()));
        };
        // A forfeit was never played: it scores, but is not rated.
        if reason == Reason::NoShow {
            return Ok((Vec::new(), Vec::new()));
        }
        let white_score = match result {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
            GameResult::NoResult => return Ok((Vec::new(), Vec::new())),
        };
        if !record.rated || record.state != Status::Ongoing {
            return Ok((Vec::new(), Vec::new()));
        }
        let settings = &self.config.ratings;
        // Each variant is its own pool: a Chess960 result moves only
        // Chess960 ratings.
        let pool = record.variant;
        // One rating per pool for a person, in their club (see `rating_scope`).
        let scope = self.rating_scope(record.server_id).await?;
        let (white_person, black_person) = (record.white_player.person, record.black_player.person);
        let white = self.store.rating(scope, white_person, pool).await?;
        let black = self.store.rating(scope, black_person, pool).await?;
        let current = |row: &Option<RatingRow>| match row {
            Some(row) => (
                Rating {
                    rating: row.rating,
                    deviation: row.deviation,
                    volatility: row.volatility,
                },
                idle_days(row.rated_at, ended_at),
                row.games,
            ),
            None => (Rating::initial(settings), 0.0, 0),
        };
        let (w, w_days, w_games) = current(&white);
        let (b, b_days, b_games) = current(&black);
        let (new_w, new_b) = glicko2::rate_game((w, w_days), (b, b_days), white_score, settings);
        let update = |player, expected_games, rating: Rating| RatingUpdate {
            server_id: scope,
            player,
            pool,
            expected_games,
            rating: rating.rating,
            deviation: rating.deviation,
            volatility: rating.volatility,
            game_id: record.id,
            at: ended_at,
        };
        let changes = vec![
            RatingChange {
                name: record.white_player.display_name.clone(),
                before: w.rating,
                after: new_w.rating,
            },
            RatingChange {
                name: record.black_player.display_name.clone(),
                before: b.rating,
                after: new_b.rating,
            },
        ];
        Ok((
            vec![
                update(white_person, w_games, new_w),
                update(black_person, b_games, new_b),
            ],
            changes,
        ))
    }

    pub(super) async fn rating(
        &self,
        ctx: &Context,
        user: Option<&UserRef>,
        now: DateTime<Utc>,
    ) -> Attempt {
        let player = match user {
            None => Some(ctx.player.clone()),
            Some(user) => self.store.find_player(ctx.platform, user.as_str()).await?,
        };
        let Some(player) = player else {
            let name = user.map(UserRef::as_str).unwrap_or_default();
            let text = self.text(ctx, "rating-unknown", &[("player", Arg::from(name))]);
            return Ok(vec![self.private(ctx, text)]);
        };
        let settings = &self.config.ratings;
        let (scope, person) = (self.rating_scope(ctx.server.id).await?, player.person);
        let row = self.store.rating(scope, person, Variant::Standard).await?;
        let (rating, games) = aged_rating(row.as_ref(), settings, now);
        let shown = rating_text(&rating, settings);
        let mut text = self.text(
            ctx,
            "rating-current",
            &[
                ("player", Arg::from(player.display_name.as_str())),
                ("rating", Arg::from(shown)),
                ("deviation", Arg::from(rating.deviation.round() as i64)),
                ("games", Arg::from(games)),
            ],
        );
        // The Chess960 pool, once the player has a rating there.
        let chess960 = self.store.rating(scope, person, Variant::Chess960).await?;
        if let Some(row) = chess960 {
            let (rating, games) = aged_rating(Some(&row), settings, now);
            let line = self.text(
                ctx,
                "rating-chess960",
                &[
                    ("rating", Arg::from(rating_text(&rating, settings))),
                    ("deviation", Arg::from(rating.deviation.round() as i64)),
                    ("games", Arg::from(games)),
                ],
            );
            text = format!("{text}\n{line}");
        }
        // The chart is the standard pool's.
        let history = self
            .store
            .rating_history(scope, person, Variant::Standard)
            .await?;
        // The rating after each rated game, as lichess charts it.
        let samples: Vec<RatingSample> = history
            .iter()
            .map(|p| RatingSample {
                at: p.at,
                rating: p.rating,
                deviation: p.deviation,
            })
            .collect();
        let title = self.text(
            ctx,
            "rating-chart-title",
            &[("player", Arg::from(player.display_name.as_str()))],
        );
        let labels = ChartLabels {
            title: &title,
            x: &self.text(ctx, "rating-chart-x", &[]),
            y: &self.text(ctx, "rating-chart-y", &[]),
        };
        let mut reply = self.public(ctx, None, text);
        match rating_chart_png(&labels, &samples) {
            Ok(png) => reply.attachments.push(Attachment {
                filename: format!("rating-{}.png", player.id.0),
                content_type: "image/png".to_owned(),
                bytes: Arc::from(png),
            }),
            Err(error) => tracing::error!(%error, "cannot draw a rating chart"),
        }
        Ok(vec![reply])
    }
}

/// A stored rating as it reads at `now`, with its count of rated games (the
/// configured start for a player without one). As lichess shows it: the
/// deviation aged for the days since the player's last rated game, so an
/// idle player's rating reads as the less certain one it has become.
fn aged_rating(
    row: Option<&RatingRow>,
    settings: &glicko2::RatingSettings,
    now: DateTime<Utc>,
) -> (Rating, u32) {
    match row {
        Some(row) => (
            Rating {
                rating: row.rating,
                deviation: row.deviation,
                volatility: row.volatility,
            }
            .aged(idle_days(row.rated_at, now), settings),
            row.games,
        ),
        None => (Rating::initial(settings), 0),
    }
}

/// Days between two instants, fractional, never negative.
fn idle_days(from: DateTime<Utc>, to: DateTime<Utc>) -> f64 {
    ((to - from).num_seconds().max(0) as f64) / 86_400.0
}

/// A rating rounded, with `?` while it is provisional (as lichess shows it).
pub(super) fn rating_text(rating: &Rating, settings: &glicko2::RatingSettings) -> String {
    let whole = rating.rating.round() as i64;
    if rating.is_provisional(settings) {
        format!("{whole}?")
    } else {
        whole.to_string()
    }
}

/// "alice 1500 → 1662 (+162), bob 1500 → 1338 (-162)" in the reader's language.
pub(super) fn changes_text(i18n: &I18n, lang: Lang, changes: &[RatingChange]) -> String {
    let parts: Vec<String> = changes
        .iter()
        .map(|c| {
            let delta = (c.after.round() - c.before.round()) as i64;
            i18n.text(
                lang,
                "rating-change",
                &[
                    ("player", Arg::from(c.name.as_str())),
                    ("before", Arg::from(c.before.round() as i64)),
                    ("after", Arg::from(c.after.round() as i64)),
                    ("delta", Arg::from(format!("{delta:+}"))),
                ],
            )
        })
        .collect();
    parts.join(", ")
}
