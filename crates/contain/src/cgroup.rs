//! Linux cgroups: a fresh one for every program (`othello-PID-N`) under the cgroups this process
//! is in, with its caps, its CPU time and its killing, removed when the program's tree is gone
//! (so nothing is left behind even by a process that never drops its [`crate::Containment`]).
//!
//! v2 (one unified hierarchy whose `cgroup.subtree_control` hands `pids`, and `memory` if it can,
//! to our children) is preferred; otherwise v1, one directory per controller: `pids` and
//! `cpuacct` are required, and `memory` is used if mounted, for the programs given a memory cap
//! (a memory cgroup costs the most to make and remove). A tree is killed with no freezer: its
//! `pids.max` set to 0 first, nothing in it can start a process while each is killed.

use std::ffi::CString;
use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::Limits;

/// The directories of one cgroup, by what each is used for (in v2 all the same).
#[derive(Clone, Debug)]
struct Dirs {
    pids: PathBuf,
    cpu: PathBuf,
    memory: Option<PathBuf>,
}

impl Dirs {
    fn join(&self, name: &str) -> Dirs {
        Dirs {
            pids: self.pids.join(name),
            cpu: self.cpu.join(name),
            memory: self.memory.as_ref().map(|dir| dir.join(name)),
        }
    }

    /// Each directory once.
    fn distinct(&self) -> Vec<PathBuf> {
        let mut all = vec![self.pids.clone(), self.cpu.clone()];
        all.extend(self.memory.clone());
        all.sort();
        all.dedup();
        all
    }
}

/// The cgroup directories this process is in, parents of every program's.
#[derive(Debug)]
pub(crate) struct Hierarchy {
    version: u8,
    dirs: Dirs,
}

/// Numbers the programs' cgroups of this process.
static NEXT: AtomicU64 = AtomicU64::new(0);

impl Hierarchy {
    /// Finds our cgroups and checks that a program's can be made there (one is made and
    /// removed); the reason it cannot, for the fallback's message.
    pub(crate) fn find() -> Result<Hierarchy, String> {
        let own = fs::read_to_string("/proc/self/cgroup")
            .map_err(|error| format!("cannot read /proc/self/cgroup: {error}"))?;
        let mounts = fs::read_to_string("/proc/self/mounts")
            .map_err(|error| format!("cannot read /proc/self/mounts: {error}"))?;
        let hierarchy = match v2_base(&own, &mounts) {
            Some(dirs) => Hierarchy { version: 2, dirs },
            None => Hierarchy {
                version: 1,
                dirs: v1_base(&own, &mounts)?,
            },
        };
        let probe = hierarchy
            .run_group(&Limits::default(), false)
            .map_err(|error| {
                format!(
                    "cannot make a cgroup in {}: {error}",
                    hierarchy.dirs.pids.display()
                )
            })?;
        drop(probe);
        Ok(hierarchy)
    }

    pub(crate) fn version(&self) -> u8 {
        self.version
    }

    /// Makes a fresh cgroup for one program, with its caps. With a PID namespace two more
    /// processes than the cap are allowed: ours, which wait for the program (see `namespace`).
    pub(crate) fn run_group(&self, limits: &Limits, pid_namespace: bool) -> io::Result<RunGroup> {
        let group = crate::first_free_name(|| self.fresh_group(limits))?;
        let max = match limits.max_processes {
            Some(max) => (max + if pid_namespace { 2 } else { 0 }).to_string(),
            None => "max".to_owned(),
        };
        fs::write(group.dirs.pids.join("pids.max"), max)?;
        if let (Some(bytes), Some(dir)) = (limits.memory_bytes, &group.dirs.memory) {
            let file = if self.version == 2 {
                "memory.max"
            } else {
                "memory.limit_in_bytes"
            };
            fs::write(dir.join(file), bytes.to_string())?;
        }
        Ok(group)
    }

    /// A program's cgroup under the next unused number of this process, made but not yet
    /// limited.
    fn fresh_group(&self, limits: &Limits) -> io::Result<RunGroup> {
        let number = NEXT.fetch_add(1, Ordering::Relaxed);
        let mut dirs = self
            .dirs
            .join(&format!("othello-{}-{number}", std::process::id()));
        if self.version == 1 && limits.memory_bytes.is_none() {
            dirs.memory = None;
        }
        let mut group = RunGroup {
            version: self.version,
            procs: Vec::new(),
            dirs,
            made: Vec::new(),
        };
        // Made one by one, each removed again (by the drop) if a later one fails.
        for dir in group.dirs.distinct() {
            fs::create_dir(&dir)?;
            group.made.push(dir.clone());
            group.procs.push(
                CString::new(dir.join("cgroup.procs").as_os_str().as_bytes())
                    .map_err(io::Error::other)?,
            );
        }
        Ok(group)
    }
}

/// The v2 directory we are in, if the unified hierarchy has `pids` (and `memory`) to give.
fn v2_base(own: &str, mounts: &str) -> Option<Dirs> {
    let mount = mounts.lines().find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        (fields.get(2) == Some(&"cgroup2")).then(|| PathBuf::from(fields[1]))
    })?;
    let path = own.lines().find_map(|line| line.strip_prefix("0::"))?;
    let dir = mount.join(path.trim_start_matches('/'));
    // What our children get: a cgroup with processes of its own cannot hand on more.
    let controllers = fs::read_to_string(dir.join("cgroup.subtree_control")).ok()?;
    let has = |name: &str| controllers.split_whitespace().any(|word| word == name);
    if !has("pids") {
        return None;
    }
    Some(Dirs {
        pids: dir.clone(),
        cpu: dir.clone(),
        memory: has("memory").then(|| dir.clone()),
    })
}

/// The v1 directories we are in, one per controller.
fn v1_base(own: &str, mounts: &str) -> Result<Dirs, String> {
    let find = |controller: &str| -> Option<PathBuf> {
        let mount = mounts.lines().find_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            (fields.get(2) == Some(&"cgroup")
                && fields
                    .get(3)
                    .is_some_and(|options| options.split(',').any(|word| word == controller)))
            .then(|| PathBuf::from(fields[1]))
        })?;
        let path = own.lines().find_map(|line| {
            let mut parts = line.splitn(3, ':');
            let (_, names, path) = (parts.next()?, parts.next()?, parts.next()?);
            names
                .split(',')
                .any(|name| name == controller)
                .then_some(path)
        })?;
        Some(mount.join(path.trim_start_matches('/')))
    };
    let required = |controller: &str| {
        find(controller).ok_or_else(|| format!("no cgroup {controller} controller mounted"))
    };
    Ok(Dirs {
        pids: required("pids")?,
        cpu: required("cpuacct")?,
        memory: find("memory"),
    })
}

/// One program's cgroup.
#[derive(Debug)]
pub(crate) struct RunGroup {
    version: u8,
    dirs: Dirs,
    /// Each `cgroup.procs` to write the started process into, made before the fork.
    procs: Vec<CString>,
    /// The directories made, to remove.
    made: Vec<PathBuf>,
}

impl RunGroup {
    /// Each `cgroup.procs` the started process writes itself into between fork and exec (see
    /// `Start`), so that nothing it starts is ever outside.
    pub(crate) fn procs(&self) -> &[CString] {
        &self.procs
    }

    /// Kills every process of the group: no new one can be started (`pids.max` 0), then v2's
    /// `cgroup.kill`, or each listed process until none is left.
    pub(crate) fn kill(&self) {
        let _ = fs::write(self.dirs.pids.join("pids.max"), "0");
        if self.version == 2 && fs::write(self.dirs.pids.join("cgroup.kill"), "1").is_ok() {
            return;
        }
        for _ in 0..200 {
            let pids = self.pids();
            if pids.is_empty() {
                break;
            }
            for pid in pids {
                // SAFETY: kill(2) has no memory-safety preconditions; the pid is in the group
                // now (a process that has exited leaves it at once).
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    fn pids(&self) -> Vec<libc::pid_t> {
        fs::read_to_string(self.dirs.pids.join("cgroup.procs"))
            .unwrap_or_default()
            .lines()
            .filter_map(|line| line.trim().parse().ok())
            .collect()
    }

    pub(crate) fn cpu_time(&self) -> Option<Duration> {
        if self.version == 2 {
            let stat = fs::read_to_string(self.dirs.cpu.join("cpu.stat")).ok()?;
            let micros = field(&stat, "usage_usec")?;
            return Some(Duration::from_micros(micros));
        }
        let nanos = fs::read_to_string(self.dirs.cpu.join("cpuacct.usage")).ok()?;
        Some(Duration::from_nanos(nanos.trim().parse().ok()?))
    }

    pub(crate) fn out_of_memory(&self) -> bool {
        let Some(dir) = &self.dirs.memory else {
            return false;
        };
        let (file, name) = if self.version == 2 {
            ("memory.events", "oom_kill")
        } else {
            ("memory.oom_control", "oom_kill")
        };
        fs::read_to_string(dir.join(file))
            .ok()
            .and_then(|text| field(&text, name))
            .is_some_and(|count| count > 0)
    }

    pub(crate) fn hit_process_cap(&self) -> bool {
        fs::read_to_string(self.dirs.pids.join("pids.events"))
            .ok()
            .and_then(|text| field(&text, "max"))
            .is_some_and(|count| count > 0)
    }
}

impl RunGroup {
    /// `rmdir` of one of the group's directories, retried while its last processes finish
    /// dying (a fork bomb's take a while), killing again every 10 ms, for at most 5 s.
    fn remove_when_empty(&self, dir: &Path) {
        for attempt in 1..=2500 {
            match fs::remove_dir(dir) {
                Err(error) if error.raw_os_error() == Some(libc::EBUSY) => {
                    if attempt % 50 == 0 {
                        self.kill();
                    }
                    std::thread::sleep(Duration::from_micros(200));
                }
                _ => return,
            }
        }
    }
}

impl RunGroup {
    /// Kills what is left and removes the group's directories (waiting a little for the killed
    /// processes to leave them); again later, nothing is left to do.
    pub(crate) fn remove(&self) {
        self.kill();
        for dir in &self.made {
            if dir.exists() {
                self.remove_when_empty(dir);
            }
        }
    }
}

impl Drop for RunGroup {
    fn drop(&mut self) {
        self.remove();
    }
}

/// The number after `name ` on a line of a `key value` file.
fn field(text: &str, name: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (key, value) = line.split_once(' ')?;
        (key == name).then(|| value.trim().parse().ok())?
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fields_of_key_value_files() {
        let text = "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n";
        assert_eq!(field(text, "oom_kill"), Some(3));
        assert_eq!(field(text, "max"), None);
    }

    #[test]
    fn a_group_left_by_an_earlier_checker_of_the_same_id_is_passed_over() {
        let base = std::env::temp_dir().join(format!("othello-groups-{}", std::process::id()));
        let _ = fs::remove_dir_all(&base);
        fs::create_dir_all(&base).unwrap();
        // Plain directories stand for the cgroups: only their names matter here.
        let hierarchy = Hierarchy {
            version: 1,
            dirs: Dirs {
                pids: base.clone(),
                cpu: base.clone(),
                memory: None,
            },
        };
        let next = NEXT.load(Ordering::Relaxed);
        let left: Vec<PathBuf> = (next..next + 3)
            .map(|number| base.join(format!("othello-{}-{number}", std::process::id())))
            .collect();
        for dir in &left {
            fs::create_dir(dir).unwrap();
        }
        let group = hierarchy.run_group(&Limits::default(), false);
        let made = group
            .as_ref()
            .map(|group| group.dirs.pids.clone())
            .map_err(ToString::to_string);
        drop(group);
        fs::remove_dir_all(&base).unwrap();
        let made = made.unwrap();
        assert!(
            made.starts_with(&base) && !left.contains(&made),
            "{}",
            made.display()
        );
    }

    #[test]
    fn finds_v1_directories_from_mounts_and_own_paths() {
        let mounts = "cgroup /sys/fs/cgroup/pids cgroup rw,relatime,pids 0 0\n\
                      cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,cpu,cpuacct 0 0\n\
                      cgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\n";
        let own = "8:pids:/\n2:cpu,cpuacct:/user.slice\n0::/\n";
        let dirs = v1_base(own, mounts).unwrap();
        assert_eq!(dirs.pids, Path::new("/sys/fs/cgroup/pids"));
        assert_eq!(dirs.cpu, Path::new("/sys/fs/cgroup/cpu,cpuacct/user.slice"));
        assert!(dirs.memory.is_none());
        assert!(
            v1_base("0::/\n", mounts)
                .unwrap_err()
                .contains("pids controller")
        );
    }
}
