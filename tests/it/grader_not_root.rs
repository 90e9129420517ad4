//! `othello check` run by a user who is not root (`nobody`, switched to from root), as a
//! teacher runs it: no cgroups can be made, and where the kernel lets that user make user
//! namespaces every program gets PID and user namespaces of its own, said once on standard
//! error: a program cannot rewrite the cases or its neighbour's program (files its user owns),
//! what it leaves running in a session of its own ends with it, and a fork bomb stops at the
//! process cap. Where the kernel does not allow it, the one line says why. And root's
//! `--run-as`: programs run as another user, root's powers out of their reach.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::grader::othello_path;
use crate::grader_hostile::{class, expect_all, verdicts};
use crate::support::{
    othello, processes_with_argument, processes_with_argument_containing, scratch,
};

/// The user the check runs as.
const NOBODY: u32 = 65534;

/// Gives `path` and everything under it to `nobody`.
fn give_to_nobody(path: &Path) {
    std::os::unix::fs::chown(path, Some(NOBODY), Some(NOBODY)).unwrap();
    if path.is_dir() {
        for entry in fs::read_dir(path).unwrap() {
            give_to_nobody(&entry.unwrap().path());
        }
    }
}

#[cfg(target_os = "linux")]
#[test]
fn as_a_user_who_is_not_root_each_program_gets_namespaces_of_its_own() {
    // SAFETY: geteuid(2) cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("not root: cannot switch to nobody (this run is itself the case tested)");
        return;
    }
    let root = scratch("grader_not_root", "class");
    let cases = root.join("cases");
    let neighbour = root.join("students/b-correct/run.sh");
    let cheat = format!(
        "for f in {}/*.out; do echo 'I PASS' > \"$f\"; done 2>/dev/null\n\
         echo 'echo I PASS' > {} 2>/dev/null\n\
         echo 'I PASS'",
        cases.canonicalize().unwrap_or(cases.clone()).display(),
        neighbour.display()
    );
    class(
        &root,
        &[
            ("a-cheat", &cheat),
            ("b-correct", "exec {o}"),
            (
                "c-setsid",
                "setsid sleep 338.25 </dev/null >/dev/null 2>&1 &\nexec {o}",
            ),
            ("d-bomb", "bomb() { bomb | bomb & }; bomb; exec {o}"),
        ],
    );
    give_to_nobody(&root);
    let mut command = std::process::Command::new(othello_path());
    command
        .current_dir(&root)
        .args(["check", "cases", "--each", "students/*/", "--jobs", "2"])
        .args(["--max-processes", "8", "--timeout", "3"])
        .args(["--report", "json=report.json", "--", "./run.sh"]);
    for variable in ["OTHELLO_NO_CGROUPS", "OTHELLO_NO_PID_NAMESPACE"] {
        command.env_remove(variable);
    }
    std::os::unix::process::CommandExt::uid(&mut command, NOBODY);
    std::os::unix::process::CommandExt::gid(&mut command, NOBODY);
    let output = match assert_cmd::Command::from_std(command)
        .timeout(Duration::from_secs(120))
        .output()
    {
        Err(error) if error.to_string().contains("Permission denied") => {
            eprintln!("skipped: nobody may not run this build's othello here ({error})");
            return;
        }
        output => output.unwrap(),
    };
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot make a cgroup"), "{stderr}");
    if stderr.contains("programs are contained by process group only") {
        // This kernel keeps user namespaces from users who are not root: said, with why.
        assert!(stderr.contains("nor in a user namespace: "), "{stderr}");
        return;
    }
    assert!(
        stderr.ends_with(
            ": programs are contained by PID and user namespaces, without a cgroup (--memory \
             caps each process, not the whole tree)\n"
        ),
        "{stderr}"
    );
    let report: Value =
        serde_json::from_str(&fs::read_to_string(root.join("report.json")).unwrap()).unwrap();
    let programs = report["programs"].as_array().unwrap();
    expect_all(programs, "a-cheat", "FAIL");
    expect_all(programs, "b-correct", "PASS");
    expect_all(programs, "c-setsid", "PASS");
    assert_eq!(verdicts(programs, "d-bomb").len(), 3);
    // The cheat's user owns the files it tried to rewrite: the namespace kept them.
    let first = fs::read_to_string(cases.join("0001.out")).unwrap();
    assert!(first.starts_with("FULL\n"), "{first}");
    let script = fs::read_to_string(&neighbour).unwrap();
    assert!(script.contains("exec "), "{script}");
    assert_eq!(processes_with_argument("338.25"), 0);
    // The bomb's shells (`/bin/sh .../d-bomb/./run.sh`) went with its cases.
    let deadline = Instant::now() + Duration::from_secs(10);
    while processes_with_argument_containing("/d-bomb/") > 0 {
        assert!(Instant::now() < deadline, "the fork bomb is still running");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// From root with `--run-as nobody`: a program that tries root's ways out (remounting the cases
/// writable, lifting its cgroup's process cap) cannot, its case files stay as they were, and it
/// may still write its working directory; a user who is not root may not use the option.
#[cfg(target_os = "linux")]
#[test]
fn run_as_a_user_who_is_not_root_keeps_root_s_powers_from_the_programs() {
    // SAFETY: geteuid(2) cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return;
    }
    let root = scratch("grader_not_root", "run_as");
    let cases = root.join("cases");
    let cheat = format!(
        "mount -o remount,rw,bind {cases} 2>/dev/null; echo 'I PASS' > {cases}/0001.out 2>/dev/null\n\
         own=$(sed -n 's/^[0-9]*:pids:\\(.*\\)/\\1/p; s/^0::\\(.*\\)/\\1/p' /proc/self/cgroup)\n\
         for f in /sys/fs/cgroup/pids$own/pids.max /sys/fs/cgroup$own/pids.max; do\n\
           [ -e \"$f\" ] && (echo max > \"$f\") 2>/dev/null && echo \"wrote $f\" >&2\n\
         done\n\
         echo mine > ./scratch || exit 3\n\
         exec {{o}}",
        cases = cases.canonicalize().unwrap_or(cases.clone()).display()
    );
    class(&root, &[("a-cheat", &cheat), ("b-correct", "exec {o}")]);
    let output = othello()
        .current_dir(&root)
        .args([
            "check",
            "cases",
            "--each",
            "students/*/",
            "--run-as",
            "nobody",
        ])
        .args(["--report", "json=report.json", "--", "./run.sh"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    if stderr.contains("Permission denied") {
        eprintln!("skipped: nobody may not run this build's othello here ({stderr})");
        return;
    }
    let report: Value =
        serde_json::from_str(&fs::read_to_string(root.join("report.json")).unwrap()).unwrap();
    let programs = report["programs"].as_array().unwrap();
    expect_all(programs, "a-cheat", "PASS");
    expect_all(programs, "b-correct", "PASS");
    let first = fs::read_to_string(cases.join("0001.out")).unwrap();
    assert!(first.starts_with("FULL\n"), "{first}");
    let said = programs[0]["cases"][0]["stderr"].as_str().unwrap();
    assert!(!said.contains("wrote"), "{said}");

    let mut command = std::process::Command::new(othello_path());
    command
        .current_dir(&root)
        .args(["check", "cases", "--run-as", "root", "--", "cat"]);
    std::os::unix::process::CommandExt::uid(&mut command, NOBODY);
    std::os::unix::process::CommandExt::gid(&mut command, NOBODY);
    let refused = command.output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(refused.stderr).unwrap(),
        "othello: --run-as root: only root may run the programs as another user (this is user \
         65534)\n"
    );
}
