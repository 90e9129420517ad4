//! What an FFO or OBF line holds: the position ([`FfoPosition`]) and the result it lists
//! ([`Listed`]).

use othello::Game;
use othello::RuleSet;
use othello::Setup;
use othello::Square;

/// A position read from an FFO line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FfoPosition {
    /// The id in front of the board (`40` for `40 O--OOOOX...`), without a leading `#`.
    pub id: Option<String>,
    /// The position: 8x8, the side to move first, most discs wins.
    pub setup: Setup,
    /// The best moves and score the line lists, if it lists them.
    pub listed: Option<Listed>,
}

impl FfoPosition {
    /// The position as a game under the FULL rules (the only rules FFO positions are for).
    #[must_use]
    pub fn game(&self) -> Game {
        Game::new(self.setup, RuleSet::Full)
    }
}

/// The result an FFO or OBF line lists.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Listed {
    /// Every optimal move.
    pub best: Vec<Square>,
    /// The exact final disc difference for the side to move, empties to the winner.
    pub score: i32,
    /// The exact score of each move the line lists (`A2:+38,C7:+36`), in its order; empty
    /// when it lists none.
    pub moves: Vec<(Square, i32)>,
    /// Whether the line is in Edax's OBF form (`board side; move:score; ...`), whose move
    /// fields are the point of the line: `othello solve` checks each of them. Its best moves
    /// are the listed moves with the best score (none for a bare score, `board X; +38;`).
    pub obf: bool,
}
