//! `othello nboard` and `othello gtp`: scripted sessions with the exact replies (times
//! redacted), a search stopped by `ping`, and a whole game between two engine processes
//! checked against `Game`.
//!
//! Here the NBoard and GTP sessions; the two protocols against each other in `against`,
//! wipe-outs and `GRhino`'s answers in `wipe_outs`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use insta::assert_snapshot;
use othello::notation::parse_square;
use othello::{Color, Dimensions, Game, RuleSet, Setup, Square};

use crate::support::othello;

mod against;
mod wipe_outs;

/// A running `othello nboard` or `othello gtp`, talked to line by line.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    /// Commands (`> `) and replies (`< `), times redacted.
    transcript: String,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut command = Command::new(assert_cmd::cargo::cargo_bin("othello"));
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // A test run started in the background by a shell inherits SIGINT ignored, and so
        // would the engine: Ctrl-C is the default action here, as at a terminal.
        #[cfg(unix)]
        // SAFETY: signal(2) is async-signal-safe, as pre_exec requires.
        unsafe {
            use std::os::unix::process::CommandExt;
            command.pre_exec(|| {
                libc::signal(libc::SIGINT, libc::SIG_DFL);
                Ok(())
            });
        }
        let mut child = command.spawn().expect("othello starts");
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            stdin: child.stdin.take(),
            child,
            lines,
            transcript: String::new(),
        }
    }

    fn send(&mut self, command: &str) {
        self.transcript.push_str(&format!("> {command}\n"));
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{command}").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line of output (within 60 s), recorded in the transcript.
    fn line(&mut self) -> String {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(60))
            .expect("a reply within 60 s");
        self.transcript
            .push_str(&format!("< {}\n", redact_times(&line)));
        line
    }

    /// Lines up to and including the first one for which `last` holds.
    fn until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line();
            let done = last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Closes standard input and waits for the exit status.
    fn finish(mut self) -> (i32, String) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(10)) {
            self.transcript
                .push_str(&format!("< {}\n", redact_times(&line)));
        }
        (status.code().unwrap_or(-1), self.transcript)
    }
}

/// The times of `=== move/eval/time` and `nodestats nodes time` replaced by `T`.
fn redact_times(line: &str) -> String {
    if let Some(rest) = line.strip_prefix("=== ") {
        let mut fields: Vec<&str> = rest.split('/').collect();
        if fields.len() == 3 {
            fields[2] = "T";
        }
        return format!("=== {}", fields.join("/"));
    }
    if line.starts_with("nodestats ") {
        let mut words: Vec<&str> = line.split(' ').collect();
        if words.len() == 3 {
            words[2] = "T";
        }
        return words.join(" ");
    }
    line.to_owned()
}

fn square(text: &str) -> Square {
    parse_square(text, Dimensions::STANDARD).unwrap()
}

/// The move of a `=== move/eval/time` reply.
fn move_of(reply: &str) -> &str {
    reply
        .strip_prefix("=== ")
        .and_then(|rest| rest.split('/').next())
        .expect("a === reply")
}

#[test]
fn nboard_plays_a_whole_game_driven_by_the_gui() {
    let mut session = Session::start(&["nboard", "--no-book", "--hash", "1"]);
    session.send("nboard 2");
    session.line();
    session.send("set depth 1");
    session.send(
        "set game (;GM[Othello]PC[NBoard]PB[othello]PW[someone]TY[8]\
         BO[8 ---------------------------O*------*O--------------------------- *];)",
    );
    // The engine plays black; white plays its first legal move, as a person clicking might.
    let mut game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
    let mut ping = 0;
    while let Some(turn) = game.turn() {
        let played = if turn == Color::Black {
            ping += 1;
            session.send(&format!("ping {ping}"));
            session.until(|line| line.starts_with("pong"));
            session.send("go");
            let reply = session.until(|line| line.starts_with("=== "));
            let played = square(move_of(reply.last().unwrap()));
            assert_eq!(session.line(), "status");
            played
        } else {
            game.legal_moves()[0]
        };
        let done = game.play(played).expect("the engine plays legal moves");
        session.send(&format!("move {played}"));
        // NBoard sends passes as moves.
        if done.passed.is_some() {
            session.send("move PA");
        }
    }
    session.send("go");
    let (status, transcript) = session.finish();
    assert_eq!(status, 0);
    assert!(game.is_over());
    assert_snapshot!(transcript);
}

/// The first game of the records fixture: its end has a pass (`W[PA]`), and its start is given
/// as a `BO` board.
const GAME_WITH_A_PASS: &str = "(;GM[Othello]PC[Club night, Lyon]PB[Ann]PW[Bob]TY[8]RE[+20.000]\
    BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\
    B[D3/0.00/1.0]W[C5/0.25/1.1]B[D6/0.50/1.2]W[E3/0.00/1.3]B[b5]W[c6]B[b6]W[a5//0.4]B[c4]W[b4]\
    B[c3]W[e2]B[f4]W[d2]B[a3//0.4]W[a7]B[a6]W[a4]B[a8]W[c7]B[b8]W[d8//0.4]B[d1]W[f5]B[b3]W[b2]\
    B[f2]W[f1]B[c8//0.4]W[e1]B[e8]W[c1]B[f3]W[b7]B[e6]W[g1//0.4]B[c2]W[b1]B[f6]W[d7]B[e7]W[f8]\
    B[f7//0.4]W[g5]B[g8]W[g4]B[g3]W[h4]B[g6]W[h6//0.4]B[h2]W[h3]B[g7]W[h1]B[h5]W[h8]B[h7//0.4]\
    W[a2]B[a1]";

#[test]
fn nboard_hints_and_set_game_with_passes_and_a_non_standard_start() {
    // White has no move after a1: NBoard has not sent the pass yet, so the hint is "PA" then
    // black's last move; after "move PA", black's move itself.
    let script = format!(
        "nboard 2\nset depth 4\nset game {GAME_WITH_A_PASS};)\nhint 2\ngo\nmove PA\nhint 2\nmove g2\n\
         analyze\n\
         set game (;GM[Othello]TY[8]BO[8 -------- -------- --*O---- --*OO--- --*O*--- ----O--- -------- -------- O];)\n\
         hint 3\ngo\nmove b3\n"
    );
    let output = run_nboard(&script);
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let replies: String = stdout
        .lines()
        .map(|line| redact_times(line) + "\n")
        .collect();
    assert_snapshot!(replies);
    assert_eq!(String::from_utf8(output.stderr).unwrap(), "");
}

#[test]
fn nboard_reports_bad_commands_on_stderr_and_keeps_the_position() {
    let script = "nboard 2\nset depth 2\nmove f5\nmove f5\nmove z9\nmove PA\nmove\nfly away\n\
                  set depth -3\nset depth many\nset colour blue\nset game (;GM[Go]SZ[19];)\n\
                  set game (;GM[Othello]B[a1];)\nset game nonsense\nhint zero\nping\n\
                  \u{7f}\u{1}garbage\nnboard\n\nmove d6\nping 1\ngo\n";
    let output = run_nboard(script);
    assert_eq!(output.status.code(), Some(0));
    let stdout: String = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| redact_times(line) + "\n")
        .collect();
    assert_snapshot!("nboard_bad_commands_stdout", stdout);
    assert_snapshot!(
        "nboard_bad_commands_stderr",
        String::from_utf8(output.stderr).unwrap()
    );
}

#[test]
fn nboard_ping_stops_a_running_search_before_its_pong() {
    let mut session = Session::start(&["nboard", "--no-book", "--hash", "16"]);
    session.send("nboard 2");
    session.line();
    // Depth 40 from the start would take far longer than this test.
    session.send("set depth 40");
    session.send("go");
    assert_eq!(session.line(), "status thinking at depth 40");
    session.line(); // the first iteration's status: the search has started
    let asked = Instant::now();
    session.send("ping 1");
    let replies = session.until(|line| line.starts_with("pong"));
    assert!(asked.elapsed() < Duration::from_secs(20), "{replies:?}");
    let n = replies.len();
    assert!(n >= 3, "{replies:?}");
    assert!(replies[n - 3].starts_with("=== "), "{replies:?}");
    assert_eq!(replies[n - 2..], ["status", "pong 1"]);
    // The stopped search's move is a legal first move, and the engine goes on answering.
    assert!(["d3", "c4", "f5", "e6"].contains(&move_of(&replies[n - 3])));
    session.send("set depth 1");
    session.send("go");
    session.until(|line| line.starts_with("=== "));
    // "quit" stops a search too, and ends the program at once.
    session.send("set depth 40");
    session.send("go");
    session.until(|line| line.starts_with("nodestats"));
    let asked = Instant::now();
    session.send("quit");
    let (status, _) = session.finish();
    assert!(asked.elapsed() < Duration::from_secs(20));
    assert_eq!(status, 0);
}

#[test]
fn nboard_learn_keeps_the_game_in_the_book_file_in_its_form() {
    let dir = crate::support::scratch("engine_io", "learn");
    let binary = dir.join("small.book");
    othello()
        .args(["book", "build", "--out"])
        .arg(&binary)
        .args(["--depth", "2", "--plies", "2", "--positions", "10"])
        .assert()
        .success();
    let text = dir.join("small.txt");
    othello()
        .args(["book", "export", "--book"])
        .arg(&binary)
        .arg("-o")
        .arg(&text)
        .assert()
        .success();
    let shown = |moves: &str| {
        let output = othello()
            .args(["book", "show", "--book"])
            .arg(&text)
            .arg(moves)
            .output()
            .unwrap();
        String::from_utf8(output.stdout).unwrap()
    };
    assert!(shown("f5d6c3d3").contains("not in the book"));
    let mut session = Session::start(&["nboard", "--hash", "1", "--book", text.to_str().unwrap()]);
    session.send("nboard 2");
    session.line();
    for command in [
        "set depth 2",
        "move f5",
        "move d6",
        "move c3",
        "move d3",
        "learn",
        "ping 1",
    ] {
        session.send(command);
    }
    // The ping waits for the learning, which ends with the book saved.
    let replies = session.until(|line| line.starts_with("pong"));
    assert!(
        replies[0].starts_with("status learning the game at depth 2: 0 of 5"),
        "{replies:?}"
    );
    assert_eq!(
        replies[replies.len() - 3..],
        ["status", "learned", "pong 1"]
    );
    let saved = std::fs::read_to_string(&text).unwrap();
    assert!(!saved.starts_with("othbook"), "still text");
    assert!(
        shown("f5d6c3d3").contains("moves: "),
        "{}",
        shown("f5d6c3d3")
    );
    // `go` in a learnt position answers from the book at once: no search, no nodestats.
    session.send("go");
    let go = session.until(|line| line.starts_with("=== "));
    assert_eq!(go.len(), 1, "{go:?}");
    // A file that is no longer a book is not replaced; the session's book still learns.
    std::fs::write(&text, "not a book\n").unwrap();
    for command in ["move c4", "learn", "ping 2"] {
        session.send(command);
    }
    let replies = session.until(|line| line.starts_with("pong"));
    assert_eq!(replies[replies.len() - 2..], ["learned", "pong 2"]);
    assert_eq!(std::fs::read_to_string(&text).unwrap(), "not a book\n");
    let (status, _) = session.finish();
    assert_eq!(status, 0);
}

#[test]
fn nboard_quit_and_end_of_input_end_the_session() {
    // The end of the input lets the search under way finish.
    let output = othello()
        .args(["nboard", "--no-book", "--hash", "1"])
        .write_stdin("nboard 2\nset depth 3\ngo\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8(output.stdout).unwrap().contains("=== "));
    let output = othello()
        .args(["nboard", "--no-book", "--hash", "1"])
        .write_stdin("nboard 2\nquit\nping 1\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        format!("set myname othello-{}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// A search owes its first answer before the end of the input stops it: the README's `hint 2`
/// at a depth whose search takes longer than the end's grace (half a second; this one takes
/// about two seconds in a test build, longer on a loaded machine) still gives its `search`
/// lines, and the `go` after it its move.
#[test]
fn nboard_answers_each_search_once_before_the_end_of_input_stops_it() {
    let output = othello()
        .args(["nboard", "--no-book"])
        .write_stdin("nboard 2\nset depth 16\nmove f5\nping 1\nhint 2\ngo\n")
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let searches = stdout.lines().filter(|l| l.starts_with("search ")).count();
    assert_eq!(searches, 2, "{stdout}");
    assert!(stdout.contains("\n=== "), "{stdout}");
}

#[test]
fn gtp_session_with_ids_errors_and_a_whole_6x6_game() {
    let mut script = String::from(
        "protocol_version\n1 name\n2 known_command genmove\nknown_command fly\nlist_commands\n\
         # a comment line gets no answer\n\n\
         boardsize 5\nboardsize 6\nset_game Othello\nkomi 0\ntime_settings 0 1 0\n\
         play black a1\nplay black g1\nplay purple c2\nplay white c2\nplay b pass\nplay\n\
         play b c2 # the comment is dropped\nundo\nundo\nplay b c2\nfinal_score\nshowboard\n\
         frobnicate\n3 genmove\n",
    );
    // The engine plays both sides to the end; extra genmoves are passes.
    for _ in 0..20 {
        script.push_str("genmove w\ngenmove b\n");
    }
    script.push_str("showboard\nfinal_score\nquit\nname\n");
    let output = othello()
        .args(["gtp", "--no-book", "--depth", "2", "--hash", "1"])
        .write_stdin(script)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8(output.stderr).unwrap(), "");
    assert_snapshot!(
        String::from_utf8(output.stdout)
            .unwrap()
            .replace(env!("CARGO_PKG_VERSION"), "VERSION")
    );
}

/// `othello nboard` with a small table, fed `script`, to its end.
fn run_nboard(script: &str) -> std::process::Output {
    othello()
        .args(["nboard", "--no-book", "--hash", "1"])
        .write_stdin(script)
        .output()
        .unwrap()
}
