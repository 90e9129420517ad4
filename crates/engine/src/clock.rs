//! The engine's clock: `std::time::Instant`, except in a browser (`wasm32-unknown-unknown`),
//! where the standard library has no clock and `web-time` reads `performance.now()`; and how
//! long a move may take on a game's clock (GTP's `time_left`, `othello match --clock`).

use std::time::Duration;

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub(crate) use std::time::Instant;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(crate) use web_time::Instant;

/// Empty squares from which the rest of a game takes little time (the exact solve's, at most
/// a fraction of a second).
const QUICK_EMPTIES: u32 = 12;

/// How much of its even share of the time left a move aims at: iterative deepening ends a
/// search, on average, well within its aim (it starts no iteration that would overrun it).
const AIM: f64 = 1.5;

/// The share of `left` for one move with `empties` empty squares: the time shared among the
/// mover's moves still to come before the last, quick empty squares (by [`AIM`]), and at most
/// half of it.
#[must_use]
pub(crate) fn share_of(left: Duration, empties: u32) -> Duration {
    let moves = empties.saturating_sub(QUICK_EMPTIES).div_ceil(2).max(1);
    (left.mul_f64(AIM) / moves).min(left / 2)
}

/// The longest a search whose share is `share` may take with `left` on the clock: twice the
/// share, but never more than half the time left (nor less than the share).
#[must_use]
pub(crate) fn hard_limit(share: Duration, left: Duration) -> Duration {
    (share * 2).min(left / 2).max(share)
}
