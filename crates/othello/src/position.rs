//! A position seen from the side to move, as two bit sets: the shape hot loops (perft, search)
//! work on, generic over the bit width and the rule set; and [`dispatch`], which picks the rule
//! set, the bit width and the processor for them once.

use crate::bitboard::{Bits, Geometry, SearchBits, U256};
use crate::board::Board;
use crate::color::Color;
#[cfg(target_arch = "x86_64")]
use crate::cpu::X86_64V3;
use crate::cpu::{Cpu, Portable};
use crate::rules::{Full, RuleSet, Rules, Simple};
use crate::square::Dimensions;

/// The bit width a board size needs: the narrowest of `u64`, `u128` and [`U256`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Width {
    /// Up to 64 cells (8x8, 4x16, 6x10, ...).
    W64,
    /// Up to 128 cells (10x10, 8x16, ...).
    W128,
    /// Up to 256 cells (12x12 and up to 16x16).
    W256,
}

impl Width {
    /// The narrowest width that holds every cell of `dims`.
    #[must_use]
    pub fn of(dims: Dimensions) -> Width {
        match dims.cells() {
            0..=64 => Width::W64,
            65..=128 => Width::W128,
            _ => Width::W256,
        }
    }
}

/// Generic code to run at one rule set, bit width and processor, picked by [`dispatch`].
pub trait Visitor {
    /// What the code returns.
    type Output;
    /// Runs the code for rule set `R`, width `B` and processor `cpu`.
    fn call<R: Rules, B: SearchBits, C: Cpu>(self, cpu: C) -> Self::Output;
}

/// Calls `visitor` with the rule set `rules`, the narrowest width for a board of `dims`
/// ([`Width::of`]) and the marker of this processor: the one place where run-time choices
/// become type parameters.
pub fn dispatch<V: Visitor>(rules: RuleSet, dims: Dimensions, visitor: V) -> V::Output {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = X86_64V3::detect() {
        return dispatch_on(rules, Width::of(dims), cpu, visitor);
    }
    dispatch_on(rules, Width::of(dims), Portable, visitor)
}

fn dispatch_on<V: Visitor, C: Cpu>(rules: RuleSet, width: Width, cpu: C, visitor: V) -> V::Output {
    match (rules, width) {
        (RuleSet::Full, Width::W64) => visitor.call::<Full, u64, C>(cpu),
        (RuleSet::Full, Width::W128) => visitor.call::<Full, u128, C>(cpu),
        (RuleSet::Full, Width::W256) => visitor.call::<Full, U256, C>(cpu),
        (RuleSet::Simple, Width::W64) => visitor.call::<Simple, u64, C>(cpu),
        (RuleSet::Simple, Width::W128) => visitor.call::<Simple, u128, C>(cpu),
        (RuleSet::Simple, Width::W256) => visitor.call::<Simple, U256, C>(cpu),
    }
}

/// The mover's discs and the opponent's discs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Position<B> {
    /// Discs of the side to move.
    pub me: B,
    /// Discs of the other side.
    pub opp: B,
}

impl<B: Bits> Position<B> {
    /// `board` seen by `to_move`; the board must fit width `B`.
    #[must_use]
    pub fn from_board(board: &Board, to_move: Color) -> Position<B> {
        Position {
            me: B::from_wide(board.discs(to_move)),
            opp: B::from_wide(board.discs(to_move.opponent())),
        }
    }

    /// The legal moves of the side to move.
    #[inline(always)]
    #[must_use]
    pub fn moves<R: Rules>(&self, geo: &Geometry<B>) -> B {
        R::legal_moves(geo, self.me, self.opp)
    }

    /// The position after the side to move plays `mv` (a single cell) flipping `flipped`, seen
    /// by the other side.
    #[inline(always)]
    #[must_use]
    pub fn after(&self, mv: B, flipped: B) -> Position<B> {
        Position {
            me: self.opp & !flipped,
            opp: self.me | mv | flipped,
        }
    }

    /// The position after the side to move plays `mv`, a single cell among its legal moves,
    /// seen by the other side.
    #[inline(always)]
    #[must_use]
    pub fn play<R: Rules>(&self, geo: &Geometry<B>, mv: B) -> Position<B> {
        self.after(mv, R::flips_at_empty(geo, self.me, self.opp, mv))
    }

    /// The same discs seen by the other side (a pass).
    #[inline(always)]
    #[must_use]
    pub fn passed(&self) -> Position<B> {
        Position {
            me: self.opp,
            opp: self.me,
        }
    }

    /// Empty cells of the board.
    #[inline(always)]
    #[must_use]
    pub fn empties(&self, geo: &Geometry<B>) -> B {
        geo.board & !(self.me | self.opp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Full;
    use crate::square::Square;

    #[test]
    fn widths_by_cell_count() {
        let w = |r, c| Width::of(Dimensions::new(r, c).unwrap());
        assert_eq!(w(8, 8), Width::W64);
        assert_eq!(w(4, 16), Width::W64);
        assert_eq!(w(10, 10), Width::W128);
        assert_eq!(w(8, 16), Width::W128);
        assert_eq!(w(12, 12), Width::W256);
        assert_eq!(w(16, 16), Width::W256);
    }

    #[test]
    fn playing_swaps_sides() {
        let dims = Dimensions::STANDARD;
        let geo = Geometry::<u64>::new(dims).unwrap();
        let start = Position::<u64>::from_board(&Board::standard(dims), Color::Black);
        assert_eq!(start.moves::<Full>(&geo).count(), 4);
        let mv = geo.bit(Square::new(2, 3));
        let flipped = Full::flips(&geo, start.me, start.opp, mv);
        let next = start.after(mv, flipped);
        assert_eq!(next.opp.count(), 4);
        assert_eq!(next.me.count(), 1);
        assert_eq!(next.passed().passed(), next);
    }
}
