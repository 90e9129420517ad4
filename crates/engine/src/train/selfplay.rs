//! Self-play games of 8x8 Othello (FULL rules, most discs wins) for fitting the evaluation:
//! varied openings, a shallow engine with some random moves, then perfect play from the
//! point where the rest of the game is solved exactly. Every position of a game becomes a
//! [`Sample`]: the two players' discs and the final margin for the side to move.
//!
//! Game `i` of a run depends only on the run's seed and `i`, so that a run can be continued
//! (or split) and still produce the same games.

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::data::Sample;
use crate::{Engine, EngineConfig, Evaluation, Limits, Scoring};
use othello::Color;
use othello::Game;
use othello::RuleSet;
use othello::Setup;
use othello::bitboard::Bits;
use othello::{Dimensions, Square};

/// How the games of a run are played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlay {
    /// Varies every game of the run.
    pub seed: u64,
    /// Random moves at the start of a game: a number drawn from this range, inclusive.
    pub opening_moves: (u32, u32),
    /// Depth of the engine's moves after the opening, before the exact solve.
    pub depth: u32,
    /// Per mille of the engine's moves replaced by a random legal move.
    pub random_per_mille: u32,
    /// From this many empty squares on, the game is played perfectly (solved exactly).
    pub solve_empties: u32,
    /// The evaluation of the engine's moves (and of the solver's move ordering).
    pub evaluation: Evaluation,
}

impl Default for SelfPlay {
    /// Seed 1, 2 to 10 random opening moves, depth 4 with 5% random moves, solved from 20
    /// empties, the classic evaluation (so that the games do not change with the weights).
    fn default() -> SelfPlay {
        SelfPlay {
            seed: 1,
            opening_moves: (2, 10),
            depth: 4,
            random_per_mille: 50,
            solve_empties: 20,
            evaluation: Evaluation::Classic,
        }
    }
}

impl SelfPlay {
    /// An engine suited to playing games with [`SelfPlay::game`] (one per thread).
    #[must_use]
    pub fn engine() -> Engine {
        let mut engine = Engine::new(EngineConfig {
            hash_mb: 16,
            threads: 1,
            seed: 0,
        });
        engine.set_scoring(Scoring::EmptiesToWinner);
        engine
    }

    /// Plays game number `index` of the run with `engine` and returns its positions, first to
    /// last, each with the final margin for its mover.
    ///
    /// # Panics
    /// Never for a standard board: the engine always has a move while the game is not over.
    #[must_use]
    pub fn game(&self, engine: &mut Engine, index: u64) -> Vec<Sample> {
        engine.set_evaluation(self.evaluation.clone());
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_stream(index);
        let mut game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
        let (low, high) = self.opening_moves;
        let opening = rng.random_range(low..=high.max(low));
        let mut positions: Vec<(u64, u64, Color, bool)> = Vec::new();
        let mut exact_line: Vec<Square> = Vec::new();
        let mut played = 0;
        while let Some(turn) = game.turn() {
            let empties = game.board().empties();
            let solving = empties <= self.solve_empties;
            let board = game.board();
            positions.push((
                board.discs(turn).low_u64(),
                board.discs(turn.opponent()).low_u64(),
                turn,
                solving,
            ));
            let moves = game.legal_moves();
            let square = if solving {
                if exact_line.is_empty() {
                    let report = engine
                        .search(&game, &Limits::exact())
                        .expect("the game is not over");
                    exact_line = report.pv;
                    exact_line.reverse();
                }
                exact_line.pop().filter(|&square| game.is_legal(square))
            } else if played < opening || rng.random_range(0..1000) < self.random_per_mille {
                moves.choose(&mut rng).copied()
            } else {
                let report = engine
                    .search(&game, &Limits::depth(self.depth))
                    .expect("the game is not over");
                Some(report.best_move)
            };
            let square = square.unwrap_or_else(|| {
                // The line of play ran out (or went through a pass): solve again.
                let report = engine
                    .search(&game, &Limits::exact())
                    .expect("the game is not over");
                exact_line = report.pv;
                exact_line.reverse();
                exact_line.pop().expect("a line starts with its best move")
            });
            game.play(square).expect("the engine plays legal moves");
            played += 1;
        }
        let black = Scoring::EmptiesToWinner.final_margin(&game, Color::Black);
        let last = positions.len().saturating_sub(1);
        positions
            .iter()
            .enumerate()
            .map(|(i, &(me, opp, turn, exact))| {
                let margin = if turn == Color::Black { black } else { -black };
                Sample {
                    me,
                    opp,
                    score: i8::try_from(margin).expect("a margin is within 64 discs"),
                    exact,
                    first: i == 0,
                    last: i == last,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_depends_on_the_seed_and_its_number_only() {
        let config = SelfPlay {
            solve_empties: 8,
            depth: 1,
            ..SelfPlay::default()
        };
        let mut engine = SelfPlay::engine();
        let first = config.game(&mut engine, 5);
        assert_eq!(config.game(&mut SelfPlay::engine(), 5), first);
        assert_ne!(config.game(&mut engine, 6), first);
    }

    #[test]
    fn exact_scores_follow_perfect_play() {
        let config = SelfPlay {
            solve_empties: 12,
            depth: 2,
            ..SelfPlay::default()
        };
        let mut engine = SelfPlay::engine();
        for sample in config.game(&mut engine, 1).iter().filter(|s| s.exact) {
            let report = engine
                .search(&sample.game().unwrap(), &Limits::exact())
                .unwrap();
            assert_eq!(report.score, i32::from(sample.score));
        }
    }
}
