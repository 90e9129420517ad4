//! The weights of every phase and the evaluation they give: from the board, or from the
//! pattern indexes kept up to date move by move ([`Features`]).

use othello::cpu::Cpu;

use super::layout::{LANES, PHASES, PatternLayout, phase};

/// The base-3 index of every pattern of a position, as the mover reads it (digit 1 the mover's
/// disc, 2 the opponent's) and as the opponent does: what the evaluation looks up, kept up to
/// date move by move ([`Weights::features_after`]) instead of read from the board at each
/// evaluation. Lanes past the last pattern stay 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Features {
    mover: [u16; LANES],
    opponent: [u16; LANES],
}

impl Features {
    /// No patterns (for the boards without them).
    pub(crate) const NONE: Features = Features {
        mover: [0; LANES],
        opponent: [0; LANES],
    };

    /// The same position with the other side to move.
    #[inline(always)]
    #[must_use]
    pub(crate) fn passed(&self) -> Features {
        Features {
            mover: self.opponent,
            opponent: self.mover,
        }
    }
}

/// The cells of `set` under `mask`, packed into the low bits in the order of the cells.
#[inline(always)]
fn gather<C: Cpu>(cpu: C, set: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if cpu.x86_64_v3().is_some() {
        // SAFETY: the marker is an `X86_64V3`, made only on a processor with BMI2.
        return unsafe { std::arch::x86_64::_pext_u64(set, mask) };
    }
    let _ = cpu;
    let (mut packed, mut bit, mut mask) = (0, 1, mask);
    while mask != 0 {
        if set & mask & mask.wrapping_neg() != 0 {
            packed |= bit;
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    packed
}

/// The weights of every phase, in hundredths of a disc, with the layout they are read by.
#[derive(Clone, Debug)]
pub struct Weights {
    layout: PatternLayout,
    /// [`PHASES`] tables of `layout.stride` weights.
    values: Vec<i16>,
}

impl Weights {
    /// Weights of `values` ([`PHASES`] tables of the layout's stride, in hundredths of a disc).
    ///
    /// # Panics
    /// If `values` has not that length.
    #[must_use]
    pub fn new(layout: PatternLayout, values: Vec<i16>) -> Weights {
        assert_eq!(values.len(), PHASES * layout.stride);
        Weights { layout, values }
    }

    /// The layout.
    #[must_use]
    pub fn layout(&self) -> &PatternLayout {
        &self.layout
    }

    /// Every phase's table, one after another.
    #[must_use]
    pub fn values(&self) -> &[i16] {
        &self.values
    }

    /// The score of a position for the mover, in hundredths of a disc: `me` and `opp` are the
    /// mover's and the opponent's discs (bit `8 * row + column`), `my_moves` and `their_moves`
    /// their numbers of legal moves.
    #[inline(always)]
    pub(crate) fn evaluate<C: Cpu>(
        &self,
        cpu: C,
        me: u64,
        opp: u64,
        my_moves: u32,
        their_moves: u32,
    ) -> i32 {
        let features = self.features(cpu, me, opp);
        self.evaluate_features(
            cpu,
            &features,
            64 - (me | opp).count_ones(),
            my_moves,
            their_moves,
        )
    }

    /// The features of a position, read from the board.
    #[inline(always)]
    pub(crate) fn features<C: Cpu>(&self, cpu: C, me: u64, opp: u64) -> Features {
        let ternary = &self.layout.ternary;
        let mut features = Features::NONE;
        for (lane, probe) in self.layout.probes.iter().enumerate() {
            let at = probe.ternary as usize;
            let mine = ternary[at + gather(cpu, me, probe.mask) as usize];
            let theirs = ternary[at + gather(cpu, opp, probe.mask) as usize];
            features.mover[lane] = mine + 2 * theirs;
            features.opponent[lane] = theirs + 2 * mine;
        }
        features
    }

    /// The features after the mover of a position whose features are `before` puts a disc on
    /// the empty cell `square` and turns the discs `flipped`, with the opponent to move then.
    #[inline(always)]
    pub(crate) fn features_after(&self, before: &Features, square: u32, flipped: u64) -> Features {
        let digits = &self.layout.digits;
        // Each flipped disc goes from the opponent's (2 for the mover, 1 for the opponent) to
        // the mover's; the new disc adds 1 for the mover, 2 for the opponent.
        let mut turned = [0u16; LANES];
        let mut rest = flipped;
        while rest != 0 {
            let cell = &digits[rest.trailing_zeros() as usize & 63];
            for (sum, digit) in turned.iter_mut().zip(cell) {
                *sum = sum.wrapping_add(*digit);
            }
            rest &= rest - 1;
        }
        let placed = &digits[square as usize & 63];
        let mut after = Features::NONE;
        for lane in 0..LANES {
            after.mover[lane] = before.opponent[lane]
                .wrapping_add(turned[lane])
                .wrapping_add(2 * placed[lane]);
            after.opponent[lane] = before.mover[lane]
                .wrapping_sub(turned[lane])
                .wrapping_add(placed[lane]);
        }
        after
    }

    /// [`Weights::evaluate`] of the position whose features are `features`, with `empties`
    /// empty cells.
    #[inline(always)]
    pub(crate) fn evaluate_features<C: Cpu>(
        &self,
        cpu: C,
        features: &Features,
        empties: u32,
        my_moves: u32,
        their_moves: u32,
    ) -> i32 {
        let table = self.table(empties);
        let rest = self.moves_and_constant(table, my_moves, their_moves);
        #[cfg(target_arch = "x86_64")]
        if let Some(v3) = cpu.x86_64_v3() {
            return rest + gathered_sum(v3, &self.layout, table, &features.mover);
        }
        let _ = cpu;
        let patterns = self.layout.probes.iter().zip(&features.mover);
        rest + patterns
            .map(|(probe, &index)| i32::from(table[probe.offset as usize + usize::from(index)]))
            .sum::<i32>()
    }

    /// The weights of the phase of the positions with `empties` empty cells.
    #[inline(always)]
    fn table(&self, empties: u32) -> &[i16] {
        let start = phase(empties) * self.layout.stride;
        &self.values[start..start + self.layout.stride]
    }

    /// The constant and the two move counts' weights of `table`.
    #[inline(always)]
    fn moves_and_constant(&self, table: &[i16], my_moves: u32, their_moves: u32) -> i32 {
        i32::from(table[self.layout.stride - 1])
            + i32::from(table[self.layout.mobility_index(my_moves, false)])
            + i32::from(table[self.layout.mobility_index(their_moves, true)])
    }

    /// The score of a position as the search computes it, read cell by cell (the reference of
    /// the tests), with the move counts computed here.
    #[must_use]
    pub fn evaluate_slowly(&self, me: u64, opp: u64) -> i32 {
        let empties = 64 - (me | opp).count_ones();
        let table = &self.values[phase(empties) * self.layout.stride..];
        let constant = i32::from(table[self.layout.stride - 1]);
        self.layout
            .indexes(me, opp)
            .iter()
            .map(|&index| i32::from(table[index as usize]))
            .sum::<i32>()
            + constant
    }
}

/// The sum of the weights of `table` (a phase's) that the pattern indexes `indexes` select:
/// `table[lane_offsets[lane] + indexes[lane]]` over the lanes that have a pattern, eight lanes
/// at a time by AVX2 gathers.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn gathered_sum(
    _v3: othello::cpu::X86_64V3,
    layout: &PatternLayout,
    table: &[i16],
    indexes: &[u16; LANES],
) -> i32 {
    use std::arch::x86_64::{
        _mm_add_epi32, _mm_cvtsi128_si32, _mm_loadu_si128, _mm_shuffle_epi32, _mm256_add_epi32,
        _mm256_castsi256_si128, _mm256_cvtepu16_epi32, _mm256_extracti128_si256,
        _mm256_loadu_si256, _mm256_mask_i32gather_epi32, _mm256_setzero_si256, _mm256_slli_epi32,
        _mm256_srai_epi32,
    };
    // Every lane with a pattern reads 4 bytes at its weight: the weight and the one after it,
    // which exists (each class's table is followed by the move counts' weights and the
    // constant). The index of a lane is below 3 to the power of its pattern's cells (each
    // digit 0, 1 or 2, kept so by `features_after`), so the read stays inside the phase.
    debug_assert!(
        layout
            .probes
            .iter()
            .zip(indexes)
            .all(|(probe, &index)| (probe.offset as usize + usize::from(index)) < layout.mobility)
    );
    debug_assert_eq!(table.len(), layout.stride);
    #[allow(
        clippy::cast_ptr_alignment,
        reason = "a gather reads unaligned addresses"
    )]
    let base = table.as_ptr().cast::<i32>();
    // SAFETY: the marker proves AVX2 (the caller's copy is compiled for x86-64-v3); the loads
    // are unaligned reads of 8 lanes inside arrays of `LANES` (a multiple of 8); the gathers
    // read only the lanes with a pattern, inside `table` (above).
    unsafe {
        let mut sum = _mm256_setzero_si256();
        for chunk in (0..LANES).step_by(8) {
            let index = _mm256_cvtepu16_epi32(_mm_loadu_si128(indexes.as_ptr().add(chunk).cast()));
            let offset = _mm256_loadu_si256(layout.lane_offsets.as_ptr().add(chunk).cast());
            let used = _mm256_loadu_si256(layout.lane_used.as_ptr().add(chunk).cast());
            let at = _mm256_add_epi32(index, offset);
            let pairs = _mm256_mask_i32gather_epi32::<2>(_mm256_setzero_si256(), base, at, used);
            // The low half of each 4 bytes read is the weight: sign-extended.
            sum = _mm256_add_epi32(sum, _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(pairs)));
        }
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
        let eighth = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter));
        _mm_cvtsi128_si32(eighth)
    }
}
