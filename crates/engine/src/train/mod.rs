//! Training the pattern evaluation of 8x8 Othello from the engine's own games and from games
//! people played: self-play games ([`selfplay`]) and their data files ([`data`]), the
//! positions of game records ([`records`]), their scores by deeper searches ([`rescore`]), the
//! fit of the weights to them ([`fit`]) and the error model of the search's probabilistic
//! cut-offs ([`probcut`]). Matches that measure what the weights are worth are in
//! [`crate::arena`].
//!
//! Everything here is computation on values: the `othello train` command reads and writes the
//! files and runs the work on several threads.

pub mod data;
pub mod fit;
pub mod probcut;
pub mod records;
pub mod rescore;
pub mod selfplay;

pub use data::{DATA_MAGIC, Data, DataError, RECORD_BYTES, Sample, SampleError};
pub use rescore::{Rescoring, rescored_game};
pub use selfplay::SelfPlay;
