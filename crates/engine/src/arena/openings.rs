//! The openings of a match: balanced random ones (random moves from the start, kept when a
//! shallow search of the classic evaluation judges the position about even), or a list given
//! by the user. Each is played twice, with the colours swapped, so that an opening's bias
//! cancels.

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use thiserror::Error;

use crate::{Engine, EngineConfig, Evaluation, Limits};
use othello::RuleSet;
use othello::Setup;
use othello::{Dimensions, Square};
use othello::{Game, MoveError};

/// The start of every game of a match: 8x8, the standard four discs, Black first, FULL rules.
#[must_use]
pub fn standard_start() -> Game {
    Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full)
}

/// An opening: moves from the standard start, after which the game is not over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    moves: Vec<Square>,
    position: Game,
}

/// Why moves are not an opening.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OpeningError {
    /// A move cannot be played (numbered from 1).
    #[error("move {number}: {source}")]
    Move {
        /// Its number.
        number: usize,
        /// Why.
        source: MoveError,
    },
    /// The game is over after them: nothing is left to play.
    #[error("the game is over after it")]
    Over,
}

impl Opening {
    /// The opening of `moves` from [`standard_start`] (passes left out).
    ///
    /// # Errors
    /// [`OpeningError`] for a move that cannot be played or a game that ends.
    pub fn new(moves: Vec<Square>) -> Result<Opening, OpeningError> {
        let mut position = standard_start();
        for (index, &square) in moves.iter().enumerate() {
            position.play(square).map_err(|source| OpeningError::Move {
                number: index + 1,
                source,
            })?;
        }
        if position.is_over() {
            return Err(OpeningError::Over);
        }
        Ok(Opening { moves, position })
    }

    /// Its moves.
    #[must_use]
    pub fn moves(&self) -> &[Square] {
        &self.moves
    }

    /// The position after them.
    #[must_use]
    pub fn position(&self) -> &Game {
        &self.position
    }
}

/// Depth of the judge's search of a random opening.
const JUDGE_DEPTH: u32 = 6;

/// The openings of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// Random openings judged balanced.
    Random {
        /// Opening `i` depends only on the seed and `i`.
        seed: u64,
        /// Random moves from the standard start.
        plies: u32,
        /// An opening is kept when the judge scores it within this many discs of even.
        balance: i32,
    },
    /// Given openings, used in turn (from the first again after the last).
    List(Vec<Opening>),
}

/// An engine of a match: one search thread, 16 MiB, seed 0 (one a player and thread).
#[must_use]
pub fn match_engine() -> Engine {
    Engine::new(EngineConfig {
        hash_mb: 16,
        threads: 1,
        seed: 0,
    })
}

/// The engine that judges random openings: [`match_engine`] with the classic evaluation. One a
/// thread.
#[must_use]
pub fn judge() -> Engine {
    let mut engine = match_engine();
    engine.set_evaluation(Evaluation::Classic);
    engine
}

impl Openings {
    /// Random openings of `plies` moves within 4 discs of even.
    #[must_use]
    pub fn random(seed: u64, plies: u32) -> Openings {
        Openings::Random {
            seed,
            plies,
            balance: 4,
        }
    }

    /// Opening number `index`: for random openings, the first random game of `plies` moves
    /// (drawn from the seed and `index`) that is not over and that `judge` (see [`judge`])
    /// scores within the balance at depth 6; else the list's opening `index` modulo its length.
    ///
    /// # Panics
    /// If the list is empty.
    #[must_use]
    pub fn opening(&self, index: u64, judge: &mut Engine) -> Opening {
        match self {
            Openings::List(list) => list[(index % list.len() as u64) as usize].clone(),
            &Openings::Random {
                seed,
                plies,
                balance,
            } => {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                rng.set_stream(index);
                loop {
                    let mut game = standard_start();
                    let mut moves = Vec::new();
                    for _ in 0..plies {
                        if let Some(&square) = game.legal_moves().choose(&mut rng) {
                            game.play(square).expect("a legal move");
                            moves.push(square);
                        }
                    }
                    if game.is_over() {
                        continue;
                    }
                    let report = judge
                        .search(&game, &Limits::depth(JUDGE_DEPTH))
                        .expect("the game is not over");
                    if report.score.abs() <= balance {
                        return Opening {
                            moves,
                            position: game,
                        };
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_balanced_and_depend_on_the_seed_and_index() {
        let openings = Openings::random(1, 8);
        let mut judge = judge();
        let a = openings.opening(0, &mut judge);
        assert_eq!(a.moves().len(), 8);
        assert_eq!(a.position().board().empties(), 60 - 8);
        let score = judge
            .search(a.position(), &Limits::depth(JUDGE_DEPTH))
            .unwrap()
            .score;
        assert!(score.abs() <= 4, "{score}");
        assert_eq!(a, openings.opening(0, &mut judge));
        assert_ne!(a, openings.opening(1, &mut judge));
        assert_ne!(a, Openings::random(2, 8).opening(0, &mut judge));
    }

    #[test]
    fn a_list_of_openings_is_used_in_turn() {
        let mut judge = judge();
        let start = Opening::new(Vec::new()).unwrap();
        let first = standard_start().legal_moves()[0];
        let moved = Opening::new(vec![first]).unwrap();
        let openings = Openings::List(vec![start.clone(), moved.clone()]);
        assert_eq!(openings.opening(0, &mut judge), start);
        assert_eq!(openings.opening(1, &mut judge), moved);
        assert_eq!(openings.opening(2, &mut judge), start);
        assert!(matches!(
            Opening::new(vec![Square::new(0, 0)]),
            Err(OpeningError::Move { number: 1, .. })
        ));
    }
}
