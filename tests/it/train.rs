//! `othello train`: self-play data that a second run continues, rescoring, the cut-off model,
//! matches of the weights (`othello match`), and their errors.

use predicates::prelude::*;

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
    othello()
        .args(["train", "fit"])
        .arg(&data)
        .arg("--out")
        .arg(&weights)
        .args(["--epochs", "4", "--report-every", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("positions in 4 games"))
        .stdout(predicate::str::contains("    4 "));
    let bytes = std::fs::read(&weights).unwrap();
    let read = othello::engine::patterns::Weights::from_bytes(&bytes).unwrap();
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
}

#[test]
fn probcut_prints_the_error_table_and_the_model() {
    let dir = scratch("train", "probcut");
    let data = games(&dir, 2);
    othello()
        .args(["train", "probcut"])
        .arg(&data)
        .args(["--positions", "3", "--depth", "4"])
        .assert()
        .success()
        .stdout(predicate::str::contains("3 positions, 6 comparisons"))
        .stdout(predicate::str::contains(" 4 ( 2) "))
        .stdout(predicate::str::contains("model: sigma = "));
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
