//! How a search depth becomes the engine's [`Limits`]: the depth a front end starts at
//! ([`DEFAULT_DEPTH`]) and the deepest it takes ([`MAX_DEPTH`]), and from how many empty squares
//! a search of a depth solves the rest of the game exactly ([`exact_empties`], Edax's levels).
//!
//! The NBoard and GTP protocols ([`crate::nboard`], [`crate::gtp`]) and the building of the
//! opening book ([`crate::book::build`]) search to a depth through [`limits_for_depth`].

use crate::Limits;

/// The midgame depth used until a front end sets one: quick (about a second a move on 8x8),
/// and exact from 20 empties.
pub const DEFAULT_DEPTH: u32 = 10;

/// The deepest depth accepted; larger ones are taken as this.
pub const MAX_DEPTH: u32 = 60;

/// With how many empty squares or fewer a search at `depth` solves the rest of the game
/// exactly: Edax's levels, where its endgame search is exact (no selectivity) — twice the
/// depth up to 10, then 21, 24, 27 and 30 by steps, the depth less 6 from 36, and every
/// position from 60.
#[must_use]
pub fn exact_empties(depth: u32) -> u32 {
    match depth {
        0..=10 => 2 * depth,
        11..=18 => 21,
        19..=24 => 24,
        25..=29 => 27,
        30..=35 => 30,
        36..=59 => depth - 6,
        _ => u32::MAX,
    }
}

/// The engine's limits for a search `depth` plies deep from a position with `empties` empty
/// squares: an exact solve when the end is within [`exact_empties`], else `depth` plies (at
/// least 1).
///
/// ```
/// use othello_engine::depth::limits_for_depth;
/// use othello_engine::Limits;
///
/// assert_eq!(limits_for_depth(10, 40), Limits::depth(10));
/// assert_eq!(limits_for_depth(10, 20), Limits::exact());
/// assert_eq!(limits_for_depth(21, 24), Limits::exact());
/// ```
#[must_use]
pub fn limits_for_depth(depth: u32, empties: u32) -> Limits {
    if empties <= exact_empties(depth) {
        Limits::exact()
    } else {
        Limits::depth(depth.clamp(1, MAX_DEPTH))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_from_twice_the_depth_then_edax_steps() {
        assert_eq!(exact_empties(1), 2);
        assert_eq!(exact_empties(10), 20);
        assert_eq!(exact_empties(12), 21);
        assert_eq!(exact_empties(21), 24);
        assert_eq!(exact_empties(27), 27);
        assert_eq!(exact_empties(32), 30);
        assert_eq!(exact_empties(40), 34);
        assert_eq!(exact_empties(60), u32::MAX);
        assert_eq!(limits_for_depth(0, 30), Limits::depth(1));
        assert_eq!(limits_for_depth(99, 60), Limits::exact());
    }
}
