//! Where the GGF reader is in the text ([`Cursor`]), and a property value with where it starts
//! ([`Value`]), each making the errors found there.

use crate::error::{RecordError, RecordErrorKind, shown};

/// A cursor over the text that knows its line and column.
#[derive(Clone)]
pub(super) struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    /// Bytes of the text before the next character.
    pub(super) offset: usize,
    pub(super) line: usize,
    pub(super) column: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at byte `offset` of `text`, which is at `line` and `column`.
    pub(super) fn at(text: &'a str, offset: usize, line: usize, column: usize) -> Cursor<'a> {
        Cursor {
            chars: text[offset..].chars().peekable(),
            offset,
            line,
            column,
        }
    }

    pub(super) fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    pub(super) fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        self.offset += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    pub(super) fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    pub(super) fn error(&self, kind: RecordErrorKind) -> RecordError {
        RecordError::at_text(self.line, self.column, kind)
    }

    pub(super) fn expected(&mut self, expected: &'static str) -> RecordError {
        let found = match self.peek() {
            None => "the end of the input".to_owned(),
            Some(c) => format!("{c:?}"),
        };
        self.error(RecordErrorKind::Expected { expected, found })
    }
}

/// A property value with where it starts.
pub(super) struct Value {
    pub(super) text: String,
    pub(super) line: usize,
    pub(super) column: usize,
}

impl Value {
    pub(super) fn error(&self, kind: RecordErrorKind) -> RecordError {
        RecordError::at_text(self.line, self.column, kind)
    }

    pub(super) fn expected(&self, expected: &'static str) -> RecordError {
        self.error(RecordErrorKind::Expected {
            expected,
            found: shown(&self.text),
        })
    }
}
