//! A reviewed game's PGN (`pgn::export_reviewed`) as another program reads
//! it: python-chess, when it is installed, finds the same main line, the
//! engine's variations where they were written, the judgements' NAGs and
//! every `[%eval]` through `node.eval()`. Without python-chess the check is
//! skipped, and says so on stderr.

use std::io::Write;
use std::process::{Command, Stdio};

use chrono::{DateTime, TimeZone, Utc};
use pawnpost::core::game::{DrawRules, PlayerId, Players};
use pawnpost::core::pgn::{self, Continuation, PgnTags};
use pawnpost::core::review::{Eval, PositionEval};
use pawnpost::core::variant::Variant;
use serde_json::{Value, json};

fn players() -> Players {
    Players {
        white: PlayerId(1),
        black: PlayerId(2),
    }
}

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2024, 3, 5, 12, 0, 0)
        .single()
        .expect("a valid instant")
}

/// One evaluation per position, from (White's score, the engine's line).
fn review(rows: &[(Eval, &str)]) -> Vec<PositionEval> {
    rows.iter()
        .map(|(eval, line)| PositionEval {
            eval: *eval,
            line: line.split_whitespace().map(str::to_owned).collect(),
        })
        .collect()
}

/// Per main-line move, what python-chess read: its UCI, White's score
/// (`{"cp": n}`, `{"mate": n}` or null), its NAGs, and the variations that
/// stand in for it, each as UCI moves.
const SCRIPT: &str = "\
import json, sys
try:
    import chess.pgn
except ImportError:
    sys.exit(3)
game = chess.pgn.read_game(sys.stdin)
assert game is not None and not game.errors, game and game.errors
rows = []
for node in game.mainline():
    score = node.eval()
    if score is None:
        value = None
    elif score.white().is_mate():
        value = {'mate': score.white().mate()}
    else:
        value = {'cp': score.white().score()}
    variations = [[v.move.uci()] + [n.move.uci() for n in v.mainline()]
                  for v in node.parent.variations[1:]]
    rows.append({'uci': node.move.uci(), 'eval': value,
                 'nags': sorted(node.nags), 'variations': variations})
print(json.dumps(rows))
";

/// python-chess's reading of `pgn`, or `None` (said on stderr) when python3
/// or python-chess is not installed.
fn python_reads(pgn: &str) -> Option<Value> {
    let child = Command::new("python3")
        .args(["-c", SCRIPT])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        skipped("python3 is not installed");
        return None;
    };
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(pgn.as_bytes())
        .expect("write the PGN");
    let output = child.wait_with_output().expect("python3 ran");
    if output.status.code() == Some(3) {
        skipped("python-chess (Debian python3-chess, PyPI chess) is not installed");
        return None;
    }
    assert!(
        output.status.success(),
        "python-chess refused our PGN: {}\n{pgn}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(serde_json::from_slice(&output.stdout).expect("JSON from the script"))
}

/// Straight to the process's stderr, which the harness does not capture,
/// so a skip never passes for a pass.
fn skipped(why: &str) {
    let _ = writeln!(
        std::io::stderr(),
        "note: {why}: the python-chess check of the reviewed PGN is skipped"
    );
}

#[test]
fn python_chess_reads_a_reviewed_game_with_its_evaluations_and_variations() {
    use Eval::{Centipawns as Cp, Mate};
    let text = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#";
    let (game, _) = pgn::import(text, players(), now()).expect("a legal game");
    let evals = review(&[
        (Cp(20), "e2e4 e7e5 g1f3"),
        (Cp(30), "e7e5 g1f3 b8c6"),
        (Cp(35), "g1f3 b8c6 f1b5"),
        // 2. Qh5?: Nf3 was best.
        (Cp(-100), "b8c6 f1c4 g7g6"),
        // 2... Nc6?!: the engine's own first move, so no variation.
        (Cp(0), "f1c4 g7g6 h5f3"),
        (Cp(0), "g7g6 h5f3 g8f6"),
        // 3... Nf6??: mate in one.
        (Mate(1), "h5f7"),
        (Mate(0), ""),
    ]);
    let pgn = pgn::export_reviewed(&game, &PgnTags::default(), &evals, &[]);
    let Some(read) = python_reads(&pgn) else {
        return;
    };
    let expected = json!([
        {"uci": "e2e4", "eval": {"cp": 30}, "nags": [], "variations": []},
        {"uci": "e7e5", "eval": {"cp": 35}, "nags": [], "variations": []},
        {"uci": "d1h5", "eval": {"cp": -100}, "nags": [2],
         "variations": [["g1f3", "b8c6", "f1b5"]]},
        {"uci": "b8c6", "eval": {"cp": 0}, "nags": [6], "variations": []},
        {"uci": "f1c4", "eval": {"cp": 0}, "nags": [], "variations": []},
        {"uci": "g8f6", "eval": {"mate": 1}, "nags": [4],
         "variations": [["g7g6", "h5f3", "g8f6"]]},
        {"uci": "h5f7", "eval": null, "nags": [], "variations": []},
    ]);
    assert_eq!(read, expected, "{pgn}");
}

#[test]
fn python_chess_reads_a_chess960_variation_that_castles() {
    // Start 0 (BBQNNRKR): once the f-rooks are out, each side castles short
    // with its h-rook; the engine writes it king-takes-rook (g1h1).
    let fen = pawnpost::core::chess960::fen(0).expect("a number");
    let game = Continuation::resume(
        Variant::Chess960,
        players(),
        Some(&fen),
        "f2f4 f7f5 f1f3 f8f6 a2a4 g8h8",
        DrawRules::default(),
        now(),
    )
    .expect("a legal game");
    let mut evals = review(&[(Eval::Centipawns(0), ""); 7]);
    evals[4].line = vec!["g1h1".to_owned(), "g8h8".to_owned()];
    evals[5].eval = Eval::Centipawns(-400);
    let pgn = pgn::export_reviewed(&game, &PgnTags::default(), &evals, &[]);
    assert!(pgn.contains("(3. O-O O-O)"), "{pgn}");
    let Some(read) = python_reads(&pgn) else {
        return;
    };
    let moves: Vec<&str> = read
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| row["uci"].as_str().expect("a move"))
        .collect();
    assert_eq!(
        moves,
        ["f2f4", "f7f5", "f1f3", "f8f6", "a2a4", "g8h8"],
        "{pgn}"
    );
    assert_eq!(read[4]["nags"], json!([4]), "{pgn}");
    assert_eq!(read[4]["eval"], json!({"cp": -400}), "{pgn}");
    assert_eq!(read[4]["variations"], json!([["g1h1", "g8h8"]]), "{pgn}");
}
