//! A book's positions: 8x8 from the point of view of the player to move, their canonical form
//! under the board's symmetries, their moves and what follows each, and the 64 squares as a
//! book's text writes them.

use std::fmt;

use othello::Board;
use othello::Color;
use othello::Game;
use othello::bitboard::{Bits, U256};
use othello::{Dimensions, RuleSet, eight};
use othello::{Setup, WinRule};

use super::symmetry::{Symmetry, canonical};

/// A position of 8x8 Othello from the point of view of the player to move: the mover's discs
/// and the opponent's, bit `row * 8 + col` (a1 is bit 0, h1 bit 7, h8 bit 63).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BookPosition {
    /// The discs of the player to move.
    pub player: u64,
    /// The discs of the other player.
    pub opponent: u64,
}

impl BookPosition {
    /// The start of the game.
    pub const START: BookPosition = BookPosition {
        player: 0x0000_0008_1000_0000,
        opponent: 0x0000_0010_0800_0000,
    };

    /// The position of `game` if the book can hold it: 8x8, FULL rules, "most discs wins", and
    /// a player to move.
    #[must_use]
    pub fn of(game: &Game) -> Option<BookPosition> {
        if !applies_to(game) {
            return None;
        }
        let turn = game.turn()?;
        let board = game.board();
        Some(BookPosition {
            player: board.discs(turn).low_u64(),
            opponent: board.discs(turn.opponent()).low_u64(),
        })
    }

    /// The canonical form: the least, as the pair (player, opponent), of the position's eight
    /// images under the symmetries of the board. A position and all its images have one
    /// canonical form.
    #[must_use]
    pub fn canonical(self) -> BookPosition {
        self.oriented().0
    }

    /// The canonical form and the symmetry that takes this position to it.
    pub(super) fn oriented(self) -> (BookPosition, Symmetry) {
        let ((player, opponent), symmetry) = canonical(self.player, self.opponent);
        (BookPosition { player, opponent }, symmetry)
    }

    /// A game at this position, black to move (colours do not matter to a position).
    ///
    /// # Panics
    /// If the position holds a cell twice (a `BookPosition` the book made never does).
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
    pub(super) fn moves(self) -> u64 {
        eight::legal_moves(self.player, self.opponent)
    }

    /// What follows the move on square `index` (a legal move).
    pub(super) fn after(self, index: u32) -> Next {
        let flipped = eight::flips(self.player, self.opponent, index);
        let mover = self.player | flipped | (1 << index);
        let other = self.opponent & !flipped;
        if eight::legal_moves(other, mover) != 0 {
            Next::Position {
                position: BookPosition {
                    player: other,
                    opponent: mover,
                },
                same_mover: false,
            }
        } else if eight::legal_moves(mover, other) != 0 {
            Next::Position {
                position: BookPosition {
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
    pub(super) fn is_playable(self) -> bool {
        self.player & self.opponent == 0 && self.moves() != 0
    }

    /// Each legal move (square index) and what follows it, in square order.
    pub(crate) fn children(self) -> impl Iterator<Item = (u32, Next)> {
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
pub(crate) enum Next {
    /// A position to move in: the opponent's, or the mover's again when the opponent has to
    /// pass.
    Position {
        position: BookPosition,
        same_mover: bool,
    },
    /// The end of the game, with the mover's final margin in discs.
    End(i32),
}

/// Whether a book can hold positions of `game`: 8x8, FULL rules, "most discs wins" (see
/// [`super::Book::applies_to`]).
pub(super) fn applies_to(game: &Game) -> bool {
    game.board().dims() == Dimensions::STANDARD
        && game.rules() == RuleSet::Full
        && game.win_rule() == WinRule::MostDiscs
}

/// Why `position` cannot be in a book, if it cannot.
pub(super) fn check_position(position: BookPosition) -> Result<(), String> {
    if position.player & position.opponent != 0 {
        return Err("a square holds discs of both players".to_owned());
    }
    if !position.is_playable() {
        return Err("the player to move has no legal move".to_owned());
    }
    Ok(())
}

/// The 64 squares of `position`, `X` for the player to move.
pub(super) fn board_text(position: BookPosition) -> String {
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

impl fmt::Display for BookPosition {
    /// The 64 squares, `X` for the player to move, as in a book's text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&board_text(*self))
    }
}
