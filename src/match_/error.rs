//! Why `othello match` failed ([`MatchError`]), and the exit status of each failure.

use std::io;
use std::path::PathBuf;

use thiserror::Error;

use crate::weights::WeightsFileError;
use othello_io::atomic::NotOurs;
use othello_io::book::BookFileError;
use othello_io::records::RecordsFileError;

/// Why `othello match` failed.
#[derive(Debug, Error)]
pub enum MatchError {
    /// A weights file of a player cannot be used.
    #[error(transparent)]
    Weights(WeightsFileError),
    /// A book file of a player cannot be used.
    #[error(transparent)]
    Book(BookFileError),
    /// The openings file cannot be read.
    #[error(transparent)]
    OpeningsFile(#[from] RecordsFileError),
    /// A game of the openings file is not an opening.
    #[error("{name}: game {number}: {problem}")]
    Opening {
        /// The file.
        name: String,
        /// The game's number, from 1.
        number: usize,
        /// What is wrong.
        problem: String,
    },
    /// The openings file holds no game.
    #[error("{name}: no opening in it")]
    NoOpenings {
        /// The file.
        name: String,
    },
    /// `--save` names a file that is not a game record.
    #[error(transparent)]
    NotOurs(#[from] NotOurs),
    /// An engine cannot be started.
    #[error("{name}: {problem}")]
    Start {
        /// The player as named.
        name: String,
        /// Why.
        problem: String,
    },
    /// The games cannot be saved.
    #[error("{path}: {source}", path = .path.display())]
    Save {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// Standard output could not be written.
    #[error("cannot write standard output: {0}")]
    Write(io::Error),
    /// A worker thread could not be started.
    #[error("cannot start the match's threads: {0}")]
    Threads(io::Error),
}

impl MatchError {
    /// 2 for what the command line names and cannot be used, 1 for failures while running.
    pub fn exit_status(&self) -> u8 {
        match self {
            MatchError::Weights(_)
            | MatchError::Book(_)
            | MatchError::OpeningsFile(_)
            | MatchError::Opening { .. }
            | MatchError::NoOpenings { .. }
            | MatchError::NotOurs(_) => 2,
            MatchError::Start { .. }
            | MatchError::Save { .. }
            | MatchError::Write(_)
            | MatchError::Threads(_) => 1,
        }
    }

    /// Whether standard output was closed by its reader (not worth a message).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, MatchError::Write(error) if error.kind() == io::ErrorKind::BrokenPipe)
    }
}
