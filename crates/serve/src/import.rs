//! The games of the folder layout that came before the database: `ID.ggf` files, and the
//! write-ahead journals (`journal-N.log`) that a stopped server may have left beside them, read
//! once on the first start over the folder. The files are left where they are.
//!
//! A journal is a sequence of records, each a line `ID.ggf LENGTH` and the record's bytes. A
//! record is taken only when its bytes read as one GGF game; the first one that does not (a
//! write cut short by a crash or a full disk) ends the reading of its journal, so that no cut
//! record, nor what was appended after it, ever replaces a game that reads.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use othello_records::{self as record, Format, GameRecord, ReadOptions};

use super::game_id::{GameId, id_of_file};

/// The one game of GGF `bytes`, if they are that.
pub fn read_game(bytes: &[u8]) -> Option<GameRecord> {
    let mut records = record::read_as(Format::Ggf, bytes, &ReadOptions::default()).ok()?;
    (records.len() == 1).then(|| records.remove(0))
}

/// A folder of games of the layout before the database: its game files, and the last record
/// of each game in its journals (oldest journal first) that reads as a game, which is newer
/// than the game's file.
pub struct Folder {
    /// Each `ID.ggf` file.
    pub files: BTreeMap<GameId, PathBuf>,
    /// The last good journal record of each game the journals hold.
    pub journaled: BTreeMap<GameId, Vec<u8>>,
}

impl Folder {
    /// The game files and journals of `dir` (the files listed, not read).
    ///
    /// # Errors
    /// The folder cannot be listed, or a journal read.
    pub fn read(dir: &Path) -> io::Result<Folder> {
        let mut files = BTreeMap::new();
        let mut journals = BTreeMap::new();
        for entry in fs::read_dir(dir)? {
            let entry = entry?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            if let Some(id) = id_of_file(name) {
                if entry.file_type()?.is_file() {
                    files.insert(id, entry.path());
                }
            } else if let Some(number) = name
                .strip_prefix("journal-")
                .and_then(|rest| rest.strip_suffix(".log"))
                .and_then(|number| number.parse::<u64>().ok())
            {
                journals.insert(number, entry.path());
            }
        }
        let mut journaled = BTreeMap::new();
        for path in journals.values() {
            let bytes = fs::read(path)?;
            for (id, record) in journal_records(&bytes) {
                journaled.insert(id, record.to_vec());
            }
        }
        Ok(Folder { files, journaled })
    }

    /// Every game's id, files' and journals'.
    pub fn ids(&self) -> Vec<GameId> {
        let mut ids: Vec<GameId> = self.files.keys().copied().collect();
        ids.extend(
            self.journaled
                .keys()
                .filter(|id| !self.files.contains_key(id)),
        );
        ids
    }

    /// The game `id`'s record: the journal's if it has one, else its file's bytes as they are
    /// (even if they do not read as a game: nothing is dropped).
    ///
    /// # Errors
    /// The file cannot be read.
    pub fn record(&self, id: GameId) -> io::Result<Vec<u8>> {
        match (self.journaled.get(&id), self.files.get(&id)) {
            (Some(record), _) => Ok(record.clone()),
            (None, Some(path)) => fs::read(path),
            (None, None) => Ok(Vec::new()),
        }
    }
}

/// The records of a journal that read as games, in order, up to the first that does not.
fn journal_records(bytes: &[u8]) -> Vec<(GameId, &[u8])> {
    let mut found = Vec::new();
    let mut rest = bytes;
    while let Some(newline) = rest.iter().position(|&b| b == b'\n') {
        let header = std::str::from_utf8(&rest[..newline]).ok();
        let Some((name, length)) = header.and_then(|header| header.split_once(' ')) else {
            break;
        };
        let (Some(id), Ok(length)) = (id_of_file(name), length.parse::<usize>()) else {
            break;
        };
        let body = &rest[newline + 1..];
        if body.len() < length || read_game(&body[..length]).is_none() {
            break;
        }
        found.push((id, &body[..length]));
        rest = &body[length..];
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "0123456789abcdef0123456789abcdef";
    const GAME: &str = "(;GM[Othello]PC[test]SZ[8]BO[8 ---------------------------O*------*O--------------------------- *]B[d3];)";
    const LATER: &str = "(;GM[Othello]PC[test]SZ[8]BO[8 ---------------------------O*------*O--------------------------- *]B[d3]W[c3];)";

    #[test]
    fn a_journal_record_cut_short_ends_the_reading_and_replaces_nothing() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join(format!("{ID}.ggf")), GAME).unwrap();
        // The fault of the hand-written journal: a record cut off by a full disk, then a whole
        // record appended after it; its length read across the next record's header.
        let cut = format!(
            "{ID}.ggf {} \n{}{ID}.ggf {}\n{LATER}",
            GAME.len() + 40,
            &GAME[..20],
            LATER.len()
        );
        fs::write(dir.path().join("journal-1.log"), cut).unwrap();
        let id = GameId::parse(ID).unwrap();
        assert_eq!(
            Folder::read(dir.path()).unwrap().record(id).unwrap(),
            GAME.as_bytes()
        );

        let whole = format!("{ID}.ggf {}\n{LATER}", LATER.len());
        fs::write(dir.path().join("journal-2.log"), whole).unwrap();
        let folder = Folder::read(dir.path()).unwrap();
        assert_eq!(folder.record(id).unwrap(), LATER.as_bytes());
        assert_eq!(folder.ids(), [id]);
        assert!(read_game(GAME.as_bytes()).is_some());
    }
}
