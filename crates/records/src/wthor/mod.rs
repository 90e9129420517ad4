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
//! in [`WthorInfo`](crate::WthorInfo), its real score as a GGF result (`RE`, black's margin) and, written to GGF,
//! all of them in a comment ([`comment`]) that reads back ([`parse_comment`]).
//!
//! The theoretical score is black's discs with perfect play from the header's depth. A game
//! that ended (or stopped) before reaching that many empties carries its real score there, as
//! the federation's files do; so a file written with depth 0 carries the real scores, and
//! `othello convert --wthor-solve N` solves each game from N empties.

mod ggf_comment;
mod layout;
mod names;
mod reader;
mod writer;

#[cfg(test)]
mod tests;

use crate::format::Format;
use crate::spec::FormatSpec;

pub use crate::error::WthorErrorKind;
pub use crate::metadata::Header;
pub use ggf_comment::{comment, parse_comment};
pub use layout::{GAME_LEN, HEADER_LEN, header_bytes, looks_like, read_header};
pub use names::{Names, name_game, name_games, read_names};
pub use reader::read;
pub use writer::{discs_of_margin, real_black_discs, write, write_game};

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
    games: |input, _| reader::games(input),
    reads_past_errors: false,
    write: |records| write(records, &Header::default()),
    write_game,
};
