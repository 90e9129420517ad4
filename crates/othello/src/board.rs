//! A board of any supported size with any arrangement of discs.

use std::fmt;

use thiserror::Error;

use crate::bitboard::{Bits, U256};
use crate::color::{ByColor, Color};
use crate::square::{Dimensions, OutOfBoundsError, Square};

/// Discs handed to [`Board::from_discs`] that do not make a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum DiscsError {
    /// A cell is outside the board.
    #[error("disc bit {index} is outside the {dims} board")]
    OffBoard {
        /// The offending bit index.
        index: u32,
        /// The board size.
        dims: Dimensions,
    },
    /// A cell holds both a black and a white disc.
    #[error("{square} holds both a black and a white disc")]
    Overlap {
        /// The doubly occupied cell.
        square: Square,
    },
}

/// The cells of a board: for each one, a black disc, a white disc or nothing.
///
/// Any arrangement is allowed. `Display` writes the grid exactly as the protocol prints it:
/// one line per row, cells `B`, `W` or `.` separated by single spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    dims: Dimensions,
    discs: ByColor<U256>,
}

impl Board {
    /// A board with no discs.
    #[must_use]
    pub fn empty(dims: Dimensions) -> Board {
        Board {
            dims,
            discs: ByColor::default(),
        }
    }

    /// The standard opening: four discs in the centre, white on the upper-left to lower-right
    /// diagonal (d4 and e5 on 8x8), black on the other.
    #[must_use]
    pub fn standard(dims: Dimensions) -> Board {
        let mut board = Board::empty(dims);
        let (r, c) = (dims.rows() / 2 - 1, dims.cols() / 2 - 1);
        for (dr, dc, color) in [
            (0, 0, Color::White),
            (1, 1, Color::White),
            (0, 1, Color::Black),
            (1, 0, Color::Black),
        ] {
            board.put(Square::new(r + dr, c + dc), Some(color));
        }
        board
    }

    /// A board from bit sets in the layout of [`crate::bitboard`].
    ///
    /// # Errors
    /// [`DiscsError`] if a disc is off the board or a cell holds two discs.
    pub fn from_discs(dims: Dimensions, black: U256, white: U256) -> Result<Board, DiscsError> {
        let all = black | white;
        if let Some(index) = all.members().find(|&i| i as usize >= dims.cells()) {
            return Err(DiscsError::OffBoard { index, dims });
        }
        if let Some(index) = (black & white).members().next() {
            return Err(DiscsError::Overlap {
                square: dims.square_at(index),
            });
        }
        Ok(Board {
            dims,
            discs: ByColor { black, white },
        })
    }

    /// The board size.
    #[must_use]
    pub fn dims(&self) -> Dimensions {
        self.dims
    }

    /// The discs of one colour as a bit set, bit `row * cols + col` for each cell.
    #[must_use]
    pub fn discs(&self, color: Color) -> U256 {
        self.discs[color]
    }

    /// What is on `square`.
    ///
    /// # Errors
    /// [`OutOfBoundsError`] if the square is not on the board.
    pub fn get(&self, square: Square) -> Result<Option<Color>, OutOfBoundsError> {
        self.dims.check(square)?;
        Ok(self.at(square))
    }

    /// Puts a disc on `square`, or empties it with `None`.
    ///
    /// # Errors
    /// [`OutOfBoundsError`] if the square is not on the board.
    pub fn set(&mut self, square: Square, disc: Option<Color>) -> Result<(), OutOfBoundsError> {
        self.dims.check(square)?;
        self.put(square, disc);
        Ok(())
    }

    /// Number of discs of `color`.
    #[must_use]
    pub fn count(&self, color: Color) -> u32 {
        self.discs[color].count()
    }

    /// Number of empty cells.
    #[must_use]
    pub fn empties(&self) -> u32 {
        self.dims.cells() as u32 - self.count(Color::Black) - self.count(Color::White)
    }

    /// What is on an on-board square.
    #[must_use]
    pub fn at(&self, square: Square) -> Option<Color> {
        let index = self.dims.index(square);
        Color::ALL.into_iter().find(|&c| self.discs[c].has(index))
    }

    /// Sets an on-board square.
    pub fn put(&mut self, square: Square, disc: Option<Color>) {
        let bit = U256::single(self.dims.index(square));
        for color in Color::ALL {
            if disc == Some(color) {
                self.discs[color] |= bit;
            } else {
                self.discs[color] &= !bit;
            }
        }
    }

    /// Replaces the discs wholesale; the caller keeps them on the board and disjoint.
    pub fn set_discs(&mut self, discs: ByColor<U256>) {
        self.discs = discs;
    }

    /// Appends the protocol grid, each row ending in `\n`.
    pub fn write_grid(&self, out: &mut String) {
        // This runs before every turn of the protocol, so it takes each row's bits at once
        // instead of asking cell by cell. A cell is `CELLS[black bit + 2 * white bit]`.
        const CELLS: [u8; 4] = [b'.', b'B', b'W', b'B'];
        let (black, white) = (self.discs[Color::Black].0, self.discs[Color::White].0);
        let cols = self.dims.cols();
        let mut line = [b' '; 2 * crate::square::MAX_SIDE];
        line[2 * cols - 1] = b'\n';
        out.reserve(self.dims.cells() * 2);
        for row in 0..self.dims.rows() {
            let black_row = bit_range(&black, row * cols, cols);
            let white_row = bit_range(&white, row * cols, cols);
            for col in 0..cols {
                let cell = (black_row >> col & 1) | (white_row >> col & 1) << 1;
                line[2 * col] = CELLS[cell as usize];
            }
            out.push_str(std::str::from_utf8(&line[..2 * cols]).expect("the grid is ASCII"));
        }
    }
}

/// Bits `start..start + len` (`len <= 16`, within 256) of four little-endian words, as the
/// low bits of the result.
fn bit_range(words: &[u64; 4], start: usize, len: usize) -> u32 {
    let (word, offset) = (start / 64, start % 64);
    let mut bits = words[word] >> offset;
    if offset + len > 64 {
        bits |= words[word + 1] << (64 - offset);
    }
    (bits & ((1 << len) - 1)) as u32
}

impl fmt::Display for Board {
    /// The protocol grid: one line per row, each ending in a newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut grid = String::with_capacity(self.dims.cells() * 2);
        self.write_grid(&mut grid);
        f.write_str(&grid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_board_renders_as_in_the_protocol() {
        let board = Board::standard(Dimensions::new(4, 6).unwrap());
        assert_eq!(
            board.to_string(),
            ". . . . . .\n. . W B . .\n. . B W . .\n. . . . . .\n"
        );
        assert_eq!(board.count(Color::Black), 2);
        assert_eq!(board.count(Color::White), 2);
        assert_eq!(board.empties(), 20);
    }

    #[test]
    fn grid_matches_the_cells_on_every_size() {
        for rows in (4..=16).step_by(2) {
            for cols in (4..=16).step_by(2) {
                let dims = Dimensions::new(rows, cols).unwrap();
                let mut board = Board::empty(dims);
                for (i, square) in dims.squares().enumerate() {
                    board.put(
                        square,
                        [None, Some(Color::Black), Some(Color::White)][i * 7 % 3],
                    );
                }
                let mut expected = String::new();
                for row in 0..rows {
                    let cells: Vec<String> = (0..cols)
                        .map(|col| match board.at(Square::new(row, col)) {
                            Some(color) => color.letter().to_string(),
                            None => ".".to_owned(),
                        })
                        .collect();
                    expected += &cells.join(" ");
                    expected += "\n";
                }
                assert_eq!(board.to_string(), expected, "{dims}");
            }
        }
    }

    #[test]
    fn get_and_set_check_bounds() {
        let dims = Dimensions::new(4, 4).unwrap();
        let mut board = Board::empty(dims);
        board.set(Square::new(3, 3), Some(Color::Black)).unwrap();
        assert_eq!(board.get(Square::new(3, 3)), Ok(Some(Color::Black)));
        board.set(Square::new(3, 3), Some(Color::White)).unwrap();
        assert_eq!(board.get(Square::new(3, 3)), Ok(Some(Color::White)));
        assert_eq!(board.count(Color::Black), 0);
        board.set(Square::new(3, 3), None).unwrap();
        assert_eq!(board.get(Square::new(3, 3)), Ok(None));
        assert!(board.get(Square::new(4, 0)).is_err());
        assert!(board.set(Square::new(0, 4), Some(Color::Black)).is_err());
    }

    #[test]
    fn from_discs_rejects_overlap_and_off_board_bits() {
        let dims = Dimensions::new(4, 4).unwrap();
        let one = U256::single(5);
        assert!(matches!(
            Board::from_discs(dims, one, one),
            Err(DiscsError::Overlap { .. })
        ));
        assert!(matches!(
            Board::from_discs(dims, U256::single(16), U256::ZERO),
            Err(DiscsError::OffBoard { index: 16, .. })
        ));
        let board = Board::from_discs(dims, one, U256::single(6)).unwrap();
        assert_eq!(board.at(Square::new(1, 1)), Some(Color::Black));
        assert_eq!(board.at(Square::new(1, 2)), Some(Color::White));
    }
}
