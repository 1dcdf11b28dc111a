//! Hashing for tables keyed by Zobrist keys.

use std::hash::{BuildHasherDefault, Hasher};

use shakmaty::zobrist::Zobrist128;
use shakmaty::{Chess, EnPassantMode, Position};

/// Zobrist keys are already well mixed: hash them as they are (their low
/// 64 bits) rather than mixing them again.
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8) | u64::from(*b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
    fn write_u128(&mut self, n: u128) {
        self.0 = n as u64;
    }
}

/// The hasher builder for maps and sets keyed by Zobrist keys.
pub(super) type ByKey = BuildHasherDefault<KeyHasher>;

/// A position's 128-bit Zobrist key (placement, side to move, castling, en
/// passant): for sets of positions met, where a collision, which would skip
/// a position, is out of reach in practice.
pub(super) fn position_key(pos: &Chess) -> u128 {
    pos.zobrist_hash::<Zobrist128>(EnPassantMode::Legal).0
}
