//! The FULL/SIMPLE console protocol as a pure state machine: lines in, transcript text out.
//!
//! A [`Driver`] takes input lines one at a time and appends the exact output each one causes:
//! the banner, then (once the header and grid are read) the turn loop that plays move lines.
//! Nothing here reads or writes a stream, so the same code drives the `othello` binary, the
//! test-case generator and the tests; [`run`] plays a whole input held in memory.

use std::fmt::Write as _;

use thiserror::Error;

use crate::color::Color;
use crate::game::Game;
use crate::rules::RuleSet;
use crate::square::Square;

mod header;

pub use header::{Found, SetupError, SetupErrorKind, SetupField, SetupParser};

/// The longest input line, in bytes without the line ending, that the protocol reads as
/// anything but an error (a setup error in the header, `INVALID` as a move).
pub const MAX_LINE_LEN: usize = 4096;

/// The first line of every transcript: `FULL\n` or `SIMPLE\n`.
#[must_use]
pub fn banner(rules: RuleSet) -> &'static str {
    match rules {
        RuleSet::Full => "FULL\n",
        RuleSet::Simple => "SIMPLE\n",
    }
}

/// Reads a move line: two decimal integers (1-based row, then column) separated by white space,
/// with white space allowed around them. Returns `None` for anything else, including numbers
/// that cannot be a square of any board and lines longer than [`MAX_LINE_LEN`].
#[must_use]
pub fn parse_move_line(line: &[u8]) -> Option<Square> {
    if line.len() > MAX_LINE_LEN {
        return None;
    }
    let text = std::str::from_utf8(line).ok()?;
    let mut fields = text.split_ascii_whitespace();
    let (row, col) = (fields.next()?, fields.next()?);
    if fields.next().is_some() {
        return None;
    }
    let number = |field: &str| -> Option<usize> {
        if !field.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        // Leading zeros do not change the number; more than 4 digits after them is far off
        // any board (and would not fit a usize if long enough).
        let digits = field.trim_start_matches('0');
        if digits.len() > 4 {
            return None;
        }
        digits.parse().ok()
    };
    Square::from_one_based(number(row)?, number(col)?)
}

/// Whether the turn loop wants another move line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    /// The player named in the last `TURN:` line must move.
    AwaitingMove(Color),
    /// The final block has been written; further lines are ignored.
    Over,
}

/// The protocol's turn loop over a [`Game`].
#[derive(Clone, Debug)]
struct TurnLoop {
    game: Game,
}

impl TurnLoop {
    /// Starts the turn loop and appends the first block (a state block, or the final block if
    /// nobody can move).
    fn start(game: Game, out: &mut String) -> TurnLoop {
        let turns = TurnLoop { game };
        turns.write_block(out);
        turns
    }

    /// Whether a move line is wanted.
    fn status(&self) -> Status {
        match self.game.turn() {
            Some(player) => Status::AwaitingMove(player),
            None => Status::Over,
        }
    }

    /// Handles one move line: appends `VALID` and the next block, or `INVALID`. Lines after the
    /// end are ignored and append nothing.
    fn handle_line(&mut self, line: &[u8], out: &mut String) -> Status {
        if self.game.is_over() {
            return Status::Over;
        }
        match parse_move_line(line).map(|square| self.game.play(square)) {
            Some(Ok(_)) => {
                out.push_str("VALID\n");
                self.write_block(out);
            }
            _ => out.push_str("INVALID\n"),
        }
        self.status()
    }

    /// Appends the state block, or the final block once the game is over.
    fn write_block(&self, out: &mut String) {
        let score = self.game.score();
        // Writing to a String cannot fail.
        let _ = writeln!(out, "B: {}  W: {}", score.black, score.white);
        self.game.board().write_grid(out);
        match (self.game.turn(), self.game.outcome()) {
            (Some(player), _) => {
                out.push_str("TURN: ");
                out.push(player.letter());
            }
            (None, Some(outcome)) => {
                out.push_str("WINNER: ");
                out.push_str(outcome.protocol_name());
            }
            (None, None) => unreachable!("a game with no turn is over"),
        }
        out.push('\n');
    }
}

/// Input that ended before the protocol was done with it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EndError {
    /// The header or grid was incomplete (exit status 2).
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The game was still being played (exit status 1).
    #[error("line {line}: input ended before the game was over ({} to move)", .player.letter())]
    GameNotOver {
        /// 1-based number of the line that was missing.
        line: usize,
        /// The player who was to move.
        player: Color,
    },
}

/// What the protocol wants next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Another header or grid line.
    Setup,
    /// A move line for this player.
    AwaitingMove(Color),
    /// Nothing: the final block has been written and later lines are ignored.
    Over,
}

/// The whole protocol, from the banner to the final block, one input line at a time.
///
/// Front ends read a line, call [`Driver::push_line`], write out what it appended, and call
/// [`Driver::finish`] when the input ends.
#[derive(Clone, Debug)]
pub struct Driver {
    rules: RuleSet,
    lines: usize,
    phase: Phase,
}

#[derive(Clone, Debug)]
enum Phase {
    Setup(SetupParser),
    Playing(Box<TurnLoop>),
}

impl Driver {
    /// Starts the protocol and appends the banner.
    pub fn new(rules: RuleSet, out: &mut String) -> Driver {
        out.push_str(banner(rules));
        Driver {
            rules,
            lines: 0,
            phase: Phase::Setup(SetupParser::new()),
        }
    }

    /// What the protocol wants next.
    #[must_use]
    pub fn progress(&self) -> Progress {
        match &self.phase {
            Phase::Setup(_) => Progress::Setup,
            Phase::Playing(turns) => match turns.status() {
                Status::AwaitingMove(player) => Progress::AwaitingMove(player),
                Status::Over => Progress::Over,
            },
        }
    }

    /// The game, once the setup has been read.
    #[must_use]
    pub fn game(&self) -> Option<&Game> {
        match &self.phase {
            Phase::Setup(_) => None,
            Phase::Playing(turns) => Some(&turns.game),
        }
    }

    /// Handles the next input line (without its `\n`) and appends the output it causes.
    ///
    /// # Errors
    /// [`SetupError`] for a malformed header or grid line; the driver should not be used after.
    pub fn push_line(&mut self, line: &[u8], out: &mut String) -> Result<Progress, SetupError> {
        self.lines += 1;
        match &mut self.phase {
            Phase::Setup(parser) => {
                if let Some(setup) = parser.push_line(line)? {
                    self.phase = Phase::Playing(Box::new(TurnLoop::start(
                        Game::new(setup, self.rules),
                        out,
                    )));
                }
            }
            Phase::Playing(turns) => {
                turns.handle_line(line, out);
            }
        }
        Ok(self.progress())
    }

    /// Checks that the input may end here.
    ///
    /// # Errors
    /// [`EndError`] if the setup is incomplete or the game is not over.
    pub fn finish(&self) -> Result<(), EndError> {
        match (&self.phase, self.progress()) {
            (Phase::Setup(parser), _) => Err(parser.end_of_input().into()),
            (_, Progress::AwaitingMove(player)) => Err(EndError::GameNotOver {
                line: self.lines + 1,
                player,
            }),
            _ => Ok(()),
        }
    }
}

/// The lines of `input`: split at `\n`, without a last empty piece after a final `\n`.
pub fn lines(input: &[u8]) -> impl Iterator<Item = &[u8]> {
    let input = input.strip_suffix(b"\n").unwrap_or(input);
    input
        .split(|&b| b == b'\n')
        .filter(move |_| !input.is_empty())
}

/// Plays a whole input through the protocol, stopping where the protocol stops reading.
/// Returns the transcript (standard output) and how the input ended.
pub fn run(rules: RuleSet, input: &[u8]) -> (String, Result<(), EndError>) {
    let mut out = String::new();
    let mut driver = Driver::new(rules, &mut out);
    for line in lines(input) {
        match driver.push_line(line, &mut out) {
            Ok(Progress::Over) => return (out, Ok(())),
            Ok(_) => {}
            Err(error) => return (out, Err(error.into())),
        }
    }
    let end = driver.finish();
    (out, end)
}

/// What made the protocol print a line of its transcript.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// Nothing: the banner comes before any input is read.
    Start,
    /// The last line of the setup, input line `lines` (the header and grid).
    Setup {
        /// The number of setup lines.
        lines: usize,
    },
    /// The move line at this 1-based input line.
    Move {
        /// 1-based input line.
        line: usize,
    },
}

/// For each line of the transcript [`run`] prints for `input`, the input line behind it: the
/// one the protocol had just read when it printed that line.
#[must_use]
pub fn trace(rules: RuleSet, input: &[u8]) -> Vec<Cause> {
    let mut out = String::new();
    let mut driver = Driver::new(rules, &mut out);
    let mut causes = vec![Cause::Start; out.matches('\n').count()];
    for line in lines(input) {
        let setup = matches!(driver.phase, Phase::Setup(_));
        let before = out.len();
        let progress = driver.push_line(line, &mut out);
        let cause = if setup {
            Cause::Setup {
                lines: driver.lines,
            }
        } else {
            Cause::Move { line: driver.lines }
        };
        causes.extend(std::iter::repeat_n(
            cause,
            out[before..].matches('\n').count(),
        ));
        if !matches!(progress, Ok(Progress::Setup | Progress::AwaitingMove(_))) {
            break;
        }
    }
    causes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traces_each_output_line_to_its_input_line() {
        let input = b"4\n4\nB\n>\n. . . .\n. W B .\n. B W .\n. . . .\n9 9\n1 2\n";
        let (transcript, _) = run(RuleSet::Full, input);
        let causes = trace(RuleSet::Full, input);
        assert_eq!(causes.len(), transcript.lines().count());
        let setup = Cause::Setup { lines: 8 };
        let mut expected = vec![Cause::Start];
        expected.extend([setup; 6]);
        expected.push(Cause::Move { line: 9 });
        expected.extend([Cause::Move { line: 10 }; 7]);
        assert_eq!(causes, expected);
    }

    #[test]
    fn move_lines() {
        assert_eq!(parse_move_line(b"2 4"), Some(Square::new(1, 3)));
        assert_eq!(parse_move_line(b"  16   16 \r"), Some(Square::new(15, 15)));
        assert_eq!(parse_move_line(b"0016 1"), Some(Square::new(15, 0)));
        assert_eq!(parse_move_line(b"00004 000000002"), Some(Square::new(3, 1)));
        for bad in [
            &b""[..],
            b" ",
            b"1",
            b"1 2 3",
            b"0 1",
            b"0000 1",
            b"17 1",
            b"00017 1",
            b"-1 2",
            b"+1 2",
            b"a b",
            b"1,2",
            b"\xff 1",
            b"99999999999999999999 1",
        ] {
            assert_eq!(
                parse_move_line(bad),
                None,
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }
}
