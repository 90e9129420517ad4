//! `othello solve`: solves positions exactly (or searches them within limits) and prints the
//! best move, the score, the principal variation and the search statistics of each.
//!
//! Input, from a file or standard input: protocol setups (the header and grid the console
//! protocol starts with), or 8x8 position lines in the FFO format of `fixtures/ffo/`
//! (`[id] board side [empties best_moves score ...]`), in any mix; blank lines and lines
//! starting with `#` are skipped.

use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;
use thiserror::Error;

use othello::ffo::{self, FfoError, Listed};
use othello::record::{self, Format, ReadOptions, RecordError};
use othello::{
    Engine, EngineConfig, EngineError, Game, Limits, RuleSet, Scoring, SearchReport, SetupError,
    SetupParser, Square, WinRule,
};

use super::input::{read_named, ReadError};
use super::RulesArg;

/// FFO #40-#59, the positions `--bench` solves (#40-#49).
const FFO: &str = include_str!("../../fixtures/ffo/ffo-40-59.txt");
/// The FFO positions of the benchmark.
const BENCH_IDS: std::ops::RangeInclusive<u32> = 40..=49;

/// Arguments of `othello solve`.
#[derive(Debug, Args)]
#[command(after_help = "\
Input: protocol setups (rows, columns, first player, win rule, grid) or 8x8 FFO lines
(`[id] board side [empties best_moves score ...]`, board a1..h8 with X black, O white, - empty),
in any mix; blank lines and lines starting with # are skipped.

Exit status: 0 done, 1 a result differs from the one listed in the input (or a read/write
failure), 2 bad input or usage.")]
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
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,

    /// Transposition table size in MiB.
    #[arg(long, value_name = "MB", default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,

    /// Score finished games the FFO way: empty squares go to the winner (the listed FFO
    /// scores use this). Without it only discs count, as in the protocol.
    #[arg(long)]
    empties_to_winner: bool,

    /// Rule set for protocol setups (FFO lines are always FULL).
    #[arg(long, value_enum, default_value_t = RulesArg::Full)]
    rules: RulesArg,

    /// Print one table row per position; without FILE, solve the built-in FFO #40-#49
    /// benchmark (with --empties-to-winner); FILE `-` reads standard input.
    #[arg(long)]
    bench: bool,
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
    /// A protocol setup in the input is malformed.
    #[error("{path}: {source}")]
    Setup {
        /// The input's name.
        path: String,
        /// What is wrong, and on which line.
        source: SetupError,
    },
    /// An FFO line is malformed.
    #[error("{path}: line {line}: {source}")]
    Ffo {
        /// The input's name.
        path: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        source: FfoError,
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
    /// Standard output could not be written.
    #[error("cannot write standard output: {0}")]
    Write(io::Error),
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
            SolveError::Setup { .. }
            | SolveError::Ffo { .. }
            | SolveError::Record { .. }
            | SolveError::Empty { .. } => 2,
            SolveError::Open(_) | SolveError::Write(_) | SolveError::Mismatch { .. } => 1,
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
    /// `#40` for FFO lines with an id, else `position N`.
    label: String,
    /// 1-based line where it starts (unknown for a game record).
    line: Option<usize>,
    game: Game,
    listed: Option<Listed>,
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
    let mut engine = Engine::new(EngineConfig {
        hash_mb: args.hash as usize,
        threads: args.threads as usize,
        seed: 0,
    });
    engine.set_scoring(scoring);
    let limits = Limits {
        depth: args.depth,
        nodes: None,
        time: args.time,
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let progress = io::stderr().is_terminal();
    let mut totals = Totals::default();
    if args.bench {
        writeln!(out, "{}", TABLE_HEADER).map_err(SolveError::Write)?;
    }
    for entry in &entries {
        let result = solve_one(&mut engine, entry, &limits, progress);
        totals.add(entry, &result);
        let text = if args.bench {
            table_row(entry, &result)
        } else {
            block(entry, &result, scoring)
        };
        out.write_all(text.as_bytes()).map_err(SolveError::Write)?;
        out.flush().map_err(SolveError::Write)?;
    }
    let summary = totals.summary(args.bench);
    out.write_all(summary.as_bytes())
        .map_err(SolveError::Write)?;
    out.flush().map_err(SolveError::Write)?;
    if totals.mismatches > 0 {
        return Err(SolveError::Mismatch {
            mismatches: totals.mismatches,
            listed: totals.listed,
        });
    }
    Ok(())
}

fn read_input(path: Option<&PathBuf>) -> Result<(String, Vec<u8>), SolveError> {
    Ok(read_named(
        path.map_or(Path::new("-"), PathBuf::as_path),
        "standard input",
    )?)
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

/// What searching one position gave.
enum Outcome {
    Searched(SearchReport),
    /// Nobody can move; the final margin for the player named first.
    Over(i32),
    /// The engine refused the search.
    Failed(EngineError),
}

fn solve_one(engine: &mut Engine, entry: &Entry, limits: &Limits, progress: bool) -> Outcome {
    if entry.game.is_over() {
        return Outcome::Over(final_margin(entry));
    }
    let stop = AtomicBool::new(false);
    let mut show = |report: &SearchReport| {
        if progress {
            let kind = if report.exact { "exact" } else { "eval" };
            eprint!(
                "\r\x1b[K{}: depth {} {} {:+} ({kind}), {} nodes, {:.1} s",
                entry.label,
                report.depth,
                report.best_move,
                report.score,
                report.nodes,
                report.elapsed.as_secs_f64()
            );
        }
    };
    let result = engine.search_with(&entry.game, limits, &stop, &mut show);
    if progress {
        eprint!("\r\x1b[K");
    }
    match result {
        Ok(report) => Outcome::Searched(report),
        Err(error) => Outcome::Failed(error),
    }
}

/// The final margin of a finished game for the player named to move.
fn final_margin(entry: &Entry) -> i32 {
    let game = &entry.game;
    let score = game.score();
    let mover = game.first_player();
    let margin = score[mover] as i32 - score[mover.opponent()] as i32;
    match game.win_rule() {
        WinRule::MostDiscs => margin,
        WinRule::FewestDiscs => -margin,
    }
}

/// Whether the result agrees with the listed one: the same score and a listed best move.
fn matches(listed: &Listed, outcome: &Outcome) -> bool {
    match outcome {
        Outcome::Searched(report) => {
            report.exact && report.score == listed.score && listed.best.contains(&report.best_move)
        }
        Outcome::Over(margin) => *margin == listed.score && listed.best.is_empty(),
        Outcome::Failed(_) => false,
    }
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

fn block(entry: &Entry, outcome: &Outcome, scoring: Scoring) -> String {
    let mut text = describe(entry);
    text.push('\n');
    match outcome {
        Outcome::Over(margin) => {
            let _ = writeln!(text, "  nobody can move: final score {margin:+}");
        }
        Outcome::Failed(error) => {
            let _ = writeln!(text, "  not searched: {error}");
        }
        Outcome::Searched(report) => {
            let kind = if report.exact {
                "exact".to_owned()
            } else {
                format!("evaluation at depth {}", report.depth)
            };
            let _ = writeln!(text, "  best move  {}", report.best_move);
            let _ = writeln!(text, "  score      {:+} ({kind})", report.score);
            let pv: Vec<String> = report.pv.iter().map(Square::to_string).collect();
            let _ = writeln!(text, "  pv         {}", pv.join(" "));
            let _ = writeln!(
                text,
                "  nodes      {} in {:.3} s, {}",
                report.nodes,
                report.elapsed.as_secs_f64(),
                speed(report.nodes, report.elapsed)
            );
        }
    }
    if let Some(listed) = &entry.listed {
        let best: Vec<String> = listed.best.iter().map(Square::to_string).collect();
        let verdict = if matches(listed, outcome) {
            "match"
        } else {
            "DIFFERENT"
        };
        let note = if scoring == Scoring::DiscsOnly {
            " (FFO scores count empties for the winner: use --empties-to-winner)"
        } else {
            ""
        };
        let _ = writeln!(
            text,
            "  listed     {} {:+}: {verdict}{note}",
            best.join(","),
            listed.score
        );
    }
    text
}

const TABLE_HEADER: &str =
    "position     empties  move  score        time (s)        nodes   M nodes/s  listed";

fn table_row(entry: &Entry, outcome: &Outcome) -> String {
    let empties = entry.game.board().empties();
    let verdict = match &entry.listed {
        Some(listed) if matches(listed, outcome) => "match",
        Some(_) => "DIFFERENT",
        None => "-",
    };
    match outcome {
        Outcome::Over(margin) => format!(
            "{:<12} {empties:>7}  {:<4}  {margin:>+5}  {:>14} {:>12} {:>11}  {verdict}\n",
            entry.label, "-", "over", 0, "-"
        ),
        Outcome::Failed(error) => format!("{:<12} {empties:>7}  {error}\n", entry.label),
        Outcome::Searched(report) => {
            let score = if report.exact {
                format!("{:+}", report.score)
            } else {
                format!("{:+}?", report.score)
            };
            format!(
                "{:<12} {empties:>7}  {:<4}  {score:>5}  {:>14.3} {:>12} {:>11.2}  {verdict}\n",
                entry.label,
                report.best_move.to_string(),
                report.elapsed.as_secs_f64(),
                report.nodes,
                report.nodes as f64 / report.elapsed.as_secs_f64().max(1e-9) / 1e6
            )
        }
    }
}

fn speed(nodes: u64, elapsed: Duration) -> String {
    let per_second = nodes as f64 / elapsed.as_secs_f64().max(1e-9);
    format!("{:.2} M nodes/s", per_second / 1e6)
}

/// Sums over all positions.
#[derive(Default)]
struct Totals {
    positions: usize,
    exact: usize,
    nodes: u64,
    elapsed: Duration,
    listed: usize,
    mismatches: usize,
}

impl Totals {
    fn add(&mut self, entry: &Entry, outcome: &Outcome) {
        self.positions += 1;
        match outcome {
            Outcome::Searched(report) => {
                self.exact += report.exact as usize;
                self.nodes += report.nodes;
                self.elapsed += report.elapsed;
            }
            Outcome::Over(_) => self.exact += 1,
            Outcome::Failed(_) => {}
        }
        if let Some(listed) = &entry.listed {
            self.listed += 1;
            self.mismatches += !matches(listed, outcome) as usize;
        }
    }

    fn summary(&self, table: bool) -> String {
        let mut text = String::new();
        if table {
            let _ = writeln!(
                text,
                "{:<12} {:>7}  {:<4}  {:>5}  {:>14.3} {:>12} {:>11.2}  {}",
                "total",
                "",
                "",
                "",
                self.elapsed.as_secs_f64(),
                self.nodes,
                self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9) / 1e6,
                self.verdict()
            );
        } else if self.positions > 1 {
            let _ = writeln!(
                text,
                "{} positions, {} solved exactly: {} nodes in {:.3} s, {}; {}",
                self.positions,
                self.exact,
                self.nodes,
                self.elapsed.as_secs_f64(),
                speed(self.nodes, self.elapsed),
                self.verdict()
            );
        }
        text
    }

    fn verdict(&self) -> String {
        if self.listed == 0 {
            "no listed results".to_owned()
        } else {
            format!("{} of {} match", self.listed - self.mismatches, self.listed)
        }
    }
}

/// Splits the input into positions: FFO lines and protocol setups.
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

fn parse_positions(bytes: &[u8], rules: RuleSet, name: &str) -> Result<Vec<Entry>, SolveError> {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let lines: Vec<&[u8]> = bytes
        .split(|&b| b == b'\n')
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
        .collect();
    let mut entries = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let text = String::from_utf8_lossy(lines[i]);
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            i += 1;
            continue;
        }
        let number = entries.len() + 1;
        if let Some(result) = ffo::parse_line(trimmed) {
            let position = result.map_err(|source| SolveError::Ffo {
                path: name.to_owned(),
                line: i + 1,
                source,
            })?;
            let label = position
                .id
                .as_ref()
                .map_or_else(|| format!("position {number}"), |id| format!("#{id}"));
            entries.push(Entry {
                label,
                line: Some(i + 1),
                game: position.game(),
                listed: position.listed,
            });
            i += 1;
            continue;
        }
        let start = i;
        let mut parser = SetupParser::new();
        let setup = loop {
            let error = |source: SetupError| SolveError::Setup {
                path: name.to_owned(),
                source: SetupError {
                    line: source.line + start,
                    kind: source.kind,
                },
            };
            let Some(line) = lines.get(i) else {
                return Err(error(parser.end_of_input()));
            };
            i += 1;
            if let Some(setup) = parser.push_line(line).map_err(error)? {
                break setup;
            }
        };
        entries.push(Entry {
            label: format!("position {number}"),
            line: Some(start + 1),
            game: Game::new(setup, rules),
            listed: None,
        });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ffo_lines_and_setups_in_one_input() {
        let input = format!(
            "# comment\n\n{}\n4\n4\nB\n<\n. . . .\n. W B .\n. B W .\n. . . .\n",
            FFO.lines().find(|l| l.starts_with("40 ")).unwrap()
        );
        let entries = parse_positions(input.as_bytes(), RuleSet::Simple, "input").unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].label, "#40");
        assert_eq!(entries[0].line, Some(3));
        assert_eq!(entries[0].game.board().empties(), 20);
        assert_eq!(entries[0].game.rules(), RuleSet::Full);
        assert_eq!(
            entries[0].listed,
            Some(Listed {
                best: vec![Square::new(1, 0)],
                score: 38
            })
        );
        assert_eq!(entries[1].label, "position 2");
        assert_eq!(entries[1].line, Some(4));
        assert_eq!(entries[1].game.rules(), RuleSet::Simple);
        assert_eq!(entries[1].game.win_rule(), WinRule::FewestDiscs);
    }

    #[test]
    fn bad_lines_name_their_line() {
        let error = |input: &str| {
            parse_positions(input.as_bytes(), RuleSet::Full, "in")
                .unwrap_err()
                .to_string()
        };
        let board = "-".repeat(64);
        assert_eq!(
            error(&format!("\n{board} Q\n")),
            "in: line 2: expected the side to move, X or O, found \"Q\""
        );
        assert_eq!(
            error(&format!("{board} X 3\n")),
            "in: line 1: the line says 3 empties but the board has 64"
        );
        assert_eq!(
            error(&format!("{board} X 64 Z9 +2\n")),
            "in: line 1: expected a square such as a2, found \"Z9\""
        );
        assert_eq!(
            error("# x\n4\n4\nB\n>\n. . . .\n"),
            "in: line 7: input ended where row 2 of the board was expected"
        );
        assert_eq!(
            error("4\n5\n"),
            "in: line 2: expected the number of columns, an even integer from 4 to 16, found \"5\""
        );
    }

    #[test]
    fn the_benchmark_is_ffo_40_to_49() {
        let labels: Vec<String> = bench_positions().into_iter().map(|e| e.label).collect();
        assert_eq!(labels.len(), 10);
        assert_eq!(labels.first().unwrap(), "#40");
        assert_eq!(labels.last().unwrap(), "#49");
    }
}
