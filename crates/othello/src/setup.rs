//! A game's starting conditions: the board, the first player and the win rule, as plain data
//! (the protocol's text form of them is read and written in [`crate::protocol`]).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::board::Board;
use crate::color::Color;
use crate::square::Dimensions;

/// How the winner is decided when the game ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum WinRule {
    /// The player with more discs wins (protocol `>`).
    #[default]
    MostDiscs,
    /// The player with fewer discs wins (protocol `<`).
    FewestDiscs,
}

impl WinRule {
    /// The protocol symbol: `'>'` or `'<'`.
    #[must_use]
    pub const fn symbol(self) -> char {
        match self {
            WinRule::MostDiscs => '>',
            WinRule::FewestDiscs => '<',
        }
    }

    /// A short name: `"most"` or `"fewest"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            WinRule::MostDiscs => "most",
            WinRule::FewestDiscs => "fewest",
        }
    }
}

impl fmt::Display for WinRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A string that names no win rule.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("expected a win rule, most or fewest (> or <), found {found:?}")]
pub struct ParseWinRuleError {
    /// The text that was not understood.
    pub found: String,
}

impl FromStr for WinRule {
    type Err = ParseWinRuleError;

    /// Accepts `>`/`most` and `<`/`fewest`, names in any case.
    fn from_str(text: &str) -> Result<WinRule, ParseWinRuleError> {
        match text.to_ascii_lowercase().as_str() {
            ">" | "most" => Ok(WinRule::MostDiscs),
            "<" | "fewest" => Ok(WinRule::FewestDiscs),
            _ => Err(ParseWinRuleError {
                found: text.to_owned(),
            }),
        }
    }
}

/// Everything a game starts from: the board, who moves first and how the winner is decided.
///
/// Any arrangement of discs is a valid setup; [`crate::Game::new`] turns it into a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The starting position.
    pub board: Board,
    /// The player who moves first (if they can).
    pub first: Color,
    /// Most or fewest discs wins.
    pub win: WinRule,
}

impl Setup {
    /// The standard opening on a board of `dims`, black first, most discs wins.
    #[must_use]
    pub fn standard(dims: Dimensions) -> Setup {
        Setup {
            board: Board::standard(dims),
            first: Color::Black,
            win: WinRule::MostDiscs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_rule_and_symbols() {
        assert_eq!(">".parse(), Ok(WinRule::MostDiscs));
        assert_eq!("Fewest".parse(), Ok(WinRule::FewestDiscs));
        assert!("=".parse::<WinRule>().is_err());
        assert_eq!(WinRule::FewestDiscs.symbol(), '<');
    }
}
