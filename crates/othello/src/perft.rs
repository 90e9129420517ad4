//! Perft: the number of leaves of the game tree to a given depth, the standard check of a move
//! generator.
//!
//! Convention (that of the published tables): every legal move is a ply; a player with no legal
//! move whose opponent has one passes, and the pass is a ply with one child; a position where
//! neither player can move is a finished game, counted as one leaf where it stands even if it is
//! shallower than the depth asked for.
//!
//! The hot loop is generic over the rule set, the bit width and the processor so that each
//! combination compiles to straight code; [`count`] and [`divide`] pick all three from a
//! [`Setup`] and a [`RuleSet`]. With the `parallel` feature, [`divide`] and [`tally`] spread the
//! subtrees over the current rayon thread pool; without it they count on the calling thread.

use std::fmt;

#[cfg(feature = "parallel")]
use rayon::prelude::*;

use crate::bitboard::{Bits, Geometry, SearchBits};
use crate::cpu::Cpu;
use crate::position::{Position, Visitor, dispatch};
use crate::rules::{RuleSet, Rules};
use crate::setup::Setup;
use crate::square::Square;

/// The leaves of the game tree `depth` plies below `pos` (the side to move is `pos.me`), with
/// the code compiled for `cpu`.
///
/// The last ply is counted in bulk: one node's leaves one ply down are the number of its legal
/// moves, or one (a pass or a finished game) when it has none.
pub fn perft<R: Rules, B: Bits, C: Cpu>(
    cpu: C,
    geo: &Geometry<B>,
    pos: Position<B>,
    depth: u32,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_below::<R, B, C>(cpu, geo, pos, pos.moves::<R>(geo), depth)
}

/// [`perft`] for `depth >= 1` with the legal moves of `pos` already known: the entry point of
/// the copy for `cpu`.
#[inline(always)]
fn perft_below<R: Rules, B: Bits, C: Cpu>(
    cpu: C,
    geo: &Geometry<B>,
    pos: Position<B>,
    moves: B,
    depth: u32,
) -> u64 {
    crate::cpu_entry_point!(cpu =>
        #[inline]
        fn<R: Rules, B: Bits, C: Cpu>(
            cpu: C = cpu,
            geo: &Geometry<B> = geo,
            pos: Position<B> = pos,
            moves: B = moves,
            depth: u32 = depth,
        ) -> u64 {
            perft_below_body::<R, B, C>(cpu, geo, pos, moves, depth)
        }
    )
}

/// The body of [`perft_below`].
#[inline(always)]
fn perft_below_body<R: Rules, B: Bits, C: Cpu>(
    cpu: C,
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
        return perft_below::<R, B, C>(cpu, geo, passed, replies, depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count());
    }
    let mut leaves = 0;
    let mut rest = moves;
    while !rest.is_empty() {
        let mv = rest.lowest_bit();
        rest ^= mv;
        let child = pos.play::<R>(geo, mv);
        let replies = child.moves::<R>(geo);
        leaves += perft_below::<R, B, C>(cpu, geo, child, replies, depth - 1);
    }
    leaves
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
    struct Count<'a>(&'a Setup, u32);
    impl Visitor for Count<'_> {
        type Output = u64;
        fn call<R: Rules, B: SearchBits, C: Cpu>(self, cpu: C) -> u64 {
            let Count(setup, depth) = self;
            let (geo, pos) = root::<B>(setup);
            perft::<R, B, C>(cpu, &geo, pos, depth)
        }
    }
    dispatch(rules, setup.board.dims(), Count(setup, depth))
}

/// The leaves of the game tree `depth` plies below `setup` under `rules`, split by first ply.
///
/// The tree is cut a few plies down into enough subtrees to keep every thread of the current
/// rayon thread pool busy (run it inside `ThreadPool::install` to choose the number of
/// threads); on a pool of one thread it runs sequentially.
#[must_use]
pub fn divide(setup: &Setup, rules: RuleSet, depth: u32) -> Division {
    struct Divide<'a>(&'a Setup, u32);
    impl Visitor for Divide<'_> {
        type Output = Division;
        fn call<R: Rules, B: SearchBits, C: Cpu>(self, cpu: C) -> Division {
            let Divide(setup, depth) = self;
            let (geo, pos) = root::<B>(setup);
            divide_generic::<R, B, C>(cpu, &geo, pos, depth)
        }
    }
    dispatch(rules, setup.board.dims(), Divide(setup, depth))
}

/// The leaves of a perft split by kind, as `othello perft --verbose` prints them per depth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tally {
    /// All leaves: the same count as [`count`].
    pub leaves: u64,
    /// Leaves reached by a pass: the last ply was a player with no legal move passing.
    pub passes: u64,
    /// Finished games shallower than the depth, each counted as one leaf where it ends.
    pub finished: u64,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.leaves += other.leaves;
        self.passes += other.passes;
        self.finished += other.finished;
    }
}

/// The leaves of the game tree `depth` plies below `setup` under `rules`, with how many of them
/// are passes and finished games. The subtrees under the first two plies are shared among the
/// threads of the current rayon thread pool.
#[must_use]
pub fn tally(setup: &Setup, rules: RuleSet, depth: u32) -> Tally {
    struct Count<'a>(&'a Setup, u32);
    impl Visitor for Count<'_> {
        type Output = Tally;
        fn call<R: Rules, B: SearchBits, C: Cpu>(self, _cpu: C) -> Tally {
            let Count(setup, depth) = self;
            let (geo, pos) = root::<B>(setup);
            tally_split::<R, B>(&geo, pos, depth, 2)
        }
    }
    dispatch(rules, setup.board.dims(), Count(setup, depth))
}

/// [`tally_below`], with the subtrees `split` plies down counted in parallel.
fn tally_split<R: Rules, B: Bits>(
    geo: &Geometry<B>,
    pos: Position<B>,
    depth: u32,
    split: u32,
) -> Tally {
    if split == 0 || depth <= 2 {
        return tally_below::<R, B>(geo, pos, depth);
    }
    let children = first_plies::<R, B>(geo, pos);
    if children.is_empty() {
        return tally_below::<R, B>(geo, pos, depth);
    }
    let parts: Vec<Tally> = children
        .into_par_iter()
        .map(|(_, child)| tally_split::<R, B>(geo, child, depth - 1, split - 1))
        .collect();
    let mut sum = Tally::default();
    for part in parts {
        sum += part;
    }
    sum
}

/// The tally of the tree `depth` plies below `pos`, the last ply counted in bulk.
fn tally_below<R: Rules, B: Bits>(geo: &Geometry<B>, pos: Position<B>, depth: u32) -> Tally {
    let moves = pos.moves::<R>(geo);
    if moves.is_empty() {
        let passed = pos.passed();
        let finished = passed.moves::<R>(geo).is_empty();
        if finished {
            return Tally {
                leaves: 1,
                passes: 0,
                finished: u64::from(depth > 0),
            };
        }
        return match depth {
            0 => Tally {
                leaves: 1,
                ..Tally::default()
            },
            1 => Tally {
                leaves: 1,
                passes: 1,
                finished: 0,
            },
            _ => tally_below::<R, B>(geo, passed, depth - 1),
        };
    }
    match depth {
        0 => Tally {
            leaves: 1,
            ..Tally::default()
        },
        1 => Tally {
            leaves: u64::from(moves.count()),
            ..Tally::default()
        },
        _ => {
            let mut sum = Tally::default();
            for index in moves.members() {
                sum += tally_below::<R, B>(geo, pos.play::<R>(geo, B::single(index)), depth - 1);
            }
            sum
        }
    }
}

/// The masks and the start position of `setup` at width `B`, which [`dispatch`] chose.
fn root<B: Bits>(setup: &Setup) -> (Geometry<B>, Position<B>) {
    let geo = Geometry::new(setup.board.dims()).expect("dispatch picks a width that fits");
    (geo, Position::from_board(&setup.board, setup.first))
}

/// The threads that share a perft: those of the current rayon thread pool.
#[cfg(feature = "parallel")]
fn threads() -> usize {
    rayon::current_num_threads()
}

/// The threads that share a perft: the calling thread alone, without the `parallel` feature.
#[cfg(not(feature = "parallel"))]
fn threads() -> usize {
    1
}

/// Without the `parallel` feature, the work lists are plain iterators, counted in turn.
#[cfg(not(feature = "parallel"))]
trait IntoParallelIterator: IntoIterator + Sized {
    fn into_par_iter(self) -> Self::IntoIter {
        self.into_iter()
    }
}

#[cfg(not(feature = "parallel"))]
impl<T: IntoIterator> IntoParallelIterator for T {}

/// Subtrees per thread when the tree is cut for a thread pool: enough for an even spread.
const SUBTREES_PER_THREAD: usize = 64;

/// A subtree still to count: the index of its first ply among the root's children, its root
/// and its depth.
type Subtree<B> = (usize, Position<B>, u32);

fn divide_generic<R: Rules, B: Bits, C: Cpu>(
    cpu: C,
    geo: &Geometry<B>,
    pos: Position<B>,
    depth: u32,
) -> Division {
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
    let wanted = SUBTREES_PER_THREAD * threads();
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
        .map(|(i, node, d)| (i, perft::<R, B, C>(cpu, geo, node, d)))
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
            let child = pos.play::<R>(geo, B::single(index));
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

    /// The tally by a plain walk of the game tree through `Game`, the last ply not in bulk.
    fn tally_by_game(game: &crate::game::Game, depth: u32, by_pass: bool) -> Tally {
        if game.is_over() {
            return Tally {
                leaves: 1,
                passes: 0,
                finished: u64::from(depth > 0),
            };
        }
        if depth == 0 {
            return Tally {
                leaves: 1,
                passes: u64::from(by_pass),
                finished: 0,
            };
        }
        let mut sum = Tally::default();
        for square in game.legal_moves() {
            let mut child = game.clone();
            let mover = game.turn();
            child.play(square).unwrap();
            if child.turn() == mover {
                // The opponent passes: a ply of its own, then the mover again.
                if depth == 1 {
                    sum += Tally {
                        leaves: 1,
                        ..Tally::default()
                    };
                } else {
                    sum += tally_by_game(&child, depth - 2, true);
                }
            } else {
                sum += tally_by_game(&child, depth - 1, false);
            }
        }
        sum
    }

    #[test]
    fn tally_counts_passes_and_finished_games_as_a_plain_walk_does() {
        for (rows, cols, depth) in [(4, 4, 8), (6, 6, 4)] {
            let setup = Setup::standard(Dimensions::new(rows, cols).unwrap());
            for rules in [RuleSet::Full, RuleSet::Simple] {
                let game = crate::game::Game::new(setup, rules);
                for d in 0..=depth {
                    let tally = tally(&setup, rules, d);
                    assert_eq!(
                        tally,
                        tally_by_game(&game, d, false),
                        "{rows}x{cols} {rules} {d}"
                    );
                    assert_eq!(tally.leaves, count(&setup, rules, d));
                }
            }
        }
        let setup = Setup::standard(Dimensions::new(4, 4).unwrap());
        let deep = tally(&setup, RuleSet::Full, 8);
        assert!(deep.passes > 0 && deep.finished > 0, "{deep:?}");
    }

    /// The same position counted at every width that holds the board, and with the portable
    /// copy of the loop, gives the same count.
    #[test]
    fn every_width_and_copy_counts_the_same() {
        use crate::bitboard::U256;
        use crate::cpu::Portable;
        use crate::rules::{Full, Simple};

        fn at<R: Rules, B: Bits>(setup: &Setup, depth: u32) -> Option<u64> {
            let geo = Geometry::<B>::new(setup.board.dims())?;
            let pos = Position::<B>::from_board(&setup.board, setup.first);
            Some(perft::<R, B, Portable>(Portable, &geo, pos, depth))
        }
        for (rows, cols) in [(4, 4), (6, 6), (8, 8), (4, 16), (6, 10), (10, 10)] {
            let setup = Setup::standard(Dimensions::new(rows, cols).unwrap());
            let wide = at::<Full, U256>(&setup, 5).unwrap();
            assert_eq!(at::<Full, u128>(&setup, 5).unwrap(), wide);
            if let Some(narrow) = at::<Full, u64>(&setup, 5) {
                assert_eq!(narrow, wide);
            }
            assert_eq!(count(&setup, RuleSet::Full, 5), wide);
            let wide = at::<Simple, U256>(&setup, 4).unwrap();
            assert_eq!(at::<Simple, u128>(&setup, 4).unwrap(), wide);
            assert_eq!(at::<Simple, u64>(&setup, 4).unwrap_or(wide), wide);
            assert_eq!(count(&setup, RuleSet::Simple, 4), wide);
        }
    }
}
