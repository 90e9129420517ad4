//! Game records named on the command line: read through [`super::input`], in any format the
//! library reads.

use std::path::Path;

use thiserror::Error;

use othello::RuleSet;
use othello::record::{self, Format, GameRecord, ReadOptions, RecordError, wthor};

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
    /// A player or tournament file of WTHOR that cannot be read.
    #[error("{name}: {source}")]
    Names {
        /// The file's name.
        name: String,
        /// What is wrong.
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
/// `rules` for formats that do not name the rule set. With `game`, only that game (1-based,
/// counting every game of the file). A game that cannot be read is skipped with a warning on
/// standard error naming it (the file is refused only if no game can be read, or `game` names
/// that one). The games of a WTHOR file get the names of their players and tournament from
/// `WTHOR.JOU` and `WTHOR.TRN` when those are beside it.
pub fn read_records(
    path: &Path,
    rules: RuleSet,
    game: Option<usize>,
) -> Result<(String, Vec<GameRecord>), RecordsFileError> {
    let (name, bytes) = read_bytes(path, "standard input")?;
    let games = match record::read_each(&bytes, &ReadOptions { rules }) {
        Ok(games) => games,
        Err(source) => return Err(RecordsFileError::Record { name, source }),
    };
    let count = games.len();
    let mut records = match game {
        Some(number) if (1..=count).contains(&number) => {
            match games.into_iter().nth(number - 1).expect("in range") {
                Ok(record) => vec![record],
                Err(source) => return Err(RecordsFileError::Record { name, source }),
            }
        }
        Some(number) => {
            return Err(RecordsFileError::NoSuchGame {
                name,
                number,
                count,
            });
        }
        None => readable(&name, games)?,
    };
    if Format::detect(&bytes) == Format::Wthor && path != Path::new("-") {
        let beside = |file: &str| path.parent().map(|dir| dir.join(file));
        let names = wthor::Names {
            players: read_names_beside(beside("WTHOR.JOU").as_deref())?,
            tournaments: read_names_beside(beside("WTHOR.TRN").as_deref())?,
        };
        wthor::name_games(&mut records, &names);
    }
    Ok((name, records))
}

/// The games that could be read, with a warning for each that could not; the first error when
/// none could (without warnings: that error says it).
fn readable(
    name: &str,
    games: Vec<Result<GameRecord, RecordError>>,
) -> Result<Vec<GameRecord>, RecordsFileError> {
    let count = games.len();
    let (records, errors): (Vec<_>, Vec<_>) = games
        .into_iter()
        .enumerate()
        .partition(|(_, game)| game.is_ok());
    let records: Vec<GameRecord> = records
        .into_iter()
        .filter_map(|(_, game)| game.ok())
        .collect();
    let mut errors = errors
        .into_iter()
        .filter_map(|(index, game)| game.err().map(|error| (index, error)));
    if records.is_empty()
        && let Some((_, source)) = errors.next()
    {
        return Err(RecordsFileError::Record {
            name: name.to_owned(),
            source,
        });
    }
    for (index, source) in errors {
        eprintln!(
            "othello: {name}: game {} of {count} skipped: {source}",
            index + 1
        );
    }
    Ok(records)
}

/// The names of a WTHOR player or tournament file at `path`, if there is one (none when it
/// does not exist).
pub fn read_names_beside(path: Option<&Path>) -> Result<Vec<String>, RecordsFileError> {
    match path {
        Some(path) if path.is_file() => read_names(path),
        _ => Ok(Vec::new()),
    }
}

/// The names of the WTHOR player or tournament file at `path`.
pub fn read_names(path: &Path) -> Result<Vec<String>, RecordsFileError> {
    let (name, bytes) = read_bytes(path, "standard input")?;
    wthor::read_names(&bytes).map_err(|source| RecordsFileError::Names { name, source })
}
