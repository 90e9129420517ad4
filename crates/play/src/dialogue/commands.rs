//! What the line dialogue's commands do: a move, a pass refused, the computer's move, a hint,
//! undo, redo and a new game.

use std::io::Write;
use std::time::Duration;

use othello::text::counted;
use othello::{Color, MoveError, Played, Square};
use othello_session::computers;
use othello_session::hint::Suggestion;
use othello_session::settings::{Changes, GameSettings};

use super::output::write_out;
use super::{Dialogue, Next, interrupted, is_yes};
use crate::PlayError;
use crate::lines::Lines;
use crate::view::{self, label, move_sentences, squares};

impl Dialogue {
    pub(super) fn human_plays(
        &mut self,
        square: Square,
        out: &mut impl Write,
    ) -> Result<(), PlayError> {
        match self.session.play(square) {
            Ok(played) => self.moved(played, out),
            Err(error @ (MoveError::Illegal { .. } | MoveError::Occupied { .. })) => {
                let moves = squares(&self.game().legal_moves());
                self.warn(out, format!("{error}. Legal moves: {moves}"))
            }
            Err(error) => self.warn(out, error),
        }
    }

    /// Passing is only allowed without a legal move, and a player without one passes
    /// automatically before being asked; so a pass typed at the prompt is always refused.
    pub(super) fn refuse_pass(&self, color: Color, out: &mut impl Write) -> Result<(), PlayError> {
        let moves = self.game().moves_of(color);
        let count = moves.len();
        self.warn(
            out,
            format!(
                "You cannot pass while you can move: you have {} ({}).",
                counted(count, "legal move", "legal moves"),
                squares(&moves)
            ),
        )
    }

    /// Announces a move, any pass it forces, and the end of the game.
    pub(super) fn moved(&mut self, played: Played, out: &mut impl Write) -> Result<(), PlayError> {
        self.shown = false;
        let (move_sentence, pass) = move_sentences(&self.players, played);
        let mut text = move_sentence + "\n";
        if let Some(pass) = pass {
            text.push_str(&pass);
            text.push('\n');
        }
        write_out(out, &text)
    }

    pub(super) fn computer_moves(
        &mut self,
        color: Color,
        out: &mut impl Write,
    ) -> Result<Next, PlayError> {
        out.flush().map_err(PlayError::Write)?;
        let delay = if self.players.black.is_human() || self.players.white.is_human() {
            Duration::ZERO
        } else {
            self.delay
        };
        let game = self.session.game().clone();
        let computer = self.computers[color]
            .as_mut()
            .expect("every computer player has an engine");
        let label = format!("{} is thinking", label(&self.players[color]));
        let Some(choice) = self
            .thinking
            .think(&label, delay, |stop| computer.choose(&game, stop))
        else {
            return interrupted(out);
        };
        match choice {
            Ok(choice) => {
                let played = self
                    .session
                    .play(choice.square)
                    .expect("the engine plays legal moves");
                self.moved(played, out)?;
                self.show(out)?;
                Ok(Next::Continue)
            }
            // The loop only asks for a move while the game goes on.
            Err(error) => Err(PlayError::Engine(error)),
        }
    }

    pub(super) fn hint(&mut self, out: &mut impl Write) -> Result<Next, PlayError> {
        out.flush().map_err(PlayError::Write)?;
        let game = self.session.game().clone();
        let adviser = &mut self.adviser;
        let Some(report) = self.thinking.think("Thinking", Duration::ZERO, |stop| {
            adviser.analyse(&game, stop)
        }) else {
            return interrupted(out);
        };
        let report = report.map_err(PlayError::Engine)?;
        let sentence = Suggestion::of(&report).sentence();
        write_out(out, &format!("{sentence}\n"))?;
        Ok(Next::Continue)
    }

    pub(super) fn undo(&mut self, out: &mut impl Write) -> Result<(), PlayError> {
        let players = &self.players;
        match self.session.undo(|color| players[color].is_human()) {
            Some(count) => {
                self.shown = false;
                self.ended = false;
                write_out(
                    out,
                    &format!("Took back {}.\n", counted(count, "move", "moves")),
                )
            }
            None => self.warn(
                out,
                "Nothing to undo: no move typed here has been played yet.",
            ),
        }
    }

    pub(super) fn redo(&mut self, out: &mut impl Write) -> Result<(), PlayError> {
        let Some(replayed) = self.session.redo() else {
            return self.warn(out, "Nothing to redo.");
        };
        self.shown = false;
        let again: Vec<Square> = replayed.iter().map(|played| played.square).collect();
        write_out(out, &format!("Played again: {}.\n", squares(&again)))
    }

    /// Starts again, with the settings `changes` gives (words such as `6x6 white=human`),
    /// after asking if that would abandon a game in progress.
    pub(super) fn new_game(
        &mut self,
        changes: &str,
        input: &mut impl Lines,
        out: &mut impl Write,
    ) -> Result<Next, PlayError> {
        let changes: Changes = match changes.parse() {
            Ok(changes) => changes,
            Err(error) => {
                self.warn(out, format!("{}.", view::capitalized(&error.to_string())))?;
                return Ok(Next::Continue);
            }
        };
        if self.session.in_progress() {
            let Some(answer) = self.read_line(
                "A game is in progress. Abandon it and start a new one? [y/N] ",
                input,
                out,
            )?
            else {
                return Ok(Next::Quit);
            };
            if !is_yes(&answer) {
                write_out(out, "Carrying on with this game.\n")?;
                return Ok(Next::Continue);
            }
        }
        self.shown = false;
        self.ended = false;
        if changes.is_empty() {
            self.session.restart();
            write_out(out, "New game.\n")?;
        } else {
            let current = GameSettings::of(&self.session, &self.players);
            let next = changes.apply(&current);
            next.start(&current, &mut self.session);
            if next.players != self.players {
                self.players = next.players;
                self.computers = computers(&self.players, self.seed, &self.book);
            }
            write_out(out, "New game.\n")?;
            self.welcome(out)?;
        }
        self.announce_start(out)?;
        Ok(Next::Continue)
    }
}
