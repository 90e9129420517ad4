//! WTHOR `.wtb` files, the French Othello federation's database of tournament games.
//!
//! A file is a 16-byte header and then one 68-byte record per game, little-endian:
//!
//! | bytes | header field |
//! |---|---|
//! | 0-3 | creation date: century, year in the century, month, day |
//! | 4-7 | number of games (u32) |
//! | 8-9 | number of other records (u16; 0 in a games file) |
//! | 10-11 | year of the games (u16) |
//! | 12 | board size: 0 or 8 for 8x8 |
//! | 13 | 0 for normal games, 1 for solitaires |
//! | 14 | depth of the theoretical scores (the perfect-play result is solved with this many empties) |
//! | 15 | reserved |
//!
//! | bytes | game field |
//! |---|---|
//! | 0-1 | tournament number (u16) |
//! | 2-3, 4-5 | black's and white's player numbers (u16) |
//! | 6 | black's discs at the end |
//! | 7 | black's theoretical score: discs with perfect play from the header's depth |
//! | 8-67 | up to 60 moves, `10 * row + column` (1-based, so 11 is a1 and 88 is h8), then 0 |
//!
//! Passes are not written; the games start from the standard 8x8 opening under the FULL rules.
//! Player and tournament names live in separate files (`WTHOR.JOU`, `WTHOR.TRN`); a record
//! keeps their numbers in [`WthorInfo`].

use thiserror::Error;

use crate::color::{ByColor, Color};
use crate::rules::RuleSet;
use crate::setup::Setup;
use crate::square::{Dimensions, Square};

use super::{
    Format, FormatSpec, GameRecord, Location, Metadata, RecordError, RecordErrorKind, RecordMove,
    WriteError, WthorInfo, cannot_hold,
};

/// Length of the header.
pub const HEADER_LEN: usize = 16;
/// Length of one game.
pub const GAME_LEN: usize = 68;
/// Most moves a game record holds.
const MOVES: usize = 60;

/// What the header says besides the number of games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Header {
    /// Creation date: century, year in the century, month, day (`[20, 24, 5, 1]`).
    pub created: [u8; 4],
    /// The year the games were played.
    pub games_year: u16,
    /// The number of empties from which the theoretical scores are exact.
    pub depth: u8,
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
    #[error("game {game} of {listed} is cut short: the file ends {missing} bytes early")]
    Truncated {
        /// 1-based number of the game cut short.
        game: usize,
        /// Games the header lists.
        listed: u32,
        /// Bytes missing at the end.
        missing: usize,
    },
    /// More bytes than the games the header lists.
    #[error("the header lists {listed} games, but {extra} more bytes follow them")]
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
    /// A move that cannot be played.
    #[error("game {game}: {replay}")]
    Replay {
        /// 1-based game number.
        game: usize,
        /// Which move, and why.
        replay: super::ReplayError,
    },
}

fn error(offset: usize, kind: WthorErrorKind) -> RecordError {
    RecordError {
        location: Location::Byte(offset),
        kind: RecordErrorKind::Wthor(kind),
    }
}

/// WTHOR's entry in the table of formats.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Wthor,
    name: "wthor",
    title: "WTHOR",
    input: "WTHOR",
    summary: "A WTHOR .wtb database file (binary; 8x8 standard games)",
    positions: false,
    extensions: &["wtb"],
    detect: looks_like,
    read: |input, _| read(input),
    write: |records| write(records, &Header::default()),
};

/// Whether `input` starts with a WTHOR header that fits its length: no count of other records
/// (bytes 8-9 are zero, which no text has), an 8x8 board, and a game count whose 68-byte games
/// fill the rest exactly, or reach past the end of a file cut short. The structure decides, not
/// whether the bytes are UTF-8: a text record in Latin-1 is still text.
#[must_use]
pub fn looks_like(input: &[u8]) -> bool {
    if input.len() < HEADER_LEN {
        return false;
    }
    let games = u32::from_le_bytes([input[4], input[5], input[6], input[7]]) as usize;
    let others = u16::from_le_bytes([input[8], input[9]]);
    let length = games.saturating_mul(GAME_LEN).saturating_add(HEADER_LEN);
    others == 0
        && matches!(input[12], 0 | 8)
        && (length == input.len() || (games > 0 && length > input.len()))
}

/// Reads the header of a WTHOR file.
///
/// # Errors
/// [`RecordError`] if the file is shorter than a header, or the header is not one of an 8x8
/// games file.
pub fn read_header(input: &[u8]) -> Result<(Header, u32), RecordError> {
    if input.len() < HEADER_LEN {
        return Err(error(input.len(), WthorErrorKind::ShortHeader));
    }
    let others = u16::from_le_bytes([input[8], input[9]]);
    if others != 0 {
        return Err(error(8, WthorErrorKind::NotGames(others)));
    }
    if !matches!(input[12], 0 | 8) {
        return Err(error(12, WthorErrorKind::BoardSize(input[12])));
    }
    let header = Header {
        created: [input[0], input[1], input[2], input[3]],
        games_year: u16::from_le_bytes([input[10], input[11]]),
        depth: input[14],
    };
    Ok((
        header,
        u32::from_le_bytes([input[4], input[5], input[6], input[7]]),
    ))
}

/// Reads every game of a WTHOR file.
///
/// # Errors
/// [`RecordError`] naming the byte offset of the first problem: a header that is short or not
/// of 8x8 games, a file cut short inside a game (or longer than its games), a move byte that
/// is no square, or a move that cannot be played.
pub fn read(input: &[u8]) -> Result<Vec<GameRecord>, RecordError> {
    let (header, listed) = read_header(input)?;
    let body = input.len() - HEADER_LEN;
    let whole = body / GAME_LEN;
    if (whole as u64) < u64::from(listed) {
        let game = whole + 1;
        let missing = GAME_LEN - body % GAME_LEN;
        return Err(error(
            input.len(),
            WthorErrorKind::Truncated {
                game,
                listed,
                missing,
            },
        ));
    }
    let end = HEADER_LEN + listed as usize * GAME_LEN;
    if end != input.len() {
        return Err(error(
            end,
            WthorErrorKind::Extra {
                listed,
                extra: input.len() - end,
            },
        ));
    }
    (0..listed as usize)
        .map(|index| {
            let start = HEADER_LEN + index * GAME_LEN;
            read_game(&input[start..start + GAME_LEN], start, index + 1, header)
        })
        .collect()
}

fn read_game(
    bytes: &[u8],
    start: usize,
    game: usize,
    header: Header,
) -> Result<GameRecord, RecordError> {
    let number = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    let info = WthorInfo {
        tournament: number(0),
        black_player: number(2),
        white_player: number(4),
        black_discs: bytes[6],
        theoretical_black_discs: bytes[7],
    };
    let mut squares = Vec::new();
    let mut offsets = Vec::new();
    let mut ended = false;
    for (index, &byte) in bytes[8..].iter().enumerate() {
        let offset = start + 8 + index;
        if byte == 0 {
            ended = true;
            continue;
        }
        if ended {
            return Err(error(offset, WthorErrorKind::AfterEnd { game }));
        }
        let (row, col) = (usize::from(byte / 10), usize::from(byte % 10));
        if !(1..=8).contains(&row) || !(1..=8).contains(&col) {
            return Err(error(offset, WthorErrorKind::MoveByte { game, byte }));
        }
        squares.push(RecordMove::Play(Square::new(row - 1, col - 1)));
        offsets.push(offset);
    }
    let metadata = Metadata {
        date: (header.games_year != 0).then(|| header.games_year.to_string()),
        wthor: Some(info),
        ..Metadata::default()
    };
    GameRecord::new(
        Setup::standard(Dimensions::STANDARD),
        RuleSet::Full,
        squares,
        metadata,
    )
    .map_err(|replay| {
        error(
            offsets[replay.number - 1],
            WthorErrorKind::Replay { game, replay },
        )
    })
}

/// Writes a WTHOR file of `records` with `header`. The scores of a record read from WTHOR are
/// kept; otherwise black's discs are counted at the end (empty squares to the winner, as the
/// federation counts them), and the theoretical score is the same number.
///
/// # Errors
/// [`WriteError`] for a game that is not 8x8 from the standard opening under the FULL rules
/// with most discs winning.
pub fn write(records: &[GameRecord], header: &Header) -> Result<Vec<u8>, WriteError> {
    let mut bytes = Vec::with_capacity(HEADER_LEN + records.len() * GAME_LEN);
    bytes.extend_from_slice(&header.created);
    bytes.extend_from_slice(&(records.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&0u16.to_le_bytes());
    bytes.extend_from_slice(&header.games_year.to_le_bytes());
    bytes.extend_from_slice(&[8, 0, header.depth, 0]);
    for (index, record) in records.iter().enumerate() {
        if !record.starts_standard()
            || record.dims() != Dimensions::STANDARD
            || record.rules() != RuleSet::Full
        {
            return Err(cannot_hold(
                index,
                Format::Wthor,
                "a game that is not 8x8 from the standard opening under the FULL rules, most discs winning",
            ));
        }
        let info = record.metadata().wthor.unwrap_or_else(|| {
            let discs = black_discs(record);
            WthorInfo {
                black_discs: discs,
                theoretical_black_discs: discs,
                ..WthorInfo::default()
            }
        });
        bytes.extend_from_slice(&info.tournament.to_le_bytes());
        bytes.extend_from_slice(&info.black_player.to_le_bytes());
        bytes.extend_from_slice(&info.white_player.to_le_bytes());
        bytes.push(info.black_discs);
        bytes.push(info.theoretical_black_discs);
        let mut moves = [0u8; MOVES];
        for (slot, square) in moves.iter_mut().zip(record.squares()) {
            *slot = (10 * (square.row() + 1) + square.col() + 1) as u8;
        }
        bytes.extend_from_slice(&moves);
    }
    Ok(bytes)
}

/// Black's discs at the end of the record, the empty squares going to the winner of a
/// finished game.
fn black_discs(record: &GameRecord) -> u8 {
    let game = record.final_game();
    let score: ByColor<u32> = game.score();
    let empties = game.board().empties();
    let black = match game.outcome().and_then(super::super::game::Outcome::winner) {
        Some(Color::Black) => score.black + empties,
        None if game.is_over() => score.black + empties / 2,
        _ => score.black,
    };
    black as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_the_header() {
        assert_eq!(
            read(&[0; 10]).unwrap_err().to_string(),
            "byte 10: the file ends inside its 16-byte header"
        );
        let mut header = [0u8; 16];
        header[12] = 10;
        assert_eq!(
            read(&header).unwrap_err().to_string(),
            "byte 12: the board size byte is 10: only 8x8 game files (0 or 8) can be read"
        );
        header[12] = 8;
        header[8] = 3;
        assert_eq!(
            read(&header).unwrap_err().to_string(),
            "byte 8: the header counts 3 name records: this is a player or tournament file, not games"
        );
        header[8] = 0;
        assert_eq!(read(&header).unwrap(), vec![]);
        assert!(looks_like(&header));
    }
}
