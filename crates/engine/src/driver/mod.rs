//! From a game to a report: picks the rule set, bit width and processor once, then runs iterative
//! deepening, the exact solve and the root searches, on one thread or several sharing the
//! transposition table ([`threads`]); a move's share of the clock is kept by [`pace`].

mod pace;
mod pool;
#[cfg(test)]
mod tests;
mod threads;

use crate::clock::Instant;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicU64, Ordering};
use std::time::Duration;

use super::bounds::Window;
use super::eval::{SCALE, evaluate};
use super::limits::{EngineConfig, Limits};
use super::report::SearchReport;
use super::search::{Budget, Searcher};
use super::shape::{Evaluation, Scoring, Shape};
use super::tt::Tables;
use othello::Board;
use othello::Color;
use othello::WinRule;
use othello::bitboard::{Bits, SearchBits, mix64};
use othello::cpu::Cpu;
use othello::position::{Position, Visitor, dispatch};
use othello::{RuleSet, Rules};

use pace::Pace;
use pool::Pool;
use threads::{HELPER_THREADS_A_PLACE, RootMove, Team, root_search, solve_split};

/// One search to run: the position and its rules, how it is scored and evaluated, the limits,
/// the engine's settings and the flags the search shares with its caller.
pub(crate) struct SearchJob<'a> {
    pub board: &'a Board,
    pub turn: Color,
    pub rules: RuleSet,
    pub win: WinRule,
    pub scoring: Scoring,
    pub evaluation: &'a Evaluation,
    /// Whether the midgame search may use probabilistic cut-offs.
    pub selective: bool,
    pub limits: Limits,
    pub config: EngineConfig,
    pub stop: &'a AtomicBool,
    /// The running total of positions visited, for progress displays.
    pub visited: &'a AtomicU64,
}

/// Empties from which the exact solve follows selective ones ([`SELECTIVITIES`]).
const SELECTIVE_SOLVE_MIN: u32 = 18;

/// The selective solves before the exact one, as Edax runs them: each cut-off's margin in
/// standard deviations of the model's error, and the chance in percent that a normal error
/// stays within it (Edax's `@87%`). They leave the table a score to aim the exact solve's window
/// at and best moves to order it by; a search stopped during the exact solve reports the last
/// of them. One solve at 1.5 took FFO #40-#49 and the tuning positions the fewest nodes
/// (docs/engine.md, "Exact solver").
const SELECTIVITIES: [(f64, u32); 1] = [(1.5, 87)];

/// Empties at or below which a search with a time or node limit tries to solve exactly.
const EXACT_WITH_LIMITS_MAX: u32 = 24;

/// The midgame depth searched before an exact solve at `n` empties, to order the root moves
/// and guess the score.
fn depth_before_solve(n: u32) -> u32 {
    n.saturating_sub(12).min(10)
}

/// Runs the search the job describes on the tables (a small one for each of
/// `job.config.threads`).
pub(crate) fn run(
    job: &SearchJob,
    tables: &Tables,
    on_progress: &mut dyn FnMut(&SearchReport),
) -> SearchReport {
    struct Run<'r, 'a, 'p> {
        job: &'r SearchJob<'a>,
        tables: &'r Tables,
        on_progress: &'p mut dyn FnMut(&SearchReport),
    }
    impl Visitor for Run<'_, '_, '_> {
        type Output = SearchReport;
        fn call<R: Rules, B: SearchBits, C: Cpu>(self, cpu: C) -> SearchReport {
            run_with::<B, R, C>(cpu, self.job, self.tables, self.on_progress)
        }
    }
    let dims = job.board.dims();
    let run = Run {
        job,
        tables,
        on_progress,
    };
    dispatch(job.rules, dims, run)
}

/// What iterative deepening found: the last completed iteration's result, or before the first
/// one the best-looking move.
struct BestLine {
    best: u32,
    score: i32,
    exact: bool,
    depth: u32,
    confidence: Option<u32>,
    pv: Vec<u32>,
}

/// Runs the search at width `B` under rule set `R` with the copy of the recursive searches
/// compiled for processor `cpu`.
fn run_with<B: SearchBits, R: Rules, C: Cpu>(
    cpu: C,
    job: &SearchJob,
    tables: &Tables,
    on_progress: &mut dyn FnMut(&SearchReport),
) -> SearchReport {
    let shape = Shape::<B>::new(
        job.board.dims(),
        job.rules,
        job.win,
        job.scoring,
        job.evaluation,
        job.selective,
    );
    let start = Instant::now();
    let position = Position::<B>::from_board(job.board, job.turn);
    let salt = mix64(job.config.seed ^ 0x0123_4567_89ab_cdef);
    let deadline = job.limits.time.map(|time| start + time);
    let helpers = job.config.threads.max(1) - 1;
    let pool = Pool::new(helpers * HELPER_THREADS_A_PLACE);
    let team = Team {
        shape: &shape,
        tables,
        cpu,
        salt,
        helpers,
        stop: job.stop,
        visited: job.visited,
        deadline,
        helper_nodes: AtomicU64::new(0),
        counters: threads::Counters::default(),
        free: AtomicIsize::new(isize::try_from(helpers).unwrap_or(isize::MAX)),
        small_free: Mutex::new((1..=helpers).rev().collect()),
        pool: &pool,
    };
    let budget = Budget {
        stops: [job.stop, job.stop],
        deadline,
        max_nodes: job.limits.nodes,
        visited: job.visited,
    };
    let mut searcher =
        Searcher::<B, R, C>::new(&shape, &tables.main, &tables.small[0], budget, salt, cpu);
    if helpers > 0 {
        searcher.split = Some(&team);
    }
    let best_line = iterate(
        &mut searcher,
        &team,
        position,
        job,
        &mut |best_line, nodes| {
            on_progress(&report(&shape, best_line, nodes, start.elapsed()));
        },
    );
    let nodes = searcher.nodes + team.helper_nodes.load(Ordering::Relaxed);
    let mut last = report(&shape, &best_line, nodes, start.elapsed());
    last.threads = team.counters.counts(team.helpers);
    last
}

fn report<B: Bits>(
    shape: &Shape<B>,
    best_line: &BestLine,
    nodes: u64,
    elapsed: Duration,
) -> SearchReport {
    let geo = &shape.geo;
    SearchReport {
        best_move: geo.square(best_line.best),
        score: best_line.score,
        exact: best_line.exact,
        depth: best_line.depth,
        confidence: best_line.confidence,
        pv: best_line
            .pv
            .iter()
            .map(|&index| geo.square(index))
            .collect(),
        nodes,
        elapsed,
        threads: crate::ThreadCounts::default(),
    }
}

/// Rounds an evaluation to discs.
fn to_discs(score: i32) -> i32 {
    (score + score.signum() * SCALE / 2) / SCALE
}

/// Iterative deepening, then the exact solve when the limits allow it. Always returns a move:
/// before the first iteration completes, the best-looking one.
fn iterate<B: SearchBits, R: Rules, C: Cpu>(
    searcher: &mut Searcher<B, R, C>,
    team: &Team<B, C>,
    position: Position<B>,
    job: &SearchJob,
    on_progress: &mut dyn FnMut(&BestLine, u64),
) -> BestLine {
    let shape = searcher.shape();
    let n = position.empties(&shape.geo).count();
    let limits = &job.limits;
    let mut root: Vec<RootMove> = searcher
        .moves(position)
        .members()
        .map(|index| RootMove {
            index,
            score: -evaluate::<B, R, C>(shape, searcher.play(position, index), searcher.cpu()),
        })
        .collect();
    root.sort_by_key(|m| std::cmp::Reverse(m.score));
    let mut best_line = BestLine {
        best: root[0].index,
        score: to_discs(root[0].score),
        exact: false,
        depth: 0,
        confidence: None,
        pv: vec![root[0].index],
    };
    let exact_allowed = limits.depth.is_none_or(|depth| depth >= n);
    let limited = limits.is_limited();
    let solve_at = |depth: u32| {
        exact_allowed
            && (depth >= n
                || (depth > depth_before_solve(n) && (!limited || n <= EXACT_WITH_LIMITS_MAX)))
    };
    let mut pace = Pace::new(limits.target);
    let mut guess = None;
    let mut depth = 1;
    loop {
        if solve_at(depth) {
            // A floor guesses better than a selective solve would.
            if shape.endcut.is_some() && n >= SELECTIVE_SOLVE_MIN && limits.floor.is_none() {
                guess = selective_solves(
                    searcher,
                    team,
                    position,
                    &mut root,
                    guess,
                    &mut best_line,
                    on_progress,
                );
            }
            if let Some(score) =
                solve_root(searcher, team, position, &mut root, guess, limits.floor)
            {
                best_line = BestLine {
                    best: root[0].index,
                    score,
                    exact: true,
                    depth: n,
                    confidence: None,
                    pv: principal_variation(searcher, position, root[0].index, Some(score), n),
                };
                on_progress(&best_line, searcher.nodes);
            }
            break;
        }
        if limits.depth.is_some_and(|limit| depth > limit) {
            break;
        }
        let began = Instant::now();
        let child = |s: &mut Searcher<B, R, C>, p, w| s.midgame_child(p, w, depth);
        match root_search(
            searcher,
            team,
            position,
            &mut root,
            Window::FULL,
            &child,
            &child,
        ) {
            Some(score) => {
                guess = Some(to_discs(score));
                best_line = BestLine {
                    best: root[0].index,
                    score: to_discs(score),
                    exact: false,
                    depth,
                    confidence: None,
                    pv: principal_variation(searcher, position, root[0].index, None, depth),
                };
                on_progress(&best_line, searcher.nodes);
            }
            None => break,
        }
        // The share of the clock stops the deepening, never the exact solve that follows
        // (the hard limits bound that).
        if pace.next_would_overrun(began) && !solve_at(depth + 1) {
            break;
        }
        depth += 1;
    }
    best_line
}

/// The selective solves ([`SELECTIVITIES`]) before the exact one: each that completes becomes
/// `best_line`, is reported and aims the next solve's window; returns the last one's score
/// (else `guess`).
fn selective_solves<B: SearchBits, R: Rules, C: Cpu>(
    searcher: &mut Searcher<B, R, C>,
    team: &Team<B, C>,
    position: Position<B>,
    root: &mut [RootMove],
    mut guess: Option<i32>,
    best_line: &mut BestLine,
    on_progress: &mut dyn FnMut(&BestLine, u64),
) -> Option<i32> {
    let n = position.empties(&searcher.shape().geo).count();
    for (t, confidence) in SELECTIVITIES {
        searcher.end_cut = Some(t);
        if let Some(score) = solve_root(searcher, team, position, root, guess, None) {
            guess = Some(score);
            *best_line = BestLine {
                best: root[0].index,
                score,
                exact: false,
                depth: n,
                confidence: Some(confidence),
                pv: principal_variation(searcher, position, root[0].index, None, n),
            };
            on_progress(best_line, searcher.nodes);
        }
        searcher.end_cut = None;
        if searcher.aborted {
            break;
        }
    }
    guess
}

/// The exact root search, with an aspiration window around `guess`, or from a null window
/// at `floor`, a score the position is known to reach.
fn solve_root<B: SearchBits, R: Rules, C: Cpu>(
    searcher: &mut Searcher<B, R, C>,
    team: &Team<B, C>,
    position: Position<B>,
    root: &mut [RootMove],
    guess: Option<i32>,
    floor: Option<i32>,
) -> Option<i32> {
    let cells = searcher.shape().cells;
    let (mut low, mut high) = match (floor, guess) {
        (Some(floor), _) => (floor - 1, floor + 1),
        (None, Some(guess)) => (guess - 3, guess + 3),
        (None, None) => (-cells - 1, cells + 1),
    };
    // An exact score that fails low (high) is an upper (lower) bound, so the other end of the
    // window closes in on it. A selective solve's scores bound nothing (its cut-offs change
    // with the window, and it can fail low, then high, then low again), so its window only
    // widens, which ends the loop at the full window at the latest.
    let exact = searcher.end_cut.is_none();
    let mut widen = 8;
    loop {
        let first = |s: &mut Searcher<B, R, C>, p, w| solve_split(s, team, p, w);
        let child = |s: &mut Searcher<B, R, C>, p, w| s.solve_child(p, w);
        let window = Window {
            alpha: low,
            beta: high,
        };
        let score = root_search(searcher, team, position, root, window, &first, &child)?;

        if score <= low && low > -cells - 1 {
            low = (score - widen).max(-cells - 1);
            if exact {
                high = score + 1;
            }
        } else if score >= high && high < cells + 1 {
            high = (score + widen).min(cells + 1);
            if exact {
                low = score - 1;
            }
        } else {
            return Some(score);
        }
        widen *= 2;
    }
}

/// The line of play from `position` through `first`, `depth` moves at most. An exact line
/// (`exact`, the exact score of `position`) takes each move the table proves keeps the score,
/// or one a null-window solve proves does; an estimate takes the table's moves.
fn principal_variation<B: SearchBits, R: Rules, C: Cpu>(
    searcher: &mut Searcher<B, R, C>,
    position: Position<B>,
    first: u32,
    exact: Option<i32>,
    depth: u32,
) -> Vec<u32> {
    let mut line = Vec::new();
    let mut position = position;
    // The exact score of `position` for its mover.
    let mut value = exact;
    let mut next = Some(first);
    while let Some(index) = next {
        if searcher.aborted || line.len() as u32 >= depth {
            break;
        }
        line.push(index);
        position = searcher.play(position, index);
        value = value.map(|v| -v);
        if searcher.moves(position).is_empty() {
            position = position.passed();
            value = value.map(|v| -v);
        }
        let moves = searcher.moves(position);
        if moves.is_empty() {
            break;
        }
        next = match value {
            Some(v) => searcher.move_reaching(position, v),
            None => searcher
                .table_move(position, searcher.end_cut.is_some())
                .filter(|&m| moves.has(m)),
        };
    }
    line
}
