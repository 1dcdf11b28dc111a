#![no_main]
//! Any bytes, read as a move by every kind of reader in a few positions.

use libfuzzer_sys::fuzz_target;
use pawnpost::core::notation::{Lang, Reader, parse_move};
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

const POSITIONS: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
    "4k3/8/8/8/8/2n5/1P1B4/R3K3 w Q - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let readers = [
        Reader::speaking(Lang::En),
        Reader::speaking(Lang::Fr),
        Reader::speaking(Lang::De),
        Reader::unknown(&Lang::ALL),
    ];
    for fen in POSITIONS {
        let fen: Fen = fen.parse().expect("valid FEN");
        let pos: Chess = fen.into_position(CastlingMode::Standard).expect("legal");
        for reader in &readers {
            if let Ok(m) = parse_move(&pos, &text, reader) {
                assert!(pos.is_legal(m));
            }
        }
    }
});
