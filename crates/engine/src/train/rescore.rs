//! Rescoring: a data file's samples scored again by a deeper search or an exact solve
//! ([`Sample::rescored`]), a game at a time so that each exact solve starts from the next
//! position's ([`rescored_game`]).

use super::data::{Sample, SampleError};
use crate::book::{BookPosition, Next};
use crate::{Engine, Limits};

/// The samples of one game (in the order played) each rescored as [`Sample::rescored`] says,
/// the last first: a position solved exactly whose next sample follows from it by one move
/// (or a move and the opponent's pass) and is exact starts from that move's value, so that its
/// solve only has to show that no other move does better, or find the one that does.
///
/// # Errors
/// What is wrong with a sample ([`Sample::check`]).
pub fn rescored_game(
    game: &[Sample],
    engine: &mut Engine,
    rescoring: Rescoring,
) -> Result<Vec<Sample>, SampleError> {
    let mut out = game.to_vec();
    for i in (0..game.len()).rev() {
        out[i] = game[i].rescored_from(engine, rescoring, out.get(i + 1))?;
    }
    Ok(out)
}

/// Which positions [`Sample::rescored`] scores again, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rescoring {
    /// Depth of the search that scores a position.
    pub depth: u32,
    /// Positions with fewer empty squares keep their scores (unless solved exactly).
    pub from_empties: u32,
    /// Positions with at most this many empty squares are solved exactly (0: none is).
    pub exact_empties: u32,
}

impl Sample {
    /// The sample rescored as `rescoring` says: a position that is not exact gets the exact
    /// value of perfect play (and is flagged exact) when it has at most
    /// [`Rescoring::exact_empties`] empty squares, otherwise the value of a
    /// [`Rescoring::depth`]-ply search with `engine`, in discs, when it has at least
    /// [`Rescoring::from_empties`]; any other sample is returned unchanged.
    ///
    /// # Errors
    /// What is wrong with the sample ([`Sample::check`]).
    pub fn rescored(
        &self,
        engine: &mut Engine,
        rescoring: Rescoring,
    ) -> Result<Sample, SampleError> {
        self.rescored_from(engine, rescoring, None)
    }

    /// [`Sample::rescored`], where `next` is the game's next sample as rescored just before
    /// with `engine`: when both are solved exactly and a move leads from this position to
    /// `next`, the solve starts from that move's value (its floor) on the tables as they are,
    /// which hold `next`'s proof when `next` was just solved.
    fn rescored_from(
        &self,
        engine: &mut Engine,
        rescoring: Rescoring,
        next: Option<&Sample>,
    ) -> Result<Sample, SampleError> {
        let empties = self.empties();
        let exact = empties <= rescoring.exact_empties;
        if self.exact || !(exact || empties >= rescoring.from_empties) {
            return Ok(*self);
        }
        let game = self.game()?;
        let report = if exact {
            let floor = next
                .filter(|next| next.exact)
                .and_then(|next| self.value_through(next));
            let limits = Limits {
                floor,
                ..Limits::exact()
            };
            if floor.is_some() {
                engine.search_after_others(&game, &limits)
            } else {
                engine.search(&game, &limits)
            }
        } else {
            engine.search(&game, &Limits::depth(rescoring.depth))
        }
        .map_err(|_| SampleError::NoMove)?;
        let score = report.score.clamp(-64, 64);
        Ok(Sample {
            score: i8::try_from(score).unwrap_or(if score < 0 { -64 } else { 64 }),
            exact,
            ..*self
        })
    }

    /// The value for this sample's mover of the move that leads to `next` (directly, or
    /// followed by the opponent's pass), from `next`'s score; `None` if no move does.
    fn value_through(&self, next: &Sample) -> Option<i32> {
        let position = BookPosition {
            player: self.me,
            opponent: self.opp,
        };
        position.children().find_map(|(_, after)| match after {
            Next::Position {
                position,
                same_mover,
            } if (position.player, position.opponent) == (next.me, next.opp) => {
                let score = i32::from(next.score);
                Some(if same_mover { score } else { -score })
            }
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::SelfPlay;

    /// Self-play games at depth 1, perfect from `solve_empties` empties (0: never).
    fn self_play(solve_empties: u32) -> SelfPlay {
        SelfPlay {
            solve_empties,
            depth: 1,
            ..SelfPlay::default()
        }
    }

    #[test]
    fn rescoring_replaces_the_inexact_scores_from_the_threshold_on() {
        let config = self_play(12);
        let mut engine = SelfPlay::engine();
        let game = config.game(&mut engine, 2);
        let rescoring = Rescoring {
            depth: 3,
            from_empties: 40,
            exact_empties: 0,
        };
        for sample in &game {
            let rescored = sample.rescored(&mut engine, rescoring).unwrap();
            if sample.exact || sample.empties() < 40 {
                assert_eq!(rescored, *sample);
            } else {
                let report = engine
                    .search(&sample.game().unwrap(), &Limits::depth(3))
                    .unwrap();
                let expected = Sample {
                    score: report.score as i8,
                    ..*sample
                };
                assert_eq!(rescored, expected);
            }
        }
        assert!(game.iter().any(|s| s.empties() >= 40));
    }

    #[test]
    fn rescoring_solves_the_last_positions_exactly() {
        let config = self_play(0);
        let mut engine = SelfPlay::engine();
        let game = config.game(&mut engine, 5);
        assert!(game.iter().all(|s| !s.exact));
        let rescoring = Rescoring {
            depth: 2,
            from_empties: 50,
            exact_empties: 10,
        };
        let mut solved = 0;
        for sample in &game {
            let rescored = sample.rescored(&mut engine, rescoring).unwrap();
            let empties = sample.empties();
            if empties <= 10 {
                let report = engine
                    .search(&sample.game().unwrap(), &Limits::exact())
                    .unwrap();
                assert!(rescored.exact);
                assert_eq!(i32::from(rescored.score), report.score);
                solved += 1;
            } else if empties < 50 {
                assert_eq!(rescored, *sample);
            } else {
                assert!(!rescored.exact);
            }
            // Rescoring again changes nothing (a solved sample is exact now).
            assert_eq!(rescored.rescored(&mut engine, rescoring).unwrap(), rescored);
        }
        assert!(solved >= 5);
    }

    #[test]
    fn a_move_s_value_is_read_from_the_position_it_leads_to() {
        let config = self_play(14);
        let mut engine = SelfPlay::engine();
        let mut passes = 0;
        for index in 0..12 {
            let game = config.game(&mut engine, index);
            for pair in game.windows(2) {
                let (this, next) = (pair[0], pair[1]);
                // After a pass the same side moves again, and the value keeps its sign.
                let same_mover = (this.me & next.me) == this.me;
                let expected = if same_mover {
                    passes += 1;
                    i32::from(next.score)
                } else {
                    -i32::from(next.score)
                };
                assert_eq!(this.value_through(&next), Some(expected));
            }
            // A position two moves on, or the same one, is not one move away.
            assert_eq!(game[0].value_through(&game[2]), None);
            assert_eq!(game[5].value_through(&game[5]), None);
        }
        assert!(passes > 0, "no game of the twelve had a pass");
    }

    #[test]
    fn a_game_rescored_from_its_end_scores_each_position_as_alone() {
        let config = self_play(0);
        let mut engine = SelfPlay::engine();
        let rescoring = Rescoring {
            depth: 2,
            from_empties: 50,
            exact_empties: 14,
        };
        for index in 0..4 {
            let game = config.game(&mut engine, index);
            let alone: Vec<Sample> = game
                .iter()
                .map(|sample| sample.rescored(&mut engine, rescoring).unwrap())
                .collect();
            assert!(alone.iter().filter(|s| s.exact).count() >= 10);
            assert_eq!(rescored_game(&game, &mut engine, rescoring).unwrap(), alone);
        }
    }

    #[test]
    fn a_floor_and_the_tables_of_other_searches_change_no_exact_score() {
        let config = self_play(0);
        let mut engine = SelfPlay::engine();
        let game = config.game(&mut engine, 1);
        // From 18 empties the solve skips the selective solves when it has a floor.
        let tried: Vec<&Sample> = game
            .iter()
            .filter(|s| matches!(s.empties(), 12 | 18))
            .collect();
        assert_eq!(tried.len(), 2);
        for sample in tried {
            let position = sample.game().unwrap();
            let exact = engine.search(&position, &Limits::exact()).unwrap().score;
            // A floor below the score, at it, and (wrongly) above it.
            for floor in [exact - 4, exact, exact + 2] {
                let limits = Limits {
                    floor: Some(floor),
                    ..Limits::exact()
                };
                let report = engine.search_after_others(&position, &limits).unwrap();
                assert_eq!((report.score, report.exact), (exact, true), "floor {floor}");
                assert_eq!(engine.search(&position, &limits).unwrap().score, exact);
            }
        }
    }
}
