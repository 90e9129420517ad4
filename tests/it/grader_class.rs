//! `othello check --each` and `--report`: a class of generated "students" (shell scripts around
//! the `othello` binary, right and wrong in every way a grader meets) graded in one run, and the
//! reports validated against their formats: the `JUnit` XML parses and has the schema's required
//! elements and attributes, the Gradescope JSON has the keys and types Gradescope reads, our own
//! JSON follows its documented schema.

use std::fs;
use std::path::Path;

use predicates::prelude::*;
use serde_json::Value;

use crate::grader::{generate, othello_path};
use crate::support::{
    contains_whole_trees, mask_summary_times, othello, processes_with_argument,
    quiet_but_for_the_fallback_note, scratch,
};

/// The kinds of student, with what each does on every case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Correct,
    OffByOne,
    Crashing,
    Hanging,
    Flooding,
    Slow,
    ForkHolding,
    ForkDetached,
    MemoryHog,
    Garbage,
    Missing,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Correct => "correct",
            Kind::OffByOne => "off-by-one",
            Kind::Crashing => "crashing",
            Kind::Hanging => "hanging",
            Kind::Flooding => "flooding",
            Kind::Slow => "slow",
            Kind::ForkHolding => "fork-holding",
            Kind::ForkDetached => "fork-detached",
            Kind::MemoryHog => "memory-hog",
            Kind::Garbage => "garbage",
            Kind::Missing => "missing",
        }
    }

    /// `run.sh` for this kind (`None`: the student handed in no program).
    fn script(self, binary: &Path) -> Option<String> {
        let o = binary.display();
        let body = match self {
            Kind::Correct => format!("exec {o}"),
            Kind::OffByOne => format!("{o} | sed '$d'"),
            Kind::Crashing => format!("{o} | head -n 5\necho 'boom: something broke' >&2\nexit 3"),
            Kind::Hanging => format!("{o} | head -n 3\nsleep 600"),
            Kind::Flooding => format!("{o}\nyes"),
            Kind::Slow => format!("sleep 0.2\nexec {o}"),
            // A child that inherits standard output and would hang: the program has exited, so
            // its output is judged, and the child is killed with its tree.
            Kind::ForkHolding => format!("sleep 600.5 &\nexec {o}"),
            // A child that lets go of the output and its session and would run for ever: the
            // case passes, and the child is stopped with the case (where cgroups are had).
            Kind::ForkDetached => {
                format!("setsid sleep 600.25 </dev/null >/dev/null 2>&1 &\nexec {o}")
            }
            Kind::MemoryHog => "exec awk 'BEGIN { s = \"x\"; while (1) s = s s }'".to_owned(),
            // Control characters and markup, on standard output and standard error.
            Kind::Garbage => {
                "printf 'FULL\\n\\033[31m\\001<&>\"\\n'\nprintf 'oops \\033\\002 <]]>\\n' >&2"
                    .to_owned()
            }
            Kind::Missing => return None,
        };
        Some(format!("#!/bin/sh\n{body}\n"))
    }

    /// (passed, failed, timed out, crashed, out of memory) over `cases` cases.
    fn expected(self, cases: usize) -> [usize; 5] {
        let at = match self {
            Kind::Correct | Kind::Slow | Kind::ForkDetached | Kind::ForkHolding => 0,
            Kind::OffByOne | Kind::Flooding | Kind::Garbage => 1,
            Kind::Hanging => 2,
            Kind::Crashing | Kind::Missing => 3,
            Kind::MemoryHog => 4,
        };
        let mut counts = [0; 5];
        counts[at] = cases;
        counts
    }
}

/// The class: 30 students, the kinds interleaved.
const CLASS: [Kind; 30] = {
    use Kind::*;
    [
        Correct,
        OffByOne,
        Crashing,
        Hanging,
        Flooding,
        Slow,
        ForkHolding,
        MemoryHog,
        Garbage,
        Missing,
        Correct,
        OffByOne,
        Crashing,
        Flooding,
        Slow,
        ForkDetached,
        Correct,
        Hanging,
        MemoryHog,
        Correct,
        OffByOne,
        Crashing,
        Flooding,
        Slow,
        ForkDetached,
        Correct,
        Missing,
        OffByOne,
        Correct,
        Correct,
    ]
};

const CASES: usize = 2;
const POINTS: usize = 5;

/// Makes the class under `root/students/sNN-KIND/` and the cases under `root/cases`.
fn make_class(root: &Path) -> Vec<(String, Kind)> {
    let cases = root.join("cases");
    let args = [
        "--count", "2", "--seed", "4", "--sizes", "4..6", "--start", "standard",
    ];
    generate(&cases, &args);
    let binary = othello_path();
    CLASS
        .iter()
        .enumerate()
        .map(|(index, &kind)| {
            let name = format!("s{:02}-{}", index + 1, kind.name());
            let dir = root.join("students").join(&name);
            fs::create_dir_all(&dir).unwrap();
            if let Some(script) = kind.script(&binary) {
                let path = dir.join("run.sh");
                fs::write(&path, script).unwrap();
                make_executable(&path);
            }
            (name, kind)
        })
        .collect()
}

fn make_executable(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
    }
}

#[cfg(unix)]
#[test]
fn check_grades_a_class_of_30_in_one_run_and_writes_every_report() {
    let root = scratch("grader_class", "class");
    let students = make_class(&root);
    let reports = root.join("reports");
    fs::create_dir_all(&reports).unwrap();
    let assert = othello()
        .current_dir(&root)
        .args(["check", "cases", "--each", "students/*/", "--jobs", "2"])
        .args(["--timeout", "2", "--memory", "64", "--points-per-case", "5"])
        .args([
            "--report",
            "junit=reports/class.xml",
            "--report",
            "json=reports/class.json",
            "--report",
            "csv=reports/class.csv",
            "--report",
            "gradescope=reports/{name}.json",
        ])
        .args(["--", "./run.sh"])
        .assert()
        .code(1)
        .stderr(predicate::function(quiet_but_for_the_fallback_note));
    let summary =
        mask_summary_times(&String::from_utf8(assert.get_output().stdout.clone()).unwrap());

    // The summary, line by line: the header, one line per student in order, the total.
    let lines: Vec<&str> = summary.lines().collect();
    assert_eq!(lines.len(), 32, "{summary}");
    let width = students.iter().map(|(name, _)| name.len()).max().unwrap();
    assert_eq!(
        lines[0],
        format!(
            "{:<width$}  passed  failed  timed out  crashed  memory   cpu s  wall s  score",
            "program"
        )
    );
    for ((name, kind), line) in students.iter().zip(&lines[1..]) {
        let [passed, failed, timed_out, crashed, memory] = kind.expected(CASES);
        let expected = format!(
            "{name:<width$}  {passed:>6}  {failed:>6}  {timed_out:>9}  {crashed:>7}  {memory:>6}       -       -  {}/{}",
            passed * POINTS,
            CASES * POINTS
        );
        assert_eq!(*line, expected, "{kind:?}");
    }
    let perfect = CLASS
        .iter()
        .filter(|kind| kind.expected(CASES)[0] == CASES)
        .count();
    assert_eq!(
        lines[31],
        format!("30 programs, {perfect} passed every case")
    );
    insta::assert_snapshot!(summary);

    // Children, holding the output or not, in a session of their own or not, were stopped
    // with their case.
    if contains_whole_trees() {
        for argument in ["600.5", "600.25"] {
            assert_eq!(processes_with_argument(argument), 0, "sleep {argument}");
        }
    }

    // The class summary CSV says what the table says.
    let csv = fs::read_to_string(reports.join("class.csv")).unwrap();
    let csv: Vec<&str> = csv.lines().collect();
    assert_eq!(
        csv[0],
        "program,cases,passed,failed,timed_out,crashed,memory,score,max_score"
    );
    for ((name, kind), line) in students.iter().zip(&csv[1..]) {
        let [passed, failed, timed_out, crashed, memory] = kind.expected(CASES);
        assert_eq!(
            *line,
            format!(
                "{name},{CASES},{passed},{failed},{timed_out},{crashed},{memory},{},{}",
                passed * POINTS,
                CASES * POINTS
            )
        );
    }

    let xml = fs::read_to_string(reports.join("class.xml")).unwrap();
    check_junit(&xml, &students, &root.join("cases"));
    for (name, kind) in &students {
        let text = fs::read_to_string(reports.join(format!("{name}.json"))).unwrap();
        check_gradescope(&text, *kind);
    }
    let json: Value =
        serde_json::from_str(&fs::read_to_string(reports.join("class.json")).unwrap()).unwrap();
    check_json(&json, &students);
}

/// The `JUnit` XML: `testsuites` with totals, one `testsuite` per student with `name`, `tests`,
/// `failures`, `errors` and `time`, one `testcase` per case with `name`, `classname` and
/// `time`; a FAIL has a `failure`, the other verdicts an `error`, each with `type` and
/// `message`.
fn check_junit(xml: &str, students: &[(String, Kind)], cases_dir: &Path) {
    let document = roxmltree::Document::parse(xml).expect("the JUnit report is well-formed XML");
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!(root.attribute("tests"), Some("60"));
    let suites: Vec<_> = root
        .children()
        .filter(roxmltree::Node::is_element)
        .collect();
    assert_eq!(suites.len(), students.len());
    let mut failures = 0;
    for (suite, (name, kind)) in suites.iter().zip(students) {
        assert_eq!(suite.tag_name().name(), "testsuite");
        assert_eq!(suite.attribute("name"), Some(name.as_str()));
        for attribute in ["tests", "failures", "errors", "skipped"] {
            let value = suite.attribute(attribute).expect(attribute);
            value.parse::<usize>().expect("a count");
        }
        // The wall time of the student's run (its cases under way), at most their sum.
        let wall = suite.attribute("time").unwrap().parse::<f64>().unwrap();
        let summed: f64 = suite
            .children()
            .filter(roxmltree::Node::is_element)
            .map(|case| case.attribute("time").unwrap().parse::<f64>().unwrap())
            .sum();
        assert!(wall <= summed + 0.002, "{name}: {wall} > {summed}");
        let [passed, failed, ..] = kind.expected(CASES);
        assert_eq!(
            suite.attribute("failures"),
            Some(failed.to_string().as_str())
        );
        let errors = CASES - passed - failed;
        assert_eq!(suite.attribute("errors"), Some(errors.to_string().as_str()));
        let cases: Vec<_> = suite
            .children()
            .filter(roxmltree::Node::is_element)
            .collect();
        assert_eq!(cases.len(), CASES);
        for (index, case) in cases.iter().enumerate() {
            assert_eq!(case.tag_name().name(), "testcase");
            assert_eq!(case.attribute("name"), Some(format!("{index:04}").as_str()));
            assert_eq!(case.attribute("classname"), Some(name.as_str()));
            case.attribute("time").unwrap().parse::<f64>().unwrap();
            let children: Vec<_> = case
                .children()
                .filter(roxmltree::Node::is_element)
                .collect();
            let expected = match (passed, failed) {
                (p, _) if p > 0 => None,
                (_, f) if f > 0 => Some("failure"),
                _ => Some("error"),
            };
            assert_eq!(children.first().map(|c| c.tag_name().name()), expected);
            if let Some(outcome) = children.first() {
                // The case's whole input beside the failure: the student does not have it.
                let input = fs::read_to_string(cases_dir.join(format!("{index:04}.in"))).unwrap();
                let system_out = children
                    .iter()
                    .find(|child| child.tag_name().name() == "system-out")
                    .expect("system-out");
                assert_eq!(system_out.text(), Some(input.as_str()));
                failures += 1;
                assert!(outcome.attribute("type").is_some());
                assert!(!outcome.attribute("message").unwrap().is_empty());
                assert!(
                    outcome
                        .text()
                        .unwrap()
                        .contains(outcome.attribute("type").unwrap())
                );
            }
        }
        if *kind == Kind::Garbage {
            let text = cases[0].first_element_child().unwrap().text().unwrap();
            assert!(text.contains("stderr:\noops \\u{1b}\\u{2} <]]>"), "{text}");
        }
    }
    let counted: usize = ["failures", "errors"]
        .iter()
        .map(|attribute| {
            root.attribute(*attribute)
                .unwrap()
                .parse::<usize>()
                .unwrap()
        })
        .sum();
    assert_eq!(counted, failures);
}

/// Gradescope's `results.json`: `score` and `max_score` numbers, `output` a string,
/// `execution_time` a number, `tests` an array of objects with `name`, `status` (`passed` or
/// `failed`), `score`, `max_score` and `output`.
fn check_gradescope(text: &str, kind: Kind) {
    let report: Value = serde_json::from_str(text).unwrap();
    let passed = kind.expected(CASES)[0];
    assert_eq!(report["score"].as_f64(), Some((passed * POINTS) as f64));
    assert_eq!(report["max_score"].as_f64(), Some((CASES * POINTS) as f64));
    assert!(report["output"].as_str().unwrap().contains("cases passed"));
    assert!(report["execution_time"].as_f64().unwrap() >= 0.0);
    let tests = report["tests"].as_array().unwrap();
    assert_eq!(tests.len(), CASES);
    for test in tests {
        assert!(test["name"].is_string() && test["output"].is_string());
        assert!(test["number"].is_string());
        let output = test["output"].as_str().unwrap();
        if passed == 0 {
            // What failed, then the first lines of the input.
            assert!(output.contains("\ninput:\n     1 "), "{output}");
        }
        if kind == Kind::OffByOne {
            assert!(output.contains("actual:   (end of output)\n"), "{output}");
            assert!(output.contains("^ column 1\n"), "{output}");
        }
        let status = test["status"].as_str().unwrap();
        assert_eq!(status, if passed > 0 { "passed" } else { "failed" });
        assert_eq!(test["max_score"].as_f64(), Some(POINTS as f64));
        assert_eq!(
            test["score"].as_f64(),
            Some(if passed > 0 { POINTS as f64 } else { 0.0 })
        );
    }
}

/// Our own schema, version 1 (docs/grading.md, the `json` report).
fn check_json(json: &Value, students: &[(String, Kind)]) {
    assert_eq!(json["schema"], "othello-check");
    assert_eq!(json["version"], 1);
    assert_eq!(json["cases"], "cases");
    assert_eq!(json["limits"]["timeout_seconds"], 2.0);
    assert_eq!(json["limits"]["memory_mb"], 64);
    assert!(json["limits"]["cpu_seconds"].is_null());
    let programs = json["programs"].as_array().unwrap();
    assert_eq!(programs.len(), students.len());
    let verdicts = ["PASS", "FAIL", "TIMEOUT", "CRASH", "MEMORY"];
    let keys = ["passed", "failed", "timed_out", "crashed", "memory"];
    for (program, (name, kind)) in programs.iter().zip(students) {
        assert_eq!(program["name"], name.as_str());
        assert_eq!(program["directory"], format!("students/{name}"));
        assert_eq!(program["command"], serde_json::json!(["./run.sh"]));
        let counts = kind.expected(CASES);
        for (key, count) in keys.iter().zip(counts) {
            assert_eq!(program["summary"][key], count, "{name} {key}");
        }
        let verdict = verdicts[counts.iter().position(|&count| count > 0).unwrap()];
        assert!(program["summary"]["wall_seconds"].as_f64().unwrap() >= 0.0);
        assert!(program["summary"]["cpu_seconds"].as_f64().unwrap() >= 0.0);
        for case in program["cases"].as_array().unwrap() {
            assert_eq!(case["verdict"], verdict, "{name}");
            assert!(case["seconds"].is_number() && case["points"] == 5.0);
            assert!(
                case["input"]
                    .as_str()
                    .unwrap()
                    .starts_with(char::is_numeric)
            );
            assert!(case["cpu_seconds"].is_number() || case["cpu_seconds"].is_null());
            let difference = &case["difference"];
            if verdict == "PASS" {
                assert!(difference.is_null() && case["detail"].is_null());
                continue;
            }
            assert!(case["detail"].is_string());
            if *kind == Kind::OffByOne {
                // The first difference in full: the last expected line, then nothing.
                assert!(
                    difference["expected"]
                        .as_str()
                        .unwrap()
                        .starts_with("WINNER: ")
                );
                assert!(difference["actual"].is_null());
                assert!(difference["line"].as_u64().unwrap() > 5);
            }
            if *kind == Kind::Garbage {
                assert_eq!(difference["line"], 2);
                assert_eq!(difference["actual"], "\u{1b}[31m\u{1}<&>\"\n");
                assert_eq!(difference["column"], 1);
                assert!(
                    difference["marked"]
                        .as_str()
                        .unwrap()
                        .starts_with("expected: ")
                );
            }
            if *kind == Kind::MemoryHog {
                assert!(
                    case["detail"]
                        .as_str()
                        .unwrap()
                        .starts_with("ran out of memory (limit 64 MB)")
                );
            }
        }
    }
}
