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
}

impl Tree {
    pub(crate) fn new(pid: u32, group: Option<Group>) -> Tree {
        Tree(Arc::new(Inner { pid, group }))
    }

    /// The process id of the program as started (its process group's id too).
    #[must_use]
    pub fn id(&self) -> u32 {
        self.0.pid
    }

    /// Whether the whole tree is reachable (a cgroup): false in the process-group mode, where
    /// processes that left the group cannot be found.
    #[must_use]
    pub fn is_whole(&self) -> bool {
        self.0.group.is_some()
    }

    /// Kills every process of the tree: by its cgroup, so that none escapes; in the
    /// process-group mode, the program's process group, which must be called before the program
    /// is reaped (until then its id cannot have been reused).
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
    /// `None` in the process-group mode (where the caller has only the reaped program's rusage).
    #[must_use]
    pub fn cpu_time(&self) -> Option<Duration> {
        match &self.0.group {
            #[cfg(target_os = "linux")]
            Some(group) => group.cpu_time(),
            #[cfg(not(target_os = "linux"))]
            Some(never) => match *never {},
            None => None,
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
