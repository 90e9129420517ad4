//! `othello solve`: solves positions exactly (or searches them within limits) and prints a
//! table, one row per position (its depth or `exact`, score, time, nodes, speed, the check
//! against a listed result and the principal variation) and a total row; or with `--verbose`
//! a block per position with a line per completed iteration.
//!
//! Input, from a file or standard input: protocol setups (the header and grid the console
//! protocol starts with), or 8x8 position lines in the FFO format of `fixtures/ffo/`
//! (`[id] board side [empties best_moves score ...]`), in any mix; blank lines and lines
//! starting with `#` are skipped. A protocol setup may be followed by move lines. Game records
//! are solved at the position after their last move.

mod input;
mod report;
mod search;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clap::Args;
use thiserror::Error;

use othello::{Color, Game};
use othello_engine::{Engine, EngineConfig, EngineError, Limits, MoveValue, Scoring, SearchReport};
use othello_records::ffo::{Listed, ProblemError};
use othello_records::{Format, RecordError};

use super::weights::{WeightsFileError, evaluation};
use super::{RulesArg, threads_parser};
use input::{announce_long_solves, bench_positions, parse_input};
use othello_io::input::{ReadError, read_bytes};
use report::{Totals, Verdict, block, describe, table_header, table_row};
use search::{interrupt_flag, solve_one};

/// Arguments of `othello solve`.
#[derive(Debug, Args)]
#[command(after_help = "\
Input: protocol setups (rows, columns, first player, win rule, grid, then optionally ROW COL
move lines) or 8x8 FFO lines (`[id] board side [empties best_moves score move_scores]`, board
a1..h8 with X black, O white, - empty) or Edax OBF lines (`board side; move:score; ...`, every
listed move score checked), in any mix; blank lines and lines starting with # or % are
skipped. Game records (move lists, GGF, WTHOR) are solved after their last move.

Output: one row per position (depth or exact, score, time, nodes, nodes per second, the check
against the listed result, principal variation) and a total row. A search cut short by --time,
--depth or Ctrl-C is an estimate: it is marked `not exact` and not counted as a difference.

Exit status: 0 done, 1 an exact result differs from the one listed in the input (or output
failed), 2 bad input or usage (including a file that cannot be read), 130 interrupted.")]
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
    #[arg(long, value_name = "MB", value_parser = super::parse_hash)]
    hash: Option<u32>,

    /// Score finished games the FFO way: empty squares go to the winner. FFO and OBF files
    /// are always scored so (their listed scores use it); without the flag protocol setups
    /// and game records count discs only, as in the protocol.
    #[arg(long)]
    empties_to_winner: bool,

    /// Rule set for protocol setups (FFO lines are always FULL).
    #[arg(long, value_enum, ignore_case = true, default_value_t = RulesArg::Full)]
    rules: RulesArg,

    /// The midgame evaluation that orders the moves: `trained`, the trained patterns (8x8
    /// FULL, most discs wins; the classic one elsewhere), `classic`, the hand-made one, or a
    /// weights file written by `othello train fit` (8x8 FULL). Exact scores do not depend on
    /// it.
    #[arg(long, value_name = "EVAL", default_value = "trained")]
    eval: String,

    /// Without FILE, solve the built-in FFO #40-#49 benchmark (with --empties-to-winner);
    /// FILE `-` reads standard input.
    #[arg(long)]
    bench: bool,

    /// A block per position instead of a table row, with a line per completed iteration.
    #[arg(long, short)]
    verbose: bool,

    /// Also score every legal move (each searched within the limits), and check the move
    /// scores an FFO line lists.
    #[arg(long)]
    all_moves: bool,
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
    /// The evaluation's weights file cannot be used.
    #[error(transparent)]
    Eval(WeightsFileError),
    /// The input holds no position.
    #[error("{path}: no position found (expected protocol setups or FFO lines)")]
    Empty {
        /// The input's name.
        path: String,
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
            | SolveError::Eval(_)
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
    /// `#40` for FFO lines with an id, else `position N` or `game N`.
    label: String,
    /// 1-based line where it starts (unknown for a game record).
    line: Option<usize>,
    /// The position.
    game: Game,
    /// The result the input lists, if any.
    listed: Option<Listed>,
    /// The side a finished game is scored for: the player who would move next.
    side: Color,
}

/// What searching one position found.
enum Finding {
    Searched(SearchReport),
    /// Nobody can move; the final margin for the player named first.
    Over(i32),
    /// The engine refused the search.
    Failed(EngineError),
}

/// A searched position: the search's finding, and with `--all-moves` the score of every move.
struct Solved {
    finding: Finding,
    moves: Vec<MoveValue>,
}

impl Solved {
    /// Whether the result is exact (perfect play), the final score of a finished game
    /// included.
    fn exact(&self) -> bool {
        match &self.finding {
            Finding::Searched(report) => report.exact,
            Finding::Over(_) => true,
            Finding::Failed(_) => false,
        }
    }

    /// Positions visited and time taken, by the search and the move searches.
    fn cost(&self) -> (u64, Duration) {
        match &self.finding {
            Finding::Searched(report) => (report.nodes, report.elapsed),
            _ => (0, Duration::ZERO),
        }
    }
}

/// How a position is searched and shown.
struct Plan<'a> {
    limits: Limits,
    scoring: Scoring,
    verbose: bool,
    all_moves: bool,
    stop: &'a AtomicBool,
}

/// Runs `othello solve`.
pub fn run(args: &SolveArgs) -> Result<(), SolveError> {
    let evaluation = evaluation(&args.eval).map_err(SolveError::Eval)?;
    let path = args.from.as_ref().or(args.file.as_ref());
    // FFO and OBF lines (the built-in benchmark's too) list scores with the empty squares given
    // to the winner: they are read with that convention.
    let (name, entries, ffo_lines) = match path {
        None if args.bench => ("FFO #40-#49".to_owned(), bench_positions(), true),
        _ => {
            let (name, bytes) = read_input(path)?;
            let entries = parse_input(&bytes, args.rules.into(), &name)?;
            (name, entries, Format::detect(&bytes) == Format::Obf)
        }
    };
    if entries.is_empty() {
        return Err(SolveError::Empty { path: name });
    }
    let scoring = if args.empties_to_winner || ffo_lines {
        Scoring::EmptiesToWinner
    } else {
        Scoring::DiscsOnly
    };
    let limits = Limits {
        depth: args.depth,
        nodes: None,
        time: args.time,
        ..Limits::default()
    };
    let largest = entries
        .iter()
        .map(|entry| entry.game.board().empties())
        .max()
        .unwrap_or(0);
    let hash_mb = match args.hash {
        Some(requested) => requested as usize,
        None => default_hash_mb(largest),
    };
    let mut engine = Engine::try_new(EngineConfig {
        hash_mb,
        threads: args.threads as usize,
        seed: 0,
    })
    .map_err(SolveError::Memory)?;
    engine.set_scoring(scoring);
    engine.set_evaluation(evaluation);
    announce_long_solves(&entries, &limits, args.threads as usize);
    let plan = Plan {
        limits,
        scoring,
        verbose: args.verbose,
        all_moves: args.all_moves,
        stop: interrupt_flag(),
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let label_width = entries
        .iter()
        .map(|entry| entry.label.len())
        .max()
        .unwrap_or(0)
        .max("total".len());
    let mut totals = Totals::default();
    if !plan.verbose {
        writeln!(out, "{}", table_header(label_width)).map_err(SolveError::Write)?;
    }
    for entry in &entries {
        if plan.stop.load(Ordering::Relaxed) {
            break;
        }
        if plan.verbose {
            writeln!(out, "{}", describe(entry)).map_err(SolveError::Write)?;
            out.flush().map_err(SolveError::Write)?;
        }
        let solved = solve_one(&mut engine, entry, &plan, &mut out)?;
        let verdict = Verdict::of(entry, &solved);
        totals.add(&solved, &verdict);
        let text = if plan.verbose {
            block(entry, &solved, &verdict, scoring)
        } else {
            table_row(entry, &solved, &verdict, label_width)
        };
        out.write_all(text.as_bytes()).map_err(SolveError::Write)?;
        out.flush().map_err(SolveError::Write)?;
    }
    let summary = totals.summary(!plan.verbose, label_width, scoring);
    out.write_all(summary.as_bytes())
        .map_err(SolveError::Write)?;
    out.flush().map_err(SolveError::Write)?;
    if plan.stop.load(Ordering::Relaxed) {
        return Err(SolveError::Interrupted);
    }
    if totals.different > 0 {
        return Err(SolveError::Mismatch {
            mismatches: totals.different,
            listed: totals.listed,
        });
    }
    Ok(())
}

fn read_input(path: Option<&PathBuf>) -> Result<(String, Vec<u8>), SolveError> {
    let path = path.map_or(Path::new("-"), PathBuf::as_path);
    Ok(read_bytes(path, "standard input")?)
}

/// The table size when `--hash` is not given: 1 MiB up to 10 empties, doubling with each empty
/// up to 64 MiB from 16 empties, so that small solves start at once (allocating and clearing
/// the table is most of their time) and large ones get a table that holds what they reuse. A
/// larger table is no help and costs time: FFO #40-#49 and #50-#52 took as many nodes with 32,
/// 64 and 256 MiB (within the spread table sizes give), and 64 MiB solved #40-#49 in 12% less
/// time than 256 MiB (docs/engine.md, "Transposition table").
fn default_hash_mb(empties: u32) -> usize {
    1 << empties.saturating_sub(10).min(6)
}
