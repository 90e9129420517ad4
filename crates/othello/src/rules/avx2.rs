//! The generic FULL move generator on 256-bit sets held in one AVX2 register, for boards of more
//! than 128 cells on processors that have AVX2 (the caller checks).
//!
//! Scalar code needs four registers per 256-bit set and runs out of them; here each set is one
//! `__m256i`, a bit operation one instruction and a shift five. The algorithms are those of the
//! portable code in [`super`].
//!
//! Every function here runs AVX2 instructions: they are reached only through the two entry
//! points at the end, which take the [`X86_64V3`] marker as the proof that the processor has
//! AVX2, and are meant to be inlined into code compiled for it (the x86-64-v3 copy of an entry
//! point, see [`crate::cpu`]).

use std::arch::x86_64::{
    __m256i, _mm_cvtsi32_si128, _mm256_and_si256, _mm256_andnot_si256, _mm256_blend_epi32,
    _mm256_loadu_si256, _mm256_or_si256, _mm256_permute2x128_si256, _mm256_permute4x64_epi64,
    _mm256_setzero_si256, _mm256_sll_epi64, _mm256_srl_epi64, _mm256_storeu_si256,
    _mm256_testz_si256,
};

use crate::bitboard::{Geometry, Line, U256};
use crate::cpu::X86_64V3;

/// A 256-bit set in a register.
#[derive(Clone, Copy)]
struct Y(__m256i);

impl Y {
    #[inline(always)]
    fn load(set: U256) -> Y {
        // SAFETY: an unaligned load from a [u64; 4]; AVX is available (module contract).
        Y(unsafe { _mm256_loadu_si256(set.0.as_ptr().cast()) })
    }

    #[inline(always)]
    fn store(self) -> U256 {
        let mut words = [0u64; 4];
        // SAFETY: an unaligned store into a [u64; 4].
        unsafe { _mm256_storeu_si256(words.as_mut_ptr().cast(), self.0) };
        U256(words)
    }

    #[inline(always)]
    fn zero() -> Y {
        // SAFETY: AVX is available (module contract).
        Y(unsafe { _mm256_setzero_si256() })
    }

    #[inline(always)]
    fn and(self, other: Y) -> Y {
        // SAFETY: AVX2 is available (module contract).
        Y(unsafe { _mm256_and_si256(self.0, other.0) })
    }

    #[inline(always)]
    fn or(self, other: Y) -> Y {
        // SAFETY: as above.
        Y(unsafe { _mm256_or_si256(self.0, other.0) })
    }

    /// `self & !other`.
    #[inline(always)]
    fn and_not(self, other: Y) -> Y {
        // SAFETY: as above.
        Y(unsafe { _mm256_andnot_si256(other.0, self.0) })
    }

    #[inline(always)]
    fn is_empty(self) -> bool {
        // SAFETY: as above.
        unsafe { _mm256_testz_si256(self.0, self.0) != 0 }
    }

    /// Words moved `k` places towards higher indices (`UP`) or lower ones, zeros shifted in.
    #[inline(always)]
    fn words<const UP: bool>(self, k: u32) -> Y {
        let x = self.0;
        // SAFETY: AVX2 is available (module contract).
        unsafe {
            let zero = _mm256_setzero_si256();
            Y(match (UP, k) {
                (_, 0) => x,
                (true, 1) => _mm256_blend_epi32::<0b0000_0011>(
                    _mm256_permute4x64_epi64::<0b10_01_00_11>(x),
                    zero,
                ),
                (true, 2) => _mm256_permute2x128_si256::<0x08>(x, x),
                (true, 3) => _mm256_blend_epi32::<0b0011_1111>(
                    _mm256_permute4x64_epi64::<0b00_00_00_00>(x),
                    zero,
                ),
                (false, 1) => _mm256_blend_epi32::<0b1100_0000>(
                    _mm256_permute4x64_epi64::<0b00_11_10_01>(x),
                    zero,
                ),
                (false, 2) => _mm256_permute2x128_si256::<0x81>(x, x),
                (false, 3) => _mm256_blend_epi32::<0b1111_1100>(
                    _mm256_permute4x64_epi64::<0b00_00_00_11>(x),
                    zero,
                ),
                _ => zero,
            })
        }
    }

    /// Shifted by `n < 256` bits towards higher indices (`UP`) or lower ones.
    #[inline(always)]
    fn shift<const UP: bool>(self, n: u32) -> Y {
        let (k, bits) = (n / 64, n % 64);
        let moved = self.words::<UP>(k);
        if bits == 0 {
            return moved;
        }
        let spill = self.words::<UP>(k + 1);
        // SAFETY: AVX2 is available (module contract).
        unsafe {
            let near = _mm_cvtsi32_si128(bits as i32);
            let far = _mm_cvtsi32_si128(64 - bits as i32);
            if UP {
                Y(_mm256_or_si256(
                    _mm256_sll_epi64(moved.0, near),
                    _mm256_srl_epi64(spill.0, far),
                ))
            } else {
                Y(_mm256_or_si256(
                    _mm256_srl_epi64(moved.0, near),
                    _mm256_sll_epi64(spill.0, far),
                ))
            }
        }
    }
}

/// A line direction: its step in bits, and whether bits that a shift carries from one word to
/// the next can be dropped.
///
/// They can on the sideways line (step 1) when rows do not straddle words (the column count
/// divides 64): a bit carried across a word boundary then crosses a row end too, and lands in
/// the first or last column, which the line's interior mask removes from every run.
#[derive(Clone, Copy)]
struct Step {
    bits: u32,
    within_words: bool,
}

impl Y {
    /// One use of a line's shift (`times` steps at once).
    #[inline(always)]
    fn step<const UP: bool>(self, step: Step, times: u32) -> Y {
        let n = step.bits * times;
        if step.within_words && n < 64 {
            // SAFETY: AVX2 is available (module contract).
            unsafe {
                let count = _mm_cvtsi32_si128(n as i32);
                Y(if UP {
                    _mm256_sll_epi64(self.0, count)
                } else {
                    _mm256_srl_epi64(self.0, count)
                })
            }
        } else {
            self.shift::<UP>(n)
        }
    }
}

/// Occluded fill, as `super::fill`.
#[inline(always)]
fn fill<const UP: bool>(grow: Y, pro: Y, s: Step, steps: u32) -> Y {
    let mut grow = grow.or(pro.and(grow.step::<UP>(s, 1)));
    if steps > 1 {
        let pro = pro.and(pro.step::<UP>(s, 1));
        grow = grow.or(pro.and(grow.step::<UP>(s, 2)));
        if steps > 2 {
            let pro = pro.and(pro.step::<UP>(s, 2));
            grow = grow.or(pro.and(grow.step::<UP>(s, 4)));
            if steps > 3 && 8 * s.bits < 256 {
                let pro = pro.and(pro.step::<UP>(s, 4));
                grow = grow.or(pro.and(grow.step::<UP>(s, 8)));
            }
        }
    }
    grow
}

#[inline(always)]
fn closing_cells(line: &Line<U256>, s: Step, me: Y, opp: Y) -> Y {
    let pro = opp.and(Y::load(line.interior));
    let up = fill::<true>(me, pro, s, line.fill_steps).and(pro);
    let down = fill::<false>(me, pro, s, line.fill_steps).and(pro);
    up.step::<true>(s, 1).or(down.step::<false>(s, 1))
}

#[inline(always)]
fn closed_run<const UP: bool>(pro: Y, me: Y, mv: Y, s: Step) -> Y {
    let mut run = Y::zero();
    let mut next = mv.step::<UP>(s, 1);
    while !next.and(pro).is_empty() {
        run = run.or(next);
        next = next.step::<UP>(s, 1);
    }
    if next.and(me).is_empty() {
        Y::zero()
    } else {
        run
    }
}

#[inline(always)]
fn closed_runs(line: &Line<U256>, s: Step, me: Y, opp: Y, mv: Y) -> Y {
    let pro = opp.and(Y::load(line.interior));
    closed_run::<true>(pro, me, mv, s).or(closed_run::<false>(pro, me, mv, s))
}

/// The four line directions of a board of `C` columns: E, S, SE, SW.
#[inline(always)]
fn steps<const C: u32>() -> [Step; 4] {
    let across = |bits| Step {
        bits,
        within_words: false,
    };
    [
        Step {
            bits: 1,
            within_words: 64 % C == 0,
        },
        across(C),
        across(C + 1),
        across(C - 1),
    ]
}

#[inline(always)]
fn moves_cols<const C: u32>(geo: &Geometry<U256>, me: U256, opp: U256) -> U256 {
    let (me, opp) = (Y::load(me), Y::load(opp));
    let [east, south, south_east, south_west] = &geo.lines;
    let [e, s, se, sw] = steps::<C>();
    let moves = closing_cells(east, e, me, opp)
        .or(closing_cells(south, s, me, opp))
        .or(closing_cells(south_east, se, me, opp))
        .or(closing_cells(south_west, sw, me, opp));
    moves.and(Y::load(geo.board)).and_not(me.or(opp)).store()
}

#[inline(always)]
fn flips_cols<const C: u32>(geo: &Geometry<U256>, me: U256, opp: U256, mv: U256) -> U256 {
    let (me, opp, mv) = (Y::load(me), Y::load(opp), Y::load(mv));
    let [east, south, south_east, south_west] = &geo.lines;
    let [e, s, se, sw] = steps::<C>();
    closed_runs(east, e, me, opp, mv)
        .or(closed_runs(south, s, me, opp, mv))
        .or(closed_runs(south_east, se, me, opp, mv))
        .or(closed_runs(south_west, sw, me, opp, mv))
        .store()
}

/// [`super::Full::legal_moves`] on a processor with AVX2 (`_avx2` proves it).
#[inline(always)]
pub(super) fn legal_moves(_avx2: X86_64V3, geo: &Geometry<U256>, me: U256, opp: U256) -> U256 {
    with_cols!(geo, COLS => moves_cols::<COLS>(geo, me, opp))
}

/// [`super::Full::flips_at_empty`] on a processor with AVX2 (`_avx2` proves it).
#[inline(always)]
pub(super) fn flips(_avx2: X86_64V3, geo: &Geometry<U256>, me: U256, opp: U256, mv: U256) -> U256 {
    with_cols!(geo, COLS => flips_cols::<COLS>(geo, me, opp, mv))
}
