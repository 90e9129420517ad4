//! The midgame evaluation: the trained patterns of [`super::patterns`] where they apply (8x8,
//! FULL, most discs wins), otherwise a handful of classic features, computed with whole-board bit
//! operations so that it works on every board size and both rule sets.
//!
//! The score is in hundredths of a disc from the mover's point of view. Features that count
//! discs (corners, their neighbours, edges, stable discs) change sign when fewest discs wins;
//! mobility, potential mobility and parity are good for the mover under either win rule.

use super::shape::Shape;
use crate::bitboard::Bits;
use crate::cpu::Cpu;
use crate::position::Position;
use crate::rules::Rules;

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
    if let Some(weights) = shape.patterns {
        let my_moves = pos.moves::<R>(&shape.geo).count();
        let their_moves = pos.passed().moves::<R>(&shape.geo).count();
        return weights.evaluate(
            cpu,
            pos.me.low_u64(),
            pos.opp.low_u64(),
            my_moves,
            their_moves,
        );
    }
    let (me, opp) = (pos.me, pos.opp);
    let empties = pos.empties(&shape.geo);
    let my_moves = pos.moves::<R>(&shape.geo).count() as i32;
    let their_moves = pos.passed().moves::<R>(&shape.geo).count() as i32;
    let mut positional = MOBILITY * (my_moves - their_moves);
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
