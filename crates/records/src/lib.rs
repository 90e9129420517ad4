//! Game records: a game as a starting position, a rule set and the moves played, read from and
//! written to the formats Othello players use.
//!
//! A [`GameRecord`] is always a valid game: [`GameRecord::new`] replays the moves through
//! [`Game`](othello::Game) and refuses an illegal one, naming its number and square. Passes are explicit in
//! a record (a reader may omit them; they are put back where the rules force them).
//!
//! | format | module | reads | writes | boards |
//! |---|---|---|---|---|
//! | move list (`f5d6c3d3c4`) | [`movelist`] | yes | yes | every size; standard start |
//! | GGF (`(;GM[Othello]...;)`) | [`ggf`] | yes | yes | square boards |
//! | OBF / FFO position lines | [`obf`] | yes | yes (the last position) | 8x8 |
//! | the console protocol's input | [`protocol_input`] | yes | yes | every size and start |
//! | WTHOR `.wtb` | [`wthor`] | yes | yes | 8x8, standard start |
//!
//! FFO endgame positions (the FFO test suite's lines and OBF) are read as problems, with the
//! moves and score a line lists, by [`ffo`] (the mixed reader of `othello solve`).
//!
//! Readers take `&str` or `&[u8]` and writers return text or bytes: nothing here touches a
//! file. [`read`] detects the format from the content. Text formats are UTF-8, or Latin-1 where
//! the bytes are not UTF-8 ([`decode`]).
//!
//! ```
//! use othello_records::{self as record, Format, ReadOptions};
//!
//! let records = record::read(b"f5 d6 c3 d3 c4", &ReadOptions::default())?;
//! let game = records[0].final_game();
//! assert_eq!(game.score().black, 6);
//! let ggf = record::write(&records, Format::Ggf)?;
//! assert!(String::from_utf8(ggf)?.contains("B[f5]W[d6]B[c3]W[d3]B[c4]"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod ffo;
pub mod ggf;
pub mod movelist;
pub mod obf;
pub mod protocol_input;
pub mod wthor;

mod error;
mod format;
mod metadata;
mod move_lines;
mod reading;
mod record;
mod registry;
mod spec;
mod text;

pub use error::{Location, RecordError, RecordErrorKind, WriteError};
pub use format::Format;
pub use metadata::{Metadata, WthorInfo};
pub use reading::Games;
pub use record::{GameRecord, RecordMove, ReplayError, ReplayErrorKind};
pub use registry::{ParseFormatError, games, games_as, read, read_as, write};
pub use spec::{FormatSpec, GameIter, ReadOptions};
pub use text::decode;
