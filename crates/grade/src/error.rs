//! Why `othello gen` or `othello check` stopped, and the exit status each reason gets.

use std::io;

use thiserror::Error;

use crate::check::CheckError;
use crate::gen_command::GenError;

/// Why `othello gen` or `othello check` stopped.
#[derive(Debug, Error)]
pub enum GradeError {
    /// `othello gen` could not write its cases.
    #[error(transparent)]
    Gen(#[from] GenError),
    /// `othello check` could not check.
    #[error(transparent)]
    Check(#[from] CheckError),
    /// Some cases of `othello check` did not pass; its report says which.
    #[error("{failed} of {total} cases failed")]
    CasesFailed {
        /// Cases that did not pass.
        failed: usize,
        /// All cases.
        total: usize,
    },
    /// Standard output could not be written.
    #[error("cannot write standard output: {0}")]
    Write(io::Error),
}

impl GradeError {
    /// The process exit status: `gen`: 2 for an unusable directory, 1 for a failed write;
    /// `check`: 1 when some case failed, 2 when it could not check (see
    /// [`CheckError::exit_status`]); 1 when standard output could not be written.
    #[must_use]
    pub fn exit_status(&self) -> u8 {
        match self {
            GradeError::Gen(error) => error.exit_status(),
            GradeError::Check(error) => error.exit_status(),
            GradeError::CasesFailed { .. } | GradeError::Write(_) => 1,
        }
    }

    /// Whether standard output was closed by its reader (`othello check ... | head`).
    #[must_use]
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, GradeError::Write(error) if error.kind() == io::ErrorKind::BrokenPipe)
    }
}
