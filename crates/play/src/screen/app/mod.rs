//! The state of the full-screen game and how each event changes it. Nothing here touches the
//! terminal, a thread or a file: searches are asked for as [`SearchTask`]s and their results
//! come back through [`App::finished`], so every event can be tested directly.
//!
//! The state and what the event loop asks of it are here; [`input`] reads the keys and clicks,
//! and [`actions`] carries out what they ask for (moves, hints, undo, new games, saving).

mod actions;
mod input;

use std::path::PathBuf;
use std::time::Duration;

use ratatui::crossterm::event::{Event, KeyEventKind};
use ratatui::layout::Rect;

use othello::{ByColor, Color, Game, Square};
use othello_engine::{EngineError, SearchReport};
use othello_session::hint::Suggestion;
use othello_session::settings::GameSettings;
use othello_session::{Player, Session};

use super::form::Form;
use super::layout::{Fit, ScreenAreas};
use super::result_sentence;

/// A search the event loop should run on a worker thread.
#[derive(Clone, Debug)]
pub struct SearchTask {
    /// Matches the answer to the task; answers to cancelled tasks are dropped.
    pub id: u64,
    /// A move for a computer player, or a hint for a person.
    pub job: Job,
    /// The position to search.
    pub game: Game,
    /// How long to wait before searching (so that people can follow a game between two
    /// computer players).
    pub delay: Duration,
}

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// The move of the computer playing this colour.
    Move(Color),
    /// A hint for the person to move.
    Hint,
}

/// The result of a [`SearchTask`].
#[derive(Debug)]
pub enum Answer {
    /// The computer's move.
    Move(Result<Square, EngineError>),
    /// The engine's best move and evaluation.
    Hint(Result<SearchReport, EngineError>),
}

/// What the keyboard is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Playing: keys move the cursor, play and run the shortcuts.
    Play,
    /// Typing a square or a command after `:`.
    Prompt(String),
    /// Waiting for `y` to confirm.
    Confirm(Pending),
    /// The help screen is shown; any key closes it.
    Help,
    /// The new-game screen is shown.
    Setup(Form),
}

/// An action that would lose something (a game in progress, a file), and so is confirmed first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    /// Start a new game.
    NewGame,
    /// Leave the program.
    Quit,
    /// Save the game over a file that is not this one game.
    Overwrite {
        /// The file.
        path: PathBuf,
        /// What it holds, as [`crate::saved::overwrite_risk`] says: `not a game record`.
        risk: String,
    },
}

impl Pending {
    /// The question asked.
    pub fn question(&self) -> String {
        match self {
            Pending::NewGame => "A game is in progress. Abandon it and start a new one?".to_owned(),
            Pending::Quit => "A game is in progress. Quit anyway?".to_owned(),
            Pending::Overwrite { path, risk } => {
                let shown = format!("{:?}", path.display().to_string());
                format!("Overwrite {} ({risk})?", shown.trim_matches('"'))
            }
        }
    }
}

/// How a message reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// News: a move, a hint.
    Info,
    /// Something refused.
    Warning,
}

/// A line for the message line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// What it says.
    pub text: String,
    /// How it reads.
    pub tone: Tone,
}

/// The single-key shortcuts of the key bar, most used first (a narrow screen shows the first
/// ones), with their labels; the cursor keys (arrows and hjkl) are not among them.
pub const SHORTCUTS: [(char, &str); 10] = [
    ('n', "new"),
    ('u', "undo"),
    ('t', "hint"),
    ('q', "quit"),
    ('?', "help"),
    ('s', "save"),
    ('r', "redo"),
    ('p', "pass"),
    (':', "type"),
    ('m', "moves"),
];

/// The longest line the `:` prompt takes (a file name for `save` included).
const PROMPT_CHARS: usize = 256;

/// The answers to a question, as shown in the key bar.
pub const ANSWERS: [(char, &str); 2] = [('y', "yes"), ('n', "no")];

/// The whole state of the screen.
pub struct App {
    pub(super) session: Session,
    pub(super) players: ByColor<Player>,
    /// Colours are allowed.
    pub(super) colour: bool,
    pub(super) area: Rect,
    pub(super) cursor: Square,
    pub(super) mode: Mode,
    pub(super) message: Option<Message>,
    /// The discs the last move flipped.
    pub(super) flipped: Vec<Square>,
    pub(super) hint: Option<Suggestion>,
    /// The search in flight, if any.
    pub(super) thinking: Option<(u64, Job)>,
    /// The search to start, once the event loop takes it.
    search_task: Option<SearchTask>,
    next_id: u64,
    cancel: bool,
    quit: bool,
    /// The end of the current game has been announced.
    ended: bool,
    /// A game has ended and its result is still to be logged.
    finished: bool,
    delay: Duration,
    /// Frames of the thinking indicator shown so far.
    pub(super) ticks: u64,
    /// The announcement of the last move, while the message line still shows it, so that
    /// the reply is shown beside it.
    announced: Option<String>,
    /// The players have changed (a new game from the new-game screen).
    new_players: bool,
    /// Where the game is written when it ends, and by `save` without a file (`--save`).
    save_file: Option<PathBuf>,
    /// A file to write the game to now.
    save_wanted: Option<PathBuf>,
    /// The settings typed after `:new`, for the new-game screen.
    typed_choice: Option<GameSettings>,
}

impl App {
    /// A screen for `game` between `players` in a terminal of size `area`; `delay` is the
    /// pause before each move of a game between two computer players. With `ask`, the
    /// new-game screen comes first, with these settings preselected.
    pub fn new(
        game: Game,
        players: ByColor<Player>,
        colour: bool,
        delay: Duration,
        area: Rect,
        ask: bool,
    ) -> App {
        let mut app = App {
            cursor: Square::new(0, 0),
            session: Session::new(game),
            players,
            colour,
            area,
            mode: Mode::Play,
            message: None,
            flipped: Vec::new(),
            hint: None,
            thinking: None,
            search_task: None,
            next_id: 0,
            cancel: false,
            quit: false,
            ended: false,
            finished: false,
            delay,
            ticks: 0,
            announced: None,
            new_players: false,
            save_file: None,
            save_wanted: None,
            typed_choice: None,
        };
        app.place_cursor();
        if ask {
            app.open_form();
        } else {
            app.announce_start();
            app.after_change();
        }
        app
    }

    /// The current settings, as the new-game screen shows them.
    fn choice(&self) -> GameSettings {
        GameSettings::of(&self.session, &self.players)
    }

    /// Writes the game to `path` when it ends; `save` without a file writes there too.
    pub fn set_save_file(&mut self, path: Option<PathBuf>) {
        self.save_file = path;
    }

    /// The file to write the game to now, if the player asked to save or the game has just
    /// ended with a `--save` file.
    pub fn take_save(&mut self) -> Option<PathBuf> {
        self.save_wanted.take()
    }

    /// Continues `session` (a saved game, replayed), saying so with `text`.
    pub fn continue_from(&mut self, session: Session, text: &str) {
        self.stop_search();
        self.session = session;
        self.flipped.clear();
        self.hint = None;
        self.mode = Mode::Play;
        self.place_cursor();
        if self.game().is_over() {
            // Nothing to log or save again: the game ended before it was saved.
            self.ended = true;
            let result = result_sentence(self.game(), &self.players);
            self.note(format!("{text} The game is over: {result}"), Tone::Info);
        } else {
            self.ended = false;
            self.note(text, Tone::Info);
            self.after_change();
        }
    }

    /// The players, when they have changed since the last call.
    pub fn take_new_players(&mut self) -> Option<&ByColor<Player>> {
        std::mem::take(&mut self.new_players).then_some(&self.players)
    }

    /// The current position.
    pub fn game(&self) -> &Game {
        self.session.game()
    }

    /// The game with its history.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The players.
    pub fn players(&self) -> &ByColor<Player> {
        &self.players
    }

    /// The layout for the current terminal size.
    pub fn layout(&self) -> Fit {
        ScreenAreas::compute(self.area, self.game().board().dims())
    }

    /// Whether the player has asked to leave.
    pub fn quitting(&self) -> bool {
        self.quit
    }

    /// The search to start, if one is wanted.
    pub fn take_search_task(&mut self) -> Option<SearchTask> {
        self.search_task.take()
    }

    /// Whether the search in flight should stop (its answer will be ignored).
    pub fn take_cancel(&mut self) -> bool {
        std::mem::take(&mut self.cancel)
    }

    /// Whether a game has just ended, so that its result can be logged (once).
    pub fn take_finished(&mut self) -> bool {
        std::mem::take(&mut self.finished)
    }

    /// Shows `text` on the message line.
    pub fn note(&mut self, text: impl Into<String>, tone: Tone) {
        self.announced = None;
        self.message = Some(Message {
            text: text.into(),
            tone,
        });
    }

    /// Adds `text` after the current message.
    pub fn add_note(&mut self, text: &str) {
        match &mut self.message {
            Some(message) => {
                message.text.push(' ');
                message.text.push_str(text);
            }
            None => self.note(text, Tone::Info),
        }
    }

    /// One frame of the thinking indicator has passed.
    pub fn tick(&mut self) {
        if self.thinking.is_some() {
            self.ticks = self.ticks.wrapping_add(1);
        }
    }

    /// Applies one terminal event.
    pub fn handle(&mut self, event: &Event) {
        match event {
            Event::Resize(width, height) => self.area = Rect::new(0, 0, *width, *height),
            Event::Key(key) if key.kind != KeyEventKind::Release => self.key(*key),
            Event::Mouse(mouse) => self.mouse(*mouse),
            _ => {}
        }
    }

    /// A search asked for has finished.
    pub fn finished(&mut self, id: u64, answer: Answer) {
        if self.thinking.map(|(current, _)| current) != Some(id) {
            return;
        }
        self.thinking = None;
        match answer {
            Answer::Move(Ok(square)) => {
                self.play(square);
            }
            Answer::Hint(Ok(report)) => {
                let hint = Suggestion::of(&report);
                self.note(hint.sentence(), Tone::Info);
                self.hint = Some(hint);
            }
            Answer::Move(Err(error)) | Answer::Hint(Err(error)) => {
                self.note(
                    format!("The computer cannot search: {error}."),
                    Tone::Warning,
                );
            }
        }
    }
}

/// `the game is over` as `The game is over`.
fn capitalize(text: &str) -> String {
    crate::view::capitalized(text)
}
