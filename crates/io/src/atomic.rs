//! Writing a file the user asked for without ever leaving a cut one behind.
//!
//! Every file a command writes for the user (a saved game, a converted record, fitted weights,
//! a report) goes through [`write_atomic`]: the bytes go to a temporary file in the same
//! directory, which is flushed and synced, then renamed over the target. A full disk, a file size
//! limit or a crash part-way leaves the old file as it was, and the temporary file is removed.
//!
//! A file that is not one the command writes is not replaced without being asked:
//! [`check_overwrite`] refuses it unless `--force`, and [`write_atomic`] never replaces anything
//! but a regular file (a device such as `/dev/null` stays a device). [`check_overwrite`] refuses
//! a path that is not a regular file (a FIFO, a directory, a device) even with `--force`, before
//! opening it: opening a FIFO to read it would wait for a writer forever.

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

/// A file the command would replace that it did not write (or that holds more than it would
/// write), or a path that is not a regular file.
#[derive(Debug, Error)]
#[error(
    "{path}: {found}{hint}",
    path = .path.display(),
    hint = if *.forceable { "; --force overwrites it" } else { "" }
)]
pub struct NotOurs {
    /// The file.
    pub path: PathBuf,
    /// What it holds.
    pub found: String,
    /// Whether `--force` replaces it (said in the message): not for a path that is not a
    /// regular file, which is never replaced.
    pub forceable: bool,
}

/// Checks that the file at `path` may be replaced by a command's output: it does not exist, is
/// an empty regular file, `force` is given, or `judge` accepts its contents (at most `limit`
/// bytes; a longer file is not one the command writes). `judge` says what the file holds when it
/// refuses it. A path that is not a regular file (through symbolic links: a FIFO, a directory,
/// a device) is refused even with `force`, without being opened.
///
/// # Errors
/// [`NotOurs`] saying what the file holds, or what the path is.
pub fn check_overwrite(
    path: &Path,
    force: bool,
    limit: usize,
    judge: impl FnOnce(&[u8]) -> Result<(), String>,
) -> Result<(), NotOurs> {
    judge_existing(path, force, limit, true, judge)
}

/// Checks, as [`check_overwrite`] does, that the file at `path` may be replaced, judging only
/// its first `head` bytes, however long it is: for files too large to read whole that say
/// what they are at their start (a data file's header).
///
/// # Errors
/// [`NotOurs`] saying what the file holds, or what the path is.
pub fn check_overwrite_by_head(
    path: &Path,
    force: bool,
    head: usize,
    judge: impl FnOnce(&[u8]) -> Result<(), String>,
) -> Result<(), NotOurs> {
    judge_existing(path, force, head, false, judge)
}

/// The check of [`check_overwrite`] (`whole`) and [`check_overwrite_by_head`]: refuses a path
/// that is not a regular file, then reads at most `limit` bytes of an existing regular file and
/// judges them.
fn judge_existing(
    path: &Path,
    force: bool,
    limit: usize,
    whole: bool,
    judge: impl FnOnce(&[u8]) -> Result<(), String>,
) -> Result<(), NotOurs> {
    let refuse = |found: String| NotOurs {
        path: path.to_owned(),
        found,
        forceable: true,
    };
    if let Ok(metadata) = fs::metadata(path) {
        not_a_file(path, &metadata)?;
    }
    if force {
        return Ok(());
    }
    let file = match open_without_waiting(path) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(error) => return Err(refuse(format!("cannot be read ({error})"))),
    };
    // What was opened is checked again: the path may have been replaced since.
    match file.metadata() {
        Ok(metadata) if metadata.is_file() && metadata.len() == 0 => return Ok(()),
        Ok(metadata) => not_a_file(path, &metadata)?,
        Err(error) => return Err(refuse(format!("cannot be read ({error})"))),
    }
    let mut bytes = Vec::new();
    file.take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| refuse(format!("cannot be read ({error})")))?;
    if bytes.len() > limit {
        if whole {
            return Err(refuse(format!(
                "larger than the files this command writes: over {limit} bytes"
            )));
        }
        bytes.truncate(limit);
    }
    judge(&bytes).map_err(refuse)
}

/// Refuses `path`, whose metadata is `metadata`, unless it is a regular file, saying what it is.
fn not_a_file(path: &Path, metadata: &fs::Metadata) -> Result<(), NotOurs> {
    if metadata.is_file() {
        return Ok(());
    }
    let what = if metadata.is_dir() {
        "a directory"
    } else if is_fifo(metadata) {
        "a FIFO"
    } else {
        "a device or special file"
    };
    Err(NotOurs {
        path: path.to_owned(),
        found: format!("{what}, not a regular file"),
        forceable: false,
    })
}

/// Whether `metadata` is a FIFO's (a named pipe's).
fn is_fifo(metadata: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        metadata.file_type().is_fifo()
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        false
    }
}

/// Opens `path` for reading without waiting: a FIFO put in its place after it was checked opens
/// at once (for its metadata to refuse it) instead of waiting for a writer.
fn open_without_waiting(path: &Path) -> io::Result<File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Whether `a` and `b` name the same existing file (by device and inode where the platform
/// has them, by canonical path otherwise).
#[must_use]
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (fs::metadata(a), fs::metadata(b)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Writes `bytes` to `path` atomically: a temporary file beside it, synced, then renamed over it.
///
/// A target that is a symbolic link is replaced through the link (the link's target gets the new
/// contents), so that a saved game reached by a link stays where the link points. The new file
/// keeps the old one's permissions where there was one.
///
/// # Errors
/// Any failure to create, write, sync or rename the temporary file; the target is then unchanged
/// and the temporary file removed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit()
}

/// A file being written atomically, for output too large to hold in memory: written through a
/// buffer to a temporary file beside the target, which [`AtomicFile::commit`] syncs and renames
/// over it (as [`write_atomic`] does). Dropped without a commit, the temporary file is removed and
/// the target is as it was.
pub struct AtomicFile {
    replacement: Replacement,
    writer: Option<io::BufWriter<File>>,
    committed: bool,
}

impl AtomicFile {
    /// Starts writing `path` (through symbolic links; see [`write_atomic`]).
    ///
    /// # Errors
    /// A target that is a directory or not a regular file, or a temporary file that cannot be
    /// created.
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        let replacement = Replacement::start(path)?;
        let writer = replacement.file.try_clone()?;
        Ok(AtomicFile {
            replacement,
            writer: Some(io::BufWriter::new(writer)),
            committed: false,
        })
    }

    /// Flushes and syncs what was written, gives it the old file's permissions, and renames it
    /// over the target.
    ///
    /// # Errors
    /// Any failure to write, sync or rename; the target is then unchanged and the temporary
    /// file removed.
    pub fn commit(mut self) -> io::Result<()> {
        let writer = self.writer.take().expect("a file is committed once");
        drop(
            writer
                .into_inner()
                .map_err(io::IntoInnerError::into_error)?,
        );
        let Replacement {
            target,
            directory,
            temporary,
            file,
        } = &self.replacement;
        if let Ok(metadata) = fs::metadata(target) {
            file.set_permissions(metadata.permissions())?;
        }
        file.sync_all()?;
        fs::rename(temporary, target)?;
        self.committed = true;
        sync_directory(directory);
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.writer.as_mut().expect("not committed").write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer.as_mut().expect("not committed").flush()
    }
}

impl Drop for AtomicFile {
    /// Removes the temporary file unless it was renamed over the target.
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_file(&self.replacement.temporary);
        }
    }
}

/// A file about to be replaced: its target (through links), the directory, and the temporary
/// file beside it that will replace it.
struct Replacement {
    target: PathBuf,
    directory: PathBuf,
    temporary: PathBuf,
    file: File,
}

impl Replacement {
    /// Creates the temporary file that will replace `path`, after checking that the target
    /// (through symbolic links) is a regular file or nothing.
    fn start(path: &Path) -> io::Result<Replacement> {
        let target = resolve_links(path);
        let directory = match target.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if target.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                "is a directory",
            ));
        }
        if fs::metadata(&target).is_ok_and(|metadata| !metadata.is_file()) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a regular file",
            ));
        }
        let name = target
            .file_name()
            .map_or_else(|| "file".into(), |name| name.to_string_lossy().into_owned());
        let (temporary, file) = create_temporary(&directory, &name)?;
        Ok(Replacement {
            target,
            directory,
            temporary,
            file,
        })
    }
}

/// Follows symbolic links from `path` (a bounded number of hops) to the file they name.
fn resolve_links(path: &Path) -> PathBuf {
    let mut current = path.to_path_buf();
    for _ in 0..32 {
        match fs::read_link(&current) {
            Ok(link) => {
                current = if link.is_absolute() {
                    link
                } else {
                    current
                        .parent()
                        .map_or_else(|| link.clone(), |parent| parent.join(&link))
                };
            }
            Err(_) => break,
        }
    }
    current
}

/// Creates a new temporary file `.NAME.PID.N.tmp` in `directory`, never reusing an existing one.
fn create_temporary(directory: &Path, name: &str) -> io::Result<(PathBuf, File)> {
    let pid = std::process::id();
    let mut attempt = 0u32;
    loop {
        let candidate = directory.join(format!(".{name}.{pid}.{attempt}.tmp"));
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(file) => return Ok((candidate, file)),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists && attempt < 1000 => {
                attempt += 1;
            }
            Err(error) => return Err(error),
        }
    }
}

/// Syncs the directory so that the rename itself survives a crash (best effort: not every
/// platform or file system can open a directory for this).
pub fn sync_directory(directory: &Path) {
    #[cfg(unix)]
    if let Ok(handle) = File::open(directory) {
        let _ = handle.sync_all();
    }
    #[cfg(not(unix))]
    let _ = directory;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_contents_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.ggf");
        fs::write(&path, b"old contents").unwrap();
        write_atomic(&path, b"new").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "only the target is left: {names:?}");
    }

    #[test]
    fn creates_a_new_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.txt");
        write_atomic(&path, b"f5\n").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"f5\n");
    }

    #[test]
    fn a_failed_write_keeps_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing-directory").join("game.ggf");
        assert!(write_atomic(&path, b"new").is_err());
        let target = dir.path().join("sub");
        fs::create_dir(&target).unwrap();
        let error = write_atomic(&target, b"new").unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::IsADirectory);
        assert!(target.is_dir());
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_never_replaced() {
        let error = write_atomic(Path::new("/dev/null"), b"new").unwrap_err();
        assert_eq!(error.to_string(), "not a regular file");
        assert!(!fs::metadata("/dev/null").unwrap().is_file());
    }

    #[test]
    fn a_file_the_judge_refuses_is_kept_unless_forced() {
        let dir = tempfile::tempdir().unwrap();
        let notes = dir.path().join("notes.txt");
        let judge = |bytes: &[u8]| {
            if bytes.starts_with(b"f5") {
                Ok(())
            } else {
                Err("not a game".to_owned())
            }
        };
        assert!(
            check_overwrite(&notes, false, 100, judge).is_ok(),
            "missing"
        );
        fs::write(&notes, b"").unwrap();
        assert!(check_overwrite(&notes, false, 100, judge).is_ok(), "empty");
        fs::write(&notes, b"my notes").unwrap();
        let refused = check_overwrite(&notes, false, 100, judge).unwrap_err();
        assert_eq!(
            refused.to_string(),
            format!("{}: not a game; --force overwrites it", notes.display())
        );
        assert!(check_overwrite(&notes, true, 100, judge).is_ok());
        fs::write(&notes, b"f5d6").unwrap();
        assert!(check_overwrite(&notes, false, 100, judge).is_ok());
        assert!(
            check_overwrite(&notes, false, 3, judge).is_err(),
            "too long"
        );
        assert!(same_file(&notes, &dir.path().join(".").join("notes.txt")));
        assert!(!same_file(&notes, &dir.path().join("other.txt")));
    }

    #[cfg(unix)]
    #[test]
    fn a_path_that_is_not_a_regular_file_is_refused_unopened_even_with_force() {
        use std::sync::mpsc;
        use std::time::Duration;

        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("fifo", &link).unwrap();
        let cases = [
            (fifo.clone(), "a FIFO"),
            (link, "a FIFO"),
            (dir.path().to_owned(), "a directory"),
            (PathBuf::from("/dev/null"), "a device or special file"),
        ];
        for (path, what) in cases {
            for force in [false, true] {
                // Opening the FIFO to read it would wait for a writer: a regression fails here.
                let (sender, receiver) = mpsc::channel();
                let checked = path.clone();
                std::thread::spawn(move || {
                    let judge = |_: &[u8]| Ok(());
                    let _ = sender.send((
                        check_overwrite(&checked, force, 100, judge),
                        check_overwrite_by_head(&checked, force, 8, judge),
                    ));
                });
                let (whole, head) = receiver
                    .recv_timeout(Duration::from_secs(10))
                    .unwrap_or_else(|_| panic!("{} was opened", path.display()));
                let expected = format!("{}: {what}, not a regular file", path.display());
                for refused in [whole, head] {
                    let refused = refused.unwrap_err();
                    assert!(!refused.forceable);
                    assert_eq!(refused.to_string(), expected);
                }
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn writes_through_a_symbolic_link_and_keeps_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.txt");
        fs::write(&real, b"old").unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o600)).unwrap();
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink("real.txt", &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&real).unwrap(), b"new");
        let mode = fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
}
