//! The `JUnit` XML report, as CI systems and classroom runners read it: a `testsuites` root, one
//! `testsuite` per program, one `testcase` per case with its time, and for a case that did not
//! pass a `failure` (FAIL: wrong output) or an `error` (CRASH, TIMEOUT, MEMORY) whose `type` is
//! the verdict, whose `message` is the verdict's detail and whose text is the excerpt around the
//! first difference and the start of standard error, and whose `system-out` is the case's whole
//! input. A suite's `time` is the wall time of the program's run (its cases run in parallel).
//!
//! Written by hand: the document is small and fixed, and the one thing that needs care, escaping,
//! is [`escape`]: the five markup characters, and the characters XML 1.0 forbids anywhere
//! (control characters other than tab, line feed and carriage return, and U+FFFE/U+FFFF), which
//! a program's output may well hold; they are written as the visible text `\u{..}`.

use super::Verdict;
use super::report::{CaseOutcome, ProgramOutcome};

/// The report of every program, with an XML declaration and a final newline.
#[must_use]
pub fn junit(programs: &[ProgramOutcome]) -> String {
    let scorecards: Vec<_> = programs.iter().map(ProgramOutcome::scorecard).collect();
    let sum =
        |count: fn(&super::report::Scorecard) -> usize| scorecards.iter().map(count).sum::<usize>();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.push_str(&format!(
        "<testsuites name=\"othello check\" tests=\"{}\" failures=\"{}\" errors=\"{}\" time=\"{:.3}\">\n",
        sum(|scorecard| scorecard.cases),
        sum(|scorecard| scorecard.failed),
        sum(|scorecard| scorecard.timed_out + scorecard.crashed + scorecard.memory),
        programs
            .iter()
            .map(|program| program.wall_seconds)
            .fold(0.0, f64::max),
    ));
    for (program, scorecard) in programs.iter().zip(&scorecards) {
        let name = escape(&program.name, true);
        xml.push_str(&format!(
            "  <testsuite name=\"{name}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"0\" time=\"{:.3}\">\n",
            scorecard.cases,
            scorecard.failed,
            scorecard.timed_out + scorecard.crashed + scorecard.memory,
            program.wall_seconds,
        ));
        for case in &program.cases {
            testcase(&mut xml, &name, case);
        }
        xml.push_str("  </testsuite>\n");
    }
    xml.push_str("</testsuites>\n");
    xml
}

fn testcase(xml: &mut String, suite: &str, case: &CaseOutcome) {
    let open = format!(
        "    <testcase name=\"{}\" classname=\"{suite}\" time=\"{:.3}\"",
        escape(&case.name, true),
        case.seconds
    );
    let element = match case.verdict {
        Verdict::Pass => {
            xml.push_str(&open);
            xml.push_str("/>\n");
            return;
        }
        Verdict::Fail => "failure",
        Verdict::Timeout | Verdict::Crash | Verdict::Memory => "error",
    };
    xml.push_str(&open);
    xml.push_str(">\n");
    xml.push_str(&format!(
        "      <{element} type=\"{}\" message=\"{}\">{}</{element}>\n",
        case.verdict.name(),
        escape(case.detail.as_deref().unwrap_or_default(), true),
        escape(&case.explanation(), false),
    ));
    xml.push_str(&format!(
        "      <system-out>{}</system-out>\n",
        escape(&case.input, false)
    ));
    xml.push_str("    </testcase>\n");
}

/// `text` as XML character data, or as an attribute value with `attribute` (where line breaks
/// and tabs are written as character references, so that attribute-value normalisation keeps
/// them).
#[must_use]
pub fn escape(text: &str, attribute: bool) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' if attribute => escaped.push_str("&quot;"),
            '\n' if attribute => escaped.push_str("&#10;"),
            '\r' => escaped.push_str("&#13;"),
            '\t' if attribute => escaped.push_str("&#9;"),
            '\t' | '\n' => escaped.push(c),
            c if c < ' ' || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                escaped.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
            }
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_characters_xml_forbids() {
        assert_eq!(
            escape("a<b>&\"c\"\n\t\r\u{1b}[0m\u{0}\u{FFFF}é", true),
            "a&lt;b&gt;&amp;&quot;c&quot;&#10;&#9;&#13;\\u{1b}[0m\\u{0}\\u{ffff}é"
        );
        assert_eq!(escape("\"x\"\n\ty", false), "\"x\"\n\ty");
    }
}
