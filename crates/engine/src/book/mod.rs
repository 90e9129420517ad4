//! The opening book of 8x8 Othello under the FULL rules ("most discs wins"): positions of the
//! first moves, each scored by a deep search, with the value of every position whose moves
//! are all in the book derived from theirs by negamax, as Edax's book does.
//!
//! A position is stored once for its eight symmetric images, under its canonical form (the
//! least image, see [`Position::canonical`]), from the point of view of the player to move:
//! the score its own search gave (in discs, positive when the mover is ahead), and that
//! search's depth. From these the book derives each position's value: a position all of whose
//! moves lead to book positions (or end the game) is *expanded*, and its value is the best of
//! its moves' values; any other is a *leaf*, valued by its own search. The book plays only in
//! expanded positions, where it knows every move's value ([`Book::moves`], [`Book::choose`]);
//! elsewhere the engine searches.
//!
//! ```
//! use othello_engine::book::Book;
//! use othello::{Dimensions, Game, RuleSet, Setup};
//!
//! let book = Book::builtin();
//! let game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
//! let moves = book.moves(&game).expect("the start is in the book");
//! assert_eq!(moves.len(), 4);
//! // The four first moves are one under symmetry: they have one value.
//! assert!(moves.iter().all(|m| m.value == moves[0].value));
//! ```
//!
//! The book is built by [`build::Builder`] (`othello book build`), stored as bytes
//! ([`Book::to_bytes`], [`Book::from_bytes`]: a header, the entries sorted, a checksum) and
//! written as text for people to read and extend ([`Book::to_text`], [`Book::from_text`]: one
//! position per line). The book built into the library is [`Book::builtin`].

pub mod build;
mod symmetry;

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::{Arc, LazyLock};

use rand::Rng;
use thiserror::Error;

use othello::Board;
use othello::Color;
use othello::Game;
use othello::bitboard::{Bits, U256};
use othello::text::counted;
use othello::{Dimensions, Square};
use othello::{RuleSet, eight};
use othello::{Setup, WinRule};

use symmetry::{Symmetry, canonical};

/// A position of 8x8 Othello from the point of view of the player to move: the mover's discs
/// and the opponent's, bit `row * 8 + col` (a1 is bit 0, h1 bit 7, h8 bit 63).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// The discs of the player to move.
    pub player: u64,
    /// The discs of the other player.
    pub opponent: u64,
}

impl Position {
    /// The start of the game.
    pub const START: Position = Position {
        player: 0x0000_0008_1000_0000,
        opponent: 0x0000_0010_0800_0000,
    };

    /// The position of `game` if the book can hold it: 8x8, FULL rules, "most discs wins", and
    /// a player to move.
    #[must_use]
    pub fn of(game: &Game) -> Option<Position> {
        if !Book::applies_to(game) {
            return None;
        }
        let turn = game.turn()?;
        let board = game.board();
        Some(Position {
            player: board.discs(turn).low_u64(),
            opponent: board.discs(turn.opponent()).low_u64(),
        })
    }

    /// The canonical form: the least, as the pair (player, opponent), of the position's eight
    /// images under the symmetries of the board. A position and all its images have one
    /// canonical form.
    #[must_use]
    pub fn canonical(self) -> Position {
        self.oriented().0
    }

    /// The canonical form and the symmetry that takes this position to it.
    fn oriented(self) -> (Position, Symmetry) {
        let ((player, opponent), symmetry) = canonical(self.player, self.opponent);
        (Position { player, opponent }, symmetry)
    }

    /// A game at this position, black to move (colours do not matter to a position).
    ///
    /// # Panics
    /// If the position holds a cell twice (a `Position` the book made never does).
    #[must_use]
    pub fn game(self) -> Game {
        let board = Board::from_discs(
            Dimensions::STANDARD,
            U256::from_u64(self.player),
            U256::from_u64(self.opponent),
        )
        .expect("a book position holds each cell once");
        Game::new(
            Setup {
                board,
                first: Color::Black,
                win: WinRule::MostDiscs,
            },
            RuleSet::Full,
        )
    }

    /// Discs played since the start (a pass is not a move): the discs on the board less 4.
    #[must_use]
    pub fn ply(self) -> u32 {
        (self.player | self.opponent).count_ones().saturating_sub(4)
    }

    /// Empty squares.
    #[must_use]
    pub fn empties(self) -> u32 {
        64 - (self.player | self.opponent).count_ones()
    }

    /// The legal moves of the player to move, as a bit set.
    fn moves(self) -> u64 {
        eight::legal_moves(self.player, self.opponent)
    }

    /// What follows the move on square `index` (a legal move).
    fn after(self, index: u32) -> Next {
        let flipped = eight::flips(self.player, self.opponent, index);
        let mover = self.player | flipped | (1 << index);
        let other = self.opponent & !flipped;
        if eight::legal_moves(other, mover) != 0 {
            Next::Position {
                position: Position {
                    player: other,
                    opponent: mover,
                },
                same_mover: false,
            }
        } else if eight::legal_moves(mover, other) != 0 {
            Next::Position {
                position: Position {
                    player: mover,
                    opponent: other,
                },
                same_mover: true,
            }
        } else {
            Next::End(mover.count_ones() as i32 - other.count_ones() as i32)
        }
    }

    /// Whether a game can reach this position's kind of board at all: no cell held twice, and a
    /// move for the player to move.
    fn is_playable(self) -> bool {
        self.player & self.opponent == 0 && self.moves() != 0
    }

    /// Each legal move (square index) and what follows it, in square order.
    fn children(self) -> impl Iterator<Item = (u32, Next)> {
        let mut moves = self.moves();
        std::iter::from_fn(move || {
            (moves != 0).then(|| {
                let index = moves.trailing_zeros();
                moves &= moves - 1;
                (index, self.after(index))
            })
        })
    }
}

/// What follows a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// A position to move in: the opponent's, or the mover's again when the opponent has to
    /// pass.
    Position {
        position: Position,
        same_mover: bool,
    },
    /// The end of the game, with the mover's final margin in discs.
    End(i32),
}

/// The most a score can be: all 64 discs.
const MAX_SCORE: i32 = 64;

/// The deepest search depth stored.
const MAX_DEPTH: u32 = 60;

/// What the book holds for one position: its own search's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// In discs, from the point of view of the player to move (positive when ahead), from -64
    /// to 64: the exact final margin with perfect play when `exact`, otherwise an evaluation.
    pub score: i32,
    /// The depth of the search in plies, from 1 to 60 (the empty squares when `exact`).
    pub depth: u32,
    /// Whether `score` is exact (the rest of the game was solved).
    pub exact: bool,
}

impl Entry {
    /// Whether this entry is the better scored of two for one position: exact before not,
    /// then deeper.
    #[must_use]
    pub fn is_better_than(&self, other: &Entry) -> bool {
        (self.exact, self.depth) > (other.exact, other.depth)
    }

    fn check(&self) -> Result<(), String> {
        if self.score.abs() > MAX_SCORE {
            return Err(format!(
                "score {} is beyond -{MAX_SCORE}..{MAX_SCORE}",
                self.score
            ));
        }
        if !(1..=MAX_DEPTH).contains(&self.depth) {
            return Err(format!("depth {} is beyond 1..{MAX_DEPTH}", self.depth));
        }
        Ok(())
    }
}

/// A position's value as the book derives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Derived {
    value: i8,
    expanded: bool,
}

/// What the book knows of a position: its stored entry and its derived value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    /// The position's own search result.
    pub entry: Entry,
    /// The position's value for the player to move, in discs: the best of its moves' values
    /// when `expanded`, else the entry's score.
    pub value: i32,
    /// Whether every move of the position leads to a book position or ends the game.
    pub expanded: bool,
}

/// A book move and its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The square, on the real board.
    pub square: Square,
    /// The value of playing it, in discs, for the player who plays it.
    pub value: i32,
}

/// A book that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BookError {
    /// The bytes do not start as a book does.
    #[error("not an opening book (it does not start with \"othbook\")")]
    Magic,
    /// A book of a later format.
    #[error("opening book format {found}; this version reads format {FORMAT_VERSION}")]
    Version {
        /// The format found.
        found: u32,
    },
    /// The bytes are not as long as the header says.
    #[error(
        "the book is cut or padded: {} where its header announces {expected}",
        counted(*found, "byte", "bytes")
    )]
    Length {
        /// The length the header announces.
        expected: u64,
        /// The length found.
        found: u64,
    },
    /// The checksum does not match the contents.
    #[error("the book is damaged: its checksum does not match its contents")]
    Checksum,
    /// An entry is not a valid one.
    #[error("book entry {index}: {reason}")]
    Entry {
        /// The entry's number, from 0.
        index: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A line of a book's text is not a position, score and depth.
    #[error("line {line}: {reason}")]
    Line {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
}

/// The first bytes of a book.
const MAGIC: &[u8; 8] = b"othbook\0";
/// The format this version writes and reads.
pub const FORMAT_VERSION: u32 = 1;
/// Magic, version, entry count.
const HEADER_LEN: usize = 16;
/// Player, opponent, score, depth (bit 7: exact).
const ENTRY_LEN: usize = 18;
/// The checksum after the entries.
const CHECKSUM_LEN: usize = 8;
/// The flag of an exact score in an entry's depth byte.
const EXACT_FLAG: u8 = 0x80;

/// How far below the best a book move's value may be for [`Book::choose`] to play it, in
/// discs, unless the caller says otherwise.
pub const DEFAULT_MARGIN: i32 = 1;

/// An opening book: positions under symmetry with their search scores, and the values derived
/// from them by negamax.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Book {
    entries: BTreeMap<Position, Entry>,
    derived: HashMap<Position, Derived>,
}

/// The book built into the library (`src/book/book.bin`), made by the command in DESIGN.md.
static BUILTIN: LazyLock<Arc<Book>> = LazyLock::new(|| {
    Arc::new(
        Book::from_bytes(include_bytes!("book.bin"))
            .expect("the built-in book is valid (a unit test reads it)"),
    )
});

impl Book {
    /// An empty book.
    #[must_use]
    pub fn new() -> Book {
        Book::default()
    }

    /// The book built into the library, read once on first use.
    #[must_use]
    pub fn builtin() -> Arc<Book> {
        Arc::clone(&BUILTIN)
    }

    /// Whether a book can hold positions of `game`: 8x8, FULL rules, "most discs wins". On any
    /// other board or rule the book has nothing to say.
    #[must_use]
    pub fn applies_to(game: &Game) -> bool {
        game.board().dims() == Dimensions::STANDARD
            && game.rules() == RuleSet::Full
            && game.win_rule() == WinRule::MostDiscs
    }

    /// Positions stored.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no position is stored.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Positions stored that are expanded (every move leads into the book).
    #[must_use]
    pub fn expanded(&self) -> usize {
        self.derived.values().filter(|d| d.expanded).count()
    }

    /// Every stored position (in canonical form) and its entry, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (Position, Entry)> + '_ {
        self.entries
            .iter()
            .map(|(&position, &entry)| (position, entry))
    }

    /// Stores `entry` for `position` (in any orientation), replacing what was there, and
    /// derives the values again.
    ///
    /// # Errors
    /// A message if the position holds a cell twice or the player to move has no move, or the
    /// entry's score or depth is out of range.
    pub fn insert(&mut self, position: Position, entry: Entry) -> Result<(), String> {
        check_position(position)?;
        entry.check()?;
        self.entries.insert(position.canonical(), entry);
        self.derive();
        Ok(())
    }

    /// Adds the positions of `other`; where both books hold a position, the better scored entry
    /// is kept ([`Entry::is_better_than`]; this book's on a tie). Returns how many positions
    /// were added or replaced.
    pub fn merge(&mut self, other: &Book) -> usize {
        let mut changed = 0;
        for (&position, entry) in &other.entries {
            match self.entries.get(&position) {
                Some(mine) if !entry.is_better_than(mine) => {}
                _ => {
                    self.entries.insert(position, *entry);
                    changed += 1;
                }
            }
        }
        self.derive();
        changed
    }

    /// What the book knows of the position of `game`, if it holds it.
    #[must_use]
    pub fn get(&self, game: &Game) -> Option<Known> {
        self.known(Position::of(game)?.canonical())
    }

    /// What the book knows of `position`, in canonical form.
    fn known(&self, position: Position) -> Option<Known> {
        let entry = *self.entries.get(&position)?;
        let derived = self.derived.get(&position)?;
        Some(Known {
            entry,
            value: i32::from(derived.value),
            expanded: derived.expanded,
        })
    }

    /// The value of the move on square `index` of `position` (canonical), for the mover, if
    /// the book knows it.
    fn move_value(&self, next: Next) -> Option<i32> {
        match next {
            Next::End(margin) => Some(margin),
            Next::Position {
                position,
                same_mover,
            } => {
                let value = i32::from(self.derived.get(&position.canonical())?.value);
                Some(if same_mover { value } else { -value })
            }
        }
    }

    /// Every legal move of `game` with its value, best first (among equal values in square
    /// order), when the book holds the position expanded; `None` when it does not, or the
    /// game is not one the book applies to.
    #[must_use]
    pub fn moves(&self, game: &Game) -> Option<Vec<BookMove>> {
        let (position, symmetry) = Position::of(game)?.oriented();
        if !self.known(position)?.expanded {
            return None;
        }
        let mut moves = position
            .children()
            .map(|(index, next)| {
                let real = symmetry.invert_square(index);
                Some(BookMove {
                    square: Square::new(real as usize / 8, real as usize % 8),
                    value: self.move_value(next)?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        moves.sort_by_key(|m| (std::cmp::Reverse(m.value), m.square));
        Some(moves)
    }

    /// A book move for `game`: one of the moves whose value is within `margin` discs of the
    /// best, picked by `rng` (the best, first in square order, when only it qualifies); `None`
    /// where [`Book::moves`] is.
    pub fn choose(&self, game: &Game, margin: i32, rng: &mut impl Rng) -> Option<BookMove> {
        let moves = self.moves(game)?;
        let best = moves.first()?.value;
        let near = moves
            .iter()
            .take_while(|m| m.value >= best - margin.max(0))
            .count();
        Some(moves[rng.random_range(0..near)])
    }

    /// The book's line from `game`: the best move (first in square order among equals) of each
    /// expanded position in turn, until a position the book does not hold expanded.
    #[must_use]
    pub fn line(&self, game: &Game) -> Vec<Square> {
        let mut game = game.clone();
        let mut line = Vec::new();
        while let Some(best) = self.moves(&game).and_then(|moves| moves.first().copied()) {
            game.play(best.square).expect("book moves are legal");
            line.push(best.square);
        }
        line
    }

    /// Derives every position's value: positions with more discs first, so that each
    /// position's moves are valued before it.
    fn derive(&mut self) {
        let mut order: Vec<Position> = self.entries.keys().copied().collect();
        order.sort_by_key(|position| std::cmp::Reverse(position.ply()));
        self.derived.clear();
        for position in order {
            let entry = self.entries[&position];
            let best = position
                .children()
                .map(|(_, next)| self.move_value(next))
                .try_fold(i32::MIN, |best, value| Some(best.max(value?)));
            let derived = match best {
                Some(value) => Derived {
                    value: value.clamp(-MAX_SCORE, MAX_SCORE) as i8,
                    expanded: true,
                },
                None => Derived {
                    value: entry.score as i8,
                    expanded: false,
                },
            };
            self.derived.insert(position, derived);
        }
    }

    /// The book as bytes: `othbook\0`, the format version and the number of entries (`u32`
    /// little-endian each), the entries in key order (player and opponent as `u64`
    /// little-endian, the score as `i8`, the depth as `u8` with bit 7 set when exact), and a
    /// 64-bit FNV-1a checksum of everything before it.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes =
            Vec::with_capacity(HEADER_LEN + ENTRY_LEN * self.entries.len() + CHECKSUM_LEN);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        let count = u32::try_from(self.entries.len()).expect("a book holds fewer than 2^32");
        bytes.extend_from_slice(&count.to_le_bytes());
        for (position, entry) in &self.entries {
            bytes.extend_from_slice(&position.player.to_le_bytes());
            bytes.extend_from_slice(&position.opponent.to_le_bytes());
            bytes.push(entry.score as i8 as u8);
            bytes.push(entry.depth as u8 | if entry.exact { EXACT_FLAG } else { 0 });
        }
        let checksum = fnv1a(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// Reads a book written by [`Book::to_bytes`], checking all of it: the header, the length,
    /// the checksum, and that every entry is a canonical playable position with a score and
    /// depth in range, in strictly increasing order.
    ///
    /// # Errors
    /// [`BookError`] saying what is wrong first.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(BookError::Magic);
        }
        let word = |at: usize| {
            bytes
                .get(at..at + 4)
                .map(|b| u32::from_le_bytes(b.try_into().expect("four bytes")))
        };
        let too_short = || BookError::Length {
            expected: (HEADER_LEN + CHECKSUM_LEN) as u64,
            found: bytes.len() as u64,
        };
        let version = word(8).ok_or_else(too_short)?;
        if version != FORMAT_VERSION {
            return Err(BookError::Version { found: version });
        }
        let count = u64::from(word(12).ok_or_else(too_short)?);
        let expected = (HEADER_LEN + CHECKSUM_LEN) as u64 + count * ENTRY_LEN as u64;
        if bytes.len() as u64 != expected {
            return Err(BookError::Length {
                expected,
                found: bytes.len() as u64,
            });
        }
        let (body, checksum) = bytes.split_at(bytes.len() - CHECKSUM_LEN);
        if fnv1a(body).to_le_bytes() != checksum {
            return Err(BookError::Checksum);
        }
        let mut entries = BTreeMap::new();
        let mut previous = None;
        for (index, chunk) in body[HEADER_LEN..].chunks_exact(ENTRY_LEN).enumerate() {
            let bad = |reason: String| BookError::Entry { index, reason };
            let u64_at =
                |at: usize| u64::from_le_bytes(chunk[at..at + 8].try_into().expect("eight bytes"));
            let position = Position {
                player: u64_at(0),
                opponent: u64_at(8),
            };
            let entry = Entry {
                score: i32::from(chunk[16] as i8),
                depth: u32::from(chunk[17] & !EXACT_FLAG),
                exact: chunk[17] & EXACT_FLAG != 0,
            };
            check_position(position).map_err(bad)?;
            entry.check().map_err(bad)?;
            if position.canonical() != position {
                return Err(bad("the position is not in its canonical form".to_owned()));
            }
            if previous.is_some_and(|previous| previous >= position) {
                return Err(bad("the entries are not in increasing order".to_owned()));
            }
            previous = Some(position);
            entries.insert(position, entry);
        }
        let mut book = Book {
            entries,
            derived: HashMap::new(),
        };
        book.derive();
        Ok(book)
    }

    /// The book as text for people: comment lines starting with `#`, then one position per
    /// line, fewest discs first: the 64 squares a1, b1, ..., h1, a2, ..., h8 (`X` the player to
    /// move, `O` the opponent, `-` empty), the score in discs for the player to move, and the
    /// search depth (or `exact`).
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut text = String::from(TEXT_HEADER);
        let mut positions: Vec<(&Position, &Entry)> = self.entries.iter().collect();
        positions.sort_by_key(|(position, _)| position.ply());
        for (position, entry) in positions {
            text.push_str(&board_text(*position));
            text.push(' ');
            text.push_str(&format!("{:+}", entry.score));
            text.push(' ');
            if entry.exact {
                text.push_str("exact");
            } else {
                text.push_str(&entry.depth.to_string());
            }
            text.push('\n');
        }
        text
    }

    /// Reads a book's text ([`Book::to_text`]'s form): blank lines and lines starting with `#`
    /// are skipped; a position may be written in any of its orientations, `x`, `o`, `*` and
    /// `.` are read as `X`, `O`, `X` and `-`. A position written twice keeps its last line.
    ///
    /// # Errors
    /// [`BookError::Line`] for the first line that is not a position, score and depth.
    pub fn from_text(text: &str) -> Result<Book, BookError> {
        let mut entries = BTreeMap::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |reason: String| BookError::Line {
                line: number + 1,
                reason,
            };
            let (position, entry) = parse_line(line).map_err(bad)?;
            entries.insert(position.canonical(), entry);
        }
        let mut book = Book {
            entries,
            derived: HashMap::new(),
        };
        book.derive();
        Ok(book)
    }
}

/// The comment at the top of a book's text.
const TEXT_HEADER: &str = "\
# othello opening book: one position per line, in any of its eight orientations:
#   the squares a1 b1 ... h1 a2 ... h8 (X to move, O the opponent, - empty),
#   the score in discs for X (the search's, or the exact final margin), and the search depth
#   (or exact). Values of positions whose moves are all in the book are derived by negamax.
";

/// The 64 squares of `position`, `X` for the player to move.
fn board_text(position: Position) -> String {
    (0..64)
        .map(|index| {
            let bit = 1u64 << index;
            if position.player & bit != 0 {
                'X'
            } else if position.opponent & bit != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect()
}

/// One line of a book's text.
fn parse_line(line: &str) -> Result<(Position, Entry), String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [board, score, depth] = fields[..] else {
        return Err(format!(
            "expected a board of 64 squares, a score and a depth, found {} fields",
            fields.len()
        ));
    };
    if board.chars().count() != 64 {
        return Err(format!(
            "expected a board of 64 squares (X, O or -), found {} characters",
            board.chars().count()
        ));
    }
    let mut position = Position {
        player: 0,
        opponent: 0,
    };
    for (index, cell) in board.chars().enumerate() {
        let bit = 1u64 << index;
        match cell {
            'X' | 'x' | '*' => position.player |= bit,
            'O' | 'o' => position.opponent |= bit,
            '-' | '.' => {}
            other => {
                return Err(format!(
                    "square {} is {other:?}; expected X, O or -",
                    index + 1
                ));
            }
        }
    }
    check_position(position)?;
    let score = score
        .parse::<i32>()
        .map_err(|_| format!("expected a score in discs such as +2 or -4, found {score:?}"))?;
    let entry = if depth.eq_ignore_ascii_case("exact") {
        Entry {
            score,
            depth: position.empties().max(1),
            exact: true,
        }
    } else {
        Entry {
            score,
            depth: depth.parse::<u32>().map_err(|_| {
                format!("expected a depth from 1 to {MAX_DEPTH} or \"exact\", found {depth:?}")
            })?,
            exact: false,
        }
    };
    entry.check()?;
    Ok((position, entry))
}

/// Why `position` cannot be in a book, if it cannot.
fn check_position(position: Position) -> Result<(), String> {
    if position.player & position.opponent != 0 {
        return Err("a square holds discs of both players".to_owned());
    }
    if !position.is_playable() {
        return Err("the player to move has no legal move".to_owned());
    }
    Ok(())
}

/// The 64-bit FNV-1a hash of `bytes`: the book's checksum.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl fmt::Debug for Book {
    /// The number of positions, not the positions (a book holds thousands).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Book")
            .field("positions", &self.len())
            .field("expanded", &self.expanded())
            .finish_non_exhaustive()
    }
}

impl fmt::Display for Position {
    /// The 64 squares, `X` for the player to move, as in a book's text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&board_text(*self))
    }
}

#[cfg(test)]
mod tests;
