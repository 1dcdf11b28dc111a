//! The challenge ladder: a ranked list where a player may challenge anyone
//! up to `reach` places above; a win from below takes the higher place and
//! everyone in between moves down one; a draw or a defender's win changes
//! nothing; a challenge not accepted in time is lost by the defender.
//!
//! # The rules, as the bot applies them
//!
//! - **Joining** puts a player at the bottom; **leaving** closes the gap
//!   (everyone below moves up one).
//! - **Challenges** reach at most [`LadderSettings::max_places_up`] places up, and
//!   a player is in at most one unsettled ladder challenge at a time (as
//!   challenger or as defender), so nobody can be swamped or dodge forever.
//! - **Forfeit**: a ladder challenge not accepted within
//!   [`LadderSettings::accept_days`] days, or declined, is a forfeit win for the
//!   challenger: the ladder moves exactly as if the challenger had won the
//!   game over the board. A challenger who cancels withdraws: nothing moves.
//! - **Results**: the challenger's win takes the defender's place and moves
//!   everyone from there down one; a draw, the defender's win or an aborted
//!   game change nothing.
//! - **Inactivity**: a player whose last ladder game (or joining) is
//!   [`LadderSettings::inactive_days`] days old and who has no ladder challenge
//!   under way drops [`Inactivity::Drop`] places (the players passed move up
//!   one) or is removed, and the count starts again from then. A player
//!   with a challenge under way is not inactive.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use crate::core::event::GameResult;
use crate::core::game::PlayerId;
use shakmaty::Color;

/// What happens to a player who has not played on the ladder for a while.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inactivity {
    /// Down this many places (never below the bottom).
    Drop(usize),
    /// Off the ladder.
    Remove,
}

/// How a server's ladder runs (`[ladder]` in the configuration).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderSettings {
    /// How many places up a challenge may reach.
    pub max_places_up: usize,
    /// Days the defender has to accept before forfeiting.
    pub accept_days: u32,
    /// Days without a ladder game before a player counts as inactive; 0: never.
    pub inactive_days: u32,
    pub inactivity: Inactivity,
    /// The time control of ladder games, in the challenge syntax (`3d`).
    pub time_control: String,
    /// Whether ladder games are rated.
    pub rated: bool,
}

impl Default for LadderSettings {
    fn default() -> LadderSettings {
        LadderSettings {
            max_places_up: 3,
            accept_days: 3,
            inactive_days: 30,
            inactivity: Inactivity::Drop(3),
            time_control: "3d".to_owned(),
            rated: true,
        }
    }
}

impl LadderSettings {
    /// When a challenge made at `now` is forfeited unless accepted.
    pub fn accept_by(&self, now: DateTime<Utc>) -> DateTime<Utc> {
        now + Duration::days(i64::from(self.accept_days))
    }

    /// How long a player may go without a ladder game, if inactivity counts.
    pub fn inactive_after(&self) -> Option<Duration> {
        (self.inactive_days > 0).then(|| Duration::days(i64::from(self.inactive_days)))
    }

    /// Whether a player last active at `active_at` is inactive at `now`.
    pub fn is_inactive(&self, active_at: DateTime<Utc>, now: DateTime<Utc>) -> bool {
        self.inactive_after()
            .is_some_and(|after| active_at + after <= now)
    }
}

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

impl LadderOutcome {
    /// The outcome of a finished ladder game the challenger played with
    /// `challenger_color`; `None` for a game without a result (aborted).
    pub fn of_game(challenger_color: Color, result: GameResult) -> Option<LadderOutcome> {
        match result.winner() {
            Some(winner) if winner == challenger_color => Some(LadderOutcome::ChallengerWins),
            Some(_) => Some(LadderOutcome::DefenderWins),
            None if result == GameResult::Draw => Some(LadderOutcome::Draw),
            None => None,
        }
    }
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

    /// Applies the configured inactivity rule to `player`.
    pub fn apply_inactivity(&mut self, player: PlayerId, rule: Inactivity) {
        match rule {
            Inactivity::Drop(places) => self.drop_inactive(player, Some(places)),
            Inactivity::Remove => self.drop_inactive(player, None),
        }
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

    /// (ladder, challenger, defender, outcome, ladder after): every outcome
    /// at every distance, including a forfeit (scored as the challenger's win).
    #[test]
    fn outcomes_move_the_ladder_as_the_rules_say() {
        use LadderOutcome::*;
        type Case = (&'static [i64], i64, i64, LadderOutcome, &'static [i64]);
        let cases: &[Case] = &[
            (&[1, 2], 2, 1, ChallengerWins, &[2, 1]),
            (&[1, 2, 3, 4], 4, 1, ChallengerWins, &[4, 1, 2, 3]),
            (&[1, 2, 3, 4], 4, 3, ChallengerWins, &[1, 2, 4, 3]),
            (&[1, 2, 3, 4], 3, 2, ChallengerWins, &[1, 3, 2, 4]),
            (&[1, 2, 3, 4], 4, 1, Draw, &[1, 2, 3, 4]),
            (&[1, 2, 3, 4], 4, 1, DefenderWins, &[1, 2, 3, 4]),
            // The challenger overtook the defender meanwhile: nothing to take.
            (&[2, 1, 3], 2, 1, ChallengerWins, &[2, 1, 3]),
            // The defender left meanwhile: nothing to take.
            (&[1, 2, 3], 3, 9, ChallengerWins, &[1, 2, 3]),
        ];
        for (before, challenger, defender, outcome, after) in cases {
            let mut l = ladder(before);
            let changed = l.settle(PlayerId(*challenger), PlayerId(*defender), *outcome);
            assert_eq!(
                ids(&l),
                *after,
                "{before:?} {challenger}→{defender} {outcome:?}"
            );
            assert_eq!(changed, before != after);
        }
    }

    #[test]
    fn game_results_become_ladder_outcomes() {
        use GameResult::*;
        let cases = [
            (Color::White, WhiteWins, Some(LadderOutcome::ChallengerWins)),
            (Color::Black, WhiteWins, Some(LadderOutcome::DefenderWins)),
            (Color::Black, BlackWins, Some(LadderOutcome::ChallengerWins)),
            (Color::White, Draw, Some(LadderOutcome::Draw)),
            (Color::White, NoResult, None),
        ];
        for (color, result, expected) in cases {
            assert_eq!(
                LadderOutcome::of_game(color, result),
                expected,
                "{color:?} {result:?}"
            );
        }
    }

    #[test]
    fn inactivity_counts_whole_days_and_can_be_off() {
        let at = |s: &str| s.parse::<DateTime<Utc>>().expect("instant");
        let joined = at("2026-01-01T12:00:00Z");
        let settings = LadderSettings::default();
        let cases = [
            ("2026-01-31T11:59:59Z", 30, false),
            ("2026-01-31T12:00:00Z", 30, true),
            ("2026-03-01T00:00:00Z", 0, false),
        ];
        for (now, days, inactive) in cases {
            let settings = LadderSettings {
                inactive_days: days,
                ..settings.clone()
            };
            assert_eq!(
                settings.is_inactive(joined, at(now)),
                inactive,
                "{now} {days}"
            );
        }
        assert_eq!(settings.accept_by(joined), at("2026-01-04T12:00:00Z"));
        let mut l = ladder(&[1, 2, 3, 4, 5]);
        l.apply_inactivity(PlayerId(2), Inactivity::Drop(3));
        assert_eq!(ids(&l), [1, 3, 4, 5, 2]);
        l.apply_inactivity(PlayerId(3), Inactivity::Remove);
        assert_eq!(ids(&l), [1, 4, 5, 2]);
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
