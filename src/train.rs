//! `othello train`: the pipeline that makes the 8x8 pattern evaluation's weights. `selfplay`
//! appends self-play games to a data file (continuing where a previous run stopped), `fit`
//! fits the weights to a data file and writes the weights file (`othello match` plays them
//! against each other).

use std::fs::{File, OpenOptions};
use std::io::{self, Stdout, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};
use rayon::prelude::*;
use thiserror::Error;

use othello::RuleSet;
use othello::text::counted;
use othello_engine::patterns::{MAX_FILE_BYTES, PHASES, Weights, WeightsError};
use othello_engine::probcut::{MIN_DEPTH, ProbCut, shallow_depth};
use othello_engine::train::fit::FitConfig;
use othello_engine::train::probcut::{GROUP_EMPTIES, Observation};
use othello_engine::train::records::{RecordPositions, Unused};
use othello_engine::train::selfplay::{count_games, data_bytes, read_data};
use othello_engine::train::{
    DATA_MAGIC, Data, DataError, Rescoring, Sample, SampleError, SelfPlay,
};
use othello_engine::{Engine, Evaluation};
use rand::SeedableRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand_chacha::ChaCha8Rng;

use super::weights::{EvalArg, WeightsFileError, evaluation};
use super::{Failure, ThreadsError, progress, thread_pool, threads_parser};
use othello_io::atomic::{
    NotOurs, check_overwrite, check_overwrite_by_head, same_file, write_atomic,
};
use othello_io::records::{RecordsFile, RecordsFileError};

/// Arguments of `othello train`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    #[command(subcommand)]
    step: Step,
}

/// The steps of the pipeline.
#[derive(Debug, Subcommand)]
enum Step {
    /// Play self-play games and append their positions, each with its final margin, to a data
    /// file; a run continues the games already in the file.
    Selfplay(SelfplayArgs),
    /// Fit the pattern weights to data files of `selfplay` and write the weights file,
    /// printing each phase's mean absolute error (training and held out) as it goes.
    Fit(FitArgs),
    /// Copy a data file with the scores of its inexact positions replaced by the values of a
    /// deeper search (targets for a further round of fitting); a run continues the games
    /// already in the output file.
    Rescore(RescoreArgs),
    /// Turn the games of records (the WTHOR database, GGF archives, move lists) into a data
    /// file for `rescore`: each position once, scored by its game's result until rescored.
    Import(ImportArgs),
    /// Fit the error model of the midgame search's probabilistic cut-offs: search positions
    /// of data files deeper and deeper, compare each depth with its shallow search, and
    /// print the model's coefficients for `src/engine/probcut.rs`.
    Probcut(ProbcutArgs),
}

/// Arguments of `othello train rescore`.
#[derive(Debug, Args)]
struct RescoreArgs {
    /// The data file to read.
    data: PathBuf,

    /// The data file to write (continued if it holds games already).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,

    /// Rescore only the first N games of DATA (a later run with a larger N, or without it,
    /// continues).
    #[arg(long, value_name = "N")]
    games: Option<u64>,

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

/// Arguments of `othello train import`.
#[derive(Debug, Args)]
struct ImportArgs {
    /// Game records in any format `othello convert` reads (WTHOR `.wtb` files, GGF, ...).
    #[arg(required = true)]
    records: Vec<PathBuf>,

    /// The data file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,

    /// Replace --out even when it is not a data file.
    #[arg(long)]
    force: bool,

    /// Keep this many games (those with a new position), drawn at random; all by default.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,

    /// Orders the games at random (so that a `rescore` run cut short has covered every file
    /// alike) and draws those kept.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
}

/// Arguments of `othello train probcut`.
#[derive(Debug, Args)]
struct ProbcutArgs {
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

/// Arguments of `othello train fit`.
#[derive(Debug, Args)]
struct FitArgs {
    /// Data files written by `othello train selfplay`.
    #[arg(required = true)]
    data: Vec<PathBuf>,

    /// The weights file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,

    /// Replace --out even when it is not a weights file.
    #[arg(long)]
    force: bool,

    /// Chooses the held-out games.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,

    /// Passes of gradient descent.
    #[arg(long, value_name = "N", default_value_t = 300)]
    epochs: u32,

    /// Per mille of the games held out.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u32).range(0..=999))]
    holdout: u32,

    /// The step size.
    #[arg(long, value_name = "X", default_value_t = 0.01)]
    rate: f32,

    /// Occurrences added to every configuration's count.
    #[arg(long, value_name = "X", default_value_t = 10.0)]
    damping: f32,

    /// Empty squares outside its phase whose positions each phase's table also fits.
    #[arg(long, value_name = "N", default_value_t = 3)]
    overlap: u32,

    /// Print the errors every N epochs.
    #[arg(long, value_name = "N", default_value_t = 25)]
    report_every: u32,

    /// Worker threads (one phase each at a time).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = threads_parser())]
    threads: u16,
}

/// Arguments of `othello train selfplay`.
#[derive(Debug, Args)]
struct SelfplayArgs {
    /// The data file to append to (created if missing).
    file: PathBuf,

    /// Games the file should hold when the run ends.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    games: u64,

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

/// Why `othello train` failed.
#[derive(Debug, Error)]
pub enum TrainError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// A weights file cannot be read or is not one `othello train fit` wrote.
    #[error(transparent)]
    Weights(#[from] WeightsFileError),
    /// A data file is not self-play data, or holds a record that is not a sample.
    #[error("{path}: {source}")]
    Data {
        /// The file.
        path: PathBuf,
        /// What is wrong with it, and where.
        source: DataError,
    },
    /// The data files hold no whole game.
    #[error("{paths}: no whole game to work on")]
    NoGames {
        /// The files, as named on the command line.
        paths: String,
    },
    /// A sample could not be searched.
    #[error("a sample cannot be searched: {0}")]
    Sample(SampleError),
    /// The output file is one of the inputs.
    #[error("{path}: --out is also an input; write to another file", path = .path.display())]
    OutIsInput {
        /// The file.
        path: PathBuf,
    },
    /// The output file is not one this command writes.
    #[error(transparent)]
    NotOurs(#[from] NotOurs),
    /// Standard output could not be written.
    #[error("cannot write standard output: {0}")]
    Write(io::Error),
    /// The worker threads could not be started.
    #[error(transparent)]
    Threads(#[from] ThreadsError),
    /// A file of game records could not be read.
    #[error(transparent)]
    Records(#[from] RecordsFileError),
    /// `--min-empties` above `--max-empties`: no position could be drawn.
    #[error("--min-empties {min} is more than --max-empties {max}")]
    EmptiesRange {
        /// The fewest empty squares asked for.
        min: u32,
        /// The most empty squares asked for.
        max: u32,
    },
}

impl TrainError {
    /// The exit status: 1, a run-time failure (a data or weights file that cannot be read is
    /// one too: it is usually the output of an earlier step); 2 for an output file that is an
    /// input or not one the command writes (without `--force`), and for an empty range of
    /// empty squares.
    pub fn exit_status(&self) -> u8 {
        match self {
            TrainError::File { .. }
            | TrainError::Weights(_)
            | TrainError::Data { .. }
            | TrainError::NoGames { .. }
            | TrainError::Sample(_)
            | TrainError::Write(_)
            | TrainError::Threads(_) => 1,
            TrainError::OutIsInput { .. }
            | TrainError::NotOurs(_)
            | TrainError::Records(_)
            | TrainError::EmptiesRange { .. } => 2,
        }
    }

    /// Whether standard output was closed by its reader (not worth a message).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, TrainError::Write(error) if error.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// Games played between two writes to the data file.
const BATCH: u64 = 16;

/// Runs a step of the pipeline.
pub fn run(args: &TrainArgs) -> Result<(), Failure> {
    match &args.step {
        Step::Selfplay(args) => Ok(selfplay(args)?),
        Step::Fit(args) => Ok(fit(args)?),
        Step::Rescore(args) => Ok(rescore(args)?),
        Step::Probcut(args) => Ok(probcut(args)?),
        Step::Import(args) => Ok(import(args)?),
    }
}

/// A self-play engine that searches with `evaluation`.
fn engine_with(evaluation: &Evaluation) -> Engine {
    let mut engine = SelfPlay::engine();
    engine.set_evaluation(evaluation.clone());
    engine
}

/// Standard output, for the lines every step prints.
fn stdout() -> Stdout {
    io::stdout()
}

/// Writes one line of a step's report.
fn say(out: &mut impl Write, line: std::fmt::Arguments) -> Result<(), TrainError> {
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .map_err(TrainError::Write)
}

/// Refuses `out` when it is one of `inputs` (the same file, by whatever name).
fn check_not_an_input(out: &Path, inputs: &[PathBuf]) -> Result<(), TrainError> {
    if inputs.iter().any(|input| same_file(input, out)) {
        return Err(TrainError::OutIsInput {
            path: out.to_owned(),
        });
    }
    Ok(())
}

fn rescore(args: &RescoreArgs) -> Result<(), TrainError> {
    check_not_an_input(&args.out, std::slice::from_ref(&args.data))?;
    let evaluation = evaluation(&args.eval)?;
    let samples = read_games(std::slice::from_ref(&args.data))?;
    let mut games: Vec<&[Sample]> = samples.split_inclusive(|s| s.last).collect();
    if let Some(limit) = args.games {
        games.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
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
                        let mut bytes =
                            Vec::with_capacity(game.len() * othello_engine::train::RECORD_BYTES);
                        for sample in *game {
                            let rescored = sample.rescored(engine, rescoring)?;
                            bytes.extend_from_slice(&rescored.to_bytes());
                        }
                        Ok(bytes)
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
            "{}: {} rescored at depth {} from {} empties{} in {:.1} s",
            args.out.display(),
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

fn import(args: &ImportArgs) -> Result<(), TrainError> {
    check_not_an_input(&args.out, &args.records)?;
    check_overwrite_by_head(&args.out, args.force, DATA_MAGIC.len(), |head| {
        if head == DATA_MAGIC.as_slice() {
            Ok(())
        } else {
            Err("not a data file of othello train (it does not start with OTHDAT01)".to_owned())
        }
    })?;
    let mut positions = RecordPositions::default();
    let mut games: Vec<Vec<Sample>> = Vec::new();
    let mut not_standard = 0u64;
    for path in &args.records {
        let file = RecordsFile::open(path, RuleSet::Full)?;
        let mut readable = file.games(None)?;
        for record in readable.by_ref() {
            match positions.samples(&record) {
                Ok(samples) => games.push(samples),
                Err(Unused::NotStandard) => not_standard += 1,
                Err(Unused::NoNewPosition) => {}
            }
        }
        readable.finish()?;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    games.shuffle(&mut rng);
    if let Some(kept) = args.games {
        games.truncate(usize::try_from(kept).unwrap_or(usize::MAX));
    }
    let samples = games.concat();
    write_atomic(&args.out, &data_bytes(&samples)).map_err(file_error(&args.out))?;
    say(
        &mut stdout(),
        format_args!(
            "{}: {}, {} ({} repeated and {} not 8x8 FULL from the standard start left out)",
            args.out.display(),
            counted(games.len(), "game", "games"),
            counted(samples.len(), "position", "positions"),
            counted(positions.repeated(), "position", "positions"),
            counted(not_standard, "game", "games"),
        ),
    )
}

fn probcut(args: &ProbcutArgs) -> Result<(), TrainError> {
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

/// The whole games of the data file at `path`, every record checked (read in batches).
fn read_data_file(path: &Path) -> Result<Data, TrainError> {
    let file = File::open(path).map_err(file_error(path))?;
    read_data(file).map_err(|source| match source {
        DataError::Read(source) => TrainError::File {
            path: path.to_owned(),
            source,
        },
        source => TrainError::Data {
            path: path.to_owned(),
            source,
        },
    })
}

/// The samples of the whole games in data files, in order; at least one game.
fn read_games(paths: &[PathBuf]) -> Result<Vec<Sample>, TrainError> {
    let mut samples = Vec::new();
    for path in paths {
        samples.extend(read_data_file(path)?.samples);
    }
    if samples.is_empty() {
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(TrainError::NoGames {
            paths: names.join(", "),
        });
    }
    Ok(samples)
}

fn fit(args: &FitArgs) -> Result<(), TrainError> {
    check_not_an_input(&args.out, &args.data)?;
    check_overwrite(&args.out, args.force, MAX_FILE_BYTES, |bytes| {
        Weights::from_bytes(bytes)
            .map(drop)
            .map_err(|error| match error {
                WeightsError::Magic { .. } => error.to_string(),
                error => format!("not a weights file this program can read ({error})"),
            })
    })?;
    let samples = read_games(&args.data)?;
    let config = FitConfig {
        seed: args.seed,
        epochs: args.epochs,
        holdout_per_mille: args.holdout,
        overlap: args.overlap,
        rate: args.rate,
        damping: args.damping,
    };
    let pool = thread_pool(args.threads).map_err(TrainError::from)?;
    let mut out = stdout();
    say(
        &mut out,
        format_args!(
            "{} in {}; mean absolute error in discs, training / held out, by empty squares:",
            counted(samples.len(), "position", "positions"),
            counted(count_games(&samples), "game", "games")
        ),
    )?;
    let header: Vec<String> = (0..PHASES)
        .map(|p| {
            format!(
                "{:>12}",
                format!("{}-{}", 6 * p, if p + 1 == PHASES { 60 } else { 6 * p + 5 })
            )
        })
        .collect();
    say(&mut out, format_args!("epoch {}", header.join("")))?;
    let bar = progress::bar(u64::from(args.epochs), "epochs");
    let started = Instant::now();
    // A failure to print stops the printing, not the fit: the weights are still written.
    let mut printed = Ok(());
    let (weights, _) = pool.install(|| {
        othello_engine::train::fit::fit(
            &samples,
            &config,
            args.report_every,
            &mut |epoch, errors| {
                let cells: Vec<String> = errors
                    .iter()
                    .map(|e| {
                        format!(
                            "{:>12}",
                            format!("{:.2}/{:.2}", e.training_error, e.held_out_error)
                        )
                    })
                    .collect();
                if printed.is_ok() {
                    printed = bar
                        .suspend(|| say(&mut out, format_args!("{epoch:>5} {}", cells.join(""))));
                }
                bar.set_position(u64::from(epoch));
            },
        )
    });
    bar.finish_and_clear();
    let bytes = weights.to_bytes();
    write_atomic(&args.out, &bytes).map_err(file_error(&args.out))?;
    printed?;
    say(
        &mut out,
        format_args!(
            "{}: {} bytes, checksum {:016x}, in {:.1} s",
            args.out.display(),
            bytes.len(),
            othello_engine::patterns::checksum(&bytes),
            started.elapsed().as_secs_f64()
        ),
    )
}

fn file_error(path: &Path) -> impl FnOnce(io::Error) -> TrainError + '_ {
    move |source| TrainError::File {
        path: path.to_owned(),
        source,
    }
}

/// Opens a data file to append games to and counts the whole games it holds. A missing or
/// empty file is created with the header; a file of self-play data loses the partial game an
/// interrupted run may have left at its end; one written before the header existed gets the
/// header (rewritten atomically, once). Any other file is refused and left as it is.
fn open_data(path: &Path) -> Result<(File, u64), TrainError> {
    let data = match std::fs::metadata(path) {
        Ok(_) => read_data_file(path)?,
        Err(error) if error.kind() == io::ErrorKind::NotFound => Data::default(),
        Err(source) => return Err(file_error(path)(source)),
    };
    let whole = if data.headed && data.whole_bytes >= DATA_MAGIC.len() as u64 {
        data.whole_bytes
    } else {
        let bytes = data_bytes(&data.samples);
        write_atomic(path, &bytes).map_err(file_error(path))?;
        bytes.len() as u64
    };
    let file = OpenOptions::new()
        .read(true)
        .append(true)
        .open(path)
        .map_err(file_error(path))?;
    let length = file.metadata().map_err(file_error(path))?.len();
    if length > whole {
        // A game cut short by an interrupted run: drop it, it is made again.
        file.set_len(whole).map_err(file_error(path))?;
    }
    Ok((file, data.games()))
}

fn selfplay(args: &SelfplayArgs) -> Result<(), TrainError> {
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
    let bar = progress::bar(args.games, "games");
    bar.set_position(done.min(args.games));
    let started = Instant::now();
    let mut positions = 0u64;
    let mut next = done;
    while next < args.games {
        let end = (next + BATCH).min(args.games);
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
        bar.set_position(end);
        next = end;
    }
    file.sync_all().map_err(file_error(path))?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    say(
        &mut out,
        format_args!(
            "{}: {} ({} new, {}) in {seconds:.1} s",
            path.display(),
            counted(args.games.max(done), "game", "games"),
            args.games.saturating_sub(done),
            counted(positions, "position", "positions"),
        ),
    )
}
