//! The containment on this host, whichever mode it gets, and the fallback forced.

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::*;

mod layers;
mod view;

/// How many processes have `argument` among their arguments (as seen from here: pids in
/// the programs' namespaces are not ours).
fn processes_running(argument: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| std::fs::read(entry.ok()?.path().join("cmdline")).ok())
        .filter(|cmdline| {
            cmdline
                .split(|&byte| byte == 0)
                .any(|word| word == argument.as_bytes())
        })
        .count()
}

/// Runs `script` under `sh -c` contained, reads its output to the end, and waits for it.
fn run(containment: &Containment, script: &str, limits: &Limits) -> (String, i32, Tree) {
    let mut command = Command::new("sh");
    command.args(["-c", script]).stdout(Stdio::piped());
    let (mut child, tree) = containment.spawn(&mut command, limits).unwrap();
    let mut output = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut output)
        .unwrap();
    let status = child.wait().unwrap();
    let code = status
        .code()
        .unwrap_or_else(|| 128 + status.signal().unwrap_or(0));
    (output, code, tree)
}

fn wait_gone(argument: &str) -> bool {
    let until = Instant::now() + Duration::from_secs(5);
    while Instant::now() < until {
        if processes_running(argument) == 0 {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

#[test]
fn exit_statuses_and_signals_are_the_programs() {
    for disable in [false, true] {
        let containment = Containment::probe(disable);
        let (_, code, _) = run(&containment, "exit 3", &Limits::default());
        assert_eq!(code, 3, "{:?}", containment.mode());
        let (_, code, _) = run(&containment, "kill -TERM $$", &Limits::default());
        assert_eq!(code, 128 + libc::SIGTERM, "{:?}", containment.mode());
    }
}

#[test]
fn a_program_that_cannot_be_found_is_not_found() {
    let containment = Containment::probe(false);
    let mut command = Command::new("/no/such/program");
    let error = containment
        .spawn(&mut command, &Limits::default())
        .unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::NotFound);
}

#[test]
fn the_fallback_is_forced_and_says_why() {
    let containment = Containment::probe(true);
    assert_eq!(containment.mode(), Mode::ProcessGroup);
    assert!(
        containment
            .fallback_reason()
            .unwrap()
            .contains("--no-cgroups")
    );
}

#[test]
fn setsid_children_die_with_the_tree_where_cgroups_exist() {
    let containment = Containment::probe(false);
    if containment.mode() == Mode::ProcessGroup {
        return;
    }
    // The child leaves the process group and lets go of standard output.
    let (_, code, tree) = run(
        &containment,
        "setsid sleep 334.5 </dev/null >/dev/null 2>&1 & exit 0",
        &Limits::default(),
    );
    assert_eq!(code, 0);
    drop(tree);
    assert!(wait_gone("334.5"), "setsid sleep survived");
}

/// Whether the mode caps a tree's processes: a cgroup, or a user namespace of its own (where
/// the cap is `RLIMIT_NPROC`, which root is not held to).
fn caps_processes(mode: Mode) -> bool {
    matches!(
        mode,
        Mode::Cgroup { .. }
            | Mode::PidNamespace {
                user_namespace: true
            }
    )
}

#[test]
fn a_fork_bomb_stops_at_the_process_cap() {
    let containment = Containment::probe(false);
    if !caps_processes(containment.mode()) {
        return;
    }
    let limits = Limits {
        max_processes: Some(8),
        ..Limits::default()
    };
    // 40 sleepers wanted, at most 8 processes allowed: the shell's fork fails.
    let (_, code, tree) = run(
        &containment,
        "for i in $(seq 40); do sleep 30.25 & done; echo started",
        &limits,
    );
    assert_ne!(code, 0);
    // Only a cgroup says that the cap was hit.
    assert_eq!(
        tree.hit_process_cap(),
        matches!(containment.mode(), Mode::Cgroup { .. })
    );
    assert!(processes_running("30.25") <= 8);
    drop(tree);
    assert_eq!(processes_running("30.25"), 0);
}

#[test]
fn cpu_time_counts_the_whole_tree() {
    let containment = Containment::probe(false);
    if !matches!(containment.mode(), Mode::Cgroup { .. }) {
        return;
    }
    // A wrapper that does not exec: the work is done by a grandchild.
    let (_, code, tree) = run(
        &containment,
        "sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done'; true",
        &Limits::default(),
    );
    assert_eq!(code, 0);
    let cpu = tree.cpu_time().unwrap();
    assert!(cpu > Duration::from_millis(10), "{cpu:?}");
}

/// Without a cgroup, while the program runs: its descendants' CPU time as `/proc` shows it,
/// a grandchild's that a wrapper waited for among them, in every mode; none once it is reaped.
#[test]
fn cpu_time_counts_the_descendants_while_the_program_runs() {
    for disable in [false, true] {
        let containment = Containment::probe(disable);
        let mut command = Command::new("sh");
        command.args([
            "-c",
            "sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done'; echo busy; \
             sh -c 'sleep 337'",
        ]);
        command.stdout(Stdio::piped());
        let (mut child, tree) = containment.spawn(&mut command, &Limits::default()).unwrap();
        let mut line = [0; 5];
        child.stdout.take().unwrap().read_exact(&mut line).unwrap();
        let cpu = tree.cpu_time().unwrap();
        assert!(
            cpu >= Duration::from_millis(50),
            "{cpu:?} {:?}",
            containment.mode()
        );
        tree.kill();
        let _ = child.wait();
        if !matches!(containment.mode(), Mode::Cgroup { .. }) {
            assert_eq!(tree.cpu_time(), None);
        }
    }
}

#[test]
fn a_background_child_holding_output_ends_with_the_program_in_a_namespace() {
    let containment = Containment::probe(false);
    if !matches!(
        containment.mode(),
        Mode::Cgroup {
            pid_namespace: true,
            ..
        } | Mode::PidNamespace { .. }
    ) {
        return;
    }
    // The sleeper keeps standard output open: reading to its end returns only because the
    // namespace dies with the program.
    let started = Instant::now();
    let (output, code, _) = run(&containment, "sleep 334 & echo done", &Limits::default());
    assert_eq!((output.as_str(), code), ("done\n", 0));
    assert!(started.elapsed() < Duration::from_secs(30));
}

/// A fresh directory of this process's for the test `name`.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("othello-contain-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An executable shell script at `path` running `line`, returned still open for writing (so
/// that starting it fails with `ETXTBSY` until the file is dropped).
fn script_held_open(path: &std::path::Path, line: &str) -> std::fs::File {
    let mut file = std::fs::File::create(path).unwrap();
    std::io::Write::write_all(&mut file, format!("#!/bin/sh\n{line}\n").as_bytes()).unwrap();
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    file
}

/// A program file open for writing (`ETXTBSY` on `exec`): waited for while it is closed within
/// the patience, refused as busy when it stays open, in both modes.
#[test]
fn a_program_file_still_open_for_writing_is_waited_for_then_refused() {
    let dir = scratch("busy");
    for disable in [false, true] {
        let containment = Containment::probe(disable);
        let path = dir.join(format!("busy-{disable}.sh"));
        let file = script_held_open(&path, "echo started");
        let closer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            drop(file);
        });
        let mut command = Command::new(&path);
        command.stdout(Stdio::piped());
        let (child, _tree) = containment.spawn(&mut command, &Limits::default()).unwrap();
        closer.join().unwrap();
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.stdout, b"started\n", "{:?}", containment.mode());

        let held = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        let started = Instant::now();
        let error = containment
            .spawn(&mut Command::new(&path), &Limits::default())
            .unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::ExecutableFileBusy);
        assert!(
            started.elapsed() >= BUSY_PATIENCE / 2,
            "{:?}",
            started.elapsed()
        );
        drop(held);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A tree started through [`Running`] is listed at once and taken off by `remove`; while a
/// busy program file is waited for, the list is not held, so an interrupt's kills are not
/// kept waiting; after `kill_all_for_exit` the listed trees are dead.
#[test]
fn running_lists_each_tree_and_is_free_while_a_start_waits() {
    let dir = scratch("running");
    for disable in [false, true] {
        let containment = Containment::probe(disable);
        let running = Running::new();
        let mut sleeper = Command::new("sleep");
        sleeper.arg("335");
        let (mut child, tree) = running
            .spawn(&containment, &mut sleeper, &Limits::default())
            .unwrap();
        assert_eq!(running.len(), 1);
        tree.kill();
        let _ = child.wait();
        running.remove(&tree);
        assert!(running.is_empty());

        let path = dir.join(format!("busy-{disable}.sh"));
        let file = script_held_open(&path, "exec sleep 336");
        std::thread::scope(|scope| {
            let starter = scope.spawn(|| {
                running
                    .spawn(&containment, &mut Command::new(&path), &Limits::default())
                    .unwrap()
            });
            std::thread::sleep(Duration::from_millis(100));
            // Read while the start still waits for the file: not blocked behind it.
            assert!(running.is_empty());
            assert!(!starter.is_finished(), "{:?}", containment.mode());
            std::thread::sleep(Duration::from_millis(400));
            drop(file);
            let (mut child, _tree) = starter.join().unwrap();
            assert_eq!(running.len(), 1);
            assert_eq!(running.kill_all_for_exit(), 1);
            let status = child.wait().unwrap();
            assert_eq!(
                status.signal(),
                Some(libc::SIGKILL),
                "{:?}",
                containment.mode()
            );
        });
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The System V shared memory segments of this host, as `/proc/sysvipc/shm` lists them.
fn shared_memory_segments() -> usize {
    std::fs::read_to_string("/proc/sysvipc/shm").map_or(0, |text| text.lines().count() - 1)
}

#[test]
fn system_v_ipc_made_in_a_namespace_ends_with_the_tree() {
    let containment = Containment::probe(false);
    if containment.mode() == Mode::ProcessGroup || !containment.ipc_namespace {
        return;
    }
    let before = shared_memory_segments();
    let (output, code, _) = run(
        &containment,
        "command -v ipcmk >/dev/null || { echo 1; exit; }; \
         ipcmk -M 4096 >/dev/null && tail -n +2 /proc/sysvipc/shm | wc -l",
        &Limits::default(),
    );
    assert_eq!(
        (output.as_str(), code),
        ("1\n", 0),
        "the tree saw its own segment only"
    );
    assert_eq!(shared_memory_segments(), before, "nothing left on the host");
}

/// The user the tests run as again, from root: `nobody`.
const NOBODY: u32 = 65534;

/// Set by [`every_test_again_as_a_user_who_is_not_root`] for its run: the mode expected there.
const EXPECTED_MODE_VARIABLE: &str = "OTHELLO_CONTAIN_TEST_MODE";

/// Every test of this file again as `nobody` (from root; a run as another user is that run
/// already): where the kernel lets that user make a user namespace (tried first, in a child),
/// in the PID namespace mode with a user namespace per program, read-only directories
/// included; elsewhere in the process-group mode.
#[test]
fn every_test_again_as_a_user_who_is_not_root() {
    // SAFETY: geteuid(2) cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return;
    }
    let allowed = crate::namespace::try_in_child(|| {
        // SAFETY: system calls only, in the forked child.
        unsafe {
            if libc::setgroups(0, std::ptr::null()) != 0
                || libc::setgid(NOBODY) != 0
                || libc::setuid(NOBODY) != 0
                || libc::unshare(libc::CLONE_NEWUSER) != 0
            {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    })
    .is_ok();
    let expected = if allowed {
        Mode::PidNamespace {
            user_namespace: true,
        }
    } else {
        Mode::ProcessGroup
    };
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args(["--test-threads", "2", "tests::"])
        .env(EXPECTED_MODE_VARIABLE, format!("{expected:?}"))
        .current_dir("/");
    std::os::unix::process::CommandExt::uid(&mut command, NOBODY);
    std::os::unix::process::CommandExt::gid(&mut command, NOBODY);
    let output = match command.output() {
        Err(error) if error.kind() == io::ErrorKind::PermissionDenied => {
            eprintln!("skipped: nobody may not run this test program here ({error})");
            return;
        }
        output => output.unwrap(),
    };
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success()
            && text.contains("tests::as_this_user_the_mode_is_the_one_expected ... ok"),
        "{text}{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Run by [`every_test_again_as_a_user_who_is_not_root`] (elsewhere it has nothing to check).
#[test]
fn as_this_user_the_mode_is_the_one_expected() {
    let Ok(expected) = std::env::var(EXPECTED_MODE_VARIABLE) else {
        return;
    };
    let containment = Containment::probe(false);
    assert_eq!(format!("{:?}", containment.mode()), expected);
    let here = std::env::temp_dir();
    assert_eq!(
        containment.view(&[&here], &[], &[], 0).is_ok(),
        containment.mode() != Mode::ProcessGroup,
        "{:?}",
        containment.view(&[&here], &[], &[], 0)
    );
}

/// As root, a tree given a [`Limits::user`] runs as that user and group with no other group,
/// in every mode, and cannot change what its cgroup caps.
#[test]
fn a_tree_runs_as_the_user_it_is_given() {
    // SAFETY: geteuid(2) cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return;
    }
    for disable in [false, true] {
        let containment = Containment::probe(disable);
        let limits = Limits {
            user: Some(User {
                uid: NOBODY,
                gid: NOBODY,
            }),
            ..Limits::default()
        };
        let (output, code, _) = run(
            &containment,
            "id -u; id -g; id -G; \
             for own in $(sed -n 's/^[0-9]*:pids:\\(.*\\)/\\1/p; s/^0::\\(.*\\)/\\1/p' \
                 /proc/self/cgroup); do \
               for f in /sys/fs/cgroup/pids$own/pids.max /sys/fs/cgroup$own/pids.max; do \
                 [ -e \"$f\" ] && (echo max > \"$f\") 2>/dev/null && echo \"wrote $f\"; \
               done; \
             done; true",
            &limits,
        );
        assert_eq!(
            (output.as_str(), code),
            ("65534\n65534\n65534\n", 0),
            "{:?}",
            containment.mode()
        );
    }
}
