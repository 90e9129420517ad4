//! Game records: a game as a starting position, a rule set and the moves played, read from and
//! written to the formats Othello players use.
//!
//! A [`GameRecord`] is always a valid game: [`GameRecord::new`] replays the moves through
//! [`Game`] and refuses an illegal one, naming its number and square. Passes are explicit in
//! a record (a reader may omit them; they are put back where the rules force them).
//!
//! | format | module | reads | writes | boards |
//! |---|---|---|---|---|
//! | move list (`f5d6c3d3c4`) | [`movelist`] | yes | yes | every size; standard start |
//! | GGF (`(;GM[Othello]...;)`) | [`ggf`] | yes | yes | square boards |
//! | OBF / FFO position lines | [`obf`] | yes | yes (the last position) | 8x8 |
//! | the console protocol's input | [`protocol`] | yes | yes | every size and start |
//! | WTHOR `.wtb` | [`wthor`] | yes | yes | 8x8, standard start |
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
pub mod protocol;
pub mod wthor;

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;
use std::sync::{LazyLock, OnceLock};

use thiserror::Error;

use othello::Color;
use othello::RuleSet;
use othello::Setup;
use othello::{Dimensions, Square};
use othello::{Game, MoveError};

/// One move of a record: a disc placed, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordMove {
    /// A disc placed on this square.
    Play(Square),
    /// The player to move had no legal move.
    Pass,
}

impl fmt::Display for RecordMove {
    /// `d3`, or `--` for a pass.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordMove::Play(square) => write!(f, "{square}"),
            RecordMove::Pass => f.write_str("--"),
        }
    }
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
    pub header: wthor::Header,
}

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
    pub listed: Option<crate::ffo::Listed>,
    /// Properties of a GGF game this crate keeps without reading them (`TY` as written when it
    /// says more than the size and `a`, `KB`, `KW`, `KM`, `TI`, `RB`, `RW`, comments...), name
    /// and value in the order read; the GGF writer writes them back.
    pub properties: Vec<(String, String)>,
}

/// A move of a record that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("move {number}: {kind}")]
pub struct ReplayError {
    /// 1-based number of the move in the list given, passes counted.
    pub number: usize,
    /// Why it cannot be played.
    pub kind: ReplayErrorKind,
}

/// Why a move of a record cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayErrorKind {
    /// The square is off the board, occupied or flips nothing.
    #[error(transparent)]
    Move(MoveError),
    /// A disc placed after neither player could move.
    #[error("{square} is played after the game is over")]
    AfterEnd {
        /// The square.
        square: Square,
    },
    /// A pass by a player who has a legal move.
    #[error("{player} passes but can play {example} (and {others} other moves)")]
    PassWithMoves {
        /// The player.
        player: Color,
        /// One of the legal moves.
        example: Square,
        /// How many more legal moves there are.
        others: usize,
    },
    /// A pass after neither player could move.
    #[error("a pass after the game is over")]
    PassAfterEnd,
}

/// A game: where it started, under which rules, every move in order, and what else the record
/// says about it. The moves are always legal and every pass is listed.
///
/// A file holds millions of short games, so a record is kept small: the moves in a boxed slice,
/// the metadata boxed only when there is some, and the final position replayed when it is first
/// asked for rather than kept from the reading.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The start, unless it is the standard 8x8 one.
    setup: Option<Box<Setup>>,
    rules: RuleSet,
    moves: Box<[RecordMove]>,
    metadata: Option<Box<Metadata>>,
    end: OnceLock<Box<Game>>,
}

/// The start of most records: 8x8, the standard opening, black first, most discs wins.
static STANDARD_SETUP: LazyLock<Setup> = LazyLock::new(|| Setup::standard(Dimensions::STANDARD));

/// The metadata of a record that has none.
static NO_METADATA: Metadata = Metadata {
    black: None,
    white: None,
    date: None,
    event: None,
    result: None,
    wthor: None,
    listed: None,
    properties: Vec::new(),
};

impl PartialEq for GameRecord {
    /// The same start, rules, moves and metadata (the final position follows from them).
    fn eq(&self, other: &GameRecord) -> bool {
        self.setup() == other.setup()
            && self.rules == other.rules
            && self.moves == other.moves
            && self.metadata() == other.metadata()
    }
}

impl Eq for GameRecord {}

impl GameRecord {
    /// Replays `moves` from `setup` under `rules`. Passes may be left out: a pass is put in
    /// wherever the player whose turn it would be has no legal move.
    ///
    /// # Errors
    /// [`ReplayError`] for the first move that cannot be played, numbered from 1 in `moves`.
    pub fn new(
        setup: Setup,
        rules: RuleSet,
        moves: impl IntoIterator<Item = RecordMove>,
        metadata: Metadata,
    ) -> Result<GameRecord, ReplayError> {
        let mut game = Game::new(setup, rules);
        // The player whose turn it is by alternation, before passes the rules force.
        let mut nominal = setup.first;
        let mut played = Vec::new();
        for (index, record_move) in moves.into_iter().enumerate() {
            let error = |kind| ReplayError {
                number: index + 1,
                kind,
            };
            match (record_move, game.turn()) {
                (RecordMove::Pass, None) => return Err(error(ReplayErrorKind::PassAfterEnd)),
                (RecordMove::Pass, Some(turn)) if turn == nominal => {
                    let moves = game.legal_moves();
                    return Err(error(ReplayErrorKind::PassWithMoves {
                        player: turn,
                        example: moves[0],
                        others: moves.len() - 1,
                    }));
                }
                (RecordMove::Pass, Some(turn)) => {
                    played.push(RecordMove::Pass);
                    nominal = turn;
                }
                (RecordMove::Play(square), None) => {
                    return Err(error(ReplayErrorKind::AfterEnd { square }));
                }
                (RecordMove::Play(square), Some(turn)) => {
                    game.play(square)
                        .map_err(|source| error(ReplayErrorKind::Move(source)))?;
                    if turn != nominal {
                        played.push(RecordMove::Pass);
                    }
                    played.push(RecordMove::Play(square));
                    nominal = turn.opponent();
                }
            }
        }
        // The final position is replayed when it is asked for: a file of many games keeps
        // only their moves.
        Ok(GameRecord {
            setup: (setup != *STANDARD_SETUP).then(|| Box::new(setup)),
            rules,
            moves: played.into_boxed_slice(),
            metadata: (metadata != NO_METADATA).then(|| Box::new(metadata)),
            end: OnceLock::new(),
        })
    }

    /// The record of a game played from `start`, its moves given as squares.
    ///
    /// # Errors
    /// [`ReplayError`] if a square cannot be played.
    pub fn from_squares(
        start: &Game,
        squares: impl IntoIterator<Item = Square>,
        metadata: Metadata,
    ) -> Result<GameRecord, ReplayError> {
        GameRecord::new(
            setup_of(start),
            start.rules(),
            squares.into_iter().map(RecordMove::Play),
            metadata,
        )
    }

    /// The record of a position with no moves played: it starts from `game`'s position.
    #[must_use]
    pub fn from_position(game: &Game, metadata: Metadata) -> GameRecord {
        let setup = Setup {
            first: game.turn().unwrap_or(game.first_player()),
            ..setup_of(game)
        };
        GameRecord::new(setup, game.rules(), [], metadata).expect("no moves, nothing to refuse")
    }

    /// The starting position.
    #[must_use]
    pub fn setup(&self) -> &Setup {
        self.setup.as_deref().unwrap_or(&STANDARD_SETUP)
    }

    /// The rule set.
    #[must_use]
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The board's size.
    #[must_use]
    pub fn dims(&self) -> Dimensions {
        self.setup().board.dims()
    }

    /// Every move in order, passes included.
    #[must_use]
    pub fn moves(&self) -> &[RecordMove] {
        &self.moves
    }

    /// The squares played, in order, without the passes.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.moves
            .iter()
            .filter_map(|record_move| match record_move {
                RecordMove::Play(square) => Some(*square),
                RecordMove::Pass => None,
            })
    }

    /// Names, date, event and result.
    #[must_use]
    pub fn metadata(&self) -> &Metadata {
        self.metadata.as_deref().unwrap_or(&NO_METADATA)
    }

    /// Names, date, event and result, to change.
    pub fn metadata_mut(&mut self) -> &mut Metadata {
        self.metadata.get_or_insert_with(Box::default)
    }

    /// The game at its start.
    #[must_use]
    pub fn start_game(&self) -> Game {
        Game::new(*self.setup(), self.rules)
    }

    /// The game after the last move.
    #[must_use]
    pub fn final_game(&self) -> &Game {
        self.end.get_or_init(|| {
            let mut game = self.start_game();
            for square in self.squares() {
                game.play(square).expect("a record's moves are legal");
            }
            Box::new(game)
        })
    }

    /// Whether the setup is the standard opening of its board, black first, most discs wins.
    #[must_use]
    pub fn starts_standard(&self) -> bool {
        *self.setup() == Setup::standard(self.dims())
    }

    /// The position before each disc placed, with the square played there, in order.
    #[must_use]
    pub fn positions(&self) -> Vec<(Game, Square)> {
        let mut game = self.start_game();
        let mut positions = Vec::with_capacity(self.moves.len());
        for square in self.squares() {
            let before = game.clone();
            game.play(square).expect("a record's moves are legal");
            positions.push((before, square));
        }
        positions
    }
}

/// The setup a game started from.
fn setup_of(game: &Game) -> Setup {
    Setup {
        board: *game.board(),
        first: game.first_player(),
        win: game.win_rule(),
    }
}

/// Where in the input something is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// 1-based line and column (in characters) of a text.
    Text {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// 0-based offset of a byte in binary input.
    Byte(usize),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Text { line, column } => write!(f, "line {line}, column {column}"),
            Location::Byte(offset) => write!(f, "byte {offset}"),
        }
    }
}

/// A record that could not be read: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{location}: {kind}")]
pub struct RecordError {
    /// Where the problem is.
    pub location: Location,
    /// What is wrong.
    pub kind: RecordErrorKind,
}

impl RecordError {
    pub(crate) fn at_text(line: usize, column: usize, kind: RecordErrorKind) -> RecordError {
        RecordError {
            location: Location::Text { line, column },
            kind,
        }
    }
}

/// What is wrong with a record.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordErrorKind {
    /// Something other than what the format has there.
    #[error("expected {expected}, found {found}")]
    Expected {
        /// What the format has there.
        expected: &'static str,
        /// What was found, quoted and shortened, or a description such as `the end of the input`.
        found: String,
    },
    /// A square that cannot be read, or is off the board.
    #[error(transparent)]
    Square(#[from] othello::notation::NotationError),
    /// A move that cannot be played, with its number.
    #[error(transparent)]
    Replay(ReplayError),
    /// A protocol header or grid line that is wrong.
    #[error(transparent)]
    Setup(othello::protocol::SetupErrorKind),
    /// An OBF / FFO line that is wrong.
    #[error(transparent)]
    Obf(crate::ffo::FfoError),
    /// A WTHOR file that is cut short or says something impossible.
    #[error(transparent)]
    Wthor(wthor::WthorErrorKind),
    /// Input without any game.
    #[error(
        "no game found (expected {})",
        listed(Format::ALL.into_iter().map(|format| format.spec().input))
    )]
    NoGame,
}

/// The text found, quoted and cut to 24 characters, for messages.
pub(crate) fn shown(text: &str) -> String {
    const SHOWN: usize = 24;
    if text.is_empty() {
        return "nothing".to_owned();
    }
    if text.chars().count() <= SHOWN {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(SHOWN).collect();
    format!("{head:?}...")
}

/// A record that a format cannot hold.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("game {game}: {format} cannot hold {what}")]
pub struct WriteError {
    /// 1-based number of the game among those written.
    pub game: usize,
    /// The format asked for.
    pub format: Format,
    /// What it cannot hold, such as `a 6x8 board`.
    pub what: String,
}

/// The formats records are read from and written to. What the crate knows of each one is its
/// [`FormatSpec`] ([`Format::spec`]), and [`Format::ALL`] lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Moves as squares: `f5d6c3`, one game per line.
    MoveList,
    /// The Generic Game Format of the GGS server and `NBoard`.
    Ggf,
    /// One position per line, as Edax and the FFO suite write them.
    Obf,
    /// The console protocol's input: header, grid, one `ROW COL` line per move.
    Protocol,
    /// The French federation's binary game database.
    Wthor,
}

/// One record format: its names, the file extensions it is saved under, how to recognise it and
/// its reader and writer. Each format's module defines its own (`movelist::SPEC`, ...); the
/// crate's table of them is what [`Format::ALL`], [`Format::detect`], [`read_as`], [`write()`],
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

/// Every format, in the order [`Format::detect`] tries them: a WTHOR header that fits the
/// length, `(;` for GGF, a 64-cell board for OBF, a lone number (the rows) for the
/// protocol, and a move list for anything else.
const FORMATS: [FormatSpec; 5] = [
    wthor::SPEC,
    ggf::SPEC,
    obf::SPEC,
    protocol::SPEC,
    movelist::SPEC,
];

impl Format {
    /// Every format, in declaration order.
    pub const ALL: [Format; FORMATS.len()] = {
        let mut all = [Format::MoveList; FORMATS.len()];
        let mut i = 0;
        while i < FORMATS.len() {
            all[FORMATS[i].format as usize] = FORMATS[i].format;
            i += 1;
        }
        all
    };

    /// What the crate knows of this format.
    #[must_use]
    pub fn spec(self) -> &'static FormatSpec {
        static TABLE: [FormatSpec; FORMATS.len()] = FORMATS;
        TABLE
            .iter()
            .find(|spec| spec.format == self)
            .expect("every format is in the table")
    }

    /// The name used on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The format a file extension (without the dot, any case) names, if any.
    #[must_use]
    pub fn for_extension(extension: &str) -> Option<Format> {
        FORMATS
            .iter()
            .find(|spec| {
                spec.extensions
                    .iter()
                    .any(|known| known.eq_ignore_ascii_case(extension))
            })
            .map(|spec| spec.format)
    }

    /// Guesses the format of `input` from its content: the first format of the table whose
    /// `detect` accepts it (a WTHOR header whose game count fits the length; `(;` for GGF; a 64-cell board for OBF; a lone number, the rows, for the
    /// protocol), otherwise a move list.
    #[must_use]
    pub fn detect(input: &[u8]) -> Format {
        FORMATS
            .iter()
            .find(|spec| (spec.detect)(input))
            .map_or(Format::MoveList, |spec| spec.format)
    }
}

/// The first line of `input` that is text and not blank or a comment (`#`, `%`), trimmed, for
/// the formats' `detect`.
pub(crate) fn first_line(input: &[u8]) -> Option<&str> {
    // Of text that is not UTF-8, the whole lines before the first byte that is not: a first line
    // with such a byte is not one of the ASCII formats that look at it.
    let text = std::str::from_utf8(input).unwrap_or_else(|error| {
        let valid = &input[..error.valid_up_to()];
        let lines = valid
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |at| at + 1);
        std::str::from_utf8(&valid[..lines]).expect("a prefix of valid UTF-8 up to a newline")
    });
    text.lines()
        .map(str::trim)
        .find(|line| !line.is_empty() && !line.starts_with('#') && !line.starts_with('%'))
}

/// `names` as a list in a sentence: `a, b or c`.
fn listed(names: impl Iterator<Item = &'static str>) -> String {
    let names: Vec<&str> = names.collect();
    match names.split_last() {
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.spec().title)
    }
}

/// A name that is no format.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "expected a format, {}, found {found:?}",
    listed(Format::ALL.into_iter().map(Format::name))
)]
pub struct ParseFormatError {
    /// The text.
    pub found: String,
}

impl FromStr for Format {
    type Err = ParseFormatError;

    /// A format by its [`name`](Format::name), in any case.
    fn from_str(text: &str) -> Result<Format, ParseFormatError> {
        Format::ALL
            .into_iter()
            .find(|format| format.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| ParseFormatError {
                found: text.to_owned(),
            })
    }
}

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

/// Reads every game of `input`, in the format [`Format::detect`] finds.
///
/// # Errors
/// [`RecordError`] naming the line and column (or byte) of the first problem.
pub fn read(input: &[u8], options: &ReadOptions) -> Result<Vec<GameRecord>, RecordError> {
    read_as(Format::detect(input), input, options)
}

/// Reads every game of `input` in `format`.
///
/// # Errors
/// [`RecordError`] naming the line and column (or byte) of the first problem.
pub fn read_as(
    format: Format,
    input: &[u8],
    options: &ReadOptions,
) -> Result<Vec<GameRecord>, RecordError> {
    games_as(format, input, options).collect()
}

/// Every game of `text` in the text format `format`, none for a text without any (the
/// formats' own `read`).
pub(crate) fn read_text_as(
    format: Format,
    text: &str,
    options: ReadOptions,
) -> Result<Vec<GameRecord>, RecordError> {
    match read_as(format, text.as_bytes(), &options) {
        Err(error) if error.kind == RecordErrorKind::NoGame => Ok(Vec::new()),
        read => read,
    }
}

/// The games of `input`, in the format [`Format::detect`] finds, read one at a time: see
/// [`Games`].
#[must_use]
pub fn games<'a>(input: &'a [u8], options: &ReadOptions) -> Games<'a> {
    games_as(Format::detect(input), input, options)
}

/// The games of `input` in `format`, read one at a time: see [`Games`].
#[must_use]
pub fn games_as<'a>(format: Format, input: &'a [u8], options: &ReadOptions) -> Games<'a> {
    let spec = format.spec();
    Games {
        inner: (spec.games)(input, options),
        format,
        reads_past_errors: spec.reads_past_errors,
        yielded: false,
        done: false,
    }
}

/// The games of an input, read one at a time, so that a file of millions of games never needs
/// more memory than its text and one game.
///
/// A game that cannot be read is an `Err` item. In GGF, whose games are delimited, reading goes
/// on with the next game ([`Games::reads_past_errors`]); in the other formats that error is the
/// last item. A text input with no game at all yields one error,
/// [`RecordErrorKind::NoGame`] (a WTHOR file may hold none).
pub struct Games<'a> {
    inner: GameIter<'a>,
    format: Format,
    reads_past_errors: bool,
    yielded: bool,
    done: bool,
}

impl Games<'_> {
    /// The format read.
    #[must_use]
    pub fn format(&self) -> Format {
        self.format
    }

    /// Whether a game that cannot be read is followed by the next one (GGF), rather than
    /// ending the input.
    #[must_use]
    pub fn reads_past_errors(&self) -> bool {
        self.reads_past_errors
    }
}

impl Iterator for Games<'_> {
    type Item = Result<GameRecord, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let Some(game) = self.inner.next() else {
            self.done = true;
            let empty = !self.yielded && self.format != Format::Wthor;
            self.yielded = true;
            return empty.then(|| Err(RecordError::at_text(1, 1, RecordErrorKind::NoGame)));
        };
        self.yielded = true;
        if game.is_err() && !self.reads_past_errors {
            self.done = true;
        }
        Some(game)
    }
}

/// A text record's bytes as text: UTF-8 when they are, else Latin-1 (ISO 8859-1, each byte the
/// character of that number), the encoding of old GGS archives and of names such as `M\xfcller`.
/// Every byte sequence decodes, and a Latin-1 name written back out (as UTF-8) reads back the
/// same.
#[must_use]
pub fn decode(input: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(input) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(input.iter().map(|&byte| char::from(byte)).collect()),
    }
}

/// The lines of a text record one at a time, decoded by [`decode`], each with its 1-based
/// number, as [`str::lines`] splits them; `read` makes a game of a line or passes over it
/// (`None`). For the formats of one game or position per line.
pub(crate) fn line_games<'a>(
    input: &'a [u8],
    mut read: impl FnMut(&str, usize) -> Option<Result<GameRecord, RecordError>> + 'a,
) -> GameIter<'a> {
    let text = decode(input);
    let mut at = 0;
    let mut number = 0;
    Box::new(std::iter::from_fn(move || {
        while at < text.len() {
            let rest = &text[at..];
            let end = rest.find('\n').map_or(rest.len(), |newline| newline + 1);
            at += end;
            number += 1;
            let line = match rest[..end].strip_suffix('\n') {
                Some(line) => line.strip_suffix('\r').unwrap_or(line),
                None => &rest[..end],
            };
            if let Some(game) = read(line, number) {
                return Some(game);
            }
        }
        None
    }))
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

/// Writes `records` in `format`: text for every format but WTHOR.
///
/// # Errors
/// [`WriteError`] for the first record the format cannot hold (a board size, a rule set or a
/// start it has no way to write, or several games for the protocol input).
pub fn write(records: &[GameRecord], format: Format) -> Result<Vec<u8>, WriteError> {
    (format.spec().write)(records)
}

/// A [`WriteError`] for game `index` (0-based).
pub(crate) fn cannot_hold(index: usize, format: Format, what: impl Into<String>) -> WriteError {
    WriteError {
        game: index + 1,
        format,
        what: what.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::notation::parse_square;

    #[test]
    fn the_table_holds_each_format_once_and_names_it_by_name_and_extension() {
        for (index, format) in Format::ALL.into_iter().enumerate() {
            assert_eq!(format as usize, index);
            assert_eq!(
                FORMATS.iter().filter(|spec| spec.format == format).count(),
                1
            );
            assert_eq!(format.name().parse::<Format>(), Ok(format));
            for extension in format.spec().extensions {
                assert_eq!(Format::for_extension(extension), Some(format));
            }
        }
        assert_eq!(Format::for_extension("GGF"), Some(Format::Ggf));
        assert_eq!(Format::for_extension("png"), None);
        assert_eq!(
            "gif".parse::<Format>().unwrap_err().to_string(),
            "expected a format, movelist, ggf, obf, protocol or wthor, found \"gif\""
        );
        // Only the last format of the detection order takes anything.
        assert_eq!(Format::detect(b""), Format::MoveList);
        assert!(
            FORMATS[..FORMATS.len() - 1]
                .iter()
                .all(|spec| !(spec.detect)(b""))
        );
    }

    fn sq(text: &str) -> Square {
        parse_square(text, Dimensions::STANDARD).unwrap()
    }

    fn standard() -> Setup {
        Setup::standard(Dimensions::STANDARD)
    }

    #[test]
    fn replays_and_names_the_illegal_move() {
        let moves = ["f5", "d6", "c3", "a1"].map(|s| RecordMove::Play(sq(s)));
        let error =
            GameRecord::new(standard(), RuleSet::Full, moves, Metadata::default()).unwrap_err();
        assert_eq!(error.number, 4);
        assert_eq!(
            error.to_string(),
            "move 4: a1 is not a legal move for white: it flips no discs"
        );
        let error = GameRecord::new(
            standard(),
            RuleSet::Full,
            [RecordMove::Pass],
            Metadata::default(),
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "move 1: black passes but can play d3 (and 3 other moves)"
        );
    }

    #[test]
    fn puts_in_the_passes_the_rules_force() {
        // 4x4: after these moves white has no move and black plays again.
        let dims = Dimensions::new(4, 4).unwrap();
        let mut game = Game::new(Setup::standard(dims), RuleSet::Full);
        let mut squares = Vec::new();
        let mut saw_pass = false;
        while let Some(&square) = game.legal_moves().first() {
            let played = game.play(square).unwrap();
            squares.push(square);
            saw_pass |= played.passed.is_some() && !game.is_over();
        }
        let record = GameRecord::from_squares(
            &Game::new(Setup::standard(dims), RuleSet::Full),
            squares.clone(),
            Metadata::default(),
        )
        .unwrap();
        assert_eq!(record.squares().collect::<Vec<_>>(), squares);
        assert_eq!(
            record.moves().contains(&RecordMove::Pass),
            saw_pass,
            "{:?}",
            record.moves()
        );
        // Writing the passes out reads back to the same record.
        let again = GameRecord::new(
            *record.setup(),
            RuleSet::Full,
            record.moves().to_vec(),
            Metadata::default(),
        )
        .unwrap();
        assert_eq!(again, record);
        assert!(record.final_game().is_over());
    }

    #[test]
    fn a_record_is_small() {
        // A file of one-move games holds millions of records: each costs little more than its
        // moves.
        assert!(std::mem::size_of::<GameRecord>() <= 64);
        let record = GameRecord::new(
            standard(),
            RuleSet::Full,
            [RecordMove::Play(sq("f5"))],
            Metadata::default(),
        )
        .unwrap();
        assert_eq!(record.setup(), &standard());
        assert_eq!(record.metadata(), &Metadata::default());
        assert_eq!(record.final_game().board().empties(), 59);
    }

    #[test]
    fn detects_formats() {
        assert_eq!(Format::detect(b"f5d6c3"), Format::MoveList);
        assert_eq!(Format::detect(b"  (;GM[Othello];)"), Format::Ggf);
        assert_eq!(Format::detect(b"4\n4\nB\n>\n"), Format::Protocol);
        let obf = format!("{} X;\n", "-".repeat(64));
        assert_eq!(Format::detect(obf.as_bytes()), Format::Obf);
        // Bytes that are not UTF-8 are Latin-1 text unless a WTHOR header fits the length.
        assert_eq!(Format::detect(&[0xff, 0xfe]), Format::MoveList);
        assert_eq!(Format::detect(b"(;GM[Othello]PB[M\xfcller];)"), Format::Ggf);
        assert_eq!(Format::detect(b"4\n4\nB\n>\n\xfc"), Format::Protocol);
        assert_eq!(decode(b"M\xfcller"), "M\u{fc}ller");
        assert_eq!(decode("M\u{fc}ller".as_bytes()), "M\u{fc}ller");
        assert_eq!("GGF".parse(), Ok(Format::Ggf));
        assert!("sgf".parse::<Format>().is_err());
    }
}
