//! A game's settings: the board size, the rules, the win rule, who moves first and who plays
//! each side, as the new-game screen chooses them and as `new` takes them in words
//! (`new 6x6 simple win=fewest first=white black=human white=4`), with the meanings of the
//! options of `othello play`.

use std::str::FromStr;

use clap::ValueEnum;
use thiserror::Error;

use othello::{ByColor, Color, Dimensions, Game, MAX_SIDE, MIN_SIDE, RuleSet, Setup, WinRule};
use othello_engine::computer::Level;
use othello_session::Session;

use super::{ColorArg, WinArg};
use othello_io::options::RulesArg;
use othello_session::{Controller, Name, Player};

/// The settings of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
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

impl Choice {
    /// The settings of the game in `session` between `players`.
    pub fn of(session: &Session, players: &ByColor<Player>) -> Choice {
        let game = session.game();
        Choice {
            dims: game.board().dims(),
            rules: game.rules(),
            win: game.win_rule(),
            first: game.first_player(),
            players: players.clone(),
        }
    }

    /// Starts the game of these settings in `session`, which holds the game of `current`:
    /// from its first position again when only the players change (so a `--from` position is
    /// kept), else from the standard start of the size.
    pub fn start(&self, current: &Choice, session: &mut Session) {
        if (self.dims, self.rules, self.win, self.first)
            == (current.dims, current.rules, current.win, current.first)
        {
            session.restart();
        } else {
            let setup = Setup {
                first: self.first,
                win: self.win,
                ..Setup::standard(self.dims)
            };
            *session = Session::new(Game::new(setup, self.rules));
        }
    }
}

/// Changes to the settings, typed after `new`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    dims: Option<Dimensions>,
    rules: Option<RuleSet>,
    win: Option<WinRule>,
    first: Option<Color>,
    controllers: ByColor<Option<Controller>>,
}

/// A word after `new` that is not a setting.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ChangeError {
    /// Neither a size, a rule set, a win rule nor `KEY=VALUE`.
    #[error(
        "expected a board size such as 6x6, full or simple, most or fewest, or size=, rules=, win=, first=, black= or white=, found {0:?}"
    )]
    Word(String),
    /// A board size that cannot be played.
    #[error("{0}")]
    Size(othello::ParseDimensionsError),
    /// A known key with a value it cannot take.
    #[error("{key}={value}: {reason}")]
    Value {
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What the key takes, and what was wrong.
        reason: String,
    },
}

impl FromStr for Changes {
    type Err = ChangeError;

    /// Reads words separated by spaces: a size (`6x6`, `10x8`, `6`), `full` or `simple`,
    /// `most` or `fewest`, and `KEY=VALUE` for `size`, `rules`, `win`, `first` (`black`,
    /// `white`), `black` and `white` (`human`, `computer`, `computer:LEVEL` or `LEVEL`). Keys
    /// may be written as the options, `--size=6x6`.
    fn from_str(text: &str) -> Result<Changes, ChangeError> {
        let mut changes = Changes::default();
        for word in text.split_whitespace() {
            match word.split_once('=') {
                Some((key, value)) => changes.set(key.trim_start_matches('-'), value)?,
                None => changes.bare(word)?,
            }
        }
        Ok(changes)
    }
}

impl Changes {
    /// Whether nothing is changed.
    pub fn is_empty(&self) -> bool {
        *self == Changes::default()
    }

    fn bare(&mut self, word: &str) -> Result<(), ChangeError> {
        if word.starts_with(|ch: char| ch.is_ascii_digit()) {
            self.dims = Some(word.parse().map_err(ChangeError::Size)?);
        } else if let Ok(rules) = RulesArg::from_str(word, true) {
            self.rules = Some(rules.into());
        } else if let Ok(win) = WinArg::from_str(word, true) {
            self.win = Some(win.into());
        } else {
            return Err(ChangeError::Word(word.to_owned()));
        }
        Ok(())
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), ChangeError> {
        let bad = |reason: &str| ChangeError::Value {
            key: key.to_owned(),
            value: value.to_owned(),
            reason: reason.to_owned(),
        };
        match key.to_ascii_lowercase().as_str() {
            "size" => {
                let dims: Dimensions = value
                    .parse()
                    .map_err(|error: othello::ParseDimensionsError| bad(&error.to_string()))?;
                self.dims = Some(dims);
            }
            "rules" => {
                let rules =
                    RulesArg::from_str(value, true).map_err(|_| bad("expected full or simple"))?;
                self.rules = Some(rules.into());
            }
            "win" => {
                let win =
                    WinArg::from_str(value, true).map_err(|_| bad("expected most or fewest"))?;
                self.win = Some(win.into());
            }
            "first" => {
                let first =
                    ColorArg::from_str(value, true).map_err(|_| bad("expected black or white"))?;
                self.first = Some(first.into());
            }
            "black" | "white" => {
                let color = if key.eq_ignore_ascii_case("black") {
                    Color::Black
                } else {
                    Color::White
                };
                let controller = match value.parse::<u8>() {
                    Ok(number) => {
                        Level::new(number)
                            .map(Controller::Computer)
                            .ok_or_else(|| {
                                bad(&format!("expected a level from 1 to {}", Level::MAX))
                            })?
                    }
                    Err(_) => {
                        value
                            .parse()
                            .map_err(|error: othello_session::ControllerError| {
                                bad(&error.to_string())
                            })?
                    }
                };
                self.controllers[color] = Some(controller);
            }
            _ => return Err(ChangeError::Word(format!("{key}={value}"))),
        }
        Ok(())
    }

    /// The settings of `current` with these changes. Names given to the players are kept;
    /// default names follow the new sides ("Computer" against a person).
    pub fn apply(&self, current: &Choice) -> Choice {
        let controllers = ByColor::new_with(|color| {
            self.controllers[color].unwrap_or(current.players[color].controller)
        });
        let players = ByColor::new_with(|color| {
            let player = &current.players[color];
            let name = (!player.has_default_name())
                .then(|| player.name.parse::<Name>().ok())
                .flatten();
            Player::new(
                color,
                controllers[color],
                name,
                controllers[color.opponent()],
            )
        });
        Choice {
            dims: self.dims.unwrap_or(current.dims),
            rules: self.rules.unwrap_or(current.rules),
            win: self.win.unwrap_or(current.win),
            first: self.first.unwrap_or(current.first),
            players,
        }
    }
}

/// What Tab completes after `new`.
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

    fn standard() -> Choice {
        let controllers = ByColor {
            black: Controller::Human,
            white: Controller::Computer(Level::DEFAULT),
        };
        Choice {
            dims: Dimensions::STANDARD,
            rules: RuleSet::Full,
            win: WinRule::MostDiscs,
            first: Color::Black,
            players: ByColor::new_with(|color| {
                Player::new(
                    color,
                    controllers[color],
                    None,
                    controllers[color.opponent()],
                )
            }),
        }
    }

    #[test]
    fn every_setting_can_be_changed_in_words() {
        let changes: Changes = "6x6 SIMPLE black=computer:2 white=human first=white win=fewest"
            .parse()
            .unwrap();
        let choice = changes.apply(&standard());
        assert_eq!(choice.dims, Dimensions::new(6, 6).unwrap());
        assert_eq!(choice.rules, RuleSet::Simple);
        assert_eq!(choice.win, WinRule::FewestDiscs);
        assert_eq!(choice.first, Color::White);
        assert_eq!(
            choice.players.black.controller,
            Controller::Computer(Level::new(2).unwrap())
        );
        assert_eq!(choice.players.white.controller, Controller::Human);
        assert_eq!(
            choice.players.black.name, "Computer",
            "default names follow"
        );
        assert_eq!(choice.players.white.name, "White");
    }

    #[test]
    fn options_as_on_the_command_line_and_levels_alone() {
        let changes: Changes = "--size=10x8 --rules=full fewest white=5 black=human"
            .parse()
            .unwrap();
        let choice = changes.apply(&standard());
        assert_eq!(choice.dims, Dimensions::new(10, 8).unwrap());
        assert_eq!(choice.win, WinRule::FewestDiscs);
        assert_eq!(
            choice.players.white.controller,
            Controller::Computer(Level::new(5).unwrap())
        );
        assert!("".parse::<Changes>().unwrap().is_empty());
        assert_eq!(
            "".parse::<Changes>().unwrap().apply(&standard()),
            standard()
        );
    }

    #[test]
    fn names_given_are_kept() {
        let mut current = standard();
        current.players.black.name = "Ada".to_owned();
        let choice = "white=human".parse::<Changes>().unwrap().apply(&current);
        assert_eq!(choice.players.black.name, "Ada");
        assert_eq!(choice.players.white.name, "White");
    }

    #[test]
    fn a_wrong_word_is_named() {
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
    }
}
