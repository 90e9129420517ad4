//! The words of a hint: the move the computer suggests to the player to move, with its
//! evaluation, written here once for every front end (the line dialogue, the full screen and
//! the web page, which receives the sentence from the server).
//!
//! ```
//! use othello::Square;
//! use othello_session::hint::{Reach, Suggestion};
//!
//! let hint = Suggestion {
//!     square: Square::new(2, 3),
//!     score: 2,
//!     exact: false,
//!     reach: Reach::Depth(8),
//! };
//! assert_eq!(hint.sentence(), "Hint: d3: +2 discs for you (8 moves ahead).");
//! ```

use std::fmt;

use othello::Square;
use othello::text::counted;
use othello_engine::SearchReport;

/// A hint: the move the computer suggests to the player to move, and what its search made of
/// it, from that player's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suggestion {
    /// The move suggested.
    pub square: Square,
    /// The move's value for the player to move, in discs: the final margin with perfect play
    /// when `exact`, otherwise an evaluation on about the same scale.
    pub score: i32,
    /// Whether `score` is the exact result of perfect play.
    pub exact: bool,
    /// How far the search saw.
    pub reach: Reach,
}

/// How far a hint's search saw, for an evaluation that is not exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// This many moves ahead.
    Depth(u32),
    /// To the end, with probable cut-offs each this sure, in percent (a selective solve that
    /// the hint's limits stopped before the exact one).
    Confidence(u32),
}

impl Suggestion {
    /// The hint of a search's report.
    #[must_use]
    pub fn of(report: &SearchReport) -> Suggestion {
        Suggestion {
            square: report.best_move,
            score: report.score,
            exact: report.exact,
            reach: match report.confidence {
                Some(confidence) => Reach::Confidence(confidence),
                None => Reach::Depth(report.depth),
            },
        }
    }

    /// The evaluation: `+2 discs for you (8 moves ahead)`, `even (8 moves ahead)`, or the
    /// exact result, `you win by 4 discs with perfect play`.
    #[must_use]
    pub fn evaluation(&self) -> String {
        let score = self.score;
        if self.exact {
            return match score {
                0 => "a draw with perfect play".to_owned(),
                s if s > 0 => format!(
                    "you win by {} with perfect play",
                    counted(s, "disc", "discs")
                ),
                s => format!(
                    "you lose by {} with perfect play",
                    counted(-s, "disc", "discs")
                ),
            };
        }
        let balance = match score {
            0 => "even".to_owned(),
            s => format!("{} for you", counted(format!("{s:+}"), "disc", "discs")),
        };
        format!("{balance} ({})", self.reach)
    }

    /// The hint as a sentence: `Hint: d3: +2 discs for you (8 moves ahead).`, the one wording
    /// of the line dialogue, the full screen's message line and the web page.
    #[must_use]
    pub fn sentence(&self) -> String {
        format!("Hint: {self}.")
    }
}

/// `d3: +2 discs for you (8 moves ahead)`: the move and its [evaluation](Suggestion::evaluation).
impl fmt::Display for Suggestion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.square, self.evaluation())
    }
}

/// `8 moves ahead`, or `to the end, each cut 87% sure`.
impl fmt::Display for Reach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reach::Depth(depth) => write!(f, "{depth} moves ahead"),
            Reach::Confidence(confidence) => write!(f, "to the end, each cut {confidence}% sure"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(score: i32, exact: bool) -> SearchReport {
        SearchReport {
            best_move: Square::new(2, 3),
            score,
            exact,
            depth: 8,
            confidence: None,
            pv: Vec::new(),
            nodes: 0,
            elapsed: std::time::Duration::ZERO,
            threads: othello_engine::ThreadCounts::default(),
        }
    }

    #[test]
    fn a_hint_says_how_far_its_search_saw() {
        let mut report = report(4, false);
        assert_eq!(Suggestion::of(&report).reach.to_string(), "8 moves ahead");
        report.depth = 22;
        report.confidence = Some(87);
        assert_eq!(
            Suggestion::of(&report).reach.to_string(),
            "to the end, each cut 87% sure"
        );
    }

    #[test]
    fn the_sentence_for_each_kind_of_value() {
        let cases = [
            (
                report(2, false),
                "Hint: d3: +2 discs for you (8 moves ahead).",
            ),
            (
                report(-1, false),
                "Hint: d3: -1 disc for you (8 moves ahead).",
            ),
            (report(0, false), "Hint: d3: even (8 moves ahead)."),
            (
                report(4, true),
                "Hint: d3: you win by 4 discs with perfect play.",
            ),
            (
                report(-1, true),
                "Hint: d3: you lose by 1 disc with perfect play.",
            ),
            (report(0, true), "Hint: d3: a draw with perfect play."),
        ];
        for (report, sentence) in cases {
            let hint = Suggestion::of(&report);
            assert_eq!(hint.sentence(), sentence);
        }
    }
}
