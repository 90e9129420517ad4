//! Reading input: named files (bounded, line by line) and the line reader of the protocol and
//! play loops, which flushes pending output before it may wait for the user.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

use thiserror::Error;

use othello::protocol::MAX_LINE_LEN;
use othello::{Setup, SetupError, SetupParser};

/// The most a file named on the command line may hold: far more than any position list, and
/// read in a moment, so that an endless input (`/dev/zero`, `yes`) is refused at once.
pub const MAX_INPUT_BYTES: usize = 64 << 20;

/// An input named on the command line that could not be read, or is not text of a sensible
/// shape.
#[derive(Debug, Error)]
pub enum ReadError {
    /// Opening or reading failed.
    #[error("cannot read {name}: {source}")]
    Io {
        /// The file's name, or `standard input`.
        name: String,
        /// What went wrong.
        source: io::Error,
    },
    /// A line is longer than [`MAX_LINE_LEN`]; reading stops there.
    #[error("{name}: line {line} is longer than {MAX_LINE_LEN} bytes")]
    LineTooLong {
        /// The file's name, or `standard input`.
        name: String,
        /// 1-based line number.
        line: usize,
    },
    /// The input is larger than [`MAX_INPUT_BYTES`]; reading stops there.
    #[error("{name}: larger than {} MiB", MAX_INPUT_BYTES >> 20)]
    TooLarge {
        /// The file's name, or `standard input`.
        name: String,
    },
}

/// An input named on the command line, read one line at a time with the line and size limits.
pub struct NamedInput {
    name: String,
    reader: LineReader<Box<dyn Read>>,
    lines: usize,
    bytes: usize,
}

impl NamedInput {
    /// Opens the file at `path`, or standard input (called `stdin_name` in messages) when `path`
    /// is `-` and `stdin_name` is given.
    ///
    /// # Errors
    /// The file cannot be opened.
    pub fn open(path: &Path, stdin_name: Option<&str>) -> Result<NamedInput, ReadError> {
        let (name, inner): (String, Box<dyn Read>) = match stdin_name {
            Some(stdin_name) if path == Path::new("-") => {
                (stdin_name.to_owned(), Box::new(io::stdin()))
            }
            _ => {
                let name = path.display().to_string();
                match File::open(path) {
                    Ok(file) => (name, Box::new(file)),
                    Err(source) => return Err(ReadError::Io { name, source }),
                }
            }
        };
        let mut reader = LineReader::new(inner);
        reader.stop_at_limit = true;
        Ok(NamedInput {
            name,
            reader,
            lines: 0,
            bytes: 0,
        })
    }

    /// The input's name for messages.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The next line without its `\n`, or `None` at the end.
    ///
    /// # Errors
    /// The input cannot be read, or a line is longer than the protocol allows.
    pub fn next_line(&mut self) -> Result<Option<&[u8]>, ReadError> {
        let name = &self.name;
        let line = match self.reader.next_line(&mut io::sink()) {
            Ok(line) => line,
            Err(LineError::Read(source) | LineError::Write(source)) => {
                return Err(ReadError::Io {
                    name: name.clone(),
                    source,
                });
            }
        };
        let Some(line) = line else { return Ok(None) };
        self.lines += 1;
        self.bytes += line.len() + 1;
        if line.len() > MAX_LINE_LEN {
            return Err(ReadError::LineTooLong {
                name: name.clone(),
                line: self.lines,
            });
        }
        if self.bytes > MAX_INPUT_BYTES {
            return Err(ReadError::TooLarge { name: name.clone() });
        }
        Ok(Some(line))
    }
}

/// The whole of a named input as bytes (binary formats such as WTHOR included), with the size
/// limit but no line limit: the file at `path`, or standard input (called `stdin_name` in
/// messages) when `path` is `-`.
///
/// # Errors
/// The input cannot be read, or is larger than [`MAX_INPUT_BYTES`].
pub fn read_bytes(path: &Path, stdin_name: &str) -> Result<(String, Vec<u8>), ReadError> {
    let (name, inner): (String, Box<dyn Read>) = if path == Path::new("-") {
        (stdin_name.to_owned(), Box::new(io::stdin()))
    } else {
        let name = path.display().to_string();
        match File::open(path) {
            Ok(file) => (name, Box::new(file)),
            Err(source) => return Err(ReadError::Io { name, source }),
        }
    };
    let mut bytes = Vec::new();
    let limit = MAX_INPUT_BYTES as u64 + 1;
    if let Err(source) = inner.take(limit).read_to_end(&mut bytes) {
        return Err(ReadError::Io { name, source });
    }
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(ReadError::TooLarge { name });
    }
    Ok((name, bytes))
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

/// Reads a start position, the protocol's header and grid, from the file at `path` (or standard
/// input, see [`NamedInput::open`]); only the lines it needs are read.
///
/// # Errors
/// The file cannot be read or is not a valid setup.
pub fn read_setup(path: &Path, stdin_name: Option<&str>) -> Result<Setup, SetupFileError> {
    let mut input = NamedInput::open(path, stdin_name)?;
    let mut parser = SetupParser::new();
    let setup_error = |name: &str, source| SetupFileError::Setup {
        name: name.to_owned(),
        source,
    };
    loop {
        let Some(line) = input.next_line()? else {
            return Err(setup_error(input.name(), parser.end_of_input()));
        };
        match parser.push_line(line) {
            Ok(Some(setup)) => return Ok(setup),
            Ok(None) => {}
            Err(source) => return Err(setup_error(input.name(), source)),
        }
    }
}

/// Reads lines of at most [`MAX_LINE_LEN`] (or another limit) + 1 bytes (anything longer is cut
/// there, so the library still sees that it was too long), without their `\n`.
pub struct LineReader<R> {
    inner: BufReader<R>,
    line: Vec<u8>,
    /// The longest line kept whole.
    limit: usize,
    /// Return a line as soon as it is known to be too long, without reading the rest of it (for
    /// inputs that are refused at the first such line).
    stop_at_limit: bool,
}

impl<R: Read> LineReader<R> {
    /// Reads from `inner`, buffered.
    pub fn new(inner: R) -> LineReader<R> {
        LineReader::with_limit(inner, MAX_LINE_LEN)
    }

    /// Reads from `inner`, buffered, keeping lines of up to `limit` bytes whole.
    pub fn with_limit(inner: R, limit: usize) -> LineReader<R> {
        LineReader {
            inner: BufReader::with_capacity(64 * 1024, inner),
            line: Vec::with_capacity(64),
            limit,
            stop_at_limit: false,
        }
    }

    /// The next line, or `None` at the end of the input. `output` is flushed before any read
    /// that could wait, so that a person at a terminal sees everything written so far, while a
    /// file piped in is read in large blocks with few flushes.
    ///
    /// # Errors
    /// The input cannot be read, or the echo cannot be written.
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
            let room = (self.limit + 1).saturating_sub(self.line.len());
            self.line.extend_from_slice(&chunk[..chunk.len().min(room)]);
            self.inner.consume(used);
            if complete || (self.stop_at_limit && self.line.len() > self.limit) {
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
