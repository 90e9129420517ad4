//! A game played by `othello play`, saved, reloaded, converted and analysed.

use othello::Color;
use othello_records::{self as record, ReadOptions};

/// A new user's round: a game played with `othello play` is saved, reloaded, converted to GGF
/// and to a protocol test input (which the protocol plays to the same end), and analysed.
#[test]
fn a_played_game_is_saved_reloaded_converted_and_analysed() {
    use crate::support::othello;

    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("game.txt");
    let saved_arg = saved.to_str().unwrap();
    let played = othello()
        .args([
            "play",
            "--size",
            "6x6",
            "--black",
            "computer:1",
            "--white",
            "computer:1",
        ])
        .args(["--seed", "11", "--save", saved_arg])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let played = String::from_utf8(played).unwrap();
    let moves_line = played
        .lines()
        .find_map(|line| line.strip_prefix("Moves: "))
        .unwrap()
        .to_owned();
    let file = std::fs::read_to_string(&saved).unwrap();
    assert_eq!(file, format!("{moves_line}\n"));
    let record = &record::read(file.as_bytes(), &ReadOptions::default()).unwrap()[0];
    let end = record.final_game();
    assert!(end.is_over());

    // Reloaded, the game is over at once and says so with the same score.
    let score = format!(
        "Black (X) {} - {} White (O)",
        end.score().black,
        end.score().white
    );
    othello()
        .args([
            "play", "--black", "human", "--white", "human", "--load", saved_arg,
        ])
        .write_stdin("quit\n")
        .assert()
        .success()
        .stdout(predicates::str::contains(score.as_str()))
        .stdout(predicates::str::contains("Game over."));

    let ggf = othello()
        .args(["convert", saved_arg, "--to", "ggf"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8_lossy(&ggf).starts_with("(;GM[Othello]TY[6]BO[6 "));
    let case = othello()
        .args(["convert", saved_arg, "--to", "protocol"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let winner = match end.outcome().unwrap().winner() {
        Some(Color::Black) => "B",
        Some(Color::White) => "W",
        None => "NONE",
    };
    othello()
        .write_stdin(case)
        .assert()
        .success()
        .stdout(predicates::str::ends_with(format!("WINNER: {winner}\n")));

    let json = othello()
        .args([
            "analyze",
            "--json",
            "--exact-from",
            "8",
            "--depth",
            "2",
            saved_arg,
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let analysed = json["games"][0]["moves"].as_array().unwrap();
    assert_eq!(analysed.len(), record.squares().count());
    assert!(analysed.iter().all(|m| m["loss"].as_i64().unwrap() >= 0));
}
