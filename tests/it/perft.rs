//! Perft: the published counts, and agreement with the reference model on every kind of board.

use othello::perft::{self, Ply};
use othello::{Board, Color, Dimensions, RuleSet, Setup, Square};

use crate::reference::Model;

/// 8x8, standard start, black first, FULL: depths 1.. (shared/data/perft.md).
const STANDARD_8X8: [u64; 11] = [
    4,
    12,
    56,
    244,
    1396,
    8200,
    55092,
    390_216,
    3_005_288,
    24_571_284,
    212_258_800,
];

/// 6x6, standard start, black first, FULL: depths 1..
const STANDARD_6X6: [u64; 12] = [
    4,
    12,
    56,
    244,
    1364,
    7604,
    47740,
    308_716,
    2_114_912,
    14_976_792,
    108_820_292,
    811_201_176,
];

fn dims(rows: usize, cols: usize) -> Dimensions {
    Dimensions::new(rows, cols).unwrap()
}

fn check_published(setup: &Setup, published: &[u64], depths: std::ops::RangeInclusive<u32>) {
    for depth in depths {
        let expected = published[depth as usize - 1];
        assert_eq!(
            perft::count(setup, RuleSet::Full, depth),
            expected,
            "depth {depth}"
        );
    }
}

#[test]
fn standard_8x8_matches_published_counts_to_depth_9() {
    check_published(&Setup::standard(Dimensions::STANDARD), &STANDARD_8X8, 1..=9);
}

/// Passes first occur at depth 9 and finished games at depth 11; about a second in release.
#[test]
#[ignore = "slow: run with --ignored --release"]
fn standard_8x8_matches_published_counts_to_depth_11() {
    check_published(
        &Setup::standard(Dimensions::STANDARD),
        &STANDARD_8X8,
        10..=11,
    );
}

#[test]
fn standard_6x6_matches_published_counts_to_depth_8() {
    check_published(&Setup::standard(dims(6, 6)), &STANDARD_6X6, 1..=8);
}

#[test]
#[ignore = "slow: run with --ignored --release"]
fn standard_6x6_matches_published_counts_to_depth_11() {
    check_published(&Setup::standard(dims(6, 6)), &STANDARD_6X6, 9..=11);
}

#[test]
fn whole_4x4_tree_has_60060_finished_games() {
    let setup = Setup::standard(dims(4, 4));
    // Every game is over within 15 plies (12 moves and at most a few passes), so the count
    // stops growing there.
    assert_eq!(perft::count(&setup, RuleSet::Full, 15), 60_060);
    assert_eq!(perft::count(&setup, RuleSet::Full, 30), 60_060);
}

#[test]
fn divide_splits_the_count_by_first_move_on_any_thread_count() {
    let setup = Setup::standard(Dimensions::STANDARD);
    let sequential = perft::divide(&setup, RuleSet::Full, 6);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let parallel = pool.install(|| perft::divide(&setup, RuleSet::Full, 6));
    assert_eq!(sequential, parallel);
    assert_eq!(sequential.total, 8200);
    let plies: Vec<Ply> = sequential.children.iter().map(|&(ply, _)| ply).collect();
    let expected: Vec<Ply> = [(2, 3), (3, 2), (4, 5), (5, 4)]
        .iter()
        .map(|&(r, c)| Ply::Move(Square::new(r, c)))
        .collect();
    assert_eq!(plies, expected);
    assert!(sequential.children.iter().all(|&(_, n)| n == 8200 / 4));
}

/// Black cannot move, white can: the first ply is a pass.
#[test]
fn divide_names_a_pass_at_the_root() {
    let setup = Setup::from_protocol("4\n4\nB\n>\nW B . .\n. . . .\n. . . .\n. . . .\n").unwrap();
    let model = Model::from_board(&setup.board);
    assert!(model.moves(RuleSet::Full, Color::Black).is_empty());
    let division = perft::divide(&setup, RuleSet::Full, 3);
    assert_eq!(division.children.len(), 1);
    assert_eq!(division.children[0].0, Ply::Pass);
    assert_eq!(division.total, model.perft(RuleSet::Full, Color::Black, 3));
    assert_eq!(Ply::Pass.to_string(), "pass");
}

/// Boards of every shape and width class, FULL and SIMPLE, against the cell-by-cell model.
#[test]
fn agrees_with_the_reference_model_on_many_boards() {
    let cases: &[(usize, usize, u32, u32)] = &[
        // rows, cols, FULL depth, SIMPLE depth
        (4, 4, 8, 6),
        (4, 6, 6, 5),
        (6, 4, 6, 5),
        (6, 6, 5, 4),
        (4, 16, 5, 4),
        (16, 4, 5, 4),
        (6, 10, 5, 4),
        (8, 8, 5, 4),
        (10, 10, 4, 3),
        (8, 16, 4, 3),
        (16, 16, 4, 3),
    ];
    for &(rows, cols, full_depth, simple_depth) in cases {
        let setup = Setup::standard(dims(rows, cols));
        let model = Model::from_board(&setup.board);
        for (rules, depth) in [(RuleSet::Full, full_depth), (RuleSet::Simple, simple_depth)] {
            for d in 0..=depth {
                assert_eq!(
                    perft::count(&setup, rules, d),
                    model.perft(rules, Color::Black, d),
                    "{rows}x{cols} {rules} depth {d}"
                );
            }
        }
    }
}

/// A mid-game position with passes and finished games in its tree, from the protocol format.
#[test]
fn positions_from_the_protocol_agree_with_the_model() {
    let text = "6\n6\nW\n<\n. B B B B .\nW W W W B .\n. W B W B B\nB B W B W .\n. B B W W .\n. . . . W .\n";
    let setup = Setup::from_protocol(text).unwrap();
    let model = Model::from_board(&setup.board);
    for rules in RuleSet::ALL {
        for depth in 0..=6 {
            assert_eq!(
                perft::count(&setup, rules, depth),
                model.perft(rules, Color::White, depth),
                "{rules} depth {depth}"
            );
        }
    }
}

#[test]
fn a_full_board_is_one_leaf() {
    let dims = dims(4, 4);
    let mut board = Board::empty(dims);
    for square in dims.squares() {
        board.set(square, Some(Color::Black)).unwrap();
    }
    let setup = Setup {
        board,
        ..Setup::standard(dims)
    };
    for depth in 0..5 {
        assert_eq!(perft::count(&setup, RuleSet::Full, depth), 1);
    }
}

mod command {
    use assert_cmd::Command;
    use predicates::prelude::*;

    fn othello() -> Command {
        Command::cargo_bin("othello").unwrap()
    }

    #[test]
    fn prints_the_count_time_and_speed() {
        othello()
            .args(["perft", "6"])
            .assert()
            .success()
            .stdout(predicate::str::is_match(
                r"^perft 6: 8200 leaves\n[0-9]+\.[0-9]{3} s(, [0-9.]+( [kMG])? leaves/s)? on 1 thread( \(too short a time to measure a speed\))?\n$",
            )
            .unwrap());
    }

    #[test]
    fn divides_by_first_move_on_two_threads() {
        othello()
            .args(["perft", "5", "--divide", "--threads", "2"])
            .assert()
            .success()
            .stdout(predicate::str::starts_with(
                "d3: 349\nc4: 349\nf5: 349\ne6: 349\nperft 5: 1396 leaves\n",
            ))
            .stdout(predicate::str::contains("on 2 threads"));
    }

    #[test]
    fn other_sizes_and_rules() {
        othello()
            .args(["perft", "9", "--size", "6x6"])
            .assert()
            .success()
            .stdout(predicate::str::starts_with("perft 9: 2114912 leaves\n"));
        othello()
            .args(["perft", "15", "--size", "4X4", "--rules", "full"])
            .assert()
            .success()
            .stdout(predicate::str::starts_with("perft 15: 60060 leaves\n"));
        othello()
            .args(["perft", "1", "--rules", "simple"])
            .assert()
            .success()
            .stdout(predicate::str::starts_with("perft 1: 10 leaves\n"));
    }

    #[test]
    fn reads_the_start_from_standard_input() {
        othello()
            .args(["perft", "3", "--from", "-", "--divide"])
            .write_stdin("4\n4\nB\n>\nW B . .\n. . . .\n. . . .\n. . . .\n")
            .assert()
            .success()
            .stdout(predicate::str::starts_with("pass: 1\nperft 3: 1 leaf\n"));
    }

    #[test]
    fn bad_sizes_and_files_are_one_line_errors() {
        let one_line = |text: &str| text.ends_with('\n') && text.matches('\n').count() == 1;
        othello()
            .args(["perft", "3", "--size", "7x8"])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::starts_with(
                "error: invalid value '7x8' for '--size <RxC>': a 7x8 board is not supported",
            ));
        othello()
            .args(["perft", "3", "--from", "/no/such/file"])
            .assert()
            .code(2)
            .stderr(
                predicate::str::starts_with("othello: cannot read /no/such/file: ")
                    .and(predicate::function(one_line)),
            );
        othello()
            .args(["perft", "3", "--from", "-"])
            .write_stdin("4\n4\nB\n>\nW B . .\n")
            .assert()
            .code(2)
            .stderr("othello: standard input: line 6: input ended where row 2 of the board was expected\n");
        othello()
            .args(["perft", "3", "--from", "-"])
            .write_stdin(b"4\n4\nB\n>\n\xff\xfe\n".to_vec())
            .assert()
            .code(2)
            .stderr(
                predicate::str::starts_with("othello: standard input: line 5: ")
                    .and(predicate::function(one_line)),
            );
    }

    #[test]
    fn usage_errors_exit_2() {
        for args in [
            &["perft"][..],
            &["perft", "x"],
            &["perft", "3", "--threads", "0"],
            &["perft", "3", "--rules", "odd"],
        ] {
            othello().args(args).assert().code(2).stdout("");
        }
    }
}
