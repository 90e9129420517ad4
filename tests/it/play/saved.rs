//! Saved games: reloaded to the same position, their seats kept by play, load and serve,
//! save asking before overwriting, load refusing what is not a game, a failed save.

use std::fs;
use std::path::Path;

use othello::{RuleSet, Setup};

use super::{HUMANS, dims, first_move_game, play_command, session, typed};

#[test]
fn a_saved_game_reloads_to_the_same_position_and_continues() {
    let dir = tempfile::tempdir().unwrap();
    let moves = first_move_game(Setup::standard(dims(6, 6)), RuleSet::Simple);
    let (first, rest) = moves.split_at(7);
    let saved = dir.path().join("game.ggf");
    let saved_arg = saved.to_str().unwrap();
    let transcript = session(
        &[
            &HUMANS[..],
            &["--size", "6x6", "--rules", "simple", "--black-name", "Ada"],
        ]
        .concat(),
        typed(first) + &format!("save {saved_arg}\nquit\n"),
    );
    assert!(
        transcript.contains(&format!("Game saved to {saved_arg} (GGF, 7 moves).")),
        "{transcript}"
    );
    let text = fs::read_to_string(&saved).unwrap();
    assert!(text.contains("PB[Ada]PW[White]"), "{text}");
    assert!(text.contains("TY[6]RU[SIMPLE]"), "{text}");
    // Reloaded: the same position, the same players, and the game goes on to its end.
    let end = dir.path().join("end.txt");
    let transcript = session(
        &[
            &HUMANS[..],
            &["--load", saved_arg, "--save", end.to_str().unwrap()],
        ]
        .concat(),
        "undo\n".to_owned() + &typed(&moves[6..7]) + &typed(rest) + "quit\n",
    );
    assert!(transcript.contains("Othello, 6x6 board, SIMPLE rules, most discs wins."));
    assert!(
        transcript.contains("Black (X): Ada, human."),
        "{transcript}"
    );
    assert!(transcript.contains(&format!(
        "Continuing the game of {saved_arg} after 7 moves."
    )));
    assert!(transcript.contains("Took back 1 move."), "{transcript}");
    assert!(transcript.contains("Game over."), "{transcript}");
    let squares: String = moves.iter().map(std::string::ToString::to_string).collect();
    assert!(
        transcript.contains(&format!("Moves: 6x6 simple {squares}\n")),
        "{transcript}"
    );
    // --save wrote the finished game, as a move list by its name.
    assert_eq!(
        fs::read_to_string(&end).unwrap(),
        format!("6x6 simple {squares}\n")
    );
}

#[test]
fn a_saved_game_keeps_its_seats_in_play_load_and_in_serve() {
    let dir = tempfile::tempdir().unwrap();
    // Named as `othello serve` names its games, so that it can open this one.
    let id = "0123456789abcdef0123456789abcdef";
    let saved = dir.path().join(format!("{id}.ggf"));
    let saved_arg = saved.to_str().unwrap();
    let transcript = session(
        &[
            "--black-name",
            "Ada",
            "--white",
            "computer:2",
            "--seed",
            "7",
        ],
        format!("d3\nsave {saved_arg}\nquit\n"),
    );
    assert!(
        transcript.contains(&format!("Game saved to {saved_arg} (GGF, 2 moves).")),
        "{transcript}"
    );
    let text = fs::read_to_string(&saved).unwrap();
    assert!(
        text.contains("PC[othello play black=human white=computer:2]"),
        "{text}"
    );
    // `--load` without --black or --white: the computer at level 2 again, not the default 3.
    let transcript = session(&["--load", saved_arg], "quit\n");
    assert!(
        transcript.contains("Black (X): Ada, human.\nWhite (O): computer at level 2.\n"),
        "{transcript}"
    );
    // Options still choose: --white human seats a person there.
    let transcript = session(&["--load", saved_arg, "--white", "human"], "quit\n");
    assert!(
        transcript.contains("White (O): Computer, human."),
        "{transcript}"
    );
    // `othello serve` opens it with the same seats.
    let (_server, address) = serve(dir.path());
    let game = get_json(&address, &format!("/api/games/{id}"));
    assert_eq!(game["moves"], 2, "{game}");
    assert_eq!(game["black"]["name"], "Ada", "{game}");
    assert_eq!(game["black"]["computer"], serde_json::Value::Null, "{game}");
    assert_eq!(game["white"]["name"], "Computer", "{game}");
    assert_eq!(game["white"]["computer"], 2, "{game}");
}

/// `othello serve` on a free loopback port over `games`, killed when dropped; its address.
fn serve(games: &Path) -> (Killed, String) {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["serve", "--addr", "127.0.0.1:0", "--games-dir"])
        .arg(games)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let server = Killed(child);
    for line in BufReader::new(stdout).lines() {
        let line = line.unwrap();
        if let Some(rest) = line.strip_prefix("Open http://") {
            let address = rest.split(['/', ' ']).next().unwrap().to_owned();
            return (server, address);
        }
    }
    panic!("othello serve printed no address");
}

/// A child process killed when dropped.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The JSON answer of `GET path` from the server at `address`.
fn get_json(address: &str, path: &str) -> serde_json::Value {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{answer}");
    serde_json::from_str(body).unwrap()
}

#[test]
fn save_asks_before_overwriting_what_is_not_this_game() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.txt");
    fs::write(&notes, "buy milk\n").unwrap();
    let save = format!("save {}\n", notes.display());
    // Refused (the default), then confirmed; the game's own save is then replaced without a word.
    let input = format!("f5\n{save}\n{save}y\nd6\n{save}quit\n");
    let transcript = session(&HUMANS, input);
    let question = format!("Overwrite {} (not a game record)? [y/N] ", notes.display());
    assert_eq!(transcript.matches(&question).count(), 2, "{transcript}");
    assert!(transcript.contains("Not saved."), "{transcript}");
    assert_eq!(
        transcript.matches("Game saved to").count(),
        2,
        "{transcript}"
    );
    assert_eq!(fs::read_to_string(&notes).unwrap(), "f5d6\n");
    // A file of two games is asked about too.
    fs::write(&notes, "f5d6\nd3c5\n").unwrap();
    let transcript = session(&HUMANS, format!("f5\n{save}no\n"));
    assert!(
        transcript.contains("(holds 2 games)? [y/N] "),
        "{transcript}"
    );
    assert_eq!(fs::read_to_string(&notes).unwrap(), "f5d6\nd3c5\n");
}

#[test]
fn load_refuses_a_file_that_is_not_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.txt");
    fs::write(&file, "f5 f5\n").unwrap();
    let output = play_command(&["--load", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        format!(
            "othello: {}: line 1, column 4: move 2: f5 is already occupied\n",
            file.display()
        )
    );
    let output = play_command(&["--load", "x.ggf", "--size", "6x6"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn a_failed_save_is_reported_and_the_game_goes_on() {
    let transcript = session(
        &HUMANS,
        "d3\nsave /nonexistent-directory/game.ggf\nc5\nquit\n",
    );
    assert!(
        transcript.contains("cannot write /nonexistent-directory/game.ggf: "),
        "{transcript}"
    );
    assert!(transcript.contains("White (O) plays c5"), "{transcript}");
}
