//! The record of a game: [`GameRecord`], its start, rule set and moves ([`RecordMove`]),
//! replayed when it is made so that it is always a legal game ([`ReplayError`] otherwise).

use std::fmt;
use std::sync::{LazyLock, OnceLock};

use thiserror::Error;

use othello::Color;
use othello::RuleSet;
use othello::Setup;
use othello::{Dimensions, Square};
use othello::{Game, MoveError};

use crate::metadata::Metadata;

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

#[cfg(test)]
mod tests {
    use super::*;
    use othello::notation::parse_square;

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
}
