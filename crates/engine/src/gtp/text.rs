//! The words of GTP: a command line cleaned and its arguments read, a response written, a
//! vertex and the board of `showboard` as GTP shows them.

use std::time::Duration;

use othello::Game;
use othello::{Color, Square};

use super::Response;

/// The board for `showboard`: `X` black, `O` white, `.` empty, with the coordinates, the
/// disc counts and whose turn it is.
pub(super) fn board_text(game: &Game) -> String {
    let board = game.board();
    let dims = board.dims();
    let mut letters = String::new();
    for col in 0..dims.cols() {
        letters.push(' ');
        letters.push(Square::new(0, col).file_letter().to_ascii_uppercase());
    }
    let mut text = format!("  {letters}\n");
    for row in 0..dims.rows() {
        text.push_str(&format!("{:>2}", row + 1));
        for col in 0..dims.cols() {
            let cell = match board.get(Square::new(row, col)) {
                Ok(Some(Color::Black)) => 'X',
                Ok(Some(Color::White)) => 'O',
                _ => '.',
            };
            text.push(' ');
            text.push(cell);
        }
        text.push_str(&format!(" {}\n", row + 1));
    }
    text.push_str(&format!("  {letters}\n"));
    let score = game.score();
    let turn = match game.turn() {
        Some(turn) => format!("{turn} to move"),
        None => "game over".to_owned(),
    };
    text.push_str(&format!(
        "Black (X) {} - {} White (O), {turn}",
        score.black, score.white
    ));
    text
}

/// A vertex as GTP writes it: `D3`.
pub(super) fn vertex_text(square: Square) -> String {
    square.to_string().to_ascii_uppercase()
}

/// The line as GTP reads it: control characters other than tab dropped, tabs made spaces,
/// and anything from `#` on (a comment) removed.
pub(super) fn clean(line: &str) -> String {
    let line = line.split('#').next().unwrap_or("");
    line.chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

pub(super) fn respond(id: Option<&str>, result: Result<String, String>) -> Response {
    let (mark, text) = match result {
        Ok(text) => ('=', text),
        Err(text) => ('?', text),
    };
    Response {
        text: format!("{mark}{} {text}\n\n", id.unwrap_or("")),
        quit: false,
    }
}

pub(super) fn one<'a>(args: &[&'a str], what: &str) -> Result<&'a str, String> {
    match args {
        [arg] => Ok(arg),
        _ => Err(format!("syntax error: expected {what}")),
    }
}

pub(super) fn read_color(text: &str) -> Result<Color, String> {
    text.parse::<Color>()
        .map_err(|_| format!("syntax error: expected a color (black or white), found {text:?}"))
}

pub(super) fn seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|seconds| seconds.is_finite() && *seconds >= 0.0 && *seconds < 1e9)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("syntax error: expected a time in seconds, found {text:?}"))
}
