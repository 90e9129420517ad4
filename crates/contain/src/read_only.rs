//! Directories a program may read but not change, whatever its user may write.
//!
//! Between fork and exec, the started process unshares `CLONE_NEWNS` (a mount namespace of its
//! own, which the program and everything it starts inherit), makes every mount private to it (so
//! that nothing it mounts reaches the host), and binds each directory over itself read-only,
//! keeping the flags its mount had (`nosuid`, `nodev`, `noexec`, times). The host's view is
//! untouched. The directories are prepared (canonical, their flags read) before the fork: what
//! runs between fork and exec is system calls only.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A set of directories that a program's whole tree sees read-only ([`Limits::read_only`],
/// made by [`Containment::read_only`]); empty by default. Cheap to clone.
///
/// [`Limits::read_only`]: crate::Limits::read_only
/// [`Containment::read_only`]: crate::Containment::read_only
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadOnly {
    dirs: Arc<[Dir]>,
}

/// One directory, ready for the system calls.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Dir {
    /// Canonical.
    path: PathBuf,
    #[cfg(target_os = "linux")]
    c_path: std::ffi::CString,
    /// The mount flags to keep on the read-only bind.
    #[cfg(target_os = "linux")]
    flags: libc::c_ulong,
}

impl ReadOnly {
    /// `dirs` made canonical, sorted (a directory before those inside it, which are bound
    /// after it and so stay visible) and without repeats.
    ///
    /// # Errors
    /// A directory that cannot be made canonical (missing, no permission) or statted.
    pub(crate) fn prepare(dirs: &[&Path]) -> io::Result<ReadOnly> {
        let mut paths = Vec::with_capacity(dirs.len());
        for dir in dirs {
            let path = dir.canonicalize().map_err(|error| {
                io::Error::new(error.kind(), format!("{}: {error}", dir.display()))
            })?;
            paths.push(path);
        }
        paths.sort();
        paths.dedup();
        let dirs = paths
            .into_iter()
            .map(Dir::new)
            .collect::<io::Result<Vec<Dir>>>()?;
        Ok(ReadOnly { dirs: dirs.into() })
    }

    /// The same set without `dir` (compared as canonical paths): for a program that may change
    /// its own directory but not its neighbours'.
    #[must_use]
    pub fn without(&self, dir: &Path) -> ReadOnly {
        let Ok(dir) = dir.canonicalize() else {
            return self.clone();
        };
        if !self.dirs.iter().any(|kept| kept.path == dir) {
            return self.clone();
        }
        let dirs: Vec<Dir> = self
            .dirs
            .iter()
            .filter(|kept| kept.path != dir)
            .cloned()
            .collect();
        ReadOnly { dirs: dirs.into() }
    }

    /// The directories, canonical and sorted.
    pub fn dirs(&self) -> impl Iterator<Item = &Path> {
        self.dirs.iter().map(|dir| dir.path.as_path())
    }

    /// Whether there is no directory.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.dirs.is_empty()
    }

    /// Called between fork and exec: a mount namespace of this process's own with every
    /// directory read-only; nothing when the set is empty.
    ///
    /// # Errors
    /// A system call failed (no permission to make mount namespaces, above all).
    #[cfg(target_os = "linux")]
    pub(crate) fn enter(&self) -> io::Result<()> {
        if self.dirs.is_empty() {
            return Ok(());
        }
        // SAFETY: unshare(2) and mount(2) with NUL-terminated paths made before the fork and
        // null pointers where mount(2) allows them; system calls only.
        unsafe {
            if libc::unshare(libc::CLONE_NEWNS) != 0 {
                return Err(io::Error::last_os_error());
            }
            let none = std::ptr::null();
            if libc::mount(
                none,
                c"/".as_ptr(),
                none,
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ) != 0
            {
                return Err(io::Error::last_os_error());
            }
            for dir in self.dirs.iter() {
                let path = dir.c_path.as_ptr();
                if libc::mount(
                    path,
                    path,
                    none,
                    libc::MS_BIND | libc::MS_REC,
                    std::ptr::null(),
                ) != 0
                    || libc::mount(
                        none,
                        path,
                        none,
                        libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | dir.flags,
                        std::ptr::null(),
                    ) != 0
                {
                    return Err(io::Error::last_os_error());
                }
            }
        }
        Ok(())
    }
}

impl Dir {
    #[cfg(target_os = "linux")]
    fn new(path: PathBuf) -> io::Result<Dir> {
        use std::os::unix::ffi::OsStrExt;
        let c_path = std::ffi::CString::new(path.as_os_str().as_bytes())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in a path"))?;
        // SAFETY: statvfs(3) writes only to `stat`, given a NUL-terminated path.
        let flags = unsafe {
            let mut stat: libc::statvfs = std::mem::zeroed();
            if libc::statvfs(c_path.as_ptr(), &raw mut stat) != 0 {
                return Err(io::Error::last_os_error());
            }
            kept_flags(stat.f_flag)
        };
        Ok(Dir {
            path,
            c_path,
            flags,
        })
    }

    #[cfg(not(target_os = "linux"))]
    #[expect(clippy::unnecessary_wraps, reason = "the same signature as Linux's")]
    fn new(path: PathBuf) -> io::Result<Dir> {
        Ok(Dir { path })
    }
}

/// The mount flags of `statvfs`'s `f_flag` that a read-only bind must keep: dropping one that
/// the mount has would loosen it (and is refused where the flag is locked).
#[cfg(target_os = "linux")]
fn kept_flags(f_flag: libc::c_ulong) -> libc::c_ulong {
    [
        (libc::ST_NOSUID, libc::MS_NOSUID),
        (libc::ST_NODEV, libc::MS_NODEV),
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NOATIME, libc::MS_NOATIME),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
        (libc::ST_RELATIME, libc::MS_RELATIME),
    ]
    .into_iter()
    .filter(|&(st, _)| f_flag & st != 0)
    .fold(0, |flags, (_, ms)| flags | ms)
}
