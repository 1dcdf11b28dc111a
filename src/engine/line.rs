//! One line of a subprocess's output, bounded while it is read: an engine
//! that prints without a newline is refused once `max` bytes came, instead
//! of growing a buffer until the machine runs out of memory (issue 42).

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// Why no line was read.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    #[error("a line longer than {0} bytes")]
    TooLong(usize),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// The next line of `reader` without its `\n` (or `\r\n`), `None` at the
/// end of the stream. At most `max` bytes of the line are ever held, plus
/// what `reader` buffers itself.
pub async fn read_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    max: usize,
) -> Result<Option<String>, LineError> {
    let mut line = Vec::new();
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            // The end: a last line without its newline still counts.
            return Ok((!line.is_empty()).then(|| into_text(line)));
        }
        let newline = available.iter().position(|&b| b == b'\n');
        let content = &available[..newline.unwrap_or(available.len())];
        if line.len() + content.len() > max {
            return Err(LineError::TooLong(max));
        }
        line.extend_from_slice(content);
        let used = newline.map_or(content.len(), |at| at + 1);
        reader.consume(used);
        if newline.is_some() {
            return Ok(Some(into_text(line)));
        }
    }
}

/// The line as text: bytes that are not UTF-8 become U+FFFD, which no
/// UCI word contains, so they are read as garbage rather than an error.
fn into_text(mut line: Vec<u8>) -> String {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    String::from_utf8(line).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[cfg(test)]
mod tests {
    use std::pin::Pin;
    use std::task::{Context, Poll};

    use tokio::io::{AsyncRead, BufReader, ReadBuf};

    use super::*;

    /// Endless bytes with no newline, counting what was read of them.
    struct Endless {
        given: usize,
    }

    impl AsyncRead for Endless {
        fn poll_read(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<std::io::Result<()>> {
            let n = buf.remaining();
            buf.put_slice(&vec![b'x'; n]);
            self.given += n;
            Poll::Ready(Ok(()))
        }
    }

    #[tokio::test]
    async fn lines_are_read_whole_and_split_at_newlines() {
        let cases: [(&[u8], &[Option<&str>]); 5] = [
            (b"uciok\nreadyok\n", &[Some("uciok"), Some("readyok"), None]),
            (b"bestmove e2e4\r\n", &[Some("bestmove e2e4"), None]),
            (
                b"no newline at the end",
                &[Some("no newline at the end"), None],
            ),
            (b"\n\nx\n", &[Some(""), Some(""), Some("x"), None]),
            (b"id name \xff\n", &[Some("id name \u{fffd}"), None]),
        ];
        for (input, expected) in cases {
            // A tiny buffer, so lines span several reads.
            let mut reader = BufReader::with_capacity(3, input);
            for want in expected {
                let got = read_line(&mut reader, 64).await.expect("read");
                assert_eq!(got.as_deref(), *want, "{input:?}");
            }
        }
    }

    #[tokio::test]
    async fn a_line_at_the_limit_is_read_and_one_byte_more_is_refused() {
        let exact = [b"a".repeat(10), b"\n".to_vec()].concat();
        let mut reader = BufReader::with_capacity(4, exact.as_slice());
        assert_eq!(
            read_line(&mut reader, 10)
                .await
                .expect("read")
                .map(|l| l.len()),
            Some(10)
        );
        let over = [b"a".repeat(11), b"\n".to_vec()].concat();
        let mut reader = BufReader::with_capacity(4, over.as_slice());
        assert!(matches!(
            read_line(&mut reader, 10).await,
            Err(LineError::TooLong(10))
        ));
    }

    /// The 4.7 GB review of issue 42: an endless line is refused having
    /// read no more than the limit and one buffer.
    #[tokio::test]
    async fn an_endless_line_is_refused_after_a_bounded_read() {
        const BUFFER: usize = 8 * 1024;
        const MAX: usize = 64 * 1024;
        let mut reader = BufReader::with_capacity(BUFFER, Endless { given: 0 });
        let refused = read_line(&mut reader, MAX).await;
        assert!(
            matches!(refused, Err(LineError::TooLong(MAX))),
            "{refused:?}"
        );
        let read = reader.get_ref().given;
        assert!(read <= MAX + BUFFER, "read {read} bytes");
        println!("an endless line was refused after {read} bytes");
    }
}
