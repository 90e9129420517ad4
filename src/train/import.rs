//! `othello train import`: the games of records turned into a data file, each position once.

use std::path::PathBuf;

use clap::Args;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use othello::RuleSet;
use othello::text::counted;
use othello_engine::train::data::data_bytes;
use othello_engine::train::records::{RecordPositions, Unused};
use othello_engine::train::{DATA_MAGIC, Sample};
use othello_io::atomic::{check_overwrite_by_head, write_atomic};
use othello_io::records::RecordsFile;

use super::error::{TrainError, file_error};
use super::{check_not_an_input, say, stdout};

/// Arguments of `othello train import`.
#[derive(Debug, Args)]
pub(super) struct ImportArgs {
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

pub(super) fn run(args: &ImportArgs) -> Result<(), TrainError> {
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
