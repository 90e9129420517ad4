//! A move's share of the clock as iterative deepening keeps it ([`Pace`]): the growth of an
//! iteration's time from the last ones.

use crate::clock::Instant;
use std::time::Duration;

/// Iterative deepening against a move's share of the clock ([`crate::Limits::target`]): whether the
/// next iteration is expected to end in time, from how long the last ones took.
pub(super) struct Pace {
    start: Instant,
    target: Option<Duration>,
    /// How long the last completed iteration took.
    last: Option<Duration>,
}

impl Pace {
    /// How much longer an iteration takes than the one before when that is too short to
    /// tell (under a millisecond), and the bounds of the growth measured otherwise.
    const GROWTH: f64 = 3.0;
    const GROWTH_BOUNDS: (f64, f64) = (1.5, 8.0);

    pub(super) fn new(target: Option<Duration>) -> Pace {
        Pace {
            start: Instant::now(),
            target,
            last: None,
        }
    }

    /// Records an iteration begun at `began` and completed now; whether the next one, as long
    /// as this one grown by the growth from the one before, would end after the target.
    pub(super) fn next_would_overrun(&mut self, began: Instant) -> bool {
        let took = began.elapsed();
        let growth = match self.last {
            Some(last) if last >= Duration::from_millis(1) => {
                let (low, high) = Pace::GROWTH_BOUNDS;
                (took.as_secs_f64() / last.as_secs_f64()).clamp(low, high)
            }
            _ => Pace::GROWTH,
        };
        self.last = Some(took);
        self.target.is_some_and(|target| {
            self.start.elapsed().as_secs_f64() + took.as_secs_f64() * growth > target.as_secs_f64()
        })
    }
}
