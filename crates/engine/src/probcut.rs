//! Probabilistic cut-offs (ProbCut) for the midgame search with the trained evaluation: before
//! searching a node `depth` plies deep, a search [`shallow_depth`] plies deep with a window
//! moved 1.5 standard deviations ([`ProbCut::sigma`]) beyond the node's window predicts, with
//! high probability, that the deep search would fail high or low, and the node returns at once.
//!
//! The deep value is modelled as the shallow value plus a normal error whose standard deviation
//! is linear in the plies between the two searches and in the empty squares:
//! `sigma = c0 + c1 * (depth - shallow depth) + c2 * empties`
//! (hundredths of a disc), fitted by `othello train probcut` to self-play positions (docs/train.md
//! has the command, docs/measurements.md the figures). The exact solver never uses it, so exact
//! results do not depend on it.

/// Depth from which a node tries a cut-off.
pub const MIN_DEPTH: u32 = 3;

/// The standard deviations of the deep-minus-shallow error the cut-off allows for: about 93%
/// of the cut-offs are right under the normal model, one-sided.
const THRESHOLD: f64 = 1.5;

/// The depth of the shallow search that predicts a search `depth` plies deep (Edax's rule: a
/// quarter of the depth, twice, keeping its parity).
#[must_use]
pub fn shallow_depth(depth: u32) -> u32 {
    2 * (depth / 4) + (depth & 1)
}

/// The error model: `sigma = c0 + c1 * (depth - shallow depth) + c2 * empties`, in hundredths
/// of a disc.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbCut {
    /// The constant, the coefficient of the plies between the two searches and that of the
    /// empty squares.
    pub coefficients: [f64; 3],
}

/// The model of the compiled-in weights, as `othello train probcut` printed it (1,000 positions of
/// the trained engine's self-play; docs/measurements.md, "Self-play of the trained engine beside
/// WTHOR's depth-10 targets").
pub const TRAINED: ProbCut = ProbCut {
    coefficients: [402.4, 17.44, -5.57],
};

/// The selective solver's model of the compiled-in weights, as `othello train probcut
/// --endgame` printed it (3,000 positions of 14-24 empties from WTHOR 2010-2011; docs/train.md):
/// the exact score against a midgame search, the gap being the empty squares less the midgame
/// search's depth.
pub const TRAINED_ENDGAME: ProbCut = ProbCut {
    coefficients: [909.5, 36.80, -41.07],
};

impl ProbCut {
    /// The standard deviation of the deep value's error for a search `depth` plies deep at
    /// `empties` empty squares, in hundredths of a disc.
    #[must_use]
    pub fn sigma(&self, depth: u32, empties: u32) -> f64 {
        self.sigma_gap(depth - shallow_depth(depth), empties)
    }

    /// The standard deviation of the error of a search `gap` plies shallower than the deep
    /// one at `empties` empty squares, in hundredths of a disc.
    #[must_use]
    pub fn sigma_gap(&self, gap: u32, empties: u32) -> f64 {
        let [c0, c1, c2] = self.coefficients;
        (c0 + c1 * f64::from(gap) + c2 * f64::from(empties)).max(1.0)
    }

    /// How far beyond the window the shallow search looks, in hundredths of a disc.
    #[inline]
    #[must_use]
    pub(crate) fn margin(&self, depth: u32, empties: u32) -> i32 {
        (THRESHOLD * self.sigma(depth, empties)).round() as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shallow_search_is_shallower_and_keeps_parity() {
        for depth in MIN_DEPTH..=30 {
            let shallow = shallow_depth(depth);
            assert!(shallow < depth, "{depth}");
            assert_eq!(shallow % 2, depth % 2, "{depth}");
        }
        assert_eq!(shallow_depth(3), 1);
        assert_eq!(shallow_depth(8), 4);
    }
}
