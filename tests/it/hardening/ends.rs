//! Runs that end when their front end or input goes, save files and outputs checked before
//! a game starts, and odd inputs (many short games, bad move lines, Latin-1 names).

use std::fs;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use predicates::prelude::*;

use crate::support::{othello, scratch};

use super::files::{names_in, twelve_games, under_file_limit};
use super::{COMPUTERS_4X4, START_4X4};

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
