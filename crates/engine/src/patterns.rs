//! The pattern evaluation of 8x8 Othello (FULL rules, most discs wins), in the family of
//! Logistello and Edax: the board is cut into patterns (each corner's 3x3 block and its two
//! 2x5 blocks, each edge with its two X-squares, the rows and columns 2 to 4 and their
//! mirrors, the diagonals of length 4 to 8), each pattern's contents read as a base-3 number
//! (0 empty, 1 the mover's disc, 2 the opponent's), and the score is the sum of one weight per
//! pattern, one weight for the mover's number of legal moves and one for the opponent's, and a
//! constant, from the table of the position's phase (its number of empty squares).
//!
//! The patterns of one class are the images of one pattern under the board's 8 symmetries and
//! share one weight table, read in the order of that first pattern's cells; the weights of the
//! configurations that a symmetry of the pattern itself exchanges are equal, so the score of a
//! position equals that of its 8 images. A pattern's index is computed without a loop over its
//! cells: its cells are gathered from each bit set into a small number (`pext` on x86-64-v3,
//! a portable equivalent elsewhere), which a table of the pattern turns into its base-3 index.
//! The search reads them so only where a search starts: from there it keeps every index up to
//! date move by move (`Features`: the new disc and each turned one add or take a power of
//! three in the patterns through their cell), so that an evaluation is one table read per
//! pattern.
//!
//! The weights are fitted by `othello train fit` (see [`crate::train`]) and stored in a file
//! of [`Weights::to_bytes`]'s format; the engine's own file is compiled into the binary.

use std::sync::LazyLock;

use thiserror::Error;

use othello::Dimensions;
use othello::bitboard::Geometry;
use othello::cpu::Cpu;
use othello::{Full, Rules};

/// Move counts above this share the weight of this one.
pub const MOBILITY_MAX: u32 = 32;

/// Phases of the weight tables: [`phase`] of a position.
pub const PHASES: usize = 10;

/// The phase of a position with `empties` empty squares: 0 for 0-5 empties up to 9 for 54-60.
#[must_use]
pub fn phase(empties: u32) -> usize {
    (empties as usize / 6).min(PHASES - 1)
}

/// One class of patterns: the cells of its first pattern, in the order of the base-3 digits
/// (cell `8 * row + column`, a1 = 0, h1 = 7, a8 = 56).
#[derive(Clone, Copy, Debug)]
pub struct Class {
    /// Its name.
    pub name: &'static str,
    /// The first pattern's cells, lowest digit first.
    pub cells: &'static [u8],
}

/// The pattern classes.
pub const CLASSES: [Class; 11] = [
    Class {
        name: "corner 3x3",
        cells: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
    },
    Class {
        name: "corner 2x5",
        cells: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
    },
    Class {
        name: "edge and X-squares",
        cells: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
    },
    Class {
        name: "row 2",
        cells: &[8, 9, 10, 11, 12, 13, 14, 15],
    },
    Class {
        name: "row 3",
        cells: &[16, 17, 18, 19, 20, 21, 22, 23],
    },
    Class {
        name: "row 4",
        cells: &[24, 25, 26, 27, 28, 29, 30, 31],
    },
    Class {
        name: "diagonal 8",
        cells: &[0, 9, 18, 27, 36, 45, 54, 63],
    },
    Class {
        name: "diagonal 7",
        cells: &[1, 10, 19, 28, 37, 46, 55],
    },
    Class {
        name: "diagonal 6",
        cells: &[2, 11, 20, 29, 38, 47],
    },
    Class {
        name: "diagonal 5",
        cells: &[3, 12, 21, 30, 39],
    },
    Class {
        name: "diagonal 4",
        cells: &[4, 13, 22, 31],
    },
];

/// The image of cell `cell` under symmetry `symmetry` (0 to 7) of the 8x8 board.
#[must_use]
pub fn symmetric_cell(symmetry: usize, cell: u8) -> u8 {
    let (row, col) = (cell / 8, cell % 8);
    let (row, col) = if symmetry & 4 != 0 {
        (col, row)
    } else {
        (row, col)
    };
    let row = if symmetry & 2 != 0 { 7 - row } else { row };
    let col = if symmetry & 1 != 0 { 7 - col } else { col };
    row * 8 + col
}

/// The image of a bit set under symmetry `symmetry` (0 to 7).
#[must_use]
pub fn symmetric_set(symmetry: usize, set: u64) -> u64 {
    (0..64u8)
        .filter(|&cell| set >> cell & 1 == 1)
        .fold(0, |image, cell| image | 1 << symmetric_cell(symmetry, cell))
}

fn power_of_three(digits: usize) -> usize {
    3usize.pow(digits as u32)
}

/// One pattern on the board: its cells in digit order, and where its class's table starts.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The class it belongs to (an index in [`CLASSES`]).
    pub class: usize,
    /// Its cells, lowest digit first.
    pub cells: Vec<u8>,
    /// Its cells as a bit set.
    pub mask: u64,
    /// Where its class's weights start in a phase's table.
    pub offset: usize,
}

/// The patterns of the board and how their weights are laid out: one table per class, one
/// after another, then the mover's move counts (0 to [`MOBILITY_MAX`]), the opponent's, and
/// the constant.
#[derive(Clone, Debug)]
pub struct PatternLayout {
    /// Every pattern of every class.
    pub instances: Vec<Instance>,
    /// Where each class's table starts.
    pub offsets: Vec<usize>,
    /// Where the weights of the mover's move counts start; the opponent's follow.
    pub mobility: usize,
    /// Weights of one phase: every class's table and the constant, the last one.
    pub stride: usize,
    /// For each weight, the weight it must equal (the smallest index among the configurations
    /// a symmetry of the pattern exchanges with it).
    pub canonical: Vec<u32>,
    /// For each pattern, the base-3 index of each value of its gathered bits.
    ternary: Vec<u16>,
    /// For each pattern, its cells, where its part of `ternary` starts and where its class's
    /// table starts: what the evaluation reads, in one place.
    probes: Vec<Probe>,
    /// For each cell, the value of one digit at that cell in each pattern's index (`3^k` for
    /// the pattern's `k`-th cell, 0 in the patterns without it): what a disc changes in
    /// [`Features`].
    digits: Vec<[u16; LANES]>,
}

/// What the evaluation reads of one pattern.
#[derive(Clone, Copy, Debug)]
struct Probe {
    /// Its cells.
    mask: u64,
    /// Where its part of [`PatternLayout::ternary`] starts.
    ternary: u32,
    /// Where its class's weights start in a phase's table.
    offset: u32,
}

/// Lanes of [`Features`]: at least the number of patterns, a multiple of 16 (three vectors of
/// 16-bit lanes on x86-64-v3).
const LANES: usize = 48;

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

impl PatternLayout {
    /// The layout of [`CLASSES`].
    #[must_use]
    pub fn new() -> PatternLayout {
        let mut instances = Vec::new();
        let mut offsets = Vec::new();
        let mut canonical: Vec<u32> = Vec::new();
        let mut offset = 0;
        for (class_index, class) in CLASSES.iter().enumerate() {
            offsets.push(offset);
            let size = power_of_three(class.cells.len());
            let base_mask = class.cells.iter().fold(0u64, |m, &c| m | 1 << c);
            // Symmetries that map the pattern onto itself, as permutations of its digits.
            let mut self_maps: Vec<Vec<usize>> = Vec::new();
            let mut seen: Vec<u64> = Vec::new();
            for symmetry in 0..8 {
                let cells: Vec<u8> = class
                    .cells
                    .iter()
                    .map(|&c| symmetric_cell(symmetry, c))
                    .collect();
                let mask = cells.iter().fold(0u64, |m, &c| m | 1 << c);
                if mask == base_mask {
                    let digits = cells
                        .iter()
                        .map(|c| class.cells.iter().position(|b| b == c).expect("same cells"))
                        .collect();
                    self_maps.push(digits);
                }
                if !seen.contains(&mask) {
                    seen.push(mask);
                    instances.push(Instance {
                        class: class_index,
                        cells,
                        mask,
                        offset,
                    });
                }
            }
            for index in 0..size {
                let digits = to_digits(index, class.cells.len());
                let smallest = self_maps
                    .iter()
                    .map(|map| {
                        let mut image = vec![0; digits.len()];
                        for (k, &digit) in digits.iter().enumerate() {
                            image[map[k]] = digit;
                        }
                        from_digits(&image)
                    })
                    .min()
                    .unwrap_or(index);
                canonical.push((offset + smallest) as u32);
            }
            offset += size;
        }
        let mobility = offset;
        let stride = mobility + 2 * (MOBILITY_MAX as usize + 1) + 1;
        canonical.extend(mobility as u32..stride as u32);
        assert!(instances.len() <= LANES, "every pattern has a lane");
        let mut ternary = Vec::new();
        let mut probes = Vec::new();
        let mut digits = vec![[0; LANES]; 64];
        for (lane, instance) in instances.iter().enumerate() {
            probes.push(Probe {
                mask: instance.mask,
                ternary: ternary.len() as u32,
                offset: instance.offset as u32,
            });
            for (k, &cell) in instance.cells.iter().enumerate() {
                digits[usize::from(cell)][lane] = power_of_three(k) as u16;
            }
            let mut ascending = instance.cells.clone();
            ascending.sort_unstable();
            for gathered in 0..1usize << instance.cells.len() {
                let index: usize = instance
                    .cells
                    .iter()
                    .enumerate()
                    .map(|(k, cell)| {
                        let rank = ascending.iter().position(|c| c == cell).expect("a cell");
                        (gathered >> rank & 1) * power_of_three(k)
                    })
                    .sum();
                ternary.push(index as u16);
            }
        }
        PatternLayout {
            instances,
            offsets,
            mobility,
            stride,
            canonical,
            ternary,
            probes,
            digits,
        }
    }

    /// The weight indexes (within a phase's table) of a position, its patterns read cell by
    /// cell, then its two move counts: the reference the fast evaluation is tested against,
    /// and what the fit uses.
    #[must_use]
    pub fn indexes(&self, me: u64, opp: u64) -> Vec<u32> {
        let geo = Geometry::<u64>::new(Dimensions::STANDARD).expect("8x8 fits 64 bits");
        let my_moves = Full::legal_moves(&geo, me, opp).count_ones();
        let their_moves = Full::legal_moves(&geo, opp, me).count_ones();
        let mut indexes: Vec<u32> = self
            .instances
            .iter()
            .map(|instance| {
                let index: usize = instance
                    .cells
                    .iter()
                    .enumerate()
                    .map(|(k, &cell)| {
                        let digit = if me >> cell & 1 == 1 {
                            1
                        } else if opp >> cell & 1 == 1 {
                            2
                        } else {
                            0
                        };
                        digit * power_of_three(k)
                    })
                    .sum();
                (instance.offset + index) as u32
            })
            .collect();
        indexes.push(self.mobility_index(my_moves, false) as u32);
        indexes.push(self.mobility_index(their_moves, true) as u32);
        indexes
    }

    /// The index of the weight of `moves` legal moves for the mover (or the opponent).
    #[inline(always)]
    fn mobility_index(&self, moves: u32, opponent: bool) -> usize {
        let slot = moves.min(MOBILITY_MAX) as usize;
        self.mobility + slot + usize::from(opponent) * (MOBILITY_MAX as usize + 1)
    }
}

impl Default for PatternLayout {
    fn default() -> PatternLayout {
        PatternLayout::new()
    }
}

fn to_digits(mut index: usize, len: usize) -> Vec<usize> {
    (0..len)
        .map(|_| {
            let digit = index % 3;
            index /= 3;
            digit
        })
        .collect()
}

fn from_digits(digits: &[usize]) -> usize {
    digits
        .iter()
        .rev()
        .fold(0, |index, &digit| index * 3 + digit)
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

/// A weights file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum WeightsError {
    /// The file does not start as a weights file does.
    #[error("not an othello weights file (starts with \"{found}\")")]
    Magic {
        /// The file's first bytes (up to the length of [`MAGIC`]), escaped as printable ASCII.
        found: String,
    },
    /// The file is larger than any weights file.
    #[error("larger than a weights file can be ({MAX_FILE_BYTES} bytes)")]
    TooLarge,
    /// The file ends too early, or its data does not add up to the tables' size.
    #[error("the weights file is cut short or malformed: {0}")]
    Malformed(&'static str),
    /// The tables are not the size of this program's patterns.
    #[error("the weights file has {found} weights per phase, {expected} expected")]
    Size {
        /// Weights per phase in the file.
        found: usize,
        /// Weights per phase of the patterns.
        expected: usize,
    },
    /// The checksum at the end does not match the contents.
    #[error("the weights file is corrupted (checksum {found:016x}, expected {expected:016x})")]
    Checksum {
        /// The checksum of the contents.
        found: u64,
        /// The checksum written at the end.
        expected: u64,
    },
}

/// The first bytes of a weights file.
pub const MAGIC: &[u8; 8] = b"OTHPAT01";

/// No weights file is larger: a reader reads at most one byte more than this. (Every weight
/// takes at most 3 bytes in the file, see [`Weights::to_bytes`]; the tests check the bound.)
pub const MAX_FILE_BYTES: usize = 8 << 20;

/// A run of zeros, in the file: this value, then the run's length as a `u16`.
const ZERO_RUN: i16 = i16::MIN;

/// FNV-1a, 64 bits.
#[must_use]
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
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

    /// The file form: [`MAGIC`], the phases and the weights per phase (`u32` each, little
    /// endian), the weights as `i16` with every run of zeros written as `i16::MIN` and the
    /// run's length (`u16`), then the FNV-1a checksum of everything before it (`u64`).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&(PHASES as u32).to_le_bytes());
        bytes.extend_from_slice(&(self.layout.stride as u32).to_le_bytes());
        let mut i = 0;
        while i < self.values.len() {
            let value = self.values[i];
            if value == 0 {
                let run = self.values[i..]
                    .iter()
                    .take(usize::from(u16::MAX))
                    .take_while(|&&v| v == 0)
                    .count();
                bytes.extend_from_slice(&ZERO_RUN.to_le_bytes());
                bytes.extend_from_slice(&(run as u16).to_le_bytes());
                i += run;
            } else {
                bytes.extend_from_slice(&value.max(ZERO_RUN + 1).to_le_bytes());
                i += 1;
            }
        }
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    }

    /// The weights of a file of [`Weights::to_bytes`]'s form.
    ///
    /// # Errors
    /// A [`WeightsError`] saying what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        if !bytes.starts_with(MAGIC) {
            let start = &bytes[..bytes.len().min(MAGIC.len())];
            return Err(WeightsError::Magic {
                found: start.escape_ascii().to_string(),
            });
        }
        if bytes.len() > MAX_FILE_BYTES {
            return Err(WeightsError::TooLarge);
        }
        if bytes.len() < MAGIC.len() + 16 {
            return Err(WeightsError::Malformed("no header"));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let expected = u64::from_le_bytes(sum.try_into().expect("8 bytes"));
        let found = checksum(body);
        if found != expected {
            return Err(WeightsError::Checksum { found, expected });
        }
        let word =
            |at: usize| u32::from_le_bytes(body[at..at + 4].try_into().expect("4 bytes")) as usize;
        let layout = PatternLayout::new();
        let (phases, stride) = (word(8), word(12));
        if phases != PHASES || stride != layout.stride {
            return Err(WeightsError::Size {
                found: stride,
                expected: layout.stride,
            });
        }
        let total = phases * stride;
        let mut values = Vec::with_capacity(total);
        let mut pairs = body[16..].chunks_exact(2).map(|pair| [pair[0], pair[1]]);
        if body.len() % 2 != 0 {
            return Err(WeightsError::Malformed("an odd number of bytes"));
        }
        while let Some(pair) = pairs.next() {
            let value = i16::from_le_bytes(pair);
            if value == ZERO_RUN {
                let run = pairs
                    .next()
                    .ok_or(WeightsError::Malformed("a run of zeros without its length"))?;
                values.extend(std::iter::repeat_n(0, usize::from(u16::from_le_bytes(run))));
            } else {
                values.push(value);
            }
            if values.len() > total {
                return Err(WeightsError::Malformed("more weights than the tables hold"));
            }
        }
        if values.len() != total {
            return Err(WeightsError::Malformed(
                "fewer weights than the tables hold",
            ));
        }
        Ok(Weights { layout, values })
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
    pub(crate) fn evaluate_features(
        &self,
        features: &Features,
        empties: u32,
        my_moves: u32,
        their_moves: u32,
    ) -> i32 {
        let table = self.table(empties);
        let mut score = self.moves_and_constant(table, my_moves, their_moves);
        for (probe, &index) in self.layout.probes.iter().zip(&features.mover) {
            score += i32::from(table[probe.offset as usize + usize::from(index)]);
        }
        score
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

/// The engine's trained weights, compiled into the binary.
pub const TRAINED: &[u8] = include_bytes!("weights.bin");

/// The checksum ([`checksum`]) of [`TRAINED`], as `othello train fit` printed it.
pub const TRAINED_CHECKSUM: u64 = 0xeec6_5351_128c_15a4;

/// The engine's trained weights, read once.
pub(crate) static WEIGHTS: LazyLock<Weights> = LazyLock::new(|| {
    Weights::from_bytes(TRAINED).expect("the compiled-in weights file is checked by the tests")
});

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use othello::cpu::Portable;

    const STRIDE: usize = 167_332;

    /// One of the cells of `moves` (not empty), picked by the xorshift generator `state`.
    fn random_move(state: &mut u64, moves: u64) -> u32 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        let pick = (*state % u64::from(moves.count_ones())) as usize;
        (0..64)
            .filter(|c| moves >> c & 1 == 1)
            .nth(pick)
            .expect("a move")
    }

    /// Positions of pseudo-random games, a few at every number of empties.
    pub(crate) fn positions() -> Vec<(u64, u64)> {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut found = Vec::new();
        let geo = Geometry::<u64>::new(Dimensions::STANDARD).expect("8x8 fits");
        for _ in 0..12 {
            let (mut me, mut opp) = (0x0000_0008_1000_0000_u64, 0x0000_0010_0800_0000_u64);
            loop {
                let mut moves = Full::legal_moves(&geo, me, opp);
                if moves == 0 {
                    (me, opp) = (opp, me);
                    moves = Full::legal_moves(&geo, me, opp);
                    if moves == 0 {
                        break;
                    }
                }
                found.push((me, opp));
                let cell = random_move(&mut state, moves);
                let flipped = Full::flips_at_empty(&geo, me, opp, 1 << cell);
                (me, opp) = (opp & !flipped, me | flipped | 1 << cell);
            }
        }
        found
    }

    #[test]
    fn the_compiled_in_weights_load_with_their_size_and_checksum() {
        let weights = Weights::from_bytes(TRAINED).unwrap();
        assert_eq!(weights.values().len(), PHASES * STRIDE);
        assert_eq!(weights.layout().instances.len(), 46);
        assert_eq!(weights.layout().stride, 167_265 + 2 * 33 + 1);
        assert_eq!(checksum(TRAINED), TRAINED_CHECKSUM);
        assert!(weights.values().iter().any(|&w| w != 0));
        assert_eq!(
            Weights::from_bytes(&weights.to_bytes()).unwrap().values(),
            weights.values()
        );
    }

    #[test]
    fn a_damaged_weights_file_is_a_clear_error() {
        let mut flipped = TRAINED.to_vec();
        flipped[100] ^= 1;
        let error = Weights::from_bytes(&flipped).unwrap_err();
        assert!(matches!(error, WeightsError::Checksum { .. }));
        assert!(
            error
                .to_string()
                .starts_with("the weights file is corrupted")
        );
        assert!(Weights::from_bytes(&TRAINED[..TRAINED.len() / 2]).is_err());
        assert_eq!(
            Weights::from_bytes(b"PK\x03\x04").unwrap_err().to_string(),
            "not an othello weights file (starts with \"PK\\x03\\x04\")"
        );
        // The largest file: every weight a lone zero (4 bytes) or a value (2), alternating.
        let layout = PatternLayout::new();
        assert!(16 + 3 * PHASES * layout.stride + 8 <= MAX_FILE_BYTES);
        let mut long = TRAINED.to_vec();
        long.resize(MAX_FILE_BYTES + 1, 0);
        assert_eq!(
            Weights::from_bytes(&long).unwrap_err(),
            WeightsError::TooLarge
        );
        // A well-formed file of the wrong size, and one with too few weights.
        let with_checksum = |mut bytes: Vec<u8>| {
            let sum = checksum(&bytes);
            bytes.extend_from_slice(&sum.to_le_bytes());
            bytes
        };
        let mut header = MAGIC.to_vec();
        header.extend_from_slice(&(PHASES as u32).to_le_bytes());
        header.extend_from_slice(&7u32.to_le_bytes());
        assert_eq!(
            Weights::from_bytes(&with_checksum(header)).unwrap_err(),
            WeightsError::Size {
                found: 7,
                expected: STRIDE
            }
        );
        let mut header = MAGIC.to_vec();
        header.extend_from_slice(&(PHASES as u32).to_le_bytes());
        header.extend_from_slice(&(STRIDE as u32).to_le_bytes());
        header.extend_from_slice(&5i16.to_le_bytes());
        assert_eq!(
            Weights::from_bytes(&with_checksum(header)).unwrap_err(),
            WeightsError::Malformed("fewer weights than the tables hold")
        );
    }

    #[test]
    fn the_evaluation_equals_the_cell_by_cell_reference_and_its_symmetric_images() {
        let weights = &*WEIGHTS;
        let positions = positions();
        let mut empties_seen = [false; 61];
        for &(me, opp) in &positions {
            empties_seen[64 - (me | opp).count_ones() as usize] = true;
            let geo = Geometry::<u64>::new(Dimensions::STANDARD).unwrap();
            let my_moves = Full::legal_moves(&geo, me, opp).count_ones();
            let their_moves = Full::legal_moves(&geo, opp, me).count_ones();
            let fast = weights.evaluate(Portable, me, opp, my_moves, their_moves);
            assert_eq!(fast, weights.evaluate_slowly(me, opp));
            #[cfg(target_arch = "x86_64")]
            if let Some(v3) = othello::cpu::X86_64V3::detect() {
                assert_eq!(weights.evaluate(v3, me, opp, my_moves, their_moves), fast);
            }
            for symmetry in 1..8 {
                let (me_image, opp_image) =
                    (symmetric_set(symmetry, me), symmetric_set(symmetry, opp));
                assert_eq!(
                    weights.evaluate_slowly(me_image, opp_image),
                    fast,
                    "symmetry {symmetry}"
                );
            }
        }
        assert!(empties_seen[1..=59].iter().all(|&seen| seen));
    }

    #[test]
    fn features_kept_move_by_move_equal_those_read_from_the_board() {
        let weights = &*WEIGHTS;
        let geo = Geometry::<u64>::new(Dimensions::STANDARD).unwrap();
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let (mut moves_checked, mut passes) = (0, 0);
        for _ in 0..20 {
            let (mut me, mut opp) = (0x0000_0008_1000_0000_u64, 0x0000_0010_0800_0000_u64);
            let mut features = weights.features(Portable, me, opp);
            loop {
                assert_eq!(features, weights.features(Portable, me, opp));
                let my_moves = Full::legal_moves(&geo, me, opp).count_ones();
                let their_moves = Full::legal_moves(&geo, opp, me).count_ones();
                let empties = 64 - (me | opp).count_ones();
                assert_eq!(
                    weights.evaluate_features(&features, empties, my_moves, their_moves),
                    weights.evaluate(Portable, me, opp, my_moves, their_moves)
                );
                let moves = Full::legal_moves(&geo, me, opp);
                if moves == 0 {
                    if their_moves == 0 {
                        break;
                    }
                    (me, opp, features) = (opp, me, features.passed());
                    passes += 1;
                    continue;
                }
                let cell = random_move(&mut state, moves);
                let flipped = Full::flips_at_empty(&geo, me, opp, 1 << cell);
                features = weights.features_after(&features, cell, flipped);
                (me, opp) = (opp & !flipped, me | flipped | 1 << cell);
                moves_checked += 1;
            }
        }
        assert!(
            moves_checked > 1000 && passes > 0,
            "{moves_checked} moves, {passes} passes"
        );
    }

    #[test]
    fn every_class_covers_its_images_once() {
        let layout = PatternLayout::new();
        let per_class: Vec<usize> = (0..CLASSES.len())
            .map(|class| layout.instances.iter().filter(|i| i.class == class).count())
            .collect();
        assert_eq!(per_class, [4, 8, 4, 4, 4, 4, 2, 4, 4, 4, 4]);
        for (index, &canonical) in layout.canonical.iter().enumerate() {
            assert!(canonical as usize <= index);
        }
    }
}
