//! The midgame search: negamax alpha-beta with principal-variation search to a depth, in
//! evaluation units, its pattern features kept up to date move by move, with the table's move
//! first, the other moves ordered by a quick key or the evaluation after them, and
//! probabilistic cut-offs ([`crate::probcut`]) where the trained evaluation applies.

use super::{Best, Searcher};
use crate::bounds::{INFINITY, Window};
use crate::eval::{SCALE, evaluate_with_moves, features_after, read_features};
use crate::ordering::{self, Candidate};
use crate::patterns::Features;
use crate::probcut::{self, ProbCut};
use othello::Rules;
use othello::bitboard::SearchBits;
use othello::cpu::Cpu;
use othello::position::Position;

impl<B: SearchBits, R: Rules, C: Cpu> Searcher<'_, B, R, C> {
    /// Negamax alpha-beta with principal-variation search to `depth` plies, in evaluation units.
    /// A pass is not a ply.
    #[inline(always)]
    pub(super) fn midgame(
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
        // (Every node from 1 ply probes the table and stores its result.)
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
        if depth >= probcut::MIN_DEPTH
            && self.selective
            && let Some(model) = shape.probcut
            && let Some(cut) = self.probcut(pos, features, depth, alpha, beta, model)
        {
            return cut;
        }
        let window = Window { alpha, beta };
        if depth == 1 {
            return self.midgame_leaves(pos, features, moves, window, key, table_move);
        }
        let mut first = Best::NONE;
        let mut rest = moves;
        if let Some(index) = table_move {
            // The table's move is searched before the others are keyed: when it cuts off,
            // their keys are never made.
            first = self.midgame_first(pos, features, index, depth, window);
            if self.aborted {
                return 0;
            }
            if first.score >= beta {
                Self::store(self.table, key, first.score, window, depth, first.index);
                return first.score;
            }
            rest = moves & !B::single(index);
        }
        let mut list = self.midgame_children(pos, features, rest, depth);
        let best = self.search_moves(
            pos,
            &mut list,
            window,
            first,
            false,
            #[inline(always)]
            |s: &mut Self, child, a, b| {
                let after = features_after(s.shape, features, pos, child);
                s.midgame_from(child, &after, depth - 1, a, b, false)
            },
        );
        self.conclude(list, best, key, window, depth, Some(self.table))
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

    /// [`Searcher::midgame_body`] one ply from the horizon, with the window `window`, its
    /// table key `key`: the table's move first, then the others in the order of the deeper
    /// nodes' lists when their keys tie (highest cell first). A leaf's value does not depend
    /// on the window, so no move is searched again and none needs a key.
    #[inline(always)]
    fn midgame_leaves(
        &mut self,
        pos: Position<B>,
        features: &Features,
        moves: B,
        window: Window,
        key: u64,
        table_move: Option<u32>,
    ) -> i32 {
        let shape = self.shape;
        let mut list = self.take_list();
        list.extend(
            moves
                .members()
                .filter(|&index| Some(index) != table_move)
                .map(|index| Candidate::new(0, index, None)),
        );
        let order = table_move
            .into_iter()
            .chain(list.iter().rev().map(Candidate::index));
        let mut best = Best::NONE;
        for index in order {
            let child = self.play(pos, index);
            let score = -self.horizon(child, &features_after(shape, features, pos, child));
            if self.aborted {
                break;
            }
            if score > best.score {
                best = Best {
                    score,
                    index: Some(index),
                };
                if score >= window.beta {
                    break;
                }
            }
        }
        let best = (!self.aborted).then_some(best);
        self.conclude(list, best, key, window, 1, Some(self.table))
    }

    /// The move at cell `index` from `pos` (whose features are `features`), `depth` plies deep,
    /// searched with the full window before the other moves are ordered: its score and cell.
    #[inline(always)]
    fn midgame_first(
        &mut self,
        pos: Position<B>,
        features: &Features,
        index: u32,
        depth: u32,
        window: Window,
    ) -> Best {
        let child = self.play(pos, index);
        let after = features_after(self.shape, features, pos, child);
        let score =
            -self.midgame_from(child, &after, depth - 1, -window.beta, -window.alpha, false);
        Best {
            score,
            index: Some(index),
        }
    }

    /// The midgame's moves `moves` from `pos` (whose features are `features`), `depth >= 2`
    /// plies deep, with their sort keys: [`ordering::quick_key`], from
    /// [`ordering::MIDGAME_EVALUATED_MIN`] plies with the evaluation of the position after them
    /// added (the table's move, searched before, is not among them).
    #[inline(always)]
    fn midgame_children(
        &mut self,
        pos: Position<B>,
        features: &Features,
        moves: B,
        depth: u32,
    ) -> Vec<Candidate<B>> {
        let shape = self.shape;
        let mut list = self.take_list();
        for index in moves.members() {
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
            list.push(Candidate::new(key, index, Some(child)));
        }
        list
    }

    /// The midgame score of `pos` at `depth`, as the solver and the root order their moves:
    /// exact up to `beta` (a lower bound from there), without probabilistic cut-offs, which
    /// cost the solver more nodes than they save.
    pub(super) fn ordering_search(&mut self, pos: Position<B>, depth: u32, beta: i32) -> i32 {
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
}
