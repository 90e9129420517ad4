//! Evaluations named on the command line: `trained` (the weights compiled in), `classic` (the
//! hand-made one) or the path of a weights file written by `othello train fit`, as `solve`,
//! `train` and `match` take them.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::ValueEnum;
use thiserror::Error;

use othello_engine::Evaluation;
use othello_engine::patterns::{MAX_FILE_BYTES, Weights, WeightsError};

/// One of the built-in evaluations, as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EvalArg {
    /// The trained pattern evaluation.
    Trained,
    /// The hand-made evaluation.
    Classic,
}

impl From<EvalArg> for Evaluation {
    fn from(arg: EvalArg) -> Evaluation {
        match arg {
            EvalArg::Trained => Evaluation::Trained,
            EvalArg::Classic => Evaluation::Classic,
        }
    }
}

/// Why a weights file named on the command line cannot be used.
#[derive(Debug, Error)]
pub enum WeightsFileError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// The file is not one `othello train fit` wrote for this program's patterns.
    #[error("{path}: {source}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: WeightsError,
    },
}

/// The evaluation named `name`: `trained`, `classic` or a weights file (read now and kept for
/// the rest of the run).
pub fn evaluation(name: &str) -> Result<Evaluation, WeightsFileError> {
    match name {
        "trained" => Ok(Evaluation::Trained),
        "classic" => Ok(Evaluation::Classic),
        _ => weights_file(Path::new(name)),
    }
}

/// The evaluation of the weights file at `path` (read within the size a weights file can have).
pub fn weights_file(path: &Path) -> Result<Evaluation, WeightsFileError> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|file| file.take(MAX_FILE_BYTES as u64 + 1).read_to_end(&mut bytes))
        .map_err(|source| WeightsFileError::Read {
            path: path.to_owned(),
            source,
        })?;
    let weights = Weights::from_bytes(&bytes).map_err(|source| WeightsFileError::Invalid {
        path: path.to_owned(),
        source,
    })?;
    Ok(Evaluation::Weights(Arc::new(weights)))
}
