//! What the full screen's keys and clicks ask for, carried out on the state: moves, the
//! computer's turn and hints (as search tasks), undo and redo, new games, saving, questions
//! and quitting.

use std::path::PathBuf;
use std::time::Duration;

use othello::text::counted;
use othello::{Color, MoveError, Played, Square};
use othello_session::settings::GameSettings;

use super::{App, Job, Mode, Pending, SearchTask, Tone, capitalize};
use crate::saved;
use crate::screen::form::Form;
use crate::screen::{label, move_sentences, result_sentence, squares};

impl App {
    /// Opens the new-game screen with the settings typed after `:new`, or the current ones.
    pub(super) fn open_form(&mut self) {
        self.stop_search();
        let choice = self.typed_choice.take().unwrap_or_else(|| self.choice());
        self.mode = Mode::Setup(Form::new(&choice));
    }

    /// Asks the event loop to save the game: to `file`, else the `--save` file, else the
    /// default file; first asks whether to overwrite a file that is not this one game.
    pub(super) fn save(&mut self, file: Option<&str>) {
        let path = saved::target(file, self.save_file.as_deref());
        if let Some(risk) = saved::overwrite_risk(&path) {
            self.mode = Mode::Confirm(Pending::Overwrite { path, risk });
            return;
        }
        self.save_to(path);
    }

    pub(super) fn save_to(&mut self, path: PathBuf) {
        self.message = None;
        self.announced = None;
        self.save_wanted = Some(path);
    }

    /// Starts the game `choice` describes: from the first position again when only the
    /// players change, else from the standard start of the new size.
    pub(super) fn start_game(&mut self, choice: GameSettings) {
        let current = self.choice();
        choice.start(&current, &mut self.session);
        if choice.players != self.players {
            self.players = choice.players;
            self.new_players = true;
        }
        self.flipped.clear();
        self.hint = None;
        self.ended = false;
        self.note("New game.", Tone::Info);
        self.place_cursor();
        self.announce_start();
        self.after_change();
    }

    /// Puts the cursor on the first legal move, or keeps it on the board.
    pub(super) fn place_cursor(&mut self) {
        let dims = self.game().board().dims();
        self.cursor = match self.game().legal_moves().first() {
            Some(&square) => square,
            None if dims.contains(self.cursor) => self.cursor,
            None => Square::new(0, 0),
        };
    }

    /// The player to move if a person types their moves.
    pub(super) fn person_to_move(&self) -> Option<Color> {
        self.game()
            .turn()
            .filter(|&color| self.players[color].is_human())
    }

    /// Explains why a person cannot act now, if they cannot.
    pub(super) fn refuse_unless_person_to_move(&mut self) -> Option<Color> {
        match self.game().turn() {
            None => {
                self.note(
                    "The game is over: n for a new game, u to take back, q to quit.",
                    Tone::Warning,
                );
                None
            }
            Some(color) if !self.players[color].is_human() => {
                let text = format!(
                    "{} is thinking: wait for its move.",
                    label(&self.players[color])
                );
                self.note(text, Tone::Warning);
                None
            }
            Some(color) => Some(color),
        }
    }

    /// A person chose `square`, by click, key or prompt.
    pub(super) fn person_plays(&mut self, square: Square) {
        if self.refuse_unless_person_to_move().is_none() {
            return;
        }
        self.play(square);
    }

    /// Plays `square` for the player to move; explains and changes nothing when it is not
    /// legal. Returns whether it was played.
    pub(super) fn play(&mut self, square: Square) -> bool {
        let before = *self.game().board();
        match self.session.play(square) {
            Ok(played) => {
                self.stop_search();
                let after = self.game().board();
                self.flipped = after
                    .dims()
                    .squares()
                    .filter(|&other| {
                        other != square
                            && before.get(other).ok().flatten() == Some(played.player.opponent())
                            && after.get(other).ok().flatten() == Some(played.player)
                    })
                    .collect();
                self.hint = None;
                self.announce(played);
                self.after_change();
                true
            }
            Err(error @ (MoveError::Illegal { .. } | MoveError::Occupied { .. })) => {
                let moves = squares(&self.game().legal_moves());
                self.note(format!("{error}. Legal moves: {moves}"), Tone::Warning);
                false
            }
            Err(error) => {
                self.note(capitalize(&error.to_string()), Tone::Warning);
                false
            }
        }
    }

    pub(super) fn announce(&mut self, played: Played) {
        let (mut text, pass) = move_sentences(&self.players, played);
        if let Some(pass) = pass {
            text.push(' ');
            text.push_str(&pass);
        }
        let shown = match self.announced.take() {
            Some(previous) => format!("{previous} {text}"),
            None => text.clone(),
        };
        self.note(shown, Tone::Info);
        self.announced = Some(text);
    }

    /// Says so when the first player cannot move at the start.
    pub(super) fn announce_start(&mut self) {
        let first = self.game().first_player();
        if let Some(turn) = self.game().turn().filter(|&turn| turn != first) {
            let text = format!(
                "{} has no legal move at the start and passes; {} moves first.",
                label(&self.players[first]),
                label(&self.players[turn])
            );
            self.note(text, Tone::Info);
        }
    }

    /// After the position changed: report the end once, or ask for the computer's move.
    pub(super) fn after_change(&mut self) {
        if self.game().is_over() {
            if !self.ended {
                self.ended = true;
                self.finished = true;
                // The last move and the result, without older news.
                let result = result_sentence(self.game(), &self.players);
                let text = match self.announced.take() {
                    Some(last) => format!("{last} Game over: {result}"),
                    None => format!("Game over: {result}"),
                };
                self.note(text, Tone::Info);
                self.save_wanted.clone_from(&self.save_file);
            }
            return;
        }
        if self.person_to_move().is_some() {
            if !self.game().is_legal(self.cursor) {
                self.place_cursor();
            }
            return;
        }
        if let Some(color) = self.game().turn() {
            let both_computers = !self.players.black.is_human() && !self.players.white.is_human();
            let delay = if both_computers {
                self.delay
            } else {
                Duration::ZERO
            };
            self.search(Job::Move(color), delay);
        }
    }

    pub(super) fn search(&mut self, job: Job, delay: Duration) {
        self.stop_search();
        self.next_id += 1;
        self.thinking = Some((self.next_id, job));
        self.search_task = Some(SearchTask {
            id: self.next_id,
            job,
            game: self.game().clone(),
            delay,
        });
    }

    /// Stops the search in flight, if any; its answer will be ignored.
    pub(super) fn stop_search(&mut self) {
        if self.thinking.take().is_some() {
            self.cancel = true;
        }
        self.search_task = None;
    }

    pub(super) fn ask_hint(&mut self) {
        if self.refuse_unless_person_to_move().is_none() {
            return;
        }
        if self.thinking.is_none() {
            self.note("Looking for a hint...", Tone::Info);
            self.search(Job::Hint, Duration::ZERO);
        }
    }

    pub(super) fn pass(&mut self) {
        let Some(color) = self.refuse_unless_person_to_move() else {
            return;
        };
        let moves = self.game().moves_of(color);
        let text = format!(
            "You cannot pass while you can move: you have {} ({}). A player without a move passes automatically.",
            counted(moves.len(), "legal move", "legal moves"),
            squares(&moves)
        );
        self.note(text, Tone::Warning);
    }

    pub(super) fn list_moves(&mut self) {
        match self.game().turn() {
            Some(color) => {
                let text = format!(
                    "Legal moves for {}: {}",
                    label(&self.players[color]),
                    squares(&self.game().legal_moves())
                );
                self.note(text, Tone::Info);
            }
            None => self.note("The game is over: nobody can move.", Tone::Info),
        }
    }

    pub(super) fn undo(&mut self) {
        let players = &self.players;
        match self.session.undo(|color| players[color].is_human()) {
            Some(count) => {
                self.stop_search();
                self.flipped.clear();
                self.hint = None;
                self.ended = false;
                self.note(
                    format!("Took back {}.", counted(count, "move", "moves")),
                    Tone::Info,
                );
                self.after_change();
            }
            None => self.note(
                "Nothing to undo: no move made here has been played yet.",
                Tone::Warning,
            ),
        }
    }

    pub(super) fn redo(&mut self) {
        if !self.session.can_redo() {
            self.note("Nothing to redo.", Tone::Warning);
            return;
        }
        self.stop_search();
        let replayed = self.session.redo().expect("there is something to redo");
        self.flipped.clear();
        self.hint = None;
        for &played in &replayed {
            self.announce(played);
        }
        self.after_change();
        let squares_again: Vec<Square> = replayed.iter().map(|played| played.square).collect();
        self.add_note(&format!("Played again: {}.", squares(&squares_again)));
    }

    /// New game and quit: at once, or after `y` while a game is in progress.
    pub(super) fn ask(&mut self, pending: Pending) {
        if self.session.in_progress() {
            self.mode = Mode::Confirm(pending);
        } else {
            self.perform(pending);
        }
    }

    pub(super) fn perform(&mut self, pending: Pending) {
        match pending {
            Pending::NewGame => self.open_form(),
            Pending::Quit => self.leave(),
            Pending::Overwrite { path, .. } => self.save_to(path),
        }
    }

    pub(super) fn leave(&mut self) {
        self.stop_search();
        self.quit = true;
    }
}
