//! The players of a game: their names, their colours, and who chooses their moves (a person or
//! the computer at some level), with the computer players seeded so that one seed replays one
//! game in every front end.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use thiserror::Error;

use othello::{ByColor, Color};
use othello_engine::book::Book;
use othello_engine::computer::{Computer, Level};

/// Who chooses one side's moves, as typed: `human`, `computer` or `computer:LEVEL`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Controller {
    /// A person types the moves.
    Human,
    /// The engine chooses them.
    Computer(Level),
}

impl FromStr for Controller {
    type Err = ControllerError;

    fn from_str(text: &str) -> Result<Controller, ControllerError> {
        let lower = text.trim().to_ascii_lowercase();
        let (kind, level) = match lower.split_once(':') {
            Some((kind, level)) => (kind, Some(level)),
            None => (lower.as_str(), None),
        };
        match (kind, level) {
            ("human", None) => Ok(Controller::Human),
            ("computer", None) => Ok(Controller::Computer(Level::DEFAULT)),
            ("computer", Some(level)) => level
                .parse()
                .map(Controller::Computer)
                .map_err(|_| ControllerError::Level(level.to_owned())),
            _ => Err(ControllerError::Syntax(text.to_owned())),
        }
    }
}

impl Controller {
    /// The computer's level, or `None` for a person.
    #[must_use]
    pub fn level(self) -> Option<Level> {
        match self {
            Controller::Human => None,
            Controller::Computer(level) => Some(level),
        }
    }
}

impl fmt::Display for Controller {
    /// The form [`Controller::from_str`] reads back: `human` or `computer:LEVEL`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Controller::Human => f.write_str("human"),
            Controller::Computer(level) => write!(f, "computer:{level}"),
        }
    }
}

/// A [`Controller`] typed wrongly.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ControllerError {
    /// Neither `human` nor `computer[:LEVEL]`.
    #[error("expected human, computer or computer:LEVEL, found {0:?}")]
    Syntax(String),
    /// A level that does not exist.
    #[error("expected a computer level from 1 to {max}, found {0:?}", max = Level::MAX.number())]
    Level(String),
}

/// A player's name, checked to fit on one line: not empty, no control characters, at most
/// [`Name::MAX_CHARS`] characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name(String);

impl Name {
    /// The longest name, in characters.
    pub const MAX_CHARS: usize = 32;

    /// The name.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for Name {
    type Err = NameError;

    fn from_str(text: &str) -> Result<Name, NameError> {
        let name = text.trim();
        if name.is_empty() {
            return Err(NameError::Empty);
        }
        if name.chars().any(char::is_control) {
            return Err(NameError::Control);
        }
        if name.chars().count() > Name::MAX_CHARS {
            return Err(NameError::TooLong);
        }
        Ok(Name(name.to_owned()))
    }
}

/// A player name that cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum NameError {
    /// Only white space.
    #[error("a player name cannot be empty")]
    Empty,
    /// Tabs, line breaks or other control characters.
    #[error("a player name cannot contain control characters such as tabs or line breaks")]
    Control,
    /// Longer than [`Name::MAX_CHARS`].
    #[error("a player name can be at most {} characters long", Name::MAX_CHARS)]
    TooLong,
}

/// A player: their name, their colour and who chooses their moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// How the player is called (on screen, in saved games and results).
    pub name: String,
    /// The colour of their discs.
    pub color: Color,
    /// Person or computer.
    pub controller: Controller,
}

impl Player {
    /// A player with the name given, or a default one: the colour ("Black"), or "Computer"
    /// when the computer plays against a person.
    #[must_use]
    pub fn new(
        color: Color,
        controller: Controller,
        name: Option<Name>,
        other: Controller,
    ) -> Player {
        let name = match (name, controller, other) {
            (Some(Name(name)), _, _) => name,
            (None, Controller::Computer(_), Controller::Human) => "Computer".to_owned(),
            (None, _, _) => color_name(color).to_owned(),
        };
        Player {
            name,
            color,
            controller,
        }
    }

    /// Both players: who chooses each side's moves, and each side's name (`None`: the default
    /// name [`Player::new`] gives).
    #[must_use]
    pub fn pair(controllers: ByColor<Controller>, names: ByColor<Option<Name>>) -> ByColor<Player> {
        let mut names = names;
        ByColor::new_with(|color| {
            Player::new(
                color,
                controllers[color],
                names[color].take(),
                controllers[color.opponent()],
            )
        })
    }

    /// Whether the name is the one given by default (and so says nothing new).
    #[must_use]
    pub fn has_default_name(&self) -> bool {
        let default = match self.controller {
            Controller::Computer(_) => self.name == "Computer",
            Controller::Human => false,
        };
        default || self.name == color_name(self.color)
    }

    /// Whether a person types this player's moves.
    #[must_use]
    pub fn is_human(&self) -> bool {
        self.controller == Controller::Human
    }
}

/// The default name of a colour's player: `Black` or `White`.
fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// Which opening book the computer players play from.
#[derive(Clone, Debug, Default)]
pub enum BookChoice {
    /// The built-in book, at the levels that use a book ([`Level::uses_book`]).
    #[default]
    Builtin,
    /// No book: every move is searched.
    Off,
    /// This book, at the levels that use a book.
    Custom(Arc<Book>),
}

impl BookChoice {
    /// The book a computer at `level` plays from.
    #[must_use]
    pub fn for_level(&self, level: Level) -> Option<Arc<Book>> {
        match self {
            BookChoice::Builtin if level.uses_book() => Some(Book::builtin()),
            BookChoice::Custom(book) if level.uses_book() => Some(Arc::clone(book)),
            _ => None,
        }
    }
}

/// The engines of the computer players (`None` for a person), each seeded from `seed` with
/// [`Computer::for_color`] (every front end plays the same game for one seed) and playing
/// from the opening book `book` chooses.
#[must_use]
pub fn computers(
    players: &ByColor<Player>,
    seed: u64,
    book: &BookChoice,
) -> ByColor<Option<Computer>> {
    ByColor::new_with(|color| match players[color].controller {
        Controller::Computer(level) => {
            Some(Computer::for_color(level, seed, color).with_book(book.for_level(level)))
        }
        Controller::Human => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_controllers() {
        assert_eq!("human".parse(), Ok(Controller::Human));
        assert_eq!(
            " Computer ".parse(),
            Ok(Controller::Computer(Level::DEFAULT))
        );
        assert_eq!(
            "computer:1".parse(),
            Ok(Controller::Computer(Level::new(1).unwrap()))
        );
        assert!(matches!(
            "computer:0".parse::<Controller>(),
            Err(ControllerError::Level(_))
        ));
        assert!(matches!(
            "robot".parse::<Controller>(),
            Err(ControllerError::Syntax(_))
        ));
        assert!(matches!(
            "human:2".parse::<Controller>(),
            Err(ControllerError::Syntax(_))
        ));
    }

    #[test]
    fn checks_names() {
        assert_eq!(" Alice ".parse(), Ok(Name("Alice".to_owned())));
        assert_eq!("".parse::<Name>(), Err(NameError::Empty));
        assert_eq!("a\tb".parse::<Name>(), Err(NameError::Control));
        assert_eq!("x".repeat(33).parse::<Name>(), Err(NameError::TooLong));
        assert!("é".repeat(32).parse::<Name>().is_ok());
    }

    #[test]
    fn default_names() {
        let computer = Controller::Computer(Level::DEFAULT);
        let human = Controller::Human;
        assert_eq!(
            Player::new(Color::Black, human, None, computer).name,
            "Black"
        );
        assert_eq!(
            Player::new(Color::White, computer, None, human).name,
            "Computer"
        );
        assert_eq!(
            Player::new(Color::White, computer, None, computer).name,
            "White"
        );
        let named = Player::new(Color::White, computer, Some("Deep".parse().unwrap()), human);
        assert_eq!(named.name, "Deep");
    }
}
