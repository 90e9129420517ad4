//! Othello (Reversi) on any board from 4x4 to 16x16 with even sides, under the standard
//! ("FULL") or the simplified ("SIMPLE") rules, with "most discs wins" or "fewest discs wins".
//!
//! The crate is a library without I/O; the `othello` binary is a thin front end over it.
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
//! The engine finds best moves, and solves endgames exactly, on every supported board:
//!
//! ```
//! use othello::{Dimensions, Engine, EngineConfig, Game, Limits, RuleSet, Setup};
//!
//! // 4x4 from the standard start: perfect play ends with white 8 discs ahead.
//! let game = Game::new(Setup::standard(Dimensions::new(4, 4)?), RuleSet::Full);
//! let mut engine = Engine::new(EngineConfig::default());
//! let report = engine.search(&game, &Limits::exact())?;
//! assert!(report.exact);
//! assert_eq!(report.score, -8); // black to move, and black loses by 8
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Vocabulary: [`Color`] and [`ByColor`]; [`Dimensions`] and [`Square`]; [`Board`]; the rule
//! sets [`Full`] and [`Simple`] behind the [`Rules`] trait, picked at run time by [`RuleSet`];
//! [`Setup`] (unchecked starting conditions, read by [`SetupParser`]) and [`Game`]; the bit sets
//! of [`bitboard`]; the console protocol in [`protocol`]; test cases for it in [`generate`]; squares
//! as people type them in [`notation`]; a game played by people, with undo, in [`session`];
//! game-tree counting in [`perft`]; FFO endgame-suite lines in [`ffo`]; game records in the
//! formats players use (move lists, GGF, OBF, WTHOR) in [`record`], and the engine's review
//! of a game, move by move, in [`analysis`]; the search engine ([`Engine`]) in [`engine`], and computer
//! players of graded strength in [`computer`]; the NBoard and GTP protocols through which other
//! programs drive the engine in [`engine_protocol`]; the self-play games and the fit that make
//! the engine's 8x8 pattern evaluation ([`engine::patterns`]), the model of its probabilistic
//! cut-offs ([`engine::probcut`]) in [`train`]; matches between this engine and others, with
//! their tally and Elo estimate, in [`arena`]; the opening book of 8x8 Othello that the computer
//! players consult in [`book`].

#![warn(missing_docs)]

pub mod analysis;
pub mod arena;
pub mod bitboard;
mod board;
pub mod book;
mod color;
pub mod computer;
mod cpu;
pub mod engine;
pub mod engine_protocol;
pub mod ffo;
mod game;
pub mod generate;
pub mod grade;
pub mod notation;
pub mod perft;
mod position;
pub mod protocol;
pub mod record;
mod rules;
pub mod session;
mod setup;
mod square;
pub mod text;
pub mod train;

pub use board::{Board, DiscsError};
pub use color::{ByColor, Color, ParseColorError};
pub use engine::{
    Engine, EngineConfig, EngineError, Evaluation, Limits, MoveValue, Scoring, SearchReport,
};
pub use game::{Game, MoveError, Outcome, Played};
pub use protocol::{SetupError, SetupErrorKind, SetupField, SetupParser};
pub use rules::{Full, ParseRuleSetError, RuleSet, Rules, Simple};
pub use setup::{ParseWinRuleError, Setup, WinRule};
pub use square::{
    DimensionError, Dimensions, MAX_CELLS, MAX_SIDE, MIN_SIDE, OutOfBoundsError,
    ParseDimensionsError, Square,
};
