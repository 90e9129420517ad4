//! The searches, generic over the bit width, the rule set and the processor: a depth-limited
//! negamax with principal-variation search for the midgame, and an exact solver for the
//! endgame.
//!
//! The recursive searches (`midgame`, `solve`, `solve_small`) are each an entry point and an
//! `#[inline(always)]` body: the entry point calls the body through a function compiled for
//! x86-64-v3 when the processor marker proves it may ([`Cpu::x86_64_v3`]), else through a
//! portable one (see [`crate::cpu`]).

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::eval::{SCALE, evaluate};
use super::leaves::{Leaves, Node};
use super::probcut::{self, ProbCut};
use super::shape::Shape;
use super::tt::{NO_LOWER, NO_UPPER, Table};
use crate::bitboard::SearchBits;
use crate::cpu::Cpu;
use crate::position::Position;
use crate::rules::{RuleSet, Rules};

/// Above every score, in either unit.
pub(crate) const INFINITY: i32 = 30_000;

/// Empties from which the solver probes and stores the transposition table.
const SOLVE_TABLE_MIN: u32 = 10;
/// Empties from which the solver orders moves by the opponent's mobility (fastest first);
/// below, the solver runs its small, table-free code.
const SOLVE_SORT_MIN: u32 = 7;
/// Empties from which the solver orders moves with a shallow midgame search.
const SOLVE_SHALLOW_MIN: u32 = 16;
/// Empties from which the solver tries a stability cut-off.
const SOLVE_STABILITY_MIN: u32 = 7;
/// Empties from which the solver looks up every child in the table before searching any
/// (enhanced transposition cut-off).
const SOLVE_ETC_MIN: u32 = 11;
/// What each of the opponent's replies (corners count twice) costs a move in the solver's
/// ordering by a shallow search, in evaluation units: a move that leaves the opponent few
/// replies is searched earlier, as fastest-first does below [`SOLVE_SHALLOW_MIN`].
const WEIGHT_SHALLOW_MOBILITY: i32 = 100;
/// Fastest-first weights: the opponent's replies (corners count twice), the opponent's
/// potential mobility (empty cells next to the mover's discs), and playing in a region with an
/// odd number of empties.
const WEIGHT_MOBILITY: i32 = 256;
const WEIGHT_POTENTIAL: i32 = 8;
const WEIGHT_PARITY: i32 = 16;
/// Depth from which the midgame search probes the table.
const MIDGAME_TABLE_MIN: u32 = 1;

/// Why a search stopped early.
pub(crate) struct Budget<'a> {
    /// Stop as soon as either flag is set.
    pub stops: [&'a AtomicBool; 2],
    pub deadline: Option<Instant>,
    pub max_nodes: Option<u64>,
    /// The running total of positions visited by every thread of the search, which each
    /// searcher adds to whenever it checks the budget, for progress displays.
    pub visited: &'a AtomicU64,
}

/// A search window: scores at or below `alpha` and at or above `beta` are bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    pub alpha: i32,
    pub beta: i32,
}

impl Window {
    /// Every score.
    pub(crate) const FULL: Window = Window {
        alpha: -INFINITY,
        beta: INFINITY,
    };

    /// The window of a child: the same scores from the other side.
    #[inline(always)]
    pub(crate) fn negated(self) -> Window {
        Window {
            alpha: -self.beta,
            beta: -self.alpha,
        }
    }
}

/// The best of the moves searched at a node: its score and its cell.
#[derive(Clone, Copy, Debug)]
struct Best {
    score: i32,
    index: Option<u32>,
}

/// One search thread's state, for bit width `B`, rule set `R` and processor `C`.
pub(crate) struct Searcher<'a, B, R, C> {
    shape: &'a Shape<B>,
    /// Which compiled copy of the recursive searches runs.
    cpu: C,
    table: &'a Table,
    budget: Budget<'a>,
    midgame_salt: u64,
    exact_salt: u64,
    /// Positions visited.
    pub nodes: u64,
    /// The part of `nodes` already added to the budget's running total.
    published: u64,
    /// Set once the budget ran out; every result computed after that is meaningless.
    pub aborted: bool,
    /// Whether the midgame search may cut off with [`Searcher::probcut`]: not inside
    /// [`Searcher::ordering_search`].
    selective: bool,
    lists: Vec<Vec<Entry<B>>>,
    ply: usize,
    _rules: PhantomData<R>,
}

/// A move list entry: the move and its sort key, and the position after the move when the
/// ordering already made it.
#[derive(Clone, Copy)]
struct Entry<B> {
    /// The sort key in the high half, the cell index in the low half.
    rank: u64,
    child: Option<Position<B>>,
}

/// The entry of the move at cell `index` with sort key `key`.
#[inline(always)]
fn entry<B>(key: i32, index: u32, child: Option<Position<B>>) -> Entry<B> {
    Entry {
        rank: ((i64::from(key) + (1 << 31)) as u64) << 32 | u64::from(index),
        child,
    }
}

/// Moves the best remaining entry (highest key) to position `i` and returns it.
#[inline(always)]
fn pick_best<B: Copy>(list: &mut [Entry<B>], i: usize) -> Entry<B> {
    let mut best = i;
    for j in i + 1..list.len() {
        if list[j].rank > list[best].rank {
            best = j;
        }
    }
    list.swap(i, best);
    list[i]
}

impl<'a, B: SearchBits, R: Rules, C: Cpu> Searcher<'a, B, R, C> {
    pub(crate) fn new(
        shape: &'a Shape<B>,
        table: &'a Table,
        budget: Budget<'a>,
        salt: u64,
        cpu: C,
    ) -> Self {
        Searcher {
            shape,
            cpu,
            table,
            budget,
            midgame_salt: salt ^ 0x6d69_6467_616d_6521,
            exact_salt: salt ^ 0x6578_6163_7421_2121,
            nodes: 0,
            published: 0,
            aborted: false,
            selective: shape.probcut.is_some(),
            lists: Vec::new(),
            ply: 0,
            _rules: PhantomData,
        }
    }

    /// The processor marker of the compiled copy in use.
    #[inline(always)]
    pub(crate) fn cpu(&self) -> C {
        self.cpu
    }

    /// The masks and scoring of the board.
    #[inline(always)]
    pub(crate) fn shape(&self) -> &'a Shape<B> {
        self.shape
    }

    /// The mover's legal moves.
    #[inline(always)]
    pub(crate) fn moves(&self, pos: Position<B>) -> B {
        pos.moves::<R>(&self.shape.geo)
    }

    /// The position after the mover plays on cell `index`, one of its legal moves.
    #[inline(always)]
    pub(crate) fn play(&self, pos: Position<B>, index: u32) -> Position<B> {
        pos.play::<R>(&self.shape.geo, B::single(index))
    }

    /// The midgame score of a root move's position (`depth` counts the root move).
    pub(crate) fn midgame_child(&mut self, pos: Position<B>, window: Window, depth: u32) -> i32 {
        self.midgame(pos, depth - 1, window.alpha, window.beta, false)
    }

    /// The exact score of a root move's position.
    pub(crate) fn solve_child(&mut self, pos: Position<B>, window: Window) -> i32 {
        self.solve(pos, window.alpha, window.beta, false)
    }

    /// The best move of a position with few empties, found by solving every move; `None` for
    /// positions with too many empties to do that quickly.
    pub(crate) fn best_by_solving(&mut self, pos: Position<B>) -> Option<u32> {
        if pos.empties(&self.shape.geo).count() > SOLVE_TABLE_MIN + 4 {
            return None;
        }
        let mut best = None;
        let mut best_score = -INFINITY - 1;
        for index in self.moves(pos).members() {
            let score = -self.solve_child(self.play(pos, index), Window::FULL);
            if self.aborted {
                return None;
            }
            if score > best_score {
                best_score = score;
                best = Some(index);
            }
        }
        best
    }

    /// The moves of a position to solve, best first: the table's move, then by a shallow
    /// midgame search, as the solver orders them.
    pub(crate) fn solve_order(&mut self, pos: Position<B>) -> Vec<u32> {
        let n = pos.empties(&self.shape.geo).count();
        let table_move = self
            .table_move(pos, true)
            .or_else(|| self.table_move(pos, false));
        let mut list: Vec<(i32, u32)> = Vec::new();
        for index in self.moves(pos).members() {
            let key = if Some(index) == table_move {
                INFINITY + 1
            } else {
                -self.ordering_search(self.play(pos, index), shallow_depth(n))
            };
            list.push((key, index));
        }
        list.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        list.into_iter().map(|(_, index)| index).collect()
    }

    /// The table's exact bounds for a position, if any.
    pub(crate) fn probe_exact(&self, pos: Position<B>) -> Option<(i32, i32)> {
        self.table
            .probe(self.key(pos, true))
            .map(|hit| (hit.lower, hit.upper))
    }

    /// Stores the exact score `best` of a position searched with `window`.
    pub(crate) fn store_exact(&self, pos: Position<B>, best: i32, window: Window, best_move: u32) {
        let n = pos.empties(&self.shape.geo).count();
        let key = self.key(pos, true);
        self.store(key, best, window.alpha, window.beta, n, Some(best_move));
    }

    /// Counts a node; checks the budget every 1024 nodes. True once the search must stop.
    #[inline(always)]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.trailing_zeros() >= 10 {
            self.check_budget();
        }
        self.aborted
    }

    /// Counts the `nodes` of a subtree searched to `score` in one piece, checking the budget
    /// when they cross a multiple of 1024: the score, or 0 once the search must stop.
    #[inline(always)]
    fn count(&mut self, nodes: u64, score: i32) -> i32 {
        let before = self.nodes;
        self.nodes += nodes;
        if (before ^ self.nodes) >> 10 != 0 {
            self.check_budget();
        }
        if self.aborted { 0 } else { score }
    }

    #[cold]
    fn check_budget(&mut self) {
        let budget = &self.budget;
        budget
            .visited
            .fetch_add(self.nodes - self.published, Ordering::Relaxed);
        self.published = self.nodes;
        if budget.stops.iter().any(|stop| stop.load(Ordering::Relaxed))
            || budget.max_nodes.is_some_and(|max| self.nodes >= max)
            || budget
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
        {
            self.aborted = true;
        }
    }

    fn take_list(&mut self) -> Vec<Entry<B>> {
        if self.lists.len() <= self.ply {
            self.lists
                .resize_with(self.ply + 1, || Vec::with_capacity(32));
        }
        let mut list = std::mem::take(&mut self.lists[self.ply]);
        list.clear();
        list
    }

    fn give_back(&mut self, list: Vec<Entry<B>>) {
        self.lists[self.ply] = list;
    }

    /// The table key of a position for the midgame (`exact == false`) or the solver.
    #[inline(always)]
    fn key(&self, pos: Position<B>, exact: bool) -> u64 {
        let salt = if exact {
            self.exact_salt
        } else {
            self.midgame_salt
        };
        pos.me.hash_pair(pos.opp, salt)
    }

    /// The table's best move for a position, if any.
    pub(crate) fn table_move(&self, pos: Position<B>, exact: bool) -> Option<u32> {
        self.table
            .probe(self.key(pos, exact))
            .and_then(|hit| hit.best)
    }

    /// How good the move at `index` from `pos` to `child` looks before searching it, for
    /// ordering: few replies for the opponent (corner replies count double), corners, and no
    /// X-square next to an empty corner.
    #[inline]
    fn quick_key(&self, pos: Position<B>, index: u32, child: Position<B>) -> i32 {
        let shape = self.shape;
        let mv = B::single(index);
        let replies = self.moves(child);
        let mut key = -16 * (replies.count() + (replies & shape.corners).count()) as i32;
        if !(mv & shape.corners).is_empty() {
            key += 32;
        }
        let empties = !(pos.me | pos.opp);
        for zone in &shape.corner_zones {
            if !(mv & zone.x_square).is_empty() && !(zone.corner & empties).is_empty() {
                key -= 24;
            }
        }
        key
    }

    #[inline]
    fn store(
        &self,
        key: u64,
        best: i32,
        alpha: i32,
        beta: i32,
        depth: u32,
        best_move: Option<u32>,
    ) {
        let lower = if best > alpha { best } else { NO_LOWER };
        let upper = if best < beta { best } else { NO_UPPER };
        self.table.store(key, lower, upper, depth, best_move);
    }

    /// A cut-off from stable discs: the score cannot exceed what the discs that can never be
    /// lost allow, nor fall below what those that can never be won allow.
    #[inline]
    fn stability_cut(&self, pos: Position<B>, alpha: i32, beta: i32) -> Option<i32> {
        let shape = self.shape;
        let (me, opp) = (pos.me, pos.opp);
        let (against, for_me) = if shape.sign > 0 { (opp, me) } else { (me, opp) };
        // The bound cannot beat alpha unless enough discs count against the mover.
        if shape.cells - 2 * against.count() as i32 <= alpha {
            let upper = shape.stability_bound(me, opp);
            if upper <= alpha {
                return Some(upper);
            }
        }
        if 2 * for_me.count() as i32 - shape.cells >= beta {
            let lower = -shape.stability_bound(opp, me);
            if lower >= beta {
                return Some(lower);
            }
        }
        None
    }

    /// The last empty cell: the mover plays it if they can, else the opponent, else nobody.
    #[inline(always)]
    fn solve_one(&mut self, pos: Position<B>, index: u32) -> i32 {
        let shape = self.shape;
        let geo = &shape.geo;
        let mv = B::single(index);
        let around = shape.neighbours[index as usize];
        if !(around & pos.opp).is_empty() {
            let flipped = R::flips_at_empty(geo, pos.me, pos.opp, mv);
            if !flipped.is_empty() {
                // The end, seen by the opponent.
                let end = pos.after(mv, flipped);
                return shape.final_score(end.opp, end.me);
            }
        }
        if !(around & pos.me).is_empty() {
            let flipped = R::flips_at_empty(geo, pos.opp, pos.me, mv);
            if !flipped.is_empty() {
                self.nodes += 1;
                // The end, seen by the mover.
                let end = pos.passed().after(mv, flipped);
                return shape.final_score(end.me, end.opp);
            }
        }
        shape.final_score(pos.me, pos.opp)
    }

    /// Principal-variation search over the moves of `pos` in `list`, best first by their keys:
    /// the first move with the full window, the others with a null window and, when one does
    /// better, again with the full window; `search` scores a child within a window. The best
    /// score and move (fail-soft), or `None` once the budget ran out.
    #[inline(always)]
    fn search_moves(
        &mut self,
        pos: Position<B>,
        list: &mut [Entry<B>],
        window: Window,
        search: impl Fn(&mut Self, Position<B>, i32, i32) -> i32,
    ) -> Option<Best> {
        let Window { mut alpha, beta } = window;
        let mut best = Best {
            score: -INFINITY,
            index: None,
        };
        for i in 0..list.len() {
            let Entry { rank, child } = pick_best(list, i);
            let index = rank as u32;
            let child = child.unwrap_or_else(|| self.play(pos, index));
            self.ply += 1;
            let mut score;
            if i == 0 {
                score = -search(self, child, -beta, -alpha);
            } else {
                score = -search(self, child, -alpha - 1, -alpha);
                if score > alpha && score < beta && !self.aborted {
                    score = -search(self, child, -beta, -score);
                }
            }
            self.ply -= 1;
            if self.aborted {
                return None;
            }
            if score > best.score {
                best = Best {
                    score,
                    index: Some(index),
                };
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        Some(best)
    }

    /// Negamax alpha-beta with principal-variation search to `depth` plies, in evaluation units.
    /// A pass is not a ply.
    #[inline(always)]
    fn midgame(
        &mut self,
        pos: Position<B>,
        depth: u32,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> i32 {
        fn portable<B: SearchBits, R: Rules, C: Cpu>(
            searcher: &mut Searcher<'_, B, R, C>,
            pos: Position<B>,
            depth: u32,
            alpha: i32,
            beta: i32,
            passed: bool,
        ) -> i32 {
            searcher.midgame_body(pos, depth, alpha, beta, passed)
        }
        #[cfg(target_arch = "x86_64")]
        if self.cpu.x86_64_v3().is_some() {
            #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
            unsafe fn x86_64_v3<B: SearchBits, R: Rules, C: Cpu>(
                searcher: &mut Searcher<'_, B, R, C>,
                pos: Position<B>,
                depth: u32,
                alpha: i32,
                beta: i32,
                passed: bool,
            ) -> i32 {
                searcher.midgame_body(pos, depth, alpha, beta, passed)
            }
            // SAFETY: the marker is an `X86_64V3`, made only on a processor with every
            // feature the function is compiled for.
            return unsafe { x86_64_v3(self, pos, depth, alpha, beta, passed) };
        }
        portable(self, pos, depth, alpha, beta, passed)
    }

    /// The body of [`Searcher::midgame`].
    #[inline(always)]
    fn midgame_body(
        &mut self,
        pos: Position<B>,
        depth: u32,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        let shape = self.shape;
        if (pos.me | pos.opp) == shape.geo.board {
            return shape.final_score(pos.me, pos.opp) * SCALE;
        }
        if depth == 0 {
            // A game that is over (a wipe-out, or nobody can move) is scored exactly, never
            // by the evaluation.
            if self.moves(pos).is_empty() && self.moves(pos.passed()).is_empty() {
                return shape.final_score(pos.me, pos.opp) * SCALE;
            }
            return evaluate::<B, R, C>(shape, pos, self.cpu);
        }
        let moves = self.moves(pos);
        if moves.is_empty() {
            if passed {
                return shape.final_score(pos.me, pos.opp) * SCALE;
            }
            return -self.midgame(pos.passed(), depth, -beta, -alpha, true);
        }
        let key = self.key(pos, false);
        let mut table_move = None;
        if depth >= MIDGAME_TABLE_MIN
            && let Some(hit) = self.table.probe(key)
        {
            if hit.depth >= depth {
                if hit.lower >= beta {
                    return hit.lower;
                }
                if hit.upper <= alpha {
                    return hit.upper;
                }
                if hit.lower == hit.upper {
                    return hit.lower;
                }
            }
            table_move = hit.best.filter(|&m| moves.has(m));
        }
        if depth >= probcut::MIN_DEPTH
            && self.selective
            && let Some(model) = shape.probcut
            && let Some(cut) = self.probcut(pos, depth, alpha, beta, model)
        {
            return cut;
        }
        let mut list = self.take_list();
        for index in moves.members() {
            // Below 2 plies only the table move goes first, and children are made only if
            // searched.
            let (key, child) = if Some(index) == table_move {
                (1 << 20, None)
            } else if depth >= 2 {
                let child = self.play(pos, index);
                // Its table slot, fetched ahead (the child probes it at `depth - 1 >= 1`).
                self.table.prefetch(self.key(child, false));
                (self.quick_key(pos, index, child), Some(child))
            } else {
                (0, None)
            };
            list.push(entry(key, index, child));
        }
        let best = self.search_moves(
            pos,
            &mut list,
            Window { alpha, beta },
            #[inline(always)]
            |s: &mut Self, child, a, b| s.midgame(child, depth - 1, a, b, false),
        );
        self.give_back(list);
        let Some(best) = best else {
            return 0;
        };
        if depth >= MIDGAME_TABLE_MIN {
            self.store(key, best.score, alpha, beta, depth, best.index);
        }
        best.score
    }

    /// The full-window midgame score of `pos` at `depth`, as the solver orders its moves:
    /// without probabilistic cut-offs, which cost the solver more nodes than they save.
    fn ordering_search(&mut self, pos: Position<B>, depth: u32) -> i32 {
        let selective = std::mem::take(&mut self.selective);
        let score = self.midgame(pos, depth, -INFINITY, INFINITY, false);
        self.selective = selective;
        score
    }

    /// A probabilistic cut-off at a node `depth` plies deep with window (`alpha`, `beta`): a
    /// shallow search finds the node's value very likely at or above `beta` (or at or below
    /// `alpha`), or `None`.
    #[inline(always)]
    fn probcut(
        &mut self,
        pos: Position<B>,
        depth: u32,
        alpha: i32,
        beta: i32,
        model: ProbCut,
    ) -> Option<i32> {
        let top = self.shape.cells * SCALE;
        let empties = pos.empties(&self.shape.geo).count();
        let margin = model.margin(depth, empties);
        let shallow = probcut::shallow_depth(depth);
        let high = beta.saturating_add(margin);
        if beta > -top && high < top && self.midgame(pos, shallow, high - 1, high, false) >= high {
            return Some(beta);
        }
        let low = alpha.saturating_sub(margin);
        if alpha < top && low > -top && self.midgame(pos, shallow, low, low + 1, false) <= low {
            return Some(alpha);
        }
        None
    }

    /// The exact final score with perfect play from both sides, in discs (fail-soft: a score
    /// at or below `alpha` is an upper bound, one at or above `beta` a lower bound).
    #[inline(always)]
    fn solve(&mut self, pos: Position<B>, alpha: i32, beta: i32, passed: bool) -> i32 {
        fn portable<B: SearchBits, R: Rules, C: Cpu>(
            searcher: &mut Searcher<'_, B, R, C>,
            pos: Position<B>,
            alpha: i32,
            beta: i32,
            passed: bool,
        ) -> i32 {
            searcher.solve_body(pos, alpha, beta, passed)
        }
        #[cfg(target_arch = "x86_64")]
        if self.cpu.x86_64_v3().is_some() {
            #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
            unsafe fn x86_64_v3<B: SearchBits, R: Rules, C: Cpu>(
                searcher: &mut Searcher<'_, B, R, C>,
                pos: Position<B>,
                alpha: i32,
                beta: i32,
                passed: bool,
            ) -> i32 {
                searcher.solve_body(pos, alpha, beta, passed)
            }
            // SAFETY: the marker is an `X86_64V3`, made only on a processor with every
            // feature the function is compiled for.
            return unsafe { x86_64_v3(self, pos, alpha, beta, passed) };
        }
        portable(self, pos, alpha, beta, passed)
    }

    /// The body of [`Searcher::solve`].
    #[inline(always)]
    fn solve_body(&mut self, pos: Position<B>, mut alpha: i32, mut beta: i32, passed: bool) -> i32 {
        let shape = self.shape;
        let empties = pos.empties(&shape.geo);
        let n = empties.count();
        if n < SOLVE_SORT_MIN {
            return self.solve_small(pos, alpha, beta, empties, passed);
        }
        if self.tick() {
            return 0;
        }
        let moves = self.moves(pos);
        if moves.is_empty() {
            if passed {
                return shape.final_score(pos.me, pos.opp);
            }
            return -self.solve(pos.passed(), -beta, -alpha, true);
        }
        if n >= SOLVE_STABILITY_MIN
            && let Some(cut) = self.stability_cut(pos, alpha, beta)
        {
            return cut;
        }
        let mut table_move = None;
        let key = self.key(pos, true);
        if n >= SOLVE_TABLE_MIN
            && let Some(hit) = self.table.probe(key)
        {
            if hit.lower >= beta {
                return hit.lower;
            }
            if hit.upper <= alpha {
                return hit.upper;
            }
            if hit.lower == hit.upper {
                return hit.lower;
            }
            alpha = alpha.max(hit.lower);
            beta = beta.min(hit.upper);
            table_move = hit.best.filter(|&m| moves.has(m));
        }
        let mut list = self.take_list();
        let shallow = if n >= SOLVE_SHALLOW_MIN {
            shallow_depth(n)
        } else {
            0
        };
        // The children, their table slots fetched ahead when they will probe the table, so
        // that the misses overlap.
        let prefetch = n > SOLVE_TABLE_MIN;
        for index in moves.members() {
            let child = self.play(pos, index);
            if prefetch {
                self.table.prefetch(self.key(child, true));
            }
            list.push(entry(0, index, Some(child)));
        }
        if n >= SOLVE_ETC_MIN {
            // Enhanced transposition cut-off: a child already known to be bad enough for the
            // opponent settles this position.
            for item in &list {
                let child = item.child.expect("the solver makes every child");
                if let Some(hit) = self.table.probe(self.key(child, true))
                    && -hit.upper >= beta
                {
                    self.give_back(list);
                    return -hit.upper;
                }
            }
        }
        let odd = shape.odd_regions(empties);
        for item in &mut list {
            let index = item.rank as u32;
            let child = item.child.expect("the solver makes every child");
            let key = if Some(index) == table_move {
                1 << 28
            } else {
                self.solve_key(child, index, empties, odd, shallow)
            };
            *item = entry(key, index, Some(child));
        }
        let best = self.search_moves(
            pos,
            &mut list,
            Window { alpha, beta },
            #[inline(always)]
            |s: &mut Self, child, a, b| s.solve(child, a, b, false),
        );
        self.give_back(list);
        let Some(best) = best else {
            return 0;
        };
        if n >= SOLVE_TABLE_MIN {
            self.store(key, best.score, alpha, beta, n, best.index);
        }
        best.score
    }

    /// How good the move at `index` to `child` looks to the solver, before searching it: a
    /// midgame search `shallow` plies deep (when not 0), else fastest first (`empties` and
    /// `odd`, the regions with an odd number of them, are those before the move); either way
    /// less for each reply it leaves the opponent.
    #[inline(always)]
    fn solve_key(
        &mut self,
        child: Position<B>,
        index: u32,
        empties: B,
        odd: B,
        shallow: u32,
    ) -> i32 {
        let shape = self.shape;
        let replies = self.moves(child);
        let mobility = (replies.count() + (replies & shape.corners).count()) as i32;
        if shallow > 0 {
            self.ply += 1;
            let score = -self.ordering_search(child, shallow);
            self.ply -= 1;
            score - WEIGHT_SHALLOW_MOBILITY * mobility
        } else {
            let after = empties & !B::single(index);
            let potential = (shape.geo.dilate(child.opp) & after).count() as i32;
            -WEIGHT_MOBILITY * mobility - WEIGHT_POTENTIAL * potential
                + WEIGHT_PARITY * i32::from(odd.has(index))
        }
    }

    /// The solver for the last few empties: no table, moves tried on the empty cells directly
    /// (skipping cells with no opponent disc next to them), those in regions with an odd number
    /// of empties first. On 8x8 under FULL rules [`Leaves`] searches the same tree in `u64`
    /// code.
    #[inline(always)]
    fn solve_small(
        &mut self,
        pos: Position<B>,
        alpha: i32,
        beta: i32,
        empties: B,
        passed: bool,
    ) -> i32 {
        fn portable<B: SearchBits, R: Rules, C: Cpu>(
            searcher: &mut Searcher<'_, B, R, C>,
            pos: Position<B>,
            alpha: i32,
            beta: i32,
            empties: B,
            passed: bool,
        ) -> i32 {
            searcher.solve_small_body(pos, alpha, beta, empties, passed)
        }
        #[cfg(target_arch = "x86_64")]
        if self.cpu.x86_64_v3().is_some() {
            #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
            unsafe fn x86_64_v3<B: SearchBits, R: Rules, C: Cpu>(
                searcher: &mut Searcher<'_, B, R, C>,
                pos: Position<B>,
                alpha: i32,
                beta: i32,
                empties: B,
                passed: bool,
            ) -> i32 {
                searcher.solve_small_body(pos, alpha, beta, empties, passed)
            }
            // SAFETY: the marker is an `X86_64V3`, made only on a processor with every
            // feature the function is compiled for.
            return unsafe { x86_64_v3(self, pos, alpha, beta, empties, passed) };
        }
        portable(self, pos, alpha, beta, empties, passed)
    }

    /// The body of [`Searcher::solve_small`].
    #[inline(always)]
    fn solve_small_body(
        &mut self,
        pos: Position<B>,
        mut alpha: i32,
        beta: i32,
        empties: B,
        passed: bool,
    ) -> i32 {
        let shape = self.shape;
        // Known at compile time but for the board, so that only the one-word code has it.
        if B::WIDTH == 64 && R::RULE_SET == RuleSet::Full && shape.geo.is_standard() {
            let mut leaves = Leaves::new(shape.outcome());
            let node = Node {
                me: pos.me.low_u64(),
                opp: pos.opp.low_u64(),
                empties: empties.low_u64(),
                alpha,
                beta,
            };
            let score = leaves.solve(node, passed);
            return self.count(leaves.nodes, score);
        }
        if self.tick() {
            return 0;
        }
        let n = empties.count();
        if n <= 1 {
            return if n == 1 {
                self.solve_one(pos, empties.lowest())
            } else {
                shape.final_score(pos.me, pos.opp)
            };
        }
        let odd = if n > 2 {
            shape.odd_regions(empties)
        } else {
            empties
        };
        let mut best = -INFINITY;
        for part in [odd, empties & !odd] {
            for index in part.members() {
                if (shape.neighbours[index as usize] & pos.opp).is_empty() {
                    continue;
                }
                let mv = B::single(index);
                let flipped = R::flips_at_empty(&shape.geo, pos.me, pos.opp, mv);
                if flipped.is_empty() {
                    continue;
                }
                let child = pos.after(mv, flipped);
                let score = -self.solve_small(child, -beta, -alpha, empties & !mv, false);
                if raise(&mut best, &mut alpha, score, beta) {
                    return best;
                }
            }
        }
        if best == -INFINITY {
            if passed {
                return shape.final_score(pos.me, pos.opp);
            }
            return -self.solve_small(pos.passed(), -beta, -alpha, empties, true);
        }
        best
    }
}

/// Fail-soft bookkeeping of a move scored `score`: raises the best score and alpha. True on a
/// cut-off (`score >= beta`).
#[inline(always)]
pub(crate) fn raise(best: &mut i32, alpha: &mut i32, score: i32, beta: i32) -> bool {
    if score > *best {
        *best = score;
        if score > *alpha {
            *alpha = score;
            return score >= beta;
        }
    }
    false
}

/// The depth of the midgame search that orders moves in the solver at `n` empties.
fn shallow_depth(n: u32) -> u32 {
    match n {
        0..=13 => 1,
        14..=17 => 2,
        18..=21 => 3,
        _ => 4,
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use crate::bitboard::U256;
    use crate::cpu::{Portable, X86_64V3};
    use crate::engine::shape::Scoring;
    use crate::rules::{Full, Simple};
    use crate::setup::WinRule;
    use crate::square::Dimensions;

    /// Positions `empties` away from the end, reached by pseudo-random games from the start.
    fn positions<B: SearchBits, R: Rules>(
        shape: &Shape<B>,
        empties: u32,
        count: usize,
    ) -> Vec<Position<B>> {
        let geo = &shape.geo;
        let (rows, cols) = (geo.dims().rows() as u32, geo.dims().cols() as u32);
        let at = |r: u32, c: u32| B::single(r * cols + c);
        let (r, c) = (rows / 2 - 1, cols / 2 - 1);
        let start = Position {
            me: at(r, c + 1) | at(r + 1, c),
            opp: at(r, c) | at(r + 1, c + 1),
        };
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut found = Vec::new();
        while found.len() < count {
            let mut pos = start;
            while pos.empties(geo).count() > empties {
                let mut moves = pos.moves::<R>(geo);
                if moves.is_empty() {
                    pos = pos.passed();
                    moves = pos.moves::<R>(geo);
                    if moves.is_empty() {
                        break;
                    }
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let index = moves.members().nth(state as usize % moves.count() as usize);
                let index = index.expect("a legal move");
                pos = pos.play::<R>(geo, B::single(index));
            }
            if pos.empties(geo).count() == empties {
                found.push(pos);
            }
        }
        found
    }

    /// What `run` returns from a searcher with processor `cpu`, no limits and a fresh table,
    /// and the nodes it visited.
    fn with_searcher<B: SearchBits, R: Rules, C: Cpu, T>(
        shape: &Shape<B>,
        cpu: C,
        run: impl FnOnce(&mut Searcher<'_, B, R, C>) -> T,
    ) -> (T, u64) {
        let stop = AtomicBool::new(false);
        let budget = Budget {
            stops: [&stop, &stop],
            deadline: None,
            max_nodes: None,
            visited: &AtomicU64::new(0),
        };
        let table = Table::new(1);
        let mut searcher = Searcher::<B, R, C>::new(shape, &table, budget, 7, cpu);
        let result = run(&mut searcher);
        (result, searcher.nodes)
    }

    /// The solve and then a midgame search of `position` on a fresh table with processor
    /// `cpu`: both scores and the nodes visited.
    fn search_with<B: SearchBits, R: Rules, C: Cpu>(
        shape: &Shape<B>,
        cpu: C,
        position: Position<B>,
        depth: u32,
    ) -> (i32, i32, u64) {
        let ((solved, guess), nodes) = with_searcher::<B, R, C, _>(shape, cpu, |searcher| {
            let solved = searcher.solve_child(position, Window::FULL);
            (
                solved,
                searcher.midgame_child(position, Window::FULL, depth + 1),
            )
        });
        (solved, guess, nodes)
    }

    /// Both compiled copies give the same scores after visiting the same nodes.
    fn copies_agree<B: SearchBits, R: Rules>(rows: usize, cols: usize, empties: u32, depth: u32) {
        let Some(v3) = X86_64V3::detect() else {
            return;
        };
        let dims = Dimensions::new(rows, cols).unwrap();
        let shape = Shape::<B>::new(
            dims,
            R::RULE_SET,
            WinRule::MostDiscs,
            Scoring::EmptiesToWinner,
            crate::engine::Evaluation::Trained,
            true,
        );
        for position in positions::<B, R>(&shape, empties, 6) {
            let portable = search_with::<B, R, _>(&shape, Portable, position, depth);
            let x86_64_v3 = search_with::<B, R, _>(&shape, v3, position, depth);
            assert!(portable.2 > 0);
            assert_eq!(portable, x86_64_v3);
        }
    }

    /// The 8x8 solver of the last empties (`leaves.rs`, on `u64`) visits the same nodes to the
    /// same scores as the generic code (the same board on `u128`), under both win rules and
    /// both scorings, with full and narrow windows.
    #[test]
    fn the_8x8_leaves_search_as_the_generic_code() {
        let dims = Dimensions::STANDARD;
        let widen = |pos: Position<u64>| Position {
            me: u128::from(pos.me),
            opp: u128::from(pos.opp),
        };
        for win in [WinRule::MostDiscs, WinRule::FewestDiscs] {
            for scoring in [Scoring::DiscsOnly, Scoring::EmptiesToWinner] {
                let classic = crate::engine::Evaluation::Classic;
                let narrow = Shape::<u64>::new(dims, RuleSet::Full, win, scoring, classic, false);
                let wide = Shape::<u128>::new(dims, RuleSet::Full, win, scoring, classic, false);
                for empties in 0..=9 {
                    for pos in positions::<u64, Full>(&narrow, empties, 8) {
                        for window in [Window::FULL, Window { alpha: -2, beta: 4 }] {
                            let leaves = solve_with::<u64>(&narrow, pos, window);
                            let generic = solve_with::<u128>(&wide, widen(pos), window);
                            assert!(leaves.1 > 0);
                            assert_eq!(leaves, generic, "{pos:?} {window:?} {win:?} {scoring:?}");
                        }
                    }
                }
            }
        }
    }

    /// The exact score of `position` in `window` on a fresh table, and the nodes visited.
    fn solve_with<B: SearchBits>(
        shape: &Shape<B>,
        position: Position<B>,
        window: Window,
    ) -> (i32, u64) {
        with_searcher::<B, Full, _, _>(shape, Portable, |searcher| {
            searcher.solve_child(position, window)
        })
    }

    #[test]
    fn portable_and_x86_64_v3_searches_agree() {
        copies_agree::<u64, Full>(8, 8, 14, 5);
        copies_agree::<u64, Simple>(8, 8, 12, 4);
        copies_agree::<u128, Full>(10, 10, 12, 4);
        copies_agree::<U256, Full>(12, 12, 10, 3);
    }
}
