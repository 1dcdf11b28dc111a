//! Chess960 through the real binary: a challenge with `start:NNN`, castling
//! both ways over a restart, the PGN as `pawnpost pgn` writes it (read back
//! by python-chess when it is installed), French messages, and the rating
//! pool of its own.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{Console, events_of, game_over};
use serde_json::Value;

/// Start 7 (QNBNRKRB): the king on f1 beside the g1 rook, on the square the
/// king castles short to. White castles short at once (`f1g1`: king to g1,
/// rook to f1), Black long after clearing b8–d8 (`f8e8`: king to c8, rook
/// to d8). The FENs after each castling are python-chess's (see
/// tests/fixtures/chess960/castling.txt, which holds this game).
const START: u16 = 7;
const AFTER_SHORT: &str = "qnbnrkrb/pppppppp/8/8/8/8/PPPPPPPP/QNBNRRKB b kq - 1 1";
const AFTER_LONG: &str = "qnkr2rb/pbpppppp/2n5/1p6/8/P3P3/QPPP1PPP/1NBNRRKB w - - 3 5";

fn text_of(reply: &Value) -> &str {
    reply["text"].as_str().unwrap_or_default()
}

/// The board FEN of the reply that carries ply `ply`.
fn fen_after(out: &[Value], ply: u64) -> String {
    out.iter()
        .find(|reply| {
            reply["board"].is_object()
                && reply["events"]
                    .as_array()
                    .is_some_and(|e| e.iter().any(|e| e["ply"] == ply))
        })
        .and_then(|reply| reply["board"]["fen"].as_str())
        .unwrap_or_else(|| panic!("no board after ply {ply}"))
        .to_owned()
}

#[test]
fn a_numbered_chess960_game_castles_both_ways_across_a_restart_and_exports_its_pgn() {
    let console = Console::new();
    let first = console.run(&format!(
        "alice: /challenge @bob color:white start:{START}
         bob: /accept
         alice: /move O-O
         bob: /move Ndc6
         alice: /move a3"
    ));
    assert!(
        text_of(&first[0]).ends_with(&format!("\nChess960 #{START}")),
        "the challenge names its start: {}",
        text_of(&first[0])
    );
    assert!(
        text_of(&first[1]).ends_with("\nChess960 #7"),
        "the game's start names it too: {}",
        text_of(&first[1])
    );
    let start = first[1]["board"]["fen"].as_str().expect("a board");
    assert_eq!(
        start,
        "qnbnrkrb/pppppppp/8/8/8/8/PPPPPPPP/QNBNRKRB w KQkq - 0 1"
    );
    assert_eq!(fen_after(&first, 1), AFTER_SHORT);
    let short = &events_of(&first, "move_played")[0];
    assert_eq!(
        (&short["san"], &short["uci"]),
        (&"O-O".into(), &"f1g1".into())
    );

    // A new process on the same file: the game is still Chess960, from its start.
    let second = console.run(
        "bob: /board
         bob: /move b5
         alice: /move e3
         bob: /move Bb7
         alice: /move Qa2
         bob: /move O-O-O
         alice: /move Nbc3
         bob: /resign",
    );
    assert!(
        text_of(&second[0]).contains("\nChess960 #7\n"),
        "/board names the start: {}",
        text_of(&second[0])
    );
    assert_eq!(fen_after(&second, 8), AFTER_LONG);
    let long = events_of(&second, "move_played")
        .into_iter()
        .find(|e| e["ply"] == 8)
        .expect("ply 8");
    assert_eq!(
        (&long["san"], &long["uci"]),
        (&"O-O-O".into(), &"f8e8".into())
    );
    let last = fen_after(&second, 9);

    let pgn = console.pgn(1);
    for tag in [
        "[Variant \"Chess960\"]\n",
        "[SetUp \"1\"]\n",
        "[FEN \"qnbnrkrb/pppppppp/8/8/8/8/PPPPPPPP/QNBNRKRB w KQkq - 0 1\"]\n",
    ] {
        assert!(pgn.contains(tag), "{tag} in\n{pgn}");
    }
    assert!(pgn.contains("1. O-O Ndc6"), "{pgn}");
    assert!(pgn.contains("4. Qa2 O-O-O 5. Nbc3"), "{pgn}");
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(
        !pgn.contains("[Opening"),
        "no opening name for start 7:\n{pgn}"
    );
    python_reads(&pgn, &last);

    // Imported into another database: the same game, the same position.
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("game.pgn");
    std::fs::write(&file, &pgn).expect("write");
    let again = Console::new();
    let import = again
        .command()
        .args(["import"])
        .arg(&file)
        .output()
        .expect("run pawnpost import");
    assert!(
        import.status.success(),
        "{}",
        String::from_utf8_lossy(&import.stderr)
    );
    let board = again.run("alice: /board 1");
    assert!(
        text_of(&board[0]).contains("Chess960 #7"),
        "{}",
        text_of(&board[0])
    );
    assert_eq!(board[0]["board"]["fen"].as_str(), Some(last.as_str()));
}

/// Feeds `pgn` to python-chess and checks its final position is `fen`; says
/// so where `cargo test` shows it when python-chess is not installed.
fn python_reads(pgn: &str, fen: &str) {
    const SCRIPT: &str = "import sys\n\
        try:\n    import chess.pgn\nexcept ImportError:\n    sys.exit(3)\n\
        game = chess.pgn.read_game(sys.stdin)\n\
        assert game is not None and not game.errors, game and game.errors\n\
        board = game.end().board()\n\
        assert board.chess960, 'read as Chess960'\n\
        print(board.fen())\n";
    let child = Command::new("python3")
        .args(["-c", SCRIPT])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        skipped("python3 is not installed");
        return;
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
        return;
    }
    assert!(
        output.status.success(),
        "python-chess refused our PGN: {}\n{pgn}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), fen);
}

/// Straight to the process's stderr, which the harness does not capture,
/// so a skip never passes for a pass.
fn skipped(why: &str) {
    let _ = writeln!(
        std::io::stderr(),
        "note: {why}: the python-chess check of the Chess960 PGN is skipped"
    );
}

#[test]
fn a_random_start_is_drawn_and_refusals_are_explained() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob variant:chess960
         alice: /challenge @bob start:12 fen:\"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"
         alice: /challenge @bob start:960
         alice: /challenge @bob start:12 pgn:\"1. e4\"",
    );
    let text = text_of(&out[0]);
    let number: u16 = text
        .rsplit('#')
        .next()
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("a start number: {text}"));
    assert!(number < 960, "{text}");
    assert_eq!(text_of(&out[1]), "Give a start number or a FEN, not both.");
    assert!(text_of(&out[2]).contains("960"), "{}", text_of(&out[2]));
    assert_eq!(
        text_of(&out[3]),
        "Give either the position (fen: or start:) or the game so far (pgn:), not both."
    );
}

#[test]
fn french_players_read_the_start_in_french() {
    let console = Console::new();
    let out = console.run(
        "alice: /settings language fr
         bob: /settings language fr
         alice: /défi @bob variante:chess960 depart:959
         bob: /echiquier",
    );
    let challenge = out
        .iter()
        .find(|r| text_of(r).contains("C1"))
        .expect("the challenge");
    assert!(
        text_of(challenge).ends_with("\nChess960 n° 959"),
        "{}",
        text_of(challenge)
    );
}

#[test]
fn chess960_games_are_rated_in_their_own_pool() {
    let console = Console::new();
    let out = console.run(
        "alice: /challenge @bob color:white start:518
         bob: /accept
         alice: /move e4
         bob: /move e5
         alice: /move Nf3
         bob: /move Nc6
         alice: /move Bb5
         bob: /resign
         alice: /pgn
         alice: /rating
         bob: /rating @alice",
    );
    assert_eq!(game_over(&out), Some(("1-0".into(), "resignation".into())));
    let ratings: Vec<&str> = out
        .iter()
        .map(text_of)
        .filter(|t| t.starts_with("alice: rating"))
        .collect();
    assert_eq!(ratings.len(), 2, "{ratings:?}");
    for text in &ratings {
        let (standard, chess960) = text.split_once('\n').expect("two lines");
        // The standard pool is untouched: the starting rating, no game.
        assert!(
            standard.contains("1500?") && standard.contains("0 rated games"),
            "{standard}"
        );
        assert!(
            chess960.starts_with("Chess960: rating ") && chess960.ends_with("1 rated game)"),
            "{chess960}"
        );
        let rating: i64 = chess960["Chess960: rating ".len()..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|n| n.parse().ok())
            .expect("a number");
        assert!(rating > 1500, "the winner gains: {chess960}");
    }
    // Start 518 is the standard position: the opening may be named.
    let pgn = out
        .iter()
        .map(text_of)
        .find(|t| t.contains("[Variant \"Chess960\"]"))
        .expect("the PGN");
    assert!(pgn.contains("[ECO \"C60\"]"), "{pgn}");

    // A standard game afterwards moves the standard pool only.
    let later = console.run(
        "alice: /challenge @bob color:white
         bob: /accept
         alice: /move f3
         bob: /move e5
         alice: /move g4
         bob: /move Qh4#
         alice: /rating",
    );
    let text = text_of(later.last().expect("the rating"));
    let (standard, chess960) = text.split_once('\n').expect("two lines");
    assert!(standard.contains("1 rated game)"), "{standard}");
    assert!(chess960.ends_with("1 rated game)"), "{chess960}");
}
