//! `othello train rescore`: a data file copied with its inexact positions scored by a deeper
//! search, continuing the games already in the output file.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;

use crate::{progress, thread_pool, threads_parser};
use othello::text::counted;
use othello_engine::train::{Rescoring, Sample, SampleError, rescored_game};

use super::data::{open_data, read_games};
use super::error::{TrainError, file_error};
use super::{BATCH, check_not_an_input, engine_with, say, stdout};
use crate::shard::{Shard, parse_shard};
use crate::weights::evaluation;

/// Arguments of `othello train rescore`.
#[derive(Debug, Args)]
pub(super) struct RescoreArgs {
    /// The data file to read.
    data: PathBuf,

    /// The data file to write (continued if it holds games already).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,

    /// Rescore only the first N games of DATA (a later run with a larger N, or without it,
    /// continues).
    #[arg(long, value_name = "N")]
    games: Option<u64>,

    /// Rescore only the K-th of N consecutive parts of DATA's games (those --games leaves);
    /// `othello train merge` joins the parts' files into the run's.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<Shard>,

    /// Depth of the search that scores a position.
    #[arg(long, value_name = "PLIES", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=20))]
    depth: u32,

    /// Positions with fewer empty squares keep their scores (unless solved exactly).
    #[arg(long, value_name = "N", default_value_t = 19, value_parser = clap::value_parser!(u32).range(0..=60))]
    from_empties: u32,

    /// Positions with at most this many empty squares are solved exactly (and flagged exact);
    /// 0 solves none.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=30))]
    exact_empties: u32,

    /// The evaluation of the search: `trained` (the weights compiled in), `classic`, or a
    /// weights file written by `othello train fit`.
    #[arg(long, value_name = "EVAL", default_value = "trained")]
    eval: String,

    /// Worker threads, one game each at a time.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = threads_parser())]
    threads: u16,
}

pub(super) fn run(args: &RescoreArgs) -> Result<(), TrainError> {
    check_not_an_input(&args.out, std::slice::from_ref(&args.data))?;
    let evaluation = evaluation(&args.eval)?;
    let samples = read_games(std::slice::from_ref(&args.data))?;
    let mut games: Vec<&[Sample]> = samples.split_inclusive(|s| s.last).collect();
    if let Some(limit) = args.games {
        games.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    }
    if let Some(shard) = args.shard {
        let part = shard.games(games.len() as u64);
        let at = |n: u64| usize::try_from(n).expect("within the games");
        games = games[at(part.start)..at(part.end)].to_vec();
    }
    let (mut file, done) = open_data(&args.out)?;
    let rescoring = Rescoring {
        depth: args.depth,
        from_empties: args.from_empties,
        exact_empties: args.exact_empties,
    };
    let pool = thread_pool(args.threads).map_err(TrainError::from)?;
    let mut out = stdout();
    let bar = progress::bar(games.len() as u64, "games");
    let started = Instant::now();
    let mut next = usize::try_from(done).unwrap_or(usize::MAX).min(games.len());
    bar.set_position(next as u64);
    while next < games.len() {
        let end = (next + BATCH as usize).min(games.len());
        let batch: Result<Vec<Vec<u8>>, SampleError> = pool.install(|| {
            games[next..end]
                .par_iter()
                .map_init(
                    || engine_with(&evaluation),
                    |engine, game| {
                        let rescored = rescored_game(game, engine, rescoring)?;
                        Ok(rescored.iter().flat_map(Sample::to_bytes).collect())
                    },
                )
                .collect()
        });
        let batch = batch.map_err(TrainError::Sample)?.concat();
        file.write_all(&batch).map_err(file_error(&args.out))?;
        bar.set_position(end as u64);
        next = end;
    }
    file.sync_all().map_err(file_error(&args.out))?;
    bar.finish_and_clear();
    say(
        &mut out,
        format_args!(
            "{}: {}{} rescored at depth {} from {} empties{} in {:.1} s",
            args.out.display(),
            args.shard
                .map_or_else(String::new, |shard| format!("shard {shard}: ")),
            counted(games.len(), "game", "games"),
            args.depth,
            args.from_empties,
            if args.exact_empties > 0 {
                format!(", solved from {} empties", args.exact_empties)
            } else {
                String::new()
            },
            started.elapsed().as_secs_f64()
        ),
    )
}
