//! What the driver asks of a searcher at the root of a search: the score of each root move,
//! the order to solve them in, and the table's entries for the root.

use super::Searcher;
use crate::bounds::{INFINITY, Window};
use crate::ordering::root_shallow_depth;
use othello::Rules;
use othello::bitboard::SearchBits;
use othello::cpu::Cpu;
use othello::position::Position;

impl<B: SearchBits, R: Rules, C: Cpu> Searcher<'_, B, R, C> {
    /// The midgame score of a root move's position (`depth` counts the root move).
    pub(crate) fn midgame_child(&mut self, pos: Position<B>, window: Window, depth: u32) -> i32 {
        self.midgame(pos, depth - 1, window.alpha, window.beta, false)
    }

    /// The exact score of a root move's position.
    pub(crate) fn solve_child(&mut self, pos: Position<B>, window: Window) -> i32 {
        self.solve(pos, window.alpha, window.beta, false)
    }

    /// A move of `pos` that reaches `score`, the exact score of `pos`: the table's move when
    /// its entry proves at least that much, else the first move (in the solver's order) that
    /// a null-window solve proves reaches it; `None` only if the budget ran out.
    pub(crate) fn move_reaching(&mut self, pos: Position<B>, score: i32) -> Option<u32> {
        let moves = self.moves(pos);
        let proven = self
            .table
            .probe(self.solve_key_of(pos))
            .filter(|hit| hit.lower >= score)
            .and_then(|hit| hit.best)
            .filter(|&m| moves.has(m));
        if proven.is_some() {
            return proven;
        }
        // A reply at or below -score proves the move reaches score.
        let window = Window {
            alpha: -score,
            beta: -score + 1,
        };
        for index in self.solve_order(pos) {
            let reply = self.solve_child(self.play(pos, index), window);
            if self.aborted {
                return None;
            }
            if reply <= -score {
                return Some(index);
            }
        }
        None
    }

    /// The moves of a position to solve, best first: the table's move, then by a shallow
    /// midgame search, as the solver orders them.
    pub(crate) fn solve_order(&mut self, pos: Position<B>) -> Vec<u32> {
        let n = pos.empties(&self.shape.geo).count();
        let moves = self.moves(pos);
        let table_move = self
            .table_move(pos, true)
            .or_else(|| self.selective_move(pos, moves))
            .or_else(|| self.table_move(pos, false));
        let mut list: Vec<(i32, u32)> = Vec::new();
        for index in moves.members() {
            let key = if Some(index) == table_move {
                INFINITY + 1
            } else {
                -self.ordering_search(self.play(pos, index), root_shallow_depth(n), INFINITY)
            };
            list.push((key, index));
        }
        list.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        list.into_iter().map(|(_, index)| index).collect()
    }

    /// The solver's table key of a position (the selective solver's while it is selective).
    fn solve_key_of(&self, pos: Position<B>) -> u64 {
        self.solve_table_key(pos, pos.empties(&self.shape.geo).count())
    }

    /// The solver's bounds for a position, if any (exact, or the selective solver's while it
    /// is selective).
    pub(crate) fn probe_solved(&self, pos: Position<B>) -> Option<(i32, i32)> {
        self.table
            .probe(self.solve_key_of(pos))
            .map(|hit| (hit.lower, hit.upper))
    }

    /// Stores the solver's score `best` of a position searched with `window` (exact, or the
    /// selective solver's while it is selective).
    pub(crate) fn store_solved(&self, pos: Position<B>, best: i32, window: Window, best_move: u32) {
        let n = pos.empties(&self.shape.geo).count();
        let key = self.solve_table_key(pos, n);
        Self::store(self.table, key, best, window, n, Some(best_move));
    }

    /// The table's best move for a position, if any.
    pub(crate) fn table_move(&self, pos: Position<B>, exact: bool) -> Option<u32> {
        let key = if exact {
            self.solve_key_of(pos)
        } else {
            self.key(pos, false)
        };
        self.table.probe(key).and_then(|hit| hit.best)
    }
}
