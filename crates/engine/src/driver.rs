//! From a game to a report: picks the rule set, bit width and processor once, then runs iterative
//! deepening, the exact solve and the root searches, on one thread or several sharing the
//! transposition table.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::bounds::{INFINITY, Window};
use super::eval::{SCALE, evaluate};
use super::search::{Budget, Searcher};
use super::shape::{Evaluation, Scoring, Shape};
use super::tt::Tables;
use super::{EngineConfig, Limits, SearchReport};
use othello::Board;
use othello::Color;
use othello::WinRule;
use othello::bitboard::{Bits, SearchBits, mix64};
use othello::cpu::Cpu;
use othello::position::{Position, Visitor, dispatch};
use othello::{RuleSet, Rules};

/// Everything one search needs.
pub(crate) struct Request<'a> {
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
/// (DESIGN.md, "Exact solver").
const SELECTIVITIES: [(f64, u32); 1] = [(1.5, 87)];

/// Empties at or below which a search with a time or node limit tries to solve exactly.
const EXACT_WITH_LIMITS_MAX: u32 = 24;

/// The midgame depth searched before an exact solve at `n` empties, to order the root moves
/// and guess the score.
fn depth_before_solve(n: u32) -> u32 {
    n.saturating_sub(12).min(10)
}

/// Runs the search the request describes on the tables (a small one for each of
/// `request.config.threads`).
pub(crate) fn run(
    request: &Request,
    tables: &Tables,
    on_progress: &mut dyn FnMut(&SearchReport),
) -> SearchReport {
    struct Run<'r, 'a, 'p> {
        request: &'r Request<'a>,
        tables: &'r Tables,
        on_progress: &'p mut dyn FnMut(&SearchReport),
    }
    impl Visitor for Run<'_, '_, '_> {
        type Output = SearchReport;
        fn call<R: Rules, B: SearchBits, C: Cpu>(self, cpu: C) -> SearchReport {
            run_with::<B, R, C>(cpu, self.request, self.tables, self.on_progress)
        }
    }
    let dims = request.board.dims();
    let run = Run {
        request,
        tables,
        on_progress,
    };
    dispatch(request.rules, dims, run)
}

/// A root move with the score of its last search (a bound when it failed low).
#[derive(Clone, Copy, Debug)]
struct RootMove {
    index: u32,
    score: i32,
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
    request: &Request,
    tables: &Tables,
    on_progress: &mut dyn FnMut(&SearchReport),
) -> SearchReport {
    let shape = Shape::<B>::new(
        request.board.dims(),
        request.rules,
        request.win,
        request.scoring,
        request.evaluation,
        request.selective,
    );
    let start = Instant::now();
    let position = Position::<B>::from_board(request.board, request.turn);
    let salt = mix64(request.config.seed ^ 0x0123_4567_89ab_cdef);
    let deadline = request.limits.time.map(|time| start + time);
    let team = Team {
        shape: &shape,
        tables,
        cpu,
        salt,
        helpers: request.config.threads.max(1) - 1,
        stop: request.stop,
        visited: request.visited,
        deadline,
        helper_nodes: AtomicU64::new(0),
    };
    let budget = Budget {
        stops: [request.stop, request.stop],
        deadline,
        max_nodes: request.limits.nodes,
        visited: request.visited,
    };
    let mut searcher =
        Searcher::<B, R, C>::new(&shape, &tables.main, &tables.small[0], budget, salt, cpu);
    let best_line = iterate(
        &mut searcher,
        &team,
        position,
        request,
        &mut |best_line, nodes| {
            on_progress(&report(&shape, best_line, nodes, start.elapsed()));
        },
    );
    let nodes = searcher.nodes + team.helper_nodes.load(Ordering::Relaxed);
    report(&shape, &best_line, nodes, start.elapsed())
}

/// What the threads of one search share: everything a helper needs to make its own searcher.
struct Team<'a, B, C> {
    shape: &'a Shape<'a, B>,
    tables: &'a Tables,
    cpu: C,
    salt: u64,
    /// Threads besides the calling one.
    helpers: usize,
    stop: &'a AtomicBool,
    /// The running total of positions visited.
    visited: &'a AtomicU64,
    deadline: Option<Instant>,
    /// Positions visited by the helpers.
    helper_nodes: AtomicU64,
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
    request: &Request,
    on_progress: &mut dyn FnMut(&BestLine, u64),
) -> BestLine {
    let shape = searcher.shape();
    let n = position.empties(&shape.geo).count();
    let limits = &request.limits;
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
            if shape.endcut.is_some() && n >= SELECTIVE_SOLVE_MIN {
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
            if let Some(score) = solve_root(searcher, team, position, &mut root, guess) {
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
        if let Some(score) = solve_root(searcher, team, position, root, guess) {
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

/// Iterative deepening against a move's share of the clock ([`Limits::target`]): whether the
/// next iteration is expected to end in time, from how long the last ones took.
struct Pace {
    start: Instant,
    target: Option<Duration>,
    /// How long the last completed iteration took.
    last: Option<Duration>,
}

impl Pace {
    /// How much longer an iteration takes than the one before when that is too short to
    /// tell (under a millisecond), and the bounds of the growth measured otherwise.
    const GROWTH: f64 = 3.0;
    const GROWTH_BOUNDS: (f64, f64) = (1.5, 8.0);

    fn new(target: Option<Duration>) -> Pace {
        Pace {
            start: Instant::now(),
            target,
            last: None,
        }
    }

    /// Records an iteration begun at `began` and completed now; whether the next one, as long
    /// as this one grown by the growth from the one before, would end after the target.
    fn next_would_overrun(&mut self, began: Instant) -> bool {
        let took = began.elapsed();
        let growth = match self.last {
            Some(last) if last >= Duration::from_millis(1) => {
                let (low, high) = Pace::GROWTH_BOUNDS;
                (took.as_secs_f64() / last.as_secs_f64()).clamp(low, high)
            }
            _ => Pace::GROWTH,
        };
        self.last = Some(took);
        self.target.is_some_and(|target| {
            self.start.elapsed().as_secs_f64() + took.as_secs_f64() * growth > target.as_secs_f64()
        })
    }
}

/// The exact root search, with an aspiration window around `guess`.
fn solve_root<B: SearchBits, R: Rules, C: Cpu>(
    searcher: &mut Searcher<B, R, C>,
    team: &Team<B, C>,
    position: Position<B>,
    root: &mut [RootMove],
    guess: Option<i32>,
) -> Option<i32> {
    let cells = searcher.shape().cells;
    let (mut low, mut high) = match guess {
        Some(guess) => (guess - 3, guess + 3),
        _ => (-cells - 1, cells + 1),
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

/// A child search: the searcher, the child's position, and the child's window.
type ChildSearch<'s, B, R, C> =
    dyn Fn(&mut Searcher<B, R, C>, Position<B>, Window) -> i32 + Sync + 's;

/// One searched move: its place in the list, its score, and whether the score is exact.
#[derive(Clone, Copy, Debug)]
struct MoveResult {
    place: usize,
    score: i32,
    exact: bool,
}

/// The moves of one position as threads share them.
struct Share {
    /// The next move to take.
    next: AtomicUsize,
    /// The best exact score so far (or the window's lower end).
    alpha: AtomicI32,
    /// Set when a move reached beta: no more moves are taken.
    cut: AtomicBool,
    /// Set when a thread ran out of budget: the others stop.
    abort: AtomicBool,
    /// Each searched move.
    results: Mutex<Vec<MoveResult>>,
}

/// Principal-variation search over `moves` of `position`, best first, shared with the helper
/// threads: the first move is searched by `first` with the full window; once its score is
/// known ("young brothers wait"), each thread takes the next unsearched move and tests it with
/// `child` and a null window at the best score so far, searching it again with the full window
/// when it does better. Returns every searched move's result in list order, or `None` (and
/// the searcher marked aborted) if the budget ran out. With no helpers this is the sequential
/// search.
///
/// The best score does not depend on the number of threads: the best move is always searched
/// with a window below its score (so its score is exact), and [`best_of`] prefers exact scores
/// among equal ones.
fn share_moves<B: SearchBits, R: Rules, C: Cpu>(
    searcher: &mut Searcher<B, R, C>,
    team: &Team<B, C>,
    position: Position<B>,
    moves: &[u32],
    window: Window,
    first: &ChildSearch<B, R, C>,
    child: &ChildSearch<B, R, C>,
) -> Option<Vec<MoveResult>> {
    let Window { alpha, beta } = window;
    let share = Share {
        next: AtomicUsize::new(1),
        alpha: AtomicI32::new(alpha),
        cut: AtomicBool::new(false),
        abort: AtomicBool::new(false),
        results: Mutex::new(Vec::with_capacity(moves.len())),
    };
    let score = -first(
        searcher,
        searcher.play(position, moves[0]),
        window.negated(),
    );
    if searcher.aborted {
        return None;
    }
    share.record(0, score, window);
    let take_moves = |searcher: &mut Searcher<B, R, C>| {
        while !share.cut.load(Ordering::Acquire) {
            let i = share.next.fetch_add(1, Ordering::Relaxed);
            let Some(&index) = moves.get(i) else {
                break;
            };
            let a = share.alpha.load(Ordering::Acquire);
            let next = searcher.play(position, index);
            let null = Window {
                alpha: -a - 1,
                beta: -a,
            };
            let mut score = -child(searcher, next, null);
            if score > a && score < beta && !searcher.aborted {
                let wide = Window {
                    alpha: -beta,
                    beta: -score,
                };
                score = -child(searcher, next, wide);
            }
            if searcher.aborted {
                share.abort.store(true, Ordering::Relaxed);
                break;
            }
            share.record(i, score, Window { alpha: a, beta });
        }
    };
    let helpers = if share.cut.load(Ordering::Acquire) {
        0
    } else {
        team.helpers.min(moves.len() - 1)
    };
    let end_cut = searcher.end_cut;
    std::thread::scope(|scope| {
        let (share, take_moves) = (&share, &take_moves);
        for small_table in &team.tables.small[1..=helpers] {
            scope.spawn(move || {
                let budget = Budget {
                    stops: [team.stop, &share.abort],
                    deadline: team.deadline,
                    max_nodes: None,
                    visited: team.visited,
                };
                let mut helper = Searcher::<B, R, C>::new(
                    team.shape,
                    &team.tables.main,
                    small_table,
                    budget,
                    team.salt,
                    team.cpu,
                );
                helper.end_cut = end_cut;
                take_moves(&mut helper);
                team.helper_nodes.fetch_add(helper.nodes, Ordering::Relaxed);
            });
        }
        take_moves(searcher);
    });
    if share.abort.load(Ordering::Relaxed) {
        searcher.aborted = true;
        return None;
    }
    let mut results = share
        .results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    results.sort_unstable_by_key(|result| result.place);
    Some(results)
}

/// The best score among `results` and its place: the highest score, exact ones first among
/// equals, the earliest among equals otherwise.
fn best_of(results: &[MoveResult]) -> (i32, usize) {
    let mut best = (-INFINITY - 1, false);
    let mut best_at = 0;
    for result in results {
        let (score, exact) = (result.score, result.exact);
        if score > best.0 || (score == best.0 && exact && !best.1) {
            best = (score, exact);
            best_at = result.place;
        }
    }
    (best.0, best_at)
}

/// Principal-variation search over the root moves, best first ([`share_moves`]); moves the
/// best one to the front and returns its score, or `None` if the budget ran out.
fn root_search<B: SearchBits, R: Rules, C: Cpu>(
    searcher: &mut Searcher<B, R, C>,
    team: &Team<B, C>,
    position: Position<B>,
    root: &mut [RootMove],
    window: Window,
    first: &ChildSearch<B, R, C>,
    child: &ChildSearch<B, R, C>,
) -> Option<i32> {
    let moves: Vec<u32> = root.iter().map(|m| m.index).collect();
    let results = share_moves(searcher, team, position, &moves, window, first, child)?;
    for result in &results {
        root[result.place].score = result.score;
    }
    let (best, best_at) = best_of(&results);
    root[..=best_at].rotate_right(1);
    root[1..].sort_by_key(|m| std::cmp::Reverse(m.score));
    Some(best)
}

/// Empties from which the threads share the moves of the nodes on the principal variation.
const SPLIT_MIN: u32 = 16;

/// The exact score of `position` where it is the first move's position at every level above
/// (the principal variation): from [`SPLIT_MIN`] empties up, its moves are shared between the
/// threads, the first again through this function, so that the helpers have work while the
/// first move is searched; below, or with one thread, the plain solver.
fn solve_split<B: SearchBits, R: Rules, C: Cpu>(
    searcher: &mut Searcher<B, R, C>,
    team: &Team<B, C>,
    position: Position<B>,
    mut window: Window,
) -> i32 {
    let n = position.empties(&searcher.shape().geo).count();
    if team.helpers == 0 || n < SPLIT_MIN || searcher.moves(position).count() < 2 {
        return searcher.solve_child(position, window);
    }
    if let Some((lower, upper)) = searcher.probe_solved(position) {
        if lower >= window.beta || lower == upper {
            return lower;
        }
        if upper <= window.alpha {
            return upper;
        }
        window.alpha = window.alpha.max(lower);
        window.beta = window.beta.min(upper);
    }
    let moves = searcher.solve_order(position);
    let first = |s: &mut Searcher<B, R, C>, p, w| solve_split(s, team, p, w);
    let child = |s: &mut Searcher<B, R, C>, p, w| s.solve_child(p, w);
    let Some(results) = share_moves(searcher, team, position, &moves, window, &first, &child)
    else {
        return 0;
    };
    let (best, best_at) = best_of(&results);
    searcher.store_solved(position, best, window, moves[best_at]);
    best
}

impl Share {
    /// Notes the score of move `place`, searched with `window`.
    fn record(&self, place: usize, score: i32, window: Window) {
        let exact = score > window.alpha && score < window.beta;
        if exact {
            self.alpha.fetch_max(score, Ordering::AcqRel);
        }
        if score >= window.beta {
            self.cut.store(true, Ordering::Release);
        }
        self.results
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(MoveResult {
                place,
                score,
                exact,
            });
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
