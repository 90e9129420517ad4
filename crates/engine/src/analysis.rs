//! Game analysis: for every move of a record, the engine's best move and its value, the value
//! of the move played and what it lost; a summary per player and the theoretical result.
//!
//! Values are in discs from the point of view of the player to move, as the engine gives them
//! ([`SearchReport::score`](crate::SearchReport::score)): exact final margins once the empties
//! are few enough, evaluations on about the same scale before. The value of the move played is
//! found by searching the position after it (one ply less deep), so with exact values the loss
//! is exact: the best value minus the played value, never negative. With evaluations the two
//! searches can disagree slightly; a loss is then never reported below zero. The value of the
//! second-best move (the best of the others) is found the same way, from every other move's
//! position: a move that gains a lot over it was the only good one.
//!
//! ```
//! use othello_engine::analysis::{analyze, AnalysisOptions};
//! use othello_records::{movelist, ReadOptions};
//! use othello_engine::{Engine, EngineConfig};
//!
//! // A 4x4 game, solved exactly from the first move.
//! let record = &movelist::read("4x4 b1 a1 c4 d4", &ReadOptions::default())?[0];
//! let mut engine = Engine::new(EngineConfig::default());
//! let options = AnalysisOptions::for_board(record.dims());
//! let analysis = analyze(record, &options, &mut engine, &mut |_, _| {})?;
//! assert!(analysis.moves.iter().all(|analysed| analysed.exact));
//! let theoretical = analysis.theoretical.unwrap();
//! assert_eq!((theoretical.from_move, theoretical.black_margin), (1, -8));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::atomic::AtomicBool;

use crate::{Engine, EngineError, Limits};
use othello::Game;
use othello::{ByColor, Color};
use othello::{Dimensions, Square};
use othello_records::GameRecord;

/// How deeply to analyse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisOptions {
    /// Solve exactly the positions with at most this many empty squares.
    pub exact_from: u32,
    /// Search depth, in plies, of the positions with more empties.
    pub depth: u32,
}

impl AnalysisOptions {
    /// The defaults for a board: exact from 20 empties up to 8x8, fewer on bigger boards (where
    /// every position costs more: 19 on 10x10, 12 on 16x16); a midgame depth of 10 plies up to
    /// 8x8, 8 beyond.
    #[must_use]
    pub fn for_board(dims: Dimensions) -> AnalysisOptions {
        let cells = dims.cells() as u32;
        let exact_from = if cells <= 64 {
            20
        } else {
            (20 - (cells - 64) / 24).max(12)
        };
        AnalysisOptions {
            exact_from,
            depth: if cells <= 64 { 10 } else { 8 },
        }
    }
}

/// One move, analysed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAnalysis {
    /// 1-based number among the discs placed (passes are not counted).
    pub number: usize,
    /// Who played it.
    pub player: Color,
    /// The square played.
    pub played: Square,
    /// Empty squares before the move.
    pub empties: u32,
    /// The engine's best move.
    pub best: Square,
    /// The value of the position with the best move, for the player.
    pub best_value: i32,
    /// The value after the move played, for the player.
    pub played_value: i32,
    /// The value of the best move other than [`MoveAnalysis::best`], for the player (`None`
    /// when there was no other legal move).
    pub second_value: Option<i32>,
    /// Discs lost by the move played: `best_value - played_value`, at least 0.
    pub loss: i32,
    /// Whether the values are exact (the position was solved).
    pub exact: bool,
    /// The search depth, in plies (the empties when exact).
    pub depth: u32,
}

impl MoveAnalysis {
    /// Whether the move counts as a mistake: it loses discs against perfect play (exact), or
    /// at least [`MoveAnalysis::EVALUATED_MISTAKE`] discs by the evaluation.
    #[must_use]
    pub fn is_mistake(&self) -> bool {
        if self.exact {
            self.loss > 0
        } else {
            self.loss >= Self::EVALUATED_MISTAKE
        }
    }

    /// The smallest evaluated loss counted as a mistake: evaluations are not exact, and smaller
    /// differences are within their noise.
    pub const EVALUATED_MISTAKE: i32 = 4;

    /// How many discs the move played is worth more than the best other move: the best value
    /// minus the second-best when the engine's move was played, else minus the loss (0 or
    /// less). `None` for a forced move (the only legal one).
    #[must_use]
    pub fn gain(&self) -> Option<i32> {
        if self.played == self.best {
            self.second_value
                .map(|second| (self.best_value - second).max(0))
        } else {
            self.second_value.map(|_| -self.loss)
        }
    }

    /// Whether the move played was the only good one: every other move loses discs against
    /// perfect play (exact), or at least [`MoveAnalysis::EVALUATED_MISTAKE`] discs by the
    /// evaluation.
    #[must_use]
    pub fn is_only_good_move(&self) -> bool {
        let threshold = if self.exact {
            1
        } else {
            Self::EVALUATED_MISTAKE
        };
        self.gain().is_some_and(|gain| gain >= threshold)
    }
}

/// One player's moves, summed up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerSummary {
    /// Moves played.
    pub moves: usize,
    /// Discs lost, all moves together.
    pub total_loss: i32,
    /// Moves counted as mistakes ([`MoveAnalysis::is_mistake`]).
    pub mistakes: usize,
    /// Moves that lost nothing: the engine's choice or one as good.
    pub best_moves: usize,
    /// The move that lost the most (the first of them), if any move lost discs.
    pub worst: Option<(usize, Square, i32)>,
    /// The only good move ([`MoveAnalysis::is_only_good_move`]) that gained the most over the
    /// second-best (the first of them), with its number, square and gain, if any.
    pub best: Option<(usize, Square, i32)>,
}

/// The value of the game with perfect play, from the first position solved exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theoretical {
    /// The number of the move from whose position it was solved (the first with few enough
    /// empties).
    pub from_move: usize,
    /// Black's margin with perfect play from there: positive when black wins (under "fewest
    /// discs wins", when black ends with fewer discs).
    pub black_margin: i32,
}

/// A game, analysed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameAnalysis {
    /// Every disc placed, in order.
    pub moves: Vec<MoveAnalysis>,
    /// Each player's summary.
    pub summary: ByColor<PlayerSummary>,
    /// The result with perfect play from the first exact position, if any move was solved.
    pub theoretical: Option<Theoretical>,
    /// Black's margin at the end of the record, in the same terms as
    /// [`Theoretical::black_margin`] (a game not played to the end: the current disc count).
    pub final_black_margin: i32,
}

/// Analyses every move of `record` with `engine`, calling `progress(done, total)` after each.
///
/// # Errors
/// [`EngineError`] if a search cannot be run (a depth of 0).
pub fn analyze(
    record: &GameRecord,
    options: &AnalysisOptions,
    engine: &mut Engine,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<GameAnalysis, EngineError> {
    let positions = record.positions();
    let total = positions.len();
    let mut moves = Vec::with_capacity(total);
    for (index, (game, played)) in positions.iter().enumerate() {
        moves.push(analyse_move(index + 1, game, *played, *options, engine)?);
        progress(index + 1, total);
    }
    let mut summary: ByColor<PlayerSummary> = ByColor::default();
    for analysed in &moves {
        let player = &mut summary[analysed.player];
        player.moves += 1;
        player.total_loss += analysed.loss;
        player.mistakes += usize::from(analysed.is_mistake());
        player.best_moves += usize::from(analysed.loss == 0);
        let worse = match player.worst {
            None => true,
            Some((_, _, loss)) => analysed.loss > loss,
        };
        if analysed.loss > 0 && worse {
            player.worst = Some((analysed.number, analysed.played, analysed.loss));
        }
        if analysed.is_only_good_move() {
            let gain = analysed.gain().unwrap_or(0);
            if player.best.is_none_or(|(_, _, best)| gain > best) {
                player.best = Some((analysed.number, analysed.played, gain));
            }
        }
    }
    let theoretical = moves
        .iter()
        .find(|analysed| analysed.exact)
        .map(|analysed| Theoretical {
            from_move: analysed.number,
            black_margin: for_black(analysed.player, analysed.best_value),
        });
    Ok(GameAnalysis {
        moves,
        summary,
        theoretical,
        final_black_margin: black_margin(record.final_game()),
    })
}

fn analyse_move(
    number: usize,
    game: &Game,
    played: Square,
    options: AnalysisOptions,
    engine: &mut Engine,
) -> Result<MoveAnalysis, EngineError> {
    let mover = game.turn().expect("a move was played from this position");
    let empties = game.board().empties();
    let exact = empties <= options.exact_from;
    let limits = if exact {
        Limits::exact()
    } else {
        Limits::depth(options.depth)
    };
    let best = engine.search(game, &limits)?;
    let child_limits = limits.one_ply_less();
    let played_value = if played == best.best_move {
        best.score
    } else {
        value_after(game, played, &child_limits, engine)?
    };
    // The best of the other moves: the move played is one of them unless it is the best.
    let mut second_value = None;
    for square in game.legal_moves() {
        if square == best.best_move {
            continue;
        }
        let value = if square == played {
            played_value
        } else {
            value_after(game, square, &child_limits, engine)?
        };
        second_value = Some(second_value.map_or(value, |second: i32| second.max(value)));
    }
    Ok(MoveAnalysis {
        number,
        player: mover,
        played,
        empties,
        best: best.best_move,
        best_value: best.score,
        played_value,
        second_value,
        loss: (best.score - played_value).max(0),
        exact: best.exact,
        depth: best.depth,
    })
}

/// The value for the player to move of playing `square`, the position after it searched within
/// `limits`.
fn value_after(
    game: &Game,
    square: Square,
    limits: &Limits,
    engine: &mut Engine,
) -> Result<i32, EngineError> {
    let stop = AtomicBool::new(false);
    Ok(engine.move_value(game, square, limits, &stop)?.score)
}

fn black_margin(game: &Game) -> i32 {
    game.margin(Color::Black)
}

fn for_black(player: Color, value: i32) -> i32 {
    match player {
        Color::Black => value,
        Color::White => -value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_scale_with_the_board() {
        let options = |rows, cols| AnalysisOptions::for_board(Dimensions::new(rows, cols).unwrap());
        assert_eq!(options(8, 8).exact_from, 20);
        assert_eq!(options(4, 4).exact_from, 20);
        assert_eq!(options(10, 10).exact_from, 19);
        assert_eq!(options(16, 16).exact_from, 12);
        assert_eq!(options(16, 16).depth, 8);
    }
}
