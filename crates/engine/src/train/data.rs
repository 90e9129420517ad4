//! Self-play data: a position and its target score ([`Sample`]), checked, and the data file
//! that holds the samples of whole games ([`read_data`], [`data_bytes`]); the samples are
//! rescored in [`super::rescore`].

use std::io::Read;

use thiserror::Error;

use othello::Color;
use othello::Dimensions;
use othello::Game;
use othello::RuleSet;
use othello::Setup;
use othello::bitboard::Bits;

/// Bytes of one sample in a data file: the mover's discs and the opponent's (8 bytes each,
/// little-endian, bit `8 * row + column`), the score (a signed byte) and the flags (a byte).
pub const RECORD_BYTES: usize = 18;

/// The first bytes of a data file (version 1): the samples' records follow. Files written
/// before the header existed hold the records alone; they are read too.
pub const DATA_MAGIC: &[u8; 8] = b"OTHDAT01";

const FLAG_EXACT: u8 = 1;

const FLAG_FIRST: u8 = 2;

const FLAG_LAST: u8 = 4;

/// Records read and checked at a time: a data file is read in batches of this many.
const READ_BATCH: usize = 4096;

/// What is wrong with a sample (or with its record in a data file).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum SampleError {
    /// A square holds both players' discs.
    #[error("the two players' discs overlap")]
    Overlap,
    /// The score is not a margin of at most 64 discs.
    #[error("the score {0} is beyond 64 discs")]
    Score(i8),
    /// The flags byte has bits no writer sets.
    #[error("unknown flags {0:#04x}")]
    Flags(u8),
    /// The player to move has no legal move (every sample has one).
    #[error("the player to move has no legal move")]
    NoMove,
}

/// Why a data file cannot be read.
#[derive(Debug, Error)]
pub enum DataError {
    /// The file does not start as a data file does, nor with a valid record.
    #[error("not self-play data (starts with \"{found}\")")]
    NotData {
        /// The file's first bytes (up to 8), escaped as printable ASCII.
        found: String,
    },
    /// A record is not a sample.
    #[error("byte {offset}: {problem}")]
    Sample {
        /// Where the record starts in the file.
        offset: u64,
        /// What is wrong with it.
        problem: SampleError,
    },
    /// The bytes could not be read.
    #[error(transparent)]
    Read(#[from] std::io::Error),
}

/// The whole games of a data file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Data {
    /// Their samples, first game first.
    pub samples: Vec<Sample>,
    /// Bytes of the file up to the end of its last whole game (header included): the rest is
    /// a game an interrupted run cut short.
    pub whole_bytes: u64,
    /// Whether the file starts with [`DATA_MAGIC`] (or is empty); `false` for a file written
    /// before the header existed.
    pub headed: bool,
}

impl Data {
    /// The number of games.
    #[must_use]
    pub fn games(&self) -> u64 {
        count_games(&self.samples)
    }
}

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

    /// The sample of a file record, checked ([`Sample::check`]).
    ///
    /// # Errors
    /// What is wrong with the record.
    pub fn from_bytes(bytes: &[u8; RECORD_BYTES]) -> Result<Sample, SampleError> {
        let word = |range: std::ops::Range<usize>| {
            let mut eight = [0; 8];
            eight.copy_from_slice(&bytes[range]);
            u64::from_le_bytes(eight)
        };
        let flags = bytes[17];
        if flags & !(FLAG_EXACT | FLAG_FIRST | FLAG_LAST) != 0 {
            return Err(SampleError::Flags(flags));
        }
        let sample = Sample {
            me: word(0..8),
            opp: word(8..16),
            score: i8::from_le_bytes([bytes[16]]),
            exact: flags & FLAG_EXACT != 0,
            first: flags & FLAG_FIRST != 0,
            last: flags & FLAG_LAST != 0,
        };
        sample.check()?;
        Ok(sample)
    }

    /// Checks that the sample is one a self-play game can hold: the disc sets are disjoint,
    /// the score is within 64 discs and the player to move has a legal move.
    ///
    /// # Errors
    /// The first thing wrong.
    pub fn check(&self) -> Result<(), SampleError> {
        if self.me & self.opp != 0 {
            return Err(SampleError::Overlap);
        }
        if !(-64..=64).contains(&self.score) {
            return Err(SampleError::Score(self.score));
        }
        if othello::eight::legal_moves(self.me, self.opp) == 0 {
            return Err(SampleError::NoMove);
        }
        Ok(())
    }

    /// The sample's position as a game, its mover playing Black.
    ///
    /// # Errors
    /// What is wrong with the sample ([`Sample::check`]).
    pub fn game(&self) -> Result<Game, SampleError> {
        self.check()?;
        let board = othello::Board::from_discs(
            Dimensions::STANDARD,
            othello::bitboard::U256::from_u64(self.me),
            othello::bitboard::U256::from_u64(self.opp),
        )
        .map_err(|_| SampleError::Overlap)?;
        Ok(Game::new(
            Setup {
                board,
                first: Color::Black,
                win: othello::WinRule::MostDiscs,
            },
            RuleSet::Full,
        ))
    }
}

/// The whole games of a data file read from `input` in batches of a few thousand records,
/// each record checked as it is read. The file may start with [`DATA_MAGIC`] or (written
/// before the header existed) with the first record; an empty input is an empty file. A game
/// cut short at the end (by an interrupted run) is left out, see [`Data::whole_bytes`].
///
/// # Errors
/// [`DataError::NotData`] for a file that starts with neither the header nor a valid record
/// (or, without the header, holds no whole game); [`DataError::Sample`] with the byte offset of
/// the first record that is not a sample; [`DataError::Read`] when `input` fails.
pub fn read_data<R: Read>(mut input: R) -> Result<Data, DataError> {
    let mut head = Vec::with_capacity(DATA_MAGIC.len());
    (&mut input)
        .take(DATA_MAGIC.len() as u64)
        .read_to_end(&mut head)?;
    let not_data = |start: &[u8]| DataError::NotData {
        found: start[..start.len().min(8)].escape_ascii().to_string(),
    };
    if head.is_empty() {
        return Ok(Data {
            headed: true,
            ..Data::default()
        });
    }
    let headed = head == DATA_MAGIC;
    let start: u64 = if headed { DATA_MAGIC.len() as u64 } else { 0 };
    let mut buffer = if headed { Vec::new() } else { head.clone() };
    let mut samples = Vec::new();
    let mut whole = 0;
    let mut offset = start;
    loop {
        let wanted = READ_BATCH * RECORD_BYTES - buffer.len();
        let before = buffer.len();
        (&mut input).take(wanted as u64).read_to_end(&mut buffer)?;
        let ended = buffer.len() - before < wanted;
        let (records, _) = buffer.as_chunks::<RECORD_BYTES>();
        let count = records.len();
        for record in records {
            match Sample::from_bytes(record) {
                Ok(sample) => {
                    samples.push(sample);
                    if sample.last {
                        whole = samples.len();
                    }
                }
                Err(_) if !headed && offset == 0 => return Err(not_data(&head)),
                Err(problem) => return Err(DataError::Sample { offset, problem }),
            }
            offset += RECORD_BYTES as u64;
        }
        buffer.drain(..count * RECORD_BYTES);
        if ended {
            break;
        }
    }
    if !headed && whole == 0 {
        return Err(not_data(&head));
    }
    samples.truncate(whole);
    Ok(Data {
        samples,
        whole_bytes: start + (whole * RECORD_BYTES) as u64,
        headed,
    })
}

/// The bytes of a data file that holds `samples`: the header, then their records.
#[must_use]
pub fn data_bytes(samples: &[Sample]) -> Vec<u8> {
    let mut bytes = DATA_MAGIC.to_vec();
    bytes.extend(samples.iter().flat_map(Sample::to_bytes));
    bytes
}

/// Counts the games among samples (the samples flagged as the last of their game).
#[must_use]
pub fn count_games(samples: &[Sample]) -> u64 {
    samples.iter().filter(|s| s.last).count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::Rescoring;
    use crate::train::SelfPlay;

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
        let mut bytes = data_bytes(&game);
        let read = read_data(bytes.as_slice()).unwrap();
        assert_eq!(read.samples, game);
        assert!(read.headed);
        assert_eq!(read.whole_bytes, bytes.len() as u64);
        bytes.extend_from_slice(&game[0].to_bytes());
        bytes.push(7);
        let read = read_data(bytes.as_slice()).unwrap();
        assert_eq!(read.samples, game);
        assert_eq!(read.games(), 1);
        assert_eq!(read.whole_bytes, (8 + game.len() * RECORD_BYTES) as u64);
        // A file of the records alone (written before the header) reads the same.
        let read = read_data(&bytes[8..]).unwrap();
        assert_eq!(read.samples, game);
        assert!(!read.headed);
        assert_eq!(read.whole_bytes, (game.len() * RECORD_BYTES) as u64);
    }

    #[test]
    fn a_file_that_is_not_data_is_refused_and_bad_records_are_located() {
        let not_data = |bytes: &[u8]| read_data(bytes).unwrap_err().to_string();
        assert_eq!(
            not_data(&vec![0; 100_000]),
            "not self-play data (starts with \"\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\")"
        );
        assert_eq!(
            not_data(b"# Othello\nA README of some length, longer than a record.\n"),
            "not self-play data (starts with \"# Othell\")"
        );
        assert_eq!(not_data(b"OTH"), "not self-play data (starts with \"OTH\")");
        assert_eq!(
            not_data(crate::patterns::TRAINED),
            "not self-play data (starts with \"OTHPAT01\")"
        );
        let good = Sample {
            me: 0x0000_0008_1000_0000,
            opp: 0x0000_0010_0800_0000,
            score: 3,
            exact: false,
            first: true,
            last: true,
        };
        assert_eq!(good.check(), Ok(()));
        let cases = [
            (
                Sample {
                    opp: good.me,
                    ..good
                },
                "the two players' discs overlap",
            ),
            (
                Sample { score: 65, ..good },
                "the score 65 is beyond 64 discs",
            ),
            (
                Sample {
                    me: 0,
                    opp: 0,
                    ..good
                },
                "the player to move has no legal move",
            ),
        ];
        for (bad, message) in cases {
            assert_eq!(bad.check().unwrap_err().to_string(), message);
            assert!(bad.game().is_err());
            let bytes = data_bytes(&[good, good, bad]);
            assert_eq!(not_data(&bytes), format!("byte 44: {message}"));
            let mut engine = SelfPlay::engine();
            assert!(
                bad.rescored(
                    &mut engine,
                    Rescoring {
                        depth: 1,
                        from_empties: 0,
                        exact_empties: 0
                    }
                )
                .is_err()
            );
        }
        let mut bytes = data_bytes(&[good]);
        bytes[8 + 17] = 0x80;
        assert_eq!(not_data(&bytes), "byte 8: unknown flags 0x80");
        assert_eq!(
            read_data(&b""[..]).unwrap(),
            Data {
                headed: true,
                ..Data::default()
            }
        );
    }
}
