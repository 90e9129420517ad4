//! `othello match` and `othello_engine::arena`: the Elo estimate, the players as named on the command
//! line, matches between this engine and external engines (this binary over GTP and NBoard,
//! fake engines that answer an illegal move, crash or never answer, `GRhino`), the saved games
//! and the errors.

use std::path::{Path, PathBuf};
use std::time::Duration;

use predicates::prelude::*;

use othello_engine::arena::Elo;
use othello_engine::arena::spec::{BookSpec, Budget, Contender, EngineSpec, EvaluationSpec};
use othello_engine::computer::Level;

use crate::support::{othello, scratch, script};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[test]
fn elo_follows_the_logistic_formula_with_the_score_variance_as_error() {
    // 6 won, 2 drawn, 2 lost: 70%, 147.2 Elo; per-game variance 0.16, so the 95% interval
    // of the score is 0.7 +/- 1.96 * 0.1265, 268.7 Elo wide on each side on average.
    let elo = Elo::estimate(6, 2, 2);
    assert!(close(elo.difference, 147.190_714_117_837_8), "{elo:?}");
    assert!(close(elo.margin, 268.716_321_123_325_1), "{elo:?}");
    // The mirror image.
    let mirror = Elo::estimate(2, 2, 6);
    assert!(close(mirror.difference, -elo.difference) && close(mirror.margin, elo.margin));
    // Even: no difference, and not -0.
    let even = Elo::estimate(3, 4, 3);
    assert!(even.difference == 0.0 && even.difference.is_sign_positive());
    // Every draw: no variance, no margin.
    let draws = Elo::estimate(0, 10, 0);
    assert!(draws.difference == 0.0 && draws.margin == 0.0);
    // Every point to one side: unbounded.
    let sweep = Elo::estimate(4, 0, 0);
    assert!(sweep.difference == f64::INFINITY && sweep.margin == f64::INFINITY);
    assert!(Elo::estimate(0, 0, 4).difference == f64::NEG_INFINITY);
    // An interval reaching past 100%: its margin is unbounded, not NaN.
    let wide = Elo::estimate(1, 0, 1);
    assert!(wide.difference == 0.0 && wide.margin == f64::INFINITY);
    // More games, a narrower margin.
    assert!(Elo::estimate(60, 20, 20).margin < elo.margin / 3.0);
}

fn engine(budget: Budget, evaluation: EvaluationSpec, selective: bool) -> Contender {
    Contender::Engine(EngineSpec {
        budget,
        evaluation,
        selective,
        book: BookSpec::Default,
        share: None,
    })
}

fn with_share(contender: Contender, seconds: f64) -> Contender {
    match contender {
        Contender::Engine(spec) => Contender::Engine(EngineSpec {
            share: Some(Duration::from_secs_f64(seconds)),
            ..spec
        }),
        other => other,
    }
}

fn with_book(contender: Contender, book: BookSpec) -> Contender {
    match contender {
        Contender::Engine(spec) => Contender::Engine(EngineSpec { book, ..spec }),
        other => other,
    }
}

#[test]
fn players_are_read_in_every_form() {
    let level = |n| Budget::Level(Level::new(n).unwrap());
    let words = |text: &str| text.split(' ').map(str::to_owned).collect::<Vec<_>>();
    let cases = [
        ("self", engine(level(6), EvaluationSpec::Trained, true)),
        ("self:6", engine(level(6), EvaluationSpec::Trained, true)),
        ("self:1", engine(level(1), EvaluationSpec::Trained, true)),
        (
            "self:level=3",
            engine(level(3), EvaluationSpec::Trained, true),
        ),
        (
            "self:nodes=3000000",
            engine(Budget::Nodes(3_000_000), EvaluationSpec::Trained, true),
        ),
        (
            "self:weights=old.bin",
            engine(level(6), EvaluationSpec::File("old.bin".into()), true),
        ),
        (
            "self:nodes=300000,weights=old.bin",
            engine(
                Budget::Nodes(300_000),
                EvaluationSpec::File("old.bin".into()),
                true,
            ),
        ),
        (
            "self: 4 , classic, no-probcut",
            engine(level(4), EvaluationSpec::Classic, false),
        ),
        (
            "self:nodes=10,trained,noprobcut",
            engine(Budget::Nodes(10), EvaluationSpec::Trained, false),
        ),
        (
            "self:6,no-book",
            with_book(
                engine(level(6), EvaluationSpec::Trained, true),
                BookSpec::Off,
            ),
        ),
        (
            "self:nodes=5000,book",
            with_book(
                engine(Budget::Nodes(5000), EvaluationSpec::Trained, true),
                BookSpec::Builtin,
            ),
        ),
        (
            "self:book=deep.book,4",
            with_book(
                engine(level(4), EvaluationSpec::Trained, true),
                BookSpec::File("deep.book".into()),
            ),
        ),
        (
            "self:6,share=4.5",
            with_share(engine(level(6), EvaluationSpec::Trained, true), 4.5),
        ),
        (
            "self:share=0.25,nodes=1000",
            with_share(
                engine(Budget::Nodes(1000), EvaluationSpec::Trained, true),
                0.25,
            ),
        ),
        (
            "gtp:gtp-rhino -l 4",
            Contender::Gtp(words("gtp-rhino -l 4")),
        ),
        // Quoted whole, as when the quotes reach the program.
        (
            "gtp:\"gtp-rhino -l 4\"",
            Contender::Gtp(words("gtp-rhino -l 4")),
        ),
        (
            "nboard:'/opt/my engine/edax' -nboard",
            Contender::NBoard(vec!["/opt/my engine/edax".into(), "-nboard".into()]),
        ),
        (
            "nboard:othello nboard",
            Contender::NBoard(words("othello nboard")),
        ),
    ];
    for (text, expected) in cases {
        if let Contender::Engine(spec) = &expected {
            // The name a match shows reads back as the same player.
            let name = spec.to_string();
            assert_eq!(name.parse::<Contender>(), Ok(expected.clone()), "{name}");
        }
        assert_eq!(text.parse::<Contender>(), Ok(expected), "{text}");
    }
    let named = |text: &str| match text.parse::<Contender>() {
        Ok(Contender::Engine(spec)) => spec.to_string(),
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(named("self"), "self:6");
    assert_eq!(
        named("self:share=2.5, classic ,nodes=3000"),
        "self:nodes=3000,classic,share=2.5"
    );
}

#[test]
fn the_built_in_book_is_used_as_othello_play_uses_it_unless_named() {
    let cases = [
        ("self", true),
        ("self:3", true),
        ("self:2", false),
        ("self:nodes=1000", false),
        ("self:nodes=1000,book", true),
        ("self:1,book", true),
        ("self:6,no-book", false),
        ("self:6,book=other.book", false),
    ];
    for (text, uses) in cases {
        let Ok(Contender::Engine(spec)) = text.parse::<Contender>() else {
            panic!("{text} is this engine");
        };
        assert_eq!(spec.uses_builtin_book(), uses, "{text}");
    }
}

#[test]
fn bad_players_are_refused_saying_what_is_wrong() {
    let cases = [
        ("engine:6", "expected self:LEVEL"),
        (
            "self:7",
            "expected a computer level from 1 to 6, found \"7\"",
        ),
        ("self:0", "found \"0\""),
        ("self:nodes=0", "nodes: expected a number from 1 up"),
        ("self:nodes=many", "found \"many\""),
        ("self:depth=3", "unknown option \"depth=3\""),
        ("self:weights=", "unknown option \"weights=\""),
        ("self:6,nodes=100", "level 6 and nodes=100 both given"),
        (
            "self:classic,weights=w.bin",
            "classic and weights=w.bin both given",
        ),
        ("self:book,no-book", "book and no-book both given"),
        ("self:book=", "unknown option \"book=\""),
        (
            "self:share=0",
            "share: expected seconds above 0, at most 3600, found \"0\"",
        ),
        ("self:share=-1", "found \"-1\""),
        ("self:share=soon", "found \"soon\""),
        ("self:share=NaN", "found \"NaN\""),
        ("self:share=3601", "at most 3600"),
        ("self:share=2,share=3", "share=2 and share=3 both given"),
        ("gtp:", "no command to start the engine"),
        ("nboard:  ", "no command"),
        ("gtp:\"unclosed", "cannot split the command"),
    ];
    for (text, message) in cases {
        let error = text.parse::<Contender>().expect_err(text);
        let shown = error.to_string();
        assert!(shown.starts_with(&format!("{text:?}: ")), "{text}: {shown}");
        assert!(shown.contains(message), "{text}: {shown}");
    }
}

/// This test binary's `othello`, quoted for a player's command line.
fn binary() -> String {
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
fn gtp_fake_running(genmove: &str) -> String {
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

/// `GRhino` (`gtp-rhino`, Debian package `grhino`), a pattern engine speaking GTP: a short
/// match at its weakest level, with no forfeit (it refuses a pass, "? syntax error": it is then
/// told the moves alone). `.ci/run` installs it and runs this test.
#[test]
#[ignore = "needs gtp-rhino (Debian package grhino)"]
fn a_short_match_against_grhino_has_no_forfeit() {
    let rhino = ["/usr/games/gtp-rhino", "gtp-rhino"]
        .into_iter()
        .find(|path| Path::new(path).exists() || which(path))
        .expect("gtp-rhino is installed");
    let name = format!("gtp:{rhino} -l 1");
    let output = othello()
        .args([
            "match",
            "self:1",
            &name,
            "--games",
            "4",
            "--random-plies",
            "20",
            "--timeout",
            "30",
        ])
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("of 4 games: "), "{stdout}");
    assert!(!stdout.contains("forfeit"), "{stdout}");
}

/// Whether `program` is found on the path.
fn which(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_stops_the_match_and_every_engine_with_the_totals_so_far() {
    use std::process::{Command, Stdio};
    use std::time::Instant;

    let dir = scratch("arena", "interrupt");
    let (pids, answered, waiting) = (dir.join("pids"), dir.join("answered"), dir.join("waiting"));
    for file in [&pids, &answered, &waiting] {
        let _ = std::fs::remove_file(file);
    }
    // An engine that says where it runs, answers its first move ever with an illegal one
    // (forfeiting the first game; an engine that answers is kept), then never answers again.
    let engine = script(
        &dir,
        "once.sh",
        &format!(
            "echo $$ >> '{}'\n{}",
            pids.display(),
            gtp_fake_running(&format!(
                "if [ ! -e '{0}' ]; then : > '{0}'; printf '= A1\\n\\n'; else : > '{1}'; fi",
                answered.display(),
                waiting.display()
            ))
        ),
    );
    let mut running = KillOnDrop(
        Command::new(env!("CARGO_BIN_EXE_othello"))
            .args(["match", "self:nodes=100"])
            .arg(format!("gtp:{}", engine.display()))
            .args(["--games", "4", "--timeout", "600"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    // The second game has started (the first one ended with the illegal move) when the engine
    // is asked to move again.
    let started = Instant::now();
    while !waiting.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the engine was never asked to move"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let (status, stderr) = crate::support::interrupt(&mut running.0);
    assert_eq!(status, Some(130), "{stderr}");
    assert!(
        stderr.ends_with("othello: interrupted; stopped 1 engine process\n"),
        "{stderr}"
    );
    // The totals of the games finished so far.
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut running.0.stdout.take().unwrap(), &mut stdout).unwrap();
    assert!(
        stdout.contains(&format!(
            "self:nodes=100 against gtp:{}: 1 won, 0 drawn, 0 lost of 1 game: 100.0% of the points\n",
            engine.display()
        )),
        "{stdout}"
    );
    // The engine runs in a PID namespace of its own where the host allows: followed by its
    // script's path, not by the pid it wrote.
    crate::support::assert_gone_by_argument(engine.to_str().unwrap());
}

/// A running match, killed if the test fails before it ends.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
