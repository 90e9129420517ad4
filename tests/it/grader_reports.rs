//! `othello check --report` for one program (weighted cases, complete reports of crashes),
//! the per-case CPU-time limit, `--each` from a list file, and the usage errors of the options
//! for grading a class.

use std::fs;
use std::path::Path;

use predicates::prelude::*;
use serde_json::Value;

use crate::grader::{generate, othello_path};
use crate::support::{othello, scratch};

/// Every report of one program, complete when its cases crash and time out; points from
/// `NAME.points` and a weights CSV.
#[test]
fn reports_of_one_program_with_weighted_cases() {
    let root = scratch("grader_reports", "one-program");
    let cases = root.join("cases");
    generate(&cases, &["--count", "3", "--seed", "8", "--sizes", "4..6"]);
    fs::write(cases.join("0001.points"), "2.5\n").unwrap();
    fs::write(root.join("weights.csv"), "name,points\n0002,4\n").unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/crash.sh");
    let output = othello()
        .current_dir(&root)
        .args([
            "check",
            "--timeout",
            "2",
            "--weights",
            "weights.csv",
            "cases",
        ])
        .args([
            "--report",
            "gradescope=results.json",
            "--report",
            "junit=junit.xml",
        ])
        .args(["--report", "json=report.json", "--"])
        .arg("sh")
        .arg(&script)
        .arg(othello_path())
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    // The human output is as without reports.
    let output = String::from_utf8(output).unwrap();
    assert!(
        output.starts_with("CRASH   0000  exit status 3;"),
        "{output}"
    );
    assert!(output.ends_with("0 passed, 3 failed\n"));

    let results: Value =
        serde_json::from_str(&fs::read_to_string(root.join("results.json")).unwrap()).unwrap();
    assert_eq!(results["score"], 0.0);
    assert_eq!(results["max_score"], 7.5);
    let points: Vec<f64> = results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|test| test["max_score"].as_f64().unwrap())
        .collect();
    assert_eq!(points, [1.0, 2.5, 4.0]);
    let junit = fs::read_to_string(root.join("junit.xml")).unwrap();
    let document = roxmltree::Document::parse(&junit).unwrap();
    let errors: Vec<_> = document
        .descendants()
        .filter(|node| node.has_tag_name("error"))
        .collect();
    assert_eq!(errors.len(), 3);
    assert!(
        errors
            .iter()
            .all(|error| error.attribute("type") == Some("CRASH"))
    );
    let report: Value =
        serde_json::from_str(&fs::read_to_string(root.join("report.json")).unwrap()).unwrap();
    let case = &report["programs"][0]["cases"][0];
    assert_eq!(case["exit"], "exit status 3");
    assert_eq!(case["stderr"], "boom: something broke\n");
    assert_eq!(report["programs"][0]["directory"], Value::Null);
}

/// Per-case limits: CPU time past `--cpu-time` is a TIMEOUT that says so.
#[cfg(unix)]
#[test]
fn cpu_time_limit_is_a_timeout() {
    let root = scratch("grader_reports", "cpu");
    let cases = root.join("cases");
    generate(&cases, &["--count", "1"]);
    othello()
        .current_dir(&root)
        .args(["check", "--timeout", "30", "--cpu-time", "1", "cases"])
        .args(["--", "awk", "BEGIN { while (1) x++ }"])
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with(
            "TIMEOUT 0000  used more than 1 s of CPU time; killed by signal 24 (SIGXCPU); line 1",
        ));
}

/// `--each` from a list file; usage errors of the new options exit with status 2 before
/// anything runs.
#[test]
fn each_from_a_list_and_usage_errors() {
    let root = scratch("grader_reports", "usage");
    let cases = root.join("cases");
    generate(&cases, &["--count", "1"]);
    for name in ["ann", "ben"] {
        fs::create_dir_all(root.join("class").join(name)).unwrap();
    }
    fs::write(
        root.join("list.txt"),
        "# the class\nclass/ann\n\nclass/ben/\n",
    )
    .unwrap();
    let binary = othello_path();
    othello()
        .current_dir(&root)
        .args(["check", "cases", "--each", "list.txt", "--"])
        .arg(&binary)
        .assert()
        .code(0)
        .stdout(
            "program  passed  failed  timed out  crashed  memory  score\n\
             ann           1       0          0        0       0  1/1\n\
             ben           1       0          0        0       0  1/1\n\
             2 programs, 2 passed every case\n",
        );

    let usage: &[(&[&str], &str)] = &[
        (&["--each", "nobody/*/"], "names no submission directory"),
        (
            &["--each", "list.txt", "--report", "gradescope=r.json"],
            "put {name} in its file name",
        ),
        (&["--report", "junit=missing/r.xml"], "no directory missing"),
        (&["--report", "xml=r.xml"], "unknown report format"),
        (
            &["--weights", "list.txt"],
            "list.txt: line 2: expected NAME,POINTS",
        ),
        (&["--points-per-case=-1"], "expected points"),
        (&["--memory", "0"], "--memory"),
    ];
    for (args, message) in usage {
        othello()
            .current_dir(&root)
            .arg("check")
            .args(*args)
            .args(["cases", "--"])
            .arg(&binary)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains(*message));
    }
    fs::write(cases.join("0000.points"), "lots").unwrap();
    othello()
        .current_dir(&root)
        .args(["check", "cases", "--"])
        .arg(&binary)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("0000.points: expected points"));
    fs::remove_file(cases.join("0000.points")).unwrap();
    fs::write(root.join("weights.csv"), "0007,1\n").unwrap();
    othello()
        .current_dir(&root)
        .args(["check", "cases", "--weights", "weights.csv", "--"])
        .arg(&binary)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no case \"0007\""));
}
