//! The value of each legal move: the position after it searched, and its value turned to the
//! point of view of the player who moved (negated unless the opponent has to pass, the final
//! margin when the move ends the game). NBoard's `hint`, `othello solve --all-moves` and the
//! game analysis all value moves this way. Here too: how [`Scoring`] scores a finished game's
//! margin, the one place the empties go to the winner.

use std::sync::atomic::{AtomicBool, Ordering};

use super::{Engine, EngineError, Limits, Scoring};
use othello::Color;
use othello::Game;
use othello::Square;

/// One legal move and what it is worth to the player who plays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub square: Square,
    /// In discs, from the point of view of the player who plays the move, on the scale of
    /// [`SearchReport::score`](super::SearchReport::score): the exact final margin when
    /// `exact`, otherwise an evaluation.
    pub score: i32,
    /// Whether `score` is the result of perfect play after the move (always, for a move that
    /// ends the game).
    pub exact: bool,
    /// Plies looked ahead, the move itself included: 1 for a move that ends the game, else one
    /// more than the depth of the search after it.
    pub depth: u32,
    /// When `score` comes from a selective solve after the move: the chance in percent that
    /// each of its cut-offs is right ([`SearchReport::confidence`](super::SearchReport::confidence)).
    pub confidence: Option<u32>,
    /// The expected line of play, starting with the move; passes are not listed.
    pub line: Vec<Square>,
    /// Positions visited by the search after the move (0 when it ends the game).
    pub nodes: u64,
}

impl Scoring {
    /// A disc margin scored this way: `margin` is a finished game's disc difference for one
    /// player (positive when that player wins), `empties` the squares left empty, which go to
    /// the winner under [`Scoring::EmptiesToWinner`].
    #[inline(always)]
    #[must_use]
    pub fn score(self, margin: i32, empties: i32) -> i32 {
        match self {
            Scoring::DiscsOnly => margin,
            Scoring::EmptiesToWinner => margin + margin.signum() * empties,
        }
    }

    /// The final margin of `game` (a finished one) for `player`, scored this way.
    #[must_use]
    pub fn final_margin(self, game: &Game, player: Color) -> i32 {
        self.score(game.margin(player), game.board().empties() as i32)
    }
}

impl Engine {
    /// The value of playing `square` in `game` for the player to move: the position after it
    /// searched within `limits` (with the stop flag and without progress reports), or its final
    /// margin, scored as [`Engine::scoring`] says, when the move ends the game.
    ///
    /// # Errors
    /// [`EngineError::GameOver`] if nobody can move in `game`, [`EngineError::ZeroDepth`] for
    /// a depth limit of 0.
    ///
    /// # Panics
    /// If `square` is not a legal move of `game`.
    pub fn move_value(
        &mut self,
        game: &Game,
        square: Square,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<MoveValue, EngineError> {
        let player = game.turn().ok_or(EngineError::GameOver)?;
        let mut after = game.clone();
        after
            .play(square)
            .expect("move_value is given a legal move");
        let Some(next) = after.turn() else {
            return Ok(MoveValue {
                square,
                score: self.scoring.final_margin(&after, player),
                exact: true,
                depth: 1,
                confidence: None,
                line: vec![square],
                nodes: 0,
            });
        };
        let report = self.search_with(&after, limits, stop, &mut |_| {})?;
        let mut line = vec![square];
        line.extend(&report.pv);
        Ok(MoveValue {
            square,
            score: if next == player {
                report.score
            } else {
                -report.score
            },
            exact: report.exact,
            depth: report.depth + 1,
            confidence: report.confidence,
            line,
            nodes: report.nodes,
        })
    }

    /// Every legal move of `game` valued with [`Engine::move_value`], each position after a
    /// move searched within `limits`, in board order; `on_valued(values, total)` is called
    /// after each move with the values so far. Once `stop` is set, the move being searched is
    /// dropped and the moves valued before it are returned.
    ///
    /// # Errors
    /// As [`Engine::move_value`].
    pub fn move_values(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_valued: &mut dyn FnMut(&[MoveValue], usize),
    ) -> Result<Vec<MoveValue>, EngineError> {
        let moves = game.legal_moves();
        let mut values = Vec::with_capacity(moves.len());
        for &square in &moves {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let value = self.move_value(game, square, limits, stop)?;
            if stop.load(Ordering::Relaxed) {
                break;
            }
            values.push(value);
            on_valued(&values, moves.len());
        }
        Ok(values)
    }
}

impl Limits {
    /// The limits for the positions one move further on: one ply less deep (at least 1), the
    /// same otherwise; an exact solve stays exact.
    #[must_use]
    pub fn one_ply_less(&self) -> Limits {
        Limits {
            depth: self.depth.map(|depth| depth.saturating_sub(1).max(1)),
            ..*self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EngineConfig;
    use othello::Dimensions;
    use othello::RuleSet;
    use othello::Setup;

    #[test]
    fn move_values_agree_with_the_search_where_both_are_exact() {
        let dims = Dimensions::new(4, 4).unwrap();
        let game = Game::new(Setup::standard(dims), RuleSet::Full);
        let mut engine = Engine::new(EngineConfig::default());
        let best = engine.search(&game, &Limits::exact()).unwrap();
        let stop = AtomicBool::new(false);
        let mut calls = 0;
        let values = engine
            .move_values(&game, &Limits::exact(), &stop, &mut |_, total| {
                calls += 1;
                assert_eq!(total, game.legal_moves().len());
            })
            .unwrap();
        assert_eq!(calls, values.len());
        assert_eq!(values.len(), game.legal_moves().len());
        assert!(values.iter().all(|value| value.exact));
        let top = values.iter().map(|value| value.score).max().unwrap();
        assert_eq!(top, best.score);
        assert!(values.iter().all(|value| value.line[0] == value.square));
    }

    #[test]
    fn empties_go_to_the_winner_only_when_asked() {
        assert_eq!(Scoring::DiscsOnly.score(6, 4), 6);
        assert_eq!(Scoring::EmptiesToWinner.score(6, 4), 10);
        assert_eq!(Scoring::EmptiesToWinner.score(-6, 4), -10);
        assert_eq!(Scoring::EmptiesToWinner.score(0, 4), 0);
        assert_eq!(
            Limits::depth(1).one_ply_less(),
            Limits::depth(1),
            "at least one ply"
        );
        assert_eq!(Limits::depth(5).one_ply_less(), Limits::depth(4));
        assert_eq!(Limits::exact().one_ply_less(), Limits::exact());
    }
}
