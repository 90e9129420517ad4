//! Saving a game to a file (`--save`, the `save` command) and loading one (`--load`).

use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

use othello::ByColor;
use othello_records::{self as record, Format, GameRecord};
use othello_session::{Session, seats};

use super::results;
use othello::text::counted;
use othello_io::atomic::check_overwrite;
use othello_session::Player;

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

/// The formats to try for a file whose extension names none (see [`Format::for_extension`]),
/// whichever first can hold the game: GGF, then a move list, then the protocol input (which
/// holds every game).
const UNNAMED: [Format; 3] = [Format::Ggf, Format::MoveList, Format::Protocol];

/// The formats to try for a file: the one its extension names, else [`UNNAMED`].
fn formats_for(path: &Path) -> Vec<Format> {
    path.extension()
        .and_then(|extension| Format::for_extension(&extension.to_string_lossy()))
        .map_or_else(|| UNNAMED.to_vec(), |format| vec![format])
}

/// Writes `record` to `path` (replacing it) in the format its name asks for.
///
/// # Errors
/// [`SaveError`] when no format of the file's name holds the game, or the file cannot be written.
pub fn save(path: &Path, record: &GameRecord) -> Result<Format, SaveError> {
    let formats = formats_for(path);
    let mut last = None;
    for format in formats {
        match record::write(std::slice::from_ref(record), format) {
            Ok(bytes) => {
                return othello_io::atomic::write_atomic(path, &bytes)
                    .map(|()| format)
                    .map_err(|source| SaveError::Write {
                        path: path.to_owned(),
                        source,
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

/// The game of `session` as a record, with the players and who sat at each side (see
/// [`seats`]), the date and time, and, once it is over, black's margin as the result.
#[must_use]
pub fn record(session: &Session, players: &ByColor<Player>) -> GameRecord {
    seats::record(session, players, "play", Some(results::now()))
}

/// `Continuing the game of NAME after 3 moves.`
pub fn continuing(record: &GameRecord, name: &str) -> String {
    format!(
        "Continuing the game of {name} after {}.",
        counted(record.squares().count(), "move", "moves")
    )
}

/// Files larger than this are not read to see whether they hold one game: no save of one game
/// is this long.
const LARGEST_SAVE: usize = 1 << 20;

/// Why writing over `path` needs the player's confirmation: it exists and is not a game record
/// this program reads (`not a game record`), or holds more than one game (`holds 3 games`);
/// `None` when nothing would be lost (no such file, an empty one, or one game, such as this
/// game's earlier save), or when no answer would let it be replaced (a directory, a device: the
/// save fails with its own message).
#[must_use]
pub fn overwrite_risk(path: &Path) -> Option<String> {
    let judge = |bytes: &[u8]| match record::read(bytes, &record::ReadOptions::default()) {
        Ok(games) if games.len() <= 1 => Ok(()),
        Ok(games) => Err(format!("holds {}", counted(games.len(), "game", "games"))),
        Err(_) => Err("not a game record".to_owned()),
    };
    check_overwrite(path, false, LARGEST_SAVE, judge)
        .err()
        .filter(|not_ours| not_ours.forceable)
        .map(|not_ours| not_ours.found)
}

/// `Game saved to FILE (GGF, 3 moves).`
#[must_use]
pub fn saved(path: &Path, format: Format, moves: usize) -> String {
    format!(
        "Game saved to {} ({format}, {}).",
        path.display(),
        counted(moves, "move", "moves")
    )
}

/// Where `save` writes: FILE if given, else the `--save` file, else [`DEFAULT_FILE`].
#[must_use]
pub fn target(file: Option<&str>, save: Option<&Path>) -> PathBuf {
    match (file, save) {
        (Some(file), _) => PathBuf::from(file),
        (None, Some(path)) => path.to_owned(),
        (None, None) => PathBuf::from(DEFAULT_FILE),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn save_writes_to_the_file_typed_or_the_save_file() {
        assert_eq!(target(None, None), PathBuf::from(DEFAULT_FILE));
        assert_eq!(
            target(None, Some(Path::new("x.txt"))),
            PathBuf::from("x.txt")
        );
        assert_eq!(
            target(Some("y.ggf"), Some(Path::new("x.txt"))),
            PathBuf::from("y.ggf")
        );
    }

    #[test]
    fn only_files_that_are_not_one_game_need_a_confirmation() {
        let dir = tempfile::tempdir().unwrap();
        let file = |name: &str, text: &str| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        assert_eq!(overwrite_risk(&dir.path().join("new.ggf")), None);
        assert_eq!(overwrite_risk(&file("empty.txt", "")), None);
        assert_eq!(overwrite_risk(&file("game.txt", "f5d6c3\n")), None);
        assert_eq!(
            overwrite_risk(&file("notes.txt", "buy milk\n")).as_deref(),
            Some("not a game record")
        );
        assert_eq!(
            overwrite_risk(&file("two.txt", "f5d6\nd3c5\n")).as_deref(),
            Some("holds 2 games")
        );
    }

    #[test]
    fn the_name_picks_the_format() {
        assert_eq!(formats_for(Path::new("a.GGF")), &[Format::Ggf]);
        assert_eq!(formats_for(Path::new("game.txt")), &[Format::MoveList]);
        assert_eq!(formats_for(Path::new("case.in")), &[Format::Protocol]);
        assert_eq!(formats_for(Path::new("game")).len(), 3);
    }
}
