//! A PID namespace per program, under a reaper of ours.
//!
//! Between fork and exec, the started process (P, the one the caller sees and waits for)
//! unshares `CLONE_NEWPID` and forks the namespace's init (A, PID 1), which forks the program
//! (B, PID 2) and returns to exec it. A reaps every process of the namespace and exits as soon as
//! the program has, which makes the kernel kill everything else in the namespace: whatever the
//! program left running (`setsid` or not) ends with it. P waits for A and then ends as the
//! program did (the same exit status, or the same signal), so that the caller sees the
//! program's own ending and, in P's rusage, the CPU time of everything A reaped. Where it can
//! (in the mount namespace of [`crate::View`], made even for an empty view), A mounts a `/proc`
//! of the namespace before forking the program, so that the tree sees its own processes only;
//! A is not dumpable, so that the program cannot read the memory it shares with the front end,
//! and blanks its copy of the front end's command line, which `/proc/1/cmdline` would show.
//!
//! P and A close every file descriptor they inherited (the program's pipes), so that neither
//! holds the program's output open. A dies with P (`PR_SET_PDEATHSIG`), so killing P kills the
//! namespace. Everything here runs between fork and exec: only system calls, no allocation.
//! A user who is not root makes it in a user namespace of the program's own, entered first
//! ([`crate::user_namespace`]).

use std::io;
use std::sync::OnceLock;

use crate::user_namespace::UserNamespace;

/// How this process may give its programs PID namespaces: directly (`None`, as root), or each
/// in a user namespace of its own (as another user, where the kernel allows it): a child tries,
/// and says. The reason when neither can be had.
pub(crate) fn probe() -> Result<Option<UserNamespace>, String> {
    let new_pid_namespace = || unshare(libc::CLONE_NEWPID);
    let direct = match try_in_child(new_pid_namespace) {
        Ok(()) => return Ok(None),
        Err(error) => format!("cannot make a PID namespace: {error}"),
    };
    let Some(user) = UserNamespace::for_this_process() else {
        return Err(direct);
    };
    match try_as_program(Some(&user), new_pid_namespace) {
        Ok(()) => Ok(Some(user)),
        Err(error) => Err(format!("{direct}, nor in a user namespace: {error}")),
    }
}

/// `unshare(2)` of `flags` (system calls only: callable between fork and exec).
pub(crate) fn unshare(flags: libc::c_int) -> io::Result<()> {
    // SAFETY: unshare(2) has no memory-safety preconditions.
    if unsafe { libc::unshare(flags) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// [`try_in_child`] in the user namespace the programs get (`user`, where this process needs
/// one): whether a program could do `trial`.
pub(crate) fn try_as_program(
    user: Option<&UserNamespace>,
    trial: impl FnOnce() -> io::Result<()>,
) -> io::Result<()> {
    try_in_child(|| {
        if let Some(user) = user {
            user.enter()?;
        }
        trial()
    })
}

/// Runs `trial` in a forked child, which reports its error number in its exit status: whether
/// this process could do it, without doing it (namespaces made there die with the child).
/// `trial` must make system calls only (the parent may have other threads).
pub(crate) fn try_in_child(trial: impl FnOnce() -> io::Result<()>) -> io::Result<()> {
    // SAFETY: the forked child runs `trial` (system calls only, as its caller promises) and
    // _exit(2), which are async-signal-safe; the parent waits for it by its pid.
    unsafe {
        let pid = libc::fork();
        if pid == 0 {
            let errno = match trial() {
                Ok(()) => 0,
                Err(error) => error.raw_os_error().unwrap_or(libc::EPERM),
            };
            libc::_exit(errno);
        }
        if pid < 0 {
            return Err(io::Error::last_os_error());
        }
        let status = wait_for(pid);
        match (libc::WIFEXITED(status), libc::WEXITSTATUS(status)) {
            (true, 0) => Ok(()),
            (true, errno) => Err(io::Error::from_raw_os_error(errno)),
            (false, _) => Err(io::Error::other("the trial was killed")),
        }
    }
}

/// Where this process's command line lies in its memory (`arg_start` and `arg_end` of
/// `/proc/self/stat`), read before any fork ([`note_command_line`]) for the reaper to blank.
static COMMAND_LINE: OnceLock<(usize, usize)> = OnceLock::new();

/// Reads where this process's command line lies, once, for every reaper after it.
pub(crate) fn note_command_line() {
    let _ = COMMAND_LINE.get_or_init(|| {
        let text = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
        // The fields after the command's name (in parentheses, which may hold anything) start
        // with the third; `arg_start` and `arg_end` are the 48th and 49th.
        let fields: Vec<&str> = text
            .rsplit_once(')')
            .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
        let field = |n: usize| {
            fields
                .get(n - 3)
                .and_then(|text| text.parse::<usize>().ok())
        };
        match (field(48), field(49)) {
            (Some(start), Some(end)) if start < end && end - start < 1 << 20 => (start, end),
            _ => (0, 0),
        }
    });
}

/// Blanks this process's command line (a copy of the front end's, in the reaper).
fn blank_command_line() {
    if let Some(&(start, end)) = COMMAND_LINE.get()
        && start < end
    {
        // SAFETY: the kernel's `arg_start..arg_end` of this process (forked from the one that
        // read them, so the same addresses), mapped and writable; this process's own copy.
        unsafe {
            std::ptr::write_bytes(start as *mut u8, 0, end - start);
        }
    }
}

/// Tried as a program ([`try_as_program`]): whether its PID namespace can have a `/proc` of
/// its own, in a mount namespace of its own.
pub(crate) fn own_proc_trial() -> io::Result<()> {
    crate::View::default().enter(true, None)?;
    unshare(libc::CLONE_NEWPID)?;
    // The first child is the namespace's first process, as the reaper is.
    try_in_child(mount_own_proc)
}

/// Mounts the `/proc` of this process's PID namespace over `/proc` (in a mount namespace of
/// its own): system calls only.
fn mount_own_proc() -> io::Result<()> {
    // SAFETY: mount(2) with NUL-terminated strings.
    let mounted = unsafe {
        libc::mount(
            c"proc".as_ptr(),
            c"/proc".as_ptr(),
            c"proc".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            std::ptr::null(),
        )
    };
    if mounted == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Called in P between fork and exec; returns only in the program (B), which then execs.
/// With `own_proc`, A mounts the namespace's `/proc` first (P is then in a mount namespace of
/// its own).
pub(crate) fn start_program(own_proc: bool) -> io::Result<()> {
    // SAFETY: system calls only (mmap, pipe2, unshare, fork, read, write, close, waitpid,
    // prctl, kill, _exit), on memory this function maps and descriptors it makes.
    unsafe {
        // The program's wait status, written by A, read by P after A has exited.
        let shared = libc::mmap(
            std::ptr::null_mut(),
            4096,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        if shared == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        let slot = shared.cast::<i32>();
        slot.write_volatile(UNKNOWN);
        // A tells P whether it could fork the program: 0, or the errno.
        let mut report = [0; 2];
        if libc::pipe2(report.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            return Err(io::Error::last_os_error());
        }
        unshare(libc::CLONE_NEWPID)?;
        let init = libc::fork();
        if init < 0 {
            return Err(io::Error::last_os_error());
        }
        if init > 0 {
            libc::close(report[1]);
            let mut bytes = [0u8; 4];
            let read = libc::read(report[0], bytes.as_mut_ptr().cast(), 4);
            libc::close(report[0]);
            let errno = if read == 4 {
                i32::from_ne_bytes(bytes)
            } else {
                libc::EAGAIN
            };
            if errno != 0 {
                wait_for(init);
                return Err(io::Error::from_raw_os_error(errno));
            }
            close_everything();
            let init_status = wait_for(init);
            let program = slot.read_volatile();
            end_as(if program == UNKNOWN {
                init_status
            } else {
                program
            });
        }
        // A: PID 1 of the new namespace.
        libc::close(report[0]);
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        libc::prctl(libc::PR_SET_DUMPABLE, 0);
        blank_command_line();
        if own_proc && let Err(error) = mount_own_proc() {
            let errno = error.raw_os_error().unwrap_or(libc::EPERM);
            libc::write(report[1], errno.to_ne_bytes().as_ptr().cast(), 4);
            libc::_exit(127);
        }
        let program = libc::fork();
        if program == 0 {
            libc::close(report[1]);
            return Ok(());
        }
        let errno = if program < 0 {
            *libc::__errno_location()
        } else {
            0
        };
        libc::write(report[1], errno.to_ne_bytes().as_ptr().cast(), 4);
        libc::close(report[1]);
        if program < 0 {
            libc::_exit(127);
        }
        close_everything();
        loop {
            let mut status = 0;
            let waited = libc::waitpid(-1, &raw mut status, 0);
            if waited == program {
                slot.write_volatile(status);
                libc::_exit(0);
            }
            if waited < 0 && *libc::__errno_location() != libc::EINTR {
                libc::_exit(0);
            }
        }
    }
}

/// No wait status: A died before the program did (it was killed).
const UNKNOWN: i32 = i32::MIN;

/// Waits for child `pid`, through interruptions; its wait status.
unsafe fn wait_for(pid: libc::pid_t) -> i32 {
    let mut status = 0;
    // SAFETY: waitpid writes only to `status`.
    unsafe {
        while libc::waitpid(pid, &raw mut status, 0) < 0 {
            if *libc::__errno_location() != libc::EINTR {
                return libc::SIGKILL;
            }
        }
    }
    status
}

/// Closes every descriptor, the program's pipes among them.
unsafe fn close_everything() {
    // SAFETY: close_range and close only close descriptors of this process.
    unsafe {
        if libc::syscall(libc::SYS_close_range, 0u32, u32::MAX, 0u32) != 0 {
            for fd in 0..1024 {
                libc::close(fd);
            }
        }
    }
}

/// Ends this process as wait status `status` says its program ended: the same exit status, or
/// the same signal (with no core dump of ours).
unsafe fn end_as(status: i32) -> ! {
    // SAFETY: system calls on this process only.
    unsafe {
        if libc::WIFEXITED(status) {
            libc::_exit(libc::WEXITSTATUS(status));
        }
        let signal = if libc::WIFSIGNALED(status) {
            libc::WTERMSIG(status)
        } else {
            libc::SIGKILL
        };
        libc::prctl(libc::PR_SET_DUMPABLE, 0);
        blank_command_line();
        libc::signal(signal, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&raw mut set);
        libc::sigaddset(&raw mut set, signal);
        libc::sigprocmask(libc::SIG_UNBLOCK, &raw const set, std::ptr::null_mut());
        libc::kill(libc::getpid(), signal);
        libc::_exit(128 + signal);
    }
}
