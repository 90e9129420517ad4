//! The computer player: strength levels over the search engine, and the opening book.
//!
//! From level 3 up the computer plays from the built-in opening book ([`crate::book`]) on
//! 8x8 under the FULL rules while the position is in it (a move within [`BOOK_MARGIN`] of the
//! book's best, drawn with the computer's seed), and searches elsewhere; levels 1 and 2 are
//! meant to be weak and never use it. [`Computer::with_book`] sets another book, or none.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use othello_engine::computer::{Computer, Level};
//! use othello::{Dimensions, Game, RuleSet, Setup};
//!
//! let game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
//! let mut computer = Computer::new(Level::new(2).unwrap(), 7);
//! let choice = computer.choose(&game, &AtomicBool::new(false))?;
//! assert!(game.is_legal(choice.square));
//! # Ok::<(), othello_engine::EngineError>(())
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use crate::book::Book;
use crate::{Engine, EngineConfig, EngineError, Limits, SearchReport};
use othello::Color;
use othello::Game;
use othello::Square;

/// How strongly (and how slowly) the computer plays, from 1 (weakest) to [`Level::MAX`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The strongest level.
    pub const MAX: Level = Level(6);
    /// A medium level, for a friendly game.
    pub const DEFAULT: Level = Level(3);
    /// The level hints are given at: strong, and free of time limits so that it is repeatable.
    pub const HINT: Level = Level(5);

    /// Level `number`, if it exists.
    #[must_use]
    pub const fn new(number: u8) -> Option<Level> {
        if number >= Level::MIN.0 && number <= Level::MAX.0 {
            Some(Level(number))
        } else {
            None
        }
    }

    /// The level's number.
    #[must_use]
    pub const fn number(self) -> u8 {
        self.0
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (Level::MIN.0..=Level::MAX.0).map(Level)
    }

    /// How this level plays.
    #[must_use]
    pub const fn profile(self) -> Profile {
        PROFILES[self.0 as usize - 1]
    }

    /// Whether the computer at this level plays from the opening book by default: from level 3
    /// up (levels 1 and 2 are meant to be weak).
    #[must_use]
    pub const fn uses_book(self) -> bool {
        self.0 >= 3
    }
}

/// How far below the book's best move, in discs, a move the computer plays from the book may
/// be: the moves within it are drawn with the computer's seed, so that games vary.
pub const BOOK_MARGIN: i32 = 1;

/// What a level means: how deep it searches, when it solves the end exactly, how often it
/// plays a random move instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Plies searched before the end is in reach.
    pub depth: u32,
    /// With at most this many empty squares, the rest of the game is solved exactly.
    pub exact_empties: u32,
    /// Searches stop after about this many positions, so that a move takes about the same
    /// time on every board size and rule set (and the same moves on every machine).
    pub nodes: u64,
    /// Per mille of moves played at random, to make the weaker levels beatable.
    pub random_per_mille: u32,
    /// A wall-clock limit per move, for the levels that may otherwise think too long; only
    /// these levels can play differently on a slower machine.
    pub time: Option<std::time::Duration>,
    /// A move's share of the clock: the search deepens while the next iteration is expected
    /// to end within it ([`Limits::target`]).
    pub target: Option<std::time::Duration>,
}

const PROFILES: [Profile; Level::MAX.0 as usize] = [
    Profile {
        depth: 1,
        exact_empties: 0,
        nodes: 10_000,
        random_per_mille: 300,
        time: None,
        target: None,
    },
    Profile {
        depth: 2,
        exact_empties: 8,
        nodes: 100_000,
        random_per_mille: 100,
        time: None,
        target: None,
    },
    Profile {
        depth: 4,
        exact_empties: 12,
        nodes: 1_000_000,
        random_per_mille: 0,
        time: None,
        target: None,
    },
    Profile {
        depth: 6,
        exact_empties: 14,
        nodes: 4_000_000,
        random_per_mille: 0,
        time: None,
        target: None,
    },
    Profile {
        depth: 8,
        exact_empties: 16,
        nodes: 10_000_000,
        random_per_mille: 0,
        time: None,
        target: None,
    },
    // The strongest level plays by the clock: it deepens while the next iteration is expected
    // to end within its share of about 3 s a move, and stops an iteration under way at 10 s
    // (or 300 M nodes, on a much faster machine). It plays deeper on an idle or fast machine
    // than on a busy one; the lower levels play the same everywhere.
    Profile {
        depth: 60,
        exact_empties: 20,
        nodes: 300_000_000,
        random_per_mille: 0,
        time: Some(std::time::Duration::from_secs(10)),
        target: Some(std::time::Duration::from_secs(3)),
    },
];

impl Profile {
    /// The search limits for `game`: exact when few enough squares are empty, else the depth.
    #[must_use]
    pub fn limits(&self, game: &Game) -> Limits {
        let empties = game.board().empties();
        Limits {
            depth: (empties > self.exact_empties).then_some(self.depth),
            nodes: Some(self.nodes),
            time: self.time,
            target: self.target,
            floor: None,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A level that does not exist.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "expected a computer level from {} to {}, found {found:?}",
    Level::MIN,
    Level::MAX
)]
pub struct ParseLevelError {
    /// The text that was not a level.
    pub found: String,
}

impl FromStr for Level {
    type Err = ParseLevelError;

    fn from_str(text: &str) -> Result<Level, ParseLevelError> {
        text.trim()
            .parse()
            .ok()
            .and_then(Level::new)
            .ok_or_else(|| ParseLevelError {
                found: text.to_owned(),
            })
    }
}

/// A move the computer chose, and the search behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComputerMove {
    /// The square to play.
    pub square: Square,
    /// The engine's report, or `None` for a move played at random. For a book move: the
    /// book's value of the move, the depth of the search that scored the position it leads
    /// to, the book's line from it, and no nodes.
    pub report: Option<SearchReport>,
    /// Whether the move comes from the opening book.
    pub book: bool,
}

/// A computer player: a search engine, a level, a seeded random source (so that the same
/// seed replays the same game) and an opening book.
pub struct Computer {
    engine: Engine,
    level: Level,
    rng: ChaCha8Rng,
    book: Option<Arc<Book>>,
}

impl Computer {
    /// A player at `level`; `seed` decides its random moves and which book move it plays
    /// among equals. It uses the built-in book if its level does ([`Level::uses_book`]).
    #[must_use]
    pub fn new(level: Level, seed: u64) -> Computer {
        let config = EngineConfig {
            hash_mb: 16,
            threads: 1,
            seed,
        };
        Computer {
            engine: Engine::new(config),
            level,
            rng: ChaCha8Rng::seed_from_u64(seed),
            book: level.uses_book().then(Book::builtin),
        }
    }

    /// The same player with `book` as its opening book, or none: `with_book(None)` turns the
    /// book off, `with_book(Some(Book::builtin()))` turns it on at any level.
    ///
    /// ```
    /// use othello_engine::book::Book;
    /// use othello_engine::computer::{Computer, Level};
    ///
    /// let searching = Computer::new(Level::MAX, 1).with_book(None);
    /// assert!(searching.book().is_none());
    /// let weak_with_book = Computer::new(Level::MIN, 1).with_book(Some(Book::builtin()));
    /// assert!(weak_with_book.book().is_some());
    /// ```
    #[must_use]
    pub fn with_book(mut self, book: Option<Arc<Book>>) -> Computer {
        self.book = book;
        self
    }

    /// The opening book it plays from, if any.
    #[must_use]
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// The computer playing `color` in a game seeded with `seed`: each colour's seed is derived
    /// from the game's, so that two computers do not share their random choices, and one seed
    /// replays one game in every front end.
    #[must_use]
    pub fn for_color(level: Level, seed: u64, color: Color) -> Computer {
        Computer::new(
            level,
            seed ^ (color as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        )
    }

    /// The level it plays at.
    #[must_use]
    pub fn level(&self) -> Level {
        self.level
    }

    /// Chooses a move for the player to move; a search stops early once `stop` is set.
    ///
    /// # Errors
    /// [`EngineError::GameOver`] when nobody can move.
    pub fn choose(&mut self, game: &Game, stop: &AtomicBool) -> Result<ComputerMove, EngineError> {
        let moves = game.legal_moves();
        let profile = self.level.profile();
        if profile.random_per_mille > 0
            && self.rng.random_range(0..1000) < profile.random_per_mille
            && let Some(&square) = moves.choose(&mut self.rng)
        {
            return Ok(ComputerMove {
                square,
                report: None,
                book: false,
            });
        }
        if let Some(choice) = self.book_move(game) {
            return Ok(choice);
        }
        let report = self.analyse(game, stop)?;
        Ok(ComputerMove {
            square: report.best_move,
            report: Some(report),
            book: false,
        })
    }

    /// A move from the book, if the position is in it.
    fn book_move(&mut self, game: &Game) -> Option<ComputerMove> {
        let book = self.book.as_ref()?;
        let chosen = book.choose(game, BOOK_MARGIN, &mut self.rng)?;
        let mut after = game.clone();
        after.play(chosen.square).ok()?;
        let mut pv = vec![chosen.square];
        pv.extend(book.line(&after));
        let depth = book.get(&after).map_or(0, |known| known.entry.depth);
        Some(ComputerMove {
            square: chosen.square,
            report: Some(SearchReport {
                best_move: chosen.square,
                score: chosen.value,
                exact: false,
                depth,
                confidence: None,
                pv,
                nodes: 0,
                elapsed: Duration::ZERO,
                threads: crate::ThreadCounts::default(),
            }),
            book: true,
        })
    }

    /// The best move and its evaluation for the player to move, searched at this level
    /// without random moves.
    ///
    /// # Errors
    /// [`EngineError::GameOver`] when nobody can move.
    pub fn analyse(&mut self, game: &Game, stop: &AtomicBool) -> Result<SearchReport, EngineError> {
        let limits = self.level.profile().limits(game);
        self.engine.search_with(game, &limits, stop, &mut |_| {})
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::Dimensions;
    use othello::RuleSet;
    use othello::Setup;

    #[test]
    fn levels_parse_and_grow_stronger() {
        assert_eq!("3".parse(), Ok(Level::DEFAULT));
        assert!("0".parse::<Level>().is_err());
        assert!("7".parse::<Level>().is_err());
        assert!("x".parse::<Level>().is_err());
        let profiles: Vec<Profile> = Level::all().map(Level::profile).collect();
        for pair in profiles.windows(2) {
            assert!(pair[0].depth < pair[1].depth);
            assert!(pair[0].exact_empties <= pair[1].exact_empties);
            assert!(pair[0].nodes < pair[1].nodes);
        }
        assert!(Level::HINT.profile().time.is_none());
    }

    #[test]
    fn the_same_seed_replays_the_same_game() {
        let play = |seed| {
            let mut game = Game::new(
                Setup::standard(Dimensions::new(6, 6).unwrap()),
                RuleSet::Full,
            );
            let mut black = Computer::new(Level::MIN, seed);
            let mut white = Computer::new(Level::new(2).unwrap(), seed + 1);
            let stop = AtomicBool::new(false);
            let mut moves = Vec::new();
            while let Some(turn) = game.turn() {
                let computer = if turn == othello::Color::Black {
                    &mut black
                } else {
                    &mut white
                };
                let square = computer.choose(&game, &stop).unwrap().square;
                game.play(square).unwrap();
                moves.push(square);
            }
            moves
        };
        assert_eq!(play(11), play(11));
    }
}
