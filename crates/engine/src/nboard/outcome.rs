//! What one NBoard command leads to ([`Outcome`]), as [`super::NBoard::handle`] gives it.

use super::Task;

/// What one command leads to: the lines that answer it, notes for a log, a search to run, the
/// end of the session.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Lines for the GUI, each without its `\n`.
    pub lines: Vec<String>,
    /// Notes for a log (standard error): commands ignored and why.
    pub notes: Vec<String>,
    /// A search to run; its lines follow [`Outcome::lines`].
    pub task: Option<Task>,
    /// The GUI asked the engine to end.
    pub quit: bool,
}

impl Outcome {
    pub(super) fn line(line: String) -> Outcome {
        Outcome {
            lines: vec![line],
            ..Outcome::default()
        }
    }

    pub(super) fn note(note: String) -> Outcome {
        Outcome {
            notes: vec![note],
            ..Outcome::default()
        }
    }

    pub(super) fn task(task: Task) -> Outcome {
        Outcome {
            task: Some(task),
            ..Outcome::default()
        }
    }
}
