//! The searches, generic over the move generator: a depth-limited negamax with principal-variation
//! search for the midgame, and an exact solver for the endgame.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::eval::{evaluate, SCALE};
use super::shape::{Kernel, SearchBits, Shape};
use super::tt::{Table, NO_LOWER, NO_UPPER};
use crate::bitboard::Bits;

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
const SOLVE_STABILITY_MIN: u32 = 6;
/// Empties from which the solver looks up every child in the table before searching any
/// (enhanced transposition cut-off).
const SOLVE_ETC_MIN: u32 = 14;
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
}

/// A compiled copy of the recursive searches: [`Portable`] for any processor, [`X86_64V3`]
/// for processors with popcnt, lzcnt, BMI1/2 and AVX2. The driver picks one per search, so the
/// choice costs nothing per node.
pub(crate) trait Isa: Copy + Send + Sync {
    /// The midgame search of `position` to `depth` plies within `window`.
    fn midgame<K: Kernel>(
        searcher: &mut Searcher<'_, K, Self>,
        position: (K::B, K::B),
        depth: u32,
        window: (i32, i32),
    ) -> i32;
    /// The exact solve of `position` within `window`.
    fn solve<K: Kernel>(
        searcher: &mut Searcher<'_, K, Self>,
        position: (K::B, K::B),
        window: (i32, i32),
    ) -> i32;
}

/// The searches compiled for the baseline of the target.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

impl Isa for Portable {
    fn midgame<K: Kernel>(
        searcher: &mut Searcher<'_, K, Self>,
        (me, opp): (K::B, K::B),
        depth: u32,
        (alpha, beta): (i32, i32),
    ) -> i32 {
        searcher.midgame(me, opp, depth, alpha, beta, false)
    }

    fn solve<K: Kernel>(
        searcher: &mut Searcher<'_, K, Self>,
        (me, opp): (K::B, K::B),
        (alpha, beta): (i32, i32),
    ) -> i32 {
        searcher.solve(me, opp, alpha, beta, false)
    }
}

/// The searches compiled for x86-64-v3. A value exists only on a processor that has those
/// features: [`X86_64V3::detect`] is the only way to make one.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct X86_64V3 {
    _detected: (),
}

#[cfg(target_arch = "x86_64")]
impl X86_64V3 {
    /// The marker, if this processor has the features (checked once, then cached).
    pub(crate) fn detect() -> Option<X86_64V3> {
        crate::rules::x86_64_v3::detected().then_some(X86_64V3 { _detected: () })
    }
}

#[cfg(target_arch = "x86_64")]
impl Isa for X86_64V3 {
    fn midgame<K: Kernel>(
        searcher: &mut Searcher<'_, K, Self>,
        (me, opp): (K::B, K::B),
        depth: u32,
        (alpha, beta): (i32, i32),
    ) -> i32 {
        // SAFETY: the searcher holds an `X86_64V3`, made only by `detect` on a processor with
        // every feature the function is compiled for.
        unsafe { searcher.midgame(me, opp, depth, alpha, beta, false) }
    }

    fn solve<K: Kernel>(
        searcher: &mut Searcher<'_, K, Self>,
        (me, opp): (K::B, K::B),
        (alpha, beta): (i32, i32),
    ) -> i32 {
        // SAFETY: as above.
        unsafe { searcher.solve(me, opp, alpha, beta, false) }
    }
}

/// One search thread's state.
pub(crate) struct Searcher<'a, K: Kernel, I: Isa> {
    kernel: &'a K,
    /// Which compiled copy of the recursive searches runs.
    _isa: I,
    table: &'a Table,
    budget: Budget<'a>,
    midgame_salt: u64,
    exact_salt: u64,
    /// Positions visited.
    pub nodes: u64,
    /// Set once the budget ran out; every result computed after that is meaningless.
    pub aborted: bool,
    lists: Vec<Vec<u64>>,
    ply: usize,
}

/// A move list entry: the sort key in the high half, the cell index in the low half.
#[inline(always)]
fn entry(key: i32, index: u32) -> u64 {
    ((key as i64 + (1 << 31)) as u64) << 32 | index as u64
}

/// Moves the best remaining entry (highest key) to position `i` and returns its cell.
#[inline(always)]
fn pick_best(list: &mut [u64], i: usize) -> u32 {
    let mut best = i;
    for j in i + 1..list.len() {
        if list[j] > list[best] {
            best = j;
        }
    }
    list.swap(i, best);
    list[i] as u32
}

impl<'a, K: Kernel, I: Isa> Searcher<'a, K, I> {
    pub(crate) fn new(
        kernel: &'a K,
        table: &'a Table,
        budget: Budget<'a>,
        salt: u64,
        isa: I,
    ) -> Self {
        Searcher {
            kernel,
            _isa: isa,
            table,
            budget,
            midgame_salt: salt ^ 0x6d69_6467_616d_6521,
            exact_salt: salt ^ 0x6578_6163_7421_2121,
            nodes: 0,
            aborted: false,
            lists: Vec::new(),
            ply: 0,
        }
    }

    /// The move generator.
    pub(crate) fn kernel(&self) -> &'a K {
        self.kernel
    }

    /// The midgame score of a root move's position (`depth` counts the root move).
    pub(crate) fn midgame_child(
        &mut self,
        (me, opp): (K::B, K::B),
        (alpha, beta): (i32, i32),
        depth: u32,
    ) -> i32 {
        I::midgame(self, (me, opp), depth - 1, (alpha, beta))
    }

    /// The exact score of a root move's position.
    pub(crate) fn solve_child(
        &mut self,
        (me, opp): (K::B, K::B),
        (alpha, beta): (i32, i32),
    ) -> i32 {
        I::solve(self, (me, opp), (alpha, beta))
    }

    /// The best move of a position with few empties, found by solving every move; `None` for
    /// positions with too many empties to do that quickly.
    pub(crate) fn best_by_solving(&mut self, me: K::B, opp: K::B) -> Option<u32> {
        let empties = self.shape().geo.board & !(me | opp);
        if empties.count() > SOLVE_TABLE_MIN + 4 {
            return None;
        }
        let mut best = None;
        let mut best_score = -INFINITY - 1;
        for index in self.kernel.moves(me, opp).members() {
            let flipped = self.kernel.flips(me, opp, index);
            let child = (opp & !flipped, me | K::B::single(index) | flipped);
            let score = -I::solve(self, child, (-INFINITY, INFINITY));
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
    pub(crate) fn solve_order(&mut self, me: K::B, opp: K::B) -> Vec<u32> {
        let n = (self.shape().geo.board & !(me | opp)).count();
        let table_move = self
            .table_move(me, opp, true)
            .or_else(|| self.table_move(me, opp, false));
        let mut list: Vec<(i32, u32)> = Vec::new();
        for index in self.kernel.moves(me, opp).members() {
            let key = if Some(index) == table_move {
                INFINITY + 1
            } else {
                let flipped = self.kernel.flips(me, opp, index);
                let child = (opp & !flipped, me | K::B::single(index) | flipped);
                -I::midgame(self, child, shallow_depth(n), (-INFINITY, INFINITY))
            };
            list.push((key, index));
        }
        list.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        list.into_iter().map(|(_, index)| index).collect()
    }

    /// The table's exact bounds for a position, if any.
    pub(crate) fn probe_exact(&self, me: K::B, opp: K::B) -> Option<(i32, i32)> {
        self.table
            .probe(self.key(me, opp, true))
            .map(|hit| (hit.lower, hit.upper))
    }

    /// Stores the exact score `best` of a position searched with the window `(alpha, beta)`.
    pub(crate) fn store_exact(
        &self,
        (me, opp): (K::B, K::B),
        best: i32,
        (alpha, beta): (i32, i32),
        best_move: u32,
    ) {
        let n = (self.shape().geo.board & !(me | opp)).count();
        self.store(
            self.key(me, opp, true),
            best,
            alpha,
            beta,
            n,
            Some(best_move),
        );
    }

    #[inline(always)]
    fn shape(&self) -> &'a Shape<K::B> {
        self.kernel.shape()
    }

    /// Counts a node; checks the budget every 1024 nodes. True once the search must stop.
    #[inline(always)]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 0x3ff == 0 {
            self.check_budget();
        }
        self.aborted
    }

    #[cold]
    fn check_budget(&mut self) {
        let budget = &self.budget;
        if budget.stops.iter().any(|stop| stop.load(Ordering::Relaxed))
            || budget.max_nodes.is_some_and(|max| self.nodes >= max)
            || budget
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
        {
            self.aborted = true;
        }
    }

    fn take_list(&mut self) -> Vec<u64> {
        if self.lists.len() <= self.ply {
            self.lists
                .resize_with(self.ply + 1, || Vec::with_capacity(32));
        }
        let mut list = std::mem::take(&mut self.lists[self.ply]);
        list.clear();
        list
    }

    fn give_back(&mut self, list: Vec<u64>) {
        self.lists[self.ply] = list;
    }

    /// The table key of a position for the midgame (`exact == false`) or the solver.
    #[inline(always)]
    pub(crate) fn key(&self, me: K::B, opp: K::B, exact: bool) -> u64 {
        let salt = if exact {
            self.exact_salt
        } else {
            self.midgame_salt
        };
        me.hash_pair(opp, salt)
    }

    /// The table's best move for a position, if any.
    pub(crate) fn table_move(&self, me: K::B, opp: K::B, exact: bool) -> Option<u32> {
        self.table
            .probe(self.key(me, opp, exact))
            .and_then(|hit| hit.best)
    }

    /// How good a move looks before searching it, for ordering: few replies for the opponent
    /// (corner replies count double), corners, and no X-square next to an empty corner.
    #[inline]
    fn quick_key(&self, me: K::B, opp: K::B, index: u32) -> i32 {
        let shape = self.shape();
        let flipped = self.kernel.flips(me, opp, index);
        let mv = K::B::single(index);
        let (child_me, child_opp) = (opp & !flipped, me | mv | flipped);
        let replies = self.kernel.moves(child_me, child_opp);
        let mut key = -16 * (replies.count() + (replies & shape.corners).count()) as i32;
        if !(mv & shape.corners).is_empty() {
            key += 32;
        }
        for &(corner, x, _) in &shape.corner_zones {
            if !(mv & x).is_empty() && !(corner & !(me | opp)).is_empty() {
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
    fn stability_cut(&self, me: K::B, opp: K::B, alpha: i32, beta: i32) -> Option<i32> {
        let shape = self.shape();
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
    fn solve_one(&mut self, me: K::B, opp: K::B, index: u32) -> i32 {
        let shape = self.shape();
        let mv = K::B::single(index);
        let around = shape.neighbours[index as usize];
        if !(around & opp).is_empty() {
            let flipped = self.kernel.flips(me, opp, index);
            if !flipped.is_empty() {
                return shape.final_score(me | mv | flipped, opp & !flipped);
            }
        }
        if !(around & me).is_empty() {
            let flipped = self.kernel.flips(opp, me, index);
            if !flipped.is_empty() {
                self.nodes += 1;
                return shape.final_score(me & !flipped, opp | mv | flipped);
            }
        }
        shape.final_score(me, opp)
    }
}

/// Defines the recursive searches (`midgame`, `solve`, `solve_small`) for the searcher of
/// instruction set `$isa`, with the given attributes.
macro_rules! define_searches {
    ($isa:ty $(, #[$attr:meta])*) => {
        impl<K: Kernel> Searcher<'_, K, $isa> {
            /// Negamax alpha-beta with principal-variation search to `depth` plies, in evaluation
            /// units. A pass is not a ply.
            $(#[$attr])*
            fn midgame(
                &mut self,
                me: K::B,
                opp: K::B,
                depth: u32,
                mut alpha: i32,
                beta: i32,
                passed: bool,
            ) -> i32 {
                if self.tick() {
                    return 0;
                }
                let shape = self.shape();
                if (me | opp) == shape.geo.board {
                    return shape.final_score(me, opp) * SCALE;
                }
                if depth == 0 {
                    return evaluate(self.kernel, me, opp);
                }
                let moves = self.kernel.moves(me, opp);
                if moves.is_empty() {
                    if passed {
                        return shape.final_score(me, opp) * SCALE;
                    }
                    return -self.midgame(opp, me, depth, -beta, -alpha, true);
                }
                let key = self.key(me, opp, false);
                let mut table_move = None;
                if depth >= MIDGAME_TABLE_MIN {
                    if let Some(hit) = self.table.probe(key) {
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
                }
                let original_alpha = alpha;
                let mut list = self.take_list();
                for index in moves.members() {
                    let key = if Some(index) == table_move {
                        1 << 20
                    } else if depth >= 2 {
                        self.quick_key(me, opp, index)
                    } else {
                        0
                    };
                    list.push(entry(key, index));
                }
                let mut best = -INFINITY;
                let mut best_move = None;
                for i in 0..list.len() {
                    let index = pick_best(&mut list, i);
                    let flipped = self.kernel.flips(me, opp, index);
                    let (child_me, child_opp) = (opp & !flipped, me | K::B::single(index) | flipped);
                    self.ply += 1;
                    let mut score;
                    if i == 0 {
                        score = -self.midgame(child_me, child_opp, depth - 1, -beta, -alpha, false);
                    } else {
                        score = -self.midgame(child_me, child_opp, depth - 1, -alpha - 1, -alpha, false);
                        if score > alpha && score < beta && !self.aborted {
                            score = -self.midgame(child_me, child_opp, depth - 1, -beta, -score, false);
                        }
                    }
                    self.ply -= 1;
                    if self.aborted {
                        self.give_back(list);
                        return 0;
                    }
                    if score > best {
                        best = score;
                        best_move = Some(index);
                        if score > alpha {
                            alpha = score;
                            if score >= beta {
                                break;
                            }
                        }
                    }
                }
                self.give_back(list);
                if depth >= MIDGAME_TABLE_MIN {
                    self.store(key, best, original_alpha, beta, depth, best_move);
                }
                best
            }

            /// The exact final score with perfect play from both sides, in discs (fail-soft: a score
            /// at or below `alpha` is an upper bound, one at or above `beta` a lower bound).
            $(#[$attr])*
            fn solve(
                &mut self,
                me: K::B,
                opp: K::B,
                mut alpha: i32,
                mut beta: i32,
                passed: bool,
            ) -> i32 {
                let shape = self.shape();
                let empties = shape.geo.board & !(me | opp);
                let n = empties.count();
                if n < SOLVE_SORT_MIN {
                    return self.solve_small(me, opp, alpha, beta, empties, passed);
                }
                if self.tick() {
                    return 0;
                }
                let moves = self.kernel.moves(me, opp);
                if moves.is_empty() {
                    if passed {
                        return shape.final_score(me, opp);
                    }
                    return -self.solve(opp, me, -beta, -alpha, true);
                }
                if n >= SOLVE_STABILITY_MIN {
                    if let Some(cut) = self.stability_cut(me, opp, alpha, beta) {
                        return cut;
                    }
                }
                let mut table_move = None;
                let key = self.key(me, opp, true);
                if n >= SOLVE_TABLE_MIN {
                    if let Some(hit) = self.table.probe(key) {
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
                }
                let original_alpha = alpha;
                let mut list = self.take_list();
                if n >= SOLVE_SORT_MIN {
                    let shallow = if n >= SOLVE_SHALLOW_MIN {
                        shallow_depth(n)
                    } else {
                        0
                    };
                    let odd = shape.odd_regions(empties);
                    let etc = n >= SOLVE_ETC_MIN;
                    for index in moves.members() {
                        let flipped = self.kernel.flips(me, opp, index);
                        let mv = K::B::single(index);
                        let (child_me, child_opp) = (opp & !flipped, me | mv | flipped);
                        if etc {
                            // Enhanced transposition cut-off: a child already known to be bad enough
                            // for the opponent settles this position.
                            if let Some(hit) = self.table.probe(self.key(child_me, child_opp, true)) {
                                if -hit.upper >= beta {
                                    self.give_back(list);
                                    return -hit.upper;
                                }
                            }
                        }
                        let key = if Some(index) == table_move {
                            1 << 28
                        } else if shallow > 0 {
                            self.ply += 1;
                            let score =
                                -self.midgame(child_me, child_opp, shallow, -INFINITY, INFINITY, false);
                            self.ply -= 1;
                            score
                        } else {
                            let replies = self.kernel.moves(child_me, child_opp);
                            let mobility = (replies.count() + (replies & shape.corners).count()) as i32;
                            let after = empties & !mv;
                            let potential = (shape.geo.dilate(child_opp) & after).count() as i32;
                            -WEIGHT_MOBILITY * mobility - WEIGHT_POTENTIAL * potential
                                + WEIGHT_PARITY * odd.has(index) as i32
                        };
                        list.push(entry(key, index));
                    }
                } else {
                    let odd = shape.odd_regions(empties);
                    for index in moves.members() {
                        list.push(entry(odd.has(index) as i32, index));
                    }
                }
                let mut best = -INFINITY;
                let mut best_move = None;
                for i in 0..list.len() {
                    let index = pick_best(&mut list, i);
                    let flipped = self.kernel.flips(me, opp, index);
                    let (child_me, child_opp) = (opp & !flipped, me | K::B::single(index) | flipped);
                    self.ply += 1;
                    let mut score;
                    if i == 0 {
                        score = -self.solve(child_me, child_opp, -beta, -alpha, false);
                    } else {
                        score = -self.solve(child_me, child_opp, -alpha - 1, -alpha, false);
                        if score > alpha && score < beta && !self.aborted {
                            score = -self.solve(child_me, child_opp, -beta, -score, false);
                        }
                    }
                    self.ply -= 1;
                    if self.aborted {
                        self.give_back(list);
                        return 0;
                    }
                    if score > best {
                        best = score;
                        best_move = Some(index);
                        if score > alpha {
                            alpha = score;
                            if score >= beta {
                                break;
                            }
                        }
                    }
                }
                self.give_back(list);
                if n >= SOLVE_TABLE_MIN {
                    self.store(key, best, original_alpha, beta, n, best_move);
                }
                best
            }

            /// The solver for the last few empties: no table, moves tried on the empty cells directly
            /// (skipping cells with no opponent disc next to them), those in regions with an odd number
            /// of empties first.
            $(#[$attr])*
            fn solve_small(
                &mut self,
                me: K::B,
                opp: K::B,
                mut alpha: i32,
                beta: i32,
                empties: K::B,
                passed: bool,
            ) -> i32 {
                if self.tick() {
                    return 0;
                }
                let shape = self.shape();
                let n = empties.count();
                if n <= 1 {
                    return if n == 1 {
                        self.solve_one(me, opp, empties.lowest())
                    } else {
                        shape.final_score(me, opp)
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
                        if (shape.neighbours[index as usize] & opp).is_empty() {
                            continue;
                        }
                        let flipped = self.kernel.flips(me, opp, index);
                        if flipped.is_empty() {
                            continue;
                        }
                        let mv = K::B::single(index);
                        let score = -self.solve_small(
                            opp & !flipped,
                            me | mv | flipped,
                            -beta,
                            -alpha,
                            empties & !mv,
                            false,
                        );
                        if score > best {
                            best = score;
                            if score > alpha {
                                alpha = score;
                                if score >= beta {
                                    return best;
                                }
                            }
                        }
                    }
                }
                if best == -INFINITY {
                    if passed {
                        return shape.final_score(me, opp);
                    }
                    return -self.solve_small(opp, me, -beta, -alpha, empties, true);
                }
                best
            }
        }
    };
}

define_searches!(Portable);
#[cfg(target_arch = "x86_64")]
define_searches!(X86_64V3, #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]);

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
    use crate::engine::shape::{Generic, Scoring};
    use crate::rules::{Full, Rules, Simple};
    use crate::setup::WinRule;
    use crate::square::Dimensions;

    /// Positions `empties` away from the end, reached by pseudo-random games from the start.
    fn positions<K: Kernel>(kernel: &K, empties: u32, count: usize) -> Vec<(K::B, K::B)> {
        let geo = &kernel.shape().geo;
        let (rows, cols) = (geo.dims().rows() as u32, geo.dims().cols() as u32);
        let at = |r: u32, c: u32| K::B::single(r * cols + c);
        let (r, c) = (rows / 2 - 1, cols / 2 - 1);
        let start = (at(r, c + 1) | at(r + 1, c), at(r, c) | at(r + 1, c + 1));
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut found = Vec::new();
        while found.len() < count {
            let (mut me, mut opp) = start;
            while (geo.board & !(me | opp)).count() > empties {
                let mut moves = kernel.moves(me, opp);
                if moves.is_empty() {
                    (me, opp) = (opp, me);
                    moves = kernel.moves(me, opp);
                    if moves.is_empty() {
                        break;
                    }
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let index = moves.members().nth(state as usize % moves.count() as usize);
                let index = index.expect("a legal move");
                let flipped = kernel.flips(me, opp, index);
                (me, opp) = (opp & !flipped, me | K::B::single(index) | flipped);
            }
            if (geo.board & !(me | opp)).count() == empties {
                found.push((me, opp));
            }
        }
        found
    }

    /// Both compiled copies give the same scores after visiting the same nodes.
    fn copies_agree<K: Kernel>(kernel: &K, empties: u32, depth: u32) {
        let Some(v3) = X86_64V3::detect() else {
            return;
        };
        let stop = AtomicBool::new(false);
        let budget = || Budget {
            stops: [&stop, &stop],
            deadline: None,
            max_nodes: None,
        };
        for position in positions(kernel, empties, 6) {
            let results = [
                {
                    let table = Table::new(1);
                    let mut searcher = Searcher::new(kernel, &table, budget(), 7, Portable);
                    let solved = searcher.solve_child(position, (-INFINITY, INFINITY));
                    let guess = searcher.midgame_child(position, (-INFINITY, INFINITY), depth + 1);
                    (solved, guess, searcher.nodes)
                },
                {
                    let table = Table::new(1);
                    let mut searcher = Searcher::new(kernel, &table, budget(), 7, v3);
                    let solved = searcher.solve_child(position, (-INFINITY, INFINITY));
                    let guess = searcher.midgame_child(position, (-INFINITY, INFINITY), depth + 1);
                    (solved, guess, searcher.nodes)
                },
            ];
            assert!(results[0].2 > 0);
            assert_eq!(results[0], results[1]);
        }
    }

    fn kernel<B: SearchBits, R: Rules>(rows: usize, cols: usize) -> Generic<B, R> {
        let dims = Dimensions::new(rows, cols).unwrap();
        Generic::new(Shape::new(
            dims,
            R::RULE_SET,
            WinRule::MostDiscs,
            Scoring::EmptiesToWinner,
        ))
    }

    #[test]
    fn portable_and_x86_64_v3_searches_agree() {
        copies_agree(&kernel::<u64, Full>(8, 8), 14, 5);
        copies_agree(&kernel::<u64, Simple>(8, 8), 12, 4);
        copies_agree(&kernel::<u128, Full>(10, 10), 12, 4);
        copies_agree(&kernel::<crate::bitboard::U256, Full>(12, 12), 10, 3);
    }
}
