//! The NBoard protocol (version 2), as the NBoard GUI speaks it to an engine: one command per
//! line in, lines of replies out.
//!
//! [`NBoard::handle`] takes a command and returns an [`Outcome`]: the lines for the GUI, notes
//! for a log (malformed or unknown commands, illegal moves: the protocol's answer to those is
//! to ignore them), and possibly a [`Task`], a search to run. A task runs apart from the state
//! machine ([`Task::run`], with a stop flag), so that a front end can run it on another thread
//! and keep reading commands: a `ping` stops it ([`is_interrupt`]), and the `pong` is written
//! only once it has ended.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use othello_engine::nboard::NBoard;
//! use othello_engine::{Engine, EngineConfig};
//!
//! let mut nboard = NBoard::new();
//! assert_eq!(nboard.handle("nboard 2").lines, [format!("set myname othello-{}", env!("CARGO_PKG_VERSION"))]);
//! nboard.handle("set depth 2");
//! nboard.handle("move f5");
//! let task = nboard.handle("go").task.expect("go searches");
//! let mut lines = Vec::new();
//! task.run(&mut Engine::new(EngineConfig::default()), &AtomicBool::new(false), &mut |line| lines.push(line));
//! assert!(lines.iter().any(|line| line.starts_with("=== ")));
//! ```
//!
//! Commands: `nboard VERSION`, `set depth N`, `set game GGF`, `set contempt N`, `move
//! MOVE[/EVAL/TIME]` (a square such as `F5`, or `PA` for a pass; a bare square is read as a
//! move too, as version 1 sent it), `hint N`, `go`, `analyze`, `learn`, `ping N`, `quit`.
//! Replies: `set myname othello-VERSION`, `=== MOVE/EVAL/TIME`, `search PV EVAL 0 DEPTH` (the
//! depth is `100%` for an exact solve), `book PV EVAL 0 DEPTH` (a hint from the opening book), `analysis MOVE_NUMBER EVAL`, `nodestats NODES SECONDS`,
//! `status TEXT`, `pong N`, `learned`. Evaluations are in discs from the point of view of the
//! player to move.
//!
//! With an opening book ([`NBoard::set_book`]; none unless set), `go` in a position the book
//! holds expanded answers at once with the book's best move (the first in square order among
//! equals), and `hint` with the book's moves.
//!
//! `learn` adds the game to the book (a task, [`Task::is_learn`]; see
//! [`crate::book::build::learn`]); [`Task::run`] returns the book with the game learnt, and
//! [`NBoard::learned`] takes it and answers `learned`.
//!
//! A pure state machine: reading standard input, writing standard output and running the
//! tasks on a worker thread is the front end's part (`othello nboard`). The session and its
//! commands are in `session`, the tasks in `task`, the writing of lines, values and times in
//! `text`.

mod outcome;
mod session;
mod task;
#[cfg(test)]
mod tests;
mod text;

pub use outcome::Outcome;
pub use session::NBoard;
pub use task::{LearntBook, Task};
pub use text::{eval_text, line_text};

use othello::{Color, Game};

/// The name the engine gives itself (`set myname`): one word, as NBoard reads it.
#[must_use]
pub fn engine_name() -> String {
    format!("othello-{}", env!("CARGO_PKG_VERSION"))
}

/// Whether `line` asks to stop any running search at once: `ping` (whose `pong` must follow
/// the search's end) and `quit`.
#[must_use]
pub fn is_interrupt(line: &str) -> bool {
    matches!(line.split_whitespace().next(), Some("ping" | "quit"))
}

/// Whether `line` ends the session (`quit`): it stops a `learn` too, which a `ping` does not
/// ([`Task::is_learn`]).
#[must_use]
pub fn is_quit(line: &str) -> bool {
    line.split_whitespace().next() == Some("quit")
}

/// A position as NBoard sees it: the game, and whose turn NBoard thinks it is. The two differ
/// when that player has no move and NBoard has not yet sent the pass.
#[derive(Clone, Debug)]
struct Spot {
    game: Game,
    nominal: Color,
}

impl Spot {
    fn new(game: Game) -> Spot {
        let nominal = game.turn().unwrap_or(game.first_player());
        Spot { game, nominal }
    }

    /// Whether the player NBoard thinks is to move has to pass.
    fn must_pass(&self) -> bool {
        self.game.turn().is_some_and(|turn| turn != self.nominal)
    }
}
