//! `othello check` against hostile programs, the five faults of a first hostile pass: a fork
//! bomb under a process cap, `setsid` children with and without the output held, a program that
//! rewrites the expected outputs and its neighbour's program, a background child holding
//! standard output; and the fallback to process groups, forced. Then the cheats of a second:
//! reading the expected outputs (the cases' directory found in the checker's command line) and
//! running a neighbour's program; one that litters and fills `/tmp`, and one that writes beside
//! the class and fills its own submission. What needs cgroups is checked where the host has them
//! (and said where it does not).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use predicates::prelude::*;
use serde_json::Value;

use crate::grader::{generate, othello_path};
use crate::support::{
    contained_by_cgroups, contains_whole_trees, kill_with_argument, othello,
    processes_with_argument, quiet_but_for_the_fallback_note, scratch,
};

/// A class under `root`: the cases in `root/cases`, and one submission directory per
/// `(name, script body)` with `run.sh` (`{o}` in a body is this build's `othello`).
pub(crate) fn class(root: &Path, students: &[(&str, &str)]) -> PathBuf {
    let cases = root.join("cases");
    generate(&cases, &["--count", "3", "--seed", "45", "--sizes", "4..6"]);
    let o = othello_path().display().to_string();
    for (name, body) in students {
        let dir = root.join("students").join(name);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.sh");
        fs::write(&path, format!("#!/bin/sh\n{}\n", body.replace("{o}", &o))).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
    cases
}

/// Two submissions that run this build's `othello`, which passes every case.
const TWO_CORRECT: &[(&str, &str)] = &[("a-correct", "exec {o}"), ("b-correct", "exec {o}")];

/// Runs `check --each` on the class with `extra` options; the JSON report's programs by name,
/// and standard error.
fn grade(root: &Path, extra: &[&str]) -> (Vec<Value>, String) {
    let output = othello()
        .current_dir(root)
        .args(["check", "cases", "--each", "students/*/"])
        .args(["--timeout", "3", "--report", "json=report.json"])
        .args(extra)
        .args(["--", "./run.sh"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        output.status.code().is_some_and(|code| code <= 1),
        "{stderr}"
    );
    let json: Value =
        serde_json::from_str(&fs::read_to_string(root.join("report.json")).unwrap()).unwrap();
    (json["programs"].as_array().unwrap().clone(), stderr)
}

/// The verdicts of one program's cases.
pub(crate) fn verdicts(programs: &[Value], name: &str) -> Vec<String> {
    let program = programs
        .iter()
        .find(|program| program["name"] == name)
        .unwrap_or_else(|| panic!("no program {name}"));
    program["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| case["verdict"].as_str().unwrap().to_owned())
        .collect()
}

/// Checks that every case of one program has `verdict`; otherwise fails with what the report
/// says of its cases (exit, detail, standard error), so that a rare failure can be told apart.
pub(crate) fn expect_all(programs: &[Value], name: &str, verdict: &str) {
    if verdicts(programs, name) != vec![verdict.to_owned(); 3] {
        let program = programs.iter().find(|program| program["name"] == name);
        panic!(
            "{name}: expected {verdict} in every case, the report says {:#}",
            program.expect("found by verdicts")["cases"]
        );
    }
}

#[cfg(unix)]
#[test]
fn a_fork_bomb_is_its_own_verdict_and_the_others_are_graded() {
    if !contained_by_cgroups() {
        eprintln!("no cgroups here: the fork bomb is not run");
        return;
    }
    let root = scratch("grader_hostile", "fork_bomb");
    class(
        &root,
        &[
            ("a-correct", "exec {o}"),
            ("b-bomb", "bomb() { bomb | bomb & }; bomb; exec {o}"),
            ("c-correct", "exec {o}"),
        ],
    );
    let started = Instant::now();
    let (programs, stderr) = grade(&root, &["--max-processes", "8", "--jobs", "2"]);
    assert!(quiet_but_for_the_fallback_note(&stderr), "{stderr}");
    expect_all(&programs, "a-correct", "PASS");
    expect_all(&programs, "c-correct", "PASS");
    // The bomb runs into the cap in the background while its program answers: it is judged
    // like any other (its verdicts are there), and its processes went with its cases.
    assert_eq!(verdicts(&programs, "b-bomb").len(), 3);
    assert!(started.elapsed() < Duration::from_secs(60));
}

#[cfg(unix)]
#[test]
fn a_program_that_cannot_fork_under_the_cap_is_told_so() {
    if !contained_by_cgroups() {
        return;
    }
    let root = scratch("grader_hostile", "process_cap");
    // The shell must fork to run othello (no exec): at a cap of 1 it cannot.
    class(&root, &[("a-forks", "{o}")]);
    let (programs, _) = grade(&root, &["--max-processes", "1"]);
    let case = &programs[0]["cases"][0];
    assert_eq!(case["verdict"], "CRASH", "{case}");
    let detail = case["detail"].as_str().unwrap();
    assert!(
        detail.contains("hit the process limit (1, --max-processes)"),
        "{detail}"
    );
}

#[cfg(unix)]
#[test]
fn setsid_children_are_killed_with_or_without_the_output_held() {
    let root = scratch("grader_hostile", "setsid");
    class(
        &root,
        &[
            (
                "a-setsid-detached",
                "setsid sleep 334.25 </dev/null >/dev/null 2>&1 &\nexec {o}",
            ),
            ("b-setsid-holding", "setsid sleep 334.5 &\nexec {o}"),
        ],
    );
    let (programs, _) = grade(&root, &["--jobs", "2"]);
    if !contains_whole_trees() {
        // Under process groups a setsid child escapes: said, not hidden (and ended here).
        kill_with_argument("334.25");
        kill_with_argument("334.5");
        return;
    }
    expect_all(&programs, "a-setsid-detached", "PASS");
    expect_all(&programs, "b-setsid-holding", "PASS");
    assert_eq!(processes_with_argument("334.25"), 0);
    assert_eq!(processes_with_argument("334.5"), 0);
}

#[cfg(unix)]
#[test]
fn a_program_rewriting_the_expected_outputs_is_judged_against_the_originals() {
    let root = scratch("grader_hostile", "rewrite");
    let cases = root
        .join("cases")
        .canonicalize()
        .unwrap_or(root.join("cases"));
    let neighbour = root.join("students/b-correct/run.sh");
    let cheat = format!(
        "for f in {}/*.out; do echo 'I PASS' > \"$f\"; done 2>/dev/null\n\
         echo 'echo I PASS' > {} 2>/dev/null\n\
         echo kept > \"$OTHELLO_SUBMISSION/own\"\necho 'I PASS'",
        cases.display(),
        neighbour.display()
    );
    class(&root, &[("a-cheat", &cheat), ("b-correct", "exec {o}")]);
    let (programs, stderr) = grade(&root, &["--jobs", "1"]);
    expect_all(&programs, "a-cheat", "FAIL");
    let own = fs::read_to_string(root.join("students/a-cheat/own")).ok();
    let first = fs::read_to_string(root.join("cases/0001.out")).unwrap();
    let script = fs::read_to_string(&neighbour).unwrap();
    if stderr.is_empty() {
        // A mount namespace per program: the cases and the neighbour's files hidden from it,
        // and the other student judged against the cases as they were.
        assert!(first.starts_with("FULL\n"), "{first}");
        assert!(script.contains("exec "), "{script}");
        expect_all(&programs, "b-correct", "PASS");
        // Its own directory written in a layer of its own, gone with its case.
        assert_eq!(own, None);
    } else {
        assert_eq!(own.as_deref(), Some("kept\n"));
        // Without one the program rewrote them on disk, and the run said so; the other
        // student ran the rewritten script (run after the cheat: --jobs 1, in name order).
        assert!(stderr.contains("not hidden from"), "{stderr}");
        assert_eq!(first, "I PASS\n");
        assert_eq!(script, "echo I PASS\n");
        let neighbours = verdicts(&programs, "b-correct");
        assert!(
            neighbours.iter().all(|verdict| verdict != "PASS"),
            "{neighbours:?}"
        );
    }
}

/// A program that finds the cases' directory in the command line of a process it can see
/// (`/proc/*/cmdline`: the checker, or the reaper forked from it) and prints the expected
/// output of the case whose input it was given.
const READ_THE_ANSWERS: &str = r#"input=$(cat)
for cmdline in /proc/[0-9]*/cmdline; do
  dir=$(tr '\0' '\n' < "$cmdline" 2>/dev/null | sed -n '/^check$/{n;p;q;}')
  [ -n "$dir" ] && break
done
case "$dir" in /*) ;; *) dir=$(pwd)/$dir ;; esac
for case in "$CASES"/*.in "$dir"/*.in; do
  [ "$(cat "$case" 2>/dev/null)" = "$input" ] && exec cat "${case%.in}.out"
done
exit 3"#;

#[cfg(unix)]
#[test]
fn a_program_cannot_read_the_expected_outputs_or_run_its_neighbour() {
    let root = scratch("grader_hostile", "answers");
    let cases = root.join("cases");
    let read = READ_THE_ANSWERS.replace("$CASES", &cases.display().to_string());
    class(
        &root,
        &[
            ("a-reader", &read),
            (
                "b-borrower",
                "exec \"$OTHELLO_SUBMISSION/../c-correct/run.sh\"",
            ),
            ("c-correct", "exec {o}"),
        ],
    );
    let (programs, stderr) = grade(&root, &["--jobs", "2"]);
    expect_all(&programs, "c-correct", "PASS");
    if stderr.contains("not hidden from") || !contains_whole_trees() {
        // Without a mount namespace both cheats work, and the run said so.
        expect_all(&programs, "a-reader", "PASS");
        expect_all(&programs, "b-borrower", "PASS");
        return;
    }
    assert!(quiet_but_for_the_fallback_note(&stderr), "{stderr}");
    expect_all(&programs, "a-reader", "CRASH");
    expect_all(&programs, "b-borrower", "CRASH");
}

#[cfg(target_os = "linux")]
#[test]
fn a_program_leaves_nothing_in_tmp_or_shared_memory_and_fills_only_its_own() {
    let root = scratch("grader_hostile", "litter");
    let litter = "for dir in /tmp /var/tmp /dev/shm; do echo x > $dir/othello-litter-336; done\n\
                  ipcmk -M 4096 >/dev/null 2>&1\n\
                  dd if=/dev/zero of=/tmp/othello-big-336 bs=1M count=300 2>/dev/null || \
                  echo full >&2\nrm -f /tmp/othello-big-336\ncd \"$(pwd)\" && echo here > mine && exec {o}";
    class(&root, &[("a-litter", litter)]);
    let segments = || fs::read_to_string("/proc/sysvipc/shm").map_or(0, |t| t.lines().count());
    let segments_before = segments();
    let (programs, stderr) = grade(&root, &["--jobs", "2"]);
    expect_all(&programs, "a-litter", "PASS");
    let left: Vec<String> = ["/tmp", "/var/tmp", "/dev/shm"]
        .iter()
        .filter_map(|dir| fs::read_dir(dir).ok())
        .flatten()
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with("-336"))
        .collect();
    let cases = programs[0]["cases"].as_array().unwrap();
    if stderr.contains("not hidden from") || !contains_whole_trees() {
        // Without a mount namespace the program writes the host's /tmp: said.
        for name in ["othello-litter-336", "othello-big-336"] {
            let _ = fs::remove_file(Path::new("/tmp").join(name));
        }
        return;
    }
    assert!(quiet_but_for_the_fallback_note(&stderr), "{stderr}");
    assert_eq!(left, Vec::<String>::new(), "left on the host");
    assert_eq!(
        segments(),
        segments_before,
        "shared memory left on the host"
    );
    for case in cases {
        // The 300 MB stopped at the cap (256 MiB without --memory).
        assert!(
            case["stderr"].as_str().unwrap().starts_with("full"),
            "{case}"
        );
    }
}

/// Writes beside the class, in its own submission (300 MB of it) and in the class's `open`, and
/// says on standard error what it could.
#[cfg(target_os = "linux")]
const WRITE_EVERYWHERE: &str = "(echo x > \"$OTHELLO_SUBMISSION/../../vandal\") 2>/dev/null || \
     printf refused >&2\n\
     echo mine > \"$OTHELLO_SUBMISSION/mine\" && grep -q mine \"$OTHELLO_SUBMISSION/mine\" && \
     printf ' mine' >&2\n\
     dd if=/dev/zero of=\"$OTHELLO_SUBMISSION/big\" bs=1M count=300 2>/dev/null || \
     printf ' full' >&2\n\
     (echo x > \"$OTHELLO_SUBMISSION/../../open/file\") 2>/dev/null && printf ' open' >&2\n\
     exec {o}";

#[cfg(target_os = "linux")]
#[test]
fn a_program_writes_only_its_own_places_and_what_it_is_given() {
    let root = scratch("grader_hostile", "writes");
    class(&root, &[("a-writer", WRITE_EVERYWHERE)]);
    fs::create_dir_all(root.join("open")).unwrap();
    let own = root.join("students/a-writer");
    let seen = |extra: &[&str]| {
        let mut options = vec!["--jobs", "2"];
        options.extend(extra);
        let (programs, stderr) = grade(&root, &options);
        expect_all(&programs, "a-writer", "PASS");
        let said: Vec<String> = programs[0]["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|case| case["stderr"].as_str().unwrap().to_owned())
            .collect();
        (said, stderr)
    };
    let open = root.join("open").display().to_string();
    let (given, _) = seen(&["--writable", &open]);
    let (sealed, stderr) = seen(&[]);
    if stderr.contains("may write wherever") || !contains_whole_trees() {
        // Said where the host cannot be made read-only to the programs.
        return;
    }
    assert!(quiet_but_for_the_fallback_note(&stderr), "{stderr}");
    assert_eq!(given, vec!["refused mine full open"; 3]);
    assert_eq!(sealed, vec!["refused mine full"; 3]);
    // Nothing reached the host but the file in the directory given.
    assert!(!root.join("vandal").exists());
    let mut left: Vec<String> = fs::read_dir(&own)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["run.sh"]);
    assert!(root.join("open/file").exists());
}

/// The network interfaces listed in `/proc/net/dev`, as `check`'s programs see them.
#[cfg(target_os = "linux")]
const LIST_INTERFACES: &str =
    "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | tr '\\n' ' ' >&2\nexec {o}";

#[cfg(target_os = "linux")]
#[test]
fn a_program_has_no_network_but_its_loopback_unless_allowed() {
    let root = scratch("grader_hostile", "network");
    class(&root, &[("a-net", LIST_INTERFACES)]);
    let host: String = fs::read_to_string("/proc/net/dev")
        .unwrap()
        .lines()
        .skip(2)
        .flat_map(|line| [line.split(':').next().unwrap().trim(), " "])
        .collect();
    let seen = |extra: &[&str]| {
        let mut options = vec!["--jobs", "2"];
        options.extend(extra);
        let (programs, stderr) = grade(&root, &options);
        expect_all(&programs, "a-net", "PASS");
        let case = &programs[0]["cases"][0];
        (case["stderr"].as_str().unwrap().to_owned(), stderr)
    };
    let (allowed, _) = seen(&["--network"]);
    assert_eq!(allowed, host);
    let (isolated, stderr) = seen(&[]);
    if stderr.contains("can reach the network") || !contains_whole_trees() {
        assert_eq!(isolated, host, "said: {stderr}");
    } else {
        assert_eq!(isolated, "lo ");
    }
}

#[cfg(unix)]
#[test]
fn a_background_child_holding_the_output_does_not_make_a_timeout() {
    let root = scratch("grader_hostile", "holding");
    class(&root, &[("a-holding", "sleep 335.5 &\nexec {o}")]);
    let started = Instant::now();
    let (programs, _) = grade(&root, &["--jobs", "3"]);
    expect_all(&programs, "a-holding", "PASS");
    // Judged when the program exited, not at the 3 s deadline (a grace of 1 s at most).
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    if contains_whole_trees() {
        assert_eq!(processes_with_argument("335.5"), 0);
    }
}

#[cfg(unix)]
#[test]
fn the_fallback_says_so_once_and_still_grades() {
    let root = scratch("grader_hostile", "fallback");
    class(&root, TWO_CORRECT);
    for (option, variable) in [(Some("--no-cgroups"), None), (None, Some("1"))] {
        let mut command = othello();
        command
            .current_dir(&root)
            .args(["check", "cases", "--each", "students/*/"]);
        command.args(option);
        if let Some(value) = variable {
            command.env("OTHELLO_NO_CGROUPS", value);
        }
        let assert = command.args(["--", "./run.sh"]).assert().success();
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with("othello: cgroups turned off (")
                && stderr.contains("programs are contained by process group only"),
            "{stderr}"
        );
    }
    // One program without --each, its run in the fallback too.
    othello()
        .current_dir(&root)
        .args(["check", "cases", "--no-cgroups", "--"])
        .arg(othello_path())
        .assert()
        .success()
        .stdout(predicate::str::contains("3 passed, 0 failed"));
}

/// A submission whose `run.sh` is still open for writing when grading starts ("Text file
/// busy" on exec) is started once the file is closed, and passes.
#[cfg(unix)]
#[test]
fn a_program_file_still_being_written_is_waited_for() {
    let root = scratch("grader_hostile", "busy");
    class(&root, TWO_CORRECT);
    let held = fs::OpenOptions::new()
        .append(true)
        .open(root.join("students/b-correct/run.sh"))
        .unwrap();
    let closer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        drop(held);
    });
    let (programs, stderr) = grade(&root, &[]);
    closer.join().unwrap();
    assert!(quiet_but_for_the_fallback_note(&stderr), "{stderr}");
    expect_all(&programs, "a-correct", "PASS");
    expect_all(&programs, "b-correct", "PASS");
}
