//! Writing a WTHOR file: each game's numbers, scores and moves.

use othello::Dimensions;
use othello::RuleSet;
use othello::{ByColor, Color};

use super::layout::{GAME_LEN, HEADER_LEN, MOVES, header_bytes};
use crate::error::{WriteError, cannot_hold};
use crate::format::Format;
use crate::metadata::{Header, WthorInfo};
use crate::record::GameRecord;

/// Writes a WTHOR file of `records` with `header`. The numbers and scores of a record read from
/// WTHOR (or from a GGF comment written from one) are kept. Otherwise black's real score comes
/// from the record's result (`RE`, black's margin, when it is a whole number) or else is counted
/// at the end (empty squares to the winner of a finished game, as the federation counts them);
/// the theoretical score is the real one, as the format has it for games that did not reach the
/// header's depth (write `header.depth` 0, or fill in [`WthorInfo`] from a solve).
///
/// # Errors
/// [`WriteError`] for a game that is not 8x8 from the standard opening under the FULL rules
/// with most discs winning.
pub fn write(records: &[GameRecord], header: &Header) -> Result<Vec<u8>, WriteError> {
    let mut bytes = Vec::with_capacity(HEADER_LEN + records.len() * GAME_LEN);
    bytes.extend_from_slice(&header_bytes(header, records.len()));
    for (index, record) in records.iter().enumerate() {
        write_game(index, record, &mut bytes)?;
    }
    Ok(bytes)
}

/// Appends the 68 bytes of game `index` to `out` (see [`write()`]).
///
/// # Errors
/// As [`write()`].
pub fn write_game(index: usize, record: &GameRecord, out: &mut Vec<u8>) -> Result<(), WriteError> {
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
        let discs = real_black_discs(record);
        WthorInfo {
            black_discs: discs,
            theoretical_black_discs: discs,
            ..WthorInfo::default()
        }
    });
    out.extend_from_slice(&info.tournament.to_le_bytes());
    out.extend_from_slice(&info.black_player.to_le_bytes());
    out.extend_from_slice(&info.white_player.to_le_bytes());
    out.push(info.black_discs);
    out.push(info.theoretical_black_discs);
    let mut moves = [0u8; MOVES];
    for (slot, square) in moves.iter_mut().zip(record.squares()) {
        *slot = (10 * (square.row() + 1) + square.col() + 1) as u8;
    }
    out.extend_from_slice(&moves);
    Ok(())
}

/// Black's real score in discs out of 64: the record's result when it states a whole margin,
/// else counted at the end.
#[must_use]
pub fn real_black_discs(record: &GameRecord) -> u8 {
    let stated = record
        .metadata()
        .result
        .as_deref()
        .and_then(whole_margin)
        .filter(|margin| margin.abs() <= 64 && margin % 2 == 0);
    match stated {
        Some(margin) => discs_of_margin(margin),
        None => black_discs(record),
    }
}

/// A GGF result that is a whole margin (`+8.000`, `-2`): the margin.
fn whole_margin(text: &str) -> Option<i32> {
    let (whole, fraction) = text.trim().split_once('.').unwrap_or((text.trim(), ""));
    if !fraction.bytes().all(|b| b == b'0') {
        return None;
    }
    whole.strip_prefix('+').unwrap_or(whole).parse().ok()
}

/// Black's discs out of 64 for black's `margin` (empties to the winner).
#[must_use]
pub fn discs_of_margin(margin: i32) -> u8 {
    (32 + margin / 2).clamp(0, 64) as u8
}

/// Black's discs at the end of the record, the empty squares going to the winner of a
/// finished game.
fn black_discs(record: &GameRecord) -> u8 {
    let game = record.final_game();
    let score: ByColor<u32> = game.score();
    let empties = game.board().empties();
    let black = match game.outcome().and_then(othello::Outcome::winner) {
        Some(Color::Black) => score.black + empties,
        None if game.is_over() => score.black + empties / 2,
        _ => score.black,
    };
    black as u8
}
