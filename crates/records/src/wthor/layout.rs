//! The layout of a WTHOR file: its 16-byte header (recognised, read and written here) and the
//! length of each game after it.

use crate::error::{RecordError, WthorErrorKind};
use crate::metadata::Header;

/// Length of the header.
pub const HEADER_LEN: usize = 16;
/// Length of one game.
pub const GAME_LEN: usize = 68;
/// Most moves a game record holds.
pub(super) const MOVES: usize = 60;

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
        return Err(RecordError::wthor(input.len(), WthorErrorKind::ShortHeader));
    }
    let others = u16::from_le_bytes([input[8], input[9]]);
    if others != 0 {
        return Err(RecordError::wthor(8, WthorErrorKind::NotGames(others)));
    }
    if !matches!(input[12], 0 | 8) {
        return Err(RecordError::wthor(12, WthorErrorKind::BoardSize(input[12])));
    }
    let header = Header {
        created: [input[0], input[1], input[2], input[3]],
        games_year: u16::from_le_bytes([input[10], input[11]]),
        board_size: input[12],
        solitaire: input[13],
        depth: input[14],
        reserved: input[15],
    };
    Ok((
        header,
        u32::from_le_bytes([input[4], input[5], input[6], input[7]]),
    ))
}

/// The 16 bytes of a WTHOR file's header, for `count` games.
///
/// # Panics
/// If `count` does not fit the header's 32-bit count.
#[must_use]
pub fn header_bytes(header: &Header, count: usize) -> [u8; HEADER_LEN] {
    let count = u32::try_from(count).expect("a WTHOR file holds at most 2^32 - 1 games");
    let mut bytes = [0u8; HEADER_LEN];
    bytes[..4].copy_from_slice(&header.created);
    bytes[4..8].copy_from_slice(&count.to_le_bytes());
    bytes[10..12].copy_from_slice(&header.games_year.to_le_bytes());
    bytes[12..].copy_from_slice(&[
        header.board_size,
        header.solitaire,
        header.depth,
        header.reserved,
    ]);
    bytes
}
