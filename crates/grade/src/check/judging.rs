//! One case of one program: run it, then judge what it printed and how it ended.

use std::ffi::OsString;
use std::io;
use std::path::PathBuf;
use std::process::ExitStatus;

use othello_contain::{Containment, View};

use othello::protocol::lines;

use super::CheckError;
use super::cases::CaseFiles;
use super::running::{Ending, ExecuteError, Launch, Limits, Run, execute};
use crate::report::{CaseOutcome, DifferenceText};
use crate::{
    RunEnd, Verdict, excerpt, explain_line, first_difference, mark_difference, quote,
    ran_out_of_memory,
};

/// A program under test: its command line and the directory it runs in.
#[derive(Clone, Debug)]
pub(super) struct Program {
    /// Its name in the reports.
    pub name: String,
    /// The directory as given (`--each`), for the reports.
    pub shown_directory: Option<String>,
    /// The directory it runs in, absolute.
    pub directory: Option<PathBuf>,
    /// The command line, with a relative program path (`./run.sh`) made absolute in
    /// `directory`.
    pub command: Vec<OsString>,
    /// What its tree sees of the file system: the cases and the other submissions hidden (or
    /// read-only where they cannot be hidden).
    pub view: View,
}

/// `command` to run from a working directory of its own: its program, when given as a relative
/// path with a directory (`./run.sh`), and each later word not an option that names a file or
/// directory relative to `base` (`main.py`) are made absolute in `base`.
pub(super) fn resolve_command(command: &[OsString], base: &std::path::Path) -> Vec<OsString> {
    let mut resolved = command.to_vec();
    let program = std::path::Path::new(&command[0]);
    if program.is_relative() && program.components().count() > 1 {
        resolved[0] = base.join(program).into_os_string();
    }
    for word in &mut resolved[1..] {
        let path = std::path::Path::new(word);
        if path.is_relative()
            && !word.to_string_lossy().starts_with('-')
            && base.join(path).exists()
        {
            *word = base.join(path).into_os_string();
        }
    }
    resolved
}

/// Runs one case and judges it. A program that cannot be found or run is an error (the run's
/// usage, unless `--each` makes it the submission's: see [`not_started`]); one that the machine
/// has no resources to start (`EAGAIN` from fork or a thread: a fork bomb elsewhere) is this
/// case's verdict, and the other cases are graded.
pub(super) fn check_case(
    case: &CaseFiles,
    program: &Program,
    limits: &Limits,
    containment: &Containment,
) -> Result<CaseOutcome, CheckError> {
    let expected = &case.expected;
    let cap = 2 * expected.len() + 4096;
    let launch = Launch {
        command: &program.command,
        submission: program.directory.as_deref(),
        containment,
        view: &program.view,
    };
    let run = match execute(&launch, case.stdin.to_vec(), cap, limits) {
        Ok(run) => run,
        Err(ExecuteError::Program(source))
            if matches!(
                source.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::PermissionDenied
            ) =>
        {
            return Err(CheckError::Spawn {
                command: program.command[0].to_string_lossy().into_owned(),
                source,
            });
        }
        Err(ExecuteError::Program(source) | ExecuteError::Threads(source)) => {
            return Ok(not_started(
                case,
                &format!("could not be started: {}", plain_os_error(&source)),
            ));
        }
    };
    Ok(judge(case, &case.stdin, expected, &run, cap, limits))
}

/// An operating system's error without Rust's ` (os error 11)`.
fn plain_os_error(error: &io::Error) -> String {
    let text = error.to_string();
    match text.find(" (os error") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

/// The outcome of a case whose program could not be started: a crash, worth nothing, with why.
pub(super) fn not_started(case: &CaseFiles, why: &str) -> CaseOutcome {
    CaseOutcome {
        name: case.name.clone(),
        verdict: Verdict::Crash,
        detail: Some(why.to_owned()),
        points: case.points,
        seconds: 0.0,
        cpu_seconds: None,
        input: String::from_utf8_lossy(&case.stdin).into_owned(),
        exit: None,
        stderr: String::new(),
        peak_memory_kib: None,
        difference: None,
    }
}

/// How the run ended, for the verdict: the checker's kills first, then the kernel's CPU-time
/// limit (TIMEOUT), then the memory limit (MEMORY), then the exit status.
fn run_end(run: &Run, limits: &Limits) -> RunEnd {
    match &run.ending {
        Ending::TimedOut => RunEnd::TimedOut,
        Ending::Overflowed => RunEnd::TooMuchOutput,
        Ending::Exited(_) if run.out_of_memory => RunEnd::OutOfMemory,
        Ending::Exited(status) if status.is_some_and(|status| status.success()) => {
            RunEnd::Exited { success: true }
        }
        Ending::Exited(_) => {
            if over_cpu_time(run, limits) {
                RunEnd::TimedOut
            } else if limits.memory_mb.is_some_and(|mb| {
                ran_out_of_memory(
                    &run.stderr,
                    run.usage.map(|usage| usage.peak_kib),
                    mb * 1024,
                )
            }) {
                RunEnd::OutOfMemory
            } else {
                RunEnd::Exited { success: false }
            }
        }
    }
}

/// Whether a run that ended abnormally used up its CPU time (`--cpu-time`).
fn over_cpu_time(run: &Run, limits: &Limits) -> bool {
    let Some(limit) = limits.cpu_seconds else {
        return false;
    };
    #[cfg(unix)]
    if let Ending::Exited(Some(status)) = &run.ending
        && std::os::unix::process::ExitStatusExt::signal(status) == Some(libc::SIGXCPU)
    {
        return true;
    }
    run.usage
        .is_some_and(|usage| usage.cpu_seconds >= limit as f64)
}

/// The verdict on a run, with what went wrong.
fn judge(
    case: &CaseFiles,
    input: &[u8],
    expected: &[u8],
    run: &Run,
    cap: usize,
    limits: &Limits,
) -> CaseOutcome {
    let difference = first_difference(expected, &run.stdout);
    let answered = difference
        .as_ref()
        .and_then(|difference| explain_line(input, expected, difference.line));
    let end = run_end(run, limits);
    let verdict = Verdict::of(end, difference.is_none());
    let exit = match &run.ending {
        Ending::Exited(status) => Some(status.map_or("exit status unknown".into(), describe_exit)),
        Ending::TimedOut | Ending::Overflowed => None,
    };
    let detail = (verdict != Verdict::Pass).then(|| {
        let mut notes = match (&run.ending, end) {
            (Ending::TimedOut, _) => vec![format!(
                "still running after {} s, killed",
                limits.timeout.as_secs_f64()
            )],
            (Ending::Overflowed, _) => vec![format!(
                "printed more than {cap} bytes (expected {}), killed",
                expected.len()
            )],
            (Ending::Exited(_), RunEnd::Exited { success: true }) => Vec::new(),
            (Ending::Exited(_), end) => {
                let mut notes = Vec::new();
                match end {
                    RunEnd::TimedOut => notes.push(format!(
                        "used more than {} s of CPU time",
                        limits.cpu_seconds.unwrap_or_default()
                    )),
                    RunEnd::OutOfMemory => notes.push(format!(
                        "ran out of memory (limit {} MB)",
                        limits.memory_mb.unwrap_or_default()
                    )),
                    _ => {}
                }
                notes.extend(exit.clone());
                if run.hit_process_cap {
                    notes.push(format!(
                        "hit the process limit ({}, --max-processes)",
                        limits.max_processes.unwrap_or_default()
                    ));
                }
                if let Some(line) = first_stderr_line(&run.stderr) {
                    notes.push(format!("stderr {line}"));
                }
                notes
            }
        };
        match &difference {
            Some(difference) => {
                let mut text = difference.to_string();
                if let Some(answered) = &answered {
                    text.push_str("; ");
                    text.push_str(answered);
                }
                notes.push(text);
            }
            None => notes.push("output as expected".into()),
        }
        notes.join("; ")
    });
    let text = |line: Option<&[u8]>| line.map(|line| String::from_utf8_lossy(line).into_owned());
    CaseOutcome {
        name: case.name.clone(),
        verdict,
        detail,
        points: case.points,
        seconds: run.elapsed.as_secs_f64(),
        cpu_seconds: run.usage.map(|usage| usage.cpu_seconds),
        input: String::from_utf8_lossy(input).into_owned(),
        exit,
        stderr: String::from_utf8_lossy(&run.stderr[..run.stderr.len().min(STDERR_SHOWN)])
            .into_owned(),
        peak_memory_kib: run.usage.map(|usage| usage.peak_kib),
        difference: difference.map(|difference| {
            let (column, marked) = mark_difference(&difference);
            DifferenceText {
                column,
                marked,
                line: difference.line,
                expected: text(difference.expected),
                actual: text(difference.actual),
                cause: answered,
                excerpt: excerpt(expected, &run.stdout, difference.line),
            }
        }),
    }
}

/// Standard error kept in a case's outcome for the reports.
const STDERR_SHOWN: usize = 1024;

fn describe_exit(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exit status {code}");
    }
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        let name = match signal {
            libc::SIGABRT => " (SIGABRT)",
            libc::SIGBUS => " (SIGBUS)",
            libc::SIGFPE => " (SIGFPE)",
            libc::SIGILL => " (SIGILL)",
            libc::SIGKILL => " (SIGKILL)",
            libc::SIGPIPE => " (SIGPIPE)",
            libc::SIGSEGV => " (SIGSEGV)",
            libc::SIGTERM => " (SIGTERM)",
            libc::SIGXCPU => " (SIGXCPU)",
            _ => "",
        };
        return format!("killed by signal {signal}{name}");
    }
    format!("abnormal exit ({status})")
}

fn first_stderr_line(stderr: &[u8]) -> Option<String> {
    lines(stderr)
        .map(<[u8]>::trim_ascii)
        .find(|line| !line.is_empty())
        .map(quote)
}
