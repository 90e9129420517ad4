//! The picture of a board that notebooks show for a `Game`.

use othello::{Color, Game, Square};

/// Pixels per square.
const CELL: usize = 40;
/// Room for the coordinates around the board.
const MARGIN: usize = 20;

/// An SVG picture of `game`: a green board with grid lines and coordinates, the discs, the
/// legal moves of the player to move as small dots, and `last` (the last move) ringed in red.
pub(crate) fn picture(game: &Game, last: Option<Square>) -> String {
    let dims = game.board().dims();
    let (width, height) = (
        2 * MARGIN + dims.cols() * CELL,
        2 * MARGIN + dims.rows() * CELL,
    );
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" class=\"othello-board\">\n\
         <rect x=\"{MARGIN}\" y=\"{MARGIN}\" width=\"{}\" height=\"{}\" fill=\"#2e7d32\" \
         stroke=\"#1b4d1e\" stroke-width=\"2\"/>\n",
        dims.cols() * CELL,
        dims.rows() * CELL
    );
    for col in 0..=dims.cols() {
        let x = MARGIN + col * CELL;
        svg += &format!(
            "<line x1=\"{x}\" y1=\"{MARGIN}\" x2=\"{x}\" y2=\"{}\" stroke=\"#1b4d1e\"/>\n",
            MARGIN + dims.rows() * CELL
        );
    }
    for row in 0..=dims.rows() {
        let y = MARGIN + row * CELL;
        svg += &format!(
            "<line x1=\"{MARGIN}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#1b4d1e\"/>\n",
            MARGIN + dims.cols() * CELL
        );
    }
    for col in 0..dims.cols() {
        svg += &format!(
            "<text x=\"{}\" y=\"14\" font-size=\"12\" text-anchor=\"middle\" \
             font-family=\"sans-serif\">{}</text>\n",
            MARGIN + col * CELL + CELL / 2,
            (b'a' + col as u8) as char
        );
    }
    for row in 0..dims.rows() {
        svg += &format!(
            "<text x=\"10\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" \
             font-family=\"sans-serif\">{}</text>\n",
            MARGIN + row * CELL + CELL / 2 + 4,
            row + 1
        );
    }
    let centre = |square: Square| {
        (
            MARGIN + square.col() * CELL + CELL / 2,
            MARGIN + square.row() * CELL + CELL / 2,
        )
    };
    for square in dims.squares() {
        let Some(color) = game.board().get(square).expect("on the board") else {
            continue;
        };
        let (x, y) = centre(square);
        let (fill, class) = match color {
            Color::Black => ("#111111", "disc black"),
            Color::White => ("#f5f5f5", "disc white"),
        };
        svg += &format!(
            "<circle class=\"{class}\" data-square=\"{square}\" cx=\"{x}\" cy=\"{y}\" r=\"{}\" \
             fill=\"{fill}\" stroke=\"#000000\"/>\n",
            CELL / 2 - 4
        );
    }
    for square in game.legal_moves() {
        let (x, y) = centre(square);
        svg += &format!(
            "<circle class=\"legal\" data-square=\"{square}\" cx=\"{x}\" cy=\"{y}\" r=\"4\" \
             fill=\"#000000\" fill-opacity=\"0.35\"/>\n"
        );
    }
    if let Some(square) = last {
        let (x, y) = centre(square);
        svg += &format!(
            "<circle class=\"last\" data-square=\"{square}\" cx=\"{x}\" cy=\"{y}\" r=\"5\" \
             fill=\"#d32f2f\"/>\n"
        );
    }
    svg += "</svg>\n";
    svg
}
