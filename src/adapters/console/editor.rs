//! Typing at a terminal: a prompt, line editing and history (rustyline),
//! offered to the console as the same byte stream a script gives.

use std::io::{self, Read};

use rustyline::DefaultEditor;
use rustyline::error::ReadlineError;

/// The prompt, which also says how to type a line.
const PROMPT: &str = "pawnpost (name: /command)> ";

/// Lines typed at the terminal, each ended by `\n`; Ctrl-D (or Ctrl-C on
/// an empty line) ends the input.
pub struct TypedLines {
    editor: DefaultEditor,
    /// What is left of the current line.
    pending: Vec<u8>,
    ended: bool,
}

impl TypedLines {
    pub fn new() -> io::Result<TypedLines> {
        let editor = DefaultEditor::new().map_err(io::Error::other)?;
        Ok(TypedLines {
            editor,
            pending: Vec::new(),
            ended: false,
        })
    }
}

impl Read for TypedLines {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.pending.is_empty() && !self.ended {
            match self.editor.readline(PROMPT) {
                Ok(line) => {
                    if !line.trim().is_empty() {
                        // History is a convenience: a full one loses nothing typed.
                        let _ = self.editor.add_history_entry(line.as_str());
                    }
                    self.pending = line.into_bytes();
                    self.pending.push(b'\n');
                }
                Err(ReadlineError::Eof | ReadlineError::Interrupted) => self.ended = true,
                Err(error) => return Err(io::Error::other(error)),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}
