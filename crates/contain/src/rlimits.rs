//! Per-process limits (`RLIMIT_CPU`, `RLIMIT_AS`, and in a user namespace of the program's own
//! `RLIMIT_NPROC`), set in the program itself between fork and exec, after everything of ours
//! that runs there (the namespace's reaper is forked before, so that the checker's large address
//! space, copied by the fork, does not count against them). They are inherited by everything the
//! program starts.

use std::io;

/// The limits as the kernel takes them; nothing is set for `None`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rlimits {
    cpu_seconds: Option<libc::rlim_t>,
    address_space: Option<libc::rlim_t>,
    /// Processes and threads of the user in its user namespace (`RLIMIT_NPROC`).
    processes: Option<libc::rlim_t>,
}

impl Rlimits {
    pub(crate) fn of(limits: &crate::Limits) -> Rlimits {
        Rlimits {
            cpu_seconds: limits.cpu_seconds.map(|secs| secs as libc::rlim_t),
            address_space: limits
                .address_space_bytes
                .map(|bytes| bytes as libc::rlim_t),
            processes: None,
        }
    }

    /// With `RLIMIT_NPROC` at `max`: a cap on the tree's processes only where the program has
    /// a user namespace of its own, whose count of processes is the tree's (elsewhere the count
    /// is of all the user's processes, and root is not held to it).
    #[cfg(target_os = "linux")]
    pub(crate) fn with_processes(self, max: Option<u64>) -> Rlimits {
        Rlimits {
            processes: max.map(|max| max as libc::rlim_t),
            ..self
        }
    }

    /// Sets them in the calling process: only setrlimit(2), which is async-signal-safe and
    /// allocates nothing, as code between fork and exec must be.
    pub(crate) fn apply(self) -> io::Result<()> {
        let set = |resource, soft: libc::rlim_t, hard: libc::rlim_t| {
            let limit = libc::rlimit {
                rlim_cur: soft,
                rlim_max: hard,
            };
            // SAFETY: setrlimit only reads the struct passed by reference.
            if unsafe { libc::setrlimit(resource, &raw const limit) } != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        };
        if let Some(secs) = self.cpu_seconds {
            // Soft limit: SIGXCPU; one second later the hard limit: SIGKILL.
            set(libc::RLIMIT_CPU, secs, secs.saturating_add(1))?;
            // SIGXCPU dumps core by default: no core files in the working directory.
            set(libc::RLIMIT_CORE, 0, 0)?;
        }
        if let Some(bytes) = self.address_space {
            set(libc::RLIMIT_AS, bytes, bytes)?;
        }
        if let Some(max) = self.processes {
            set(libc::RLIMIT_NPROC, max, max)?;
        }
        Ok(())
    }

    /// Whether any limit is set.
    pub(crate) fn any(self) -> bool {
        self.cpu_seconds.is_some() || self.address_space.is_some() || self.processes.is_some()
    }

    /// Has `command` set them between fork and exec (nothing is added without limits); on
    /// Linux `Start` does it, with everything else.
    #[cfg(not(target_os = "linux"))]
    pub(crate) fn apply_on_start(self, command: &mut std::process::Command) {
        if !self.any() {
            return;
        }
        // SAFETY: the closure only calls setrlimit (see `apply`).
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(command, move || self.apply());
        }
    }
}
