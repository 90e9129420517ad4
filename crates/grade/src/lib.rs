//! Grading programs that speak the console protocol: test cases and their exact transcripts
//! ([`generate`]); how a program's output compares with the expected transcript, which input
//! line an output line answers, and the verdict on a run (this module); the reports for
//! autograders ([`report`], [`junit`]); and the two commands over them: `othello gen`, which
//! writes cases to a directory ([`gen_command`]), and `othello check`, which runs programs on
//! them and judges what they printed ([`check`]), with their one error type ([`GradeError`]).

#![warn(missing_docs)]

pub mod check;
mod error;
pub mod gen_command;
pub mod generate;
pub mod junit;
pub mod report;

pub use error::GradeError;

use std::fmt;

use othello::RuleSet;
use othello::protocol::{self, Cause};

/// The longest text shown for one line, in characters.
pub const SHOWN: usize = 60;

/// A line as shown in a report: quoted and escaped, shortened to [`SHOWN`] characters.
#[must_use]
pub fn quote(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    match text.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{:?}...", &text[..cut]),
        None => format!("{text:?}"),
    }
}

/// The first line where the actual output differs from the expected one.
#[derive(Debug, PartialEq, Eq)]
pub struct Difference<'a> {
    /// 1-based line number.
    pub line: usize,
    /// The expected line with its `\n`, or `None` past the end.
    pub expected: Option<&'a [u8]>,
    /// The actual line with its `\n` if it had one, or `None` past the end.
    pub actual: Option<&'a [u8]>,
}

/// The first line where `actual` differs from `expected`, comparing `\n`-terminated pieces (so
/// a missing final line break or a `\r` is a difference); `None` if they are equal.
#[must_use]
pub fn first_difference<'a>(expected: &'a [u8], actual: &'a [u8]) -> Option<Difference<'a>> {
    let mut expected_lines = expected.split_inclusive(|&b| b == b'\n');
    let mut actual_lines = actual.split_inclusive(|&b| b == b'\n');
    for line in 1.. {
        match (expected_lines.next(), actual_lines.next()) {
            (None, None) => return None,
            (expected, actual) if expected == actual => {}
            (expected, actual) => {
                return Some(Difference {
                    line,
                    expected,
                    actual,
                });
            }
        }
    }
    unreachable!("the loop returns at the end of both outputs")
}

impl fmt::Display for Difference<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |line: Option<&[u8]>| match line {
            None => "end of output".to_owned(),
            Some(line) => match line.strip_suffix(b"\n") {
                Some(text) => quote(text),
                None => format!("{} (no newline at end)", quote(line)),
            },
        };
        write!(
            f,
            "line {}: expected {}, got {}",
            self.line,
            show(self.expected),
            show(self.actual)
        )
    }
}

/// The input line the expected transcript had just answered when it printed output line `line`
/// (1-based), in words: "before any input was read", "after the setup (input lines 1-8)" or
/// "after input line 12 \"3 4\"". The rule set is read from the transcript's banner; a line
/// past its end is put down to the last line read. `None` if the transcript has no banner.
#[must_use]
pub fn explain_line(input: &[u8], expected: &[u8], line: usize) -> Option<String> {
    let banner = protocol::lines(expected).next()?;
    let rules = [RuleSet::Full, RuleSet::Simple]
        .into_iter()
        .find(|&rules| protocol::banner(rules).trim_end().as_bytes() == banner)?;
    let causes = protocol::trace(rules, input);
    let cause = causes.get(line.checked_sub(1)?).or(causes.last())?;
    Some(match *cause {
        Cause::Start => "before any input was read".to_owned(),
        Cause::Setup { lines } => format!("after the setup (input lines 1-{lines})"),
        Cause::Move { line } => {
            let text = protocol::lines(input).nth(line - 1)?;
            format!("after input line {line} {}", quote(text))
        }
    })
}

/// How a run of a program ended, as far as the verdict goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// It exited by itself, with status 0 (`success`) or not (a status or a signal).
    Exited {
        /// Exit status 0.
        success: bool,
    },
    /// It was still running at the deadline and was killed.
    TimedOut,
    /// It printed more than the cap and was killed.
    TooMuchOutput,
    /// It ended abnormally after running out of the memory it was allowed (see
    /// [`ran_out_of_memory`]).
    OutOfMemory,
}

/// What programs print on standard error when an allocation fails: C's `perror` and shells
/// ("Cannot allocate memory"), awk and many runtimes ("out of memory"), Rust ("memory allocation
/// of N bytes failed"), C++ (`std::bad_alloc`), Python (`MemoryError`), Java
/// (`OutOfMemoryError`), Go ("fatal error: runtime: out of memory"), GNU tools ("memory
/// exhausted").
const OUT_OF_MEMORY: [&str; 7] = [
    "cannot allocate memory",
    "out of memory",
    "outofmemory",
    "memoryerror",
    "memory allocation",
    "memory exhausted",
    "bad_alloc",
];

/// Whether a run that ended abnormally under a memory limit of `limit_kib` KiB ran out of it:
/// its standard error says an allocation failed, or its peak resident memory reached half the
/// limit (the limit is on address space, which is always larger than what is resident, so a
/// program that grew until an allocation failed shows a peak of well over half of it).
#[must_use]
pub fn ran_out_of_memory(stderr: &[u8], peak_kib: Option<u64>, limit_kib: u64) -> bool {
    let text = String::from_utf8_lossy(stderr).to_lowercase();
    OUT_OF_MEMORY.iter().any(|phrase| text.contains(phrase))
        || peak_kib.is_some_and(|peak| peak.saturating_mul(2) >= limit_kib)
}

/// The verdict on one case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Exit status 0 and exactly the expected output.
    Pass,
    /// Exit status 0 (or killed for printing too much) and different output.
    Fail,
    /// Still running at the deadline; killed.
    Timeout,
    /// A non-zero exit status or a signal.
    Crash,
    /// Ended abnormally after running out of the memory allowed (`othello check --memory`).
    Memory,
}

impl Verdict {
    /// The verdict on a run that ended as `end` with output `identical` to the expected or not:
    /// a kill by the checker comes first (TIMEOUT, or FAIL for too much output), then a failed
    /// exit (CRASH), then the output.
    #[must_use]
    pub fn of(end: RunEnd, identical: bool) -> Verdict {
        match end {
            RunEnd::TimedOut => Verdict::Timeout,
            RunEnd::OutOfMemory => Verdict::Memory,
            RunEnd::Exited { success: false } => Verdict::Crash,
            RunEnd::Exited { success: true } if identical => Verdict::Pass,
            RunEnd::TooMuchOutput | RunEnd::Exited { success: true } => Verdict::Fail,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl Verdict {
    /// The verdict's name as printed and as written in reports: `PASS`, `FAIL`, `TIMEOUT`,
    /// `CRASH` or `MEMORY`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Fail => "FAIL",
            Verdict::Timeout => "TIMEOUT",
            Verdict::Crash => "CRASH",
            Verdict::Memory => "MEMORY",
        }
    }
}

/// A line with its blanks made visible, as the marker of a difference shows it: a space is `·`,
/// a tab `→`, a carriage return `␍`, other control characters `\u{..}`; invalid UTF-8 is `�`.
/// One character shown per character of the line, so columns line up.
#[must_use]
pub fn visible(line: &str) -> Vec<String> {
    line.chars()
        .map(|c| match c {
            ' ' => "·".to_owned(),
            '\t' => "→".to_owned(),
            '\r' => "␍".to_owned(),
            c if c.is_control() => format!("\\u{{{:x}}}", u32::from(c)),
            c => c.to_string(),
        })
        .collect()
}

/// The widest part of a line a marker shows, in characters.
const MARKED_WIDTH: usize = 72;

/// The first differing line of both outputs one above the other, blanks made visible (see
/// [`visible`]), with a `^` under the first differing column, and that column (1-based, in
/// characters; one past the end when a line ends early or lacks its line break):
///
/// ```text
/// expected: B:·2··W:·2
/// actual:   B:·2·W:·2
///                   ^ column 7
/// ```
#[must_use]
pub fn mark_difference(difference: &Difference<'_>) -> (usize, String) {
    let text = |line: Option<&[u8]>| {
        line.map(|line| {
            let body = line.strip_suffix(b"\n");
            (
                String::from_utf8_lossy(body.unwrap_or(line)).into_owned(),
                body.is_some(),
            )
        })
    };
    let (expected, actual) = (text(difference.expected), text(difference.actual));
    let chars = |side: &Option<(String, bool)>| -> Vec<char> {
        side.as_ref()
            .map_or_else(Vec::new, |(body, _)| body.chars().collect())
    };
    let (expected_chars, actual_chars) = (chars(&expected), chars(&actual));
    let column = expected_chars
        .iter()
        .zip(&actual_chars)
        .take_while(|(a, b)| a == b)
        .count();
    // The shown part of each line starts so that the column is in view.
    let start = column.saturating_sub(MARKED_WIDTH / 2);
    let show = |side: &Option<(String, bool)>| -> (String, usize) {
        let Some((body, newline)) = side else {
            return ("(end of output)".to_owned(), 0);
        };
        let tokens = visible(body);
        let mut shown = String::new();
        if start > 0 {
            shown.push('…');
        }
        let offset: usize = start.min(tokens.len());
        let before: usize = tokens[offset..column.min(tokens.len())]
            .iter()
            .map(|token| token.chars().count())
            .sum::<usize>()
            + usize::from(start > 0);
        for token in tokens.iter().skip(offset).take(MARKED_WIDTH) {
            shown.push_str(token);
        }
        if tokens.len() > offset + MARKED_WIDTH {
            shown.push('…');
        }
        if !newline {
            shown.push_str(" (no newline at end)");
        }
        (shown, before)
    };
    let (expected_shown, expected_before) = show(&expected);
    let (actual_shown, actual_before) = show(&actual);
    let before = if actual.is_some() {
        actual_before
    } else {
        expected_before
    };
    let text = format!(
        "expected: {expected_shown}\nactual:   {actual_shown}\n{}^ column {}\n",
        " ".repeat(10 + before),
        column + 1
    );
    (column + 1, text)
}

/// The number of lines of `text` (a last line without a line break counts).
#[must_use]
pub fn protocol_lines(text: &[u8]) -> usize {
    protocol::lines(text).count()
}

/// The first lines of a case's input, for a report: at most `lines` of them, numbered, with a
/// last line saying how many more there are.
#[must_use]
pub fn input_head(input: &[u8], lines: usize) -> String {
    let all: Vec<&[u8]> = protocol::lines(input).collect();
    let mut text = String::new();
    for (number, line) in (1..).zip(all.iter().take(lines)) {
        text.push_str(&format!("{number:>6} {}\n", String::from_utf8_lossy(line)));
    }
    if all.len() > lines {
        text.push_str(&format!(
            "       ... {} more lines (the whole input is attached where the report allows)\n",
            all.len() - lines
        ));
    }
    text
}

/// How many lines around the first difference [`excerpt`] shows, before and after it.
const CONTEXT: usize = 2;

/// A short excerpt of both outputs around line `line` (1-based): up to two lines before and
/// after it from each side, numbered, each shortened as by [`quote`], the differing line marked
/// with `>`.
#[must_use]
pub fn excerpt(expected: &[u8], actual: &[u8], line: usize) -> String {
    let first = line.saturating_sub(CONTEXT).max(1);
    let last = line + CONTEXT;
    let mut text = String::new();
    for (label, output) in [("expected", expected), ("actual", actual)] {
        text.push_str(label);
        text.push_str(":\n");
        let lines: Vec<&[u8]> = output
            .split_inclusive(|&b| b == b'\n')
            .skip(first - 1)
            .take(last + 1 - first)
            .collect();
        for (number, piece) in (first..).zip(&lines) {
            let mark = if number == line { '>' } else { ' ' };
            let shown = match piece.strip_suffix(b"\n") {
                Some(body) => quote(body),
                None => format!("{} (no newline at end)", quote(piece)),
            };
            text.push_str(&format!("{mark}{number:>5} {shown}\n"));
        }
        if lines.len() < last + 1 - first {
            let end = first + lines.len();
            if end <= line {
                let mark = if end == line { '>' } else { ' ' };
                text.push_str(&format!("{mark}{end:>5} (end of output)\n"));
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const INPUT: &[u8] = b"4\n4\nB\n>\n. . . .\n. W B .\n. B W .\n. . . .\n9 9\n1 2\n";

    fn expected() -> String {
        protocol::run(RuleSet::Full, INPUT).0
    }

    #[test]
    fn finds_the_first_differing_line() {
        let expected = expected();
        let expected = expected.as_bytes();
        assert_eq!(first_difference(expected, expected), None);
        let actual = [&expected[..expected.len() - 1]].concat();
        let lines = expected.split(|&b| b == b'\n').count() - 1;
        assert_eq!(
            first_difference(expected, &actual).unwrap().to_string(),
            format!("line {lines}: expected \"TURN: W\", got \"TURN: W\" (no newline at end)")
        );
        let long = [expected, b"extra\n"].concat();
        assert_eq!(
            first_difference(expected, &long).unwrap().to_string(),
            format!("line {}: expected end of output, got \"extra\"", lines + 1)
        );
        assert_eq!(
            first_difference(expected, b"FULL\r\n").unwrap().to_string(),
            r#"line 1: expected "FULL", got "FULL\r""#
        );
        let swapped = String::from_utf8(expected.to_vec())
            .unwrap()
            .replacen("INVALID", "VALID", 1);
        assert_eq!(
            first_difference(expected, swapped.as_bytes())
                .unwrap()
                .to_string(),
            r#"line 8: expected "INVALID", got "VALID""#
        );
    }

    #[test]
    fn names_the_input_line_behind_an_output_line() {
        let expected = expected();
        let explain = |line| explain_line(INPUT, expected.as_bytes(), line);
        assert_eq!(explain(1).unwrap(), "before any input was read");
        for line in 2..=7 {
            assert_eq!(explain(line).unwrap(), "after the setup (input lines 1-8)");
        }
        assert_eq!(explain(8).unwrap(), r#"after input line 9 "9 9""#);
        for line in 9..=15 {
            assert_eq!(explain(line).unwrap(), r#"after input line 10 "1 2""#);
        }
        assert_eq!(explain_line(INPUT, b"no banner\n", 3), None);
    }

    #[test]
    fn shortens_long_lines() {
        let long = "x".repeat(100);
        assert_eq!(quote(long.as_bytes()), format!("{:?}...", &long[..SHOWN]));
        assert_eq!(quote(b"a\tb"), r#""a\tb""#);
    }

    #[test]
    fn a_kill_by_the_checker_comes_before_the_exit_status_and_the_output() {
        use RunEnd::*;
        assert_eq!(Verdict::of(Exited { success: true }, true), Verdict::Pass);
        assert_eq!(Verdict::of(Exited { success: true }, false), Verdict::Fail);
        assert_eq!(Verdict::of(Exited { success: false }, true), Verdict::Crash);
        assert_eq!(Verdict::of(TimedOut, true), Verdict::Timeout);
        assert_eq!(Verdict::of(TooMuchOutput, true), Verdict::Fail);
        assert_eq!(Verdict::of(OutOfMemory, true), Verdict::Memory);
        assert_eq!(format!("{:<7}|", Verdict::Crash), "CRASH  |");
        assert_eq!(Verdict::Memory.name(), "MEMORY");
    }

    #[test]
    fn tells_running_out_of_memory_from_other_crashes() {
        assert!(ran_out_of_memory(
            b"awk: run time error: out of memory",
            None,
            100
        ));
        assert!(ran_out_of_memory(b"Traceback...\nMemoryError\n", None, 100));
        assert!(ran_out_of_memory(b"", Some(60), 100));
        assert!(!ran_out_of_memory(b"boom: something broke", Some(10), 100));
        assert!(!ran_out_of_memory(b"", None, 100));
    }

    #[test]
    fn marks_the_first_differing_column_with_blanks_visible() {
        let difference = first_difference(b"a\nB: 2  W: 2\n", b"a\nB: 2 W: 2\n").unwrap();
        assert_eq!(
            mark_difference(&difference),
            (
                6,
                "expected: B:·2··W:·2\nactual:   B:·2·W:·2\n               ^ column 6\n".to_owned()
            )
        );
        let tab = first_difference(b"x y\n", b"x\ty").unwrap();
        assert_eq!(
            mark_difference(&tab).1,
            "expected: x·y\nactual:   x→y (no newline at end)\n           ^ column 2\n"
        );
        let short = first_difference(b"abc\n", b"ab\n").unwrap();
        assert_eq!(mark_difference(&short).0, 3);
        let ended = first_difference(b"abc\n", b"").unwrap();
        assert_eq!(
            mark_difference(&ended).1,
            "expected: abc\nactual:   (end of output)\n          ^ column 1\n"
        );
    }

    #[test]
    fn shows_the_first_lines_of_an_input() {
        assert_eq!(
            input_head(b"4\n4\nB\n", 5),
            "     1 4\n     2 4\n     3 B\n"
        );
        assert!(
            input_head(b"1\n2\n3\n", 2).ends_with(
                "... 1 more lines (the whole input is attached where the report allows)\n"
            )
        );
    }

    #[test]
    fn excerpts_both_outputs_around_the_difference() {
        let expected = b"a\nb\nc\nd\ne\nf\n";
        let actual = b"a\nb\nc\nX\n";
        assert_eq!(
            excerpt(expected, actual, 4),
            "expected:\n     2 \"b\"\n     3 \"c\"\n>    4 \"d\"\n     5 \"e\"\n     6 \"f\"\n\
             actual:\n     2 \"b\"\n     3 \"c\"\n>    4 \"X\"\n"
        );
        assert_eq!(
            excerpt(b"a\nb\n", b"a\n", 2),
            "expected:\n     1 \"a\"\n>    2 \"b\"\nactual:\n     1 \"a\"\n>    2 (end of output)\n"
        );
    }
}
