//! `othello train merge`: the data files of a sharded run (`--shard K/N`), joined in shard
//! order into the file that one run from the same seed writes, byte for byte.

use std::path::PathBuf;

use clap::Args;

use othello::text::counted;
use othello_engine::train::DATA_MAGIC;
use othello_engine::train::data::data_bytes;
use othello_io::atomic::{check_overwrite_by_head, write_atomic};

use super::data::read_data_file;
use super::error::{TrainError, file_error};
use super::{check_not_an_input, say, stdout};
use crate::shard::Shard;

/// Arguments of `othello train merge`.
#[derive(Debug, Args)]
pub(super) struct MergeArgs {
    /// The shards' data files, in shard order (1/N first).
    #[arg(required = true)]
    shards: Vec<PathBuf>,

    /// The data file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,

    /// The games of the whole run (selfplay's --games; rescore's, or its input's games): each
    /// shard must hold all of its part, so that an unfinished or missing shard is refused.
    #[arg(long, value_name = "N")]
    games: Option<u64>,

    /// Replace --out even when it is not a data file.
    #[arg(long)]
    force: bool,
}

pub(super) fn run(args: &MergeArgs) -> Result<(), TrainError> {
    check_not_an_input(&args.out, &args.shards)?;
    check_overwrite_by_head(&args.out, args.force, DATA_MAGIC.len(), |head| {
        if head.is_empty() || head == DATA_MAGIC {
            Ok(())
        } else {
            Err("not a data file of othello train".to_owned())
        }
    })?;
    let mut samples = Vec::new();
    let count = args.shards.len() as u64;
    for (index, path) in (1..).zip(&args.shards) {
        let data = read_data_file(path)?;
        let length = std::fs::metadata(path).map_err(file_error(path))?.len();
        if data.whole_bytes < length {
            return Err(TrainError::PartialGame { path: path.clone() });
        }
        if let Some(games) = args.games {
            let shard = Shard { index, count };
            let part = shard.games(games);
            if data.games() != part.end - part.start {
                return Err(TrainError::ShardGames {
                    path: path.clone(),
                    shard: shard.to_string(),
                    holds: data.games(),
                    games: part.end - part.start,
                });
            }
        }
        samples.extend(data.samples);
    }
    let games = othello_engine::train::data::count_games(&samples);
    write_atomic(&args.out, &data_bytes(&samples)).map_err(file_error(&args.out))?;
    say(
        &mut stdout(),
        format_args!(
            "{}: {} ({}) from {}",
            args.out.display(),
            counted(games, "game", "games"),
            counted(samples.len(), "position", "positions"),
            counted(args.shards.len(), "shard", "shards"),
        ),
    )
}
