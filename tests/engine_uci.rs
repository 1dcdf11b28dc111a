//! The review engine through its UCI driver, against the real Stockfish
//! (Debian's `stockfish` package; `.ci/run` installs it). Without it the
//! test says so where `cargo test` shows it.

use std::path::Path;
use std::time::Duration;

use pawnpost::core::review::Eval;
use pawnpost::engine::Engine;

const STOCKFISH: &str = "/usr/games/stockfish";

async fn engine() -> Option<Engine> {
    if !Path::new(STOCKFISH).exists() {
        println!("note: {STOCKFISH} is not installed: the engine test is skipped");
        return None;
    }
    Some(
        Engine::start(Path::new(STOCKFISH), 1, 16, Duration::from_secs(30))
            .await
            .expect("stockfish starts"),
    )
}

#[tokio::test]
async fn the_engine_finds_a_hanging_queen_and_answers_the_same_twice() {
    let Some(mut engine) = engine().await else {
        return;
    };
    // Black's queen on d4 hangs to the knight on f3... and to e3xd4.
    let fen = "rnb1kbnr/pppp1ppp/8/4p3/3q4/4PN2/PPPP1PPP/RNBQKB1R w KQkq - 0 4";
    let first = engine.analyse(fen, 50_000).await.expect("analysis");
    let Eval::Centipawns(cp) = first.eval else {
        panic!("no mate here: {first:?}");
    };
    assert!(cp > 600, "White wins the queen: {first:?}");
    assert!(
        matches!(first.best.as_deref(), Some("f3d4" | "e3d4")),
        "{first:?}"
    );
    assert_eq!(first.line.first(), first.best.as_ref(), "{first:?}");
    assert!(first.line.len() > 1, "a line, not just a move: {first:?}");
    assert!(engine.name().starts_with("Stockfish"), "{}", engine.name());
    let again = engine.analyse(fen, 50_000).await.expect("analysis");
    assert_eq!(first, again, "fixed nodes from a cleared hash");
    // From Black's side to move the score is still White's.
    let black_to_move = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let quiet = engine
        .analyse(black_to_move, 20_000)
        .await
        .expect("analysis");
    let Eval::Centipawns(cp) = quiet.eval else {
        panic!("{quiet:?}")
    };
    assert!(cp.abs() < 150, "a quiet opening: {quiet:?}");
    // Mated: no best move, and a mate score for the side that mated.
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let over = engine.analyse(mated, 1_000).await.expect("analysis");
    assert_eq!(over.best, None, "{over:?}");
    assert!(matches!(over.eval, Eval::Mate(n) if n <= 0), "{over:?}");
    engine.stop().await.expect("quits");
}
