//! A game's id, and the name of the file that held a game before the database (`ID.ggf`).
//!
//! A game id is 128 random bits written as 32 lower-case hexadecimal digits; it is the only
//! part of a request that ever reaches the file system, and only after [`GameId::parse`].

use std::fmt;

use rand::Rng;

/// A game's id: 128 random bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameId(u128);

impl GameId {
    /// A fresh id from the operating system's randomness (through the thread's generator).
    pub fn random() -> GameId {
        GameId(rand::rng().random())
    }

    /// Exactly 32 lower-case hexadecimal digits, or nothing.
    pub fn parse(text: &str) -> Option<GameId> {
        let hex = text.len() == 32 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        hex.then(|| u128::from_str_radix(text, 16).ok())
            .flatten()
            .map(GameId)
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

/// The id of a saved game's file name `ID.ggf`.
pub fn id_of_file(name: &str) -> Option<GameId> {
    name.strip_suffix(".ggf").and_then(GameId::parse)
}
