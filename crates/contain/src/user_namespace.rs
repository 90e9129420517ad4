//! A user namespace of a program's own, for a user who is not root.
//!
//! Only root may make PID and mount namespaces directly; any user may where the kernel allows
//! unprivileged user namespaces (Debian, Fedora, Arch; not under Ubuntu 24.04's default
//! `AppArmor` rules): the process that unshares `CLONE_NEWUSER` has every capability in the new
//! namespace, so it can go on to make the others ([`crate::namespace`], [`crate::View`]).
//! The namespace maps this process's user and group to themselves: the program runs as the same
//! user, and since that user is not 0 in the namespace, `exec` leaves the program no
//! capability: it cannot undo a read-only bind, and any namespace it makes itself gets the
//! binds locked. The kernel keeps a count of processes per user namespace and user, which
//! `RLIMIT_NPROC` then caps: the program's tree's processes, not all of the user's.

use std::ffi::CStr;
use std::io;

/// The namespace's two maps, ready for the system calls; made before the fork.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct UserNamespace {
    uid_map: MapLine,
    gid_map: MapLine,
}

impl UserNamespace {
    /// The one for this process's effective user and group; `None` for root, who needs none
    /// (and whose program would be root in it, free to undo the read-only binds).
    pub(crate) fn for_this_process() -> Option<UserNamespace> {
        // SAFETY: geteuid(2) and getegid(2) cannot fail and touch no memory.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        (uid != 0).then(|| UserNamespace {
            uid_map: MapLine::identity(uid),
            gid_map: MapLine::identity(gid),
        })
    }

    /// Called between fork and exec: moves this process into a user namespace of its own,
    /// its user and group mapped to themselves (and `setgroups` denied, as the kernel requires
    /// of a process mapping its own group).
    ///
    /// # Errors
    /// The kernel refused the namespace (not allowed to unprivileged users) or a map.
    pub(crate) fn enter(&self) -> io::Result<()> {
        // SAFETY: unshare(2) has no memory-safety preconditions.
        if unsafe { libc::unshare(libc::CLONE_NEWUSER) } != 0 {
            return Err(io::Error::last_os_error());
        }
        write_file(c"/proc/self/setgroups", b"deny")?;
        write_file(c"/proc/self/uid_map", self.uid_map.bytes())?;
        write_file(c"/proc/self/gid_map", self.gid_map.bytes())
    }
}

/// `ID ID 1\n`: one id mapped to itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct MapLine {
    text: [u8; 24],
    len: usize,
}

impl MapLine {
    fn identity(id: u32) -> MapLine {
        let line = format!("{id} {id} 1\n");
        let mut text = [0; 24];
        text[..line.len()].copy_from_slice(line.as_bytes());
        MapLine {
            text,
            len: line.len(),
        }
    }

    fn bytes(&self) -> &[u8] {
        &self.text[..self.len]
    }
}

/// Writes `bytes` to the file at `path` in one `write`, as files of `/proc` and cgroups take
/// them. Only system calls: it runs between fork and exec.
///
/// # Errors
/// The file cannot be opened, or the write is refused or short.
pub(crate) fn write_file(path: &CStr, bytes: &[u8]) -> io::Result<()> {
    // SAFETY: open, write and close are async-signal-safe; `path` is a valid C string and
    // `bytes` a live slice.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        let written = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
        let error = io::Error::last_os_error();
        libc::close(fd);
        if usize::try_from(written) != Ok(bytes.len()) {
            return Err(error);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_an_id_to_itself_the_largest_too() {
        assert_eq!(MapLine::identity(1001).bytes(), b"1001 1001 1\n");
        assert_eq!(
            MapLine::identity(u32::MAX).bytes(),
            b"4294967295 4294967295 1\n"
        );
    }
}
