//! The line dialogue's game loop: show the position, ask the person to move or let the
//! computer move, answer commands, and report the end.
//!
//! [`Dialogue`] holds the game and runs the loop here, reading lines; what each command does
//! is in [`commands`], what the dialogue writes (the welcome, the board, help, warnings) in
//! [`output`], and saving and logging the game in [`records`].

mod commands;
mod output;
mod records;

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use othello::{ByColor, Color, Game, Square};
use othello_engine::computer::{Computer, Level};
use othello_records::GameRecord;
use othello_session::{BookChoice, Command, CommandError, Player, Session, computers};

use super::lines::{LineRead, Lines};
use super::results::ResultsFile;
use super::saved;
use super::thinking::Thinking;
use super::view::{Palette, label, squares};
use crate::PlayError;
use output::write_out;

/// The level `hint` searches at.
const HINT_LEVEL: Level = Level::HINT;

/// A game in progress with its players, and where the output goes.
pub struct Dialogue {
    session: Session,
    players: ByColor<Player>,
    computers: ByColor<Option<Computer>>,
    adviser: Computer,
    palette: Palette,
    results: Option<ResultsFile>,
    /// How the computer's thinking is shown and interrupted.
    thinking: Thinking,
    /// Input lines are repeated after the prompt (when they do not come from a terminal).
    echo: bool,
    /// The current position has been shown since it last changed.
    shown: bool,
    /// The end of the current game has been reported (and logged).
    ended: bool,
    /// Where `--save` writes the game.
    save: Option<PathBuf>,
    /// Said after the welcome: where a loaded game comes from.
    loaded: Option<String>,
    /// The pause before each move of a game between two computer players.
    delay: Duration,
    /// Seeds the computer players' choices.
    seed: u64,
    /// The opening book of the computer players.
    book: BookChoice,
}

/// Said when Ctrl-C ends the game.
const INTERRUPTED: &str = "Interrupted: the game is left unfinished. Goodbye.\n";

/// What to do after a command.
enum Next {
    Continue,
    Quit,
}

impl Dialogue {
    /// A dialogue for `game` between `players`. `seed` makes the computer's choices repeatable;
    /// `thinking` says how the computer's searches are shown and interrupted; `echo` repeats each
    /// line read after its prompt, so that a transcript of piped input reads like a session.
    pub fn new(
        game: Game,
        players: ByColor<Player>,
        palette: Palette,
        seed: u64,
        results: Option<ResultsFile>,
        thinking: Thinking,
        echo: bool,
    ) -> Dialogue {
        let computers = computers(&players, seed, &BookChoice::Builtin);
        Dialogue {
            session: Session::new(game),
            players,
            computers,
            adviser: Computer::new(HINT_LEVEL, seed),
            palette,
            results,
            thinking,
            echo,
            shown: false,
            ended: false,
            save: None,
            loaded: None,
            delay: Duration::ZERO,
            seed,
            book: BookChoice::Builtin,
        }
    }

    /// Has the computer players play from `book`.
    pub fn with_book(self, book: BookChoice) -> Dialogue {
        let computers = computers(&self.players, self.seed, &book);
        Dialogue {
            computers,
            book,
            ..self
        }
    }

    /// Pauses for `delay` before each move when two computer players play each other, so
    /// that people can follow the game.
    pub fn with_delay(self, delay: Duration) -> Dialogue {
        Dialogue { delay, ..self }
    }

    /// Writes the game to `path` when it ends, and is where `save` writes by default.
    pub fn set_save(&mut self, path: Option<PathBuf>) {
        self.save = path;
    }

    /// Continues the game of `record` (read from `name`): its moves are played from its start,
    /// so that undo can take them back.
    pub fn continue_from(&mut self, record: &GameRecord, name: &str) {
        self.session = Session::continuing(record);
        self.loaded = Some(format!("{}\n", saved::continuing(record, name)));
    }

    /// Plays until the player quits or `input` ends.
    pub fn run(&mut self, mut input: impl Lines, out: &mut impl Write) -> Result<(), PlayError> {
        self.welcome(out)?;
        match self.loaded.take() {
            Some(loaded) => write_out(out, &loaded)?,
            None => self.announce_start(out)?,
        }
        loop {
            let next = match self.session.game().turn() {
                None => self.after_the_end(&mut input, out)?,
                Some(color) if !self.players[color].is_human() => {
                    self.computer_moves(color, out)?
                }
                Some(color) => self.human_moves(color, &mut input, out)?,
            };
            if let Next::Quit = next {
                return Ok(());
            }
        }
    }

    fn game(&self) -> &Game {
        self.session.game()
    }

    /// Reads a line after showing `prompt`; `None` at the end of the input (or on Ctrl-C at
    /// a terminal).
    fn read_line(
        &self,
        prompt: &str,
        input: &mut impl Lines,
        out: &mut impl Write,
    ) -> Result<Option<String>, PlayError> {
        match input.read(prompt, &self.completions(), out)? {
            LineRead::Line(line) => {
                if self.echo {
                    write_out(out, &format!("{}\n", echoed(&line)))?;
                }
                Ok(Some(line))
            }
            // The line editor has ended the prompt's line.
            LineRead::End if input.interactive() => {
                write_out(out, "Goodbye.\n")?;
                Ok(None)
            }
            // End the prompt's line so the shell starts on a fresh one.
            LineRead::End => {
                write_out(out, "\n")?;
                Ok(None)
            }
            LineRead::Interrupted => {
                write_out(out, INTERRUPTED)?;
                Ok(None)
            }
        }
    }

    /// What Tab completes at the prompt: the legal moves and the command words.
    fn completions(&self) -> Vec<String> {
        let moves = self.game().legal_moves();
        let words = Command::WORDS.into_iter().chain(["yes", "no"]);
        moves
            .iter()
            .map(Square::to_string)
            .chain(words.map(str::to_owned))
            .collect()
    }

    fn human_moves(
        &mut self,
        color: Color,
        input: &mut impl Lines,
        out: &mut impl Write,
    ) -> Result<Next, PlayError> {
        self.show(out)?;
        let prompt = format!("{}> ", label(&self.players[color]));
        let Some(line) = self.read_line(&prompt, input, out)? else {
            return Ok(Next::Quit);
        };
        let command = match Command::parse(&line, self.game().board().dims()) {
            Ok(command) => command,
            Err(error) => {
                self.warn(out, error)?;
                return Ok(Next::Continue);
            }
        };
        match command {
            Command::Play(square) => self.human_plays(square, out)?,
            Command::Pass => self.refuse_pass(color, out)?,
            Command::Moves => write_out(
                out,
                &format!(
                    "Legal moves for {}: {}\n",
                    label(&self.players[color]),
                    squares(&self.game().legal_moves())
                ),
            )?,
            Command::Hint => return self.hint(out),
            Command::Undo => self.undo(out)?,
            Command::New(changes) => return self.new_game(&changes, input, out),
            Command::Save(file) => self.save_now(file.as_deref(), input, out)?,
            Command::Board => {
                self.shown = false;
                self.show(out)?;
            }
            Command::Redo => self.redo(out)?,
            Command::Help => self.help(out)?,
            Command::Quit => return Ok(Next::Quit),
        }
        Ok(Next::Continue)
    }

    /// Reports the end once (and logs it), then waits for `new`, `undo` or `quit`.
    fn after_the_end(
        &mut self,
        input: &mut impl Lines,
        out: &mut impl Write,
    ) -> Result<Next, PlayError> {
        if !self.ended {
            self.ended = true;
            self.show(out)?;
            write_out(out, "Game over.\n")?;
            write_out(out, &format!("Moves: {}\n", self.move_list()))?;
            self.log_result(out)?;
            let unattended = !self.players.black.is_human() && !self.players.white.is_human();
            if let Some(path) = self.save.clone() {
                // With nobody there to read a warning, a failed save fails the run.
                self.save_to(&path, out, unattended)?;
            }
            if unattended {
                return Ok(Next::Quit);
            }
        }
        let Some(line) = self.read_line(
            "Type new to play again, undo to take back, save, or quit: ",
            input,
            out,
        )?
        else {
            return Ok(Next::Quit);
        };
        match Command::parse(&line, self.game().board().dims()) {
            Ok(Command::Save(file)) => self.save_now(file.as_deref(), input, out)?,
            Ok(Command::New(changes)) => return self.new_game(&changes, input, out),
            Ok(Command::Undo) => self.undo(out)?,
            Ok(Command::Redo) => self.redo(out)?,
            Ok(Command::Help) => self.help(out)?,
            Ok(Command::Quit) => return Ok(Next::Quit),
            // Not commands of this front end.
            Ok(Command::Board) => self.warn(out, CommandError::unknown(&line))?,
            Ok(_) => self.warn(out, "The game is over: type new, undo, save or quit.")?,
            Err(error) => self.warn(out, error)?,
        }
        Ok(Next::Continue)
    }
}

/// Ctrl-C or a termination signal while the computer thought: the game ends.
fn interrupted(out: &mut impl Write) -> Result<Next, PlayError> {
    write_out(out, INTERRUPTED)?;
    Ok(Next::Quit)
}

/// Whether the answer to a `[y/N]` question is yes (`y` or `yes`, any case).
fn is_yes(answer: &str) -> bool {
    matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes")
}

/// A line read, as repeated after its prompt: without its line ending, shortened, and with
/// control characters escaped as error lines quote them (`\u{1b}`), so that what was typed
/// cannot drive the terminal.
fn echoed(line: &str) -> String {
    const SHOWN: usize = 60;
    let line = line.trim_end_matches(['\r', '\n']);
    let escaped = |text: &str| -> String {
        let mut shown = String::with_capacity(text.len());
        for ch in text.chars() {
            if ch.is_control() {
                shown.extend(ch.escape_debug());
            } else {
                shown.push(ch);
            }
        }
        shown
    };
    if line.chars().count() <= SHOWN {
        return escaped(line);
    }
    let head: String = line.chars().take(SHOWN).collect();
    format!("{}...", escaped(&head))
}
