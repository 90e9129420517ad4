//! Matches between two evaluations on 8x8 (FULL rules, most discs wins), to measure what a
//! set of weights is worth: balanced random openings, each played twice with the colours
//! swapped, both sides searching the same number of nodes a move (so that the result does not
//! depend on the machine's load).

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use crate::color::Color;
use crate::computer::Level;
use crate::engine::{Engine, EngineConfig, Evaluation, Limits};
use crate::game::Game;
use crate::rules::RuleSet;
use crate::setup::Setup;
use crate::square::Dimensions;

/// How the games of a match are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arena {
    /// Varies the openings: opening `i` depends only on the seed and `i`.
    pub seed: u64,
    /// Random moves of an opening.
    pub opening_moves: u32,
    /// An opening is kept when the judge (the classic evaluation at depth 6) scores it within
    /// this many discs of even.
    pub balance: i32,
    /// Nodes each side searches a move.
    pub nodes: u64,
    /// Instead of [`Arena::nodes`], both sides search as the computer of `othello play` at
    /// this level (its depth, exact solve, node budget and time cap; its random moves aside).
    pub level: Option<Level>,
}

impl Default for Arena {
    /// Seed 1, openings of 8 random moves within 4 discs of even, 300,000 nodes a move.
    fn default() -> Arena {
        Arena {
            seed: 1,
            opening_moves: 8,
            balance: 4,
            nodes: 300_000,
            level: None,
        }
    }
}

/// How one side of a match searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contender {
    /// Its evaluation.
    pub evaluation: Evaluation,
    /// Whether its midgame search uses probabilistic cut-offs.
    pub selective: bool,
}

impl From<Evaluation> for Contender {
    /// A player with `evaluation` and the engine's default (selective) search.
    fn from(evaluation: Evaluation) -> Contender {
        Contender {
            evaluation,
            selective: true,
        }
    }
}

/// The two engines and the judge of a match, one set per thread.
pub struct Players {
    first: Engine,
    second: Engine,
    judge: Engine,
}

impl Players {
    /// Engines for `first` and `second`, one thread and 16 MiB each.
    #[must_use]
    pub fn new(first: Contender, second: Contender) -> Players {
        let engine = |player: Contender| {
            let mut engine = Engine::new(EngineConfig {
                hash_mb: 16,
                threads: 1,
                seed: 0,
            });
            engine.set_evaluation(player.evaluation);
            engine.set_selective(player.selective);
            engine
        };
        Players {
            first: engine(first),
            second: engine(second),
            judge: engine(Evaluation::Classic.into()),
        }
    }
}

/// The result of one opening played twice: the first evaluation's final disc margin with Black,
/// then with White.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The first evaluation's margin when it played Black.
    pub as_black: i32,
    /// Its margin when it played White.
    pub as_white: i32,
}

impl Arena {
    /// Opening number `index`: the first random game of [`Arena::opening_moves`] moves whose
    /// position the judge scores within [`Arena::balance`] discs of even.
    ///
    /// # Panics
    /// Never: the engine always has a move while the game is not over.
    #[must_use]
    pub fn opening(&self, index: u64, players: &mut Players) -> Game {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        rng.set_stream(index);
        loop {
            let mut game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
            for _ in 0..self.opening_moves {
                if let Some(&square) = game.legal_moves().choose(&mut rng) {
                    game.play(square).expect("a legal move");
                }
            }
            if game.is_over() {
                continue;
            }
            let report = players
                .judge
                .search(&game, &Limits::depth(6))
                .expect("the game is not over");
            if report.score.abs() <= self.balance {
                return game;
            }
        }
    }

    /// Plays opening number `index` twice, the first evaluation with Black then with White.
    ///
    /// # Panics
    /// Never: the engines always have a move while the game is not over.
    #[must_use]
    pub fn pair(&self, index: u64, players: &mut Players) -> Pair {
        let start = self.opening(index, players);
        let limits = |game: &Game| match self.level {
            Some(level) => level.profile().limits(game),
            None => Limits {
                nodes: Some(self.nodes),
                ..Limits::default()
            },
        };
        let mut play = |first_color: Color| {
            let mut game = start.clone();
            while let Some(turn) = game.turn() {
                let engine = if turn == first_color {
                    &mut players.first
                } else {
                    &mut players.second
                };
                let report = engine
                    .search(&game, &limits(&game))
                    .expect("the game is not over");
                game.play(report.best_move)
                    .expect("the engine's move is legal");
            }
            game.margin(first_color)
        };
        Pair {
            as_black: play(Color::Black),
            as_white: play(Color::White),
        }
    }
}

/// Wins, draws, losses and the total margin of the first evaluation over a match's games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first evaluation won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games it lost.
    pub losses: u32,
    /// The sum of its final disc margins.
    pub margin: i64,
}

impl Tally {
    /// Adds the games of a pair.
    pub fn add(&mut self, pair: Pair) {
        for margin in [pair.as_black, pair.as_white] {
            match margin.signum() {
                1 => self.wins += 1,
                0 => self.draws += 1,
                _ => self.losses += 1,
            }
            self.margin += i64::from(margin);
        }
    }

    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first evaluation's share of the points (a draw is half a point), from 0 to 1.
    #[must_use]
    pub fn points(&self) -> f64 {
        let games = f64::from(self.games().max(1));
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / games
    }

    /// The mean final margin of the first evaluation, in discs.
    #[must_use]
    pub fn mean_margin(&self) -> f64 {
        self.margin as f64 / f64::from(self.games().max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_evaluation_splits_every_opening_evenly() {
        // Both sides identical and deterministic: each opening gives the same game twice with
        // the colours swapped, so the two margins cancel.
        let by_nodes = Arena {
            nodes: 2_000,
            ..Arena::default()
        };
        let by_level = Arena {
            level: Some(Level::MIN),
            ..Arena::default()
        };
        let mut players = Players::new(Evaluation::Trained.into(), Evaluation::Trained.into());
        for arena in [by_nodes, by_level] {
            for index in 0..2 {
                let pair = arena.pair(index, &mut players);
                assert_eq!(
                    pair.as_black, -pair.as_white,
                    "opening {index} of {arena:?}"
                );
            }
        }
    }

    #[test]
    fn openings_are_balanced_and_depend_on_the_seed_and_index() {
        let arena = Arena::default();
        let mut players = Players::new(Evaluation::Trained.into(), Evaluation::Classic.into());
        let a = arena.opening(0, &mut players);
        assert_eq!(a.board().empties(), 60 - 8);
        assert_eq!(a, arena.opening(0, &mut players));
        assert_ne!(a, arena.opening(1, &mut players));
        let other = Arena { seed: 2, ..arena };
        assert_ne!(a, other.opening(0, &mut players));
    }

    #[test]
    fn the_tally_counts_points_and_margins() {
        let mut tally = Tally::default();
        tally.add(Pair {
            as_black: 10,
            as_white: 0,
        });
        tally.add(Pair {
            as_black: -4,
            as_white: 2,
        });
        assert_eq!(
            (tally.wins, tally.draws, tally.losses, tally.margin),
            (2, 1, 1, 8)
        );
        assert!((tally.points() - 0.625).abs() < 1e-9);
        assert!((tally.mean_margin() - 2.0).abs() < 1e-9);
    }
}
