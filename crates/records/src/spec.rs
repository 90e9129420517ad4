//! What the crate knows of a format: its [`FormatSpec`], made of its names, extensions, detection,
//! reader ([`GameIter`], [`ReadOptions`]) and writer, and the writer most formats' entries share
//! ([`write_each`]).

use othello::RuleSet;

use crate::error::{RecordError, WriteError};
use crate::format::Format;
use crate::record::GameRecord;

/// One record format: its names, the file extensions it is saved under, how to recognise it and
/// its reader and writer. Each format's module defines its own (`movelist::SPEC`, ...); the
/// crate's table of them is what [`Format::ALL`], [`Format::detect`],
/// [`read_as`](crate::read_as), [`write()`](crate::write),
/// the format names and the file extensions all go through, so that a new format is a module
/// and a line in that table.
#[derive(Clone, Copy, Debug)]
pub struct FormatSpec {
    /// The format described.
    pub format: Format,
    /// The name used on the command line, lower case: `movelist`, `ggf`.
    pub name: &'static str,
    /// The format in a sentence, as in "GGF cannot hold a 6x8 board" or "a move list".
    pub title: &'static str,
    /// The format as a kind of input, in the list of what a reader expected.
    pub input: &'static str,
    /// One line on what a file in this format holds, for command-line help.
    pub summary: &'static str,
    /// Whether its files are positions to search (OBF lines, the protocol input) rather than
    /// games played.
    pub positions: bool,
    /// File extensions (lower case, no dot) that name this format; the first is the usual one.
    pub extensions: &'static [&'static str],
    /// Whether `input` looks like this format; [`Format::detect`] asks the formats in the table's
    /// order and takes the first that says yes.
    pub detect: fn(input: &[u8]) -> bool,
    /// Reads the games of `input` one at a time.
    pub games: for<'a> fn(input: &'a [u8], options: &ReadOptions) -> GameIter<'a>,
    /// Whether a game that cannot be read is an error of its own while the following ones are
    /// read (GGF, whose games are delimited), rather than the end of the input.
    pub reads_past_errors: bool,
    /// Writes `records`: text for every format but WTHOR.
    pub write: fn(records: &[GameRecord]) -> Result<Vec<u8>, WriteError>,
    /// Appends game `index` (0-based) of those written to `out`; what comes before the games
    /// (WTHOR's header) is written by the format's own writer.
    pub write_game:
        fn(index: usize, record: &GameRecord, out: &mut Vec<u8>) -> Result<(), WriteError>,
}

/// The games of an input as a format's reader yields them, one at a time.
pub type GameIter<'a> = Box<dyn Iterator<Item = Result<GameRecord, RecordError>> + 'a>;

/// What a reader assumes where the format says nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadOptions {
    /// The rule set of move lists, protocol inputs and OBF lines that do not name one.
    pub rules: RuleSet,
}

impl Default for ReadOptions {
    /// FULL rules.
    fn default() -> ReadOptions {
        ReadOptions {
            rules: RuleSet::Full,
        }
    }
}

/// The games of `records` written one after another by `write_game`.
pub(crate) fn write_each(
    records: &[GameRecord],
    write_game: fn(usize, &GameRecord, &mut Vec<u8>) -> Result<(), WriteError>,
) -> Result<Vec<u8>, WriteError> {
    let mut out = Vec::new();
    for (index, record) in records.iter().enumerate() {
        write_game(index, record, &mut out)?;
    }
    Ok(out)
}
