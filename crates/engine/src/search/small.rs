//! The exact solver's last empties (fewer than [`super::SOLVE_SORT_MIN`]), where most of its
//! nodes are: the generic code, for every board, and the seam where a board-specific solver
//! takes over.
//!
//! A board-specific solver searches the same tree, in the same order, to the same scores and
//! node counts as the generic code, only faster, and proves it node for node in a test (as
//! [`Leaves`] does in `tests.rs`). Adding one for another board (6x6 on `u64`, say) is a new
//! module beside `leaves.rs`, a [`Finisher`] variant, a line in [`Finisher::for_board`] and an
//! arm in [`Searcher::solve_small_body`]; the generic code does not change.

use super::Searcher;
use crate::bounds::{INFINITY, raise};
use crate::leaves::{Leaves, Node};
use crate::shape::Shape;
use othello::Rules;
use othello::bitboard::SearchBits;
use othello::cpu::Cpu;
use othello::position::Position;

/// Empties from which the small solver tries a stability cut-off (the upper bound alone,
/// [`super::stability::cut`]), before its moves. On 8x8, with the stable discs of the edge
/// table, from 3 empties FFO #40-#49 took 444.8 M nodes instead of 470.1 M from 4, and the
/// tuning positions 1,089 M instead of 1,265 M, in 1-5% less time (both measured without the
/// lower bound at the sorted nodes either; docs/engine.md, "Exact solver").
const SMALL_STABILITY_MIN: u32 = 3;

/// Which solver searches a board's last empties, picked once when a search starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Finisher {
    /// The generic code of this module, on any board.
    Generic,
    /// [`Leaves`]: the standard 8x8 board under the FULL rules, in `u64` code.
    Standard,
}

impl Finisher {
    /// The fastest solver of the last empties for `shape`'s board at width `B` under rules `R`.
    pub(crate) fn for_board<B: SearchBits, R: Rules>(shape: &Shape<B>) -> Finisher {
        if Leaves::fits::<B, R>() && shape.geo.is_standard() {
            Finisher::Standard
        } else {
            Finisher::Generic
        }
    }
}

impl<B: SearchBits, R: Rules, C: Cpu> Searcher<'_, B, R, C> {
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

    /// The solver for the last few empties: no table, moves tried on the empty cells directly
    /// (skipping cells with no opponent disc next to them), those in regions with an odd number
    /// of empties first; or the board's own solver, when [`Finisher`] picked one.
    #[inline(always)]
    pub(super) fn solve_small(
        &mut self,
        pos: Position<B>,
        alpha: i32,
        beta: i32,
        empties: B,
        passed: bool,
    ) -> i32 {
        othello::cpu_entry_point!(self.cpu =>
            fn<B: SearchBits, R: Rules, C: Cpu>(
                searcher: &mut Searcher<'_, B, R, C> = self,
                pos: Position<B> = pos,
                alpha: i32 = alpha,
                beta: i32 = beta,
                empties: B = empties,
                passed: bool = passed,
            ) -> i32 {
                searcher.solve_small_body(pos, alpha, beta, empties, passed)
            }
        )
    }

    /// The body of [`Searcher::solve_small`].
    #[inline(always)]
    fn solve_small_body(
        &mut self,
        pos: Position<B>,
        alpha: i32,
        beta: i32,
        empties: B,
        passed: bool,
    ) -> i32 {
        match self.finisher {
            // `fits` is known at compile time, so that only the copies it can serve have it.
            Finisher::Standard if Leaves::fits::<B, R>() => {
                return self.solve_standard(pos, alpha, beta, empties, passed);
            }
            _ => {}
        }
        let shape = self.shape;
        if self.tick() {
            return 0;
        }
        let n = empties.count();
        if n >= SMALL_STABILITY_MIN
            && let Some(cut) = self.stability_cut(pos, alpha, None)
        {
            return cut;
        }
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
        // The mover's moves, else the opponent's after a pass (seen from the mover, with no
        // second stability cut-off, as in [`Leaves`]), else the end of the game.
        let (mut pos, mut alpha, mut beta, mut sign) = (pos, alpha, beta, 1);
        loop {
            let best = self.small_moves(pos, alpha, beta, empties, odd);
            if best != -INFINITY {
                return sign * best;
            }
            if passed || sign < 0 {
                return sign * shape.final_score(pos.me, pos.opp);
            }
            if self.tick() {
                return 0;
            }
            (pos, alpha, beta, sign) = (pos.passed(), -beta, -alpha, -1);
        }
    }

    /// The best score of the mover's moves in `pos` (fail-soft), or `-INFINITY` when it has
    /// none: the cells of `odd` first, then the other `empties`.
    #[inline(always)]
    fn small_moves(
        &mut self,
        pos: Position<B>,
        mut alpha: i32,
        beta: i32,
        empties: B,
        odd: B,
    ) -> i32 {
        let shape = self.shape;
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
        best
    }

    /// [`Searcher::solve_small`] by [`Leaves`], on the standard board.
    #[inline(always)]
    fn solve_standard(
        &mut self,
        pos: Position<B>,
        alpha: i32,
        beta: i32,
        empties: B,
        passed: bool,
    ) -> i32 {
        let mut leaves = Leaves::new(self.shape.final_scoring());
        let node = Node {
            me: pos.me.low_u64(),
            opp: pos.opp.low_u64(),
            empties: empties.low_u64(),
            alpha,
            beta,
        };
        let score = leaves.solve(node, passed);
        self.count(leaves.nodes, score)
    }
}
