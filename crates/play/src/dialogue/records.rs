//! The line dialogue's game records: the move list shown at the end, the `save` command and
//! `--save`, and the line appended to the results file.

use std::io::Write;
use std::path::Path;

use othello_records::{Metadata, movelist};

use super::output::write_out;
use super::{Dialogue, echoed, is_yes};
use crate::PlayError;
use crate::lines::Lines;
use crate::results;
use crate::saved;

impl Dialogue {
    /// The moves so far as a move list (`f5d6c3...`, with the board size and rules in front
    /// when they are not 8x8 FULL); squares separated by spaces from a start a move list
    /// cannot hold.
    pub(super) fn move_list(&self) -> String {
        let record = self.session.record(Metadata::default());
        movelist::line(&record).unwrap_or_else(|| {
            record
                .squares()
                .map(|square| square.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
    }

    /// The `save` command: to FILE, or the `--save` file, or the default file; asks first when
    /// the file holds something that is not this one game.
    pub(super) fn save_now(
        &mut self,
        file: Option<&str>,
        input: &mut impl Lines,
        out: &mut impl Write,
    ) -> Result<(), PlayError> {
        let path = saved::target(file, self.save.as_deref());
        if let Some(risk) = saved::overwrite_risk(&path) {
            let shown = echoed(&path.display().to_string());
            let question = format!("Overwrite {shown} ({risk})? [y/N] ");
            let answer = self.read_line(&question, input, out)?;
            if !answer.is_some_and(|answer| is_yes(&answer)) {
                return write_out(out, "Not saved.\n");
            }
        }
        self.save_to(&path, out, false)
    }

    /// Saves the game to `path`: a failure is a warning, or the run's failure when `fatal`.
    pub(super) fn save_to(
        &mut self,
        path: &Path,
        out: &mut impl Write,
        fatal: bool,
    ) -> Result<(), PlayError> {
        match saved::save(path, &saved::record(&self.session, &self.players)) {
            Ok(format) => write_out(
                out,
                &format!(
                    "{}\n",
                    saved::saved(path, format, self.session.moves_played())
                ),
            ),
            Err(error) if fatal => Err(PlayError::SaveGame(error)),
            Err(error) => self.warn(out, error),
        }
    }

    pub(super) fn log_result(&mut self, out: &mut impl Write) -> Result<(), PlayError> {
        let Some(file) = self.results.as_mut() else {
            return Ok(());
        };
        let line = results::line(&results::now(), self.session.game(), &self.players);
        match file.append(&line) {
            Ok(()) => write_out(
                out,
                &format!("Result appended to {}.\n", file.path().display()),
            ),
            Err(error) => {
                let message = format!(
                    "othello: cannot append to results file {}: {error}",
                    file.path().display()
                );
                out.flush().map_err(PlayError::Write)?;
                othello_io::warn(format_args!("{message}"));
                Ok(())
            }
        }
    }
}
