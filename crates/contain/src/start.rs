//! What runs in a started program between fork and exec, in this order: it enters its cgroup
//! (so that nothing it starts is ever outside), a user namespace of its own where this process
//! needs one to make the others, a network of its own where asked, the mount namespace of its
//! view (the host sealed; read-only, hidden, layered and scratch directories), an IPC
//! namespace, and the PID namespace under our reaper (which mounts its `/proc` and forks the
//! program); last, in the program itself, the user it runs as and its rlimits (after the
//! reaper's fork, so that the front end's large address space, copied by the fork, does not
//! count against them). Only system calls, on memory made before the fork or on the stack.

use std::ffi::CString;
use std::io;
use std::process::Command;

use crate::rlimits::Rlimits;
use crate::user_namespace::{UserNamespace, write_file};
use crate::{User, View};

/// Everything a started program enters, prepared.
#[derive(Debug)]
pub(crate) struct Start {
    /// Each `cgroup.procs` to write the process into (writing 0 names the writer); none
    /// without a cgroup.
    pub(crate) cgroup_procs: Vec<CString>,
    /// The user namespace to make first, where this process is not root.
    pub(crate) user_namespace: Option<UserNamespace>,
    /// The directories the tree sees read-only or not at all.
    pub(crate) view: View,
    /// Whether the tree gets a network of its own ([`crate::network`]).
    pub(crate) offline: bool,
    /// Whether the program is PID 2 of a namespace of its own (see [`crate::namespace`]).
    pub(crate) pid_namespace: bool,
    /// Whether the tree also has an IPC namespace of its own, made before the PID namespace's.
    pub(crate) ipc_namespace: bool,
    /// Whether that namespace has a `/proc` of its own (in a mount namespace of its own).
    pub(crate) own_proc: bool,
    /// The user the program runs as, switched to last.
    pub(crate) run_as: Option<User>,
    /// The program's rlimits.
    pub(crate) rlimits: Rlimits,
}

impl Start {
    /// Has `command`'s process do it all between fork and exec; nothing is added when there is
    /// nothing to do (the standard library then starts the program the fast way).
    pub(crate) fn install(self, command: &mut Command) {
        if self.cgroup_procs.is_empty()
            && self.user_namespace.is_none()
            && self.run_as.is_none()
            && self.view.is_empty()
            && !self.offline
            && !self.pid_namespace
            && !self.rlimits.any()
        {
            return;
        }
        // SAFETY: between fork and exec `run` makes system calls only (those of `write_file`,
        // `UserNamespace::enter`, `namespace::unshare`, `network::enter`, `View::enter`,
        // `namespace::start_program`, `switch_to` and `Rlimits::apply`), which are
        // async-signal-safe; it allocates nothing.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(command, move || self.run());
        }
    }

    fn run(&self) -> io::Result<()> {
        for path in &self.cgroup_procs {
            write_file(path, b"0")?;
        }
        if let Some(user) = &self.user_namespace {
            user.enter()?;
        }
        if self.offline {
            crate::network::enter()?;
        }
        let own_proc = self.pid_namespace && self.own_proc;
        self.view.enter(own_proc, self.run_as)?;
        if self.ipc_namespace {
            crate::namespace::unshare(libc::CLONE_NEWIPC)?;
        }
        if self.pid_namespace {
            crate::namespace::start_program(own_proc)?;
        }
        if let Some(user) = self.run_as {
            switch_to(user)?;
        }
        self.rlimits.apply()
    }
}

/// Makes the calling process `user`, with no supplementary group: system calls only. From root
/// to another user, `setuid` clears every capability.
fn switch_to(user: User) -> io::Result<()> {
    // SAFETY: setgroups(2) with no groups reads nothing; setgid(2) and setuid(2) touch no memory.
    unsafe {
        if libc::setgroups(0, std::ptr::null()) != 0
            || libc::setgid(user.gid) != 0
            || libc::setuid(user.uid) != 0
        {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}
