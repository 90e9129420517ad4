//! What runs in a started program between fork and exec, in this order: it enters its cgroup
//! (so that nothing it starts is ever outside), a user namespace of its own where this process
//! needs one to make the others, the mount namespace of its read-only directories, and the PID
//! namespace under our reaper (which forks the program); last, in the program itself, its
//! rlimits (after the reaper's fork, so that the front end's large address space, copied by
//! the fork, does not count against them). Only system calls, on memory made before the fork.

use std::ffi::CString;
use std::io;
use std::process::Command;

use crate::ReadOnly;
use crate::rlimits::Rlimits;
use crate::user_namespace::{UserNamespace, write_file};

/// Everything a started program enters, prepared.
#[derive(Debug)]
pub(crate) struct Start {
    /// Each `cgroup.procs` to write the process into (writing 0 names the writer); none
    /// without a cgroup.
    pub(crate) cgroup_procs: Vec<CString>,
    /// The user namespace to make first, where this process is not root.
    pub(crate) user: Option<UserNamespace>,
    /// The directories the tree sees read-only.
    pub(crate) read_only: ReadOnly,
    /// Whether the program is PID 2 of a namespace of its own (see [`crate::namespace`]).
    pub(crate) pid_namespace: bool,
    /// The program's rlimits.
    pub(crate) rlimits: Rlimits,
}

impl Start {
    /// Has `command`'s process do it all between fork and exec; nothing is added when there is
    /// nothing to do (the standard library then starts the program the fast way).
    pub(crate) fn install(self, command: &mut Command) {
        if self.cgroup_procs.is_empty()
            && self.user.is_none()
            && self.read_only.is_empty()
            && !self.pid_namespace
            && !self.rlimits.any()
        {
            return;
        }
        // SAFETY: between fork and exec `run` makes system calls only (those of
        // `write_file`, `UserNamespace::enter`, `ReadOnly::enter`, `namespace::start_program`
        // and `Rlimits::apply`), which are async-signal-safe; it allocates nothing.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(command, move || self.run());
        }
    }

    fn run(&self) -> io::Result<()> {
        for path in &self.cgroup_procs {
            write_file(path, b"0")?;
        }
        if let Some(user) = &self.user {
            user.enter()?;
        }
        self.read_only.enter()?;
        if self.pid_namespace {
            crate::namespace::start_program()?;
        }
        self.rlimits.apply()
    }
}
