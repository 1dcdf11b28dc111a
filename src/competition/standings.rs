//! 1/½/0 standings over finished games, optionally within a season (a
//! date range), and one player's record against another.

use chrono::{DateTime, Utc};

use crate::core::event::GameResult;
use crate::core::game::PlayerId;

/// A scored game as the standings need it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    pub white: PlayerId,
    pub black: PlayerId,
    pub result: GameResult,
    pub ended_at: DateTime<Utc>,
}

/// A named date range: games that ended in `[from, to)` count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Season {
    pub name: String,
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
}

impl Season {
    pub fn contains(&self, at: DateTime<Utc>) -> bool {
        self.from <= at && at < self.to
    }
}

/// One line of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub player: PlayerId,
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    /// Points times two.
    pub half_points: u32,
}

impl Line {
    /// The share of the points available, in per cent.
    pub fn percentage(&self) -> f64 {
        if self.played == 0 {
            0.0
        } else {
            f64::from(self.half_points) * 50.0 / f64::from(self.played)
        }
    }

    fn add(&mut self, half: u32) {
        self.played += 1;
        self.half_points += half;
        match half {
            2 => self.won += 1,
            1 => self.drawn += 1,
            _ => self.lost += 1,
        }
    }
}

/// White's points times two, or `None` for a game without a result.
fn white_half(result: GameResult) -> Option<u32> {
    match result {
        GameResult::WhiteWins => Some(2),
        GameResult::Draw => Some(1),
        GameResult::BlackWins => Some(0),
        GameResult::NoResult => None,
    }
}

/// The table, best first (points, then wins, then player id for a stable order).
pub fn table(games: &[Finished], season: Option<&Season>) -> Vec<Line> {
    let mut lines = tally(games, season);
    lines.sort_by(|a, b| by_score(a, b).then(a.player.cmp(&b.player)));
    lines
}

/// The table as a server's standings list it: best first (points, then
/// wins), players level on both by `name` (bytewise, so every store and
/// locale agree), then by id.
pub fn table_by_name<'a>(
    games: &[Finished],
    season: Option<&Season>,
    name: impl Fn(PlayerId) -> &'a str,
) -> Vec<Line> {
    let mut lines = tally(games, season);
    lines.sort_by(|a, b| {
        by_score(a, b)
            .then_with(|| name(a.player).cmp(name(b.player)))
            .then(a.player.cmp(&b.player))
    });
    lines
}

/// Better first: more points, then more wins.
fn by_score(a: &Line, b: &Line) -> std::cmp::Ordering {
    (b.half_points, b.won).cmp(&(a.half_points, a.won))
}

/// Every player's line over the scored games (of the season), unordered.
fn tally(games: &[Finished], season: Option<&Season>) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    let line_of = |player: PlayerId, lines: &mut Vec<Line>| -> usize {
        match lines.iter().position(|l| l.player == player) {
            Some(i) => i,
            None => {
                lines.push(Line {
                    player,
                    played: 0,
                    won: 0,
                    drawn: 0,
                    lost: 0,
                    half_points: 0,
                });
                lines.len() - 1
            }
        }
    };
    for game in games {
        if season.is_some_and(|s| !s.contains(game.ended_at)) {
            continue;
        }
        let Some(half) = white_half(game.result) else {
            continue;
        };
        let w = line_of(game.white, &mut lines);
        lines[w].add(half);
        let b = line_of(game.black, &mut lines);
        lines[b].add(2 - half);
    }
    lines
}

/// `a`'s record against `b`: wins, draws, losses.
pub fn record(games: &[Finished], a: PlayerId, b: PlayerId) -> (u32, u32, u32) {
    let mut tally = (0, 0, 0);
    for game in games {
        let Some(half) = white_half(game.result) else {
            continue;
        };
        let a_half = match (game.white, game.black) {
            (w, bl) if w == a && bl == b => half,
            (w, bl) if w == b && bl == a => 2 - half,
            _ => continue,
        };
        match a_half {
            2 => tally.0 += 1,
            1 => tally.1 += 1,
            _ => tally.2 += 1,
        }
    }
    tally
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn day(d: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, d, 12, 0, 0).unwrap()
    }

    fn games() -> Vec<Finished> {
        let g = |w, b, result, d| Finished {
            white: PlayerId(w),
            black: PlayerId(b),
            result,
            ended_at: day(d),
        };
        vec![
            g(1, 2, GameResult::WhiteWins, 1),
            g(2, 1, GameResult::Draw, 5),
            g(3, 1, GameResult::BlackWins, 10),
            g(2, 3, GameResult::NoResult, 11),
            g(3, 2, GameResult::WhiteWins, 20),
        ]
    }

    #[test]
    fn the_table_counts_scored_games_best_first() {
        let lines = table(&games(), None);
        let summary: Vec<(i64, u32, u32, u32, u32, u32)> = lines
            .iter()
            .map(|l| (l.player.0, l.played, l.won, l.drawn, l.lost, l.half_points))
            .collect();
        assert_eq!(
            summary,
            [(1, 3, 2, 1, 0, 5), (3, 2, 1, 0, 1, 2), (2, 3, 0, 1, 2, 1)]
        );
        assert!((lines[0].percentage() - 83.333).abs() < 0.01);
    }

    #[test]
    fn a_season_counts_only_games_that_ended_in_it() {
        let march_first_week = Season {
            name: "spring".to_owned(),
            from: day(1),
            to: day(8),
        };
        let lines = table(&games(), Some(&march_first_week));
        assert_eq!(lines.len(), 2);
        assert_eq!((lines[0].player, lines[0].half_points), (PlayerId(1), 3));
    }

    #[test]
    fn players_level_on_points_and_wins_are_ordered_by_name_then_id() {
        let g = |w, b, result| Finished {
            white: PlayerId(w),
            black: PlayerId(b),
            result,
            ended_at: day(1),
        };
        // 1, 2 and 3 each win once and lose once; 4 draws with 5.
        let games = [
            g(1, 2, GameResult::WhiteWins),
            g(2, 3, GameResult::WhiteWins),
            g(3, 1, GameResult::WhiteWins),
            g(4, 5, GameResult::Draw),
        ];
        let name = |player: PlayerId| match player.0 {
            1 => "Zoé",
            2 | 3 => "Bob",
            4 => "bob",
            _ => "Ada",
        };
        let order: Vec<i64> = table_by_name(&games, None, name)
            .iter()
            .map(|l| l.player.0)
            .collect();
        // "Bob" < "Zoé" bytewise (then ids 2 < 3); "Ada" < "bob".
        assert_eq!(order, [2, 3, 1, 5, 4]);
        let by_id: Vec<i64> = table(&games, None).iter().map(|l| l.player.0).collect();
        assert_eq!(by_id, [1, 2, 3, 4, 5]);
    }

    #[test]
    fn a_record_is_from_the_first_players_side() {
        assert_eq!(record(&games(), PlayerId(1), PlayerId(2)), (1, 1, 0));
        assert_eq!(record(&games(), PlayerId(2), PlayerId(1)), (0, 1, 1));
        assert_eq!(record(&games(), PlayerId(2), PlayerId(3)), (0, 0, 1));
    }
}
