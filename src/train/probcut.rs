//! `othello train probcut`: the error model of the probabilistic cut-offs fitted to searches
//! of data files' positions, and its table of errors printed.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::{progress, thread_pool, threads_parser};
use othello::text::counted;
use othello_engine::probcut::{MIN_DEPTH, ProbCut, shallow_depth};
use othello_engine::train::probcut::{GROUP_EMPTIES, Observation};
use othello_engine::train::{Sample, SampleError};

use super::data::read_games;
use super::error::TrainError;
use super::{engine_with, say, stdout};
use crate::weights::evaluation;

/// Arguments of `othello train probcut`.
#[derive(Debug, Args)]
pub(super) struct ProbcutArgs {
    /// Data files written by `othello train selfplay`.
    #[arg(required = true)]
    data: Vec<PathBuf>,

    /// Positions searched, drawn at random from those with `--min-empties` to
    /// `--max-empties` empty squares (for the midgame's model, only those not solved exactly).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    positions: u64,

    /// Fit the selective solver's model: each position's exact score (solved when the data
    /// has none) against midgame searches of each depth.
    #[arg(long)]
    endgame: bool,

    /// Fewest empty squares of a position drawn [default: 20, with --endgame 14].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=60))]
    min_empties: Option<u32>,

    /// Most empty squares of a position drawn [default: 60, with --endgame 24].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=60))]
    max_empties: Option<u32>,

    /// Deepest search.
    #[arg(long, value_name = "PLIES", default_value_t = 10, value_parser = clap::value_parser!(u32).range(3..=20))]
    depth: u32,

    /// Chooses the positions.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,

    /// The evaluation whose searches are compared: `trained` (the weights compiled in), or a
    /// weights file written by `othello train fit`, to fit its model before it is compiled in.
    #[arg(long, value_name = "EVAL", default_value = "trained")]
    eval: String,

    /// Worker threads, one position each at a time.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = threads_parser())]
    threads: u16,
}

pub(super) fn run(args: &ProbcutArgs) -> Result<(), TrainError> {
    let evaluation = evaluation(&args.eval)?;
    let (fewest, most) = if args.endgame { (14, 24) } else { (20, 60) };
    let min_empties = args.min_empties.unwrap_or(fewest);
    let max_empties = args.max_empties.unwrap_or(most);
    if min_empties > max_empties {
        return Err(TrainError::EmptiesRange {
            min: min_empties,
            max: max_empties,
        });
    }
    let mut samples = read_games(&args.data)?;
    samples.retain(|s| {
        (args.endgame || !s.exact) && (min_empties..=max_empties).contains(&s.empties())
    });
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let chosen: Vec<Sample> = samples
        .choose_multiple(
            &mut rng,
            usize::try_from(args.positions).unwrap_or(usize::MAX),
        )
        .copied()
        .collect();
    drop(samples);
    let pool = thread_pool(args.threads).map_err(TrainError::from)?;
    let mut out = stdout();
    let bar = progress::bar(chosen.len() as u64, "positions");
    let started = Instant::now();
    let observations: Result<Vec<Vec<Observation>>, SampleError> = pool.install(|| {
        chosen
            .par_iter()
            .map_init(
                || engine_with(&evaluation),
                |engine, sample| {
                    let found = if args.endgame {
                        othello_engine::train::probcut::observe_endgame(engine, sample, args.depth)
                    } else {
                        othello_engine::train::probcut::observe(engine, sample, args.depth)
                    };
                    bar.inc(1);
                    found
                },
            )
            .collect()
    });
    let observations: Vec<Observation> = observations
        .map_err(TrainError::Sample)?
        .into_iter()
        .flatten()
        .collect();
    bar.finish_and_clear();
    let width = if args.endgame { 1 } else { GROUP_EMPTIES };
    let groups = othello_engine::train::probcut::groups(&observations, width);
    let model = othello_engine::train::probcut::fit(&groups);
    let (rows, gap) = if args.endgame {
        ("shallow depth", "empties - shallow depth")
    } else {
        ("depth (shallow depth)", "depth - shallow depth")
    };
    say(
        &mut out,
        format_args!(
            "{}, {} in {:.1} s; root mean square error in discs by {rows} and empty squares:",
            counted(chosen.len(), "position", "positions"),
            counted(observations.len(), "comparison", "comparisons"),
            started.elapsed().as_secs_f64()
        ),
    )?;
    print_error_table(&mut out, args, &groups, model, gap)
}

/// The error table of `train probcut` (a row per depth, a column per group of empty squares,
/// the model's value beside each row) and the model's line.
fn print_error_table(
    out: &mut impl Write,
    args: &ProbcutArgs,
    groups: &[othello_engine::train::probcut::Group],
    model: Option<ProbCut>,
    gap: &str,
) -> Result<(), TrainError> {
    let width = groups.first().map_or(1, |g| g.width);
    let mut buckets: Vec<u32> = groups.iter().map(|g| g.empties).collect();
    buckets.sort_unstable();
    buckets.dedup();
    let header: Vec<String> = buckets
        .iter()
        .map(|&e| {
            if width == 1 {
                format!("{e:>7}")
            } else {
                format!("{:>7}", format!("{e}-{}", e + width - 1))
            }
        })
        .collect();
    say(out, format_args!("depth   {}  model", header.join("")))?;
    let middle = buckets.iter().sum::<u32>() / buckets.len().max(1) as u32 + (width - 1) / 2;
    // The endgame's searches stop 4 plies short of the end: no deeper rows than were searched.
    let depths = if args.endgame {
        1..=groups.iter().map(|g| g.shallow).max().unwrap_or(0)
    } else {
        MIN_DEPTH..=args.depth
    };
    for depth in depths {
        let cells: Vec<String> = buckets
            .iter()
            .map(|&e| {
                groups
                    .iter()
                    .find(|g| {
                        g.empties == e
                            && if args.endgame {
                                g.shallow == depth
                            } else {
                                g.depth == depth
                            }
                    })
                    .map_or_else(|| format!("{:>7}", "-"), |g| format!("{:>7.2}", g.rms))
            })
            .collect();
        let (label, sigma) = if args.endgame {
            (
                format!("{depth:>7}"),
                model.and_then(|m| {
                    middle
                        .checked_sub(depth)
                        .map(|gap| m.sigma_gap(gap, middle))
                }),
            )
        } else {
            (
                format!("{depth:>2} ({:>2})", shallow_depth(depth)),
                model.map(|m| m.sigma(depth, middle)),
            )
        };
        let modelled = sigma.map_or_else(
            || "-".to_owned(),
            |sigma| format!("{:.2} at {middle}", sigma / 100.0),
        );
        say(out, format_args!("{label} {}  {modelled}", cells.join("")))?;
    }
    match model {
        Some(ProbCut {
            coefficients: [c0, c1, c2],
        }) => say(
            out,
            format_args!(
                "model: sigma = {c0:.1} {} * ({gap}) {} * empties (hundredths of a disc)",
                signed_term(c1),
                signed_term(c2)
            ),
        ),
        None if args.endgame => say(
            out,
            format_args!(
                "model: not determined (it needs positions at two numbers of empty squares or more)"
            ),
        ),
        None => say(
            out,
            format_args!(
                "model: not determined (it needs depths at two distances from their shallow searches, --depth 6 or more, and positions in two ranges of empties)"
            ),
        ),
    }
}

/// A coefficient after another term: `+ 1.50` or `- 1.50`.
fn signed_term(coefficient: f64) -> String {
    let sign = if coefficient < 0.0 { '-' } else { '+' };
    format!("{sign} {:.2}", coefficient.abs())
}
