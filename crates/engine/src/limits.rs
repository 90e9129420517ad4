//! How an engine is set up ([`EngineConfig`]) and when a search stops ([`Limits`]).

use std::time::Duration;

/// How the engine is set up; fixed for its lifetime.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EngineConfig {
    /// Size of the transposition table in MiB (at least 1 is used).
    pub hash_mb: usize,
    /// Search threads (at least 1 is used).
    pub threads: usize,
    /// Varies the hashing; two engines with the same seed search identically.
    pub seed: u64,
}

impl Default for EngineConfig {
    /// 64 MiB, one thread, seed 0.
    fn default() -> EngineConfig {
        EngineConfig {
            hash_mb: 64,
            threads: 1,
            seed: 0,
        }
    }
}

/// When a search stops. The default has no limit: the position is solved exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Deepest iteration, in plies; an exact solve is attempted only if this is at least the
    /// number of empty squares.
    pub depth: Option<u32>,
    /// Stop after about this many positions.
    pub nodes: Option<u64>,
    /// Stop after about this much wall-clock time.
    pub time: Option<Duration>,
    /// A move's share of a clock: iterative deepening starts no iteration that it does not
    /// expect to end within this much wall-clock time from the search's start (the last
    /// iteration's time, grown as it grew from the one before); `time` still stops an
    /// iteration under way.
    pub target: Option<Duration>,
    /// A score the position is known to reach, in discs for the player to move (a move's
    /// exact value): the exact solve tests first whether any move does better, with a null
    /// window there, instead of searching for the score from a guess. Only the exact solve
    /// reads it, and a wrong floor costs time, never the score.
    pub floor: Option<i32>,
}

impl Limits {
    /// No limit: solve exactly.
    #[must_use]
    pub fn exact() -> Limits {
        Limits::default()
    }

    /// Whether a node count or a time stops the search.
    #[must_use]
    pub fn is_limited(&self) -> bool {
        self.time.is_some() || self.nodes.is_some() || self.target.is_some()
    }

    /// Search to `depth` plies.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search for about `time`.
    #[must_use]
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }
}
