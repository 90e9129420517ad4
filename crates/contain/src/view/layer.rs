//! A directory that a program's tree changes in a layer of its own: between fork and exec the
//! directory is opened, covered by an empty `tmpfs` of a capped size holding an `upper` and a
//! `work` directory, and then by an `overlay` whose lower layer is the directory as it was
//! (reached through the descriptor, under `/proc/self/fd`) and whose upper layer is `upper`.
//! What the tree writes there lands in the `tmpfs`, bounded, and ends with it; the host's
//! directory is never written.

use std::ffi::{CStr, CString};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use super::{Dir, mount, tmpfs_options};

/// The longest overlay options a layer takes (written on the stack between fork and exec).
const OPTIONS_BYTES: usize = 8192;

/// `/proc/self/fd/` and the lower directory's descriptor come first in the options.
const LOWER: &[u8] = b"lowerdir=/proc/self/fd/";

/// One layered directory, ready for the system calls.
#[derive(Clone, Debug)]
pub(super) struct Layer {
    dir: Dir,
    /// The `tmpfs`'s options: its size, its files, its root private to the mounter.
    tmpfs_options: CString,
    /// `DIR/upper` and `DIR/work`, inside the `tmpfs`.
    upper: CString,
    work: CString,
    /// The overlay's options after the lower directory's: its upper and work directories,
    /// escaped, and `userxattr` (its own marks kept where a user namespace may write them).
    options_rest: Vec<u8>,
    /// The upper directory's mode, owner and group: the directory's own, so that the
    /// program's permission on its directory is what it was.
    mode: libc::mode_t,
    owner: (libc::uid_t, libc::gid_t),
}

impl PartialEq for Layer {
    fn eq(&self, other: &Layer) -> bool {
        self.dir == other.dir
    }
}

impl Eq for Layer {}

impl Layer {
    /// `dir` (canonical, its mount flags read), layered in a `tmpfs` of `bytes`.
    pub(super) fn new(dir: Dir, bytes: u64) -> io::Result<Layer> {
        let metadata = std::fs::metadata(&dir.path)?;
        let inside = |name: &str| {
            CString::new(dir.path.join(name).as_os_str().as_bytes())
                .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in a path"))
        };
        let mut options_rest = b",upperdir=".to_vec();
        options_rest.extend(escaped(&dir.path.join("upper")));
        options_rest.extend(b",workdir=");
        options_rest.extend(escaped(&dir.path.join("work")));
        options_rest.extend(b",userxattr");
        if LOWER.len() + 10 + options_rest.len() >= OPTIONS_BYTES {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{}: too long a path to layer", dir.path.display()),
            ));
        }
        Ok(Layer {
            tmpfs_options: tmpfs_options(bytes, "0700"),
            upper: inside("upper")?,
            work: inside("work")?,
            options_rest,
            mode: std::os::unix::fs::PermissionsExt::mode(&metadata.permissions()) & 0o7777,
            owner: (
                std::os::unix::fs::MetadataExt::uid(&metadata),
                std::os::unix::fs::MetadataExt::gid(&metadata),
            ),
            dir,
        })
    }

    /// The layered directory, canonical.
    pub(super) fn path(&self) -> &Path {
        &self.dir.path
    }

    /// Called between fork and exec, in the tree's mount namespace: the directory covered by
    /// its layer. System calls only, on the stack.
    pub(super) fn mount(&self) -> io::Result<()> {
        // SAFETY: open(2) of a NUL-terminated path made before the fork.
        let lower = unsafe {
            libc::open(
                self.dir.c_path.as_ptr(),
                libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
            )
        };
        if lower < 0 {
            return Err(io::Error::last_os_error());
        }
        let mut options = [0u8; OPTIONS_BYTES];
        let length = self.options(&mut options, lower);
        let covered = CStr::from_bytes_with_nul(&options[..=length])
            .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))
            .and_then(|options| self.cover(options));
        // SAFETY: close(2) of the descriptor opened above.
        unsafe { libc::close(lower) };
        covered
    }

    /// The directory covered by the `tmpfs` with `upper` and `work` in it, then by the overlay
    /// of `options`. System calls only.
    fn cover(&self, options: &CStr) -> io::Result<()> {
        let path = self.dir.c_path.as_c_str();
        let done = |result: libc::c_int| {
            if result == 0 {
                Ok(())
            } else {
                Err(io::Error::last_os_error())
            }
        };
        let flags = libc::MS_NOSUID | libc::MS_NODEV;
        let layer = Some(c"othello-layer");
        mount(
            layer,
            path,
            Some(c"tmpfs"),
            flags,
            Some(&self.tmpfs_options),
        )?;
        // SAFETY: mkdir(2), chown(2) and chmod(2) with NUL-terminated paths made before the fork.
        unsafe {
            done(libc::mkdir(self.upper.as_ptr(), 0o700))?;
            // The directory's owner where this process may give it (not in a user namespace
            // that maps only its own user): the program's permission is then the directory's.
            libc::chown(self.upper.as_ptr(), self.owner.0, self.owner.1);
            done(libc::chmod(self.upper.as_ptr(), self.mode))?;
            done(libc::mkdir(self.work.as_ptr(), 0o700))?;
        }
        mount(
            layer,
            path,
            Some(c"overlay"),
            flags | self.dir.flags,
            Some(options),
        )
    }

    /// Writes the overlay's options for the lower directory's descriptor `lower` into `buffer`,
    /// NUL-terminated, and returns the index of the NUL. No allocation.
    fn options(&self, buffer: &mut [u8; OPTIONS_BYTES], lower: libc::c_int) -> usize {
        buffer[..LOWER.len()].copy_from_slice(LOWER);
        let mut at = LOWER.len();
        let mut digits = [0u8; 10];
        let mut count = 0;
        let mut rest = lower.unsigned_abs();
        loop {
            digits[count] = b'0' + (rest % 10) as u8;
            count += 1;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        for &digit in digits[..count].iter().rev() {
            buffer[at] = digit;
            at += 1;
        }
        buffer[at..at + self.options_rest.len()].copy_from_slice(&self.options_rest);
        at += self.options_rest.len();
        buffer[at] = 0;
        at
    }
}

/// `path` with the characters that separate an overlay's options (`,` and `:`) and the escape
/// itself escaped by a backslash.
fn escaped(path: &Path) -> Vec<u8> {
    let mut bytes = Vec::new();
    for &byte in path.as_os_str().as_bytes() {
        if matches!(byte, b',' | b':' | b'\\') {
            bytes.push(b'\\');
        }
        bytes.push(byte);
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_options_name_the_descriptor_and_escape_the_paths() {
        let dir = std::env::temp_dir().canonicalize().unwrap().join("a,b:c");
        std::fs::create_dir_all(&dir).unwrap();
        let layer = Layer::new(Dir::new(dir.clone()).unwrap(), 1 << 20).unwrap();
        let mut buffer = [0u8; OPTIONS_BYTES];
        let end = layer.options(&mut buffer, 1234);
        let base = std::env::temp_dir().canonicalize().unwrap();
        let base = base.display();
        assert_eq!(
            std::str::from_utf8(&buffer[..end]).unwrap(),
            format!(
                "lowerdir=/proc/self/fd/1234,upperdir={base}/a\\,b\\:c/upper,\
                 workdir={base}/a\\,b\\:c/work,userxattr"
            )
        );
        assert_eq!(buffer[end], 0);
        assert_eq!(
            layer.options(&mut buffer, 0),
            LOWER.len() + 1 + layer.options_rest.len()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
