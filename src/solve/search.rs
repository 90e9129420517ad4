//! Searching one position (and with `--all-moves` each of its moves) with a progress display,
//! and the Ctrl-C flag that cuts a search short.

use std::io::{self, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::ProgressBar;

use othello::Game;

use othello_engine::{Engine, EngineError, SearchReport};

use super::report::iteration_line;
use super::{Entry, Finding, Plan, SolveError, Solved};
use crate::rate::per_second;
use othello_io::progress;

/// A flag raised by the first Ctrl-C (or SIGTERM), which stops the search under way so that its
/// best result so far is printed; a second one ends the program at once.
pub(super) fn interrupt_flag() -> &'static AtomicBool {
    static INTERRUPTED: AtomicBool = AtomicBool::new(false);
    // Without a handler (one is already set), Ctrl-C ends the program as usual.
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    });
    &INTERRUPTED
}

/// Searches `entry` (and with `--all-moves` each of its moves), showing progress on standard
/// error and, with `--verbose`, one line per completed iteration on `out`.
pub(super) fn solve_one(
    engine: &mut Engine,
    entry: &Entry,
    plan: &Plan,
    out: &mut impl Write,
) -> Result<Solved, SolveError> {
    let game = &entry.game;
    if game.is_over() {
        return Ok(Solved {
            finding: Finding::Over(plan.scoring.final_margin(game, entry.side)),
            moves: Vec::new(),
        });
    }
    let finding = match search(engine, game, &entry.label, plan, out)? {
        Ok(report) => Finding::Searched(report),
        Err(error) => Finding::Failed(error),
    };
    let mut moves = Vec::new();
    // An OBF line's move scores are checked as with --all-moves.
    let listed_moves = entry
        .listed
        .as_ref()
        .is_some_and(|listed| listed.obf && !listed.moves.is_empty());
    if (plan.all_moves || listed_moves) && matches!(finding, Finding::Searched(_)) {
        let label = format!("{} all moves", entry.label);
        let valued = with_progress(engine, &label, |engine, progress| {
            engine.move_values(game, &plan.limits, plan.stop, &mut |values, total| {
                let last = values.last().expect("a move was just valued");
                progress.status(format!(
                    "{} of {total}: {} {:+}",
                    values.len(),
                    last.square,
                    last.score
                ));
            })
        });
        // The limits were good for the position's own search, so they are for its moves.
        moves = valued.unwrap_or_default();
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
    }
    Ok(Solved { finding, moves })
}

/// One search with its progress display (see [`with_progress`]); with `--verbose`, each
/// completed iteration is also a line on `out`.
fn search(
    engine: &mut Engine,
    game: &Game,
    label: &str,
    plan: &Plan,
    out: &mut dyn Write,
) -> Result<Result<SearchReport, EngineError>, SolveError> {
    let mut written = Ok(());
    let result = with_progress(engine, label, |engine, progress| {
        engine.search_with(game, &plan.limits, plan.stop, &mut |report| {
            progress.status(if report.exact {
                format!("exact: {} {:+}", report.best_move, report.score)
            } else {
                format!(
                    "best so far {} {:+} (depth {})",
                    report.best_move,
                    report.score,
                    report.depth_text()
                )
            });
            if plan.verbose && written.is_ok() {
                written = progress.print(out, &iteration_line(report));
            }
        })
    });
    written.map_err(SolveError::Write)?;
    Ok(result)
}

/// The progress display of a search under way: a spinner on standard error.
struct Progress<'a> {
    spinner: &'a ProgressBar,
    last: &'a Mutex<String>,
}

impl Progress<'_> {
    /// Shows `text` as the latest news (the last completed iteration, say).
    fn status(&self, text: String) {
        if let Ok(mut last) = self.last.lock() {
            *last = text;
        }
    }

    /// Writes `line` to `out` with the spinner out of the way.
    fn print(&self, out: &mut dyn Write, line: &str) -> io::Result<()> {
        self.spinner
            .suspend(|| out.write_all(line.as_bytes()).and_then(|()| out.flush()))
    }
}

/// Runs `work` with a spinner on standard error that shows `label`, the latest status and keeps
/// counting the positions the engine visits while the next iteration (or the exact solve) runs.
fn with_progress<T>(
    engine: &mut Engine,
    label: &str,
    work: impl FnOnce(&mut Engine, &Progress) -> T,
) -> T {
    let spinner = progress::spinner(format!("{label}: searching"));
    let last = Mutex::new(String::from("searching"));
    let visited = engine.visited();
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        if !spinner.is_hidden() {
            scope.spawn(|| {
                let started = Instant::now();
                while !done.load(Ordering::Relaxed) {
                    let nodes = visited.load(Ordering::Relaxed);
                    let last = last.lock().map(|text| text.clone()).unwrap_or_default();
                    spinner.set_message(format!(
                        "{label}: {last}; {} nodes, {} N/s",
                        nodes,
                        per_second(nodes, started.elapsed())
                    ));
                    std::thread::sleep(PROGRESS_POLL);
                }
            });
        }
        let progress = Progress {
            spinner: &spinner,
            last: &last,
        };
        let result = work(engine, &progress);
        done.store(true, Ordering::Relaxed);
        result
    });
    spinner.finish_and_clear();
    result
}

/// How often the progress display reads the engine's position count.
const PROGRESS_POLL: Duration = Duration::from_millis(100);
