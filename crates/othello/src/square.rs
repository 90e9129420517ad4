//! Board dimensions and the cells ("squares") of a board.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The smallest number of rows or columns a board may have.
pub const MIN_SIDE: usize = 4;
/// The largest number of rows or columns a board may have.
pub const MAX_SIDE: usize = 16;
/// The largest number of cells a board may have (16x16).
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

/// A board size that is not supported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error(
    "{} {rows}x{cols} board is not supported: rows and columns must each be an even number from 4 to 16",
    article(*rows)
)]
pub struct DimensionError {
    /// The rows asked for.
    pub rows: usize,
    /// The columns asked for.
    pub cols: usize,
}

/// The indefinite article before a number as it is read aloud: "an" for eight, eleven,
/// eighteen and the numbers that start with eight ("an 8x8 board", "an 18x18 board").
fn article(number: usize) -> &'static str {
    let digits = number.to_string();
    if digits.starts_with('8') || number == 11 || number == 18 {
        "an"
    } else {
        "a"
    }
}

/// The size of a board: an even number of rows and of columns, each from 4 to 16.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dimensions {
    rows: u8,
    cols: u8,
}

impl Dimensions {
    /// The standard 8x8 board.
    pub const STANDARD: Dimensions = Dimensions { rows: 8, cols: 8 };

    /// Checks and builds a board size.
    ///
    /// # Errors
    /// [`DimensionError`] unless both sides are even and within `4..=16`.
    pub const fn new(rows: usize, cols: usize) -> Result<Dimensions, DimensionError> {
        if Self::side_ok(rows) && Self::side_ok(cols) {
            Ok(Dimensions {
                rows: rows as u8,
                cols: cols as u8,
            })
        } else {
            Err(DimensionError { rows, cols })
        }
    }

    /// The size with its indefinite article, as a sentence names it: "an 8x10", "a 6x6".
    #[must_use]
    pub fn with_article(self) -> String {
        format!("{} {self}", article(self.rows()))
    }

    /// Whether `side` is a supported number of rows or columns.
    #[must_use]
    pub const fn side_ok(side: usize) -> bool {
        side >= MIN_SIDE && side <= MAX_SIDE && side.is_multiple_of(2)
    }

    /// Number of rows.
    #[must_use]
    pub const fn rows(self) -> usize {
        self.rows as usize
    }

    /// Number of columns.
    #[must_use]
    pub const fn cols(self) -> usize {
        self.cols as usize
    }

    /// Number of cells, `rows * cols`.
    #[must_use]
    pub const fn cells(self) -> usize {
        self.rows() * self.cols()
    }

    /// Whether `square` lies on a board of this size.
    #[must_use]
    pub const fn contains(self, square: Square) -> bool {
        square.row < self.rows && square.col < self.cols
    }

    /// Checks that `square` lies on the board.
    ///
    /// # Errors
    /// [`OutOfBoundsError`] when it does not.
    pub const fn check(self, square: Square) -> Result<Square, OutOfBoundsError> {
        if self.contains(square) {
            Ok(square)
        } else {
            Err(OutOfBoundsError { square, dims: self })
        }
    }

    /// The bit index of an on-board square: `row * cols + col`.
    #[must_use]
    pub const fn index(self, square: Square) -> u32 {
        square.row as u32 * self.cols as u32 + square.col as u32
    }

    /// The square at bit index `index` (which must be below `cells()`).
    #[must_use]
    pub const fn square_at(self, index: u32) -> Square {
        Square {
            row: (index / self.cols as u32) as u8,
            col: (index % self.cols as u32) as u8,
        }
    }

    /// Every square, row by row from the top left.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.cells() as u32).map(move |i| self.square_at(i))
    }
}

impl fmt::Display for Dimensions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Dimensions {
    type Err = ParseDimensionsError;

    /// Parses `RxC` (or `RXC`, or a single `N` for a square board).
    fn from_str(text: &str) -> Result<Dimensions, ParseDimensionsError> {
        let bad = || ParseDimensionsError::Syntax(text.to_owned());
        let (rows, cols) = match text.trim().split_once(['x', 'X']) {
            Some((r, c)) => (r.trim(), c.trim()),
            None => (text.trim(), text.trim()),
        };
        let rows = rows.parse().map_err(|_| bad())?;
        let cols = cols.parse().map_err(|_| bad())?;
        Ok(Dimensions::new(rows, cols)?)
    }
}

/// A board size written wrongly.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseDimensionsError {
    /// Not of the form `RxC`.
    #[error("expected a board size such as 8x8 or 6x10, found {0:?}")]
    Syntax(String),
    /// Well formed, but not a supported size.
    #[error(transparent)]
    Unsupported(#[from] DimensionError),
}

/// A square outside the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("row {row}, column {col} is outside the {dims} board", row = .square.row() + 1, col = .square.col() + 1)]
pub struct OutOfBoundsError {
    /// The square asked for.
    pub square: Square,
    /// The board it is not on.
    pub dims: Dimensions,
}

/// A cell of a board, by 0-based row (top to bottom) and column (left to right).
///
/// A `Square` does not know the board size; functions that take one check it against the board.
/// It displays in algebraic form, column letter then 1-based row: row 2, column 3 is `c3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    row: u8,
    col: u8,
}

impl Square {
    /// The square at 0-based `row` and `col`.
    ///
    /// # Panics
    /// If `row` or `col` is 16 or more: no board has such a square.
    #[must_use]
    pub const fn new(row: usize, col: usize) -> Square {
        assert!(
            row < MAX_SIDE && col < MAX_SIDE,
            "a square's row and column are below 16"
        );
        Square {
            row: row as u8,
            col: col as u8,
        }
    }

    /// The square at 1-based `row` and `col`, as the protocol numbers them; `None` for 0 or
    /// anything above 16.
    #[must_use]
    pub fn from_one_based(row: usize, col: usize) -> Option<Square> {
        let side = 1..=MAX_SIDE;
        (side.contains(&row) && side.contains(&col)).then(|| Square::new(row - 1, col - 1))
    }

    /// 0-based row, counted from the top.
    #[must_use]
    pub const fn row(self) -> usize {
        self.row as usize
    }

    /// 0-based column, counted from the left.
    #[must_use]
    pub const fn col(self) -> usize {
        self.col as usize
    }

    /// The column letter, `'a'` for the leftmost column.
    #[must_use]
    pub const fn file_letter(self) -> char {
        (b'a' + self.col) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_letter(), self.row + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_every_even_size_from_4_to_16() {
        for rows in 0..=20 {
            for cols in 0..=20 {
                let ok = rows % 2 == 0
                    && cols % 2 == 0
                    && (4..=16).contains(&rows)
                    && (4..=16).contains(&cols);
                assert_eq!(Dimensions::new(rows, cols).is_ok(), ok, "{rows}x{cols}");
            }
        }
    }

    #[test]
    fn a_refused_size_is_named_with_its_article() {
        let message = |rows, cols| Dimensions::new(rows, cols).unwrap_err().to_string();
        assert!(message(18, 18).starts_with("an 18x18 board is not supported"));
        assert!(message(8, 9).starts_with("an 8x9 board"));
        assert!(message(11, 8).starts_with("an 11x8 board"));
        assert!(message(7, 7).starts_with("a 7x7 board"));
        assert!(message(20, 20).starts_with("a 20x20 board"));
    }

    #[test]
    fn index_and_square_round_trip_on_non_square_boards() {
        for dims in [
            Dimensions::new(4, 16).unwrap(),
            Dimensions::new(16, 4).unwrap(),
            Dimensions::new(6, 10).unwrap(),
        ] {
            for (i, sq) in dims.squares().enumerate() {
                assert_eq!(dims.index(sq), i as u32);
                assert!(dims.contains(sq));
            }
            assert_eq!(dims.squares().count(), dims.cells());
            if dims.rows() < MAX_SIDE {
                assert!(!dims.contains(Square::new(dims.rows(), 0)));
            }
            if dims.cols() < MAX_SIDE {
                assert!(!dims.contains(Square::new(0, dims.cols())));
            }
        }
    }

    #[test]
    fn parses_sizes() {
        assert_eq!("6x10".parse(), Ok(Dimensions::new(6, 10).unwrap()));
        assert_eq!("8".parse(), Ok(Dimensions::STANDARD));
        assert_eq!(" 16X4 ".parse(), Ok(Dimensions::new(16, 4).unwrap()));
        assert!(matches!(
            "7x8".parse::<Dimensions>(),
            Err(ParseDimensionsError::Unsupported(_))
        ));
        assert!(matches!(
            "axb".parse::<Dimensions>(),
            Err(ParseDimensionsError::Syntax(_))
        ));
    }

    #[test]
    fn squares_display_algebraically() {
        assert_eq!(Square::new(2, 3).to_string(), "d3");
        assert_eq!(Square::new(15, 15).to_string(), "p16");
        assert_eq!(Square::from_one_based(1, 1), Some(Square::new(0, 0)));
        assert_eq!(Square::from_one_based(17, 1), None);
        assert_eq!(Square::from_one_based(0, 1), None);
        assert_eq!(Square::from_one_based(17, 1), None);
    }

    #[test]
    fn out_of_bounds_message_is_one_based() {
        let dims = Dimensions::new(4, 6).unwrap();
        let err = dims.check(Square::new(4, 0)).unwrap_err();
        assert_eq!(err.to_string(), "row 5, column 1 is outside the 4x6 board");
    }

    #[test]
    #[should_panic(expected = "below 16")]
    fn a_square_beyond_any_board_is_refused() {
        let _ = Square::new(16, 0);
    }
}
