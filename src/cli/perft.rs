//! `othello perft`: counts the leaves of the game tree to a given depth, and how fast.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use thiserror::Error;

use othello::perft::{self, Division};
use othello::{Dimensions, Setup};

use super::input::{SetupFileError, read_setup};
use super::{Failure, RulesArg, threads_parser};

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
    #[arg(long, value_enum, default_value_t = RulesArg::Full)]
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
}

/// Why `othello perft` could not start.
#[derive(Debug, Error)]
pub enum PerftError {
    /// The `--from` file could not be read or is not a valid header and grid.
    #[error(transparent)]
    From(#[from] SetupFileError),
    /// The worker threads could not be started.
    #[error("cannot start {threads} threads: {source}")]
    Threads {
        /// How many were asked for.
        threads: u16,
        /// What went wrong.
        source: rayon::ThreadPoolBuildError,
    },
}

/// Counts and prints the leaves, then the time taken and the speed.
pub fn run(args: &PerftArgs) -> Result<(), Failure> {
    let setup = start_position(args)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads as usize)
        .build()
        .map_err(|source| PerftError::Threads {
            threads: args.threads,
            source,
        })?;
    let started = Instant::now();
    let division = pool.install(|| perft::divide(&setup, args.rules.into(), args.depth));
    let seconds = started.elapsed().as_secs_f64();

    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    report(&mut out, args, &division, seconds)
        .and_then(|()| out.flush())
        .map_err(Failure::Write)
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
    seconds: f64,
) -> io::Result<()> {
    if args.divide {
        for (ply, leaves) in &division.children {
            writeln!(out, "{ply}: {leaves}")?;
        }
    }
    let noun = if division.total == 1 {
        "leaf"
    } else {
        "leaves"
    };
    writeln!(out, "perft {}: {} {noun}", args.depth, division.total)?;
    let speed = division.total as f64 / seconds.max(1e-9) / 1e6;
    let threads = match args.threads {
        1 => "1 thread".to_owned(),
        n => format!("{n} threads"),
    };
    writeln!(out, "{seconds:.3} s, {speed:.1} M leaves/s on {threads}")
}
