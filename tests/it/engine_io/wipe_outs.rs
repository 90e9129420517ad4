//! Wipe-outs and unusual starts through both protocols, and GTP answering as `GRhino` does.

use crate::support::othello;

use super::{Session, move_of, square};

/// `play` commands for the moves of a move list from the standard start, black first.
fn gtp_plays(moves: &str) -> String {
    alternating(moves, |black, square| {
        format!("play {} {square}\n", if black { "b" } else { "w" })
    })
}

/// The squares of a move list (black first, no passes), each written by `write` with whether
/// black plays it, one after the other.
fn alternating(moves: &str, write: impl Fn(bool, &str) -> String) -> String {
    moves
        .as_bytes()
        .chunks(2)
        .enumerate()
        .map(|(index, square)| write(index % 2 == 0, std::str::from_utf8(square).unwrap()))
        .collect::<Vec<_>>()
        .concat()
}

#[test]
fn gtp_sees_a_wipe_out_at_depth_1_and_counts_the_empties_for_the_winner() {
    // After d3c5d6c3c4e3c6c7f5 white's g5 wipes black out: at depth 1 it is played; the
    // final score gives the empty squares to the winner; after the end genmove answers pass
    // without recording it, so that undo takes back g5.
    let script = format!(
        "{}genmove w\nfinal_score\ngenmove b\nundo\nfinal_score\ngenmove w\n",
        gtp_plays("d3c5d6c3c4e3c6c7f5")
    );
    let output = othello()
        .args(["gtp", "--no-book", "--depth", "1", "--hash", "1"])
        .write_stdin(script)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let answers: Vec<&str> = stdout.split("\n\n").filter(|a| !a.is_empty()).collect();
    assert_eq!(
        answers[9..],
        [
            "= G5",
            "= W+64",
            "= pass",
            "= ",
            "? the game is not over",
            "= G5"
        ],
        "{stdout}"
    );
}

#[test]
fn nboard_sees_a_wipe_out_at_depth_1_and_answers_go_after_the_end() {
    let mut session = Session::start(&["nboard", "--no-book", "--hash", "1"]);
    session.send("nboard 2");
    session.line();
    session.send("set depth 1");
    let moves = alternating("d3c5d6c3c4e3c6c7f5", |black, square| {
        format!("{}[{square}]", if black { 'B' } else { 'W' })
    });
    session.send(&format!(
        "set game (;GM[Othello]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]{moves};)"
    ));
    session.send("go");
    let lines = session.until(|line| line.starts_with("=== "));
    assert_eq!(move_of(lines.last().unwrap()), "g5", "{lines:?}");
    session.send("move g5");
    session.send("go");
    let lines = session.until(|line| line.starts_with("=== "));
    assert_eq!(lines.last().unwrap(), "=== PA", "{lines:?}");
}

#[test]
fn nboard_set_game_takes_a_random_start_komi_game() {
    // The TY[8kr20] game of NBoard's own test file, after its first four moves.
    let text = std::fs::read(crate::support::real_file("nboard-test2.ggf")).unwrap();
    let record =
        &othello_records::read(&text, &othello_records::ReadOptions::default()).unwrap()[1];
    let four = othello_records::GameRecord::from_squares(
        &record.start_game(),
        record.squares().take(4),
        record.metadata().clone(),
    )
    .unwrap();
    let game_text = othello_records::ggf::game(&four);
    assert!(game_text.contains("TY[8kr20]"), "{game_text}");
    let mut session = Session::start(&["nboard", "--no-book", "--hash", "1"]);
    session.send("nboard 2");
    session.line();
    session.send("set depth 2");
    session.send(&format!("set game {game_text}"));
    session.send("go");
    let lines = session.until(|line| line.starts_with("=== "));
    let square = square(&move_of(lines.last().unwrap()).to_lowercase());
    assert!(
        four.final_game().is_legal(square),
        "{square} is not legal in\n{}",
        four.final_game().board()
    );
}

/// A GTP session recorded with `GRhino` 0.16 (`gtp-rhino`, Debian's `grhino`): the commands and
/// its answers, each answer trimmed.
fn grhino_session() -> (Vec<String>, Vec<String>) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/gtp");
    let commands = std::fs::read_to_string(root.join("grhino-wipe-out.in")).unwrap();
    let answers = std::fs::read_to_string(root.join("grhino-wipe-out.out")).unwrap();
    (
        commands.lines().map(str::to_owned).collect(),
        answers
            .split("\n\n")
            .map(|answer| answer.trim().to_owned())
            .filter(|answer| !answer.is_empty())
            .collect(),
    )
}

#[test]
fn gtp_answers_as_grhino_does_after_a_wipe_out() {
    // GRhino counts the empties for the winner (W+64), answers genmove after the end with a
    // pass it does not record (undo then takes back g5, and the game is no longer over), and
    // refuses an explicit pass (`play b pass`), which a GTP client must therefore not send.
    let (commands, answers) = grhino_session();
    assert_eq!(commands.len(), answers.len());
    let pass = commands.iter().position(|c| c == "play b pass").unwrap();
    assert_eq!(answers[pass], "? syntax error");
    let script: String = commands
        .iter()
        .enumerate()
        .filter(|&(index, _)| index != pass)
        .map(|(_, command)| format!("{command}\n"))
        .collect::<Vec<_>>()
        .concat();
    let output = othello()
        .args(["gtp", "--no-book", "--depth", "1", "--hash", "1"])
        .write_stdin(script)
        .output()
        .unwrap();
    let ours: Vec<String> = String::from_utf8(output.stdout)
        .unwrap()
        .split("\n\n")
        .map(|answer| answer.trim().to_owned())
        .filter(|answer| !answer.is_empty())
        .collect();
    let theirs: Vec<&String> = answers
        .iter()
        .enumerate()
        .filter(|&(index, _)| index != pass)
        .map(|(_, answer)| answer)
        .collect();
    // Every answer but `name` is the same (an error's text is free).
    let name = commands.iter().position(|c| c == "name").unwrap();
    for (index, (ours, theirs)) in ours.iter().zip(&theirs).enumerate() {
        if theirs.starts_with('?') {
            assert!(
                ours.starts_with('?'),
                "answer {index}: {ours} where GRhino says {theirs}"
            );
        } else if index != name {
            assert_eq!(ours, *theirs, "answer {index}");
        }
    }
    assert_eq!(ours.len(), theirs.len());
}
