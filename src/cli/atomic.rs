//! Writing a file the user asked for without ever leaving a cut one behind.
//!
//! Every file a command writes for the user (a saved game, a converted record, fitted weights,
//! a report) goes through [`write_atomic`]: the bytes go to a temporary file in the same
//! directory, which is flushed and synced, then renamed over the target. A full disk, a file size
//! limit or a crash part-way leaves the old file as it was, and the temporary file is removed.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

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
    let name = target
        .file_name()
        .map_or_else(|| "file".into(), |name| name.to_string_lossy().into_owned());
    let (temporary, mut file) = create_temporary(&directory, &name)?;
    let written = (|| {
        file.write_all(bytes)?;
        file.flush()?;
        if let Ok(metadata) = fs::metadata(&target) {
            file.set_permissions(metadata.permissions())?;
        }
        file.sync_all()?;
        drop(file);
        fs::rename(&temporary, &target)?;
        sync_directory(&directory);
        Ok(())
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
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
fn sync_directory(directory: &Path) {
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
