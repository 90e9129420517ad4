//! `othello solve`: solves positions exactly (or searches them within limits) and prints the
//! best move, the score, the principal variation and the search statistics of each.
//!
//! Input, from a file or standard input: protocol setups (the header and grid the console
//! protocol starts with), or 8x8 position lines in the FFO format of `fixtures/ffo/`
//! (`[id] board side [empties best_moves score ...]`), in any mix; blank lines and lines
//! starting with `#` are skipped.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clap::Args;
use thiserror::Error;

use othello::ffo::{self, Listed, ProblemError};
use othello::record::{self, Format, ReadOptions, RecordError};
use othello::{
    Engine, EngineConfig, EngineError, Game, Limits, RuleSet, Scoring, SearchReport, Square,
    WinRule,
};

use super::input::{ReadError, read_bytes};
use super::{RulesArg, progress, threads_parser};

/// FFO #40-#59, the positions `--bench` solves (#40-#49).
const FFO: &str = include_str!("../../fixtures/ffo/ffo-40-59.txt");
/// The FFO positions of the benchmark.
const BENCH_IDS: std::ops::RangeInclusive<u32> = 40..=49;

/// Arguments of `othello solve`.
#[derive(Debug, Args)]
#[command(after_help = "\
Input: protocol setups (rows, columns, first player, win rule, grid) or 8x8 FFO lines
(`[id] board side [empties best_moves score ...]`, board a1..h8 with X black, O white, - empty),
in any mix; blank lines and lines starting with # are skipped.

Exit status: 0 done, 1 a result differs from the one listed in the input (or output failed),
2 bad input or usage (including a file that cannot be read), 130 interrupted.")]
pub struct SolveArgs {
    /// File of positions; standard input if omitted or `-`.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,

    /// File of positions (the same as FILE).
    #[arg(long = "from", value_name = "FILE", conflicts_with = "file")]
    from: Option<PathBuf>,

    /// Stop each search after SECS seconds and print the best move found so far.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    time: Option<Duration>,

    /// Search N plies deep; positions with more empties than N are not solved exactly.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=255))]
    depth: Option<u32>,

    /// Search threads.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = threads_parser())]
    threads: u16,

    /// Transposition table size in MiB, at most half of the machine's memory [default: from 1
    /// to 256, by the empties of the largest position].
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u32).range(1..))]
    hash: Option<u32>,

    /// Score finished games the FFO way: empty squares go to the winner (the listed FFO
    /// scores use this). Without it only discs count, as in the protocol.
    #[arg(long)]
    empties_to_winner: bool,

    /// Rule set for protocol setups (FFO lines are always FULL).
    #[arg(long, value_enum, default_value_t = RulesArg::Full)]
    rules: RulesArg,

    /// Print one table row per position; without FILE, solve the built-in FFO #40-#49
    /// benchmark (with --empties-to-winner); FILE `-` reads standard input.
    #[arg(long)]
    bench: bool,
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("expected a number of seconds, found {text:?}"))?;
    if seconds.is_nan() || seconds <= 0.0 {
        return Err(format!(
            "expected a positive number of seconds, found {text:?}"
        ));
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| format!("{text:?} seconds is too long"))
}

/// Why `othello solve` stopped.
#[derive(Debug, Error)]
pub enum SolveError {
    /// The input file could not be read.
    #[error(transparent)]
    Open(#[from] ReadError),
    /// A protocol setup or an FFO line in the input is malformed.
    #[error("{path}: {source}")]
    Input {
        /// The input's name.
        path: String,
        /// What is wrong, and on which line.
        source: ProblemError,
    },
    /// A game record in the input is malformed.
    #[error("{path}: {source}")]
    Record {
        /// The input's name.
        path: String,
        /// What is wrong, and where.
        source: RecordError,
    },
    /// The input holds no position.
    #[error("{path}: no position found (expected protocol setups or FFO lines)")]
    Empty {
        /// The input's name.
        path: String,
    },
    /// `--hash` asks for more memory than the machine can spare.
    #[error("--hash {requested}: more than half of this machine's memory; use at most {limit}")]
    HashTooLarge {
        /// MiB asked for.
        requested: u32,
        /// Half the machine's memory, in MiB.
        limit: u64,
    },
    /// The transposition table's memory could not be had.
    #[error("{0}; use a smaller --hash")]
    Memory(EngineError),
    /// Standard output could not be written.
    #[error("cannot write standard output: {0}")]
    Write(io::Error),
    /// Interrupted (Ctrl-C) after printing the results so far.
    #[error("interrupted")]
    Interrupted,
    /// Some results differ from those listed in the input.
    #[error("{mismatches} of {listed} results differ from the listed ones")]
    Mismatch {
        /// Positions whose result differs.
        mismatches: usize,
        /// Positions with a listed result.
        listed: usize,
    },
}

impl SolveError {
    /// 2 for bad input, 1 for a failure while running or a mismatch.
    pub fn exit_status(&self) -> u8 {
        match self {
            SolveError::Open(_)
            | SolveError::Input { .. }
            | SolveError::Record { .. }
            | SolveError::Empty { .. }
            | SolveError::HashTooLarge { .. }
            | SolveError::Memory(_) => 2,
            SolveError::Write(_) | SolveError::Mismatch { .. } => 1,
            SolveError::Interrupted => 130,
        }
    }

    /// Whether standard output was closed by its reader (not worth a message).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, SolveError::Write(error) if error.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// One position to solve.
#[derive(Clone, Debug)]
struct Entry {
    /// `#40` for FFO lines with an id, else `position N`.
    label: String,
    /// 1-based line where it starts (unknown for a game record).
    line: Option<usize>,
    game: Game,
    listed: Option<Listed>,
}

/// Runs `othello solve`.
pub fn run(args: &SolveArgs) -> Result<(), SolveError> {
    let path = args.from.as_ref().or(args.file.as_ref());
    let (name, entries) = match path {
        None if args.bench => ("FFO #40-#49".to_owned(), bench_positions()),
        _ => {
            let (name, bytes) = read_input(path)?;
            let entries = parse_input(&bytes, args.rules.into(), &name)?;
            (name, entries)
        }
    };
    if entries.is_empty() {
        return Err(SolveError::Empty { path: name });
    }
    let scoring = if args.empties_to_winner || (args.bench && path.is_none()) {
        Scoring::EmptiesToWinner
    } else {
        Scoring::DiscsOnly
    };
    let limits = Limits {
        depth: args.depth,
        nodes: None,
        time: args.time,
    };
    let largest = entries
        .iter()
        .map(|entry| entry.game.board().empties())
        .max()
        .unwrap_or(0);
    let hash_mb = match args.hash {
        Some(requested) => checked_hash(requested)?,
        None => default_hash_mb(largest),
    };
    let mut engine = Engine::try_new(EngineConfig {
        hash_mb,
        threads: args.threads as usize,
        seed: 0,
    })
    .map_err(SolveError::Memory)?;
    engine.set_scoring(scoring);
    warn_beyond_reach(&entries, &limits);
    let interrupted = interrupt_flag();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut totals = Totals::default();
    if args.bench {
        writeln!(out, "{TABLE_HEADER}").map_err(SolveError::Write)?;
    }
    for entry in &entries {
        if interrupted.load(Ordering::Relaxed) {
            break;
        }
        let result = solve_one(&mut engine, entry, &limits, interrupted);
        totals.add(entry, &result);
        let text = if args.bench {
            table_row(entry, &result)
        } else {
            block(entry, &result, scoring)
        };
        out.write_all(text.as_bytes()).map_err(SolveError::Write)?;
        out.flush().map_err(SolveError::Write)?;
    }
    let summary = totals.summary(args.bench);
    out.write_all(summary.as_bytes())
        .map_err(SolveError::Write)?;
    out.flush().map_err(SolveError::Write)?;
    if interrupted.load(Ordering::Relaxed) {
        return Err(SolveError::Interrupted);
    }
    if totals.mismatches > 0 {
        return Err(SolveError::Mismatch {
            mismatches: totals.mismatches,
            listed: totals.listed,
        });
    }
    Ok(())
}

fn read_input(path: Option<&PathBuf>) -> Result<(String, Vec<u8>), SolveError> {
    let path = path.map_or(Path::new("-"), PathBuf::as_path);
    Ok(read_bytes(path, "standard input")?)
}

fn bench_positions() -> Vec<Entry> {
    parse_positions(FFO.as_bytes(), RuleSet::Full, "FFO")
        .expect("the FFO fixture is well formed")
        .into_iter()
        .filter(|entry| {
            entry.label[1..]
                .parse::<u32>()
                .is_ok_and(|id| BENCH_IDS.contains(&id))
        })
        .collect()
}

/// What searching one position gave.
enum Outcome {
    Searched(SearchReport),
    /// Nobody can move; the final margin for the player named first.
    Over(i32),
    /// The engine refused the search.
    Failed(EngineError),
}

/// The table size when `--hash` is not given: 1 MiB up to 10 empties, doubling with each empty
/// up to 256 MiB from 18 empties, so that small solves start at once (allocating and clearing
/// the table is most of their time) and large ones get the table they need.
fn default_hash_mb(empties: u32) -> usize {
    1 << empties.saturating_sub(10).min(8)
}

/// `--hash` if the machine has twice that much memory.
fn checked_hash(requested: u32) -> Result<usize, SolveError> {
    match physical_memory_mb() {
        Some(memory) if u64::from(requested) > memory / 2 => Err(SolveError::HashTooLarge {
            requested,
            limit: memory / 2,
        }),
        _ => Ok(requested as usize),
    }
}

/// The machine's memory in MiB, where the system says.
fn physical_memory_mb() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: sysconf has no memory-safety preconditions.
        let (pages, page_size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        let pages = u64::try_from(pages).ok()?;
        let page_size = u64::try_from(page_size).ok()?;
        Some(pages.saturating_mul(page_size) >> 20)
    }
    #[cfg(not(unix))]
    None
}

/// Empties beyond which an exact solve cannot be expected to end (the 6x6 start, 32 empties,
/// takes minutes; each further empty multiplies the work by about 2 to 3).
const EXACT_REACH: u32 = 32;

/// Says on standard error, before anything runs, which positions are far beyond an exact solve
/// when no limit is given.
fn warn_beyond_reach(entries: &[Entry], limits: &Limits) {
    if limits.depth.is_some() || limits.time.is_some() {
        return;
    }
    for entry in entries {
        let empties = entry.game.board().empties();
        if empties > EXACT_REACH && !entry.game.is_over() {
            let line = entry
                .line
                .map_or_else(String::new, |line| format!(" (line {line})"));
            eprintln!(
                "othello: {}{line} has {empties} empties: an exact solve that far from the end \
                 will not finish; limit it with --time SECS or --depth N (Ctrl-C stops it and \
                 prints the best move so far)",
                entry.label
            );
        }
    }
}

/// A flag raised by the first Ctrl-C (or SIGTERM), which stops the search under way so that its
/// best result so far is printed; a second one ends the program at once.
fn interrupt_flag() -> &'static AtomicBool {
    static INTERRUPTED: AtomicBool = AtomicBool::new(false);
    // Without a handler (one is already set), Ctrl-C ends the program as usual.
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    });
    &INTERRUPTED
}

fn solve_one(engine: &mut Engine, entry: &Entry, limits: &Limits, stop: &AtomicBool) -> Outcome {
    if entry.game.is_over() {
        return Outcome::Over(entry.game.margin(entry.game.first_player()));
    }
    let spinner = progress::spinner(format!("{}: searching", entry.label));
    let mut show = |report: &SearchReport| {
        let kind = if report.exact { "exact" } else { "eval" };
        spinner.set_message(format!(
            "{}: depth {} {} {:+} ({kind}), {} nodes",
            entry.label, report.depth, report.best_move, report.score, report.nodes,
        ));
    };
    let result = engine.search_with(&entry.game, limits, stop, &mut show);
    spinner.finish_and_clear();
    match result {
        Ok(report) => Outcome::Searched(report),
        Err(error) => Outcome::Failed(error),
    }
}

/// Whether the result agrees with the listed one: the same score and a listed best move.
fn matches(listed: &Listed, outcome: &Outcome) -> bool {
    match outcome {
        Outcome::Searched(report) => {
            report.exact && report.score == listed.score && listed.best.contains(&report.best_move)
        }
        Outcome::Over(margin) => *margin == listed.score && listed.best.is_empty(),
        Outcome::Failed(_) => false,
    }
}

fn describe(entry: &Entry) -> String {
    let game = &entry.game;
    let dims = game.board().dims();
    let win = match game.win_rule() {
        WinRule::MostDiscs => "most discs wins",
        WinRule::FewestDiscs => "fewest discs wins",
    };
    let to_move = match game.turn() {
        Some(color) => format!("{} to move", color.name().to_lowercase()),
        None => "game over".to_owned(),
    };
    let line = entry
        .line
        .map_or_else(String::new, |line| format!(" (line {line})"));
    format!(
        "{}{line}: {dims} {}, {win}, {to_move}, {} empties",
        entry.label,
        game.rules(),
        game.board().empties()
    )
}

fn block(entry: &Entry, outcome: &Outcome, scoring: Scoring) -> String {
    let mut text = describe(entry);
    text.push('\n');
    match outcome {
        Outcome::Over(margin) => {
            let _ = writeln!(text, "  nobody can move: final score {margin:+}");
        }
        Outcome::Failed(error) => {
            let _ = writeln!(text, "  not searched: {error}");
        }
        Outcome::Searched(report) => {
            let kind = if report.exact {
                "exact".to_owned()
            } else {
                format!("evaluation at depth {}", report.depth)
            };
            let _ = writeln!(text, "  best move  {}", report.best_move);
            let _ = writeln!(text, "  score      {:+} ({kind})", report.score);
            let pv: Vec<String> = report.pv.iter().map(Square::to_string).collect();
            let _ = writeln!(text, "  pv         {}", pv.join(" "));
            let _ = writeln!(
                text,
                "  nodes      {} in {:.3} s, {}",
                report.nodes,
                report.elapsed.as_secs_f64(),
                speed(report.nodes, report.elapsed)
            );
        }
    }
    if let Some(listed) = &entry.listed {
        let best: Vec<String> = listed.best.iter().map(Square::to_string).collect();
        let verdict = if matches(listed, outcome) {
            "match"
        } else {
            "DIFFERENT"
        };
        let note = if scoring == Scoring::DiscsOnly {
            " (FFO scores count empties for the winner: use --empties-to-winner)"
        } else {
            ""
        };
        let _ = writeln!(
            text,
            "  listed     {} {:+}: {verdict}{note}",
            best.join(","),
            listed.score
        );
    }
    text
}

const TABLE_HEADER: &str =
    "position     empties  move  score        time (s)        nodes   M nodes/s  listed";

fn table_row(entry: &Entry, outcome: &Outcome) -> String {
    let empties = entry.game.board().empties();
    let verdict = match &entry.listed {
        Some(listed) if matches(listed, outcome) => "match",
        Some(_) => "DIFFERENT",
        None => "-",
    };
    match outcome {
        Outcome::Over(margin) => format!(
            "{:<12} {empties:>7}  {:<4}  {margin:>+5}  {:>14} {:>12} {:>11}  {verdict}\n",
            entry.label, "-", "over", 0, "-"
        ),
        Outcome::Failed(error) => format!("{:<12} {empties:>7}  {error}\n", entry.label),
        Outcome::Searched(report) => {
            let score = if report.exact {
                format!("{:+}", report.score)
            } else {
                format!("{:+}?", report.score)
            };
            format!(
                "{:<12} {empties:>7}  {:<4}  {score:>5}  {:>14.3} {:>12} {:>11.2}  {verdict}\n",
                entry.label,
                report.best_move.to_string(),
                report.elapsed.as_secs_f64(),
                report.nodes,
                report.nodes as f64 / report.elapsed.as_secs_f64().max(1e-9) / 1e6
            )
        }
    }
}

fn speed(nodes: u64, elapsed: Duration) -> String {
    let per_second = nodes as f64 / elapsed.as_secs_f64().max(1e-9);
    format!("{:.2} M nodes/s", per_second / 1e6)
}

/// Sums over all positions.
#[derive(Default)]
struct Totals {
    positions: usize,
    exact: usize,
    nodes: u64,
    elapsed: Duration,
    listed: usize,
    mismatches: usize,
}

impl Totals {
    fn add(&mut self, entry: &Entry, outcome: &Outcome) {
        self.positions += 1;
        match outcome {
            Outcome::Searched(report) => {
                self.exact += usize::from(report.exact);
                self.nodes += report.nodes;
                self.elapsed += report.elapsed;
            }
            Outcome::Over(_) => self.exact += 1,
            Outcome::Failed(_) => {}
        }
        if let Some(listed) = &entry.listed {
            self.listed += 1;
            self.mismatches += usize::from(!matches(listed, outcome));
        }
    }

    fn summary(&self, table: bool) -> String {
        let mut text = String::new();
        if table {
            let _ = writeln!(
                text,
                "{:<12} {:>7}  {:<4}  {:>5}  {:>14.3} {:>12} {:>11.2}  {}",
                "total",
                "",
                "",
                "",
                self.elapsed.as_secs_f64(),
                self.nodes,
                self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9) / 1e6,
                self.verdict()
            );
        } else if self.positions > 1 {
            let _ = writeln!(
                text,
                "{} positions, {} solved exactly: {} nodes in {:.3} s, {}; {}",
                self.positions,
                self.exact,
                self.nodes,
                self.elapsed.as_secs_f64(),
                speed(self.nodes, self.elapsed),
                self.verdict()
            );
        }
        text
    }

    fn verdict(&self) -> String {
        if self.listed == 0 {
            "no listed results".to_owned()
        } else {
            format!("{} of {} match", self.listed - self.mismatches, self.listed)
        }
    }
}

/// The positions of the input: after the last move of each game for game records (move lists,
/// GGF, WTHOR), else protocol setups and FFO lines.
fn parse_input(bytes: &[u8], rules: RuleSet, name: &str) -> Result<Vec<Entry>, SolveError> {
    let is_record = match Format::detect(bytes) {
        Format::Ggf | Format::Wthor => true,
        // Only a file with something in it: an empty one is reported as such below.
        Format::MoveList => String::from_utf8_lossy(bytes)
            .lines()
            .any(|line| !line.trim().is_empty() && !line.trim().starts_with('#')),
        Format::Obf | Format::Protocol => false,
    };
    if !is_record {
        return parse_positions(bytes, rules, name);
    }
    let records =
        record::read(bytes, &ReadOptions { rules }).map_err(|source| SolveError::Record {
            path: name.to_owned(),
            source,
        })?;
    Ok(records
        .iter()
        .enumerate()
        .map(|(index, record)| Entry {
            label: format!("game {}", index + 1),
            line: None,
            game: record.final_game().clone(),
            listed: None,
        })
        .collect())
}

/// The positions of the input, labelled `#ID` (FFO lines with an id) or `position N`.
fn parse_positions(bytes: &[u8], rules: RuleSet, name: &str) -> Result<Vec<Entry>, SolveError> {
    let problems = ffo::read_problems(bytes, rules).map_err(|source| SolveError::Input {
        path: name.to_owned(),
        source,
    })?;
    Ok(problems
        .into_iter()
        .enumerate()
        .map(|(index, problem)| Entry {
            label: problem
                .id
                .map_or_else(|| format!("position {}", index + 1), |id| format!("#{id}")),
            line: Some(problem.line),
            game: problem.game,
            listed: problem.listed,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_benchmark_is_ffo_40_to_49() {
        let labels: Vec<String> = bench_positions().into_iter().map(|e| e.label).collect();
        assert_eq!(labels.len(), 10);
        assert_eq!(labels.first().unwrap(), "#40");
        assert_eq!(labels.last().unwrap(), "#49");
    }
}
