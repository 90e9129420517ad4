//! `othello train selfplay`: self-play games appended to a data file, continuing the games
//! already in it.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;

use crate::{progress, thread_pool, threads_parser};
use othello::text::counted;
use othello_engine::train::SelfPlay;

use super::data::open_data;
use super::error::{TrainError, file_error};
use super::{BATCH, say, stdout};
use crate::shard::{Shard, parse_shard};
use crate::weights::EvalArg;

/// Arguments of `othello train selfplay`.
#[derive(Debug, Args)]
pub(super) struct SelfplayArgs {
    /// The data file to append to (created if missing).
    file: PathBuf,

    /// Games the file should hold when the run ends (with --shard, the games of the whole
    /// run, of which the file holds its shard's).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    games: u64,

    /// Play only the K-th of N consecutive parts of the run's games (`othello train merge`
    /// joins the parts' files into the run's).
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<Shard>,

    /// Seed of the run: game i depends only on it and i.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,

    /// Random moves at the start of each game, drawn from LOW-HIGH.
    #[arg(long, value_name = "LOW-HIGH", default_value = "2-10", value_parser = parse_range)]
    opening: (u32, u32),

    /// Depth of the engine's moves before the exact solve.
    #[arg(long, value_name = "PLIES", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=20))]
    depth: u32,

    /// Per mille of the engine's moves replaced by a random move.
    #[arg(long, value_name = "N", default_value_t = 50, value_parser = clap::value_parser!(u32).range(0..=1000))]
    random: u32,

    /// Empty squares from which each game is played perfectly (solved exactly).
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=30))]
    solve_empties: u32,

    /// The evaluation of the engine's moves: the classic one (the games then do not depend on
    /// the weights compiled in) or the trained one (for a further round of training).
    #[arg(long, value_enum, ignore_case = true, default_value_t = EvalArg::Classic)]
    eval: EvalArg,

    /// Worker threads, one game each at a time.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = threads_parser())]
    threads: u16,
}

/// `LOW-HIGH` (or one number) as an inclusive range.
fn parse_range(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("expected LOW-HIGH (for example 2-10), found {text:?}");
    let (low, high) = text.split_once('-').unwrap_or((text, text));
    let low: u32 = low.trim().parse().map_err(|_| bad())?;
    let high: u32 = high.trim().parse().map_err(|_| bad())?;
    if low > high || high > 60 {
        return Err(bad());
    }
    Ok((low, high))
}

pub(super) fn run(args: &SelfplayArgs) -> Result<(), TrainError> {
    let path = &args.file;
    let (mut file, done) = open_data(path)?;
    let config = SelfPlay {
        seed: args.seed,
        opening_moves: args.opening,
        depth: args.depth,
        random_per_mille: args.random,
        solve_empties: args.solve_empties,
        evaluation: args.eval.into(),
    };
    let pool = thread_pool(args.threads).map_err(TrainError::from)?;
    let mut out = stdout();
    // Game numbers: the shard's part of the run, or all of it.
    let run = args
        .shard
        .map_or(0..args.games, |shard| shard.games(args.games));
    let wanted = run.end - run.start;
    let bar = progress::bar(wanted, "games");
    bar.set_position(done.min(wanted));
    let started = Instant::now();
    let mut positions = 0u64;
    let mut next = run.start + done;
    while next < run.end {
        let end = (next + BATCH).min(run.end);
        let games: Vec<Vec<u8>> = pool.install(|| {
            (next..end)
                .into_par_iter()
                .map_init(SelfPlay::engine, |engine, index| {
                    config
                        .game(engine, index)
                        .iter()
                        .flat_map(othello_engine::train::Sample::to_bytes)
                        .collect()
                })
                .collect()
        });
        let batch: Vec<u8> = games.concat();
        file.write_all(&batch).map_err(file_error(path))?;
        positions += (batch.len() / othello_engine::train::RECORD_BYTES) as u64;
        bar.set_position(end - run.start);
        next = end;
    }
    file.sync_all().map_err(file_error(path))?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let part = args.shard.map_or_else(String::new, |shard| {
        format!(
            "shard {shard} (games {}-{} of {}): ",
            run.start + 1,
            run.end,
            args.games
        )
    });
    say(
        &mut out,
        format_args!(
            "{}: {part}{} ({} new, {}) in {seconds:.1} s",
            path.display(),
            counted(wanted.max(done), "game", "games"),
            wanted.saturating_sub(done),
            counted(positions, "position", "positions"),
        ),
    )
}
