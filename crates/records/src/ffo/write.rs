//! Writing a position as an OBF line ([`to_line`]) and what a line lists as Edax's fields
//! ([`obf_fields`]).

use othello::Board;
use othello::Color;
use othello::{Dimensions, Square};

use super::position::Listed;

/// The OBF line of an 8x8 position, `board side;` (Edax's form, which [`parse_line`](super::parse_line) reads):
/// `None` for another board size.
#[must_use]
pub fn to_line(board: &Board, to_move: Color) -> Option<String> {
    if board.dims() != Dimensions::STANDARD {
        return None;
    }
    let mut line: String = Dimensions::STANDARD
        .squares()
        .map(|square| match board.at(square) {
            Some(Color::Black) => 'X',
            Some(Color::White) => 'O',
            None => '-',
        })
        .collect();
    line.push(' ');
    line.push(match to_move {
        Color::Black => 'X',
        Color::White => 'O',
    });
    line.push(';');
    Some(line)
}

/// The fields Edax's OBF form writes after `board side;` for what a line lists: each listed
/// move with its score (` G8:+18; H1:+12;`), or the best moves with the score when the line
/// lists no move scores, or the bare score (` +38;`) when it lists no move either.
#[must_use]
pub fn obf_fields(listed: &Listed) -> String {
    let moves: Vec<(Square, i32)> = if listed.moves.is_empty() {
        listed
            .best
            .iter()
            .map(|&square| (square, listed.score))
            .collect()
    } else {
        listed.moves.clone()
    };
    if moves.is_empty() {
        return format!(" {:+};", listed.score);
    }
    let mut text = String::new();
    for (square, score) in moves {
        text.push_str(&format!(
            " {}:{score:+};",
            square.to_string().to_uppercase()
        ));
    }
    text
}
