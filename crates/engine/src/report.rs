//! What a search gives back ([`SearchReport`]), and how engines print how far it saw.

use std::time::Duration;

use othello::Square;

/// The result of a search, or the best known so far while it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReport {
    /// The best move found.
    pub best_move: Square,
    /// From the side to move's point of view, in discs, positive when the mover wins or is
    /// ahead: the exact final margin (the mover's discs minus the opponent's under "most discs
    /// wins", the opponent's minus the mover's under "fewest discs wins") when `exact`,
    /// otherwise an evaluation on about the same scale.
    pub score: i32,
    /// Whether `score` is the exact result of perfect play.
    pub exact: bool,
    /// The last completed iteration's depth in plies (the number of empties when exact, and
    /// when the score comes from a selective solve).
    pub depth: u32,
    /// When the score comes from a selective solve (to the end, with probable cut-offs): the
    /// chance in percent that each cut-off is right, as Edax shows it (`24@87%`).
    pub confidence: Option<u32>,
    /// The expected line of play, starting with `best_move`; passes are not listed.
    pub pv: Vec<Square>,
    /// Positions visited.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// How the threads shared the work (zero with one thread, but for re-searches).
    pub threads: ThreadCounts,
}

/// How the threads of a search shared its work, counted as it ran: where the time of a
/// parallel search went besides searching, and the positions it visited for nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThreadCounts {
    /// Threads besides the calling one.
    pub helpers: u32,
    /// Nodes whose moves the threads shared (each start of helper threads).
    pub splits: u64,
    /// The helpers' time searching, all of them together: the rest of `helpers` times the
    /// search's time they were idle (waiting for a split, or at its end for the others).
    pub helpers_busy: Duration,
    /// The calling thread's time waiting at the end of splits for the helpers' last moves.
    pub waiting: Duration,
    /// Positions visited in moves whose search ended after another thread's cut-off had made
    /// it unneeded.
    pub wasted_nodes: u64,
    /// Positions visited searching moves again with a wider window after a null-window test
    /// at a shared node (the root, the principal variation) that they passed.
    pub researched_nodes: u64,
}

impl ThreadCounts {
    /// The share of the helpers' time spent searching, of `elapsed` (0 to 1; 0 with no
    /// helpers).
    #[must_use]
    pub fn helpers_busy_share(&self, elapsed: Duration) -> f64 {
        let available = elapsed.as_secs_f64() * f64::from(self.helpers);
        if available > 0.0 {
            (self.helpers_busy.as_secs_f64() / available).min(1.0)
        } else {
            0.0
        }
    }
}

impl SearchReport {
    /// How far the search saw, as engines print it: `exact`, the depth in plies (`12`), or a
    /// selective solve's empties and confidence (`22@87%`, as Edax writes it).
    #[must_use]
    pub fn depth_text(&self) -> String {
        if self.exact {
            "exact".to_owned()
        } else {
            estimate_depth_text(self.depth, self.confidence)
        }
    }

    /// The same as a progress line names an iteration: `exact`, `22@87%` or `depth 12`.
    #[must_use]
    pub fn iteration_text(&self) -> String {
        if self.exact || self.confidence.is_some() {
            self.depth_text()
        } else {
            format!("depth {}", self.depth)
        }
    }
}

/// The depth of an estimate as engines print it: a selective solve's empties and confidence
/// (`22@87%`, as Edax writes it), else the depth in plies (`12`).
pub(crate) fn estimate_depth_text(depth: u32, confidence: Option<u32>) -> String {
    match confidence {
        Some(confidence) => format!("{depth}@{confidence}%"),
        None => depth.to_string(),
    }
}
