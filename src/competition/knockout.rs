//! Knockout: a seeded bracket, matches of two games, a tie-break game after
//! a tie, and byes for the top seeds when the count is not a power of two.
//!
//! The documented tie-break rule: after 1-1, one more game with the higher
//! seed White; a draw in it sends Black through (draw odds make up for
//! White's first move), so every match ends after at most three games.

/// Seed numbers (0-based) in bracket order, so that seeds 1 and 2 can meet
/// only in the final: for 8, `[0, 7, 3, 4, 1, 6, 2, 5]`.
pub fn bracket_order(size: usize) -> Vec<usize> {
    let mut order = vec![0usize];
    while order.len() < size {
        let n = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, n - 1 - s]).collect();
    }
    order
}

/// The first round for `n` seeded players: `(higher seed, lower seed)`,
/// `None` when the higher seed has a bye.
pub fn first_round(n: usize) -> Vec<(usize, Option<usize>)> {
    let size = n.next_power_of_two().max(2);
    bracket_order(size)
        .chunks(2)
        .map(|pair| {
            let (a, b) = (pair[0].min(pair[1]), pair[0].max(pair[1]));
            (a, (b < n).then_some(b))
        })
        .collect()
}

/// Where a match between `high` (better seed) and `low` stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchState {
    /// Another game is needed: `(white, black)`.
    NextGame(usize, usize),
    Won(usize),
}

/// A match's state from the points (times two) `high` scored in each game played.
pub fn match_state(high: usize, low: usize, high_halves: &[u32]) -> MatchState {
    match high_halves {
        [] => MatchState::NextGame(high, low),
        [_] => MatchState::NextGame(low, high),
        [a, b] if a + b > 2 => MatchState::Won(high),
        [a, b] if a + b < 2 => MatchState::Won(low),
        [_, _] => MatchState::NextGame(high, low),
        // The tie-break game: high had White; a draw goes to Black.
        [_, _, tie, ..] => {
            if *tie == 2 {
                MatchState::Won(high)
            } else {
                MatchState::Won(low)
            }
        }
    }
}

/// The next round's pairs from the previous round's winners, in bracket order.
pub fn next_round(winners: &[usize]) -> Vec<(usize, Option<usize>)> {
    winners
        .chunks(2)
        .map(|pair| match pair {
            [a, b] => (*a.min(b), Some(*a.max(b))),
            [a] => (*a, None),
            _ => unreachable!("chunks of two"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_keep_the_top_seeds_apart() {
        assert_eq!(bracket_order(2), [0, 1]);
        assert_eq!(bracket_order(4), [0, 3, 1, 2]);
        assert_eq!(bracket_order(8), [0, 7, 3, 4, 1, 6, 2, 5]);
    }

    #[test]
    fn byes_go_to_the_top_seeds() {
        // 6 players in a bracket of 8: seeds 1 and 2 sit out the first round.
        assert_eq!(
            first_round(6),
            [(0, None), (3, Some(4)), (1, None), (2, Some(5))]
        );
        for n in 2..=33 {
            let round = first_round(n);
            let seated: usize = round
                .iter()
                .map(|(_, b)| 1 + usize::from(b.is_some()))
                .sum();
            assert_eq!(seated, n, "everyone once, n={n}");
            let byes = round.iter().filter(|(_, b)| b.is_none()).count();
            assert_eq!(byes, n.next_power_of_two() - n, "n={n}");
        }
    }

    #[test]
    fn matches_are_two_games_then_a_tie_break() {
        let cases: [(&[u32], MatchState); 7] = [
            (&[], MatchState::NextGame(0, 1)),
            (&[1], MatchState::NextGame(1, 0)),
            (&[2, 1], MatchState::Won(0)),
            (&[0, 1], MatchState::Won(1)),
            (&[2, 0], MatchState::NextGame(0, 1)),
            (&[1, 1, 1], MatchState::Won(1)),
            (&[0, 2, 2], MatchState::Won(0)),
        ];
        for (games, expected) in cases {
            assert_eq!(match_state(0, 1, games), expected, "{games:?}");
        }
    }

    #[test]
    fn winners_meet_in_bracket_order() {
        assert_eq!(next_round(&[0, 3, 1, 2]), [(0, Some(3)), (1, Some(2))]);
        assert_eq!(next_round(&[4]), [(4, None)]);
    }
}
