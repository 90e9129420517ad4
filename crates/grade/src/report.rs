//! What `othello check` found, as data, and the machine-readable reports made from it: our own
//! JSON ([`json()`], versioned by [`SCHEMA_VERSION`]), Gradescope's `results.json`
//! ([`gradescope`]), a class summary in CSV ([`csv_summary`]) and `JUnit` XML
//! ([`super::junit::junit`]). Nothing here touches a file: the front end writes the text.

use std::fmt;

use serde_json::{Value, json};

use super::Verdict;

/// The version of the [`json()`] report's schema, its `"version"` field. It changes only when a
/// field is removed or changes meaning; new fields may appear within a version.
pub const SCHEMA_VERSION: u32 = 1;

/// The name in the [`json()`] report's `"schema"` field.
pub const SCHEMA_NAME: &str = "othello-check";

/// The first line where a case's output differed, in full (not shortened as in the verdict's
/// detail).
#[derive(Clone, Debug, PartialEq)]
pub struct DifferenceText {
    /// 1-based line number.
    pub line: usize,
    /// The expected line with its `\n`, or `None` past the end of the expected output.
    pub expected: Option<String>,
    /// The actual line with its `\n` if it had one, or `None` past the end of the output.
    pub actual: Option<String>,
    /// The input line the expected transcript had just answered, in words.
    pub cause: Option<String>,
    /// Both outputs around the line (see [`super::excerpt`]).
    pub excerpt: String,
    /// The first differing column of the line, 1-based (see [`super::mark_difference`]).
    pub column: usize,
    /// Both lines, blanks made visible, with a `^` under that column.
    pub marked: String,
}

/// One case of one program: the verdict and what the reports say about it.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseOutcome {
    /// The case's name (`NAME` of `NAME.in`).
    pub name: String,
    /// The verdict.
    pub verdict: Verdict,
    /// The human report's detail (`None` for a pass): the same text `othello check` prints.
    pub detail: Option<String>,
    /// Points the case is worth (`NAME.points`, a weights file or the same for every case).
    pub points: f64,
    /// Wall-clock seconds from start to end (or kill).
    pub seconds: f64,
    /// CPU seconds (user and system) of the program and everything it started, where known.
    pub cpu_seconds: Option<f64>,
    /// The case's input (lossy UTF-8), which the student does not otherwise have.
    pub input: String,
    /// How the program ended, in words (`exit status 0`, `killed by signal 9 (SIGKILL)`), or
    /// `None` when the checker killed it or could not start it.
    pub exit: Option<String>,
    /// The start of its standard error (lossy UTF-8).
    pub stderr: String,
    /// Its peak resident memory in KiB, with its children's, where the platform tells.
    pub peak_memory_kib: Option<u64>,
    /// The first differing line, when the output differed.
    pub difference: Option<DifferenceText>,
}

impl CaseOutcome {
    /// The points earned: all of them for a pass, none otherwise.
    #[must_use]
    pub fn score(&self) -> f64 {
        if self.verdict == Verdict::Pass {
            self.points
        } else {
            0.0
        }
    }

    /// Everything known about a case that did not pass, for a report's free-text field: the
    /// detail line, the first differing line marked, the excerpt around it, the first lines of
    /// the input, then standard error.
    #[must_use]
    pub fn explanation(&self) -> String {
        let mut text = format!("{}", self.verdict);
        if let Some(detail) = &self.detail {
            text.push_str(": ");
            text.push_str(detail);
        }
        text.push('\n');
        if let Some(difference) = &self.difference {
            text.push_str(&format!("line {}:\n", difference.line));
            text.push_str(&difference.marked);
            text.push_str(&difference.excerpt);
        }
        if self.verdict != Verdict::Pass && !self.input.is_empty() {
            text.push_str("input:\n");
            text.push_str(&super::input_head(self.input.as_bytes(), INPUT_LINES_SHOWN));
        }
        if self.verdict != Verdict::Pass && !self.stderr.is_empty() {
            text.push_str("stderr:\n");
            text.push_str(&self.stderr);
            if !self.stderr.ends_with('\n') {
                text.push('\n');
            }
        }
        text
    }
}

/// The lines of a case's input an explanation shows (the JSON report and `JUnit`'s `system-out`
/// have it all).
pub const INPUT_LINES_SHOWN: usize = 12;

/// One program's run over every case.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramOutcome {
    /// Its name: the submission directory's name, or (without `--each`) `--name` or the script
    /// its command runs.
    pub name: String,
    /// Wall-clock seconds from the start of its first case to the end of its last (its cases
    /// run in parallel: less than the sum of their times).
    pub wall_seconds: f64,
    /// The directory it ran in, for `othello check --each`.
    pub directory: Option<String>,
    /// The command line.
    pub command: Vec<String>,
    /// Every case, in order.
    pub cases: Vec<CaseOutcome>,
}

/// The counts of a program's verdicts and its score.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Scorecard {
    /// Cases run.
    pub cases: usize,
    /// PASS.
    pub passed: usize,
    /// FAIL.
    pub failed: usize,
    /// TIMEOUT.
    pub timed_out: usize,
    /// CRASH.
    pub crashed: usize,
    /// MEMORY.
    pub memory: usize,
    /// Points earned.
    pub score: f64,
    /// Points of every case.
    pub max_score: f64,
    /// Seconds of all its cases together.
    pub seconds: f64,
    /// CPU seconds of all its cases together (those that say).
    pub cpu_seconds: f64,
}

impl ProgramOutcome {
    /// Counts the verdicts and adds up the points.
    #[must_use]
    pub fn scorecard(&self) -> Scorecard {
        let mut scorecard = Scorecard::default();
        for case in &self.cases {
            scorecard.cases += 1;
            *match case.verdict {
                Verdict::Pass => &mut scorecard.passed,
                Verdict::Fail => &mut scorecard.failed,
                Verdict::Timeout => &mut scorecard.timed_out,
                Verdict::Crash => &mut scorecard.crashed,
                Verdict::Memory => &mut scorecard.memory,
            } += 1;
            scorecard.score += case.score();
            scorecard.max_score += case.points;
            scorecard.seconds += case.seconds;
            scorecard.cpu_seconds += case.cpu_seconds.unwrap_or(0.0);
        }
        scorecard
    }
}

impl Scorecard {
    /// The counts of each verdict: passed, failed, timed out, crashed, out of memory.
    #[must_use]
    pub fn counts(&self) -> [usize; 5] {
        [
            self.passed,
            self.failed,
            self.timed_out,
            self.crashed,
            self.memory,
        ]
    }

    /// One line for a person: `8 of 10 cases passed (1 failed, 1 timed out); score 8/10`.
    #[must_use]
    pub fn sentence(&self) -> String {
        let others: Vec<String> = [
            (self.failed, "failed"),
            (self.timed_out, "timed out"),
            (self.crashed, "crashed"),
            (self.memory, "ran out of memory"),
        ]
        .into_iter()
        .filter(|&(count, _)| count > 0)
        .map(|(count, what)| format!("{count} {what}"))
        .collect();
        let others = if others.is_empty() {
            String::new()
        } else {
            format!(" ({})", others.join(", "))
        };
        format!(
            "{} of {} cases passed{others}; score {}/{}",
            self.passed,
            self.cases,
            Points(self.score),
            Points(self.max_score)
        )
    }
}

/// Points as a person writes them: `3`, `2.5`, `0.25` (at most 3 decimals, no trailing zeros).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Points(pub f64);

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = format!("{:.3}", self.0);
        let text = text.trim_end_matches('0').trim_end_matches('.');
        f.pad(if text == "-0" { "0" } else { text })
    }
}

/// The limits the cases ran under, and where the cases came from, for the [`json()`] report.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The case directory as given.
    pub cases: String,
    /// Wall-clock seconds per case.
    pub timeout: f64,
    /// CPU seconds per process, if limited.
    pub cpu_time: Option<f64>,
    /// Address space per process in MiB, if limited.
    pub memory_mb: Option<u64>,
}

/// Our own report of every program (schema [`SCHEMA_NAME`] version [`SCHEMA_VERSION`], see
/// docs/grading.md), pretty-printed JSON with a final newline.
#[must_use]
pub fn json(settings: &Settings, programs: &[ProgramOutcome]) -> String {
    let programs: Vec<Value> = programs
        .iter()
        .map(|program| {
            let scorecard = program.scorecard();
            let cases: Vec<Value> = program.cases.iter().map(case_json).collect();
            json!({
                "name": program.name,
                "directory": program.directory,
                "command": program.command,
                "summary": {
                    "cases": scorecard.cases,
                    "passed": scorecard.passed,
                    "failed": scorecard.failed,
                    "timed_out": scorecard.timed_out,
                    "crashed": scorecard.crashed,
                    "memory": scorecard.memory,
                    "score": scorecard.score,
                    "max_score": scorecard.max_score,
                    "seconds": round_seconds(scorecard.seconds),
                    "wall_seconds": round_seconds(program.wall_seconds),
                    "cpu_seconds": round_seconds(scorecard.cpu_seconds),
                },
                "cases": cases,
            })
        })
        .collect();
    let report = json!({
        "schema": SCHEMA_NAME,
        "version": SCHEMA_VERSION,
        "cases": settings.cases,
        "limits": {
            "timeout_seconds": settings.timeout,
            "cpu_seconds": settings.cpu_time,
            "memory_mb": settings.memory_mb,
        },
        "programs": programs,
    });
    pretty(&report)
}

fn case_json(case: &CaseOutcome) -> Value {
    let difference = case.difference.as_ref().map(|difference| {
        json!({
            "line": difference.line,
            "expected": difference.expected,
            "actual": difference.actual,
            "cause": difference.cause,
            "excerpt": difference.excerpt,
            "column": difference.column,
            "marked": difference.marked,
        })
    });
    json!({
        "name": case.name,
        "verdict": case.verdict.name(),
        "points": case.points,
        "score": case.score(),
        "seconds": round_seconds(case.seconds),
        "cpu_seconds": case.cpu_seconds.map(round_seconds),
        "input": case.input,
        "detail": case.detail,
        "exit": case.exit,
        "stderr": case.stderr,
        "peak_memory_kib": case.peak_memory_kib,
        "difference": difference,
    })
}

/// Gradescope's `results.json` for one program: `score`, `max_score`, `execution_time` (the
/// wall time of its run), an `output` summary, and one test per case with `name`, `number`,
/// `status` (`passed` or `failed`), `score`, `max_score` and `output` (for a case that did not
/// pass, its [`CaseOutcome::explanation`] and its whole input).
#[must_use]
pub fn gradescope(program: &ProgramOutcome) -> String {
    let scorecard = program.scorecard();
    let tests: Vec<Value> = program
        .cases
        .iter()
        .enumerate()
        .map(|(index, case)| {
            let passed = case.verdict == Verdict::Pass;
            json!({
                "name": case.name,
                "number": (index + 1).to_string(),
                "status": if passed { "passed" } else { "failed" },
                "score": case.score(),
                "max_score": case.points,
                "output": if passed { "PASS\n".to_owned() } else { gradescope_output(case) },
            })
        })
        .collect();
    let report = json!({
        "score": scorecard.score,
        "max_score": scorecard.max_score,
        "execution_time": round_seconds(program.wall_seconds),
        "output": format!("{}\n", scorecard.sentence()),
        "tests": tests,
    });
    pretty(&report)
}

/// A failed test's output for Gradescope: the explanation, and the whole input when the
/// explanation shows only its first lines (Gradescope has no attachments).
fn gradescope_output(case: &CaseOutcome) -> String {
    let mut text = case.explanation();
    if super::protocol_lines(case.input.as_bytes()) > INPUT_LINES_SHOWN {
        text.push_str("whole input:\n");
        text.push_str(&case.input);
        if !case.input.ends_with('\n') {
            text.push('\n');
        }
    }
    text
}

/// The class summary: a header line, then one line per program with its counts and score
/// (RFC 4180 CSV: a field with a comma, quote or line break is quoted).
#[must_use]
pub fn csv_summary(programs: &[ProgramOutcome]) -> String {
    let mut text =
        String::from("program,cases,passed,failed,timed_out,crashed,memory,score,max_score\n");
    for program in programs {
        let scorecard = program.scorecard();
        let mut fields = vec![csv_field(&program.name), scorecard.cases.to_string()];
        fields.extend(scorecard.counts().map(|count| count.to_string()));
        fields.extend(
            [scorecard.score, scorecard.max_score].map(|points| Points(points).to_string()),
        );
        text.push_str(&fields.join(","));
        text.push('\n');
    }
    text
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// Seconds to the millisecond, which is all a report needs.
fn round_seconds(seconds: f64) -> f64 {
    (seconds * 1000.0).round() / 1000.0
}

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("a JSON value always serialises");
    text.push('\n');
    text
}

/// Why a weights CSV (`NAME,POINTS` lines: the points of each case) could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct PointsCsvError {
    /// 1-based line number.
    pub line: usize,
    /// What was wrong there.
    pub message: String,
}

/// Reads points: a finite number, zero or more (`2`, `0.5`), surrounding blanks allowed.
///
/// # Errors
/// A message naming what was found, for anything else.
pub fn parse_points(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(points) if points.is_finite() && points >= 0.0 => Ok(points),
        _ => Err(format!(
            "expected points (a number, 0 or more), found {:?}",
            text.trim()
        )),
    }
}

/// Reads a weights CSV: one `NAME,POINTS` line per case. Blank lines and lines starting with
/// `#` are skipped, and so is a first line `name,points` (any case). A name may be quoted.
///
/// # Errors
/// The first malformed line: no comma, bad points, an empty or repeated name.
pub fn parse_weights(text: &str) -> Result<Vec<(String, f64)>, PointsCsvError> {
    let mut weights: Vec<(String, f64)> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let error = |message: String| PointsCsvError {
            line: index + 1,
            message,
        };
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((name, points)) = line.rsplit_once(',') else {
            return Err(error(format!("expected NAME,POINTS, found {line:?}")));
        };
        let name = name.trim();
        let name = name
            .strip_prefix('"')
            .and_then(|name| name.strip_suffix('"'))
            .map_or_else(|| name.to_owned(), |name| name.replace("\"\"", "\""));
        if index == 0 && name.eq_ignore_ascii_case("name") {
            continue;
        }
        if name.is_empty() {
            return Err(error("the case name is empty".into()));
        }
        if weights.iter().any(|(seen, _)| *seen == name) {
            return Err(error(format!("case {name:?} is listed twice")));
        }
        let points = parse_points(points).map_err(error)?;
        weights.push((name, points));
    }
    Ok(weights)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(name: &str, verdict: Verdict, points: f64) -> CaseOutcome {
        CaseOutcome {
            name: name.into(),
            verdict,
            detail: (verdict != Verdict::Pass).then(|| "line 2: expected \"a\", got \"b\"".into()),
            points,
            seconds: 0.0125,
            cpu_seconds: Some(0.01),
            input: "4\n4\nB\n".into(),
            exit: Some("exit status 0".into()),
            stderr: String::new(),
            peak_memory_kib: None,
            difference: None,
        }
    }

    fn program() -> ProgramOutcome {
        ProgramOutcome {
            name: "alice, jr".into(),
            wall_seconds: 0.03,
            directory: Some("submissions/alice, jr".into()),
            command: vec!["./run.sh".into()],
            cases: vec![
                case("0000", Verdict::Pass, 2.0),
                case("0001", Verdict::Fail, 1.5),
                case("0002", Verdict::Timeout, 1.0),
                case("0003", Verdict::Pass, 0.5),
            ],
        }
    }

    #[test]
    fn tallies_verdicts_and_points() {
        let scorecard = program().scorecard();
        assert_eq!(
            (scorecard.cases, scorecard.passed, scorecard.failed),
            (4, 2, 1)
        );
        assert_eq!(
            (scorecard.timed_out, scorecard.crashed, scorecard.memory),
            (1, 0, 0)
        );
        assert!((scorecard.score - 2.5).abs() < 1e-9 && (scorecard.max_score - 5.0).abs() < 1e-9);
        assert_eq!(
            scorecard.sentence(),
            "2 of 4 cases passed (1 failed, 1 timed out); score 2.5/5"
        );
    }

    #[test]
    fn writes_points_plainly() {
        let shown: Vec<String> = [3.0, 2.5, 0.25, 1.0 / 3.0, 0.0, -0.0]
            .map(|points| Points(points).to_string())
            .into();
        assert_eq!(shown, ["3", "2.5", "0.25", "0.333", "0", "0"]);
        assert_eq!(format!("{:>5}|", Points(2.5)), "  2.5|");
    }

    #[test]
    fn the_class_summary_quotes_awkward_names() {
        assert_eq!(
            csv_summary(&[program()]),
            "program,cases,passed,failed,timed_out,crashed,memory,score,max_score\n\
             \"alice, jr\",4,2,1,1,0,0,2.5,5\n"
        );
    }

    #[test]
    fn gradescope_marks_each_case_and_sums_the_score() {
        let report: Value = serde_json::from_str(&gradescope(&program())).unwrap();
        assert_eq!(report["score"], 2.5);
        assert_eq!(report["max_score"], 5.0);
        assert_eq!(report["tests"][1]["status"], "failed");
        assert_eq!(report["tests"][1]["score"], 0.0);
        assert_eq!(report["tests"][1]["max_score"], 1.5);
        assert_eq!(report["tests"][3]["status"], "passed");
        assert!(
            report["tests"][2]["output"]
                .as_str()
                .unwrap()
                .starts_with("TIMEOUT: ")
        );
    }

    #[test]
    fn reads_weights() {
        let weights = parse_weights("name,points\n# comment\n0000, 2\n\"a,b\",0.5\n\n").unwrap();
        assert_eq!(weights, [("0000".into(), 2.0), ("a,b".into(), 0.5)]);
        for (bad, line) in [
            ("0000\n", 1),
            ("0000,2\n0000,3\n", 2),
            ("x,-1\n", 1),
            ("x,nan\n", 1),
            (",1\n", 1),
        ] {
            assert_eq!(parse_weights(bad).unwrap_err().line, line, "{bad:?}");
        }
        assert_eq!(parse_points(" 3 "), Ok(3.0));
        assert!(parse_points("inf").is_err());
    }
}
