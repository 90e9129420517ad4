//! How a game's save is made durable before the answer with one sync for many saves: a
//! write-ahead journal in the games directory.
//!
//! The saver thread ([`start`]) takes every save waiting at once as a batch: it appends the
//! batch's records to the journal (`journal-N.log`: for each, a line `ID.ggf LENGTH` and the
//! record's bytes), syncs the journal once, then replaces each game's `ID.ggf` atomically
//! (temporary file, rename) without syncing it, and answers. The journal is the durable copy
//! until the game files are: when it passes [`JOURNAL_LIMIT`] bytes, a new one is started and a
//! checkpoint thread syncs the game files written meanwhile, then deletes the old journal. On
//! start, [`recover`] writes the last record of each game that any journal left holds (then
//! syncs them), then deletes the journals, so a crash at any point loses no answered save.
//!
//! One sync of one file a batch costs the same for one save or two hundred, while a sync of
//! each game file (two, with the rename) queued every save behind all the others.

use std::collections::{BTreeMap, HashSet};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use tokio::sync::oneshot;

use super::game_id::id_of_file;
use othello_io::atomic::{replace_unsynced, sync_directory};

/// A game's record to write to its file, and where to say that it is written.
pub struct Save {
    /// The game's file, `ID.ggf` in the games directory.
    pub path: PathBuf,
    /// Its new contents.
    pub bytes: Vec<u8>,
    /// Told the outcome once the save is durable (or failed).
    pub done: oneshot::Sender<io::Result<()>>,
}

/// The most saves written with one sync.
const MAX_BATCH: usize = 256;

/// The journal's size past which a new one is started and the old one checkpointed: about
/// 150,000 saves, so that the checkpoint's syncs (one a game file) come seldom.
const JOURNAL_LIMIT: u64 = 64 << 20;

/// The journal number `number`'s file in `dir`.
fn journal_path(dir: &Path, number: u64) -> PathBuf {
    dir.join(format!("journal-{number}.log"))
}

/// The journals in `dir`, by number.
fn journals(dir: &Path) -> io::Result<BTreeMap<u64, PathBuf>> {
    let mut found = BTreeMap::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let number = name
            .to_str()
            .and_then(|name| name.strip_prefix("journal-"))
            .and_then(|rest| rest.strip_suffix(".log"))
            .and_then(|number| number.parse::<u64>().ok());
        if let Some(number) = number {
            found.insert(number, entry.path());
        }
    }
    Ok(found)
}

/// The records of a journal's bytes, in order: each game file's name and contents. A record cut
/// short (the end of a write that a crash interrupted, never answered) ends the reading.
fn records(bytes: &[u8]) -> Vec<(&str, &[u8])> {
    let mut found = Vec::new();
    let mut rest = bytes;
    while let Some(newline) = rest.iter().position(|&b| b == b'\n') {
        let header = std::str::from_utf8(&rest[..newline]).ok();
        let Some((name, length)) = header.and_then(|header| header.split_once(' ')) else {
            break;
        };
        let Ok(length) = length.parse::<usize>() else {
            break;
        };
        let body = &rest[newline + 1..];
        if body.len() < length || !is_game_file(name) {
            break;
        }
        found.push((name, &body[..length]));
        rest = &body[length..];
    }
    found
}

/// Whether `name` is a game file's name, `ID.ggf`.
fn is_game_file(name: &str) -> bool {
    id_of_file(name).is_some()
}

/// Writes the last record of each game that the journals left in `dir` hold (atomically, then
/// synced all at once), then deletes those journals. Returns the number the next journal takes.
///
/// # Errors
/// A journal that cannot be read, or a game file that cannot be written.
pub fn recover(dir: &Path) -> io::Result<u64> {
    let found = journals(dir)?;
    let next = found.keys().next_back().map_or(1, |last| last + 1);
    let mut latest: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for path in found.values() {
        let bytes = fs::read(path)?;
        for (name, record) in records(&bytes) {
            latest.insert(name.to_owned(), record.to_vec());
        }
    }
    for (name, record) in &latest {
        replace_unsynced(&dir.join(name), record)?;
    }
    if !latest.is_empty() {
        sync_file_system(dir)?;
    }
    for path in found.values() {
        fs::remove_file(path)?;
    }
    sync_directory(dir);
    Ok(next)
}

/// Makes every file written in `dir`'s file system durable: one `syncfs(2)` on Linux (for the
/// many game files a recovery writes, where a sync each would take minutes), `sync(2)`
/// elsewhere.
fn sync_file_system(dir: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let handle = File::open(dir)?;
        // SAFETY: syncfs only reads the descriptor, which `handle` keeps open.
        if unsafe { libc::syncfs(handle.as_raw_fd()) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    #[cfg(all(unix, not(target_os = "linux")))]
    {
        let _ = dir;
        // SAFETY: sync takes no arguments and cannot fail.
        unsafe { libc::sync() };
    }
    Ok(())
}

/// The journal being written and the game files written since it was started.
struct Journal {
    dir: PathBuf,
    number: u64,
    file: File,
    length: u64,
    written: HashSet<PathBuf>,
}

impl Journal {
    /// Starts journal `number` in `dir`.
    fn start(dir: &Path, number: u64) -> io::Result<Journal> {
        let file = OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(journal_path(dir, number))?;
        sync_directory(dir);
        Ok(Journal {
            dir: dir.to_owned(),
            number,
            file,
            length: 0,
            written: HashSet::new(),
        })
    }

    /// Appends `batch`'s records and syncs them.
    fn append(&mut self, batch: &[Save]) -> io::Result<()> {
        let mut bytes = Vec::new();
        for save in batch {
            let name = save
                .path
                .file_name()
                .and_then(|name| name.to_str())
                .filter(|name| is_game_file(name))
                .ok_or_else(|| io::Error::other("not a game file"))?;
            writeln!(bytes, "{name} {}", save.bytes.len())?;
            bytes.extend_from_slice(&save.bytes);
        }
        self.file.write_all(&bytes)?;
        self.file.sync_data()?;
        self.length += bytes.len() as u64;
        Ok(())
    }

    /// Once this journal is long enough: a new one for the next saves, and this one's game files
    /// synced and the journal deleted on a thread of their own.
    fn rotate_if_full(&mut self) -> io::Result<()> {
        if self.length < JOURNAL_LIMIT {
            return Ok(());
        }
        let next = Journal::start(&self.dir, self.number + 1)?;
        let old = std::mem::replace(self, next);
        std::thread::Builder::new()
            .name("serve-checkpoint".to_owned())
            .spawn(move || old.checkpoint())?;
        Ok(())
    }

    /// Syncs the game files written while this journal was the current one, then deletes it
    /// (kept on any failure, for [`recover`] on the next start).
    fn checkpoint(self) {
        let synced = self
            .written
            .iter()
            .all(|path| File::open(path).and_then(|file| file.sync_all()).is_ok());
        if synced {
            sync_directory(&self.dir);
            drop(self.file);
            if fs::remove_file(journal_path(&self.dir, self.number)).is_ok() {
                sync_directory(&self.dir);
            }
        }
    }
}

/// Starts the thread that saves games in `dir` through journal number `number` onwards (the
/// number [`recover`] returned); saves are sent to it.
///
/// # Errors
/// The journal cannot be created, or the thread started.
pub fn start(dir: &Path, number: u64) -> io::Result<mpsc::Sender<Save>> {
    let mut journal = Journal::start(dir, number)?;
    let (sender, saves) = mpsc::channel::<Save>();
    std::thread::Builder::new()
        .name("serve-saver".to_owned())
        .spawn(move || {
            while let Ok(first) = saves.recv() {
                let mut batch = vec![first];
                while batch.len() < MAX_BATCH {
                    match saves.try_recv() {
                        Ok(save) => batch.push(save),
                        Err(_) => break,
                    }
                }
                let appended = journal.append(&batch);
                for save in batch {
                    let outcome = match &appended {
                        Ok(()) => replace_unsynced(&save.path, &save.bytes),
                        Err(error) => Err(io::Error::new(error.kind(), error.to_string())),
                    };
                    if outcome.is_ok() {
                        journal.written.insert(save.path);
                    }
                    let _ = save.done.send(outcome);
                }
                if let Err(error) = journal.rotate_if_full() {
                    // The journal goes on growing; the next start recovers from it.
                    eprintln!("othello: serve: cannot start a new journal: {error}");
                }
            }
        })?;
    Ok(sender)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "0123456789abcdef0123456789abcdef.ggf";

    #[test]
    fn a_record_cut_short_ends_the_reading() {
        let mut bytes = format!("{ID} 3\nabc{ID} 2\nde").into_bytes();
        assert_eq!(records(&bytes), [(ID, &b"abc"[..]), (ID, &b"de"[..])]);
        bytes.extend_from_slice(format!("{ID} 10\nshort").as_bytes());
        assert_eq!(records(&bytes).len(), 2);
        assert!(records(b"../../etc/passwd 3\nabc").is_empty());
    }

    #[test]
    fn recovery_writes_the_last_record_of_each_game_and_deletes_the_journals() {
        let dir = tempfile::tempdir().unwrap();
        let other = "fedcba9876543210fedcba9876543210.ggf";
        fs::write(dir.path().join(ID), b"older").unwrap();
        fs::write(
            journal_path(dir.path(), 3),
            format!("{ID} 5\nfirst{other} 5\nother"),
        )
        .unwrap();
        fs::write(
            journal_path(dir.path(), 4),
            format!("{ID} 6\nsecond{ID} 9\ncut"),
        )
        .unwrap();
        assert_eq!(recover(dir.path()).unwrap(), 5);
        assert_eq!(fs::read(dir.path().join(ID)).unwrap(), b"second");
        assert_eq!(fs::read(dir.path().join(other)).unwrap(), b"other");
        assert!(journals(dir.path()).unwrap().is_empty());
    }

    #[test]
    fn a_save_is_in_the_journal_and_its_file_before_the_answer() {
        let dir = tempfile::tempdir().unwrap();
        let saver = start(dir.path(), recover(dir.path()).unwrap()).unwrap();
        let (done, answer) = oneshot::channel();
        saver
            .send(Save {
                path: dir.path().join(ID),
                bytes: b"(;GM[Othello];)\n".to_vec(),
                done,
            })
            .unwrap();
        answer.blocking_recv().unwrap().unwrap();
        assert_eq!(fs::read(dir.path().join(ID)).unwrap(), b"(;GM[Othello];)\n");
        let journal = fs::read(journal_path(dir.path(), 1)).unwrap();
        assert_eq!(journal, format!("{ID} 16\n(;GM[Othello];)\n").into_bytes());
    }
}
