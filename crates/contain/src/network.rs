//! A network of a program's own: a network namespace whose only interface is its loopback,
//! brought up, so that the program reaches no other machine nor any service of this one, while
//! what it does on `127.0.0.1` within its tree still works. Made between fork and exec, after
//! the user namespace where there is one: system calls only.

use std::io;

/// Called between fork and exec: a network namespace of this process's own, its loopback up.
pub(crate) fn enter() -> io::Result<()> {
    crate::namespace::unshare(libc::CLONE_NEWNET)?;
    // SAFETY: socket(2), ioctl(2) on a zeroed `ifreq` naming "lo", close(2).
    unsafe {
        let socket = libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0);
        if socket < 0 {
            return Err(io::Error::last_os_error());
        }
        let mut request: libc::ifreq = std::mem::zeroed();
        for (at, &byte) in b"lo".iter().enumerate() {
            request.ifr_name[at] = byte as libc::c_char;
        }
        let up = if libc::ioctl(socket, libc::SIOCGIFFLAGS as _, &raw mut request) == 0 {
            request.ifr_ifru.ifru_flags |= libc::IFF_UP as libc::c_short;
            libc::ioctl(socket, libc::SIOCSIFFLAGS as _, &raw mut request) == 0
        } else {
            false
        };
        let error = io::Error::last_os_error();
        libc::close(socket);
        if !up {
            return Err(error);
        }
    }
    Ok(())
}
