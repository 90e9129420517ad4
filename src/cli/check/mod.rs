//! `othello check`: runs a program on every case of a directory and compares what it prints
//! with the expected transcript, byte for byte.
//!
//! Each case runs in a child process of its own, in its own process group (so that whatever it
//! starts can be killed with it), with four helper threads: one feeds standard input (a program
//! that never reads cannot block the checker), two drain standard output and standard error
//! (output is capped at twice the expected size plus 4 KiB), and one waits for the exit. They
//! report to the case's thread over a channel, which waits with a deadline, so a program that
//! hangs, floods its output or leaves children behind is killed and reported, never waited on.

use std::ffi::OsString;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use thiserror::Error;

use othello::RuleSet;
use othello::grade::{RunEnd, Verdict, explain_line, first_difference, quote};
use othello::protocol::{banner, lines};

use super::{Failure, RulesArg, progress};

/// Runs COMMAND once per DIR/NAME.in, with the file on standard input, and compares its standard
/// output with DIR/NAME.out byte for byte.
///
/// Prints one line per case (PASS, FAIL, TIMEOUT or CRASH; for a difference, the first differing
/// line, the expected and actual text, and the input line that led there), then `N passed,
/// M failed`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 every case passed, 1 some case did not, 2 bad usage \
(DIR missing or without cases, a NAME.in without NAME.out, a transcript of the other rule set, \
COMMAND not found)."
)]
pub struct CheckArgs {
    /// The rule set the cases were made for: every NAME.out must start with its name (FULL or
    /// SIMPLE), otherwise nothing runs. COMMAND must be given the same rule set itself.
    #[arg(long, value_enum)]
    rules: Option<RulesArg>,

    /// Cases run at once [default: the number of cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,

    /// Seconds a case may take before it is killed and reported as TIMEOUT (fractions allowed).
    #[arg(long, value_name = "SECS", default_value_t = 10.0, value_parser = parse_timeout)]
    timeout: f64,

    /// Directory of cases: NAME.in, and the expected output NAME.out beside it.
    #[arg(value_name = "DIR")]
    dir: PathBuf,

    /// The program to test and its arguments, after `--`.
    #[arg(last = true, required = true, value_name = "COMMAND")]
    command: Vec<OsString>,
}

fn parse_timeout(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(secs) if secs > 0.0 && Duration::try_from_secs_f64(secs).is_ok() => Ok(secs),
        _ => Err(format!(
            "expected a positive number of seconds, found {text:?}"
        )),
    }
}

/// Why `othello check` could not check.
#[derive(Debug, Error)]
pub enum CheckError {
    /// The case directory cannot be listed.
    #[error("cannot read directory {}: {source}", .dir.display())]
    Directory {
        /// The directory given.
        dir: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// The directory holds no `NAME.in` file.
    #[error("{} holds no test cases (NAME.in files)", .dir.display())]
    NoCases {
        /// The directory given.
        dir: PathBuf,
    },
    /// A case input has no expected output beside it.
    #[error("{} has no expected output {}", .input.display(), .output.display())]
    MissingOutput {
        /// The input file.
        input: PathBuf,
        /// The expected-output file that is missing.
        output: PathBuf,
    },
    /// An expected output is not a transcript of the rule set given with `--rules`.
    #[error("{} is not a transcript of the {expected} rules (--rules): its first line is {found:?}", .output.display())]
    WrongRules {
        /// The expected-output file.
        output: PathBuf,
        /// The rule set given.
        expected: RuleSet,
        /// Its first line.
        found: String,
    },
    /// A case file cannot be read.
    #[error("cannot read {}: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// The program cannot be started.
    #[error("cannot run {command:?}: {source}")]
    Spawn {
        /// The program named after `--`.
        command: String,
        /// What went wrong.
        source: io::Error,
    },
    /// The checker could not start its own threads (or signal handler).
    #[error("cannot start the checker's threads: {0}")]
    Threads(io::Error),
}

impl CheckError {
    /// 2 for bad usage (no cases, a missing file, a program that does not exist or may not be
    /// run), 1 for a failure of the machine while checking (no threads or processes to be had).
    pub fn exit_status(&self) -> u8 {
        match self {
            CheckError::Spawn { source, .. }
                if !matches!(
                    source.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::PermissionDenied
                ) =>
            {
                1
            }
            CheckError::Threads(_) => 1,
            _ => 2,
        }
    }
}

/// One case: `NAME.in` and `NAME.out`.
#[derive(Clone, Debug)]
struct CaseFiles {
    name: String,
    input: PathBuf,
    output: PathBuf,
}

/// Finds the cases of `dir`, in natural order (numeric names by value).
fn find_cases(dir: &Path) -> Result<Vec<CaseFiles>, CheckError> {
    let directory_error = |source| CheckError::Directory {
        dir: dir.to_owned(),
        source,
    };
    let mut cases = Vec::new();
    for entry in fs::read_dir(dir).map_err(directory_error)? {
        let path = entry.map_err(directory_error)?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(stem) = name.strip_suffix(".in") else {
            continue;
        };
        if stem.is_empty() || stem.starts_with('.') || !path.is_file() {
            continue;
        }
        let output = dir.join(format!("{stem}.out"));
        if !output.is_file() {
            return Err(CheckError::MissingOutput {
                input: path,
                output,
            });
        }
        cases.push(CaseFiles {
            name: stem.to_owned(),
            input: path,
            output,
        });
    }
    if cases.is_empty() {
        return Err(CheckError::NoCases {
            dir: dir.to_owned(),
        });
    }
    cases.sort_by(|a, b| natural_key(&a.name).cmp(&natural_key(&b.name)));
    Ok(cases)
}

/// Numeric names first, by value; then the others by name.
fn natural_key(name: &str) -> (bool, usize, &str, &str) {
    let numeric = !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit());
    if numeric {
        let value = name.trim_start_matches('0');
        (false, value.len(), value, name)
    } else {
        (true, 0, "", name)
    }
}

/// Checks that every expected output starts with the banner of `rules`.
fn check_rules(cases: &[CaseFiles], rules: RuleSet) -> Result<(), CheckError> {
    let want = banner(rules).as_bytes();
    for case in cases {
        let read_error = |source| CheckError::Read {
            path: case.output.clone(),
            source,
        };
        let mut start = Vec::with_capacity(want.len());
        fs::File::open(&case.output)
            .map_err(read_error)?
            .take(64)
            .read_to_end(&mut start)
            .map_err(read_error)?;
        if !start.starts_with(want) {
            let first = start.split(|&b| b == b'\n').next().unwrap_or_default();
            return Err(CheckError::WrongRules {
                output: case.output.clone(),
                expected: rules,
                found: String::from_utf8_lossy(first).into_owned(),
            });
        }
    }
    Ok(())
}

/// Runs the check and prints the report.
#[expect(
    clippy::needless_pass_by_value,
    reason = "every command's `run` takes its parsed arguments"
)]
pub fn run(args: CheckArgs) -> Result<(), Failure> {
    let cases = find_cases(&args.dir)?;
    if let Some(rules) = args.rules {
        check_rules(&cases, rules.into())?;
    }
    let jobs = match args.jobs {
        Some(jobs) => jobs as usize,
        None => thread::available_parallelism().map_or(1, std::num::NonZero::get),
    };
    let limits = Limits {
        timeout: Duration::from_secs_f64(args.timeout),
    };
    stop_children_on_interrupt()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.min(cases.len()))
        .thread_name(|index| format!("case runner {index}"))
        .build()
        .map_err(|error| CheckError::Threads(io::Error::other(error)))?;
    let bar = progress::bar(cases.len() as u64, "cases");

    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel();
    let mut printer = Printer::new(cases.len());
    let mut error = None;
    pool.in_place_scope(|scope| {
        for _ in 0..pool.current_num_threads() {
            let sender = sender.clone();
            let (cases, command, next, stop) = (&cases, &args.command, &next, &stop);
            scope.spawn(move |_| {
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(case) = cases.get(index) else { break };
                    let result = check_case(case, command, limits);
                    if result.is_err() {
                        stop.store(true, Ordering::Relaxed);
                    }
                    if sender.send((index, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (index, result) in receiver {
            bar.inc(1);
            match result {
                Ok(report) => {
                    if let Err(failure) = bar.suspend(|| printer.add(index, report, &cases)) {
                        stop.store(true, Ordering::Relaxed);
                        error.get_or_insert(failure);
                    }
                }
                Err(failure) => {
                    error.get_or_insert(Failure::from(failure));
                }
            }
        }
    });
    bar.finish_and_clear();
    if let Some(error) = error {
        return Err(error);
    }
    let failed = cases.len() - printer.passed;
    writeln!(io::stdout(), "{} passed, {failed} failed", printer.passed).map_err(Failure::Write)?;
    if failed > 0 {
        return Err(Failure::CasesFailed {
            failed,
            total: cases.len(),
        });
    }
    Ok(())
}

/// The process groups of the programs running now, by the id of their leader.
static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// On SIGINT, SIGTERM or SIGHUP, kills every program still running (each leads a process group
/// of its own, which the terminal's Ctrl-C does not reach) and exits with status 130.
fn stop_children_on_interrupt() -> Result<(), CheckError> {
    ctrlc::set_handler(|| {
        // Held until the exit, so no program can be started after the kills.
        let running = RUNNING
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for &pid in running.iter() {
            kill_process_group(pid);
        }
        eprintln!(
            "\nothello: interrupted; stopped {} running cases",
            running.len()
        );
        std::process::exit(130);
    })
    .map_err(|error| CheckError::Threads(io::Error::other(error)))
}

/// Prints reports in case order as they arrive in any order.
struct Printer {
    pending: Vec<Option<Report>>,
    next: usize,
    passed: usize,
}

impl Printer {
    fn new(cases: usize) -> Printer {
        Printer {
            pending: vec![None; cases],
            next: 0,
            passed: 0,
        }
    }

    fn add(&mut self, index: usize, report: Report, cases: &[CaseFiles]) -> Result<(), Failure> {
        self.pending[index] = Some(report);
        let mut stdout = io::stdout().lock();
        while let Some(Some(report)) = self.pending.get_mut(self.next).map(Option::take) {
            if report.verdict == Verdict::Pass {
                self.passed += 1;
            }
            let name = &cases[self.next].name;
            let line = match &report.detail {
                Some(detail) => format!("{:<7} {name}  {detail}\n", report.verdict),
                None => format!("{:<7} {name}\n", report.verdict),
            };
            stdout.write_all(line.as_bytes()).map_err(Failure::Write)?;
            self.next += 1;
        }
        Ok(())
    }
}

/// A verdict and, unless it passed, what went wrong.
#[derive(Clone, Debug)]
struct Report {
    verdict: Verdict,
    detail: Option<String>,
}

#[derive(Clone, Copy, Debug)]
struct Limits {
    timeout: Duration,
}

/// Runs one case and judges it.
fn check_case(
    case: &CaseFiles,
    command: &[OsString],
    limits: Limits,
) -> Result<Report, CheckError> {
    let read = |path: &Path| {
        fs::read(path).map_err(|source| CheckError::Read {
            path: path.to_owned(),
            source,
        })
    };
    let input = read(&case.input)?;
    let expected = read(&case.output)?;
    let cap = 2 * expected.len() + 4096;
    let run = match execute(command, input.clone(), cap, limits.timeout) {
        Ok(run) => run,
        Err(ExecuteError::Program(source)) => {
            return Err(CheckError::Spawn {
                command: command[0].to_string_lossy().into_owned(),
                source,
            });
        }
        Err(ExecuteError::Threads(source)) => return Err(CheckError::Threads(source)),
    };
    Ok(judge(&input, &expected, &run, cap, limits))
}

/// How a run ended.
#[derive(Debug)]
enum Ending {
    /// The program exited (the status is `None` if it could not be collected).
    Exited(Option<ExitStatus>),
    /// Killed at the deadline.
    TimedOut,
    /// Killed for printing more than the cap.
    Overflowed,
}

/// What a program did with one input.
#[derive(Debug)]
struct Run {
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    ending: Ending,
}

/// Messages from the helper threads of one run.
enum Event {
    Exited(Option<ExitStatus>),
    StdoutClosed { overflow: bool },
    StderrClosed,
}

/// How long to wait for the helper threads after killing a program: only processes that left
/// its process group could keep its pipes open longer.
const GRACE: Duration = Duration::from_secs(1);

/// Standard error kept for the report.
const STDERR_CAP: usize = 4096;

/// Why a program could not be run.
#[derive(Debug)]
enum ExecuteError {
    /// The program could not be started.
    Program(io::Error),
    /// The checker could not start the threads that feed and watch it.
    Threads(io::Error),
}

/// Runs `command` with `input` on standard input until it exits and closes its output, prints
/// more than `cap` bytes, or `timeout` passes.
fn execute(
    command: &[OsString],
    input: Vec<u8>,
    cap: usize,
    timeout: Duration,
) -> Result<Run, ExecuteError> {
    let mut process = Command::new(&command[0]);
    process
        .args(&command[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut process, 0);
    let deadline = Instant::now() + timeout;
    let (child, pid) = {
        let mut running = RUNNING
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let child = process.spawn().map_err(ExecuteError::Program)?;
        let pid = child.id();
        running.push(pid);
        (child, pid)
    };
    let result = supervise(child, pid, input, cap, deadline);
    if result.is_err() {
        kill_process_group(pid);
    }
    RUNNING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .retain(|&running| running != pid);
    result.map_err(ExecuteError::Threads)
}

/// Feeds, drains and waits for a started program (see [`execute`]); fails only when a helper
/// thread cannot be started.
fn supervise(
    mut child: Child,
    pid: u32,
    input: Vec<u8>,
    cap: usize,
    deadline: Instant,
) -> io::Result<Run> {
    let (events, received) = mpsc::channel();

    let stdin = child.stdin.take();
    helper(move || {
        if let Some(mut stdin) = stdin {
            // A program may stop reading early; that is for the verdict to judge.
            let _ = stdin.write_all(&input);
        }
    })?;
    let stdout = Arc::new(Mutex::new(Vec::new()));
    if let Some(pipe) = child.stdout.take() {
        let (buffer, events) = (Arc::clone(&stdout), events.clone());
        helper(move || {
            let overflow = drain(pipe, &buffer, cap, true);
            let _ = events.send(Event::StdoutClosed { overflow });
        })?;
    }
    let stderr = Arc::new(Mutex::new(Vec::new()));
    if let Some(pipe) = child.stderr.take() {
        let (buffer, events) = (Arc::clone(&stderr), events.clone());
        helper(move || {
            drain(pipe, &buffer, STDERR_CAP, false);
            let _ = events.send(Event::StderrClosed);
        })?;
    }
    helper(move || {
        let _ = events.send(Event::Exited(child.wait().ok()));
    })?;

    let (mut status, mut stdout_open, mut stderr_open) = (None, true, true);
    let mut killed = None;
    let mut wait_until = deadline;
    while status.is_none() || stdout_open || stderr_open {
        match received.recv_timeout(wait_until.saturating_duration_since(Instant::now())) {
            Ok(Event::Exited(exit)) => status = Some(exit),
            Ok(Event::StdoutClosed { overflow }) => {
                stdout_open = false;
                if overflow && killed.is_none() {
                    kill_process_group(pid);
                    killed = Some(Ending::Overflowed);
                    wait_until = Instant::now() + GRACE;
                }
            }
            Ok(Event::StderrClosed) => stderr_open = false,
            Err(mpsc::RecvTimeoutError::Timeout) if killed.is_none() => {
                kill_process_group(pid);
                killed = Some(Ending::TimedOut);
                wait_until = Instant::now() + GRACE;
            }
            Err(_) => break,
        }
    }
    let take = |buffer: &Mutex<Vec<u8>>| {
        std::mem::take(
            &mut *buffer
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    };
    Ok(Run {
        stdout: take(&stdout),
        stderr: take(&stderr),
        ending: killed.unwrap_or(Ending::Exited(status.flatten())),
    })
}

/// Starts a detached helper thread: one that is stuck on a pipe held open by an escaped
/// process must not hold up the checker.
fn helper(work: impl FnOnce() + Send + 'static) -> io::Result<()> {
    thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(work)
        .map(drop)
}

/// Reads `pipe` to its end, keeping the first `cap` bytes in `buffer`. With `stop_at_cap`, stops
/// at the first byte past the cap and returns true; otherwise reads on and discards the rest.
fn drain(mut pipe: impl Read, buffer: &Mutex<Vec<u8>>, cap: usize, stop_at_cap: bool) -> bool {
    let mut chunk = vec![0; 64 * 1024];
    loop {
        let read = match pipe.read(&mut chunk) {
            Ok(0) => return false,
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return false,
        };
        let mut kept = buffer
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let room = cap.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..read.min(room)]);
        if read > room && stop_at_cap {
            return true;
        }
    }
}

/// Kills the program and everything it started in its process group.
#[cfg(unix)]
fn kill_process_group(pid: u32) {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return;
    };
    // SAFETY: kill(2) has no memory-safety preconditions. The child leads its own process group
    // (see `execute`), whose id is its pid, so the negative pid names exactly that group.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
}

/// Kills the program and the processes it started.
#[cfg(not(unix))]
fn kill_process_group(pid: u32) {
    let _ = Command::new("taskkill")
        .args(["/F", "/T", "/PID", &pid.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// The verdict on a run, with what went wrong.
fn judge(input: &[u8], expected: &[u8], run: &Run, cap: usize, limits: Limits) -> Report {
    let difference = first_difference(expected, &run.stdout).map(|difference| {
        let mut text = difference.to_string();
        if let Some(cause) = explain_line(input, expected, difference.line) {
            text.push_str("; ");
            text.push_str(&cause);
        }
        text
    });
    let end = match &run.ending {
        Ending::TimedOut => RunEnd::TimedOut,
        Ending::Overflowed => RunEnd::TooMuchOutput,
        Ending::Exited(status) => RunEnd::Exited {
            success: status.is_some_and(|status| status.success()),
        },
    };
    let verdict = Verdict::of(end, difference.is_none());
    let mut notes = match &run.ending {
        _ if verdict == Verdict::Pass => {
            return Report {
                verdict,
                detail: None,
            };
        }
        Ending::TimedOut => vec![format!(
            "still running after {} s, killed",
            limits.timeout.as_secs_f64()
        )],
        Ending::Overflowed => vec![format!(
            "printed more than {cap} bytes (expected {}), killed",
            expected.len()
        )],
        Ending::Exited(_) if verdict == Verdict::Fail => Vec::new(),
        Ending::Exited(status) => {
            let mut notes = vec![status.map_or("exit status unknown".into(), describe_exit)];
            if let Some(line) = first_stderr_line(&run.stderr) {
                notes.push(format!("stderr {line}"));
            }
            notes
        }
    };
    match difference {
        Some(difference) => notes.push(difference),
        None => notes.push("output as expected".into()),
    }
    Report {
        verdict,
        detail: Some(notes.join("; ")),
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_numeric_names_by_value() {
        let mut names = vec!["b", "10000", "0002", "9999", "a", "0010", "13", "0012"];
        names.sort_by_key(|name| natural_key(name));
        assert_eq!(
            names,
            vec!["0002", "0010", "0012", "13", "9999", "10000", "a", "b"]
        );
    }
}
