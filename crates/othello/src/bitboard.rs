//! Sets of cells as machine words, and the per-size masks that let whole-board shifts work on
//! any board from 4x4 to 16x16.
//!
//! Cell `(row, col)` of an `R x C` board is bit `row * C + col`. Boards of up to 64 cells use a
//! `u64`, up to 128 a `u128`, up to 256 a [`U256`]; the move generator is generic over [`Bits`]
//! and a [`Geometry`] holds the masks of one board size for one width.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

use crate::square::{Dimensions, Square};

/// A fixed-width set of cell indices with the bit operations the move generator needs.
///
/// Shifts are by fewer bits than [`Bits::WIDTH`].
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// The empty set.
    const ZERO: Self;
    /// Number of bits.
    const WIDTH: u32;

    /// The set holding only `index`.
    fn single(index: u32) -> Self;
    /// Number of members.
    fn count(self) -> u32;
    /// The lowest member; meaningless on the empty set.
    fn lowest(self) -> u32;
    /// The set without its lowest member.
    #[must_use]
    fn without_lowest(self) -> Self;
    /// The set holding only the lowest member; empty for the empty set.
    #[must_use]
    fn lowest_bit(self) -> Self;
    /// Narrows a 256-bit set (whose members must fit this width).
    fn from_wide(wide: U256) -> Self;
    /// Widens to 256 bits.
    fn to_wide(self) -> U256;
    /// The members below 64, as a `u64`.
    fn low_u64(self) -> u64;
    /// The set of the members of `word`.
    fn from_u64(word: u64) -> Self;

    /// `geo` as the geometry of 256-bit sets when this width is [`U256`], the width the AVX2
    /// kernels work on; `None` for the narrower widths. Each width answers at compile time.
    #[inline(always)]
    fn as_wide_geometry(geo: &Geometry<Self>) -> Option<&Geometry<U256>> {
        let _ = geo;
        None
    }

    /// Whether the set is empty.
    #[inline]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }

    /// Whether `index` is a member.
    #[inline]
    fn has(self, index: u32) -> bool {
        !(self & Self::single(index)).is_empty()
    }

    /// The members, lowest first.
    #[inline]
    fn members(self) -> Members<Self> {
        Members(self)
    }
}

/// Iterator over the members of a [`Bits`] set, lowest first.
#[derive(Clone, Debug)]
pub struct Members<B>(B);

impl<B: Bits> Iterator for Members<B> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0.is_empty() {
            None
        } else {
            let index = self.0.lowest();
            self.0 = self.0.without_lowest();
            Some(index)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<B: Bits> ExactSizeIterator for Members<B> {}

macro_rules! impl_bits_for_primitive {
    ($t:ty, $words:expr) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            const WIDTH: u32 = <$t>::BITS;

            #[inline]
            fn single(index: u32) -> Self {
                1 << index
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline]
            fn lowest_bit(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline]
            fn from_wide(wide: U256) -> Self {
                let mut value: $t = 0;
                for (i, word) in wide.0.iter().take($words).enumerate() {
                    value |= (*word as $t) << (64 * i);
                }
                value
            }
            #[inline]
            fn to_wide(self) -> U256 {
                let mut words = [0u64; 4];
                for (i, word) in words.iter_mut().take($words).enumerate() {
                    *word = (self >> (64 * i)) as u64;
                }
                U256(words)
            }
            #[inline(always)]
            fn low_u64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn from_u64(word: u64) -> Self {
                word as $t
            }
        }
    };
}

impl_bits_for_primitive!(u64, 1);
impl_bits_for_primitive!(u128, 2);

/// A 256-bit set, four little-endian `u64` words, for boards of more than 128 cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct U256(pub [u64; 4]);

macro_rules! impl_u256_bitop {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for U256 {
            type Output = U256;
            #[inline(always)]
            fn $method(self, rhs: U256) -> U256 {
                let (a, b) = (self.0, rhs.0);
                U256([a[0] $op b[0], a[1] $op b[1], a[2] $op b[2], a[3] $op b[3]])
            }
        }
        impl $assign_trait for U256 {
            #[inline]
            fn $assign_method(&mut self, rhs: U256) {
                *self = *self $op rhs;
            }
        }
    };
}

impl_u256_bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
impl_u256_bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
impl_u256_bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for U256 {
    type Output = U256;
    #[inline]
    fn not(self) -> U256 {
        let a = self.0;
        U256([!a[0], !a[1], !a[2], !a[3]])
    }
}

impl Shl<u32> for U256 {
    type Output = U256;
    /// Shifts towards higher indices by `n < 256` bits.
    #[inline(always)]
    #[allow(clippy::needless_range_loop)] // `i` indexes two arrays at an offset
    fn shl(self, n: u32) -> U256 {
        let (words, bits) = ((n / 64) as usize, n % 64);
        let mut out = [0u64; 4];
        for i in words..4 {
            let src = i - words;
            out[i] = self.0[src] << bits;
            if bits != 0 && src > 0 {
                out[i] |= self.0[src - 1] >> (64 - bits);
            }
        }
        U256(out)
    }
}

impl Shr<u32> for U256 {
    type Output = U256;
    /// Shifts towards lower indices by `n < 256` bits.
    #[inline(always)]
    #[allow(clippy::needless_range_loop)] // `i` indexes two arrays at an offset
    fn shr(self, n: u32) -> U256 {
        let (words, bits) = ((n / 64) as usize, n % 64);
        let mut out = [0u64; 4];
        for i in 0..4 - words {
            let src = i + words;
            out[i] = self.0[src] >> bits;
            if bits != 0 && src < 3 {
                out[i] |= self.0[src + 1] << (64 - bits);
            }
        }
        U256(out)
    }
}

impl Bits for U256 {
    const ZERO: Self = U256([0; 4]);
    const WIDTH: u32 = 256;

    #[inline]
    fn single(index: u32) -> Self {
        let mut words = [0u64; 4];
        words[(index / 64) as usize] = 1 << (index % 64);
        U256(words)
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn lowest(self) -> u32 {
        for (i, word) in self.0.iter().enumerate() {
            if *word != 0 {
                return 64 * i as u32 + word.trailing_zeros();
            }
        }
        256
    }
    #[inline]
    fn without_lowest(self) -> Self {
        let mut words = self.0;
        for word in &mut words {
            if *word != 0 {
                *word &= *word - 1;
                break;
            }
        }
        U256(words)
    }
    #[inline]
    fn lowest_bit(self) -> Self {
        let mut words = [0u64; 4];
        for (out, word) in words.iter_mut().zip(self.0) {
            if word != 0 {
                *out = word & word.wrapping_neg();
                break;
            }
        }
        U256(words)
    }
    #[inline]
    fn from_wide(wide: U256) -> Self {
        wide
    }
    #[inline]
    fn to_wide(self) -> U256 {
        self
    }
    #[inline(always)]
    fn low_u64(self) -> u64 {
        self.0[0]
    }
    #[inline(always)]
    fn from_u64(word: u64) -> Self {
        U256([word, 0, 0, 0])
    }

    #[inline(always)]
    fn as_wide_geometry(geo: &Geometry<Self>) -> Option<&Geometry<U256>> {
        Some(geo)
    }
}

/// A bit set the search can hash.
pub trait SearchBits: Bits {
    /// A 64-bit hash of the pair `(self, other)`, varied by `salt`.
    fn hash_pair(self, other: Self, salt: u64) -> u64;
}

/// The finalizer of `MurmurHash3`: a bijection that mixes every input bit into every output bit.
#[inline(always)]
#[must_use]
pub fn mix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

impl SearchBits for u64 {
    #[inline(always)]
    fn hash_pair(self, other: u64, salt: u64) -> u64 {
        mix64(mix64(self ^ salt).wrapping_add(other.wrapping_mul(GOLDEN)) ^ other.rotate_left(29))
    }
}

impl SearchBits for u128 {
    #[inline(always)]
    fn hash_pair(self, other: u128, salt: u64) -> u64 {
        let h = (self as u64).hash_pair(other as u64, salt);
        ((self >> 64) as u64).hash_pair((other >> 64) as u64, h)
    }
}

impl SearchBits for U256 {
    #[inline(always)]
    fn hash_pair(self, other: U256, salt: u64) -> u64 {
        self.0
            .iter()
            .zip(other.0)
            .fold(salt, |h, (&mine, theirs)| mine.hash_pair(theirs, h))
    }
}

/// One of the four line directions, used both ways: towards higher indices with `<<` and lower
/// ones with `>>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<B> {
    /// How far one step moves a bit index.
    pub shift: u32,
    /// Cells that may lie inside a run of discs along this line: the board, without the first
    /// and last columns for lines that move sideways. Masking runs with it stops shifts from
    /// wrapping around the board's edges.
    pub interior: B,
    /// How many doubling steps a fill needs to cross the longest run of discs this line can
    /// hold: `k` steps cross runs of up to `2^k - 1` discs. Keeping it per line keeps every
    /// shift below the number of cells.
    pub fill_steps: u32,
}

/// The fewest doubling steps `k` with `2^k - 1 >= run`.
fn steps_to_cross(run: u32) -> u32 {
    let mut steps = 0;
    while (1u32 << steps) - 1 < run {
        steps += 1;
    }
    steps
}

/// The masks of one board size at one bit width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry<B> {
    dims: Dimensions,
    standard: bool,
    /// Every cell of the board.
    pub board: B,
    /// Every cell but those of the first column.
    pub not_first_col: B,
    /// Every cell but those of the last column.
    pub not_last_col: B,
    /// East (+1), south (+cols), south-east (+cols+1) and south-west (+cols-1).
    pub lines: [Line<B>; 4],
}

impl<B: Bits> Geometry<B> {
    /// The masks for `dims`, or `None` if the board has more cells than `B` has bits.
    #[must_use]
    pub fn new(dims: Dimensions) -> Option<Geometry<B>> {
        if dims.cells() > B::WIDTH as usize {
            return None;
        }
        let (rows, cols) = (dims.rows(), dims.cols());
        let mut board = B::ZERO;
        let mut first_col = B::ZERO;
        let mut last_col = B::ZERO;
        for square in dims.squares() {
            let bit = B::single(dims.index(square));
            board |= bit;
            if square.col() == 0 {
                first_col |= bit;
            } else if square.col() == cols - 1 {
                last_col |= bit;
            }
        }
        let sideways = board & !first_col & !last_col;
        let c = cols as u32;
        // A run of flippable discs is at most two shorter than the line that holds it.
        let line = |shift, interior, longest_line: usize| Line {
            shift,
            interior,
            fill_steps: steps_to_cross(longest_line as u32 - 2),
        };
        let diagonal = rows.min(cols);
        Some(Geometry {
            dims,
            standard: dims == Dimensions::STANDARD,
            board,
            not_first_col: board & !first_col,
            not_last_col: board & !last_col,
            lines: [
                line(1, sideways, cols),
                line(c, board, rows),
                line(c + 1, sideways, diagonal),
                line(c - 1, sideways, diagonal),
            ],
        })
    }

    /// Every cell of the board.
    #[inline(always)]
    #[must_use]
    pub fn board(&self) -> B {
        self.board
    }

    /// The board size.
    #[must_use]
    pub fn dims(&self) -> Dimensions {
        self.dims
    }

    /// Whether the board is the standard 8x8 one, whose move generator has constant masks.
    #[inline(always)]
    #[must_use]
    pub fn is_standard(&self) -> bool {
        self.standard
    }

    /// The set holding only `square`, which must be on the board.
    #[inline]
    #[must_use]
    pub fn bit(&self, square: Square) -> B {
        B::single(self.dims.index(square))
    }

    /// The square of member `index`.
    #[inline]
    #[must_use]
    pub fn square(&self, index: u32) -> Square {
        self.dims.square_at(index)
    }

    /// The squares in `set`, row by row.
    pub fn squares(&self, set: B) -> impl Iterator<Item = Square> + '_ {
        set.members().map(|i| self.square(i))
    }

    /// `set` together with its 8 neighbours of every member, within the board.
    #[inline]
    #[must_use]
    pub fn dilate(&self, set: B) -> B {
        let c = self.lines[1].shift;
        let band = set | ((set << 1) & self.not_first_col) | ((set >> 1) & self.not_last_col);
        (band | (band << c) | (band >> c)) & self.board
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims(rows: usize, cols: usize) -> Dimensions {
        Dimensions::new(rows, cols).unwrap()
    }

    #[test]
    fn u256_shifts_cross_word_boundaries() {
        let one = U256::single(0);
        for n in [1, 17, 63, 64, 65, 128, 200, 255] {
            assert_eq!((one << n).lowest(), n);
            assert_eq!(((one << n) >> n), one);
        }
        assert!((U256::single(255) << 1).is_empty());
        assert!((U256::single(0) >> 1).is_empty());
    }

    #[test]
    fn u256_matches_u128_on_the_low_half() {
        let value: u128 = 0xdead_beef_0123_4567_89ab_cdef_f00d_cafe;
        let wide = value.to_wide();
        for n in [0, 1, 9, 63, 64, 100] {
            assert_eq!(u128::from_wide(wide << n), value << n);
            assert_eq!(u128::from_wide(wide >> n), value >> n);
        }
        assert_eq!(wide.count(), value.count_ones());
        assert_eq!(wide.lowest(), value.trailing_zeros());
        assert_eq!(u128::from_wide(wide.without_lowest()), value & (value - 1));
    }

    #[test]
    fn members_iterate_in_order() {
        let set = u64::single(3) | u64::single(40) | u64::single(63);
        assert_eq!(set.members().collect::<Vec<_>>(), vec![3, 40, 63]);
        let set = U256::single(0) | U256::single(130) | U256::single(255);
        assert_eq!(set.members().collect::<Vec<_>>(), vec![0, 130, 255]);
    }

    #[test]
    fn geometry_picks_widths_and_masks() {
        assert!(Geometry::<u64>::new(dims(8, 8)).is_some());
        assert!(Geometry::<u64>::new(dims(4, 16)).is_some());
        assert!(Geometry::<u64>::new(dims(10, 10)).is_none());
        assert!(Geometry::<u128>::new(dims(8, 16)).is_some());
        assert!(Geometry::<u128>::new(dims(10, 14)).is_none());
        let geo = Geometry::<u64>::new(dims(8, 8)).unwrap();
        assert_eq!(geo.board, u64::MAX);
        assert_eq!(geo.lines[0].interior, 0x7e7e_7e7e_7e7e_7e7e);
        assert!(geo.lines.iter().all(|line| line.fill_steps == 3));
        let steps = |geo: Geometry<u64>| geo.lines.map(|line| line.fill_steps);
        assert_eq!(steps(Geometry::new(dims(4, 4)).unwrap()), [2; 4]);
        assert_eq!(steps(Geometry::new(dims(4, 16)).unwrap()), [4, 2, 2, 2]);
        assert_eq!(steps(Geometry::new(dims(16, 4)).unwrap()), [2, 4, 2, 2]);
        let big = Geometry::<U256>::new(dims(16, 16)).unwrap();
        assert!(big.lines.iter().all(|line| line.fill_steps == 4));
    }

    #[test]
    fn dilate_stays_on_the_board_and_does_not_wrap() {
        let geo = Geometry::<u64>::new(dims(4, 6)).unwrap();
        // Top-right corner: its neighbours are (0,4), (1,4), (1,5).
        let corner = geo.bit(Square::new(0, 5));
        let expected = [(0, 4), (0, 5), (1, 4), (1, 5)]
            .iter()
            .fold(0, |acc, &(r, c)| acc | geo.bit(Square::new(r, c)));
        assert_eq!(geo.dilate(corner), expected);
        // Bottom-left corner.
        let corner = geo.bit(Square::new(3, 0));
        let expected = [(2, 0), (2, 1), (3, 0), (3, 1)]
            .iter()
            .fold(0, |acc, &(r, c)| acc | geo.bit(Square::new(r, c)));
        assert_eq!(geo.dilate(corner), expected);
    }
}
