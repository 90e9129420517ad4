//! OBF / FFO position lines: one 8x8 position per line, `board side` with optional fields
//! after it (read by [`crate::ffo`]: the FFO suite's `[id] board side [empties best score
//! move_scores]`, and Edax's OBF `board side; move:score; ...` with `%` comments). A line holds a
//! position, not a game: it reads as a record with no moves, its listed scores in
//! [`Metadata::listed`], and a record writes as the position after its last move, in Edax's
//! form, with the scores it lists when no move was played since.
//!
//! ```
//! use othello_records::{movelist, obf, ReadOptions};
//!
//! let records = movelist::read("f5d6", &ReadOptions::default())?;
//! let line = obf::write(&records)?;
//! assert_eq!(
//!     line,
//!     "---------------------------OX------OXX-----O-------------------- X;\n"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use othello::Color;
use othello::Dimensions;
use othello::Game;
use othello::RuleSet;
use othello::WinRule;

use crate::error::{RecordError, RecordErrorKind, WriteError, cannot_hold, shown};
use crate::ffo;
use crate::format::Format;
use crate::metadata::Metadata;
use crate::reading::read_text;
use crate::record::GameRecord;
use crate::spec::{FormatSpec, ReadOptions, write_each};
use crate::text::{first_line, line_games};

/// OBF's entry in the table of formats.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Obf,
    name: "obf",
    title: "OBF",
    input: "OBF lines",
    summary: "The position after the last move, one 8x8 OBF line per game",
    positions: true,
    extensions: &["obf"],
    detect: |input| first_line(input).is_some_and(|line| ffo::parse_line(line).is_some()),
    games: |input, options| {
        let rules = options.rules;
        line_games(input, move |line, number| read_line(line, number, rules))
    },
    reads_past_errors: false,
    write: |records| write_each(records, write_game),
    write_game,
};

/// Reads one position per line; blank lines and lines starting with `#` or `%` are skipped.
///
/// # Errors
/// [`RecordError`] for the first line that is not a position, or whose fields are wrong.
pub fn read(text: &str, options: &ReadOptions) -> Result<Vec<GameRecord>, RecordError> {
    read_text(&SPEC, text, *options)
}

/// The position on line `number`, `None` for a blank or comment line.
fn read_line(line: &str, number: usize, rules: RuleSet) -> Option<Result<GameRecord, RecordError>> {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('%') {
        return None;
    }
    let column = line.len() - line.trim_start().len() + 1;
    let error = |column, kind| RecordError::at_text(number, column, kind);
    let position = match ffo::parse_line_at(line) {
        None => {
            return Some(Err(error(
                column,
                RecordErrorKind::Expected {
                    expected: "an OBF line: a 64-cell board (X, O, -) and the side to move",
                    found: shown(trimmed),
                },
            )));
        }
        Some(Err(located)) => {
            return Some(Err(error(
                located.column,
                RecordErrorKind::Obf(located.source),
            )));
        }
        Some(Ok(position)) => position,
    };
    let game = Game::new(position.setup, rules);
    let metadata = Metadata {
        event: position.id,
        listed: position.listed,
        ..Metadata::default()
    };
    Some(Ok(GameRecord::from_position(&game, metadata)))
}

/// Writes the position after the last move of each record, one per line; the side to move of
/// a finished game is the player who did not make the last move.
///
/// # Errors
/// [`WriteError`] for a board other than 8x8, or a game won by the fewest discs.
pub fn write(records: &[GameRecord]) -> Result<String, WriteError> {
    let bytes = write_each(records, write_game)?;
    Ok(String::from_utf8(bytes).expect("text is written as UTF-8"))
}

/// Appends the line of record `index` to `out`.
fn write_game(index: usize, record: &GameRecord, out: &mut Vec<u8>) -> Result<(), WriteError> {
    if record.setup().win == WinRule::FewestDiscs {
        return Err(cannot_hold(
            index,
            Format::Obf,
            "a game won by the fewest discs",
        ));
    }
    let line =
        ffo::to_line(record.final_game().board(), side_to_move(record)).ok_or_else(|| {
            cannot_hold(
                index,
                Format::Obf,
                format!("a {} board: it holds 8x8 positions", record.dims()),
            )
        })?;
    debug_assert!(record.dims() == Dimensions::STANDARD);
    out.extend_from_slice(line.as_bytes());
    if let Some(listed) = record
        .metadata()
        .listed
        .as_ref()
        .filter(|_| record.moves().is_empty())
    {
        out.extend_from_slice(ffo::obf_fields(listed).as_bytes());
    }
    out.push(b'\n');
    Ok(())
}

/// The player to move after the record's last move, or, once the game is over, the player who
/// would have been next (the side a finished game's score is given for).
#[must_use]
pub fn side_to_move(record: &GameRecord) -> Color {
    if let Some(turn) = record.final_game().turn() {
        return turn;
    }
    // Passes are listed, so the moves alternate.
    let first = record.setup().first;
    if record.moves().len().is_multiple_of(2) {
        first
    } else {
        first.opponent()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_ffo_suite() {
        let text = include_str!("../../../fixtures/ffo/ffo-40-59.txt");
        let records = read(text, &ReadOptions::default()).unwrap();
        assert_eq!(records.len(), 20);
        assert_eq!(records[0].metadata().event.as_deref(), Some("40"));
        assert_eq!(records[0].final_game().board().empties(), 20);
        // Written and read again, every position comes back.
        let written = write(&records).unwrap();
        let again = read(&written, &ReadOptions::default()).unwrap();
        for (a, b) in records.iter().zip(&again) {
            assert_eq!(a.setup(), b.setup());
        }
    }

    #[test]
    fn names_the_line_that_is_wrong() {
        let text = format!("% comment\n\n  {} Q\n", "-".repeat(64));
        assert_eq!(
            read(&text, &ReadOptions::default())
                .unwrap_err()
                .to_string(),
            "line 3, column 68: expected the side to move, X or O, found \"Q\""
        );
        assert_eq!(
            read("f5d6\n", &ReadOptions::default())
                .unwrap_err()
                .to_string(),
            "line 1, column 1: expected an OBF line: a 64-cell board (X, O, -) and the side to move, found \"f5d6\""
        );
    }
}
