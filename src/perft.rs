//! Perft: the number of leaves of the game tree to a given depth, the standard check of a move
//! generator.
//!
//! Convention (that of the published tables): every legal move is a ply; a player with no legal
//! move whose opponent has one passes, and the pass is a ply with one child; a position where
//! neither player can move is a finished game, counted as one leaf where it stands even if it is
//! shallower than the depth asked for.
//!
//! [`perft`] is the hot loop, generic over the rule set and the bit width so that each
//! combination compiles to straight code; [`count`] and [`divide`] pick both from a [`Setup`]
//! and a [`RuleSet`]. [`divide`] spreads the subtrees over the current rayon thread pool.

use std::fmt;

use rayon::prelude::*;

use crate::bitboard::{Bits, Geometry, U256};
use crate::position::{Position, Width};
use crate::rules::{Full, RuleSet, Rules, Simple};
use crate::setup::Setup;
use crate::square::Square;

/// Calls `$run!(R, B)` with the rule set's type and the narrowest width for the setup's board.
macro_rules! dispatch {
    ($rules:expr, $setup:expr, $run:ident) => {
        match ($rules, Width::of($setup.board.dims())) {
            (RuleSet::Full, Width::W64) => $run!(Full, u64),
            (RuleSet::Full, Width::W128) => $run!(Full, u128),
            (RuleSet::Full, Width::W256) => $run!(Full, U256),
            (RuleSet::Simple, Width::W64) => $run!(Simple, u64),
            (RuleSet::Simple, Width::W128) => $run!(Simple, u128),
            (RuleSet::Simple, Width::W256) => $run!(Simple, U256),
        }
    };
}

/// The leaves of the game tree `depth` plies below `pos` (the side to move is `pos.me`).
///
/// The last ply is counted in bulk: one node's leaves one ply down are the number of its legal
/// moves, or one (a pass or a finished game) when it has none. On x86-64 processors with the
/// instructions of x86-64-v3 (popcnt, lzcnt, BMI, AVX2), a copy of the loop compiled for them
/// runs instead of the portable one.
#[must_use]
pub fn perft<R: Rules, B: Bits>(geo: &Geometry<B>, pos: Position<B>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.moves::<R>(geo);
    #[cfg(target_arch = "x86_64")]
    if crate::rules::x86_64_v3::detected() {
        // SAFETY: the processor has every feature the function is compiled for.
        return unsafe { x86_64_v3::perft_below::<R, B>(geo, pos, moves, depth) };
    }
    portable::perft_below::<R, B>(geo, pos, moves, depth)
}

/// Defines `perft_below`, [`perft`] for `depth >= 1` with the legal moves of `pos` already
/// known, with the given attributes and qualifiers.
macro_rules! define_perft_below {
    ($(#[$attr:meta])* $($qualifier:ident)*) => {
        $(#[$attr])*
        pub(super) $($qualifier)* fn perft_below<R: Rules, B: Bits>(
            geo: &Geometry<B>,
            pos: Position<B>,
            moves: B,
            depth: u32,
        ) -> u64 {
            if moves.is_empty() {
                if depth == 1 {
                    // A pass (one child) or a finished game (one leaf): one either way.
                    return 1;
                }
                let passed = pos.passed();
                let replies = passed.moves::<R>(geo);
                if replies.is_empty() {
                    return 1;
                }
                #[allow(unused_unsafe)]
                // SAFETY: a recursive call, with the features this call was made with.
                return unsafe { perft_below::<R, B>(geo, passed, replies, depth - 1) };
            }
            if depth == 1 {
                return u64::from(moves.count());
            }
            let mut leaves = 0;
            let mut rest = moves;
            while !rest.is_empty() {
                let mv = rest.lowest_bit();
                rest ^= mv;
                let child = pos.after(mv, R::flips_at_empty(geo, pos.me, pos.opp, mv));
                let replies = child.moves::<R>(geo);
                #[allow(unused_unsafe)]
                // SAFETY: as above.
                let below = unsafe { perft_below::<R, B>(geo, child, replies, depth - 1) };
                leaves += below;
            }
            leaves
        }
    };
}

/// The loop for any processor.
mod portable {
    use super::*;

    define_perft_below!(#[inline]);
}

/// The loop compiled for x86-64-v3 processors.
#[cfg(target_arch = "x86_64")]
mod x86_64_v3 {
    use super::*;

    define_perft_below!(#[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")] unsafe);
}

/// A first ply from the root: a move, or a pass when the side to move has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ply {
    /// A move at this square.
    Move(Square),
    /// The side to move has no legal move and passes.
    Pass,
}

impl fmt::Display for Ply {
    /// A move in algebraic form (`d3`), or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ply::Move(square) => square.fmt(f),
            Ply::Pass => f.write_str("pass"),
        }
    }
}

/// The leaves of a perft, split by first ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Division {
    /// Every first ply (the legal moves row by row, or a single pass) with the leaves below
    /// it. Empty at depth 0 and when the game is over at the root.
    pub children: Vec<(Ply, u64)>,
    /// All leaves: the sum over the children, or 1 when there are none.
    pub total: u64,
}

/// The leaves of the game tree `depth` plies below `setup` under `rules`, its first player to
/// move (its win rule plays no part). Runs on the calling thread.
#[must_use]
pub fn count(setup: &Setup, rules: RuleSet, depth: u32) -> u64 {
    macro_rules! run {
        ($r:ty, $b:ty) => {{
            let (geo, pos) = root::<$b>(setup);
            perft::<$r, $b>(&geo, pos, depth)
        }};
    }
    dispatch!(rules, setup, run)
}

/// The leaves of the game tree `depth` plies below `setup` under `rules`, split by first ply.
///
/// The tree is cut a few plies down into enough subtrees to keep every thread of the current
/// rayon thread pool busy (run it inside `ThreadPool::install` to choose the number of
/// threads); on a pool of one thread it runs sequentially.
#[must_use]
pub fn divide(setup: &Setup, rules: RuleSet, depth: u32) -> Division {
    macro_rules! run {
        ($r:ty, $b:ty) => {{
            let (geo, pos) = root::<$b>(setup);
            divide_generic::<$r, $b>(&geo, pos, depth)
        }};
    }
    dispatch!(rules, setup, run)
}

/// The masks and the start position of `setup` at width `B`, which `Width::of` chose.
fn root<B: Bits>(setup: &Setup) -> (Geometry<B>, Position<B>) {
    let geo = Geometry::new(setup.board.dims()).expect("Width::of picks a width that fits");
    (geo, Position::from_board(&setup.board, setup.first))
}

/// Subtrees per thread when the tree is cut for a thread pool: enough for an even spread.
const SUBTREES_PER_THREAD: usize = 64;

/// A subtree still to count: the index of its first ply among the root's children, its root
/// and its depth.
type Subtree<B> = (usize, Position<B>, u32);

fn divide_generic<R: Rules, B: Bits>(geo: &Geometry<B>, pos: Position<B>, depth: u32) -> Division {
    let plies = first_plies::<R, B>(geo, pos);
    if depth == 0 || plies.is_empty() {
        return Division {
            children: Vec::new(),
            total: 1,
        };
    }
    let mut leaves = vec![0u64; plies.len()];
    let mut frontier: Vec<Subtree<B>> = plies
        .iter()
        .enumerate()
        .map(|(i, &(_, child))| (i, child, depth - 1))
        .collect();
    // Cut the tree one whole ply deeper at a time until there is enough work to share,
    // leaving the last two plies to the bulk-counting loop.
    let wanted = SUBTREES_PER_THREAD * rayon::current_num_threads();
    while frontier.len() < wanted && frontier.first().is_some_and(|&(_, _, d)| d > 2) {
        let mut next = Vec::with_capacity(frontier.len() * 8);
        for (i, node, d) in frontier {
            let children = first_plies::<R, B>(geo, node);
            if children.is_empty() {
                leaves[i] += 1; // a finished game, shallower than the depth
            }
            next.extend(children.into_iter().map(|(_, child)| (i, child, d - 1)));
        }
        frontier = next;
    }
    let counted: Vec<(usize, u64)> = frontier
        .into_par_iter()
        .map(|(i, node, d)| (i, perft::<R, B>(geo, node, d)))
        .collect();
    for (i, n) in counted {
        leaves[i] += n;
    }
    let children: Vec<(Ply, u64)> = plies.into_iter().map(|(ply, _)| ply).zip(leaves).collect();
    let total = children.iter().map(|&(_, n)| n).sum();
    Division { children, total }
}

/// The children of `pos` with the ply leading to each: its moves, a pass, or nothing when the
/// game is over.
fn first_plies<R: Rules, B: Bits>(geo: &Geometry<B>, pos: Position<B>) -> Vec<(Ply, Position<B>)> {
    let moves = pos.moves::<R>(geo);
    if moves.is_empty() {
        let passed = pos.passed();
        return if passed.moves::<R>(geo).is_empty() {
            Vec::new()
        } else {
            vec![(Ply::Pass, passed)]
        };
    }
    moves
        .members()
        .map(|index| {
            let mv = B::single(index);
            let child = pos.after(mv, R::flips_at_empty(geo, pos.me, pos.opp, mv));
            (Ply::Move(geo.square(index)), child)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::square::Dimensions;

    #[test]
    fn standard_start_small_depths() {
        let setup = Setup::standard(Dimensions::STANDARD);
        let counts: Vec<u64> = (0..=6).map(|d| count(&setup, RuleSet::Full, d)).collect();
        assert_eq!(counts, vec![1, 4, 12, 56, 244, 1396, 8200]);
    }

    #[test]
    fn divide_sums_to_count_and_names_first_moves() {
        let setup = Setup::standard(Dimensions::STANDARD);
        let division = divide(&setup, RuleSet::Full, 5);
        assert_eq!(division.total, 1396);
        let names: Vec<String> = division
            .children
            .iter()
            .map(|(p, _)| p.to_string())
            .collect();
        assert_eq!(names, ["d3", "c4", "f5", "e6"]);
        assert!(division.children.iter().all(|&(_, n)| n == 1396 / 4));
    }

    #[test]
    fn finished_game_is_one_leaf_at_every_depth() {
        let dims = Dimensions::new(4, 4).unwrap();
        let setup = Setup {
            board: crate::board::Board::empty(dims),
            ..Setup::standard(dims)
        };
        for depth in 0..4 {
            assert_eq!(count(&setup, RuleSet::Full, depth), 1);
            let division = divide(&setup, RuleSet::Simple, depth);
            assert!(division.children.is_empty());
            assert_eq!(division.total, 1);
        }
    }
}
