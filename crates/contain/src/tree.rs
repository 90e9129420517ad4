//! A contained program's tree of processes: killing it and what it used.

use std::sync::Arc;
use std::time::Duration;

#[cfg(target_os = "linux")]
use crate::cgroup::RunGroup as Group;
/// No cgroups where they do not exist.
#[cfg(not(target_os = "linux"))]
type Group = std::convert::Infallible;

/// Every process a contained program starts; cloned freely (threads that wait for the program
/// and the one that kills it at its deadline share it). When the last clone is dropped, what is
/// left of the tree is killed and its cgroup removed.
#[derive(Clone, Debug)]
pub struct Tree(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    pid: u32,
    group: Option<Group>,
    /// Whether the program is in a PID namespace of its own, which dies with `pid`.
    pid_namespace: bool,
    /// When `pid` started (`stat`'s starttime), read at once without a cgroup: another process
    /// given the same id later is not the program.
    started: Option<u64>,
}

impl Tree {
    pub(crate) fn new(pid: u32, group: Option<Group>, pid_namespace: bool) -> Tree {
        let started = if group.is_none() {
            stat(pid).map(|stat| stat.started)
        } else {
            None
        };
        Tree(Arc::new(Inner {
            pid,
            group,
            pid_namespace,
            started,
        }))
    }

    /// The process id of the program as started (its process group's id too).
    #[must_use]
    pub fn id(&self) -> u32 {
        self.0.pid
    }

    /// Whether the whole tree is reachable (a cgroup or a PID namespace): false in the
    /// process-group mode, where processes that left the group cannot be found.
    #[must_use]
    pub fn is_whole(&self) -> bool {
        self.0.group.is_some() || self.0.pid_namespace
    }

    /// Kills every process of the tree: by its cgroup, so that none escapes; else the
    /// program's process group (in a PID namespace, the namespace dies with its process), which
    /// must be called before the program is reaped (until then its id cannot have been
    /// reused).
    pub fn kill(&self) {
        match &self.0.group {
            #[cfg(target_os = "linux")]
            Some(group) => group.kill(),
            #[cfg(not(target_os = "linux"))]
            Some(never) => match *never {},
            None => kill_process_group(self.0.pid),
        }
    }

    /// Kills every process of the tree and removes its cgroup now, as a process about to exit
    /// must (the last clone's drop, which does it otherwise, will not come); see [`Tree::kill`].
    pub fn kill_for_exit(&self) {
        match &self.0.group {
            #[cfg(target_os = "linux")]
            Some(group) => group.remove(),
            #[cfg(not(target_os = "linux"))]
            Some(never) => match *never {},
            None => kill_process_group(self.0.pid),
        }
    }

    /// CPU time (user and system) of every process the tree has had, as counted by its cgroup;
    /// without one, what `/proc` shows now of the program and its descendants (with what each
    /// has reaped: in a PID namespace, everything that ended but what its end killed), `None`
    /// once the program is reaped (the caller then has its rusage).
    #[must_use]
    pub fn cpu_time(&self) -> Option<Duration> {
        match &self.0.group {
            #[cfg(target_os = "linux")]
            Some(group) => group.cpu_time(),
            #[cfg(not(target_os = "linux"))]
            Some(never) => match *never {},
            None => descendants_cpu(self.0.pid, self.0.started?),
        }
    }

    /// Whether the kernel killed a process of the tree for passing its memory cap.
    #[must_use]
    pub fn out_of_memory(&self) -> bool {
        match &self.0.group {
            #[cfg(target_os = "linux")]
            Some(group) => group.out_of_memory(),
            #[cfg(not(target_os = "linux"))]
            Some(never) => match *never {},
            None => false,
        }
    }

    /// Whether a process of the tree was refused for passing the process cap (`pids.max`).
    #[must_use]
    pub fn hit_process_cap(&self) -> bool {
        match &self.0.group {
            #[cfg(target_os = "linux")]
            Some(group) => group.hit_process_cap(),
            #[cfg(not(target_os = "linux"))]
            Some(never) => match *never {},
            None => false,
        }
    }
}

/// The most processes [`descendants_cpu`] reads: a bound on its work against a fork bomb.
const MOST_DESCENDANTS: usize = 10_000;

/// User and system CPU time of process `pid` and of each descendant it has now (at most
/// [`MOST_DESCENDANTS`]), each with its waited-for children's, found through every thread's
/// `children`. `None` when `pid` is gone or is not the process that started at `started` (its
/// id given to another).
#[cfg(target_os = "linux")]
fn descendants_cpu(pid: u32, started: u64) -> Option<Duration> {
    let root = stat(pid).filter(|root| root.started == started)?;
    let mut ticks = root.ticks;
    let mut pending = children(pid);
    let mut read = 1;
    while let Some(child) = pending.pop() {
        if read == MOST_DESCENDANTS {
            break;
        }
        read += 1;
        if let Some(more) = stat(child) {
            ticks += more.ticks;
            pending.extend(children(child));
        }
    }
    // SAFETY: sysconf has no memory-safety preconditions.
    let per_second = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).ok()?;
    Some(Duration::from_secs_f64(
        ticks as f64 / per_second.max(1) as f64,
    ))
}

#[cfg(not(target_os = "linux"))]
fn descendants_cpu(_pid: u32, _started: u64) -> Option<Duration> {
    None
}

/// What a process's `/proc/PID/stat` says that is used here.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
struct Stat {
    /// utime + stime + cutime + cstime, in clock ticks.
    ticks: u64,
    /// When it started, in clock ticks after boot.
    started: u64,
}

/// Process `pid`'s [`Stat`], if it can be read.
#[cfg(target_os = "linux")]
fn stat(pid: u32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name (which may hold spaces), from the state (the 3rd) on.
    let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
    let number = |at: usize| fields.get(at)?.parse::<u64>().ok();
    Some(Stat {
        ticks: (11..15).map(number).sum::<Option<u64>>()?,
        started: number(19)?,
    })
}

#[cfg(not(target_os = "linux"))]
fn stat(_pid: u32) -> Option<Stat> {
    None
}

/// The children of process `pid` now, those of every one of its threads.
#[cfg(target_os = "linux")]
fn children(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("children")).ok())
        .flat_map(|list| {
            list.split_whitespace()
                .filter_map(|child| child.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect()
}

/// Kills the process group led by `pid`.
#[cfg(unix)]
fn kill_process_group(pid: u32) {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return;
    };
    // SAFETY: kill(2) has no memory-safety preconditions; the program leads its own process
    // group (`Containment::spawn`), whose id is its pid.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
}

/// Kills the program and the processes it started.
#[cfg(not(unix))]
fn kill_process_group(pid: u32) {
    let _ = std::process::Command::new("taskkill")
        .args(["/F", "/T", "/PID", &pid.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
}
