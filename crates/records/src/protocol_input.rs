//! The console protocol's input as a record: the header (rows, columns, first player, win
//! rule), the grid, then one `ROW COL` line per move (1-based). A record written this way is a
//! test input for the protocol; a protocol input reads as the game the protocol plays from it.
//!
//! The input names no rule set (the program takes it as an option): the reader is told which
//! one, by [`ReadOptions::rules`]. Lines the protocol answers `INVALID` (not a move, or not a
//! legal one) are skipped, as the program skips them, and so are the lines after the end of the
//! game; a pass has no line, because the protocol passes by itself.
//!
//! ```
//! use othello_records::{protocol_input, ReadOptions};
//!
//! let text = "4\n4\nB\n>\n. . . .\n. W B .\n. B W .\n. . . .\n1 2\n";
//! let record = protocol_input::read(text, &ReadOptions::default())?;
//! assert_eq!(record.squares().next().unwrap().to_string(), "b1");
//! assert_eq!(protocol_input::write(&record), text);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use othello::Game;
use othello::protocol::{SetupError, SetupParser, lines};

use crate::error::{RecordError, RecordErrorKind, WriteError, cannot_hold};
use crate::format::Format;
use crate::metadata::Metadata;
use crate::move_lines::play_move_lines;
use crate::record::{GameRecord, RecordMove};
use crate::spec::{FormatSpec, ReadOptions};
use crate::text::{decode, first_line};

/// The protocol input's entry in the table of formats.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Protocol,
    name: "protocol",
    title: "the protocol input",
    input: "a protocol input",
    summary: "The console protocol's input: a test case for `othello` (one game)",
    positions: true,
    extensions: &["in"],
    detect: |input| first_line(input).is_some_and(|line| line.bytes().all(|b| b.is_ascii_digit())),
    games: |input, options| Box::new(std::iter::once(read(&decode(input), options))),
    reads_past_errors: false,
    write: |records| match records {
        [record] => Ok(write(record).into_bytes()),
        _ => Err(WriteError {
            game: 2,
            format: Format::Protocol,
            what: format!("{} games: it holds one", records.len()),
        }),
    },
    write_game: |index, record, out| {
        if index > 0 {
            return Err(cannot_hold(
                index,
                Format::Protocol,
                "a second game: it holds one",
            ));
        }
        out.extend_from_slice(write(record).as_bytes());
        Ok(())
    },
};

/// Reads the game the protocol plays from `text`.
///
/// # Errors
/// [`RecordError`] for a header or grid line that is wrong (or missing), at the line's first
/// column.
pub fn read(text: &str, options: &ReadOptions) -> Result<GameRecord, RecordError> {
    let mut parser = SetupParser::new();
    let mut setup = None;
    let mut all = lines(text.as_bytes());
    for line in all.by_ref() {
        if let Some(done) = parser.push_line(line).map_err(setup_error)? {
            setup = Some(done);
            break;
        }
    }
    let setup = setup.ok_or_else(|| setup_error(parser.end_of_input()))?;
    let mut game = Game::new(setup, options.rules);
    let rest: Vec<&[u8]> = all.collect();
    let (squares, _) = play_move_lines(&mut game, &rest, |_| false);
    Ok(GameRecord::new(
        setup,
        options.rules,
        squares.into_iter().map(RecordMove::Play),
        Metadata::default(),
    )
    .expect("the moves were played above"))
}

fn setup_error(error: SetupError) -> RecordError {
    RecordError::at_text(error.line, 1, RecordErrorKind::Setup(error.kind))
}

/// The protocol input for a record: header, grid and one `ROW COL` line per disc placed.
#[must_use]
pub fn write(record: &GameRecord) -> String {
    let mut text = record.setup().to_protocol();
    for square in record.squares() {
        text.push_str(&format!("{} {}\n", square.row() + 1, square.col() + 1));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::RuleSet;

    #[test]
    fn reads_the_game_the_protocol_plays() {
        let text = "4\n4\nB\n>\n. . . .\n. W B .\n. B W .\n. . . .\nnonsense\n1 1\n1 2\n";
        let record = read(text, &ReadOptions::default()).unwrap();
        assert_eq!(record.moves().len(), 1);
        let simple = ReadOptions {
            rules: RuleSet::Simple,
        };
        // Under SIMPLE rules a1 is a legal move (b2 is a neighbour), so both moves count.
        assert_eq!(read(text, &simple).unwrap().moves().len(), 2);
    }

    #[test]
    fn names_the_setup_line_that_is_wrong() {
        let error = |text: &str| read(text, &ReadOptions::default()).unwrap_err().to_string();
        assert_eq!(
            error("4\n5\n"),
            "line 2, column 1: expected the number of columns, an even integer from 4 to 16, found \"5\""
        );
        assert_eq!(
            error("4\n4\nB\n>\n. . . .\n"),
            "line 6, column 1: input ended where row 2 of the board was expected"
        );
    }
}
