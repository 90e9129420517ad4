//! `othello gen` and `othello check`: generated cases are deterministic, well-formed, varied and
//! reproduced by the protocol program; the checker passes it and catches deliberately wrong
//! programs (tests/programs/*.sh) with the right verdict and the right first differing line.

use predicates::prelude::*;
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use othello::{Color, RuleSet, Setup, WinRule};
use othello_grade::generate::{Generator, Options, Sizes, Start, StartKind};

use crate::reference::Model;
use crate::support::{othello, scratch};

pub fn othello_path() -> PathBuf {
    assert_cmd::cargo::cargo_bin("othello")
}

/// `othello gen --out DIR ARGS...`.
pub fn generate(dir: &Path, args: &[&str]) {
    othello()
        .arg("gen")
        .arg("--out")
        .arg(dir)
        .args(args)
        .assert()
        .success();
}

/// The files of a directory, by name, with their contents.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_owned();
            (name, fs::read(&path).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// The case names (NNNN) of a generated directory.
fn case_names(dir: &Path) -> Vec<String> {
    files(dir)
        .into_iter()
        .filter_map(|(name, _)| name.strip_suffix(".in").map(str::to_owned))
        .collect()
}

fn text_lines(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn gen_is_deterministic_and_each_case_independent_of_the_count() {
    let (a, b, c, d) = (
        scratch("grader", "det-a"),
        scratch("grader", "det-b"),
        scratch("grader", "det-c"),
        scratch("grader", "det-d"),
    );
    let args = ["--seed", "5", "--count", "12", "--invalid-rate", "0.3"];
    generate(&a, &args);
    generate(&b, &args);
    assert_eq!(files(&a).len(), 24);
    assert_eq!(files(&a), files(&b));

    generate(
        &c,
        &["--seed", "5", "--count", "5", "--invalid-rate", "0.3"],
    );
    assert_eq!(files(&c)[..], files(&a)[..10]);

    generate(
        &d,
        &["--seed", "6", "--count", "12", "--invalid-rate", "0.3"],
    );
    assert_ne!(files(&a), files(&d));
}

#[test]
fn gen_pins_the_first_case_of_seed_0() {
    // Same seed, same bytes on every machine: the generator's random streams are portable, so
    // a change here means every published case set changes too.
    let case = Generator::new(0, Options::default()).unwrap().case(0);
    insta::assert_snapshot!(case.input);
}

#[test]
fn generated_cases_are_reproduced_by_the_protocol_program() {
    for rules in ["full", "simple"] {
        let dir = scratch("grader", &format!("reproduced-{rules}"));
        generate(
            &dir,
            &[
                "--rules",
                rules,
                "--count",
                "12",
                "--seed",
                "3",
                "--invalid-rate",
                "0.3",
            ],
        );
        let names = case_names(&dir);
        assert_eq!(names.len(), 12);
        for name in names {
            let input = fs::read(dir.join(format!("{name}.in"))).unwrap();
            let expected = fs::read(dir.join(format!("{name}.out"))).unwrap();
            let banner = format!("{}\n", rules.to_uppercase());
            assert!(expected.starts_with(banner.as_bytes()), "{name}");
            othello()
                .args(["--rules", rules])
                .write_stdin(input)
                .assert()
                .code(0)
                .stdout(predicate::eq(expected));
        }
    }
}

/// Why the reference model rejects a move line.
#[derive(Debug, PartialEq, Eq, Hash)]
enum Rejection {
    OffBoard,
    Occupied,
    NoCapture,
}

/// Replays a generated input through the naive reference model: every move line must be two
/// integers; the game must end exactly at the last line; the transcript must answer each line
/// as the model does and name the model's winner. Returns the rejections seen.
fn replay(rules: RuleSet, input: &str, output: &str) -> Vec<Rejection> {
    let setup = Setup::from_protocol(input).unwrap();
    let mut model = Model::from_board(&setup.board);
    let mut turn = model.next_turn(rules, setup.first.opponent());
    let move_lines: Vec<&str> = input.lines().skip(4 + model.rows).collect();
    let answers: Vec<&str> = output
        .lines()
        .filter(|line| *line == "VALID" || *line == "INVALID")
        .collect();
    assert_eq!(answers.len(), move_lines.len(), "one answer per move line");
    let mut rejections = Vec::new();
    for (line, answer) in move_lines.iter().zip(answers) {
        let player = turn.expect("no move line after the end of the game");
        let numbers: Vec<usize> = line.split(' ').map(|n| n.parse().unwrap()).collect();
        assert_eq!(numbers.len(), 2, "{line:?}");
        let (row, col) = (numbers[0], numbers[1]);
        let rejection = if !(1..=model.rows).contains(&row) || !(1..=model.cols).contains(&col) {
            Some(Rejection::OffBoard)
        } else if model.cells[row - 1][col - 1].is_some() {
            Some(Rejection::Occupied)
        } else if model.flips(rules, player, row - 1, col - 1).is_empty() {
            Some(Rejection::NoCapture)
        } else {
            None
        };
        if let Some(rejection) = rejection {
            assert_eq!(answer, "INVALID", "{line:?}");
            rejections.push(rejection);
        } else {
            assert_eq!(answer, "VALID", "{line:?}");
            model.play(rules, player, row - 1, col - 1);
            turn = model.next_turn(rules, player);
        }
    }
    assert_eq!(turn, None, "the game is over at the end of the input");
    let last = output.lines().last().unwrap();
    assert_eq!(last, format!("WINNER: {}", model.winner(setup.win)));
    rejections
}

#[test]
fn generated_cases_are_varied_and_agree_with_the_reference_model() {
    for rules in RuleSet::ALL {
        let options = Options {
            rules,
            start: Start::Random,
            invalid_rate: 0.25,
            ..Options::default()
        };
        let generator = Generator::new(11, options).unwrap();
        let mut shapes = HashSet::new();
        let mut firsts = HashSet::new();
        let mut wins = HashSet::new();
        let mut winners = HashSet::new();
        let mut rejections = HashSet::new();
        let mut rectangular = false;
        let mut first_passes = false;
        for index in 0..120 {
            let case = generator.case(index);
            let setup = Setup::from_protocol(&case.input).unwrap();
            let dims = setup.board.dims();
            rectangular |= dims.rows() != dims.cols();
            firsts.insert(setup.first);
            wins.insert(setup.win);
            shapes.insert(case.kind);
            winners.insert(case.output.lines().last().unwrap().to_owned());
            rejections.extend(replay(rules, &case.input, &case.output));
            let first_turn = case.output.lines().nth(2 + dims.rows()).unwrap();
            match case.kind {
                StartKind::AlreadyOver => assert!(first_turn.starts_with("WINNER: ")),
                StartKind::FirstPlayerPasses => {
                    let other = setup.first.opponent().letter();
                    assert_eq!(first_turn, format!("TURN: {other}"));
                    first_passes = true;
                }
                _ => {}
            }
        }
        assert!(rectangular && first_passes, "{rules}");
        assert_eq!(firsts, HashSet::from(Color::ALL), "{rules}");
        assert_eq!(
            wins,
            HashSet::from([WinRule::MostDiscs, WinRule::FewestDiscs])
        );
        assert_eq!(
            shapes,
            HashSet::from([
                StartKind::Scattered,
                StartKind::FirstPlayerPasses,
                StartKind::AlreadyOver
            ])
        );
        assert_eq!(winners.len(), 3, "{rules}: {winners:?}");
        assert_eq!(rejections.len(), 3, "{rules}: {rejections:?}");
    }
}

#[test]
fn gen_options_shape_the_cases() {
    let options = Options {
        sizes: "6..8".parse().unwrap(),
        square_only: true,
        invalid_rate: 0.0,
        start: Start::Standard,
        ..Options::default()
    };
    let generator = Generator::new(1, options).unwrap();
    let mut sides = HashSet::new();
    for index in 0..30 {
        let case = generator.case(index);
        assert_eq!(case.kind, StartKind::Standard);
        assert!(!case.output.contains("INVALID"));
        let dims = Setup::from_protocol(&case.input).unwrap().board.dims();
        assert_eq!(dims.rows(), dims.cols());
        sides.insert(dims.rows());
    }
    assert_eq!(sides, HashSet::from([6, 8]));
    assert_eq!(Sizes::new(6, 8).unwrap().to_string(), "6..8");
}

#[test]
fn gen_replaces_its_own_files_and_refuses_others() {
    let dir = scratch("grader", "replace");
    generate(&dir, &["--count", "5"]);
    generate(&dir, &["--count", "2"]);
    assert_eq!(case_names(&dir), ["0000", "0001"]);
    assert_eq!(files(&dir).len(), 4);

    fs::write(dir.join("notes.txt"), "mine").unwrap();
    othello()
        .args(["gen", "--count", "2", "--out"])
        .arg(&dir)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "\"notes.txt\", which othello gen did not write",
        ));
    assert_eq!(fs::read_to_string(dir.join("notes.txt")).unwrap(), "mine");
    assert_eq!(files(&dir).len(), 5);
}

#[test]
fn gen_rejects_bad_options() {
    let dir = scratch("grader", "bad-options");
    for bad in [
        &["--sizes", "5..8"][..],
        &["--sizes", "10..6"],
        &["--sizes", "4-16"],
        &["--invalid-rate", "1"],
        &["--invalid-rate", "-0.5"],
        &["--count", "0"],
        &["--start", "sideways"],
    ] {
        othello()
            .args(["gen", "--out"])
            .arg(&dir)
            .args(bad)
            .assert()
            .code(2)
            .stderr(predicate::str::is_empty().not());
    }
}

fn check(dir: &Path, extra: &[&str], program: &[&str]) -> assert_cmd::assert::Assert {
    othello()
        .arg("check")
        .args(extra)
        .arg(dir)
        .arg("--")
        .args(program)
        .assert()
}

#[test]
fn check_passes_the_protocol_program() {
    let dir = scratch("grader", "check-full");
    generate(&dir, &["--count", "10", "--seed", "9"]);
    let binary = othello_path();
    let binary = binary.to_str().unwrap();
    let output = check(&dir, &["--rules", "full", "--jobs", "2"], &[binary])
        .code(0)
        .get_output()
        .stdout
        .clone();
    let report = String::from_utf8(output).unwrap();
    let expected: String = (0..10)
        .map(|i| format!("PASS    {i:04}\n"))
        .chain(["10 passed, 0 failed\n".to_owned()])
        .collect();
    assert_eq!(report, expected);

    let dir = scratch("grader", "check-simple");
    generate(&dir, &["--rules", "simple", "--count", "6"]);
    check(&dir, &["--rules", "simple"], &[binary, "--rules", "simple"])
        .code(0)
        .stdout(predicate::str::ends_with("6 passed, 0 failed\n"));
    // The same cases against the wrong rule set fail.
    check(&dir, &[], &[binary])
        .code(1)
        .stdout(predicate::str::contains(
            r#"line 1: expected "SIMPLE", got "FULL"; before any input was read"#,
        ));
}

/// The verdict and detail the report should give a case of a wrong program, from the case's
/// input lines, expected output lines and expected output size in bytes.
type Expectation = fn(&[String], &[String], usize) -> (&'static str, String);

/// `after input line N "TEXT"` for move line `n` (1-based) of a case.
fn after_move(input: &[String], n: usize) -> String {
    let rows: usize = input[0].parse().unwrap();
    let line = 4 + rows + n;
    format!("after input line {line} {:?}", input[line - 1])
}

/// The same for the last move line.
fn after_last_move(input: &[String]) -> String {
    let rows: usize = input[0].parse().unwrap();
    after_move(input, input.len() - 4 - rows)
}

fn after_setup(input: &[String]) -> String {
    let rows: usize = input[0].parse().unwrap();
    format!("after the setup (input lines 1-{})", 4 + rows)
}

#[test]
#[expect(
    clippy::too_many_lines,
    reason = "one scenario per wrong program, in a row"
)]
fn check_reports_wrong_programs_with_verdict_and_first_differing_line() {
    let dir = scratch("grader", "wrong-programs");
    generate(
        &dir,
        &[
            "--count",
            "4",
            "--start",
            "standard",
            "--sizes",
            "4..8",
            "--invalid-rate",
            "0.3",
        ],
    );
    let programs = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let binary = othello_path();
    let cases: &[(&str, Expectation)] = &[
        ("drop-last-line", |input, output, _| {
            let detail = format!(
                "line {}: expected {:?}, got end of output; {}",
                output.len(),
                output.last().unwrap(),
                after_last_move(input)
            );
            ("FAIL", detail)
        }),
        ("swap-valid", |input, output, _| {
            let at = output
                .iter()
                .position(|line| line == "VALID" || line == "INVALID")
                .unwrap();
            let swapped = if output[at] == "VALID" {
                "INVALID"
            } else {
                "VALID"
            };
            let detail = format!(
                "line {}: expected {:?}, got {swapped:?}; {}",
                at + 1,
                output[at],
                after_move(input, 1)
            );
            ("FAIL", detail)
        }),
        ("crash", |input, output, _| {
            let detail = format!(
                "exit status 3; stderr \"boom: something broke\"; line 6: expected {:?}, got end of output; {}",
                output[5],
                after_setup(input)
            );
            ("CRASH", detail)
        }),
        ("hang", |input, output, _| {
            let detail = format!(
                "still running after 1 s, killed; line 4: expected {:?}, got end of output; {}",
                output[3],
                after_setup(input)
            );
            ("TIMEOUT", detail)
        }),
        ("flood", |input, output, bytes| {
            let detail = format!(
                "printed more than {} bytes (expected {bytes}), killed; line {}: expected end of output, got \"y\"; {}",
                2 * bytes + 4096,
                output.len() + 1,
                after_last_move(input)
            );
            ("FAIL", detail)
        }),
        ("ignore-input", |input, output, _| {
            let detail = format!(
                "line 2: expected {:?}, got end of output; {}",
                output[1],
                after_setup(input)
            );
            ("FAIL", detail)
        }),
    ];
    for (program, expectation) in cases {
        let script = programs.join(format!("{program}.sh"));
        let assert = othello()
            .args(["check", "--jobs", "4", "--timeout", "1"])
            .arg(&dir)
            .arg("--")
            .arg("sh")
            .arg(&script)
            .arg(&binary)
            .assert()
            .code(1);
        let report = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
        let report: Vec<&str> = report.lines().collect();
        assert_eq!(report.len(), 5, "{program}: {report:#?}");
        assert_eq!(report[4], "0 passed, 4 failed");
        for (i, line) in report[..4].iter().enumerate() {
            let name = format!("{i:04}");
            let input = text_lines(&dir.join(format!("{name}.in")));
            let out_path = dir.join(format!("{name}.out"));
            let bytes = fs::metadata(&out_path).unwrap().len() as usize;
            let (verdict, detail) = expectation(&input, &text_lines(&out_path), bytes);
            assert_eq!(*line, format!("{verdict:<7} {name}  {detail}"), "{program}");
        }
    }
}

#[test]
fn check_usage_errors_exit_with_status_2() {
    let binary = othello_path();
    let binary = binary.to_str().unwrap();
    let missing = scratch("grader", "usage").join("missing");
    check(&missing, &[], &[binary])
        .code(2)
        .stderr(predicate::str::starts_with(
            "othello: cannot read directory",
        ));

    let empty = scratch("grader", "usage-empty");
    check(&empty, &[], &[binary])
        .code(2)
        .stderr(predicate::str::contains("holds no test cases"));

    let cases = scratch("grader", "usage-cases");
    generate(&cases, &["--count", "2"]);
    check(&cases, &["--rules", "simple"], &[binary])
        .code(2)
        .stderr(predicate::str::contains(
            "is not a transcript of the SIMPLE rules",
        ))
        .stdout(predicate::str::is_empty());
    check(&cases, &[], &["/no/such/program"])
        .code(2)
        .stderr(predicate::str::contains("cannot run \"/no/such/program\""));
    // No COMMAND, and a timeout that is not positive: usage errors.
    othello().arg("check").arg(&cases).assert().code(2);
    check(&cases, &["--timeout", "0"], &["true"]).code(2);
    // A directory to give the programs that is none: said, not a host left writable.
    check(&cases, &["--writable", "/no/such/dir"], &["true"])
        .code(2)
        .stderr(predicate::str::contains(
            "invalid value '/no/such/dir' for '--writable <DIR>': No such file or directory",
        ));

    fs::remove_file(cases.join("0001.out")).unwrap();
    check(&cases, &[], &[binary])
        .code(2)
        .stderr(predicate::str::contains("0001.in has no expected output"));
}
