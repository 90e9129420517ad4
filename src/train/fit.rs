//! `othello train fit`: the pattern weights fitted to data files and written to a weights
//! file, each phase's errors printed as the fit goes.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use crate::{progress, thread_pool, threads_parser};
use othello::text::counted;
use othello_engine::patterns::{MAX_FILE_BYTES, PHASES, Weights, WeightsError};
use othello_engine::train::data::count_games;
use othello_engine::train::fit::{FitConfig, Method};
use othello_io::atomic::{check_overwrite, write_atomic};

use super::data::read_games;
use super::error::{TrainError, file_error};
use super::{check_not_an_input, say, stdout};

/// Arguments of `othello train fit`.
#[derive(Debug, Args)]
pub(super) struct FitArgs {
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

    /// Passes over the data.
    #[arg(long, value_name = "N", default_value_t = 300)]
    epochs: u32,

    /// Per mille of the games held out.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u32).range(0..=999))]
    holdout: u32,

    /// The step size of gradient descent.
    #[arg(long, value_name = "X", default_value_t = 0.01, conflicts_with = "ridge", value_parser = non_negative)]
    rate: f32,

    /// Occurrences added to every configuration's count in gradient descent.
    #[arg(long, value_name = "X", default_value_t = 10.0, conflicts_with = "ridge", value_parser = non_negative)]
    damping: f32,

    /// Fit by conjugate gradients instead of gradient descent, with this penalty on each
    /// weight's square (in occurrences: a configuration seen X times is pulled half way to 0).
    #[arg(long, value_name = "X", value_parser = non_negative)]
    ridge: Option<f32>,

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

/// A finite number at or above 0.
fn non_negative(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err(format!("'{text}' is not a number at or above 0")),
    }
}

pub(super) fn run(args: &FitArgs) -> Result<(), TrainError> {
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
        method: match args.ridge {
            Some(ridge) => Method::Conjugate { ridge },
            None => Method::Descent {
                rate: args.rate,
                damping: args.damping,
            },
        },
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
