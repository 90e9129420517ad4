//! The positions `othello solve` reads: protocol setups, FFO lines and game records, and the
//! built-in benchmark.

use othello::RuleSet;
use othello_engine::Limits;
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

/// Empties beyond which an exact solve cannot be expected to end (the 6x6 start, 32 empties,
/// takes minutes; each further empty multiplies the work by about 2 to 3).
const EXACT_REACH: u32 = 32;

/// Says on standard error, before anything runs, which positions are far beyond an exact solve
/// when no limit is given.
pub(super) fn warn_beyond_reach(entries: &[Entry], limits: &Limits) {
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
    fn the_benchmark_is_ffo_40_to_49() {
        let labels: Vec<String> = bench_positions().into_iter().map(|e| e.label).collect();
        assert_eq!(labels.len(), 10);
        assert_eq!(labels.first().unwrap(), "#40");
        assert_eq!(labels.last().unwrap(), "#49");
    }
}
