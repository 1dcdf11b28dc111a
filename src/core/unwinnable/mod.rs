//! "Can this side still checkmate by any series of legal moves?"
//!
//! Three rules depend on the answer: a dead position is a draw at once
//! (5.2.2), a flag falls to a draw when the opponent cannot mate (6.9), and
//! so does a resignation (5.1.2). Every rule asks through [`can_still_mate`]
//! and [`is_dead_position`].
//!
//! The analyzer follows the ideas of CHA, the Chess Unwinnability Analyzer
//! (M. Ambrona, "A Practical Algorithm for Chess Unwinnability", FUN 2022),
//! in our own code on shakmaty's move generator:
//!
//! - [`material`]: material that can never mate, and material plentiful
//!   enough to presume a mate;
//! - [`reach`] and [`static_reasoning`]: where pieces could ever stand, and
//!   why no mate can happen there (locked pawns, bishops of one colour);
//! - [`stalemate_traps`]: squares a king never steps onto without
//!   stalemating, which keeps closed what a capture seemed to open;
//! - [`helpmate`] with [`heuristics`]: a cooperative search for a mating
//!   line, whose exhaustion is itself a proof;
//! - [`guided`]: a best-first search for long mating lines (a king walking
//!   across the board into its corner);
//! - [`closure`]: a walk over every reachable position when locked pawns
//!   keep that set small (stalemate traps, kings that shuttle behind
//!   chains): a proof by enumeration, or the shortest helpmate.
//!
//! The one rule of the whole module: never answer [`Verdict::Unwinnable`]
//! for a position where the side could mate. Everything uncertain is
//! [`Verdict::Undecided`], which the rules treat as winnable.
//!
//! ```
//! use pawnpost::core::unwinnable::{Mode, Verdict, analyze};
//! use shakmaty::{CastlingMode, Chess, Color, fen::Fen};
//!
//! let fen: Fen = "8/8/4k3/8/8/3K4/3N4/7q w - - 0 1".parse().unwrap();
//! let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
//! assert_eq!(analyze(&pos, Color::White, Mode::Quick), Verdict::Unwinnable);
//! assert!(matches!(analyze(&pos, Color::Black, Mode::Full), Verdict::Winnable(_)));
//! ```

pub mod class;
pub mod closure;
pub mod guided;
pub mod helpmate;
pub mod heuristics;
mod keys;
pub mod material;
mod move_tree;
pub mod reach;
pub mod stalemate_traps;
pub mod static_reasoning;

use std::collections::HashSet;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

use helpmate::{Found, Search};
use heuristics::Corner;

/// The answer for one side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The side can mate; the moves, played from the position, end in its
    /// mate (empty when the position already is that mate).
    Winnable(Vec<Move>),
    /// No series of legal moves ends in a mate by the side.
    Unwinnable,
    /// Not settled; treated as winnable.
    Undecided(Why),
}

/// Why a verdict is [`Verdict::Undecided`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// The quick check saw plenty of mobile material and did not search
    /// (CHA's quick mode: "probably winnable").
    Presumed,
    /// The node budget ran out before a mate or a proof was found.
    BudgetSpent,
}

/// How much to spend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Cheap enough to run after every move: material first, then a short
    /// full-width look for lines that all lose the mating material, then the
    /// static reasoning when pawns are blocked. Never searches for a mating
    /// line: when nothing proves the side cannot mate, it presumes it can
    /// (CHA's quick mode). The budget is not used.
    Quick,
    /// Always looks for a proof either way (a mating line or a proof of
    /// unwinnability), with a large budget: the nodes of its largest
    /// search, under four times that over all its searches.
    Full,
}

impl Mode {
    /// The node budget of the mode.
    pub fn budget(self) -> u64 {
        match self {
            Mode::Quick => 20_000,
            Mode::Full => 10_000_000,
        }
    }
}

/// Whether `side` could still deliver checkmate with the opponent's help.
///
/// Errs towards `true`: when in doubt the side keeps its winning chances.
pub fn can_still_mate(pos: &Chess, side: Color) -> bool {
    analyze(pos, side, Mode::Quick) != Verdict::Unwinnable
}

/// A dead position (5.2.2): neither side can mate by any series of legal moves.
pub fn is_dead_position(pos: &Chess) -> bool {
    !can_still_mate(pos, Color::White) && !can_still_mate(pos, Color::Black)
}

/// Whether `winner` can mate from `pos`, with `mode`'s default budget.
pub fn analyze(pos: &Chess, winner: Color, mode: Mode) -> Verdict {
    analyze_with_budget(pos, winner, mode, mode.budget())
}

/// Whether `winner` can mate from `pos`, spending at most `budget` nodes of
/// search.
pub fn analyze_with_budget(pos: &Chess, winner: Color, mode: Mode, budget: u64) -> Verdict {
    let mut forced = Vec::new();
    let pos = match play_forced_moves(pos, &mut forced) {
        Some(pos) => pos,
        // A forced cycle: the game can only repeat, nobody ever mates.
        None => return Verdict::Unwinnable,
    };
    let verdict = match mode {
        Mode::Quick => quick(&pos, winner),
        Mode::Full => full(&pos, winner, budget),
    };
    match verdict {
        Verdict::Winnable(line) => {
            forced.extend(line);
            Verdict::Winnable(forced)
        }
        other => other,
    }
}

/// Plays moves while exactly one is legal (at most 100); `None` when the
/// forced moves repeat a position.
fn play_forced_moves(pos: &Chess, played: &mut Vec<Move>) -> Option<Chess> {
    let mut pos = pos.clone();
    let mut seen = HashSet::new();
    for _ in 0..100 {
        let moves = pos.legal_moves();
        if moves.len() != 1 {
            break;
        }
        if !seen.insert(key(&pos)) {
            return None;
        }
        played.push(moves[0]);
        pos.play_unchecked(moves[0]);
    }
    Some(pos)
}

fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The answer when the game is over in `pos`, if it is.
fn terminal(pos: &Chess, winner: Color) -> Option<Verdict> {
    if !pos.legal_moves().is_empty() {
        return None;
    }
    Some(if pos.is_check() && pos.turn() != winner {
        Verdict::Winnable(Vec::new())
    } else {
        Verdict::Unwinnable
    })
}

fn quick(pos: &Chess, winner: Color) -> Verdict {
    if let Some(verdict) = terminal(pos, winner) {
        return verdict;
    }
    if material::cannot_mate(pos, winner) {
        return Verdict::Unwinnable;
    }
    let board = pos.board();
    if material::presumed_mate(board, winner) {
        return Verdict::Undecided(Why::Presumed);
    }
    let mut nodes = 0;
    if helpmate::all_lines_fail(pos, winner, 7, &mut nodes, 2_000) {
        return Verdict::Unwinnable;
    }
    let blocked = material::blocked_pawns(board) >= 1 && !material::has_lonely_pawns(board);
    if blocked {
        if static_reasoning::proves_unwinnable(pos, winner) {
            return Verdict::Unwinnable;
        }
        let few_pieces = (board.knights() | board.rooks() | board.queens()).count() <= 1;
        if few_pieces
            && (pos.is_check() || board.knights().any())
            && pos
                .legal_moves()
                .into_iter()
                .all(|m| child_proved_unwinnable(pos, m, winner))
        {
            return Verdict::Unwinnable;
        }
    }
    Verdict::Undecided(Why::Presumed)
}

fn full(pos: &Chess, winner: Color, budget: u64) -> Verdict {
    if let Some(verdict) = terminal(pos, winner) {
        return verdict;
    }
    if material::cannot_mate(pos, winner) {
        return Verdict::Unwinnable;
    }
    let mut search = Search::new(winner, budget);
    match search.shallow(pos, 2, 5_000) {
        Found::Mate(line) => return Verdict::Winnable(line),
        Found::NoMate => return Verdict::Unwinnable,
        Found::Unknown => {}
    }
    if static_reasoning::proves_unwinnable(pos, winner) {
        return Verdict::Unwinnable;
    }
    // One ply deeper, after the forced replies: often a move of either side
    // settles the structure.
    let open: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|&m| !child_proved_unwinnable(pos, m, winner))
        .collect();
    if open.is_empty() {
        return Verdict::Unwinnable;
    }
    // A small closed set is cheaper to walk than to search.
    // Only locked pawns make it small: elsewhere the walk is wasted.
    if material::blocked_pawns(pos.board()) > 0
        && let Some(verdict) = walk(pos, winner, small_closure(budget))
    {
        return verdict;
    }
    let all_open = open.len() == pos.legal_moves().len();
    // Each way of settling the question is cheap on some positions and
    // hopeless on others: try them all on a small share of the budget, then
    // on four times more, up to the whole budget.
    let mut share = budget / 64;
    loop {
        if let Some(verdict) = settle(pos, winner, &open, all_open, share) {
            return verdict;
        }
        if share >= budget {
            return Verdict::Undecided(Why::BudgetSpent);
        }
        share = (share * 4).min(budget);
    }
}

/// One round of [`full`] on `nodes`: helpmate searches driving the loser's
/// king to each [`Corner`] in turn, depth-first then best-first, then a
/// walk over the reachable positions.
fn settle(
    pos: &Chess,
    winner: Color,
    open: &[Move],
    all_open: bool,
    nodes: u64,
) -> Option<Verdict> {
    for (corner, nodes) in [
        (Corner::Far, nodes),
        (Corner::Near, nodes / 2),
        (Corner::Home, nodes / 2),
    ] {
        let mut search = Search::new(winner, nodes);
        search.set_corner(corner);
        match search_lines(pos, open, all_open, &mut search) {
            Found::Mate(line) => return Some(Verdict::Winnable(line)),
            Found::NoMate => return Some(Verdict::Unwinnable),
            Found::Unknown => {}
        }
    }
    for corner in [Corner::Far, Corner::Near, Corner::Home] {
        if let Some(line) = guided::find_mate(pos, winner, corner, nodes / 4) {
            return Some(Verdict::Winnable(line));
        }
    }
    walk(pos, winner, large_closure(nodes))
}

/// The helpmate search from `pos` (when `all_open`), or after each move of
/// `open` (the others are proved unwinnable): a mate, a proof that there is
/// none, or nothing.
fn search_lines(pos: &Chess, open: &[Move], all_open: bool, search: &mut Search) -> Found {
    if all_open {
        return search.deepening(pos);
    }
    let mut settled = 0;
    for &m in open {
        let mut child = pos.clone();
        child.play_unchecked(m);
        match search.deepening(&child) {
            Found::Mate(line) => {
                let mut full_line = vec![m];
                full_line.extend(line);
                return Found::Mate(full_line);
            }
            Found::NoMate => settled += 1,
            Found::Unknown => {}
        }
        if search.exhausted() {
            break;
        }
    }
    if settled == open.len() {
        Found::NoMate
    } else {
        Found::Unknown
    }
}

/// Positions walked ([`closure`]) before the search, out of a node budget:
/// a small closed set is cheaper to walk than to search.
fn small_closure(budget: u64) -> usize {
    (budget / 400).clamp(50, 5_000) as usize
}

/// Positions walked after the search, when it did not settle the question:
/// a fifth of the nodes, at most a million (each position kept costs
/// about 200 bytes).
fn large_closure(nodes: u64) -> usize {
    (nodes / 5).min(1_000_000) as usize
}

/// The verdict of walking the closed set of positions, if it is small.
fn walk(pos: &Chess, winner: Color, limit: usize) -> Option<Verdict> {
    match closure::explore(pos, winner, limit) {
        closure::Closure::Mate(line) => Some(Verdict::Winnable(line)),
        closure::Closure::NoMate => Some(Verdict::Unwinnable),
        closure::Closure::TooLarge => None,
    }
}

/// Whether, after `m` and the forced moves that follow, static reasoning
/// proves `winner` cannot mate.
fn child_proved_unwinnable(pos: &Chess, m: Move, winner: Color) -> bool {
    let mut child = pos.clone();
    child.play_unchecked(m);
    let mut forced = Vec::new();
    match play_forced_moves(&child, &mut forced) {
        None => true,
        Some(after) => static_reasoning::proves_unwinnable(&after, winner),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::core::test_positions::position;

    #[test]
    fn material_table() {
        // (FEN, white can mate, black can mate)
        let cases = [
            ("8/8/4k3/8/8/3K4/3Q4/8 w - - 0 1", true, false),
            ("8/8/8/8/8/K7/8/k1r1N3 b - - 0 1", true, true),
            ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", false, false),
            ("5bk1/8/8/8/8/8/1B6/4K3 b - - 0 1", false, false),
            ("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true, true),
            ("8/8/4k3/8/8/3K4/3N4/7q w - - 0 1", false, true),
            // Locked pawns, bishops on the wrong colour: dead.
            (
                "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1",
                false,
                false,
            ),
            // Stalemate traps: the only king steps that open the position
            // leave the other side without a move.
            (
                "8/2b5/1b5p/b4p1P/5p1K/5Pp1/6P1/5kb1 b - - 0 1",
                false,
                false,
            ),
            (
                "8/1p2B1B1/1PpB1B2/k1P5/p1P5/P7/5K2/8 w - - 0 1",
                false,
                false,
            ),
        ];
        for (fen, white, black) in cases {
            let pos = position(fen);
            assert_eq!(can_still_mate(&pos, Color::White), white, "{fen} white");
            assert_eq!(can_still_mate(&pos, Color::Black), black, "{fen} black");
        }
    }

    #[test]
    fn a_forced_repetition_is_unwinnable() {
        // Each side has one legal move, back and forth... only kings and a
        // blocked pawn each: quickly decided either way.
        let pos = position("7k/5K2/7P/8/8/8/8/8 b - - 0 1");
        assert_eq!(analyze(&pos, Color::Black, Mode::Full), Verdict::Unwinnable);
    }

    #[test]
    fn chess960_castling_rights_change_nothing_it_should_not() {
        use shakmaty::CastlingMode;
        use shakmaty::fen::Fen;
        // (Chess960 FEN with rights only Chess960 can read, the same
        // position without rights, white can mate, black can mate.)
        let cases = [
            // A rook on b1 with its right (Shredder `B`), the king on e1.
            (
                "4k3/8/8/8/8/8/8/1R2K3 w B - 0 1",
                "4k3/8/8/8/8/8/8/1R2K3 w - - 0 1",
                true,
                false,
            ),
            // Start 0's king and rooks, pawns locked, no other pieces.
            (
                "5rkr/8/8/p1p1p1p1/P1P1P1P1/8/8/5RKR w HFhf - 0 1",
                "5rkr/8/8/p1p1p1p1/P1P1P1P1/8/8/5RKR w - - 0 1",
                true,
                true,
            ),
        ];
        for (with_rights, without, white, black) in cases {
            let fen: Fen = with_rights.parse().expect("FEN");
            let pos: Chess = fen.into_position(CastlingMode::Chess960).expect("legal");
            assert!(pos.castles().any(), "{with_rights} keeps its rights");
            assert_eq!(can_still_mate(&pos, Color::White), white, "{with_rights}");
            assert_eq!(can_still_mate(&pos, Color::Black), black, "{with_rights}");
            let plain = position(without);
            assert_eq!(can_still_mate(&plain, Color::White), white, "{without}");
            assert_eq!(can_still_mate(&plain, Color::Black), black, "{without}");
        }
    }
}
