//! A book as bytes ([`Book::to_bytes`], [`Book::from_bytes`]): a header, the entries sorted,
//! a checksum.

use std::collections::{BTreeMap, HashMap};

use super::position::{BookPosition, check_position};
use super::values::Entry;
use super::{Book, BookError};

/// The first bytes of a book.
pub(super) const MAGIC: &[u8; 8] = b"othbook\0";

/// The format this version writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// Magic, version, entry count.
pub(super) const HEADER_LEN: usize = 16;

/// Player, opponent, score, depth (bit 7: exact).
pub(super) const ENTRY_LEN: usize = 18;

/// The checksum after the entries.
const CHECKSUM_LEN: usize = 8;

/// The flag of an exact score in an entry's depth byte.
const EXACT_FLAG: u8 = 0x80;

impl Book {
    /// The book as bytes: `othbook\0`, the format version and the number of entries (`u32`
    /// little-endian each), the entries in key order (player and opponent as `u64`
    /// little-endian, the score as `i8`, the depth as `u8` with bit 7 set when exact), and a
    /// 64-bit FNV-1a checksum of everything before it.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes =
            Vec::with_capacity(HEADER_LEN + ENTRY_LEN * self.entries.len() + CHECKSUM_LEN);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        let count = u32::try_from(self.entries.len()).expect("a book holds fewer than 2^32");
        bytes.extend_from_slice(&count.to_le_bytes());
        for (position, entry) in &self.entries {
            bytes.extend_from_slice(&position.player.to_le_bytes());
            bytes.extend_from_slice(&position.opponent.to_le_bytes());
            bytes.push(entry.score as i8 as u8);
            bytes.push(entry.depth as u8 | if entry.exact { EXACT_FLAG } else { 0 });
        }
        let checksum = fnv1a(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// Reads a book written by [`Book::to_bytes`], checking all of it: the header, the length,
    /// the checksum, and that every entry is a canonical playable position with a score and
    /// depth in range, in strictly increasing order.
    ///
    /// # Errors
    /// [`BookError`] saying what is wrong first.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(BookError::Magic);
        }
        let word = |at: usize| {
            bytes
                .get(at..at + 4)
                .map(|b| u32::from_le_bytes(b.try_into().expect("four bytes")))
        };
        let too_short = || BookError::Length {
            expected: (HEADER_LEN + CHECKSUM_LEN) as u64,
            found: bytes.len() as u64,
        };
        let version = word(8).ok_or_else(too_short)?;
        if version != FORMAT_VERSION {
            return Err(BookError::Version { found: version });
        }
        let count = u64::from(word(12).ok_or_else(too_short)?);
        let expected = (HEADER_LEN + CHECKSUM_LEN) as u64 + count * ENTRY_LEN as u64;
        if bytes.len() as u64 != expected {
            return Err(BookError::Length {
                expected,
                found: bytes.len() as u64,
            });
        }
        let (body, checksum) = bytes.split_at(bytes.len() - CHECKSUM_LEN);
        if fnv1a(body).to_le_bytes() != checksum {
            return Err(BookError::Checksum);
        }
        let mut entries = BTreeMap::new();
        let mut previous = None;
        for (index, chunk) in body[HEADER_LEN..].chunks_exact(ENTRY_LEN).enumerate() {
            let bad = |reason: String| BookError::Entry { index, reason };
            let u64_at =
                |at: usize| u64::from_le_bytes(chunk[at..at + 8].try_into().expect("eight bytes"));
            let position = BookPosition {
                player: u64_at(0),
                opponent: u64_at(8),
            };
            let entry = Entry {
                score: i32::from(chunk[16] as i8),
                depth: u32::from(chunk[17] & !EXACT_FLAG),
                exact: chunk[17] & EXACT_FLAG != 0,
            };
            check_position(position).map_err(bad)?;
            entry.check().map_err(bad)?;
            if position.canonical() != position {
                return Err(bad("the position is not in its canonical form".to_owned()));
            }
            if previous.is_some_and(|previous| previous >= position) {
                return Err(bad("the entries are not in increasing order".to_owned()));
            }
            previous = Some(position);
            entries.insert(position, entry);
        }
        let mut book = Book {
            entries,
            derived: HashMap::new(),
        };
        book.derive();
        Ok(book)
    }
}

/// The 64-bit FNV-1a hash of `bytes`: the book's checksum.
pub(super) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}
