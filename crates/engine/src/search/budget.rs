//! When a search stops: the flags, the deadline and the node limit, checked every 1024 nodes.

use crate::clock::Instant;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::Searcher;
use othello::Rules;
use othello::bitboard::SearchBits;
use othello::cpu::Cpu;

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

impl<B: SearchBits, R: Rules, C: Cpu> Searcher<'_, B, R, C> {
    /// Counts a node; checks the budget every 1024 nodes. True once the search must stop.
    #[inline(always)]
    pub(super) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.trailing_zeros() >= 10 {
            self.check_budget();
        }
        self.aborted
    }

    /// Counts the `nodes` of a subtree searched to `score` in one piece, checking the budget
    /// when they cross a multiple of 1024: the score, or 0 once the search must stop.
    #[inline(always)]
    pub(super) fn count(&mut self, nodes: u64, score: i32) -> i32 {
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
}
