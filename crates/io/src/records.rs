//! Game records named on the command line: read through [`crate::input`], in any format the
//! library reads.

use std::path::Path;

use thiserror::Error;

use othello::RuleSet;
use othello_records::{self as record, Format, GameRecord, ReadOptions, RecordError, wthor};

use crate::input::{ReadError, read_bytes};

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
    #[must_use]
    pub fn exit_status(&self) -> u8 {
        2
    }
}

/// Warnings printed for games skipped; beyond them, one line counts the rest.
const MAX_WARNINGS: usize = 20;

/// A file of game records named on the command line (standard input for `-`): its bytes, read
/// whole within the input limit, whose games are then read one at a time ([`RecordsFile::games`]),
/// so that a file of millions of short games needs little more memory than its size.
pub struct RecordsFile {
    name: String,
    bytes: Vec<u8>,
    options: ReadOptions,
    names: Vec<wthor::Names>,
    /// The first game that cannot be read, in a format that stops there (found once).
    first_error: std::cell::OnceCell<Option<RecordError>>,
}

impl RecordsFile {
    /// Reads the file at `path`; `rules` for formats that do not name the rule set. The games of
    /// a WTHOR file get the names of their players and tournament from `WTHOR.JOU` and
    /// `WTHOR.TRN` when those are beside it.
    ///
    /// # Errors
    /// [`RecordsFileError`] if the file, or the name files beside it, cannot be read.
    pub fn open(path: &Path, rules: RuleSet) -> Result<RecordsFile, RecordsFileError> {
        let (name, bytes) = read_bytes(path, "standard input")?;
        let mut file = RecordsFile {
            name,
            bytes,
            options: ReadOptions { rules },
            names: Vec::new(),
            first_error: std::cell::OnceCell::new(),
        };
        if file.format() == Format::Wthor && path != Path::new("-") {
            let beside = |name: &str| path.parent().map(|dir| dir.join(name));
            file.names.push(wthor::Names {
                players: read_names_beside(beside("WTHOR.JOU").as_deref())?,
                tournaments: read_names_beside(beside("WTHOR.TRN").as_deref())?,
            });
        }
        Ok(file)
    }

    /// The file's name, or `standard input`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The format of its content.
    pub fn format(&self) -> Format {
        Format::detect(&self.bytes)
    }

    /// Names the players and tournaments of WTHOR games by `names` too (after the files beside
    /// it, so that these win where both name a number).
    pub fn add_names(&mut self, names: wthor::Names) {
        self.names.push(names);
    }

    /// Its games, read one at a time; with `game`, only that game (1-based, counting every game
    /// of the file). A game that cannot be read is skipped (in GGF, whose games are delimited;
    /// [`Readable::finish`] warns of each); in the other formats it makes the whole file
    /// unreadable, which is found before the first game is given.
    ///
    /// # Errors
    /// [`RecordsFileError::Record`] for a file that is not a record, or whose format stops at a
    /// game that cannot be read.
    pub fn games(&self, game: Option<usize>) -> Result<Readable<'_>, RecordsFileError> {
        let games = record::games(&self.bytes, &self.options);
        if !games.reads_past_errors() {
            // Checked once however many times the games are read (convert counts them first).
            let first_error = self
                .first_error
                .get_or_init(|| record::games(&self.bytes, &self.options).find_map(Result::err));
            if let Some(source) = first_error {
                return Err(self.error(source.clone()));
            }
        }
        Ok(Readable {
            file: self,
            games,
            seen: 0,
            given: 0,
            game,
            skipped: Vec::new(),
            more_skipped: 0,
            failed: None,
        })
    }

    /// Its first game that can be read (with a warning for each game of the file that cannot).
    ///
    /// # Errors
    /// As [`Readable::finish`], for a file with no game that can be read.
    pub fn first(&self) -> Result<GameRecord, RecordsFileError> {
        let mut games = self.games(None)?;
        match games.next() {
            Some(record) => {
                games.finish()?;
                Ok(record)
            }
            None => Err(games
                .finish()
                .err()
                .unwrap_or(RecordsFileError::NoSuchGame {
                    name: self.name.clone(),
                    number: 1,
                    count: 0,
                })),
        }
    }

    fn error(&self, source: RecordError) -> RecordsFileError {
        RecordsFileError::Record {
            name: self.name.clone(),
            source,
        }
    }
}

/// The games of a [`RecordsFile`] that can be read, one at a time (named from the WTHOR name
/// files); [`Readable::finish`] says what could not be read once they are all given.
pub struct Readable<'a> {
    file: &'a RecordsFile,
    games: record::Games<'a>,
    /// Games of the file read so far, readable or not.
    seen: usize,
    /// Games given.
    given: usize,
    game: Option<usize>,
    /// The first [`MAX_WARNINGS`] games skipped: their numbers and errors.
    skipped: Vec<(usize, RecordError)>,
    more_skipped: usize,
    /// The error of the game asked for by number.
    failed: Option<RecordError>,
}

impl Iterator for Readable<'_> {
    type Item = GameRecord;

    fn next(&mut self) -> Option<GameRecord> {
        loop {
            if self.game.is_some_and(|number| self.seen >= number) {
                return None;
            }
            let game = self.games.next()?;
            self.seen += 1;
            let wanted = self.game.is_none_or(|number| number == self.seen);
            match game {
                Ok(mut record) if wanted => {
                    for names in &self.file.names {
                        wthor::name_game(&mut record, names);
                    }
                    self.given += 1;
                    return Some(record);
                }
                Err(source) if self.game.is_some() && wanted => {
                    self.failed = Some(source);
                    return None;
                }
                Err(source) if self.game.is_none() => {
                    if self.skipped.len() < MAX_WARNINGS {
                        self.skipped.push((self.seen, source));
                    } else {
                        self.more_skipped += 1;
                    }
                }
                _ => {}
            }
        }
    }
}

impl Readable<'_> {
    /// The number of the game last given (1-based, counting every game of the file).
    #[must_use]
    pub fn number(&self) -> usize {
        self.seen
    }

    /// After the last game: the game asked for by number when there is none or it cannot be
    /// read, the first error when no game could be read (without warnings: that error says it),
    /// else a warning on standard error for each game skipped.
    ///
    /// # Errors
    /// [`RecordsFileError::NoSuchGame`] or [`RecordsFileError::Record`].
    pub fn finish(mut self) -> Result<(), RecordsFileError> {
        for _ in self.by_ref() {}
        if let Some(source) = self.failed.take() {
            return Err(self.file.error(source));
        }
        if let Some(number) = self.game.filter(|_| self.given == 0) {
            return Err(RecordsFileError::NoSuchGame {
                name: self.file.name.clone(),
                number,
                count: self.seen,
            });
        }
        if self.given == 0 && !self.skipped.is_empty() {
            let (_, source) = self.skipped.swap_remove(0);
            return Err(self.file.error(source));
        }
        self.warn();
        Ok(())
    }

    /// Warns on standard error of each game skipped so far.
    fn warn(&mut self) {
        let name = &self.file.name;
        let count = self.seen;
        for (number, source) in self.skipped.drain(..) {
            eprintln!("othello: {name}: game {number} of {count} skipped: {source}");
        }
        if self.more_skipped > 0 {
            eprintln!(
                "othello: {name}: {} more games skipped",
                std::mem::take(&mut self.more_skipped)
            );
        }
    }
}

/// The names of a WTHOR player or tournament file at `path`, if there is one (none when it
/// does not exist).
///
/// # Errors
/// The names file exists but cannot be read.
pub fn read_names_beside(path: Option<&Path>) -> Result<Vec<String>, RecordsFileError> {
    match path {
        Some(path) if path.is_file() => read_names(path),
        _ => Ok(Vec::new()),
    }
}

/// The names of the WTHOR player or tournament file at `path`.
///
/// # Errors
/// The file cannot be read.
pub fn read_names(path: &Path) -> Result<Vec<String>, RecordsFileError> {
    let (name, bytes) = read_bytes(path, "standard input")?;
    wthor::read_names(&bytes).map_err(|source| RecordsFileError::Names { name, source })
}
