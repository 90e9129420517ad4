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

use crate::bitboard::Bits;
use crate::color::Color;
use crate::engine::{Engine, EngineConfig, Evaluation, Limits, Scoring};
use crate::game::Game;
use crate::rules::RuleSet;
use crate::setup::Setup;
use crate::square::{Dimensions, Square};

/// Bytes of one sample in a data file: the mover's discs and the opponent's (8 bytes each,
/// little-endian, bit `8 * row + column`), the score (a signed byte) and the flags (a byte).
pub const RECORD_BYTES: usize = 18;

const FLAG_EXACT: u8 = 1;
const FLAG_FIRST: u8 = 2;
const FLAG_LAST: u8 = 4;

/// One position of a self-play game and its target score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sample {
    /// Discs of the side to move, bit `8 * row + column`.
    pub me: u64,
    /// Discs of the other side.
    pub opp: u64,
    /// The game's final margin for the side to move (empty squares go to the winner); the
    /// exact value of the position with perfect play when `exact`.
    pub score: i8,
    /// Whether the position was solved exactly (perfect play from it on).
    pub exact: bool,
    /// Whether it is the first position of its game.
    pub first: bool,
    /// Whether it is the last position of its game.
    pub last: bool,
}

impl Sample {
    /// Empty squares of the position.
    #[must_use]
    pub fn empties(&self) -> u32 {
        64 - (self.me | self.opp).count_ones()
    }

    /// The sample as its file record.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut bytes = [0; RECORD_BYTES];
        bytes[..8].copy_from_slice(&self.me.to_le_bytes());
        bytes[8..16].copy_from_slice(&self.opp.to_le_bytes());
        bytes[16] = self.score.to_le_bytes()[0];
        let flag = |on: bool, flag: u8| if on { flag } else { 0 };
        bytes[17] = flag(self.exact, FLAG_EXACT)
            | flag(self.first, FLAG_FIRST)
            | flag(self.last, FLAG_LAST);
        bytes
    }

    /// The sample of a file record.
    #[must_use]
    pub fn from_bytes(bytes: &[u8; RECORD_BYTES]) -> Sample {
        let word = |range: std::ops::Range<usize>| {
            let mut eight = [0; 8];
            eight.copy_from_slice(&bytes[range]);
            u64::from_le_bytes(eight)
        };
        Sample {
            me: word(0..8),
            opp: word(8..16),
            score: i8::from_le_bytes([bytes[16]]),
            exact: bytes[17] & FLAG_EXACT != 0,
            first: bytes[17] & FLAG_FIRST != 0,
            last: bytes[17] & FLAG_LAST != 0,
        }
    }

    /// The sample's position as a game, its mover playing Black.
    ///
    /// # Panics
    /// If the sample's two disc sets overlap (never for a sample of [`SelfPlay::game`]).
    #[must_use]
    pub fn game(&self) -> Game {
        let board = crate::Board::from_discs(
            Dimensions::STANDARD,
            crate::bitboard::U256::from_u64(self.me),
            crate::bitboard::U256::from_u64(self.opp),
        )
        .expect("a sample's disc sets do not overlap");
        Game::new(
            Setup {
                board,
                first: Color::Black,
                win: crate::WinRule::MostDiscs,
            },
            RuleSet::Full,
        )
    }

    /// The sample with its score replaced by the value of a `depth`-ply search with `engine`,
    /// in discs, when it is not exact and has at least `from_empties` empty squares; otherwise
    /// the sample unchanged.
    ///
    /// # Panics
    /// If the sample's position is over (never for a sample of [`SelfPlay::game`], whose
    /// positions all have a player to move) or its disc sets overlap.
    #[must_use]
    pub fn rescored(&self, engine: &mut Engine, depth: u32, from_empties: u32) -> Sample {
        if self.exact || self.empties() < from_empties {
            return *self;
        }
        let report = engine
            .search(&self.game(), &Limits::depth(depth))
            .expect("a sample's position has a player to move");
        Sample {
            score: i8::try_from(report.score.clamp(-64, 64)).expect("clamped to 64 discs"),
            ..*self
        }
    }
}

/// The samples of a data file's bytes, and the number of bytes that hold whole games: a file
/// cut short while a game was written keeps its complete games only.
#[must_use]
pub fn read_samples(bytes: &[u8]) -> (Vec<Sample>, usize) {
    let samples: Vec<Sample> = bytes
        .chunks_exact(RECORD_BYTES)
        .map(|chunk| Sample::from_bytes(chunk.try_into().expect("chunks have the record size")))
        .collect();
    let whole = samples.iter().rposition(|s| s.last).map_or(0, |i| i + 1);
    let mut samples = samples;
    samples.truncate(whole);
    (samples, whole * RECORD_BYTES)
}

/// Counts the games among samples read by [`read_samples`].
#[must_use]
pub fn count_games(samples: &[Sample]) -> u64 {
    samples.iter().filter(|s| s.last).count() as u64
}

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
    fn records_round_trip_and_partial_games_are_dropped() {
        let config = SelfPlay {
            solve_empties: 10,
            depth: 1,
            ..SelfPlay::default()
        };
        let mut engine = SelfPlay::engine();
        let game = config.game(&mut engine, 3);
        assert!(game.len() >= 50);
        assert!(game[0].first && game[game.len() - 1].last);
        assert!(game.iter().rev().take(5).all(|s| s.exact));
        let mut bytes: Vec<u8> = game.iter().flat_map(Sample::to_bytes).collect();
        let (read, whole) = read_samples(&bytes);
        assert_eq!(read, game);
        assert_eq!(whole, bytes.len());
        bytes.extend_from_slice(&game[0].to_bytes());
        bytes.push(7);
        let (read, whole) = read_samples(&bytes);
        assert_eq!(read, game);
        assert_eq!(count_games(&read), 1);
        assert_eq!(whole, game.len() * RECORD_BYTES);
    }

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
            let report = engine.search(&sample.game(), &Limits::exact()).unwrap();
            assert_eq!(report.score, i32::from(sample.score));
        }
    }

    #[test]
    fn rescoring_replaces_the_inexact_scores_from_the_threshold_on() {
        let config = SelfPlay {
            solve_empties: 12,
            depth: 1,
            ..SelfPlay::default()
        };
        let mut engine = SelfPlay::engine();
        let game = config.game(&mut engine, 2);
        for sample in &game {
            let rescored = sample.rescored(&mut engine, 3, 40);
            if sample.exact || sample.empties() < 40 {
                assert_eq!(rescored, *sample);
            } else {
                let report = engine.search(&sample.game(), &Limits::depth(3)).unwrap();
                let expected = Sample {
                    score: report.score as i8,
                    ..*sample
                };
                assert_eq!(rescored, expected);
            }
        }
        assert!(game.iter().any(|s| s.empties() >= 40));
    }
}
