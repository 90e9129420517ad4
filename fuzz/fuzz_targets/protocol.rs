//! The console protocol on arbitrary bytes, under both rule sets: it never panics, and every
//! line it prints is the banner, a line of a block, `VALID` or `INVALID`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::RuleSet;

fn is_block_line(line: &str) -> bool {
    if let Some(rest) = line.strip_prefix("B: ") {
        let Some((black, white)) = rest.split_once("  W: ") else {
            return false;
        };
        return black.parse::<u32>().is_ok() && white.parse::<u32>().is_ok();
    }
    if let Some(color) = line.strip_prefix("TURN: ") {
        return matches!(color, "B" | "W");
    }
    if let Some(winner) = line.strip_prefix("WINNER: ") {
        return matches!(winner, "B" | "W" | "NONE");
    }
    // A grid row: cells separated by single spaces.
    let cells: Vec<&str> = line.split(' ').collect();
    (4..=16).contains(&cells.len()) && cells.iter().all(|cell| matches!(*cell, "." | "B" | "W"))
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, input)) = data.split_first() else {
        return;
    };
    let rules = if selector & 1 == 0 {
        RuleSet::Full
    } else {
        RuleSet::Simple
    };
    let (transcript, _end) = othello::protocol::run(rules, input);
    let banner = othello::protocol::banner(rules);
    assert!(transcript.starts_with(banner), "no banner: {transcript:?}");
    assert!(transcript.ends_with('\n') || transcript.is_empty());
    for line in transcript.lines().skip(1) {
        assert!(
            line == "VALID" || line == "INVALID" || is_block_line(line),
            "unexpected line {line:?}"
        );
    }
});
