//! Game records named on the command line: read through [`super::input`], in any format the
//! library reads.

use std::path::Path;

use thiserror::Error;

use othello::RuleSet;
use othello::record::{self, GameRecord, ReadOptions, RecordError};

use super::input::{ReadError, read_bytes};

/// A file of game records that could not be used.
#[derive(Debug, Error)]
pub enum RecordsFileError {
    /// It could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// It is not a readable record.
    #[error("{name}: {source}")]
    Record {
        /// The file's name, or `standard input`.
        name: String,
        /// What is wrong, and where.
        source: RecordError,
    },
    /// `--game N` beyond the games of the file.
    #[error("{name}: there is no game {number}: the file holds {count}")]
    NoSuchGame {
        /// The file's name.
        name: String,
        /// The number asked for.
        number: usize,
        /// How many games the file holds.
        count: usize,
    },
}

impl RecordsFileError {
    /// 2: the file cannot be read, is too large, or is not a record (as every command treats
    /// its named inputs).
    #[expect(
        clippy::unused_self,
        reason = "every error type of a command answers `exit_status`"
    )]
    pub fn exit_status(&self) -> u8 {
        2
    }
}

/// Every game of the file at `path` (standard input for `-`), in the format its content shows;
/// `rules` for formats that do not name the rule set. With `game`, only that game (1-based).
pub fn read_records(
    path: &Path,
    rules: RuleSet,
    game: Option<usize>,
) -> Result<(String, Vec<GameRecord>), RecordsFileError> {
    let (name, bytes) = read_bytes(path, "standard input")?;
    let records = match record::read(&bytes, &ReadOptions { rules }) {
        Ok(records) => records,
        Err(source) => return Err(RecordsFileError::Record { name, source }),
    };
    match game {
        None => Ok((name, records)),
        Some(number) if (1..=records.len()).contains(&number) => {
            let one = records[number - 1].clone();
            Ok((name, vec![one]))
        }
        Some(number) => Err(RecordsFileError::NoSuchGame {
            name,
            number,
            count: records.len(),
        }),
    }
}
