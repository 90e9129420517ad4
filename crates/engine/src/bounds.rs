//! Scores and windows, shared by every search of the engine: the midgame and exact searches of
//! [`super::search`] and the board-specific solvers of the last empties ([`super::leaves`]).

/// Above every score, in either unit.
pub(crate) const INFINITY: i32 = 30_000;

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
