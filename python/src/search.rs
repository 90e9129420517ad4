//! `othello.Engine` and `othello.perft`: the library's searches, run with the GIL released and
//! stopped by Ctrl-C.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use othello::{Game, Setup, Square};

use othello_engine::computer::Level;
use othello_engine::{Engine, EngineConfig, Limits, SearchReport};
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::errors;
use crate::game::PyGame;

/// How often a running search looks for a signal (Ctrl-C) to the Python process.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a thread of its own with the GIL released, polling Python's signal handlers
/// every [`SIGNAL_POLL`]; when one raises (`KeyboardInterrupt` for Ctrl-C), `stop` is set, the
/// work is waited for (it must stop soon once `stop` is set) and the exception is returned.
#[allow(clippy::redundant_closure_for_method_calls)] // `check_signals` is generic over the lifetime
fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    py.detach(|| {
        std::thread::scope(|scope| {
            let waiter = std::thread::current();
            let worker = scope.spawn(move || {
                let result = work();
                waiter.unpark();
                result
            });
            while !worker.is_finished() {
                std::thread::park_timeout(SIGNAL_POLL);
                if worker.is_finished() {
                    break;
                }
                if let Err(error) = Python::attach(|py| py.check_signals()) {
                    stop.store(true, Ordering::Relaxed);
                    // The work stops at the flag; its result is of no use now.
                    drop(worker.join());
                    return Err(error);
                }
            }
            Ok(worker
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
        })
    })
}

fn squares_text(squares: &[Square]) -> Vec<String> {
    squares.iter().map(ToString::to_string).collect()
}

/// A square's name as Python writes it in a repr: `'d3'` (names need no escapes).
fn quoted(square: &str) -> String {
    format!("'{square}'")
}

/// A confidence as Python writes it in a repr: `87`, or `None`.
fn confidence_text(confidence: Option<u32>) -> String {
    confidence.map_or_else(|| "None".to_owned(), |percent| percent.to_string())
}

/// Square names as Python writes their list in a repr: `['d3', 'c5']`.
fn quoted_list(squares: &[String]) -> String {
    let names: Vec<String> = squares.iter().map(|square| quoted(square)).collect();
    format!("[{}]", names.join(", "))
}

/// What a search found: the best move, its score and how it was reached.
#[pyclass(name = "SearchResult", module = "othello", frozen, get_all)]
pub struct PySearchResult {
    /// The best move found, as ``"d3"``.
    r#move: String,
    /// In discs, from the point of view of the player to move, positive when winning: the
    /// exact final margin when ``exact``, otherwise an evaluation on the same scale.
    score: i32,
    /// The depth of the last completed iteration, in plies (the empties when exact).
    depth: u32,
    /// Whether ``score`` is the result of perfect play.
    exact: bool,
    /// When ``score`` comes from a selective solve (to the end, with probable cut-offs, run
    /// before the exact one): the chance in percent that each cut-off is right (``87``, as
    /// Edax's ``22@87%``); ``None`` otherwise.
    confidence: Option<u32>,
    /// Positions visited.
    nodes: u64,
    /// The expected line of play, from ``move`` on (passes are not listed).
    pv: Vec<String>,
    /// Seconds spent.
    seconds: f64,
}

impl From<&SearchReport> for PySearchResult {
    fn from(report: &SearchReport) -> PySearchResult {
        PySearchResult {
            r#move: report.best_move.to_string(),
            score: report.score,
            depth: report.depth,
            exact: report.exact,
            confidence: report.confidence,
            nodes: report.nodes,
            pv: squares_text(&report.pv),
            seconds: report.elapsed.as_secs_f64(),
        }
    }
}

#[pymethods]
impl PySearchResult {
    fn __repr__(&self) -> String {
        format!(
            "SearchResult(move={}, score={}, depth={}, exact={}, confidence={}, nodes={}, pv={})",
            quoted(&self.r#move),
            self.score,
            self.depth,
            if self.exact { "True" } else { "False" },
            confidence_text(self.confidence),
            self.nodes,
            quoted_list(&self.pv)
        )
    }
}

/// The value of one legal move.
#[pyclass(name = "MoveValue", module = "othello", frozen, get_all)]
pub struct PyMoveValue {
    /// The move, as ``"d3"``.
    r#move: String,
    /// In discs, for the player who plays the move: the exact final margin when ``exact``,
    /// otherwise an evaluation.
    score: i32,
    /// Whether ``score`` is the result of perfect play after the move.
    exact: bool,
    /// Plies looked ahead, the move included.
    depth: u32,
    /// When ``score`` comes from a selective solve after the move: the chance in percent that
    /// each cut-off is right (``87``); ``None`` otherwise.
    confidence: Option<u32>,
    /// The expected line of play, starting with the move.
    pv: Vec<String>,
    /// Positions visited after the move.
    nodes: u64,
}

#[pymethods]
impl PyMoveValue {
    fn __repr__(&self) -> String {
        format!(
            "MoveValue(move={}, score={}, exact={}, depth={}, confidence={})",
            quoted(&self.r#move),
            self.score,
            if self.exact { "True" } else { "False" },
            self.depth,
            confidence_text(self.confidence)
        )
    }
}

/// The search engine: best moves, move values and exact endgame solving, with its
/// transposition table.
///
/// Searches release the GIL (other Python threads run meanwhile) and stop on Ctrl-C, raising
/// `KeyboardInterrupt` within about 50 ms.
#[pyclass(name = "Engine", module = "othello")]
pub struct PyEngine {
    engine: Engine,
}

/// The most threads a search or a perft count may use, as on the command line.
const MAX_THREADS: i64 = 256;
/// The largest transposition table, in MiB (1 TiB), as the library allows.
const MAX_HASH_MB: i64 = 1 << 20;
/// The deepest search a caller may ask for, in plies.
const MAX_DEPTH: i64 = 128;
/// The longest search a caller may ask for, in seconds (about eleven days).
const MAX_SECONDS: f64 = 1e6;

/// `value` as a count in `range`, or a `ValueError` naming the argument and the range.
pub(crate) fn count_in(
    name: &str,
    value: i64,
    range: std::ops::RangeInclusive<i64>,
) -> PyResult<usize> {
    if range.contains(&value) {
        Ok(usize::try_from(value).expect("a checked count"))
    } else {
        Err(PyValueError::new_err(format!(
            "{name} must be from {} to {}, found {value}",
            range.start(),
            range.end()
        )))
    }
}

/// Limits from the keyword arguments: a depth in plies and/or a time in seconds, or a level
/// (1 to 6, as `othello play`'s computer); with none of them, the level of the command line's
/// hints ([`Level::HINT`]), never an unbounded solve.
fn limits(
    game: &Game,
    depth: Option<i64>,
    time: Option<f64>,
    level: Option<i64>,
) -> PyResult<Limits> {
    let time = match time {
        None => None,
        Some(seconds) if seconds.is_finite() && seconds > 0.0 && seconds <= MAX_SECONDS => {
            Some(Duration::from_secs_f64(seconds))
        }
        Some(seconds) => {
            return Err(PyValueError::new_err(format!(
                "time must be a positive number of seconds up to {MAX_SECONDS:e}, found {seconds}"
            )));
        }
    };
    let depth = depth
        .map(|depth| count_in("depth", depth, 1..=MAX_DEPTH))
        .transpose()?
        .map(|depth| u32::try_from(depth).expect("a checked depth"));
    let level = match level {
        None if depth.is_none() && time.is_none() => Some(Level::HINT),
        None => None,
        Some(_) if depth.is_some() || time.is_some() => {
            return Err(PyValueError::new_err(
                "give a level, or a depth and/or a time, not both",
            ));
        }
        Some(number) => {
            let checked = count_in("level", number, 1..=i64::from(Level::MAX.number()))?;
            Level::new(u8::try_from(checked).expect("a checked level"))
        }
    };
    Ok(match level {
        Some(level) => level.profile().limits(game),
        None => Limits {
            depth,
            time,
            ..Limits::default()
        },
    })
}

/// The position of a game, taken so that the game's borrow ends before a search.
fn position_of(game: PyRef<'_, PyGame>) -> Game {
    game.game().clone()
}

impl PyEngine {
    fn search(&mut self, py: Python<'_>, game: &Game, limits: &Limits) -> PyResult<PySearchResult> {
        let stop = AtomicBool::new(false);
        let engine = &mut self.engine;
        let report = interruptible(py, &stop, || {
            engine.search_with(game, limits, &stop, &mut |_| {})
        })?
        .map_err(errors::engine)?;
        Ok(PySearchResult::from(&report))
    }
}

#[pymethods]
impl PyEngine {
    /// An engine with a transposition table of ``hash_mb`` MiB (1 to 1,048,576) searching on
    /// ``threads`` threads (1 to 256); ``seed`` varies the hashing (one thread and one seed
    /// search identically). Raises ``ValueError`` for a value out of range and ``MemoryError``
    /// when the table's memory cannot be had.
    #[new]
    #[pyo3(signature = (hash_mb = 64, threads = 1, seed = 0))]
    fn new(hash_mb: i64, threads: i64, seed: i128) -> PyResult<PyEngine> {
        let hash_mb = count_in("hash_mb", hash_mb, 1..=MAX_HASH_MB)?;
        let threads = count_in("threads", threads, 1..=MAX_THREADS)?;
        let seed = u64::try_from(seed).map_err(|_| {
            PyValueError::new_err(format!("seed must be from 0 to 2**64 - 1, found {seed}"))
        })?;
        let engine = Engine::try_new(EngineConfig {
            hash_mb,
            threads,
            seed,
        })
        .map_err(|error| PyMemoryError::new_err(error.to_string()))?;
        Ok(PyEngine { engine })
    }

    /// The transposition table's size in MiB.
    #[getter]
    fn hash_mb(&self) -> usize {
        self.engine.config().hash_mb
    }

    /// The number of search threads.
    #[getter]
    fn threads(&self) -> usize {
        self.engine.config().threads
    }

    /// The best move of the player to move, searched to ``depth`` plies and/or for about
    /// ``time`` seconds, or as the computer of ``level`` 1 to 6 plays; with none of these, at
    /// level 5 (the command line's hints: 8 plies, exact from 16 empties, at most 10 million
    /// positions). `solve` is the exact search. Raises ``ValueError`` once the game is over or
    /// for a limit out of range.
    #[pyo3(signature = (game, depth = None, time = None, level = None))]
    fn best_move(
        &mut self,
        py: Python<'_>,
        game: PyRef<'_, PyGame>,
        depth: Option<i64>,
        time: Option<f64>,
        level: Option<i64>,
    ) -> PyResult<PySearchResult> {
        let position = position_of(game);
        let limits = limits(&position, depth, time, level)?;
        errors::guarded(|| self.search(py, &position, &limits))
    }

    /// The exact result with perfect play: ``score`` is the final disc margin of the player to
    /// move (positive when winning), ``move`` a best move. Practical up to about 30 empty
    /// squares on 8x8.
    fn solve(&mut self, py: Python<'_>, game: PyRef<'_, PyGame>) -> PyResult<PySearchResult> {
        let position = position_of(game);
        errors::guarded(|| self.search(py, &position, &Limits::exact()))
    }

    /// Every legal move of the player to move with its value (the position after it searched
    /// to ``depth`` plies and/or for ``time`` seconds, or at ``level``; at level 5 with none of
    /// these, as `best_move`), in board order.
    #[pyo3(signature = (game, depth = None, time = None, level = None))]
    fn move_values(
        &mut self,
        py: Python<'_>,
        game: PyRef<'_, PyGame>,
        depth: Option<i64>,
        time: Option<f64>,
        level: Option<i64>,
    ) -> PyResult<Vec<PyMoveValue>> {
        let position = position_of(game);
        let limits = limits(&position, depth, time, level)?;
        let stop = AtomicBool::new(false);
        let engine = &mut self.engine;
        let values = errors::guarded(|| {
            interruptible(py, &stop, || {
                engine.move_values(&position, &limits, &stop, &mut |_, _| {})
            })
        })?
        .map_err(errors::engine)?;
        Ok(values
            .into_iter()
            .map(|value| PyMoveValue {
                r#move: value.square.to_string(),
                score: value.score,
                exact: value.exact,
                depth: value.depth,
                confidence: value.confidence,
                pv: squares_text(&value.line),
                nodes: value.nodes,
            })
            .collect())
    }

    fn __repr__(&self) -> String {
        format!(
            "Engine(hash_mb={}, threads={})",
            self.engine.config().hash_mb,
            self.engine.config().threads
        )
    }
}

/// About the most leaves a perft piece may have, so that it takes well under the signal poll:
/// a piece of `depth` plies below a position with `b` moves is taken to have `max(b, 10)^depth`
/// leaves (10 is about the branching of 8x8 games; larger boards branch more, and their
/// positions say so).
const PERFT_PIECE_LEAVES: f64 = 2e7;

/// The leaves `depth` plies below `game`, whose player to move is `setup.first`: counted by
/// the library in one piece when the tree is small ([`PERFT_PIECE_LEAVES`]), else move by
/// move, stopping (with a count of no use) once `stop` is set. The subtrees of the first
/// `parallel` plies are shared among the threads of the current rayon pool.
fn perft_stoppable(game: &Game, setup: Setup, depth: u32, stop: &AtomicBool, parallel: u32) -> u64 {
    use rayon::prelude::*;
    if stop.load(Ordering::Relaxed) {
        return 0;
    }
    let moves = game.legal_moves();
    let branching = f64::from(u32::try_from(moves.len().max(10)).unwrap_or(u32::MAX));
    let estimate = branching.powi(i32::try_from(depth).unwrap_or(i32::MAX));
    if depth <= 3 || estimate <= PERFT_PIECE_LEAVES || moves.is_empty() {
        return othello::perft::count(&setup, game.rules(), depth);
    }
    let player = game.turn().expect("a player with moves");
    let below = |&square: &Square| {
        let mut child = game.clone();
        child.play(square).expect("a legal move");
        let next = child.turn();
        let child_setup = |first| Setup {
            board: *child.board(),
            first,
            win: setup.win,
        };
        match next {
            // The opponent passes: a ply of its own, with one child.
            Some(same) if same == player => perft_stoppable(
                &child,
                child_setup(player),
                depth - 2,
                stop,
                parallel.saturating_sub(1),
            ),
            _ => perft_stoppable(
                &child,
                child_setup(player.opponent()),
                depth - 1,
                stop,
                parallel.saturating_sub(1),
            ),
        }
    };
    if parallel > 0 {
        moves.par_iter().map(below).sum()
    } else {
        moves.iter().map(below).sum()
    }
}

/// The number of leaves of the game tree ``depth`` plies below the position (the published
/// convention: a forced pass is a ply, a finished game one leaf), counted by the library's
/// move generator on ``threads`` threads. Releases the GIL; Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (game, depth, threads = 1))]
pub fn perft(py: Python<'_>, game: PyRef<'_, PyGame>, depth: i64, threads: i64) -> PyResult<u64> {
    let threads = count_in("threads", threads, 1..=MAX_THREADS)?;
    let depth = count_in("depth", depth, 0..=MAX_DEPTH)?;
    let depth = u32::try_from(depth).expect("a checked depth");
    let position = position_of(game);
    let Some(turn) = position.turn() else {
        return Ok(1);
    };
    let setup = Setup {
        board: *position.board(),
        first: turn,
        win: position.win_rule(),
    };
    let stop = AtomicBool::new(false);
    if threads == 1 {
        return errors::guarded(|| {
            interruptible(py, &stop, || {
                perft_stoppable(&position, setup, depth, &stop, 0)
            })
        });
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|error| {
            PyRuntimeError::new_err(format!("cannot start {threads} threads: {error}"))
        })?;
    errors::guarded(|| {
        interruptible(py, &stop, || {
            pool.install(|| perft_stoppable(&position, setup, depth, &stop, 2))
        })
    })
}
