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
