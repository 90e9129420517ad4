//! The opening book of 8x8 Othello under the FULL rules ("most discs wins"): positions of the
//! first moves, each scored by a deep search, with the value of every position whose moves
//! are all in the book derived from theirs by negamax, as Edax's book does.
//!
//! A position is stored once for its eight symmetric images, under its canonical form (the
//! least image, see [`BookPosition::canonical`]), from the point of view of the player to move:
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

mod binary;
pub mod build;
mod position;
mod symmetry;
mod text;
mod values;

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::{Arc, LazyLock};

use rand::Rng;
use thiserror::Error;

use othello::Game;
use othello::Square;
use othello::text::counted;

pub use binary::FORMAT_VERSION;
pub use position::BookPosition;
pub(crate) use position::Next;
use position::check_position;
use values::Derived;
pub use values::{Entry, Known};

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

/// How far below the best a book move's value may be for [`Book::choose`] to play it, in
/// discs, unless the caller says otherwise.
pub const DEFAULT_MARGIN: i32 = 1;

/// An opening book: positions under symmetry with their search scores, and the values derived
/// from them by negamax.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Book {
    entries: BTreeMap<BookPosition, Entry>,
    derived: HashMap<BookPosition, Derived>,
}

/// The book built into the library (`book.bin` beside this file), made by the command in docs/book.md.
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
        position::applies_to(game)
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

    /// Whether the book holds `position` (in any orientation).
    #[must_use]
    pub fn contains(&self, position: BookPosition) -> bool {
        self.entries.contains_key(&position.canonical())
    }

    /// Every stored position (in canonical form) and its entry, in key order.
    pub fn iter(&self) -> impl Iterator<Item = (BookPosition, Entry)> + '_ {
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
    pub fn insert(&mut self, position: BookPosition, entry: Entry) -> Result<(), String> {
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
        self.known(BookPosition::of(game)?.canonical())
    }

    /// What the book knows of `position`, in canonical form.
    fn known(&self, position: BookPosition) -> Option<Known> {
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
        values::move_value(&self.derived, next)
    }

    /// Every legal move of `game` with its value, best first (among equal values in square
    /// order), when the book holds the position expanded; `None` when it does not, or the
    /// game is not one the book applies to.
    #[must_use]
    pub fn moves(&self, game: &Game) -> Option<Vec<BookMove>> {
        let (position, symmetry) = BookPosition::of(game)?.oriented();
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

    /// Derives every position's value ([`values::derive`]).
    fn derive(&mut self) {
        values::derive(&self.entries, &mut self.derived);
    }
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

#[cfg(test)]
mod tests;
