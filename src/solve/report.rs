//! What `othello solve` prints: the table or the `--verbose` blocks, the verdict against the
//! listed result, and the totals.

use std::fmt::Write as _;
use std::time::Duration;

use othello::{Square, WinRule};
use othello_engine::{MoveValue, Scoring, SearchReport, ThreadCounts};
use othello_records::ffo::Listed;

use super::{Entry, Finding, Solved};
use crate::rate::per_second;

pub(super) fn pv_text(pv: &[Square]) -> String {
    pv.iter()
        .map(Square::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// How a result compares with the one the input lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// Nothing is listed.
    Unlisted,
    /// An exact result that agrees: the score, a listed best move, and the listed move scores
    /// (with `--all-moves`).
    Match,
    /// An exact result that disagrees.
    Different,
    /// A search cut short (by a limit or Ctrl-C): its move and estimate are not checked
    /// against the listed exact result; whether its move is a listed best one.
    NotExact { best_listed: bool },
}

impl Verdict {
    pub(super) fn of(entry: &Entry, solved: &Solved) -> Verdict {
        let Some(listed) = &entry.listed else {
            return Verdict::Unlisted;
        };
        let agrees = match &solved.finding {
            Finding::Searched(report) if !report.exact => {
                return Verdict::NotExact {
                    best_listed: listed.best.contains(&report.best_move),
                };
            }
            Finding::Searched(report) => {
                report.score == listed.score
                    && (listed.best.is_empty() || listed.best.contains(&report.best_move))
            }
            Finding::Over(margin) => *margin == listed.score && listed.best.is_empty(),
            Finding::Failed(_) => false,
        };
        if agrees && differing_moves(listed, &solved.moves).is_empty() {
            Verdict::Match
        } else {
            Verdict::Different
        }
    }

    /// The table's word for it.
    fn word(&self) -> &'static str {
        match self {
            Verdict::Unlisted => "-",
            Verdict::Match => "ok",
            Verdict::Different => "DIFFERENT",
            Verdict::NotExact { best_listed: true } => "not exact, move ok",
            Verdict::NotExact { best_listed: false } => "not exact, other move",
        }
    }
}

/// The listed move scores that the exact move scores of `moves` contradict (a listed move that
/// is not legal included), with the score found (`None` for an illegal one).
pub(super) fn differing_moves(
    listed: &Listed,
    moves: &[MoveValue],
) -> Vec<(Square, i32, Option<i32>)> {
    if moves.is_empty() {
        return Vec::new();
    }
    listed
        .moves
        .iter()
        .filter_map(
            |&(square, score)| match moves.iter().find(|m| m.square == square) {
                Some(found) if found.exact && found.score != score => {
                    Some((square, score, Some(found.score)))
                }
                Some(_) => None,
                None => Some((square, score, None)),
            },
        )
        .collect()
}

/// `--all-moves`: every move with its score, `?` after an estimate, and where the input lists a
/// different score, that score.
pub(super) fn moves_text(entry: &Entry, moves: &[MoveValue]) -> String {
    let differing = entry
        .listed
        .as_ref()
        .map(|listed| differing_moves(listed, moves))
        .unwrap_or_default();
    moves
        .iter()
        .map(|m| {
            let mark = if m.exact { "" } else { "?" };
            let listed = differing
                .iter()
                .find(|&&(square, _, _)| square == m.square)
                .map_or_else(String::new, |&(_, score, _)| format!(" (listed {score:+})"));
            format!("{} {:+}{mark}{listed}", m.square, m.score)
        })
        .chain(
            differing
                .iter()
                .filter(|(_, _, found)| found.is_none())
                .map(|(square, score, _)| format!("{square} not legal (listed {score:+})")),
        )
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn describe(entry: &Entry) -> String {
    let game = &entry.game;
    let dims = game.board().dims();
    let win = match game.win_rule() {
        WinRule::MostDiscs => "most discs wins",
        WinRule::FewestDiscs => "fewest discs wins",
    };
    let to_move = match game.turn() {
        Some(color) => format!("{} to move", color.name().to_lowercase()),
        None => "game over".to_owned(),
    };
    let line = entry
        .line
        .map_or_else(String::new, |line| format!(" (line {line})"));
    format!(
        "{}{line}: {dims} {}, {win}, {to_move}, {} empties",
        entry.label,
        game.rules(),
        game.board().empties()
    )
}

/// The note for a listed FFO result that differs when only discs are counted.
const SCORING_NOTE: &str = "FFO scores count empties for the winner: use --empties-to-winner";

/// `--verbose`: the detailed block of one position (after its description and iterations).
pub(super) fn block(entry: &Entry, solved: &Solved, verdict: &Verdict, scoring: Scoring) -> String {
    let mut text = String::new();
    match &solved.finding {
        Finding::Over(margin) => {
            let _ = writeln!(text, "  nobody can move: final score {margin:+}");
        }
        Finding::Failed(error) => {
            let _ = writeln!(text, "  not searched: {error}");
        }
        Finding::Searched(report) => {
            let kind = if report.exact {
                "exact".to_owned()
            } else if report.confidence.is_some() {
                format!("selective solve {}", report.depth_text())
            } else {
                format!("evaluation at depth {}", report.depth)
            };
            let _ = writeln!(text, "  best move  {}", report.best_move);
            let _ = writeln!(text, "  score      {:+} ({kind})", report.score);
            let _ = writeln!(text, "  pv         {}", pv_text(&report.pv));
            let _ = writeln!(
                text,
                "  nodes      {} in {:.3} s, {} nodes/s",
                report.nodes,
                report.elapsed.as_secs_f64(),
                per_second(report.nodes, report.elapsed)
            );
            if report.threads.helpers > 0 {
                let counts = threads_text(&report.threads, report.nodes, report.elapsed);
                let _ = writeln!(text, "  threads    {counts}");
            }
        }
    }
    if !solved.moves.is_empty() {
        let _ = writeln!(text, "  moves      {}", moves_text(entry, &solved.moves));
    }
    if let Some(listed) = &entry.listed {
        let best: Vec<String> = listed.best.iter().map(Square::to_string).collect();
        let word = match verdict {
            Verdict::Match => "match".to_owned(),
            Verdict::Different if scoring == Scoring::DiscsOnly => {
                format!("DIFFERENT ({SCORING_NOTE})")
            }
            Verdict::Different => "DIFFERENT".to_owned(),
            Verdict::NotExact { best_listed } => format!(
                "not exact, so only the move is compared: {}",
                if *best_listed {
                    "a listed best move"
                } else {
                    "not a listed best move"
                }
            ),
            Verdict::Unlisted => String::new(),
        };
        let _ = writeln!(
            text,
            "  listed     {} {:+}: {word}",
            best.join(","),
            listed.score
        );
    }
    text
}

pub(super) fn table_header(label_width: usize) -> String {
    format!(
        "{:<label_width$}  empties   depth  score    time (s)          nodes       N/s  listed                 principal variation",
        "#"
    )
}

/// The table row of one position, with a second line of move scores for `--all-moves`.
pub(super) fn table_row(
    entry: &Entry,
    solved: &Solved,
    verdict: &Verdict,
    label_width: usize,
) -> String {
    let empties = entry.game.board().empties();
    let verdict = verdict.word();
    let mut row = match &solved.finding {
        Finding::Over(margin) => format!(
            "{:<label_width$}  {empties:>7}  {:>6}  {margin:>+5}  {:>10}  {:>13}  {:>8}  {verdict:<21}  -",
            entry.label, "over", "-", "-", "-",
        ),
        Finding::Failed(error) => format!("{:<label_width$}  {empties:>7}  {error}", entry.label),
        Finding::Searched(report) => {
            let depth = report.depth_text();
            format!(
                "{:<label_width$}  {empties:>7}  {depth:>6}  {:>+5}  {:>10.3}  {:>13}  {:>8}  {verdict:<21}  {}",
                entry.label,
                report.score,
                report.elapsed.as_secs_f64(),
                report.nodes,
                per_second(report.nodes, report.elapsed),
                pv_text(&report.pv)
            )
        }
    };
    row.push('\n');
    if !solved.moves.is_empty() {
        let _ = writeln!(
            row,
            "{:<label_width$}  moves: {}",
            "",
            moves_text(entry, &solved.moves)
        );
    }
    row
}

/// Sums over all positions.
#[derive(Default)]
pub(super) struct Totals {
    positions: usize,
    exact: usize,
    nodes: u64,
    elapsed: Duration,
    /// Positions with a listed result.
    pub(super) listed: usize,
    matching: usize,
    /// Positions whose exact result differs from the listed one.
    pub(super) different: usize,
    not_exact: usize,
    /// How the threads shared the work, summed over the positions.
    threads: ThreadCounts,
}

/// How the threads shared a search of `nodes` in `elapsed`, as `--verbose` shows it: the
/// helpers' busy share, the splits, the calling thread's waits at their ends, the nodes
/// searched after another thread's cut-off and those searched again.
fn threads_text(counts: &ThreadCounts, nodes: u64, elapsed: Duration) -> String {
    let share = |part: u64| {
        if nodes == 0 {
            0.0
        } else {
            100.0 * part as f64 / nodes as f64
        }
    };
    format!(
        "{}: helpers busy {:.1}% of the time, {} splits, {:.3} s waiting at their ends, \
         {} nodes wasted ({:.2}%), {} searched again ({:.2}%)",
        counts.helpers + 1,
        100.0 * counts.helpers_busy_share(elapsed),
        counts.splits,
        counts.waiting.as_secs_f64(),
        counts.wasted_nodes,
        share(counts.wasted_nodes),
        counts.researched_nodes,
        share(counts.researched_nodes)
    )
}

impl Totals {
    pub(super) fn add(&mut self, solved: &Solved, verdict: &Verdict) {
        self.positions += 1;
        self.exact += usize::from(solved.exact());
        let (nodes, elapsed) = solved.cost();
        self.nodes += nodes;
        self.elapsed += elapsed;
        if let Finding::Searched(report) = &solved.finding {
            let (sum, add) = (&mut self.threads, &report.threads);
            sum.helpers = sum.helpers.max(add.helpers);
            sum.splits += add.splits;
            sum.helpers_busy += add.helpers_busy;
            sum.waiting += add.waiting;
            sum.wasted_nodes += add.wasted_nodes;
            sum.researched_nodes += add.researched_nodes;
        }
        match verdict {
            Verdict::Unlisted => return,
            Verdict::Match => self.matching += 1,
            Verdict::Different => self.different += 1,
            Verdict::NotExact { .. } => self.not_exact += 1,
        }
        self.listed += 1;
    }

    pub(super) fn summary(&self, table: bool, label_width: usize, scoring: Scoring) -> String {
        let mut text = String::new();
        if table {
            let _ = writeln!(
                text,
                "{:<label_width$}  {:>7}  {:>6}  {:>5}  {:>10.3}  {:>13}  {:>8}  {}",
                "total",
                "",
                "",
                "",
                self.elapsed.as_secs_f64(),
                self.nodes,
                per_second(self.nodes, self.elapsed),
                self.verdict()
            );
        }
        if !table && self.positions > 1 {
            let _ = writeln!(
                text,
                "{} positions, {} solved exactly: {} nodes in {:.3} s, {} nodes/s; {}",
                self.positions,
                self.exact,
                self.nodes,
                self.elapsed.as_secs_f64(),
                per_second(self.nodes, self.elapsed),
                self.verdict()
            );
            if self.threads.helpers > 0 {
                let counts = threads_text(&self.threads, self.nodes, self.elapsed);
                let _ = writeln!(text, "threads {counts}");
            }
        }
        if table && self.different > 0 && scoring == Scoring::DiscsOnly {
            let _ = writeln!(text, "note: {SCORING_NOTE}");
        }
        text
    }

    fn verdict(&self) -> String {
        if self.listed == 0 {
            return "no listed results".to_owned();
        }
        let mut text = format!("{} of {} match", self.matching, self.listed);
        if self.not_exact > 0 {
            let _ = write!(text, ", {} not exact", self.not_exact);
        }
        text
    }
}

/// `--verbose`: one completed iteration.
pub(super) fn iteration_line(report: &SearchReport) -> String {
    let depth = report.iteration_text();
    format!(
        "  {depth:<9} {:>+4}  {:>9.3} s {:>13} nodes  {}\n",
        report.score,
        report.elapsed.as_secs_f64(),
        report.nodes,
        pv_text(&report.pv)
    )
}
