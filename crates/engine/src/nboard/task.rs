//! The searches an NBoard session asks for ([`Task`]: `go`, `hint`, `analyze`, `learn`), run
//! apart from the session so that a front end can run them on another thread and stop them.

use crate::clock::Instant;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::book::build::{Learned, learn};
use crate::book::{Book, BookPosition};
use crate::depth::limits_for_depth;
use crate::{Engine, MoveValue, SearchReport};
use othello::Game;

use super::Spot;
use super::text::{eval_text, line_text, seconds};

/// A search asked for by `go`, `hint`, `analyze` or `learn`, to run with [`Task::run`].
#[derive(Clone, Debug)]
pub struct Task {
    pub(super) kind: TaskKind,
    pub(super) depth: u32,
    pub(super) book: Option<Arc<Book>>,
}

/// What a task searches.
#[derive(Clone, Debug)]
pub(super) enum TaskKind {
    Go(Spot),
    Hint(Spot, usize),
    Analyze(Vec<Spot>),
    /// The game's positions, to add to the book.
    Learn(Vec<BookPosition>),
}

/// The book a `learn` task made, and what it added.
#[derive(Clone, Debug)]
pub struct LearntBook {
    /// The task's book with the game learnt.
    pub book: Book,
    /// What learning added.
    pub learned: Learned,
}

/// Where a task's lines go, and whom it tells that it has an answer.
struct Out<'a> {
    emit: &'a mut dyn FnMut(String),
    answered: &'a mut dyn FnMut(),
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
    /// with its moves valued as deep as it got (when it values several, every move at least
    /// one ply deep after it), `analyze` gives what it has finished, `learn` keeps what it has scored.
    ///
    /// A `learn` task returns the book with the game learnt: the caller keeps it (saves it,
    /// if it came from a file) and hands it to [`NBoard::learned`](super::NBoard::learned) for the `learned` answer.
    /// Other tasks return `None`.
    pub fn run(
        &self,
        engine: &mut Engine,
        stop: &AtomicBool,
        emit: &mut dyn FnMut(String),
    ) -> Option<LearntBook> {
        self.run_noting_answers(engine, stop, emit, &mut || {})
    }

    /// [`Task::run`], calling `answered` whenever the task has an answer it would give if
    /// stopped now: after each completed iteration of a search (depth 1 the first), at once
    /// for a `hint` of several moves (stopped, it values them one ply deep), after each position
    /// of an `analyze`, and at once for an answer from the book or a forced pass. A front end that stops a search on its own
    /// (at the end of its input) waits for the first call, so that the search answers at least
    /// once.
    pub fn run_noting_answers(
        &self,
        engine: &mut Engine,
        stop: &AtomicBool,
        emit: &mut dyn FnMut(String),
        answered: &mut dyn FnMut(),
    ) -> Option<LearntBook> {
        let start = Instant::now();
        let mut learnt = None;
        let mut out = Out { emit, answered };
        match &self.kind {
            TaskKind::Go(spot) => self.go(spot, engine, stop, &mut out, start),
            TaskKind::Hint(spot, count) => self.hint(spot, *count, engine, stop, &mut out, start),
            TaskKind::Analyze(spots) => self.analyze(spots, engine, stop, &mut out),
            TaskKind::Learn(line) => {
                (out.answered)();
                learnt = Some(self.learn(line, engine, stop, out.emit));
            }
        }
        (out.emit)("status".to_owned());
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
        line: &[BookPosition],
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
        out: &mut Out,
        start: Instant,
    ) {
        let emit = &mut *out.emit;
        if spot.must_pass() {
            (out.answered)();
            emit("=== PA".to_owned());
            return;
        }
        if let Some(best) = self
            .book_moves(&spot.game)
            .and_then(|moves| moves.first().copied())
        {
            (out.answered)();
            emit(format!(
                "=== {}/{}/{}",
                best.square,
                eval_text(best.value),
                seconds(start.elapsed(), 1)
            ));
            return;
        }
        emit(format!("status thinking at depth {}", self.depth));
        let Some(report) = self.search(&spot.game, engine, stop, out, start) else {
            return;
        };
        (out.emit)(format!(
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
        out: &mut Out,
        start: Instant,
    ) {
        let game = &spot.game;
        if let Some(book) = self.book.as_ref().filter(|_| !spot.must_pass())
            && let Some(moves) = book.moves(game)
        {
            (out.answered)();
            for m in moves.iter().take(count) {
                let mut after = game.clone();
                after.play(m.square).expect("book moves are legal");
                let mut line = vec![m.square];
                line.extend(book.line(&after));
                let depth = book.get(&after).map_or(0, |known| known.entry.depth);
                (out.emit)(format!(
                    "book {} {} 0 {depth}",
                    line_text(game, &line),
                    eval_text(m.value)
                ));
            }
            return;
        }
        (out.emit)(format!("status thinking at depth {}", self.depth));
        let moves = game.legal_moves();
        let mut valued = Vec::new();
        if spot.must_pass() || count == 1 || moves.len() == 1 {
            let Some(report) = self.search(game, engine, stop, out, start) else {
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
            let emit = &mut *out.emit;
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
            // Stopped before every move is valued, the hint values them one ply deep after the
            // move (a moment's work, not stopped): it has an answer from the start.
            (out.answered)();
            let move_values = match engine.move_values(game, &limits, stop, &mut on_valued) {
                Ok(full) if !stop.load(std::sync::atomic::Ordering::Relaxed) => full,
                Ok(_) => match engine.move_values(
                    game,
                    &crate::Limits::depth(1),
                    &AtomicBool::new(false),
                    &mut |_, _| {},
                ) {
                    Ok(shallow) => shallow,
                    Err(_) => return,
                },
                Err(_) => return,
            };
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
            (out.emit)(format!(
                "search {} {} 0 {}",
                value.line,
                eval_text(value.score),
                value.depth_text()
            ));
        }
    }

    fn analyze(&self, spots: &[Spot], engine: &mut Engine, stop: &AtomicBool, out: &mut Out) {
        (out.emit)(format!("status analyzing at depth {}", self.depth));
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
            (out.answered)();
            (out.emit)(format!("analysis {number} {}", eval_text(value)));
        }
    }

    /// The book's moves for `game`, best first, if the task has a book that holds it expanded.
    fn book_moves(&self, game: &Game) -> Option<Vec<crate::book::BookMove>> {
        self.book.as_ref()?.moves(game)
    }

    /// Searches `game` to the task's depth (exact near the end), reporting each completed
    /// iteration as a `status` line and `nodestats` (and as an answer); `None` if the engine
    /// cannot search it.
    fn search(
        &self,
        game: &Game,
        engine: &mut Engine,
        stop: &AtomicBool,
        out: &mut Out,
        start: Instant,
    ) -> Option<SearchReport> {
        let limits = limits_for_depth(self.depth, game.board().empties());
        let Out { emit, answered } = out;
        let mut progress = |report: &SearchReport| {
            answered();
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
