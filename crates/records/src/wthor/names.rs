//! The player and tournament files (`WTHOR.JOU`, `WTHOR.TRN`), and their names put in the
//! games read from WTHOR.

use super::layout::HEADER_LEN;
use crate::error::{RecordError, WthorErrorKind};
use crate::record::GameRecord;

/// The names of a player or tournament file (`WTHOR.JOU`, `WTHOR.TRN`), by number: its header
/// counts the names, and each is a fixed-length field (20 or 26 bytes) padded with zeros, in
/// ISO 8859-1.
///
/// # Errors
/// [`RecordError`] for a file shorter than its header, or whose length is not its header's
/// count of equal fields.
pub fn read_names(input: &[u8]) -> Result<Vec<String>, RecordError> {
    if input.len() < HEADER_LEN {
        return Err(RecordError::wthor(input.len(), WthorErrorKind::ShortHeader));
    }
    let count = usize::from(u16::from_le_bytes([input[8], input[9]]));
    let body = &input[HEADER_LEN..];
    if count == 0 || !body.len().is_multiple_of(count) {
        return Err(RecordError::wthor(8, WthorErrorKind::NotNames { count }));
    }
    Ok(body
        .chunks(body.len() / count)
        .map(|field| {
            let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
            field[..end]
                .iter()
                .map(|&b| char::from(b))
                .collect::<String>()
                .trim()
                .to_owned()
        })
        .collect())
}

/// The names of the players (`WTHOR.JOU`) and tournaments (`WTHOR.TRN`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    /// Players, by number.
    pub players: Vec<String>,
    /// Tournaments, by number.
    pub tournaments: Vec<String>,
}

/// Puts the names of the players and the tournament in each record read from WTHOR, by its
/// numbers (black, white, event); a number with no name leaves the field as it is.
pub fn name_games(records: &mut [GameRecord], names: &Names) {
    for record in records {
        name_game(record, names);
    }
}

/// Puts the names of the players and the tournament in `record`, if it was read from WTHOR,
/// as [`name_games`] does.
pub fn name_game(record: &mut GameRecord, names: &Names) {
    let Some(info) = record.metadata().wthor else {
        return;
    };
    let name = |list: &[String], number: u16| {
        list.get(usize::from(number))
            .filter(|name| !name.is_empty())
            .cloned()
    };
    let metadata = record.metadata_mut();
    if let Some(black) = name(&names.players, info.black_player) {
        metadata.black = Some(black);
    }
    if let Some(white) = name(&names.players, info.white_player) {
        metadata.white = Some(white);
    }
    if let Some(event) = name(&names.tournaments, info.tournament) {
        metadata.event = Some(event);
    }
}
