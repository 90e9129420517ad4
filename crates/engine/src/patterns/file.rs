//! The weights file: its format ([`Weights::to_bytes`], [`Weights::from_bytes`]), what is
//! wrong with a file that cannot be used, and the engine's own file, compiled into the binary.

use std::sync::LazyLock;

use thiserror::Error;

use super::layout::{PHASES, PatternLayout};
use super::weights::Weights;

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
pub const MAX_FILE_BYTES: usize = 12 << 20;

/// A run of zeros, in the file: this value, then the run's length as a `u16`.
const ZERO_RUN: i16 = i16::MIN;

/// FNV-1a, 64 bits.
#[must_use]
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Weights {
    /// The file form: [`MAGIC`], the phases and the weights per phase (`u32` each, little
    /// endian), the weights as `i16` with every run of zeros written as `i16::MIN` and the
    /// run's length (`u16`), then the FNV-1a checksum of everything before it (`u64`).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&(PHASES as u32).to_le_bytes());
        bytes.extend_from_slice(&(self.layout().stride as u32).to_le_bytes());
        let mut i = 0;
        while i < self.values().len() {
            let value = self.values()[i];
            if value == 0 {
                let run = self.values()[i..]
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
        Ok(Weights::new(layout, values))
    }
}

/// The engine's trained weights, compiled into the binary.
pub const TRAINED: &[u8] = include_bytes!("../weights.bin");

/// The checksum ([`checksum`]) of [`TRAINED`], as `othello train fit` printed it.
pub const TRAINED_CHECKSUM: u64 = 0x32fe_6c38_ee54_3d45;

/// The engine's trained weights, read once.
pub(crate) static WEIGHTS: LazyLock<Weights> = LazyLock::new(|| {
    Weights::from_bytes(TRAINED).expect("the compiled-in weights file is checked by the tests")
});
