//! What a program's tree sees of the file system: directories it may read but not change,
//! whatever its user may write, directories hidden from it altogether, and scratch directories
//! (`/tmp` and the like) of its own, which end with it.
//!
//! Between fork and exec, the started process unshares `CLONE_NEWNS` (a mount namespace of its
//! own, which the program and everything it starts inherit), makes every mount private to it (so
//! that nothing it mounts reaches the host), binds each read-only directory over itself
//! read-only, keeping the flags its mount had (`nosuid`, `nodev`, `noexec`, times), mounts an
//! empty read-only `tmpfs` over each hidden directory and an empty writable one of a capped size
//! over each scratch directory (and, where its working directory lay in one, makes that again
//! there and enters it). The host's view is untouched. The directories are prepared (canonical,
//! their flags read) before the fork: what runs between fork and exec is system calls only.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The directories that a program's whole tree sees read-only, those it does not see at all and
/// those it has its own empty ones of ([`Limits::view`], made by [`Containment::view`]); none
/// by default (the host's view). Cheap to clone.
///
/// [`Limits::view`]: crate::Limits::view
/// [`Containment::view`]: crate::Containment::view
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct View {
    read_only: Arc<[Dir]>,
    hidden: Arc<[Dir]>,
    scratch: Arc<[Dir]>,
    /// The scratch `tmpfs`'s options: its size, its files (one a page), and anyone may write
    /// (`mode=1777`).
    #[cfg(target_os = "linux")]
    scratch_options: Option<std::ffi::CString>,
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

impl View {
    /// The directories made canonical, sorted (a read-only directory before those
    /// inside it, which are bound after it and so stay visible) and without repeats; a hidden
    /// or scratch directory inside another of its kind is left out (covered with it).
    ///
    /// # Errors
    /// A directory that cannot be made canonical (missing, no permission) or statted.
    pub(crate) fn prepare(
        read_only: &[&Path],
        hidden: &[&Path],
        scratch: &[&Path],
        scratch_bytes: u64,
    ) -> io::Result<View> {
        #[cfg(not(target_os = "linux"))]
        let _ = scratch_bytes;
        Ok(View {
            read_only: prepared(canonical(read_only)?)?,
            hidden: prepared(outermost(&canonical(hidden)?))?,
            scratch: prepared(outermost(&canonical(scratch)?))?,
            #[cfg(target_os = "linux")]
            scratch_options: (!scratch.is_empty()).then(|| {
                let bytes = scratch_bytes.max(4096);
                // One file a page at most: empty files cost the kernel memory too.
                std::ffi::CString::new(format!("size={bytes},nr_inodes={},mode=1777", bytes / 4096))
                    .expect("no NUL in digits")
            }),
        })
    }

    /// The same view without `dir` (compared as canonical paths), neither read-only nor hidden:
    /// for a program that may change its own directory but not see or change its neighbours'.
    #[must_use]
    pub fn without(&self, dir: &Path) -> View {
        let Ok(dir) = dir.canonicalize() else {
            return self.clone();
        };
        let keep = |dirs: &Arc<[Dir]>| -> Arc<[Dir]> {
            dirs.iter()
                .filter(|kept| kept.path != dir)
                .cloned()
                .collect()
        };
        View {
            read_only: keep(&self.read_only),
            hidden: keep(&self.hidden),
            ..self.clone()
        }
    }

    /// The read-only directories, canonical and sorted.
    pub fn read_only(&self) -> impl Iterator<Item = &Path> {
        self.read_only.iter().map(|dir| dir.path.as_path())
    }

    /// The hidden directories, canonical and sorted.
    pub fn hidden(&self) -> impl Iterator<Item = &Path> {
        self.hidden.iter().map(|dir| dir.path.as_path())
    }

    /// The scratch directories, canonical and sorted.
    pub fn scratch(&self) -> impl Iterator<Item = &Path> {
        self.scratch.iter().map(|dir| dir.path.as_path())
    }

    /// Whether the view is the host's: no directory read-only, hidden or scratch.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.read_only.is_empty() && self.hidden.is_empty() && self.scratch.is_empty()
    }

    /// Called between fork and exec: a mount namespace of this process's own (where the view
    /// has a directory, or `always`) with every read-only directory bound read-only, then
    /// every hidden one covered by an empty read-only `tmpfs`, then every scratch one by an
    /// empty writable one; a working directory that lay in a scratch directory is made again
    /// in it (given to `owner`, where given) and entered.
    ///
    /// # Errors
    /// A system call failed (no permission to make mount namespaces, above all).
    #[cfg(target_os = "linux")]
    pub(crate) fn enter(&self, always: bool, owner: Option<crate::User>) -> io::Result<()> {
        if self.is_empty() && !always {
            return Ok(());
        }
        // The working directory's path, while it can still be read (where a scratch directory
        // may cover it).
        let mut cwd = [0u8; 4096];
        // SAFETY: getcwd(3) writes at most `cwd.len()` bytes, NUL-terminated, into `cwd`.
        let remake = !self.scratch.is_empty()
            && unsafe { !libc::getcwd(cwd.as_mut_ptr().cast(), cwd.len()).is_null() };
        // SAFETY: unshare(2) and mount(2) with NUL-terminated paths made before the fork and
        // null pointers where mount(2) allows them; system calls only.
        unsafe {
            crate::namespace::unshare(libc::CLONE_NEWNS)?;
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
            for dir in self.read_only.iter() {
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
            for dir in self.hidden.iter() {
                if libc::mount(
                    c"othello-hidden".as_ptr(),
                    dir.c_path.as_ptr(),
                    c"tmpfs".as_ptr(),
                    libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                    c"mode=0555".as_ptr().cast(),
                ) != 0
                {
                    return Err(io::Error::last_os_error());
                }
            }
            if let Some(options) = &self.scratch_options {
                for dir in self.scratch.iter() {
                    if libc::mount(
                        c"othello-scratch".as_ptr(),
                        dir.c_path.as_ptr(),
                        c"tmpfs".as_ptr(),
                        libc::MS_NOSUID | libc::MS_NODEV,
                        options.as_ptr().cast(),
                    ) != 0
                    {
                        return Err(io::Error::last_os_error());
                    }
                }
            }
        }
        if remake {
            self.remake_working_directory(&mut cwd, owner)?;
        }
        Ok(())
    }

    /// Where the NUL-terminated path `cwd` lies inside a scratch directory: each directory on
    /// the way made there (`0700`), the last given to `owner`, and entered. System calls only.
    #[cfg(target_os = "linux")]
    fn remake_working_directory(
        &self,
        cwd: &mut [u8; 4096],
        owner: Option<crate::User>,
    ) -> io::Result<()> {
        use std::os::unix::ffi::OsStrExt;
        let length = cwd.iter().position(|&byte| byte == 0).unwrap_or(0);
        let Some(inside) = self.scratch.iter().find(|dir| {
            let prefix = dir.path.as_os_str().as_bytes();
            length > prefix.len()
                && cwd[..length].starts_with(prefix)
                && (cwd[prefix.len()] == b'/' || prefix == b"/")
        }) else {
            return Ok(());
        };
        let start = inside.path.as_os_str().len() + 1;
        // SAFETY: mkdir(2), chown(2) and chdir(2) on `cwd`, NUL-terminated at each step.
        unsafe {
            for end in start..=length {
                if end < length && cwd[end] != b'/' {
                    continue;
                }
                let kept = cwd[end];
                cwd[end] = 0;
                let made = libc::mkdir(cwd.as_ptr().cast(), 0o700);
                cwd[end] = kept;
                if made != 0 && *libc::__errno_location() != libc::EEXIST {
                    return Err(io::Error::last_os_error());
                }
            }
            if let Some(user) = owner
                && libc::chown(cwd.as_ptr().cast(), user.uid, user.gid) != 0
            {
                return Err(io::Error::last_os_error());
            }
            if libc::chdir(cwd.as_ptr().cast()) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }
}

/// `dirs` made canonical (an error names the directory), sorted, without repeats.
fn canonical(dirs: &[&Path]) -> io::Result<Vec<PathBuf>> {
    let mut paths = Vec::with_capacity(dirs.len());
    for dir in dirs {
        let path = dir
            .canonicalize()
            .map_err(|error| io::Error::new(error.kind(), format!("{}: {error}", dir.display())))?;
        paths.push(path);
    }
    paths.sort();
    paths.dedup();
    Ok(paths)
}

/// The directories not inside another of them (what covers one covers those inside it).
fn outermost(dirs: &[PathBuf]) -> Vec<PathBuf> {
    dirs.iter()
        .filter(|dir| {
            !dirs
                .iter()
                .any(|other| other != *dir && dir.starts_with(other))
        })
        .cloned()
        .collect()
}

/// Canonical directories ready for the system calls.
fn prepared(paths: Vec<PathBuf>) -> io::Result<Arc<[Dir]>> {
    Ok(paths
        .into_iter()
        .map(Dir::new)
        .collect::<io::Result<Vec<Dir>>>()?
        .into())
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
