//! Squares as people type them: `d3`, `D3`, `3d`, `c10`, `10c`, or `3 4` (row, then column).
//!
//! A [`Square`] displays as `d3` (column letter, 1-based row); [`parse_square`] reads that
//! form back and the other common ones, checking the square against the board size and saying
//! exactly what was wrong when it cannot.
//!
//! ```
//! use othello::notation::parse_square;
//! use othello::{Dimensions, Square};
//!
//! let dims = Dimensions::STANDARD;
//! assert_eq!(parse_square("d3", dims), Ok(Square::new(2, 3)));
//! assert_eq!(parse_square("3D", dims), Ok(Square::new(2, 3)));
//! assert_eq!(parse_square("3 4", dims), Ok(Square::new(2, 3)));
//! assert_eq!(
//!     parse_square("j3", dims).unwrap_err().to_string(),
//!     "column j is off the board: columns are a to h"
//! );
//! ```

use thiserror::Error;

use crate::square::{Dimensions, Square};

/// Why a typed square could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NotationError {
    /// Nothing was typed.
    #[error("expected a square such as d3, 3d or \"3 4\" (row column), found nothing")]
    Empty,
    /// The text is not a square in any of the accepted forms.
    #[error("expected a square such as d3, 3d or \"3 4\" (row column), found {found:?}")]
    Syntax {
        /// The text, trimmed and shortened to [`NotationError::SHOWN`] characters.
        found: String,
    },
    /// A column letter beyond the board.
    #[error("column {letter} is off the board: columns are a to {last}")]
    ColumnLetter {
        /// The letter typed, in lower case.
        letter: char,
        /// The last column letter of the board.
        last: char,
    },
    /// A column number (in the `row column` form) beyond the board.
    #[error("column {number} is off the board: columns are 1 to {cols}")]
    ColumnNumber {
        /// The number typed, as typed.
        number: String,
        /// The number of columns.
        cols: usize,
    },
    /// A row number beyond the board.
    #[error("row {number} is off the board: rows are 1 to {rows}")]
    Row {
        /// The number typed, as typed.
        number: String,
        /// The number of rows.
        rows: usize,
    },
}

impl NotationError {
    /// How many characters of unreadable text an error repeats.
    pub const SHOWN: usize = 24;

    fn syntax(text: &str) -> NotationError {
        NotationError::Syntax {
            found: text.chars().take(Self::SHOWN).collect(),
        }
    }
}

/// Reads a square of a board of `dims` in any of the forms people type:
///
/// - column letter then row number: `d3`, `D3`, `c10`;
/// - row number then column letter: `3d`, `10c`;
/// - row number and column number, 1-based, separated by spaces or a comma: `3 4`, `3,4`.
///
/// Surrounding white space is ignored.
///
/// # Errors
/// [`NotationError`]: nothing typed, not a square in any form, or a row or column off the board.
pub fn parse_square(text: &str, dims: Dimensions) -> Result<Square, NotationError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(NotationError::Empty);
    }
    if let Some((row, col)) = split_numbers(text) {
        return Ok(Square::new(
            row_index(row, dims)?,
            col_number_index(col, dims)?,
        ));
    }
    let (letter, row) = split_letter_and_number(text).ok_or_else(|| NotationError::syntax(text))?;
    let col = col_letter_index(letter, dims)?;
    Ok(Square::new(row_index(row, dims)?, col))
}

/// `"3 4"`, `"3,4"` or `"3 , 4"`: two runs of digits.
fn split_numbers(text: &str) -> Option<(&str, &str)> {
    let (row, col) = text.split_once(|c: char| c == ',' || c.is_whitespace())?;
    let (row, col) = (
        row.trim(),
        col.trim_start_matches(|c: char| c == ',' || c.is_whitespace()),
    );
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(row) && digits(col)).then_some((row, col))
}

/// `d3` or `3d` (any case): one ASCII letter and a run of digits, in either order.
fn split_letter_and_number(text: &str) -> Option<(char, &str)> {
    let first = text.chars().next()?;
    let last = text.chars().next_back()?;
    let (letter, number) = if first.is_ascii_alphabetic() {
        (first, &text[1..])
    } else if last.is_ascii_alphabetic() {
        (last, &text[..text.len() - 1])
    } else {
        return None;
    };
    let digits = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit());
    digits.then_some((letter.to_ascii_lowercase(), number))
}

/// The 0-based row of a 1-based row number typed as `number` (ASCII digits).
fn row_index(number: &str, dims: Dimensions) -> Result<usize, NotationError> {
    one_based(number, dims.rows()).ok_or_else(|| NotationError::Row {
        number: shown_number(number),
        rows: dims.rows(),
    })
}

/// The 0-based column of a 1-based column number typed as `number` (ASCII digits).
fn col_number_index(number: &str, dims: Dimensions) -> Result<usize, NotationError> {
    one_based(number, dims.cols()).ok_or_else(|| NotationError::ColumnNumber {
        number: shown_number(number),
        cols: dims.cols(),
    })
}

/// The 0-based column of a lower-case column letter.
fn col_letter_index(letter: char, dims: Dimensions) -> Result<usize, NotationError> {
    let index = letter as usize - 'a' as usize;
    if index < dims.cols() {
        Ok(index)
    } else {
        Err(NotationError::ColumnLetter {
            letter,
            last: char::from(b'a' + dims.cols() as u8 - 1),
        })
    }
}

/// `number` (ASCII digits, 1-based) as a 0-based index below `count`, if it is one.
fn one_based(number: &str, count: usize) -> Option<usize> {
    // Leading zeros are fine ("03"); anything longer than the longest side is off the board.
    let value: usize = number
        .trim_start_matches('0')
        .parse()
        .ok()
        .filter(|&n| n <= 99)?;
    (1..=count).contains(&value).then(|| value - 1)
}

fn shown_number(number: &str) -> String {
    number.chars().take(NotationError::SHOWN).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims(rows: usize, cols: usize) -> Dimensions {
        Dimensions::new(rows, cols).unwrap()
    }

    #[test]
    fn reads_every_form() {
        let d3 = Square::new(2, 3);
        for text in [
            "d3", "D3", "3d", "3D", " d3 ", "3 4", "3,4", "3, 4", "3  4", "03 04", "d03",
        ] {
            assert_eq!(parse_square(text, Dimensions::STANDARD), Ok(d3), "{text:?}");
        }
        let big = dims(16, 16);
        assert_eq!(parse_square("c10", big), Ok(Square::new(9, 2)));
        assert_eq!(parse_square("10c", big), Ok(Square::new(9, 2)));
        assert_eq!(parse_square("p16", big), Ok(Square::new(15, 15)));
        assert_eq!(parse_square("16 16", big), Ok(Square::new(15, 15)));
    }

    #[test]
    fn round_trips_every_square_of_every_shape() {
        for (rows, cols) in [(4, 4), (8, 8), (4, 16), (16, 4), (10, 10), (16, 16)] {
            let dims = dims(rows, cols);
            for square in dims.squares() {
                assert_eq!(parse_square(&square.to_string(), dims), Ok(square));
                let swapped = format!("{}{}", square.row() + 1, square.file_letter());
                assert_eq!(parse_square(&swapped, dims), Ok(square));
                let numbers = format!("{} {}", square.row() + 1, square.col() + 1);
                assert_eq!(parse_square(&numbers, dims), Ok(square));
            }
        }
    }

    #[test]
    fn explains_what_is_wrong() {
        let std = Dimensions::STANDARD;
        assert_eq!(parse_square("  ", std), Err(NotationError::Empty));
        for text in [
            "dd", "d", "3", "d3x", "x3y", "3 4 5", "3 d", "d 3", "é3", "-1 2", "d-3", "3,",
        ] {
            assert!(
                matches!(parse_square(text, std), Err(NotationError::Syntax { .. })),
                "{text:?}"
            );
        }
        assert_eq!(
            parse_square("i1", std).unwrap_err().to_string(),
            "column i is off the board: columns are a to h"
        );
        assert_eq!(
            parse_square("d9", std).unwrap_err().to_string(),
            "row 9 is off the board: rows are 1 to 8"
        );
        assert_eq!(
            parse_square("d0", std).unwrap_err().to_string(),
            "row 0 is off the board: rows are 1 to 8"
        );
        assert_eq!(
            parse_square("3 9", std).unwrap_err().to_string(),
            "column 9 is off the board: columns are 1 to 8"
        );
        assert_eq!(
            parse_square("99999999999999999999 1", std)
                .unwrap_err()
                .to_string(),
            "row 99999999999999999999 is off the board: rows are 1 to 8"
        );
        assert_eq!(
            parse_square("hello", std).unwrap_err().to_string(),
            "expected a square such as d3, 3d or \"3 4\" (row column), found \"hello\""
        );
        assert_eq!(
            parse_square("e1", dims(4, 4)).unwrap_err().to_string(),
            "column e is off the board: columns are a to d"
        );
    }
}
