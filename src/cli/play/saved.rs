//! Saving a game to a file (`--save`, the `save` command) and loading one (`--load`).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

use othello::record::{self, Format, GameRecord};

/// The file `save` writes when neither it nor `--save` names one.
pub const DEFAULT_FILE: &str = "othello-game.ggf";

/// A game that could not be saved.
#[derive(Debug, Error)]
pub enum SaveError {
    /// No format the file's name allows can hold the game.
    #[error("cannot save to {path}: {source}", path = .path.display())]
    Unwritable {
        /// The file.
        path: PathBuf,
        /// What the format cannot hold.
        source: record::WriteError,
    },
    /// The file could not be written.
    #[error("cannot write {path}: {source}", path = .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
}

/// The formats to try for a file, by its extension: `.ggf` GGF, `.txt` a move list, `.obf`
/// OBF, `.in` the protocol input, `.wtb` WTHOR; any other name GGF, then a move list, then the
/// protocol input (which holds every game), whichever first can hold the game.
fn formats_for(path: &Path) -> &'static [Format] {
    let extension = path
        .extension()
        .map(|extension| extension.to_string_lossy().to_ascii_lowercase());
    match extension.as_deref() {
        Some("ggf") => &[Format::Ggf],
        Some("txt") => &[Format::MoveList],
        Some("obf") => &[Format::Obf],
        Some("in") => &[Format::Protocol],
        Some("wtb") => &[Format::Wthor],
        _ => &[Format::Ggf, Format::MoveList, Format::Protocol],
    }
}

/// Writes `record` to `path` (replacing it) in the format its name asks for.
pub fn save(path: &Path, record: &GameRecord) -> Result<Format, SaveError> {
    let formats = formats_for(path);
    let mut last = None;
    for &format in formats {
        match record::write(std::slice::from_ref(record), format) {
            Ok(bytes) => {
                return fs::write(path, bytes).map(|()| format).map_err(|source| {
                    SaveError::Write {
                        path: path.to_owned(),
                        source,
                    }
                });
            }
            Err(error) => last = Some(error),
        }
    }
    Err(SaveError::Unwritable {
        path: path.to_owned(),
        source: last.expect("every name has a format"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_picks_the_format() {
        assert_eq!(formats_for(Path::new("a.GGF")), &[Format::Ggf]);
        assert_eq!(formats_for(Path::new("game.txt")), &[Format::MoveList]);
        assert_eq!(formats_for(Path::new("case.in")), &[Format::Protocol]);
        assert_eq!(formats_for(Path::new("game")).len(), 3);
    }
}
