//! The new-game screen: both players' names, who plays each side (a person, or the computer
//! at a level), the board size, the rules, the win rule and who moves first.

use ratatui::crossterm::event::KeyCode;
use ratatui::layout::Rect;

use othello::{ByColor, Color, Dimensions, MAX_SIDE, MIN_SIDE, RuleSet, WinRule};
use othello_engine::computer::Level;

use othello_session::settings::GameSettings;
use othello_session::{Controller, Name, Player};

use crate::view::capitalized;

/// One line of the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// A player's name, typed.
    Name(Color),
    /// Person or computer with its level.
    Player(Color),
    /// Rows of the board.
    Rows,
    /// Columns of the board.
    Columns,
    /// FULL or SIMPLE.
    Rules,
    /// Most or fewest discs wins.
    Win,
    /// Who moves first.
    First,
    /// The line that starts the game.
    Start,
}

/// The lines of the form, top to bottom.
pub const FIELDS: [Field; 10] = [
    Field::Name(Color::Black),
    Field::Player(Color::Black),
    Field::Name(Color::White),
    Field::Player(Color::White),
    Field::Rows,
    Field::Columns,
    Field::Rules,
    Field::Win,
    Field::First,
    Field::Start,
];

/// What a key did to the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Still filling it in.
    Stay,
    /// Start the game it describes.
    Start,
    /// Leave it without starting a game.
    Cancel,
}

/// The form being filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// Names typed (`None`: the default name for the side).
    pub names: ByColor<Option<String>>,
    /// Who plays each side.
    pub controllers: ByColor<Controller>,
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// The rule set.
    pub rules: RuleSet,
    /// The win rule.
    pub win: WinRule,
    /// Who moves first.
    pub first: Color,
    /// The line with the focus (an index into [`FIELDS`]).
    pub focus: usize,
    /// Why the last attempt to start failed.
    pub error: Option<String>,
}

impl Form {
    /// A form showing the current settings.
    pub fn new(settings: &GameSettings) -> Form {
        Form {
            names: ByColor::new_with(|color| {
                let player = &settings.players[color];
                (!player.has_default_name()).then(|| player.name.clone())
            }),
            controllers: ByColor::new_with(|color| settings.players[color].controller),
            rows: settings.dims.rows(),
            cols: settings.dims.cols(),
            rules: settings.rules,
            win: settings.win,
            first: settings.first,
            focus: FIELDS.len() - 1,
            error: None,
        }
    }

    /// The field with the focus.
    pub fn focused(&self) -> Field {
        FIELDS[self.focus]
    }

    /// The name shown for `color`: typed, or the default.
    pub fn name(&self, color: Color) -> String {
        match &self.names[color] {
            Some(name) => name.clone(),
            None => {
                Player::new(
                    color,
                    self.controllers[color],
                    None,
                    self.controllers[color.opponent()],
                )
                .name
            }
        }
    }

    /// The label of a line.
    pub fn label(field: Field) -> String {
        match field {
            Field::Name(color) => format!("{} name", capitalized(color.name())),
            Field::Player(color) => format!("{} plays", capitalized(color.name())),
            Field::Rows => "Rows".to_owned(),
            Field::Columns => "Columns".to_owned(),
            Field::Rules => "Rules".to_owned(),
            Field::Win => "Winner".to_owned(),
            Field::First => "First move".to_owned(),
            Field::Start => String::new(),
        }
    }

    /// The value shown on a line.
    pub fn value(&self, field: Field) -> String {
        match field {
            Field::Name(color) => self.name(color),
            Field::Player(color) => match self.controllers[color] {
                Controller::Human => "person".to_owned(),
                Controller::Computer(level) => format!("computer, level {level}"),
            },
            Field::Rows => self.rows.to_string(),
            Field::Columns => self.cols.to_string(),
            Field::Rules => self.rules.to_string(),
            Field::Win => format!("{} discs", self.win),
            Field::First => self.first.name().to_owned(),
            Field::Start => "[ Start ]".to_owned(),
        }
    }

    /// Applies a key: Up, Down and Tab move between lines, Left and Right (or Space) change a
    /// choice, letters type a name, Enter starts, Esc cancels.
    pub fn key(&mut self, code: KeyCode) -> Action {
        self.error = None;
        let field = self.focused();
        match code {
            KeyCode::Esc => return Action::Cancel,
            KeyCode::Enter => return self.start(),
            KeyCode::Up | KeyCode::BackTab => {
                self.focus = (self.focus + FIELDS.len() - 1) % FIELDS.len();
            }
            KeyCode::Down | KeyCode::Tab => self.focus = (self.focus + 1) % FIELDS.len(),
            KeyCode::Left => self.change(field, -1),
            KeyCode::Right => self.change(field, 1),
            KeyCode::Backspace => {
                if let Field::Name(color) = field {
                    let mut name = self.name(color);
                    name.pop();
                    self.names[color] = Some(name);
                }
            }
            KeyCode::Char(ch) => match field {
                Field::Name(color) => {
                    let typed = self.names[color].as_deref().unwrap_or("");
                    if !ch.is_control() && typed.chars().count() < Name::MAX_CHARS {
                        let mut name = self.names[color].clone().unwrap_or_default();
                        name.push(ch);
                        self.names[color] = Some(name);
                    }
                }
                Field::Start if ch == ' ' => return self.start(),
                _ if ch == ' ' || ch == 'l' => self.change(field, 1),
                _ if ch == 'h' => self.change(field, -1),
                _ if ch == 'j' => self.focus = (self.focus + 1) % FIELDS.len(),
                _ if ch == 'k' => self.focus = (self.focus + FIELDS.len() - 1) % FIELDS.len(),
                _ => {}
            },
            _ => {}
        }
        Action::Stay
    }

    /// A click on line `index`: focus it; on a choice, change it; on Start, start.
    pub fn click(&mut self, index: usize) -> Action {
        self.error = None;
        let Some(&field) = FIELDS.get(index) else {
            return Action::Stay;
        };
        self.focus = index;
        match field {
            Field::Start => self.start(),
            Field::Name(_) => Action::Stay,
            _ => {
                self.change(field, 1);
                Action::Stay
            }
        }
    }

    /// Moves a choice `step` places on, round its list.
    fn change(&mut self, field: Field, step: isize) {
        let sides: Vec<usize> = (MIN_SIDE..=MAX_SIDE).step_by(2).collect();
        match field {
            Field::Player(color) => {
                let options: Vec<Controller> = std::iter::once(Controller::Human)
                    .chain(Level::all().map(Controller::Computer))
                    .collect();
                self.controllers[color] = cycle(&options, self.controllers[color], step);
            }
            Field::Rows => self.rows = cycle(&sides, self.rows, step),
            Field::Columns => self.cols = cycle(&sides, self.cols, step),
            Field::Rules => self.rules = cycle(&[RuleSet::Full, RuleSet::Simple], self.rules, step),
            Field::Win => {
                self.win = cycle(&[WinRule::MostDiscs, WinRule::FewestDiscs], self.win, step);
            }
            Field::First => self.first = self.first.opponent(),
            Field::Name(_) | Field::Start => {}
        }
    }

    fn start(&mut self) -> Action {
        match self.choice() {
            Ok(_) => Action::Start,
            Err(error) => {
                self.error = Some(error);
                Action::Stay
            }
        }
    }

    /// The game described, or why it cannot be played.
    pub fn choice(&self) -> Result<GameSettings, String> {
        let dims = Dimensions::new(self.rows, self.cols).map_err(|error| error.to_string())?;
        let mut names = ByColor::new_with(|_| None);
        for color in Color::ALL {
            if let Some(name) = &self.names[color] {
                names[color] = Some(
                    name.parse::<Name>()
                        .map_err(|error| format!("{} name: {error}", capitalized(color.name())))?,
                );
            }
        }
        Ok(GameSettings {
            dims,
            rules: self.rules,
            win: self.win,
            first: self.first,
            players: Player::pair(self.controllers, names),
        })
    }

    /// Where the form goes in `area`: a box, its first line of fields, and the column the
    /// values start at.
    pub fn placement(area: Rect) -> FormPlacement {
        let width = area.width.min(52);
        let height = area.height.min(FIELDS.len() as u16 + 7);
        let outer = Rect::new(
            area.x + (area.width - width) / 2,
            area.y + (area.height - height) / 2,
            width,
            height,
        );
        FormPlacement {
            outer,
            first_line: outer.y + 2,
            label_x: outer.x + 2,
            value_x: outer.x + 17,
        }
    }
}

/// Where the new-game form is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormPlacement {
    /// The box around it.
    pub outer: Rect,
    /// The screen line of [`FIELDS`]`[0]`.
    pub first_line: u16,
    /// The column of the labels.
    pub label_x: u16,
    /// The column of the values.
    pub value_x: u16,
}

impl FormPlacement {
    /// The index into [`FIELDS`] of the line at screen line `y`.
    pub fn field_at(&self, y: u16) -> Option<usize> {
        let index = usize::from(y.checked_sub(self.first_line)?);
        (index < FIELDS.len()).then_some(index)
    }
}

/// The option `step` places after `current` in `options`, round the end.
fn cycle<T: Copy + PartialEq>(options: &[T], current: T, step: isize) -> T {
    let at = options
        .iter()
        .position(|&option| option == current)
        .unwrap_or(0);
    let len = options.len() as isize;
    options[(at as isize + step).rem_euclid(len) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standard() -> Form {
        let players = ByColor::new_with(|color| {
            let controller = match color {
                Color::Black => Controller::Human,
                Color::White => Controller::Computer(Level::DEFAULT),
            };
            Player::new(color, controller, None, Controller::Human)
        });
        Form::new(&GameSettings {
            dims: Dimensions::STANDARD,
            rules: RuleSet::Full,
            win: WinRule::MostDiscs,
            first: Color::Black,
            players,
        })
    }

    #[test]
    fn defaults_are_preselected_and_enter_starts() {
        let mut form = standard();
        assert_eq!(form.focused(), Field::Start);
        assert_eq!(form.value(Field::Player(Color::White)), "computer, level 3");
        assert_eq!(form.name(Color::White), "Computer");
        assert_eq!(form.key(KeyCode::Enter), Action::Start);
        let choice = form.choice().unwrap();
        assert_eq!(choice.dims, Dimensions::STANDARD);
        assert_eq!(choice.players.black.name, "Black");
    }

    #[test]
    fn every_setting_can_be_changed() {
        let mut form = standard();
        form.focus = 0;
        for _ in 0..5 {
            form.key(KeyCode::Backspace);
        }
        for ch in "Ada".chars() {
            form.key(KeyCode::Char(ch));
        }
        form.key(KeyCode::Down);
        form.key(KeyCode::Left); // person -> computer level 6
        form.key(KeyCode::Down);
        form.key(KeyCode::Down);
        form.key(KeyCode::Left); // computer 3 -> 2
        form.key(KeyCode::Tab);
        form.key(KeyCode::Right); // rows 8 -> 10
        form.key(KeyCode::Down);
        form.key(KeyCode::Char('h')); // columns 8 -> 6
        form.key(KeyCode::Down);
        form.key(KeyCode::Char(' ')); // SIMPLE
        form.key(KeyCode::Down);
        form.key(KeyCode::Right); // fewest
        form.key(KeyCode::Down);
        form.key(KeyCode::Right); // white first
        let choice = form.choice().unwrap();
        assert_eq!(choice.players.black.name, "Ada");
        assert_eq!(
            choice.players.black.controller,
            Controller::Computer(Level::MAX)
        );
        assert_eq!(
            choice.players.white.controller,
            Controller::Computer(Level::new(2).unwrap())
        );
        assert_eq!(
            choice.players.white.name, "White",
            "two computers keep colour names"
        );
        assert_eq!(choice.dims, Dimensions::new(10, 6).unwrap());
        assert_eq!(choice.rules, RuleSet::Simple);
        assert_eq!(choice.win, WinRule::FewestDiscs);
        assert_eq!(choice.first, Color::White);
    }

    #[test]
    fn a_bad_name_is_explained_and_the_game_does_not_start() {
        let mut form = standard();
        form.focus = 0;
        for _ in 0..5 {
            form.key(KeyCode::Backspace);
        }
        assert_eq!(form.key(KeyCode::Enter), Action::Stay);
        assert_eq!(
            form.error.as_deref(),
            Some("Black name: a player name cannot be empty")
        );
        assert_eq!(form.key(KeyCode::Esc), Action::Cancel);
    }
}
