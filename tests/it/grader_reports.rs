//! `othello check --report` for one program (weighted cases, complete reports of crashes),
//! the per-case CPU-time limit, `--each` from a list file, and the usage errors of the options
//! for grading a class.

use std::fs;
use std::path::Path;

use predicates::prelude::*;
use serde_json::Value;

use crate::grader::{generate, othello_path};
use crate::support::{mask_summary_times, othello, scratch};

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
            "10",
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
    let assert = othello()
        .current_dir(&root)
        .args(["check", "cases", "--each", "list.txt", "--"])
        .arg(&binary)
        .assert()
        .code(0);
    let summary = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert_eq!(
        mask_summary_times(&summary),
        "program  passed  failed  timed out  crashed  memory   cpu s  wall s  score\n\
         ann           1       0          0        0       0       -       -  1/1\n\
         ben           1       0          0        0       0       -       -  1/1\n\
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

/// Without `--each` the suite is named after the script the command runs (`sh spaces.sh` is
/// `spaces.sh`, not `sh`), or `--name`; a whitespace difference is marked under its column with
/// the blanks made visible; the failing case's input is in every report; `JUnit`'s suite time and
/// Gradescope's `execution_time` are the run's wall time, not the sum of the parallel cases.
#[cfg(unix)]
#[test]
fn reports_name_the_submission_mark_the_column_and_show_the_input() {
    let root = scratch("grader_reports", "student-view");
    let cases = root.join("cases");
    generate(&cases, &["--count", "4", "--seed", "45", "--sizes", "4..6"]);
    // A program with one space too few on its score lines (`B: 2 W: 2`).
    fs::write(
        root.join("spaces.sh"),
        "sleep 0.3\n\"$1\" | sed 's/  W:/ W:/'\n",
    )
    .unwrap();
    for name in [None, Some("alice")] {
        let mut command = othello();
        command
            .current_dir(&root)
            .args(["check", "cases", "--jobs", "4"]);
        if let Some(name) = name {
            command.args(["--name", name]);
        }
        command
            .args([
                "--report",
                "junit=junit.xml",
                "--report",
                "gradescope=results.json",
            ])
            .args(["--report", "json=report.json", "--", "sh", "spaces.sh"])
            .arg(othello_path())
            .assert()
            .code(1);
        let junit = fs::read_to_string(root.join("junit.xml")).unwrap();
        let document = roxmltree::Document::parse(&junit).unwrap();
        let suite = document
            .descendants()
            .find(|node| node.has_tag_name("testsuite"))
            .unwrap();
        assert_eq!(suite.attribute("name"), Some(name.unwrap_or("spaces.sh")));
        // Four cases of at least 0.3 s each on four workers: about 0.3 s of wall time.
        let wall: f64 = suite.attribute("time").unwrap().parse().unwrap();
        let summed: f64 = suite
            .descendants()
            .filter(|node| node.has_tag_name("testcase"))
            .map(|case| case.attribute("time").unwrap().parse::<f64>().unwrap())
            .sum();
        // When it fails, what the JSON report says of each case (its time, its standard error)
        // tells why a case took less than its sleep.
        assert!(
            summed >= 1.2 && wall < summed,
            "{wall} {summed}: {}",
            fs::read_to_string(root.join("report.json")).unwrap_or_default()
        );
        let failure = suite
            .descendants()
            .find(|node| node.has_tag_name("failure"))
            .unwrap();
        let text = failure.text().unwrap();
        assert!(text.contains("expected: B:·"), "{text}");
        assert!(text.contains("··W:·"), "{text}");
        assert!(text.contains("^ column "), "{text}");
        let system_out = failure.next_sibling_element().unwrap();
        assert_eq!(system_out.tag_name().name(), "system-out");
        assert_eq!(
            system_out.text().unwrap(),
            fs::read_to_string(cases.join("0000.in")).unwrap()
        );

        let results: Value =
            serde_json::from_str(&fs::read_to_string(root.join("results.json")).unwrap()).unwrap();
        let execution_time = results["execution_time"].as_f64().unwrap();
        assert!(execution_time < summed, "{execution_time} {summed}");
        let output = results["tests"][0]["output"].as_str().unwrap();
        assert!(output.contains("\ninput:\n     1 "), "{output}");

        let report: Value =
            serde_json::from_str(&fs::read_to_string(root.join("report.json")).unwrap()).unwrap();
        let program = &report["programs"][0];
        assert_eq!(program["name"], name.unwrap_or("spaces.sh"));
        assert!(program["summary"]["wall_seconds"].as_f64().unwrap() < summed);
        let case = &program["cases"][0];
        assert_eq!(
            case["input"].as_str().unwrap(),
            fs::read_to_string(cases.join("0000.in")).unwrap()
        );
        assert!(case["cpu_seconds"].as_f64().unwrap() > 0.0);
        let difference = &case["difference"];
        let column = difference["column"].as_u64().unwrap();
        let expected = difference["expected"].as_str().unwrap();
        // The column is where the expected line has its second space before `W:`.
        assert_eq!(expected.chars().nth(column as usize - 1), Some(' '));
        assert!(expected[column as usize..].starts_with("W:"), "{expected}");
    }
}
