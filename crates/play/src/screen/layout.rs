//! Where everything goes on the screen, computed from the terminal size and the board size
//! alone: the cell size, the board's place, the side panel, and the mapping between squares
//! and screen cells that mouse clicks use.

use ratatui::layout::Rect;

use othello::{Dimensions, Square};

/// Lines under the board: two for messages and the key bar.
pub const BOTTOM_LINES: u16 = 3;
/// The narrowest side panel worth showing.
pub const PANEL_MIN_WIDTH: u16 = 24;
/// The widest side panel.
const PANEL_MAX_WIDTH: u16 = 40;
/// Columns between the board and the panel.
const PANEL_GAP: u16 = 2;
/// The tallest cell tried, in lines (a 4x4 board on a very large screen stops there).
const MAX_CELL_HEIGHT: u16 = 12;
/// Columns left of the first cell for the row numbers (two digits and a space), and the same
/// on the right.
const LABEL_WIDTH: u16 = 3;

/// How the squares are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellStyle {
    /// One character per square, a space between squares, no lines: `. X O .`.
    Compact,
    /// Squares of `height` lines and `2 * height + 1` columns inside a frame of lines.
    Grid {
        /// Lines per square.
        height: u16,
    },
}

impl CellStyle {
    /// Width and height of one square's cell (what a click must land on).
    pub fn cell(self) -> (u16, u16) {
        match self {
            CellStyle::Compact => (1, 1),
            CellStyle::Grid { height } => (2 * height + 1, height),
        }
    }

    /// Distance from one square to the next, across and down: the cell and the space or line
    /// after it.
    pub fn pitch(self) -> (u16, u16) {
        match self {
            CellStyle::Compact => (2, 1),
            CellStyle::Grid { height } => (2 * height + 2, height + 1),
        }
    }

    /// Width and height of the board with its coordinates around it.
    pub fn board_size(self, dims: Dimensions) -> (u16, u16) {
        let (cols, rows) = (dims.cols() as u16, dims.rows() as u16);
        let (pitch_x, pitch_y) = self.pitch();
        match self {
            // Labels, cells with spaces between them, a space, labels.
            CellStyle::Compact => (2 * LABEL_WIDTH + cols * pitch_x - 1, rows + 2),
            // Labels, frame line, cells each followed by a line, labels.
            CellStyle::Grid { .. } => (2 * LABEL_WIDTH + cols * pitch_x + 1, rows * pitch_y + 3),
        }
    }

    /// Offset of the first square's cell from the board's top left corner.
    fn first_cell(self) -> (u16, u16) {
        match self {
            CellStyle::Compact => (LABEL_WIDTH, 1),
            CellStyle::Grid { .. } => (LABEL_WIDTH + 1, 2),
        }
    }
}

/// The screen for one terminal size and board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScreenAreas {
    /// The board's rows and columns.
    pub dims: Dimensions,
    /// How squares are drawn.
    pub shape: CellStyle,
    /// The board with its coordinates.
    pub board: Rect,
    /// The side panel, when the terminal is wide enough.
    pub panel: Option<Rect>,
    /// Without a panel, a line over the board for the score and the turn, when there is room.
    pub summary: Option<Rect>,
    /// The message lines.
    pub message: Rect,
    /// The key bar (or the prompt, or a question).
    pub keys: Rect,
}

/// A layout, or the size the terminal needs to reach for one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// The board fits.
    Board(ScreenAreas),
    /// Too small for any legible board.
    TooSmall {
        /// The smallest width that works.
        width: u16,
        /// The smallest height that works.
        height: u16,
    },
}

impl ScreenAreas {
    /// The layout of a `dims` board in `area`: the largest cells that fit, then a side panel
    /// if the columns left over allow one.
    pub fn compute(area: Rect, dims: Dimensions) -> Fit {
        let (min_width, min_height) = CellStyle::Compact.board_size(dims);
        let below = BOTTOM_LINES;
        if area.width < min_width || area.height < min_height + below {
            return Fit::TooSmall {
                width: min_width,
                height: min_height + below,
            };
        }
        let room = area.height - below;
        let shape = (1..=MAX_CELL_HEIGHT)
            .rev()
            .map(|height| CellStyle::Grid { height })
            .find(|shape| {
                // Room for the panel beside it, or for the score line over it.
                let (width, height) = shape.board_size(dims);
                let panel = area.width - width.min(area.width) >= PANEL_MIN_WIDTH + PANEL_GAP;
                width <= area.width && height <= room && (panel || height < room)
            })
            .unwrap_or(CellStyle::Compact);
        let (width, height) = shape.board_size(dims);
        let spare = area.width - width;
        let panel_width = (spare >= PANEL_MIN_WIDTH + PANEL_GAP)
            .then(|| (spare - PANEL_GAP).min(PANEL_MAX_WIDTH));
        // Without a panel, the score goes on a line of its own over the board.
        let summary = (panel_width.is_none() && room > height)
            .then(|| Rect::new(area.x, area.y, area.width, 1));
        let (above, room) = match summary {
            Some(_) => (1, room - 1),
            None => (0, room),
        };
        // Centre the board and the panel together.
        let used = width + panel_width.map_or(0, |panel| panel + PANEL_GAP);
        let left = area.x + (area.width - used) / 2;
        let top = area.y + above + (room - height) / 2;
        let board = Rect::new(left, top, width, height);
        let panel = panel_width
            .map(|panel| Rect::new(left + width + PANEL_GAP, top, panel, area.y + room - top));
        let bottom = area.y + area.height;
        Fit::Board(ScreenAreas {
            dims,
            shape,
            board,
            panel,
            summary,
            message: Rect::new(area.x, bottom - 3, area.width, 2),
            keys: Rect::new(area.x, bottom - 1, area.width, 1),
        })
    }

    /// Top left corner of the first square's cell.
    fn origin(&self) -> (u16, u16) {
        let (dx, dy) = self.shape.first_cell();
        (self.board.x + dx, self.board.y + dy)
    }

    /// The screen cells of `square`.
    pub fn cell(&self, square: Square) -> Rect {
        let (x, y) = self.origin();
        let (pitch_x, pitch_y) = self.shape.pitch();
        let (width, height) = self.shape.cell();
        Rect::new(
            x + square.col() as u16 * pitch_x,
            y + square.row() as u16 * pitch_y,
            width,
            height,
        )
    }

    /// The square whose cell holds the screen position (`x`, `y`), if any: a click on a
    /// coordinate, a line or a space between squares is on none.
    pub fn square_at(&self, x: u16, y: u16) -> Option<Square> {
        let (left, top) = self.origin();
        let (dx, dy) = (x.checked_sub(left)?, y.checked_sub(top)?);
        let (pitch_x, pitch_y) = self.shape.pitch();
        let (width, height) = self.shape.cell();
        if dx % pitch_x >= width || dy % pitch_y >= height {
            return None;
        }
        let (col, row) = (dx / pitch_x, dy / pitch_y);
        if usize::from(col) >= self.dims.cols() || usize::from(row) >= self.dims.rows() {
            return None;
        }
        Some(Square::new(usize::from(row), usize::from(col)))
    }

    /// The frame around the squares (lines included), for [`CellStyle::Grid`].
    pub fn frame(&self) -> Rect {
        let (x, y) = self.origin();
        let (pitch_x, pitch_y) = self.shape.pitch();
        Rect::new(
            x - 1,
            y - 1,
            self.dims.cols() as u16 * pitch_x + 1,
            self.dims.rows() as u16 * pitch_y + 1,
        )
    }

    /// The column of the letter over column `col` (the middle of its cells).
    pub fn column_label_x(&self, col: usize) -> u16 {
        let cell = self.cell(Square::new(0, col));
        cell.x + cell.width / 2
    }

    /// The line of the number beside row `row` (the middle of its cells).
    pub fn row_label_y(&self, row: usize) -> u16 {
        let cell = self.cell(Square::new(row, 0));
        cell.y + (cell.height - 1) / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims(rows: usize, cols: usize) -> Dimensions {
        Dimensions::new(rows, cols).unwrap()
    }

    fn layout(width: u16, height: u16, dims: Dimensions) -> ScreenAreas {
        match ScreenAreas::compute(Rect::new(0, 0, width, height), dims) {
            Fit::Board(layout) => layout,
            Fit::TooSmall { .. } => panic!("{dims} does not fit {width}x{height}"),
        }
    }

    #[test]
    fn cells_grow_with_the_terminal() {
        let eight = Dimensions::STANDARD;
        assert_eq!(layout(80, 24, eight).shape, CellStyle::Grid { height: 1 });
        assert_eq!(layout(200, 60, eight).shape, CellStyle::Grid { height: 5 });
        assert!(layout(80, 24, dims(4, 16)).summary.is_some());
        // A smaller cell rather than no score at all.
        let narrow = layout(44, 14, dims(4, 4));
        assert_eq!(narrow.shape, CellStyle::Compact);
        assert!(narrow.panel.is_some());
        for (width, height) in [(44, 14), (30, 16), (80, 24), (23, 30), (60, 9)] {
            let Fit::Board(layout) =
                ScreenAreas::compute(Rect::new(0, 0, width, height), dims(4, 4))
            else {
                panic!("4x4 fits {width}x{height}");
            };
            assert!(
                layout.panel.is_some() || layout.summary.is_some(),
                "{width}x{height}"
            );
        }
        assert_eq!(layout(80, 24, dims(16, 16)).shape, CellStyle::Compact);
        assert_eq!(
            layout(300, 100, dims(4, 4)).shape,
            CellStyle::Grid { height: 12 }
        );
        assert!(layout(80, 24, eight).panel.is_some());
        assert!(layout(40, 24, eight).panel.is_none());
    }

    #[test]
    fn too_small_says_how_large_to_be() {
        assert_eq!(
            ScreenAreas::compute(Rect::new(0, 0, 30, 10), dims(16, 16)),
            Fit::TooSmall {
                width: 37,
                height: 21
            }
        );
        assert!(matches!(
            ScreenAreas::compute(Rect::new(0, 0, 37, 21), dims(16, 16)),
            Fit::Board(_)
        ));
    }

    #[test]
    fn every_cell_maps_back_to_its_square_and_nothing_else_does() {
        let sizes = [(20, 10), (40, 12), (80, 24), (120, 40), (200, 60), (37, 21)];
        for (rows, cols) in [(4, 4), (8, 8), (4, 16), (16, 16), (10, 6)] {
            let dims = dims(rows, cols);
            for (width, height) in sizes {
                let Fit::Board(layout) = ScreenAreas::compute(Rect::new(0, 0, width, height), dims)
                else {
                    continue;
                };
                let mut hits = 0;
                for y in 0..height {
                    for x in 0..width {
                        if let Some(square) = layout.square_at(x, y) {
                            hits += 1;
                            let cell = layout.cell(square);
                            assert!(cell.contains((x, y).into()), "{dims} {width}x{height}");
                        }
                    }
                }
                let (w, h) = layout.shape.cell();
                assert_eq!(hits, dims.cells() * usize::from(w * h));
                assert!(layout.board.x + layout.board.width <= width);
                assert!(layout.board.y + layout.board.height <= height - BOTTOM_LINES);
            }
        }
    }
}
