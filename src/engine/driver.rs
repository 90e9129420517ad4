//! From a game to a report: picks the bit width and move generator once, then runs iterative
//! deepening, the exact solve and the root searches, on one thread or several sharing the
//! transposition table.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::eval::{evaluate, SCALE};
use super::search::{Budget, Isa, Portable, Searcher, INFINITY};
use super::shape::{Generic, Kernel, Scoring, Shape};
use super::tt::Table;
use super::{EngineConfig, Limits, SearchReport};
use crate::bitboard::{Bits, U256};
use crate::board::Board;
use crate::color::Color;
use crate::position::{Position, Width};
use crate::rules::{Full, RuleSet, Rules, Simple};
use crate::setup::WinRule;

/// Everything one search needs.
pub(crate) struct Request<'a> {
    pub board: &'a Board,
    pub turn: Color,
    pub rules: RuleSet,
    pub win: WinRule,
    pub scoring: Scoring,
    pub limits: Limits,
    pub config: EngineConfig,
    pub stop: &'a AtomicBool,
}

/// Empties at or below which a search with a time or node limit tries to solve exactly.
const EXACT_WITH_LIMITS_MAX: u32 = 24;

/// The midgame depth searched before an exact solve at `n` empties, to order the root moves
/// and guess the score.
fn depth_before_solve(n: u32) -> u32 {
    n.saturating_sub(12).min(10)
}

/// Runs the search the request describes on the table.
pub(crate) fn run(
    request: &Request,
    table: &Table,
    on_progress: &mut dyn FnMut(&SearchReport),
) -> SearchReport {
    let dims = request.board.dims();
    match (Width::of(dims), request.rules) {
        (Width::W64, RuleSet::Full) => {
            run_on(&generic::<u64, Full>(request), request, table, on_progress)
        }
        (Width::W64, RuleSet::Simple) => run_on(
            &generic::<u64, Simple>(request),
            request,
            table,
            on_progress,
        ),
        (Width::W128, RuleSet::Full) => {
            run_on(&generic::<u128, Full>(request), request, table, on_progress)
        }
        (Width::W128, RuleSet::Simple) => run_on(
            &generic::<u128, Simple>(request),
            request,
            table,
            on_progress,
        ),
        (Width::W256, RuleSet::Full) => {
            run_on(&generic::<U256, Full>(request), request, table, on_progress)
        }
        (Width::W256, RuleSet::Simple) => run_on(
            &generic::<U256, Simple>(request),
            request,
            table,
            on_progress,
        ),
    }
}

fn generic<B: super::shape::SearchBits, R: Rules>(request: &Request) -> Generic<B, R> {
    Generic::new(Shape::new(
        request.board.dims(),
        request.rules,
        request.win,
        request.scoring,
    ))
}

/// A root move with the score of its last search (a bound when it failed low).
#[derive(Clone, Copy, Debug)]
struct RootMove {
    index: u32,
    score: i32,
}

/// What one thread's iterative deepening found; `None` fields until an iteration completes.
struct Outcome {
    best: u32,
    score: i32,
    exact: bool,
    depth: u32,
    pv: Vec<u32>,
}

/// Runs the search with the copy of the recursive searches compiled for this processor.
fn run_on<K: Kernel>(
    kernel: &K,
    request: &Request,
    table: &Table,
    on_progress: &mut dyn FnMut(&SearchReport),
) -> SearchReport {
    #[cfg(target_arch = "x86_64")]
    if let Some(isa) = super::search::X86_64V3::detect() {
        return run_with(kernel, isa, request, table, on_progress);
    }
    run_with(kernel, Portable, request, table, on_progress)
}

fn run_with<K: Kernel, I: Isa>(
    kernel: &K,
    isa: I,
    request: &Request,
    table: &Table,
    on_progress: &mut dyn FnMut(&SearchReport),
) -> SearchReport {
    let start = Instant::now();
    let position = Position::<K::B>::from_board(request.board, request.turn);
    let salt = super::shape::mix64(request.config.seed ^ 0x0123_4567_89ab_cdef);
    let deadline = request.limits.time.map(|time| start + time);
    let team = Team {
        kernel,
        table,
        isa,
        salt,
        helpers: request.config.threads.max(1) - 1,
        stop: request.stop,
        deadline,
        helper_nodes: AtomicU64::new(0),
    };
    let budget = Budget {
        stops: [request.stop, request.stop],
        deadline,
        max_nodes: request.limits.nodes,
    };
    let mut searcher = Searcher::new(kernel, table, budget, salt, isa);
    let outcome = iterate(
        &mut searcher,
        &team,
        position,
        request,
        &mut |outcome, nodes| {
            on_progress(&report(kernel, outcome, nodes, start.elapsed()));
        },
    );
    let nodes = searcher.nodes + team.helper_nodes.load(Ordering::Relaxed);
    report(kernel, &outcome, nodes, start.elapsed())
}

/// What the threads of one search share: everything a helper needs to make its own searcher.
struct Team<'a, K, I> {
    kernel: &'a K,
    table: &'a Table,
    isa: I,
    salt: u64,
    /// Threads besides the calling one.
    helpers: usize,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    /// Positions visited by the helpers.
    helper_nodes: AtomicU64,
}

fn report<K: Kernel>(kernel: &K, outcome: &Outcome, nodes: u64, elapsed: Duration) -> SearchReport {
    let geo = &kernel.shape().geo;
    SearchReport {
        best_move: geo.square(outcome.best),
        score: outcome.score,
        exact: outcome.exact,
        depth: outcome.depth,
        pv: outcome.pv.iter().map(|&index| geo.square(index)).collect(),
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
fn iterate<K: Kernel, I: Isa>(
    searcher: &mut Searcher<K, I>,
    team: &Team<K, I>,
    position: Position<K::B>,
    request: &Request,
    on_progress: &mut dyn FnMut(&Outcome, u64),
) -> Outcome {
    let kernel = searcher.kernel();
    let shape = kernel.shape();
    let (me, opp) = (position.me, position.opp);
    let n = (shape.geo.board & !(me | opp)).count();
    let limits = &request.limits;
    let mut root: Vec<RootMove> = kernel
        .moves(me, opp)
        .members()
        .map(|index| {
            let flipped = kernel.flips(me, opp, index);
            let mv = K::B::single(index);
            RootMove {
                index,
                score: -evaluate(kernel, opp & !flipped, me | mv | flipped),
            }
        })
        .collect();
    root.sort_by_key(|m| std::cmp::Reverse(m.score));
    let mut outcome = Outcome {
        best: root[0].index,
        score: to_discs(root[0].score),
        exact: false,
        depth: 0,
        pv: vec![root[0].index],
    };
    let exact_allowed = limits.depth.is_none_or(|depth| depth >= n);
    let limited = limits.time.is_some() || limits.nodes.is_some();
    let mut guess = None;
    let mut depth = 1;
    loop {
        let solve_now = exact_allowed
            && (depth >= n
                || (depth > depth_before_solve(n) && (!limited || n <= EXACT_WITH_LIMITS_MAX)));
        if solve_now {
            if let Some(score) = solve_root(searcher, team, me, opp, &mut root, guess) {
                outcome = Outcome {
                    best: root[0].index,
                    score,
                    exact: true,
                    depth: n,
                    pv: principal_variation(searcher, me, opp, root[0].index, true, n),
                };
                on_progress(&outcome, searcher.nodes);
            }
            break;
        }
        if limits.depth.is_some_and(|limit| depth > limit) {
            break;
        }
        let window = (-INFINITY, INFINITY);
        let child = |s: &mut Searcher<K, I>, a, b| s.midgame_child(a, b, depth);
        match root_search(searcher, team, (me, opp), &mut root, window, &child, &child) {
            Some(score) => {
                guess = Some(to_discs(score));
                outcome = Outcome {
                    best: root[0].index,
                    score: to_discs(score),
                    exact: false,
                    depth,
                    pv: principal_variation(searcher, me, opp, root[0].index, false, depth),
                };
                on_progress(&outcome, searcher.nodes);
            }
            None => break,
        }
        depth += 1;
    }
    outcome
}

/// The exact root search, with an aspiration window around `guess`.
fn solve_root<K: Kernel, I: Isa>(
    searcher: &mut Searcher<K, I>,
    team: &Team<K, I>,
    me: K::B,
    opp: K::B,
    root: &mut [RootMove],
    guess: Option<i32>,
) -> Option<i32> {
    let cells = searcher.kernel().shape().cells;
    let (mut low, mut high) = match guess {
        Some(guess) => (guess - 3, guess + 3),
        _ => (-cells - 1, cells + 1),
    };
    let mut widen = 8;
    loop {
        let first = |s: &mut Searcher<K, I>, p, w| solve_split(s, team, p, w);
        let child = |s: &mut Searcher<K, I>, p, w| s.solve_child(p, w);
        let score = root_search(searcher, team, (me, opp), root, (low, high), &first, &child)?;

        if score <= low && low > -cells - 1 {
            low = (score - widen).max(-cells - 1);
            high = score + 1;
        } else if score >= high && high < cells + 1 {
            high = (score + widen).min(cells + 1);
            low = score - 1;
        } else {
            return Some(score);
        }
        widen *= 2;
    }
}

/// A child search: the searcher, the child's (me, opp), and the child's window.
type ChildSearch<'s, K, I> = dyn Fn(&mut Searcher<K, I>, (<K as Kernel>::B, <K as Kernel>::B), (i32, i32)) -> i32
    + Sync
    + 's;

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
    /// Each searched move: its place in the list, its score, and whether the score is exact.
    results: Mutex<Vec<(usize, i32, bool)>>,
}

/// One searched move: its place in the list, its score, and whether the score is exact.
type MoveResult = (usize, i32, bool);

/// Principal-variation search over `moves` of `(me, opp)`, best first, shared with the helper
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
#[allow(clippy::too_many_arguments)]
fn share_moves<K: Kernel, I: Isa>(
    searcher: &mut Searcher<K, I>,
    team: &Team<K, I>,
    (me, opp): (K::B, K::B),
    moves: &[u32],
    (alpha, beta): (i32, i32),
    first: &ChildSearch<K, I>,
    child: &ChildSearch<K, I>,
) -> Option<Vec<MoveResult>> {
    let kernel = searcher.kernel();
    let after = |index: u32| {
        let flipped = kernel.flips(me, opp, index);
        (opp & !flipped, me | K::B::single(index) | flipped)
    };
    let share = Share {
        next: AtomicUsize::new(1),
        alpha: AtomicI32::new(alpha),
        cut: AtomicBool::new(false),
        abort: AtomicBool::new(false),
        results: Mutex::new(Vec::with_capacity(moves.len())),
    };
    let score = -first(searcher, after(moves[0]), (-beta, -alpha));
    if searcher.aborted {
        return None;
    }
    share.record(0, score, alpha, beta);
    let take_moves = |searcher: &mut Searcher<K, I>| {
        while !share.cut.load(Ordering::Acquire) {
            let i = share.next.fetch_add(1, Ordering::Relaxed);
            let Some(&index) = moves.get(i) else {
                break;
            };
            let a = share.alpha.load(Ordering::Acquire);
            let next = after(index);
            let mut score = -child(searcher, next, (-a - 1, -a));
            if score > a && score < beta && !searcher.aborted {
                score = -child(searcher, next, (-beta, -score));
            }
            if searcher.aborted {
                share.abort.store(true, Ordering::Relaxed);
                break;
            }
            share.record(i, score, a, beta);
        }
    };
    let helpers = if share.cut.load(Ordering::Acquire) {
        0
    } else {
        team.helpers.min(moves.len() - 1)
    };
    std::thread::scope(|scope| {
        for _ in 0..helpers {
            scope.spawn(|| {
                let budget = Budget {
                    stops: [team.stop, &share.abort],
                    deadline: team.deadline,
                    max_nodes: None,
                };
                let mut helper =
                    Searcher::new(team.kernel, team.table, budget, team.salt, team.isa);
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
        .unwrap_or_else(|e| e.into_inner());
    results.sort_unstable_by_key(|&(i, _, _)| i);
    Some(results)
}

/// The best score among `results` and its place: the highest score, exact ones first among
/// equals, the earliest among equals otherwise.
fn best_of(results: &[MoveResult]) -> (i32, usize) {
    let mut best = (-INFINITY - 1, false);
    let mut best_at = 0;
    for &(i, score, exact) in results {
        if score > best.0 || (score == best.0 && exact && !best.1) {
            best = (score, exact);
            best_at = i;
        }
    }
    (best.0, best_at)
}

/// Principal-variation search over the root moves, best first ([`share_moves`]); moves the
/// best one to the front and returns its score, or `None` if the budget ran out.
fn root_search<K: Kernel, I: Isa>(
    searcher: &mut Searcher<K, I>,
    team: &Team<K, I>,
    position: (K::B, K::B),
    root: &mut [RootMove],
    window: (i32, i32),
    first: &ChildSearch<K, I>,
    child: &ChildSearch<K, I>,
) -> Option<i32> {
    let moves: Vec<u32> = root.iter().map(|m| m.index).collect();
    let results = share_moves(searcher, team, position, &moves, window, first, child)?;
    for &(i, score, _) in &results {
        root[i].score = score;
    }
    let (best, best_at) = best_of(&results);
    root[..=best_at].rotate_right(1);
    root[1..].sort_by_key(|m| std::cmp::Reverse(m.score));
    Some(best)
}

/// Empties from which the threads share the moves of the nodes on the principal variation.
const SPLIT_MIN: u32 = 16;

/// The exact score of `(me, opp)` where it is the first move's position at every level above
/// (the principal variation): from [`SPLIT_MIN`] empties up, its moves are shared between the
/// threads, the first again through this function, so that the helpers have work while the
/// first move is searched; below, or with one thread, the plain solver.
fn solve_split<K: Kernel, I: Isa>(
    searcher: &mut Searcher<K, I>,
    team: &Team<K, I>,
    (me, opp): (K::B, K::B),
    (mut alpha, mut beta): (i32, i32),
) -> i32 {
    let kernel = searcher.kernel();
    let n = (kernel.shape().geo.board & !(me | opp)).count();
    if team.helpers == 0 || n < SPLIT_MIN || kernel.moves(me, opp).count() < 2 {
        return searcher.solve_child((me, opp), (alpha, beta));
    }
    if let Some((lower, upper)) = searcher.probe_exact(me, opp) {
        if lower >= beta || lower == upper {
            return lower;
        }
        if upper <= alpha {
            return upper;
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);
    }
    let moves = searcher.solve_order(me, opp);
    let first = |s: &mut Searcher<K, I>, p, w| solve_split(s, team, p, w);
    let child = |s: &mut Searcher<K, I>, p, w| s.solve_child(p, w);
    let Some(results) = share_moves(
        searcher,
        team,
        (me, opp),
        &moves,
        (alpha, beta),
        &first,
        &child,
    ) else {
        return 0;
    };
    let (best, best_at) = best_of(&results);
    searcher.store_exact((me, opp), best, (alpha, beta), moves[best_at]);
    best
}

impl Share {
    /// Notes the score of move `i`, searched with the window `(alpha, beta)`.
    fn record(&self, i: usize, score: i32, alpha: i32, beta: i32) {
        let exact = score > alpha && score < beta;
        if exact {
            self.alpha.fetch_max(score, Ordering::AcqRel);
        }
        if score >= beta {
            self.cut.store(true, Ordering::Release);
        }
        self.results
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((i, score, exact));
    }
}

/// The line of play from the root through `first`: the table's moves, and for the last few
/// empties of an exact line, the moves found by solving.
fn principal_variation<K: Kernel, I: Isa>(
    searcher: &mut Searcher<K, I>,
    me: K::B,
    opp: K::B,
    first: u32,
    exact: bool,
    depth: u32,
) -> Vec<u32> {
    let kernel = searcher.kernel();
    let mut line = Vec::new();
    let (mut me, mut opp) = (me, opp);
    let mut next = Some(first);
    while let Some(index) = next {
        if searcher.aborted || line.len() as u32 >= depth {
            break;
        }
        line.push(index);
        let flipped = kernel.flips(me, opp, index);
        (me, opp) = (opp & !flipped, me | K::B::single(index) | flipped);
        if kernel.moves(me, opp).is_empty() {
            (me, opp) = (opp, me);
        }
        let moves = kernel.moves(me, opp);
        if moves.is_empty() {
            break;
        }
        next = searcher
            .table_move(me, opp, exact)
            .filter(|&m| moves.has(m));
        if next.is_none() && exact {
            next = searcher.best_by_solving(me, opp);
        }
    }
    line
}
