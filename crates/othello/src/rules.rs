//! The two rule sets, FULL and SIMPLE, behind one trait.
//!
//! Both answer two questions with whole-board bit operations: which empty cells may the mover
//! play, and which discs does a move flip. Everything else (turns, passing, the end, scoring)
//! is shared and lives in [`crate::game`].
//!
//! Hot loops are generic over [`Rules`] so that each rule set compiles to straight code;
//! [`RuleSet`] picks one at run time.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::bitboard::{Bits, Geometry, Line};
use crate::cpu::Cpu;

/// Evaluates `$body` with `$c` a constant equal to the board's number of columns, so that the
/// generic kernels it calls (`kernel::<.., $c>(..)`) shift by constants.
macro_rules! with_cols {
    ($geo:expr, $c:ident => $body:expr) => {
        with_cols!(@arms $geo, $c, $body, [4, 6, 8, 10, 12, 14])
    };
    (@arms $geo:expr, $c:ident, $body:expr, [$($cols:literal),*]) => {
        match $geo.dims().cols() {
            $($cols => {
                const $c: u32 = $cols;
                $body
            })*
            _ => {
                const $c: u32 = 16;
                $body
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
mod avx2;
pub mod eight;

/// A rule set: which moves are legal and what a move flips.
///
/// `me` and `opp` are the mover's and the opponent's discs (disjoint, within the board);
/// `mv` is a single empty cell.
pub trait Rules: Copy + Default + Send + Sync + 'static {
    /// The run-time name of this rule set.
    const RULE_SET: RuleSet;

    /// Every empty cell where the mover may play.
    fn legal_moves<B: Bits>(geo: &Geometry<B>, me: B, opp: B) -> B;

    /// The opponent discs a move at `mv` flips; empty exactly when the move is illegal (and when
    /// `mv` is not an empty cell of the board).
    fn flips<B: Bits>(geo: &Geometry<B>, me: B, opp: B, mv: B) -> B;

    /// [`Rules::flips`] for a caller that knows `mv` is an empty cell (a member of
    /// [`Rules::legal_moves`], say), without checking it: the answer is meaningless otherwise.
    #[inline]
    fn flips_at_empty<B: Bits>(geo: &Geometry<B>, me: B, opp: B, mv: B) -> B {
        Self::flips(geo, me, opp, mv)
    }
}

/// Whether `mv` is an empty cell of the board (or several: the rules take one).
#[inline(always)]
fn is_empty_cell<B: Bits>(geo: &Geometry<B>, me: B, opp: B, mv: B) -> bool {
    !mv.is_empty() && (mv & !(geo.board & !(me | opp))).is_empty()
}

/// Standard Othello: a move must close at least one straight run of opponent discs, in any of
/// the 8 directions, with a disc of the mover; every such run is flipped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Full;

/// The simplified rules: a move must touch an opponent disc; every opponent disc among the 8
/// neighbours of the move is flipped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Simple;

impl Rules for Full {
    const RULE_SET: RuleSet = RuleSet::Full;

    #[inline(always)]
    fn legal_moves<B: Bits>(geo: &Geometry<B>, me: B, opp: B) -> B {
        if geo.is_standard() {
            B::from_u64(eight::legal_moves(me.low_u64(), opp.low_u64()))
        } else {
            full_moves(geo, me, opp)
        }
    }

    #[inline]
    fn flips<B: Bits>(geo: &Geometry<B>, me: B, opp: B, mv: B) -> B {
        if !is_empty_cell(geo, me, opp, mv) {
            return B::ZERO;
        }
        Self::flips_at_empty(geo, me, opp, mv)
    }

    #[inline(always)]
    fn flips_at_empty<B: Bits>(geo: &Geometry<B>, me: B, opp: B, mv: B) -> B {
        if geo.is_standard() {
            let square = mv.low_u64().trailing_zeros();
            B::from_u64(eight::flips(me.low_u64(), opp.low_u64(), square))
        } else {
            full_flips(geo, me, opp, mv)
        }
    }
}

/// Occluded fill: `gen` spread through the cells of `pro` by steps of `s` bits (towards higher
/// indices when `UP`), doubling the step `steps` times, which crosses runs of up to
/// `2^steps - 1` cells. Steps whose shift would not fit `B` are never needed (the board is
/// smaller than the run they cross); with `s` a constant they are left out at compile time.
#[inline(always)]
fn fill<B: Bits, const UP: bool>(grow: B, pro: B, s: u32, steps: u32) -> B {
    let shift = |set: B, n: u32| if UP { set << n } else { set >> n };
    let mut grow = grow | (pro & shift(grow, s));
    if steps > 1 && 2 * s < B::WIDTH {
        let pro = pro & shift(pro, s);
        grow |= pro & shift(grow, 2 * s);
        if steps > 2 && 4 * s < B::WIDTH {
            let pro = pro & shift(pro, 2 * s);
            grow |= pro & shift(grow, 4 * s);
            if steps > 3 && 8 * s < B::WIDTH {
                let pro = pro & shift(pro, 4 * s);
                grow |= pro & shift(grow, 8 * s);
            }
        }
    }
    grow
}

/// The cells of `me`'s runs of `opp` along `line` (step `s`, a constant), both ways, shifted one step
/// further: the empty cells (or discs) that close them.
#[inline(always)]
fn closing_cells<B: Bits>(line: &Line<B>, s: u32, me: B, opp: B) -> B {
    let pro = opp & line.interior;
    let up = fill::<B, true>(me, pro, s, line.fill_steps) & pro;
    let down = fill::<B, false>(me, pro, s, line.fill_steps) & pro;
    (up << s) | (down >> s)
}

/// The runs of `opp` from `mv` along `line` (step `s`, a constant), both ways, that a disc of
/// `me` closes.
///
/// From a single cell the runs are short, so each is grown one step at a time until it stops,
/// which costs less than a doubling fill over the whole board.
#[inline(always)]
fn closed_runs<B: Bits>(line: &Line<B>, s: u32, me: B, opp: B, mv: B) -> B {
    let pro = opp & line.interior;
    closed_run(pro, me, mv, |set| set << s) | closed_run(pro, me, mv, |set| set >> s)
}

/// The run of `pro` from `mv` one way (`step`), if a disc of `me` closes it.
#[inline(always)]
fn closed_run<B: Bits>(pro: B, me: B, mv: B, step: impl Fn(B) -> B) -> B {
    let mut run = B::ZERO;
    let mut next = step(mv);
    while !(next & pro).is_empty() {
        run |= next;
        next = step(next);
    }
    if (next & me).is_empty() { B::ZERO } else { run }
}

/// [`Full::legal_moves`] on any board, compiled for this processor.
#[inline(always)]
fn full_moves<B: Bits>(geo: &Geometry<B>, me: B, opp: B) -> B {
    crate::cpu_entry_point!(detect cpu =>
        #[inline(never)]
        fn<B: Bits>(geo: &Geometry<B> = geo, me: B = me, opp: B = opp) -> B {
            full_moves_on(cpu, geo, me, opp)
        }
    )
}

/// [`Full::legal_moves`] on any board, for processor `cpu`: on AVX2 registers for 256-bit sets
/// where there are any, with the columns a constant otherwise.
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
fn full_moves_on<B: Bits, C: Cpu>(cpu: C, geo: &Geometry<B>, me: B, opp: B) -> B {
    #[cfg(target_arch = "x86_64")]
    if let (Some(v3), Some(wide)) = (cpu.x86_64_v3(), B::as_wide_geometry(geo)) {
        return B::from_wide(avx2::legal_moves(v3, wide, me.to_wide(), opp.to_wide()));
    }
    with_cols!(geo, COLS => full_moves_cols::<B, COLS>(geo, me, opp))
}

/// [`Full::legal_moves`] on a board of `C` columns.
#[inline(always)]
fn full_moves_cols<B: Bits, const C: u32>(geo: &Geometry<B>, me: B, opp: B) -> B {
    let [east, south, south_east, south_west] = &geo.lines;
    let moves = closing_cells(east, 1, me, opp)
        | closing_cells(south, C, me, opp)
        | closing_cells(south_east, C + 1, me, opp)
        | closing_cells(south_west, C - 1, me, opp);
    moves & geo.board & !(me | opp)
}

/// [`Full::flips_at_empty`] on any board, compiled for this processor.
#[inline(always)]
fn full_flips<B: Bits>(geo: &Geometry<B>, me: B, opp: B, mv: B) -> B {
    crate::cpu_entry_point!(detect cpu =>
        #[inline(never)]
        fn<B: Bits>(geo: &Geometry<B> = geo, me: B = me, opp: B = opp, mv: B = mv) -> B {
            full_flips_on(cpu, geo, me, opp, mv)
        }
    )
}

/// [`Full::flips_at_empty`] on any board, for processor `cpu`, as [`full_moves_on`].
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
fn full_flips_on<B: Bits, C: Cpu>(cpu: C, geo: &Geometry<B>, me: B, opp: B, mv: B) -> B {
    #[cfg(target_arch = "x86_64")]
    if let (Some(v3), Some(wide)) = (cpu.x86_64_v3(), B::as_wide_geometry(geo)) {
        let flips = avx2::flips(v3, wide, me.to_wide(), opp.to_wide(), mv.to_wide());
        return B::from_wide(flips);
    }
    with_cols!(geo, COLS => full_flips_cols::<B, COLS>(geo, me, opp, mv))
}

/// [`Full::flips_at_empty`] on a board of `C` columns.
#[inline(always)]
fn full_flips_cols<B: Bits, const C: u32>(geo: &Geometry<B>, me: B, opp: B, mv: B) -> B {
    let [east, south, south_east, south_west] = &geo.lines;
    closed_runs(east, 1, me, opp, mv)
        | closed_runs(south, C, me, opp, mv)
        | closed_runs(south_east, C + 1, me, opp, mv)
        | closed_runs(south_west, C - 1, me, opp, mv)
}

impl Rules for Simple {
    const RULE_SET: RuleSet = RuleSet::Simple;

    #[inline]
    fn legal_moves<B: Bits>(geo: &Geometry<B>, me: B, opp: B) -> B {
        geo.dilate(opp) & geo.board & !(me | opp)
    }

    #[inline]
    fn flips<B: Bits>(geo: &Geometry<B>, me: B, opp: B, mv: B) -> B {
        if !is_empty_cell(geo, me, opp, mv) {
            return B::ZERO;
        }
        Self::flips_at_empty(geo, me, opp, mv)
    }

    #[inline]
    fn flips_at_empty<B: Bits>(geo: &Geometry<B>, _me: B, opp: B, mv: B) -> B {
        geo.dilate(mv) & opp
    }
}

/// A rule set chosen at run time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// [`Full`]: standard Othello.
    #[default]
    Full,
    /// [`Simple`]: flip the neighbours.
    Simple,
}

impl RuleSet {
    /// Both rule sets.
    pub const ALL: [RuleSet; 2] = [RuleSet::Full, RuleSet::Simple];

    /// The protocol's name for it: `FULL` or `SIMPLE`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Full => "FULL",
            RuleSet::Simple => "SIMPLE",
        }
    }

    /// [`Rules::legal_moves`] of this rule set.
    #[must_use]
    pub fn legal_moves<B: Bits>(self, geo: &Geometry<B>, me: B, opp: B) -> B {
        match self {
            RuleSet::Full => Full::legal_moves(geo, me, opp),
            RuleSet::Simple => Simple::legal_moves(geo, me, opp),
        }
    }

    /// [`Rules::flips`] of this rule set.
    #[must_use]
    pub fn flips<B: Bits>(self, geo: &Geometry<B>, me: B, opp: B, mv: B) -> B {
        match self {
            RuleSet::Full => Full::flips(geo, me, opp, mv),
            RuleSet::Simple => Simple::flips(geo, me, opp, mv),
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A string that names no rule set.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("expected a rule set, full or simple, found {found:?}")]
pub struct ParseRuleSetError {
    /// The text that was not understood.
    pub found: String,
}

impl FromStr for RuleSet {
    type Err = ParseRuleSetError;

    /// Accepts `full` and `simple` in any case.
    fn from_str(text: &str) -> Result<RuleSet, ParseRuleSetError> {
        match text.to_ascii_lowercase().as_str() {
            "full" => Ok(RuleSet::Full),
            "simple" => Ok(RuleSet::Simple),
            _ => Err(ParseRuleSetError {
                found: text.to_owned(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::U256;
    use crate::cpu::Portable;
    use crate::square::Dimensions;

    /// splitmix64: a few random words without a dependency.
    fn next(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// The portable kernels, which the processor running the tests may not use, against the
    /// dispatched ones (checked against the reference model in the integration tests).
    fn portable_matches_dispatched<B: Bits>(rows: usize, cols: usize) {
        let dims = Dimensions::new(rows, cols).unwrap();
        let Some(geo) = Geometry::<B>::new(dims) else {
            return;
        };
        let mut state = (rows * 100 + cols) as u64;
        for round in 0..200 {
            let (mut me, mut opp) = (B::ZERO, B::ZERO);
            let empty_share = round % 10;
            for index in 0..dims.cells() as u32 {
                let roll = next(&mut state) % 10;
                if roll >= empty_share {
                    if next(&mut state).is_multiple_of(3) {
                        me |= B::single(index);
                    } else {
                        opp |= B::single(index);
                    }
                }
            }
            let moves = full_moves_on(Portable, &geo, me, opp);
            assert_eq!(moves, Full::legal_moves(&geo, me, opp), "{dims} moves");
            let empty = geo.board & !(me | opp);
            for index in empty.members() {
                let mv = B::single(index);
                let flips = full_flips_on(Portable, &geo, me, opp, mv);
                assert_eq!(
                    flips,
                    Full::flips(&geo, me, opp, mv),
                    "{dims} flips {index}"
                );
            }
        }
    }

    #[test]
    fn flips_of_no_cell_or_a_cell_off_the_board_are_empty() {
        let geo = Geometry::<U256>::new(Dimensions::STANDARD).unwrap();
        let board = crate::board::Board::standard(Dimensions::STANDARD);
        let (me, opp) = (
            board.discs(crate::Color::Black),
            board.discs(crate::Color::White),
        );
        for rules in RuleSet::ALL {
            assert!(rules.flips(&geo, me, opp, U256::ZERO).is_empty());
            assert!(rules.flips(&geo, me, opp, U256::single(100)).is_empty());
            assert_eq!(rules.flips(&geo, me, opp, U256::single(19)).count(), 1);
        }
    }

    #[test]
    fn portable_kernels_match_the_dispatched_ones() {
        for (rows, cols) in [(4, 4), (4, 16), (16, 4), (6, 10), (8, 8), (10, 10), (8, 16)] {
            portable_matches_dispatched::<u64>(rows, cols);
            portable_matches_dispatched::<u128>(rows, cols);
            portable_matches_dispatched::<U256>(rows, cols);
        }
        for (rows, cols) in [(12, 14), (16, 12), (16, 16)] {
            portable_matches_dispatched::<U256>(rows, cols);
        }
    }
}
