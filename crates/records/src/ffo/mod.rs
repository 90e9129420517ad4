//! Positions written as lines of the FFO endgame test suite (as in
//! `fixtures/ffo/ffo-40-59.txt`): `[id] board side [empties best_moves score ...]`.
//!
//! The board is 64 characters, squares a1, b1, ..., h1, a2, ..., h8 (row 1 first), `X` (or `*`)
//! black, `O` white, `-` (or `.`) empty; the side to move is `X` or `O` (`B` and `W` are taken
//! too). The optional fields give the number of empties (checked against the board), the best
//! moves (comma-separated, such as `G3,C7`), the exact score of the side to move, counted
//! the FFO way (empty squares go to the winner), and the exact score of each move
//! (`A2:+38,C7:+36`). Edax's OBF lines end the side with a `;`
//! (`... X;`), which is accepted too; [`to_line`] writes that form.

mod parse;
mod position;
mod problems;
mod write;

#[cfg(test)]
mod tests;

pub use parse::{FfoError, LineError, parse_line, parse_line_at};
pub use position::{FfoPosition, Listed};
pub use problems::{Problem, ProblemError, read_problems};
pub use write::{obf_fields, to_line};
