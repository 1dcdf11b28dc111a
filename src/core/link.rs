//! Link codes: the short one-time codes that join a player's accounts on
//! two platforms (`/link` on one, `/link CODE` on the other).
//!
//! A code is [`CODE_CHARS`] characters of Crockford's base 32 (no `I`, `L`,
//! `O`, `U`), so 40 bits: drawn by the caller from the operating system's
//! CSPRNG and handed in as bytes (the core reads no randomness). It is
//! shown as `ABCD-EFGH` and read back forgivingly (any case, dashes and
//! spaces dropped, `O` read as `0`, `I` and `L` as `1`). Only its SHA-256
//! is kept ([`Code::digest`]), so a database backup holds no live code.
//!
//! How hard guessing is: with [`WRONG_PER_HOUR`] wrong codes per account
//! and [`WRONG_PER_HOUR_ALL`] in all per hour, and a code living
//! [`CODE_MINUTES`] minutes, one live code is guessed with probability at
//! most `WRONG_PER_HOUR_ALL / 6 / 2^40` (about 1.5 in ten billion).

use chrono::Duration;
use sha2::{Digest, Sha256};

/// Crockford's base 32: digits and letters a reader cannot mistake.
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// Characters in a code (5 bits each).
pub const CODE_CHARS: usize = 8;
/// Random bytes a code is made of (`CODE_CHARS * 5 / 8`).
pub const CODE_BYTES: usize = 5;
/// How long a code may be used.
pub const CODE_MINUTES: i64 = 10;
/// Wrong codes one account may type in an hour; then every code it types
/// is refused until the hour has passed.
pub const WRONG_PER_HOUR: u32 = 5;
/// Wrong codes all accounts together may type in an hour (an attacker with
/// many accounts is bounded too).
pub const WRONG_PER_HOUR_ALL: u32 = 1000;
/// The longest text read as a code (dashes and spaces included).
pub const MAX_CODE_TEXT: usize = 20;

/// How long a code lives.
pub fn lifetime() -> Duration {
    Duration::minutes(CODE_MINUTES)
}

/// A link code, its characters normalised.
#[derive(Clone, PartialEq, Eq)]
pub struct Code(String);

impl std::fmt::Debug for Code {
    // A code is a secret: never printed whole in logs or test failures.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Code(…)")
    }
}

impl Code {
    /// The code made of `bytes` (from a CSPRNG).
    pub fn from_random(bytes: [u8; CODE_BYTES]) -> Code {
        let mut bits: u64 = 0;
        for byte in bytes {
            bits = (bits << 8) | u64::from(byte);
        }
        let text = (0..CODE_CHARS)
            .rev()
            .map(|n| char::from(ALPHABET[((bits >> (5 * n)) & 31) as usize]))
            .collect();
        Code(text)
    }

    /// What a player typed, read as a code; `None` when it cannot be one.
    pub fn read(text: &str) -> Option<Code> {
        if text.chars().count() > MAX_CODE_TEXT {
            return None;
        }
        let mut code = String::with_capacity(CODE_CHARS);
        for c in text.chars().filter(|c| !matches!(c, '-' | ' ' | '\t')) {
            let c = match c.to_ascii_uppercase() {
                'O' => '0',
                'I' | 'L' => '1',
                c => c,
            };
            if !c.is_ascii() || !ALPHABET.contains(&(c as u8)) {
                return None;
            }
            code.push(c);
        }
        (code.chars().count() == CODE_CHARS).then_some(Code(code))
    }

    /// As shown to its owner: `ABCD-EFGH`.
    pub fn shown(&self) -> String {
        let (first, second): (String, String) = (
            self.0.chars().take(CODE_CHARS / 2).collect(),
            self.0.chars().skip(CODE_CHARS / 2).collect(),
        );
        format!("{first}-{second}")
    }

    /// What is kept of it: its SHA-256, in hex.
    pub fn digest(&self) -> String {
        let hash = Sha256::digest(self.0.as_bytes());
        hash.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// How many codes there are: the guesser's space.
pub fn code_space() -> u64 {
    (ALPHABET.len() as u64).pow(CODE_CHARS as u32)
}

/// Why a code typed by a player links nothing. The order is the order the
/// service checks in; every refusal changes nothing but the count of wrong
/// codes (for the first three).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Too many wrong codes this hour (by this account, or by everyone).
    TooManyTries,
    /// No such code, or it was used already, or it expired: one answer for
    /// all, so a guesser learns nothing.
    Unknown,
    /// The code was made by this very account, or by an account already
    /// linked to it.
    SameAccount,
    /// Both accounts are on the same platform.
    SamePlatform,
    /// This account is linked already: `/unlink` first.
    AlreadyLinked,
    /// The other player already has an account on this platform.
    PlatformTaken,
}

impl Refusal {
    /// The message key of the refusal.
    pub fn message(self) -> &'static str {
        match self {
            Refusal::TooManyTries => "link-too-many-tries",
            Refusal::Unknown => "link-unknown-code",
            Refusal::SameAccount => "link-same-account",
            Refusal::SamePlatform => "link-same-platform",
            Refusal::AlreadyLinked => "link-already-linked",
            Refusal::PlatformTaken => "link-platform-taken",
        }
    }

    /// Whether the try counts as a wrong code (a guess).
    pub fn counts_as_wrong(self) -> bool {
        matches!(self, Refusal::Unknown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_read_back_however_it_is_typed() {
        let code = Code::from_random([0x12, 0x34, 0x56, 0x78, 0x9a]);
        let shown = code.shown();
        assert_eq!(shown.chars().count(), CODE_CHARS + 1);
        let table = [
            shown.clone(),
            shown.to_lowercase(),
            shown.replace('-', " "),
            shown.replace('-', ""),
            format!(" {shown} "),
        ];
        for typed in table {
            assert_eq!(Code::read(&typed), Some(code.clone()), "{typed:?}");
        }
    }

    #[test]
    fn look_alike_letters_read_as_digits() {
        assert_eq!(Code::read("OOOO-IIII"), Code::read("0000-1111"));
        assert_eq!(Code::read("llll-0000"), Code::read("1111-0000"));
    }

    #[test]
    fn what_cannot_be_a_code_is_none() {
        let table = [
            "",
            "ABC",
            "ABCD-EFGHJ",
            "ABCD-EFGU",
            "ABCD-ÉFGH",
            "ABCD-EF\u{202e}GH",
            "ABCD----------------EFGH",
        ];
        for typed in table {
            assert_eq!(Code::read(typed), None, "{typed:?}");
        }
    }

    #[test]
    fn every_bit_of_the_random_bytes_changes_the_code() {
        let zero = Code::from_random([0; CODE_BYTES]);
        for byte in 0..CODE_BYTES {
            for bit in 0..8 {
                let mut bytes = [0; CODE_BYTES];
                bytes[byte] = 1 << bit;
                assert_ne!(Code::from_random(bytes), zero, "byte {byte} bit {bit}");
            }
        }
        assert_eq!(zero.shown(), "0000-0000");
        assert_eq!(Code::from_random([0xff; CODE_BYTES]).shown(), "ZZZZ-ZZZZ");
    }

    /// Within the bound, a guesser's chance at one live code stays tiny.
    #[test]
    fn guessing_within_the_bound_is_hopeless() {
        assert_eq!(code_space(), 1 << 40);
        let guesses_in_a_life = u64::from(WRONG_PER_HOUR_ALL) * CODE_MINUTES as u64 / 60 + 1;
        let odds = guesses_in_a_life as f64 / code_space() as f64;
        assert!(odds < 1e-9, "{odds}");
    }

    #[test]
    fn the_digest_is_stable_and_hides_the_code() {
        let code = Code::read("ABCD-EFGH").unwrap();
        assert_eq!(code.digest().len(), 64);
        assert_eq!(code.digest(), Code::read("abcdefgh").unwrap().digest());
        assert!(!code.digest().to_uppercase().contains("ABCDEFGH"));
        assert_eq!(format!("{code:?}"), "Code(…)");
    }
}
