//! `othello train`: the pipeline that makes the 8x8 pattern evaluation's weights. `selfplay`
//! appends self-play games to a data file (continuing where a previous run stopped), `fit`
//! fits the weights to a data file and writes the weights file (`othello match` plays them
//! against each other).
//!
//! One module per step (`selfplay`, `fit`, `rescore`, `import`, `probcut`, `merge`); the data
//! files' reading and opening in `data`, the shards of a run in `shard`, the failures in
//! `error`.

mod data;
mod error;
mod fit;
mod import;
mod merge;
mod probcut;
mod rescore;
mod selfplay;

use std::io::{self, Stdout, Write};
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use othello_engine::train::SelfPlay;
use othello_engine::{Engine, Evaluation};
use othello_io::atomic::same_file;

use super::Failure;

pub use error::TrainError;

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
    Selfplay(selfplay::SelfplayArgs),
    /// Fit the pattern weights to data files of `selfplay` and write the weights file,
    /// printing each phase's mean absolute error (training and held out) as it goes.
    Fit(fit::FitArgs),
    /// Copy a data file with the scores of its inexact positions replaced by the values of a
    /// deeper search (targets for a further round of fitting); a run continues the games
    /// already in the output file.
    Rescore(rescore::RescoreArgs),
    /// Turn the games of records (the WTHOR database, GGF archives, move lists) into a data
    /// file for `rescore`: each position once, scored by its game's result until rescored.
    Import(import::ImportArgs),
    /// Fit the error model of the midgame search's probabilistic cut-offs: search positions
    /// of data files deeper and deeper, compare each depth with its shallow search, and
    /// print the model's coefficients for `crates/engine/src/probcut.rs`.
    Probcut(probcut::ProbcutArgs),
    /// Join the data files of a run's shards (`selfplay` or `rescore` with `--shard K/N`), in
    /// shard order, into the file that one run from the same seed writes, byte for byte.
    Merge(merge::MergeArgs),
}

/// Games played between two writes to the data file.
const BATCH: u64 = 16;

/// Runs a step of the pipeline.
pub fn run(args: &TrainArgs) -> Result<(), Failure> {
    match &args.step {
        Step::Selfplay(args) => Ok(selfplay::run(args)?),
        Step::Fit(args) => Ok(fit::run(args)?),
        Step::Rescore(args) => Ok(rescore::run(args)?),
        Step::Probcut(args) => Ok(probcut::run(args)?),
        Step::Import(args) => Ok(import::run(args)?),
        Step::Merge(args) => Ok(merge::run(args)?),
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
