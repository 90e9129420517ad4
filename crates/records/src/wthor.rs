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
//! Player and tournament names live in separate files (`WTHOR.JOU`, 20 bytes a name, and
//! `WTHOR.TRN`, 26 bytes a name, after the same 16-byte header; [`read_names`] reads them and
//! [`name_games`] puts them in the records); a record keeps the numbers and the file's header
//! in [`WthorInfo`], its real score as a GGF result (`RE`, black's margin) and, written to GGF,
//! all of them in a comment ([`comment`]) that reads back ([`parse_comment`]).
//!
//! The theoretical score is black's discs with perfect play from the header's depth. A game
//! that ended (or stopped) before reaching that many empties carries its real score there, as
//! the federation's files do; so a file written with depth 0 carries the real scores, and
//! `othello convert --wthor-solve N` solves each game from N empties.

use thiserror::Error;

use othello::RuleSet;
use othello::Setup;
use othello::text::counted;
use othello::{ByColor, Color};
use othello::{Dimensions, Square};

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
    /// The board size byte: 8, or 0 (which also means 8x8).
    pub board_size: u8,
    /// 0 for games, 1 for solitaires.
    pub solitaire: u8,
    /// The number of empties from which the theoretical scores are exact.
    pub depth: u8,
    /// The last byte, reserved.
    pub reserved: u8,
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
    games: |input, _| games(input),
    reads_past_errors: false,
    write: |records| write(records, &Header::default()),
    write_game,
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
fn games(input: &[u8]) -> super::GameIter<'_> {
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
        error(
            offsets[replay.number - 1],
            WthorErrorKind::Replay { game, replay },
        )
    })
}

/// Black's margin for a GGF result (`RE[+8.000]`), from black's discs out of 64.
fn result_text(black_discs: u8) -> String {
    format!("{:+}.000", 2 * i32::from(black_discs) - 64)
}

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

/// The names of a player or tournament file (`WTHOR.JOU`, `WTHOR.TRN`), by number: its header
/// counts the names, and each is a fixed-length field (20 or 26 bytes) padded with zeros, in
/// ISO 8859-1.
///
/// # Errors
/// [`RecordError`] for a file shorter than its header, or whose length is not its header's
/// count of equal fields.
pub fn read_names(input: &[u8]) -> Result<Vec<String>, RecordError> {
    if input.len() < HEADER_LEN {
        return Err(error(input.len(), WthorErrorKind::ShortHeader));
    }
    let count = usize::from(u16::from_le_bytes([input[8], input[9]]));
    let body = &input[HEADER_LEN..];
    if count == 0 || !body.len().is_multiple_of(count) {
        return Err(error(8, WthorErrorKind::NotNames { count }));
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

/// The GGF comment that carries a game's WTHOR numbers and its file's header:
/// `WTHOR tournament:12 black:345 white:678 score:36 theoretical:40 depth:24 year:2020
/// created:20.20.4.27 size:8 solitaire:0 reserved:0` (scores in black's discs).
#[must_use]
pub fn comment(info: &WthorInfo) -> String {
    let header = &info.header;
    let [a, b, c, d] = header.created;
    format!(
        "WTHOR tournament:{} black:{} white:{} score:{} theoretical:{} depth:{} year:{} created:{a}.{b}.{c}.{d} size:{} solitaire:{} reserved:{}",
        info.tournament,
        info.black_player,
        info.white_player,
        info.black_discs,
        info.theoretical_black_discs,
        header.depth,
        header.games_year,
        header.board_size,
        header.solitaire,
        header.reserved,
    )
}

/// Reads a comment written by [`comment`]; `None` for any other text.
#[must_use]
pub fn parse_comment(text: &str) -> Option<WthorInfo> {
    let mut words = text.split_whitespace();
    if words.next()? != "WTHOR" {
        return None;
    }
    let mut info = WthorInfo::default();
    let mut seen = 0;
    for word in words {
        let (key, value) = word.split_once(':')?;
        let number = || value.parse::<u16>().ok();
        let byte = || value.parse::<u8>().ok();
        match key {
            "tournament" => info.tournament = number()?,
            "black" => info.black_player = number()?,
            "white" => info.white_player = number()?,
            "score" => info.black_discs = byte()?,
            "theoretical" => info.theoretical_black_discs = byte()?,
            "depth" => info.header.depth = byte()?,
            "year" => info.header.games_year = number()?,
            "size" => info.header.board_size = byte()?,
            "solitaire" => info.header.solitaire = byte()?,
            "reserved" => info.header.reserved = byte()?,
            "created" => {
                let parts: Vec<u8> = value
                    .split('.')
                    .map(|part| part.parse().ok())
                    .collect::<Option<_>>()?;
                info.header.created = parts.try_into().ok()?;
            }
            _ => return None,
        }
        seen += 1;
    }
    (seen == 11).then_some(info)
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

    #[test]
    fn the_comment_carries_every_number_back() {
        let info = WthorInfo {
            tournament: 12,
            black_player: 345,
            white_player: 678,
            black_discs: 36,
            theoretical_black_discs: 40,
            header: Header {
                created: [20, 20, 4, 27],
                games_year: 2020,
                board_size: 8,
                solitaire: 0,
                depth: 24,
                reserved: 0,
            },
        };
        let text = comment(&info);
        assert_eq!(
            text,
            "WTHOR tournament:12 black:345 white:678 score:36 theoretical:40 depth:24 year:2020 \
             created:20.20.4.27 size:8 solitaire:0 reserved:0"
        );
        assert_eq!(parse_comment(&text), Some(info));
        assert_eq!(parse_comment("WTHOR is a database"), None);
        assert_eq!(parse_comment("a comment"), None);
    }

    #[test]
    fn reads_names_by_number() {
        let mut file = vec![0u8; 16];
        file[8] = 2;
        file.extend_from_slice(b"???\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0");
        let mut name = b"Tastet Marc".to_vec();
        name.resize(20, 0);
        file.extend_from_slice(&name);
        assert_eq!(read_names(&file).unwrap(), ["???", "Tastet Marc"]);
        file.pop();
        assert_eq!(
            read_names(&file).unwrap_err().to_string(),
            "byte 8: the header counts 2 names, which do not divide the rest of the file"
        );
    }
}
