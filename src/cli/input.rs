//! Line input that flushes pending output before it may wait for the user.

use std::fs;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

use thiserror::Error;

use othello::{Setup, SetupError, MAX_LINE_LEN};

/// An input named on the command line could not be read.
#[derive(Debug, Error)]
#[error("cannot read {name}: {source}")]
pub struct ReadError {
    /// The file's name, or `standard input`.
    pub name: String,
    /// What went wrong.
    pub source: io::Error,
}

/// The whole of the file at `path`, and its name for messages.
pub fn read_file(path: &Path) -> Result<(String, Vec<u8>), ReadError> {
    let name = path.display().to_string();
    match fs::read(path) {
        Ok(bytes) => Ok((name, bytes)),
        Err(source) => Err(ReadError { name, source }),
    }
}

/// The whole of a named input: the file at `path`, or standard input (called `stdin_name` in
/// messages) when `path` is `-`.
pub fn read_named(path: &Path, stdin_name: &str) -> Result<(String, Vec<u8>), ReadError> {
    if path != Path::new("-") {
        return read_file(path);
    }
    let name = stdin_name.to_owned();
    let mut bytes = Vec::new();
    match io::stdin().lock().read_to_end(&mut bytes) {
        Ok(_) => Ok((name, bytes)),
        Err(source) => Err(ReadError { name, source }),
    }
}

/// A start position named on the command line (`--from`) that could not be used.
#[derive(Debug, Error)]
pub enum SetupFileError {
    /// It could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// It is not the protocol's header and grid.
    #[error("{name}: {source}")]
    Setup {
        /// The file's name, or `standard input`.
        name: String,
        /// What is wrong, and on which line.
        source: SetupError,
    },
}

/// Reads a start position, the protocol's header and grid, from `(name, bytes)` as returned by
/// [`read_file`] or [`read_named`].
pub fn parse_setup((name, bytes): (String, Vec<u8>)) -> Result<Setup, SetupFileError> {
    Setup::from_protocol_bytes(&bytes).map_err(|source| SetupFileError::Setup { name, source })
}

/// Reads lines of at most [`MAX_LINE_LEN`] + 1 bytes (anything longer is cut there, so the
/// library still sees that it was too long), without their `\n`.
pub struct LineReader<R> {
    inner: BufReader<R>,
    line: Vec<u8>,
}

impl<R: Read> LineReader<R> {
    /// Reads from `inner`, buffered.
    pub fn new(inner: R) -> LineReader<R> {
        LineReader {
            inner: BufReader::with_capacity(64 * 1024, inner),
            line: Vec::with_capacity(64),
        }
    }

    /// The next line, or `None` at the end of the input. `output` is flushed before any read
    /// that could wait, so that a person at a terminal sees everything written so far, while a
    /// file piped in is read in large blocks with few flushes.
    pub fn next_line(&mut self, output: &mut impl Write) -> Result<Option<&[u8]>, LineError> {
        self.line.clear();
        let mut started = false;
        loop {
            if self.inner.buffer().is_empty() {
                output.flush().map_err(LineError::Write)?;
            }
            let available = match self.inner.fill_buf() {
                Ok(available) => available,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(LineError::Read(error)),
            };
            if available.is_empty() {
                return Ok(started.then_some(&self.line[..]));
            }
            started = true;
            let (chunk, used, complete) = match available.iter().position(|&b| b == b'\n') {
                Some(end) => (&available[..end], end + 1, true),
                None => (available, available.len(), false),
            };
            let room = (MAX_LINE_LEN + 1).saturating_sub(self.line.len());
            self.line.extend_from_slice(&chunk[..chunk.len().min(room)]);
            self.inner.consume(used);
            if complete {
                return Ok(Some(&self.line[..]));
            }
        }
    }
}

/// A failure to read a line, or to flush the output before reading.
#[derive(Debug)]
pub enum LineError {
    /// Reading the input failed.
    Read(io::Error),
    /// Flushing the output failed.
    Write(io::Error),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_lines(input: &[u8]) -> Vec<Vec<u8>> {
        let mut reader = LineReader::new(input);
        let mut lines = Vec::new();
        while let Some(line) = reader.next_line(&mut io::sink()).unwrap() {
            lines.push(line.to_vec());
        }
        lines
    }

    #[test]
    fn splits_lines_and_keeps_a_last_unterminated_one() {
        assert_eq!(
            all_lines(b"a\nb\r\n\nc"),
            vec![b"a".to_vec(), b"b\r".to_vec(), b"".to_vec(), b"c".to_vec()]
        );
        assert_eq!(all_lines(b"a\n"), vec![b"a".to_vec()]);
        assert!(all_lines(b"").is_empty());
    }

    #[test]
    fn cuts_long_lines_one_byte_past_the_limit() {
        let mut input = vec![b'x'; 200_000];
        input.extend_from_slice(b"\nnext\n");
        let lines = all_lines(&input);
        assert_eq!(lines[0].len(), MAX_LINE_LEN + 1);
        assert_eq!(lines[1], b"next");
    }

    /// Counts flushes, to see that they happen only before reads that could wait.
    struct FlushCounter(usize);
    impl Write for FlushCounter {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            self.0 += 1;
            Ok(())
        }
    }

    #[test]
    fn flushes_only_when_the_buffer_is_empty() {
        let input = b"1\n2\n3\n".repeat(1000);
        let mut reader = LineReader::new(&input[..]);
        let mut out = FlushCounter(0);
        let mut count = 0;
        while reader.next_line(&mut out).unwrap().is_some() {
            count += 1;
        }
        assert_eq!(count, 3000);
        // One flush before the first (and only) fill, one before seeing the end.
        assert_eq!(out.0, 2);
    }
}
