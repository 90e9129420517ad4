//! A game in progress: the board, whose turn it is, passing, the end and the winner.

use thiserror::Error;

use crate::bitboard::{Bits, Geometry, U256};
use crate::board::Board;
use crate::color::{ByColor, Color};
use crate::rules::RuleSet;
use crate::setup::{Setup, WinRule};
use crate::square::{OutOfBoundsError, Square};

/// A move that cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The square is not on the board.
    #[error(transparent)]
    OutOfBounds(#[from] OutOfBoundsError),
    /// The square already holds a disc.
    #[error("{square} is already occupied")]
    Occupied {
        /// The square asked for.
        square: Square,
    },
    /// The square is empty but the move would flip nothing.
    #[error("{square} is not a legal move for {player}: it flips no discs")]
    Illegal {
        /// The square asked for.
        square: Square,
        /// The player whose turn it is.
        player: Color,
    },
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This player won.
    Win(Color),
    /// Both players have the same number of discs.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    #[must_use]
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win(color) => Some(color),
            Outcome::Draw => None,
        }
    }

    /// The protocol's word: `B`, `W` or `NONE`.
    #[must_use]
    pub fn protocol_name(self) -> &'static str {
        match self {
            Outcome::Win(Color::Black) => "B",
            Outcome::Win(Color::White) => "W",
            Outcome::Draw => "NONE",
        }
    }

    /// The outcome of a final position with these disc counts under `win`.
    #[must_use]
    pub fn from_counts(counts: ByColor<u32>, win: WinRule) -> Outcome {
        use std::cmp::Ordering;
        let black_ahead = match (counts.black.cmp(&counts.white), win) {
            (Ordering::Equal, _) => return Outcome::Draw,
            (order, WinRule::MostDiscs) => order == Ordering::Greater,
            (order, WinRule::FewestDiscs) => order == Ordering::Less,
        };
        Outcome::Win(if black_ahead {
            Color::Black
        } else {
            Color::White
        })
    }
}

/// What playing a move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The square played.
    pub square: Square,
    /// The player who played it.
    pub player: Color,
    /// How many opponent discs it flipped.
    pub flipped: u32,
    /// The player who must pass as a result (the opponent, who has no move), if any. When the
    /// game ends, nobody is said to pass.
    pub passed: Option<Color>,
}

/// A game: a board, the rules, the win rule and whose turn it is.
///
/// The turn always belongs to a player who has a legal move: when the player to move has none
/// but the other player has, the turn passes back automatically; when neither has, the game is
/// over. This holds from the start position on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    board: Board,
    rules: RuleSet,
    win: WinRule,
    first: Color,
    turn: Option<Color>,
    geometry: Geometry<U256>,
}

impl Game {
    /// Starts a game from `setup` under `rules`. If the first player cannot move, the other
    /// player starts; if neither can, the game is over at once.
    #[must_use]
    pub fn new(setup: Setup, rules: RuleSet) -> Game {
        let geometry =
            Geometry::new(setup.board.dims()).expect("every supported board fits 256 bits");
        let mut game = Game {
            board: setup.board,
            rules,
            win: setup.win,
            first: setup.first,
            turn: None,
            geometry,
        };
        game.turn = game.next_turn(setup.first.opponent());
        game
    }

    /// The current position.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rule set in force.
    #[must_use]
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// Most or fewest discs wins.
    #[must_use]
    pub fn win_rule(&self) -> WinRule {
        self.win
    }

    /// The player named first in the setup.
    #[must_use]
    pub fn first_player(&self) -> Color {
        self.first
    }

    /// Whose turn it is, or `None` once the game is over.
    #[must_use]
    pub fn turn(&self) -> Option<Color> {
        self.turn
    }

    /// Whether neither player can move.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.turn.is_none()
    }

    /// Disc counts.
    #[must_use]
    pub fn score(&self) -> ByColor<u32> {
        ByColor::new_with(|color| self.board.count(color))
    }

    /// How far ahead `player` is by the win rule, in discs: their discs minus the opponent's
    /// under "most discs wins", the opponent's minus theirs under "fewest discs wins" (so
    /// positive means winning either way). Of a finished game, its final margin.
    #[must_use]
    pub fn margin(&self, player: Color) -> i32 {
        let score = self.score();
        let difference = score[player] as i32 - score[player.opponent()] as i32;
        match self.win {
            WinRule::MostDiscs => difference,
            WinRule::FewestDiscs => -difference,
        }
    }

    /// The result, once the game is over.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.is_over()
            .then(|| Outcome::from_counts(self.score(), self.win))
    }

    /// The squares where `player` could play now (whether or not it is their turn).
    #[must_use]
    pub fn moves_of(&self, player: Color) -> Vec<Square> {
        self.geometry.squares(self.move_set(player)).collect()
    }

    /// The squares where the player to move may play, row by row; empty once the game is over.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Square> {
        self.turn
            .map(|player| self.moves_of(player))
            .unwrap_or_default()
    }

    /// Whether the player to move may play `square`.
    #[must_use]
    pub fn is_legal(&self, square: Square) -> bool {
        self.check_move(square).is_ok()
    }

    /// The discs a move at `square` by the player to move would flip.
    ///
    /// # Errors
    /// [`MoveError`] if the move cannot be played.
    pub fn flips(&self, square: Square) -> Result<Vec<Square>, MoveError> {
        let flipped = self.check_move(square)?.1;
        Ok(self.geometry.squares(flipped).collect())
    }

    /// Plays `square` for the player to move and hands the turn on.
    ///
    /// # Errors
    /// [`MoveError`] if the square is off the board, occupied or flips nothing, or the game is
    /// over; the game is unchanged.
    pub fn play(&mut self, square: Square) -> Result<Played, MoveError> {
        let (player, flipped) = self.check_move(square)?;
        let bit = self.geometry.bit(square);
        let mut discs = ByColor::new_with(|color| self.board.discs(color));
        discs[player] |= bit | flipped;
        discs[player.opponent()] &= !flipped;
        self.board.set_discs(discs);
        self.turn = self.next_turn(player);
        let passed = (self.turn == Some(player)).then_some(player.opponent());
        Ok(Played {
            square,
            player,
            flipped: flipped.count(),
            passed,
        })
    }

    /// The player to move and the flips of `square`, if it is legal.
    fn check_move(&self, square: Square) -> Result<(Color, U256), MoveError> {
        let player = self.turn.ok_or(MoveError::GameOver)?;
        let square = self.board.dims().check(square)?;
        if self.board.at(square).is_some() {
            return Err(MoveError::Occupied { square });
        }
        let me = self.board.discs(player);
        let opp = self.board.discs(player.opponent());
        let flipped = self
            .rules
            .flips(&self.geometry, me, opp, self.geometry.bit(square));
        if flipped.is_empty() {
            return Err(MoveError::Illegal { square, player });
        }
        Ok((player, flipped))
    }

    fn move_set(&self, player: Color) -> U256 {
        let me = self.board.discs(player);
        let opp = self.board.discs(player.opponent());
        self.rules.legal_moves(&self.geometry, me, opp)
    }

    /// Whose turn it is after `mover` has moved: the opponent if they can move, else the mover
    /// if they can, else nobody.
    fn next_turn(&self, mover: Color) -> Option<Color> {
        [mover.opponent(), mover]
            .into_iter()
            .find(|&player| !self.move_set(player).is_empty())
    }
}
