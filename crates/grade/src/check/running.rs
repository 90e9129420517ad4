//! Running one program on one input: a child process contained by `othello_contain` (a cgroup
//! and a PID namespace of its own where the host allows, else its own process group), in a fresh
//! working directory, under the per-case limits, fed, drained and waited for by detached helper
//! threads, and killed with its whole tree at the deadline, when its output passes the cap, or
//! as soon as it has exited (whatever it left running is not waited for).

use othello::text::counted;
use othello_contain::{Containment, Running, Tree, View};
use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use super::CheckError;

/// The limits every case runs under.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limits {
    /// Wall-clock time, after which the process group is killed.
    pub timeout: Duration,
    /// CPU seconds per process (`RLIMIT_CPU`), if limited.
    pub cpu_seconds: Option<u64>,
    /// Address space per process in MiB (`RLIMIT_AS`), and memory of the whole tree where
    /// cgroups are had, if limited.
    pub memory_mb: Option<u64>,
    /// Processes and threads of the whole tree at once, where cgroups are had.
    pub max_processes: Option<u64>,
    /// The user the programs run as (`--run-as`), when not this process's.
    pub run_as: Option<othello_contain::User>,
    /// Whether each program gets a network of its own with only its loopback (not
    /// `--network`, where it can be had).
    pub offline: bool,
}

/// How a run ended.
#[derive(Debug)]
pub(super) enum Ending {
    /// The program exited (the status is `None` if it could not be collected).
    Exited(Option<ExitStatus>),
    /// Killed at the deadline.
    TimedOut,
    /// Killed for printing more than the cap.
    Overflowed,
}

/// What the operating system says a finished program used, with the children it waited for.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Usage {
    /// User and system CPU seconds.
    pub cpu_seconds: f64,
    /// Peak resident memory in KiB.
    pub peak_kib: u64,
}

/// What a program did with one input.
#[derive(Debug)]
pub(super) struct Run {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub ending: Ending,
    /// Known when the program exited by itself on a platform that tells.
    pub usage: Option<Usage>,
    /// Wall-clock time from start to end (or kill).
    pub elapsed: Duration,
    /// Whether the kernel killed a process of the tree at the memory cap (cgroups only).
    pub out_of_memory: bool,
    /// Whether a process or thread of the tree was refused at `--max-processes`.
    pub hit_process_cap: bool,
}

/// The programs running now.
static RUNNING: Running = Running::new();

/// On SIGINT, SIGTERM or SIGHUP, kills every program still running with its tree (each leads a
/// process group of its own, which the terminal's Ctrl-C does not reach) and exits with status
/// 130.
pub(super) fn stop_children_on_interrupt() -> Result<(), CheckError> {
    ctrlc::set_handler(|| {
        // No program can be started after the kills.
        let stopped = RUNNING.kill_all_for_exit();
        remove_workspaces_for_exit();
        // Written without `eprintln!`, which panics when standard error has gone: the exit
        // must come whatever the stream does.
        let _ = writeln!(
            io::stderr(),
            "\nothello: interrupted; stopped {}",
            counted(stopped, "running case", "running cases")
        );
        std::process::exit(130);
    })
    .map_err(|error| CheckError::Threads(io::Error::other(error)))
}

/// Messages from the helper threads of one run.
enum Event {
    /// The program has exited (it is not yet reaped, so its process group id stays its own).
    Exited,
    /// The program is reaped: its status and what it used, as far as known.
    Reaped(Option<ExitStatus>, Option<Usage>),
    StdoutClosed {
        overflow: bool,
    },
    StderrClosed,
}

/// How long to wait for the helper threads after killing a program: only processes that left
/// its process group could keep its pipes open longer.
const GRACE: Duration = Duration::from_secs(1);

/// Standard error kept for the report.
pub(super) const STDERR_CAP: usize = 4096;

/// Why a program could not be run.
#[derive(Debug)]
pub(super) enum ExecuteError {
    /// The program could not be started.
    Program(io::Error),
    /// The checker could not start the threads that feed and watch it, or the program's
    /// working directory.
    Threads(io::Error),
}

/// Where and how a program runs.
pub(super) struct Launch<'a> {
    /// The command line.
    pub command: &'a [OsString],
    /// `OTHELLO_SUBMISSION` in its environment: the submission's directory.
    pub submission: Option<&'a Path>,
    /// The containment probed for this run of the checker.
    pub containment: &'a Containment,
    /// What its tree sees of the file system.
    pub view: &'a View,
}

/// Runs `launch`'s command in a fresh temporary working directory of its own (removed after)
/// with `input` on standard input until it exits, prints more than `cap` bytes, or the timeout
/// passes.
pub(super) fn execute(
    launch: &Launch<'_>,
    input: Vec<u8>,
    cap: usize,
    limits: &Limits,
) -> Result<Run, ExecuteError> {
    let command = launch.command;
    let kept = Workspace::make().map_err(ExecuteError::Threads)?;
    let workspace = kept.path();
    #[cfg(unix)]
    if let Some(user) = limits.run_as {
        std::os::unix::fs::chown(workspace, Some(user.uid), Some(user.gid))
            .map_err(ExecuteError::Threads)?;
    }
    let mut process = Command::new(&command[0]);
    process
        .args(&command[1..])
        .current_dir(workspace)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(submission) = launch.submission {
        process.env("OTHELLO_SUBMISSION", submission);
    }
    let tree_limits = othello_contain::Limits {
        max_processes: limits.max_processes,
        memory_bytes: limits.memory_mb.map(|mb| mb.saturating_mul(1024 * 1024)),
        cpu_seconds: limits.cpu_seconds,
        address_space_bytes: limits.memory_mb.map(|mb| mb.saturating_mul(1024 * 1024)),
        view: launch.view.clone(),
        offline: limits.offline,
        user: limits.run_as,
    };
    let started = Instant::now();
    let deadline = started + limits.timeout;
    let (child, tree) = RUNNING
        .spawn(launch.containment, &mut process, &tree_limits)
        .map_err(ExecuteError::Program)?;
    let result = supervise(child, &tree, input, cap, deadline);
    if result.is_err() {
        tree.kill();
    }
    RUNNING.remove(&tree);
    let mut run = result.map_err(ExecuteError::Threads)?;
    run.elapsed = started.elapsed();
    // Everything has ended: the cgroup's count is the whole tree's CPU time.
    if let (Some(usage), Some(cpu)) = (&mut run.usage, tree.cpu_time()) {
        usage.cpu_seconds = usage.cpu_seconds.max(cpu.as_secs_f64());
    }
    run.out_of_memory = tree.out_of_memory();
    run.hit_process_cap = tree.hit_process_cap();
    Ok(run)
}

/// Numbers the working directories of this run of the checker.
static NEXT_WORKSPACE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A program's working directory, removed with whatever it left there when dropped, or at an
/// interrupt while its program runs.
struct Workspace(PathBuf);

/// The working directories of the programs running now.
static WORKSPACES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn workspaces() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    WORKSPACES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Workspace {
    /// Makes one in the temporary folder under the next free number of this process, listed
    /// (under the list's lock, so that an interrupt finds every one made).
    fn make() -> io::Result<Workspace> {
        let mut listed = workspaces();
        let dir = othello_contain::first_free_name(|| {
            let dir = std::env::temp_dir().join(format!(
                "othello-check-{}-{}",
                std::process::id(),
                NEXT_WORKSPACE.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            ));
            std::fs::create_dir(&dir).map(|()| dir)
        })?;
        listed.push(dir.clone());
        Ok(Workspace(dir))
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
        workspaces().retain(|dir| *dir != self.0);
    }
}

/// Removes the working directories of the programs running now, for an exit at an interrupt
/// (after their programs are killed): none is made or removed after it.
fn remove_workspaces_for_exit() {
    let listed = workspaces();
    for dir in listed.iter() {
        let _ = std::fs::remove_dir_all(dir);
    }
    std::mem::forget(listed);
}

/// Feeds, drains and waits for a started program (see [`execute`]); fails only when a helper
/// thread cannot be started.
fn supervise(
    mut child: Child,
    tree: &Tree,
    input: Vec<u8>,
    cap: usize,
    deadline: Instant,
) -> io::Result<Run> {
    let (events, received) = mpsc::channel();

    let stdin = child.stdin.take();
    helper(move || {
        if let Some(mut stdin) = stdin {
            // A program may stop reading early; that is for the verdict to judge.
            let _ = stdin.write_all(&input);
        }
    })?;
    let stdout = Arc::new(Mutex::new(Vec::new()));
    if let Some(pipe) = child.stdout.take() {
        let (buffer, events) = (Arc::clone(&stdout), events.clone());
        helper(move || {
            let overflow = drain(pipe, &buffer, cap, true);
            let _ = events.send(Event::StdoutClosed { overflow });
        })?;
    }
    let stderr = Arc::new(Mutex::new(Vec::new()));
    if let Some(pipe) = child.stderr.take() {
        let (buffer, events) = (Arc::clone(&stderr), events.clone());
        helper(move || {
            drain(pipe, &buffer, STDERR_CAP, false);
            let _ = events.send(Event::StderrClosed);
        })?;
    }
    // The waiter reports the exit, then waits for the run to be over (`reap`) before it kills
    // what is left of the tree and reaps the program: whatever the program left running when it
    // exited is stopped, and (without cgroups) its process group cannot have been reused
    // meanwhile, as the unreaped program still holds its id.
    let (reap, reap_now) = mpsc::channel::<()>();
    let waiter_tree = tree.clone();
    helper(move || {
        let exited = wait_for_exit(&child);
        let _ = events.send(Event::Exited);
        let _ = reap_now.recv();
        if exited {
            waiter_tree.kill();
        }
        let (status, usage) = reap_child(child);
        // Let go of the tree first, so that the run (not this detached thread, which the
        // checker may outlive) removes its cgroup.
        drop(waiter_tree);
        let _ = events.send(Event::Reaped(status, usage));
    })?;

    let (mut exited, mut stdout_open, mut stderr_open) = (false, true, true);
    let (mut status, mut usage) = (None, None);
    let mut killed = None;
    let mut wait_until = deadline;
    while !exited || stdout_open || stderr_open {
        match received.recv_timeout(wait_until.saturating_duration_since(Instant::now())) {
            Ok(Event::Exited) => {
                exited = true;
                // The program is done: what it left running (a background child holding its
                // output) is killed now, and its output judged as it stands.
                if killed.is_none() && (stdout_open || stderr_open) {
                    tree.kill();
                    wait_until = wait_until.min(Instant::now() + GRACE);
                }
            }
            Ok(Event::Reaped(exit, used)) => (exited, status, usage) = (true, exit, used),
            Ok(Event::StdoutClosed { overflow }) => {
                stdout_open = false;
                if overflow && killed.is_none() {
                    tree.kill();
                    killed = Some(Ending::Overflowed);
                    wait_until = Instant::now() + GRACE;
                }
            }
            Ok(Event::StderrClosed) => stderr_open = false,
            // Exited, its output still held by a process that escaped the kill (only without
            // cgroups): judged on what it printed.
            Err(mpsc::RecvTimeoutError::Timeout) if exited => break,
            Err(mpsc::RecvTimeoutError::Timeout) if killed.is_none() => {
                tree.kill();
                killed = Some(Ending::TimedOut);
                wait_until = Instant::now() + GRACE;
            }
            Err(_) => break,
        }
    }
    drop(reap);
    if exited && status.is_none() {
        // The program is a zombie: reaping it is immediate.
        while let Ok(event) = received.recv_timeout(GRACE) {
            if let Event::Reaped(exit, used) = event {
                (status, usage) = (exit, used);
                break;
            }
        }
    }
    let take = |buffer: &Mutex<Vec<u8>>| {
        std::mem::take(
            &mut *buffer
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    };
    Ok(Run {
        stdout: take(&stdout),
        stderr: take(&stderr),
        ending: killed.unwrap_or(Ending::Exited(status)),
        usage,
        elapsed: Duration::ZERO,
        out_of_memory: false,
        hit_process_cap: false,
    })
}

/// Waits until the program has exited, without reaping it; false if that cannot be known.
#[cfg(unix)]
fn wait_for_exit(child: &Child) -> bool {
    let Some(pid) = libc::id_t::try_from(child.id()).ok() else {
        return false;
    };
    loop {
        // SAFETY: `siginfo_t` is plain old data, for which all zeroes is a valid value.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: waitid(2) writes only to `info`; WNOWAIT leaves the child to be reaped later.
        let waited = unsafe {
            libc::waitid(
                libc::P_PID,
                pid,
                &raw mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if waited == 0 {
            return true;
        }
        if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return false;
        }
    }
}

/// Reaps the program: its exit status, with what it and the children it waited for used.
#[cfg(unix)]
fn reap_child(child: Child) -> (Option<ExitStatus>, Option<Usage>) {
    use std::os::unix::process::ExitStatusExt;

    let Ok(pid) = libc::pid_t::try_from(child.id()) else {
        return (None, None);
    };
    let mut status = 0;
    // SAFETY: `rusage` is plain old data, for which all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: wait4(2) writes only to the two locals passed; `pid` is our own child, which
        // nothing else reaps (the `Child` is never waited on through the standard library).
        let waited = unsafe { libc::wait4(pid, &raw mut status, 0, &raw mut usage) };
        if waited == pid {
            break;
        }
        if waited == -1 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
            continue;
        }
        return (None, None);
    }
    let seconds = |time: libc::timeval| time.tv_sec as f64 + time.tv_usec as f64 / 1e6;
    // Linux and the BSDs count ru_maxrss in KiB, macOS in bytes.
    let peak = u64::try_from(usage.ru_maxrss).unwrap_or(0);
    let peak_kib = if cfg!(target_os = "macos") {
        peak / 1024
    } else {
        peak
    };
    drop(child);
    (
        Some(ExitStatus::from_raw(status)),
        Some(Usage {
            cpu_seconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
            peak_kib,
        }),
    )
}

/// Waits until the program has exited (it is reaped later, by [`reap_child`]).
#[cfg(not(unix))]
fn wait_for_exit(_child: &Child) -> bool {
    true
}

/// Reaps the program.
#[cfg(not(unix))]
fn reap_child(mut child: Child) -> (Option<ExitStatus>, Option<Usage>) {
    (child.wait().ok(), None)
}

/// Starts a detached helper thread: one that is stuck on a pipe held open by an escaped
/// process must not hold up the checker.
fn helper(work: impl FnOnce() + Send + 'static) -> io::Result<()> {
    thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(work)
        .map(drop)
}

/// Reads `pipe` to its end, keeping the first `cap` bytes in `buffer`. With `stop_at_cap`, stops
/// at the first byte past the cap and returns true; otherwise reads on and discards the rest.
fn drain(mut pipe: impl Read, buffer: &Mutex<Vec<u8>>, cap: usize, stop_at_cap: bool) -> bool {
    let mut chunk = vec![0; 64 * 1024];
    loop {
        let read = match pipe.read(&mut chunk) {
            Ok(0) => return false,
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return false,
        };
        let mut kept = buffer
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let room = cap.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..read.min(room)]);
        if read > room && stop_at_cap {
            return true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn a_working_directory_left_by_an_earlier_checker_of_the_same_id_is_passed_over() {
        let next = NEXT_WORKSPACE.load(Ordering::Relaxed);
        let left: Vec<PathBuf> = (next..next + 3)
            .map(|number| {
                std::env::temp_dir().join(format!("othello-check-{}-{number}", std::process::id()))
            })
            .collect();
        for dir in &left {
            std::fs::create_dir_all(dir).unwrap();
        }
        let made = Workspace::make();
        for dir in &left {
            std::fs::remove_dir(dir).unwrap();
        }
        let made = made.unwrap();
        let path = made.path().to_owned();
        assert!(!left.contains(&path), "{}", path.display());
        assert!(path.is_dir());
        assert!(workspaces().contains(&path));
        drop(made);
        assert!(!path.exists());
        assert!(!workspaces().contains(&path));
    }
}
