//! The exact solver (and the selective one, with probabilistic cut-offs from
//! [`END_CUT_MIN`] empties): the main table from [`super::SOLVE_TABLE_MIN`] empties and the
//! thread's small one from [`super::SMALL_TABLE_MIN`], stable discs, enhanced transposition
//! cut-offs, and the moves ordered by shallow midgame searches, by the opponent's mobility
//! (fastest first), or by both with the evaluation; below [`SOLVE_SORT_MIN`] empties it hands
//! over to the small solver ([`super::small`]).

use super::{Best, END_CUT_MIN, SOLVE_SORT_MIN, SPLIT_MIN, Searcher};
use crate::bounds::{INFINITY, Window};
use crate::eval::{SCALE, evaluate_with_moves, features_after, read_features};
use crate::ordering::{self, Candidate, SOLVE_TABLE_MOVE, SolveOrdering};
use crate::patterns::Features;
use crate::probcut;
use othello::Rules;
use othello::bitboard::SearchBits;
use othello::cpu::Cpu;
use othello::position::Position;

/// Empties from which the solver tries a stability cut-off: at every node it sorts (from 7
/// before the sorting began at 6: FFO #40-#49 679.1 M to 610.3 M nodes, the tuning set 2,014 M
/// to 1,771 M, in less time); the small solver tries them from its own limit.
const SOLVE_STABILITY_MIN: u32 = 6;

/// Empties from which the solver looks up every child in the table before searching any
/// (enhanced transposition cut-off). Lower (down to [`super::SOLVE_TABLE_MIN`] + 1, whose
/// children are the first the table holds) saves nodes but costs more in probes than it saves.
const SOLVE_ETC_MIN: u32 = 11;

/// Depth from which the solver trusts the best move of a midgame table entry (when it has no
/// exact one) enough to search it before ordering the other moves: entries of the iterations
/// before the solve qualify, those of the ordering searches (2-4 plies) do not. With every
/// midgame entry FFO #40-#49 took 29% more nodes; from depth 4, 5% more; from depth 7, 6%
/// fewer (6 and 8: 4% and 5% fewer).
const SOLVE_MIDGAME_MOVE_DEPTH: u32 = 7;

/// How far below the window of a solver's node (in evaluation units) the shallow searches
/// that order its moves stop being exact: a move that scores this much worse than `alpha`
/// only needs to be known that bad. On FFO #40-#49 with 16 discs, 443.3 M nodes to 439.3 M and
/// the tuning set 1,082 M to 1,076 M, in 2-4% less time; 4, 8, 24, 32 and 48 discs no better
/// (docs/engine.md, "Exact solver").
const SOLVE_ORDERING_MARGIN: i32 = 16 * SCALE;

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

impl<B: SearchBits, R: Rules, C: Cpu> Searcher<'_, B, R, C> {
    /// The exact final score with perfect play from both sides, in discs (fail-soft: a score
    /// at or below `alpha` is an upper bound, one at or above `beta` a lower bound).
    #[inline(always)]
    pub(super) fn solve(&mut self, pos: Position<B>, alpha: i32, beta: i32, passed: bool) -> i32 {
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
        let best = if n >= SPLIT_MIN && self.split.is_some() {
            self.solve_moves_shared(pos, &mut list, window, first)
        } else {
            self.search_moves(
                pos,
                &mut list,
                window,
                first,
                false,
                #[inline(always)]
                |s: &mut Self, child, a, b| s.solve(child, a, b, false),
            )
        };
        self.conclude(list, best, key, window, n, table)
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
        let score = -self.solve(child, -beta, -alpha, false);
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
            let score = -self.ordering_search(child, depth, bound);
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
