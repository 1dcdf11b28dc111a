//! The move-input table (`tests/fixtures/parser_cases.txt`), and properties
//! of the parser: no input makes it panic, every long form or UCI it writes it
//! reads back as that move, and SAN in any style as that move or as a question
//! that offers it (English `Rd1` may be the French king).

use pawnpost::core::notation::{
    IllegalReason, Lang, Letters, MAX_MOVE_INPUT, MoveInputError, Reader, Style, parse_move,
    write_long, write_san, write_unmistakable,
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
    if let Some(set) = text.strip_prefix('=') {
        return Reader::speaking(lang(set)).settled(Letters::of_notation(lang(set)));
    }
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
    // Standard UCI writes castling king-to-target (`e1g1`), as the table does.
    let king_to_target = |m: shakmaty::Move| m.to_uci(CastlingMode::Standard).to_string();
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

/// The hint "Legal moves of that piece: Rb8, Rc8, Rd8" once offered `Rd8`,
/// which it then asked about (French `R`: the king on e8 reaches d8 too).
#[test]
fn suggestions_are_never_asked_about() {
    let pos = position("r3k3/8/8/8/8/8/8/4K3 b - - 0 1");
    let rook_moves: Vec<shakmaty::Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.from() == Some(shakmaty::Square::A8) && m.castling_side().is_none())
        .filter(|m| m.to().rank() == shakmaty::Rank::Eighth)
        .collect();
    let write = |reader: &Reader, style| -> Vec<String> {
        rook_moves
            .iter()
            .map(|m| write_unmistakable(&pos, *m, style, reader))
            .collect()
    };
    let english = Reader::speaking(Lang::En);
    assert_eq!(write(&english, Style::English), ["Rb8", "Rc8", "Rad8"]);
    assert_eq!(
        parse_move(&pos, "Rd8", &english)
            .map_err(|e| matches!(e, MoveInputError::Ambiguous { .. })),
        Err(true),
        "Rd8 alone is asked about"
    );
    let french = Reader::speaking(Lang::Fr);
    assert_eq!(write(&french, Style::French), ["Tb8", "Tc8", "Td8"]);
    // Once the player said they write English, `R` is the rook alone.
    let settled = english.clone().settled(Letters::of_notation(Lang::En));
    assert_eq!(write(&settled, Style::English), ["Rb8", "Rc8", "Rd8"]);
    let german = Reader::speaking(Lang::De).settled(Letters::of_notation(Lang::De));
    assert_eq!(write(&german, Style::German), ["Tb8", "Tc8", "Td8"]);
}

#[test]
fn moves_are_written_per_style() {
    let pos = position("1n2k3/P7/8/3p4/2P1P3/8/8/4K3 w - - 0 1");
    let cases = [
        ("a7b8q", Style::English, "axb8=Q+", "a7xb8=Q+"),
        ("a7b8q", Style::French, "axb8=D+", "a7xb8=D+"),
        ("a7b8q", Style::Figurine, "axb8=♕+", "a7xb8=♕+"),
        ("e1d2", Style::French, "Rd2", "Re1-d2"),
        ("a7b8n", Style::German, "axb8=S", "a7xb8=S"),
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

const POSITIONS: [&str; 6] = [
    "startpos",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "1n2k3/P7/8/3p4/2P1P3/8/8/4K3 w - - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
    "4k3/8/8/8/8/2n5/1P1B4/R3K3 w Q - 0 1",
    "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",
];

/// Every kind of reader, including odd ones no adapter builds today.
fn readers() -> Vec<Reader> {
    vec![
        Reader::speaking(Lang::En),
        Reader::speaking(Lang::Fr),
        Reader::speaking(Lang::De),
        Reader::speaking(Lang::Ru),
        Reader::unknown(&Lang::ALL),
        Reader::unknown(&[Lang::En, Lang::Fr]),
        Reader::unknown(&[Lang::En, Lang::De]),
        Reader::unknown(&[]),
        Reader {
            lang: Some(Lang::De),
            allowed: vec![],
            letters: Letters::default(),
        },
    ]
}

/// Every kind of player the bot suggests moves to, with the letters they
/// are written for: each language with `auto`, each notation set, and a
/// player whose answers settled letters against their own language.
fn suggested_to() -> Vec<(Reader, Style)> {
    let mut players = Vec::new();
    for lang in [Lang::En, Lang::Fr, Lang::De] {
        players.push((Reader::speaking(lang), Style::for_lang(lang)));
        let settled = Reader::speaking(lang).settled(Letters::of_notation(lang));
        players.push((settled, Style::of_notation(lang)));
    }
    // An English speaker who answered that their `R` is the French king.
    let answered = Letters::default().with('R', shakmaty::Role::King);
    players.push((Reader::speaking(Lang::En).settled(answered), Style::English));
    players
}

/// Whatever `text` is, reading it does not panic, and every move it names
/// (played, offered as a candidate, or given as a hint) is legal.
fn check_any_text(text: &str) -> Result<(), TestCaseError> {
    for fen in POSITIONS {
        let pos = position(fen);
        for reader in readers() {
            match parse_move(&pos, text, &reader) {
                Ok(m) => prop_assert!(pos.is_legal(m), "{:?} gave an illegal move", text),
                Err(MoveInputError::TooLong { .. }) => {
                    prop_assert!(text.len() > MAX_MOVE_INPUT)
                }
                Err(MoveInputError::Syntax) => {}
                Err(MoveInputError::Illegal { hints, .. }) => {
                    prop_assert!(hints.iter().all(|m| pos.is_legal(*m)), "{:?}", text)
                }
                Err(MoveInputError::Ambiguous { candidates }) => {
                    prop_assert!(candidates.len() >= 2, "{:?}", text);
                    prop_assert!(candidates.iter().all(|m| pos.is_legal(*m)), "{:?}", text);
                    for (i, m) in candidates.iter().enumerate() {
                        prop_assert!(!candidates[i + 1..].contains(m), "{:?} repeats", text);
                    }
                }
            }
        }
    }
    Ok(())
}

/// A random position: `choices` pick random legal moves from one of the
/// positions above (so castling, promotion and en passant come up often).
fn random_position(start: usize, choices: &[u16]) -> Chess {
    let mut pos = position(POSITIONS[start % POSITIONS.len()]);
    for pick in choices {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        pos.play_unchecked(legal[*pick as usize % legal.len()]);
    }
    pos
}

/// Every way the bot or another site writes `m` with its origin square: no
/// reader may take it for anything else.
fn exact_forms(pos: &Chess, m: shakmaty::Move) -> Vec<String> {
    vec![
        write_long(pos, m, Style::English),
        write_long(pos, m, Style::French),
        write_long(pos, m, Style::Figurine),
        write_long(pos, m, Style::Russian),
        m.to_uci(CastlingMode::Standard).to_string(),
        // King-takes-rook castling, as Chess960 UCI writes it.
        m.to_uci(CastlingMode::Chess960).to_string(),
    ]
}

/// Every way `m` is written in SAN: read as `m`, or asked about with `m`
/// among the candidates.
fn san_forms(pos: &Chess, m: shakmaty::Move) -> Vec<String> {
    let san = write_san(pos, m, Style::English);
    vec![
        write_san(pos, m, Style::French),
        write_san(pos, m, Style::Figurine),
        write_san(pos, m, Style::Russian),
        format!("{san}!?"),
        san,
    ]
}

/// Text from a chess-like alphabet: mostly within the length limit, where
/// the parser does its work, and sometimes far beyond it.
const CHESS_LIKE_SHORT: &str = "[KQRBNPDTFCLSКрФЛСкabcdefgh12345678xXх=+#:/()!?Oo0 .ep♘♕–-]{0,12}";
const CHESS_LIKE_LONG: &str = "[KQRBNPDTFCLSКрФЛСкabcdefgh12345678xXх=+#:/()!?Oo0 .ep♘♕–-]{0,200}";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Hints and autocomplete write moves with `write_unmistakable`: each
    /// text has one reading for the player it is written for, that move.
    #[test]
    fn suggested_texts_have_one_reading(
        start in 0..POSITIONS.len(),
        choices in prop::collection::vec(any::<u16>(), 0..60),
    ) {
        let pos = random_position(start, &choices);
        let fen = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
        for (reader, style) in suggested_to() {
            for m in pos.legal_moves() {
                let text = write_unmistakable(&pos, m, style, &reader);
                prop_assert_eq!(
                    parse_move(&pos, &text, &reader), Ok(m), "{} in {} for {:?}", text, fen, reader
                );
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        check_any_text(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn chess_like_strings_never_panic(
        text in prop_oneof![3 => CHESS_LIKE_SHORT, 1 => CHESS_LIKE_LONG]
    ) {
        check_any_text(&text)?;
    }

    #[test]
    fn every_written_move_reads_back(
        start in 0..POSITIONS.len(),
        choices in prop::collection::vec(any::<u16>(), 0..60),
    ) {
        let pos = random_position(start, &choices);
        let fen = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
        // Every reader that knows a language, in turn: all of them for every
        // form would cost five times as much for little more.
        let readers: Vec<Reader> = readers().into_iter().take(5).collect();
        let mut turn = readers.iter().cycle();
        for m in pos.legal_moves() {
            for text in exact_forms(&pos, m) {
                let reader = turn.next().expect("readers");
                prop_assert_eq!(parse_move(&pos, &text, reader), Ok(m), "{} in {}", text, fen);
            }
            for text in san_forms(&pos, m) {
                match parse_move(&pos, &text, turn.next().expect("readers")) {
                    Ok(got) => prop_assert_eq!(got, m, "{} in {}", text, fen),
                    Err(MoveInputError::Ambiguous { candidates }) => {
                        prop_assert!(candidates.contains(&m), "{} in {}", text, fen)
                    }
                    Err(error) => prop_assert!(false, "{} in {}: {:?}", text, fen, error),
                }
            }
        }
    }
}
