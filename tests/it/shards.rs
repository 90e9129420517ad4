//! Sharded runs of `othello train` (`selfplay` and `rescore` with `--shard K/N`, joined by
//! `merge`): each shard a separate process of this binary, the merged file byte for byte the
//! one run's; the scheduler examples of docs/examples run as written.

use std::path::{Path, PathBuf};
use std::process::Command;

use predicates::prelude::*;

use crate::support::{othello, scratch};

/// The repository's file at `path`.
fn repository_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The `othello train` command lines of a scheduler example (trimmed), in order.
fn example_commands(path: &str) -> Vec<String> {
    std::fs::read_to_string(repository_file(path))
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with("othello train "))
        .map(str::to_owned)
        .collect()
}

/// Runs `line` with `sh -c` in `dir`, this binary first on the path as `othello`, with `vars`.
fn run_shell(dir: &Path, line: &str, vars: &[(&str, String)]) {
    let bin = dir.join("bin");
    if !bin.exists() {
        std::fs::create_dir_all(&bin).unwrap();
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_othello"), bin.join("othello")).unwrap();
    }
    let path = std::env::join_paths(
        std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let output = Command::new("sh")
        .args(["-c", line])
        .current_dir(dir)
        .env("PATH", path)
        .envs(vars.iter().map(|(name, value)| (name, value)))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{line}: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Both examples run one shard per index and then the merge: run as written here, with 3
/// shards of 5 games, their file is byte for byte that of one run (two threads) from the
/// same seed.
#[test]
fn the_scheduler_examples_shard_selfplay_and_merge_it_into_the_file_of_one_run() {
    let dir = scratch("shards", "examples");
    let one = dir.join("one.dat");
    othello()
        .args(["train", "selfplay"])
        .arg(&one)
        .args(["--games", "5", "--seed", "3", "--threads", "2"])
        .assert()
        .success();
    let one = std::fs::read(&one).unwrap();
    for (example, index_from) in [
        ("docs/examples/selfplay.slurm", 1),
        ("docs/examples/selfplay-job.yaml", 0),
    ] {
        let commands = example_commands(example);
        assert_eq!(commands.len(), 2, "{example}: {commands:?}");
        let find = |step: &str| {
            commands
                .iter()
                .find(|line| line.starts_with(&format!("othello train {step} ")))
                .unwrap_or_else(|| panic!("{example}: no {step} line in {commands:?}"))
        };
        let (shard, merge) = (find("selfplay"), find("merge"));
        assert!(shard.contains("--shard \"$K/$N\""), "{shard}");
        let data = dir.join(example.rsplit('/').next().unwrap());
        std::fs::create_dir_all(&data).unwrap();
        let vars = |k: u32| {
            vec![
                ("K", k.to_string()),
                ("N", "3".to_owned()),
                ("GAMES", "5".to_owned()),
                ("SEED", "3".to_owned()),
                ("DATA", data.display().to_string()),
            ]
        };
        // The shards as the scheduler starts them, in any order (the index is the scheduler's
        // own: 1-3 for the Slurm array, 0-2 for the Kubernetes job).
        for k in [3, 1, 2] {
            let index = (k - 1 + index_from).to_string();
            let mut vars = vars(k);
            vars.push(("SLURM_ARRAY_TASK_ID", index.clone()));
            vars.push(("JOB_COMPLETION_INDEX", index));
            run_shell(&dir, shard, &vars);
        }
        run_shell(&dir, merge, &vars(0));
        let merged = std::fs::read(data.join("selfplay.dat")).unwrap();
        assert!(
            merged == one,
            "{example}: the merged file differs from the one run's"
        );
    }
    let slurm = repository_file("docs/examples/selfplay.slurm");
    let status = Command::new("bash").arg("-n").arg(&slurm).status().unwrap();
    assert!(status.success());
    let yaml = std::fs::read_to_string(repository_file("docs/examples/selfplay-job.yaml")).unwrap();
    for line in [
        "completionMode: Indexed",
        "K=$((JOB_COMPLETION_INDEX + 1))",
        "step: merge",
    ] {
        assert!(yaml.contains(line), "{line}");
    }
}

/// `rescore --shard K/N` splits the games of its input: three shards merged are the one
/// rescore's file; a shard that is unfinished, cut short, or given in the wrong place is
/// refused, and so is an `--out` that is not a data file.
#[test]
fn rescore_shards_merge_into_the_file_of_one_rescore_and_bad_shards_are_refused() {
    let dir = scratch("shards", "rescore");
    let data = dir.join("data.dat");
    othello()
        .args(["train", "selfplay"])
        .arg(&data)
        .args(["--games", "7", "--depth", "1", "--solve-empties", "8"])
        .assert()
        .success();
    let rescore = |out: &Path, shard: Option<&str>| {
        let mut command = othello();
        command
            .args(["train", "rescore"])
            .arg(&data)
            .arg("--out")
            .arg(out)
            .args([
                "--depth",
                "2",
                "--from-empties",
                "10",
                "--exact-empties",
                "8",
            ]);
        if let Some(shard) = shard {
            command.args(["--shard", shard]);
        }
        command.assert().success();
    };
    let one = dir.join("one.dat");
    rescore(&one, None);
    let shards: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("r{k}.dat"))).collect();
    for (k, shard) in (1..=3).zip(&shards) {
        rescore(shard, Some(&format!("{k}/3")));
    }
    let merged = dir.join("merged.dat");
    othello()
        .args(["train", "merge", "--games", "7", "--out"])
        .arg(&merged)
        .args(&shards)
        .assert()
        .success()
        .stdout(predicate::str::contains("merged.dat: 7 games ("));
    assert!(std::fs::read(&merged).unwrap() == std::fs::read(&one).unwrap());

    // Shards 2 and 3 exchanged: shard 2 of 7 games has 2, r3.dat holds 3.
    othello()
        .args(["train", "merge", "--games", "7", "--out"])
        .arg(dir.join("wrong.dat"))
        .args([&shards[0], &shards[2], &shards[1]])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "r3.dat: holds 3 games, shard 2/3 of the run's has 2 (not finished, or not that shard)",
        ));
    // A shard cut short by an interrupted run.
    let bytes = std::fs::read(&shards[2]).unwrap();
    std::fs::write(&shards[2], &bytes[..bytes.len() - 18]).unwrap();
    othello()
        .args(["train", "merge", "--out"])
        .arg(dir.join("cut.dat"))
        .args(&shards)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("r3.dat: ends in a game cut short"));
    // An --out that is not a data file is kept.
    let text = dir.join("notes.txt");
    std::fs::write(&text, "notes\n").unwrap();
    othello()
        .args(["train", "merge", "--out"])
        .arg(&text)
        .arg(&shards[0])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "notes.txt: not a data file of othello train",
        ));
    assert_eq!(std::fs::read_to_string(&text).unwrap(), "notes\n");
}
