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
//!
//! Here: a search thread's state ([`Searcher`]), its tables and the principal-variation loop
//! over a node's moves that both searches share; the midgame search is in [`midgame`], the
//! solver in [`solve`].

mod budget;
mod midgame;
mod root;
mod small;
mod solve;
#[cfg(all(test, target_arch = "x86_64"))]
mod tests;

use std::marker::PhantomData;

use super::bounds::{INFINITY, Window};
use super::ordering::{Candidate, pick_best};
use super::shape::Shape;
use super::stability;
use super::tt::{NO_LOWER, NO_UPPER, TranspositionTable};
use othello::Rules;
use othello::bitboard::SearchBits;
use othello::cpu::Cpu;
use othello::position::Position;

pub(crate) use budget::Budget;
use small::Finisher;

/// Empties from which the solver probes and stores the main transposition table. Lower, fewer
/// nodes but slower ones (more table traffic): on FFO #40-#49 (one thread, with the enhanced
/// transposition cut-off from 11 empties) from 8 empties took 1.03 G nodes, from 9 1.10 G,
/// from 10 1.16 G; timed back to back, from 9 was the fastest (docs/engine.md, "Exact solver").
const SOLVE_TABLE_MIN: u32 = 9;

/// Empties from which the solver probes and stores its small table, below [`SOLVE_TABLE_MIN`]:
/// positions of 7 and 8 empties, in a table of [`SMALL_TABLE_KIB`] per thread that stays in the
/// processor's cache, as Edax keeps a shallow table beside its main one. FFO #40-#49 took 8.9%
/// fewer nodes (the tuning set 8.4%) in 2% less time; from 6 empties 13% fewer but no faster;
/// 9 empties there too (the main table from 10) more nodes and 6-7% more time; 256 KiB slower,
/// 1 MiB and more no better (docs/engine.md, "Exact solver").
const SMALL_TABLE_MIN: u32 = 7;

/// The size of each thread's small table, in KiB.
pub(crate) const SMALL_TABLE_KIB: usize = 512;

/// Empties from which the solver orders moves by the opponent's mobility (fastest first);
/// below, the solver runs its small, table-free code. From 6 (not 7): FFO #40-#49 in 6.5% fewer
/// nodes and the 20 positions of 24 empties of the tuning set in 10.4% fewer, in about the same
/// time (a `u64` copy of the sorted search for 6-8 empties beside `leaves.rs` was no faster
/// than this generic one; docs/engine.md, "Exact solver").
const SOLVE_SORT_MIN: u32 = 6;

/// Empties from which the selective solver tries probabilistic cut-offs, with a midgame search
/// of [`crate::probcut::shallow_depth`] plies. From 14 FFO #40-#49 took 0.82 G nodes, from 12
/// 0.79 G but no less time (the midgame searches visit fewer nodes a second), from 16 and 18
/// more (docs/engine.md, "Exact solver").
const END_CUT_MIN: u32 = 14;

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
    table: &'a TranspositionTable,
    /// This thread's table of the solver's positions from [`SMALL_TABLE_MIN`] empties up to
    /// [`SOLVE_TABLE_MIN`] (not included).
    small_table: &'a TranspositionTable,
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
    /// The lists of moves given back, for the next nodes to take.
    lists: Vec<Vec<Candidate<B>>>,
    /// The solver of the board's last empties.
    finisher: Finisher,
    /// The threads that may take part of the solver's nodes from [`SPLIT_MIN`] empties once
    /// their first move is searched; `None` with one thread.
    pub split: Option<&'a dyn Split<B, R, C>>,
    _rules: PhantomData<R>,
}

/// Empties from which the solver's nodes may share their moves with free threads.
pub(crate) const SPLIT_MIN: u32 = 16;

/// Threads that can take part of a node's moves (the driver's team of threads).
pub(crate) trait Split<B, R, C>: Sync {
    /// Whether a thread is free to help now.
    fn has_free(&self) -> bool;

    /// Searches `moves` of `pos` (best first) within `window`, with whichever threads are free:
    /// each with a null window at the best score so far, again with the full window when it
    /// does better. The best (fail-soft) score and its move, or `None` (and `searcher`
    /// aborted) once the budget ran out.
    fn share(
        &self,
        searcher: &mut Searcher<'_, B, R, C>,
        pos: Position<B>,
        moves: &[u32],
        window: Window,
    ) -> Option<(i32, u32)>;
}

impl<'a, B: SearchBits, R: Rules, C: Cpu> Searcher<'a, B, R, C> {
    pub(crate) fn new(
        shape: &'a Shape<'a, B>,
        table: &'a TranspositionTable,
        small_table: &'a TranspositionTable,
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
            split: None,
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

    /// An empty list of moves, from the lists given back (any node may take one while another
    /// holds its own: a cut-off's check or an ordering search runs inside a node), so that a
    /// search allocates only as many as it nests.
    fn take_list(&mut self) -> Vec<Candidate<B>> {
        let mut list = self.lists.pop().unwrap_or_else(|| Vec::with_capacity(32));
        list.clear();
        list
    }

    /// Exchanges the lists of moves given back with `lists`: a helper thread keeps them from
    /// one shared node to the next, so that it allocates them once.
    pub(crate) fn swap_lists(&mut self, lists: &mut Vec<Vec<Candidate<B>>>) {
        std::mem::swap(&mut self.lists, lists);
    }

    /// Gives back a list of [`Searcher::take_list`] for the next node.
    fn give_back(&mut self, list: Vec<Candidate<B>>) {
        self.lists.push(list);
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
    fn solve_table(&self, n: u32) -> Option<&'a TranspositionTable> {
        if n >= SOLVE_TABLE_MIN {
            Some(self.table)
        } else if n >= SMALL_TABLE_MIN {
            Some(self.small_table)
        } else {
            None
        }
    }

    /// Stores in `table` under `key` what a search of window (`alpha`, `beta`) found: `best`
    /// (a bound or exact), `depth` and the best move.
    #[inline]
    fn store(
        table: &TranspositionTable,
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
    /// score and move (fail-soft), or `None` once the budget ran out. With `share` (the
    /// solver's nodes from [`SPLIT_MIN`] empties), once a move is searched and a thread is
    /// free, the moves left go to the threads ([`Split::share`]).
    #[inline(always)]
    fn search_moves(
        &mut self,
        pos: Position<B>,
        list: &mut [Candidate<B>],
        window: Window,
        mut best: Best,
        share: bool,
        search: impl Fn(&mut Self, Position<B>, i32, i32) -> i32,
    ) -> Option<Best> {
        let Window { mut alpha, beta } = window;
        alpha = alpha.max(best.score);
        for i in 0..list.len() {
            if share
                && let Some(split) = self.split
                && best.index.is_some()
                && list.len() - i >= 2
                && split.has_free()
            {
                let rest: Vec<u32> = (i..list.len())
                    .map(|j| pick_best(list, j).index())
                    .collect();
                let (score, index) = split.share(self, pos, &rest, Window { alpha, beta })?;
                if score > best.score {
                    best = Best {
                        score,
                        index: Some(index),
                    };
                }
                return Some(best);
            }
            let candidate = pick_best(list, i);
            let index = candidate.index();
            let child = candidate.child.unwrap_or_else(|| self.play(pos, index));
            let mut score;
            if i == 0 && best.index.is_none() {
                score = -search(self, child, -beta, -alpha);
            } else {
                score = -search(self, child, -alpha - 1, -alpha);
                if score > alpha && score < beta && !self.aborted {
                    score = -search(self, child, -beta, -score);
                }
            }
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

    /// [`Searcher::search_moves`] for the solver's nodes from [`SPLIT_MIN`] empties when other
    /// threads may help, out of line so that the solver's own loop stays small.
    #[inline(never)]
    fn solve_moves_shared(
        &mut self,
        pos: Position<B>,
        list: &mut [Candidate<B>],
        window: Window,
        best: Best,
    ) -> Option<Best> {
        self.search_moves(
            pos,
            list,
            window,
            best,
            true,
            |s: &mut Self, child, a, b| s.solve(child, a, b, false),
        )
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
        table: Option<&TranspositionTable>,
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
}
