//! What an exact solve costs, before it runs: a model of the positions visited by the number of
//! empty squares ([`exact_solve_nodes`]), fitted on the one-thread node counts of FFO #40-#58
//! (20 to 30 empties; `othello solve --empties-to-winner --threads 1`, docs/measurements.md).
//!
//! Each further empty square about doubles the work (x1.95); around the fitted line the
//! positions spread by a factor of about 3 either way (the standard deviation of the log), all
//! of them within a twelfth and 8 times it. A position with a decisive advantage is far cheaper
//! than its estimate (FFO #59, 34 empties and a win by 64: 0.3-0.5 M nodes against 32 G).

/// An estimate of the positions an exact solve visits on one thread: the typical count and the
/// range that held every fitted position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeEstimate {
    /// The count of a typical position with this many empties.
    pub typical: f64,
    /// The lower end of the range (a twelfth of `typical`).
    pub low: f64,
    /// The upper end of the range (8 times `typical`).
    pub high: f64,
}

/// The base-10 logarithm of the typical count at 0 empties, and its growth per empty square.
const FIT: (f64, f64) = (0.686, 0.2889);

/// The range around the fitted line, as factors: every fitted position lies within it.
const RANGE: (f64, f64) = (1.0 / 12.0, 8.0);

/// The estimated positions an exact solve of a position with `empties` empty squares visits on
/// one thread (8x8 and other boards alike: the count of empties is what it reads).
#[must_use]
pub fn exact_solve_nodes(empties: u32) -> NodeEstimate {
    let typical = 10f64.powf(FIT.0 + FIT.1 * f64::from(empties));
    NodeEstimate {
        typical,
        low: typical * RANGE.0,
        high: typical * RANGE.1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_work_about_doubles_with_each_empty() {
        let ratio = exact_solve_nodes(31).typical / exact_solve_nodes(30).typical;
        assert!((1.9..2.0).contains(&ratio), "{ratio}");
    }

    #[test]
    fn the_fitted_ffo_counts_lie_in_their_ranges() {
        // (empties, one-thread nodes) of FFO #40, #45, #47, #50, #53 and #55: the lowest and
        // highest above and below the line.
        for (empties, nodes) in [
            (20, 7_712_774.0),
            (24, 142_285_714.0),
            (25, 7_260_313.0),
            (26, 442_642_915.0),
            (28, 1_632_249_173.0),
            (29, 9_075_250_652.0),
        ] {
            let estimate = exact_solve_nodes(empties);
            assert!(
                estimate.low <= nodes && nodes <= estimate.high,
                "{empties} empties, {nodes} nodes: {estimate:?}"
            );
        }
    }
}
