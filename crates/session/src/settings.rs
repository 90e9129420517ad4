//! A new game's settings: the board size, the rules, the win rule, who moves first and who sits
//! at each side (a person, or the computer at a level, and their names), and the one grammar
//! every front end reads them in.
//!
//! A setting is a [`Setting`] and its text, as `KEY=VALUE`: the line dialogue and the full
//! screen read the words typed after `new` (`new 6x6 simple win=fewest first=white
//! black=human white=4`, a size, rule set or win rule alone, keys also written as the
//! options, `--size=6x6`); the page sends the same keys as a JSON object's fields and Python as
//! a constructor's arguments. Every front end gets the same [`SettingError`] and words it in
//! its own voice.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use othello::{
    ByColor, Color, Dimensions, Game, MAX_SIDE, MIN_SIDE, ParseColorError, ParseDimensionsError,
    ParseRuleSetError, ParseWinRuleError, RuleSet, Setup, WinRule,
};
use othello_engine::computer::Level;

use crate::{Controller, ControllerError, Name, NameError, Player, Session};

/// The settings of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSettings {
    /// The board size.
    pub dims: Dimensions,
    /// The rule set.
    pub rules: RuleSet,
    /// The win rule.
    pub win: WinRule,
    /// Who moves first.
    pub first: Color,
    /// Both players.
    pub players: ByColor<Player>,
}

impl Default for GameSettings {
    /// The standard game between two people.
    fn default() -> GameSettings {
        GameSettings::standard(ByColor {
            black: Controller::Human,
            white: Controller::Human,
        })
    }
}

impl GameSettings {
    /// The standard game (8x8, the full rules, most discs wins, black first) between players
    /// seated as `controllers`, with their default names.
    #[must_use]
    pub fn standard(controllers: ByColor<Controller>) -> GameSettings {
        GameSettings {
            dims: Dimensions::STANDARD,
            rules: RuleSet::Full,
            win: WinRule::MostDiscs,
            first: Color::Black,
            players: Player::pair(controllers, ByColor::default()),
        }
    }

    /// The settings of the game in `session` between `players`.
    #[must_use]
    pub fn of(session: &Session, players: &ByColor<Player>) -> GameSettings {
        let game = session.game();
        GameSettings {
            dims: game.board().dims(),
            rules: game.rules(),
            win: game.win_rule(),
            first: game.first_player(),
            players: players.clone(),
        }
    }

    /// The game of these settings, from the standard start of the size.
    #[must_use]
    pub fn game(&self) -> Game {
        let setup = Setup {
            first: self.first,
            win: self.win,
            ..Setup::standard(self.dims)
        };
        Game::new(setup, self.rules)
    }

    /// Starts the game of these settings in `session`, which holds the game of `current`:
    /// from its first position again when only the players change (so a game that started
    /// from another position starts there again), else from the standard start of the size.
    pub fn start(&self, current: &GameSettings, session: &mut Session) {
        if (self.dims, self.rules, self.win, self.first)
            == (current.dims, current.rules, current.win, current.first)
        {
            session.restart();
        } else {
            *session = Session::new(self.game());
        }
    }
}

/// One of the settings, as its key names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// `size`: the board, `RxC` (or `N` for `NxN`).
    Size,
    /// `rules`: `full` or `simple`.
    Rules,
    /// `win`: `most` or `fewest` (discs win).
    Win,
    /// `first`: `black` or `white`.
    First,
    /// `black`, `white`: who chooses the side's moves, `human`, `computer`, `computer:LEVEL`
    /// or the level alone.
    Seat(Color),
    /// `black_name`, `white_name`: the side's name (blank for the default one).
    Name(Color),
}

impl Setting {
    /// The key, as the page's JSON names the field: `size`, `rules`, `win`, `first`, `black`,
    /// `white`, `black_name`, `white_name`.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            Setting::Size => "size",
            Setting::Rules => "rules",
            Setting::Win => "win",
            Setting::First => "first",
            Setting::Seat(Color::Black) => "black",
            Setting::Seat(Color::White) => "white",
            Setting::Name(Color::Black) => "black_name",
            Setting::Name(Color::White) => "white_name",
        }
    }

    /// The setting `key` names: in any case, with `-` for `_` and leading dashes, as the
    /// options of `othello play` (`--black-name`).
    #[must_use]
    pub fn from_key(key: &str) -> Option<Setting> {
        let key = key
            .trim_start_matches('-')
            .to_ascii_lowercase()
            .replace('-', "_");
        [
            Setting::Size,
            Setting::Rules,
            Setting::Win,
            Setting::First,
            Setting::Seat(Color::Black),
            Setting::Seat(Color::White),
            Setting::Name(Color::Black),
            Setting::Name(Color::White),
        ]
        .into_iter()
        .find(|setting| setting.key() == key)
    }
}

/// What is wrong with a setting's value. Its message says what the setting takes (`expected
/// full or simple`); the errors kept say more, with what was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A board size that cannot be read or played.
    Size(ParseDimensionsError),
    /// No rule set.
    Rules(ParseRuleSetError),
    /// No win rule.
    Win(ParseWinRuleError),
    /// No colour.
    First(ParseColorError),
    /// A number that is no computer level.
    Level(u8),
    /// Neither a person nor the computer at a level.
    Seat(ControllerError),
    /// A name that cannot be used.
    Name(NameError),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Size(error) => error.fmt(f),
            Problem::Rules(_) => f.write_str("expected full or simple"),
            Problem::Win(_) => f.write_str("expected most or fewest"),
            Problem::First(_) => f.write_str("expected black or white"),
            Problem::Level(_) => write!(f, "expected a level from 1 to {}", Level::MAX),
            Problem::Seat(error) => error.fmt(f),
            Problem::Name(error) => error.fmt(f),
        }
    }
}

/// Settings that cannot be read or played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SettingError {
    /// A word that is no setting: neither a size, a rule set, a win rule nor `KEY=VALUE` with
    /// a key of a [`Setting`].
    #[error(
        "expected a board size such as 6x6, full or simple, most or fewest, or size=, rules=, win=, first=, black= or white=, found {0:?}"
    )]
    Word(String),
    /// A board size alone (`7x7`) that cannot be played.
    #[error("{0}")]
    Size(ParseDimensionsError),
    /// A setting with a value it cannot take.
    #[error("{key}={value}: {problem}", key = .setting.key())]
    Value {
        /// The setting.
        setting: Setting,
        /// The value given.
        value: String,
        /// What is wrong with it.
        problem: Problem,
    },
}

/// Changes to the settings: what `new` was given, or a form, a JSON object, arguments.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    dims: Option<Dimensions>,
    rules: Option<RuleSet>,
    win: Option<WinRule>,
    first: Option<Color>,
    controllers: ByColor<Option<Controller>>,
    names: ByColor<Option<Rename>>,
}

/// A new name for a player.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Rename {
    /// The default name of their side ([`Player::new`]).
    Default,
    /// This name.
    To(Name),
}

impl FromStr for Changes {
    type Err = SettingError;

    /// Reads words separated by spaces: a size (`6x6`, `10x8`, `6`), `full` or `simple`,
    /// `most` or `fewest`, and `KEY=VALUE` for a [`Setting`].
    fn from_str(text: &str) -> Result<Changes, SettingError> {
        let mut changes = Changes::default();
        for word in text.split_whitespace() {
            match word.split_once('=') {
                Some((key, value)) => {
                    let Some(setting) = Setting::from_key(key) else {
                        let key = key.trim_start_matches('-');
                        return Err(SettingError::Word(format!("{key}={value}")));
                    };
                    changes.set(setting, value)?;
                }
                None => changes.bare(word)?,
            }
        }
        Ok(changes)
    }
}

impl Changes {
    /// Whether nothing is changed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == Changes::default()
    }

    /// Sets `setting` to the `value` typed: as [`Setting`] says, each in any case.
    ///
    /// # Errors
    /// [`SettingError::Value`] when the setting cannot take the value; nothing changes then.
    pub fn set(&mut self, setting: Setting, value: &str) -> Result<(), SettingError> {
        let bad = |problem| SettingError::Value {
            setting,
            value: value.to_owned(),
            problem,
        };
        match setting {
            Setting::Size => self.dims = Some(value.parse().map_err(Problem::Size).map_err(bad)?),
            Setting::Rules => {
                self.rules = Some(value.parse().map_err(Problem::Rules).map_err(bad)?);
            }
            Setting::Win => self.win = Some(value.parse().map_err(Problem::Win).map_err(bad)?),
            Setting::First => {
                self.first = Some(value.parse().map_err(Problem::First).map_err(bad)?);
            }
            Setting::Seat(color) => {
                let controller = match value.parse::<u8>() {
                    Ok(number) => Level::new(number)
                        .map(Controller::Computer)
                        .ok_or(Problem::Level(number)),
                    Err(_) => value.parse().map_err(Problem::Seat),
                };
                self.controllers[color] = Some(controller.map_err(bad)?);
            }
            Setting::Name(color) => {
                let name = match value.trim() {
                    "" => Rename::Default,
                    name => Rename::To(name.parse().map_err(Problem::Name).map_err(bad)?),
                };
                self.names[color] = Some(name);
            }
        }
        Ok(())
    }

    /// A word without `=`: a size, a rule set or a win rule.
    fn bare(&mut self, word: &str) -> Result<(), SettingError> {
        if word.starts_with(|ch: char| ch.is_ascii_digit()) {
            self.dims = Some(word.parse().map_err(SettingError::Size)?);
        } else if let Ok(rules) = word.parse::<RuleSet>() {
            self.rules = Some(rules);
        } else if let Ok(win) = word.parse::<WinRule>() {
            self.win = Some(win);
        } else {
            return Err(SettingError::Word(word.to_owned()));
        }
        Ok(())
    }

    /// The settings of `current` with these changes. Names given to the players are kept
    /// unless changed; default names follow the new sides ("Computer" against a person).
    #[must_use]
    pub fn apply(&self, current: &GameSettings) -> GameSettings {
        let controllers = ByColor::new_with(|color| {
            self.controllers[color].unwrap_or(current.players[color].controller)
        });
        let names = ByColor::new_with(|color| match &self.names[color] {
            Some(Rename::To(name)) => Some(name.clone()),
            Some(Rename::Default) => None,
            None => {
                let player = &current.players[color];
                (!player.has_default_name())
                    .then(|| player.name.parse::<Name>().ok())
                    .flatten()
            }
        });
        GameSettings {
            dims: self.dims.unwrap_or(current.dims),
            rules: self.rules.unwrap_or(current.rules),
            win: self.win.unwrap_or(current.win),
            first: self.first.unwrap_or(current.first),
            players: Player::pair(controllers, names),
        }
    }
}

/// The words Tab completes after `new`.
#[must_use]
pub fn completions() -> Vec<String> {
    let mut words: Vec<String> = (MIN_SIDE..=MAX_SIDE)
        .step_by(2)
        .map(|side| format!("{side}x{side}"))
        .collect();
    words.extend(["full", "simple", "most", "fewest"].map(str::to_owned));
    words.extend(["first=black", "first=white", "win=most", "win=fewest"].map(str::to_owned));
    words.extend(["rules=full", "rules=simple"].map(str::to_owned));
    for side in ["black", "white"] {
        words.push(format!("{side}=human"));
        words.push(format!("{side}=computer"));
        words.extend(Level::all().map(|level| format!("{side}={level}")));
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standard() -> GameSettings {
        GameSettings::standard(ByColor {
            black: Controller::Human,
            white: Controller::Computer(Level::DEFAULT),
        })
    }

    #[test]
    fn every_setting_can_be_changed_in_words() {
        let changes: Changes = "6x6 SIMPLE black=computer:2 white=human first=white win=fewest"
            .parse()
            .unwrap();
        let settings = changes.apply(&standard());
        assert_eq!(settings.dims, Dimensions::new(6, 6).unwrap());
        assert_eq!(settings.rules, RuleSet::Simple);
        assert_eq!(settings.win, WinRule::FewestDiscs);
        assert_eq!(settings.first, Color::White);
        assert_eq!(
            settings.players.black.controller,
            Controller::Computer(Level::new(2).unwrap())
        );
        assert_eq!(settings.players.white.controller, Controller::Human);
        assert_eq!(
            settings.players.black.name, "Computer",
            "default names follow"
        );
        assert_eq!(settings.players.white.name, "White");
    }

    #[test]
    fn options_as_on_the_command_line_and_levels_alone() {
        let changes: Changes = "--size=10x8 --rules=full fewest white=5 black=human"
            .parse()
            .unwrap();
        let settings = changes.apply(&standard());
        assert_eq!(settings.dims, Dimensions::new(10, 8).unwrap());
        assert_eq!(settings.win, WinRule::FewestDiscs);
        assert_eq!(
            settings.players.white.controller,
            Controller::Computer(Level::new(5).unwrap())
        );
        assert!("".parse::<Changes>().unwrap().is_empty());
        assert_eq!(
            "".parse::<Changes>().unwrap().apply(&standard()),
            standard()
        );
    }

    #[test]
    fn names_given_are_kept_until_changed() {
        let mut current = standard();
        current.players.black.name = "Ada".to_owned();
        let settings = "white=human".parse::<Changes>().unwrap().apply(&current);
        assert_eq!(settings.players.black.name, "Ada");
        assert_eq!(settings.players.white.name, "White");
        let renamed = "--white-name=Bob black_name="
            .parse::<Changes>()
            .unwrap()
            .apply(&current);
        assert_eq!(
            renamed.players.black.name, "Black",
            "a blank name: the default"
        );
        assert_eq!(renamed.players.white.name, "Bob");
    }

    #[test]
    fn named_fields_take_the_same_values() {
        // As the page's JSON and Python's arguments give them: one setting at a time.
        let mut changes = Changes::default();
        for (setting, value) in [
            (Setting::Size, "6"),
            (Setting::Rules, "simple"),
            (Setting::Win, "<"),
            (Setting::First, "w"),
            (Setting::Seat(Color::Black), "computer:2"),
            (Setting::Seat(Color::White), "4"),
            (Setting::Name(Color::White), "  Ada "),
        ] {
            changes.set(setting, value).unwrap();
        }
        let settings = changes.apply(&GameSettings::default());
        assert_eq!(settings.dims, Dimensions::new(6, 6).unwrap());
        assert_eq!(settings.win, WinRule::FewestDiscs);
        assert_eq!(settings.first, Color::White);
        assert_eq!(
            settings.players.black.name, "Black",
            "two computers: colour names"
        );
        assert_eq!(settings.players.white.name, "Ada");
        assert_eq!(
            settings.players.white.controller,
            Controller::Computer(Level::new(4).unwrap())
        );
        let game = settings.game();
        assert_eq!(game.board().dims(), settings.dims);
        assert_eq!(
            (game.rules(), game.win_rule(), game.first_player()),
            (RuleSet::Simple, WinRule::FewestDiscs, Color::White)
        );
        assert_eq!(
            Setting::from_key("BLACK-NAME"),
            Some(Setting::Name(Color::Black))
        );
        assert_eq!(Setting::from_key("colour"), None);
    }

    #[test]
    fn errors_are_typed_and_worded_as_typed() {
        let error = |text: &str| text.parse::<Changes>().unwrap_err().to_string();
        assert_eq!(
            error("6x6 huge"),
            "expected a board size such as 6x6, full or simple, most or fewest, or size=, rules=, win=, first=, black= or white=, found \"huge\""
        );
        assert_eq!(error("win=all"), "win=all: expected most or fewest");
        assert_eq!(error("white=9"), "white=9: expected a level from 1 to 6");
        assert_eq!(
            error("black=robot"),
            "black=robot: expected human, computer or computer:LEVEL, found \"robot\""
        );
        assert_eq!(
            error("size=7x7"),
            "size=7x7: a 7x7 board is not supported: rows and columns must each be an even number from 4 to 16"
        );
        assert_eq!(
            error("simple 7x7"),
            "a 7x7 board is not supported: rows and columns must each be an even number from 4 to 16"
        );
        assert!(error("colour=red").ends_with("found \"colour=red\""));
        let rules = Changes::default().set(Setting::Rules, "chess").unwrap_err();
        assert!(matches!(
            rules,
            SettingError::Value {
                setting: Setting::Rules,
                problem: Problem::Rules(_),
                ..
            }
        ));
        let name = Changes::default()
            .set(Setting::Name(Color::Black), &"x".repeat(33))
            .unwrap_err();
        assert!(matches!(
            name,
            SettingError::Value {
                problem: Problem::Name(NameError::TooLong),
                ..
            }
        ));
    }

    #[test]
    fn only_a_new_game_leaves_the_first_position() {
        let current = standard();
        let mut session = Session::new(current.game());
        session.play(othello::Square::new(2, 3)).unwrap();
        let seats = "black=4".parse::<Changes>().unwrap().apply(&current);
        seats.start(&current, &mut session);
        assert_eq!(session.moves_played(), 0);
        assert_eq!(session.game(), &current.game());
        let smaller = "6x6".parse::<Changes>().unwrap().apply(&current);
        smaller.start(&current, &mut session);
        assert_eq!(
            session.game().board().dims(),
            Dimensions::new(6, 6).unwrap()
        );
    }
}
