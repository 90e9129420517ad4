//! The NBoard protocol (version 2), as the NBoard GUI speaks it to an engine: one command per
//! line in, lines of replies out.
//!
//! [`NBoard::handle`] takes a command and returns a [`Reply`]: the lines for the GUI, notes
//! for a log (malformed or unknown commands, illegal moves: the protocol's answer to those is
//! to ignore them), and possibly a [`Task`], a search to run. A task runs apart from the state
//! machine ([`Task::run`], with a stop flag), so that a front end can run it on another thread
//! and keep reading commands: a `ping` stops it ([`is_interrupt`]), and the `pong` is written
//! only once it has ended.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use othello_engine::engine_protocol::nboard::NBoard;
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

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::book::build::{Learned, learn};
use crate::book::{Book, Position};
use crate::{Engine, MoveValue, SearchReport};
use othello::Color;
use othello::Game;
use othello::RuleSet;
use othello::Setup;
use othello::notation::parse_square;
use othello::{Dimensions, Square};
use othello_records::{RecordMove, ggf};

use super::{DEFAULT_DEPTH, MAX_DEPTH, eval_text, limits_for_depth, line_text};

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

/// The answer to one command.
#[derive(Debug, Default)]
pub struct Reply {
    /// Lines for the GUI, each without its `\n`.
    pub lines: Vec<String>,
    /// Notes for a log (standard error): commands ignored and why.
    pub notes: Vec<String>,
    /// A search to run; its lines follow [`Reply::lines`].
    pub task: Option<Task>,
    /// The GUI asked the engine to end.
    pub quit: bool,
}

impl Reply {
    fn line(line: String) -> Reply {
        Reply {
            lines: vec![line],
            ..Reply::default()
        }
    }

    fn note(note: String) -> Reply {
        Reply {
            notes: vec![note],
            ..Reply::default()
        }
    }

    fn task(task: Task) -> Reply {
        Reply {
            task: Some(task),
            ..Reply::default()
        }
    }
}

/// The engine's side of an NBoard session: the game so far and the settings.
#[derive(Clone, Debug)]
pub struct NBoard {
    /// Every position of the game, the start first: index `n` is the position after `n` moves,
    /// passes counted.
    spots: Vec<Spot>,
    depth: u32,
    contempt: i32,
    book: Option<Arc<Book>>,
}

impl Default for NBoard {
    fn default() -> NBoard {
        NBoard::new()
    }
}

impl NBoard {
    /// A session at the standard 8x8 start, at depth [`DEFAULT_DEPTH`].
    #[must_use]
    pub fn new() -> NBoard {
        let game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
        NBoard {
            spots: vec![Spot::new(game)],
            depth: DEFAULT_DEPTH,
            contempt: 0,
            book: None,
        }
    }

    /// Sets the opening book `go` and `hint` answer from, or none.
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }

    /// The opening book in use, if any.
    #[must_use]
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// The current position.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.current().game
    }

    /// The search depth in plies.
    #[must_use]
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Sets the search depth in plies (1 to [`MAX_DEPTH`]; larger is taken as the maximum).
    pub fn set_depth(&mut self, depth: u32) {
        self.depth = depth.clamp(1, MAX_DEPTH);
    }

    /// The contempt the GUI set, in hundredths of a disc. The engine scores in whole discs
    /// with a draw worth 0, so it is kept but plays no part in the search.
    #[must_use]
    pub fn contempt(&self) -> i32 {
        self.contempt
    }

    fn current(&self) -> &Spot {
        self.spots.last().expect("there is always a position")
    }

    /// Answers one command line (without its line ending; surrounding white space is ignored).
    pub fn handle(&mut self, line: &str) -> Reply {
        let line = line.trim();
        let (command, rest) = match line.split_once(char::is_whitespace) {
            Some((command, rest)) => (command, rest.trim()),
            None => (line, ""),
        };
        match command {
            "" => Reply::default(),
            "nboard" => match rest.parse::<u32>() {
                Ok(_) => Reply::line(format!("set myname {}", engine_name())),
                Err(_) => Reply::note(format!(
                    "nboard: expected a protocol version such as \"nboard 2\", found {line:?}"
                )),
            },
            "set" => self.set(rest),
            "move" => self.play(rest),
            "go" => self.go(),
            "hint" => self.hint(rest),
            "analyze" => Reply::task(Task {
                kind: TaskKind::Analyze(self.spots.clone()),
                depth: self.depth,
                book: None,
            }),
            "learn" => self.learn(),
            "ping" => match rest.parse::<i64>() {
                Ok(number) => Reply::line(format!("pong {number}")),
                Err(_) => Reply::note(format!(
                    "ping: expected a number such as \"ping 1\", found {line:?}"
                )),
            },
            "quit" => Reply {
                quit: true,
                ..Reply::default()
            },
            // Version 1 sent moves without the word "move".
            _ if rest.is_empty() && self.read_move(command).is_ok() => self.play(command),
            _ => Reply::note(format!("unknown command ignored: {}", shorten(line))),
        }
    }

    fn set(&mut self, rest: &str) -> Reply {
        let (name, value) = match rest.split_once(char::is_whitespace) {
            Some((name, value)) => (name, value.trim()),
            None => (rest, ""),
        };
        match name {
            "depth" => match value.parse::<u32>() {
                Ok(depth) if (1..=MAX_DEPTH).contains(&depth) => {
                    self.set_depth(depth);
                    Reply::default()
                }
                _ => Reply::note(format!(
                    "set depth: expected a depth from 1 to {MAX_DEPTH}, found {}",
                    shorten(value)
                )),
            },
            "contempt" => match value.parse::<f64>() {
                Ok(contempt) if contempt.is_finite() && contempt.abs() <= 1e6 => {
                    // Rounded to hundredths of a disc, as NBoard sends it.
                    self.contempt = contempt.round() as i32;
                    Reply::default()
                }
                _ => Reply::note(format!(
                    "set contempt: expected a number, found {}",
                    shorten(value)
                )),
            },
            "game" => self.set_game(value),
            _ => Reply::note(format!("set: unknown setting ignored: {}", shorten(rest))),
        }
    }

    fn set_game(&mut self, text: &str) -> Reply {
        let records = match ggf::read(text) {
            Ok(records) => records,
            Err(error) => return Reply::note(format!("set game: {error}; position kept")),
        };
        let [record] = &records[..] else {
            return Reply::note(format!(
                "set game: expected one GGF game, found {}; position kept",
                records.len()
            ));
        };
        let mut spot = Spot::new(record.start_game());
        spot.nominal = record.setup().first;
        let mut spots = vec![spot.clone()];
        for record_move in record.moves() {
            match record_move {
                RecordMove::Pass => spot.nominal = spot.nominal.opponent(),
                RecordMove::Play(square) => {
                    let mover = spot.game.turn().expect("a record's moves are legal");
                    spot.game.play(*square).expect("a record's moves are legal");
                    spot.nominal = mover.opponent();
                }
            }
            spots.push(spot.clone());
        }
        self.spots = spots;
        Reply::default()
    }

    /// A move as NBoard writes it (`F5`, `f5/1.23/0.5`, `PA`): `None` for a pass.
    fn read_move(&self, text: &str) -> Result<Option<Square>, String> {
        let square = text.split('/').next().unwrap_or("").trim();
        if square.eq_ignore_ascii_case("pa") || square.eq_ignore_ascii_case("pass") {
            return Ok(None);
        }
        if !square.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Err(format!(
                "expected a move such as F5 or PA, found {}",
                shorten(text)
            ));
        }
        parse_square(square, self.game().board().dims())
            .map(Some)
            .map_err(|error| error.to_string())
    }

    fn play(&mut self, text: &str) -> Reply {
        let refused =
            |why: String| Reply::note(format!("move {}: {why}; position kept", shorten(text)));
        let square = match self.read_move(text) {
            Ok(square) => square,
            Err(why) => return refused(why),
        };
        let mut spot = self.current().clone();
        match (square, spot.game.turn()) {
            (_, None) => return refused("the game is over".to_owned()),
            (None, Some(_)) if !spot.must_pass() => {
                return refused(format!("{} has a legal move and cannot pass", spot.nominal));
            }
            (None, Some(_)) => spot.nominal = spot.nominal.opponent(),
            (Some(square), Some(mover)) => {
                if let Err(error) = spot.game.play(square) {
                    return refused(error.to_string());
                }
                spot.nominal = mover.opponent();
            }
        }
        self.spots.push(spot);
        Reply::default()
    }

    fn go(&self) -> Reply {
        let spot = self.current();
        if spot.game.is_over() {
            // Every `go` is answered with a move: after the end, a pass.
            return Reply {
                lines: vec!["=== PA".to_owned(), "status".to_owned()],
                notes: vec!["go: the game is over; answered PA".to_owned()],
                ..Reply::default()
            };
        }
        Reply::task(Task {
            kind: TaskKind::Go(spot.clone()),
            depth: self.depth,
            book: self.book.clone(),
        })
    }

    /// `learn`: a task that adds the game to the book ([`learn`]); with no book, or a game
    /// the book cannot hold, `learned` at once with a note.
    fn learn(&self) -> Reply {
        let refused = |why: &str| Reply {
            lines: vec!["learned".to_owned()],
            notes: vec![format!("learn: {why}; nothing stored")],
            ..Reply::default()
        };
        if self.book.is_none() {
            return refused("no opening book in use");
        }
        if !Book::applies_to(self.game()) {
            return refused("the opening book holds 8x8 games under FULL rules, most discs wins");
        }
        let line = self
            .spots
            .iter()
            .filter_map(|spot| Position::of(&spot.game))
            .collect();
        Reply::task(Task {
            kind: TaskKind::Learn(line),
            depth: self.depth,
            book: self.book.clone(),
        })
    }

    /// Takes the book a `learn` task made ([`Task::run`]) as the one `go` and `hint` answer
    /// from, and gives the protocol's answer to `learn`. A front end saves the book first, so
    /// that `learned` means it is kept.
    pub fn learned(&mut self, book: Book) -> Reply {
        self.book = Some(Arc::new(book));
        Reply::line("learned".to_owned())
    }

    fn hint(&self, rest: &str) -> Reply {
        let count = if rest.is_empty() {
            Ok(1)
        } else {
            rest.parse::<usize>()
        };
        let count = match count {
            Ok(count) if count >= 1 => count,
            _ => {
                return Reply::note(format!(
                    "hint: expected a number of moves such as \"hint 3\", found {}",
                    shorten(rest)
                ));
            }
        };
        let spot = self.current();
        if spot.game.is_over() {
            return Reply::note("hint: the game is over; no move to evaluate".to_owned());
        }
        Reply::task(Task {
            kind: TaskKind::Hint(spot.clone(), count),
            depth: self.depth,
            book: self.book.clone(),
        })
    }
}

/// A command's text for a note: at most 60 characters.
fn shorten(text: &str) -> String {
    const SHOWN: usize = 60;
    if text.chars().count() <= SHOWN {
        format!("{text:?}")
    } else {
        let head: String = text.chars().take(SHOWN).collect();
        format!("{head:?}...")
    }
}

/// A search asked for by `go`, `hint`, `analyze` or `learn`, to run with [`Task::run`].
#[derive(Clone, Debug)]
pub struct Task {
    kind: TaskKind,
    depth: u32,
    book: Option<Arc<Book>>,
}

#[derive(Clone, Debug)]
enum TaskKind {
    Go(Spot),
    Hint(Spot, usize),
    Analyze(Vec<Spot>),
    /// The game's positions, to add to the book.
    Learn(Vec<Position>),
}

/// The book a `learn` task made, and what it added.
#[derive(Clone, Debug)]
pub struct LearntBook {
    /// The task's book with the game learnt.
    pub book: Book,
    /// What learning added.
    pub learned: Learned,
}

/// One move's value for a hint.
struct Valued {
    line: String,
    score: i32,
    exact: bool,
    depth: u32,
    /// A selective solve's chance in percent that its cut-offs are right.
    confidence: Option<u32>,
}

impl Valued {
    /// The depth field of a `search` line: `100%` when exact, `22@87%` after a selective
    /// solve (as Edax writes it), else the depth in plies.
    fn depth_text(&self) -> String {
        if self.exact {
            "100%".to_owned()
        } else {
            crate::estimate_depth_text(self.depth, self.confidence)
        }
    }
}

impl Task {
    /// Runs the search with `engine`, giving each line of the answer to `emit` as soon as it is
    /// known: `status` lines and `nodestats` while thinking, then the result. Once `stop` is
    /// set the search ends soon: `go` still answers with the best move found so far, `hint`
    /// and `analyze` give what they have finished, `learn` keeps what it has scored.
    ///
    /// A `learn` task returns the book with the game learnt: the caller keeps it (saves it,
    /// if it came from a file) and hands it to [`NBoard::learned`] for the `learned` answer.
    /// Other tasks return `None`.
    pub fn run(
        &self,
        engine: &mut Engine,
        stop: &AtomicBool,
        emit: &mut dyn FnMut(String),
    ) -> Option<LearntBook> {
        let start = Instant::now();
        let mut learnt = None;
        match &self.kind {
            TaskKind::Go(spot) => self.go(spot, engine, stop, emit, start),
            TaskKind::Hint(spot, count) => self.hint(spot, *count, engine, stop, emit, start),
            TaskKind::Analyze(spots) => self.analyze(spots, engine, stop, emit),
            TaskKind::Learn(line) => learnt = Some(self.learn(line, engine, stop, emit)),
        }
        emit("status".to_owned());
        learnt
    }

    /// Whether the task learns a game (`learn`). Front ends stop it only when the session
    /// ends: a `ping` waits for it, as in Edax, so that no scored position is thrown away.
    #[must_use]
    pub fn is_learn(&self) -> bool {
        matches!(self.kind, TaskKind::Learn(_))
    }

    fn learn(
        &self,
        line: &[Position],
        engine: &mut Engine,
        stop: &AtomicBool,
        emit: &mut dyn FnMut(String),
    ) -> LearntBook {
        let mut book = self.book.as_deref().cloned().unwrap_or_default();
        let learned = learn(
            &mut book,
            line,
            self.depth,
            engine,
            stop,
            &mut |done, total| {
                emit(format!(
                    "status learning the game at depth {}: {done} of {total} positions",
                    self.depth
                ));
            },
        );
        LearntBook { book, learned }
    }

    fn go(
        &self,
        spot: &Spot,
        engine: &mut Engine,
        stop: &AtomicBool,
        emit: &mut dyn FnMut(String),
        start: Instant,
    ) {
        if spot.must_pass() {
            emit("=== PA".to_owned());
            return;
        }
        if let Some(best) = self
            .book_moves(&spot.game)
            .and_then(|moves| moves.first().copied())
        {
            emit(format!(
                "=== {}/{}/{}",
                best.square,
                eval_text(best.value),
                seconds(start.elapsed(), 1)
            ));
            return;
        }
        emit(format!("status thinking at depth {}", self.depth));
        let Some(report) = self.search(&spot.game, engine, stop, emit, start) else {
            return;
        };
        emit(format!(
            "=== {}/{}/{}",
            report.best_move,
            eval_text(report.score),
            seconds(start.elapsed(), 1)
        ));
    }

    fn hint(
        &self,
        spot: &Spot,
        count: usize,
        engine: &mut Engine,
        stop: &AtomicBool,
        emit: &mut dyn FnMut(String),
        start: Instant,
    ) {
        let game = &spot.game;
        if let Some(book) = self.book.as_ref().filter(|_| !spot.must_pass())
            && let Some(moves) = book.moves(game)
        {
            for m in moves.iter().take(count) {
                let mut after = game.clone();
                after.play(m.square).expect("book moves are legal");
                let mut line = vec![m.square];
                line.extend(book.line(&after));
                let depth = book.get(&after).map_or(0, |known| known.entry.depth);
                emit(format!(
                    "book {} {} 0 {depth}",
                    line_text(game, &line),
                    eval_text(m.value)
                ));
            }
            return;
        }
        emit(format!("status thinking at depth {}", self.depth));
        let moves = game.legal_moves();
        let mut valued = Vec::new();
        if spot.must_pass() || count == 1 || moves.len() == 1 {
            let Some(report) = self.search(game, engine, stop, emit, start) else {
                return;
            };
            let line = line_text(game, &report.pv);
            let (line, score) = if spot.must_pass() {
                (format!("PA{line}"), -report.score)
            } else {
                (line, report.score)
            };
            valued.push(Valued {
                line,
                score,
                exact: report.exact,
                depth: report.depth,
                confidence: report.confidence,
            });
        } else {
            let limits = limits_for_depth(self.depth, game.board().empties()).one_ply_less();
            let mut on_valued = |values: &[MoveValue], total: usize| {
                let best = values
                    .iter()
                    .min_by_key(|value| std::cmp::Reverse(value.score))
                    .expect("a move was just valued");
                emit(format!(
                    "status searched {} of {total} moves; best so far {} {}",
                    values.len(),
                    best.square,
                    eval_text(best.score)
                ));
                let nodes: u64 = values.iter().map(|value| value.nodes).sum();
                emit(format!("nodestats {nodes} {}", seconds(start.elapsed(), 2)));
            };
            let Ok(move_values) = engine.move_values(game, &limits, stop, &mut on_valued) else {
                return;
            };
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                return;
            }
            valued.extend(move_values.into_iter().map(|value| Valued {
                line: line_text(game, &value.line),
                score: value.score,
                exact: value.exact,
                depth: value.depth,
                confidence: value.confidence,
            }));
            // Best first; among equal scores, exact ones first, then in board order.
            valued.sort_by_key(|value| (std::cmp::Reverse(value.score), !value.exact));
        }
        for value in valued.iter().take(count) {
            emit(format!(
                "search {} {} 0 {}",
                value.line,
                eval_text(value.score),
                value.depth_text()
            ));
        }
    }

    fn analyze(
        &self,
        spots: &[Spot],
        engine: &mut Engine,
        stop: &AtomicBool,
        emit: &mut dyn FnMut(String),
    ) {
        emit(format!("status analyzing at depth {}", self.depth));
        for (number, spot) in spots.iter().enumerate().rev() {
            let value = match spot.game.turn() {
                None => spot.game.margin(spot.nominal),
                Some(turn) => {
                    let limits = limits_for_depth(self.depth, spot.game.board().empties());
                    let Ok(report) = engine.search_with(&spot.game, &limits, stop, &mut |_| {})
                    else {
                        return;
                    };
                    if stop.load(std::sync::atomic::Ordering::Relaxed) {
                        return;
                    }
                    if turn == spot.nominal {
                        report.score
                    } else {
                        -report.score
                    }
                }
            };
            emit(format!("analysis {number} {}", eval_text(value)));
        }
    }

    /// The book's moves for `game`, best first, if the task has a book that holds it expanded.
    fn book_moves(&self, game: &Game) -> Option<Vec<crate::book::BookMove>> {
        self.book.as_ref()?.moves(game)
    }

    /// Searches `game` to the task's depth (exact near the end), reporting each completed
    /// iteration as a `status` line and `nodestats`; `None` if the engine cannot search it.
    fn search(
        &self,
        game: &Game,
        engine: &mut Engine,
        stop: &AtomicBool,
        emit: &mut dyn FnMut(String),
        start: Instant,
    ) -> Option<SearchReport> {
        let limits = limits_for_depth(self.depth, game.board().empties());
        let mut progress = |report: &SearchReport| {
            emit(format!(
                "status {}: {} {}",
                report.iteration_text(),
                report.best_move,
                eval_text(report.score)
            ));
            emit(format!(
                "nodestats {} {}",
                report.nodes,
                seconds(start.elapsed(), 2)
            ));
        };
        engine.search_with(game, &limits, stop, &mut progress).ok()
    }
}

/// A duration in seconds with `decimals` decimals.
fn seconds(elapsed: Duration, decimals: usize) -> String {
    format!("{:.*}", decimals, elapsed.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EngineConfig;

    fn run(task: &Task) -> Vec<String> {
        let mut engine = Engine::new(EngineConfig {
            hash_mb: 1,
            ..EngineConfig::default()
        });
        let mut lines = Vec::new();
        task.run(&mut engine, &AtomicBool::new(false), &mut |line| {
            lines.push(line);
        });
        lines
    }

    #[test]
    fn moves_passes_and_refusals() {
        let mut nboard = NBoard::new();
        assert!(nboard.handle("move F5").notes.is_empty());
        assert!(nboard.handle("move d6/0.50/1.2").notes.is_empty());
        let refused = nboard.handle("move a1");
        assert_eq!(
            refused.notes,
            ["move \"a1\": a1 is not a legal move for black: it flips no discs; position kept"]
        );
        assert_eq!(
            nboard.handle("move PA").notes,
            ["move \"PA\": black has a legal move and cannot pass; position kept"]
        );
        assert_eq!(
            nboard.handle("move zz").notes,
            [
                "move \"zz\": expected a square such as d3, 3d or \"3 4\" (row column), found \"zz\"; position kept"
            ]
        );
        assert_eq!(nboard.spots.len(), 3);
        // A bare square is a move, as in version 1.
        assert!(nboard.handle("c3").notes.is_empty());
        assert_eq!(nboard.spots.len(), 4);
        assert_eq!(
            nboard.handle("frobnicate").notes,
            ["unknown command ignored: \"frobnicate\""]
        );
    }

    #[test]
    fn pings_settings_and_learning() {
        let mut nboard = NBoard::new();
        assert_eq!(nboard.handle("ping 7").lines, ["pong 7"]);
        assert!(nboard.handle("ping x").lines.is_empty());
        assert!(nboard.handle("set depth 4").notes.is_empty());
        assert_eq!(nboard.depth(), 4);
        for refused in ["0", "61", "99", "900"] {
            assert_eq!(
                nboard.handle(&format!("set depth {refused}")).notes,
                [format!(
                    "set depth: expected a depth from 1 to 60, found \"{refused}\""
                )]
            );
            assert_eq!(nboard.depth(), 4, "set depth {refused}");
        }
        nboard.handle("set depth 60");
        assert_eq!(nboard.depth(), MAX_DEPTH);
        nboard.handle("set contempt 150");
        assert_eq!(nboard.contempt(), 150);
        // Without a book, nothing to learn into.
        let learn = nboard.handle("learn");
        assert_eq!(learn.lines, ["learned"]);
        assert_eq!(
            learn.notes,
            ["learn: no opening book in use; nothing stored"]
        );
        assert!(learn.task.is_none());
        assert!(nboard.handle("quit").quit);
        assert!(is_interrupt("ping 3") && is_interrupt("quit") && !is_interrupt("go"));
        assert!(is_quit(" quit ") && !is_quit("ping 3") && !is_quit("quitting"));
    }

    #[test]
    fn learn_adds_the_game_to_the_book_that_go_and_hint_then_answer_from() {
        let mut nboard = NBoard::new();
        nboard.set_book(Some(Arc::new(Book::new())));
        for command in ["set depth 2", "move f5", "move d6", "move c3"] {
            nboard.handle(command);
        }
        let reply = nboard.handle("learn");
        assert!(
            reply.lines.is_empty() && reply.notes.is_empty(),
            "{reply:?}"
        );
        let task = reply.task.expect("learn is a task");
        assert!(task.is_learn());
        let mut engine = Engine::new(EngineConfig {
            hash_mb: 1,
            ..EngineConfig::default()
        });
        let mut lines = Vec::new();
        let learnt = task
            .run(&mut engine, &AtomicBool::new(false), &mut |line| {
                lines.push(line);
            })
            .expect("a learn task returns its book");
        assert_eq!(
            lines,
            [
                "status learning the game at depth 2: 0 of 4 positions",
                "status learning the game at depth 2: 1 of 4 positions",
                "status learning the game at depth 2: 2 of 4 positions",
                "status learning the game at depth 2: 3 of 4 positions",
                "status learning the game at depth 2: 4 of 4 positions",
                "status",
            ]
        );
        assert_eq!(learnt.learned.expanded, 4);
        assert_eq!(learnt.learned.added, learnt.book.len());
        // The session's book is the learnt one only once the front end hands it back.
        assert!(nboard.book().unwrap().is_empty());
        assert_eq!(nboard.learned(learnt.book).lines, ["learned"]);
        let hint = nboard.handle("hint 2").task.expect("hint is a task");
        let lines = run(&hint);
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(
            lines[0].starts_with("book ") && lines[1].starts_with("book "),
            "{lines:?}"
        );
        // A game the book cannot hold is not learnt.
        nboard.handle("set game (;GM[Othello]PC[NBoard]SZ[6]BO[6 ------ ------ --O*-- --*O-- ------ ------ *];)");
        let learn = nboard.handle("learn");
        assert_eq!(learn.lines, ["learned"]);
        assert_eq!(
            learn.notes,
            [
                "learn: the opening book holds 8x8 games under FULL rules, most discs wins; nothing stored"
            ]
        );
    }

    #[test]
    fn hints_agree_with_go_where_both_solve_exactly() {
        // 12 empties before the end of the fixture's first game: depth 6 solves from 12.
        let text = include_str!("../../../../fixtures/records/two-games.ggf");
        let record = &ggf::read(text).unwrap()[0];
        let (game, _) = record.positions()[48].clone();
        assert_eq!(game.board().empties(), 12);
        let mut nboard = NBoard::new();
        let start =
            othello_records::GameRecord::from_position(&game, othello_records::Metadata::default());
        assert!(
            nboard
                .handle(&format!("set game {}", ggf::game(&start)))
                .notes
                .is_empty()
        );
        nboard.handle("set depth 6");
        let moves = game.legal_moves().len();
        let hints = run(&nboard.handle("hint 99").task.unwrap());
        let searched: Vec<&String> = hints
            .iter()
            .filter(|line| line.starts_with("search "))
            .collect();
        assert_eq!(searched.len(), moves, "{hints:?}");
        assert!(
            searched.iter().all(|line| line.ends_with(" 0 100%")),
            "{hints:?}"
        );
        let go = run(&nboard.handle("go").task.unwrap());
        let answer = go.iter().find(|line| line.starts_with("=== ")).unwrap();
        let fields: Vec<&str> = answer[4..].split('/').collect();
        let best: Vec<&str> = searched[0].split(' ').collect();
        // The best hint's value is go's; its move is go's or another as good.
        assert_eq!(best[2], fields[1], "{hints:?} {go:?}");
        assert!(
            searched
                .iter()
                .any(|line| line.starts_with(&format!("search {}", fields[0]))
                    && line.split(' ').nth(2) == Some(fields[1]))
        );
        let one = run(&nboard.handle("hint 1").task.unwrap());
        assert!(
            one.iter()
                .any(|line| line.starts_with(&format!("search {}", fields[0]))),
            "{one:?}"
        );
    }

    /// A session at a position of 18 empties of the fixture's first game, searched to the
    /// end: a selective solve, then the exact one.
    fn at_18_empties() -> NBoard {
        let text = include_str!("../../../../fixtures/records/two-games.ggf");
        let record = &ggf::read(text).unwrap()[0];
        let (game, _) = record
            .positions()
            .into_iter()
            .find(|(game, _)| game.board().empties() == 18)
            .unwrap();
        let mut nboard = NBoard::new();
        let start =
            othello_records::GameRecord::from_position(&game, othello_records::Metadata::default());
        nboard.handle(&format!("set game {}", ggf::game(&start)));
        nboard.handle("set depth 60");
        nboard
    }

    #[test]
    fn a_hint_stopped_during_the_exact_solve_shows_the_selective_depth() {
        let mut nboard = at_18_empties();
        let task = nboard.handle("hint 1").task.unwrap();
        let mut engine = Engine::new(EngineConfig {
            hash_mb: 1,
            ..EngineConfig::default()
        });
        // Stopped as soon as the selective solve is reported, as a ping would stop it.
        let stop = AtomicBool::new(false);
        let mut lines = Vec::new();
        task.run(&mut engine, &stop, &mut |line| {
            if line.starts_with("status 18@87%") {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            lines.push(line);
        });
        let searched: Vec<&String> = lines.iter().filter(|l| l.starts_with("search ")).collect();
        assert_eq!(searched.len(), 1, "{lines:?}");
        assert!(searched[0].ends_with(" 0 18@87%"), "{lines:?}");
    }

    #[test]
    fn a_selective_solve_shows_in_the_status_before_the_exact_one() {
        let mut nboard = at_18_empties();
        let go = run(&nboard.handle("go").task.unwrap());
        let status: Vec<&str> = go
            .iter()
            .filter_map(|line| line.strip_prefix("status "))
            .filter_map(|line| line.split(':').next())
            .collect();
        let selective = status.iter().position(|&s| s == "18@87%");
        let exact = status.iter().position(|&s| s == "exact");
        assert!(selective.is_some() && selective < exact, "{go:?}");
    }

    #[test]
    fn a_pass_nboard_has_not_sent_yet_is_answered_pa() {
        // Black plays a1 in the fixture's first game; white then has no move.
        let text = include_str!("../../../../fixtures/records/two-games.ggf");
        let record = &ggf::read(text).unwrap()[0];
        let ggf_text = ggf::game(record);
        assert!(ggf_text.contains("B[a1]W[PA]B[g2];)"));
        let before_end = ggf_text.replace("W[PA]B[g2]", "");
        let mut nboard = NBoard::new();
        assert!(
            nboard
                .handle(&format!("set game {before_end}"))
                .notes
                .is_empty()
        );
        assert!(nboard.current().must_pass());
        let lines = run(&nboard.handle("go").task.unwrap());
        assert_eq!(lines, ["=== PA", "status"]);
        let lines = run(&nboard.handle("hint 2").task.unwrap());
        assert!(
            lines.iter().any(|line| line.starts_with("search PAg2 ")),
            "{lines:?}"
        );
        assert!(nboard.handle("move PA").notes.is_empty());
        assert!(nboard.handle("move g2").notes.is_empty());
        assert!(nboard.game().is_over());
        let after_end = nboard.handle("go");
        assert!(after_end.task.is_none());
        assert_eq!(after_end.lines, ["=== PA", "status"]);
        // The analysis starts from the end: white, nominally to move, lost by 20.
        nboard.handle("set depth 1");
        let lines = run(&nboard.handle("analyze").task.unwrap());
        assert_eq!(
            lines[..2],
            ["status analyzing at depth 1", "analysis 61 -20.00"]
        );
        assert_eq!(lines.len(), 62 + 2);
        assert_eq!(lines.last().unwrap(), "status");
    }

    #[test]
    fn hint_progress_names_squares_beyond_row_nine_in_full() {
        // 10x10, black to move with two moves, both on row 10: a10 and c10.
        let dims = Dimensions::new(10, 10).unwrap();
        let mut board = othello::Board::empty(dims);
        for (row, col, color) in [
            (7, 0, Color::Black),
            (8, 0, Color::White),
            (7, 2, Color::Black),
            (8, 2, Color::White),
        ] {
            board.set(Square::new(row, col), Some(color)).unwrap();
        }
        let setup = Setup {
            board,
            first: Color::Black,
            win: othello::WinRule::MostDiscs,
        };
        let game = Game::new(setup, RuleSet::Full);
        let legal: Vec<String> = game.legal_moves().iter().map(Square::to_string).collect();
        assert_eq!(legal, ["a10", "c10"]);
        let task = Task {
            kind: TaskKind::Hint(Spot::new(game), 2),
            depth: 2,
            book: None,
        };
        let lines = run(&task);
        let named: Vec<&str> = lines
            .iter()
            .filter_map(|line| line.strip_prefix("status searched "))
            .map(|rest| rest.split(' ').nth(7).unwrap())
            .collect();
        assert_eq!(named.len(), 2, "{lines:?}");
        assert!(
            named.iter().all(|square| legal.iter().any(|m| m == square)),
            "{lines:?}"
        );
    }
}
