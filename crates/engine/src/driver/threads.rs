//! The threads of one search: the moves of the root, of the nodes on the principal variation
//! from [`SPLIT_MIN`] empties, and of any solver node from there once its first move is searched
//! while a thread is free, shared between the thread searching the node and free helpers
//! ("young brothers wait"). The helpers are threads of the search's [`Pool`], parked between
//! shared nodes; the team counts the places not searching (`free`), so that a thread waiting
//! for the helpers of its node lends its place to a helper that splits deeper. Each thread has
//! its own searcher and, while one is free, its own small table; all share the main table.

use crate::clock::Instant;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicIsize, AtomicU64, AtomicUsize, Ordering};

use std::time::Duration;

use super::pool::{Pool, lock};
use crate::ThreadCounts;
use crate::bounds::{INFINITY, Window};
use crate::ordering::Candidate;
use crate::search::{Budget, SPLIT_MIN, Searcher, Split};
use crate::shape::Shape;
use crate::tt::Tables;
use othello::Rules;
use othello::bitboard::SearchBits;
use othello::cpu::Cpu;
use othello::position::Position;

/// A root move with the score of its last search (a bound when it failed low).
#[derive(Clone, Copy, Debug)]
pub(super) struct RootMove {
    pub index: u32,
    pub score: i32,
}

/// What the threads of one search share: everything a helper needs to make its own searcher.
pub(super) struct Team<'a, B, C> {
    pub shape: &'a Shape<'a, B>,
    pub tables: &'a Tables,
    pub cpu: C,
    pub salt: u64,
    /// Threads besides the calling one.
    pub helpers: usize,
    pub stop: &'a AtomicBool,
    /// The running total of positions visited.
    pub visited: &'a AtomicU64,
    pub deadline: Option<Instant>,
    /// Positions visited by the helpers.
    pub helper_nodes: AtomicU64,
    /// How the threads shared the work.
    pub counters: Counters,
    /// Threads not searching now (at first `helpers`): a node that shares its moves takes
    /// some, a thread that ends or waits gives its own back.
    pub free: AtomicIsize,
    /// The helpers' small tables not in use (places in `tables.small`, from 1).
    pub small_free: Mutex<Vec<usize>>,
    /// The helper threads, each keeping its lists of moves from one shared node to the next.
    pub pool: &'a Pool<Vec<Vec<Candidate<B>>>>,
}

/// Most helper threads a search keeps for each of its helpers' places: a thread waiting for
/// the helpers of its node lends its place, so more threads than places can be under way, as
/// many as shared nodes nest; past this many, a node shares with the threads it finds parked.
pub(super) const HELPER_THREADS_A_PLACE: usize = 64;

impl<B, C> Team<'_, B, C> {
    /// Takes up to `wanted` free threads; how many it took.
    fn claim(&self, wanted: usize) -> usize {
        let wanted = isize::try_from(wanted).unwrap_or(isize::MAX);
        let mut free = self.free.load(Ordering::Relaxed);
        loop {
            let taken = free.min(wanted);
            if taken <= 0 {
                return 0;
            }
            match self.free.compare_exchange_weak(
                free,
                free - taken,
                Ordering::AcqRel,
                Ordering::Relaxed,
            ) {
                Ok(_) => return taken.unsigned_abs(),
                Err(now) => free = now,
            }
        }
    }
}

impl<B: SearchBits, C: Cpu> Team<'_, B, C> {
    /// A helper's searcher for a shared node whose helpers stop at `halt`, with `lists` (the
    /// helper's lists of moves, given back by [`Team::helper_done`]) and a small table of its
    /// own while one is free, else the calling thread's (the tables take concurrent writers;
    /// only their hits suffer); and the place of that small table.
    fn helper<'s, R: Rules>(
        &'s self,
        halt: &'s AtomicBool,
        lists: &mut Vec<Vec<Candidate<B>>>,
    ) -> (Searcher<'s, B, R, C>, usize) {
        let small = lock(&self.small_free).pop().unwrap_or(0);
        let budget = Budget {
            stops: [self.stop, halt],
            deadline: self.deadline,
            max_nodes: None,
            visited: self.visited,
        };
        let mut helper = Searcher::new(
            self.shape,
            &self.tables.main,
            &self.tables.small[small],
            budget,
            self.salt,
            self.cpu,
        );
        helper.swap_lists(lists);
        (helper, small)
    }

    /// The end of a helper's part: its nodes counted, its lists of moves back in `lists`, its
    /// small table (place `small`) and its place free.
    fn helper_done<R: Rules>(
        &self,
        mut helper: Searcher<'_, B, R, C>,
        small: usize,
        lists: &mut Vec<Vec<Candidate<B>>>,
    ) {
        add(&self.helper_nodes, helper.nodes);
        helper.swap_lists(lists);
        if small > 0 {
            lock(&self.small_free).push(small);
        }
        self.free.fetch_add(1, Ordering::AcqRel);
    }
}

/// [`ThreadCounts`] as the threads add to them, times in nanoseconds.
#[derive(Default)]
pub(super) struct Counters {
    splits: AtomicU64,
    helpers_busy: AtomicU64,
    waiting: AtomicU64,
    wasted_nodes: AtomicU64,
    researched_nodes: AtomicU64,
}

impl Counters {
    /// The counts so far, for a search with `helpers` helper threads.
    pub fn counts(&self, helpers: usize) -> ThreadCounts {
        let get = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        ThreadCounts {
            helpers: u32::try_from(helpers).unwrap_or(u32::MAX),
            splits: get(&self.splits),
            helpers_busy: Duration::from_nanos(get(&self.helpers_busy)),
            waiting: Duration::from_nanos(get(&self.waiting)),
            wasted_nodes: get(&self.wasted_nodes),
            researched_nodes: get(&self.researched_nodes),
        }
    }
}

/// Adds `value` to `counter`.
fn add(counter: &AtomicU64, value: u64) {
    counter.fetch_add(value, Ordering::Relaxed);
}

/// Adds the time since `since` to `counter`, in nanoseconds.
fn add_time(counter: &AtomicU64, since: Instant) {
    add(
        counter,
        u64::try_from(since.elapsed().as_nanos()).unwrap_or(u64::MAX),
    );
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
    /// Set with `cut` or `abort`: the helpers' searches stop where they are (their budgets
    /// watch it), since nothing they find can matter any more.
    halt: AtomicBool,
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
    let share = Share::new(1, window.alpha);
    let score = -first(
        searcher,
        searcher.play(position, moves[0]),
        window.negated(),
    );
    if searcher.aborted {
        return None;
    }
    share.record(0, score, window);
    run_share(searcher, team, position, moves, share, window.beta, child)
}

/// The moves of `share` from its next one on, taken by the calling thread and the free
/// threads (as many as are free, up to one a move left), each tested with `child` and a null
/// window at the best score so far and searched again when it does better; every result in
/// list order, or `None` (and the searcher aborted) if the budget ran out.
fn run_share<B: SearchBits, R: Rules, C: Cpu>(
    searcher: &mut Searcher<B, R, C>,
    team: &Team<B, C>,
    position: Position<B>,
    moves: &[u32],
    share: Share,
    beta: i32,
    child: &ChildSearch<B, R, C>,
) -> Option<Vec<MoveResult>> {
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
            let before = searcher.nodes;
            let mut score = -child(searcher, next, null);
            if score > a && score < beta && !searcher.aborted {
                let wide = Window {
                    alpha: -beta,
                    beta: -score,
                };
                let tested = searcher.nodes;
                score = -child(searcher, next, wide);
                add(&team.counters.researched_nodes, searcher.nodes - tested);
            }
            if share.cut.load(Ordering::Acquire) {
                add(&team.counters.wasted_nodes, searcher.nodes - before);
            }
            if searcher.aborted {
                // A helper stopped by another thread's cut-off drops its move; any other stop
                // is the budget's, and stops every thread of the node.
                if !share.cut.load(Ordering::Acquire) {
                    share.abort.store(true, Ordering::Relaxed);
                    share.halt.store(true, Ordering::Release);
                }
                break;
            }
            share.record(i, score, Window { alpha: a, beta });
        }
    };
    let left = moves
        .len()
        .saturating_sub(share.next.load(Ordering::Relaxed));
    let helpers = if share.cut.load(Ordering::Acquire) {
        0
    } else {
        team.claim(left.saturating_sub(1))
    };
    let (end_cut, split) = (searcher.end_cut, searcher.split);
    if helpers > 0 {
        add(&team.counters.splits, 1);
        // Each helper keeps its lists of moves from one job to the next.
        let job = |lists: &mut Vec<Vec<Candidate<B>>>| {
            let (mut helper, small) = team.helper(&share.halt, lists);
            helper.end_cut = end_cut;
            helper.split = split;
            let began = Instant::now();
            take_moves(&mut helper);
            add_time(&team.counters.helpers_busy, began);
            team.helper_done(helper, small, lists);
        };
        // Once the calling thread's moves are done, the places of the helpers that never
        // started and its own are free for threads that can use them while it waits.
        let ((), done) = team.pool.run(
            &job,
            helpers,
            || take_moves(searcher),
            |withdrawn| {
                let places = isize::try_from(withdrawn + 1).unwrap_or(isize::MAX);
                team.free.fetch_add(places, Ordering::AcqRel);
                Instant::now()
            },
        );
        add_time(&team.counters.waiting, done);
        team.free.fetch_sub(1, Ordering::AcqRel);
    } else {
        take_moves(searcher);
    }
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

impl<B: SearchBits, R: Rules, C: Cpu> Split<B, R, C> for Team<'_, B, C> {
    fn has_free(&self) -> bool {
        self.free.load(Ordering::Relaxed) > 0
    }

    fn share(
        &self,
        searcher: &mut Searcher<'_, B, R, C>,
        pos: Position<B>,
        moves: &[u32],
        window: Window,
    ) -> Option<(i32, u32)> {
        let child = |s: &mut Searcher<B, R, C>, p, w| s.solve_child(p, w);
        let share = Share::new(0, window.alpha);
        let results = run_share(searcher, self, pos, moves, share, window.beta, &child)?;
        let (best, best_at) = best_of(&results);
        Some((best, moves[best_at]))
    }
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
pub(super) fn root_search<B: SearchBits, R: Rules, C: Cpu>(
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

/// The exact score of `position` where it is the first move's position at every level above
/// (the principal variation): from [`SPLIT_MIN`] empties up, its moves are shared between the
/// threads, the first again through this function, so that the helpers have work while the
/// first move is searched; below, or with one thread, the plain solver.
pub(super) fn solve_split<B: SearchBits, R: Rules, C: Cpu>(
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
    /// The moves of a position from place `next` on, with `alpha` the best score so far.
    fn new(next: usize, alpha: i32) -> Share {
        Share {
            next: AtomicUsize::new(next),
            alpha: AtomicI32::new(alpha),
            cut: AtomicBool::new(false),
            abort: AtomicBool::new(false),
            halt: AtomicBool::new(false),
            results: Mutex::new(Vec::new()),
        }
    }

    /// Notes the score of move `place`, searched with `window`.
    fn record(&self, place: usize, score: i32, window: Window) {
        let exact = score > window.alpha && score < window.beta;
        if exact {
            self.alpha.fetch_max(score, Ordering::AcqRel);
        }
        if score >= window.beta {
            self.cut.store(true, Ordering::Release);
            self.halt.store(true, Ordering::Release);
        }
        lock(&self.results).push(MoveResult {
            place,
            score,
            exact,
        });
    }
}
