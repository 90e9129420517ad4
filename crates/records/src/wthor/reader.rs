//! Reading the games of a WTHOR file, each checked against the header and replayed.

use othello::RuleSet;
use othello::Setup;
use othello::{Dimensions, Square};

use super::layout::{GAME_LEN, HEADER_LEN, read_header};
use crate::error::{RecordError, WthorErrorKind};
use crate::metadata::{Header, Metadata, WthorInfo};
use crate::record::{GameRecord, RecordMove};
use crate::spec::GameIter;

/// Reads every game of a WTHOR file.
///
/// # Errors
/// [`RecordError`] naming the byte offset of the first problem: a header that is short or not
/// of 8x8 games, a file cut short inside a game (or longer than its games), a move byte that
/// is no square, or a move that cannot be played.
pub fn read(input: &[u8]) -> Result<Vec<GameRecord>, RecordError> {
    games(input).collect()
}

/// The games of a WTHOR file one at a time, after a check of the header against the length
/// (whose error is then the only item).
pub(super) fn games(input: &[u8]) -> GameIter<'_> {
    let header = match check_length(input) {
        Ok(header) => header,
        Err(error) => return Box::new(std::iter::once(Err(error))),
    };
    let listed = (input.len() - HEADER_LEN) / GAME_LEN;
    Box::new((0..listed).map(move |index| {
        let start = HEADER_LEN + index * GAME_LEN;
        read_game(&input[start..start + GAME_LEN], start, index + 1, header)
    }))
}

/// The header of `input`, if the games it lists fill the rest exactly.
fn check_length(input: &[u8]) -> Result<Header, RecordError> {
    let (header, listed) = read_header(input)?;
    let body = input.len() - HEADER_LEN;
    let whole = body / GAME_LEN;
    if (whole as u64) < u64::from(listed) {
        let game = whole + 1;
        let missing = GAME_LEN - body % GAME_LEN;
        return Err(RecordError::wthor(
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
        return Err(RecordError::wthor(
            end,
            WthorErrorKind::Extra {
                listed,
                extra: input.len() - end,
            },
        ));
    }
    Ok(header)
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
        header,
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
            return Err(RecordError::wthor(
                offset,
                WthorErrorKind::AfterEnd { game },
            ));
        }
        let (row, col) = (usize::from(byte / 10), usize::from(byte % 10));
        if !(1..=8).contains(&row) || !(1..=8).contains(&col) {
            return Err(RecordError::wthor(
                offset,
                WthorErrorKind::MoveByte { game, byte },
            ));
        }
        squares.push(RecordMove::Play(Square::new(row - 1, col - 1)));
        offsets.push(offset);
    }
    let metadata = Metadata {
        date: (header.games_year != 0).then(|| header.games_year.to_string()),
        result: Some(result_text(info.black_discs)),
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
        RecordError::wthor(
            offsets[replay.number - 1],
            WthorErrorKind::Replay { game, replay },
        )
    })
}

/// Black's margin for a GGF result (`RE[+8.000]`), from black's discs out of 64.
fn result_text(black_discs: u8) -> String {
    format!("{:+}.000", 2 * i32::from(black_discs) - 64)
}
