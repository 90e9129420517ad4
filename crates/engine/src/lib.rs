//! The othello engine: best moves, evaluations and exact endgame solving, for every board
//! size, both rule sets and both win rules; and what is built on it: the opening book
//! ([`book`]), computer players of graded strength ([`computer`]), the review of a game move by
//! move ([`analysis`]), the training of the 8x8 evaluation ([`train`]), matches between engines
//! ([`arena`]), and the NBoard and GTP protocols through which other programs drive it
//! ([`nboard`], [`gtp`]), which search to a depth as [`depth`] turns it into [`Limits`].
//!
//! [`Engine::search`] runs an iterative-deepening negamax alpha-beta search with
//! principal-variation search, a transposition table and move ordering, then, once the empties
//! are few enough (or when no limit is given), an exact endgame solve. It stops at the limits
//! of [`Limits`] or when asked to through a stop flag, and reports the best move found so far.
//!
//! ```
//! use othello::{Dimensions, Game, RuleSet, Setup};
//! use othello_engine::{Engine, EngineConfig, Limits};
//!
//! let game = Game::new(Setup::standard(Dimensions::new(4, 4)?), RuleSet::Full);
//! let mut engine = Engine::new(EngineConfig::default());
//! let report = engine.search(&game, &Limits::default())?;
//! assert!(report.exact);
//! assert_eq!(report.score, -8); // black, to move, loses by 8 discs with perfect play
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Everything is deterministic for a given position, limits and seed with one thread, except
//! where a time limit or the stop flag cuts the search short.

#![warn(missing_docs)]

pub mod analysis;
pub mod arena;
pub mod book;
mod bounds;
mod clock;
pub mod computer;
pub mod cost;
pub mod depth;
mod driver;
mod eval;
pub mod gtp;
mod leaves;
mod limits;
pub mod nboard;
mod ordering;
pub mod patterns;
pub mod probcut;
mod report;
mod search;
mod shape;
mod stability;
pub mod train;
mod tt;
mod values;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use thiserror::Error;

use othello::Game;

pub use eval::evaluate_standard;
pub use limits::{EngineConfig, Limits};
pub(crate) use report::estimate_depth_text;
pub use report::{SearchReport, ThreadCounts};
pub use shape::{Evaluation, Scoring};
pub use values::MoveValue;

/// A search that could not be run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum EngineError {
    /// The game is over: there is no move to search.
    #[error("the game is over: there is no move to search")]
    GameOver,
    /// A depth limit of zero plies.
    #[error("the depth limit must be at least 1 ply")]
    ZeroDepth,
    /// The transposition table's memory could not be had.
    #[error("cannot allocate a transposition table of {megabytes} MiB")]
    TableMemory {
        /// The size asked for.
        megabytes: usize,
    },
}

/// A search engine with its transposition table.
pub struct Engine {
    config: EngineConfig,
    scoring: Scoring,
    evaluation: Evaluation,
    selective: bool,
    /// The main table and each thread's small one ([`search::SMALL_TABLE_KIB`]).
    tables: tt::Tables,
    visited: Arc<AtomicU64>,
}

impl Engine {
    /// An engine with a table of `config.hash_mb` MiB.
    ///
    /// # Panics
    /// If the table's memory cannot be had, as a `Vec` of that size would; see
    /// [`Engine::try_new`].
    #[must_use]
    pub fn new(config: EngineConfig) -> Engine {
        match Engine::try_new(config) {
            Ok(engine) => engine,
            Err(error) => panic!("{error}"),
        }
    }

    /// An engine with a table of `config.hash_mb` MiB (from 1 MiB to 1 TiB).
    ///
    /// # Errors
    /// [`EngineError::TableMemory`] if the memory cannot be had.
    pub fn try_new(config: EngineConfig) -> Result<Engine, EngineError> {
        let config = EngineConfig {
            hash_mb: config.hash_mb.clamp(1, 1 << 20),
            threads: config.threads.clamp(1, 256),
            seed: config.seed,
        };
        let tables = tt::Tables::try_new(config.hash_mb, config.threads, search::SMALL_TABLE_KIB)
            .ok_or(EngineError::TableMemory {
            megabytes: config.hash_mb,
        })?;
        Ok(Engine {
            tables,
            config,
            scoring: Scoring::default(),
            evaluation: Evaluation::default(),
            selective: true,
            visited: Arc::new(AtomicU64::new(0)),
        })
    }

    /// The configuration in use (after clamping).
    #[must_use]
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// How finished games are scored (discs only, unless set otherwise).
    #[must_use]
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    /// The positions visited by the search under way (every thread), or by the last one once
    /// it has ended: a counter another thread can read while the search runs, to show that it
    /// moves, through the exact solve too. It is reset when a search starts and grows every
    /// thousand positions or so; the final count is the report's `nodes`.
    #[must_use]
    pub fn visited(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.visited)
    }

    /// Sets how finished games are scored.
    pub fn set_scoring(&mut self, scoring: Scoring) {
        self.scoring = scoring;
    }

    /// Which evaluation the midgame search uses (the trained one, unless set otherwise).
    #[must_use]
    pub fn evaluation(&self) -> &Evaluation {
        &self.evaluation
    }

    /// Sets which evaluation the midgame search uses; exact results do not depend on it.
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.evaluation = evaluation;
    }

    /// Whether the midgame search uses probabilistic cut-offs ([`probcut`]) where the trained
    /// evaluation applies (on, unless set otherwise).
    #[must_use]
    pub fn selective(&self) -> bool {
        self.selective
    }

    /// Turns the midgame search's probabilistic cut-offs on or off; exact results do not
    /// depend on them, and the classic evaluation never uses them.
    pub fn set_selective(&mut self, selective: bool) {
        self.selective = selective;
    }

    /// Searches the position of `game` within `limits`.
    ///
    /// # Errors
    /// [`EngineError::GameOver`] if nobody can move; [`EngineError::ZeroDepth`] for a depth
    /// limit of 0.
    pub fn search(&mut self, game: &Game, limits: &Limits) -> Result<SearchReport, EngineError> {
        let stop = AtomicBool::new(false);
        self.search_with(game, limits, &stop, &mut |_| {})
    }

    /// Searches like [`Engine::search`], stopping early once `stop` is set (from another
    /// thread), and calling `on_progress` with the result of every completed iteration: each
    /// midgame depth, then the exact solve. Within a long iteration nothing is reported;
    /// [`Engine::visited`] shows that the search moves meanwhile.
    ///
    /// # Errors
    /// As [`Engine::search`].
    pub fn search_with(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_progress: &mut dyn FnMut(&SearchReport),
    ) -> Result<SearchReport, EngineError> {
        // A fresh table for every search keeps searches reproducible.
        self.tables.clear();
        self.run(game, limits, stop, on_progress)
    }

    /// Searches like [`Engine::search`], but with what the tables hold from the searches
    /// before (which [`Engine::search`] forgets): a position solved after the position one of
    /// its moves leads to finds that position's proof there. An exact score does not depend
    /// on the tables; the nodes it takes, and the score of a search that is not exact, do.
    ///
    /// # Errors
    /// As [`Engine::search`].
    pub fn search_after_others(
        &mut self,
        game: &Game,
        limits: &Limits,
    ) -> Result<SearchReport, EngineError> {
        self.run(game, limits, &AtomicBool::new(false), &mut |_| {})
    }

    /// The search of [`Engine::search_with`] on the tables as they are.
    fn run(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_progress: &mut dyn FnMut(&SearchReport),
    ) -> Result<SearchReport, EngineError> {
        if limits.depth == Some(0) {
            return Err(EngineError::ZeroDepth);
        }
        let turn = game.turn().ok_or(EngineError::GameOver)?;
        self.visited.store(0, Ordering::Relaxed);
        let job = driver::SearchJob {
            board: game.board(),
            turn,
            rules: game.rules(),
            win: game.win_rule(),
            scoring: self.scoring,
            evaluation: &self.evaluation,
            selective: self.selective,
            limits: *limits,
            config: self.config,
            stop,
            visited: &self.visited,
        };
        let report = driver::run(&job, &self.tables, on_progress);
        self.visited.store(report.nodes, Ordering::Relaxed);
        Ok(report)
    }
}
