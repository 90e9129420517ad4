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
            stat_fields(pid).and_then(|fields| fields.get(19)?.parse().ok())
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
            None => {
                let started = stat_fields(self.0.pid)?.get(19)?.parse::<u64>().ok();
                if started.is_none() || started != self.0.started {
                    return None;
                }
                descendants_cpu(self.0.pid)
            }
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
/// [`MOST_DESCENDANTS`]), each with its waited-for children's: `stat`'s utime, stime, cutime
/// and cstime, found through every thread's `children`. `None` when `pid` is gone.
#[cfg(target_os = "linux")]
fn descendants_cpu(pid: u32) -> Option<Duration> {
    let mut ticks = stat_ticks(pid)?;
    let mut pending = children(pid);
    let mut read = 1;
    while let Some(child) = pending.pop() {
        if read == MOST_DESCENDANTS {
            break;
        }
        read += 1;
        if let Some(more) = stat_ticks(child) {
            ticks += more;
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
fn descendants_cpu(_pid: u32) -> Option<Duration> {
    None
}

/// utime + stime + cutime + cstime of process `pid`, in clock ticks.
#[cfg(target_os = "linux")]
fn stat_ticks(pid: u32) -> Option<u64> {
    stat_fields(pid)?
        .get(11..15)?
        .iter()
        .map(|field| field.parse::<u64>().ok())
        .sum()
}

/// The fields of process `pid`'s `/proc/PID/stat` after the command name (which may hold
/// spaces): from the state, the 3rd, on.
#[cfg(target_os = "linux")]
fn stat_fields(pid: u32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    Some(
        stat.rsplit_once(')')?
            .1
            .split_whitespace()
            .map(str::to_owned)
            .collect(),
    )
}

#[cfg(not(target_os = "linux"))]
fn stat_fields(_pid: u32) -> Option<Vec<String>> {
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
