//! `othello play`: scripted sessions piped through the binary. Standard output is not a
//! terminal here, so there is no colour, and each line read is echoed after its prompt.
//!
//! Here games, passes, rules, logs and arguments; saved games in `saved`, `board`, `new` and
//! the line options in `commands`.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use insta::assert_snapshot;

use othello::{Color, Dimensions, Game, RuleSet, Setup, Square, WinRule};

mod commands;
mod saved;

/// Runs `othello play ARGS` with `input` and returns the exit status, standard output and
/// standard error as one text for a snapshot.
fn session(args: &[&str], input: impl Into<Vec<u8>>) -> String {
    let output = play_command(args).write_stdin(input).output().unwrap();
    format!(
        "status: {}\n--- stdout\n{}--- stderr\n{}",
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap()
    )
}

fn play_command(args: &[&str]) -> Command {
    let mut command = Command::cargo_bin("othello").unwrap();
    command.arg("play").args(args).env_remove("NO_COLOR");
    command
}

/// The moves of a game in which each player takes the first legal move in reading order.
fn first_move_game(setup: Setup, rules: RuleSet) -> Vec<Square> {
    let mut game = Game::new(setup, rules);
    let mut moves = Vec::new();
    while let Some(&square) = game.legal_moves().first() {
        game.play(square).unwrap();
        moves.push(square);
    }
    moves
}

/// Each move in turn as `d3`, `3d`, `D3`, `3 4`, so that every form is used.
fn typed(moves: &[Square]) -> String {
    let mut text = String::new();
    for (i, square) in moves.iter().enumerate() {
        let (row, col, letter) = (square.row() + 1, square.col() + 1, square.file_letter());
        let line = match i % 4 {
            0 => format!("{letter}{row}"),
            1 => format!("{row}{letter}"),
            2 => format!("{}{row}", letter.to_ascii_uppercase()),
            _ => format!("{row} {col}"),
        };
        text.push_str(&line);
        text.push('\n');
    }
    text
}

fn dims(rows: usize, cols: usize) -> Dimensions {
    Dimensions::new(rows, cols).unwrap()
}

const HUMANS: [&str; 4] = ["--black", "human", "--white", "human"];

#[test]
fn a_complete_game_between_two_people() {
    let moves = first_move_game(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
    let args = [&HUMANS[..], &["--black-name", "Ada", "--white-name", "Bob"]].concat();
    let transcript = session(&args, typed(&moves) + "quit\n");
    assert!(transcript.contains("Game over."));
    assert_snapshot!(transcript);
}

#[test]
fn every_command() {
    // moves, pass (refused: there are moves), hint, a move, undo, help, new (refused, then
    // confirmed), an unknown word, quit.
    let input = "moves\npass\nhint\nd3\nc5\nundo\nhelp\nnew\nno\nnew\nyes\nresign\nquit\n";
    assert_snapshot!(session(&HUMANS, input));
}

#[test]
fn every_input_form_on_a_10x10_board() {
    // The 10x10 opening: black's moves are e4, d5, g6, f7. Each typed differently, with
    // white's replies in the other forms, including two-digit rows.
    let input = "e4\nF4\n5D\n6 4\nf7\n8e\nG6\nc10\n10c\nquit\n";
    assert_snapshot!(session(
        &[&HUMANS[..], &["--size", "10x10"]].concat(),
        input
    ));
}

#[test]
fn bad_input_is_explained_and_asked_again() {
    let mut input = Vec::new();
    for line in [
        "", "   ", "zz", "d", "3", "d3x", "i1", "d9", "d0", "3 9", "0 0", "a1", "d4", "-1 2",
    ] {
        input.extend_from_slice(line.as_bytes());
        input.push(b'\n');
    }
    input.extend_from_slice(b"\xff\xfe\n");
    input.extend_from_slice("x".repeat(10_000).as_bytes());
    input.extend_from_slice(b"\r\nd3\r\n");
    // The input ends in the middle of the game: a clean exit.
    let transcript = session(&HUMANS, input);
    assert!(transcript.starts_with("status: 0\n"));
    assert!(transcript.contains("plays d3"));
    assert_snapshot!(transcript);
}

#[test]
fn redo_plays_again_what_undo_took_back_until_another_move() {
    let transcript = session(
        &["--white", "computer:1", "--seed", "7"],
        "redo\nd3\nundo\nredo\nundo\nf5\nredo\nquit\n",
    );
    let after = |marker: &str| transcript.split_once(marker).unwrap().1;
    assert!(
        after("redo\n").starts_with("Nothing to redo."),
        "{transcript}"
    );
    let redone = after("Took back 2 moves.");
    assert!(redone.contains("Played again: d3 "), "{transcript}");
    // The move typed after the second undo clears what could be played again.
    let after_f5 = after("> f5\n");
    assert!(after_f5.contains("Nothing to redo."), "{transcript}");
}

#[test]
fn control_characters_typed_are_echoed_escaped() {
    // A title-setting escape sequence must not reach the terminal as typed.
    let transcript = session(&HUMANS, "f5\u{1b}]0;pwned\u{7}\nquit\n");
    assert!(!transcript.contains('\u{1b}'), "{transcript}");
    assert!(!transcript.contains('\u{7}'), "{transcript}");
    assert!(
        transcript.contains("> f5\\u{1b}]0;pwned\\u{7}\n"),
        "{transcript}"
    );
}

#[test]
fn undo_takes_back_the_computers_reply_too() {
    let transcript = session(
        &["--white", "computer:1", "--seed", "7"],
        "d3\nundo\nundo\nquit\n",
    );
    assert!(transcript.contains("Took back 2 moves."));
    assert!(transcript.contains("Nothing to undo"));
    assert_snapshot!(transcript);
}

/// A 4x4 position where white's d3 leaves black without a move.
const PASS_SETUP: &str = "4\n4\nW\n>\nW W W B\nW W B .\nW B W .\nB . . .\n";

#[test]
fn a_forced_pass_is_announced_and_played() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pass.txt");
    fs::write(&file, PASS_SETUP).unwrap();
    let setup = Setup::from_protocol(PASS_SETUP).unwrap();
    let mut game = Game::new(setup, RuleSet::Full);
    let played = game.play(Square::new(2, 3)).unwrap();
    assert_eq!(played.passed, Some(Color::Black));
    let rest = first_move_game(
        Setup {
            board: *game.board(),
            first: Color::White,
            win: WinRule::MostDiscs,
        },
        RuleSet::Full,
    );
    let input = format!("d3\n{}", typed(&rest));
    let transcript = session(
        &[&HUMANS[..], &["--from", file.to_str().unwrap()]].concat(),
        input,
    );
    assert!(transcript.contains("Black (X) has no legal move and passes; White (O) moves again."));
    assert_snapshot!(transcript);
}

#[test]
fn a_player_without_a_move_at_the_start_passes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("start.txt");
    // Black has no move; white has.
    fs::write(&file, "4\n4\nB\n>\nW W W B\nW W W .\nW B W W\nB . . .\n").unwrap();
    let transcript = session(
        &[&HUMANS[..], &["--from", file.to_str().unwrap()]].concat(),
        "",
    );
    assert!(
        transcript.contains(
            "Black (X) has no legal move at the start and passes; White (O) moves first."
        )
    );
    assert!(transcript.contains("White (O) to move"));
}

#[test]
fn fewest_discs_wins() {
    let setup = Setup {
        win: WinRule::FewestDiscs,
        ..Setup::standard(dims(4, 4))
    };
    let moves = first_move_game(setup, RuleSet::Full);
    let transcript = session(
        &[&HUMANS[..], &["--size", "4x4", "--win", "fewest"]].concat(),
        typed(&moves),
    );
    let mut game = Game::new(setup, RuleSet::Full);
    for &square in &moves {
        game.play(square).unwrap();
    }
    let winner = game
        .outcome()
        .unwrap()
        .winner()
        .expect("this game has a winner");
    assert!(game.score()[winner] < game.score()[winner.opponent()]);
    assert!(transcript.contains("fewer (fewest discs wins)"));
    assert_snapshot!(transcript);
}

#[test]
fn the_computer_plays_to_have_fewer_discs_when_fewest_wins() {
    // A strong level against a weak one, both under "fewest discs wins": the strong one
    // should end with fewer discs.
    let transcript = session(
        &[
            "--size",
            "6x6",
            "--win",
            "fewest",
            "--black",
            "computer:4",
            "--white",
            "computer:1",
            "--seed",
            "3",
        ],
        "",
    );
    assert!(transcript.contains("Black (X) wins with"), "{transcript}");
}

#[test]
fn simple_rules_game_on_4x16_between_people() {
    let setup = Setup::standard(dims(4, 16));
    let moves = first_move_game(setup, RuleSet::Simple);
    let transcript = session(
        &[&HUMANS[..], &["--size", "4x16", "--rules", "simple"]].concat(),
        typed(&moves),
    );
    assert!(transcript.contains("Game over."));
    assert_snapshot!(transcript);
}

#[test]
fn a_10x10_game_between_computers_replays_with_the_same_seed() {
    let args = [
        "--size",
        "10x10",
        "--black",
        "computer:2",
        "--white",
        "computer:1",
        "--seed",
        "42",
    ];
    let first = session(&args, "");
    let second = session(&args, "");
    assert_eq!(first, second);
    assert!(first.starts_with("status: 0\n"));
    assert_eq!(first.matches("Game over.").count(), 1);
    // The final board is shown once, with the result in its status line.
    assert_eq!(first.matches(" wins by ").count(), 1, "{first}");
    // Only the end is kept as a snapshot: the result and the final board.
    let end = &first[first.rfind("\n\n").unwrap()..];
    assert_snapshot!(end);
}

#[test]
fn a_person_against_the_computer_on_4x16() {
    // The person tries every square in reading order until one is legal, turn after turn.
    let dims = dims(4, 16);
    let every_square: String = dims
        .squares()
        .map(|square| square.to_string() + "\n")
        .collect();
    let transcript = session(
        &["--size", "4x16", "--seed", "5", "--white", "computer:2"],
        every_square.repeat(40),
    );
    assert!(transcript.starts_with("status: 0\n"));
    assert!(transcript.contains("Computer (O) plays"));
    assert!(transcript.contains("Game over."), "{transcript}");
    assert!(transcript.contains("The game is over: type new, undo, save or quit."));
}

/// Plays a whole 4x4 game between two people with `--log FILE`.
fn logged_game(dir: &Path, log_args: &[&str], names: [&str; 2]) -> String {
    let moves = first_move_game(Setup::standard(dims(4, 4)), RuleSet::Full);
    let args = [
        &HUMANS[..],
        &[
            "--size",
            "4x4",
            "--black-name",
            names[0],
            "--white-name",
            names[1],
        ],
        log_args,
    ]
    .concat();
    let output = play_command(&args)
        .current_dir(dir)
        .write_stdin(typed(&moves) + "quit\n")
        .output()
        .unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn log_appends_one_line_per_game_and_keeps_what_was_there() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("results.txt");
    fs::write(&file, "an earlier line\n").unwrap();
    let path = file.to_str().unwrap();
    let stdout = logged_game(dir.path(), &["--log", path], ["Ada", "Bob"]);
    assert!(stdout.contains(&format!("Result appended to {path}.")));
    logged_game(dir.path(), &["--log", path], ["Cy", "Di"]);
    let text = fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[0], "an earlier line");
    for (line, (black, white)) in lines[1..].iter().zip([("Ada", "Bob"), ("Cy", "Di")]) {
        // 2025-06-01 14:03:22 +02:00 | 4x4 FULL, most discs wins | Ada (black) 3 - 13 Bob (white) | winner: Bob (white)
        let (stamp, rest) = line.split_at("2025-06-01 14:03:22 +02:00".len());
        assert!(
            stamp.as_bytes()[4] == b'-' && stamp.as_bytes()[13] == b':',
            "{line}"
        );
        assert!(
            rest.starts_with(&format!(" | 4x4 FULL, most discs wins | {black} (black) ")),
            "{line}"
        );
        assert!(rest.contains(&format!(" {white} (white) | ")), "{line}");
        assert!(rest.ends_with(" (white)") || rest.ends_with(" (black)") || rest.ends_with("draw"));
    }
}

#[test]
fn log_without_a_file_name_uses_the_default_file() {
    let dir = tempfile::tempdir().unwrap();
    logged_game(dir.path(), &["--log"], ["Ada", "Bob"]);
    let text = fs::read_to_string(dir.path().join("othello-results.txt")).unwrap();
    assert_eq!(text.lines().count(), 1);
    assert!(text.contains("Ada (black)"));
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let quit = "quit\n";
    let plain = session(&HUMANS, quit);
    assert!(!plain.contains('\u{1b}'));
    let always = session(&[&HUMANS[..], &["--color", "always"]].concat(), quit);
    assert!(always.contains('\u{1b}'));
    let never = session(&[&HUMANS[..], &["--color", "never"]].concat(), quit);
    assert_eq!(never, plain);
    let with_no_color = play_command(&HUMANS)
        .env("NO_COLOR", "1")
        .write_stdin(quit)
        .output()
        .unwrap();
    assert!(
        !String::from_utf8(with_no_color.stdout)
            .unwrap()
            .contains('\u{1b}')
    );
}

#[test]
fn bad_arguments_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let bad_setup = dir.path().join("bad.txt");
    fs::write(&bad_setup, "8\n7\nB\n>\n").unwrap();
    let missing = dir.path().join("missing.txt");
    let cases: [(&[&str], &str); 8] = [
        (&["--size", "7x8"], "a 7x8 board is not supported"),
        (&["--size", "big"], "expected a board size such as 8x8"),
        (
            &["--black", "robot"],
            "expected human, computer or computer:LEVEL",
        ),
        (
            &["--white", "computer:9"],
            "expected a computer level from 1 to 6",
        ),
        (&["--black-name", "a\tb"], "control characters"),
        (
            &["--from", bad_setup.to_str().unwrap()],
            "line 2: expected the number of columns",
        ),
        (&["--from", missing.to_str().unwrap()], "cannot read"),
        (&["--from", "x.txt", "--size", "4x4"], "cannot be used with"),
    ];
    for (args, message) in cases {
        let output = play_command(args).write_stdin("").output().unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
    let dir_as_log = play_command(&["--log", dir.path().to_str().unwrap()])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(dir_as_log.status.code(), Some(2));
    let stderr = String::from_utf8(dir_as_log.stderr).unwrap();
    assert!(
        stderr.starts_with("othello: cannot open results file"),
        "{stderr}"
    );
}

#[test]
fn from_a_file_starts_from_its_position() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("start.txt");
    fs::write(
        &file,
        "4\n6\nW\n<\n. . . . . .\n. . W B . .\n. . B W . .\n. . . . . .\n",
    )
    .unwrap();
    let transcript = session(
        &[&HUMANS[..], &["--from", file.to_str().unwrap()]].concat(),
        "moves\n",
    );
    assert!(transcript.contains("Othello, 4x6 board, FULL rules, fewest discs wins."));
    assert!(transcript.contains("White (O) to move"));
    assert_snapshot!(transcript);
}

#[test]
fn help_documents_the_options() {
    let output = play_command(&["--help"]).output().unwrap();
    assert!(output.status.success());
    let help = String::from_utf8(output.stdout).unwrap();
    for option in [
        "--size",
        "--rules",
        "--first",
        "--win",
        "--black",
        "--white",
        "--black-name",
        "--white-name",
        "--from",
        "--log",
        "--color",
        "--seed",
    ] {
        assert!(help.contains(option), "{option}");
    }
}
