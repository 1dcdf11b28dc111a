//! Input lines read with a bound, as bytes.
//!
//! `BufRead::lines` stops the whole console at the first line that is not
//! UTF-8, and reads a line of any length into memory before it can be
//! refused. Here each line keeps at most `max + 1` of its bytes (enough to
//! know it is too long), the rest is skipped up to the newline without being
//! stored, and the caller decides what a line that is too long or not UTF-8
//! deserves; the lines after it are read as usual.

use std::io::{self, BufRead};

/// One input line without its line ending (`\n` or `\r\n`).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct RawLine {
    /// The line's first bytes: all of them unless `too_long`.
    bytes: Vec<u8>,
    /// The line is longer than the bound; `bytes` holds only its start.
    too_long: bool,
}

impl RawLine {
    pub(super) fn is_too_long(&self) -> bool {
        self.too_long
    }

    /// Blank or a `#` comment, judged on the bytes kept (the line's start),
    /// so a comment is skipped whatever its length or encoding.
    pub(super) fn is_blank_or_comment(&self) -> bool {
        match self.bytes.trim_ascii_start().first() {
            None => !self.too_long,
            Some(first) => *first == b'#',
        }
    }

    /// The line as text, or `None` when it is not UTF-8.
    pub(super) fn into_text(self) -> Option<String> {
        String::from_utf8(self.bytes).ok()
    }
}

/// The lines of `input`, each cut to at most `max + 1` stored bytes.
pub(super) fn bounded_lines<R: BufRead>(input: R, max: usize) -> BoundedLines<R> {
    BoundedLines { input, max }
}

pub(super) struct BoundedLines<R> {
    input: R,
    max: usize,
}

impl<R: BufRead> BoundedLines<R> {
    fn read_line(&mut self) -> io::Result<Option<RawLine>> {
        let keep = self.max.saturating_add(1);
        let mut line = RawLine {
            bytes: Vec::new(),
            too_long: false,
        };
        let mut read_any = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(available) => available,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            if available.is_empty() {
                // The last line may end without a newline.
                return Ok(read_any.then(|| self.finish(line, false)));
            }
            read_any = true;
            let newline = available.iter().position(|&byte| byte == b'\n');
            let (content, _) = available.split_at(newline.unwrap_or(available.len()));
            let room = keep.saturating_sub(line.bytes.len());
            if content.len() > room {
                line.too_long = true;
            }
            line.bytes
                .extend_from_slice(content.get(..room).unwrap_or(content));
            let used = content.len() + usize::from(newline.is_some());
            self.input.consume(used);
            if newline.is_some() {
                return Ok(Some(self.finish(line, true)));
            }
        }
    }

    /// Drops the `\r` of a `\r\n` ending (as `BufRead::lines` does) and
    /// measures the line.
    fn finish(&self, mut line: RawLine, ended_by_newline: bool) -> RawLine {
        if ended_by_newline && !line.too_long && line.bytes.last() == Some(&b'\r') {
            line.bytes.pop();
        }
        if line.bytes.len() > self.max {
            line.too_long = true;
        }
        line
    }
}

impl<R: BufRead> Iterator for BoundedLines<R> {
    type Item = io::Result<RawLine>;

    fn next(&mut self) -> Option<io::Result<RawLine>> {
        self.read_line().transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (input, max, expected lines as (text or None when not UTF-8, too long)).
    #[test]
    fn lines_are_cut_and_kept_apart() {
        type Expected = &'static [(Option<&'static str>, bool)];
        let cases: [(&[u8], usize, Expected); 10] = [
            (b"a\nb\n", 4, &[(Some("a"), false), (Some("b"), false)]),
            (b"a\r\nb", 4, &[(Some("a"), false), (Some("b"), false)]),
            (b"", 4, &[]),
            (b"\n\n", 4, &[(Some(""), false), (Some(""), false)]),
            (
                b"abcd\nabcde\nx",
                4,
                &[
                    (Some("abcd"), false),
                    (Some("abcde"), true),
                    (Some("x"), false),
                ],
            ),
            // The `\r` of `\r\n` does not count; a lone one does.
            (
                b"abcd\r\nabcd\r",
                4,
                &[(Some("abcd"), false), (Some("abcd\r"), true)],
            ),
            (
                b"abcdefgh\r\nok\n",
                4,
                &[(Some("abcde"), true), (Some("ok"), false)],
            ),
            (
                b"ok\n\xff\xfe bad\nok again\n",
                16,
                &[
                    (Some("ok"), false),
                    (None, false),
                    (Some("ok again"), false),
                ],
            ),
            // Cut inside `é`: the kept start is not UTF-8, and it is too long anyway.
            ("abcé\n".as_bytes(), 3, &[(None, true)]),
            ("été\n".as_bytes(), 5, &[(Some("été"), false)]),
        ];
        for (input, max, expected) in cases {
            // A tiny buffer makes lines span many reads.
            let reader = io::BufReader::with_capacity(2, input);
            let got: Vec<(Option<String>, bool)> = bounded_lines(reader, max)
                .map(|line| {
                    let line = line.expect("read");
                    let too_long = line.is_too_long();
                    (line.into_text(), too_long)
                })
                .collect();
            let expected: Vec<(Option<String>, bool)> = expected
                .iter()
                .map(|(text, too_long)| (text.map(str::to_owned), *too_long))
                .collect();
            assert_eq!(got, expected, "{:?}", String::from_utf8_lossy(input));
        }
    }

    #[test]
    fn a_huge_line_is_skipped_without_being_stored() {
        let mut input = vec![b'x'; 8 << 20];
        input.extend_from_slice(b"\nnext\n");
        let mut lines = bounded_lines(io::Cursor::new(input), 1024);
        let huge = lines.next().expect("a line").expect("read");
        assert!(huge.is_too_long());
        assert!(
            huge.bytes.capacity() <= 2 * 1025,
            "{}",
            huge.bytes.capacity()
        );
        let next = lines.next().expect("a line").expect("read");
        assert_eq!(next.into_text().as_deref(), Some("next"));
        assert!(lines.next().is_none());
    }

    #[test]
    fn comments_are_recognised_whatever_their_length_or_encoding() {
        let input: &[u8] = b"  # caf\xe9\n#xxxxxxxxxx\n   \nx\n      \n";
        let got: Vec<bool> = bounded_lines(input, 4)
            .map(|line| line.expect("read").is_blank_or_comment())
            .collect();
        // The blank line longer than the bound is not known to be blank.
        assert_eq!(got, [true, true, true, false, false]);
    }
}
