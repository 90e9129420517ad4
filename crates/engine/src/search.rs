//! The searches, generic over the bit width, the rule set and the processor: a depth-limited
//! negamax with principal-variation search for the midgame, and an exact solver for the
//! endgame.
//!
//! The recursive searches (`midgame`, `solve`, `solve_small`) are each an entry point and an
//! `#[inline(always)]` body: the entry point calls the body through a function compiled for
//! x86-64-v3 when the processor marker proves it may ([`Cpu::x86_64_v3`]), else through a
//! portable one, the pair written by [`othello::cpu_entry_point!`] (see [`othello::cpu`]).
//! Moves are ordered by [`super::ordering`]; the last empties are searched by the solver
//! [`Finisher`] picks for the board when the search starts ([`small`]).

mod budget;
mod root;
mod small;
#[cfg(all(test, target_arch = "x86_64"))]
mod tests;

use std::marker::PhantomData;

use super::bounds::{INFINITY, Window};
use super::eval::{SCALE, evaluate_with_moves, features_after, read_features};
use super::ordering::{
    self, Candidate, MIDGAME_TABLE_MOVE, SOLVE_TABLE_MOVE, SolveOrdering, pick_best,
};
use super::patterns::Features;
use super::probcut::{self, ProbCut};
use super::shape::Shape;
use super::stability;
use super::tt::{NO_LOWER, NO_UPPER, Table};
use othello::Rules;
use othello::bitboard::SearchBits;
use othello::cpu::Cpu;
use othello::position::Position;

pub(crate) use budget::Budget;
use small::Finisher;

/// Empties from which the solver probes and stores the main transposition table. Lower, fewer
/// nodes but slower ones (more table traffic): on FFO #40-#49 (one thread, with the enhanced
/// transposition cut-off from 11 empties) from 8 empties took 1.03 G nodes, from 9 1.10 G,
/// from 10 1.16 G; timed back to back, from 9 was the fastest (DESIGN.md, "Exact solver").
const SOLVE_TABLE_MIN: u32 = 9;
/// Empties from which the solver probes and stores its small table, below [`SOLVE_TABLE_MIN`]:
/// positions of 7 and 8 empties, in a table of [`SMALL_TABLE_KIB`] per thread that stays in the
/// processor's cache, as Edax keeps a shallow table beside its main one. FFO #40-#49 took 8.9%
/// fewer nodes (the tuning set 8.4%) in 2% less time; from 6 empties 13% fewer but no faster;
/// 9 empties there too (the main table from 10) more nodes and 6-7% more time; 256 KiB slower,
/// 1 MiB and more no better (DESIGN.md, "Exact solver").
const SMALL_TABLE_MIN: u32 = 7;
/// The size of each thread's small table, in KiB.
pub(crate) const SMALL_TABLE_KIB: usize = 512;
/// Empties from which the solver orders moves by the opponent's mobility (fastest first);
/// below, the solver runs its small, table-free code. From 6 (not 7): FFO #40-#49 in 6.5% fewer
/// nodes and the 20 positions of 24 empties of the tuning set in 10.4% fewer, in about the same
/// time (a `u64` copy of the sorted search for 6-8 empties beside `leaves.rs` was no faster
/// than this generic one; DESIGN.md, "Exact solver").
const SOLVE_SORT_MIN: u32 = 6;
/// Empties from which the solver tries a stability cut-off: at every node it sorts (from 7
/// before the sorting began at 6: FFO #40-#49 679.1 M to 610.3 M nodes, the tuning set 2,014 M
/// to 1,771 M, in less time); the small solver tries them from its own limit.
const SOLVE_STABILITY_MIN: u32 = 6;
/// Empties from which the solver looks up every child in the table before searching any
/// (enhanced transposition cut-off). Lower (down to [`SOLVE_TABLE_MIN`] + 1, whose children
/// are the first the table holds) saves nodes but costs more in probes than it saves.
const SOLVE_ETC_MIN: u32 = 11;
/// Depth from which the solver trusts the best move of a midgame table entry (when it has no
/// exact one) enough to search it before ordering the other moves: entries of the iterations
/// before the solve qualify, those of the ordering searches (2-4 plies) do not. With every
/// midgame entry FFO #40-#49 took 29% more nodes; from depth 4, 5% more; from depth 7, 6%
/// fewer (6 and 8: 4% and 5% fewer).
const SOLVE_MIDGAME_MOVE_DEPTH: u32 = 7;
/// Empties from which the selective solver tries probabilistic cut-offs, with a midgame search
/// of [`probcut::shallow_depth`] plies. From 14 FFO #40-#49 took 0.82 G nodes, from 12 0.79 G
/// but no less time (the midgame searches visit fewer nodes a second), from 16 and 18 more
/// (DESIGN.md, "Exact solver").
const END_CUT_MIN: u32 = 14;

/// How far below the window of a solver's node (in evaluation units) the shallow searches
/// that order its moves stop being exact: a move that scores this much worse than `alpha`
/// only needs to be known that bad. On FFO #40-#49 with 16 discs, 443.3 M nodes to 439.3 M and
/// the tuning set 1,082 M to 1,076 M, in 2-4% less time; 4, 8, 24, 32 and 48 discs no better
/// (DESIGN.md, "Exact solver").
const SOLVE_ORDERING_MARGIN: i32 = 16 * SCALE;

/// Depth from which the midgame search probes the table.
const MIDGAME_TABLE_MIN: u32 = 1;

/// What the solver's ordering of a node's moves needs to know of the node.
struct Parent<B> {
    pos: Position<B>,
    /// Its pattern features, when its children are evaluated.
    features: Option<Features>,
    empties: B,
    /// The empty cells in regions with an odd number of them.
    odd: B,
    /// The lower end of its window, in discs.
    alpha: i32,
    order: SolveOrdering,
}

/// The best of the moves searched at a node: its score and its cell.
#[derive(Clone, Copy, Debug)]
struct Best {
    score: i32,
    index: Option<u32>,
}

impl Best {
    /// No move searched yet.
    const NONE: Best = Best {
        score: -INFINITY,
        index: None,
    };
}

/// One search thread's state, for bit width `B`, rule set `R` and processor `C`.
pub(crate) struct Searcher<'a, B, R, C> {
    shape: &'a Shape<'a, B>,
    /// Which compiled copy of the recursive searches runs.
    cpu: C,
    table: &'a Table,
    /// This thread's table of the solver's positions from [`SMALL_TABLE_MIN`] empties up to
    /// [`SOLVE_TABLE_MIN`] (not included).
    small_table: &'a Table,
    budget: Budget<'a>,
    midgame_salt: u64,
    exact_salt: u64,
    /// The salt of the selective solver's entries (positions from [`END_CUT_MIN`] empties up
    /// searched with [`Searcher::end_cut`] on): their bounds are probable, not proven.
    selective_salt: u64,
    /// While set, the solver is selective: from [`END_CUT_MIN`] empties a node tries a
    /// probabilistic cut-off this many standard deviations beyond its window.
    pub end_cut: Option<f64>,
    /// Positions visited.
    pub nodes: u64,
    /// The part of `nodes` already added to the budget's running total.
    published: u64,
    /// Set once the budget ran out; every result computed after that is meaningless.
    pub aborted: bool,
    /// Whether the midgame search may cut off with [`Searcher::probcut`]: not inside
    /// [`Searcher::ordering_search`].
    selective: bool,
    lists: Vec<Vec<Candidate<B>>>,
    /// The solver of the board's last empties.
    finisher: Finisher,
    ply: usize,
    _rules: PhantomData<R>,
}

impl<'a, B: SearchBits, R: Rules, C: Cpu> Searcher<'a, B, R, C> {
    pub(crate) fn new(
        shape: &'a Shape<'a, B>,
        table: &'a Table,
        small_table: &'a Table,
        budget: Budget<'a>,
        salt: u64,
        cpu: C,
    ) -> Self {
        Searcher {
            shape,
            cpu,
            table,
            small_table,
            budget,
            midgame_salt: salt ^ 0x6d69_6467_616d_6521,
            exact_salt: salt ^ 0x6578_6163_7421_2121,
            selective_salt: salt ^ 0x7365_6c65_6374_2121,
            end_cut: None,
            nodes: 0,
            published: 0,
            aborted: false,
            selective: shape.probcut.is_some(),
            lists: Vec::new(),
            finisher: Finisher::for_board::<B, R>(shape),
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
    pub(crate) fn shape(&self) -> &'a Shape<'a, B> {
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

    fn take_list(&mut self) -> Vec<Candidate<B>> {
        if self.lists.len() <= self.ply {
            self.lists
                .resize_with(self.ply + 1, || Vec::with_capacity(32));
        }
        let mut list = std::mem::take(&mut self.lists[self.ply]);
        list.clear();
        list
    }

    fn give_back(&mut self, list: Vec<Candidate<B>>) {
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

    /// The solver's table key of a position with `n` empties: exact, unless the solver is
    /// selective and may cut off at the position.
    #[inline(always)]
    fn solve_table_key(&self, pos: Position<B>, n: u32) -> u64 {
        let salt = if self.end_cut.is_some() && n >= END_CUT_MIN {
            self.selective_salt
        } else {
            self.exact_salt
        };
        pos.me.hash_pair(pos.opp, salt)
    }

    /// The best move of the selective solver's entry for `pos`, one of `moves`, for the exact
    /// solver to try first (a selective solver has already read that entry as its own).
    #[inline(always)]
    fn selective_move(&self, pos: Position<B>, moves: B) -> Option<u32> {
        if self.end_cut.is_some() {
            return None;
        }
        self.table
            .probe(pos.me.hash_pair(pos.opp, self.selective_salt))
            .and_then(|hit| hit.best)
            .filter(|&m| moves.has(m))
    }

    /// The table the solver keeps its positions of `n` empties in, if any: the main one from
    /// [`SOLVE_TABLE_MIN`] empties, the thread's small one from [`SMALL_TABLE_MIN`].
    #[inline(always)]
    fn solve_table(&self, n: u32) -> Option<&'a Table> {
        if n >= SOLVE_TABLE_MIN {
            Some(self.table)
        } else if n >= SMALL_TABLE_MIN {
            Some(self.small_table)
        } else {
            None
        }
    }

    /// The solver's children of `pos` (`n` empties), one per move of `moves`, their table
    /// slots fetched ahead when they will probe a table, so that the misses overlap.
    #[inline(always)]
    fn solve_children(&mut self, pos: Position<B>, moves: B, n: u32) -> Vec<Candidate<B>> {
        let mut list = self.take_list();
        let table = self.solve_table(n - 1);
        for index in moves.members() {
            let child = self.play(pos, index);
            if let Some(table) = table {
                table.prefetch(self.solve_table_key(child, n - 1));
            }
            list.push(Candidate::new(0, index, Some(child)));
        }
        list
    }

    /// A probabilistic cut-off of the selective solver at `pos` (`n` empties) with window
    /// (`alpha`, `beta`), [`Searcher::end_cut`] standard deviations beyond it: a midgame search
    /// predicts the exact score at or above `beta` (or at or below `alpha`). Never while the
    /// solver is exact or below [`END_CUT_MIN`] empties.
    #[inline(always)]
    fn end_probcut(&mut self, pos: Position<B>, n: u32, alpha: i32, beta: i32) -> Option<i32> {
        let (Some(t), Some(model)) = (self.end_cut, self.shape.endcut) else {
            return None;
        };
        if n < END_CUT_MIN {
            return None;
        }
        let cells = self.shape.cells;
        let shallow = probcut::shallow_depth(n);
        let margin = (t * model.sigma_gap(n - shallow, n)).round() as i32;
        if beta < cells {
            let high = beta * SCALE + margin;
            if high < cells * SCALE && self.midgame(pos, shallow, high - 1, high, false) >= high {
                return Some(beta);
            }
        }
        if alpha > -cells {
            let low = alpha * SCALE - margin;
            if low > -cells * SCALE && self.midgame(pos, shallow, low, low + 1, false) <= low {
                return Some(alpha);
            }
        }
        None
    }

    /// Stores in `table` under `key` what a search of window (`alpha`, `beta`) found: `best`
    /// (a bound or exact), `depth` and the best move.
    #[inline]
    fn store(
        table: &Table,
        key: u64,
        best: i32,
        window: Window,
        depth: u32,
        best_move: Option<u32>,
    ) {
        let lower = if best > window.alpha { best } else { NO_LOWER };
        let upper = if best < window.beta { best } else { NO_UPPER };
        table.store(key, lower, upper, depth, best_move);
    }

    /// A cut-off from stable discs: the score cannot exceed what the discs that can never be
    /// lost allow, nor (when `beta` is given) fall below what those that can never be won
    /// allow.
    #[inline]
    fn stability_cut(&self, pos: Position<B>, alpha: i32, beta: Option<i32>) -> Option<i32> {
        let shape = self.shape;
        stability::cut(
            pos.me,
            pos.opp,
            shape.sign,
            shape.cells,
            alpha,
            beta,
            |me, opp| shape.stability_bound(me, opp),
        )
    }

    /// Principal-variation search over the moves of `pos` in `list`, best first by their keys:
    /// the first move with the full window, the others with a null window and, when one does
    /// better, again with the full window; `search` scores a child within a window. The best
    /// score and move (fail-soft), or `None` once the budget ran out.
    #[inline(always)]
    fn search_moves(
        &mut self,
        pos: Position<B>,
        list: &mut [Candidate<B>],
        window: Window,
        mut best: Best,
        search: impl Fn(&mut Self, Position<B>, i32, i32) -> i32,
    ) -> Option<Best> {
        let Window { mut alpha, beta } = window;
        alpha = alpha.max(best.score);
        for i in 0..list.len() {
            let candidate = pick_best(list, i);
            let index = candidate.index();
            let child = candidate.child.unwrap_or_else(|| self.play(pos, index));
            self.ply += 1;
            let mut score;
            if i == 0 && best.index.is_none() {
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
        let features = read_features(self.shape, pos, self.cpu);
        self.midgame_from(pos, &features, depth, alpha, beta, passed)
    }

    /// [`Searcher::midgame`] of `pos`, whose pattern features are `features`: the recursion,
    /// which updates them move by move.
    #[inline(always)]
    fn midgame_from(
        &mut self,
        pos: Position<B>,
        features: &Features,
        depth: u32,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> i32 {
        othello::cpu_entry_point!(self.cpu =>
            fn<B: SearchBits, R: Rules, C: Cpu>(
                searcher: &mut Searcher<'_, B, R, C> = self,
                pos: Position<B> = pos,
                features: &Features = features,
                depth: u32 = depth,
                alpha: i32 = alpha,
                beta: i32 = beta,
                passed: bool = passed,
            ) -> i32 {
                searcher.midgame_body(pos, features, depth, alpha, beta, passed)
            }
        )
    }

    /// The body of [`Searcher::midgame_from`].
    #[inline(always)]
    fn midgame_body(
        &mut self,
        pos: Position<B>,
        features: &Features,
        depth: u32,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> i32 {
        if depth == 0 {
            return self.horizon(pos, features);
        }
        if let Some(score) = self.visit(pos) {
            return score;
        }
        let shape = self.shape;
        let moves = self.moves(pos);
        if moves.is_empty() {
            if passed {
                return shape.final_score(pos.me, pos.opp) * SCALE;
            }
            return -self.midgame_from(
                pos.passed(),
                &features.passed(),
                depth,
                -beta,
                -alpha,
                true,
            );
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
            && let Some(cut) = self.probcut(pos, features, depth, alpha, beta, model)
        {
            return cut;
        }
        let mut list = self.midgame_children(pos, features, moves, depth, table_move);
        let window = Window { alpha, beta };
        let best = self.search_moves(
            pos,
            &mut list,
            window,
            Best::NONE,
            #[inline(always)]
            |s: &mut Self, child, a, b| {
                let after = features_after(s.shape, features, pos, child);
                if depth == 1 {
                    // The leaves, without a call.
                    s.horizon(child, &after)
                } else {
                    s.midgame_from(child, &after, depth - 1, a, b, false)
                }
            },
        );
        let table = (depth >= MIDGAME_TABLE_MIN).then_some(self.table);
        self.conclude(list, best, key, window, depth, table)
    }

    /// The end of a node's move loop: gives `list` back, stores `best` under `key` (for
    /// `window` and `depth`) in `table` if there is one, and returns its score; 0, with
    /// nothing stored, once the budget ran out (`best` is `None`).
    #[inline(always)]
    fn conclude(
        &mut self,
        list: Vec<Candidate<B>>,
        best: Option<Best>,
        key: u64,
        window: Window,
        depth: u32,
        table: Option<&Table>,
    ) -> i32 {
        self.give_back(list);
        let Some(best) = best else {
            return 0;
        };
        if let Some(table) = table {
            Self::store(table, key, best.score, window, depth, best.index);
        }
        best.score
    }

    /// Counts a midgame node at `pos`: its value when that is known already, 0 once the budget
    /// ran out, the exact score of a full board.
    #[inline(always)]
    fn visit(&mut self, pos: Position<B>) -> Option<i32> {
        if self.tick() {
            return Some(0);
        }
        let shape = self.shape;
        ((pos.me | pos.opp) == shape.geo.board).then(|| shape.final_score(pos.me, pos.opp) * SCALE)
    }

    /// The midgame's value of `pos` (whose features are `features`) at its horizon: the
    /// evaluation, or the exact score of a finished game (a full board, a wipe-out, nobody
    /// able to move), never evaluated.
    #[inline(always)]
    fn horizon(&mut self, pos: Position<B>, features: &Features) -> i32 {
        if let Some(score) = self.visit(pos) {
            return score;
        }
        let shape = self.shape;
        let my_moves = self.moves(pos);
        if my_moves.is_empty() && self.moves(pos.passed()).is_empty() {
            return shape.final_score(pos.me, pos.opp) * SCALE;
        }
        evaluate_with_moves::<B, R, C>(shape, pos, my_moves.count(), Some(features), self.cpu)
    }

    /// The midgame's moves `moves` from `pos` (whose features are `features`), `depth` plies
    /// deep, with their sort keys: the table's move first; from 2 plies on the others by
    /// [`ordering::quick_key`], from [`ordering::MIDGAME_EVALUATED_MIN`] with the evaluation of
    /// the position after them. Below 2 plies children are made only if searched.
    #[inline(always)]
    fn midgame_children(
        &mut self,
        pos: Position<B>,
        features: &Features,
        moves: B,
        depth: u32,
        table_move: Option<u32>,
    ) -> Vec<Candidate<B>> {
        let shape = self.shape;
        let mut list = self.take_list();
        for index in moves.members() {
            let (key, child) = if Some(index) == table_move {
                (MIDGAME_TABLE_MOVE, None)
            } else if depth >= 2 {
                let child = self.play(pos, index);
                // Its table slot, fetched ahead (the child probes it at `depth - 1 >= 1`).
                self.table.prefetch(self.key(child, false));
                let replies = self.moves(child);
                let quick = ordering::quick_key(shape, pos, index, replies);
                let key = if depth >= ordering::MIDGAME_EVALUATED_MIN {
                    let after = features_after(shape, features, pos, child);
                    let evaluation = evaluate_with_moves::<B, R, C>(
                        shape,
                        child,
                        replies.count(),
                        Some(&after),
                        self.cpu,
                    );
                    ordering::midgame_evaluated_key(quick, evaluation)
                } else {
                    quick
                };
                (key, Some(child))
            } else {
                (0, None)
            };
            list.push(Candidate::new(key, index, child));
        }
        list
    }

    /// The midgame score of `pos` at `depth`, as the solver and the root order their moves:
    /// exact up to `beta` (a lower bound from there), without probabilistic cut-offs, which
    /// cost the solver more nodes than they save.
    fn ordering_search(&mut self, pos: Position<B>, depth: u32, beta: i32) -> i32 {
        let selective = std::mem::take(&mut self.selective);
        let score = self.midgame(pos, depth, -INFINITY, beta, false);
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
        features: &Features,
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
        if beta > -top
            && high < top
            && self.midgame_from(pos, features, shallow, high - 1, high, false) >= high
        {
            return Some(beta);
        }
        let low = alpha.saturating_sub(margin);
        if alpha < top
            && low > -top
            && self.midgame_from(pos, features, shallow, low, low + 1, false) <= low
        {
            return Some(alpha);
        }
        None
    }

    /// The exact final score with perfect play from both sides, in discs (fail-soft: a score
    /// at or below `alpha` is an upper bound, one at or above `beta` a lower bound).
    #[inline(always)]
    fn solve(&mut self, pos: Position<B>, alpha: i32, beta: i32, passed: bool) -> i32 {
        othello::cpu_entry_point!(self.cpu =>
            fn<B: SearchBits, R: Rules, C: Cpu>(
                searcher: &mut Searcher<'_, B, R, C> = self,
                pos: Position<B> = pos,
                alpha: i32 = alpha,
                beta: i32 = beta,
                passed: bool = passed,
            ) -> i32 {
                searcher.solve_body(pos, alpha, beta, passed)
            }
        )
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
            && let Some(cut) = self.stability_cut(pos, alpha, Some(beta))
        {
            return cut;
        }
        let mut table_move = None;
        let key = self.solve_table_key(pos, n);
        let table = self.solve_table(n);
        if let Some(hit) = table.and_then(|table| table.probe(key)) {
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
        if let Some(cut) = self.end_probcut(pos, n, alpha, beta) {
            return cut;
        }
        let mut list = self.solve_children(pos, moves, n);
        let order = SolveOrdering::at(n);
        if n >= SOLVE_ETC_MIN {
            // Enhanced transposition cut-off: a child already known to be bad enough for the
            // opponent settles this position.
            if let Some(cut) = self.etc_cut(&list, beta, n - 1) {
                self.give_back(list);
                return cut;
            }
        }
        let mut first = Best::NONE;
        if matches!(order, SolveOrdering::Shallow(_)) {
            // The table's move (else the best move of a deep midgame entry) is searched before
            // the others are ordered: when it cuts off, their shallow searches are saved.
            table_move = table_move
                .or_else(|| self.selective_move(pos, moves))
                .or_else(|| self.deep_midgame_move(pos, moves));
            if let Some(found) =
                table_move.and_then(|m| self.solve_first(&mut list, m, alpha, beta))
            {
                first = found;
                if self.aborted || found.score >= beta {
                    // (After an abort the score means nothing and nothing is stored.)
                    self.give_back(list);
                    if let Some(table) = table
                        && !self.aborted
                    {
                        let window = Window { alpha, beta };
                        Self::store(table, key, found.score, window, n, found.index);
                    }
                    return found.score;
                }
            }
        }
        if list.len() > 1 {
            // (A single move needs no key.)
            self.solve_keys(&mut list, pos, empties, alpha, order, table_move);
        }
        let window = Window { alpha, beta };
        let best = self.search_moves(
            pos,
            &mut list,
            window,
            first,
            #[inline(always)]
            |s: &mut Self, child, a, b| s.solve(child, a, b, false),
        );
        self.conclude(list, best, key, window, n, table)
    }

    /// A score at or above `beta` that the table already proves for one of the children in
    /// `list` (enhanced transposition cut-off), if any.
    #[inline(always)]
    fn etc_cut(&self, list: &[Candidate<B>], beta: i32, n: u32) -> Option<i32> {
        list.iter().find_map(|item| {
            let child = item.child.expect("the solver makes every child");
            let hit = self.table.probe(self.solve_table_key(child, n))?;
            (-hit.upper >= beta).then_some(-hit.upper)
        })
    }

    /// The best move of the midgame's entry for `pos`, one of `moves`, if that entry was
    /// searched at least [`SOLVE_MIDGAME_MOVE_DEPTH`] plies deep (by the iterations before the
    /// solve).
    #[inline(always)]
    fn deep_midgame_move(&self, pos: Position<B>, moves: B) -> Option<u32> {
        self.table
            .probe(self.key(pos, false))
            .filter(|hit| hit.depth >= SOLVE_MIDGAME_MOVE_DEPTH)
            .and_then(|hit| hit.best)
            .filter(|&m| moves.has(m))
    }

    /// Takes the move at cell `index` out of `list` and solves it with the full window
    /// (`alpha`, `beta`), before the other moves are ordered: its score and cell, or `None` if
    /// the move is not in the list.
    #[inline(always)]
    fn solve_first(
        &mut self,
        list: &mut Vec<Candidate<B>>,
        index: u32,
        alpha: i32,
        beta: i32,
    ) -> Option<Best> {
        let place = list.iter().position(|c| c.index() == index)?;
        let child = list
            .swap_remove(place)
            .child
            .expect("the solver makes every child");
        self.ply += 1;
        let score = -self.solve(child, -beta, -alpha, false);
        self.ply -= 1;
        Some(Best {
            score,
            index: Some(index),
        })
    }

    /// Gives every move of `list`, the children of `pos` (with `empties` and window from
    /// `alpha`), its sort key by `order`: the table's move `table_move` above all.
    #[inline(always)]
    fn solve_keys(
        &mut self,
        list: &mut [Candidate<B>],
        pos: Position<B>,
        empties: B,
        alpha: i32,
        order: SolveOrdering,
        table_move: Option<u32>,
    ) {
        let shape = self.shape;
        let parent = Parent {
            pos,
            // The children's evaluations, if any, start from these, read once.
            features: (order == SolveOrdering::Evaluated)
                .then(|| read_features(shape, pos, self.cpu)),
            empties,
            odd: shape.odd_regions(empties),
            alpha,
            order,
        };
        for item in list.iter_mut() {
            let index = item.index();
            let child = item.child.expect("the solver makes every child");
            let key = if Some(index) == table_move {
                SOLVE_TABLE_MOVE
            } else {
                self.solve_key(&parent, child, index)
            };
            *item = Candidate::new(key, index, Some(child));
        }
    }

    /// How good the move at `index` from `parent` to `child` looks to the solver, before
    /// searching it, by the parent's ordering: a shallow midgame search, or fastest first, with
    /// or without the evaluation after the move; either way less for each reply it leaves the
    /// opponent.
    #[inline(always)]
    fn solve_key(&mut self, parent: &Parent<B>, child: Position<B>, index: u32) -> i32 {
        let replies = self.moves(child);
        let mobility = ordering::mobility(self.shape, replies);
        if let SolveOrdering::Shallow(depth) = parent.order {
            // Scores far below the parent's window need no precision: the child's search may
            // stop once it proves one (fail-soft, the bound still orders the move).
            let bound = (SOLVE_ORDERING_MARGIN - parent.alpha * SCALE).min(INFINITY);
            self.ply += 1;
            let score = -self.ordering_search(child, depth, bound);
            self.ply -= 1;
            return ordering::shallow_key(score, mobility);
        }
        let key = ordering::fastest_first_key(
            self.shape,
            child,
            index,
            parent.empties,
            parent.odd,
            mobility,
        );
        if parent.order == SolveOrdering::Evaluated {
            let after = parent
                .features
                .as_ref()
                .map(|features| features_after(self.shape, features, parent.pos, child));
            let evaluation = evaluate_with_moves::<B, R, C>(
                self.shape,
                child,
                replies.count(),
                after.as_ref(),
                self.cpu,
            );
            ordering::evaluated_key(key, evaluation)
        } else {
            key
        }
    }
}
