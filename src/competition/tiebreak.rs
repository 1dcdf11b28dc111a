//! Crosstables and tie-breaks (after FIDE C.07): Sonneborn-Berger,
//! Buchholz, Buchholz cut-1, number of wins and direct encounter.
//!
//! The rule for games not played over the board (byes, forfeits): their
//! points count in the score, but they add nothing to Buchholz or
//! Sonneborn-Berger and are not counted as wins, so nobody gains a
//! tie-break from an opponent who did not play.

/// One result between two participants (numbered `0..n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Result {
    pub white: usize,
    /// `None`: a bye for `white`.
    pub black: Option<usize>,
    /// White's points times two (0, 1, 2); Black gets the rest of 2.
    pub white_half: u32,
    /// Played over the board (false for byes and forfeits).
    pub played: bool,
}

/// The tie-breaks, in the order a tournament ranks by them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieBreak {
    DirectEncounter,
    SonnebornBerger,
    Buchholz,
    BuchholzCut1,
    Wins,
}

/// A participant's line in the crosstable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub player: usize,
    /// Points times two.
    pub half_points: u32,
    /// Sonneborn-Berger times four (a half point times a half point).
    pub sb_quarters: u32,
    /// Buchholz times two.
    pub buchholz_half: u32,
    pub buchholz_cut1_half: u32,
    pub wins: u32,
    /// Points times two scored against the others on the same score.
    pub direct_half: u32,
    pub games: u32,
}

impl Line {
    fn key(&self, tie_break: TieBreak) -> u32 {
        match tie_break {
            TieBreak::DirectEncounter => self.direct_half,
            TieBreak::SonnebornBerger => self.sb_quarters,
            TieBreak::Buchholz => self.buchholz_half,
            TieBreak::BuchholzCut1 => self.buchholz_cut1_half,
            TieBreak::Wins => self.wins,
        }
    }
}

/// The crosstable of `n` participants, best first by points and then `order`.
pub fn crosstable(n: usize, results: &[Result], order: &[TieBreak]) -> Vec<Line> {
    let mut half = vec![0u32; n];
    for r in results {
        half[r.white] += r.white_half;
        if let Some(black) = r.black {
            half[black] += 2 - r.white_half;
        }
    }
    let mut lines: Vec<Line> = (0..n)
        .map(|player| {
            let mut opponents = Vec::new();
            let (mut sb, mut wins, mut direct, mut games) = (0, 0, 0, 0);
            for r in results {
                let Some(black) = r.black else { continue };
                let (me, them) = match (r.white == player, black == player) {
                    (true, _) => (r.white_half, black),
                    (_, true) => (2 - r.white_half, r.white),
                    _ => continue,
                };
                games += 1;
                if half[them] == half[player] {
                    direct += me;
                }
                if !r.played {
                    continue;
                }
                opponents.push(half[them]);
                sb += me * half[them];
                wins += u32::from(me == 2);
            }
            let buchholz: u32 = opponents.iter().sum();
            let lowest = opponents.iter().min().copied().unwrap_or(0);
            Line {
                player,
                half_points: half[player],
                sb_quarters: sb,
                buchholz_half: buchholz,
                buchholz_cut1_half: buchholz - lowest,
                wins,
                direct_half: direct,
                games,
            }
        })
        .collect();
    lines.sort_by(|a, b| {
        let keys = |l: &Line| {
            std::iter::once(l.half_points)
                .chain(order.iter().map(|t| l.key(*t)))
                .collect::<Vec<_>>()
        };
        keys(b).cmp(&keys(a)).then(a.player.cmp(&b.player))
    });
    lines
}

/// A value kept in halves as text, as chess writes it: 5 → "2½", 1 → "½".
pub fn halves(value: u32) -> String {
    fraction(value / 2, ["", "½"][(value % 2) as usize])
}

/// A value kept in quarters as text: 17 → "4¼", 14 → "3½", 3 → "¾".
pub fn quarters(value: u32) -> String {
    fraction(value / 4, ["", "¼", "½", "¾"][(value % 4) as usize])
}

/// A whole number and a vulgar fraction: no "0" before a fraction alone.
fn fraction(whole: u32, part: &str) -> String {
    match (whole, part) {
        (0, "") => "0".to_owned(),
        (0, part) => part.to_owned(),
        (whole, part) => format!("{whole}{part}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unplayed_games_score_but_do_not_lift_tie_breaks() {
        // 0 beat 1 over the board; 2 won against 0 by forfeit; 1 had a bye.
        let results = [
            Result {
                white: 0,
                black: Some(1),
                white_half: 2,
                played: true,
            },
            Result {
                white: 2,
                black: Some(0),
                white_half: 2,
                played: false,
            },
            Result {
                white: 1,
                black: None,
                white_half: 2,
                played: false,
            },
        ];
        let lines = crosstable(3, &results, &[TieBreak::SonnebornBerger]);
        let of = |p: usize| lines.iter().find(|l| l.player == p).expect("line").clone();
        assert_eq!(of(2).half_points, 2);
        assert_eq!(
            (of(2).wins, of(2).buchholz_half, of(2).sb_quarters),
            (0, 0, 0)
        );
        assert_eq!(of(0).buchholz_half, 2, "only the played game counts");
        assert_eq!(of(0).sb_quarters, 4);
    }

    #[test]
    fn values_are_written_with_fractions() {
        let cases = [
            (halves(5), "2½"),
            (halves(4), "2"),
            (halves(1), "½"),
            (halves(0), "0"),
            (quarters(17), "4¼"),
            (quarters(14), "3½"),
            (quarters(11), "2¾"),
            (quarters(1), "¼"),
            (quarters(0), "0"),
        ];
        for (written, expected) in cases {
            assert_eq!(written, expected);
        }
    }
}
