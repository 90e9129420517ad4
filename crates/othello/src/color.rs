//! The two players and a pair of values indexed by player.

use std::fmt;
use std::ops::{Index, IndexMut};
use std::str::FromStr;

use thiserror::Error;

/// A player, and the colour of that player's discs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Black discs, written `B` in the protocol.
    Black,
    /// White discs, written `W` in the protocol.
    White,
}

impl Color {
    /// Both colours, black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other player.
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The protocol letter: `'B'` or `'W'`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// The lower-case English name: `"black"` or `"white"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// Parses a protocol letter (`B` or `W`, upper case only).
    #[must_use]
    pub const fn from_letter(letter: char) -> Option<Color> {
        match letter {
            'B' => Some(Color::Black),
            'W' => Some(Color::White),
            _ => None,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A string that names no colour.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("expected a colour (B, W, black or white), found {found:?}")]
pub struct ParseColorError {
    /// The text that was not understood.
    pub found: String,
}

impl FromStr for Color {
    type Err = ParseColorError;

    /// Accepts `B`/`W` and `black`/`white` in any case.
    fn from_str(text: &str) -> Result<Color, ParseColorError> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Color::Black),
            "w" | "white" => Ok(Color::White),
            _ => Err(ParseColorError {
                found: text.to_owned(),
            }),
        }
    }
}

/// One value per colour, indexed by [`Color`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    /// Black's value.
    pub black: T,
    /// White's value.
    pub white: T,
}

impl<T> ByColor<T> {
    /// Builds a pair by calling `f` for black, then for white.
    pub fn new_with(mut f: impl FnMut(Color) -> T) -> ByColor<T> {
        ByColor {
            black: f(Color::Black),
            white: f(Color::White),
        }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;

    fn index(&self, color: Color) -> &T {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    fn index_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_swaps_and_is_an_involution() {
        assert_eq!(Color::Black.opponent(), Color::White);
        assert_eq!(Color::White.opponent(), Color::Black);
        for c in Color::ALL {
            assert_eq!(c.opponent().opponent(), c);
        }
    }

    #[test]
    fn letters_round_trip() {
        for c in Color::ALL {
            assert_eq!(Color::from_letter(c.letter()), Some(c));
        }
        assert_eq!(Color::from_letter('b'), None);
        assert_eq!(Color::from_letter('.'), None);
    }

    #[test]
    fn parses_names_and_letters_in_any_case() {
        assert_eq!("B".parse(), Ok(Color::Black));
        assert_eq!("white".parse(), Ok(Color::White));
        assert_eq!("WHITE".parse(), Ok(Color::White));
        assert!("grey".parse::<Color>().is_err());
    }

    #[test]
    fn by_color_indexes() {
        let mut pair = ByColor::new_with(super::Color::letter);
        assert_eq!(pair[Color::Black], 'B');
        pair[Color::White] = 'x';
        assert_eq!(pair.white, 'x');
    }
}
