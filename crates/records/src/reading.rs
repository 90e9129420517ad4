//! The games of an input read one at a time ([`Games`]), and every game of a text at once
//! ([`read_text`], the text formats' own `read`).

use crate::error::{RecordError, RecordErrorKind};
use crate::format::Format;
use crate::record::GameRecord;
use crate::spec::{FormatSpec, GameIter, ReadOptions};

/// The games of an input, read one at a time, so that a file of millions of games never needs
/// more memory than its text and one game.
///
/// A game that cannot be read is an `Err` item. In GGF, whose games are delimited, reading goes
/// on with the next game ([`Games::reads_past_errors`]); in the other formats that error is the
/// last item. A text input with no game at all yields one error,
/// [`RecordErrorKind::NoGame`] (a WTHOR file may hold none).
pub struct Games<'a> {
    inner: GameIter<'a>,
    format: Format,
    reads_past_errors: bool,
    yielded: bool,
    done: bool,
}

impl<'a> Games<'a> {
    /// The games of `input` as `spec`'s reader yields them.
    pub(crate) fn new(spec: &FormatSpec, input: &'a [u8], options: ReadOptions) -> Games<'a> {
        Games {
            inner: (spec.games)(input, &options),
            format: spec.format,
            reads_past_errors: spec.reads_past_errors,
            yielded: false,
            done: false,
        }
    }

    /// The format read.
    #[must_use]
    pub fn format(&self) -> Format {
        self.format
    }

    /// Whether a game that cannot be read is followed by the next one (GGF), rather than
    /// ending the input.
    #[must_use]
    pub fn reads_past_errors(&self) -> bool {
        self.reads_past_errors
    }
}

impl Iterator for Games<'_> {
    type Item = Result<GameRecord, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let Some(game) = self.inner.next() else {
            self.done = true;
            let empty = !self.yielded && self.format != Format::Wthor;
            self.yielded = true;
            return empty.then(|| Err(RecordError::at_text(1, 1, RecordErrorKind::NoGame)));
        };
        self.yielded = true;
        if game.is_err() && !self.reads_past_errors {
            self.done = true;
        }
        Some(game)
    }
}

/// Every game of `text` in the text format `spec` describes, none for a text without any (the
/// formats' own `read`).
pub(crate) fn read_text(
    spec: &FormatSpec,
    text: &str,
    options: ReadOptions,
) -> Result<Vec<GameRecord>, RecordError> {
    match Games::new(spec, text.as_bytes(), options).collect() {
        Err(error) if error.kind == RecordErrorKind::NoGame => Ok(Vec::new()),
        read => read,
    }
}
