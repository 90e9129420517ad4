//! The game loop: show the position, ask the person to move or let the computer move, answer
//! commands, and report the end.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use othello::text::counted;
use othello::{ByColor, Color, Game, MoveError, Outcome, Played, Square};
use othello_engine::computer::{Computer, Level};
use othello_records::{GameRecord, Metadata, movelist};
use othello_session::settings::{Changes, GameSettings};
use othello_session::{BookChoice, Command, CommandError, Controller, Player, Session, computers};

use super::lines::{Lines, Reply};
use super::results::{self, ResultsFile};
use super::saved;
use super::thinking::Thinking;
use super::view::{self, Palette, label, move_sentences, squares};
use crate::PlayError;

/// The level `hint` searches at.
const HINT_LEVEL: Level = Level::HINT;

/// A game in progress with its players, and where the output goes.
pub struct Table {
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

impl Table {
    /// A table for `game` between `players`. `seed` makes the computer's choices repeatable;
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
    ) -> Table {
        let computers = computers(&players, seed, &BookChoice::Builtin);
        Table {
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
    pub fn with_book(self, book: BookChoice) -> Table {
        let computers = computers(&self.players, self.seed, &book);
        Table {
            computers,
            book,
            ..self
        }
    }

    /// Pauses for `delay` before each move when two computer players play each other, so
    /// that people can follow the game.
    pub fn with_delay(self, delay: Duration) -> Table {
        Table { delay, ..self }
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

    fn welcome(&self, out: &mut impl Write) -> Result<(), PlayError> {
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
                super::view::capitalized(color.name()),
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
    fn announce_start(&self, out: &mut impl Write) -> Result<(), PlayError> {
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

    fn strong(&self, player: &Player) -> String {
        Palette::paint(self.palette.strong, label(player))
    }

    /// The board and the status line, unless already shown.
    fn show(&mut self, out: &mut impl Write) -> Result<(), PlayError> {
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
    fn status_line(&self) -> String {
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
    fn result_sentence(&self) -> String {
        let game = self.game();
        match game.outcome() {
            Some(Outcome::Win(color)) => {
                let how = view::win_phrase(game, color);
                format!("{} wins {how}.", self.strong(&self.players[color]))
            }
            Some(Outcome::Draw) | None => "The game is a draw.".to_owned(),
        }
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
            Reply::Line(line) => {
                if self.echo {
                    write_out(out, &format!("{}\n", echoed(&line)))?;
                }
                Ok(Some(line))
            }
            // The line editor has ended the prompt's line.
            Reply::End if input.interactive() => {
                write_out(out, "Goodbye.\n")?;
                Ok(None)
            }
            // End the prompt's line so the shell starts on a fresh one.
            Reply::End => {
                write_out(out, "\n")?;
                Ok(None)
            }
            Reply::Interrupted => {
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

    fn warn(&self, out: &mut impl Write, message: impl std::fmt::Display) -> Result<(), PlayError> {
        write_out(
            out,
            &format!("{}\n", Palette::paint(self.palette.warning, message)),
        )
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

    fn human_plays(&mut self, square: Square, out: &mut impl Write) -> Result<(), PlayError> {
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
    fn refuse_pass(&self, color: Color, out: &mut impl Write) -> Result<(), PlayError> {
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
    fn moved(&mut self, played: Played, out: &mut impl Write) -> Result<(), PlayError> {
        self.shown = false;
        let (move_sentence, pass) = move_sentences(&self.players, played);
        let mut text = move_sentence + "\n";
        if let Some(pass) = pass {
            text.push_str(&pass);
            text.push('\n');
        }
        write_out(out, &text)
    }

    fn computer_moves(&mut self, color: Color, out: &mut impl Write) -> Result<Next, PlayError> {
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

    fn hint(&mut self, out: &mut impl Write) -> Result<Next, PlayError> {
        out.flush().map_err(PlayError::Write)?;
        let game = self.session.game().clone();
        let adviser = &mut self.adviser;
        let Some(report) = self.thinking.think("Thinking", Duration::ZERO, |stop| {
            adviser.analyse(&game, stop)
        }) else {
            return interrupted(out);
        };
        let report = report.map_err(PlayError::Engine)?;
        let verdict = if report.exact {
            match report.score {
                0 => "draws with perfect play".to_owned(),
                s if s > 0 => format!("wins by {s} with perfect play"),
                s => format!("loses by {} with perfect play", -s),
            }
        } else {
            let balance = match report.score {
                0 => "even".to_owned(),
                score => format!("{score:+} for you"),
            };
            format!("evaluation {balance} ({})", super::view::lookahead(&report))
        };
        write_out(out, &format!("Hint: {}, {verdict}.\n", report.best_move))?;
        Ok(Next::Continue)
    }

    fn undo(&mut self, out: &mut impl Write) -> Result<(), PlayError> {
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

    fn redo(&mut self, out: &mut impl Write) -> Result<(), PlayError> {
        let Some(replayed) = self.session.redo() else {
            return self.warn(out, "Nothing to redo.");
        };
        self.shown = false;
        let again: Vec<Square> = replayed.iter().map(|played| played.square).collect();
        write_out(out, &format!("Played again: {}.\n", squares(&again)))
    }

    /// Starts again, with the settings `changes` gives (words such as `6x6 white=human`),
    /// after asking if that would abandon a game in progress.
    fn new_game(
        &mut self,
        changes: &str,
        input: &mut impl Lines,
        out: &mut impl Write,
    ) -> Result<Next, PlayError> {
        let changes: Changes = match changes.parse() {
            Ok(changes) => changes,
            Err(error) => {
                self.warn(
                    out,
                    format!("{}.", super::view::capitalized(&error.to_string())),
                )?;
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

    fn help(&self, out: &mut impl Write) -> Result<(), PlayError> {
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

    /// The moves so far as a move list (`f5d6c3...`, with the board size and rules in front
    /// when they are not 8x8 FULL); squares separated by spaces from a start a move list
    /// cannot hold.
    fn move_list(&self) -> String {
        let record = self.session.record(Metadata::default());
        movelist::line(&record).unwrap_or_else(|| {
            record
                .squares()
                .map(|square| square.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
    }

    /// The `save` command: to FILE, or the `--save` file, or the default file.
    /// The `save` command: asks first when the file holds something that is not this one game.
    fn save_now(
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
    fn save_to(&mut self, path: &Path, out: &mut impl Write, fatal: bool) -> Result<(), PlayError> {
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

    fn log_result(&mut self, out: &mut impl Write) -> Result<(), PlayError> {
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
                eprintln!("{message}");
                Ok(())
            }
        }
    }
}

/// Ctrl-C or a termination signal while the computer thought: the game ends.
fn interrupted(out: &mut impl Write) -> Result<Next, PlayError> {
    write_out(out, INTERRUPTED)?;
    Ok(Next::Quit)
}

/// The help of `new`, in 80 columns.
const NEW_HELP: &str = "  new [OPTIONS] start a new game; OPTIONS change it, as in new 6x6 simple
                win=fewest first=white black=human white=computer:4 (or white=4)
";

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

fn write_out(out: &mut impl Write, text: &str) -> Result<(), PlayError> {
    out.write_all(text.as_bytes()).map_err(PlayError::Write)
}
