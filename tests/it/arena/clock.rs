//! Matches on a clock (`--clock`): GTP engines told it, this engine thinking by it, and the
//! games of a player whose moves take longer than its time lost on time.

use std::time::Duration;

use crate::support::{othello, scratch, script};

use super::external::{binary, gtp_fake_running};

/// `othello match` with `args` after its own: status and standard output.
fn run_match(args: &[&str]) -> (bool, String) {
    let output = othello()
        .arg("match")
        .args(args)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    (output.status.success(), stdout)
}

/// This binary's GTP engine behind a script that logs its commands is told the clock at the
/// start of each game and its time left before each of its moves, and both sides play every
/// game out within their time (ample, for a loaded machine; thinking by the clock is tested
/// in the library).
#[test]
fn a_gtp_engine_is_told_the_clock_and_both_sides_play_by_it() {
    let dir = scratch("arena", "clock-told");
    let log = dir.join("commands.log");
    let logged = script(
        &dir,
        "logged.sh",
        &format!(
            "tee {} | {} gtp --depth 4\n",
            shell_words::quote(log.to_str().unwrap()),
            binary()
        ),
    );
    let engine = format!("gtp:{}", logged.display());
    let (success, stdout) = run_match(&[
        "self:nodes=5000",
        &engine,
        "--games",
        "2",
        "--clock",
        "30+0.1",
    ]);
    assert!(success, "{stdout}");
    assert!(stdout.contains("over the 2 games played out"), "{stdout}");
    assert!(!stdout.contains("Forfeits"), "{stdout}");
    let log = std::fs::read_to_string(&log).unwrap();
    assert_eq!(log.matches("time_settings 30 0 0\n").count(), 2, "{log}");
    // Before each genmove, its colour's time left, from 30 s on.
    let lines: Vec<&str> = log.lines().collect();
    let mut told = 0;
    for pair in lines.windows(2) {
        if let Some(color) = pair[1].strip_prefix("genmove ") {
            let words: Vec<&str> = pair[0].split_whitespace().collect();
            assert_eq!(words[..2], ["time_left", color], "{log}");
            let left: f64 = words[2].parse().unwrap();
            assert!(left > 0.0 && left <= 30.0 + 0.1 * 30.0, "{log}");
            assert_eq!(words[3], "0");
            told += 1;
        }
    }
    assert!(told >= 20, "{told} moves in 2 games:\n{log}");
    assert!(
        log.contains("time_left black 30 0\ngenmove black\n"),
        "{log}"
    );
}

/// A move that takes longer than the time left loses the game on time, whatever it answers;
/// an engine that does not answer is waited for until a second after its time has run out,
/// not the whole --timeout; a GTP engine that refuses the clock's commands plays on, not told.
#[test]
fn a_player_out_of_time_loses_the_game() {
    let dir = scratch("arena", "clock-lost");
    let slow = script(
        &dir,
        "slow.sh",
        &gtp_fake_running("sleep 0.4; printf '= pass\\n\\n'"),
    );
    let silent = script(&dir, "silent.sh", &gtp_fake_running(":"));
    for (fake, waited) in [(&slow, 0.4), (&silent, 1.2)] {
        let engine = format!("gtp:{}", fake.display());
        let started = std::time::Instant::now();
        let (success, stdout) =
            run_match(&["self:nodes=100", &engine, "--games", "2", "--clock", "0.2"]);
        assert!(success, "{stdout}");
        assert!(started.elapsed() < Duration::from_secs(30), "{stdout}");
        for (game, color, result) in [(1, "white", "1-0"), (2, "black", "0-1")] {
            assert!(
                stdout.contains(&format!("Finished game {game} (")),
                "{stdout}"
            );
            // The move's time: at least the wait, and far below the 300 s --timeout (a loaded
            // machine adds to it).
            let forfeit = format!("): {result} {{{color} forfeits: out of time (a move of ");
            let seconds: f64 = stdout
                .split_once(&forfeit)
                .and_then(|(_, rest)| rest.split_once(" s with"))
                .and_then(|(seconds, _)| seconds.parse().ok())
                .unwrap_or_else(|| panic!("{forfeit}: {stdout}"));
            assert!((waited..waited + 5.0).contains(&seconds), "{stdout}");
        }
        assert!(stdout.contains(" s with 0.2 s left)}"), "{stdout}");
    }
    // Refuses time_settings and time_left ("? unknown command"), answers moves at once.
    let refusing = script(
        &dir,
        "refusing.sh",
        &format!(
            "while read -r line; do\n  case \"$line\" in\n    time_*) echo no_clock_here ;;\n    *) printf '%s\\n' \"$line\" ;;\n  esac\ndone | {} gtp --depth 1\n",
            binary()
        ),
    );
    let engine = format!("gtp:{}", refusing.display());
    let (success, stdout) = run_match(&["self:1", &engine, "--games", "2", "--clock", "30"]);
    assert!(success, "{stdout}");
    assert!(stdout.contains("over the 2 games played out"), "{stdout}");
}

#[test]
fn a_clock_that_cannot_be_read_is_bad_usage() {
    for bad in ["0", "1+x", "-5", "100000"] {
        othello()
            .args(["match", "self:1", "self:2", &format!("--clock={bad}")])
            .assert()
            .code(2)
            .stderr(predicates::str::contains(format!("found {bad:?}")));
    }
}
