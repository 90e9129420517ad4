//! Sharded runs of `othello train` (`selfplay` and `rescore` with `--shard K/N`, joined by
//! `merge`) and of `othello book` (`step --shard K/N`, joined by `merge`): each shard a
//! separate process of this binary, the merged file byte for byte the one run's; the scheduler
//! examples of docs/examples run as written.

use std::path::{Path, PathBuf};
use std::process::Command;

use predicates::prelude::*;

use crate::support::{othello, scratch};

/// The repository's file at `path`.
fn repository_file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The command lines of a scheduler example (trimmed) that start with `prefix`, in order.
fn example_commands(path: &str, prefix: &str) -> Vec<String> {
    std::fs::read_to_string(repository_file(path))
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with(prefix))
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

/// A scheduler example's two `othello TOOL` command lines, the shard's (`othello TOOL SHARD`,
/// with `--shard "$K/$N"`) and the merge's.
fn example_step(example: &str, tool: &str, shard: &str) -> (String, String) {
    let commands = example_commands(example, &format!("othello {tool} "));
    assert_eq!(commands.len(), 2, "{example}: {commands:?}");
    let find = |step: &str| {
        commands
            .iter()
            .find(|line| line.starts_with(&format!("othello {tool} {step} ")))
            .unwrap_or_else(|| panic!("{example}: no {step} line in {commands:?}"))
            .clone()
    };
    let (shard, merge) = (find(shard), find("merge"));
    assert!(shard.contains("--shard \"$K/$N\""), "{shard}");
    (shard, merge)
}

/// The example's variables for shard `k` (0 for the merge).
type Vars<'a> = dyn Fn(u32) -> Vec<(&'static str, String)> + 'a;

/// Runs one step of a scheduler example in `dir`: the shard line for each K of `order`, as the
/// scheduler starts it (its index is the scheduler's own: K for the Slurm array, `index_from`
/// 1; K - 1 for the Kubernetes job, `index_from` 0), then the merge line.
fn run_example_step(
    dir: &Path,
    (shard, merge): &(String, String),
    index_from: u32,
    order: [u32; 3],
    vars: &Vars<'_>,
) {
    for k in order {
        let index = (k - 1 + index_from).to_string();
        let mut vars = vars(k);
        vars.push(("SLURM_ARRAY_TASK_ID", index.clone()));
        vars.push(("JOB_COMPLETION_INDEX", index));
        run_shell(dir, shard, &vars);
    }
    run_shell(dir, merge, &vars(0));
}

/// What cannot run here: the Slurm script parses (`bash -n`) and holds `slurm_lines`, and the
/// Kubernetes file holds `yaml_lines`.
fn check_example_files(slurm: &str, slurm_lines: &[&str], yaml: &str, yaml_lines: &[&str]) {
    let slurm = repository_file(slurm);
    let status = Command::new("bash").arg("-n").arg(&slurm).status().unwrap();
    assert!(status.success());
    let slurm = std::fs::read_to_string(&slurm).unwrap();
    let yaml = std::fs::read_to_string(repository_file(yaml)).unwrap();
    for (file, text, lines) in [("slurm", &slurm, slurm_lines), ("yaml", &yaml, yaml_lines)] {
        for line in lines {
            assert!(text.contains(line), "{file}: {line}");
        }
    }
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
        let step = example_step(example, "train", "selfplay");
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
        // The shards as the scheduler starts them, in any order.
        run_example_step(&dir, &step, index_from, [3, 1, 2], &vars);
        let merged = std::fs::read(data.join("selfplay.dat")).unwrap();
        assert!(
            merged == one,
            "{example}: the merged file differs from the one run's"
        );
    }
    check_example_files(
        "docs/examples/selfplay.slurm",
        &[],
        "docs/examples/selfplay-job.yaml",
        &[
            "completionMode: Indexed",
            "K=$((JOB_COMPLETION_INDEX + 1))",
            "step: merge",
        ],
    );
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

/// The book examples run a step's shards and then its merge, step after step: run as written
/// here, with 3 shards of steps of 3 leaves, the book is byte for byte the one `book build`
/// makes with the same options, and steps after it is complete change nothing.
#[test]
fn the_scheduler_examples_build_a_book_in_steps_of_shards_as_one_build_does() {
    let dir = scratch("shards", "book-examples");
    let one = dir.join("one.book");
    othello()
        .args(["book", "build", "--out"])
        .arg(&one)
        .args([
            "--depth",
            "2",
            "--plies",
            "2",
            "--positions",
            "60",
            "--batch",
            "3",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "one.book: 73 positions, 17 expanded",
        ));
    let one = std::fs::read(&one).unwrap();
    for (example, index_from) in [
        ("docs/examples/book.slurm", 1),
        ("docs/examples/book-job.yaml", 0),
    ] {
        let step = example_step(example, "book", "step");
        let data = dir.join(example.rsplit('/').next().unwrap());
        std::fs::create_dir_all(&data).unwrap();
        let vars = |k: u32| {
            vec![
                ("K", k.to_string()),
                ("N", "3".to_owned()),
                ("BATCH", "3".to_owned()),
                ("PLIES", "2".to_owned()),
                ("POSITIONS", "60".to_owned()),
                ("DEPTH", "2".to_owned()),
                ("SEED", "1".to_owned()),
                ("DATA", data.display().to_string()),
            ]
        };
        for _ in 0..12 {
            run_example_step(&dir, &step, index_from, [2, 3, 1], &vars);
        }
        let built = std::fs::read(data.join("book.bin")).unwrap();
        assert!(
            built == one,
            "{example}: the book differs from the one build's"
        );
        // The merges removed their parts.
        assert!(!data.join("part-1-of-3.book").exists());
    }
    check_example_files(
        "docs/examples/book.slurm",
        &["--dependency=afterok:\"$array\" --export=ALL,STEP=merge"],
        "docs/examples/book-job.yaml",
        &[
            "completionMode: Indexed",
            "K=$((JOB_COMPLETION_INDEX + 1))",
            "step: merge",
            "kubectl delete job -l app=othello-book",
        ],
    );
}

/// `othello book step` with the options of one test build: a step of 3 leaves from `book`.
fn book_step(book: &Path, out: &Path, shard: &str) -> assert_cmd::Command {
    let mut command = othello();
    command
        .args(["book", "step"])
        .arg(book)
        .arg("--out")
        .arg(out)
        .args([
            "--shard", shard, "--depth", "2", "--plies", "2", "--batch", "3",
        ]);
    command
}

/// `othello book merge` of `parts` into `book`, with the options of [`book_step`].
fn book_merge(book: &Path, parts: &[&Path]) -> assert_cmd::Command {
    let mut command = othello();
    command
        .args(["book", "merge"])
        .arg(book)
        .args(parts)
        .arg("--out")
        .arg(book)
        .args(["--plies", "2", "--batch", "3"]);
    command
}

/// A stopped step's part is continued to the same file; parts that are unfinished, in the
/// wrong order, or not the step's are refused and the book kept; a merge run again after it
/// succeeded changes nothing; a part never replaces the book or a file not its own.
#[test]
fn book_steps_continue_their_parts_and_merges_refuse_parts_that_are_not_the_steps() {
    let dir = scratch("shards", "book-parts");
    let book = dir.join("book.bin");
    let parts: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("p{k}.book"))).collect();
    let part = |k: usize| parts[k - 1].as_path();
    for _ in 0..5 {
        for k in 1..=3 {
            book_step(&book, part(k), &format!("{k}/3"))
                .assert()
                .success();
        }
        book_merge(&book, &[part(1), part(2), part(3)])
            .assert()
            .success();
    }
    for k in 1..=3 {
        book_step(&book, part(k), &format!("{k}/3"))
            .assert()
            .success()
            .stdout(predicate::str::contains(format!(
                "p{k}.book: shard {k}/3: "
            )));
    }
    let whole = std::fs::read(part(2)).unwrap();
    let before = std::fs::read(&book).unwrap();

    // Shard 2's part cut to its first position, as a stopped run leaves it (an atomic save of
    // the positions searched so far), is continued to the same file.
    let text = dir.join("p2.txt");
    othello()
        .args(["book", "export", "--book"])
        .arg(part(2))
        .arg("-o")
        .arg(&text)
        .assert()
        .success();
    let lines: Vec<String> = std::fs::read_to_string(&text)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let first = lines
        .iter()
        .position(|line| !line.starts_with('#'))
        .unwrap();
    std::fs::write(&text, format!("{}\n", lines[first])).unwrap();
    std::fs::remove_file(part(2)).unwrap();
    othello()
        .args(["book", "import"])
        .arg(&text)
        .arg("--out")
        .arg(part(2))
        .assert()
        .success();
    assert!(std::fs::read(part(2)).unwrap() != whole);
    book_merge(&book, &[part(1), part(2), part(3)])
        .assert()
        .code(1)
        .stderr(predicate::str::is_match("p2.book: holds 1 of the [0-9]+ positions of shard 2/3 of the step \\(not finished, or not that shard\\)").unwrap());
    book_step(&book, part(2), "2/3").assert().success();
    assert!(std::fs::read(part(2)).unwrap() == whole);

    // Parts in the wrong order, or one missing.
    book_merge(&book, &[part(1), part(3), part(2)])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "p3.book: holds positions that are not shard 2/3 of the step from",
        ));
    book_merge(&book, &[part(1), part(2)]).assert().code(1);
    assert!(std::fs::read(&book).unwrap() == before);
    // A step's --out that is the book, or a file that is not this shard's part.
    book_step(&book, &book, "1/3")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "book.bin: is also the book; give another --out",
        ));
    book_step(&book, part(3), "1/3")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "p3.book: holds positions that are not shard 1/3 of the next step of",
        ));
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "notes\n").unwrap();
    book_step(&book, &notes, "1/3")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("notes.txt: not a book"));
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "notes\n");
    book_merge(&book, &[part(1), part(2), part(3)])
        .assert()
        .success();
    assert!(!part(1).exists() && !part(2).exists() && !part(3).exists());
    // A merge run again (the parts made again by steps run twice) finds them in the book.
    let merged = std::fs::read(&book).unwrap();
    std::fs::write(part(1), &whole).unwrap();
    std::fs::write(part(2), &whole).unwrap();
    std::fs::write(part(3), &whole).unwrap();
    book_merge(&book, &[part(1), part(2), part(3)])
        .assert()
        .success()
        .stdout(predicate::str::contains("(the parts were merged already)"));
    assert!(std::fs::read(&book).unwrap() == merged);
}

/// Ctrl-C during a step's search saves the part as it stands (status 130, one line saying
/// so); the same command continues it.
#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_saves_a_steps_part_for_the_same_command_to_continue() {
    let dir = scratch("shards", "book-interrupted");
    let book = dir.join("book.bin");
    let part = dir.join("p.book");
    book_step(&book, &part, "1/1").assert().success();
    book_merge(&book, &[&part]).assert().success();
    // The next step searches the first move 30 plies deep: far longer than the test waits.
    let mut step = std::process::Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["book", "step"])
        .arg(&book)
        .arg("--out")
        .arg(&part)
        .args(["--depth", "30", "--plies", "2", "--batch", "3"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(2));
    let (status, stderr) = crate::support::interrupt(&mut step);
    assert_eq!(status, Some(130), "{stderr}");
    assert!(
        stderr.ends_with("p.book holds 0 positions, and the same command continues it\n"),
        "{stderr}"
    );
    othello()
        .args(["book", "show", "--book"])
        .arg(&part)
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "book: 0 positions, 0 expanded\n",
        ));
}
