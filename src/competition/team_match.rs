//! Team matches (as chess.com's club matches): the members each side signed
//! up are ranked by rating, board k pairs the k-th of each side, and each
//! board plays two games, one with each colour. A game scores 1, ½ or 0;
//! a game aborted before both sides moved scores for neither.

use crate::core::event::GameResult;
use crate::core::team::MatchSide;

/// A member signed up for one side.
#[derive(Clone, Debug, PartialEq)]
pub struct SignUp<P> {
    pub player: P,
    /// Their rating on their side's server (the initial rating without one).
    pub rating: f64,
    /// Their order of sign-up: equal ratings go to the first.
    pub order: i64,
}

/// A board: the home and the away player who meet on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board<P> {
    /// 1 for the best rated pair.
    pub number: u32,
    pub home: P,
    pub away: P,
}

impl<P: Clone> Board<P> {
    /// The board's two games as (white, black): the home player has White
    /// in the first, the away player in the second.
    pub fn games(&self) -> [(P, P); 2] {
        [
            (self.home.clone(), self.away.clone()),
            (self.away.clone(), self.home.clone()),
        ]
    }
}

/// The boards of a match of at most `max_boards`: as many as the shorter
/// side's list, each side ranked by rating (highest first), then order of
/// sign-up. Players beyond the boards play no game.
pub fn pair<P: Clone>(home: &[SignUp<P>], away: &[SignUp<P>], max_boards: u32) -> Vec<Board<P>> {
    let (home, away) = (ranked(home), ranked(away));
    home.iter()
        .zip(away.iter())
        .take(max_boards as usize)
        .zip(1..)
        .map(|((h, a), number)| Board {
            number,
            home: h.player.clone(),
            away: a.player.clone(),
        })
        .collect()
}

/// A side's list, highest rating first, then order of sign-up.
fn ranked<P>(side: &[SignUp<P>]) -> Vec<&SignUp<P>> {
    let mut side: Vec<&SignUp<P>> = side.iter().collect();
    side.sort_by(|a, b| b.rating.total_cmp(&a.rating).then(a.order.cmp(&b.order)));
    side
}

/// A match's score so far, in half points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub home_halves: u32,
    pub away_halves: u32,
    /// Games still running.
    pub running: u32,
}

impl Score {
    /// The side ahead, `None` when level.
    pub fn leader(&self) -> Option<MatchSide> {
        match self.home_halves.cmp(&self.away_halves) {
            std::cmp::Ordering::Greater => Some(MatchSide::Home),
            std::cmp::Ordering::Less => Some(MatchSide::Away),
            std::cmp::Ordering::Equal => None,
        }
    }

    pub fn is_final(&self) -> bool {
        self.running == 0
    }
}

/// The score of a match's games, each given as the side that had White and
/// its result (`None` while it runs).
pub fn score(games: impl IntoIterator<Item = (MatchSide, Option<GameResult>)>) -> Score {
    let mut score = Score::default();
    for (white_side, result) in games {
        let white_halves = match result {
            None => {
                score.running += 1;
                continue;
            }
            Some(GameResult::WhiteWins) => 2,
            Some(GameResult::Draw) => 1,
            Some(GameResult::BlackWins) => 0,
            Some(GameResult::NoResult) => continue,
        };
        let (white, black) = match white_side {
            MatchSide::Home => (&mut score.home_halves, &mut score.away_halves),
            MatchSide::Away => (&mut score.away_halves, &mut score.home_halves),
        };
        *white += white_halves;
        *black += 2 - white_halves;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signed(list: &[(&'static str, f64)]) -> Vec<SignUp<&'static str>> {
        list.iter()
            .zip(0..)
            .map(|(&(player, rating), order)| SignUp {
                player,
                rating,
                order,
            })
            .collect()
    }

    #[test]
    fn boards_pair_by_rating_then_order_of_sign_up() {
        let home = signed(&[("a", 1500.0), ("b", 1700.0), ("c", 1500.0), ("d", 1600.0)]);
        let away = signed(&[("w", 1400.0), ("x", 1800.0), ("y", 1650.0)]);
        let boards = pair(&home, &away, 4);
        let pairs: Vec<(u32, &str, &str)> =
            boards.iter().map(|b| (b.number, b.home, b.away)).collect();
        // Three boards: the away side signed up three; "a" came before "c".
        assert_eq!(pairs, vec![(1, "b", "x"), (2, "d", "y"), (3, "a", "w")]);
        assert_eq!(pair(&home, &away, 2).len(), 2);
        assert!(pair(&home, &[], 4).is_empty());
        assert_eq!(boards[0].games(), [("b", "x"), ("x", "b")]);
    }

    #[test]
    fn games_score_one_half_or_nothing_for_each_side() {
        use GameResult::*;
        use MatchSide::*;
        let score = score([
            (Home, Some(WhiteWins)),
            (Away, Some(WhiteWins)),
            (Home, Some(Draw)),
            (Away, Some(BlackWins)),
            (Home, Some(NoResult)),
            (Away, None),
        ]);
        assert_eq!(
            score,
            Score {
                home_halves: 5,
                away_halves: 3,
                running: 1
            }
        );
        assert_eq!(score.leader(), Some(Home));
        assert!(!score.is_final());
    }
}
