//! The eight symmetries of the 8x8 board (rotations and reflections) on `u64` bit sets with bit
//! `row * 8 + col`, and the canonical form of a position: the least of its eight images.

/// One of the eight symmetries of the square board: bit 0 flips the rows (top and bottom
/// change places), bit 1 flips the columns (left and right), bit 2 transposes (rows become
/// columns), applied in that order: transpose, then the columns, then the rows. Every symmetry
/// of the square is one of these; 0 is the identity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Symmetry(pub(super) u8);

impl Symmetry {
    /// All eight, the identity first.
    pub(crate) fn all() -> impl Iterator<Item = Symmetry> {
        (0..8).map(Symmetry)
    }

    /// The image of `bits` under this symmetry.
    pub(crate) fn apply(self, mut bits: u64) -> u64 {
        if self.0 & 4 != 0 {
            bits = transpose(bits);
        }
        if self.0 & 2 != 0 {
            bits = flip_columns(bits);
        }
        if self.0 & 1 != 0 {
            bits = bits.swap_bytes();
        }
        bits
    }

    /// The set whose image is `bits`: the steps of [`Symmetry::apply`] undone in reverse order
    /// (each step is its own inverse).
    pub(crate) fn invert(self, mut bits: u64) -> u64 {
        if self.0 & 1 != 0 {
            bits = bits.swap_bytes();
        }
        if self.0 & 2 != 0 {
            bits = flip_columns(bits);
        }
        if self.0 & 4 != 0 {
            bits = transpose(bits);
        }
        bits
    }

    /// The image of square `index` (`row * 8 + col`).
    #[cfg(test)]
    pub(crate) fn apply_square(self, index: u32) -> u32 {
        self.apply(1 << index).trailing_zeros()
    }

    /// The square whose image is `index`.
    pub(crate) fn invert_square(self, index: u32) -> u32 {
        self.invert(1 << index).trailing_zeros()
    }
}

/// Left and right exchanged: the bits of every byte reversed.
fn flip_columns(bits: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    let bits = ((bits >> 1) & K1) | ((bits & K1) << 1);
    let bits = ((bits >> 2) & K2) | ((bits & K2) << 2);
    ((bits >> 4) & K4) | ((bits & K4) << 4)
}

/// Rows and columns exchanged: square (row, col) goes to (col, row), the diagonal a1-h8 stays.
fn transpose(mut bits: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut t = K4 & (bits ^ (bits << 28));
    bits ^= t ^ (t >> 28);
    t = K2 & (bits ^ (bits << 14));
    bits ^= t ^ (t >> 14);
    t = K1 & (bits ^ (bits << 7));
    bits ^= t ^ (t >> 7);
    bits
}

/// The canonical form of the position (`player`, `opponent`): the least of its eight images,
/// compared as the pair (player, opponent), and the symmetry that gives it.
pub(crate) fn canonical(player: u64, opponent: u64) -> ((u64, u64), Symmetry) {
    Symmetry::all()
        .map(|symmetry| ((symmetry.apply(player), symmetry.apply(opponent)), symmetry))
        .min_by_key(|&(image, _)| image)
        .expect("there are eight symmetries")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The image of (row, col) under each symmetry, computed square by square.
    fn reference(symmetry: Symmetry, row: u32, col: u32) -> (u32, u32) {
        let (mut row, mut col) = (row, col);
        if symmetry.0 & 4 != 0 {
            (row, col) = (col, row);
        }
        if symmetry.0 & 2 != 0 {
            col = 7 - col;
        }
        if symmetry.0 & 1 != 0 {
            row = 7 - row;
        }
        (row, col)
    }

    #[test]
    fn each_symmetry_moves_squares_as_its_definition_says_and_inverts() {
        for symmetry in Symmetry::all() {
            for index in 0..64 {
                let (row, col) = reference(symmetry, index / 8, index % 8);
                assert_eq!(symmetry.apply_square(index), row * 8 + col);
                assert_eq!(symmetry.invert_square(symmetry.apply_square(index)), index);
            }
        }
        let images: std::collections::HashSet<u64> = Symmetry::all()
            .map(|symmetry| symmetry.apply(0x0000_0000_0000_0107))
            .collect();
        assert_eq!(images.len(), 8, "the eight symmetries are distinct");
    }

    #[test]
    fn every_image_has_one_canonical_form() {
        let (player, opponent) = (0x0000_0010_0c00_0000_u64, 0x0000_0008_1000_2000_u64);
        let (key, symmetry) = canonical(player, opponent);
        assert_eq!(key, (symmetry.apply(player), symmetry.apply(opponent)));
        for image in Symmetry::all() {
            let (other, _) = canonical(image.apply(player), image.apply(opponent));
            assert_eq!(other, key);
        }
    }
}
