//! `othello perft`: counts the leaves of the game tree to a given depth, and how fast.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use thiserror::Error;

use othello::perft::{self, Division, Tally};
use othello::text::counted;
use othello::{Dimensions, Setup};

use super::rate::per_second;
use super::{Failure, RulesArg, ThreadsError, thread_pool, threads_parser};
use othello_io::input::{SetupFileError, read_setup};

/// Arguments of `othello perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// How many plies deep to count (a pass is a ply; a finished game is a leaf where it ends).
    depth: u32,

    /// Board size of the standard start position, rows x columns (even, 4 to 16 each).
    #[arg(
        long,
        value_name = "RxC",
        default_value = "8x8",
        conflicts_with = "from"
    )]
    size: Dimensions,

    /// Rule set.
    #[arg(long, value_enum, ignore_case = true, default_value_t = RulesArg::Full)]
    rules: RulesArg,

    /// Start from the position in FILE (`-` for standard input), written as the protocol's
    /// header and grid; its first player moves first and its win rule plays no part.
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,

    /// Also print the leaves under each first move (or the pass).
    #[arg(long)]
    divide: bool,

    /// Worker threads; the subtrees under the first moves are shared among them.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = threads_parser())]
    threads: u16,

    /// Count every depth from 1 to DEPTH, one row each: leaves, passes, finished games, time
    /// and speed.
    #[arg(long, short)]
    verbose: bool,
}

/// Why `othello perft` could not start.
#[derive(Debug, Error)]
pub enum PerftError {
    /// The `--from` file could not be read or is not a valid header and grid.
    #[error(transparent)]
    From(#[from] SetupFileError),
    /// The worker threads could not be started.
    #[error(transparent)]
    Threads(#[from] ThreadsError),
}

/// Counts and prints the leaves, then the time taken and the speed.
pub fn run(args: &PerftArgs) -> Result<(), Failure> {
    let setup = start_position(args)?;
    let pool = thread_pool(args.threads).map_err(PerftError::from)?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if args.verbose {
        return by_depth(&mut out, args, &setup, &pool)
            .and_then(|()| out.flush())
            .map_err(Failure::Write);
    }
    let started = Instant::now();
    let division = pool.install(|| perft::divide(&setup, args.rules.into(), args.depth));
    let elapsed = started.elapsed();
    report(&mut out, args, &division, elapsed)
        .and_then(|()| out.flush())
        .map_err(Failure::Write)
}

/// `--verbose`: a row per depth from 1 to the one asked for, each counted on its own and
/// printed as soon as it is known, then the usual summary of the last (after `--divide`'s
/// lines, which take one more count of the last depth).
fn by_depth(
    out: &mut impl Write,
    args: &PerftArgs,
    setup: &Setup,
    pool: &rayon::ThreadPool,
) -> io::Result<()> {
    writeln!(
        out,
        "depth            leaves         passes       finished    time (s)    leaves/s"
    )?;
    let mut last = (Tally::default(), Duration::ZERO);
    for depth in 1..=args.depth {
        let started = Instant::now();
        let tally = pool.install(|| perft::tally(setup, args.rules.into(), depth));
        let elapsed = started.elapsed();
        writeln!(
            out,
            "{depth:>5}  {:>16}  {:>13}  {:>13}  {:>10.3}  {:>10}",
            tally.leaves,
            tally.passes,
            tally.finished,
            elapsed.as_secs_f64(),
            per_second(tally.leaves, elapsed)
        )?;
        out.flush()?;
        last = (tally, elapsed);
    }
    let (tally, elapsed) = last;
    let division = if args.divide {
        pool.install(|| perft::divide(setup, args.rules.into(), args.depth))
    } else {
        Division {
            children: Vec::new(),
            total: if args.depth == 0 { 1 } else { tally.leaves },
        }
    };
    report(out, args, &division, elapsed)
}

fn start_position(args: &PerftArgs) -> Result<Setup, PerftError> {
    let Some(path) = &args.from else {
        return Ok(Setup::standard(args.size));
    };
    Ok(read_setup(path, Some("standard input"))?)
}

fn report(
    out: &mut impl Write,
    args: &PerftArgs,
    division: &Division,
    elapsed: Duration,
) -> io::Result<()> {
    if args.divide {
        for (ply, leaves) in &division.children {
            writeln!(out, "{ply}: {leaves}")?;
        }
    }
    writeln!(
        out,
        "perft {}: {}",
        args.depth,
        counted(division.total, "leaf", "leaves")
    )?;
    let threads = counted(args.threads, "thread", "threads");
    let seconds = elapsed.as_secs_f64();
    match per_second(division.total, elapsed) {
        unknown if unknown == "-" => writeln!(
            out,
            "{seconds:.3} s on {threads} (too short a time to measure a speed)"
        ),
        speed => writeln!(out, "{seconds:.3} s, {speed} leaves/s on {threads}"),
    }
}
