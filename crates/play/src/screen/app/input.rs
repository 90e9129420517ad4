//! The keys and clicks of the full screen: the cursor, the shortcuts, the `:` prompt, the
//! answers to a question, the new-game screen and the key bar.

use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use othello::Square;
use othello_session::settings::Changes;
use othello_session::{Command, CommandError};

use super::{ANSWERS, App, Mode, PROMPT_CHARS, Pending, SHORTCUTS, Tone, capitalize};
use crate::screen::form::{Action, Form};
use crate::screen::layout::Fit;

impl App {
    pub(super) fn key(&mut self, key: KeyEvent) {
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
    pub(super) fn form_action(&mut self, form: Form, action: Action) {
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

    pub(super) fn play_key(&mut self, code: KeyCode) {
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
    pub(super) fn shortcut(&mut self, key: char) {
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

    pub(super) fn prompt_key(&mut self, mut text: String, code: KeyCode) {
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
    pub(super) fn run_line(&mut self, line: &str) {
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

    pub(super) fn mouse(&mut self, mouse: MouseEvent) {
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
    pub(super) fn key_bar_key(&self, x: u16) -> Option<char> {
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

    pub(super) fn move_cursor(&mut self, rows: isize, cols: isize) {
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
}
