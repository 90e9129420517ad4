//! What a program's tree sees of the file system: the host read-only (sealed) but for the
//! directories it may write, or directories it may read but not change and whatever else its
//! user may write; directories hidden from it altogether; scratch directories (`/tmp` and the
//! like) of its own, which end with it; and directories it may change in a layer of its own.
//!
//! Between fork and exec, the started process unshares `CLONE_NEWNS` (a mount namespace of its
//! own, which the program and everything it starts inherit), makes every mount private to it (so
//! that nothing it mounts reaches the host), then in this order: where sealed, makes every mount
//! read-only (`mount_setattr(2)`, recursively) and binds each writable directory over itself
//! writable again; binds each read-only directory over itself read-only, keeping the flags its
//! mount had (`nosuid`, `nodev`, `noexec`, times); mounts an empty read-only `tmpfs` over each
//! hidden directory; covers each layered directory by an `overlay` of it under a writable layer
//! in a `tmpfs` of a capped size; and mounts an empty writable `tmpfs` of that size over each
//! scratch directory (and, where its working directory lay in one, makes that again there and
//! enters it). The host's view is untouched. The directories are prepared (canonical, their
//! flags read, a layer's options written) before the fork: what runs between fork and exec is
//! system calls only.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[cfg(target_os = "linux")]
mod layer;
#[cfg(target_os = "linux")]
use layer::Layer;

/// The directories that a program's whole tree sees read-only, those it does not see at all,
/// those it has its own empty ones of ([`Limits::view`], made by [`Containment::view`]), and
/// whether the rest of the host is read-only to it ([`View::sealed`]); none by default (the
/// host's view). Cheap to clone.
///
/// [`Limits::view`]: crate::Limits::view
/// [`Containment::view`]: crate::Containment::view
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct View {
    read_only: Arc<[Dir]>,
    hidden: Arc<[Dir]>,
    scratch: Arc<[Dir]>,
    /// Whether every mount of the host is read-only to the tree, but `writable`.
    sealed: bool,
    /// The directories that stay writable where the host is sealed.
    writable: Arc<[Dir]>,
    /// The directories the tree changes in a layer of its own.
    #[cfg(target_os = "linux")]
    layered: Arc<[Layer]>,
    /// The size of each scratch directory and layer, in bytes.
    scratch_bytes: u64,
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
        let scratch_bytes = scratch_bytes.max(4096);
        Ok(View {
            read_only: prepared(canonical(read_only)?)?,
            hidden: prepared(outermost(&canonical(hidden)?))?,
            scratch: prepared(outermost(&canonical(scratch)?))?,
            scratch_bytes,
            #[cfg(target_os = "linux")]
            scratch_options: (!scratch.is_empty()).then(|| tmpfs_options(scratch_bytes, "1777")),
            ..View::default()
        })
    }

    /// The same view with every mount of the host read-only to the tree (mounts included that
    /// its user could otherwise write, and those mounted later on the host), but `writable`
    /// (each bound over itself, writable, its own mounts below it left read-only), and what the
    /// view mounts itself: a program can then write only its scratch directories, its layers and
    /// `writable`. Needs `mount_setattr(2)` (Linux 5.12), which [`Containment::try_view`] tries.
    ///
    /// [`Containment::try_view`]: crate::Containment::try_view
    ///
    /// # Errors
    /// A directory of `writable` that cannot be made canonical or statted.
    pub fn sealed(&self, writable: &[&Path]) -> io::Result<View> {
        Ok(View {
            sealed: true,
            writable: prepared(canonical(writable)?)?,
            ..self.clone()
        })
    }

    /// Whether the host is read-only to the tree ([`View::sealed`]).
    #[must_use]
    pub fn is_sealed(&self) -> bool {
        self.sealed
    }

    /// The same view without `dir` (compared as canonical paths), neither read-only nor hidden,
    /// and writable where the view is sealed: for a program that may change its own directory
    /// but not see or change its neighbours'.
    #[must_use]
    pub fn without(&self, dir: &Path) -> View {
        let Ok(canonical) = dir.canonicalize() else {
            return self.clone();
        };
        let mut view = self.leaving_out(&canonical);
        if self.sealed
            && let Ok(own) = Dir::new(canonical)
        {
            view.writable = self.writable.iter().cloned().chain([own]).collect();
        }
        view
    }

    /// The same view without `dir` (compared as canonical paths), neither read-only nor hidden,
    /// and changed by the tree in a layer of its own: an `overlay` of `dir` under an empty
    /// writable `tmpfs` of the scratch directories' size, gone with the tree. A program may then
    /// write its own directory as if it were its (the changes cost its `tmpfs`, not the host's
    /// disk, and no later case sees them) but not see or change its neighbours'. Needs an
    /// `overlay` mount where the tree's mount namespace is made, which [`Containment::try_view`]
    /// tries.
    ///
    /// [`Containment::try_view`]: crate::Containment::try_view
    ///
    /// # Errors
    /// `dir` cannot be made canonical, statted or opened.
    #[cfg(target_os = "linux")]
    pub fn layered(&self, dir: &Path) -> io::Result<View> {
        let canonical = dir
            .canonicalize()
            .map_err(|error| io::Error::new(error.kind(), format!("{}: {error}", dir.display())))?;
        let layer = Layer::new(Dir::new(canonical.clone())?, self.scratch_bytes)?;
        let mut view = self.leaving_out(&canonical);
        view.layered = self.layered.iter().cloned().chain([layer]).collect();
        Ok(view)
    }

    /// [`View::layered`] where there are no layers.
    ///
    /// # Errors
    /// Always: layers are Linux's.
    #[cfg(not(target_os = "linux"))]
    pub fn layered(&self, dir: &Path) -> io::Result<View> {
        let _ = self.scratch_bytes;
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            format!("{}: layers are Linux's", dir.display()),
        ))
    }

    /// The same view with `dir` neither read-only nor hidden.
    fn leaving_out(&self, dir: &Path) -> View {
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

    /// The directories that stay writable where the view is sealed, canonical and sorted.
    pub fn writable(&self) -> impl Iterator<Item = &Path> {
        self.writable.iter().map(|dir| dir.path.as_path())
    }

    /// The directories changed in a layer of the tree's own ([`View::layered`]).
    pub fn layered_directories(&self) -> impl Iterator<Item = &Path> {
        #[cfg(target_os = "linux")]
        return self.layered.iter().map(Layer::path);
        #[cfg(not(target_os = "linux"))]
        return std::iter::empty();
    }

    /// Whether the view is the host's: not sealed, no directory read-only, hidden, scratch or
    /// layered.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        !self.sealed
            && self.read_only.is_empty()
            && self.hidden.is_empty()
            && self.scratch.is_empty()
            && self.layered_directories().next().is_none()
    }

    /// Called between fork and exec: a mount namespace of this process's own (where the view
    /// is not the host's, or `always`), sealed where asked but for the writable directories,
    /// with every read-only directory bound read-only, then every hidden one covered by an
    /// empty read-only `tmpfs`, every layered one by its `overlay`, and every scratch one by an
    /// empty writable `tmpfs`; a working directory that lay in a scratch directory is made
    /// again in it (given to `owner`, where given) and entered.
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
        crate::namespace::unshare(libc::CLONE_NEWNS)?;
        mount(None, c"/", None, libc::MS_REC | libc::MS_PRIVATE, None)?;
        if self.sealed {
            self.seal()?;
        }
        for dir in self.read_only.iter() {
            let path = dir.c_path.as_c_str();
            mount(Some(path), path, None, libc::MS_BIND | libc::MS_REC, None)?;
            let read_only = libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | dir.flags;
            mount(None, path, None, read_only, None)?;
        }
        for dir in self.hidden.iter() {
            mount(
                Some(c"othello-hidden"),
                &dir.c_path,
                Some(c"tmpfs"),
                libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                Some(c"mode=0555"),
            )?;
        }
        for layer in self.layered.iter() {
            layer.mount()?;
        }
        if let Some(options) = &self.scratch_options {
            for dir in self.scratch.iter() {
                mount(
                    Some(c"othello-scratch"),
                    &dir.c_path,
                    Some(c"tmpfs"),
                    libc::MS_NOSUID | libc::MS_NODEV,
                    Some(options),
                )?;
            }
        }
        if remake {
            self.remake_working_directory(&mut cwd, owner)?;
        }
        Ok(())
    }

    /// Every mount read-only, recursively, then each writable directory bound over itself and
    /// made writable again (that mount only: those below it stay read-only). System calls only.
    #[cfg(target_os = "linux")]
    fn seal(&self) -> io::Result<()> {
        read_only_mount(c"/", libc::AT_RECURSIVE, true)?;
        for dir in self.writable.iter() {
            let path = dir.c_path.as_c_str();
            mount(Some(path), path, None, libc::MS_BIND | libc::MS_REC, None)?;
            read_only_mount(&dir.c_path, 0, false)?;
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

/// `mount(2)`, `None` for each null pointer it allows. System calls only.
#[cfg(target_os = "linux")]
fn mount(
    source: Option<&std::ffi::CStr>,
    target: &std::ffi::CStr,
    fstype: Option<&std::ffi::CStr>,
    flags: libc::c_ulong,
    data: Option<&std::ffi::CStr>,
) -> io::Result<()> {
    let pointer =
        |text: Option<&std::ffi::CStr>| text.map_or(std::ptr::null(), std::ffi::CStr::as_ptr);
    // SAFETY: mount(2) reads NUL-terminated strings, and null pointers where it allows them.
    let done = unsafe {
        libc::mount(
            pointer(source),
            target.as_ptr(),
            pointer(fstype),
            flags,
            pointer(data).cast(),
        )
    };
    if done == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// `mount_setattr(2)`: the mount at `path` (and those below it with `AT_RECURSIVE` in `flags`)
/// made read-only, or writable if not `read_only`. System calls only.
#[cfg(target_os = "linux")]
fn read_only_mount(path: &std::ffi::CStr, flags: libc::c_int, read_only: bool) -> io::Result<()> {
    /// `struct mount_attr` of `<linux/mount.h>`.
    #[repr(C)]
    struct MountAttr {
        attr_set: u64,
        attr_clr: u64,
        propagation: u64,
        userns_fd: u64,
    }
    /// `MOUNT_ATTR_RDONLY`.
    const RDONLY: u64 = 1;
    let attr = MountAttr {
        attr_set: if read_only { RDONLY } else { 0 },
        attr_clr: if read_only { 0 } else { RDONLY },
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: mount_setattr(2) reads `attr` (its size given) and the NUL-terminated `path`.
    let done = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            path.as_ptr(),
            flags,
            &raw const attr,
            size_of::<MountAttr>(),
        )
    };
    if done == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// The options of a `tmpfs` of `bytes` whose root has `mode` (octal digits).
#[cfg(target_os = "linux")]
fn tmpfs_options(bytes: u64, mode: &str) -> std::ffi::CString {
    // One file a page at most: empty files cost the kernel memory too.
    std::ffi::CString::new(format!(
        "size={bytes},nr_inodes={},mode={mode}",
        bytes / 4096
    ))
    .expect("no NUL in digits")
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
