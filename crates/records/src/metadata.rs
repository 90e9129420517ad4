//! What a record says about a game besides its moves: [`Metadata`] (names, date, event,
//! result, and what the GGF, WTHOR and OBF formats carry), with the numbers of a WTHOR game
//! ([`WthorInfo`]) and its file's [`Header`].

use crate::ffo::Listed;

/// What a record says about a game besides its moves; every field is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Metadata {
    /// Black's name.
    pub black: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// The date, as written in the record.
    pub date: Option<String>,
    /// Where or in which event the game was played.
    pub event: Option<String>,
    /// The result as the record states it (for GGF, black's margin such as `+12.000`).
    pub result: Option<String>,
    /// The numbers of a WTHOR game record.
    pub wthor: Option<WthorInfo>,
    /// The exact scores an OBF line lists for the position (its move fields).
    pub listed: Option<Listed>,
    /// Properties of a GGF game this crate keeps without reading them (`TY` as written when it
    /// says more than the size and `a`, `KB`, `KW`, `KM`, `TI`, `RB`, `RW`, comments...), name
    /// and value in the order read; the GGF writer writes them back.
    pub properties: Vec<(String, String)>,
}

/// The numbers a WTHOR game record carries besides its moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct WthorInfo {
    /// The tournament's number in the federation's tournament file (`WTHOR.TRN`).
    pub tournament: u16,
    /// Black's number in the federation's player file (`WTHOR.JOU`).
    pub black_player: u16,
    /// White's number in the player file.
    pub white_player: u16,
    /// Black's discs at the end, as recorded (empty squares counted for the winner).
    pub black_discs: u8,
    /// Black's discs with perfect play from the move the file's header names, as recorded.
    pub theoretical_black_discs: u8,
    /// The header of the file the game was read from, kept to write it back.
    pub header: Header,
}

/// What the header of a WTHOR file says besides the number of games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Header {
    /// Creation date: century, year in the century, month, day (`[20, 24, 5, 1]`).
    pub created: [u8; 4],
    /// The year the games were played.
    pub games_year: u16,
    /// The board size byte: 8, or 0 (which also means 8x8).
    pub board_size: u8,
    /// 0 for games, 1 for solitaires.
    pub solitaire: u8,
    /// The number of empties from which the theoretical scores are exact.
    pub depth: u8,
    /// The last byte, reserved.
    pub reserved: u8,
}
