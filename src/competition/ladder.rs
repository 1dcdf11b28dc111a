//! The challenge ladder: a ranked list where a player may challenge anyone
//! up to `reach` places above; a win from below takes the higher place and
//! everyone in between moves down one; a draw or a defender's win changes
//! nothing; a challenge not accepted in time is lost by the defender.

use serde::{Deserialize, Serialize};

use crate::core::game::PlayerId;

/// Why a ladder act is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LadderError {
    #[error("already on the ladder")]
    AlreadyOn,
    #[error("not on the ladder")]
    NotOn,
    #[error("one can only challenge players above")]
    NotAbove,
    #[error("too far above: at most {0} places")]
    TooFar(usize),
}

/// The ladder of one server, best first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ladder {
    pub ranking: Vec<PlayerId>,
}

/// How a ladder game (or challenge) ended, for the challenger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LadderOutcome {
    /// The challenger won over the board, or the defender let the challenge lapse.
    ChallengerWins,
    DefenderWins,
    Draw,
}

impl Ladder {
    /// 1-based place of `player`.
    pub fn place(&self, player: PlayerId) -> Option<usize> {
        self.ranking
            .iter()
            .position(|p| *p == player)
            .map(|i| i + 1)
    }

    /// Newcomers start at the bottom.
    pub fn join(&mut self, player: PlayerId) -> Result<usize, LadderError> {
        if self.place(player).is_some() {
            return Err(LadderError::AlreadyOn);
        }
        self.ranking.push(player);
        Ok(self.ranking.len())
    }

    /// Leaving closes the gap: everyone below moves up one.
    pub fn leave(&mut self, player: PlayerId) -> Result<(), LadderError> {
        let place = self.place(player).ok_or(LadderError::NotOn)?;
        self.ranking.remove(place - 1);
        Ok(())
    }

    /// Whether `challenger` may challenge `defender`, `reach` places up at most.
    pub fn check_challenge(
        &self,
        challenger: PlayerId,
        defender: PlayerId,
        reach: usize,
    ) -> Result<(), LadderError> {
        let from = self.place(challenger).ok_or(LadderError::NotOn)?;
        let to = self.place(defender).ok_or(LadderError::NotOn)?;
        if to >= from {
            return Err(LadderError::NotAbove);
        }
        if from - to > reach {
            return Err(LadderError::TooFar(reach));
        }
        Ok(())
    }

    /// Applies a challenge's outcome; returns whether the ranking changed.
    pub fn settle(
        &mut self,
        challenger: PlayerId,
        defender: PlayerId,
        outcome: LadderOutcome,
    ) -> bool {
        let (Some(from), Some(to)) = (self.place(challenger), self.place(defender)) else {
            return false;
        };
        if outcome != LadderOutcome::ChallengerWins || to >= from {
            return false;
        }
        let moved = self.ranking.remove(from - 1);
        self.ranking.insert(to - 1, moved);
        true
    }

    /// An inactive player drops `places` places (the ones passed move up),
    /// or leaves the ladder when `places` is `None`.
    pub fn drop_inactive(&mut self, player: PlayerId, places: Option<usize>) {
        let Some(place) = self.place(player) else {
            return;
        };
        let moved = self.ranking.remove(place - 1);
        if let Some(places) = places {
            let to = (place - 1 + places).min(self.ranking.len());
            self.ranking.insert(to, moved);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ladder(ids: &[i64]) -> Ladder {
        Ladder {
            ranking: ids.iter().map(|&i| PlayerId(i)).collect(),
        }
    }

    fn ids(ladder: &Ladder) -> Vec<i64> {
        ladder.ranking.iter().map(|p| p.0).collect()
    }

    #[test]
    fn a_win_from_below_takes_the_place_and_pushes_the_ones_between_down() {
        let mut l = ladder(&[1, 2, 3, 4, 5]);
        assert!(l.settle(PlayerId(5), PlayerId(2), LadderOutcome::ChallengerWins));
        assert_eq!(ids(&l), [1, 5, 2, 3, 4]);
    }

    #[test]
    fn draws_and_defenders_wins_change_nothing() {
        let mut l = ladder(&[1, 2, 3]);
        for outcome in [LadderOutcome::Draw, LadderOutcome::DefenderWins] {
            assert!(!l.settle(PlayerId(3), PlayerId(1), outcome));
            assert_eq!(ids(&l), [1, 2, 3]);
        }
    }

    #[test]
    fn challenges_reach_only_so_far_up() {
        let l = ladder(&[1, 2, 3, 4, 5]);
        let cases = [
            (5, 4, Ok(())),
            (5, 3, Ok(())),
            (5, 2, Err(LadderError::TooFar(2))),
            (2, 3, Err(LadderError::NotAbove)),
            (6, 1, Err(LadderError::NotOn)),
        ];
        for (from, to, expected) in cases {
            assert_eq!(
                l.check_challenge(PlayerId(from), PlayerId(to), 2),
                expected,
                "{from}→{to}"
            );
        }
    }

    #[test]
    fn joining_leaving_and_inactivity() {
        let mut l = ladder(&[1, 2, 3, 4]);
        assert_eq!(l.join(PlayerId(9)), Ok(5));
        assert_eq!(l.join(PlayerId(9)), Err(LadderError::AlreadyOn));
        l.leave(PlayerId(2)).expect("on");
        assert_eq!(ids(&l), [1, 3, 4, 9]);
        l.drop_inactive(PlayerId(1), Some(2));
        assert_eq!(ids(&l), [3, 4, 1, 9]);
        l.drop_inactive(PlayerId(1), Some(10));
        assert_eq!(ids(&l), [3, 4, 9, 1]);
        l.drop_inactive(PlayerId(4), None);
        assert_eq!(ids(&l), [3, 9, 1]);
    }
}
