//! `othello train`: self-play data that a second run continues, rescoring, the cut-off model,
//! matches of the weights (`othello match`), and their errors.

use predicates::prelude::*;

use crate::solve::FFO_10;
use crate::support::{othello, scratch};

#[test]
fn selfplay_appends_and_a_second_run_continues_the_same_games() {
    let dir = scratch("train", "selfplay");
    let (continued, at_once) = (dir.join("continued.bin"), dir.join("at-once.bin"));
    let play = |path: &std::path::Path, games: &str| {
        othello()
            .args(["train", "selfplay"])
            .arg(path)
            .args(["--games", games, "--solve-empties", "8", "--depth", "1"])
            .assert()
            .success()
            .stdout(predicate::str::contains(format!("{games} games")));
    };
    play(&continued, "2");
    let first = std::fs::read(&continued).unwrap();
    assert!(first.starts_with(b"OTHDAT01"));
    assert_eq!((first.len() - 8) % 18, 0);
    assert!(first.len() >= 2 * 50 * 18);
    play(&continued, "3");
    play(&at_once, "3");
    let (continued, at_once) = (
        std::fs::read(&continued).unwrap(),
        std::fs::read(&at_once).unwrap(),
    );
    assert!(continued.starts_with(&first));
    assert_eq!(continued, at_once);
}

#[test]
fn selfplay_rejects_a_bad_opening_range() {
    othello()
        .args(["train", "selfplay", "x.bin", "--opening", "9-2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("expected LOW-HIGH"));
}

#[test]
fn fit_writes_a_weights_file_the_engine_can_read() {
    let dir = scratch("train", "fit");
    let (data, weights) = (games(&dir, 4), dir.join("weights.bin"));
    fit(&data, &weights)
        .args(["--epochs", "4", "--report-every", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("positions in 4 games"))
        .stdout(predicate::str::contains("    4 "));
    let bytes = std::fs::read(&weights).unwrap();
    let read = othello_engine::patterns::Weights::from_bytes(&bytes).unwrap();
    assert!(read.values().iter().any(|&weight| weight != 0));
    // The new weights play a match against the classic evaluation, at equal nodes.
    othello()
        .arg("match")
        .arg(format!("self:nodes=2000,weights={}", weights.display()))
        .args(["self:nodes=2000,classic", "--games", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "self:nodes=2000,weights={} against self:nodes=2000,classic: ",
            weights.display()
        )))
        .stdout(predicate::str::contains("of 2 games: "));
    // They order the solver's moves; the exact score is the listed one.
    othello()
        .args(["solve", "--empties-to-winner", "--eval"])
        .arg(&weights)
        .write_stdin(FFO_10)
        .assert()
        .success()
        .stdout(predicate::str::contains("1 of 1 match"));
}

#[test]
fn solve_names_a_weights_file_it_cannot_use() {
    let dir = scratch("train", "solve-eval");
    let data = games(&dir, 1);
    othello()
        .args(["solve", "--eval"])
        .arg(&data)
        .write_stdin(FFO_10)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(
            "data.bin: not an othello weights file (starts with \"OTHDAT01\")",
        ));
    othello()
        .args(["solve", "--eval", "no-such-weights.bin"])
        .write_stdin(FFO_10)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no-such-weights.bin: "));
}

/// `othello train fit DATA --out OUT`, to be given more arguments.
fn fit(data: &std::path::Path, out: &std::path::Path) -> assert_cmd::Command {
    let mut command = othello();
    command
        .args(["train", "fit"])
        .arg(data)
        .arg("--out")
        .arg(out);
    command
}

/// `count` short self-play games in a new data file of `dir`.
pub fn games(dir: &std::path::Path, count: u32) -> std::path::PathBuf {
    let data = dir.join("data.bin");
    othello()
        .args(["train", "selfplay"])
        .arg(&data)
        .args(["--solve-empties", "8", "--depth", "1", "--games"])
        .arg(count.to_string())
        .assert()
        .success();
    data
}

#[test]
fn rescore_replaces_the_inexact_scores_and_continues_an_interrupted_run() {
    let dir = scratch("train", "rescore");
    let data = games(&dir, 2);
    let (whole, resumed) = (dir.join("whole.bin"), dir.join("resumed.bin"));
    let rescore = |out: &std::path::Path| {
        othello()
            .args(["train", "rescore"])
            .arg(&data)
            .arg("--out")
            .arg(out)
            .args(["--depth", "2", "--from-empties", "30"])
            .assert()
            .success()
            .stdout(predicate::str::contains(
                "2 games rescored at depth 2 from 30 empties",
            ));
    };
    rescore(&whole);
    let (before, after) = (
        std::fs::read(&data).unwrap(),
        std::fs::read(&whole).unwrap(),
    );
    assert_eq!(before.len(), after.len());
    assert_eq!(before[..8], after[..8], "the header");
    let records = || before[8..].chunks(18).zip(after[8..].chunks(18));
    // Positions with fewer than 30 empties keep their records; some others change score.
    for (old, new) in records() {
        let discs = (u64::from_le_bytes(old[..8].try_into().unwrap())
            | u64::from_le_bytes(old[8..16].try_into().unwrap()))
        .count_ones();
        assert_eq!(old[..16], new[..16]);
        assert_eq!(old[17], new[17]);
        if 64 - discs < 30 {
            assert_eq!(old, new);
        }
    }
    assert!(records().any(|(old, new)| old != new));
    // A run cut short after its first game (and in the middle of the second) is continued.
    let first_game = after[8..]
        .chunks(18)
        .position(|record| record[17] & 4 != 0)
        .unwrap();
    std::fs::write(&resumed, &after[..8 + (first_game + 1) * 18 + 7]).unwrap();
    rescore(&resumed);
    assert_eq!(std::fs::read(&resumed).unwrap(), after);
    // `--games 1` rescores the first game alone; a run without it continues.
    let limited = dir.join("limited.bin");
    othello()
        .args(["train", "rescore"])
        .arg(&data)
        .arg("--out")
        .arg(&limited)
        .args(["--depth", "2", "--from-empties", "30", "--games", "1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("1 game rescored"));
    assert_eq!(
        std::fs::read(&limited).unwrap(),
        after[..8 + (first_game + 1) * 18]
    );
    rescore(&limited);
    assert_eq!(std::fs::read(&limited).unwrap(), after);
}

/// The records of a data file after its header: the mover's discs, the other side's, the score
/// and the flags.
fn samples(bytes: &[u8]) -> Vec<(u64, u64, i8, u8)> {
    assert!(bytes.starts_with(b"OTHDAT01"));
    bytes[8..]
        .chunks(18)
        .map(|r| {
            (
                u64::from_le_bytes(r[..8].try_into().unwrap()),
                u64::from_le_bytes(r[8..16].try_into().unwrap()),
                r[16] as i8,
                r[17],
            )
        })
        .collect()
}

#[test]
fn import_turns_real_wthor_games_into_data_that_rescore_solves() {
    let dir = scratch("train", "import");
    let wthor = |year: u32| crate::support::real_file(&format!("wthor/WTH_{year}.wtb"));
    let data = dir.join("wthor.bin");
    let import = |out: &std::path::Path, extra: &[&str]| {
        othello()
            .args(["train", "import"])
            .arg(wthor(1977))
            .arg(wthor(1978))
            .arg("--out")
            .arg(out)
            .args(extra)
            .assert()
    };
    import(&data, &[]).success().stdout(predicate::str::is_match(
        r"wthor\.bin: 20 games, \d+ positions \(\d+ positions repeated and 0 games not 8x8 FULL from the standard start left out\)\n$",
    ).unwrap());
    let imported = samples(&std::fs::read(&data).unwrap());
    // Every position once; a game's first and last flagged; none exact yet.
    let distinct: std::collections::HashSet<(u64, u64)> =
        imported.iter().map(|&(me, opp, ..)| (me, opp)).collect();
    assert_eq!(distinct.len(), imported.len());
    assert_eq!(imported.iter().filter(|s| s.3 & 4 != 0).count(), 20);
    assert!(imported.iter().all(|s| s.3 & 1 == 0));
    assert!(imported.len() > 20 * 40, "{} positions", imported.len());
    // The same seed draws the same games; --games keeps that many.
    let five = dir.join("five.bin");
    import(&five, &["--games", "5", "--seed", "7"]).success();
    let again = dir.join("again.bin");
    import(&again, &["--games", "5", "--seed", "7"]).success();
    assert_eq!(
        std::fs::read(&five).unwrap(),
        std::fs::read(&again).unwrap()
    );
    let drawn = samples(&std::fs::read(&five).unwrap());
    assert_eq!(drawn.iter().filter(|s| s.3 & 4 != 0).count(), 5);
    // A file that is not data is not replaced; data is.
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "keep me\n").unwrap();
    import(&notes, &[])
        .code(2)
        .stderr(predicate::str::contains("notes.txt: not a data file"));
    assert_eq!(std::fs::read(&notes).unwrap(), b"keep me\n");
    import(&five, &[]).success();
    // Rescoring solves the last 12 empties exactly and searches the rest.
    let rescored = dir.join("rescored.bin");
    othello()
        .args(["train", "rescore"])
        .arg(&data)
        .arg("--out")
        .arg(&rescored)
        .args([
            "--depth",
            "1",
            "--from-empties",
            "0",
            "--exact-empties",
            "12",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "20 games rescored at depth 1 from 0 empties, solved from 12 empties",
        ));
    let after = samples(&std::fs::read(&rescored).unwrap());
    assert_eq!(after.len(), imported.len());
    let empties = |me: u64, opp: u64| 64 - (me | opp).count_ones();
    for (old, new) in imported.iter().zip(&after) {
        assert_eq!((old.0, old.1), (new.0, new.1));
        assert_eq!(new.3 & 1 != 0, empties(new.0, new.1) <= 12, "exact flag");
    }
    assert!(after.iter().any(|s| s.3 & 1 != 0));
}

#[test]
fn import_names_a_file_that_is_not_a_record() {
    let dir = scratch("train", "import-bad");
    let bad = dir.join("bad.wtb");
    std::fs::write(&bad, [0u8; 40]).unwrap();
    othello()
        .args(["train", "import"])
        .arg(&bad)
        .arg("--out")
        .arg(dir.join("out.bin"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.wtb: "));
    assert!(!dir.join("out.bin").exists());
}

#[test]
fn probcut_prints_the_error_table_and_the_model() {
    let dir = scratch("train", "probcut");
    let data = games(&dir, 2);
    // At depths 3 and 4 both are 2 plies beyond their shallow searches: no model.
    othello()
        .args(["train", "probcut"])
        .arg(&data)
        .args(["--positions", "3", "--depth", "4"])
        .assert()
        .success()
        .stdout(predicate::str::contains("3 positions, 6 comparisons"))
        .stdout(predicate::str::contains(" 4 ( 2) "))
        .stdout(predicate::str::contains("model: not determined"));
    let model = |eval: &str| {
        let output = othello()
            .args(["train", "probcut"])
            .arg(&data)
            .args(["--positions", "4", "--depth", "6", "--eval", eval])
            .assert()
            .success()
            .stdout(predicate::str::contains(" 6 ( 2) "))
            .stdout(predicate::str::contains("model: sigma = "))
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(output).unwrap();
        text.lines().last().unwrap().to_owned()
    };
    // Another evaluation's searches differ, and so does the model fitted to them.
    assert_ne!(model("trained"), model("classic"));
}

#[test]
fn probcut_endgame_compares_exact_scores_with_each_depth() {
    let dir = scratch("train", "probcut-endgame");
    let data = games(&dir, 2);
    // Positions of 10 empties against depths 1 to 6 (4 plies short of the end); the data's
    // exact scores reach 8 empties, so these are solved.
    othello()
        .args(["train", "probcut"])
        .arg(&data)
        .args(["--endgame", "--min-empties", "10", "--max-empties", "10"])
        .args(["--positions", "2", "--depth", "8"])
        .assert()
        .success()
        .stdout(predicate::str::contains("2 positions, 12 comparisons in "))
        .stdout(predicate::str::contains(
            "root mean square error in discs by shallow depth and empty squares:",
        ))
        .stdout(predicate::str::contains("depth        10  model"))
        .stdout(predicate::str::contains("      6 "))
        .stdout(predicate::str::contains("      7 ").not())
        .stdout(predicate::str::contains(
            "model: not determined (it needs positions at two numbers of empty squares or more)",
        ));
    // An empty range is refused before any file is read.
    othello()
        .args([
            "train",
            "probcut",
            "missing.bin",
            "--endgame",
            "--min-empties",
            "30",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--min-empties 30 is more than --max-empties 24",
        ));
    // Two numbers of empty squares determine the model.
    othello()
        .args(["train", "probcut"])
        .arg(&data)
        .args(["--endgame", "--min-empties", "10", "--max-empties", "11"])
        .args(["--positions", "4", "--depth", "3"])
        .assert()
        .success()
        .stdout(predicate::str::contains("depth        10     11  model"))
        .stdout(predicate::str::contains("      3 "))
        .stdout(predicate::str::contains("      4 ").not())
        .stdout(predicate::str::is_match(
            r"model: sigma = -?[0-9.]+ [+-] [0-9.]+ \* \(empties - shallow depth\) [+-] [0-9.]+ \* empties",
        ).unwrap());
}

#[test]
fn match_names_a_file_that_is_not_a_weights_file() {
    let dir = scratch("train", "match");
    let data = games(&dir, 2);
    othello()
        .args(["match", "self:classic"])
        .arg(format!("self:weights={}", data.display()))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "data.bin: not an othello weights file (starts with \"OTHDAT01\")",
        ));
}

#[test]
fn fit_names_a_missing_data_file() {
    othello()
        .args(["train", "fit", "no-such-file.bin", "--out", "w.bin"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no-such-file.bin"));
}

#[test]
fn fit_by_conjugate_gradients_writes_weights_and_refuses_a_bad_ridge() {
    let dir = scratch("train", "fit-ridge");
    let (data, weights) = (games(&dir, 4), dir.join("weights.bin"));
    fit(&data, &weights)
        .args(["--ridge", "10", "--epochs", "4", "--report-every", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("    4 "));
    let bytes = std::fs::read(&weights).unwrap();
    let read = othello_engine::patterns::Weights::from_bytes(&bytes).unwrap();
    assert!(read.values().iter().any(|&weight| weight != 0));
    for (args, message) in [
        (&["--ridge", "-1"][..], "unexpected argument '-1'"),
        (&["--ridge=-1"][..], "'-1' is not a number at or above 0"),
        (
            &["--ridge", "NaN"][..],
            "'NaN' is not a number at or above 0",
        ),
        (
            &["--ridge", "1", "--rate", "0.1"][..],
            "cannot be used with",
        ),
    ] {
        fit(&data, &dir.join("other.bin"))
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
    assert!(!dir.join("other.bin").exists());
}
