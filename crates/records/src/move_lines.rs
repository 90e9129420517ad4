//! The move lines after a console-protocol setup, played as the protocol plays them: what the
//! protocol input's reader ([`crate::protocol_input`]) and the FFO problem reader
//! ([`crate::ffo::read_problems`]) share.

use othello::Game;
use othello::Square;
use othello::protocol::parse_move_line;

/// Plays the move lines that follow a setup as the protocol reads them: a line that is a legal
/// `ROW COL` move is played, any other line is skipped (the protocol answers it `INVALID`), and
/// so is every line after the end of the game. Reading stops before the first line `ends`
/// accepts (where another position starts, in an input of several) or at the end of `lines`.
/// Returns the squares played and how many lines were read. Every reader of protocol inputs
/// (the protocol input as a record, `othello solve`'s problems) goes through it.
pub(crate) fn play_move_lines(
    game: &mut Game,
    lines: &[&[u8]],
    ends: impl Fn(&[u8]) -> bool,
) -> (Vec<Square>, usize) {
    let mut squares = Vec::new();
    let mut read = 0;
    for line in lines.iter().take_while(|line| !ends(line)) {
        read += 1;
        if game.is_over() {
            continue;
        }
        if let Some(square) = parse_move_line(line)
            && game.play(square).is_ok()
        {
            squares.push(square);
        }
    }
    (squares, read)
}
