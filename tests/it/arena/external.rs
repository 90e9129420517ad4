//! Matches through the binary: two levels, this engine and fake engines over GTP and NBoard
//! (passes, faults, forfeits), saved games, openings from a file, bad usage.

use std::path::PathBuf;
use std::time::Duration;

use predicates::prelude::*;

use crate::support::{othello, scratch, script};

/// This test binary's `othello`, quoted for a player's command line.
pub(super) fn binary() -> String {
    shell_words::quote(env!("CARGO_BIN_EXE_othello")).into_owned()
}

#[test]
fn a_match_between_two_levels_ends_with_a_summary() {
    othello()
        .args(["match", "self:1", "self:2", "--games", "2", "--random-plies", "6"])
        .timeout(Duration::from_secs(120))
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Finished game 1 (self:1 vs self:2): ",
        ))
        .stdout(predicate::str::contains(
            "Finished game 2 (self:2 vs self:1): ",
        ))
        .stdout(predicate::str::is_match(r"Score of self:1 vs self:2: \d - \d - \d  \[\d\.\d{3}\] 2\n").unwrap())
        .stdout(predicate::str::is_match(
            r"self:1 against self:2: \d won, \d drawn, \d lost of 2 games: \d+\.\d% of the points\n",
        ).unwrap())
        .stdout(predicate::str::is_match(r"Elo difference: [-+](\d+\.\d|inf) \+/- (\d+\.\d|inf) \(95%\)\n").unwrap())
        .stdout(predicate::str::is_match(r"Mean margin: [-+]\d+\.\d\d discs over the 2 games played out\n").unwrap())
        .stdout(predicate::str::is_match(
            r"CPU time: self:1 \d+\.\d s \(\d+\.\d\d s a game\), self:2 \d+\.\d s \(\d+\.\d\d s a game\)\n$",
        ).unwrap())
        .stdout(predicate::str::contains("Forfeits").not());
}

/// `othello match self:1` against this binary at depth 1 over `protocol` (`gtp` or `nboard`),
/// `games` games two at a time: the output and its standard output as text.
fn self_1_against_this_engine(protocol: &str, games: u32) -> (std::process::Output, String) {
    let external = format!("{protocol}:{} {protocol} --depth 1", binary());
    let games = games.to_string();
    let output = othello()
        .args([
            "match",
            "self:1",
            &external,
            "--games",
            &games,
            "--concurrency",
            "2",
        ])
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    (output, stdout)
}

/// A player without a move passes: `set game` writes the pass (`W[PA]`, as NBoard does), so
/// that an NBoard engine sees whose move it is. Forty games at depth 1 meet such passes (ten
/// games were forfeited when the pass was left out).
#[test]
fn an_nboard_engine_is_told_of_the_passes_before_its_move() {
    let (output, stdout) = self_1_against_this_engine("nboard", 40);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("over the 40 games played out"), "{stdout}");
    assert!(!stdout.contains("Forfeits"), "{stdout}");
}

/// A GTP engine is told the pass of a player without a move (`play white pass`), so that the
/// colours of its `play` and `genmove` commands alternate as in its own game; one that refuses
/// passes (as `GRhino` does, "? syntax error") is told the moves alone and forfeits nothing. Both
/// are this binary's GTP engine behind a script that logs the commands (and, for the second,
/// turns each pass into an unknown command).
#[test]
fn a_gtp_engine_is_told_of_the_passes_or_the_moves_alone_if_it_refuses_them() {
    let dir = scratch("arena", "gtp-passes");
    // A log per engine process (two play at a time); named by mktemp, not by the shell's pid,
    // which is the same in every engine's PID namespace.
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let logged = script(
        &dir,
        "logged.sh",
        &format!(
            "tee \"$(mktemp {}/engine.XXXXXX)\" | {} gtp --depth 1\n",
            shell_words::quote(logs.to_str().unwrap()),
            binary()
        ),
    );
    let refusing = script(
        &dir,
        "refusing.sh",
        &format!(
            "while read -r line; do\n  case \"$line\" in\n    *' pass') echo no_pass_here ;;\n    *) printf '%s\\n' \"$line\" ;;\n  esac\ndone | {} gtp --depth 1\n",
            binary()
        ),
    );
    for fake in [&logged, &refusing] {
        let name = format!("gtp:{}", fake.display());
        let output = othello()
            .args([
                "match",
                "self:1",
                &name,
                "--games",
                "40",
                "--concurrency",
                "2",
            ])
            .timeout(Duration::from_secs(180))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{stdout}");
        assert!(stdout.contains("over the 40 games played out"), "{stdout}");
        assert!(!stdout.contains("Forfeits"), "{stdout}");
    }
    // Each engine process's commands: within a game the colours of `play` and `genmove`
    // alternate, and passes were told.
    let mut passes = 0;
    for entry in std::fs::read_dir(&logs).unwrap() {
        let log = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        passes += log.matches(" pass\n").count();
        let mut last: Option<&str> = None;
        for line in log.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["play" | "genmove", color, ..] => {
                    assert_ne!(
                        last,
                        Some(*color),
                        "two in a row for {color}: {line}\n{log}"
                    );
                    last = Some(color);
                }
                _ => last = None,
            }
        }
    }
    assert!(passes > 0, "no pass in 40 games");
}

#[test]
fn this_engine_plays_itself_over_gtp_and_nboard() {
    for protocol in ["gtp", "nboard"] {
        let (output, stdout) = self_1_against_this_engine(protocol, 2);
        assert!(output.status.success(), "{protocol}: {stdout}");
        assert!(stdout.contains("of 2 games: "), "{protocol}: {stdout}");
        assert!(!stdout.contains("forfeit"), "{protocol}: {stdout}");
        // Its CPU time is its process's: some, as it searched.
        let cpu = stdout
            .lines()
            .find(|l| l.starts_with("CPU time: "))
            .unwrap();
        assert!(
            !cpu.ends_with(" 0.0 s (0.00 s a game)"),
            "{protocol}: {cpu}"
        );
    }
}

/// A GTP engine that answers every command with success and `genmove` with `answer` (no
/// answer at all when it is empty).
fn gtp_fake(answer: &str) -> String {
    let genmove = if answer.is_empty() {
        ":".to_owned()
    } else {
        format!("printf '{answer}\\n\\n'")
    };
    gtp_fake_running(&genmove)
}

/// A GTP engine that answers every command with success and runs `genmove` (shell commands)
/// for `genmove`.
pub(super) fn gtp_fake_running(genmove: &str) -> String {
    format!(
        "while read -r line; do\n  case \"$line\" in\n    genmove*) {genmove} ;;\n    *) printf '=\\n\\n' ;;\n  esac\ndone\n"
    )
}

#[test]
fn a_faulty_engine_forfeits_each_game_and_the_match_goes_on() {
    let dir = scratch("arena", "faults");
    let illegal = script(&dir, "illegal.sh", &gtp_fake("= A1"));
    let garbage = script(&dir, "garbage.sh", &gtp_fake("= my move is d3"));
    let silent = script(&dir, "silent.sh", &gtp_fake(""));
    // Passes its first commands to this binary's GTP engine, then stops: the engine ends.
    // (A shell loop, not `head`, whose output to a pipe waits in a buffer.)
    let crashing = script(
        &dir,
        "crashing.sh",
        &format!(
            "n=0\nwhile [ $n -lt 6 ] && read -r line; do printf '%s\\n' \"$line\"; n=$((n+1)); done \\\n  | {} gtp --depth 1\n",
            binary()
        ),
    );
    // Answers that never end: one endless line, and endless lines after a move (GTP's answer
    // ends at a blank line), and an NBoard engine's endless line after `go`.
    let endless_line = script(
        &dir,
        "endless-line.sh",
        &gtp_fake_running("yes | tr -d '\\n'"),
    );
    let endless_answer = script(
        &dir,
        "endless-answer.sh",
        &gtp_fake_running("printf '= d3\\n'; yes"),
    );
    let nboard_endless = script(
        &dir,
        "nboard-endless.sh",
        "while read -r line; do\n  case \"$line\" in\n    ping*) echo \"pong ${line#ping }\" ;;\n    go) yes | tr -d '\\n' ;;\n  esac\ndone\n",
    );
    let overlong = "an answer longer than 65536 bytes, cut off";
    let gtp = |fake: &PathBuf| format!("gtp:{}", fake.display());
    let cases = [
        (gtp(&illegal), "illegal move a1"),
        (gtp(&garbage), "answered \"my move is d3\", not a move"),
        (gtp(&silent), "no answer within 1 s"),
        (gtp(&crashing), "crashed (exited with status 0)"),
        (gtp(&endless_line), overlong),
        (gtp(&endless_answer), overlong),
        (format!("nboard:{}", nboard_endless.display()), overlong),
    ];
    for (name, fault) in cases {
        let output = othello()
            .args([
                "match",
                "self:nodes=100",
                &name,
                "--games",
                "2",
                "--timeout",
                "1",
            ])
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{fault}: {stdout}");
        for (game, color) in [(1, "white"), (2, "black")] {
            let result = if color == "white" { "1-0" } else { "0-1" };
            assert!(
                stdout.contains(&format!("Finished game {game} ("))
                    && stdout.contains(&format!("): {result} {{{color} forfeits: {fault}}}")),
                "{fault}: {stdout}"
            );
        }
        assert!(
            stdout.contains(&format!(
                "Score of self:nodes=100 vs {name}: 2 - 0 - 0  [1.000] 2"
            )),
            "{fault}: {stdout}"
        );
        assert!(
            stdout.contains(&format!("Forfeits: self:nodes=100 0, {name} 2")),
            "{stdout}"
        );
    }
}

#[test]
fn saved_games_read_back_and_a_file_that_is_not_a_record_is_kept() {
    let dir = scratch("arena", "save");
    let saved = dir.join("games.ggf");
    let play = |force: bool| {
        let mut command = othello();
        command
            .args([
                "match",
                "self:nodes=200",
                "self:nodes=200,classic",
                "--games",
                "3",
                "--save",
            ])
            .arg(&saved);
        if force {
            command.arg("--force");
        }
        command.timeout(Duration::from_secs(60)).assert()
    };
    play(false).success();
    let text = std::fs::read_to_string(&saved).unwrap();
    assert_eq!(text.lines().count(), 3);
    assert!(
        text.contains("PB[self:nodes=200]PW[self:nodes=200,classic]"),
        "{text}"
    );
    othello()
        .args(["convert", "--to", "movelist"])
        .arg(&saved)
        .assert()
        .success()
        .stdout(predicate::function(|out: &str| out.lines().count() == 3));
    // Our own games are replaced without a question.
    play(false).success();
    // A file that is not a game record is not.
    std::fs::write(&saved, "my notes\n").unwrap();
    play(false)
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(format!(
            "othello: {}: not a game record",
            saved.display()
        )))
        .stderr(predicate::str::contains("--force overwrites it"));
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), "my notes\n");
    play(true).success();
    assert_eq!(std::fs::read_to_string(&saved).unwrap().lines().count(), 3);
}

#[test]
fn openings_come_from_a_file_each_played_with_both_colours() {
    let dir = scratch("arena", "openings");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "f5d6c3\nf5f6e6\n").unwrap();
    let saved = dir.join("games.ggf");
    othello()
        .args([
            "match",
            "self:nodes=100",
            "self:nodes=200",
            "--games",
            "4",
            "--openings",
        ])
        .arg(&openings)
        .arg("--save")
        .arg(&saved)
        .timeout(Duration::from_secs(60))
        .assert()
        .success();
    let games = std::fs::read_to_string(&saved).unwrap();
    let starts: Vec<&str> = games
        .lines()
        .map(|game| &game[game.find("B[f5]").unwrap()..][..15])
        .collect();
    assert_eq!(
        starts,
        [
            "B[f5]W[d6]B[c3]",
            "B[f5]W[d6]B[c3]",
            "B[f5]W[f6]B[e6]",
            "B[f5]W[f6]B[e6]"
        ]
    );
    assert!(
        games
            .lines()
            .nth(1)
            .unwrap()
            .contains("PB[self:nodes=200]PW[self:nodes=100]")
    );
}

#[test]
fn bad_usage_is_refused_naming_what_and_where() {
    let dir = scratch("arena", "usage");
    let openings = dir.join("bad.txt");
    std::fs::write(&openings, "f5d6c3\nf5f5\n").unwrap();
    othello()
        .args(["match", "self:1", "self:1", "--openings"])
        .arg(&openings)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!("{}", openings.display())))
        .stderr(predicate::str::contains("f5"));
    othello()
        .args([
            "match",
            "self:1",
            "self:1",
            "--openings",
            "no-such-openings.txt",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no-such-openings.txt"));
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    othello()
        .args(["match", "self:1", "self:1", "--openings"])
        .arg(&empty)
        .assert()
        .code(2)
        .stderr(format!(
            "othello: {}: line 1, column 1: no game found (expected a move list, GGF, OBF \
             lines, a protocol input or WTHOR)\n",
            empty.display()
        ));
    othello()
        .args(["match", "self:9", "self:1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "\"self:9\": expected a computer level from 1 to 6",
        ));
    // An engine that cannot be started at all: a run-time failure.
    othello()
        .args([
            "match",
            "self:1",
            "gtp:/no/such/engine -l 1",
            "--games",
            "2",
        ])
        .timeout(Duration::from_secs(30))
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "othello: gtp:/no/such/engine -l 1: cannot start /no/such/engine: ",
        ));
}
