//! The state of the full-screen game and how each event changes it. Nothing here touches the
//! terminal, a thread or a file: searches are asked for as [`Request`]s and their results come
//! back through [`App::finished`], so every event can be tested directly.

use std::path::PathBuf;
use std::time::Duration;

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;

use othello::text::counted;
use othello::{ByColor, Color, Game, MoveError, Played, Square};
use othello_engine::{EngineError, SearchReport};
use othello_session::settings::{Changes, GameSettings};
use othello_session::{Command, CommandError, Player, Session};

use super::form::{Action, Form};
use super::layout::{Fit, ScreenAreas};
use super::{label, move_sentences, result_sentence, squares};
use crate::saved;

/// A search the event loop should run on a worker thread.
#[derive(Clone, Debug)]
pub struct Request {
    /// Matches the answer to the request; answers to cancelled requests are dropped.
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

/// The result of a [`Request`].
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
        /// What it holds, as [`saved::overwrite_risk`] says: `not a game record`.
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

/// The engine's suggestion for the current position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The move suggested.
    pub square: Square,
    /// `d3: +2 discs for you (8 moves ahead)`.
    pub text: String,
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
    pub(super) hint: Option<Hint>,
    /// The search in flight, if any.
    pub(super) thinking: Option<(u64, Job)>,
    request: Option<Request>,
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
            request: None,
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

    /// Opens the new-game screen with the settings typed after `:new`, or the current ones.
    fn open_form(&mut self) {
        self.stop_search();
        let choice = self.typed_choice.take().unwrap_or_else(|| self.choice());
        self.mode = Mode::Setup(Form::new(&choice));
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

    /// Asks the event loop to save the game: to `file`, else the `--save` file, else the
    /// default file; first asks whether to overwrite a file that is not this one game.
    fn save(&mut self, file: Option<&str>) {
        let path = saved::target(file, self.save_file.as_deref());
        if let Some(risk) = saved::overwrite_risk(&path) {
            self.mode = Mode::Confirm(Pending::Overwrite { path, risk });
            return;
        }
        self.save_to(path);
    }

    fn save_to(&mut self, path: PathBuf) {
        self.message = None;
        self.announced = None;
        self.save_wanted = Some(path);
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
    pub fn take_request(&mut self) -> Option<Request> {
        self.request.take()
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
                let text = format!("{}: {}", report.best_move, verdict(&report));
                self.note(format!("Hint: {text}."), Tone::Info);
                self.hint = Some(Hint {
                    square: report.best_move,
                    text,
                });
            }
            Answer::Move(Err(error)) | Answer::Hint(Err(error)) => {
                self.note(
                    format!("The computer cannot search: {error}."),
                    Tone::Warning,
                );
            }
        }
    }

    fn key(&mut self, key: KeyEvent) {
        if key.modifiers.contains(KeyModifiers::CONTROL)
            && matches!(key.code, KeyCode::Char('c' | 'C'))
        {
            self.leave();
            return;
        }
        match self.mode.clone() {
            Mode::Play => self.play_key(key.code),
            Mode::Prompt(text) => self.prompt_key(text, key.code),
            Mode::Confirm(pending) => {
                self.mode = Mode::Play;
                if matches!(key.code, KeyCode::Char('y' | 'Y')) {
                    self.perform(pending);
                } else if matches!(pending, Pending::Overwrite { .. }) {
                    self.note("Not saved.", Tone::Info);
                } else {
                    self.typed_choice = None;
                    self.note("Carrying on with this game.", Tone::Info);
                }
            }
            Mode::Help => self.mode = Mode::Play,
            Mode::Setup(mut form) => {
                let action = form.key(key.code);
                self.form_action(form, action);
            }
        }
    }

    /// Carries out what the new-game screen asked for.
    fn form_action(&mut self, form: Form, action: Action) {
        match action {
            Action::Stay => self.mode = Mode::Setup(form),
            Action::Cancel => {
                self.mode = Mode::Play;
                self.after_change();
            }
            Action::Start => match form.choice() {
                Ok(choice) => {
                    self.mode = Mode::Play;
                    self.start_game(choice);
                }
                Err(error) => {
                    let mut form = form;
                    form.error = Some(error);
                    self.mode = Mode::Setup(form);
                }
            },
        }
    }

    /// Starts the game `choice` describes: from the first position again when only the
    /// players change, else from the standard start of the new size.
    fn start_game(&mut self, choice: GameSettings) {
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

    fn play_key(&mut self, code: KeyCode) {
        match code {
            KeyCode::Left | KeyCode::Char('h') => self.move_cursor(0, -1),
            KeyCode::Right | KeyCode::Char('l') => self.move_cursor(0, 1),
            KeyCode::Up | KeyCode::Char('k') => self.move_cursor(-1, 0),
            KeyCode::Down | KeyCode::Char('j') => self.move_cursor(1, 0),
            KeyCode::Enter | KeyCode::Char(' ') => self.person_plays(self.cursor),
            KeyCode::Esc => self.message = None,
            KeyCode::Char(shortcut) => self.shortcut(shortcut),
            _ => {}
        }
    }

    /// Runs the shortcut `key` (see [`SHORTCUTS`]).
    fn shortcut(&mut self, key: char) {
        match key {
            'n' => self.ask(Pending::NewGame),
            'u' => self.undo(),
            'r' => self.redo(),
            't' => self.ask_hint(),
            'p' => self.pass(),
            ':' => self.mode = Mode::Prompt(String::new()),
            '?' => self.mode = Mode::Help,
            'q' => self.ask(Pending::Quit),
            'm' => self.list_moves(),
            's' => self.save(None),
            _ => {}
        }
    }

    fn prompt_key(&mut self, mut text: String, code: KeyCode) {
        match code {
            KeyCode::Esc => self.mode = Mode::Play,
            KeyCode::Enter => {
                self.mode = Mode::Play;
                self.run_line(&text);
            }
            KeyCode::Backspace => {
                text.pop();
                self.mode = Mode::Prompt(text);
            }
            KeyCode::Char(ch) if !ch.is_control() && text.chars().count() < PROMPT_CHARS => {
                text.push(ch);
                self.mode = Mode::Prompt(text);
            }
            _ => {}
        }
    }

    /// Runs a line typed at the `:` prompt: a square or a command word.
    fn run_line(&mut self, line: &str) {
        match Command::parse(line, self.game().board().dims()) {
            Ok(Command::Play(square)) => {
                self.cursor = square;
                self.person_plays(square);
            }
            Ok(Command::Hint) => self.ask_hint(),
            Ok(Command::Undo) => self.undo(),
            Ok(Command::Redo) => self.redo(),
            Ok(Command::New(changes)) if changes.is_empty() => self.ask(Pending::NewGame),
            Ok(Command::New(changes)) => match changes.parse::<Changes>() {
                Ok(changes) => {
                    self.typed_choice = Some(changes.apply(&self.choice()));
                    self.ask(Pending::NewGame);
                }
                Err(error) => self.note(
                    format!("{}.", capitalize(&error.to_string())),
                    Tone::Warning,
                ),
            },
            Ok(Command::Save(file)) => self.save(file.as_deref()),
            Ok(Command::Pass) => self.pass(),
            Ok(Command::Moves) => self.list_moves(),
            Ok(Command::Help) => self.mode = Mode::Help,
            Ok(Command::Quit) => self.ask(Pending::Quit),
            // The board is always on the screen.
            Ok(Command::Board) => self.note(
                capitalize(&CommandError::unknown(line).to_string()),
                Tone::Warning,
            ),
            Err(error) => self.note(capitalize(&error.to_string()), Tone::Warning),
        }
    }

    fn mouse(&mut self, mouse: MouseEvent) {
        if mouse.kind != MouseEventKind::Down(MouseButton::Left) {
            return;
        }
        match self.mode.clone() {
            Mode::Help => self.mode = Mode::Play,
            Mode::Prompt(_) => {}
            Mode::Setup(mut form) => {
                let placement = Form::placement(self.area);
                if !placement.outer.contains((mouse.column, mouse.row).into()) {
                    return;
                }
                if let Some(index) = placement.field_at(mouse.row) {
                    let action = form.click(index);
                    self.form_action(form, action);
                }
            }
            Mode::Play | Mode::Confirm(_) => {
                let Fit::Board(layout) = self.layout() else {
                    return;
                };
                if mouse.row == layout.keys.y {
                    if let Some(key) = self.key_bar_key(mouse.column.saturating_sub(layout.keys.x))
                    {
                        self.key(KeyEvent::from(KeyCode::Char(key)));
                    }
                } else if self.mode == Mode::Play
                    && let Some(square) = layout.square_at(mouse.column, mouse.row)
                {
                    self.cursor = square;
                    self.person_plays(square);
                }
            }
        }
    }

    /// The entries of the key bar: the shortcuts, or the answers to a question.
    pub fn key_bar(&self) -> &'static [(char, &'static str)] {
        match self.mode {
            Mode::Confirm(_) => &ANSWERS,
            _ => &SHORTCUTS,
        }
    }

    /// The key of the key bar entry at column `x` (entries are `key label` separated by two
    /// spaces, after the question when there is one).
    fn key_bar_key(&self, x: u16) -> Option<char> {
        let mut start = match &self.mode {
            Mode::Confirm(pending) => pending.question().chars().count() + 1,
            _ => 0,
        };
        let x = usize::from(x);
        for &(key, label) in self.key_bar() {
            let end = start + 2 + label.chars().count();
            if (start..end).contains(&x) {
                return Some(key);
            }
            start = end + 2;
        }
        None
    }

    fn move_cursor(&mut self, rows: isize, cols: isize) {
        let dims = self.game().board().dims();
        let row = self
            .cursor
            .row()
            .saturating_add_signed(rows)
            .min(dims.rows() - 1);
        let col = self
            .cursor
            .col()
            .saturating_add_signed(cols)
            .min(dims.cols() - 1);
        self.cursor = Square::new(row, col);
    }

    /// Puts the cursor on the first legal move, or keeps it on the board.
    fn place_cursor(&mut self) {
        let dims = self.game().board().dims();
        self.cursor = match self.game().legal_moves().first() {
            Some(&square) => square,
            None if dims.contains(self.cursor) => self.cursor,
            None => Square::new(0, 0),
        };
    }

    /// The player to move if a person types their moves.
    fn person_to_move(&self) -> Option<Color> {
        self.game()
            .turn()
            .filter(|&color| self.players[color].is_human())
    }

    /// Explains why a person cannot act now, if they cannot.
    fn refuse_unless_person_to_move(&mut self) -> Option<Color> {
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
    fn person_plays(&mut self, square: Square) {
        if self.refuse_unless_person_to_move().is_none() {
            return;
        }
        self.play(square);
    }

    /// Plays `square` for the player to move; explains and changes nothing when it is not
    /// legal. Returns whether it was played.
    fn play(&mut self, square: Square) -> bool {
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

    fn announce(&mut self, played: Played) {
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
    fn announce_start(&mut self) {
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
    fn after_change(&mut self) {
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

    fn search(&mut self, job: Job, delay: Duration) {
        self.stop_search();
        self.next_id += 1;
        self.thinking = Some((self.next_id, job));
        self.request = Some(Request {
            id: self.next_id,
            job,
            game: self.game().clone(),
            delay,
        });
    }

    /// Stops the search in flight, if any; its answer will be ignored.
    fn stop_search(&mut self) {
        if self.thinking.take().is_some() {
            self.cancel = true;
        }
        self.request = None;
    }

    fn ask_hint(&mut self) {
        if self.refuse_unless_person_to_move().is_none() {
            return;
        }
        if self.thinking.is_none() {
            self.note("Looking for a hint...", Tone::Info);
            self.search(Job::Hint, Duration::ZERO);
        }
    }

    fn pass(&mut self) {
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

    fn list_moves(&mut self) {
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

    fn undo(&mut self) {
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

    fn redo(&mut self) {
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
    fn ask(&mut self, pending: Pending) {
        if self.session.in_progress() {
            self.mode = Mode::Confirm(pending);
        } else {
            self.perform(pending);
        }
    }

    fn perform(&mut self, pending: Pending) {
        match pending {
            Pending::NewGame => self.open_form(),
            Pending::Quit => self.leave(),
            Pending::Overwrite { path, .. } => self.save_to(path),
        }
    }

    fn leave(&mut self) {
        self.stop_search();
        self.quit = true;
    }
}

/// A hint's evaluation: `+2 discs for you (8 moves ahead)`, or the exact result.
fn verdict(report: &SearchReport) -> String {
    let score = report.score;
    if report.exact {
        return match score {
            0 => "a draw with perfect play".to_owned(),
            s if s > 0 => format!(
                "you win by {} with perfect play",
                counted(s, "disc", "discs")
            ),
            s => format!(
                "you lose by {} with perfect play",
                counted(-s, "disc", "discs")
            ),
        };
    }
    let balance = match score {
        0 => "even".to_owned(),
        s => format!("{s:+} discs for you"),
    };
    format!("{balance} ({})", crate::view::lookahead(report))
}

/// `the game is over` as `The game is over`.
fn capitalize(text: &str) -> String {
    crate::view::capitalized(text)
}
