//! Bounded resources and failures that are messages: endless inputs, impossible table sizes, a
//! full or closed standard output, interrupted runs, and the exit status each one gets.

use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use predicates::prelude::*;

use crate::support::{is_gone, othello, scratch};

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
    for args in [&["solve", "/dev/zero"][..], &["convert", "/dev/zero"]] {
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
    let commands: [&[&str]; 3] = [
        &["solve", missing],
        &["perft", "1", "--from", missing],
        &["play", "--from", missing],
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
fn a_table_larger_than_the_machine_can_spare_is_refused() {
    othello()
        .args(["solve", "--hash", "1000000000"])
        .write_stdin(START_4X4)
        .assert()
        .code(2)
        .stderr(
            predicate::str::starts_with(
                "othello: --hash 1000000000: more than half of this machine's memory; use at most ",
            )
            .and(predicate::str::contains("\n").count(1)),
        );
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
    let commands: [&[&str]; 8] = [
        &[],
        &["play"],
        &["solve"],
        &["perft", "1"],
        &["gen", "--count", "1", "--out", cases],
        &["check", cases, "--", binary.to_str().unwrap()],
        &["nboard"],
        &["gtp"],
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
    // A program that records its own pid and its child's, then waits for ever.
    let pids = dir.join("pids");
    let program = dir.join("linger.sh");
    fs::write(
        &program,
        format!(
            "#!/bin/sh\necho $$ >> '{0}'\nsleep 3600 &\necho $! >> '{0}'\nwait\n",
            pids.display()
        ),
    )
    .unwrap();
    let mut check = Command::new(assert_cmd::cargo::cargo_bin("othello"))
        .args(["check", "--jobs", "2", "--timeout", "600"])
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
    let started = Instant::now();
    while fs::read_to_string(&pids).map_or(0, |text| text.lines().count()) < 4 {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "cases never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    signal(check.id(), libc::SIGINT);
    let status = check.wait().unwrap();
    let mut stderr = String::new();
    check
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("othello: interrupted"), "{stderr}");
    let pids: Vec<u32> = fs::read_to_string(&pids)
        .unwrap()
        .lines()
        .map(|line| line.parse().unwrap())
        .collect();
    let deadline = Instant::now() + Duration::from_secs(10);
    for pid in pids {
        while !is_gone(pid) {
            assert!(Instant::now() < deadline, "process {pid} is still running");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
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
        "othello: position 1 (line 1) has 252 empties: an exact solve that far from the end \
         will not finish; limit it with --time SECS or --depth N (Ctrl-C stops it and prints \
         the best move so far)\n"
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
        .args([
            "play",
            "--size",
            "4x4",
            "--black",
            "computer:1",
            "--white",
            "computer:1",
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

#[test]
fn many_short_games_are_read_in_a_small_multiple_of_their_size() {
    // 450 KB of one-move games: each record once cost ~700 bytes (a whole game kept per record),
    // over 100 MB here; under a 100 MB address space (the binary itself takes ~40 MB) the
    // conversion must still finish.
    let dir = scratch("hardening", "many_short_games");
    let input = dir.join("f5.txt");
    let output = dir.join("out.txt");
    fs::write(&input, "f5\n".repeat(150_000)).unwrap();
    let status = Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -v 100000; exec "$0" convert "$1" --to movelist -o "$2""#)
        .arg(assert_cmd::cargo::cargo_bin("othello"))
        .arg(&input)
        .arg(&output)
        .status()
        .unwrap();
    assert!(status.success(), "{status}");
    assert_eq!(fs::read(&output).unwrap(), fs::read(&input).unwrap());
}

#[test]
fn an_invalid_move_line_is_skipped_by_every_reader_of_protocol_inputs() {
    // `foo` is answered INVALID by the protocol: solve skips it as convert and analyze do,
    // rather than reading it as the start of another setup.
    let dir = scratch("hardening", "invalid_move_line");
    let plain = dir.join("plain.in");
    let noisy = dir.join("noisy.in");
    fs::write(&plain, format!("{START_4X4}1 2\n")).unwrap();
    fs::write(&noisy, format!("{START_4X4}foo\n1 2\n9 9\n")).unwrap();
    for command in [&["solve"][..], &["convert", "--to", "movelist"]] {
        // The output without its timings (fields such as `0.001`).
        let run = |path: &std::path::Path| {
            let output = othello().args(command).arg(path).output().unwrap();
            assert!(output.status.success(), "{command:?}: {output:?}");
            String::from_utf8(output.stdout)
                .unwrap()
                .lines()
                .map(|line| {
                    line.split_whitespace()
                        .filter(|field| !(field.contains('.') && field.parse::<f64>().is_ok()))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(run(&noisy), run(&plain), "{command:?}");
    }
}

#[test]
fn a_latin_1_name_is_read_as_text_not_as_wthor() {
    // Old GGS archives are Latin-1: `M\xfcller` is not UTF-8, and once made the file "WTHOR".
    let dir = scratch("hardening", "latin_1");
    let ggf = dir.join("latin1.ggf");
    let mut bytes = b"(;GM[Othello]PC[GGS/os]PB[M".to_vec();
    bytes.extend_from_slice(b"\xfcller]PW[Bob]TY[8]BO[8 ");
    bytes.extend_from_slice(b"---------------------------O*------*O--------------------------- *]");
    bytes.extend_from_slice(b"B[f5]W[d6];)\n");
    fs::write(&ggf, &bytes).unwrap();
    // Written as UTF-8, the name reads back the same.
    let to_ggf = |path: &std::path::Path| {
        let output = othello()
            .args(["convert", "--to", "ggf"])
            .arg(path)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    let written = to_ggf(&ggf);
    assert!(written.contains("PB[M\u{fc}ller]"), "{written}");
    let again = dir.join("utf8.ggf");
    fs::write(&again, &written).unwrap();
    assert_eq!(to_ggf(&again), written);
    // A move list with a Latin-1 byte is a move list, its error located.
    let list = dir.join("list.txt");
    fs::write(&list, b"f5 d6\nf5 \xe9\n").unwrap();
    othello()
        .args(["convert"])
        .arg(&list)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 2, column 4"));
}
