//! Writes that fail part-way (a file size limit), files overwritten only when they are the
//! command's own, and train's data files read and written within bounds.

use std::fs;
use std::process::{Command, Stdio};
use std::time::Duration;

use predicates::prelude::*;

use crate::support::{othello, scratch};

/// `othello ARGS` run by `sh` under `ulimit -f BLOCKS` (a file size limit).
#[cfg(unix)]
pub(super) fn under_file_limit(blocks: u64, args: &[&std::ffi::OsStr]) -> std::process::Output {
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
pub(super) fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A move list of twelve games (every two-move opening) in a new file of `dir`.
pub(super) fn twelve_games(dir: &std::path::Path) -> std::path::PathBuf {
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
            "othello: {}: larger than a weights file can be ({} bytes)\n",
            long.display(),
            othello_engine::patterns::MAX_FILE_BYTES
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
