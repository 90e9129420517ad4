//! The `othello` binary as a user meets it: arguments, exit statuses, messages, and bad input
//! that must never make it panic or hang.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command as StdCommand, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use assert_cmd::prelude::*;
use predicates::prelude::*;

use crate::support::{fixture_root, othello};

const SPEC_FULL_IN: &str = "full/spec-example.in";
const SPEC_SIMPLE_IN: &str = "simple/spec-example.in";

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(fixture_root().join(name)).unwrap()
}

/// Standard error that shows no trace of a panic.
fn no_panic() -> impl Predicate<str> {
    predicate::str::contains("panicked")
        .or(predicate::str::contains("RUST_BACKTRACE"))
        .or(predicate::str::contains("stack backtrace"))
        .not()
}

/// One line `othello: line N: ...`.
fn one_line_naming_a_line() -> impl Predicate<str> {
    predicate::str::is_match(r"\Aothello: line [1-9][0-9]*: [^\n]+\n\z").unwrap()
}

#[test]
fn help_describes_the_protocol_options_and_exit_statuses() {
    othello()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("Usage: othello"))
        .stdout(predicate::str::contains("--rules"))
        .stdout(predicate::str::contains("simple"))
        .stdout(predicate::str::contains("Exit status"));
    othello().arg("-h").assert().success();
}

#[test]
fn version_names_the_crate_version() {
    othello()
        .arg("--version")
        .assert()
        .success()
        .stdout(format!("othello {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn rules_flag_picks_the_rule_set_and_the_banner() {
    let full = othello()
        .write_stdin(fixture(SPEC_FULL_IN))
        .assert()
        .success()
        .stdout(predicate::str::starts_with("FULL\n"))
        .get_output()
        .stdout
        .clone();
    othello()
        .args(["--rules", "full"])
        .write_stdin(fixture(SPEC_FULL_IN))
        .assert()
        .success()
        .stdout(full);
    othello()
        .args(["--rules=simple"])
        .write_stdin(fixture(SPEC_SIMPLE_IN))
        .assert()
        .success()
        .stdout(fixture("simple/spec-example.out"));
}

#[test]
fn option_values_are_read_in_any_case() {
    // The banner names the rule set in capitals; --rules takes it as printed.
    othello()
        .args(["--rules", "SIMPLE"])
        .write_stdin(fixture(SPEC_SIMPLE_IN))
        .assert()
        .success()
        .stdout(fixture("simple/spec-example.out"));
    othello()
        .args(["--rules", "Full"])
        .write_stdin(fixture(SPEC_FULL_IN))
        .assert()
        .success()
        .stdout(predicate::str::starts_with("FULL\n"));
    othello()
        .args(["convert", "--to", "MOVELIST", "--rules", "SIMPLE", "-"])
        .write_stdin("f5d6\n")
        .assert()
        .success()
        .stdout("simple f5d6\n");
}

#[test]
fn bad_usage_exits_2_without_reading_input() {
    for args in [
        &["--rules", "bogus"][..],
        &["--rules", "FULLY"],
        &["--rules"],
        &["--no-such-flag"],
        &["extra-argument"],
    ] {
        othello()
            .args(args)
            .write_stdin(fixture(SPEC_FULL_IN))
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::is_empty().not())
            .stderr(no_panic());
    }
    othello()
        .args(["--rules", "bogus"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid value 'bogus'"));
}

#[test]
fn exit_status_0_when_the_game_ends() {
    othello()
        .write_stdin(fixture(SPEC_FULL_IN))
        .assert()
        .code(0)
        .stderr("")
        .stdout(predicate::str::ends_with("WINNER: NONE\n"));
}

#[test]
fn exit_status_1_when_the_input_ends_during_the_game() {
    let mut input = fixture(SPEC_FULL_IN);
    input.truncate(input.len() - "4 3\n".len());
    othello()
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout(predicate::str::ends_with("TURN: W\n"))
        .stderr(one_line_naming_a_line())
        .stderr("othello: line 21: input ended before the game was over (W to move)\n");
}

#[test]
fn exit_status_2_for_a_bad_setup_names_the_line() {
    othello()
        .write_stdin("4\n4\nB\n>\n. . . .\n. B W .\n. W Q .\n. . . .\n1 1\n")
        .assert()
        .code(2)
        .stdout("FULL\n")
        .stderr(one_line_naming_a_line())
        .stderr(predicate::str::contains("line 7:"))
        .stderr(predicate::str::contains("row 3, column 3"));
    othello()
        .write_stdin("")
        .assert()
        .code(2)
        .stdout("FULL\n")
        .stderr(one_line_naming_a_line())
        .stderr(predicate::str::contains("line 1: input ended"));
}

/// A deterministic byte soup (xorshift), so that a failure can be reproduced.
fn garbage(seed: u64, len: usize, newline_every: u64) -> Vec<u8> {
    let mut state = seed | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if state.is_multiple_of(newline_every) {
                b'\n'
            } else {
                (state >> 24) as u8
            }
        })
        .collect()
}

#[test]
fn garbage_input_never_panics() {
    for seed in 1..=12u64 {
        for rules in ["full", "simple"] {
            // Garbage in place of the header.
            othello()
                .env("RUST_BACKTRACE", "1")
                .args(["--rules", rules])
                .write_stdin(garbage(seed, 2000, 3 + seed))
                .assert()
                .code(2)
                .stderr(no_panic())
                .stderr(one_line_naming_a_line());
            // Garbage in place of the moves: every line is INVALID, and the game is not over.
            let mut input = b"6\n6\nW\n<\n. . . . . .\n. . . . . .\n. . W B . .\n. . B W . .\n. . . . . .\n. . . . . .\n".to_vec();
            let soup: Vec<u8> = garbage(seed, 5000, 7 + seed)
                .into_iter()
                .filter(|b| !b.is_ascii_digit())
                .collect();
            input.extend_from_slice(&soup);
            let output = othello()
                .env("RUST_BACKTRACE", "1")
                .args(["--rules", rules])
                .write_stdin(input)
                .assert()
                .code(1)
                .stderr(no_panic())
                .stderr(one_line_naming_a_line())
                .get_output()
                .stdout
                .clone();
            let text = String::from_utf8(output).expect("output is ASCII");
            assert!(
                !text.contains("VALID\nB:"),
                "a digit-free line was taken as a move"
            );
            assert!(text.contains("INVALID\n"));
        }
    }
}

#[test]
fn huge_and_binary_lines_are_invalid_moves() {
    let mut input = b"4\n4\nB\n>\n. . . .\n. B W .\n. W B .\n. . . .\n".to_vec();
    input.extend(std::iter::repeat_n(b'7', 3_000_000));
    input.extend_from_slice(b"\n\x00\x01\x02\n\xff\xff\xff\n2 4\n");
    othello()
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "TURN: B\nINVALID\nINVALID\nINVALID\nVALID\n",
        ))
        .stderr(no_panic());
}

#[test]
fn unreadable_input_is_a_one_line_error() {
    // A directory opens as a file but cannot be read.
    StdCommand::new(assert_cmd::cargo::cargo_bin!("othello"))
        .stdin(File::open(fixture_root()).unwrap())
        .assert()
        .code(1)
        .stdout("FULL\n")
        .stderr(predicate::str::starts_with(
            "othello: cannot read standard input",
        ))
        .stderr(predicate::function(|s: &str| s.lines().count() == 1))
        .stderr(no_panic());
}

/// `othello < game | head -c 100`: the reader goes away; the program stops quietly.
#[test]
fn closed_output_stops_quietly() {
    let input = File::open(fixture_root().join("full/long-16x16.in")).unwrap();
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin!("othello"))
        .env("RUST_BACKTRACE", "1")
        .stdin(input)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0u8; 100];
    child.stdout.take().unwrap().read_exact(&mut head).unwrap();
    // Dropping the pipe closes it; the transcript is far larger than a pipe buffer.
    let output = child.wait_with_output().unwrap();
    assert!(head.starts_with(b"FULL\nB: 2  W: 2\n"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(no_panic().eval(&stderr), "{stderr}");
    assert!(
        stderr.is_empty(),
        "a closed pipe is not worth a message: {stderr}"
    );
    assert_eq!(output.status.code(), Some(1));
}

/// A person at a terminal sees each block before the program waits for the next line.
#[test]
fn output_is_flushed_before_waiting_for_input() {
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin!("othello"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (lines_tx, lines_rx) = mpsc::channel();
    let reader = thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if lines_tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let next_line = || {
        lines_rx
            .recv_timeout(Duration::from_secs(30))
            .expect("output arrives while the program waits for input")
    };
    stdin
        .write_all(b"4\n4\nB\n>\n. . . .\n. B W .\n. W B .\n. . . .\n")
        .unwrap();
    stdin.flush().unwrap();
    let first_block: Vec<String> = (0..7).map(|_| next_line()).collect();
    assert_eq!(first_block[0], "FULL");
    assert_eq!(first_block[6], "TURN: B");
    stdin.write_all(b"1 1\n").unwrap();
    stdin.flush().unwrap();
    assert_eq!(next_line(), "INVALID");
    stdin.write_all(b"2 4\n").unwrap();
    stdin.flush().unwrap();
    assert_eq!(next_line(), "VALID");
    assert_eq!(next_line(), "B: 4  W: 1");
    drop(stdin);
    let status = child.wait().unwrap();
    reader.join().unwrap();
    assert_eq!(status.code(), Some(1));
}

/// A command that fails while its standard error is a pipe nobody reads any more (the reader
/// went away) still ends with its own status, not a panic's 101: its one line is dropped.
#[cfg(unix)]
#[test]
fn a_failure_with_standard_error_gone_ends_with_its_own_status() {
    use std::os::fd::FromRawFd;

    let mut ends = [0; 2];
    // SAFETY: pipe(2) fills the two descriptors; the read end is closed at once and the write
    // end is owned by the `OwnedFd` below, which the child's standard error takes.
    let write_end = unsafe {
        assert_eq!(libc::pipe(ends.as_mut_ptr()), 0);
        libc::close(ends[0]);
        std::os::fd::OwnedFd::from_raw_fd(ends[1])
    };
    let status = StdCommand::new(env!("CARGO_BIN_EXE_othello"))
        .args(["solve", "/nonexistent/positions.txt"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(write_end))
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
}
