//! The figures of an engine review, as lichess defines them (issue 24),
//! written from the published formulas: win% from an evaluation, each
//! move's accuracy from the win% it gave away, a side's game accuracy, the
//! average centipawn loss, and inaccuracies, mistakes and blunders.
//!
//! Pure: evaluations come from the engine elsewhere; everything here is
//! arithmetic on them, always from White's point of view unless a
//! function says otherwise.

use shakmaty::Color;

/// Centipawns beyond this count as this much: a won position is won.
pub const CP_CEILING: i32 = 1000;

/// An engine's evaluation of a position, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    Centipawns(i32),
    /// Mate in this many moves: positive for White, negative for Black.
    Mate(i32),
}

impl Eval {
    /// Centipawns clamped to ±[`CP_CEILING`]; a mate is the ceiling.
    pub fn clamped_cp(self) -> i32 {
        match self {
            Eval::Centipawns(cp) => cp.clamp(-CP_CEILING, CP_CEILING),
            Eval::Mate(n) if n > 0 => CP_CEILING,
            Eval::Mate(0) => 0,
            Eval::Mate(_) => -CP_CEILING,
        }
    }

    /// White's winning chances on lichess's −1..1 scale.
    pub fn winning_chances(self) -> f64 {
        match self {
            Eval::Mate(n) if n > 0 => 1.0,
            Eval::Mate(n) if n < 0 => -1.0,
            _ => 2.0 / (1.0 + (-0.003_682_08 * f64::from(self.clamped_cp())).exp()) - 1.0,
        }
    }

    /// White's win%: 50 + 50 × winning chances.
    pub fn win_percent(self) -> f64 {
        50.0 + 50.0 * self.winning_chances()
    }
}

/// A move's accuracy (0–100) from the mover's win% before and after it.
pub fn move_accuracy(win_before: f64, win_after: f64) -> f64 {
    let lost = (win_before - win_after).max(0.0);
    (103.1668 * (-0.04354 * lost).exp() - 3.1669).clamp(0.0, 100.0)
}

/// How bad a move was, by the winning chances it gave away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

/// The judgement of a move that took the mover's winning chances (−1..1)
/// from `before` to `after`: a drop of 0.1, 0.2 or 0.3 at least.
pub fn judge(before: f64, after: f64) -> Option<Judgement> {
    let drop = before - after;
    match drop {
        d if d >= 0.3 => Some(Judgement::Blunder),
        d if d >= 0.2 => Some(Judgement::Mistake),
        d if d >= 0.1 => Some(Judgement::Inaccuracy),
        _ => None,
    }
}

/// The engine's view of one position of a reviewed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionEval {
    /// From White's point of view.
    pub eval: Eval,
    /// The engine's line from this position in UCI, best move first (at
    /// most [`MAX_LINE_PLIES`]); empty when the game is over here.
    pub line: Vec<String>,
}

/// The longest engine line kept per position (a PGN variation, a puzzle).
pub const MAX_LINE_PLIES: usize = 8;

/// Each move's judgement (`None`: a good enough move), the first move
/// made by `first`, from the evaluations of every position (start first).
pub fn move_judgements(evals: &[Eval], first: Color) -> Vec<Option<Judgement>> {
    evals
        .windows(2)
        .enumerate()
        .map(|(ply, pair)| {
            let side = if ply.is_multiple_of(2) { first } else { !first };
            let sign = if side == Color::White { 1.0 } else { -1.0 };
            judge(
                sign * pair[0].winning_chances(),
                sign * pair[1].winning_chances(),
            )
        })
        .collect()
}

impl PositionEval {
    /// As kept: the evaluation (`34`, `-120`, `#3`, `#-2`), then the line,
    /// separated by spaces.
    pub fn to_text(&self) -> String {
        let eval = match self.eval {
            Eval::Centipawns(cp) => cp.to_string(),
            Eval::Mate(n) => format!("#{n}"),
        };
        std::iter::once(eval)
            .chain(self.line.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Reads [`PositionEval::to_text`]'s form.
    pub fn from_text(text: &str) -> Option<PositionEval> {
        let mut words = text.split_whitespace();
        let first = words.next()?;
        let eval = match first.strip_prefix('#') {
            Some(mate) => Eval::Mate(mate.parse().ok()?),
            None => Eval::Centipawns(first.parse().ok()?),
        };
        let line: Vec<String> = words.take(MAX_LINE_PLIES).map(str::to_owned).collect();
        Some(PositionEval { eval, line })
    }
}

/// The evaluations alone, for the figures and the judgements.
pub fn evals_only(evals: &[PositionEval]) -> Vec<Eval> {
    evals.iter().map(|p| p.eval).collect()
}

/// A game's positions as kept: one [`PositionEval::to_text`] per line.
pub fn evals_to_text(evals: &[PositionEval]) -> String {
    evals
        .iter()
        .map(PositionEval::to_text)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Reads [`evals_to_text`]'s form; `None` if any line is unreadable.
pub fn evals_from_text(text: &str) -> Option<Vec<PositionEval>> {
    text.lines().map(PositionEval::from_text).collect()
}

/// The winning chances (−1..1, the side to move's) a puzzle's position
/// must give its solver: about +3 pawns, or a mate.
pub const PUZZLE_MIN_CHANCES: f64 = 0.5;

/// The plies after which a game's position makes a puzzle: the move before
/// was a blunder, the side now to move wins clearly (by
/// [`PUZZLE_MIN_CHANCES`]) and did not before that move, and the engine has
/// a move for them. `first` made the first move.
pub fn puzzle_plies(evals: &[PositionEval], first: Color) -> Vec<usize> {
    move_judgements(&evals_only(evals), first)
        .iter()
        .enumerate()
        .filter(|(_, judgement)| **judgement == Some(Judgement::Blunder))
        .filter_map(|(ply, _)| {
            let solver = if ply.is_multiple_of(2) { !first } else { first };
            let sign = if solver == Color::White { 1.0 } else { -1.0 };
            let (before, after) = (&evals[ply], evals.get(ply + 1)?);
            let wins_now = sign * after.eval.winning_chances() >= PUZZLE_MIN_CHANCES;
            let won_already = sign * before.eval.winning_chances() >= PUZZLE_MIN_CHANCES;
            (wins_now && !won_already && !after.line.is_empty()).then_some(ply + 1)
        })
        .collect()
}

/// One side's figures over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideFigures {
    pub accuracy: f64,
    pub acpl: f64,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

/// Both sides' figures from the evaluations of every position of a game
/// from the standard start or any other, the start first (`evals[0]`) and
/// `first` the side that made the first move. `None` with fewer than two
/// positions (no move to judge).
pub fn figures(evals: &[Eval], first: Color) -> Option<(SideFigures, SideFigures)> {
    if evals.len() < 2 {
        return None;
    }
    let wins: Vec<f64> = evals.iter().map(|e| e.win_percent()).collect();
    let weights = volatility_weights(&wins);
    let judgements = move_judgements(evals, first);
    let mover = |ply: usize| if ply.is_multiple_of(2) { first } else { !first };
    let mut sides = [Gathered::default(), Gathered::default()];
    for (ply, pair) in evals.windows(2).enumerate() {
        let side = mover(ply);
        let sign = if side == Color::White { 1.0 } else { -1.0 };
        let pov_win = |w: f64| if side == Color::White { w } else { 100.0 - w };
        let accuracy = move_accuracy(pov_win(wins[ply]), pov_win(wins[ply + 1]));
        let loss = sign * f64::from(pair[0].clamped_cp() - pair[1].clamped_cp());
        let judgement = judgements[ply];
        let gathered = &mut sides[usize::from(side == Color::Black)];
        gathered.accuracies.push((accuracy, weights[ply]));
        gathered.losses.push(loss.max(0.0));
        match judgement {
            Some(Judgement::Inaccuracy) => gathered.figures.inaccuracies += 1,
            Some(Judgement::Mistake) => gathered.figures.mistakes += 1,
            Some(Judgement::Blunder) => gathered.figures.blunders += 1,
            None => {}
        }
    }
    let [white, black] = sides.map(Gathered::finish);
    Some((white, black))
}

#[derive(Default)]
struct Gathered {
    accuracies: Vec<(f64, f64)>,
    losses: Vec<f64>,
    figures: SideFigures,
}

impl Gathered {
    /// The game accuracy is the mean of the volatility-weighted mean and
    /// the harmonic mean of the move accuracies.
    fn finish(self) -> SideFigures {
        if self.accuracies.is_empty() {
            return self.figures;
        }
        let weight: f64 = self.accuracies.iter().map(|(_, w)| w).sum();
        let weighted = self.accuracies.iter().map(|(a, w)| a * w).sum::<f64>() / weight;
        // A move of accuracy 0 would make the harmonic mean 0: lichess
        // counts it as a tiny positive number, as here.
        let harmonic = self.accuracies.len() as f64
            / self
                .accuracies
                .iter()
                .map(|(a, _)| 1.0 / a.max(0.001))
                .sum::<f64>();
        SideFigures {
            accuracy: (weighted + harmonic) / 2.0,
            acpl: self.losses.iter().sum::<f64>() / self.losses.len() as f64,
            ..self.figures
        }
    }
}

/// Each move's weight: the standard deviation of the win% in a window of
/// positions around it (sized a tenth of the game, 2 to 8), clamped to
/// 0.5–12, so that moves in sharp stretches count more.
fn volatility_weights(wins: &[f64]) -> Vec<f64> {
    let moves = wins.len() - 1;
    let size = (wins.len() / 10).clamp(2, 8).min(wins.len());
    (0..moves)
        .map(|ply| {
            // The window ending at the position after the move, or the
            // first window for the opening moves.
            let end = (ply + 2).max(size).min(wins.len());
            let window = &wins[end - size..end];
            standard_deviation(window).clamp(0.5, 12.0)
        })
        .collect()
}

fn standard_deviation(values: &[f64]) -> f64 {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn win_percent_follows_the_published_curve() {
        // 50 + 50·(2/(1+exp(−0.00368208·cp)) − 1), cp clamped to ±1000.
        let cases = [
            (Eval::Centipawns(0), 50.0),
            (Eval::Centipawns(100), 59.10),
            (Eval::Centipawns(-100), 40.90),
            (Eval::Centipawns(300), 75.11),
            (Eval::Centipawns(1000), 97.54),
            (Eval::Centipawns(5000), 97.54),
            (Eval::Mate(3), 100.0),
            (Eval::Mate(-1), 0.0),
        ];
        for (eval, expected) in cases {
            assert!(
                close(eval.win_percent(), expected, 0.01),
                "{eval:?}: {}",
                eval.win_percent()
            );
        }
    }

    #[test]
    fn move_accuracy_falls_with_the_win_percent_given_away() {
        let cases = [
            (60.0, 60.0, 100.0),
            (60.0, 70.0, 100.0),
            (60.0, 50.0, 63.58),
            (60.0, 30.0, 24.78),
            (90.0, 0.0, 0.0),
        ];
        for (before, after, expected) in cases {
            let accuracy = move_accuracy(before, after);
            assert!(
                close(accuracy, expected, 0.01),
                "{before}→{after}: {accuracy}"
            );
        }
    }

    #[test]
    fn drops_of_winning_chances_are_judged_at_a_tenth_a_fifth_and_three_tenths() {
        let cases = [
            (0.5, 0.45, None),
            (0.5, 0.38, Some(Judgement::Inaccuracy)),
            (0.5, 0.28, Some(Judgement::Mistake)),
            (0.5, 0.18, Some(Judgement::Blunder)),
            (0.0, -0.9, Some(Judgement::Blunder)),
        ];
        for (before, after, expected) in cases {
            assert_eq!(judge(before, after), expected, "{before}→{after}");
        }
    }

    #[test]
    fn a_hung_queen_is_a_blunder_and_ruins_that_side_s_accuracy() {
        // White keeps a small edge; Black hangs the queen on their second move.
        let evals = [20, 25, 20, 30, 900, 880, 890, 900, 890]
            .map(Eval::Centipawns)
            .to_vec();
        let (white, black) = figures(&evals, Color::White).expect("moves");
        assert_eq!((white.blunders, white.mistakes), (0, 0));
        assert_eq!(black.blunders, 1);
        assert!(white.accuracy > 90.0, "{white:?}");
        assert!(black.accuracy < white.accuracy - 30.0, "{black:?}");
        // Black gave away 870 centipawns, then 10, in four moves.
        assert!(
            close(black.acpl, (0.0 + 870.0 + 10.0 + 0.0) / 4.0, 0.01),
            "{black:?}"
        );
        assert_eq!(figures(&evals[..1], Color::White), None);
    }

    #[test]
    fn evaluations_are_kept_as_text_and_read_back() {
        let evals = vec![
            PositionEval {
                eval: Eval::Centipawns(-35),
                line: vec!["e2e4".into(), "e7e5".into()],
            },
            PositionEval {
                eval: Eval::Mate(-2),
                line: vec!["d8h4".into()],
            },
            PositionEval {
                eval: Eval::Mate(0),
                line: vec![],
            },
        ];
        let text = evals_to_text(&evals);
        assert_eq!(text, "-35 e2e4 e7e5\n#-2 d8h4\n#0");
        assert_eq!(evals_from_text(&text), Some(evals));
        for bad in ["", "x e2e4", "#x", "1\n\n2"] {
            assert!(evals_from_text(bad).is_none_or(|e| e.is_empty()), "{bad:?}");
        }
    }

    #[test]
    fn a_blunder_that_hands_over_a_clear_win_makes_a_puzzle() {
        let at = |cp: i32, best: &str| PositionEval {
            eval: Eval::Centipawns(cp),
            line: vec![best.to_owned()],
        };
        // Black blunders (the fourth move), White wins; White then gives
        // most of it back (no clear win for Black: no puzzle).
        let evals = vec![
            at(20, "e2e4"),
            at(25, "e7e5"),
            at(20, "g1f3"),
            at(30, "d8h4"),
            at(900, "f3h4"),
            at(880, "d8d1"),
            at(-200, "h7h6"),
            at(-150, "a2a3"),
        ];
        assert_eq!(puzzle_plies(&evals, Color::White), vec![4]);
        // Already winning before the blunder: no puzzle.
        let mut won = evals.clone();
        won[3] = at(800, "d8h4");
        assert!(puzzle_plies(&won, Color::White).is_empty());
        // No move from the engine: no puzzle.
        let mut lineless = evals.clone();
        lineless[4].line.clear();
        assert!(puzzle_plies(&lineless, Color::White).is_empty());
    }

    #[test]
    fn a_game_from_a_position_with_black_to_move_judges_black_first() {
        let evals = [
            Eval::Centipawns(0),
            Eval::Centipawns(500),
            Eval::Centipawns(500),
        ];
        let (white, black) = figures(&evals, Color::Black).expect("moves");
        assert_eq!(black.blunders, 1);
        assert_eq!(white.blunders, 0);
    }
}
