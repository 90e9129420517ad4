//! Why `othello train` failed ([`TrainError`]), and the exit status of each failure.

use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::ThreadsError;
use othello_engine::train::{DataError, SampleError};
use othello_io::atomic::NotOurs;
use othello_io::records::RecordsFileError;

use crate::weights::WeightsFileError;

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
    /// A shard's data file ends in a game cut short: its run did not finish.
    #[error(
        "{path}: ends in a game cut short (its shard's run was interrupted: run it again to finish it)",
        path = .path.display()
    )]
    PartialGame {
        /// The file.
        path: PathBuf,
    },
    /// A shard's data file does not hold the games of its part of the run.
    #[error(
        "{path}: holds {holds} games, shard {shard} of the run's has {games} (not finished, or not that shard)",
        path = .path.display()
    )]
    ShardGames {
        /// The file.
        path: PathBuf,
        /// The shard it is given as, `K/N`.
        shard: String,
        /// The games it holds.
        holds: u64,
        /// The games of its part.
        games: u64,
    },
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
            | TrainError::PartialGame { .. }
            | TrainError::ShardGames { .. }
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

pub(super) fn file_error(path: &Path) -> impl FnOnce(io::Error) -> TrainError + '_ {
    move |source| TrainError::File {
        path: path.to_owned(),
        source,
    }
}
