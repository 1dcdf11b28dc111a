//! Typing at a terminal: a prompt, line editing and history (rustyline),
//! offered to the console as the same byte stream a script gives.

use std::io::{self, Cursor, Read};

use rustyline::DefaultEditor;
use rustyline::error::ReadlineError;

/// The prompt, which also says how to type a line.
const PROMPT: &str = "pawnpost (name: /command)> ";

/// Lines typed at the terminal, each ended by `\n`; Ctrl-D (or Ctrl-C on
/// an empty line) ends the input.
pub struct TypedLines {
    editor: DefaultEditor,
    /// The current line, read from where the console left off.
    pending: Cursor<Vec<u8>>,
    ended: bool,
}

impl TypedLines {
    pub fn new() -> io::Result<TypedLines> {
        let editor = DefaultEditor::new().map_err(io::Error::other)?;
        Ok(TypedLines {
            editor,
            pending: Cursor::new(Vec::new()),
            ended: false,
        })
    }
}

impl Read for TypedLines {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let n = self.pending.read(buf)?;
            if n > 0 || self.ended || buf.is_empty() {
                return Ok(n);
            }
            match self.editor.readline(PROMPT) {
                Ok(line) => {
                    if !line.trim().is_empty() {
                        // History is a convenience: a full one loses nothing typed.
                        let _ = self.editor.add_history_entry(line.as_str());
                    }
                    self.pending = Cursor::new(format!("{line}\n").into_bytes());
                }
                Err(ReadlineError::Eof | ReadlineError::Interrupted) => self.ended = true,
                Err(error) => return Err(io::Error::other(error)),
            }
        }
    }
}
