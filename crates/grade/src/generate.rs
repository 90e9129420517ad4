//! Test cases for the console protocol: random games and their exact transcripts.
//!
//! A [`Generator`] turns a seed and [`Options`] into [`Case`]s: the text a grader pipes into a
//! protocol program, and the text that program must print, computed by [`othello::protocol::run`]
//! (the code the `othello` binary runs). Case `i` depends only on the seed, the options and `i`
//! (its random numbers come from stream `i` of a `ChaCha8` generator keyed by the seed), so cases
//! can be made in any order, in parallel, and are the same on every machine.
//!
//! Every input is well-formed per the protocol: the header, the start position, then move lines
//! `ROW COL` until the game is over. The game is played to its end by uniformly chosen legal
//! moves; before each move, with probability [`Options::invalid_rate`] per line (at most
//! [`MAX_INVALID_RUN`] times in a row), an invalid attempt is sent instead (an occupied cell, an
//! empty cell that captures nothing, or a number outside the board such as `0`, one past the
//! last row or column, or `99`).
//!
//! ```
//! use othello_grade::generate::{Generator, Options};
//!
//! let generator = Generator::new(7, Options::default())?;
//! let case = generator.case(0);
//! let (transcript, end) = othello::protocol::run(othello::RuleSet::Full, case.input.as_bytes());
//! assert_eq!(transcript, case.output);
//! assert!(end.is_ok());
//! # Ok::<(), othello_grade::generate::InvalidRateError>(())
//! ```

mod positions;

use std::fmt;
use std::fmt::Write as _;
use std::str::FromStr;

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use thiserror::Error;

use othello::Board;
use othello::Color;
use othello::Game;
use othello::RuleSet;
use othello::{Dimensions, MAX_SIDE, MIN_SIDE, Square};
use othello::{Setup, WinRule};

use positions::{already_over, first_player_passes, scattered};

/// The range of board sides cases are drawn from: even numbers from `min` to `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sizes {
    min: u8,
    max: u8,
}

impl Sizes {
    /// Every supported side, 4 to 16.
    pub const ALL: Sizes = Sizes {
        min: MIN_SIDE as u8,
        max: MAX_SIDE as u8,
    };

    /// The even sides from `min` to `max`, both included.
    ///
    /// # Errors
    /// [`SizesError`] if either side is odd or outside 4..=16, or `min` is above `max`.
    pub fn new(min: usize, max: usize) -> Result<Sizes, SizesError> {
        for side in [min, max] {
            if !Dimensions::side_ok(side) {
                return Err(SizesError::Side { side });
            }
        }
        if min > max {
            return Err(SizesError::Reversed { min, max });
        }
        Ok(Sizes {
            min: min as u8,
            max: max as u8,
        })
    }

    /// The smallest side.
    #[must_use]
    pub fn min(self) -> usize {
        self.min.into()
    }

    /// The largest side.
    #[must_use]
    pub fn max(self) -> usize {
        self.max.into()
    }

    /// Draws one side, uniformly among the even numbers in range.
    fn pick(self, rng: &mut impl Rng) -> usize {
        let choices = u32::from((self.max - self.min) / 2 + 1);
        self.min() + 2 * rng.random_range(0..choices) as usize
    }
}

impl fmt::Display for Sizes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.min, self.max)
    }
}

impl FromStr for Sizes {
    type Err = SizesError;

    /// Accepts `MIN..MAX`, `MIN..=MAX` (both included either way) or a single side `N`.
    fn from_str(text: &str) -> Result<Sizes, SizesError> {
        let syntax = || SizesError::Syntax {
            found: text.to_owned(),
        };
        let side = |field: &str| field.trim().parse::<usize>().map_err(|_| syntax());
        if let Some((min, max)) = text.split_once("..") {
            let max = max.strip_prefix('=').unwrap_or(max);
            Sizes::new(side(min)?, side(max)?)
        } else {
            let side = side(text)?;
            Sizes::new(side, side)
        }
    }
}

/// A range of board sides that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SizesError {
    /// The text is not `MIN..MAX` or `N`.
    #[error("expected board sides as MIN..MAX or N (like 4..16 or 8), found {found:?}")]
    Syntax {
        /// The text given.
        found: String,
    },
    /// A side is odd or outside 4..=16.
    #[error("a board side must be an even number from 4 to 16, found {side}")]
    Side {
        /// The side given.
        side: usize,
    },
    /// The smallest side is above the largest.
    #[error("the smallest side {min} is above the largest {max}")]
    Reversed {
        /// The first side given.
        min: usize,
        /// The second side given.
        max: usize,
    },
}

/// Which start positions cases use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Start {
    /// Always the standard four-disc opening.
    Standard,
    /// Always a random position (see [`StartKind`]).
    Random,
    /// Half standard openings, half random positions.
    #[default]
    Mixed,
}

/// The kind of start position a case was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StartKind {
    /// The standard four-disc opening.
    Standard,
    /// Discs scattered at random, at a random density and colour balance.
    Scattered,
    /// A random position where the first player has no move but the other player has one, so
    /// the first block already names the other player.
    FirstPlayerPasses,
    /// A random position where neither player can move, so the transcript is the final block.
    AlreadyOver,
}

/// What cases to make.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// The rule set the transcripts are played under.
    pub rules: RuleSet,
    /// The sides rows and columns are drawn from (independently, unless `square_only`).
    pub sizes: Sizes,
    /// Only square boards.
    pub square_only: bool,
    /// The chance that a move line sent is an invalid attempt, from 0 (none) up to but not
    /// including 1; on average each legal move is preceded by `rate / (1 - rate)` invalid ones,
    /// and never by more than [`MAX_INVALID_RUN`].
    pub invalid_rate: f64,
    /// Which start positions to use.
    pub start: Start,
}

impl Default for Options {
    /// FULL rules, every size, rectangular boards, 10% invalid attempts, mixed starts.
    fn default() -> Options {
        Options {
            rules: RuleSet::Full,
            sizes: Sizes::ALL,
            square_only: false,
            invalid_rate: 0.1,
            start: Start::Mixed,
        }
    }
}

/// An invalid-attempt rate outside `0 <= rate < 1`.
#[derive(Clone, Copy, Debug, PartialEq, Error)]
#[error("the invalid-attempt rate must be at least 0 and below 1, found {rate}")]
pub struct InvalidRateError {
    /// The rate given.
    pub rate: f64,
}

/// One test case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// What the grader sends: header, start position and move lines, each ending in `\n`.
    pub input: String,
    /// What a correct program prints for `input`, byte for byte.
    pub output: String,
    /// The kind of start position.
    pub kind: StartKind,
}

/// Makes the cases of one seed and set of options.
#[derive(Clone, Debug)]
pub struct Generator {
    seed: u64,
    options: Options,
}

impl Generator {
    /// A generator for `seed` and `options`.
    ///
    /// # Errors
    /// [`InvalidRateError`] unless `0 <= options.invalid_rate < 1`.
    pub fn new(seed: u64, options: Options) -> Result<Generator, InvalidRateError> {
        let rate = options.invalid_rate;
        if !(0.0..1.0).contains(&rate) {
            return Err(InvalidRateError { rate });
        }
        Ok(Generator { seed, options })
    }

    /// The options in force.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Case number `index`: the same for the same seed, options and index, whatever other cases
    /// are made.
    #[must_use]
    pub fn case(&self, index: u64) -> Case {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_stream(index);
        let rng = &mut rng;

        let options = &self.options;
        let rows = options.sizes.pick(rng);
        let cols = if options.square_only {
            rows
        } else {
            options.sizes.pick(rng)
        };
        let dims = Dimensions::new(rows, cols).expect("Sizes holds supported sides only");
        let first = if rng.random_bool(0.5) {
            Color::Black
        } else {
            Color::White
        };
        let win = if rng.random_bool(0.5) {
            WinRule::MostDiscs
        } else {
            WinRule::FewestDiscs
        };
        let kind = pick_kind(options.start, rng);
        let board = match kind {
            StartKind::Standard => Board::standard(dims),
            StartKind::Scattered => scattered(dims, rng),
            StartKind::FirstPlayerPasses => first_player_passes(dims, first, options.rules, rng),
            StartKind::AlreadyOver => already_over(dims, options.rules, rng),
        };
        let setup = Setup { board, first, win };
        let input = play_out(setup, options.rules, options.invalid_rate, rng);
        let (output, end) = othello::protocol::run(options.rules, input.as_bytes());
        debug_assert!(end.is_ok(), "a generated game is played to its end");
        Case {
            input,
            output,
            kind,
        }
    }
}

fn pick_kind(start: Start, rng: &mut impl Rng) -> StartKind {
    match start {
        Start::Standard => StartKind::Standard,
        Start::Mixed if rng.random_bool(0.5) => StartKind::Standard,
        Start::Random | Start::Mixed => match rng.random_range(0..10u32) {
            0..=5 => StartKind::Scattered,
            6..=7 => StartKind::FirstPlayerPasses,
            _ => StartKind::AlreadyOver,
        },
    }
}

/// A number from 0 to `n - 1`.
fn below(rng: &mut impl Rng, n: usize) -> usize {
    rng.random_range(0..n as u32) as usize
}

/// The most invalid attempts before one move, so that a rate close to 1 still ends (a run this
/// long at the default rate of 0.1 has a chance of 10^-100).
pub const MAX_INVALID_RUN: usize = 100;

/// The input text: the setup, then move lines until the game is over, with invalid attempts.
fn play_out(setup: Setup, rules: RuleSet, invalid_rate: f64, rng: &mut impl Rng) -> String {
    let mut input = setup.to_protocol();
    let mut game = Game::new(setup, rules);
    while game.turn().is_some() {
        let mut run = 0;
        while run < MAX_INVALID_RUN && invalid_rate > 0.0 && rng.random_bool(invalid_rate) {
            run += 1;
            let (row, col) = invalid_attempt(&game, rng);
            let _ = writeln!(input, "{row} {col}");
        }
        let moves = game.legal_moves();
        let square = moves[below(rng, moves.len())];
        game.play(square).expect("a legal move plays");
        let _ = writeln!(input, "{} {}", square.row() + 1, square.col() + 1);
    }
    input
}

/// A move line (1-based row and column) the player to move cannot play: an occupied cell, an
/// empty cell that captures nothing, or a number off the board.
fn invalid_attempt(game: &Game, rng: &mut impl Rng) -> (usize, usize) {
    let board = game.board();
    let dims = board.dims();
    let (mut occupied, mut idle) = (Vec::new(), Vec::new());
    for square in dims.squares() {
        match board.get(square) {
            Ok(Some(_)) => occupied.push(square),
            _ if !game.is_legal(square) => idle.push(square),
            _ => {}
        }
    }
    let one_based = |square: Square| (square.row() + 1, square.col() + 1);
    match rng.random_range(0..3u32) {
        0 if !occupied.is_empty() => one_based(occupied[below(rng, occupied.len())]),
        1 if !idle.is_empty() => one_based(idle[below(rng, idle.len())]),
        _ => {
            let (rows, cols) = (dims.rows(), dims.cols());
            let row = 1 + below(rng, rows);
            let col = 1 + below(rng, cols);
            match rng.random_range(0..6u32) {
                0 => (0, col),
                1 => (row, 0),
                2 => (rows + 1, col),
                3 => (row, cols + 1),
                4 => (99, col),
                _ => (row, 99),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!("4..16".parse(), Ok(Sizes::ALL));
        assert_eq!("6..=10".parse(), Sizes::new(6, 10));
        assert_eq!(" 8 ".parse(), Sizes::new(8, 8));
        assert_eq!("5..8".parse::<Sizes>(), Err(SizesError::Side { side: 5 }));
        assert_eq!(
            "10..6".parse::<Sizes>(),
            Err(SizesError::Reversed { min: 10, max: 6 })
        );
        assert_eq!(
            "4-16".parse::<Sizes>(),
            Err(SizesError::Syntax {
                found: "4-16".into()
            })
        );
        assert_eq!(Sizes::ALL.to_string(), "4..16");
    }

    #[test]
    fn rejects_rates_outside_zero_to_one() {
        for rate in [-0.1, 1.0, 2.0, f64::NAN] {
            let options = Options {
                invalid_rate: rate,
                ..Options::default()
            };
            assert!(Generator::new(0, options).is_err(), "{rate}");
        }
    }

    #[test]
    fn sides_cover_the_range() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let sizes = Sizes::new(6, 10).unwrap();
        let mut seen = [false; 17];
        for _ in 0..200 {
            seen[sizes.pick(&mut rng)] = true;
        }
        let seen: Vec<usize> = (0..17).filter(|&s| seen[s]).collect();
        assert_eq!(seen, vec![6, 8, 10]);
    }
}
