//! An engine's answer about one position, checked against the rules before
//! anything is kept of it (issue 42): the engine is a separate program and
//! may be broken, or not Stockfish at all. Its best move and every move of
//! its line must be legal where they are played, and its score must be one
//! a position can have: a mate that is there, a distance a game can reach,
//! centipawns far from an integer's edge.

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

use crate::core::review::Eval;

/// Centipawns beyond this are no evaluation (a thousand pawns: no engine
/// counts so far, yet far from where arithmetic on them could overflow).
pub const MAX_CENTIPAWNS: i32 = 100_000;
/// The longest mate an engine may announce, in moves (the longest known
/// forced mate, 549 moves in seven-piece endings, fits).
pub const MAX_MATE_MOVES: i32 = 600;

/// Why an engine's answer is not believed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    #[error("no best move in a position with legal moves")]
    NoBestMove,
    #[error("a best move in a position with none")]
    MoveWhenOver,
    #[error("move {ply} of the line, {uci:?}, is not UCI")]
    Unreadable { ply: usize, uci: String },
    #[error("move {ply} of the line, {uci:?}, is illegal there")]
    Illegal { ply: usize, uci: String },
    #[error("the score {0:?} is out of range")]
    OutOfRange(Eval),
    #[error("mate now, in a position that is not mate")]
    NoMateHere,
    #[error("mate in one, but the best move does not mate")]
    FalseMateInOne,
}

/// Checks the engine's `eval` (from White's point of view) and `line` (its
/// best move first, in UCI) for `position`.
pub fn check_answer(position: &Chess, eval: Eval, line: &[String]) -> Result<(), AnswerError> {
    check_score(position, eval)?;
    let has_moves = !position.legal_moves().is_empty();
    match (has_moves, line.is_empty()) {
        (true, true) => return Err(AnswerError::NoBestMove),
        (false, false) => return Err(AnswerError::MoveWhenOver),
        _ => {}
    }
    let mut after = position.clone();
    for (ply, uci) in line.iter().enumerate() {
        let parsed: UciMove = uci.parse().map_err(|_| AnswerError::Unreadable {
            ply,
            uci: uci.clone(),
        })?;
        let m = parsed.to_move(&after).map_err(|_| AnswerError::Illegal {
            ply,
            uci: uci.clone(),
        })?;
        after.play_unchecked(m);
        if ply == 0 && mate_in_moves(position, eval) == Some(1) && !after.is_checkmate() {
            return Err(AnswerError::FalseMateInOne);
        }
    }
    Ok(())
}

/// Whether `eval` is a score `position` can have.
fn check_score(position: &Chess, eval: Eval) -> Result<(), AnswerError> {
    match eval {
        Eval::Centipawns(cp) if cp.unsigned_abs() > MAX_CENTIPAWNS.unsigned_abs() => {
            Err(AnswerError::OutOfRange(eval))
        }
        Eval::Mate(n) if n.unsigned_abs() > MAX_MATE_MOVES.unsigned_abs() => {
            Err(AnswerError::OutOfRange(eval))
        }
        // Mate now is only for the side to move, mated.
        Eval::Mate(0) if !position.is_checkmate() => Err(AnswerError::NoMateHere),
        _ => Ok(()),
    }
}

/// The moves to mate for the side to move, when `eval` says it mates.
fn mate_in_moves(position: &Chess, eval: Eval) -> Option<i32> {
    let Eval::Mate(n) = eval else { return None };
    let for_mover = if position.turn().is_white() { n } else { -n };
    (for_mover > 0).then_some(for_mover)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::test_positions::position;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    /// White mates with Qxf7 (Scholar's mate), or not.
    const SCHOLAR: &str = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    /// Fool's mate: White is mated.
    const MATED: &str = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    /// A pawn on e7 about to promote, Black to move elsewhere.
    const PROMOTION: &str = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1";
    const CASTLING: &str = "rnbqk2r/pppp1ppp/5n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

    /// A position, the engine's score and line, and the verdict.
    type Case<'a> = (&'a str, Eval, &'a [&'a str], Result<(), AnswerError>);

    #[test]
    fn answers_are_believed_only_when_legal_and_in_range() {
        use AnswerError::*;
        let ok = Ok(());
        let cases: &[Case] = &[
            (
                START,
                Eval::Centipawns(30),
                &["e2e4", "e7e5", "g1f3"],
                ok.clone(),
            ),
            (
                START,
                Eval::Centipawns(-MAX_CENTIPAWNS),
                &["e2e4"],
                ok.clone(),
            ),
            (PROMOTION, Eval::Mate(9), &["e7e8q"], ok.clone()),
            (SCHOLAR, Eval::Mate(1), &["h5f7"], ok.clone()),
            (MATED, Eval::Mate(0), &[], ok.clone()),
            // Castling as the king's two squares and as king takes rook.
            (CASTLING, Eval::Centipawns(20), &["e1g1"], ok.clone()),
            (CASTLING, Eval::Centipawns(20), &["e1h1"], ok.clone()),
            (
                START,
                Eval::Centipawns(0),
                &["a1a1"],
                Err(Illegal {
                    ply: 0,
                    uci: "a1a1".into(),
                }),
            ),
            (
                START,
                Eval::Centipawns(0),
                &["zzzz"],
                Err(Unreadable {
                    ply: 0,
                    uci: "zzzz".into(),
                }),
            ),
            (
                PROMOTION,
                Eval::Mate(9),
                &["e7e8k"],
                Err(Illegal {
                    ply: 0,
                    uci: "e7e8k".into(),
                }),
            ),
            (
                START,
                Eval::Centipawns(0),
                &["e2e4", "e2e4"],
                Err(Illegal {
                    ply: 1,
                    uci: "e2e4".into(),
                }),
            ),
            (START, Eval::Centipawns(0), &[], Err(NoBestMove)),
            (MATED, Eval::Mate(0), &["e2e4"], Err(MoveWhenOver)),
            (START, Eval::Mate(0), &["e2e4"], Err(NoMateHere)),
            (
                START,
                Eval::Centipawns(i32::MAX),
                &["e2e4"],
                Err(OutOfRange(Eval::Centipawns(i32::MAX))),
            ),
            (
                START,
                Eval::Centipawns(i32::MIN),
                &["e2e4"],
                Err(OutOfRange(Eval::Centipawns(i32::MIN))),
            ),
            (
                START,
                Eval::Mate(-100_000),
                &["e2e4"],
                Err(OutOfRange(Eval::Mate(-100_000))),
            ),
            (SCHOLAR, Eval::Mate(1), &["h5h7"], Err(FalseMateInOne)),
        ];
        for (fen, eval, line, expected) in cases {
            let line: Vec<String> = line.iter().map(|m| (*m).to_owned()).collect();
            let got = check_answer(&position(fen), *eval, &line);
            assert_eq!(&got, expected, "{fen} {eval:?} {line:?}");
        }
    }
}
