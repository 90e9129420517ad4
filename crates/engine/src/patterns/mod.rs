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
//! pattern, eight of them at a time by AVX2 gathers on x86-64-v3.
//!
//! The weights are fitted by `othello train fit` (see [`crate::train`]) and stored in a file
//! of [`Weights::to_bytes`]'s format; the engine's own file is compiled into the binary.

mod file;
mod layout;
#[cfg(test)]
pub(super) mod tests;
mod weights;

pub(crate) use file::WEIGHTS;
pub use file::{MAGIC, MAX_FILE_BYTES, TRAINED, TRAINED_CHECKSUM, WeightsError, checksum};
pub use layout::{
    CLASSES, Class, Instance, MOBILITY_MAX, PHASES, PatternLayout, phase, symmetric_cell,
    symmetric_set,
};
pub(crate) use weights::Features;
pub use weights::Weights;
