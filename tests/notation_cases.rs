//! The move-input table (`tests/fixtures/parser_cases.txt`), and properties
//! of the parser: no input makes it panic, and every move it writes it reads
//! back.

use pawnpost::core::notation::{
    IllegalReason, Lang, MoveInputError, Reader, Style, parse_move, write_long, write_san,
};
use proptest::prelude::*;
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

fn position(text: &str) -> Chess {
    if text == "startpos" {
        return Chess::default();
    }
    let fen: Fen = text.parse().expect("valid FEN");
    fen.into_position(CastlingMode::Standard)
        .expect("legal position")
}

fn reader(text: &str) -> Reader {
    let lang = |tag: &str| Lang::from_locale(tag).expect("known language");
    match text.strip_prefix('?') {
        Some(allowed) => Reader::unknown(&allowed.split('+').map(lang).collect::<Vec<_>>()),
        None => Reader::speaking(lang(text)),
    }
}

fn reason_name(reason: IllegalReason) -> String {
    serde_json::to_string(&reason)
        .expect("name")
        .trim_matches('"')
        .to_owned()
}

/// The outcome in the fixture's notation.
fn describe(result: Result<shakmaty::Move, MoveInputError>) -> String {
    let uci = |m: shakmaty::Move| m.to_uci(CastlingMode::Chess960).to_string();
    let king_to_target = |m: shakmaty::Move| m.to_uci(CastlingMode::Standard).to_string();
    let _ = uci;
    match result {
        Ok(m) => king_to_target(m),
        Err(MoveInputError::Syntax) => "syntax".into(),
        Err(MoveInputError::TooLong { .. }) => "too_long".into(),
        Err(MoveInputError::Illegal { reason, .. }) => format!("illegal:{}", reason_name(reason)),
        Err(MoveInputError::Ambiguous { candidates }) => {
            let mut all: Vec<String> = candidates.into_iter().map(king_to_target).collect();
            all.sort();
            format!("ambiguous:{}", all.join(","))
        }
    }
}

#[test]
fn every_parser_case_passes() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/parser_cases.txt"
    );
    let text = std::fs::read_to_string(path).expect("fixture");
    let mut failures = Vec::new();
    let mut count = 0;
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 4, "line {}: four columns", index + 1);
        let (pos, input, who, expected) = (
            fields[0].trim(),
            fields[1],
            fields[2].trim(),
            fields[3].trim(),
        );
        let got = describe(parse_move(&position(pos), input, &reader(who)));
        count += 1;
        if got != expected {
            failures.push(format!(
                "line {}: {input:?} ({who}): want {expected}, got {got}",
                index + 1
            ));
        }
    }
    assert!(count > 80, "the table has its rows");
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn illegal_moves_hint_at_the_piece_meant() {
    let pos = position("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1");
    let Err(MoveInputError::Illegal { hints, .. }) = parse_move(&pos, "Bd3", &Reader::default())
    else {
        panic!("Bd3 is illegal here");
    };
    // The pinned bishop has no legal move: no hints, rather than wrong ones.
    assert!(hints.is_empty());
    let Err(MoveInputError::Illegal { hints, .. }) =
        parse_move(&Chess::default(), "Nf4", &Reader::default())
    else {
        panic!("Nf4 is illegal");
    };
    let written: Vec<String> = hints
        .iter()
        .map(|m| write_san(&Chess::default(), *m, Style::English))
        .collect();
    assert_eq!(written.len(), 4, "{written:?}");
    assert!(written.contains(&"Nf3".to_owned()));
}

#[test]
fn moves_are_written_per_style() {
    let pos = position("1n2k3/P7/8/3p4/2P1P3/8/8/4K3 w - - 0 1");
    let cases = [
        ("a7b8q", Style::English, "axb8=Q+", "a7xb8=Q+"),
        ("a7b8q", Style::French, "axb8=D+", "a7xb8=D+"),
        ("a7b8q", Style::Figurine, "axb8=♕+", "a7xb8=♕+"),
        ("e1d2", Style::French, "Rd2", "Re1-d2"),
        ("e4d5", Style::English, "exd5", "e4xd5"),
    ];
    for (uci, style, san, long) in cases {
        let m = uci
            .parse::<shakmaty::uci::UciMove>()
            .expect("uci")
            .to_move(&pos)
            .expect("legal");
        assert_eq!(write_san(&pos, m, style), san);
        assert_eq!(write_long(&pos, m, style), long);
    }
    let castle = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let m = castle.castling_moves(shakmaty::CastlingSide::QueenSide)[0];
    assert_eq!(write_san(&castle, m, Style::French), "O-O-O");
    assert_eq!(write_long(&castle, m, Style::French), "O-O-O");
    assert_eq!(
        pawnpost::core::notation::restyle_san("Bxb5+", Style::French),
        "Fxb5+"
    );
    assert_eq!(
        pawnpost::core::notation::restyle_san("bxc8=N#", Style::French),
        "bxc8=C#"
    );
}

const POSITIONS: [&str; 5] = [
    "startpos",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "1n2k3/P7/8/3p4/2P1P3/8/8/4K3 w - - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
    "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",
];

fn readers() -> Vec<Reader> {
    vec![
        Reader::speaking(Lang::En),
        Reader::speaking(Lang::Fr),
        Reader::speaking(Lang::De),
        Reader::unknown(&Lang::ALL),
    ]
}

fn never_panics(text: &str) {
    for fen in POSITIONS {
        let pos = position(fen);
        for reader in readers() {
            if let Ok(m) = parse_move(&pos, text, &reader) {
                assert!(pos.is_legal(m), "{text:?} gave an illegal move");
            }
        }
    }
}

/// A random position `plies` random moves from the start.
fn random_position(choices: &[u16]) -> Chess {
    let mut pos = Chess::default();
    for pick in choices {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        pos.play_unchecked(legal[*pick as usize % legal.len()]);
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        never_panics(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn chess_like_strings_never_panic(text in "[KQRBNPDTFCLSabcdefgh12345678xX=+#:/()!?Oo0 .ep♘♕-]{0,40}") {
        never_panics(&text);
    }

    #[test]
    fn every_written_move_reads_back(choices in prop::collection::vec(any::<u16>(), 0..80)) {
        let pos = random_position(&choices);
        let en = Reader::speaking(Lang::En);
        let fr = Reader::speaking(Lang::Fr);
        for m in pos.legal_moves() {
            let uci = m.to_uci(CastlingMode::Standard).to_string();
            let forms = [
                (write_san(&pos, m, Style::English), &en),
                (write_san(&pos, m, Style::French), &fr),
                (write_san(&pos, m, Style::Figurine), &en),
                (write_long(&pos, m, Style::English), &en),
                (write_long(&pos, m, Style::French), &fr),
                (uci.clone(), &en),
            ];
            for (text, reader) in forms {
                prop_assert_eq!(parse_move(&pos, &text, reader), Ok(m), "{} in {}", text, uci);
            }
        }
    }
}
