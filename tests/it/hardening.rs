//! Bounded resources and failures that are messages: endless inputs, impossible table sizes, a
//! full or closed standard output, interrupted runs, and the exit status each one gets.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use predicates::prelude::*;

#[cfg(target_os = "linux")]
use crate::support::{assert_gone_by_argument, interrupt};
use crate::support::{othello, scratch};

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
/// write as they start), failing with `what` if it never does.
fn wait_for_lines(path: &Path, lines: usize, what: &str) {
    let started = Instant::now();
    while fs::read_to_string(path).map_or(0, |text| text.lines().count()) < lines {
        assert!(started.elapsed() < Duration::from_secs(30), "{what}");
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
    // A program that says it has started itself and its child, then waits for ever (pids in
    // its PID namespace are not ours: the processes are followed by their arguments).
    let pids = dir.join("pids");
    let _ = fs::remove_file(&pids);
    let program = dir.join("linger.sh");
    fs::write(
        &program,
        format!(
            "#!/bin/sh\necho $$ >> '{0}'\nsleep 3600.25 &\necho $! >> '{0}'\nwait\n",
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
    wait_for_lines(&pids, 4, "cases never started");
    let (status, stderr) = interrupt(&mut check);
    assert_eq!(status, Some(130), "{stderr}");
    assert!(stderr.contains("othello: interrupted"), "{stderr}");
    assert_gone_by_argument("3600.25");
    assert_gone_by_argument(program.to_str().unwrap());
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
        .args(["check", "--timeout", "600"])
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
    wait_for_lines(&pids, 1, "the case never started");
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

/// `othello ARGS` run by `sh` under `ulimit -f BLOCKS` (a file size limit).
#[cfg(unix)]
fn under_file_limit(blocks: u64, args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -f {blocks} && exec \"$0\" \"$@\""))
        .arg(assert_cmd::cargo::cargo_bin("othello"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Every file the directory holds (the target and any temporary file left beside it).
fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A move list of twelve games (every two-move opening) in a new file of `dir`.
fn twelve_games(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("twelve.txt");
    let games = [
        "f5d6", "f5f6", "f5f4", "d3c3", "d3e3", "d3c5", "c4c3", "c4e3", "c4c5", "e6f4", "e6d6",
        "e6f6",
    ];
    fs::write(&path, games.join("\n") + "\n").unwrap();
    path
}

/// Checks that a run under `ulimit -f BLOCKS` failed with status 1 and one message starting
/// with `prefix`.
fn assert_failed_write(output: &std::process::Output, prefix: &str, blocks: u64) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(1),
        "ulimit -f {blocks}: {stderr}"
    );
    assert!(
        stderr.starts_with(prefix) && stderr.lines().count() == 1,
        "{stderr}"
    );
}

#[cfg(unix)]
#[test]
fn a_failed_write_of_convert_or_fit_keeps_the_old_file() {
    use std::ffi::OsStr;

    let dir = scratch("hardening", "file-limit");
    let out_dir = dir.join("out");
    fs::create_dir(&out_dir).unwrap();
    // convert -o: the old record (one game) survives a limit of nothing and one smaller than
    // the new file (twelve games).
    let input = twelve_games(&dir);
    let record = out_dir.join("games.txt");
    fs::write(&record, "f5d6c3\n").unwrap();
    for blocks in [0, 1] {
        let output = under_file_limit(
            blocks,
            &[
                OsStr::new("convert"),
                input.as_os_str(),
                OsStr::new("-o"),
                record.as_os_str(),
            ],
        );
        let prefix = format!("othello: cannot write {}: ", record.display());
        assert_failed_write(&output, &prefix, blocks);
        assert_eq!(fs::read_to_string(&record).unwrap(), "f5d6c3\n");
        assert_eq!(names_in(&out_dir), ["games.txt"], "no temporary file");
    }
    // train fit --out: the old weights survive, whether nothing or only part fits.
    let data = crate::train::games(&dir, 2);
    let weights = out_dir.join("weights.bin");
    let fit = |out: &std::path::Path, blocks: Option<u64>| {
        let args = [
            OsStr::new("train"),
            OsStr::new("fit"),
            data.as_os_str(),
            OsStr::new("--out"),
            out.as_os_str(),
            OsStr::new("--epochs"),
            OsStr::new("2"),
        ];
        match blocks {
            Some(blocks) => under_file_limit(blocks, &args),
            None => Command::new(assert_cmd::cargo::cargo_bin("othello"))
                .args(args)
                .output()
                .unwrap(),
        }
    };
    assert!(fit(&weights, None).status.success());
    let new_size = fs::metadata(&weights).unwrap().len();
    // The old file is the compiled-in weights, so that a rewrite would show.
    let old = othello_engine::patterns::TRAINED;
    fs::write(&weights, old).unwrap();
    for blocks in [0, new_size / 2048] {
        let output = fit(&weights, Some(blocks));
        let prefix = format!("othello: {}: ", weights.display());
        assert_failed_write(&output, &prefix, blocks);
        assert!(fs::read(&weights).unwrap() == old, "ulimit -f {blocks}");
        assert_eq!(names_in(&out_dir), ["games.txt", "weights.bin"]);
    }
}

#[test]
fn convert_and_fit_overwrite_only_their_own_files_without_force() {
    let dir = scratch("hardening", "force");
    let input = twelve_games(&dir);
    let notes = dir.join("notes.txt");
    fs::write(&notes, "buy milk\n").unwrap();
    othello()
        .arg("convert")
        .arg(&input)
        .arg("-o")
        .arg(&notes)
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "othello: {}: not a game record (line 1, column 1: expected a square such as f5, or \
             -- for a pass, found \"buy\"); --force overwrites it\n",
            notes.display()
        ));
    assert_eq!(fs::read_to_string(&notes).unwrap(), "buy milk\n");
    // A record that holds more games than are written is kept too.
    let twelve = dir.join("twelve-games.ggf");
    othello()
        .arg("convert")
        .arg(&input)
        .arg("-o")
        .arg(&twelve)
        .assert()
        .success();
    let before = fs::read(&twelve).unwrap();
    othello()
        .args(["convert", "--game", "2"])
        .arg(&input)
        .arg("-o")
        .arg(&twelve)
        .assert()
        .code(2)
        .stderr(format!(
            "othello: {}: holds 12 games, more than the 1 written; --force overwrites it\n",
            twelve.display()
        ));
    assert_eq!(fs::read(&twelve).unwrap(), before);
    // Its own earlier output, or with --force, is replaced.
    othello()
        .arg("convert")
        .arg(&input)
        .args(["--to", "movelist", "-o"])
        .arg(&twelve)
        .assert()
        .success();
    othello()
        .args(["convert", "--force", "--game", "2"])
        .arg(&input)
        .arg("-o")
        .arg(&notes)
        .assert()
        .success();
    assert!(
        fs::read_to_string(&notes)
            .unwrap()
            .starts_with("(;GM[Othello]")
    );
    // train fit --out: only a weights file is replaced without --force.
    let data = crate::train::games(&dir, 2);
    let readme = dir.join("README.md");
    fs::write(&readme, "# Notes\n").unwrap();
    let fit = |out: &std::path::Path, force: bool| {
        let mut command = othello();
        command
            .args(["train", "fit"])
            .arg(&data)
            .arg("--out")
            .arg(out)
            .args(["--epochs", "1"]);
        if force {
            command.arg("--force");
        }
        command.assert()
    };
    fit(&readme, false).code(2).stdout("").stderr(format!(
        "othello: {}: not an othello weights file (starts with \"# Notes\\n\"); --force \
         overwrites it\n",
        readme.display()
    ));
    assert_eq!(fs::read_to_string(&readme).unwrap(), "# Notes\n");
    fit(&readme, true).success();
    fit(&readme, false).success();
    assert!(fs::read(&readme).unwrap().starts_with(b"OTHPAT01"));
}

#[test]
fn train_never_cuts_a_file_that_is_not_self_play_data() {
    let dir = scratch("hardening", "not-data");
    let weights_copy = dir.join("weights.bin");
    fs::write(&weights_copy, othello_engine::patterns::TRAINED).unwrap();
    let zeros = dir.join("zeros.bin");
    fs::write(&zeros, vec![0u8; 100_000]).unwrap();
    let readme = dir.join("README.md");
    fs::write(
        &readme,
        "# Othello\n\nA file of notes, longer than a record or two.\n",
    )
    .unwrap();
    let cases = [
        (&weights_copy, "OTHPAT01"),
        (&zeros, "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00"),
        (&readme, "# Othell"),
    ];
    let data = crate::train::games(&dir, 2);
    for (file, start) in cases {
        let before = fs::read(file).unwrap();
        let message = format!(
            "othello: {}: not self-play data (starts with \"{start}\")\n",
            file.display()
        );
        othello()
            .args(["train", "selfplay"])
            .arg(file)
            .args(["--games", "1", "--depth", "1", "--solve-empties", "8"])
            .assert()
            .code(1)
            .stdout("")
            .stderr(message.clone());
        othello()
            .args(["train", "rescore"])
            .arg(&data)
            .arg("--out")
            .arg(file)
            .assert()
            .code(1)
            .stderr(message);
        assert!(fs::read(file).unwrap() == before, "{}", file.display());
    }
    // An output that is an input, by any name, is refused before anything is written.
    let data_bytes = fs::read(&data).unwrap();
    let same = dir.join(".").join("data.bin");
    othello()
        .args(["train", "rescore"])
        .arg(&data)
        .arg("--out")
        .arg(&same)
        .assert()
        .code(2)
        .stderr(format!(
            "othello: {}: --out is also an input; write to another file\n",
            same.display()
        ));
    othello()
        .args(["train", "fit"])
        .arg(&data)
        .arg("--out")
        .arg(&data)
        .arg("--force")
        .assert()
        .code(2)
        .stderr(predicate::str::ends_with(
            "data.bin: --out is also an input; write to another file\n",
        ));
    assert_eq!(fs::read(&data).unwrap(), data_bytes);
}

#[test]
fn a_data_file_without_the_header_is_read_and_given_it_once() {
    let dir = scratch("hardening", "headerless");
    let data = crate::train::games(&dir, 2);
    let bytes = fs::read(&data).unwrap();
    assert!(bytes.starts_with(b"OTHDAT01"));
    let old = dir.join("old.bin");
    fs::write(&old, &bytes[8..]).unwrap();
    othello()
        .args(["train", "fit"])
        .arg(&old)
        .args(["--epochs", "1", "--out"])
        .arg(dir.join("w.bin"))
        .assert()
        .success()
        .stdout(predicate::str::contains("in 2 games"));
    // Continued to three games, it gets the header and the games of a run made at once.
    for file in [&old, &data] {
        othello()
            .args(["train", "selfplay"])
            .arg(file)
            .args(["--games", "3", "--solve-empties", "8", "--depth", "1"])
            .assert()
            .success();
    }
    assert_eq!(fs::read(&old).unwrap(), fs::read(&data).unwrap());
}

#[test]
fn train_on_garbage_or_impossible_samples_is_a_located_error() {
    let dir = scratch("hardening", "garbage");
    let random = dir.join("random.bin");
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let noise: Vec<u8> = (0..10_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state.to_le_bytes()[0]
        })
        .collect();
    fs::write(&random, &noise).unwrap();
    // A data file whose second record is an empty board (nobody to move).
    let empty = dir.join("empty-board.bin");
    let mut bytes = fs::read(crate::train::games(&dir, 1)).unwrap();
    bytes[8 + 18..8 + 36].copy_from_slice(&[0; 18]);
    fs::write(&empty, &bytes).unwrap();
    let found = noise[..8].escape_ascii().to_string();
    let cases = [
        (
            &random,
            format!("not self-play data (starts with \"{found}\")"),
        ),
        (
            &empty,
            "byte 26: the player to move has no legal move".to_owned(),
        ),
    ];
    let weights = dir.join("w.bin");
    for (file, problem) in &cases {
        let message = format!("othello: {}: {problem}\n", file.display());
        let runs: [&[&str]; 3] = [
            &["rescore", "--out", "rescored.bin"],
            &["probcut", "--positions", "2", "--depth", "3"],
            &["fit", "--epochs", "1", "--out", weights.to_str().unwrap()],
        ];
        for args in runs {
            othello()
                .current_dir(&dir)
                .arg("train")
                .args(args)
                .arg(file)
                .assert()
                .code(1)
                .stdout("")
                .stderr(message.clone());
        }
        assert!(!weights.exists());
        assert!(!dir.join("rescored.bin").exists());
    }
    // An empty file holds no game to fit.
    let nothing = dir.join("nothing.bin");
    fs::write(&nothing, b"").unwrap();
    othello()
        .args(["train", "fit", "--out"])
        .arg(&weights)
        .arg(&nothing)
        .assert()
        .code(1)
        .stderr(predicate::str::ends_with(
            "nothing.bin: no whole game to work on\n",
        ));
    assert!(!weights.exists());
}

#[test]
fn train_inputs_are_read_within_bounds() {
    othello()
        .args(["match", "self:weights=/dev/zero", "self:classic"])
        .timeout(Duration::from_secs(10))
        .assert()
        .code(2)
        .stderr(
            "othello: /dev/zero: not an othello weights file (starts with \
             \"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\")\n",
        );
    // A file that starts as weights do but goes on past any weights file's size.
    let dir = scratch("hardening", "long-weights");
    let long = dir.join("long.bin");
    let file = fs::File::create(&long).unwrap();
    {
        use std::io::Write;
        (&file).write_all(othello_engine::patterns::MAGIC).unwrap();
    }
    file.set_len(1 << 30).unwrap();
    othello()
        .args(["match", "self:classic"])
        .arg(format!("self:weights={}", long.display()))
        .timeout(Duration::from_secs(10))
        .assert()
        .code(2)
        .stderr(format!(
            "othello: {}: larger than a weights file can be (8388608 bytes)\n",
            long.display()
        ));
    for args in [
        &["selfplay", "/dev/zero"][..],
        &["fit", "/dev/zero", "--out", "w"],
    ] {
        othello()
            .arg("train")
            .args(args)
            .timeout(Duration::from_secs(10))
            .assert()
            .code(1)
            .stderr(predicate::str::contains("/dev/zero: not self-play data"));
    }
}

#[cfg(unix)]
#[test]
fn train_output_goes_through_the_one_writer() {
    let dir = scratch("hardening", "train-output");
    let data = crate::train::games(&dir, 1);
    let fit = |out: &str| {
        let mut command = Command::new(assert_cmd::cargo::cargo_bin("othello"));
        command
            .args(["train", "fit"])
            .arg(&data)
            .args(["--epochs", "1", "--out"])
            .arg(dir.join(out));
        command
    };
    if let Ok(full) = fs::OpenOptions::new().write(true).open("/dev/full") {
        let output = fit("full.bin").stdout(full).output().unwrap();
        assert_eq!(output.status.code(), Some(1));
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            "othello: cannot write standard output: No space left on device (os error 28)\n"
        );
    }
    // A reader that has gone: quiet, status 1.
    let mut child = fit("closed.bin")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

/// Starts `othello ARGS`, sends it `script`, lets it start searching, then closes both its
/// standard input and its standard output: it must end within a few seconds.
#[cfg(unix)]
fn ends_when_its_front_end_goes(args: &[&str], script: &str) {
    use std::io::Write;

    let mut child = Command::new(assert_cmd::cargo::cargo_bin("othello"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(script.as_bytes()).unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    drop(stdin);
    drop(child.stdout.take());
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert_eq!(status.code(), Some(1), "othello {args:?}");
            return;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("othello {args:?} still searching 5 s after its front end went");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(unix)]
#[test]
fn the_engine_stops_when_its_front_end_is_gone() {
    ends_when_its_front_end_goes(
        &["nboard", "--no-book", "--hash", "1"],
        "nboard 2\nset depth 60\ngo\n",
    );
    ends_when_its_front_end_goes(
        &["gtp", "--no-book", "--hash", "1"],
        "set_depth 60\ngenmove b\n",
    );
}

/// Runs `othello ARGS` with `script` as its whole input (then the end of it) and its output
/// to a file: it must answer and end within a few seconds, however deep the search asked for.
fn answers_and_ends_at_the_end_of_input(args: &[&str], script: &str) -> String {
    use std::io::Write as _;
    let started = Instant::now();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("othello"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let deadline = started + Duration::from_secs(5);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("othello {args:?} still searching 5 s after the end of its input");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "othello {args:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn the_end_of_input_stops_a_long_search_with_its_best_move() {
    let nboard = answers_and_ends_at_the_end_of_input(
        &["nboard", "--hash", "1"],
        "nboard 2\nset depth 60\ngo\n",
    );
    assert!(
        nboard.lines().any(|line| line.starts_with("=== ")),
        "{nboard}"
    );
    let gtp =
        answers_and_ends_at_the_end_of_input(&["gtp", "--hash", "1"], "set_depth 60\ngenmove b\n");
    assert!(
        ["= C4", "= D3", "= E6", "= F5"]
            .iter()
            .any(|answer| gtp.contains(answer)),
        "{gtp}"
    );
}

#[cfg(unix)]
#[test]
fn a_game_between_computers_checks_its_save_file_first_and_fails_when_the_save_does() {
    use std::ffi::OsStr;

    let dir = scratch("hardening", "play-save");
    let game: Vec<&str> = COMPUTERS_4X4
        .iter()
        .copied()
        .chain(["--seed", "1", "--save"])
        .collect();
    let dir_arg = dir.to_str().unwrap();
    for (path, reason) in [
        ("/dev/full", "not a regular file"),
        (dir_arg, "it is a directory"),
        ("/nonexistent/game.ggf", "no such directory"),
    ] {
        othello()
            .args(&game)
            .arg(path)
            .write_stdin("")
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!("othello: cannot save to {path}: {reason}\n"));
    }
    let saved = dir.join("game.ggf");
    let mut args: Vec<&OsStr> = game.iter().map(OsStr::new).collect();
    args.push(saved.as_os_str());
    let output = under_file_limit(0, &args);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!(
            "othello: cannot write {}: File too large (os error 27)\n",
            saved.display()
        )
    );
    assert!(!saved.exists());
}

#[cfg(unix)]
#[test]
fn an_output_that_is_not_a_regular_file_is_refused_before_it_is_opened() {
    let dir = scratch("hardening", "not-a-file");
    let input = twelve_games(&dir);
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let directory = dir.join("directory");
    fs::create_dir(&directory).unwrap();
    let device = std::path::Path::new("/dev/null");
    let outputs = [
        (fifo.as_path(), "a FIFO"),
        (directory.as_path(), "a directory"),
        (device, "a device or special file"),
    ];
    let input = input.to_str().unwrap();
    let commands: [&[&str]; 3] = [
        &["convert", input, "-o"],
        &["book", "export", "-o"],
        &["match", "self:1", "self:1", "--games", "1", "--save"],
    ];
    for (path, what) in outputs {
        for command in commands {
            for force in [false, true] {
                let mut othello = othello();
                othello.args(command).arg(path);
                if force {
                    othello.arg("--force");
                }
                // Reading the FIFO to judge it would wait for a writer forever.
                othello
                    .timeout(Duration::from_secs(20))
                    .assert()
                    .code(2)
                    .stdout("")
                    .stderr(format!(
                        "othello: {}: {what}, not a regular file\n",
                        path.display()
                    ));
            }
        }
    }
    assert_eq!(names_in(&dir), ["directory", "fifo", "twelve.txt"]);
    assert_eq!(names_in(&directory), Vec::<String>::new());
}

#[test]
fn many_short_games_are_converted_in_a_small_multiple_of_their_size() {
    // 1.8 MB of one-move games become 63 MB of GGF. Read whole and written whole, the records
    // and the output took over 150 MB; read and written one game at a time, the conversion
    // finishes under an 80 MB address space (the binary itself takes ~40 MB).
    let dir = scratch("hardening", "many_short_games");
    let input = dir.join("f5.txt");
    let output = dir.join("out.ggf");
    let games = 600_000;
    fs::write(&input, "f5\n".repeat(games)).unwrap();
    let status = Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -v 80000; exec "$0" convert "$1" -o "$2""#)
        .arg(assert_cmd::cargo::cargo_bin("othello"))
        .arg(&input)
        .arg(&output)
        .status()
        .unwrap();
    assert!(status.success(), "{status}");
    let written = fs::read_to_string(&output).unwrap();
    assert_eq!(written.lines().count(), games);
    assert!(
        written
            .lines()
            .all(|line| line.ends_with("B[f5];)") && line.starts_with("(;GM[Othello]")),
        "{}",
        written.lines().next().unwrap()
    );
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
        // The output without its timings: times (`0.001`) and speeds (`-` under a
        // millisecond, otherwise `890 k` or `3.56 M`, whatever the machine's load).
        let run = |path: &std::path::Path| {
            let output = othello().args(command).arg(path).output().unwrap();
            assert!(output.status.success(), "{command:?}: {output:?}");
            String::from_utf8(output.stdout)
                .unwrap()
                .lines()
                .map(|line| {
                    let fields: Vec<&str> = line.split_whitespace().collect();
                    let prefix =
                        |i: usize| fields.get(i).is_some_and(|f| ["k", "M", "G"].contains(f));
                    (0..fields.len())
                        .filter(|&i| {
                            let field = fields[i];
                            !(prefix(i)
                                || prefix(i + 1)
                                || field == "-"
                                || (field.contains('.') && field.parse::<f64>().is_ok()))
                        })
                        .map(|i| fields[i])
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
