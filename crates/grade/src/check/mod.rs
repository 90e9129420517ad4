//! `othello check`: runs a program on every case of a directory and compares what it prints
//! with the expected transcript, byte for byte.
//!
//! Each case runs in a child process of its own, contained (`othello_contain`: a cgroup and a PID
//! namespace of its own where the host allows, PID and user namespaces for a user who is not
//! root, else its own process group, so that whatever it starts can be killed with it), in a
//! fresh working directory, with four helper threads: one feeds standard input (a program
//! that never reads cannot block the checker), two drain standard output and standard error
//! (output is capped at twice the expected size plus 4 KiB), and one waits for the exit. They
//! report to the case's thread over a channel, which waits with a deadline, so a program that
//! hangs, floods its output or leaves children behind is killed and reported, never waited on.
//!
//! With `--each` it grades a class: every submission directory against the same cases, their
//! cases interleaved fairly on the same workers (`schedule`), a summary table instead of the
//! per-case lines. `--report FORMAT=FILE` writes the machine-readable reports where it says
//! (`report_targets`).

mod cases;
mod each;
mod judging;
mod report_targets;
mod run_as;
mod running;
mod schedule;
mod view;

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::PathBuf;
use std::thread;
use std::time::{Duration, Instant};

use thiserror::Error;

use othello::RuleSet;
use othello_contain::View;
use othello_io::options::RulesArg;
use othello_io::progress;

use crate::GradeError;
use crate::report::{CaseOutcome, ProgramOutcome, Settings};
use cases::{assign_points, check_rules, find_cases};
use judging::{Program, resolve_command};
use report_targets::{ReportTarget, parse_report_target};
use running::{Limits, stop_children_on_interrupt};
use schedule::{Plan, run_plan};

/// Runs COMMAND once per DIR/NAME.in, with the file on standard input, and compares its standard
/// output with DIR/NAME.out byte for byte.
///
/// Prints one line per case (PASS, FAIL, TIMEOUT or CRASH; for a difference, the first differing
/// line, the expected and actual text, and the input line that led there), then `N passed,
/// M failed`. With `--each`, runs every submission directory (COMMAND in each) and prints one
/// summary line per submission instead.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 every case passed, 1 some case did not (or a report could not be \
written), 2 bad usage (DIR missing or without cases, a NAME.in without NAME.out, a transcript of \
the other rule set, COMMAND not found, bad points or weights, --each naming no directory, a \
--report directory that does not exist, a --writable that is not a directory)."
)]
pub struct CheckArgs {
    /// The rule set the cases were made for: every NAME.out must start with its name (FULL or
    /// SIMPLE), otherwise nothing runs. COMMAND must be given the same rule set itself.
    #[arg(long, value_enum, ignore_case = true)]
    rules: Option<RulesArg>,

    /// Cases run at once [default: the number of cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,

    /// Seconds a case may take before it is killed and reported as TIMEOUT (fractions allowed).
    #[arg(long, value_name = "SECS", default_value_t = 10.0, value_parser = parse_timeout)]
    timeout: f64,

    /// CPU seconds each process of a case may use (Unix only): past it the process is
    /// killed and the case reported as TIMEOUT.
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u64).range(1..))]
    cpu_time: Option<u64>,

    /// Megabytes of address space each process of a case may use (Unix only): a case that
    /// runs out is reported as MEMORY.
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
    memory: Option<u64>,

    /// Processes and threads a case's program may have at once, all it starts included (Linux
    /// with cgroups, or in a user namespace of its own as a user who is not root): past it,
    /// fork and thread creation fail in the program, never in the checker or another program.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..))]
    max_processes: u64,

    /// Contain programs by process group only, not by cgroup and namespaces (as on hosts
    /// without them; also `OTHELLO_NO_CGROUPS=1`): what a program starts outside its process
    /// group escapes, and --max-processes is not enforced.
    #[arg(long)]
    no_cgroups: bool,

    /// Let the programs reach the network. By default each program has a network of its own
    /// with only its loopback interface (where network namespaces can be had): it can reach
    /// no other machine and no service of this one.
    #[arg(long)]
    network: bool,

    /// A directory the programs may write on the host (repeatable; a cache that a compiler or
    /// runtime of theirs keeps, say). Otherwise the host is read-only to them, but for their own
    /// /tmp and working directory and a layer over their own submission, all capped.
    #[arg(long, value_name = "DIR", value_parser = existing_directory)]
    writable: Vec<PathBuf>,

    /// Run the programs as USER (a name or a number; the checker must run as root), so that a
    /// program keeps none of root's powers: it cannot write its cgroup's caps, undo the
    /// read-only directories or reach the checker. Each case's working directory is given to
    /// USER; the submissions must be readable by USER.
    #[arg(long, value_name = "USER")]
    run_as: Option<String>,

    /// Write a report: junit, gradescope, json or csv (the summary), to FILE; `{name}` in FILE
    /// makes one file per program. Repeatable.
    #[arg(long, value_name = "FORMAT=FILE", value_parser = parse_report_target)]
    report: Vec<ReportTarget>,

    /// Points each case is worth, unless NAME.points beside NAME.in or --weights says otherwise.
    #[arg(long, value_name = "P", default_value_t = 1.0, value_parser = parse_points_arg)]
    points_per_case: f64,

    /// A CSV file of NAME,POINTS lines giving cases their points (over NAME.points files).
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,

    /// Run COMMAND in every directory this pattern matches (quoted: `'submissions/*/'`), or
    /// every directory listed in this file (one per line), and print one summary line per
    /// submission.
    #[arg(long, value_name = "PATTERN|FILE")]
    each: Option<String>,

    /// The program's name in the reports (the `JUnit` suite, the JSON report's name) without
    /// --each [default: the script COMMAND runs, `main.py` of `python3 main.py`].
    #[arg(long, value_name = "NAME", conflicts_with = "each")]
    name: Option<String>,

    /// Directory of cases: NAME.in, and the expected output NAME.out beside it.
    #[arg(value_name = "DIR")]
    dir: PathBuf,

    /// The program to test and its arguments, after `--`.
    #[arg(last = true, required = true, value_name = "COMMAND")]
    command: Vec<OsString>,
}

fn parse_points_arg(text: &str) -> Result<f64, String> {
    crate::report::parse_points(text)
}

fn existing_directory(text: &str) -> Result<PathBuf, String> {
    match std::fs::metadata(text) {
        Ok(metadata) if metadata.is_dir() => Ok(PathBuf::from(text)),
        Ok(_) => Err("not a directory".to_owned()),
        Err(error) => Err(error.to_string()),
    }
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
    /// A points file or the weights file is malformed or names no case.
    #[error("{}: {message}", .path.display())]
    Points {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        message: String,
    },
    /// `--each` matched no directory, or its list file is empty.
    #[error("--each {spec:?} names no submission directory")]
    NoSubmissions {
        /// The pattern or list file.
        spec: String,
    },
    /// A submission named by `--each` is not a directory.
    #[error("submission {directory:?} is not a directory")]
    NotASubmission {
        /// As listed.
        directory: String,
    },
    /// Two submissions end in the same directory name, which names them in the reports.
    #[error("submissions {first:?} and {second:?} are both named {name:?}")]
    SameName {
        /// The common name.
        name: String,
        /// The first one.
        first: String,
        /// The second one.
        second: String,
    },
    /// A report cannot be written where `--report` says.
    #[error("--report {file}: {message}")]
    Report {
        /// The file as given.
        file: String,
        /// Why not.
        message: String,
    },
    /// `--run-as` names no user, or this process may not run programs as it.
    #[error("--run-as {user}: {message}")]
    RunAs {
        /// The user as given.
        user: String,
        /// What is wrong.
        message: String,
    },
    /// Writing a report failed.
    #[error("cannot write report {}: {source}", .path.display())]
    WriteReport {
        /// The report file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
}

impl CheckError {
    /// 2 for bad usage (no cases, a missing file, a program that does not exist or may not be
    /// run), 1 for a failure of the machine while checking (no threads or processes to be had).
    #[must_use]
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
            CheckError::Threads(_) | CheckError::WriteReport { .. } => 1,
            _ => 2,
        }
    }
}

/// The one program of a run without `--each`: COMMAND, its files named relative to where
/// `check` was started.
fn single_program(args: &CheckArgs) -> Program {
    Program {
        name: args
            .name
            .clone()
            .unwrap_or_else(|| program_name(&args.command)),
        shown_directory: None,
        directory: None,
        command: match std::env::current_dir() {
            Ok(here) => resolve_command(&args.command, &here),
            Err(_) => args.command.clone(),
        },
        view: View::default(),
    }
}

/// Runs the check and prints the report.
///
/// # Errors
/// [`GradeError::CasesFailed`] when some case did not pass (the report has said which); a
/// [`CheckError`] when it could not check; or standard output that cannot be written.
pub fn run(args: &CheckArgs) -> Result<(), GradeError> {
    let mut cases = find_cases(&args.dir)?;
    if let Some(rules) = args.rules {
        check_rules(&cases, rules.into())?;
    }
    assign_points(&mut cases, args.points_per_case, args.weights.as_deref())?;
    let mut programs = match &args.each {
        Some(spec) => each::submissions(spec, &args.command)?,
        None => vec![single_program(args)],
    };
    let names: Vec<String> = programs
        .iter()
        .map(|program| program.name.clone())
        .collect();
    for target in &args.report {
        target.check(&names, args.each.is_some())?;
    }
    let jobs = match args.jobs {
        Some(jobs) => jobs as usize,
        None => thread::available_parallelism().map_or(1, std::num::NonZero::get),
    };
    let run_as = run_as::user(args.run_as.as_deref())?;
    let containment = view::probe_containment(args.no_cgroups);
    view::protect(
        &containment,
        &args.dir,
        &mut programs,
        args.memory,
        &args.writable,
    );
    let plan = Plan {
        programs: &programs,
        cases: &cases,
        limits: Limits {
            timeout: Duration::from_secs_f64(args.timeout),
            cpu_seconds: args.cpu_time,
            memory_mb: args.memory,
            max_processes: Some(args.max_processes),
            run_as,
            offline: !args.network && view::offline(&containment),
        },
        containment: &containment,
        jobs,
        tolerate_spawn_errors: args.each.is_some(),
    };
    let settings = Settings {
        cases: args.dir.display().to_string(),
        timeout: args.timeout,
        cpu_time: args.cpu_time.map(|secs| secs as f64),
        memory_mb: args.memory,
    };
    stop_children_on_interrupt()?;
    let mut collector = Collector::new(
        &programs,
        &args.command,
        cases.len(),
        &args.report,
        &settings,
    );
    let bar = progress::bar((programs.len() * cases.len()) as u64, "cases");
    let mut printer = (args.each.is_none()).then(|| Printer::new(cases.len()));
    let ran = run_plan(&plan, |program, case, outcome| {
        bar.inc(1);
        if let Some(printer) = &mut printer {
            bar.suspend(|| printer.add(case, &outcome))?;
        }
        Ok(collector.add(program, case, outcome)?)
    });
    bar.finish_and_clear();
    ran?;
    let outcomes = collector.finish()?;
    if args.each.is_some() {
        io::stdout()
            .write_all(each::summary_table(&outcomes).as_bytes())
            .map_err(GradeError::Write)?;
    } else {
        let passed = outcomes[0].scorecard().passed;
        writeln!(
            io::stdout(),
            "{passed} passed, {} failed",
            cases.len() - passed
        )
        .map_err(GradeError::Write)?;
    }
    let total = programs.len() * cases.len();
    let failed = total
        - outcomes
            .iter()
            .map(|program| program.scorecard().passed)
            .sum::<usize>();
    if failed > 0 {
        return Err(GradeError::CasesFailed { failed, total });
    }
    Ok(())
}

/// The name of the program in the reports without `--each`: the script or program file a
/// command runs, not its interpreter (`python3 main.py` is `main.py`, `sh run.sh` is `run.sh`):
/// the first later word not an option that names an existing file, else the command's file name.
fn program_name(command: &[OsString]) -> String {
    let file_name = |word: &OsString| {
        std::path::Path::new(word)
            .file_name()
            .unwrap_or(word)
            .to_string_lossy()
            .into_owned()
    };
    command[1..]
        .iter()
        .find(|word| {
            !word.to_string_lossy().starts_with('-') && std::path::Path::new(word).is_file()
        })
        .map_or_else(|| file_name(&command[0]), file_name)
}

/// Gathers the outcomes of every program, writes each program's own reports as soon as its
/// last case is in, and the reports of the whole run at the end.
struct Collector<'a> {
    programs: Vec<ProgramOutcome>,
    /// Per program, when each of its cases ran.
    spans: Vec<Vec<(Instant, Instant)>>,
    pending: Vec<Vec<Option<CaseOutcome>>>,
    left: Vec<usize>,
    targets: &'a [ReportTarget],
    settings: &'a Settings,
}

impl<'a> Collector<'a> {
    fn new(
        programs: &[Program],
        command: &[OsString],
        cases: usize,
        targets: &'a [ReportTarget],
        settings: &'a Settings,
    ) -> Collector<'a> {
        Collector {
            programs: programs
                .iter()
                .map(|program| ProgramOutcome {
                    name: program.name.clone(),
                    wall_seconds: 0.0,
                    directory: program.shown_directory.clone(),
                    command: command
                        .iter()
                        .map(|word| word.to_string_lossy().into_owned())
                        .collect(),
                    cases: Vec::with_capacity(cases),
                })
                .collect(),
            spans: vec![Vec::new(); programs.len()],
            pending: vec![vec![None; cases]; programs.len()],
            left: vec![cases; programs.len()],
            targets,
            settings,
        }
    }

    fn add(&mut self, program: usize, case: usize, outcome: CaseOutcome) -> Result<(), CheckError> {
        let now = Instant::now();
        let started = now
            .checked_sub(Duration::from_secs_f64(outcome.seconds))
            .unwrap_or(now);
        self.spans[program].push((started, now));
        self.pending[program][case] = Some(outcome);
        self.left[program] -= 1;
        if self.left[program] > 0 {
            return Ok(());
        }
        self.programs[program].wall_seconds = busy_time(&mut self.spans[program]).as_secs_f64();
        let outcomes = std::mem::take(&mut self.pending[program]);
        self.programs[program].cases = outcomes.into_iter().flatten().collect();
        let done = std::slice::from_ref(&self.programs[program]);
        for target in self.targets.iter().filter(|target| target.per_program()) {
            target.write(&target.path(&done[0].name), self.settings, done)?;
        }
        Ok(())
    }

    fn finish(self) -> Result<Vec<ProgramOutcome>, CheckError> {
        for target in self.targets.iter().filter(|target| !target.per_program()) {
            target.write(&target.path(""), self.settings, &self.programs)?;
        }
        Ok(self.programs)
    }
}

/// The time during which at least one of `spans` was under way: a program's wall time, its
/// parallel cases counted once and the time it waited for its turn (`--each`) not at all.
fn busy_time(spans: &mut [(Instant, Instant)]) -> Duration {
    spans.sort_unstable();
    let mut busy = Duration::ZERO;
    let mut current: Option<(Instant, Instant)> = None;
    for &(start, end) in spans.iter() {
        current = match current {
            Some((from, to)) if start <= to => Some((from, to.max(end))),
            Some((from, to)) => {
                busy += to - from;
                Some((start, end))
            }
            None => Some((start, end)),
        };
    }
    if let Some((from, to)) = current {
        busy += to - from;
    }
    busy
}

/// Prints the verdicts of one program's cases in case order as they arrive in any order.
struct Printer {
    pending: Vec<Option<String>>,
    next: usize,
}

impl Printer {
    fn new(cases: usize) -> Printer {
        Printer {
            pending: vec![None; cases],
            next: 0,
        }
    }

    fn add(&mut self, index: usize, outcome: &CaseOutcome) -> Result<(), GradeError> {
        let (verdict, name) = (outcome.verdict, &outcome.name);
        self.pending[index] = Some(match &outcome.detail {
            Some(detail) => format!("{verdict:<7} {name}  {detail}\n"),
            None => format!("{verdict:<7} {name}\n"),
        });
        let mut stdout = io::stdout().lock();
        while let Some(Some(line)) = self.pending.get_mut(self.next).map(Option::take) {
            stdout
                .write_all(line.as_bytes())
                .map_err(GradeError::Write)?;
            self.next += 1;
        }
        Ok(())
    }
}
