//! GGF, the Generic Game Format of the GGS server (`NBoard` reads and writes it too):
//! `(;GM[Othello]PC[place]DT[date]PB[black]PW[white]RE[+12.000]TI[5:00]TY[8]BO[8 ... *]B[f5]W[d6]...;)`.
//!
//! Properties read: `GM` (must be Othello), `PC` (the place or event), `DT`, `PB`, `PW`, `RE`
//! (black's margin, kept as written), `TY` (the board type, see [`BoardType`]: its size, and
//! `a` for "anti": fewest discs wins), `BO` (the starting board: the side, then the cells row by
//! row, `-` empty, `*` black, `O` white, then the side to move, `*` or `O`; it is authoritative,
//! so random starts and synchro games need nothing else), and the moves `B[..]` and `W[..]`. A
//! move may carry an evaluation and a time after slashes (`B[f5/1.23/0.5]`), which are ignored,
//! and a pass is `PA` (or `pass`); a colour that moves twice in a row means the other passed.
//! Every other property (`TY` as written when it says more than the size and `a`, `KB`, `KW`,
//! `KM`, `TI`, `RB`, `RW`, comments `C[..]`, ...) is kept in [`Metadata::properties`](crate::Metadata::properties) and
//! written back; a comment `C[WTHOR ...]` written
//! by [`crate::wthor::comment`] gives back the WTHOR numbers of the game. Anything between games
//! is skipped; a file holds any number of games, and [`crate::games()`] reads each on its own.
//! `RU[SIMPLE]` marks a game under the SIMPLE rules (a property of this crate; GGS has only
//! the FULL rules). GGF boards are square.

mod board_type;
mod cursor;
mod reader;
mod writer;

#[cfg(test)]
mod tests;

use crate::error::{RecordError, WriteError};
use crate::format::Format;
use crate::reading::read_text;
use crate::record::GameRecord;
use crate::spec::{FormatSpec, ReadOptions, write_each};
use crate::text::decode;

use cursor::Cursor;
use reader::next_game;
use writer::write_game;

pub use board_type::BoardType;
pub use writer::game;

/// GGF's entry in the table of formats.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Ggf,
    name: "ggf",
    title: "GGF",
    input: "GGF",
    summary: "The Generic Game Format (GGS, `NBoard`)",
    positions: false,
    extensions: &["ggf"],
    detect: |input| input.windows(2).any(|pair| pair == b"(;"),
    games: |input, _| {
        let text = decode(input);
        let (mut offset, mut line, mut column) = (0, 1, 1);
        Box::new(std::iter::from_fn(move || {
            let mut cursor = Cursor::at(&text, offset, line, column);
            let game = next_game(&mut cursor);
            (offset, line, column) = (cursor.offset, cursor.line, cursor.column);
            game
        }))
    },
    reads_past_errors: true,
    write: |records| write_each(records, write_game),
    write_game,
};

/// Reads every game of a GGF file.
///
/// # Errors
/// [`RecordError`] with the line and column of the first property that is wrong, of a move
/// that cannot be played, or of the place where a game is cut short.
pub fn read(text: &str) -> Result<Vec<GameRecord>, RecordError> {
    read_text(&SPEC, text, ReadOptions::default())
}

/// Writes every game, one per line.
///
/// # Errors
/// [`WriteError`] for a game on a board that is not square.
pub fn write(records: &[GameRecord]) -> Result<String, WriteError> {
    let bytes = write_each(records, write_game)?;
    Ok(String::from_utf8(bytes).expect("text is written as UTF-8"))
}
