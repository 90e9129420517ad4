//! Bounded resources and failures that are messages: endless inputs, impossible table sizes, a
//! full or closed standard output, interrupted runs, and the exit status each one gets.
//!
//! Here inputs, tables, closed outputs and signals; failed writes and overwrites in `files`,
//! runs whose front end or input goes and odd inputs in `ends`.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use predicates::prelude::*;

#[cfg(target_os = "linux")]
use crate::support::{assert_gone_by_argument, interrupt};
use crate::support::{othello, scratch};

mod ends;
mod files;

/// `othello play` of a 4x4 game between two computers at level 1.
const COMPUTERS_4X4: [&str; 7] = [
    "play",
    "--size",
    "4x4",
    "--black",
    "computer:1",
    "--white",
    "computer:1",
];

const START_4X4: &str = "4\n4\nB\n>\n. . . .\n. W B .\n. B W .\n. . . .\n";

/// The standard 16x16 start as a protocol setup.
fn start_16x16() -> String {
    let mut text = String::from("16\n16\nB\n>\n");
    for row in 0..16 {
        let cells: Vec<&str> = (0..16)
            .map(|col| match (row, col) {
                (7, 7) | (8, 8) => "W",
                (7, 8) | (8, 7) => "B",
                _ => ".",
            })
            .collect();
        text.push_str(&cells.join(" "));
        text.push('\n');
    }
    text
}

#[test]
fn endless_files_are_refused_at_once() {
    // Inputs of any format (records may be binary) stop at the size limit.
    for args in [
        &["solve", "/dev/zero"][..],
        &["convert", "/dev/zero"],
        &["match", "self:1", "self:1", "--openings", "/dev/zero"],
    ] {
        othello()
            .args(args)
            .timeout(Duration::from_secs(10))
            .assert()
            .code(2)
            .stderr("othello: /dev/zero: larger than 64 MiB\n");
    }
    // A start position is text read line by line: it stops at the first long line.
    let commands: [&[&str]; 2] = [
        &["perft", "2", "--from", "/dev/zero"],
        &["play", "--from", "/dev/zero"],
    ];
    for args in commands {
        othello()
            .args(args)
            .timeout(Duration::from_secs(10))
            .write_stdin("")
            .assert()
            .code(2)
            .stderr("othello: /dev/zero: line 1 is longer than 4096 bytes\n");
    }
}

#[test]
fn inputs_past_the_size_limit_are_refused() {
    // 70 MiB of comment lines: each short enough, together too much.
    let line = format!("#{}\n", "x".repeat(4000));
    let input = line.repeat((70 << 20) / line.len());
    othello()
        .args(["solve", "-"])
        .write_stdin(input)
        .assert()
        .code(2)
        .stderr("othello: standard input: larger than 64 MiB\n");
}

#[test]
fn an_unreadable_file_is_a_usage_error_in_every_command() {
    let missing = "/nonexistent/positions.txt";
    let commands: [&[&str]; 4] = [
        &["solve", missing],
        &["perft", "1", "--from", missing],
        &["play", "--from", missing],
        &["match", "self:1", "self:1", "--openings", missing],
    ];
    for args in commands {
        othello()
            .args(args)
            .write_stdin("")
            .assert()
            .code(2)
            .stderr(predicate::str::starts_with(format!(
                "othello: cannot read {missing}: "
            )));
    }
}

#[test]
fn a_table_larger_than_the_machine_can_spare_is_refused_by_every_command() {
    let game = scratch("hardening", "hash").join("game.txt");
    fs::write(&game, "f5d6\n").unwrap();
    let game = game.to_str().unwrap();
    let commands: [&[&str]; 4] = [&["solve"], &["analyze", game], &["nboard"], &["gtp"]];
    for args in commands {
        othello()
            .args(args)
            .args(["--hash", "1000000000"])
            .write_stdin(START_4X4)
            .timeout(Duration::from_secs(10))
            .assert()
            .code(2)
            .stdout("")
            .stderr(
                predicate::str::starts_with(
                    "error: invalid value '1000000000' for '--hash <MB>': more than half of this \
                     machine's memory; use at most ",
                )
                .and(predicate::str::contains("panicked").not()),
            );
    }
}

#[test]
fn a_small_solve_gets_a_small_table_and_the_same_answer() {
    let solve = |args: &[&str]| {
        let output = othello()
            .args(["solve", "--verbose"])
            .args(args)
            .write_stdin(START_4X4)
            .output()
            .unwrap();
        assert!(output.status.success());
        let text = String::from_utf8(output.stdout).unwrap();
        // Everything but the lines with times: the iterations and the nodes line.
        text.lines()
            .filter(|line| {
                !["nodes", "exact", "depth"]
                    .iter()
                    .any(|word| line.trim_start().starts_with(word))
            })
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(solve(&[]), solve(&["--hash", "64"]));
    assert!(solve(&[]).iter().any(|line| line.contains("-8 (exact)")));
}

#[test]
fn a_failed_write_is_status_1_without_a_panic() {
    let dir = scratch("hardening", "gen-full");
    let full = fs::OpenOptions::new().write(true).open("/dev/full");
    let Ok(full) = full else {
        eprintln!("skipped: this system has no /dev/full");
        return;
    };
    let output = Command::new(assert_cmd::cargo::cargo_bin("othello"))
        .args(["gen", "--count", "2", "--out"])
        .arg(&dir)
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("othello: cannot write standard output: ")
            && !stderr.contains("panicked"),
        "{stderr}"
    );
}

#[test]
fn gen_into_a_directory_it_cannot_create_is_a_usage_error() {
    othello()
        .args(["gen", "--count", "1", "--out", "/proc/no-such-dir/cases"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(
            "othello: cannot create directory /proc/no-such-dir/cases: ",
        ));
}

#[test]
fn an_invalid_rate_close_to_one_still_ends() {
    let dir = scratch("hardening", "gen-rate");
    othello()
        .args([
            "gen",
            "--count",
            "3",
            "--sizes",
            "4",
            "--invalid-rate",
            "0.9999999999",
        ])
        .arg("--out")
        .arg(&dir)
        .assert()
        .success();
    let input = fs::read_to_string(dir.join("0000.in")).unwrap();
    let expected = fs::read(dir.join("0000.out")).unwrap();
    let moves = input.lines().count() - 8;
    // At most 100 invalid attempts before each of at most 12 moves.
    assert!(moves > 100 && moves <= 12 * 101, "{moves} move lines");
    othello()
        .write_stdin(input)
        .assert()
        .success()
        .stdout(expected);
}

/// Runs `othello ARGS` with its standard output closed (not redirected: closed).
#[cfg(unix)]
fn with_stdout_closed(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    use std::os::unix::process::CommandExt;

    let mut command = Command::new(assert_cmd::cargo::cargo_bin("othello"));
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // SAFETY: close(2) is async-signal-safe, as pre_exec requires.
    unsafe {
        command.pre_exec(|| {
            libc::close(libc::STDOUT_FILENO);
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[test]
fn a_closed_standard_output_is_status_1_in_every_command() {
    let dir = scratch("hardening", "closed-stdout");
    let cases = dir.join("cases");
    let cases = cases.to_str().unwrap();
    let binary = assert_cmd::cargo::cargo_bin("othello");
    let commands: [&[&str]; 9] = [
        &[],
        &["play"],
        &["solve"],
        &["perft", "1"],
        &["gen", "--count", "1", "--out", cases],
        &["check", cases, "--", binary.to_str().unwrap()],
        &["nboard"],
        &["gtp"],
        &["match", "self:nodes=10", "self:nodes=10", "--games", "1"],
    ];
    for args in commands {
        let output = with_stdout_closed(args, START_4X4);
        assert_eq!(output.status.code(), Some(1), "othello {args:?}");
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            "othello: standard output is closed\n",
            "othello {args:?}"
        );
    }
    // A redirection to /dev/null (open for writing only) is not a closed output.
    let status = Command::new(&binary)
        .args(["perft", "1"])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
}

/// Sends `signal` to the process `pid`.
#[cfg(unix)]
fn signal(pid: u32, signal: libc::c_int) {
    // SAFETY: kill(2) has no memory-safety preconditions.
    unsafe {
        libc::kill(libc::pid_t::try_from(pid).unwrap(), signal);
    }
}

/// Waits up to 30 s for the file at `path` to hold `lines` lines (the pids the graded programs
/// write as they start), failing with `what` if it never does, after interrupting `check` (so
/// that a failure leaves no programs running to trouble later tests) and with what it said
/// where its standard error is still piped.
#[cfg(target_os = "linux")]
fn wait_for_lines(path: &Path, lines: usize, what: &str, check: &mut std::process::Child) {
    let started = Instant::now();
    while fs::read_to_string(path).map_or(0, |text| text.lines().count()) < lines {
        if started.elapsed() > Duration::from_secs(30) {
            let written = fs::read_to_string(path).unwrap_or_default();
            let (status, stderr) = interrupt(check);
            panic!("{what}: {written:?} written; check then exited {status:?}: {stderr}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_on_check_stops_every_program_it_started() {
    let dir = scratch("hardening", "check-interrupt");
    let cases = dir.join("cases");
    othello()
        .args(["gen", "--count", "3", "--out"])
        .arg(&cases)
        .assert()
        .success();
    // A program that says where it runs, that it has started itself and its child, then waits
    // for ever (pids in its PID namespace are not ours: the processes are followed by their
    // arguments).
    let pids = dir.join("pids");
    let _ = fs::remove_file(&pids);
    let cwds = dir.join("cwds");
    let _ = fs::remove_file(&cwds);
    let program = dir.join("linger.sh");
    fs::write(
        &program,
        format!(
            "#!/bin/sh\npwd >> '{1}'\necho $$ >> '{0}'\nsleep 3600.25 &\necho $! >> '{0}'\nwait\n",
            pids.display(),
            cwds.display()
        ),
    )
    .unwrap();
    // The pids file is written on the host, which is otherwise read-only to the programs.
    let mut check = Command::new(assert_cmd::cargo::cargo_bin("othello"))
        .args(["check", "--jobs", "2", "--timeout", "600", "--writable"])
        .arg(&dir)
        .arg(&cases)
        .arg("--")
        .arg("sh")
        .arg(&program)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Both jobs have started their program and its child.
    wait_for_lines(&pids, 4, "cases never started", &mut check);
    let (status, stderr) = interrupt(&mut check);
    assert_eq!(status, Some(130), "{stderr}");
    assert!(stderr.contains("othello: interrupted"), "{stderr}");
    assert_gone_by_argument("3600.25");
    assert_gone_by_argument(program.to_str().unwrap());
    // Their working directories are removed too.
    let cwds = fs::read_to_string(&cwds).unwrap();
    assert_eq!(cwds.lines().count(), 2, "{cwds}");
    for cwd in cwds.lines() {
        assert!(!Path::new(cwd).exists(), "{cwd} left behind");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_on_check_exits_with_130_when_standard_error_has_gone() {
    let dir = scratch("hardening", "check-interrupt-no-stderr");
    let cases = dir.join("cases");
    othello()
        .args(["gen", "--count", "1", "--out"])
        .arg(&cases)
        .assert()
        .success();
    let pids = dir.join("pids");
    let _ = fs::remove_file(&pids);
    let program = dir.join("wait.sh");
    fs::write(
        &program,
        format!(
            "#!/bin/sh\necho $$ >> '{}'\nexec sleep 3600.5\n",
            pids.display()
        ),
    )
    .unwrap();
    let mut check = Command::new(assert_cmd::cargo::cargo_bin("othello"))
        .args(["check", "--timeout", "600", "--writable"])
        .arg(&dir)
        .arg(&cases)
        .arg("--")
        .arg("sh")
        .arg(&program)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Its reader gone, a write to standard error fails.
    drop(check.stderr.take());
    wait_for_lines(&pids, 1, "the case never started", &mut check);
    signal(check.id(), libc::SIGINT);
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = check.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = check.kill();
            let _ = check.wait();
            panic!("othello check did not end after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    assert_gone_by_argument("3600.5");
}

#[cfg(target_os = "linux")]
#[test]
fn an_exact_solve_beyond_reach_says_so_and_ctrl_c_prints_the_best_so_far() {
    let mut solve = Command::new(assert_cmd::cargo::cargo_bin("othello"))
        .args(["solve", "--hash", "1", "--verbose"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = solve.stdin.take().unwrap();
        stdin.write_all(start_16x16().as_bytes()).unwrap();
    }
    let mut stderr = BufReader::new(solve.stderr.take().unwrap());
    let mut warning = String::new();
    stderr.read_line(&mut warning).unwrap();
    assert_eq!(
        warning,
        "othello: position 1 (line 1) has 252 empties: an exact solve of a typical position \
         that far from the end visits about 3.1e73 positions (2.6e72 to 2.5e74), 4.9e58 years \
         on one thread at 20 M a second (4.1e57 years to 3.9e59 years); --time SECS or \
         --depth N limit it, and Ctrl-C stops it and prints the best move so far\n"
    );
    // Let it complete a few iterations, then interrupt it.
    std::thread::sleep(Duration::from_millis(500));
    signal(solve.id(), libc::SIGINT);
    let output = solve.wait_with_output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(130), "{stdout}");
    assert!(
        stdout.starts_with("position 1 (line 1): 16x16 FULL"),
        "{stdout}"
    );
    assert!(stdout.contains("  best move  "), "{stdout}");
    assert!(stdout.contains("(evaluation at depth "), "{stdout}");
}

#[test]
fn a_log_line_starts_on_a_new_line_and_names_cannot_break_it() {
    let dir = scratch("hardening", "log");
    let log = dir.join("results.txt");
    fs::write(&log, "an unfinished line").unwrap();
    othello()
        .args(COMPUTERS_4X4)
        .args([
            "--black-name",
            "A|B",
            "--white-name",
            "C\\D",
            "--seed",
            "1",
            "--log",
        ])
        .arg(&log)
        .write_stdin("")
        .assert()
        .success();
    let text = fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert_eq!(lines[0], "an unfinished line");
    assert!(text.ends_with('\n'));
    let fields: Vec<&str> = lines[1].split(" | ").collect();
    assert_eq!(fields.len(), 4, "{}", lines[1]);
    assert!(
        fields[2].starts_with("A\\|B (black) ") && fields[2].contains(" C\\\\D (white)"),
        "{}",
        fields[2]
    );
}
