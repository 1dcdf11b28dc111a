//! Both sides at once, in CHA's notation: `WB` both can still mate, `W-`
//! only White, `-B` only Black, `--` a dead position. One line of text per
//! position, as the `pawnpost unwinnable` command prints it.

use std::fmt::Write as _;

use shakmaty::{CastlingMode, Chess, Color, fen::Fen};
use thiserror::Error;

use super::{Mode, Verdict, analyze};

/// Input the command refuses.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum LineError {
    #[error("not a FEN: {0}")]
    Fen(String),
    #[error("not a legal position: {0}")]
    Position(String),
}

/// The verdicts for White and Black.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Class {
    pub white: Verdict,
    pub black: Verdict,
}

impl Class {
    /// Analyzes both sides of `pos`.
    pub fn of(pos: &Chess, mode: Mode) -> Class {
        Class {
            white: analyze(pos, Color::White, mode),
            black: analyze(pos, Color::Black, mode),
        }
    }

    /// `WB`, `W-`, `-B` or `--`; undecided counts as winnable, as in the rules.
    pub fn notation(&self) -> &'static str {
        match (
            self.white != Verdict::Unwinnable,
            self.black != Verdict::Unwinnable,
        ) {
            (true, true) => "WB",
            (true, false) => "W-",
            (false, true) => "-B",
            (false, false) => "--",
        }
    }
}

/// Parses the FEN at the start of `line` (fields after the sixth, or after
/// the board when fewer, are ignored).
pub fn parse_position(line: &str) -> Result<Chess, LineError> {
    let fields: Vec<&str> = line.split_whitespace().take(6).collect();
    let fen: Fen = fields
        .join(" ")
        .parse()
        .or_else(|_| {
            fields
                .iter()
                .take(4)
                .copied()
                .collect::<Vec<_>>()
                .join(" ")
                .parse()
        })
        .map_err(|e: shakmaty::fen::ParseFenError| LineError::Fen(e.to_string()))?;
    match fen.into_position(CastlingMode::Standard) {
        Ok(pos) => Ok(pos),
        // Composed positions may hold more than the starting material.
        Err(e) => e
            .ignore_too_much_material()
            .map_err(|e| LineError::Position(e.to_string())),
    }
}

/// The command's answer for one input line: the class, then for each side
/// that can mate its helpmate in UCI (`white: e2e4 ...`), `white: ?` when
/// it is only presumed or undecided.
pub fn describe_line(line: &str, mode: Mode) -> Result<String, LineError> {
    let pos = parse_position(line)?;
    let class = Class::of(&pos, mode);
    let mut out = class.notation().to_owned();
    for (name, verdict) in [("white", &class.white), ("black", &class.black)] {
        match verdict {
            Verdict::Unwinnable => {}
            Verdict::Winnable(moves) => {
                let _ = write!(out, " {name}:");
                for m in moves {
                    let _ = write!(out, " {}", m.to_uci(CastlingMode::Standard));
                }
            }
            Verdict::Undecided(_) => {
                let _ = write!(out, " {name}: ?");
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_the_command() {
        let cases = [
            ("8/8/4k3/8/8/3K4/8/8 w - - 0 1", Mode::Quick, "--"),
            (
                "8/8/4k3/8/8/3K4/3N4/7q w - - 0 1 someid",
                Mode::Quick,
                "-B black: ?",
            ),
            // The helpmate found need not be the shortest.
            ("k7/8/1K6/8/8/8/8/6R1 w - -", Mode::Full, "W- white: "),
        ];
        for (line, mode, expected) in cases {
            let text = describe_line(line, mode).expect("a position");
            assert!(text.starts_with(expected), "{line}: {text}");
        }
        assert!(matches!(
            describe_line("not a fen", Mode::Quick),
            Err(LineError::Fen(_))
        ));
    }
}
