//! The protocol's header and grid: the text form of a [`Setup`], read one line at a time by
//! [`SetupParser`] and written by [`Setup::to_protocol`].

use std::fmt;

use thiserror::Error;

use super::{MAX_LINE_LEN, lines};
use crate::board::Board;
use crate::color::Color;
use crate::setup::{Setup, WinRule};
use crate::square::{Dimensions, Square};

/// The protocol's text form of a setup.
impl Setup {
    /// Reads the protocol's header and grid from the start of `text`; any lines after the grid
    /// are ignored.
    ///
    /// # Errors
    /// [`SetupError`] naming the first line that is wrong, or the line where the text ended.
    pub fn from_protocol(text: &str) -> Result<Setup, SetupError> {
        Setup::from_protocol_bytes(text.as_bytes())
    }

    /// [`Setup::from_protocol`] for raw bytes, such as a file's contents: a line that is not
    /// UTF-8 is reported with its line number.
    ///
    /// # Errors
    /// [`SetupError`] naming the first line that is wrong, or the line where the input ended.
    pub fn from_protocol_bytes(input: &[u8]) -> Result<Setup, SetupError> {
        let mut parser = SetupParser::new();
        for line in lines(input) {
            if let Some(setup) = parser.push_line(line)? {
                return Ok(setup);
            }
        }
        Err(parser.end_of_input())
    }

    /// Writes the header and grid in the protocol's input format (each line ends in `\n`).
    #[must_use]
    pub fn to_protocol(&self) -> String {
        let dims = self.board.dims();
        let mut text = format!(
            "{}\n{}\n{}\n{}\n",
            dims.rows(),
            dims.cols(),
            self.first.letter(),
            self.win.symbol()
        );
        self.board.write_grid(&mut text);
        text
    }
}

/// What a setup line should have held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupField {
    /// Line 1: the number of rows.
    Rows,
    /// Line 2: the number of columns.
    Cols,
    /// Line 3: `B` or `W`.
    First,
    /// Line 4: `>` or `<`.
    WinRule,
    /// A line of the grid, 1-based board row.
    BoardRow(usize),
}

impl fmt::Display for SetupField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupField::Rows => f.write_str("the number of rows, an even integer from 4 to 16"),
            SetupField::Cols => f.write_str("the number of columns, an even integer from 4 to 16"),
            SetupField::First => f.write_str("the first player, B or W"),
            SetupField::WinRule => {
                f.write_str("the win rule, > (most discs wins) or < (fewest discs wins)")
            }
            SetupField::BoardRow(row) => write!(f, "row {row} of the board"),
        }
    }
}

/// The text found where something else was expected, shortened for a one-line message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found(pub String);

impl Found {
    const SHOWN: usize = 24;

    fn new(text: &str) -> Found {
        Found(text.to_owned())
    }
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("an empty line");
        }
        if self.0.chars().count() <= Self::SHOWN {
            return write!(f, "{:?}", self.0);
        }
        let head: String = self.0.chars().take(Self::SHOWN).collect();
        write!(f, "{head:?}...")
    }
}

/// What is wrong with a setup line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SetupErrorKind {
    /// The input ended before the setup was complete.
    #[error("input ended where {0} was expected")]
    Ended(SetupField),
    /// A header line does not hold what it should.
    #[error("expected {expected}, found {found}")]
    Header {
        /// Which header line.
        expected: SetupField,
        /// What was there instead.
        found: Found,
    },
    /// A grid line has the wrong number of cells.
    #[error(
        "expected {expected} cells separated by spaces for row {row} of the board, found {found}"
    )]
    CellCount {
        /// 1-based board row.
        row: usize,
        /// The number of columns.
        expected: usize,
        /// The number of cells found.
        found: usize,
    },
    /// A grid cell is not `B`, `W` or `.`.
    #[error("expected B, W or . at row {row}, column {col} of the board, found {found}")]
    Cell {
        /// 1-based board row.
        row: usize,
        /// 1-based column.
        col: usize,
        /// What was there instead.
        found: Found,
    },
    /// The line is not valid UTF-8.
    #[error("the line is not valid UTF-8 text")]
    NotUtf8,
    /// The line is longer than [`MAX_LINE_LEN`] bytes.
    #[error("the line is longer than {MAX_LINE_LEN} bytes")]
    TooLong,
}

/// A setup that could not be read, with the 1-based input line where the problem is.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {kind}")]
pub struct SetupError {
    /// 1-based input line number.
    pub line: usize,
    /// What is wrong there.
    pub kind: SetupErrorKind,
}

/// Reads a setup one line at a time, so that a front end can read lines as they are typed.
///
/// Surrounding white space, a trailing `\r` and several spaces between cells are tolerated.
#[derive(Clone, Debug, Default)]
pub struct SetupParser {
    lines_read: usize,
    rows: usize,
    cols: usize,
    first: Option<Color>,
    win: Option<WinRule>,
    board: Option<Board>,
}

impl SetupParser {
    /// A parser that expects line 1 next.
    #[must_use]
    pub fn new() -> SetupParser {
        SetupParser::default()
    }

    /// How many lines have been accepted.
    #[must_use]
    pub fn lines_read(&self) -> usize {
        self.lines_read
    }

    /// What the next line must hold.
    #[must_use]
    pub fn expected(&self) -> SetupField {
        match self.lines_read {
            0 => SetupField::Rows,
            1 => SetupField::Cols,
            2 => SetupField::First,
            3 => SetupField::WinRule,
            n => SetupField::BoardRow(n - 3),
        }
    }

    /// Takes the next line; returns the setup once its last grid line has been read.
    ///
    /// # Errors
    /// [`SetupError`] if the line does not hold what [`SetupParser::expected`] says. The parser
    /// should not be used after an error.
    pub fn push_line(&mut self, line: &[u8]) -> Result<Option<Setup>, SetupError> {
        let expected = self.expected();
        let error = |kind| SetupError {
            line: self.lines_read + 1,
            kind,
        };
        if line.len() > MAX_LINE_LEN {
            return Err(error(SetupErrorKind::TooLong));
        }
        let text = std::str::from_utf8(line)
            .map_err(|_| error(SetupErrorKind::NotUtf8))?
            .trim();
        let header_error = || {
            error(SetupErrorKind::Header {
                expected,
                found: Found::new(text),
            })
        };
        match expected {
            SetupField::Rows | SetupField::Cols => {
                let side = text
                    .parse::<usize>()
                    .ok()
                    .filter(|&side| Dimensions::side_ok(side))
                    .ok_or_else(header_error)?;
                if expected == SetupField::Rows {
                    self.rows = side;
                } else {
                    self.cols = side;
                }
            }
            SetupField::First => {
                let mut chars = text.chars();
                let first = match (chars.next(), chars.next()) {
                    (Some(letter), None) => Color::from_letter(letter),
                    _ => None,
                };
                self.first = Some(first.ok_or_else(header_error)?);
            }
            SetupField::WinRule => {
                self.win = Some(match text {
                    ">" => WinRule::MostDiscs,
                    "<" => WinRule::FewestDiscs,
                    _ => return Err(header_error()),
                });
                // Both sides were checked on their own lines.
                let dims = Dimensions::new(self.rows, self.cols).map_err(|_| header_error())?;
                self.board = Some(Board::empty(dims));
            }
            SetupField::BoardRow(row) => {
                let board = self.board.as_mut().ok_or_else(header_error)?;
                let cols = board.dims().cols();
                let found = text.split_ascii_whitespace().count();
                if found != cols {
                    return Err(error(SetupErrorKind::CellCount {
                        row,
                        expected: cols,
                        found,
                    }));
                }
                for (col, cell) in text.split_ascii_whitespace().enumerate() {
                    let disc = match cell {
                        "B" => Some(Color::Black),
                        "W" => Some(Color::White),
                        "." => None,
                        _ => {
                            return Err(error(SetupErrorKind::Cell {
                                row,
                                col: col + 1,
                                found: Found::new(cell),
                            }));
                        }
                    };
                    board.put(Square::new(row - 1, col), disc);
                }
            }
        }
        self.lines_read += 1;
        match (self.board, self.first, self.win) {
            (Some(board), Some(first), Some(win)) if self.lines_read == 4 + board.dims().rows() => {
                Ok(Some(Setup { board, first, win }))
            }
            _ => Ok(None),
        }
    }

    /// The error for input that ends before the setup is complete.
    #[must_use]
    pub fn end_of_input(&self) -> SetupError {
        SetupError {
            line: self.lines_read + 1,
            kind: SetupErrorKind::Ended(self.expected()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = "4\n4\nB\n>\n. . . .\n. B W .\n. W B .\n. . . .\n";

    fn error_of(text: &str) -> String {
        Setup::from_protocol(text).unwrap_err().to_string()
    }

    #[test]
    fn reads_the_example_and_writes_it_back() {
        let setup = Setup::from_protocol(EXAMPLE).unwrap();
        assert_eq!(setup.board.dims(), Dimensions::new(4, 4).unwrap());
        assert_eq!(setup.first, Color::Black);
        assert_eq!(setup.win, WinRule::MostDiscs);
        assert_eq!(setup.board.at(Square::new(1, 1)), Some(Color::Black));
        assert_eq!(setup.to_protocol(), EXAMPLE);
    }

    #[test]
    fn tolerates_crlf_and_extra_spaces() {
        let text = " 4 \r\n4\r\n  W\r\n<\r\n.  .   . .\r\n. B W .\r\n\t. W B .  \r\n. . . .\r\n";
        let setup = Setup::from_protocol(text).unwrap();
        assert_eq!(setup.first, Color::White);
        assert_eq!(setup.win, WinRule::FewestDiscs);
        assert_eq!(setup.board.count(Color::Black), 2);
    }

    #[test]
    fn non_square_setup() {
        let text = "4\n6\nB\n>\n. . . . . .\n. . W B . .\n. . B W . .\n. . . . . .\n";
        let setup = Setup::from_protocol(text).unwrap();
        assert_eq!(setup.board, Board::standard(Dimensions::new(4, 6).unwrap()));
    }

    #[test]
    fn each_bad_header_names_its_line() {
        assert_eq!(
            error_of(""),
            "line 1: input ended where the number of rows, an even integer from 4 to 16 was expected"
        );
        assert_eq!(
            error_of("5\n"),
            "line 1: expected the number of rows, an even integer from 4 to 16, found \"5\""
        );
        assert_eq!(
            error_of("4\n18\n"),
            "line 2: expected the number of columns, an even integer from 4 to 16, found \"18\""
        );
        assert_eq!(
            error_of("4\n4\nb\n"),
            "line 3: expected the first player, B or W, found \"b\""
        );
        assert_eq!(
            error_of("4\n4\nB\n=\n"),
            "line 4: expected the win rule, > (most discs wins) or < (fewest discs wins), found \"=\""
        );
        assert_eq!(
            error_of("4\n\n"),
            "line 2: expected the number of columns, an even integer from 4 to 16, found an empty line"
        );
        assert_eq!(
            error_of("4\n4\nB\n>\n. . . .\n"),
            "line 6: input ended where row 2 of the board was expected"
        );
    }

    #[test]
    fn bad_grid_lines_name_row_and_column() {
        assert_eq!(
            error_of("4\n4\nB\n>\n. . . .\n. . .\n"),
            "line 6: expected 4 cells separated by spaces for row 2 of the board, found 3"
        );
        assert_eq!(
            error_of("4\n4\nB\n>\n. . . .\n. . x .\n"),
            "line 6: expected B, W or . at row 2, column 3 of the board, found \"x\""
        );
        assert_eq!(
            error_of("4\n4\nB\n>\nBW..\n"),
            "line 5: expected 4 cells separated by spaces for row 1 of the board, found 1"
        );
    }

    #[test]
    fn long_and_binary_lines_are_reported_briefly() {
        let long = "9".repeat(MAX_LINE_LEN);
        let message = error_of(&format!("{long}\n"));
        assert!(message.len() < 120, "{message}");
        assert!(
            message.ends_with("...\"") || message.ends_with("..."),
            "{message}"
        );
        let mut parser = SetupParser::new();
        let err = parser.push_line(b"\xff\xfe").unwrap_err();
        assert_eq!(err.to_string(), "line 1: the line is not valid UTF-8 text");
        let padded = format!("{}4", " ".repeat(MAX_LINE_LEN));
        let err = SetupParser::new().push_line(padded.as_bytes()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1: the line is longer than 4096 bytes"
        );
    }
}
