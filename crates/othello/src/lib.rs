//! Othello (Reversi) on any board from 4x4 to 16x16 with even sides, under the standard
//! ("FULL") or the simplified ("SIMPLE") rules, with "most discs wins" or "fewest discs wins".
//!
//! This is the rules library: no I/O, no dependencies beyond `thiserror` (and `rayon` with the
//! `parallel` feature). The engine (`othello-engine`), the game records (`othello-records`) and
//! the front ends are crates of their own beside it.
//!
//! ```
//! use othello::{Dimensions, Game, RuleSet, Setup, Square, Color};
//!
//! let mut game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
//! assert_eq!(game.turn(), Some(Color::Black));
//! assert_eq!(game.legal_moves().len(), 4);
//! let played = game.play(Square::new(2, 3))?; // d3
//! assert_eq!(played.flipped, 1);
//! assert_eq!(game.score().black, 4);
//! # Ok::<(), othello::MoveError>(())
//! ```
//!
//! Vocabulary: [`Color`] and [`ByColor`]; [`Dimensions`] and [`Square`]; [`Board`]; the rule
//! sets [`Full`] and [`Simple`] behind the [`Rules`] trait, picked at run time by [`RuleSet`];
//! [`Setup`] (unchecked starting conditions, read by [`SetupParser`]) and [`Game`]; the bit sets
//! of [`bitboard`]; the console protocol in [`protocol`]; squares as people type them in
//! [`notation`]; game-tree counting in [`perft`]; the shape the hot loops of perft and the
//! engine work on in [`position`], and the processors they are compiled for in [`cpu`]; the
//! words shared by the library's messages and the front ends' output in [`text`].

#![warn(missing_docs)]

pub mod bitboard;
mod board;
mod color;
pub mod cpu;
mod game;
pub mod notation;
pub mod perft;
pub mod position;
pub mod protocol;
mod rules;
mod setup;
mod square;
pub mod text;

pub use board::{Board, DiscsError};
pub use color::{ByColor, Color, ParseColorError};
pub use game::{Game, MoveError, Outcome, Played};
pub use protocol::{SetupError, SetupErrorKind, SetupField, SetupParser};
pub use rules::{Full, ParseRuleSetError, RuleSet, Rules, Simple, eight};
pub use setup::{ParseWinRuleError, Setup, WinRule};
pub use square::{
    DimensionError, Dimensions, MAX_CELLS, MAX_SIDE, MIN_SIDE, OutOfBoundsError,
    ParseDimensionsError, Square,
};
