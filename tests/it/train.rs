//! `othello train`: self-play data that a second run continues, and its errors.

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
    assert_eq!(first.len() % 18, 0);
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
    let (data, weights) = (dir.join("data.bin"), dir.join("weights.bin"));
    othello()
        .args(["train", "selfplay"])
        .arg(&data)
        .args(["--games", "4", "--solve-empties", "8", "--depth", "1"])
        .assert()
        .success();
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
}

#[test]
fn fit_names_a_missing_data_file() {
    othello()
        .args(["train", "fit", "no-such-file.bin", "--out", "w.bin"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no-such-file.bin"));
}
