//! The midgame evaluation: the trained patterns of [`super::patterns`] where they apply (8x8,
//! FULL, most discs wins), otherwise a handful of classic features, computed with whole-board bit
//! operations so that it works on every board size and both rule sets.
//!
//! The score is in hundredths of a disc from the mover's point of view. Features that count
//! discs (corners, their neighbours, edges, stable discs) change sign when fewest discs wins;
//! mobility, potential mobility and parity are good for the mover under either win rule.

use std::sync::LazyLock;

use super::patterns::Features;
use super::shape::{Evaluation, Scoring, Shape};
use othello::Dimensions;
use othello::WinRule;
use othello::bitboard::Bits;
use othello::cpu::Cpu;
use othello::position::Position;
use othello::{Full, RuleSet, Rules, eight};

/// Evaluation units per disc.
pub(crate) const SCALE: i32 = 100;

const MOBILITY: i32 = 60;
const POTENTIAL_MOBILITY: i32 = 20;
const CORNER: i32 = 500;
const X_SQUARE: i32 = 250;
const C_SQUARE: i32 = 80;
const EDGE: i32 = 10;
const STABLE: i32 = 100;
const PARITY: i32 = 100;

/// The evaluation of `pos` for the mover, under rule set `R`.
#[inline(always)]
pub(crate) fn evaluate<B: Bits, R: Rules, C: Cpu>(
    shape: &Shape<B>,
    pos: Position<B>,
    cpu: C,
) -> i32 {
    let my_moves = pos.moves::<R>(&shape.geo).count();
    evaluate_with_moves::<B, R, C>(shape, pos, my_moves, None, cpu)
}

/// The pattern features of `pos`, read from the board ([`Features::NONE`] on a board without
/// patterns).
#[inline(always)]
pub(crate) fn read_features<B: Bits, C: Cpu>(
    shape: &Shape<B>,
    pos: Position<B>,
    cpu: C,
) -> Features {
    match shape.patterns {
        Some(weights) => weights.features(cpu, pos.me.low_u64(), pos.opp.low_u64()),
        None => Features::NONE,
    }
}

/// The pattern features of `child`, a position after a move from `pos`, whose features are
/// `before` ([`Features::NONE`] on a board without patterns).
#[inline(always)]
pub(crate) fn features_after<B: Bits>(
    shape: &Shape<B>,
    before: &Features,
    pos: Position<B>,
    child: Position<B>,
) -> Features {
    match shape.patterns {
        Some(weights) => {
            // The child's opponent (the mover of `pos`) owns the new disc and the turned ones.
            let (opp, taken) = (pos.opp.low_u64(), child.opp.low_u64() & !pos.me.low_u64());
            debug_assert!(taken & !opp != 0, "the child is a move from the position");
            let square = (taken & !opp).trailing_zeros();
            weights.features_after(before, square, taken & opp)
        }
        None => Features::NONE,
    }
}

/// [`evaluate`] of `pos`, where the mover has `my_moves` legal moves (a caller that already
/// generated them saves doing it twice) and, when given, the pattern features are `features`
/// (a caller that keeps them up to date saves reading them from the board).
#[inline(always)]
pub(crate) fn evaluate_with_moves<B: Bits, R: Rules, C: Cpu>(
    shape: &Shape<B>,
    pos: Position<B>,
    my_moves: u32,
    features: Option<&Features>,
    cpu: C,
) -> i32 {
    let their_moves = pos.passed().moves::<R>(&shape.geo).count();
    if let Some(weights) = shape.patterns {
        let (me, opp) = (pos.me.low_u64(), pos.opp.low_u64());
        return match features {
            Some(features) => weights.evaluate_features(
                cpu,
                features,
                64 - (me | opp).count_ones(),
                my_moves,
                their_moves,
            ),
            None => weights.evaluate(cpu, me, opp, my_moves, their_moves),
        };
    }
    let (me, opp) = (pos.me, pos.opp);
    let empties = pos.empties(&shape.geo);
    let mut positional = MOBILITY * (my_moves as i32 - their_moves as i32);
    let frontier = |discs| (shape.geo.dilate(discs) & empties).count() as i32;
    // Empty cells next to the opponent are where the mover may play later.
    positional += POTENTIAL_MOBILITY * (frontier(opp) - frontier(me));
    if empties.count() & 1 == 1 {
        positional += PARITY;
    }

    let diff = |set: B| (set & me).count() as i32 - (set & opp).count() as i32;
    let mut discs = CORNER * diff(shape.corners) + EDGE * diff(shape.edges);
    for zone in &shape.corner_zones {
        if !(zone.corner & empties).is_empty() {
            discs -= X_SQUARE * diff(zone.x_square) + C_SQUARE * diff(zone.c_squares);
        }
    }
    let stable = |discs| shape.stable(discs, empties).count() as i32;
    discs += STABLE * (stable(me) - stable(opp));
    positional + shape.sign * discs
}

/// Standard Othello with the classic evaluation, for [`evaluate_standard`].
static CLASSIC: LazyLock<Shape<'static, u64>> = LazyLock::new(|| {
    Shape::new(
        Dimensions::STANDARD,
        RuleSet::Full,
        WinRule::MostDiscs,
        Scoring::DiscsOnly,
        &Evaluation::Classic,
        false,
    )
});

/// The static evaluation of a position of standard Othello (8x8, FULL rules, most discs wins)
/// by `evaluation`, for the mover, in hundredths of a disc: `me` and `opp` are the mover's and
/// the opponent's discs, bit `8 * row + column`. It is the value the midgame search gives the
/// position at its horizon, move counts included.
///
/// ```
/// use othello_engine::{Evaluation, evaluate_standard};
///
/// // Black opens f5 (flipping e5) or d3 (flipping d4), two images of one position; white
/// // is to move.
/// let after_f5 = (1 << 27, 1 << 28 | 1 << 35 | 1 << 36 | 1 << 37);
/// let after_d3 = (1 << 36, 1 << 19 | 1 << 27 | 1 << 28 | 1 << 35);
/// for evaluation in [Evaluation::Trained, Evaluation::Classic] {
///     assert_eq!(
///         evaluate_standard(&evaluation, after_f5.0, after_f5.1),
///         evaluate_standard(&evaluation, after_d3.0, after_d3.1),
///     );
/// }
/// ```
#[must_use]
pub fn evaluate_standard(evaluation: &Evaluation, me: u64, opp: u64) -> i32 {
    #[inline(always)]
    fn body<C: Cpu>(evaluation: &Evaluation, pos: Position<u64>, cpu: C) -> i32 {
        match evaluation.patterns(Dimensions::STANDARD, RuleSet::Full, WinRule::MostDiscs) {
            Some(weights) => {
                let my_moves = eight::legal_moves(pos.me, pos.opp).count_ones();
                let their_moves = eight::legal_moves(pos.opp, pos.me).count_ones();
                weights.evaluate(cpu, pos.me, pos.opp, my_moves, their_moves)
            }
            None => evaluate::<u64, Full, C>(&CLASSIC, pos, cpu),
        }
    }
    let pos = Position { me, opp };
    othello::cpu_entry_point!(detect cpu =>
        #[inline(always)]
        fn(evaluation: &Evaluation = evaluation, pos: Position<u64> = pos) -> i32 {
            body(evaluation, pos, cpu)
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::patterns::WEIGHTS;
    use crate::patterns::tests::positions;
    use othello::cpu::Portable;

    #[test]
    fn a_childs_features_follow_from_its_parents() {
        let shape = Shape::<u64>::new(
            Dimensions::STANDARD,
            RuleSet::Full,
            WinRule::MostDiscs,
            Scoring::DiscsOnly,
            &Evaluation::Trained,
            false,
        );
        let mut children = 0;
        for (me, opp) in positions() {
            let pos = Position { me, opp };
            let before = read_features(&shape, pos, Portable);
            let mut moves = pos.moves::<Full>(&shape.geo);
            while moves != 0 {
                let child = pos.play::<Full>(&shape.geo, moves & moves.wrapping_neg());
                moves &= moves - 1;
                let after = features_after(&shape, &before, pos, child);
                assert_eq!(after, read_features(&shape, child, Portable));
                children += 1;
            }
        }
        assert!(children > 1000);
        // The classic evaluation has no features to keep.
        assert_eq!(
            read_features(&CLASSIC, Position { me: 1, opp: 2 }, Portable),
            Features::NONE
        );
    }

    #[test]
    fn the_standard_evaluation_is_the_searchs() {
        for (me, opp) in positions() {
            assert_eq!(
                evaluate_standard(&Evaluation::Trained, me, opp),
                WEIGHTS.evaluate_slowly(me, opp)
            );
            let pos = Position { me, opp };
            assert_eq!(
                evaluate_standard(&Evaluation::Classic, me, opp),
                evaluate::<u64, Full, Portable>(&CLASSIC, pos, Portable)
            );
        }
    }
}
