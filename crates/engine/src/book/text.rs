//! A book as text for people to read and extend ([`Book::to_text`], [`Book::from_text`]): one
//! position per line.

use std::collections::{BTreeMap, HashMap};

use super::position::{BookPosition, board_text, check_position};
use super::values::{Entry, MAX_DEPTH};
use super::{Book, BookError};

impl Book {
    /// The book as text for people: comment lines starting with `#`, then one position per
    /// line, fewest discs first: the 64 squares a1, b1, ..., h1, a2, ..., h8 (`X` the player to
    /// move, `O` the opponent, `-` empty), the score in discs for the player to move, and the
    /// search depth (or `exact`).
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut text = String::from(TEXT_HEADER);
        let mut positions: Vec<(&BookPosition, &Entry)> = self.entries.iter().collect();
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

/// One line of a book's text.
fn parse_line(line: &str) -> Result<(BookPosition, Entry), String> {
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
    let mut position = BookPosition {
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
