//! The patterns of the 8x8 board and how their weights are laid out: the classes of patterns
//! and their images under the board's symmetries, the weights of the configurations a
//! symmetry of a pattern exchanges (equal), the phases, and the tables that read a pattern's
//! index from the board.

use othello::Dimensions;
use othello::bitboard::Geometry;
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
pub const CLASSES: [Class; 13] = [
    Class {
        name: "corner triangle",
        cells: &[0, 1, 2, 3, 8, 9, 10, 16, 17, 24],
    },
    Class {
        name: "edge block",
        cells: &[0, 2, 3, 4, 5, 7, 10, 11, 12, 13],
    },
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

/// The cells as a bit set.
fn cell_mask(cells: &[u8]) -> u64 {
    cells.iter().fold(0, |mask, &cell| mask | 1 << cell)
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
    /// For each pattern, the base-3 index of each value of its gathered bits.
    pub(super) ternary: Vec<u16>,
    /// For each pattern, its cells, where its part of `ternary` starts and where its class's
    /// table starts: what the evaluation reads, in one place.
    pub(super) probes: Vec<Probe>,
    /// For each cell, the value of one digit at that cell in each pattern's index (`3^k` for
    /// the pattern's `k`-th cell, 0 in the patterns without it): what a disc changes in
    /// [`super::Features`].
    pub(super) digits: Vec<[u16; LANES]>,
    /// For each lane, where its pattern's class's weights start in a phase's table (0 for the
    /// lanes without a pattern): [`Probe::offset`] laid out as the lanes, for the gathered sum
    /// (x86-64 only).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) lane_offsets: [i32; LANES],
    /// For each lane, -1 (all bits set) if a pattern has it, else 0: which lanes the gathered
    /// sum reads.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) lane_used: [i32; LANES],
}

/// What the evaluation reads of one pattern.
#[derive(Clone, Copy, Debug)]
pub(super) struct Probe {
    /// Its cells.
    pub(super) mask: u64,
    /// Where its part of [`PatternLayout::ternary`] starts.
    pub(super) ternary: u32,
    /// Where its class's weights start in a phase's table.
    pub(super) offset: u32,
}

/// Lanes of [`super::Features`]: at least the number of patterns, a multiple of 16 (three vectors of
/// 16-bit lanes on x86-64-v3).
pub(super) const LANES: usize = 64;

impl PatternLayout {
    /// The layout of [`CLASSES`].
    #[must_use]
    pub fn new() -> PatternLayout {
        let mut instances = Vec::new();
        let mut offsets = Vec::new();
        let mut offset = 0;
        for (class_index, class) in CLASSES.iter().enumerate() {
            offsets.push(offset);
            let mut seen: Vec<u64> = Vec::new();
            for symmetry in 0..8 {
                let cells: Vec<u8> = class
                    .cells
                    .iter()
                    .map(|&c| symmetric_cell(symmetry, c))
                    .collect();
                let mask = cell_mask(&cells);
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
            offset += power_of_three(class.cells.len());
        }
        let mobility = offset;
        let stride = mobility + 2 * (MOBILITY_MAX as usize + 1) + 1;
        assert!(instances.len() <= LANES, "every pattern has a lane");
        let mut ternary = Vec::new();
        let mut probes = Vec::new();
        let mut digits = vec![[0; LANES]; 64];
        let mut lane_offsets = [0; LANES];
        let mut lane_used = [0; LANES];
        for (lane, instance) in instances.iter().enumerate() {
            lane_offsets[lane] = i32::try_from(instance.offset).expect("a table of i32 size");
            lane_used[lane] = -1;
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
            ternary,
            probes,
            digits,
            lane_offsets,
            lane_used,
        }
    }

    /// For each weight of a phase, the weight it must equal: the smallest index among the
    /// configurations that a symmetry mapping the pattern onto itself exchanges with it (the
    /// fit's shared weights; the evaluation does not need them).
    #[must_use]
    pub fn canonical(&self) -> Vec<u32> {
        let mut canonical = Vec::with_capacity(self.stride);
        for (class, &offset) in CLASSES.iter().zip(&self.offsets) {
            let base_mask = cell_mask(class.cells);
            // The symmetries that map the pattern onto itself, as the place value each digit
            // moves to.
            let self_maps: Vec<Vec<usize>> = (0..8)
                .map(|symmetry| -> Vec<u8> {
                    class
                        .cells
                        .iter()
                        .map(|&c| symmetric_cell(symmetry, c))
                        .collect()
                })
                .filter(|image| cell_mask(image) == base_mask)
                .map(|image| {
                    image
                        .iter()
                        .map(|c| {
                            let k = class.cells.iter().position(|b| b == c);
                            power_of_three(k.expect("the same cells"))
                        })
                        .collect()
                })
                .collect();
            for index in 0..power_of_three(class.cells.len()) {
                let smallest = self_maps
                    .iter()
                    .map(|values| {
                        let mut rest = index;
                        values.iter().fold(0, |image, value| {
                            let digit = rest % 3;
                            rest /= 3;
                            image + digit * value
                        })
                    })
                    .min()
                    .unwrap_or(index);
                canonical.push((offset + smallest) as u32);
            }
        }
        canonical.extend(self.mobility as u32..self.stride as u32);
        canonical
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
    pub(super) fn mobility_index(&self, moves: u32, opponent: bool) -> usize {
        let slot = moves.min(MOBILITY_MAX) as usize;
        self.mobility + slot + usize::from(opponent) * (MOBILITY_MAX as usize + 1)
    }
}

impl Default for PatternLayout {
    fn default() -> PatternLayout {
        PatternLayout::new()
    }
}
