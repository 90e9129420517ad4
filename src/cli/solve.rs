//! `othello solve`: solves positions exactly (or searches them within limits) and prints a
//! table, one row per position (its depth or `exact`, score, time, nodes, speed, the check
//! against a listed result and the principal variation) and a total row; or with `--verbose`
//! a block per position with a line per completed iteration.
//!
//! Input, from a file or standard input: protocol setups (the header and grid the console
//! protocol starts with), or 8x8 position lines in the FFO format of `fixtures/ffo/`
//! (`[id] board side [empties best_moves score ...]`), in any mix; blank lines and lines
//! starting with `#` are skipped. A protocol setup may be followed by move lines. Game records
//! are solved at the position after their last move.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use thiserror::Error;

use othello::ffo::{self, Listed, ProblemError};
use othello::record::{self, Format, ReadOptions, RecordError};
use othello::{
    Color, Engine, EngineConfig, EngineError, Evaluation, Game, Limits, RuleSet, Scoring,
    SearchReport, Square, WinRule,
};

use super::input::{ReadError, read_bytes};
use super::rate::per_second;
use super::{RulesArg, progress, threads_parser};

/// FFO #40-#59, the positions `--bench` solves (#40-#49).
const FFO: &str = include_str!("../../fixtures/ffo/ffo-40-59.txt");
/// The FFO positions of the benchmark.
const BENCH_IDS: std::ops::RangeInclusive<u32> = 40..=49;

/// An evaluation as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EvalArg {
    /// The trained pattern evaluation.
    Trained,
    /// The hand-made evaluation.
    Classic,
}

/// Arguments of `othello solve`.
#[derive(Debug, Args)]
#[command(after_help = "\
Input: protocol setups (rows, columns, first player, win rule, grid, then optionally ROW COL
move lines) or 8x8 FFO lines (`[id] board side [empties best_moves score move_scores]`, board
a1..h8 with X black, O white, - empty), in any mix; blank lines and lines starting with # are
skipped. Game records (move lists, GGF, WTHOR) are solved after their last move.

Output: one row per position (depth or exact, score, time, nodes, nodes per second, the check
against the listed result, principal variation) and a total row. A search cut short by --time,
--depth or Ctrl-C is an estimate: it is marked `not exact` and not counted as a difference.

Exit status: 0 done, 1 an exact result differs from the one listed in the input (or output
failed), 2 bad input or usage (including a file that cannot be read), 130 interrupted.")]
pub struct SolveArgs {
    /// File of positions; standard input if omitted or `-`.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,

    /// File of positions (the same as FILE).
    #[arg(long = "from", value_name = "FILE", conflicts_with = "file")]
    from: Option<PathBuf>,

    /// Stop each search after SECS seconds and print the best move found so far.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    time: Option<Duration>,

    /// Search N plies deep; positions with more empties than N are not solved exactly.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=255))]
    depth: Option<u32>,

    /// Search threads.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = threads_parser())]
    threads: u16,

    /// Transposition table size in MiB, at most half of the machine's memory [default: from 1
    /// to 256, by the empties of the largest position].
    #[arg(long, value_name = "MB", value_parser = super::parse_hash)]
    hash: Option<u32>,

    /// Score finished games the FFO way: empty squares go to the winner (the listed FFO
    /// scores use this). Without it only discs count, as in the protocol.
    #[arg(long)]
    empties_to_winner: bool,

    /// Rule set for protocol setups (FFO lines are always FULL).
    #[arg(long, value_enum, default_value_t = RulesArg::Full)]
    rules: RulesArg,

    /// The midgame evaluation that orders the moves: the trained patterns (8x8 FULL, most
    /// discs wins; the classic one elsewhere) or the classic hand-made one. Exact scores do
    /// not depend on it.
    #[arg(long, value_enum, default_value_t = EvalArg::Trained)]
    eval: EvalArg,

    /// Without FILE, solve the built-in FFO #40-#49 benchmark (with --empties-to-winner);
    /// FILE `-` reads standard input.
    #[arg(long)]
    bench: bool,

    /// A block per position instead of a table row, with a line per completed iteration.
    #[arg(long, short)]
    verbose: bool,

    /// Also score every legal move (each searched within the limits), and check the move
    /// scores an FFO line lists.
    #[arg(long)]
    all_moves: bool,
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("expected a number of seconds, found {text:?}"))?;
    if seconds.is_nan() || seconds <= 0.0 {
        return Err(format!(
            "expected a positive number of seconds, found {text:?}"
        ));
    }
    Duration::try_from_secs_f64(seconds).map_err(|_| format!("{text:?} seconds is too long"))
}

/// Why `othello solve` stopped.
#[derive(Debug, Error)]
pub enum SolveError {
    /// The input file could not be read.
    #[error(transparent)]
    Open(#[from] ReadError),
    /// A protocol setup or an FFO line in the input is malformed.
    #[error("{path}: {source}")]
    Input {
        /// The input's name.
        path: String,
        /// What is wrong, and on which line.
        source: ProblemError,
    },
    /// A game record in the input is malformed.
    #[error("{path}: {source}")]
    Record {
        /// The input's name.
        path: String,
        /// What is wrong, and where.
        source: RecordError,
    },
    /// The input holds no position.
    #[error("{path}: no position found (expected protocol setups or FFO lines)")]
    Empty {
        /// The input's name.
        path: String,
    },
    /// The transposition table's memory could not be had.
    #[error("{0}; use a smaller --hash")]
    Memory(EngineError),
    /// Standard output could not be written.
    #[error("cannot write standard output: {0}")]
    Write(io::Error),
    /// Interrupted (Ctrl-C) after printing the results so far.
    #[error("interrupted")]
    Interrupted,
    /// Some results differ from those listed in the input.
    #[error("{mismatches} of {listed} results differ from the listed ones")]
    Mismatch {
        /// Positions whose result differs.
        mismatches: usize,
        /// Positions with a listed result.
        listed: usize,
    },
}

impl SolveError {
    /// 2 for bad input, 1 for a failure while running or a mismatch.
    pub fn exit_status(&self) -> u8 {
        match self {
            SolveError::Open(_)
            | SolveError::Input { .. }
            | SolveError::Record { .. }
            | SolveError::Empty { .. }
            | SolveError::Memory(_) => 2,
            SolveError::Write(_) | SolveError::Mismatch { .. } => 1,
            SolveError::Interrupted => 130,
        }
    }

    /// Whether standard output was closed by its reader (not worth a message).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, SolveError::Write(error) if error.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// One position to solve.
#[derive(Clone, Debug)]
struct Entry {
    /// `#40` for FFO lines with an id, else `position N` or `game N`.
    label: String,
    /// 1-based line where it starts (unknown for a game record).
    line: Option<usize>,
    game: Game,
    listed: Option<Listed>,
}

/// How a position is searched and shown.
struct Plan<'a> {
    limits: Limits,
    scoring: Scoring,
    verbose: bool,
    all_moves: bool,
    stop: &'a AtomicBool,
}

/// Runs `othello solve`.
pub fn run(args: &SolveArgs) -> Result<(), SolveError> {
    let path = args.from.as_ref().or(args.file.as_ref());
    let (name, entries) = match path {
        None if args.bench => ("FFO #40-#49".to_owned(), bench_positions()),
        _ => {
            let (name, bytes) = read_input(path)?;
            let entries = parse_input(&bytes, args.rules.into(), &name)?;
            (name, entries)
        }
    };
    if entries.is_empty() {
        return Err(SolveError::Empty { path: name });
    }
    let scoring = if args.empties_to_winner || (args.bench && path.is_none()) {
        Scoring::EmptiesToWinner
    } else {
        Scoring::DiscsOnly
    };
    let limits = Limits {
        depth: args.depth,
        nodes: None,
        time: args.time,
    };
    let largest = entries
        .iter()
        .map(|entry| entry.game.board().empties())
        .max()
        .unwrap_or(0);
    let hash_mb = match args.hash {
        Some(requested) => requested as usize,
        None => default_hash_mb(largest),
    };
    let mut engine = Engine::try_new(EngineConfig {
        hash_mb,
        threads: args.threads as usize,
        seed: 0,
    })
    .map_err(SolveError::Memory)?;
    engine.set_scoring(scoring);
    engine.set_evaluation(match args.eval {
        EvalArg::Trained => Evaluation::Trained,
        EvalArg::Classic => Evaluation::Classic,
    });
    warn_beyond_reach(&entries, &limits);
    let plan = Plan {
        limits,
        scoring,
        verbose: args.verbose,
        all_moves: args.all_moves,
        stop: interrupt_flag(),
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let label_width = entries
        .iter()
        .map(|entry| entry.label.len())
        .max()
        .unwrap_or(0)
        .max("total".len());
    let mut totals = Totals::default();
    if !plan.verbose {
        writeln!(out, "{}", table_header(label_width)).map_err(SolveError::Write)?;
    }
    for entry in &entries {
        if plan.stop.load(Ordering::Relaxed) {
            break;
        }
        if plan.verbose {
            writeln!(out, "{}", describe(entry)).map_err(SolveError::Write)?;
            out.flush().map_err(SolveError::Write)?;
        }
        let solved = solve_one(&mut engine, entry, &plan, &mut out)?;
        let verdict = Verdict::of(entry, &solved);
        totals.add(&solved, &verdict);
        let text = if plan.verbose {
            block(entry, &solved, &verdict, scoring)
        } else {
            table_row(entry, &solved, &verdict, label_width)
        };
        out.write_all(text.as_bytes()).map_err(SolveError::Write)?;
        out.flush().map_err(SolveError::Write)?;
    }
    let summary = totals.summary(!plan.verbose, label_width, scoring);
    out.write_all(summary.as_bytes())
        .map_err(SolveError::Write)?;
    out.flush().map_err(SolveError::Write)?;
    if plan.stop.load(Ordering::Relaxed) {
        return Err(SolveError::Interrupted);
    }
    if totals.different > 0 {
        return Err(SolveError::Mismatch {
            mismatches: totals.different,
            listed: totals.listed,
        });
    }
    Ok(())
}

fn read_input(path: Option<&PathBuf>) -> Result<(String, Vec<u8>), SolveError> {
    let path = path.map_or(Path::new("-"), PathBuf::as_path);
    Ok(read_bytes(path, "standard input")?)
}

fn bench_positions() -> Vec<Entry> {
    parse_positions(FFO.as_bytes(), RuleSet::Full, "FFO")
        .expect("the FFO fixture is well formed")
        .into_iter()
        .filter(|entry| {
            entry.label[1..]
                .parse::<u32>()
                .is_ok_and(|id| BENCH_IDS.contains(&id))
        })
        .collect()
}

/// What searching one position found (not `othello::Outcome`, the end of a game).
enum Finding {
    Searched(SearchReport),
    /// Nobody can move; the final margin for the player named first.
    Over(i32),
    /// The engine refused the search.
    Failed(EngineError),
}

/// The score of one legal move (`--all-moves`), from the point of view of the player to move.
struct MoveScore {
    square: Square,
    score: i32,
    exact: bool,
}

/// A searched position: the search's finding, and with `--all-moves` the score of every move.
struct Solved {
    finding: Finding,
    moves: Vec<MoveScore>,
}

impl Solved {
    /// Whether the result is exact (perfect play), the final score of a finished game
    /// included.
    fn exact(&self) -> bool {
        match &self.finding {
            Finding::Searched(report) => report.exact,
            Finding::Over(_) => true,
            Finding::Failed(_) => false,
        }
    }

    /// Positions visited and time taken, by the search and the move searches.
    fn cost(&self) -> (u64, Duration) {
        match &self.finding {
            Finding::Searched(report) => (report.nodes, report.elapsed),
            _ => (0, Duration::ZERO),
        }
    }
}

/// The table size when `--hash` is not given: 1 MiB up to 10 empties, doubling with each empty
/// up to 256 MiB from 18 empties, so that small solves start at once (allocating and clearing
/// the table is most of their time) and large ones get the table they need.
fn default_hash_mb(empties: u32) -> usize {
    1 << empties.saturating_sub(10).min(8)
}

/// Empties beyond which an exact solve cannot be expected to end (the 6x6 start, 32 empties,
/// takes minutes; each further empty multiplies the work by about 2 to 3).
const EXACT_REACH: u32 = 32;

/// Says on standard error, before anything runs, which positions are far beyond an exact solve
/// when no limit is given.
fn warn_beyond_reach(entries: &[Entry], limits: &Limits) {
    if limits.depth.is_some() || limits.time.is_some() {
        return;
    }
    for entry in entries {
        let empties = entry.game.board().empties();
        if empties > EXACT_REACH && !entry.game.is_over() {
            let line = entry
                .line
                .map_or_else(String::new, |line| format!(" (line {line})"));
            eprintln!(
                "othello: {}{line} has {empties} empties: an exact solve that far from the end \
                 will not finish; limit it with --time SECS or --depth N (Ctrl-C stops it and \
                 prints the best move so far)",
                entry.label
            );
        }
    }
}

/// A flag raised by the first Ctrl-C (or SIGTERM), which stops the search under way so that its
/// best result so far is printed; a second one ends the program at once.
fn interrupt_flag() -> &'static AtomicBool {
    static INTERRUPTED: AtomicBool = AtomicBool::new(false);
    // Without a handler (one is already set), Ctrl-C ends the program as usual.
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    });
    &INTERRUPTED
}

/// The final margin of a finished game for `player`, scored as the engine scores it.
fn final_margin(game: &Game, player: Color, scoring: Scoring) -> i32 {
    let margin = game.margin(player);
    match scoring {
        Scoring::DiscsOnly => margin,
        Scoring::EmptiesToWinner => margin + margin.signum() * game.board().empties() as i32,
    }
}

/// Searches `entry` (and with `--all-moves` each of its moves), showing progress on standard
/// error and, with `--verbose`, one line per completed iteration on `out`.
fn solve_one(
    engine: &mut Engine,
    entry: &Entry,
    plan: &Plan,
    out: &mut impl Write,
) -> Result<Solved, SolveError> {
    let game = &entry.game;
    let Some(to_move) = game.turn() else {
        return Ok(Solved {
            finding: Finding::Over(final_margin(game, game.first_player(), plan.scoring)),
            moves: Vec::new(),
        });
    };
    let finding = match search(engine, game, &entry.label, plan, out)? {
        Ok(report) => Finding::Searched(report),
        Err(error) => Finding::Failed(error),
    };
    let mut moves = Vec::new();
    if plan.all_moves && matches!(finding, Finding::Searched(_)) {
        let legal = game.legal_moves();
        for (number, &square) in legal.iter().enumerate() {
            if plan.stop.load(Ordering::Relaxed) {
                break;
            }
            let mut child = game.clone();
            if child.play(square).is_err() {
                continue;
            }
            let label = format!(
                "{} {square} ({} of {})",
                entry.label,
                number + 1,
                legal.len()
            );
            let (score, exact) = match child.turn() {
                None => (final_margin(&child, to_move, plan.scoring), true),
                Some(turn) => match search(engine, &child, &label, plan, &mut io::sink())? {
                    Ok(report) if turn == to_move => (report.score, report.exact),
                    Ok(report) => (-report.score, report.exact),
                    Err(_) => continue,
                },
            };
            moves.push(MoveScore {
                square,
                score,
                exact,
            });
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
    }
    Ok(Solved { finding, moves })
}

/// One search with its progress display: a spinner on standard error that shows the last
/// completed iteration and keeps counting positions while the next one (or the exact solve)
/// runs; with `--verbose`, each completed iteration is also a line on `out`.
fn search(
    engine: &mut Engine,
    game: &Game,
    label: &str,
    plan: &Plan,
    out: &mut dyn Write,
) -> Result<Result<SearchReport, EngineError>, SolveError> {
    let spinner = progress::spinner(format!("{label}: searching"));
    let last = Mutex::new(String::from("searching"));
    let visited = engine.visited();
    let done = AtomicBool::new(false);
    let mut written = Ok(());
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
        let mut show = |report: &SearchReport| {
            if let Ok(mut text) = last.lock() {
                *text = if report.exact {
                    format!("exact: {} {:+}", report.best_move, report.score)
                } else {
                    format!(
                        "best so far {} {:+} (depth {})",
                        report.best_move, report.score, report.depth
                    )
                };
            }
            if plan.verbose && written.is_ok() {
                let line = iteration_line(report);
                written =
                    spinner.suspend(|| out.write_all(line.as_bytes()).and_then(|()| out.flush()));
            }
        };
        let result = engine.search_with(game, &plan.limits, plan.stop, &mut show);
        done.store(true, Ordering::Relaxed);
        result
    });
    spinner.finish_and_clear();
    written.map_err(SolveError::Write)?;
    Ok(result)
}

/// How often the progress display reads the engine's position count.
const PROGRESS_POLL: Duration = Duration::from_millis(100);

/// `--verbose`: one completed iteration.
fn iteration_line(report: &SearchReport) -> String {
    let depth = if report.exact {
        "exact".to_owned()
    } else {
        format!("depth {}", report.depth)
    };
    format!(
        "  {depth:<9} {:>+4}  {:>9.3} s {:>13} nodes  {}\n",
        report.score,
        report.elapsed.as_secs_f64(),
        report.nodes,
        pv_text(&report.pv)
    )
}

fn pv_text(pv: &[Square]) -> String {
    pv.iter()
        .map(Square::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// How a result compares with the one the input lists.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Verdict {
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
    fn of(entry: &Entry, solved: &Solved) -> Verdict {
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
                report.score == listed.score && listed.best.contains(&report.best_move)
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
fn differing_moves(listed: &Listed, moves: &[MoveScore]) -> Vec<(Square, i32, Option<i32>)> {
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
fn moves_text(entry: &Entry, moves: &[MoveScore]) -> String {
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

fn describe(entry: &Entry) -> String {
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
fn block(entry: &Entry, solved: &Solved, verdict: &Verdict, scoring: Scoring) -> String {
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

fn table_header(label_width: usize) -> String {
    format!(
        "{:<label_width$}  empties  depth  score    time (s)          nodes       N/s  listed                 principal variation",
        "#"
    )
}

/// The table row of one position, with a second line of move scores for `--all-moves`.
fn table_row(entry: &Entry, solved: &Solved, verdict: &Verdict, label_width: usize) -> String {
    let empties = entry.game.board().empties();
    let verdict = verdict.word();
    let mut row = match &solved.finding {
        Finding::Over(margin) => format!(
            "{:<label_width$}  {empties:>7}  {:>5}  {margin:>+5}  {:>10}  {:>13}  {:>8}  {verdict:<21}  -",
            entry.label, "over", "-", "-", "-",
        ),
        Finding::Failed(error) => format!("{:<label_width$}  {empties:>7}  {error}", entry.label),
        Finding::Searched(report) => {
            let depth = if report.exact {
                "exact".to_owned()
            } else {
                report.depth.to_string()
            };
            format!(
                "{:<label_width$}  {empties:>7}  {depth:>5}  {:>+5}  {:>10.3}  {:>13}  {:>8}  {verdict:<21}  {}",
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
struct Totals {
    positions: usize,
    exact: usize,
    nodes: u64,
    elapsed: Duration,
    listed: usize,
    matching: usize,
    different: usize,
    not_exact: usize,
}

impl Totals {
    fn add(&mut self, solved: &Solved, verdict: &Verdict) {
        self.positions += 1;
        self.exact += usize::from(solved.exact());
        let (nodes, elapsed) = solved.cost();
        self.nodes += nodes;
        self.elapsed += elapsed;
        match verdict {
            Verdict::Unlisted => return,
            Verdict::Match => self.matching += 1,
            Verdict::Different => self.different += 1,
            Verdict::NotExact { .. } => self.not_exact += 1,
        }
        self.listed += 1;
    }

    fn summary(&self, table: bool, label_width: usize, scoring: Scoring) -> String {
        let mut text = String::new();
        if table {
            let _ = writeln!(
                text,
                "{:<label_width$}  {:>7}  {:>5}  {:>5}  {:>10.3}  {:>13}  {:>8}  {}",
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

/// The positions of the input: after the last move of each game for game records (move lists,
/// GGF, WTHOR), else protocol setups and FFO lines.
fn parse_input(bytes: &[u8], rules: RuleSet, name: &str) -> Result<Vec<Entry>, SolveError> {
    let is_record = match Format::detect(bytes) {
        Format::Ggf | Format::Wthor => true,
        // Only a file with something in it: an empty one is reported as such below.
        Format::MoveList => String::from_utf8_lossy(bytes)
            .lines()
            .any(|line| !line.trim().is_empty() && !line.trim().starts_with('#')),
        Format::Obf | Format::Protocol => false,
    };
    if !is_record {
        return parse_positions(bytes, rules, name);
    }
    let records =
        record::read(bytes, &ReadOptions { rules }).map_err(|source| SolveError::Record {
            path: name.to_owned(),
            source,
        })?;
    Ok(records
        .iter()
        .enumerate()
        .map(|(index, record)| Entry {
            label: format!("game {}", index + 1),
            line: None,
            game: record.final_game().clone(),
            listed: None,
        })
        .collect())
}

/// The positions of the input, labelled `#ID` (FFO lines with an id) or `position N`.
fn parse_positions(bytes: &[u8], rules: RuleSet, name: &str) -> Result<Vec<Entry>, SolveError> {
    let problems = ffo::read_problems(bytes, rules).map_err(|source| SolveError::Input {
        path: name.to_owned(),
        source,
    })?;
    Ok(problems
        .into_iter()
        .enumerate()
        .map(|(index, problem)| Entry {
            label: problem
                .id
                .map_or_else(|| format!("position {}", index + 1), |id| format!("#{id}")),
            line: Some(problem.line),
            game: problem.game,
            listed: problem.listed,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_benchmark_is_ffo_40_to_49() {
        let labels: Vec<String> = bench_positions().into_iter().map(|e| e.label).collect();
        assert_eq!(labels.len(), 10);
        assert_eq!(labels.first().unwrap(), "#40");
        assert_eq!(labels.last().unwrap(), "#49");
    }
}
