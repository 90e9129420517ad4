//! Running untrusted programs contained, for the front ends that start other people's programs
//! (`othello check` grading submissions, `othello match` playing external engines).
//!
//! A [`Containment`] is probed once per run of the front end and says which [`Mode`] it got:
//! - **cgroup** (Linux, where a cgroup of our own can be made: v2 with the `pids` and `memory`
//!   controllers, or v1's `pids`, `cpuacct` and, if mounted, `memory`): every program runs in a
//!   fresh cgroup of its own, so that a process cap (`pids.max`), a memory cap for the whole
//!   tree, its CPU time and its killing all reach every process it starts, `setsid` or not;
//!   and, where the kernel allows (`unshare(CLONE_NEWPID)`), in a PID namespace of its own
//!   whose init is a small reaper of ours, so that the whole tree dies as soon as the program
//!   exits, with an IPC namespace (System V IPC that ends with it) and a `/proc` of that
//!   namespace (its processes only: nothing of the host's, this process's command line among
//!   them); and in a mount namespace of its own in which the directories of its
//!   [`Limits::view`] are read-only, hidden, scratch (`/tmp` of its own) or layered (changed in
//!   a layer of its own), and the rest of the host read-only where the view is sealed.
//! - **PID namespace** (no cgroup, as for most users who are not root, but the namespaces): the
//!   PID namespace under our reaper, its IPC namespace and `/proc`, and the view's mount
//!   namespace as above, for a user who is not root each in a user namespace of the program's
//!   own that maps the user to itself; the tree dies with the program and is killed with it,
//!   `setsid` or not; in a user namespace the process cap is `RLIMIT_NPROC`, counted there per
//!   tree; the memory cap is per process (`RLIMIT_AS`), and the CPU time is what `/proc` shows
//!   of the tree.
//! - **process group** (elsewhere, or when turned off): the program leads a process group of its
//!   own, which is what is killed; processes that leave it (`setsid`) escape, and nothing caps
//!   the number of processes.
//!
//! The library says which mode it got ([`Containment::mode`]) and why it has no cgroups
//! ([`Containment::fallback_reason`]); the front end says so once on standard error. It never
//! prints.

#[cfg(target_os = "linux")]
mod cgroup;
#[cfg(target_os = "linux")]
mod namespace;
#[cfg(target_os = "linux")]
mod network;
#[cfg(unix)]
mod rlimits;
#[cfg(target_os = "linux")]
mod start;
mod tree;
#[cfg(target_os = "linux")]
mod user_namespace;
mod view;

use std::io;
use std::path::Path;
use std::process::{Child, Command};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

pub use tree::Tree;
pub use view::View;

/// Calls `make` (which makes something under the next of a process's numbered names) until
/// a name is free: a process killed before it could remove what it made leaves it behind, and
/// a later one may have the same process id. Gives up after 1,000 names taken.
///
/// # Errors
/// `make`'s first error other than a name already taken, or the last one after 1,000.
pub fn first_free_name<T>(mut make: impl FnMut() -> std::io::Result<T>) -> std::io::Result<T> {
    let mut taken = 0;
    loop {
        match make() {
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists && taken < 1000 => {
                taken += 1;
            }
            result => return result,
        }
    }
}

/// The limits a contained program's whole tree runs under, where the mode can enforce them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Processes and threads at once in the tree (cgroup `pids.max`, or `RLIMIT_NPROC` in a
    /// user namespace of the program's own); `None` for no cap.
    pub max_processes: Option<u64>,
    /// Memory of the whole tree in bytes (cgroup `memory.max` / `memory.limit_in_bytes`); in
    /// the cgroup mode only.
    pub memory_bytes: Option<u64>,
    /// CPU seconds of each process (`RLIMIT_CPU`: SIGXCPU, then SIGKILL a second later), in
    /// every mode on Unix.
    pub cpu_seconds: Option<u64>,
    /// Address space of each process in bytes (`RLIMIT_AS`), in every mode on Unix.
    pub address_space_bytes: Option<u64>,
    /// Directories the tree may read but not change, and directories it does not see (a
    /// mount namespace per program, in the cgroup and PID namespace modes; made by
    /// [`Containment::view`], which says when it cannot be had).
    pub view: View,
    /// Whether the tree gets a network of its own with only its loopback interface (a network
    /// namespace, where [`Containment::offline`] says it can be had): it reaches no other
    /// machine and no service of this one.
    pub offline: bool,
    /// The user the tree runs as, where this process is root (`None`: this process's user):
    /// switched to by the program itself after everything of ours, supplementary groups
    /// dropped, so that it keeps no capability: it cannot write its cgroup's caps, undo the
    /// read-only directories or reach this process.
    pub user: Option<User>,
}

/// A user and group to run a program's tree as ([`Limits::user`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct User {
    /// The user id.
    pub uid: u32,
    /// The group id.
    pub gid: u32,
}

/// How programs are contained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A cgroup per program (`version` 1 or 2), with a PID namespace per program if
    /// `pid_namespace`.
    Cgroup {
        /// 1 or 2.
        version: u8,
        /// Whether each program is also PID 2 of a namespace of its own, under our reaper.
        pid_namespace: bool,
    },
    /// No cgroup, but a PID namespace per program under our reaper, each in a user namespace of
    /// its own if `user_namespace` (this process is not root).
    PidNamespace {
        /// Whether each program also has a user namespace of its own, which caps its tree's
        /// processes.
        user_namespace: bool,
    },
    /// A process group per program, and rlimits set by the caller.
    ProcessGroup,
}

/// The environment variable that turns cgroups and namespaces off when set to anything but
/// empty or `0`: the fallback that non-Linux hosts and hosts without permission get.
pub const DISABLE_VARIABLE: &str = "OTHELLO_NO_CGROUPS";

/// The environment variable that turns PID (and user) namespaces off (set to anything but empty
/// or `0`), cgroups kept: what a host without them gets, for measuring what they cost.
pub const NO_PID_NAMESPACE_VARIABLE: &str = "OTHELLO_NO_PID_NAMESPACE";

/// The containment available to this process, probed once (and kept as long as wanted: it holds
/// no resource; each program's cgroup goes with its [`Tree`]).
#[derive(Debug)]
pub struct Containment {
    #[cfg(target_os = "linux")]
    cgroups: Option<cgroup::Hierarchy>,
    pid_namespace: bool,
    /// The user namespace each program gets first, where this process is not root.
    #[cfg(target_os = "linux")]
    user: Option<user_namespace::UserNamespace>,
    /// Whether each program also gets an IPC namespace of its own (with its PID namespace, where
    /// the kernel allows it), so that System V shared memory, semaphores and message queues it
    /// makes end with it instead of staying on the host.
    ipc_namespace: bool,
    /// Why a program's PID namespace cannot have a `/proc` of its own (it sees the host's),
    /// if it cannot; `None` where it can or there is no PID namespace.
    host_proc_reason: Option<String>,
    fallback_reason: Option<String>,
}

impl Containment {
    /// Probes what this host allows: cgroups (v2, else v1) and PID namespaces (directly, else in
    /// a user namespace), unless `disable` or [`DISABLE_VARIABLE`] turns them off. Never fails:
    /// without cgroups it is the PID namespace mode or the process-group mode, with the reason.
    #[must_use]
    pub fn probe(disable: bool) -> Containment {
        let disabled_by_variable = std::env::var_os(DISABLE_VARIABLE)
            .is_some_and(|value| !value.is_empty() && value != "0");
        if disable || disabled_by_variable {
            return Containment::process_groups(format!(
                "cgroups turned off ({})",
                if disable {
                    "--no-cgroups".to_owned()
                } else {
                    format!("{DISABLE_VARIABLE} is set")
                }
            ));
        }
        Containment::probe_host()
    }

    #[cfg(target_os = "linux")]
    fn probe_host() -> Containment {
        let namespaces = if std::env::var_os(NO_PID_NAMESPACE_VARIABLE)
            .is_none_or(|value| value.is_empty() || value == "0")
        {
            namespace::probe()
        } else {
            Err(format!(
                "PID namespaces turned off ({NO_PID_NAMESPACE_VARIABLE} is set)"
            ))
        };
        namespace::note_command_line();
        let ipc_namespace = namespaces.as_ref().is_ok_and(|user| {
            namespace::try_as_program(user.as_ref(), || namespace::unshare(libc::CLONE_NEWIPC))
                .is_ok()
        });
        let host_proc_reason = match &namespaces {
            Ok(user) => namespace::try_as_program(user.as_ref(), namespace::own_proc_trial)
                .err()
                .map(|error| format!("cannot mount a /proc of its own: {error}")),
            Err(_) => None,
        };
        match (cgroup::Hierarchy::find(), namespaces) {
            (Ok(hierarchy), namespaces) => Containment {
                cgroups: Some(hierarchy),
                pid_namespace: namespaces.is_ok(),
                user: namespaces.ok().flatten(),
                ipc_namespace,
                host_proc_reason,
                fallback_reason: None,
            },
            (Err(reason), Ok(user)) => Containment {
                cgroups: None,
                pid_namespace: true,
                user,
                ipc_namespace,
                host_proc_reason,
                fallback_reason: Some(reason),
            },
            (Err(reason), Err(no_namespace)) => {
                Containment::process_groups(format!("{reason}; {no_namespace}"))
            }
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn probe_host() -> Containment {
        Containment::process_groups("cgroups are Linux's".to_owned())
    }

    fn process_groups(reason: String) -> Containment {
        Containment {
            #[cfg(target_os = "linux")]
            cgroups: None,
            pid_namespace: false,
            #[cfg(target_os = "linux")]
            user: None,
            ipc_namespace: false,
            host_proc_reason: None,
            fallback_reason: Some(reason),
        }
    }

    /// A view of the file system for the programs given it in their [`Limits`]: each
    /// program's tree then runs in a mount namespace of its own in which every directory of
    /// `read_only` is bound read-only over itself, every one of `hidden` is covered by an
    /// empty read-only `tmpfs`, and every one of `scratch` by an empty `tmpfs` of its own that
    /// anyone may write, of at most `scratch_bytes`, gone with the tree (the host's view is
    /// untouched). A working directory inside a scratch directory is made again there.
    ///
    /// # Errors
    /// Why it cannot be had here, in a sentence for the front end to say once: the
    /// process-group mode, a directory that cannot be read, or no permission to make mount
    /// namespaces (tried once, in a child, in the user namespace the programs get).
    pub fn view(
        &self,
        read_only: &[&Path],
        hidden: &[&Path],
        scratch: &[&Path],
        scratch_bytes: u64,
    ) -> Result<View, String> {
        if self.mode() == Mode::ProcessGroup {
            return Err("programs are contained by process group only".to_owned());
        }
        let view = View::prepare(read_only, hidden, scratch, scratch_bytes)
            .map_err(|error| error.to_string())?;
        self.try_view(&view)
            .map_err(|error| format!("cannot make a mount namespace: {error}"))?;
        Ok(view)
    }

    /// Whether a program could be given `view` (one made by [`Containment::view`], then
    /// perhaps [`View::sealed`] or [`View::layered`]): tried once, in a child, in the user
    /// namespace the programs get.
    ///
    /// # Errors
    /// The first system call that failed (no permission for mount namespaces, a kernel without
    /// `mount_setattr(2)` for a sealed view or without `overlay` for a layered one), or the
    /// process-group mode's `Unsupported`.
    pub fn try_view(&self, view: &View) -> io::Result<()> {
        if self.mode() == Mode::ProcessGroup {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "programs are contained by process group only",
            ));
        }
        #[cfg(target_os = "linux")]
        return namespace::try_as_program(self.user.as_ref(), || view.enter(false, None));
        #[cfg(not(target_os = "linux"))]
        return Ok(());
    }

    /// Whether programs can be given a network of their own ([`Limits::offline`]): tried once,
    /// in a child, in the user namespace the programs get.
    ///
    /// # Errors
    /// Why not, in a sentence for the front end to say once: the process-group mode, or no
    /// permission to make network namespaces.
    pub fn offline(&self) -> Result<(), String> {
        if self.mode() == Mode::ProcessGroup {
            return Err("programs are contained by process group only".to_owned());
        }
        #[cfg(target_os = "linux")]
        namespace::try_as_program(self.user.as_ref(), network::enter)
            .map_err(|error| format!("cannot make a network namespace: {error}"))?;
        Ok(())
    }

    /// The mode programs are contained in.
    #[must_use]
    pub fn mode(&self) -> Mode {
        #[cfg(target_os = "linux")]
        if let Some(hierarchy) = &self.cgroups {
            return Mode::Cgroup {
                version: hierarchy.version(),
                pid_namespace: self.pid_namespace,
            };
        }
        #[cfg(target_os = "linux")]
        if self.pid_namespace {
            return Mode::PidNamespace {
                user_namespace: self.user.is_some(),
            };
        }
        Mode::ProcessGroup
    }

    /// Why the programs' PID namespaces show the host's processes in `/proc` (a `/proc` of
    /// their own could not be mounted), where they do: for the front end to say once.
    #[must_use]
    pub fn host_proc_reason(&self) -> Option<&str> {
        self.host_proc_reason.as_deref()
    }

    /// Whether each program's PID namespace gets a `/proc` of its own.
    fn own_proc(&self) -> bool {
        self.pid_namespace && self.host_proc_reason.is_none()
    }

    /// Why cgroups are not used, if they are not (the PID namespace or the process-group mode):
    /// for the front end to say once, with what its mode leaves out.
    #[must_use]
    pub fn fallback_reason(&self) -> Option<&str> {
        self.fallback_reason.as_deref()
    }

    /// Starts `command` contained, under `limits` where the mode enforces them. The command's
    /// own settings (pipes, directory, environment) are kept; it is put in a process
    /// group of its own in every mode. The returned [`Tree`] kills and measures everything the
    /// program starts; it kills what is left when its last clone is dropped.
    ///
    /// A program file still open for writing somewhere (`ETXTBSY`: just written, or its
    /// descriptor inherited for a moment by a child that another thread forked before its own
    /// `exec`) is tried again for up to [`BUSY_PATIENCE`].
    ///
    /// # Errors
    /// The program cannot be started (not found, no permission, still busy after the patience,
    /// or no resources: `EAGAIN` when the host or the cgroup has no process to spare), or its
    /// cgroup cannot be made.
    pub fn spawn(&self, command: &mut Command, limits: &Limits) -> io::Result<(Child, Tree)> {
        self.spawn_into(command, limits, None)
    }

    /// [`Containment::spawn`], the tree added to `running` (when given) at once: each attempt
    /// holds the list locked, so that no tree exists unlisted, and a busy program file is
    /// waited for with the list unlocked.
    fn spawn_into(
        &self,
        command: &mut Command,
        limits: &Limits,
        running: Option<&Running>,
    ) -> io::Result<(Child, Tree)> {
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(command, 0);
        #[cfg(target_os = "linux")]
        let group = {
            let group = match &self.cgroups {
                Some(hierarchy) => Some(hierarchy.run_group(limits, self.pid_namespace)?),
                None => None,
            };
            let mut rlimits = rlimits::Rlimits::of(limits);
            if group.is_none() && self.user.is_some() {
                // The user namespace counts ours too: the process that waits and the reaper.
                rlimits = rlimits.with_processes(limits.max_processes.map(|max| max + 2));
            }
            start::Start {
                cgroup_procs: group
                    .as_ref()
                    .map_or_else(Vec::new, |group| group.procs().to_vec()),
                user_namespace: self.user,
                run_as: limits.user,
                view: limits.view.clone(),
                offline: limits.offline,
                pid_namespace: self.pid_namespace,
                ipc_namespace: self.pid_namespace && self.ipc_namespace,
                own_proc: self.own_proc(),
                rlimits,
            }
            .install(command);
            group
        };
        #[cfg(all(unix, not(target_os = "linux")))]
        {
            rlimits::Rlimits::of(limits).apply_on_start(command);
            if let Some(user) = limits.user {
                std::os::unix::process::CommandExt::uid(command, user.uid);
                std::os::unix::process::CommandExt::gid(command, user.gid);
            }
        }
        #[cfg(not(target_os = "linux"))]
        let group = None;
        let _ = limits;
        let give_up = Instant::now() + BUSY_PATIENCE;
        let mut pause = Duration::from_millis(1);
        loop {
            let list = running.map(Running::lock);
            match command.spawn() {
                Ok(child) => {
                    let tree = Tree::new(child.id(), group, self.pid_namespace);
                    if let Some(mut list) = list {
                        list.push(tree.clone());
                    }
                    return Ok((child, tree));
                }
                Err(error)
                    if error.kind() == io::ErrorKind::ExecutableFileBusy
                        && Instant::now() + pause < give_up =>
                {
                    drop(list);
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(100));
                }
                Err(error) => return Err(error),
            }
        }
    }
}

/// How long [`Containment::spawn`] keeps trying a program whose file is busy (`ETXTBSY`), with
/// pauses doubling from 1 ms to 100 ms.
pub const BUSY_PATIENCE: Duration = Duration::from_secs(2);

/// The trees of the programs a front end is running now, so that an interrupt kills them all:
/// a tree is listed the moment it exists ([`Running::spawn`]) and none starts after
/// [`Running::kill_all_for_exit`].
#[derive(Debug, Default)]
pub struct Running {
    trees: Mutex<Vec<Tree>>,
}

impl Running {
    /// An empty list, for a `static`.
    #[must_use]
    pub const fn new() -> Running {
        Running {
            trees: Mutex::new(Vec::new()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Tree>> {
        self.trees.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts `command` as [`Containment::spawn`] does, its tree listed here at once.
    ///
    /// # Errors
    /// As [`Containment::spawn`].
    pub fn spawn(
        &self,
        containment: &Containment,
        command: &mut Command,
        limits: &Limits,
    ) -> io::Result<(Child, Tree)> {
        containment.spawn_into(command, limits, Some(self))
    }

    /// Takes `tree` off the list (it has ended or been killed).
    pub fn remove(&self, tree: &Tree) {
        let id = tree.id();
        self.lock().retain(|running| running.id() != id);
    }

    /// How many trees are listed.
    #[must_use]
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no tree is listed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Kills every listed tree, with everything it started, and returns how many there were;
    /// none can be started afterwards (the list stays locked until the process exits, which
    /// the caller is about to do).
    pub fn kill_all_for_exit(&self) -> usize {
        let list = self.lock();
        for tree in list.iter() {
            tree.kill_for_exit();
        }
        let count = list.len();
        std::mem::forget(list);
        count
    }
}

#[cfg(all(test, unix))]
mod tests;
