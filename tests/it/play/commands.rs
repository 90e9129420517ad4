//! The commands `board` and `new`, and the line and delay options.

use super::{play_command, session};

#[test]
fn board_shows_the_board_again() {
    let output = play_command(&["--white", "human"])
        .write_stdin("board\nquit\n")
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        stdout.matches("  4 . . * O X . . . 4").count(),
        2,
        "{stdout}"
    );
    assert!(output.status.success());
}

#[test]
fn line_and_delay_options() {
    let output = play_command(&[
        "--black",
        "computer:1",
        "--white",
        "computer:1",
        "--size",
        "4x4",
        "--line",
        "--delay",
        "0.01",
        "--seed",
        "1",
    ])
    .output()
    .unwrap();
    assert!(output.status.success());
    assert!(
        String::from_utf8(output.stdout)
            .unwrap()
            .contains("Game over.")
    );
    let bad = play_command(&["--delay", "soon"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let stderr = String::from_utf8(bad.stderr).unwrap();
    assert!(
        stderr.contains("expected a number of seconds from 0 to 3600, found \"soon\""),
        "{stderr}"
    );
}

#[test]
fn new_takes_other_settings() {
    // Against the computer on 8x8: a move, then a new 6x6 SIMPLE game for two people where
    // white moves first and fewest discs wins; a bad setting is explained first.
    let input = "d3\nnew 6x6 huge\nnew 6x6 simple black=human white=human first=white win=fewest\nyes\nmoves\nnew 7x7\nnew 4x4 white=computer:1 black=1\n";
    let transcript = session(&["--seed", "1", "--black-name", "Ada"], input);
    assert!(
        transcript.contains(
            "Othello, 6x6 board, SIMPLE rules, fewest discs wins.\nBlack (X): Ada, human.\nWhite (O): human.\n"
        ),
        "{transcript}"
    );
    assert!(
        transcript.contains("Legal moves for White (O): "),
        "{transcript}"
    );
    assert!(
        transcript.contains("Expected a board size such as 6x6, full or simple, most or fewest, or size=, rules=, win=, first=, black= or white=, found \"huge\"."),
        "{transcript}"
    );
    assert!(
        transcript.contains("A 7x7 board is not supported"),
        "{transcript}"
    );
    // Two computers play the 4x4 game to its end, and the session ends there.
    assert!(
        transcript.contains("Othello, 4x4 board, SIMPLE rules, fewest discs wins.\nBlack (X): Ada, computer at level 1.\nWhite (O): computer at level 1.\n"),
        "{transcript}"
    );
    assert!(transcript.contains("Game over."), "{transcript}");
    assert!(transcript.starts_with("status: 0"), "{transcript}");
}
