//! Positions to solve from an input that mixes FFO lines and console-protocol setups
//! ([`read_problems`]).

use thiserror::Error;

use othello::Game;
use othello::RuleSet;
use othello::protocol::{self, SetupError, SetupParser};

use super::parse::{FfoError, parse_line, parse_line_at};
use super::position::Listed;
use crate::move_lines::play_move_lines;

/// A position to solve, from an input that mixes FFO lines and protocol setups.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The FFO line's id, if it has one.
    pub id: Option<String>,
    /// 1-based input line where the position starts.
    pub line: usize,
    /// The position (FFO lines are always under the FULL rules).
    pub game: Game,
    /// The result the FFO line lists, if any.
    pub listed: Option<Listed>,
}

/// A line of a problem input that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProblemError {
    /// A protocol setup is malformed (its error names the input line).
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// An FFO line is malformed.
    #[error("line {line}, column {column}: {source}")]
    Ffo {
        /// 1-based input line.
        line: usize,
        /// 1-based column, in characters, of the token at fault.
        column: usize,
        /// What is wrong.
        source: FfoError,
    },
}

/// Reads every position of `input`: FFO lines, and protocol setups (header and grid) played
/// under `rules`, in any mix. Blank lines and lines starting with `#` are skipped. A setup may
/// be followed by the protocol's move lines (`ROW COL`, 1-based): the position is then the one
/// after those moves, and lines the protocol would answer `INVALID` are skipped, as a protocol
/// input reads as a game record.
///
/// # Errors
/// [`ProblemError`] for the first malformed FFO line or setup, naming its input line.
pub fn read_problems(input: &[u8], rules: RuleSet) -> Result<Vec<Problem>, ProblemError> {
    let lines: Vec<&[u8]> = protocol::lines(input)
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
        .collect();
    let mut problems = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let text = String::from_utf8_lossy(lines[i]);
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('%') {
            i += 1;
            continue;
        }
        if let Some(result) = parse_line_at(&text) {
            let position = result.map_err(|error| ProblemError::Ffo {
                line: i + 1,
                column: error.column,
                source: error.source,
            })?;
            problems.push(Problem {
                line: i + 1,
                game: position.game(),
                id: position.id,
                listed: position.listed,
            });
            i += 1;
            continue;
        }
        let start = i;
        let mut parser = SetupParser::new();
        let shifted = |error: SetupError| SetupError {
            line: error.line + start,
            kind: error.kind,
        };
        let setup = loop {
            let Some(line) = lines.get(i) else {
                return Err(shifted(parser.end_of_input()).into());
            };
            i += 1;
            if let Some(setup) = parser.push_line(line).map_err(shifted)? {
                break setup;
            }
        };
        let mut game = Game::new(setup, rules);
        // Move lines as the protocol reads them, up to the start of the next position.
        let (_, read) = play_move_lines(&mut game, &lines[i..], |line| {
            let text = String::from_utf8_lossy(line);
            let trimmed = text.trim();
            let rows = !trimmed.is_empty() && trimmed.bytes().all(|b| b.is_ascii_digit());
            rows || parse_line(trimmed).is_some()
        });
        i += read;
        problems.push(Problem {
            id: None,
            line: start + 1,
            game,
            listed: None,
        });
    }
    Ok(problems)
}
