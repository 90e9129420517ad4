//! Every protocol fixture through the built binary: standard output byte for byte against
//! `NAME.out`, the exit status against `NAME.status` (0 when absent) and standard error against
//! `NAME.err` (nothing when absent). The fixture files are the one source of truth.
//!
//! The fixtures are written by `fixtures/protocol/generate.py`, an implementation of the rules
//! that shares no code with the crate, so agreement here is agreement between two programs.

use std::fs;
use std::path::Path;
use std::process::Output;

use crate::support::{Fixture, fixture_root, othello};

/// Runs a fixture the way the specification does: `othello < NAME.in` for FULL,
/// `othello --rules simple < NAME.in` for SIMPLE.
fn replay(fixture: &Fixture) -> Output {
    let mut command = othello();
    if fixture.rules == "simple" {
        command.args(["--rules", "simple"]);
    }
    command.write_stdin(fixture.input.clone()).output().unwrap()
}

fn first_difference(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

#[test]
fn every_fixture_replays_byte_for_byte() {
    let fixtures = Fixture::all();
    assert!(
        fixtures.len() >= 80,
        "only {} fixtures found",
        fixtures.len()
    );
    let mut failures = Vec::new();
    for fixture in &fixtures {
        let output = replay(fixture);
        if output.stdout != fixture.stdout {
            let at = first_difference(&output.stdout, &fixture.stdout);
            failures.push(format!(
                "{}: stdout differs from byte {at}: got {:?}, expected {:?}",
                fixture.name,
                String::from_utf8_lossy(&output.stdout[at..(at + 40).min(output.stdout.len())]),
                String::from_utf8_lossy(&fixture.stdout[at..(at + 40).min(fixture.stdout.len())]),
            ));
        }
        if output.status.code() != Some(fixture.status) {
            failures.push(format!(
                "{}: exit status {:?}, expected {}",
                fixture.name,
                output.status.code(),
                fixture.status
            ));
        }
        if output.stderr != fixture.stderr {
            failures.push(format!(
                "{}: stderr {:?}, expected {:?}",
                fixture.name,
                String::from_utf8_lossy(&output.stderr),
                String::from_utf8_lossy(&fixture.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The fixture set describes itself: every file belongs to an input, a `.status` comes with
/// an `.err` and says 1 or 2, and every `.err` is one line naming an input line.
#[test]
fn fixture_files_are_consistent() {
    for dir in ["full", "simple"] {
        for entry in fs::read_dir(fixture_root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            assert!(
                ["in", "out", "status", "err"].contains(&ext),
                "stray file {}",
                path.display()
            );
            assert!(
                path.with_extension("in").exists(),
                "{} has no .in",
                path.display()
            );
        }
    }
    for fixture in Fixture::all() {
        assert_eq!(
            fixture.status != 0,
            !fixture.stderr.is_empty(),
            "{}: a non-zero status goes with a message, and only then",
            fixture.name
        );
        assert!([0, 1, 2].contains(&fixture.status), "{}", fixture.name);
        if fixture.status != 0 {
            let message = String::from_utf8(fixture.stderr.clone()).unwrap();
            assert!(message.starts_with("othello: line "), "{message}");
            assert_eq!(message.lines().count(), 1, "{message}");
            assert!(message.ends_with('\n'), "{message}");
        }
        let banner: &[u8] = if fixture.rules == "full" {
            b"FULL\n"
        } else {
            b"SIMPLE\n"
        };
        assert!(fixture.stdout.starts_with(banner), "{}", fixture.name);
    }
}

/// The spec examples in the fixtures are the specification's own files. The specification lives
/// beside the repository (`../shared/spec/examples`), so this test is opt-in; `.ci/run` runs it.
#[test]
#[ignore = "needs ../shared/spec beside the repository: run with -- --ignored spec_examples"]
fn spec_examples_are_the_specifications() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/spec/examples");
    assert!(
        examples.is_dir(),
        "{} not found: the specification must be beside the repository",
        examples.display()
    );
    for rules in ["full", "simple"] {
        for ext in ["in", "out"] {
            let ours = fixture_root().join(format!("{rules}/spec-example.{ext}"));
            let theirs = examples.join(format!("{rules}.{ext}"));
            assert_eq!(
                fs::read(&ours).unwrap(),
                fs::read(&theirs).unwrap(),
                "{} differs from {}",
                ours.display(),
                theirs.display()
            );
        }
    }
}
