//! What goes wrong reading and writing records: [`RecordError`] (where, [`Location`], and what,
//! [`RecordErrorKind`], WTHOR's own kinds included: [`WthorErrorKind`]), [`WriteError`] for a
//! record a format cannot hold, and the wording their messages share.

use std::fmt;

use thiserror::Error;

use othello::notation::NotationError;
use othello::protocol::SetupErrorKind;
use othello::text::counted;

use crate::ffo::FfoError;
use crate::format::Format;
use crate::record::ReplayError;

/// Where in the input something is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// 1-based line and column (in characters) of a text.
    Text {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// 0-based offset of a byte in binary input.
    Byte(usize),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Text { line, column } => write!(f, "line {line}, column {column}"),
            Location::Byte(offset) => write!(f, "byte {offset}"),
        }
    }
}

/// A record that could not be read: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{location}: {kind}")]
pub struct RecordError {
    /// Where the problem is.
    pub location: Location,
    /// What is wrong.
    pub kind: RecordErrorKind,
}

impl RecordError {
    pub(crate) fn at_text(line: usize, column: usize, kind: RecordErrorKind) -> RecordError {
        RecordError {
            location: Location::Text { line, column },
            kind,
        }
    }

    /// What is wrong in a WTHOR file, at byte `offset`.
    pub(crate) fn wthor(offset: usize, kind: WthorErrorKind) -> RecordError {
        RecordError {
            location: Location::Byte(offset),
            kind: RecordErrorKind::Wthor(kind),
        }
    }
}

/// What is wrong with a record.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordErrorKind {
    /// Something other than what the format has there.
    #[error("expected {expected}, found {found}")]
    Expected {
        /// What the format has there.
        expected: &'static str,
        /// What was found, quoted and shortened, or a description such as `the end of the input`.
        found: String,
    },
    /// A square that cannot be read, or is off the board.
    #[error(transparent)]
    Square(#[from] NotationError),
    /// A move that cannot be played, with its number.
    #[error(transparent)]
    Replay(ReplayError),
    /// A protocol header or grid line that is wrong.
    #[error(transparent)]
    Setup(SetupErrorKind),
    /// An OBF / FFO line that is wrong.
    #[error(transparent)]
    Obf(FfoError),
    /// A WTHOR file that is cut short or says something impossible.
    #[error(transparent)]
    Wthor(WthorErrorKind),
    /// Input without any game.
    #[error(
        "no game found (expected {})",
        listed(Format::ALL.into_iter().map(|format| format.spec().input))
    )]
    NoGame,
}

/// What is wrong in a WTHOR file.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum WthorErrorKind {
    /// The file is shorter than its header.
    #[error("the file ends inside its 16-byte header")]
    ShortHeader,
    /// The second count of the header is not 0: a player or tournament file.
    #[error("the header counts {0} name records: this is a player or tournament file, not games")]
    NotGames(u16),
    /// A board size other than 8x8.
    #[error("the board size byte is {0}: only 8x8 game files (0 or 8) can be read")]
    BoardSize(u8),
    /// The file ends inside a game.
    #[error(
        "game {game} of {listed} is cut short: the file ends {} early",
        counted(*missing, "byte", "bytes")
    )]
    Truncated {
        /// 1-based number of the game cut short.
        game: usize,
        /// Games the header lists.
        listed: u32,
        /// Bytes missing at the end.
        missing: usize,
    },
    /// More bytes than the games the header lists.
    #[error(
        "the header lists {}, but {} them",
        counted(*listed, "game", "games"),
        counted(*extra, "more byte follows", "more bytes follow")
    )]
    Extra {
        /// Games the header lists.
        listed: u32,
        /// Bytes after the last game.
        extra: usize,
    },
    /// A move byte that is no square.
    #[error("game {game}: move byte {byte} is no square (11 to 88: row, then column)")]
    MoveByte {
        /// 1-based game number.
        game: usize,
        /// The byte.
        byte: u8,
    },
    /// A move after the 0 that ends the moves.
    #[error("game {game}: a move after the 0 that ends its moves")]
    AfterEnd {
        /// 1-based game number.
        game: usize,
    },
    /// A player or tournament file whose length is not its count of names.
    #[error("the header counts {count} names, which do not divide the rest of the file")]
    NotNames {
        /// Names the header counts.
        count: usize,
    },
    /// A move that cannot be played.
    #[error("game {game}: {replay}")]
    Replay {
        /// 1-based game number.
        game: usize,
        /// Which move, and why.
        replay: ReplayError,
    },
}

/// A record that a format cannot hold.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("game {game}: {format} cannot hold {what}")]
pub struct WriteError {
    /// 1-based number of the game among those written.
    pub game: usize,
    /// The format asked for.
    pub format: Format,
    /// What it cannot hold, such as `a 6x8 board`.
    pub what: String,
}

/// A [`WriteError`] for game `index` (0-based).
pub(crate) fn cannot_hold(index: usize, format: Format, what: impl Into<String>) -> WriteError {
    WriteError {
        game: index + 1,
        format,
        what: what.into(),
    }
}

/// The text found, quoted and cut to 24 characters, for messages.
pub(crate) fn shown(text: &str) -> String {
    const SHOWN: usize = 24;
    if text.is_empty() {
        return "nothing".to_owned();
    }
    if text.chars().count() <= SHOWN {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(SHOWN).collect();
    format!("{head:?}...")
}

/// `names` as a list in a sentence: `a, b or c`.
pub(crate) fn listed(names: impl Iterator<Item = &'static str>) -> String {
    let names: Vec<&str> = names.collect();
    match names.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}
