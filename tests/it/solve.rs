//! `othello solve` and `othello perft --verbose` as people read them: the table, its checks
//! against listed results, and the statuses.

use predicates::prelude::*;

use crate::support::othello;

/// FFO #40 after the first ten moves of its principal variation: 10 empties, white to move,
/// with its best move, exact score and every move's exact score (empties to the winner).
pub(crate) const FFO_10: &str = "4010 OOXXXXXXXOXXXXXXOOXOXOXXOOXXOXXXOOXOXOXX-O-XOOOXXOOOX--X-X---X-- O 10 C6 -38 C6:-38,F7:-44,D8:-46,E8:-48";

/// The 4x4 start, black to move.
const START_4X4: &str = "4\n4\nB\n>\n. . . .\n. W B .\n. B W .\n. . . .\n";

/// Runs `othello solve ARGS` on `input` and returns standard output, checking the status.
fn solve(args: &[&str], input: &str, status: i32) -> String {
    let output = othello()
        .arg("solve")
        .args(args)
        .write_stdin(input)
        .assert()
        .code(status)
        .get_output()
        .clone();
    String::from_utf8(output.stdout).unwrap()
}

/// `text` with the columns that hold times and speeds (found by their headings, right-aligned
/// to them, `width` wide) masked, so that a snapshot keeps the layout and everything else.
fn mask_columns(text: &str, columns: &[(&str, usize)]) -> String {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    let ends: Vec<(usize, usize)> = columns
        .iter()
        .map(|&(heading, width)| {
            let at = header.find(heading).expect("the heading is in the header");
            (at + heading.len(), width)
        })
        .collect();
    let mut masked = vec![header.to_owned()];
    for line in lines {
        let mut chars: Vec<char> = line.chars().collect();
        if !line.trim_start().starts_with("moves:") && !line.starts_with("note") {
            for &(end, width) in &ends {
                if chars.len() >= end {
                    chars[end - width..end].fill('~');
                }
            }
        }
        masked.push(chars.into_iter().collect());
    }
    masked.join("\n") + "\n"
}

fn mask_solve(text: &str) -> String {
    mask_columns(text, &[("time (s)", 10), ("N/s", 8)])
}

#[test]
fn the_table_has_a_row_per_position_and_a_total() {
    let input = format!("{FFO_10}\n{START_4X4}4\n4\nB\n>\nB B B B\nB B B B\nB B B B\nB B B W\n");
    let table = solve(&["--empties-to-winner"], &input, 0);
    insta::assert_snapshot!(mask_solve(&table));
}

#[test]
fn all_moves_scores_every_move_and_checks_the_listed_scores() {
    let table = solve(&["--empties-to-winner", "--all-moves"], FFO_10, 0);
    insta::assert_snapshot!(mask_solve(&table));
    // A listed move score that the solve contradicts is a difference, named in the row.
    let wrong = FFO_10.replace("F7:-44", "F7:-42");
    let table = solve(&["--empties-to-winner", "--all-moves"], &wrong, 1);
    assert!(table.contains("  DIFFERENT  "), "{table}");
    assert!(table.contains("f7 -44 (listed -42)"), "{table}");
}

#[test]
fn a_search_cut_short_is_not_exact_and_not_a_difference() {
    // The estimates below are those of the classic evaluation.
    // At depth 1 the estimate finds the listed move: not exact, the move agrees, status 0.
    let table = solve(
        &["--empties-to-winner", "--depth", "1", "--eval", "classic"],
        FFO_10,
        0,
    );
    let row = table.lines().nth(1).unwrap();
    assert!(
        row.starts_with("#4010       10       1    -21  "),
        "{table}"
    );
    assert!(row.contains("  not exact, move ok  "), "{table}");
    assert!(!table.contains("DIFFERENT"), "{table}");
    assert!(table.contains("0 of 1 match, 1 not exact"), "{table}");
    // At depth 2 it prefers another move: still an estimate, not a failure.
    let table = solve(
        &["--empties-to-winner", "--depth", "2", "--eval", "classic"],
        FFO_10,
        0,
    );
    assert!(table.contains("  not exact, other move  e8 c6"), "{table}");
    // The block says the same in words.
    let block = solve(
        &[
            "--empties-to-winner",
            "--depth",
            "2",
            "--verbose",
            "--eval",
            "classic",
        ],
        FFO_10,
        0,
    );
    assert!(block.contains("(evaluation at depth 2)"), "{block}");
    assert!(
        block.contains("listed     c6 -38: not exact, so only the move is compared"),
        "{block}"
    );
}

#[test]
fn verbose_prints_a_line_per_iteration_then_the_block() {
    let input = "6\n6\nB\n>\n. . . . . .\n. . . . . .\n. . W B . .\n. . B W . .\n. . . . . .\n. . . . . .\n";
    let block = solve(&["--depth", "3", "--verbose"], input, 0);
    let lines: Vec<&str> = block.lines().collect();
    assert_eq!(
        lines[0],
        "position 1 (line 1): 6x6 FULL, most discs wins, black to move, 32 empties"
    );
    for (line, depth) in lines[1..4].iter().zip(1..) {
        assert!(line.starts_with(&format!("  depth {depth} ")), "{block}");
        assert!(line.contains(" nodes  "), "{block}");
    }
    assert!(lines[4].starts_with("  best move  "), "{block}");
    assert!(lines[5].ends_with(" (evaluation at depth 3)"), "{block}");
}

#[test]
fn a_protocol_input_with_moves_is_solved_after_them() {
    // 1 2 (b1) is black's move; 9 9 is off the board and skipped, as the protocol would.
    let block = solve(&["--verbose"], &format!("{START_4X4}9 9\n1 2\n"), 0);
    assert!(
        block.starts_with(
            "position 1 (line 1): 4x4 FULL, most discs wins, white to move, 11 empties\n"
        ),
        "{block}"
    );
}

#[test]
fn malformed_lines_are_named_in_their_own_format() {
    let short_board = FFO_10.replacen("OOXX", "OXX", 1);
    othello()
        .arg("solve")
        .write_stdin(format!("# FFO\n{short_board}\n"))
        .assert()
        .code(2)
        .stdout("")
        .stderr(
            "othello: standard input: line 2, column 6: the board has 63 squares, expected 64 (X, \
             O or - for each of a1..h8)\n",
        );
    othello()
        .arg("solve")
        .write_stdin(FFO_10.replace("F7:-44", "F7=-44"))
        .assert()
        .code(2)
        .stderr(
            "othello: standard input: line 1, column 90: expected a move and its score such as \
             A2:+38, found \"F7=-44\"\n",
        );
    othello()
        .arg("solve")
        .write_stdin(FFO_10.replace(" O 10 ", " Q 10 "))
        .assert()
        .code(2)
        .stderr(
            "othello: standard input: line 1, column 71: expected the side to move, X or O, found \"Q\"\n",
        );
}

#[test]
fn perft_verbose_has_a_row_per_depth() {
    let output = othello()
        .args(["perft", "9", "--size", "4x4", "--verbose"])
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8(output.stdout).unwrap();
    let (table, summary) = text.split_at(text.find("perft 9:").unwrap());
    insta::assert_snapshot!(mask_columns(table, &[("time (s)", 10), ("leaves/s", 10)]));
    assert!(summary.starts_with("perft 9: 20044 leaves\n"), "{summary}");
    assert!(
        summary.contains(" s, ") || summary.contains(" s on 1 thread"),
        "{summary}"
    );
    // A tiny count gets no made-up speed.
    othello()
        .args(["perft", "1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("0.0 M").not());
}

#[test]
fn edax_obf_lines_are_solved_and_every_listed_move_checked() {
    let text = std::fs::read_to_string(crate::support::real_file("fforum-1-19.obf")).unwrap();
    let first: String = text
        .lines()
        .take(3)
        .map(|line| format!("{line}\n"))
        .collect::<Vec<_>>()
        .concat();
    // Edax's OBF scores give the empties to the winner: read so by default (position 2 was
    // DIFFERENT when only discs counted), and the flag is still accepted.
    for flags in [&[][..], &["--empties-to-winner"][..]] {
        let table = solve(flags, &first, 0);
        assert!(table.contains("3 of 3 match"), "{flags:?}: {table}");
        assert!(!table.contains("DIFFERENT"), "{flags:?}: {table}");
    }
    let table = solve(&[], &first, 0);
    assert!(
        table.contains("moves: g8 +18, h1 +12, a2 +6, h7 +6, a3 +4, b1 -4, a4 -22, g2 -24"),
        "{table}"
    );
    // A listed move score that is wrong is named.
    let wrong = first.replace("H1:+12;", "H1:+10;");
    let table = solve(&["--empties-to-winner"], &wrong, 1);
    assert!(table.contains("h1 +12 (listed +10)"), "{table}");
    assert!(table.contains("2 of 3 match"), "{table}");
}

/// Every position of Edax's `fforum-1-19.obf`: run by `.ci/run` through the release binary.
#[test]
#[ignore = "slow in a debug build: .ci/run solves the file with the release binary"]
fn every_fforum_position_solves_to_its_listed_move_scores() {
    let text = std::fs::read_to_string(crate::support::real_file("fforum-1-19.obf")).unwrap();
    let table = solve(&["--empties-to-winner"], &text, 0);
    assert!(table.contains("19 of 19 match"), "{table}");
}

#[test]
fn a_finished_game_is_scored_for_the_side_to_move() {
    // White started this random-start synchro game and black won it by 8; white made the last
    // move, so black is to move: +8.
    let text = std::fs::read_to_string(crate::support::real_file("novello-white-starts-s8r19.ggf"))
        .unwrap();
    let table = solve(&[], &text, 0);
    let row = table.lines().nth(1).unwrap();
    assert!(row.starts_with("game 1        0    over     +8"), "{table}");
}

/// With two threads, `--verbose` says how they shared the work, for each position and in all;
/// with one it says nothing of threads.
#[test]
fn verbose_counts_how_two_threads_shared_the_work() {
    let input = format!("{FFO_10}\n{FFO_10}\n");
    let two = solve(&["--threads", "2", "--verbose", "--depth", "6"], &input, 0);
    let lines: Vec<&str> = two.lines().filter(|l| l.contains("threads")).collect();
    assert_eq!(lines.len(), 3, "{two}");
    assert!(
        lines[0].starts_with("  threads    2: helpers busy "),
        "{two}"
    );
    assert!(lines[0].contains(" splits, "), "{two}");
    assert!(lines[2].starts_with("threads 2: helpers busy "), "{two}");
    let one = solve(&["--verbose", "--depth", "6"], &input, 0);
    assert!(!one.contains("threads"), "{one}");
}

/// FFO #59: 34 empties, black wins by 64 (fast to solve, far from the end).
const FFO_59: &str = "59 -----------------------O--OOOOO---OOOOOXOOOOXXXX--XXOOXX--XX-O-X X 34 H4,G8,E8 +64 H4:+64,G8:+64,E8:+64,A5:+62,B3:+54,F3:+52,B5:+44,D3:+38,E3:+36,G3:+34,C3:+30";

/// A solve far from the end is announced with the estimate of its work on one thread and, with
/// more threads, the time at best on them; then it runs (here fast: a decisive position).
#[test]
fn a_deep_solve_is_announced_with_its_time_on_one_thread_and_at_best_on_several() {
    for (threads, at_best) in [
        ("1", None),
        ("2", Some(", at best 13 minutes on 2 threads;")),
    ] {
        let output = othello()
            .args(["solve", "--empties-to-winner", "--threads", threads])
            .write_stdin(format!("{FFO_59}\n"))
            .assert()
            .success()
            .stdout(predicate::str::contains("1 of 1 match"))
            .get_output()
            .clone();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(
            stderr.starts_with(
                "othello: #59 (line 1) has 34 empties: an exact solve of a typical position that \
                 far from the end visits about 3.2e10 positions (2.7e9 to 2.6e11), 27 minutes on \
                 one thread at 20 M a second (2.2 minutes to 3.6 hours)"
            ),
            "{stderr}"
        );
        assert_eq!(stderr.contains(", at best"), at_best.is_some(), "{stderr}");
        if let Some(at_best) = at_best {
            assert!(stderr.contains(at_best), "{stderr}");
        }
    }
}
