//! What the line dialogue writes besides the answers to commands: the welcome, the board
//! with its status line, the help, warnings.

use std::io::Write;

use othello::{Color, Outcome};
use othello_session::{Command, Controller, Player};

use super::Dialogue;
use crate::PlayError;
use crate::saved;
use crate::view::{self, Palette, label, squares};

impl Dialogue {
    pub(super) fn welcome(&self, out: &mut impl Write) -> Result<(), PlayError> {
        let game = self.game();
        let mut text = format!(
            "Othello, {} board, {} rules, {} discs wins.\n",
            game.board().dims(),
            game.rules(),
            game.win_rule()
        );
        for color in Color::ALL {
            let player = &self.players[color];
            let kind = match player.controller {
                Controller::Human => "human".to_owned(),
                Controller::Computer(level) => format!("computer at level {level}"),
            };
            let name = if player.has_default_name() {
                String::new()
            } else {
                format!("{}, ", Palette::paint(self.palette.strong, &player.name))
            };
            text.push_str(&format!(
                "{} ({}): {name}{kind}.\n",
                view::capitalized(color.name()),
                view::glyph(color),
            ));
        }
        if self.players.black.is_human() || self.players.white.is_human() {
            text.push_str(
                "Type a move such as d3 (or 3d, or \"3 4\" for row 3, column 4), or help for the commands.\n",
            );
        }
        write_out(out, &text)
    }

    /// Says so when the first player cannot move at the start.
    pub(super) fn announce_start(&self, out: &mut impl Write) -> Result<(), PlayError> {
        let game = self.game();
        let first = game.first_player();
        match game.turn() {
            Some(turn) if turn != first => write_out(
                out,
                &format!(
                    "{} has no legal move at the start and passes; {} moves first.\n",
                    label(&self.players[first]),
                    label(&self.players[turn])
                ),
            ),
            _ => Ok(()),
        }
    }

    pub(super) fn strong(&self, player: &Player) -> String {
        Palette::paint(self.palette.strong, label(player))
    }

    /// The board and the status line, unless already shown.
    pub(super) fn show(&mut self, out: &mut impl Write) -> Result<(), PlayError> {
        if self.shown {
            return Ok(());
        }
        self.shown = true;
        let game = self.game();
        let human_to_move = game
            .turn()
            .is_some_and(|color| self.players[color].is_human());
        let last = self.session.last_move().map(|played| played.square);
        let mut text = String::from("\n");
        text.push_str(&view::board(game, last, human_to_move, &self.palette));
        text.push_str(&self.status_line());
        text.push('\n');
        if human_to_move {
            text.push_str(&format!("Legal moves: {}\n", squares(&game.legal_moves())));
        }
        write_out(out, &text)
    }

    /// `Alice (X) 2 - 2 Computer (O)   Alice (X) to move`, or the result once the game is over.
    pub(super) fn status_line(&self) -> String {
        let game = self.game();
        let score = game.score();
        let players = &self.players;
        let mut line = format!(
            "{} {} - {} {}   ",
            label(&players.black),
            score.black,
            score.white,
            label(&players.white)
        );
        match game.turn() {
            Some(color) => line.push_str(&format!("{} to move", self.strong(&players[color]))),
            None => line.push_str(&self.result_sentence()),
        }
        line
    }

    /// Who won and by how much, or a draw.
    pub(super) fn result_sentence(&self) -> String {
        let game = self.game();
        match game.outcome() {
            Some(Outcome::Win(color)) => {
                let how = view::win_phrase(game, color);
                format!("{} wins {how}.", self.strong(&self.players[color]))
            }
            Some(Outcome::Draw) | None => "The game is a draw.".to_owned(),
        }
    }

    pub(super) fn warn(
        &self,
        out: &mut impl Write,
        message: impl std::fmt::Display,
    ) -> Result<(), PlayError> {
        write_out(
            out,
            &format!("{}\n", Palette::paint(self.palette.warning, message)),
        )
    }

    pub(super) fn help(&self, out: &mut impl Write) -> Result<(), PlayError> {
        let game = self.game();
        let mut text = String::from("Commands:\n");
        for (words, meaning) in Command::HELP {
            if words == "new" {
                // With the settings this front end takes.
                text.push_str(NEW_HELP);
                continue;
            }
            // `save` is a command of this front end, listed before help and quit.
            if words == "help" {
                text.push_str(&format!(
                    "  {:<13} save the game so far (to FILE, the --save file or {})\n",
                    "save [FILE]",
                    saved::DEFAULT_FILE
                ));
            }
            text.push_str(&format!("  {words:<13} {meaning}\n"));
        }
        if !self.echo {
            // At a terminal (piped transcripts keep their old help).
            text.push_str("  board         show the board again\n");
        }
        text.push_str(&format!(
            "Board: {} black, {} white, {} a legal move, [ ] around the last move.\n",
            view::BLACK,
            view::WHITE,
            view::LEGAL
        ));
        text.push_str(&format!(
            "Columns a to {}, rows 1 to {}; {} rules, {} discs wins. A player without a legal move passes automatically.\n",
            char::from(b'a' + game.board().dims().cols() as u8 - 1),
            game.board().dims().rows(),
            game.rules(),
            game.win_rule(),
        ));
        write_out(out, &text)
    }
}

/// The help of `new`, in 80 columns.
const NEW_HELP: &str = "  new [OPTIONS] start a new game; OPTIONS change it, as in new 6x6 simple
                win=fewest first=white black=human white=computer:4 (or white=4)
";

/// Writes `text` to `out`.
pub(super) fn write_out(out: &mut impl Write, text: &str) -> Result<(), PlayError> {
    out.write_all(text.as_bytes()).map_err(PlayError::Write)
}
