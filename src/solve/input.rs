//! The positions `othello solve` reads: protocol setups, FFO lines and game records, and the
//! built-in benchmark.

use othello::RuleSet;
use othello_engine::Limits;
use othello_engine::cost::exact_solve_nodes;
use othello_records::ffo;
use othello_records::{self as record, Format, ReadOptions};

use super::{Entry, SolveError};

/// FFO #40-#59, the positions `--bench` solves (#40-#49).
const FFO: &str = include_str!("../../fixtures/ffo/ffo-40-59.txt");
/// The FFO positions of the benchmark.
const BENCH_IDS: std::ops::RangeInclusive<u32> = 40..=49;

pub(super) fn bench_positions() -> Vec<Entry> {
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

/// Empties from which an exact solve without a limit is announced with an estimate of its
/// work (a typical position: about 2 G positions, minutes on one thread).
const LONG_SOLVE_MIN: u32 = 30;

/// The solver's speed on one thread on FFO #40-#49 (about 20-24 M positions a second on the
/// development machine), for turning an estimate of positions into time.
const NODES_PER_SECOND: f64 = 20e6;

/// Says on standard error, before anything runs, what the exact solve of each position far
/// from the end is expected to cost ([`othello_engine::cost`]) when no limit is given, on one
/// thread and at best on `threads`; the solves then run.
pub(super) fn announce_long_solves(entries: &[Entry], limits: &Limits, threads: usize) {
    if limits.depth.is_some() || limits.time.is_some() || limits.nodes.is_some() {
        return;
    }
    for entry in entries {
        let empties = entry.game.board().empties();
        if empties >= LONG_SOLVE_MIN && !entry.game.is_over() {
            let line = entry
                .line
                .map_or_else(String::new, |line| format!(" (line {line})"));
            let cost = exact_solve_nodes(empties);
            let time = |nodes: f64| duration_text(nodes / NODES_PER_SECOND);
            let shared = if threads > 1 {
                format!(
                    ", at best {} on {threads} threads",
                    duration_text(cost.typical / NODES_PER_SECOND / threads as f64)
                )
            } else {
                String::new()
            };
            othello_io::warn(format_args!(
                "othello: {}{line} has {empties} empties: an exact solve of a typical position \
                 that far from the end visits about {} positions ({} to {}), {} on one thread \
                 at 20 M a second ({} to {}){shared}; --time SECS or --depth N limit it, and \
                 Ctrl-C stops it and prints the best move so far",
                entry.label,
                count_text(cost.typical),
                count_text(cost.low),
                count_text(cost.high),
                time(cost.typical),
                time(cost.low),
                time(cost.high),
            ));
        }
    }
}

/// A large count in two significant digits: `3.2e10`.
fn count_text(count: f64) -> String {
    format!("{count:.1e}")
}

/// A duration in the unit that reads best: `45 s`, `27 minutes`, `3.6 hours`, `12 days`,
/// `4.1e9 years`.
fn duration_text(seconds: f64) -> String {
    const MINUTE: f64 = 60.0;
    const HOUR: f64 = 60.0 * MINUTE;
    const DAY: f64 = 24.0 * HOUR;
    const YEAR: f64 = 365.25 * DAY;
    let short = |value: f64, unit: &str| {
        if value < 10.0 {
            format!("{value:.1} {unit}")
        } else {
            format!("{value:.0} {unit}")
        }
    };
    if seconds < 90.0 {
        short(seconds, "s")
    } else if seconds < 90.0 * MINUTE {
        short(seconds / MINUTE, "minutes")
    } else if seconds < 48.0 * HOUR {
        short(seconds / HOUR, "hours")
    } else if seconds < 2.0 * YEAR {
        short(seconds / DAY, "days")
    } else if seconds < 1e4 * YEAR {
        short(seconds / YEAR, "years")
    } else {
        format!("{:.1e} years", seconds / YEAR)
    }
}

/// The positions of the input: after the last move of each game for game records (move lists,
/// GGF, WTHOR), else protocol setups and FFO lines.
pub(super) fn parse_input(
    bytes: &[u8],
    rules: RuleSet,
    name: &str,
) -> Result<Vec<Entry>, SolveError> {
    let is_record = match Format::detect(bytes) {
        format if format.spec().positions => false,
        // Only a file with something in it: an empty one is reported as such below.
        Format::MoveList => String::from_utf8_lossy(bytes)
            .lines()
            .any(|line| !line.trim().is_empty() && !line.trim().starts_with('#')),
        _ => true,
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
            side: record::obf::side_to_move(record),
        })
        .collect())
}

/// The positions of the input, labelled `#ID` (FFO lines with an id) or `position N`.
pub(super) fn parse_positions(
    bytes: &[u8],
    rules: RuleSet,
    name: &str,
) -> Result<Vec<Entry>, SolveError> {
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
            side: problem.game.turn().unwrap_or(problem.game.first_player()),
            game: problem.game,
            listed: problem.listed,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_in_their_unit() {
        assert_eq!(duration_text(45.0), "45 s");
        assert_eq!(duration_text(1_620.0), "27 minutes");
        assert_eq!(duration_text(13_000.0), "3.6 hours");
        assert_eq!(duration_text(86_400.0 * 12.0), "12 days");
        assert_eq!(duration_text(3.0e7 * 5.0), "4.8 years");
        assert_eq!(duration_text(3.156e16), "1.0e9 years");
        assert_eq!(count_text(3.23e10), "3.2e10");
    }

    #[test]
    fn the_benchmark_is_ffo_40_to_49() {
        let labels: Vec<String> = bench_positions().into_iter().map(|e| e.label).collect();
        assert_eq!(labels.len(), 10);
        assert_eq!(labels.first().unwrap(), "#40");
        assert_eq!(labels.last().unwrap(), "#49");
    }
}
