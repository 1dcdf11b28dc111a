//! Unit tables for the move reader and writers. The larger table, with
//! every parser case of RULES.md, is `tests/fixtures/parser_cases.txt`.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move};

use super::read::clean;
use super::*;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const CASTLES: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
const PROMOTES: &str = "1n2k3/P7/8/3p4/2P1P3/8/8/4K3 w - - 0 1";
const EN_PASSANT: &str = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
const ROOK_OR_KING: &str = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1";
const PAWN_OR_BISHOP: &str = "4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1";
const TWO_KNIGHTS: &str = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
const PINNED: &str = "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1";
/// The e5 pawn may not take en passant: the rook on h5 would then check the king on a5.
const EP_PINNED: &str = "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 2";

const BARE_KINGS: &str = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
const BLOCKED_PAWN: &str = "4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1";
const GUARDED_E2: &str = "4k3/8/8/8/8/8/5r2/4K3 w - - 0 1";
const NO_RIGHTS: &str = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
const ON_THE_SEVENTH: &str = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
const BACK_RANK_MATE: &str = "k7/8/1K6/8/8/8/8/7R w - - 0 1";

use crate::core::test_positions::position;

fn reader(text: &str) -> Reader {
    let lang = |tag: &str| Lang::from_locale(tag).expect("known language");
    match text.strip_prefix('?') {
        Some(allowed) => Reader::unknown(&allowed.split('+').map(lang).collect::<Vec<_>>()),
        None => Reader::speaking(lang(text)),
    }
}

fn uci(m: Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// The outcome in the notation of the tables below.
fn describe(result: Result<Move, MoveInputError>) -> String {
    match result {
        Ok(m) => uci(m),
        Err(MoveInputError::Syntax) => "syntax".into(),
        Err(MoveInputError::TooLong { .. }) => "too_long".into(),
        Err(MoveInputError::Illegal { reason, .. }) => {
            let name = serde_json::to_string(&reason).expect("reason name");
            format!("illegal:{}", name.trim_matches('"'))
        }
        Err(MoveInputError::Ambiguous { candidates }) => {
            let mut all: Vec<String> = candidates.into_iter().map(uci).collect();
            all.sort();
            format!("ambiguous:{}", all.join(","))
        }
    }
}

fn check_table(rows: &[(&str, &str, &str, &str)]) {
    let failures: Vec<String> = rows
        .iter()
        .filter_map(|&(fen, input, who, want)| {
            let got = describe(parse_move(&position(fen), input, &reader(who)));
            (got != want).then(|| format!("{input:?} ({who}) in {fen}: want {want}, got {got}"))
        })
        .collect();
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn forms_people_type() {
    check_table(&[
        (START, "Nf3", "en", "g1f3"),
        (START, "g1f3", "en", "g1f3"),
        (START, "Ng1f3", "en", "g1f3"),
        (START, "Ng1-f3", "en", "g1f3"),
        (START, "Ng1xf3", "en", "g1f3"),
        (START, "Nxf3", "en", "g1f3"),
        (START, "Ngf3", "en", "g1f3"),
        (START, "N1f3", "en", "g1f3"),
        (START, "nf3", "en", "g1f3"),
        (START, "NF3", "en", "g1f3"),
        (START, "Nf3!?", "en", "g1f3"),
        (START, "Nf3 ?!", "en", "g1f3"),
        (START, "Nf3++", "en", "g1f3"),
        (START, "  Nf3+  ", "en", "g1f3"),
        (START, "e2-e4", "en", "e2e4"),
        (START, "e2–e4", "en", "e2e4"),
        (START, "E4", "en", "e2e4"),
        (START, "Pe4", "en", "e2e4"),
        (START, "♘f3", "en", "g1f3"),
        (START, "♞f3", "fr", "g1f3"),
        (PROMOTES, "ed5", "en", "e4d5"),
        (PROMOTES, "exd5", "en", "e4d5"),
        (PROMOTES, "e4xd5", "en", "e4d5"),
        (PROMOTES, "e4:d5", "en", "e4d5"),
        (PROMOTES, "EXD5", "en", "e4d5"),
        (PROMOTES, "e4×d5", "en", "e4d5"),
        (PROMOTES, "d5", "en", "ambiguous:c4d5,e4d5"),
        (EN_PASSANT, "exd6 e.p.", "en", "e5d6"),
        (EN_PASSANT, "exd6e.p.", "en", "e5d6"),
        (EN_PASSANT, "exd6ep", "en", "e5d6"),
        (EN_PASSANT, "exd6 ep", "en", "e5d6"),
        (EN_PASSANT, "exd6 E.P.+", "en", "e5d6"),
        (EN_PASSANT, "e5d6", "en", "e5d6"),
    ]);
}

#[test]
fn castling_in_every_form() {
    check_table(&[
        (CASTLES, "O-O", "en", "e1g1"),
        (CASTLES, "0-0", "en", "e1g1"),
        (CASTLES, "o-o", "fr", "e1g1"),
        (CASTLES, "O-O+", "en", "e1g1"),
        (CASTLES, "e1g1", "en", "e1g1"),
        (CASTLES, "e1h1", "en", "e1g1"),
        (CASTLES, "Kg1", "en", "e1g1"),
        (CASTLES, "O-O-O", "en", "e1c1"),
        (CASTLES, "0-0-0", "de", "e1c1"),
        (CASTLES, "e1c1", "en", "e1c1"),
        (CASTLES, "e1a1", "en", "e1c1"),
    ]);
}

#[test]
fn promotions() {
    check_table(&[
        (PROMOTES, "a8Q", "en", "a7a8q"),
        (PROMOTES, "a8=Q", "en", "a7a8q"),
        (PROMOTES, "a8(Q)", "en", "a7a8q"),
        (PROMOTES, "a8=(Q)", "en", "a7a8q"),
        (PROMOTES, "a8/Q", "en", "a7a8q"),
        (PROMOTES, "a8=q", "en", "a7a8q"),
        (PROMOTES, "a7a8q", "en", "a7a8q"),
        (PROMOTES, "a8=♕", "en", "a7a8q"),
        (PROMOTES, "a8=D", "fr", "a7a8q"),
        (PROMOTES, "a8=D", "de", "a7a8q"),
        (PROMOTES, "a8=Q", "fr", "a7a8q"),
        (PROMOTES, "axb8=N", "en", "a7b8n"),
        (PROMOTES, "a7xb8=N", "en", "a7b8n"),
        (PROMOTES, "axb8C", "fr", "a7b8n"),
        (PROMOTES, "axb8=S", "de", "a7b8n"),
        // German `B` is a pawn: the German reading fails, the English one is a bishop.
        (PROMOTES, "a8B", "de", "a7a8b"),
    ]);
}

#[test]
fn languages_and_ambiguity() {
    check_table(&[
        (ROOK_OR_KING, "Rd1", "fr", "e1d1"),
        (ROOK_OR_KING, "Rd1", "en", "a1d1"),
        (ROOK_OR_KING, "Rd1", "?en+fr", "ambiguous:a1d1,e1d1"),
        (ROOK_OR_KING, "Rd1", "?en+de", "a1d1"),
        (ROOK_OR_KING, "Td1", "?en+fr+de", "a1d1"),
        (ROOK_OR_KING, "Kd1", "?en+fr", "e1d1"),
        (ROOK_OR_KING, "rd1", "fr", "e1d1"),
        // Pawn moves read the same in every language: no ambiguity.
        (START, "e4", "?en+fr+de", "e2e4"),
        (START, "Cf3", "fr", "g1f3"),
        (START, "Sf3", "de", "g1f3"),
        // A French speaker may use English letters when French gives nothing.
        (START, "Nf3", "fr", "g1f3"),
        (PAWN_OR_BISHOP, "bxc3", "en", "b2c3"),
        (PAWN_OR_BISHOP, "bc3", "en", "b2c3"),
        (PAWN_OR_BISHOP, "Bxc3", "en", "d2c3"),
        (PAWN_OR_BISHOP, "Bxc3", "de", "b2c3"),
        (PAWN_OR_BISHOP, "Lxc3", "de", "d2c3"),
        (PAWN_OR_BISHOP, "Fxc3", "fr", "d2c3"),
        // French has no `B`, but English does: not the b-pawn in capitals.
        (PAWN_OR_BISHOP, "Bxc3", "fr", "d2c3"),
        (PAWN_OR_BISHOP, "Bxc3", "?en+de", "ambiguous:b2c3,d2c3"),
        (TWO_KNIGHTS, "Nd2", "en", "ambiguous:b1d2,f3d2"),
        (TWO_KNIGHTS, "Nbd2", "en", "b1d2"),
        (TWO_KNIGHTS, "Nfd2", "en", "f3d2"),
        (TWO_KNIGHTS, "Cbd2", "fr", "b1d2"),
        // Within the speaker's language an ambiguity is final.
        (TWO_KNIGHTS, "Cd2", "fr", "ambiguous:b1d2,f3d2"),
    ]);
}

#[test]
fn not_moves_at_all() {
    check_table(&[
        (START, "", "en", "syntax"),
        (START, "   ", "en", "syntax"),
        (START, "hello", "en", "syntax"),
        (START, "z9", "en", "syntax"),
        (START, "Nf9", "en", "syntax"),
        (START, "e2e9", "en", "syntax"),
        (START, "!!!", "en", "syntax"),
        (START, "+", "en", "syntax"),
        (START, "O-O-O-O", "en", "syntax"),
        (START, "e8=X", "en", "syntax"),
        (START, "Ye4", "en", "syntax"),
        (START, "日本語", "en", "syntax"),
        (START, "é4", "en", "syntax"),
        (START, "0000", "en", "syntax"),
        (START, "Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3Nf3", "en", "too_long"),
        // 11 three-byte characters: 33 bytes, refused before reading.
        (START, "♘♘♘♘♘♘♘♘♘♘♘", "en", "too_long"),
    ]);
}

#[test]
fn every_reason_for_an_illegal_move() {
    check_table(&[
        (START, "Qh5", "en", "illegal:path_blocked"),
        (START, "e4e5", "en", "illegal:no_such_piece"),
        (BARE_KINGS, "Nf3", "en", "illegal:no_such_piece"),
        (START, "Nhf3", "en", "illegal:no_such_piece"),
        (START, "Nd2", "en", "illegal:own_piece_on_target"),
        (START, "Ke2", "en", "illegal:own_piece_on_target"),
        (START, "e3", "en", "e2e3"),
        (BLOCKED_PAWN, "e4", "en", "illegal:path_blocked"),
        (BLOCKED_PAWN, "e3", "en", "illegal:path_blocked"),
        (PINNED, "Bd3", "en", "illegal:king_in_check"),
        (GUARDED_E2, "Ke2", "en", "illegal:king_in_check"),
        (EP_PINNED, "exd6", "en", "illegal:king_in_check"),
        (START, "Nf4", "en", "illegal:cannot_reach"),
        (START, "e5", "en", "illegal:cannot_reach"),
        (START, "e2e5", "en", "illegal:cannot_reach"),
        // Nothing to capture on d3: not "blocked".
        (START, "exd3", "en", "illegal:cannot_reach"),
        // For an English speaker a capital C is the c-file (phones capitalise).
        (START, "Cf3", "en", "illegal:cannot_reach"),
        (START, "O-O", "en", "illegal:castling_not_now"),
        (START, "e1g1", "en", "illegal:castling_not_now"),
        (START, "e1h1", "en", "illegal:castling_not_now"),
        (ROOK_OR_KING, "O-O-O", "?en", "e1c1"),
        (NO_RIGHTS, "O-O-O", "en", "illegal:castling_rights_lost"),
        (NO_RIGHTS, "e1c1", "en", "illegal:castling_rights_lost"),
        (ROOK_OR_KING, "O-O", "en", "illegal:castling_rights_lost"),
        (ON_THE_SEVENTH, "a8", "en", "illegal:bad_promotion"),
        (ON_THE_SEVENTH, "a7a8", "en", "illegal:bad_promotion"),
        (ON_THE_SEVENTH, "a8=K", "en", "illegal:bad_promotion"),
        (ON_THE_SEVENTH, "a8=P", "en", "illegal:bad_promotion"),
        (START, "e3=Q", "en", "illegal:bad_promotion"),
        (START, "e8=K", "en", "illegal:cannot_reach"),
    ]);
}

#[test]
fn illegal_moves_hint_at_the_piece_meant() {
    let hints = |fen: &str, text: &str| -> Vec<String> {
        match parse_move(&position(fen), text, &Reader::default()) {
            Err(MoveInputError::Illegal { hints, .. }) => {
                let mut all: Vec<String> = hints.into_iter().map(uci).collect();
                all.sort();
                all
            }
            other => panic!("{text}: {other:?}"),
        }
    };
    // The pinned bishop has no legal move: no hints, rather than wrong ones.
    assert!(hints(PINNED, "Bd3").is_empty());
    assert_eq!(hints(START, "Nf4"), ["b1a3", "b1c3", "g1f3", "g1h3"]);
    assert_eq!(hints(START, "Nhf3"), ["g1f3"]);
    let promotions = hints(ON_THE_SEVENTH, "a8");
    assert_eq!(promotions, ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]);
    assert_eq!(hints(START, "O-O"), Vec::<String>::new());
    assert_eq!(
        hints(ROOK_OR_KING, "O-O").len(),
        6,
        "the king's moves, O-O-O included"
    );
}

#[test]
fn clean_strips_only_what_never_changes_the_move() {
    let cases = [
        ("Nf3", "Nf3"),
        (" Nf3+ ", "Nf3"),
        ("Nf3#", "Nf3"),
        ("Nf3!?", "Nf3"),
        ("Nf3‼", "Nf3"),
        ("exd6 e.p.", "exd6"),
        ("exd6 e.p.+", "exd6"),
        ("exd6+ e.p.", "exd6"),
        ("exd6EP", "exd6"),
        ("e2 e4", "e2e4"),
        ("Rep", "Rep"),
        ("ep", "ep"),
        ("O–O", "O-O"),
        ("é♘", "é♘"),
        ("", ""),
        ("+!?", ""),
    ];
    for (text, want) in cases {
        assert_eq!(clean(text), want, "{text:?}");
    }
}

fn played(fen: &str, uci_text: &str) -> (Chess, Move) {
    let pos = position(fen);
    let m = uci_text
        .parse::<UciMove>()
        .expect("uci")
        .to_move(&pos)
        .expect("legal");
    (pos, m)
}

#[test]
fn moves_are_written_per_style() {
    let cases = [
        (START, "g1f3", Style::English, "Nf3", "Ng1-f3"),
        (START, "g1f3", Style::French, "Cf3", "Cg1-f3"),
        (START, "g1f3", Style::Figurine, "♘f3", "♘g1-f3"),
        (START, "e2e4", Style::French, "e4", "e2-e4"),
        (PROMOTES, "a7b8q", Style::English, "axb8=Q+", "a7xb8=Q+"),
        (PROMOTES, "a7b8q", Style::French, "axb8=D+", "a7xb8=D+"),
        (PROMOTES, "a7b8q", Style::Figurine, "axb8=♕+", "a7xb8=♕+"),
        (PROMOTES, "a7a8n", Style::French, "a8=C", "a7-a8=C"),
        (PROMOTES, "e1d2", Style::French, "Rd2", "Re1-d2"),
        (PROMOTES, "e4d5", Style::English, "exd5", "e4xd5"),
        (EN_PASSANT, "e5d6", Style::English, "exd6", "e5xd6"),
        (ROOK_OR_KING, "a1d1", Style::French, "Td1", "Ta1-d1"),
        (ROOK_OR_KING, "e1d1", Style::French, "Rd1", "Re1-d1"),
        (ROOK_OR_KING, "a1a8", Style::English, "Ra8+", "Ra1-a8+"),
        (PAWN_OR_BISHOP, "d2e3", Style::French, "Fe3", "Fd2-e3"),
        (PAWN_OR_BISHOP, "b2c3", Style::French, "bxc3", "b2xc3"),
        (CASTLES, "e1g1", Style::French, "O-O", "O-O"),
        (CASTLES, "e1c1", Style::Figurine, "O-O-O", "O-O-O"),
        (BACK_RANK_MATE, "h1h8", Style::French, "Th8#", "Th1-h8#"),
    ];
    for (fen, uci_text, style, san, long) in cases {
        let (pos, m) = played(fen, uci_text);
        assert_eq!(write_san(&pos, m, style), san, "{uci_text} {style:?}");
        assert_eq!(write_long(&pos, m, style), long, "{uci_text} {style:?}");
    }
}

#[test]
fn stored_san_is_restyled_letter_by_letter() {
    let cases = [
        ("Bxb5+", Style::French, "Fxb5+"),
        ("bxc8=N#", Style::French, "bxc8=C#"),
        ("bxc8=Q", Style::Figurine, "bxc8=♕"),
        ("Qxa3", Style::French, "Dxa3"),
        ("Kd1", Style::Figurine, "♔d1"),
        ("O-O-O", Style::French, "O-O-O"),
        ("Nf3", Style::English, "Nf3"),
        ("", Style::French, ""),
    ];
    for (san, style, want) in cases {
        assert_eq!(restyle_san(san, style), want, "{san}");
    }
}

#[test]
fn written_moves_read_back() {
    for fen in [
        START,
        CASTLES,
        PROMOTES,
        EN_PASSANT,
        ROOK_OR_KING,
        PAWN_OR_BISHOP,
    ] {
        let pos = position(fen);
        for m in pos.legal_moves() {
            let forms = [
                (
                    write_san(&pos, m, Style::English),
                    Reader::speaking(Lang::En),
                ),
                (
                    write_san(&pos, m, Style::French),
                    Reader::speaking(Lang::Fr),
                ),
                (
                    write_san(&pos, m, Style::Figurine),
                    Reader::unknown(&Lang::ALL),
                ),
                (
                    write_long(&pos, m, Style::English),
                    Reader::speaking(Lang::En),
                ),
                (
                    write_long(&pos, m, Style::French),
                    Reader::speaking(Lang::Fr),
                ),
                (
                    write_long(&pos, m, Style::Figurine),
                    Reader::speaking(Lang::De),
                ),
                (uci(m), Reader::unknown(&Lang::ALL)),
            ];
            for (text, reader) in forms {
                assert_eq!(parse_move(&pos, &text, &reader), Ok(m), "{text} in {fen}");
            }
        }
    }
}

#[test]
fn readers_list_their_languages_once() {
    assert_eq!(languages(&Reader::speaking(Lang::En)), [Lang::En]);
    assert_eq!(languages(&Reader::speaking(Lang::Fr)), [Lang::Fr, Lang::En]);
    let odd = Reader {
        lang: Some(Lang::De),
        allowed: vec![Lang::Fr, Lang::De, Lang::Fr],
    };
    assert_eq!(languages(&odd), [Lang::De, Lang::Fr]);
    assert_eq!(
        parse_move(&position(START), "e4", &Reader::unknown(&[])),
        Err(MoveInputError::Syntax),
        "no language at all reads nothing"
    );
}
