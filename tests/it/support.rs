//! Helpers shared by the tests that run the `othello` binary or replay the fixtures.

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;

/// The fixture root: `fixtures/protocol/{full,simple}/NAME.{in,out,status,err}`.
pub fn fixture_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/protocol")
}

/// The `othello` binary with a time limit, so that a hang fails the test instead of stalling.
pub fn othello() -> Command {
    let mut command = Command::cargo_bin("othello").expect("the othello binary is built");
    command.timeout(Duration::from_secs(60));
    command
}

/// One fixture: its input and what the program must do with it.
#[derive(Debug)]
pub struct Fixture {
    /// `full/NAME` or `simple/NAME`, for messages.
    pub name: String,
    /// `--rules` value: the fixture's directory.
    pub rules: &'static str,
    pub input: Vec<u8>,
    pub stdout: Vec<u8>,
    /// Exit status: `NAME.status`, or 0 when there is none.
    pub status: i32,
    /// Standard error: `NAME.err`, or nothing when there is none.
    pub stderr: Vec<u8>,
}

impl Fixture {
    /// Reads the fixture whose input is `path` (`.../full/NAME.in`).
    pub fn load(path: &Path) -> Fixture {
        let rules = match path
            .parent()
            .and_then(Path::file_name)
            .and_then(|d| d.to_str())
        {
            Some("full") => "full",
            Some("simple") => "simple",
            other => panic!(
                "fixture {} is not in full/ or simple/: {other:?}",
                path.display()
            ),
        };
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let sibling = |ext: &str| path.with_extension(ext);
        let read = |ext: &str| fs::read(sibling(ext)).ok();
        let status = read("status").map_or(0, |text| {
            String::from_utf8(text)
                .unwrap()
                .trim()
                .parse()
                .expect("a .status file holds an exit code")
        });
        Fixture {
            name: format!("{rules}/{stem}"),
            rules,
            input: fs::read(path).unwrap(),
            stdout: read("out").unwrap_or_else(|| panic!("{} has no .out", path.display())),
            status,
            stderr: read("err").unwrap_or_default(),
        }
    }

    /// Every fixture, sorted by name.
    pub fn all() -> Vec<Fixture> {
        let mut inputs = Vec::new();
        for dir in ["full", "simple"] {
            for entry in fs::read_dir(fixture_root().join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|ext| ext == "in") {
                    inputs.push(path);
                }
            }
        }
        inputs.sort();
        inputs.iter().map(|path| Fixture::load(path)).collect()
    }
}

/// A fresh, empty scratch directory for one test: `GROUP/NAME` under Cargo's test temp dir.
pub fn scratch(group: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(group)
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Whether the process `pid` is gone (or a zombie nobody has reaped yet).
pub fn is_gone(pid: u32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

/// Whether this host gives `othello check` and `othello match` cgroups (which cap a tree's
/// processes and say when the cap was hit).
pub fn contained_by_cgroups() -> bool {
    matches!(
        othello_contain::Containment::probe(false).mode(),
        othello_contain::Mode::Cgroup { .. }
    )
}

/// Whether a program's whole tree ends with it here (a cgroup or a PID namespace): else
/// `check` and `match` fall back to process groups and say so once on standard error.
pub fn contains_whole_trees() -> bool {
    othello_contain::Containment::probe(false).mode() != othello_contain::Mode::ProcessGroup
}

/// Standard error as a contained run leaves it: empty, or the one line that says containment
/// has no cgroups or that the cases are not hidden from the programs.
pub fn quiet_but_for_the_fallback_note(stderr: &str) -> bool {
    stderr.is_empty()
        || (stderr.lines().count() == 1
            && (stderr.contains("programs are contained by ")
                || stderr.contains("engines are contained by process group only")
                || stderr.starts_with("othello: the cases are not hidden from the programs: ")))
}

/// `check --each`'s summary table with its two time columns (CPU and wall seconds, which vary
/// from run to run) checked to be numbers and written as `-`, so that the rest can be compared.
pub fn mask_summary_times(summary: &str) -> String {
    let mut lines = summary.lines();
    let header = lines.next().unwrap_or_default();
    let at = header.find("   cpu s  wall s").expect("the time columns");
    let mut masked = vec![header.to_owned()];
    for line in lines {
        if line.len() < at + 16 || line.ends_with("passed every case") {
            masked.push(line.to_owned());
            continue;
        }
        let times = &line[at..at + 16];
        for time in times.split_whitespace() {
            time.parse::<f64>()
                .unwrap_or_else(|_| panic!("a time: {time:?} in {line:?}"));
        }
        masked.push(format!(
            "{}       -       -{}",
            &line[..at],
            &line[at + 16..]
        ));
    }
    masked.join("\n") + "\n"
}

/// Waits up to 10 s for every process with `argument` among its arguments to be gone (how
/// tests follow processes in PID namespaces, whose pids are not ours).
pub fn assert_gone_by_argument(argument: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while processes_with_argument(argument) > 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "a process with argument {argument:?} is still running"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// How many live processes (not zombies) have `argument` among their arguments: how tests find
/// what a contained program started, whose pids inside its PID namespace are not ours.
pub fn processes_with_argument(argument: &str) -> usize {
    pids_with_an_argument(|word| word == argument.as_bytes()).len()
}

/// How many live processes have an argument with `text` in it.
pub fn processes_with_argument_containing(text: &str) -> usize {
    pids_with_an_argument(|word| String::from_utf8_lossy(word).contains(text)).len()
}

/// Kills every process with `argument` among its arguments: what escaped a program where the
/// fallback lets it, so that it does not outlive the test.
pub fn kill_with_argument(argument: &str) {
    for pid in pids_with_an_argument(|word| word == argument.as_bytes()) {
        // SAFETY: kill(2) has no memory-safety preconditions.
        #[cfg(unix)]
        unsafe {
            libc::kill(pid as libc::pid_t, libc::SIGKILL);
        }
    }
}

/// The live processes (not zombies) with an argument that `matches`.
fn pids_with_an_argument(matches: impl Fn(&[u8]) -> bool) -> Vec<u32> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let cmdline = fs::read(path.join("cmdline")).ok()?;
            let pid: u32 = path.file_name()?.to_str()?.parse().ok()?;
            Some((pid, cmdline))
        })
        .filter(|(pid, cmdline)| !is_gone(*pid) && cmdline.split(|&byte| byte == 0).any(&matches))
        .map(|(pid, _)| pid)
        .collect()
}

/// A real Othello file from `shared/data/real/` (public files that are not the project's, read
/// where they are): `$OTHELLO_REAL_DATA`, else `../shared/data/real` beside the repository (as
/// in CI), else `shared/data/real` in an ancestor directory. A missing file fails the test,
/// naming where it was looked for.
pub fn real_file(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut places: Vec<PathBuf> = std::env::var_os("OTHELLO_REAL_DATA")
        .map(PathBuf::from)
        .into_iter()
        .collect();
    places.extend(root.ancestors().map(|dir| dir.join("shared/data/real")));
    places.push(PathBuf::from("/work/shared/data/real"));
    places
        .iter()
        .map(|dir| dir.join(name))
        .find(|path| path.exists())
        .unwrap_or_else(|| {
            panic!(
                "the real file {name} is in none of {places:?}: put shared/data/real beside the \
                 repository or set OTHELLO_REAL_DATA"
            )
        })
}

/// Sends SIGINT to a running `othello` (as Ctrl-C does) and returns its exit status and
/// standard error (empty where it is not piped, or no longer).
#[cfg(target_os = "linux")]
pub fn interrupt(child: &mut std::process::Child) -> (Option<i32>, String) {
    use std::io::Read;

    // SAFETY: kill(2) has no memory-safety preconditions.
    unsafe {
        libc::kill(libc::pid_t::try_from(child.id()).unwrap(), libc::SIGINT);
    }
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        pipe.read_to_string(&mut stderr).unwrap();
    }
    (status.code(), stderr)
}

/// Waits up to 10 s for every process of `pids` (one id a line) to be gone.
pub fn assert_all_gone(pids: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    for pid in pids.lines() {
        let pid: u32 = pid.trim().parse().unwrap();
        while !is_gone(pid) {
            assert!(
                std::time::Instant::now() < deadline,
                "process {pid} is still running"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

/// An executable shell script `name` in `dir` (`#!/bin/sh` and `body`): a fake engine, a
/// wrapper, a hostile program.
pub fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}
