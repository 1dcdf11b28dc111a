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
/// Black to move after 1.e4: `Cc6` is the French knight, never c7-c6.
const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
/// The queen on a2 and the d4 pawn can both go to d5.
const QUEEN_OR_PUSH: &str = "4k3/8/8/8/3P4/8/Q7/4K3 w - - 0 1";
/// The king (French `R`) and the rook (English `R`) can both go to f1.
const KING_OR_ROOK_F1: &str = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
/// The bishop (French `F`) and the f4 pawn can both take on e5.
const BISHOP_OR_F_PAWN: &str = "4k3/8/8/4p3/5P2/8/1B6/4K3 w - - 0 1";
/// The bishop and the b3 pawn can both take on c4.
const BISHOP_OR_B_PAWN: &str = "4k3/8/8/8/2p5/1P6/8/4KB2 w - - 0 1";
/// 1.e4 e5 2.Nf3 Nc6: `Bc4` is the bishop, though c2-c4 is legal.
const ITALIAN: &str = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
/// Qd1xd7 mates (the rook on f1 guards f8).
const QUEEN_MATES: &str = "4k3/3p4/4K3/8/8/8/8/3Q1R2 w - - 0 1";
/// 1.e4 e5: the e4 pawn is blocked.
const BLOCKED_E4: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
/// A rook of the mover's own on e8, and a pawn on e2 far from it.
const OWN_ROOK_ON_E8: &str = "k1n1R3/8/8/8/8/8/4P3/4K3 w - - 0 1";
/// The same with a pawn on d7, which could take on e8 were the rook black.
const OWN_ROOK_AND_D7: &str = "k1n1R3/3P4/8/8/8/8/4P3/4K3 w - - 0 1";

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
        // French `R` is the king, English `R` the rook: asked, whoever types it.
        (ROOK_OR_KING, "Rd1", "fr", "ambiguous:a1d1,e1d1"),
        (ROOK_OR_KING, "Rd1", "en", "ambiguous:a1d1,e1d1"),
        (ROOK_OR_KING, "Rd1", "de", "ambiguous:a1d1,e1d1"),
        (ROOK_OR_KING, "rd1", "fr", "ambiguous:a1d1,e1d1"),
        (ROOK_OR_KING, "Rd1", "?en+fr", "ambiguous:a1d1,e1d1"),
        // A reader restricted to languages without the French king.
        (ROOK_OR_KING, "Rd1", "?en+de", "a1d1"),
        (ROOK_OR_KING, "Td1", "?en+fr+de", "a1d1"),
        (ROOK_OR_KING, "Td1", "en", "a1d1"),
        (ROOK_OR_KING, "Kd1", "fr", "e1d1"),
        (KING_OR_ROOK_F1, "Rf1", "fr", "ambiguous:e1f1,h1f1"),
        (KING_OR_ROOK_F1, "Tf1", "fr", "h1f1"),
        (CASTLES, "Rg1", "fr", "ambiguous:e1g1,h1g1"),
        // Pawn moves read the same in every language: no ambiguity.
        (START, "e4", "?en+fr+de", "e2e4"),
        (START, "Cf3", "fr", "g1f3"),
        (START, "Sf3", "de", "g1f3"),
        (START, "Nf3", "fr", "g1f3"),
        // An English speaker typing French letters gets the French move: a
        // capital before a square on its own file is never a pawn push.
        (START, "Cf3", "en", "g1f3"),
        (AFTER_E4, "Cc6", "en", "b8c6"),
        (QUEEN_OR_PUSH, "Dd5", "en", "a2d5"),
        (QUEEN_OR_PUSH, "d5", "en", "d4d5"),
        (BISHOP_OR_F_PAWN, "Fe5", "fr", "ambiguous:b2e5,f4e5"),
        (BISHOP_OR_F_PAWN, "Fxe5", "en", "ambiguous:b2e5,f4e5"),
        (BISHOP_OR_F_PAWN, "fxe5", "fr", "f4e5"),
        (BISHOP_OR_F_PAWN, "Be5", "fr", "b2e5"),
        // A capital `B` may be the phone-capitalised b-pawn.
        (BISHOP_OR_B_PAWN, "Bc4", "de", "ambiguous:b3c4,f1c4"),
        (BISHOP_OR_B_PAWN, "Bxc4", "en", "ambiguous:b3c4,f1c4"),
        (BISHOP_OR_B_PAWN, "bxc4", "de", "b3c4"),
        (BISHOP_OR_B_PAWN, "Lc4", "de", "f1c4"),
        (PAWN_OR_BISHOP, "bxc3", "en", "b2c3"),
        (PAWN_OR_BISHOP, "bc3", "en", "b2c3"),
        (PAWN_OR_BISHOP, "Bxc3", "en", "ambiguous:b2c3,d2c3"),
        (PAWN_OR_BISHOP, "Bxc3", "de", "ambiguous:b2c3,d2c3"),
        (PAWN_OR_BISHOP, "Bxc3", "fr", "ambiguous:b2c3,d2c3"),
        (PAWN_OR_BISHOP, "Lxc3", "de", "d2c3"),
        (PAWN_OR_BISHOP, "Fxc3", "fr", "d2c3"),
        // German `B` (Bauer) names a pawn only with its origin square.
        (ITALIAN, "Bc4", "de", "f1c4"),
        (ITALIAN, "Bb5", "de", "f1b5"),
        (START, "Be2-e4", "de", "e2e4"),
        (START, "Bb5", "de", "illegal:path_blocked"),
        (TWO_KNIGHTS, "Nd2", "en", "ambiguous:b1d2,f3d2"),
        (TWO_KNIGHTS, "Nbd2", "en", "b1d2"),
        (TWO_KNIGHTS, "Nfd2", "en", "f3d2"),
        (TWO_KNIGHTS, "Cbd2", "fr", "b1d2"),
        (TWO_KNIGHTS, "Cd2", "fr", "ambiguous:b1d2,f3d2"),
    ]);
}

#[test]
fn russian_notation() {
    check_table(&[
        (START, "Кf3", "ru", "g1f3"),
        (START, "кf3", "ru", "g1f3"),
        (START, "Кg1-f3", "en", "g1f3"),
        (START, "e2-e4", "ru", "e2e4"),
        (BARE_KINGS, "Кр e1-e2", "ru", "e1e2"),
        (BARE_KINGS, "Крe2", "fr", "e1e2"),
        (BARE_KINGS, "крe2+", "ru", "e1e2"),
        (QUEEN_MATES, "Фd1:d7x", "ru", "d1d7"),
        (QUEEN_MATES, "Ф:d7x", "en", "d1d7"),
        (QUEEN_MATES, "Фd1:d7#", "de", "d1d7"),
        (PROMOTES, "e4:d5", "ru", "e4d5"),
        (PROMOTES, "e4:d5", "en", "e4d5"),
        (PROMOTES, "e:d5", "ru", "e4d5"),
        (PROMOTES, "a8Ф", "ru", "a7a8q"),
        (PROMOTES, "a7-a8=К", "ru", "a7a8n"),
        (PROMOTES, "a8=Л+", "fr", "a7a8r"),
        (PROMOTES, "a8С", "ru", "a7a8b"),
        (CASTLES, "0-0", "ru", "e1g1"),
        (CASTLES, "0-0-0", "ru", "e1c1"),
        (ROOK_OR_KING, "Лd1", "ru", "a1d1"),
        (ROOK_OR_KING, "Крd1", "ru", "e1d1"),
        (PAWN_OR_BISHOP, "С:c3", "ru", "d2c3"),
        (PAWN_OR_BISHOP, "b:c3", "ru", "b2c3"),
        // Cyrillic С is the bishop, never the Latin C (knight or c-file).
        (START, "Сf3", "ru", "illegal:cannot_reach"),
        (START, "Cf3", "ru", "g1f3"),
        // A trailing `x` is a mate sign only in Russian; it is no square.
        (START, "Фd1:d7x", "ru", "illegal:path_blocked"),
        (START, "e4x", "en", "e2e4"),
        (START, "Кр", "ru", "syntax"),
        (START, "Крx", "ru", "syntax"),
        // 36 bytes in 18 characters: refused by the byte bound.
        (START, "КрКрКрКрКрКрКрКрКр", "ru", "too_long"),
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
        // The c-file for the capital, a knight in French: neither gets there.
        (START, "Cd4", "en", "illegal:cannot_reach"),
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
        // Only a pawn that could get there is stopped by its own piece.
        (OWN_ROOK_ON_E8, "e8=Q", "en", "illegal:cannot_reach"),
        (OWN_ROOK_AND_D7, "e8=Q", "en", "illegal:own_piece_on_target"),
        (
            OWN_ROOK_AND_D7,
            "dxe8=Q",
            "en",
            "illegal:own_piece_on_target",
        ),
        (
            OWN_ROOK_AND_D7,
            "d7e8q",
            "en",
            "illegal:own_piece_on_target",
        ),
        (BLOCKED_E4, "e5", "en", "illegal:path_blocked"),
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
    // A pawn move: only the pawn on that file, never every pawn's moves.
    assert_eq!(hints(START, "e5"), ["e2e3", "e2e4"]);
    assert!(
        hints(BLOCKED_E4, "e5").is_empty(),
        "the e4 pawn cannot move"
    );
    assert_eq!(hints(OWN_ROOK_ON_E8, "e8=Q"), ["e2e3", "e2e4"]);
    assert!(hints(BARE_KINGS, "e5").is_empty(), "no pawn at all");
    assert_eq!(
        hints(START, "exd3"),
        ["e2e3", "e2e4"],
        "the pawn named by its file"
    );
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
        (START, "g1f3", Style::Russian, "Кf3", "Кg1-f3"),
        (PROMOTES, "e1d2", Style::Russian, "Крd2", "Крe1-d2"),
        (PROMOTES, "e4d5", Style::Russian, "e:d5", "e4:d5"),
        (PROMOTES, "a7b8q", Style::Russian, "a:b8=Ф+", "a7:b8=Ф+"),
        (ROOK_OR_KING, "a1d1", Style::Russian, "Лd1", "Лa1-d1"),
        (PAWN_OR_BISHOP, "d2c3", Style::Russian, "С:c3", "Сd2:c3"),
        (CASTLES, "e1c1", Style::Russian, "O-O-O", "O-O-O"),
        (BACK_RANK_MATE, "h1h8", Style::Russian, "Лh8#", "Лh1-h8#"),
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
        ("Qxd7#", Style::Russian, "Ф:d7#"),
        ("Kxe2", Style::Russian, "Кр:e2"),
        ("exd8=N+", Style::Russian, "e:d8=К+"),
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
        BISHOP_OR_B_PAWN,
        BISHOP_OR_F_PAWN,
    ] {
        let pos = position(fen);
        for m in pos.legal_moves() {
            // Long forms and UCI name the origin square: always exactly the move.
            let exact = [
                write_long(&pos, m, Style::English),
                write_long(&pos, m, Style::French),
                write_long(&pos, m, Style::Figurine),
                write_long(&pos, m, Style::Russian),
                uci(m),
            ];
            for text in exact {
                for lang in Lang::ALL {
                    let got = parse_move(&pos, &text, &Reader::speaking(lang));
                    assert_eq!(got, Ok(m), "{text} ({lang:?}) in {fen}");
                }
            }
            // SAN is the move, or asks with the move among the candidates
            // (English `Rd1` may be the French king).
            for style in [
                Style::English,
                Style::French,
                Style::Figurine,
                Style::Russian,
            ] {
                let text = write_san(&pos, m, style);
                match parse_move(&pos, &text, &Reader::speaking(Lang::En)) {
                    Ok(got) => assert_eq!(got, m, "{text} in {fen}"),
                    Err(MoveInputError::Ambiguous { candidates }) => {
                        assert!(candidates.contains(&m), "{text} in {fen}")
                    }
                    Err(error) => panic!("{text} in {fen}: {error:?}"),
                }
            }
        }
    }
}

#[test]
fn the_speakers_reading_comes_first() {
    let first = |lang| match parse_move(&position(ROOK_OR_KING), "Rd1", &Reader::speaking(lang)) {
        Err(MoveInputError::Ambiguous { candidates }) => uci(candidates[0]),
        other => panic!("{other:?}"),
    };
    assert_eq!(first(Lang::Fr), "e1d1");
    assert_eq!(first(Lang::En), "a1d1");
    assert_eq!(first(Lang::De), "a1d1");
}

#[test]
fn readers_list_their_languages_once() {
    assert_eq!(
        languages(&Reader::speaking(Lang::En)),
        [Lang::En, Lang::Fr, Lang::De, Lang::Ru]
    );
    assert_eq!(
        languages(&Reader::speaking(Lang::Ru)),
        [Lang::Ru, Lang::En, Lang::Fr, Lang::De]
    );
    let odd = Reader {
        lang: Some(Lang::De),
        allowed: vec![Lang::Fr, Lang::De, Lang::Fr],
        letters: Letters::default(),
    };
    assert_eq!(languages(&odd), [Lang::De, Lang::Fr]);
    assert_eq!(
        parse_move(&position(START), "e4", &Reader::unknown(&[])),
        Err(MoveInputError::Syntax),
        "no language at all reads nothing"
    );
}

/// Chess960 castling in every form, each position read with Chess960's
/// castling rules; outcomes in Chess960 UCI (castling king-takes-rook).
#[test]
fn chess960_castling_is_read_in_every_form_and_never_guessed() {
    // King f1, rook h1: short castling moves the king one step, as Kg1 does.
    const KING_F1: &str = "4k3/8/8/8/8/8/8/5K1R w K - 0 1";
    // King already on g1: short castling moves the rook alone.
    const KING_G1: &str = "4k3/8/8/8/8/8/8/6KR w K - 0 1";
    // King b1, rook a1: long castling moves the king one step to c1.
    const KING_B1_LONG: &str = "4k3/8/8/8/8/8/8/RK6 w Q - 0 1";
    // King b1, rook h1: short castling takes the king five squares.
    const KING_B1_SHORT: &str = "4k3/8/8/8/8/8/8/1K5R w K - 0 1";
    // The rook stands on the king's destination and the king on the rook's.
    const SWAP: &str = "4k3/8/8/8/8/8/8/2RK4 w Q - 0 1";
    let rows = [
        (KING_F1, "O-O", "f1h1"),
        (KING_F1, "0-0", "f1h1"),
        (KING_F1, "f1h1", "f1h1"),
        (KING_F1, "Kh1", "f1h1"),
        // One step to the castling square is the king's plain move.
        (KING_F1, "f1g1", "f1g1"),
        (KING_F1, "Kg1", "f1g1"),
        (KING_F1, "O-O-O", "illegal:castling_rights_lost"),
        (KING_G1, "O-O", "g1h1"),
        (KING_G1, "g1h1", "g1h1"),
        (KING_G1, "Kg1", "illegal:cannot_reach"),
        (KING_B1_LONG, "O-O-O", "b1a1"),
        (KING_B1_LONG, "b1a1", "b1a1"),
        (KING_B1_LONG, "b1c1", "b1c1"),
        (KING_B1_SHORT, "O-O", "b1h1"),
        (KING_B1_SHORT, "b1g1", "b1h1"),
        (KING_B1_SHORT, "Kg1", "b1h1"),
        (KING_B1_SHORT, "b1h1", "b1h1"),
        (SWAP, "O-O-O", "d1c1"),
        (SWAP, "0-0-0", "d1c1"),
        (SWAP, "d1c1", "d1c1"),
    ];
    for (fen, text, expected) in rows {
        let setup: shakmaty::fen::Fen = fen.parse().expect("FEN");
        let pos: Chess = setup.into_position(CastlingMode::Chess960).expect("legal");
        let got = match parse_move(&pos, text, &Reader::speaking(Lang::En)) {
            Ok(m) => m.to_uci(CastlingMode::Chess960).to_string(),
            Err(MoveInputError::Illegal { reason, .. }) => {
                let name = serde_json::to_string(&reason).expect("reason name");
                format!("illegal:{}", name.trim_matches('"'))
            }
            Err(other) => format!("{other:?}"),
        };
        assert_eq!(got, expected, "{fen} {text}");
    }
}

/// Answering a question settles a letter only when its readings made it.
#[test]
fn choosing_a_reading_settles_its_letter() {
    let chosen = |fen: &str, text: &str, uci: &str| {
        let pos = position(fen);
        let m = uci
            .parse::<UciMove>()
            .expect("uci")
            .to_move(&pos)
            .expect("legal");
        settling_letter(&pos, text, &Reader::speaking(Lang::En), m)
    };
    use shakmaty::Role;
    assert_eq!(chosen(ROOK_OR_KING, "Rd1", "a1d1"), Some(('R', Role::Rook)));
    assert_eq!(chosen(ROOK_OR_KING, "Rd1", "e1d1"), Some(('R', Role::King)));
    assert_eq!(chosen(ROOK_OR_KING, "rd1", "e1d1"), Some(('R', Role::King)));
    assert_eq!(
        chosen(PAWN_OR_BISHOP, "Bxc3", "d2c3"),
        Some(('B', Role::Bishop))
    );
    // A capital read as a file is a phone's habit: nothing to settle.
    assert_eq!(chosen(PAWN_OR_BISHOP, "Bxc3", "b2c3"), None);
    // Two rooks on one reading: the letter was never in doubt.
    assert_eq!(
        chosen("4k3/8/8/8/8/4K3/8/R6R w - - 0 1", "Rd1", "a1d1"),
        None
    );
    // Not a question at all.
    assert_eq!(chosen(ROOK_OR_KING, "Td1", "a1d1"), None);
}
