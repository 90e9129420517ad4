//! Training positions from the games people played: the positions of game records (the WTHOR
//! database, GGF archives) as [`Sample`]s, each position once however many games reach it.
//!
//! A record gives a position only the game's result, which says little about a position far
//! from the end (the players' later mistakes decide it), so these samples are never fitted as
//! they are: `othello train rescore` replaces every score with a deeper search's value, solving
//! the last positions exactly.

use std::collections::HashSet;

use crate::Scoring;
use othello::bitboard::Bits;
use othello::{Color, Dimensions, RuleSet};
use othello_records::GameRecord;

use super::Sample;

/// The positions of game records not seen before, as [`Sample`]s.
#[derive(Debug, Default)]
pub struct RecordPositions {
    /// Every position given so far: the mover's discs and the other side's.
    seen: HashSet<(u64, u64)>,
    /// Positions left out because an earlier game reached them.
    repeated: u64,
}

/// Why a record gives no positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unused {
    /// It is not 8x8 Othello under FULL rules from the standard start with "most discs wins".
    NotStandard,
    /// Every one of its positions was given before (or it has no move).
    NoNewPosition,
}

impl RecordPositions {
    /// Positions left out so far because an earlier game reached them.
    #[must_use]
    pub fn repeated(&self) -> u64 {
        self.repeated
    }

    /// The positions of `record` before each disc placed that no earlier record gave, in the
    /// order played, as the samples of one game (the first flagged `first`, the last `last`).
    /// Each is scored by the game's result for its mover, empty squares to the winner: the
    /// final board's margin when the game is over, otherwise the result a WTHOR record states
    /// (the game may have ended on time), otherwise the margin on the last board. None is
    /// exact.
    ///
    /// # Errors
    /// [`Unused`]: the record is not a standard game of 8x8 FULL, or it brings no new position.
    pub fn samples(&mut self, record: &GameRecord) -> Result<Vec<Sample>, Unused> {
        if record.dims() != Dimensions::STANDARD
            || record.rules() != RuleSet::Full
            || !record.starts_standard()
        {
            return Err(Unused::NotStandard);
        }
        let black_margin = black_result(record);
        let mut samples: Vec<Sample> = Vec::new();
        for (game, _) in record.positions() {
            let Some(mover) = game.turn() else { continue };
            let board = game.board();
            let me = board.discs(mover).low_u64();
            let opp = board.discs(mover.opponent()).low_u64();
            if !self.seen.insert((me, opp)) {
                self.repeated += 1;
                continue;
            }
            let margin = if mover == Color::Black {
                black_margin
            } else {
                -black_margin
            };
            samples.push(Sample {
                me,
                opp,
                score: margin,
                exact: false,
                first: samples.is_empty(),
                last: false,
            });
        }
        let last = samples.last_mut().ok_or(Unused::NoNewPosition)?;
        last.last = true;
        Ok(samples)
    }
}

/// Black's margin at the end of the game `record` holds, empty squares to the winner.
fn black_result(record: &GameRecord) -> i8 {
    let end = record.final_game();
    let margin = match record.metadata().wthor {
        Some(info) if end.turn().is_some() => 2 * i32::from(info.black_discs) - 64,
        _ => Scoring::EmptiesToWinner.final_margin(end, Color::Black),
    };
    i8::try_from(margin.clamp(-64, 64)).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello_records::{self as record, ReadOptions};

    fn records(text: &str) -> Vec<GameRecord> {
        record::read(text.as_bytes(), &ReadOptions::default()).unwrap()
    }

    #[test]
    fn a_game_gives_its_positions_scored_by_its_result_for_each_mover() {
        // A game of ten moves, scored by its last board.
        let record = &records("f5d6c3d3c4f4f6f3e6e7")[0];
        let mut positions = RecordPositions::default();
        let samples = positions.samples(record).unwrap();
        assert_eq!(samples.len(), record.positions().len());
        assert!(samples[0].first && !samples[0].last);
        assert!(samples.last().unwrap().last);
        assert_eq!(samples.iter().filter(|s| s.first || s.last).count(), 2);
        let black = Scoring::EmptiesToWinner.final_margin(record.final_game(), Color::Black);
        for (sample, (game, _)) in samples.iter().zip(record.positions()) {
            let mover = game.turn().unwrap();
            let expected = if mover == Color::Black { black } else { -black };
            assert_eq!(i32::from(sample.score), expected);
            assert_eq!(sample.me, game.board().discs(mover).low_u64());
            assert!(!sample.exact);
            sample.check().unwrap();
        }
    }

    #[test]
    fn positions_seen_in_an_earlier_game_are_left_out() {
        let games = records("f5d6c3d3c4\nf5d6c3d3c4f4f6\nf5d6");
        let mut positions = RecordPositions::default();
        let first = positions.samples(&games[0]).unwrap();
        assert_eq!(first.len(), 5);
        // The second game shares its first five positions: two new ones remain.
        let second = positions.samples(&games[1]).unwrap();
        assert_eq!(second.len(), 2);
        assert!(second[0].first && second[1].last);
        assert_eq!(positions.repeated(), 5);
        assert_eq!(positions.samples(&games[2]), Err(Unused::NoNewPosition));
        assert_eq!(positions.repeated(), 7);
    }

    #[test]
    fn other_rules_and_starts_give_nothing() {
        let mut positions = RecordPositions::default();
        let simple = record::read(
            b"f5d6",
            &ReadOptions {
                rules: RuleSet::Simple,
            },
        )
        .unwrap();
        assert_eq!(positions.samples(&simple[0]), Err(Unused::NotStandard));
        // An OBF position (Edax's format) starts from its own board.
        let obf =
            records("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;");
        assert_eq!(positions.samples(&obf[0]), Err(Unused::NotStandard));
        assert_eq!(positions.repeated(), 0);
    }
}
